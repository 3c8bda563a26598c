#include "core/findingtraits.h"

#include "core/debrisfindings.h"
#include "core/devicefindings.h"
#include "core/instancefindings.h"
#include "core/klusterfindings.h"
#include "core/nodefindings.h"
#include "core/portfindings.h"
#include "core/routefindings.h"
#include "core/securityfindings.h"

#include <iterator>

namespace {

template<Severity S> Severity always(const FindingFacts &)
{
    return S;
}

constexpr Severity (*critical)(const FindingFacts &) = always<Severity::Critical>;
constexpr Severity (*warning)(const FindingFacts &) = always<Severity::Warning>;

template<Impact I> Impact takes(Severity)
{
    return I;
}
// Every pod's traffic, or every node's (a pod-network rule, the group).
constexpr Impact (*wholeKluster)(Severity) = takes<Impact::Kluster>;
constexpr Impact (*oneNode)(Severity) = takes<Impact::Node>; // one node or instance
constexpr Impact (*oneSlot)(Severity) = takes<Impact::Slot>; // a router slot
// At the limit (critical) no new node gets its route; near it, only slots are at stake.
Impact limitImpact(Severity severity)
{
    return severity == Severity::Critical ? Impact::Kluster : Impact::Slot;
}

using namespace InstanceFindings;
using namespace NodeFindings;
using namespace PortFindings;
using namespace RouteFindings;
using namespace SecurityFindings;
using K = FindingKind;
using F = FindingFamily;
using S = Source;
constexpr quint16 N(Source source)
{
    return sourceBit(source);
}

// One entry per kind, in the order of the enum: the kind, its name, phrase, family, the sources it needs (and
// needs whole), its severity rule and impact; its message, evidence, repair (null: none of its own) and
// affected objects (null: none).
constexpr FindingTraits table[] = {
    { K::InstanceUnregistered, QLatin1String("instance-unregistered"), QLatin1String("node never registered"),
        F::Instance, N(S::Servers) | N(S::Nodes), N(S::Nodes), unregisteredSeverity, oneNode,
        unregisteredMessage, unregisteredEvidence, deleteInstance, affectedInstance },
    { K::InstanceError, QLatin1String("instance-error"), QLatin1String("instance in ERROR"), F::Instance,
        N(S::Servers), 0, critical, oneNode, errorMessage, errorEvidence, deleteInstance, affectedInstance },
    { K::InstanceStopped, QLatin1String("instance-stopped"), QLatin1String("instance stopped"), F::Instance,
        N(S::Servers), 0, stoppedSeverity, oneNode, stoppedMessage, stoppedEvidence, startInstance,
        affectedInstanceAndNode },
    { K::InstanceMissingSecurityGroup, QLatin1String("instance-missing-security-group"),
        QLatin1String("instance cut off from its group"), F::Instance, N(S::Servers) | N(S::SecurityGroups),
        0, critical, oneNode, missingGroupMessage, missingGroupEvidence, addGroup, affectedInstanceAndGroup },
    { K::SecurityGroupMissing, QLatin1String("security-group-missing"),
        QLatin1String("security group missing"), F::Security, N(S::SecurityGroups), N(S::SecurityGroups),
        critical, wholeKluster, groupMissingMessage, groupMissingEvidence, nullptr, affectedGroup },
    { K::SecurityGroupRuleMissing, QLatin1String("security-group-rule-missing"),
        QLatin1String("pod-network rule missing"), F::Security, N(S::SecurityGroups), 0, critical,
        wholeKluster, ruleMissingMessage, ruleMissingEvidence, createRule, affectedGroup },
    { K::RouteDuplicate, QLatin1String("route-duplicate"), QLatin1String("duplicate route"), F::Route,
        N(S::Router), 0, critical, oneNode, duplicateMessage, duplicateEvidence, removeWrongRoutes,
        affectedDestination },
    { K::RouteOrphaned, QLatin1String("route-orphaned"), QLatin1String("orphaned route"), F::Route,
        N(S::Router) | N(S::Servers), N(S::Servers), warning, oneSlot, orphanedMessage, orphanedEvidence,
        removeOrphanedRoutes, affectedDestination },
    { K::RouteStale, QLatin1String("route-stale"), QLatin1String("stale route"), F::Route,
        N(S::Router) | N(S::Nodes), 0, critical, oneNode, staleMessage, staleEvidence, removeWrongRoutes,
        affectedDestinationAndNexthops },
    { K::RouteUnassigned, QLatin1String("route-unassigned"), QLatin1String("unassigned route"), F::Route,
        N(S::Router) | N(S::Servers) | N(S::Nodes), N(S::Servers), warning, oneSlot, unassignedMessage,
        unassignedEvidence, removeWrongRoutes, affectedDestinationAndNexthops },
    { K::RouteMissing, QLatin1String("route-missing"), QLatin1String("route missing"), F::Route,
        N(S::Router) | N(S::Nodes), 0, critical, oneNode, missingMessage, missingEvidence, addMissingRoute,
        affectedMissingRoute },
    { K::PortAddressPairMissing, QLatin1String("port-address-pair-missing"),
        QLatin1String("address pair missing"), F::Security,
        N(S::Ports) | N(S::Servers) | N(S::Nodes) | N(S::Extensions), N(S::Ports), critical, oneNode,
        pairMissingMessage, pairMissingEvidence, addPair, affectedNodeAndInstance },
    { K::RouteLimit, QLatin1String("route-limit"), QLatin1String("router at its route limit"), F::Route,
        N(S::Router), 0, limitSeverity, limitImpact, limitMessage, limitEvidence, nullptr, nullptr },
    { K::NodeNotReady, QLatin1String("node-not-ready"), QLatin1String("node not Ready"), F::Node, N(S::Nodes),
        0, notReadySeverity, oneNode, notReadyMessage, NodeFindings::evidence, nullptr,
        NodeFindings::affected },
    { K::NodeNetworkUnavailable, QLatin1String("node-network-unavailable"),
        QLatin1String("node network unavailable"), F::Node, N(S::Nodes), 0, critical, oneNode,
        networkUnavailableMessage, NodeFindings::evidence, nullptr, NodeFindings::affected },
    { K::NodeWithoutInstance, QLatin1String("node-without-instance"), QLatin1String("node without instance"),
        F::Node, N(S::Nodes) | N(S::Servers), N(S::Servers), ghostSeverity, oneNode, ghostMessage,
        ghostEvidence, deleteNode, NodeFindings::affected },
    { K::DeviceRouteStale, QLatin1String("device-route-stale"),
        QLatin1String("deleted route kept on the device"), F::Route,
        N(S::Router) | N(S::RouterDevice) | N(S::Nodes), N(S::Nodes), DeviceFindings::staleSeverity, oneNode,
        DeviceFindings::staleMessage, DeviceFindings::evidence, DeviceFindings::reset,
        DeviceFindings::affected },
    { K::DeviceRouteMissing, QLatin1String("device-route-missing"),
        QLatin1String("route missing on the device"), F::Route, N(S::Router) | N(S::RouterDevice), 0,
        DeviceFindings::missingSeverity, oneNode, DeviceFindings::missingMessage, DeviceFindings::evidence,
        DeviceFindings::sync, DeviceFindings::affected },
    { K::RouteRecycled, QLatin1String("route-recycled"), QLatin1String("recycled pod CIDR, devices not read"),
        F::Route, N(S::Router) | N(S::Nodes) | N(S::Extensions), 0, warning, oneNode,
        DeviceFindings::recycledMessage, DeviceFindings::recycledEvidence, nullptr,
        DeviceFindings::recycledAffected },
    { K::KlusterTerminating, QLatin1String("kluster-terminating"), QLatin1String("kluster being torn down"),
        F::Kluster, N(S::Kluster), 0, KlusterFindings::terminatingSeverity, wholeKluster,
        KlusterFindings::terminatingMessage, KlusterFindings::terminatingEvidence, nullptr, nullptr },
    { K::VolumeOrphaned, QLatin1String("volume-orphaned"), QLatin1String("volume left behind"), F::Debris,
        N(S::Kluster) | N(S::Volumes), 0, warning, oneSlot, DebrisFindings::volumeOrphanedMessage,
        DebrisFindings::volumeEvidence, DebrisFindings::deleteVolume, DebrisFindings::affectedVolume },
    { K::VolumeStuck, QLatin1String("volume-stuck"), QLatin1String("volume stuck deleting"), F::Debris,
        N(S::Kluster) | N(S::Volumes), 0, DebrisFindings::volumeStuckSeverity, oneSlot,
        DebrisFindings::volumeStuckMessage, DebrisFindings::volumeEvidence,
        DebrisFindings::resetAndDeleteVolume, DebrisFindings::affectedVolume },
    { K::LoadBalancerOrphaned, QLatin1String("loadbalancer-orphaned"),
        QLatin1String("load balancer left behind"), F::Debris, N(S::Kluster) | N(S::LoadBalancers), 0,
        warning, oneSlot, DebrisFindings::loadBalancerOrphanedMessage, DebrisFindings::loadBalancerEvidence,
        DebrisFindings::deleteLoadBalancer, DebrisFindings::affectedLoadBalancer },
    { K::LoadBalancerStuck, QLatin1String("loadbalancer-stuck"), QLatin1String("load balancer stuck"),
        F::Debris, N(S::Kluster) | N(S::LoadBalancers), 0, warning, oneSlot,
        DebrisFindings::loadBalancerStuckMessage, DebrisFindings::loadBalancerEvidence,
        DebrisFindings::deleteLoadBalancer, DebrisFindings::affectedLoadBalancer },
};

constexpr bool inEnumOrder()
{
    for (std::size_t i = 0; i < std::size(table); ++i) {
        if (table[i].kind != FindingKind(i))
            return false;
    }
    return true;
}
static_assert(inEnumOrder(), "one entry per finding kind, in the order of the enum");
static_assert(std::size(table) == std::size_t(FindingKindCount), "FindingKindCount is the table's size");

} // namespace

const FindingTraits &findingTraits(FindingKind kind)
{
    Q_ASSERT(std::size_t(kind) < std::size(table));
    return table[std::size_t(kind)];
}

QList<Source> sourcesOf(quint16 bits)
{
    QList<Source> out;
    for (const Source s : Sources::all()) {
        if (bits & sourceBit(s))
            out << s;
    }
    return out;
}

const QList<FindingKind> &findingKinds()
{
    static const QList<FindingKind> kinds = [] {
        QList<FindingKind> all;
        for (const FindingTraits &t : table)
            all << t.kind;
        return all;
    }();
    return kinds;
}
