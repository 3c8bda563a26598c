#include "core/repairgate.h"

#include "core/debrisfindings.h"
#include "core/diagnosiscontext.h"
#include "core/permission.h"
#include "core/repairplanner.h"

#include <QSet>
#include <algorithm>
#include <limits>

QString RepairGate::Decision::why(const QString &howToOverride) const
{
    return refusalName(reason) + QStringLiteral(": ") + detail
        + (verdict == Verdict::NeedsOverride ? QStringLiteral(" (%1)").arg(howToOverride) : QString());
}

// What the plan alone says: no repair, its own refusal, or sendable as far as it goes.
static RepairGate::Decision planDecision(const Finding &finding, std::optional<RepairPlan> plan)
{
    RepairGate::Decision d;
    d.finding = &finding;
    d.plan = std::move(plan);
    if (!d.plan) {
        d.verdict = RepairGate::Verdict::NoRepair;
    } else if (d.plan->refusal != Refusal::None && d.plan->refusal != Refusal::NotPermitted) {
        d.verdict = RepairGate::Verdict::Refused;
        d.reason = d.plan->refusal;
        d.detail = d.plan->refusalDetail;
    } else {
        d.verdict = RepairGate::Verdict::Sendable;
    }
    return d;
}

static bool isSendableDeletion(const RepairGate::Decision &d)
{
    return d.verdict == RepairGate::Verdict::Sendable && d.plan->deletes();
}

// A deletion, one of `deletions` sent together, as the remediation budget weighs it; an override only
// ever lets a deletion chosen alone through.
// The zone of the instance a plan deletes, when a zone-outage incident holds it (empty otherwise).
static QString disruptedZoneOf(const RepairGate::Decision &d, const RemediationBudget &budget)
{
    if (budget.disruptedZones.isEmpty() || !d.plan || !d.plan->deletesInstance() || !d.finding->context)
        return QString();
    for (const Instance &instance : d.finding->context->state.instances) {
        if (instance.id == d.plan->instanceId)
            return budget.disruptedZones.contains(instance.zone) ? instance.zone : QString();
    }
    return QString();
}

static void weighDeletion(
    RepairGate::Decision &d, const RemediationBudget &budget, qint64 deletions, bool overridable)
{
    if (!isSendableDeletion(d))
        return;
    // The node lifecycle controller stops evicting in a disrupted zone; so does Flightdeck: the zone is down,
    // not the instance. One alone may pass with the explicit override.
    if (const QString zone = disruptedZoneOf(d, budget); !zone.isEmpty()) {
        d.verdict = overridable ? RepairGate::Verdict::NeedsOverride : RepairGate::Verdict::Refused;
        d.reason = Refusal::ZoneDisruption;
        d.detail = QStringLiteral("zone %1 is disrupted (incident zone-outage:%1): deleting its instances "
                                  "fixes nothing while it is down")
                       .arg(zone);
        d.byBudget = true;
        return;
    }
    if (budget.allowsDeletion(deletions, false))
        return;
    d.verdict = overridable && budget.allowsDeletion(deletions, true) ? RepairGate::Verdict::NeedsOverride
                                                                      : RepairGate::Verdict::Refused;
    d.reason = budget.reason;
    d.detail = budget.detail;
    d.byBudget = true;
}

// A finding whose repair changes the router's routes in Neutron (route-limit has none of its own; the router
// devices' findings are repaired on the devices).
static bool changesRoutes(const Finding &f)
{
    return findingFamily(f.kind) == FindingFamily::Route && f.kind != FindingKind::RouteLimit
        && f.kind != FindingKind::DeviceRouteStale && f.kind != FindingKind::DeviceRouteMissing
        && f.kind != FindingKind::RouteRecycled;
}

