// The words, evidence, repairs and affected objects of the route findings.

#include "core/routefindings.h"

#include "core/detection.h"
#include "core/diagnosiscontext.h"
#include "core/json/jsonreader.h"
#include "core/repairplanner.h"

#include <QJsonArray>

namespace RouteFindings {

static QJsonObject auditEntryJson(const RouteAudit::Entry &e)
{
    return QJsonObject { { QStringLiteral("destination"), e.route.destination },
        { QStringLiteral("nexthop"), e.route.nexthop }, { QStringLiteral("position"), e.position },
        { QStringLiteral("roles"), QJsonArray::fromStringList(RouteAudit::roleNames(e.roles)) },
        { QStringLiteral("nexthopInstance"), stringOrNull(e.nexthopInstance) },
        { QStringLiteral("nexthopNode"), stringOrNull(e.nexthopNode) } };
}

// The slots the route repairs would free, and (when asked) the ids of the findings that free or need them.
static int routeLimitFreeable(const DiagnosisContext &c, QStringList *related)
{
    int freeable = 0;
    for (int g = 0; g < c.audit.klusterDestinations().size(); ++g) {
        const std::optional<FindingKind> kind = c.routeFindingKind(g);
        if (!kind)
            continue;
        const int n = int(c.wrongRoutes(g).size());
        if (n == 0)
            continue;
        freeable += n;
        if (related)
            related->append(Finding::idOf(*kind, c.routeSubject(g)));
    }
    if (related && c.state.nodesSource.known) {
        for (const RouteAudit::Entry &e : c.audit.entries()) {
            if (e.roles & RouteAudit::Missing)
                related->append(Finding::idOf(FindingKind::RouteMissing, e.destinationNode));
        }
    }
    return freeable;
}

static void refuseUnguarded(const DiagnosisContext &c, RepairPlan &plan)
{
    if (plan.refusal != Refusal::None || c.atomicRoutes
        || c.state.extensions.contains(QStringLiteral("revision-if-match")))
        return;
    plan.refusal = Refusal::NoRevision;
    plan.refusalDetail = c.state.extensionsKnown
        ? QStringLiteral(
            "the cloud lists neither extraroute-atomic nor revision-if-match: Neutron would ignore If-Match, "
            "and a full-list update could overwrite a concurrent change")
        : QStringLiteral(
            "the Neutron extensions are unknown: without extraroute-atomic or revision-if-match a full-list "
            "update could overwrite a concurrent change");
}

static void refuseWithoutEvidence(const DiagnosisContext &c, RepairPlan &plan, bool needsNodes)
{
    if (!c.state.serversSource.known) {
        plan.refusal = Refusal::NoEvidence;
        plan.refusalDetail
            = QStringLiteral("the instance list could not be fetched: whether a nexthop belongs to "
                             "anything is unknown");
    } else if (!c.state.serversSource.incomplete.isEmpty()) {
        plan.refusal = Refusal::NoEvidence;
        plan.refusalDetail
            = QStringLiteral("the instance list is incomplete (%1): a nexthop may belong to one of the "
                             "missing servers")
                  .arg(c.state.serversSource.incomplete);
    } else if (needsNodes && c.nodeEvidenceMissing) {
        plan.refusal = Refusal::NoEvidence;
        plan.refusalDetail
            = QStringLiteral("the node list is missing or empty while instances are active: which "
                             "route is correct is unknown");
    }
}

Severity limitSeverity(const FindingFacts &facts)
{
    return facts.routesOverflow ? Severity::Critical : Severity::Warning;
}

QString duplicateMessage(const DiagnosisContext &c, const Finding &f)
{
    const RouteAudit::DestinationGroup &group = c.audit.klusterDestinations().at(f.facts.destinationGroup);
    const RouteAudit::Entry &first = c.audit.entries().at(group.entries.first());
    QStringList described;
    for (int idx : group.entries) {
        const RouteAudit::Entry &e = c.audit.entries().at(idx);
        described << QStringLiteral("via %1 (%2%3)")
                         .arg(e.route.nexthop,
                             RouteAudit::roleNames(e.roles & ~RouteAudit::Roles(RouteAudit::Duplicate))
                                 .join(QStringLiteral(", ")),
                             e.nexthopInstance.isEmpty() ? QStringLiteral(", belongs to nobody")
                                                         : QStringLiteral(", instance ") + e.nexthopInstance);
    }
    QString outcome;
    if (group.undecided)
        outcome = QStringLiteral(
            "Node %1 owns this pod network but has no InternalIP yet, so which route is correct "
            "cannot be told; only routes to nobody are removed.")
                      .arg(first.destinationNode);
    else if (first.roles & RouteAudit::Correct)
        outcome = QStringLiteral(
            "Traffic still takes the correct one first, but the extra routes waste slots and "
            "win as soon as the order changes.");
    else if (!first.destinationNode.isEmpty())
        outcome
            = QStringLiteral("Traffic takes the first, wrong one, so pods on node %1 (%2) are unreachable.")
                  .arg(first.destinationNode, first.correctNexthop);
    else
        outcome = QStringLiteral("No node owns this pod network any more.");
    return QStringLiteral("The router has %1 routes for %2: %3. %4 Remove the %5 wrong route(s).")
        .arg(group.entries.size())
        .arg(f.subject, described.join(QStringLiteral("; ")), outcome)
        .arg(c.wrongRoutes(f.facts.destinationGroup).size());
}

QString staleMessage(const DiagnosisContext &c, const Finding &f)
{
    const RouteAudit::Entry &e = c.audit.entries().at(f.facts.routeEntry);
    const QString where = e.nexthopInstance.isEmpty() ? QStringLiteral("an address no instance has")
        : !e.nexthopNode.isEmpty() && e.nexthopNode != e.destinationNode
        ? QStringLiteral("node ") + e.nexthopNode
        : QStringLiteral("instance ") + e.nexthopInstance;
    if (e.roles & RouteAudit::OtherKluster) {
        return QStringLiteral(
            "The route for node %1's pod network %2 points at %3 (%4, another kluster's node): both klusters "
            "use this pod network on one router, and pods on %1 are unreachable. The route is the other "
            "kluster's, so it is not removed from here: give the klusters distinct pod networks.")
            .arg(e.destinationNode, e.route.destination, e.route.nexthop, where);
    }
    if (e.correctNexthop.isEmpty()) {
        return QStringLiteral(
            "The route for node %1's pod network %2 points at %3 (%4), and node %1 has no usable "
            "address to route to (InternalIP %5): pods on %1 are unreachable. Remove the route; fix "
            "the node's address, and its route is then added by its own repair.")
            .arg(e.destinationNode, e.route.destination, e.route.nexthop, where,
                e.destinationNodeAddress.isEmpty() ? QStringLiteral("absent")
                                                   : quotedExcerpt(e.destinationNodeAddress));
    }
    return QStringLiteral(
        "The route for node %1's pod network %2 points at %3 (%4) instead of the node's own "
        "address %5: pods on %1 are unreachable. Remove it; the correct route is then added by "
        "its own repair.")
        .arg(e.destinationNode, e.route.destination, e.route.nexthop, where, e.correctNexthop);
}

QString orphanedMessage(const DiagnosisContext &c, const Finding &f)
{
    const RouteAudit::Entry &e = c.audit.entries().at(f.facts.routeEntry);
    return QStringLiteral(
        "The route %1 points at %2, which is no address of any instance in the project (its node "
        "is gone). It routes nothing and takes one of the router's route slots. Remove it.")
        .arg(e.route.destination, e.route.nexthop);
}

QString unassignedMessage(const DiagnosisContext &c, const Finding &f)
{
    const RouteAudit::Entry &e = c.audit.entries().at(f.facts.routeEntry);
    const bool instanceIsNode = !e.nexthopNode.isEmpty();
    return QStringLiteral(
        "The route %1 points at %2 (instance %3%4), but no node has the pod network %1%5. It holds one of "
        "the router's route slots, and once the CIDR is given to a new node this route is listed first and "
        "wins: that node would be cut off. Remove it.")
        .arg(e.route.destination, e.route.nexthop, e.nexthopInstance,
            instanceIsNode ? QStringLiteral(", node ") + e.nexthopNode : QString(),
            instanceIsNode ? QString() : QStringLiteral(" (the instance's node is gone)"));
}

QString missingMessage(const DiagnosisContext &c, const Finding &f)
{
    const RouteAudit::Entry &e = c.audit.entries().at(f.facts.routeEntry);
    QStringList elsewhere;
    for (int idx : c.routesByDestination.value(e.destination))
        elsewhere << c.audit.entries().at(idx).route.nexthop;
    return QStringLiteral(
        "Node %1 has the pod network %2 but the router has no route to it via the node's address "
        "%3%4: pods on %1 cannot be reached from other nodes. Add the route.")
        .arg(e.destinationNode, e.route.destination, e.route.nexthop,
            elsewhere.isEmpty() ? QString()
                                : QStringLiteral(" (the router sends it via %1 instead)")
                                      .arg(elsewhere.join(QStringLiteral(", "))));
}

QString limitMessage(const DiagnosisContext &c, const Finding &f)
{
    const RouteAudit &audit = c.audit;
    const int count = audit.routeCount();
    const int missing = c.state.nodesSource.known ? audit.missingCount() : 0;
    const int freeable = routeLimitFreeable(c, nullptr);
    const bool atLimit = count >= c.routeLimit;
    QString m = QStringLiteral("Router %1 holds %2 of its %3 routes (%4 %; %5 foreign).")
                    .arg(c.state.router.name.isEmpty() ? c.state.router.id : c.state.router.name)
                    .arg(count)
                    .arg(c.routeLimit)
                    .arg(int(qint64(count) * 100 / c.routeLimit))
                    .arg(audit.foreignCount());
    if (atLimit)
        m += QStringLiteral(
            " It is at its limit: the next route is refused (400 RoutesExhausted or 409 OverQuota) "
            "and new nodes get no pod network route.");
    if (missing > 0)
        m += QStringLiteral(" %1 route(s) that nodes need are missing%2.")
                 .arg(missing)
                 .arg(count + missing > c.routeLimit ? QStringLiteral(" and would not fit") : QString());
    if (freeable > 0)
        m += QStringLiteral(
            " Repairing the duplicate, stale, orphaned and unassigned routes frees %1 slot(s).")
                 .arg(freeable);
    else if (f.facts.routesOverflow)
        m += QStringLiteral(" No route can be freed safely; ask for a higher route limit.");
    return m;
}

QJsonObject duplicateEvidence(const DiagnosisContext &c, const Finding &f)
{
    const RouteAudit::DestinationGroup &group = c.audit.klusterDestinations().at(f.facts.destinationGroup);
    const RouteAudit::Entry &first = c.audit.entries().at(group.entries.first());
    QJsonArray routes;
    for (int idx : group.entries)
        routes.append(auditEntryJson(c.audit.entries().at(idx)));
    return QJsonObject { { QStringLiteral("destination"), f.subject }, { QStringLiteral("routes"), routes },
        { QStringLiteral("node"), stringOrNull(first.destinationNode) },
        { QStringLiteral("correctNexthop"), stringOrNull(first.correctNexthop) },
        { QStringLiteral("routerId"), c.state.router.id } };
}

QJsonObject staleEvidence(const DiagnosisContext &c, const Finding &f)
{
    const RouteAudit::Entry &e = c.audit.entries().at(f.facts.routeEntry);
    QJsonObject evidence { { QStringLiteral("route"), auditEntryJson(e) },
        { QStringLiteral("node"), e.destinationNode },
        { QStringLiteral("correctNexthop"), stringOrNull(e.correctNexthop) },
        { QStringLiteral("routerId"), c.state.router.id } };
    if (e.correctNexthop.isEmpty())
        evidence.insert(QStringLiteral("nodeInternalIP"), stringOrNull(e.destinationNodeAddress));
    return evidence;
}

QJsonObject orphanedEvidence(const DiagnosisContext &c, const Finding &f)
{
    const RouteAudit::Entry &e = c.audit.entries().at(f.facts.routeEntry);
    return QJsonObject { { QStringLiteral("route"), auditEntryJson(e) },
        { QStringLiteral("instancesInProject"), int(c.state.instances.size()) },
        { QStringLiteral("routerId"), c.state.router.id } };
}

QJsonObject unassignedEvidence(const DiagnosisContext &c, const Finding &f)
{
    const RouteAudit::Entry &e = c.audit.entries().at(f.facts.routeEntry);
    return QJsonObject { { QStringLiteral("route"), auditEntryJson(e) },
        { QStringLiteral("node"), QJsonValue() },
        { QStringLiteral("nexthopInstanceId"), c.state.instances.at(e.nexthopInstanceIndex).id },
        { QStringLiteral("routerId"), c.state.router.id } };
}

QJsonObject missingEvidence(const DiagnosisContext &c, const Finding &f)
{
    const RouteAudit::Entry &e = c.audit.entries().at(f.facts.routeEntry);
    QJsonArray existing;
    for (int idx : c.routesByDestination.value(e.destination))
        existing.append(auditEntryJson(c.audit.entries().at(idx)));
    return QJsonObject { { QStringLiteral("node"), e.destinationNode },
        { QStringLiteral("podCIDR"), e.route.destination }, { QStringLiteral("internalIP"), e.route.nexthop },
        { QStringLiteral("routesForDestination"), existing },
        { QStringLiteral("routerId"), c.state.router.id } };
}

QJsonObject limitEvidence(const DiagnosisContext &c, const Finding &)
{
    QStringList related;
    const int freeable = routeLimitFreeable(c, &related);
    const int count = c.audit.routeCount();
    return QJsonObject { { QStringLiteral("routerId"), c.state.router.id },
        { QStringLiteral("routes"), count }, { QStringLiteral("limit"), c.routeLimit },
        { QStringLiteral("foreign"), c.audit.foreignCount() },
        { QStringLiteral("kluster"), count - c.audit.foreignCount() },
        { QStringLiteral("missing"), c.state.nodesSource.known ? c.audit.missingCount() : 0 },
        { QStringLiteral("freeable"), freeable },
        { QStringLiteral("warningPercent"), c.options.routeWarningPercent },
        { QStringLiteral("relatedFindings"), QJsonArray::fromStringList(related) } };
}

// The plan's requests: Exact as the router takes them (a full list without extraroute-atomic), or Delta, the
// atomic change of these routes alone; the refusals are the same in both (refuseUnguarded weighs the router,
// not the form: the combined change of Delta plans is as unguarded as each of them).
static bool builtAtomic(const DiagnosisContext &c, PlanForm form)
{
    return c.atomicRoutes || form == PlanForm::Delta;
}

static void markForm(const DiagnosisContext &c, RepairPlan &plan, PlanForm form)
{
    plan.form = c.atomicRoutes ? PlanForm::Exact : form;
}

static std::optional<RepairPlan> removeRoutes(
    const DiagnosisContext &c, const Finding &f, bool needsNodes, PlanForm form)
{
    const QList<Route> wrong = c.wrongRoutes(f.facts.destinationGroup);
    if (wrong.isEmpty())
        return std::nullopt;
    RepairPlan plan = RepairPlanner::removeRoutes(c.state.router, wrong, builtAtomic(c, form));
    markForm(c, plan, form);
    refuseWithoutEvidence(c, plan, needsNodes);
    refuseUnguarded(c, plan);
    return plan;
}

static std::optional<RepairPlan> addRoute(const DiagnosisContext &c, const Finding &f, PlanForm form)
{
    RepairPlan plan = RepairPlanner::addRoutes(
        c.state.router, { c.audit.entries().at(f.facts.routeEntry).route }, builtAtomic(c, form));
    markForm(c, plan, form);
    refuseUnguarded(c, plan);
    if (plan.refusal == Refusal::None && c.routeLimit > 0 && c.audit.routeCount() >= c.routeLimit) {
        plan.refusal = Refusal::RouteLimit;
        plan.refusalDetail
            = QStringLiteral("the router holds %1 of its %2 routes: Neutron would refuse one more "
                             "(400 RoutesExhausted or 409 OverQuota); free a slot first (see route-limit)")
                  .arg(c.audit.routeCount())
                  .arg(c.routeLimit);
    }
    return plan;
}

std::optional<RepairPlan> plan(const DiagnosisContext &c, const Finding &f, PlanForm form)
{
    switch (f.kind) {
    case FindingKind::RouteDuplicate:
    case FindingKind::RouteStale:
    case FindingKind::RouteUnassigned:
        return removeRoutes(c, f, true, form);
    case FindingKind::RouteOrphaned:
        return removeRoutes(c, f, false, form);
    case FindingKind::RouteMissing:
        return addRoute(c, f, form);
    default:
        return std::nullopt;
    }
}

std::optional<RepairPlan> removeWrongRoutes(const DiagnosisContext &c, const Finding &f)
{
    return removeRoutes(c, f, true, PlanForm::Exact);
}

std::optional<RepairPlan> removeOrphanedRoutes(const DiagnosisContext &c, const Finding &f)
{
    return removeRoutes(c, f, false, PlanForm::Exact);
}

std::optional<RepairPlan> addMissingRoute(const DiagnosisContext &c, const Finding &f)
{
    return addRoute(c, f, PlanForm::Exact);
}

AffectedObjects affectedDestination(const DiagnosisContext &c, const Finding &f)
{
    AffectedObjects a;
    for (int idx : c.audit.klusterDestinations().at(f.facts.destinationGroup).entries) {
        const RouteAudit::Entry &e = c.audit.entries().at(idx);
        a.routes << e.route;
        if (!e.destinationNode.isEmpty() && !a.nodes.contains(e.destinationNode))
            a.nodes << e.destinationNode;
    }
    return a;
}

AffectedObjects affectedDestinationAndNexthops(const DiagnosisContext &c, const Finding &f)
{
    AffectedObjects a = affectedDestination(c, f);
    for (int idx : c.audit.klusterDestinations().at(f.facts.destinationGroup).entries) {
        const RouteAudit::Entry &e = c.audit.entries().at(idx);
        if (!e.nexthopInstance.isEmpty())
            a.instances << e.nexthopInstance;
    }
    return a;
}

AffectedObjects affectedMissingRoute(const DiagnosisContext &c, const Finding &f)
{
    AffectedObjects a;
    const RouteAudit::Entry &e = c.audit.entries().at(f.facts.routeEntry);
    a.nodes << e.destinationNode;
    if (!e.nexthopInstance.isEmpty())
        a.instances << e.nexthopInstance;
    return a;
}

void detect(Detection &d)
{
    const RouteAudit &audit = d.ctx->audit;
    const QList<RouteAudit::DestinationGroup> &groups = audit.klusterDestinations();
    for (int g = 0; g < groups.size(); ++g) {
        const std::optional<FindingKind> kind = d.ctx->routeFindingKind(g);
        if (!kind)
            continue;
        FindingFacts facts;
        facts.destinationGroup = g;
        facts.routeEntry = groups.at(g).entries.first();
        d.result.findings.append(d.make(*kind, d.ctx->routeSubject(g), std::move(facts)));
    }

    if (d.state.nodesSource.known) {
        const QList<RouteAudit::Entry> &entries = audit.entries();
        for (int e = 0; e < entries.size(); ++e) {
            if (!(entries.at(e).roles & RouteAudit::Missing))
                continue;
            FindingFacts facts;
            facts.routeEntry = e;
            d.result.findings.append(
                d.make(FindingKind::RouteMissing, entries.at(e).destinationNode, std::move(facts)));
        }
    }

    const int limit = d.ctx->routeLimit;
    const int count = audit.routeCount();
    if (limit <= 0 && routeLimitDisproved(d.state, d.ctx->options))
        d.result.notDiagnosed << QStringLiteral(
            "route-limit: router %1 holds %2 routes, more than the %3 assumed without a known limit: its "
            "limit "
            "is not known (give it with --route-limit, or as the snapshot's maxRoutes)")
                                     .arg(d.state.router.name.isEmpty() ? d.state.router.id
                                                                        : d.state.router.name)
                                     .arg(count)
                                     .arg(d.ctx->options.routeLimit);
    const int missing = d.state.nodesSource.known ? audit.missingCount() : 0;
    const bool atLimit = count >= limit;
    const bool wouldNotFit = count + missing > limit;
    const bool nearLimit = qint64(count) * 100 >= qint64(limit) * d.ctx->options.routeWarningPercent;
    if (limit > 0 && (atLimit || wouldNotFit || nearLimit)) {
        FindingFacts facts;
        facts.routesOverflow = atLimit || wouldNotFit;
        d.result.findings.append(d.make(FindingKind::RouteLimit, d.state.router.id, std::move(facts)));
    }
}

} // namespace RouteFindings
