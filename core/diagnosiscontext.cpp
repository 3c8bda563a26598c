#include "core/diagnosiscontext.h"

int effectiveRouteLimit(const KlusterState &state, const DiagnosisOptions &options)
{
    if (options.routeLimitExplicit)
        return options.routeLimit;
    if (state.maxRoutes)
        return *state.maxRoutes;
    // The default (upstream Neutron's 30) is an assumption: a router that holds more routes proves its limit
    // is higher, and how much higher is not known.
    return routeLimitDisproved(state, options) ? 0 : options.routeLimit;
}

bool routeLimitDisproved(const KlusterState &state, const DiagnosisOptions &options)
{
    return !options.routeLimitExplicit && !state.maxRoutes && state.routerSource.known
        && state.router.routes.size() > options.routeLimit;
}

static bool computeNodeEvidenceMissing(const KlusterState &state, const KlusterIndex &index)
{
    if (!state.nodesSource.known)
        return true;
    if (!state.nodes.isEmpty())
        return false;
    for (int i : index.klusterInstances()) {
        if (state.instances.at(i).isActive())
            return true;
    }
    return false;
}

namespace {

// The state as judged: its router's devices with the roles the options give them.
KlusterState withDeviceRoles(const KlusterState &s, const DiagnosisOptions &o)
{
    if (s.routerDevices.devices.isEmpty())
        return s;
    KlusterState judged = s;
    judged.routerDevices = withRoles(s.routerDevices, o.activeDevices);
    return judged;
}

} // namespace

DiagnosisContext::DiagnosisContext(const KlusterState &s, const DiagnosisOptions &o)
    : state(withDeviceRoles(s, o))
    , options(o)
    , index(state)
    , audit(index)
    , phase(KlusterPhases::of(state.kluster))
    , nodeEvidenceMissing(computeNodeEvidenceMissing(state, index))
    , atomicRoutes(state.hasAtomicExtraRoutes() && !options.fullRouteUpdates)
    , routeLimit(effectiveRouteLimit(state, options))
{
    for (int i = 0; i < audit.entries().size(); ++i) {
        const RouteAudit::Entry &e = audit.entries().at(i);
        if (e.position >= 0)
            routesByDestination[e.destination].append(i);
    }
}

std::optional<FindingKind> DiagnosisContext::routeFindingKind(int destinationGroup) const
{
    const RouteAudit::DestinationGroup &group = audit.klusterDestinations().at(destinationGroup);
    if (group.entries.size() > 1)
        return FindingKind::RouteDuplicate;
    const RouteAudit::Entry &e = audit.entries().at(group.entries.first());
    if ((e.roles & RouteAudit::Stale) && state.nodesSource.known)
        return FindingKind::RouteStale;
    if ((e.roles & RouteAudit::Orphaned) && state.serversSource.known)
        return FindingKind::RouteOrphaned;
    // Whether a node has the destination needs the node list; whether the nexthop lives, the servers.
    if ((e.roles & RouteAudit::Unassigned) && state.serversSource.known && !nodeEvidenceMissing)
        return FindingKind::RouteUnassigned;
    return std::nullopt;
}

QString DiagnosisContext::routeSubject(int destinationGroup) const
{
    const RouteAudit::DestinationGroup &group = audit.klusterDestinations().at(destinationGroup);
    if (group.entries.size() > 1)
        return group.destination.toString();
    const Route &r = audit.entries().at(group.entries.first()).route;
    return r.destination + QStringLiteral(" via ") + r.nexthop;
}

QList<Route> DiagnosisContext::wrongRoutes(int destinationGroup) const
{
    const RouteAudit::DestinationGroup &group = audit.klusterDestinations().at(destinationGroup);
    QList<Route> wrong;
    for (int idx : group.entries) {
        const RouteAudit::Entry &e = audit.entries().at(idx);
        // While the owner has no address, only routes to nobody or to another node are surely wrong.
        const bool isWrong = group.undecided ? bool(e.roles & (RouteAudit::Orphaned | RouteAudit::Stale))
                                             : !(e.roles & RouteAudit::Correct);
        // Never another kluster's route: it is that kluster's to keep or remove.
        if (e.roles & RouteAudit::OtherKluster)
            continue;
        if (isWrong)
            wrong.append(e.route);
    }
    return wrong;
}