// A teardown of a protected kluster's router's devices cuts every kluster on it off until the sync ends:
// chosen alone, it waits for the override; in a batch it is refused.
static void weighTeardown(RepairGate::Decision &d, bool protectedRouter, bool overridable)
{
    if (!protectedRouter || d.verdict != RepairGate::Verdict::Sendable || !d.plan
        || d.plan->action != RepairPlan::Action::ResetDevices)
        return;
    d.verdict = overridable ? RepairGate::Verdict::NeedsOverride : RepairGate::Verdict::Refused;
    d.reason = Refusal::ProtectedRouter;
    d.detail
        = QStringLiteral("a protected kluster is on router %1: tearing its devices down cuts %2 off until "
                         "the sync ends")
              .arg(d.plan->routerName,
                  d.plan->cutOff.isEmpty() ? QStringLiteral("every kluster on it")
                                           : d.plan->cutOff.join(QStringLiteral(", ")));
}

// A finding that Kubernikus' own automation is due to repair, and not overdue: waiting does the same, and a
// repair now races it (diagnosis.md §7). The explicit override repairs it now, alone or with others (an
// incident's repair is several of them: no safety limit is at stake, only a race).
static void weighAutomation(RepairGate::Decision &d, bool overridable)
{
    if (!d.plan || !d.finding->context)
        return;
    const std::optional<Automation> automation = d.finding->automation();
    if (!automation || automation->overdue)
        return;
    if (d.verdict != RepairGate::Verdict::Sendable) {
        // Refused or held for another reason (the budget, a disrupted zone): that reason stands, and the
        // automation is said beside it, for it may do what the refusal keeps from being done.
        if (!d.detail.isEmpty())
            d.detail
                += QStringLiteral("; meanwhile ") + automation->line(d.finding->context->state.capturedAt);
        return;
    }
    d.verdict = overridable ? RepairGate::Verdict::NeedsOverride : RepairGate::Verdict::Refused;
    d.reason = Refusal::AutomationPending;
    d.detail
        = automation->line(d.finding->context->state.capturedAt) + QStringLiteral(": waiting does the same");
}

// A plan with a request these credentials may not send (diagnosis.md §8) is weighed like any other first (the
// budget, a disrupted zone, a protected router, Kubernikus' automation, the one route change), so that what
// is handed over to someone who may is only what Flightdeck itself would send; then refused: NotPermitted
// where nothing else holds it, else the other reason stands, which no override lets past the permission.
static void weighPermission(RepairGate::Decision &d)
{
    if (!d.plan || d.plan->refusal != Refusal::NotPermitted || d.reason == Refusal::NotPermitted)
        return;
    if (d.verdict == RepairGate::Verdict::Sendable) {
        d.verdict = RepairGate::Verdict::Refused;
        d.reason = Refusal::NotPermitted;
        d.detail = d.plan->refusalDetail;
        return;
    }
    if (d.verdict == RepairGate::Verdict::NeedsOverride || d.verdict == RepairGate::Verdict::Refused) {
        d.verdict = RepairGate::Verdict::Refused;
        d.detail += QStringLiteral("; and these credentials may not send it: ") + d.plan->refusalDetail;
    }
}

static void weighRouteChangeAutomation(QList<RepairGate::Decision> &decisions);

// What a terminated kluster left behind is deleted at most ten at a time (diagnosis.md §9): more chosen
// together, none is sent (choose fewer), so that one confirmation never deletes more than a person reads.
static void weighDebris(QList<RepairGate::Decision> &decisions)
{
    const auto debris = [](const RepairGate::Decision &d) {
        return d.verdict == RepairGate::Verdict::Sendable && d.plan && d.plan->deletesDebris();
    };
    const qsizetype count = std::count_if(decisions.cbegin(), decisions.cend(), debris);
    if (count <= DebrisFindings::MaxDeletions)
        return;
    for (RepairGate::Decision &d : decisions) {
        if (!debris(d))
            continue;
        d.verdict = RepairGate::Verdict::Refused;
        d.reason = Refusal::TooManyDeletions;
        d.detail = QStringLiteral("%1 deletions of what a kluster left behind chosen together: at most %2 in "
                                  "one confirmation; choose fewer")
                       .arg(count)
                       .arg(DebrisFindings::MaxDeletions);
    }
}

