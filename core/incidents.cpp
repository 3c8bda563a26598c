#include "core/incidents.h"

#include "core/cidr.h"
#include "core/diagnosis.h"
#include "core/diagnosiscontext.h"
#include "core/findingtraits.h"
#include "core/permission.h"
#include "core/repairgate.h"

#include <QHash>
#include <QMap>
#include <QSet>
#include <algorithm>

QString incidentRuleName(IncidentRule rule)
{
    switch (rule) {
    case IncidentRule::RecycledPodCidr:
        return QStringLiteral("recycled-pod-cidr");
    case IncidentRule::ZoneOutage:
        return QStringLiteral("zone-outage");
    case IncidentRule::SecurityGroupDetached:
        return QStringLiteral("security-group-detached");
    case IncidentRule::PodNetworkClosed:
        return QStringLiteral("pod-network-closed");
    case IncidentRule::RouterFull:
        return QStringLiteral("router-full");
    case IncidentRule::AutomationStalled:
        return QStringLiteral("automation-stalled");
    }
    return QString();
}

QString incidentRulePhrase(IncidentRule rule)
{
    switch (rule) {
    case IncidentRule::RecycledPodCidr:
        return QStringLiteral("pod CIDR recycled");
    case IncidentRule::ZoneOutage:
        return QStringLiteral("zone outage");
    case IncidentRule::SecurityGroupDetached:
        return QStringLiteral("security group detached");
    case IncidentRule::PodNetworkClosed:
        return QStringLiteral("pod network closed");
    case IncidentRule::RouterFull:
        return QStringLiteral("router full");
    case IncidentRule::AutomationStalled:
        return QStringLiteral("automation stalled");
    }
    return QString();
}

const QList<IncidentRule> &incidentRules()
{
    static const QList<IncidentRule> rules { IncidentRule::RecycledPodCidr, IncidentRule::ZoneOutage,
        IncidentRule::SecurityGroupDetached, IncidentRule::PodNetworkClosed, IncidentRule::RouterFull,
        IncidentRule::AutomationStalled };
    return rules;
}

namespace {

bool whole(const SourceStatus &s)
{
    return s.known && s.incomplete.isEmpty();
}

// The findings of one kluster, by id, and which an incident has claimed.
class Claims
{
public:
    explicit Claims(const QList<Finding> &findings)
        : m_findings(findings)
    {
        for (int i = 0; i < findings.size(); ++i)
            m_index.insert(findings.at(i).id(), i);
    }

    // The finding, when it exists and no incident has it yet.
    const Finding *free(const QString &id) const
    {
        const int i = m_index.value(id, -1);
        return i < 0 || m_claimed.contains(i) ? nullptr : &m_findings.at(i);
    }
    const Finding *free(FindingKind kind, const QString &subject) const
    {
        return free(Finding::idOf(kind, subject));
    }
    const QList<Finding> &all() const { return m_findings; }
    // The free findings of `ids` that exist, in the order of the findings.
    QList<Finding> freeOf(const QStringList &ids) const
    {
        const QList<int> rows = freeRows(ids);
        QList<Finding> found;
        for (int i : rows)
            found << m_findings.at(i);
        return found;
    }
    bool isFree(int i) const { return !m_claimed.contains(i); }

    // An incident of `members` (ids, any order, duplicates ignored) when there are two or more: they are
    // claimed and put in the order of the findings.
    std::optional<Incident> make(Incident incident, const QStringList &members)
    {
        const QList<int> rows = freeRows(members);
        if (rows.size() < 2)
            return std::nullopt;
        for (int i : rows) {
            m_claimed.insert(i);
            incident.members << m_findings.at(i).id();
        }
        return incident;
    }

private:
    // The rows of the free findings of `ids` that exist, once each, in the order of the findings.
    QList<int> freeRows(const QStringList &ids) const
    {
        QList<int> rows;
        rows.reserve(ids.size());
        for (const QString &id : ids) {
            const int i = m_index.value(id, -1);
            if (i >= 0 && !m_claimed.contains(i))
                rows << i;
        }
        std::sort(rows.begin(), rows.end());
        rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
        return rows;
    }

