#include "core/repairproposal.h"

#include <QJsonDocument>
#include <algorithm>

QList<const Finding *> RepairProposal::choose(const Diagnosis &diagnosis, const RepairChoice &choice,
    QStringList *absent, QStringList *noRepair, QList<Incident> *incidents)
{
    QList<const Finding *> chosen;
    QStringList members; // of the incidents chosen: their one repair stands for their members' own
    const auto add = [&chosen](const Finding *f) {
        if (f && !chosen.contains(f))
            chosen << f;
    };
    const auto takeIncident = [&](const Incident &incident) {
        if (std::none_of(incidents->cbegin(), incidents->cend(),
                [&incident](const Incident &i) { return i.id() == incident.id(); }))
            *incidents << incident;
        members << incident.members;
        const QStringList ids = incident.repairFindings();
        if (ids.isEmpty())
            *noRepair << QStringLiteral("%1: %2").arg(incident.id(), incident.noRepairReason());
        for (const QString &id : ids)
            add(diagnosis.find(id));
    };
    const auto incidentOf = [&diagnosis](const QString &id) {
        const auto i = std::find_if(diagnosis.incidents.cbegin(), diagnosis.incidents.cend(),
            [&id](const Incident &incident) { return incident.id() == id; });
        return i == diagnosis.incidents.cend() ? nullptr : &*i;
    };
    for (const QString &id : choice.incidents) {
        if (const Incident *incident = incidentOf(id))
            takeIncident(*incident);
        else
            *absent << id;
    }
    for (const QString &id : choice.findings) {
        if (const Finding *f = diagnosis.find(id)) {
            if (!members.contains(id))
                add(f);
        } else if (const Incident *incident = incidentOf(id)) {
            takeIncident(*incident);
        } else {
            *absent << id;
        }
    }
    if (choice.allRoutes) {
        for (const Finding *f : RepairGate::routeFindings(diagnosis.findings))
            add(f);
    }
    return chosen;
}

RepairProposal::RepairProposal(const QString &kluster, std::shared_ptr<const KlusterFetch> fetch,
    std::shared_ptr<const Diagnosis> diagnosis, const RepairChoice &choice)
    : m_kluster(kluster)
    , m_choice(choice)
    , m_fetch(std::move(fetch))
    , m_diagnosis(std::move(diagnosis))
    , m_chosen(choose(*m_diagnosis, choice, &m_absent, &m_noRepair, &m_incidents))
    , m_gate(m_chosen, m_diagnosis->budget, choice.protectedKluster || choice.protectedRouter)
    , m_steps(m_gate.steps())
    , m_sendable(m_gate.sendable())
{ }

QStringList RepairProposal::chosenIds() const
{
    QStringList ids;
    for (const Finding *f : m_chosen)
        ids << f->id();
    return ids;
}

bool RepairProposal::deletesNode() const
{
    return std::any_of(
        m_gate.decisions().cbegin(), m_gate.decisions().cend(), [](const RepairGate::Decision &d) {
            return d.plan && d.plan->action == RepairPlan::Action::DeleteNode;
        });
}

QString RepairProposal::typeToConfirm() const
{
    return m_choice.protectedKluster && !teardown() ? m_kluster : m_gate.typeToConfirm(m_kluster);
}

const RepairPlan *RepairProposal::teardown() const
{
    for (const RepairGate::Step &s : m_steps) {
        if (s.plan.action == RepairPlan::Action::ResetDevices)
            return &s.plan;
    }
    return nullptr;
}

QStringList RepairProposal::refusals(const QString &howToOverride) const
{
    QStringList refused;
    QStringList byBudget;
    for (const RepairGate::Decision &d : m_gate.decisions()) {
        const QString id = d.finding->id();
        if (d.verdict == RepairGate::Verdict::NoRepair)
            refused << QStringLiteral("%1: it has no repair of its own").arg(id);
        else if (d.verdict == RepairGate::Verdict::Refused && d.byBudget)
            byBudget << QStringLiteral("%1: %2 (remediation budget)").arg(id, refusalName(d.reason));
        else if (d.verdict == RepairGate::Verdict::Refused)
            refused << QStringLiteral("%1: %2 (%3)").arg(id, refusalName(d.reason), d.detail);
        else if (d.verdict == RepairGate::Verdict::NeedsOverride && !howToOverride.isEmpty())
            refused << QStringLiteral("%1: %2").arg(id, d.why(howToOverride));
    }
    return refused + byBudget;
}

