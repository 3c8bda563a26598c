// Who else repairs a finding, and when (diagnosis.md §7).

#include "core/automation.h"

#include "core/apiparser.h"
#include "core/diagnosis.h"
#include "core/diagnosiscontext.h"
#include "core/finding.h"
#include "core/klusterphase.h"

#include <algorithm>
#include <iterator>

namespace {

struct ActorTraits
{
    Actor actor;
    const char *name;
    int periodSeconds;
    const char *owners;
};

// sapcc/kubernikus: the base controller requeues every kluster every 5 min (flight), routegc polls every
// 300 s; the cloud controller manager's route controller reconciles every 60 s (docs/wire-formats.md).
constexpr ActorTraits actors[] = {
    { Actor::Flight, "flight", 5 * 60,
        "the Kubernikus operators (the flight controller of kubernikus-operator in the control plane)" },
    { Actor::RouteGc, "routegc", 5 * 60,
        "the Kubernikus operators (the routegc controller of kubernikus-operator in the control plane)" },
    { Actor::RouteController, "route-controller", 60,
        "the kluster's control plane (the route controller of its cloud controller manager)" },
};

struct ActionWords
{
    AutomationAction action;
    const char *name;
    const char *present;
    const char *past;
};

constexpr ActionWords actions[] = {
    { AutomationAction::DeleteInstance, "delete-instance", "deletes the instance", "deleted the instance" },
    { AutomationAction::AddSecurityGroup, "add-security-group", "adds the security group back",
        "added the security group back" },
    { AutomationAction::CreateRules, "create-rules", "recreates the pod-network rules",
        "recreated the pod-network rules" },
    { AutomationAction::RemoveRoute, "remove-route", "removes the route", "removed the route" },
    { AutomationAction::AddRoute, "add-route", "adds the route", "added the route" },
};

const ActorTraits &traits(Actor actor)
{
    return actors[std::size_t(actor)];
}

const ActionWords &words(AutomationAction action)
{
    return actions[std::size_t(action)];
}

constexpr bool inOrder()
{
    for (std::size_t i = 0; i < std::size(actors); ++i) {
        if (actors[i].actor != Actor(i))
            return false;
    }
    for (std::size_t i = 0; i < std::size(actions); ++i) {
        if (actions[i].action != AutomationAction(i))
            return false;
    }
    return true;
}
static_assert(inOrder(), "one entry per actor and per action, in the order of the enums");

QString clockTime(const QDateTime &t)
{
    return t.toUTC().toString(QStringLiteral("HH:mm")) + QStringLiteral(" UTC");
}

} // namespace

QString Actors::name(Actor actor)
{
    return QLatin1String(traits(actor).name);
}

std::optional<Actor> Actors::fromName(QStringView name)
{
    for (const ActorTraits &a : actors) {
        if (name == QLatin1String(a.name))
            return a.actor;
    }
    return std::nullopt;
}

int Actors::periodSeconds(Actor actor)
{
    return traits(actor).periodSeconds;
}

QString Actors::owners(Actor actor)
{
    return QLatin1String(traits(actor).owners);
}

QString Actors::actionName(AutomationAction action)
{
    return QLatin1String(words(action).name);
}

QString Actors::actionWords(AutomationAction action)
{
    return QLatin1String(words(action).present);
}

QString Actors::pastWords(AutomationAction action)
{
    return QLatin1String(words(action).past);
}

Automation Automation::at(Actor actor, AutomationAction action, const QDateTime &since,
    const QDateTime &reference, qint64 delaySeconds)
{
    Automation a;
    a.actor = actor;
    a.action = action;
    const qint64 period = Actors::periodSeconds(actor);
    const qint64 delay = delaySeconds >= 0 ? delaySeconds : period;
    if (since.isValid() && reference.isValid()) {
        // A since-when ahead of the reference (this machine's clock ahead of the cloud's, or stepped back)
        // is not a future: the condition holds from now at the latest.
        a.since = since > reference ? reference : since;
        a.due = a.since.addSecs(delay);
    } else {
        a.due = reference.addSecs(period);
    }
    a.overdue = reference.isValid() && reference > a.due.addSecs(period);
    return a;
}