    const QList<Finding> &m_findings;
    QHash<QString, int> m_index;
    QSet<int> m_claimed;
};

// One plan of several plans' requests, in order (a request each: one group added per instance, one rule per
// protocol); refused when any of them is.
std::optional<RepairPlan> concatenated(const QList<Finding> &findings, const QString &title)
{
    std::optional<RepairPlan> combined;
    for (const Finding &f : findings) {
        const std::optional<RepairPlan> plan = f.repair();
        if (!plan)
            continue;
        if (!combined) {
            combined = *plan;
            combined->title = title;
            continue;
        }
        // One teardown and sync of a router's devices does for every finding about them.
        if (plan->actsOnDevices() && combined->actsOnDevices()
            && plan->requests.constLast().path == combined->requests.constLast().path)
            continue;
        combined->requests << plan->requests;
        if (combined->refusal == Refusal::None && plan->refusal != Refusal::None) {
            combined->refusal = plan->refusal;
            combined->refusalDetail = plan->refusalDetail;
        }
    }
    return combined;
}

// The one route change of route findings (removals first): their combined plan, or the one's own.
std::optional<RepairPlan> routeChange(const QList<Finding> &findings)
{
    QList<const Finding *> routes;
    for (const Finding &f : findings) {
        const std::optional<RepairPlan> plan = f.repair(PlanForm::Delta); // which, not how: linear
        if (plan && plan->changesRoutes())
            routes << &f;
    }
    if (routes.isEmpty())
        return std::nullopt;
    if (routes.size() == 1)
        return routes.first()->repair();
    const DiagnosisContext &c = *routes.first()->context;
    const RepairGate gate(routes, RemediationBudget::compute(c.state, c.options));
    return gate.routeChange();
}

class Finder
{
public:
    Finder(const QList<Finding> &findings, const DiagnosisContext &context)
        : m_claims(findings)
        , m_c(context)
        , m_state(context.state)
    { }

    QList<Incident> run()
    {
        recycledPodCidrs();
        zoneOutages();
        securityGroupDetached();
        podNetworkClosed();
        routerFull();
        automationStalled();
        std::sort(m_incidents.begin(), m_incidents.end(), [](const Incident &a, const Incident &b) {
            return a.severity != b.severity ? a.severity < b.severity : a.id() < b.id();
        });
        return m_incidents;
    }

private:
    void add(std::optional<Incident> incident)
    {
        if (incident)
            m_incidents << *incident;
    }
    QString zoneOfNode(int node) const
    {
        const Node &n = m_state.nodes.at(node);
        if (!n.zone.isEmpty())
            return n.zone;
        const int instance = m_c.index.instanceByName(n.name);
        return instance >= 0 ? m_state.instances.at(instance).zone : QString();
    }

    void recycledPodCidrs();
    void zoneOutages();
    void securityGroupDetached();
    void podNetworkClosed();
    void routerFull();
    void automationStalled();