RepairGate::RepairGate(
    const QList<const Finding *> &findings, const RemediationBudget &budget, bool protectedRouter)
{
    // Several route findings are combined into one change: their plans are asked for as deltas (linear in
    // the routes), and an exact plan is made only for one that is sent alone.
    const bool combining = std::count_if(findings.cbegin(), findings.cend(), [](const Finding *f) {
        return changesRoutes(*f);
    }) > 1;
    for (const Finding *f : findings)
        m_decisions.append(
            planDecision(*f, f->repair(combining && changesRoutes(*f) ? PlanForm::Delta : PlanForm::Exact)));
    m_deletions = std::count_if(m_decisions.cbegin(), m_decisions.cend(), isSendableDeletion);
    const bool alone = m_decisions.size() == 1;
    for (Decision &d : m_decisions) {
        weighDeletion(d, budget, m_deletions, alone);
        weighTeardown(d, protectedRouter, alone);
        // The route findings combined into one change are weighed together once combined; one left out is
        // weighed with its exact plan (settleDeltas).
        if (!(combining && changesRoutes(*d.finding)))
            weighAutomation(d, true);
    }
    weighDebris(m_decisions);
    m_refusedInBulk = !alone && m_deletions > 0 && !budget.allowsDeletion(m_deletions, false)
        && budget.allowsDeletion(1, true);
    combineRouteChanges();
    weighRouteChangeAutomation(m_decisions);
    settleDeltas();
    for (Decision &d : m_decisions)
        weighPermission(d);
}

// Kubernikus' automation and the one route change: the change is one request (or one update guarded by the
// router's revision), sent whole or not at all, so when part of it is the automation's to do and not overdue,
// all of it waits for the override (waiting does that part; the override sends the change now). Held apart
// instead, each held finding's own plan would be the router's whole list without the atomic extension: a
// batch of them quadratic in the routes, and each guarded by a revision the first of them changes.
static void weighRouteChangeAutomation(QList<RepairGate::Decision> &decisions)
{
    using Verdict = RepairGate::Verdict;
    const RepairGate::Decision *pending = nullptr;
    std::optional<Automation> due;
    for (const RepairGate::Decision &d : decisions) {
        if (!d.combined)
            continue;
        if (std::optional<Automation> a = d.finding->automation(); a && !a->overdue) {
            pending = &d;
            due = std::move(a);
            break;
        }
    }
    if (!pending)
        return;
    const QString pendingId = pending->finding->id();
    const QString line = due->line(pending->finding->context->state.capturedAt);
    for (RepairGate::Decision &d : decisions) {
        if (!d.combined)
            continue;
        if (d.verdict != Verdict::Sendable) {
            weighAutomation(d, true); // its own refusal stands; the automation said beside it
            continue;
        }
        weighAutomation(d, true);
        if (d.verdict != Verdict::Sendable)
            continue; // the automation's own to do
        d.verdict = Verdict::NeedsOverride;
        d.reason = Refusal::AutomationPending;
        d.detail
            = QStringLiteral("part of the one change of the router with %1, which Kubernikus' automation "
                             "is due to make (%2): the change waits as a whole")
                  .arg(pendingId, line);
    }
}

// A delta plan left out of the combined change: one that may be sent alone gets its exact plan (what is
// confirmed is what is sent); a refused one keeps its title and refusal without requests (it is not sent,
// and its exact request, the router's whole list, is not built for nothing).
void RepairGate::settleDeltas()
{
    for (Decision &d : m_decisions) {
        if (!d.plan || d.plan->form != PlanForm::Delta || d.combined)
            continue;
        if (d.verdict == Verdict::Refused) {
            d.plan->requests.clear();
            d.plan->form = PlanForm::Exact; // nothing in it is sent
            continue;
        }
        // Its exact plan, judged again as every decision is: a route repair Kubernikus' automation is due to
        // do still waits for the override (left out of the change for that very reason).
        d = planDecision(*d.finding, d.finding->repair());
        weighAutomation(d, true);
    }
}