QString Automation::line(const QDateTime &reference) const
{
    const QString who = Actors::name(actor);
    const qint64 left = reference.secsTo(due);
    if (overdue)
        return QStringLiteral("%1 should have %2 by %3, %4 ago: it has not acted (is %1 running?)")
            .arg(who, Actors::pastWords(action), clockTime(due), formatDuration(-left));
    if (left > 0)
        return QStringLiteral("%1 %2 at %3, in %4")
            .arg(who, Actors::actionWords(action), clockTime(due), formatDuration(left));
    return QStringLiteral("%1 %2 now (due at %3, %4 ago)")
        .arg(who, Actors::actionWords(action), clockTime(due), formatDuration(-left));
}

QJsonObject Automation::toJson() const
{
    return QJsonObject { { QStringLiteral("actor"), Actors::name(actor) },
        { QStringLiteral("action"), Actors::actionName(action) },
        { QStringLiteral("due"), ApiParser::formatTimestamp(due) }, { QStringLiteral("overdue"), overdue } };
}

std::optional<Automation> automationOf(const Finding &finding)
{
    if (!finding.context || !finding.context->options.automation)
        return std::nullopt;
    const DiagnosisContext &c = *finding.context;
    const KlusterPhase phase = c.phase;
    // Kubernikus' controllers act only on a Running kluster (a phase Kubernikus does not say, or this build
    // does not know, is diagnosed as Running); the kluster's route controller runs wherever its control plane
    // does.
    const bool running
        = phase == KlusterPhase::Running || phase == KlusterPhase::None || phase == KlusterPhase::Unknown;
    const QDateTime &reference = c.state.capturedAt;
    // The finding's since-when, where a history is kept (its id made only then: thousands of findings).
    const auto sinceOf = [&c, &finding] {
        return c.state.findingsSince.isEmpty() ? QDateTime() : c.state.findingsSince.value(finding.id());
    };
    // Which actor repairs which kind, and how (sapcc/kubernikus pkg/controller/, docs/wire-formats.md).
    struct Repairs
    {
        FindingKind kind;
        Actor actor;
        AutomationAction action;
    };
    static constexpr Repairs repairs[] = {
        { FindingKind::InstanceUnregistered, Actor::Flight, AutomationAction::DeleteInstance },
        { FindingKind::InstanceError, Actor::Flight, AutomationAction::DeleteInstance },
        { FindingKind::InstanceMissingSecurityGroup, Actor::Flight, AutomationAction::AddSecurityGroup },
        { FindingKind::SecurityGroupRuleMissing, Actor::Flight, AutomationAction::CreateRules },
        { FindingKind::RouteOrphaned, Actor::RouteGc, AutomationAction::RemoveRoute },
        { FindingKind::RouteMissing, Actor::RouteController, AutomationAction::AddRoute },
        { FindingKind::RouteUnassigned, Actor::RouteController, AutomationAction::RemoveRoute },
    };
    const Repairs *r = std::find_if(std::begin(repairs), std::end(repairs),
        [&finding](const Repairs &each) { return each.kind == finding.kind; });
    if (r == std::end(repairs) || (r->actor != Actor::RouteController && !running))
        return std::nullopt;
    switch (finding.kind) {
    case FindingKind::InstanceUnregistered: {
        // flight's INSTANCE_SPAWNING_TIMEOUT: 45 min after the instance was created.
        const QDateTime created = finding.facts.instance >= 0
            ? c.state.instances.at(finding.facts.instance).created
            : QDateTime();
        if (!created.isValid())
            return std::nullopt;
        return Automation::at(r->actor, r->action, created, reference, c.options.flightDeleteSeconds);
    }
    case FindingKind::RouteMissing:
        // The route controller adds the node's route; not on a full router (it is refused too), and not where
        // another route to the pod CIDR comes first (the addition would not take: a recycled CIDR's cause is
        // the other route, which it does not remove).
        if (c.routeLimit > 0 && c.audit.routeCount() >= c.routeLimit)
            return std::nullopt;
        if (finding.facts.routeEntry >= 0
            && c.routesByDestination.contains(c.audit.entries().at(finding.facts.routeEntry).destination))
            return std::nullopt;
        break;
    default:
        break;
    }
    return Automation::at(r->actor, r->action, sinceOf(), reference);
}