    Claims m_claims;
    const DiagnosisContext &m_c;
    const KlusterState &m_state;
    QList<Incident> m_incidents;
};

// A node's pod CIDR C is routed elsewhere than to the node: its stale or duplicate route, its missing route,
// its conditions, and the instance that owned C before (it lost its node; routes still lead to it).
void Finder::recycledPodCidrs()
{
    if (!whole(m_state.routerSource) || !whole(m_state.nodesSource) || !whole(m_state.serversSource))
        return;
    const RouteAudit &audit = m_c.audit;
    QHash<Cidr, int> groupOf;
    for (int g = 0; g < audit.klusterDestinations().size(); ++g)
        groupOf.insert(audit.klusterDestinations().at(g).destination, g);
    // The instances that lost their node, by the pod CIDRs the kluster's routes still send to them.
    QHash<Cidr, QStringList> lostOwners;
    for (const Finding &f : m_claims.all()) {
        if (f.kind != FindingKind::InstanceUnregistered || !f.facts.routed || f.facts.instance < 0)
            continue;
        for (int idx : audit.routesVia(f.facts.instance))
            lostOwners[audit.entries().at(idx).destination] << f.id();
    }
    // The routes the router's devices kept (device-route-stale), by destination: the same fault on the
    // devices.
    QHash<Cidr, QList<const Finding *>> keptTo;
    for (const Finding &f : m_claims.all()) {
        if (f.kind == FindingKind::DeviceRouteStale) {
            const Route kept
                = m_state.routerDevices.devices.value(f.facts.device).routes.value(f.facts.deviceRoute);
            keptTo[Cidr::parse(kept.destination)] << &f;
        }
    }
    for (int n = 0; n < m_state.nodes.size(); ++n) {
        const Node &node = m_state.nodes.at(n);
        if (!node.podCidr.isValid() || m_c.index.isGhost(n) || m_c.index.instanceByName(node.name) < 0)
            continue;
        const QString ip = canonicalAddress(node.internalIp);
        if (ip.isEmpty())
            continue;
        QStringList elsewhere;
        bool routedRight = false; // Neutron routes C to the node
        for (int idx : m_c.routesByDestination.value(node.podCidr)) {
            const QString hop = audit.entries().at(idx).route.nexthop;
            routedRight = routedRight || canonicalAddress(hop) == ip;
            if (canonicalAddress(hop) != ip && !elsewhere.contains(hop))
                elsewhere << hop;
        }
        // The same fault on the router's devices (diagnosis.md §6): a route to C they kept, via another.
        QStringList keptOnDevices;
        QStringList deviceHops;
        for (const Finding *f : keptTo.value(node.podCidr)) {
            const Route kept
                = m_state.routerDevices.devices.value(f->facts.device).routes.value(f->facts.deviceRoute);
            if (canonicalAddress(kept.nexthop) == ip)
                continue;
            keptOnDevices << f->id();
            if (!elsewhere.contains(kept.nexthop) && !deviceHops.contains(kept.nexthop))
                deviceHops << kept.nexthop;
        }
        // The devices' kept routes make the incident only where Neutron is right (routes C to the node
        // alone); where Neutron is wrong, its one change is the repair and the devices' findings stand alone.
        if (elsewhere.isEmpty() && (keptOnDevices.isEmpty() || !routedRight))
            continue;
        const QString cidr = node.podCidr.toString();
        QStringList members;
        if (const int g = groupOf.value(node.podCidr, -1); g >= 0) {
            if (const std::optional<FindingKind> kind = m_c.routeFindingKind(g))
                members << Finding::idOf(*kind, m_c.routeSubject(g));
        }
        for (const FindingKind kind :
            { FindingKind::RouteMissing, FindingKind::NodeNetworkUnavailable, FindingKind::NodeNotReady })
            members << Finding::idOf(kind, node.name);
        // The CIDR's previous owner: an instance that lost its node, the kluster's routes to C still via it.
        members << lostOwners.value(node.podCidr);
        if (elsewhere.isEmpty())
            members << keptOnDevices;
        Incident incident;
        incident.rule = IncidentRule::RecycledPodCidr;
        incident.key = cidr;
        if (!elsewhere.isEmpty()) {
            // Neutron's routes first: its one change (the devices' kept routes keep their own repair).
            incident.title = QStringLiteral("%1: node %2's pod CIDR is routed to %3 (a recycled CIDR)")
                                 .arg(cidr, node.name, elsewhere.join(QStringLiteral(", ")));
            incident.repairStyle = Incident::Repair::RouteChange;
            incident.planFrom = m_claims.freeOf(members);
            incident.repairTitle
                = QStringLiteral("Route %1 to node %2 (%3) only, in one change of the router")
                      .arg(cidr, node.name, node.internalIp);
        } else {
            // Neutron is right; the router's devices still send C to its previous owner: their teardown and
            // sync (one for the router).
            incident.title
                = QStringLiteral("%1: node %2's pod CIDR is routed to %3 on the router's devices (a "
                                 "recycled CIDR; Neutron is right)")
                      .arg(cidr, node.name, deviceHops.join(QStringLiteral(", ")));
            incident.repairStyle = Incident::Repair::InTurn;
            incident.planFrom = m_claims.freeOf(keptOnDevices);
            incident.repairTitle
                = QStringLiteral("Tear router %1's configuration on its devices down and sync "
                                 "it: only Neutron's route of %2, to node %3, stays")
                      .arg(m_state.router.name.isEmpty() ? m_state.router.id : m_state.router.name, cidr,
                          node.name);
        }
        add(m_claims.make(incident, members));
    }
}

// The Kubernetes node lifecycle controller's rule: a zone is fully disrupted when none of its nodes is Ready
// and one is not, partially when more than 2 are not Ready and they are at least 55 % of it.
void Finder::zoneOutages()
{
    if (!whole(m_state.nodesSource) || !whole(m_state.serversSource))
        return;
    struct Zone
    {
        int nodes = 0;
        int notReady = 0;
        QStringList nodeNames;
    };
    QMap<QString, Zone> zones;
    for (int n = 0; n < m_state.nodes.size(); ++n) {
        if (m_c.index.isGhost(n))
            continue;
        const QString zone = zoneOfNode(n);
        if (zone.isEmpty())
            continue;
        const Node &node = m_state.nodes.at(n);
        const NodeCondition *ready = node.condition(QStringLiteral("Ready"));
        Zone &z = zones[zone];
        ++z.nodes;
        z.notReady += !ready || ready->status != QLatin1String("True") ? 1 : 0;
        z.nodeNames << node.name;
    }
    for (auto it = zones.cbegin(); it != zones.cend(); ++it) {
        const Zone &z = it.value();
        const bool full = z.notReady > 0 && z.notReady == z.nodes;
        const bool partial = z.notReady > 2 && z.notReady * 100 >= 55 * z.nodes;
        if (!full && !partial)
            continue;
        QStringList members;
        for (const QString &name : z.nodeNames) {
            members << Finding::idOf(FindingKind::NodeNotReady, name)
                    << Finding::idOf(FindingKind::NodeNetworkUnavailable, name);
        }
        for (int i : m_c.index.klusterInstances()) {
            const Instance &instance = m_state.instances.at(i);
            if (instance.zone != it.key())
                continue;
            for (const FindingKind kind : { FindingKind::InstanceUnregistered, FindingKind::InstanceError,
                     FindingKind::InstanceStopped })
                members << Finding::idOf(kind, instance.name);
        }
        Incident incident;
        incident.rule = IncidentRule::ZoneOutage;
        incident.key = it.key();
        incident.title
            = QStringLiteral("Zone %1: %2 of %3 nodes NotReady").arg(it.key()).arg(z.notReady).arg(z.nodes);
        add(m_claims.make(incident, members));
    }
}

// Instances without the kluster's group: each one's missing membership, and what it caused.
void Finder::securityGroupDetached()
{
    if (!whole(m_state.serversSource) || !whole(m_state.securityGroupsSource))
        return;
    QStringList members;
    QList<Finding> detached;
    int neverRegistered = 0;
    for (const Finding &f : m_claims.all()) {
        if (f.kind != FindingKind::InstanceMissingSecurityGroup || !m_claims.free(f.id()))
            continue;
        detached << f;
        members << f.id();
        for (const FindingKind kind : { FindingKind::InstanceUnregistered, FindingKind::NodeNotReady,
                 FindingKind::NodeNetworkUnavailable })
            members << Finding::idOf(kind, f.subject);
        if (m_claims.free(FindingKind::InstanceUnregistered, f.subject))
            ++neverRegistered;
    }
    const QString group = m_state.kluster.securityGroupName;
    Incident incident;
    incident.rule = IncidentRule::SecurityGroupDetached;
    incident.key = group;
    incident.title = QStringLiteral("%1 missing from %2 instance(s)").arg(group).arg(detached.size())
        + (neverRegistered > 0 ? QStringLiteral(" (%1 never registered: after the group is back, each still "
                                                "needs its own repair)")
                                     .arg(neverRegistered)
                               : QString());
    incident.repairStyle = Incident::Repair::InTurn;
    incident.repairTitle
        = QStringLiteral("Add security group %1 to %2 instance(s)").arg(group).arg(detached.size());
    incident.planFrom = detached;
    add(m_claims.make(incident, members));
}

// The group lacks the pod network's rules: every missing rule, created together.
void Finder::podNetworkClosed()
{
    if (!whole(m_state.securityGroupsSource))
        return;
    QStringList members;
    QList<Finding> missing;
    QStringList protocols;
    for (const Finding &f : m_claims.all()) {
        if (f.kind == FindingKind::SecurityGroupRuleMissing && m_claims.free(f.id())) {
            missing << f;
            members << f.id();
            protocols << f.subject.toUpper();
        }
    }
    const QString group = m_state.kluster.securityGroupName;
    Incident incident;
    incident.rule = IncidentRule::PodNetworkClosed;
    incident.key = group;
    incident.title
        = QStringLiteral("%1 lets no %2 in from the pod network %3")
              .arg(group, protocols.join(QStringLiteral(", ")), m_state.kluster.clusterCidr.toString());
    incident.repairStyle = Incident::Repair::InTurn;
    incident.repairTitle
        = QStringLiteral("Allow %1 from the pod network %2 into security group %3")
              .arg(protocols.join(QStringLiteral(", ")), m_state.kluster.clusterCidr.toString(), group);
    incident.planFrom = missing;
    add(m_claims.make(incident, members));
}

// A full router with routes still missing: the limit, the missing routes and their nodes' network, repaired
// by the router's one change over all the kluster's route findings (removals first free the slots).
void Finder::routerFull()
{
    if (!whole(m_state.routerSource) || !whole(m_state.nodesSource))
        return;
    const Finding *limit = nullptr;
    for (const Finding &f : m_claims.all()) {
        if (f.kind == FindingKind::RouteLimit && f.severity == Severity::Critical && m_claims.free(f.id()))
            limit = &f;
    }
    if (!limit)
        return;
    QStringList members { limit->id() };
    int missing = 0;
    for (const Finding &f : m_claims.all()) {
        if (f.kind != FindingKind::RouteMissing || !m_claims.free(f.id()))
            continue;
        ++missing;
        members << f.id() << Finding::idOf(FindingKind::NodeNetworkUnavailable, f.subject);
    }
    if (missing == 0)
        return;
    Incident incident;
    incident.rule = IncidentRule::RouterFull;
    incident.key = m_state.router.id;
    incident.title = QStringLiteral("Router %1 is full: %2 route(s) missing")
                         .arg(m_state.router.name.isEmpty() ? m_state.router.id : m_state.router.name)
                         .arg(missing);
    // Every route finding of the router (removals first free the slots), as "repair all route findings".
    incident.repairStyle = Incident::Repair::RouteChange;
    incident.repairTitle = QStringLiteral("Change the routes of router %1 in one change: the wrong ones out, "
                                          "then the missing ones in")
                               .arg(m_state.router.name.isEmpty() ? m_state.router.id : m_state.router.name);
    // (Their plans are made when the incident's repair is asked for, not here: with thousands of route
    // findings on a router without extraroute-atomic each is the router's whole list.)
    bool freesSlots = false;
    for (const Finding &f : m_claims.all()) {
        if (findingFamily(f.kind) == FindingFamily::Route && f.kind != FindingKind::RouteLimit) {
            incident.planFrom << f;
            freesSlots = freesSlots || f.kind != FindingKind::RouteMissing;
        }
    }
    // No wrong route to take out: nothing frees a slot, so the missing routes cannot go in. No repair is
    // offered that could only be refused; its reason says what a person must do.
    if (!freesSlots) {
        incident.repairStyle = Incident::Repair::None;
        incident.repairTitle.clear();
        incident.planFrom.clear();
    }
    add(m_claims.make(incident, members));
}

// An actor overdue on two or more findings no earlier rule claimed: it is not doing its job (its controller
// down, its credentials expired). No repair of its own: each finding keeps its own; it is handed to the
// actor's owners (diagnosis.md §7).
void Finder::automationStalled()
{
    struct Overdue
    {
        QStringList members;
        QDateTime earliest;
    };
    QMap<int, Overdue> byActor;
    for (const Finding &f : m_claims.all()) {
        if (!m_claims.free(f.id()))
            continue;
        const std::optional<Automation> a = f.automation();
        if (!a || !a->overdue)
            continue;
        Overdue &o = byActor[int(a->actor)];
        o.members << f.id();
        if (!o.earliest.isValid() || a->due < o.earliest)
            o.earliest = a->due;
    }
    for (auto it = byActor.cbegin(); it != byActor.cend(); ++it) {
        const Actor actor = Actor(it.key());
        Incident incident;
        incident.rule = IncidentRule::AutomationStalled;
        incident.key = Actors::name(actor);
        incident.title
            = QStringLiteral("%1 has not acted for %2: %3 findings it should have repaired")
                  .arg(Actors::name(actor), formatDuration(it->earliest.secsTo(m_state.capturedAt)))
                  .arg(it->members.size());
        add(m_claims.make(incident, it->members));
    }
}

} // namespace