bool RepairProposal::refusedByZone() const
{
    return std::any_of(m_gate.decisions().cbegin(), m_gate.decisions().cend(),
        [](const RepairGate::Decision &d) { return d.reason == Refusal::ZoneDisruption; });
}

Refusal RepairProposal::overrideReason() const
{
    for (const RepairGate::Decision &d : m_gate.decisions()) {
        if (d.verdict == RepairGate::Verdict::NeedsOverride)
            return d.reason;
    }
    return Refusal::None;
}

QString RepairProposal::budgetVerdict() const
{
    const RemediationBudget &budget = m_diagnosis->budget;
    // What Kubernikus' automation is due to do, said after the budget's or a zone's verdict (a batch may hold
    // both: each is said).
    const auto automation = std::find_if(m_gate.decisions().cbegin(), m_gate.decisions().cend(),
        [](const RepairGate::Decision &d) { return d.reason == Refusal::AutomationPending; });
    const QString pending = automation == m_gate.decisions().cend()
        ? QString()
        : QStringLiteral(" Kubernikus' automation is due to repair %1 (AutomationPending): %2. %3")
              .arg(automation->finding->id(), automation->detail,
                  automation->verdict == RepairGate::Verdict::NeedsOverride
                      ? QStringLiteral("The override repairs it now.")
                      : QStringLiteral("Chosen alone, the override could repair it now."));
    const auto zone = std::find_if(m_gate.decisions().cbegin(), m_gate.decisions().cend(),
        [](const RepairGate::Decision &d) { return d.reason == Refusal::ZoneDisruption; });
    if (zone != m_gate.decisions().cend())
        return QStringLiteral("Deletion refused (ZoneDisruption): %1. One instance alone may be deleted with "
                              "the override.")
                   .arg(zone->detail)
            + pending;
    if (m_gate.deletions() == 0)
        return QStringLiteral("Nothing is deleted: the remediation budget does not apply.") + pending;
    if (m_gate.deletionsAllowed())
        return QStringLiteral("Remediation budget: deleting %1 is allowed. %2 of %3 expected nodes are "
                              "unhealthy; deletions stop once more than %4 are.")
                   .arg(m_gate.deletions() == 1 ? QStringLiteral("this one")
                                                : QStringLiteral("these %1").arg(m_gate.deletions()))
                   .arg(budget.unhealthy)
                   .arg(budget.expected)
                   .arg(budget.maxUnhealthy)
            + pending;
    QString verdict = QStringLiteral("Remediation budget refuses deletions (%1): %2")
                          .arg(refusalName(budget.reason), budget.detail);
    if (m_gate.refusedInBulk())
        verdict += QStringLiteral(" A deletion in a batch is never allowed past the budget; repair one "
                                  "instance or node alone to override.");
    return verdict + pending;
}

QString RepairProposal::action() const
{
    // One request to a router's devices, for one finding or several.
    if (m_steps.size() == 1 && m_steps.first().plan.actsOnDevices()) {
        const RepairPlan &plan = m_steps.first().plan;
        const QString router = plan.routerName.isEmpty()
            ? plan.requests.constLast().path.section(QLatin1Char('/'), -1)
            : plan.routerName;
        const QString what = plan.action == RepairPlan::Action::ResetDevices
            ? QStringLiteral("Tear down and sync router %1").arg(router)
            : QStringLiteral("Sync router %1 to its devices").arg(router);
        return m_sendable.size() > 1 ? QStringLiteral("%1 (%2 findings)").arg(what).arg(m_sendable.size())
                                     : what;
    }
    if (m_sendable.size() == 1) {
        const auto d = std::find_if(m_gate.decisions().cbegin(), m_gate.decisions().cend(),
            [this](const RepairGate::Decision &decision) {
                return decision.finding->id() == m_sendable.first();
            });
        const RepairPlan &plan = *d->plan;
        return plan.deletesInstance() ? QStringLiteral("Delete instance %1").arg(plan.instanceName)
            : plan.action == RepairPlan::Action::DeleteNode
            ? QStringLiteral("Delete node %1").arg(plan.nodeName)
            : plan.title;
    }
    if (m_steps.size() == 1 && m_gate.routeChange())
        return QStringLiteral("Change the router (%1 findings)").arg(m_sendable.size());
    return m_sendable.isEmpty() ? QStringLiteral("Nothing can be sent")
                                : QStringLiteral("Send %1 repairs").arg(m_sendable.size());
}

QString RepairProposal::summary() const
{
    if (m_gate.routeChange())
        return m_gate.routeChange()->title;
    if (m_chosen.size() == 1 && m_gate.decisions().first().plan)
        return m_gate.decisions().first().plan->title;
    return QStringLiteral("%1 repairs").arg(m_chosen.size());
}