// A route plan that may join the one change: sendable, or an addition refused only because the router is
// full (the removals of the same change may make room).
static bool joinsRouteChange(const RepairGate::Decision &d)
{
    if (!d.plan || !d.plan->changesRoutes() || !d.finding->context)
        return false;
    return d.verdict == RepairGate::Verdict::Sendable
        || (d.verdict == RepairGate::Verdict::Refused && d.reason == Refusal::RouteLimit
            && d.plan->action == RepairPlan::Action::AddRoutes);
}

void RepairGate::combineRouteChanges()
{
    QList<int> members;
    for (int i = 0; i < m_decisions.size(); ++i) {
        if (joinsRouteChange(m_decisions.at(i)))
            members << i;
    }
    if (members.size() < 2)
        return;
    const DiagnosisContext &c = *m_decisions.at(members.first()).finding->context;
    QList<Route> removed;
    QSet<Route> seen; // thousands of route findings stay linear
    for (int i : members) {
        const RepairPlan &plan = *m_decisions.at(i).plan;
        if (plan.action == RepairPlan::Action::RemoveRoutes) {
            for (const Route &r : plan.routes) {
                if (!seen.contains(r)) {
                    seen.insert(r);
                    removed << r;
                }
            }
        }
    }
    // Removals first, so the limit is not crossed on the way; an addition that still does not fit stays out
    // (a limit not known leaves room for all of them: nothing refuses what is not known).
    qint64 room = c.routeLimit > 0 ? qint64(c.routeLimit) - (c.audit.routeCount() - removed.size())
                                   : std::numeric_limits<qint64>::max();
    QList<Route> added;
    QList<int> joined;
    for (int i : members) {
        Decision &d = m_decisions[i];
        if (d.plan->action == RepairPlan::Action::RemoveRoutes) {
            joined << i;
            continue;
        }
        QList<Route> fresh;
        for (const Route &r : d.plan->routes) {
            if (!seen.contains(r))
                fresh << r;
        }
        if (fresh.size() > room) {
            d.verdict = Verdict::Refused;
            d.reason = Refusal::RouteLimit;
            d.detail = QStringLiteral(
                "the router holds %1 of its %2 routes, and even after the removals of this change there is "
                "no slot for it")
                           .arg(c.audit.routeCount())
                           .arg(c.routeLimit);
            continue;
        }
        room -= fresh.size();
        for (const Route &r : std::as_const(fresh))
            seen.insert(r);
        added << fresh;
        joined << i;
    }
    if (joined.size() < 2)
        return; // one plan alone is sent as it is (a refused addition stays refused)
    RepairPlan plan = RepairPlanner::changeRoutes(c.state.router, removed, added, c.atomicRoutes);
    Credentials::judgePlan(plan, c.state.credentials.get());
    for (int i : joined) {
        Decision &d = m_decisions[i];
        d.combined = true;
        if (plan.refusal != Refusal::None) {
            d.verdict = Verdict::Refused;
            d.reason = plan.refusal;
            d.detail = plan.refusalDetail;
        } else {
            d.verdict = Verdict::Sendable;
            d.reason = Refusal::None;
            d.detail.clear();
        }
    }
    m_routesBefore = c.state.router.routes;
    m_routeChange = std::move(plan);
}

QStringList RepairGate::routeChangeFindings() const
{
    QStringList ids;
    for (const Decision &d : m_decisions) {
        if (d.combined)
            ids << d.finding->id();
    }
    return ids;
}

QList<RepairGate::Step> RepairGate::steps() const
{
    QList<Step> steps;
    bool routeChangeAdded = false;
    for (const Decision &d : m_decisions) {
        if (!d.mayBeSent(true))
            continue;
        // One sync (or teardown and sync) of a router's devices does for every finding about them; a
        // teardown and sync does what a sync does.
        const auto sameDevices = [&d](const Step &s) {
            return d.plan->actsOnDevices() && s.plan.actsOnDevices()
                && s.plan.requests.constLast().path == d.plan->requests.constLast().path;
        };
        if (const auto earlier = std::find_if(steps.begin(), steps.end(), sameDevices);
            earlier != steps.end()) {
            earlier->findingIds << d.finding->id();
            QList<Route> routes = earlier->plan.routes;
            for (const Route &r : d.plan->routes) {
                if (!routes.contains(r))
                    routes << r;
            }
            if (d.plan->action == RepairPlan::Action::ResetDevices)
                earlier->plan = *d.plan;
            earlier->plan.routes = routes;
            continue;
        }
        if (!d.combined) {
            steps.append(Step { { d.finding->id() }, *d.plan });
        } else if (!routeChangeAdded) {
            routeChangeAdded = true;
            steps.append(Step { routeChangeFindings(), *m_routeChange });
        }
    }
    return steps;
}