std::optional<RepairPlan> Incident::repair() const
{
    std::optional<RepairPlan> plan;
    switch (repairStyle) {
    case Repair::None:
        return std::nullopt;
    case Repair::RouteChange:
        plan = routeChange(planFrom);
        break;
    case Repair::InTurn:
        plan = concatenated(planFrom, repairTitle);
        break;
    }
    if (plan && !repairTitle.isEmpty())
        plan->title = repairTitle;
    if (plan && !planFrom.isEmpty() && planFrom.constFirst().context)
        Credentials::judgePlan(*plan, planFrom.constFirst().context->state.credentials.get());
    return plan;
}

QString Incident::noRepairReason() const
{
    if (rule == IncidentRule::ZoneOutage)
        return QStringLiteral(
            "No repair: the zone is down, not the nodes; no instance in it is deleted while it is open.");
    if (rule == IncidentRule::RouterFull)
        return QStringLiteral(
            "No repair: the router is full and none of its routes is wrong, so no slot can be freed for the "
            "missing ones. Raise the router's route limit (Neutron's max_routes or quota_router_route), or "
            "have the owners of other klusters' or operators' routes remove some (see route-limit).");
    if (const std::optional<Actor> a = actor())
        return QStringLiteral(
            "No repair of its own: %1 is not doing its job (its controller down, or its credentials "
            "expired). Hand it to %2; each finding keeps its own repair meanwhile.")
            .arg(Actors::name(*a), Actors::owners(*a));
    return QStringLiteral("No repair: its plan could not be made from the data shown (see its findings).");
}

QStringList Incident::repairFindings() const
{
    QStringList ids;
    if (repairStyle == Repair::None)
        return ids;
    for (const Finding &f : planFrom) {
        const std::optional<RepairPlan> plan
            = f.repair(repairStyle == Repair::RouteChange ? PlanForm::Delta : PlanForm::Exact);
        // As repair() takes them: the route changes alone for a route change, every plan in turn otherwise.
        if (plan && (repairStyle != Repair::RouteChange || plan->changesRoutes()))
            ids << f.id();
    }
    return ids;
}

namespace Incidents {

QList<Incident> find(const QList<Finding> &findings, const DiagnosisContext &context)
{
    if (findings.size() < 2)
        return {};
    return Finder(findings, context).run();
}

} // namespace Incidents