namespace {

QString verdictWords(const RepairGate::Decision &d)
{
    switch (d.verdict) {
    case RepairGate::Verdict::Sendable:
        return QStringLiteral("sent");
    case RepairGate::Verdict::NoRepair:
        return QStringLiteral("no repair");
    case RepairGate::Verdict::Refused:
        return QStringLiteral("refused (%1)").arg(refusalName(d.reason));
    case RepairGate::Verdict::NeedsOverride:
        return QStringLiteral("sent only with the override (%1)").arg(refusalName(d.reason));
    }
    return QString();
}

QByteArray stepText(const RepairGate::Step &step)
{
    return step.findingIds.join(QLatin1Char(',')).toUtf8() + ' '
        + QJsonDocument(step.plan.toJson()).toJson(QJsonDocument::Compact);
}

} // namespace

QStringList RepairProposal::differences(const RepairProposal &fresh) const
{
    QStringList out;
    QHash<QString, const RepairGate::Decision *> now;
    for (const RepairGate::Decision &d : fresh.m_gate.decisions())
        now.insert(d.finding->id(), &d);
    QSet<QString> before;
    // Kubernikus' automation that was pending when the plan was confirmed (with the override) and is overdue
    // now: the same requests, now sendable without the override; nothing the person confirmed changed.
    bool lapsed = false;
    for (const RepairGate::Decision &d : m_gate.decisions()) {
        const QString id = d.finding->id();
        before.insert(id);
        const RepairGate::Decision *n = now.value(id);
        const bool automationLapsed = n && d.verdict == RepairGate::Verdict::NeedsOverride
            && d.reason == Refusal::AutomationPending && n->verdict == RepairGate::Verdict::Sendable;
        lapsed = lapsed || automationLapsed;
        if (!n)
            out << QStringLiteral("%1 is gone: the kluster read again no longer has it").arg(id);
        else if (automationLapsed)
            continue;
        else if (n->verdict != d.verdict || n->reason != d.reason)
            out << QStringLiteral("%1: was %2, now %3").arg(id, verdictWords(d), verdictWords(*n));
    }
    for (const RepairGate::Decision &d : fresh.m_gate.decisions()) {
        if (!before.contains(d.finding->id()))
            out << QStringLiteral("%1 is new: the kluster read again has it too").arg(d.finding->id());
    }
    for (const QString &id : fresh.m_absent) {
        if (!m_absent.contains(id) && !before.contains(id))
            out << QStringLiteral("%1 is gone: the kluster read again no longer has it").arg(id);
    }
    // The requests themselves: a route list, a revision, an address pair that changed meanwhile.
    QList<QByteArray> mine;
    for (const RepairGate::Step &s : m_steps)
        mine << stepText(s);
    QList<QByteArray> theirs;
    for (const RepairGate::Step &s : fresh.m_steps)
        theirs << stepText(s);
    if (out.isEmpty() && mine != theirs) {
        for (const RepairGate::Step &s : fresh.m_steps) {
            if (!mine.contains(stepText(s)))
                out << QStringLiteral("the requests of %1 changed (%2)")
                           .arg(s.findingIds.join(QStringLiteral(", ")), s.plan.title);
        }
        if (out.isEmpty())
            out << QStringLiteral("the requests changed");
    }
    if (fresh.typeToConfirm() != typeToConfirm() && !fresh.m_sendable.isEmpty())
        out << (fresh.typeToConfirm().isEmpty()
                ? QStringLiteral("nothing needs to be typed to confirm now")
                : QStringLiteral("what must be typed to confirm is now \"%1\"").arg(fresh.typeToConfirm()));
    if (fresh.needsOverride() != needsOverride() && !(lapsed && !fresh.needsOverride()))
        out << (fresh.needsOverride() ? QStringLiteral("the override is now needed")
                                      : QStringLiteral("the override is no longer needed"));
    return out;
}

QString RepairProposal::outcomeWords(RepairResult result)
{
    switch (result) {
    case RepairResult::Fixed:
        return QStringLiteral("fixed (verified)");
    case RepairResult::StillThere:
        return QStringLiteral("sent, but the finding is still there");
    case RepairResult::Changed:
        return QStringLiteral("not sent: the cloud changed meanwhile; read it again and retry");
    case RepairResult::Refused:
        return QStringLiteral("refused");
    case RepairResult::Failed:
    case RepairResult::InProgress:
    case RepairResult::Interrupted:
    case RepairResult::Unknown:
        return QStringLiteral("failed");
    }
    return QStringLiteral("failed");
}