QList<RepairGate::RouteLine> RepairGate::routeChangeLines() const
{
    QList<RouteLine> lines;
    if (!m_routeChange)
        return lines;
    const QSet<Route> removed = m_routeChange->action == RepairPlan::Action::AddRoutes
        ? QSet<Route>()
        : QSet<Route>(m_routeChange->routes.cbegin(), m_routeChange->routes.cend());
    const QSet<Route> before(m_routesBefore.cbegin(), m_routesBefore.cend());
    for (const Route &r : m_routesBefore)
        lines.append(
            RouteLine { r, removed.contains(r) ? RouteLine::Change::Removed : RouteLine::Change::Kept });
    const QList<Route> &added = m_routeChange->action == RepairPlan::Action::ChangeRoutes
        ? m_routeChange->addedRoutes
        : m_routeChange->action == RepairPlan::Action::AddRoutes ? m_routeChange->routes
                                                                 : QList<Route>();
    for (const Route &r : added) {
        if (!before.contains(r))
            lines.append(RouteLine { r, RouteLine::Change::Added });
    }
    return lines;
}

RepairGate::Decision RepairGate::judge(const Finding &finding, std::optional<RepairPlan> plan,
    const RemediationBudget &budget, bool protectedRouter)
{
    Decision d = planDecision(finding, std::move(plan));
    weighDeletion(d, budget, 1, true);
    weighTeardown(d, protectedRouter, true);
    weighAutomation(d, true);
    weighPermission(d);
    return d;
}

QStringList RepairGate::sendable() const
{
    QStringList ids;
    for (const Decision &d : m_decisions) {
        if (d.mayBeSent(true))
            ids << d.finding->id();
    }
    return ids;
}

bool RepairGate::needsOverride() const
{
    return std::any_of(m_decisions.cbegin(), m_decisions.cend(),
        [](const Decision &d) { return d.verdict == Verdict::NeedsOverride; });
}

bool RepairGate::deletionsAllowed() const
{
    return std::none_of(
        m_decisions.cbegin(), m_decisions.cend(), [](const Decision &d) { return d.byBudget; });
}

QStringList RepairGate::deletedNames() const
{
    QStringList names;
    for (const Decision &d : m_decisions) {
        if (d.mayBeSent(true) && d.plan->deletes())
            names << d.plan->deletedName();
        else if (d.mayBeSent(true) && d.plan->deletesDebris())
            names << d.plan->debrisName;
    }
    return names;
}

QString RepairGate::typeToConfirm(const QString &kluster) const
{
    // A teardown alone asks for its router's name; with deletions as well, the kluster's name confirms all.
    for (const Decision &d : m_decisions) {
        if (d.mayBeSent(true) && d.plan->action == RepairPlan::Action::ResetDevices)
            return deletedNames().isEmpty() ? d.plan->routerName : kluster;
    }
    // What a kluster left behind: its name confirms it, one deletion or ten.
    for (const Decision &d : m_decisions) {
        if (d.mayBeSent(true) && d.plan->deletesDebris())
            return d.plan->klusterName;
    }
    const QStringList names = deletedNames();
    if (names.size() == 1)
        return names.first();
    return names.isEmpty() ? QString() : kluster;
}

QList<const Finding *> RepairGate::routeFindings(const QList<Finding> &findings)
{
    QList<const Finding *> route;
    for (const Finding &f : findings) {
        if (changesRoutes(f) && f.repair(PlanForm::Delta))
            route << &f;
    }
    return route;
}
