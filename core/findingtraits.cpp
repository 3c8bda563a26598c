#include "core/findingtraits.h"

#include "core/instancefindings.h"
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

using namespace InstanceFindings;
using namespace NodeFindings;
using namespace PortFindings;
using namespace RouteFindings;
using namespace SecurityFindings;
using K = FindingKind;
using F = FindingFamily;

// One entry per kind, in the order of the enum: the kind, its name, family and severity rule; its
// message, evidence, repair (null: none of its own) and affected objects (null: none).
constexpr FindingTraits table[] = {
    { K::InstanceUnregistered, QLatin1String("instance-unregistered"), F::Instance, unregisteredSeverity,
        unregisteredMessage, unregisteredEvidence, deleteInstance, affectedInstance },
    { K::InstanceError, QLatin1String("instance-error"), F::Instance, critical, errorMessage, errorEvidence,
        deleteInstance, affectedInstance },
    { K::InstanceStopped, QLatin1String("instance-stopped"), F::Instance, stoppedSeverity, stoppedMessage,
        stoppedEvidence, startInstance, affectedInstanceAndNode },
    { K::InstanceMissingSecurityGroup, QLatin1String("instance-missing-security-group"), F::Instance,
        critical, missingGroupMessage, missingGroupEvidence, addGroup, affectedInstanceAndGroup },
    { K::SecurityGroupMissing, QLatin1String("security-group-missing"), F::Security, critical,
        groupMissingMessage, groupMissingEvidence, nullptr, affectedGroup },
    { K::SecurityGroupRuleMissing, QLatin1String("security-group-rule-missing"), F::Security, critical,
        ruleMissingMessage, ruleMissingEvidence, createRule, affectedGroup },
    { K::RouteDuplicate, QLatin1String("route-duplicate"), F::Route, critical, duplicateMessage,
        duplicateEvidence, removeWrongRoutes, affectedDestination },
    { K::RouteOrphaned, QLatin1String("route-orphaned"), F::Route, warning, orphanedMessage, orphanedEvidence,
        removeOrphanedRoutes, affectedDestination },
    { K::RouteStale, QLatin1String("route-stale"), F::Route, critical, staleMessage, staleEvidence,
        removeWrongRoutes, affectedDestinationAndNexthops },
    { K::RouteUnassigned, QLatin1String("route-unassigned"), F::Route, warning, unassignedMessage,
        unassignedEvidence, removeWrongRoutes, affectedDestinationAndNexthops },
    { K::RouteMissing, QLatin1String("route-missing"), F::Route, critical, missingMessage, missingEvidence,
        addMissingRoute, affectedMissingRoute },
    { K::PortAddressPairMissing, QLatin1String("port-address-pair-missing"), F::Security, critical,
        pairMissingMessage, pairMissingEvidence, addPair, affectedNodeAndInstance },
    { K::RouteLimit, QLatin1String("route-limit"), F::Route, limitSeverity, limitMessage, limitEvidence,
        nullptr, nullptr },
    { K::NodeNotReady, QLatin1String("node-not-ready"), F::Node, warning, notReadyMessage,
        NodeFindings::evidence, nullptr, NodeFindings::affected },
    { K::NodeNetworkUnavailable, QLatin1String("node-network-unavailable"), F::Node, critical,
        networkUnavailableMessage, NodeFindings::evidence, nullptr, NodeFindings::affected },
    { K::NodeWithoutInstance, QLatin1String("node-without-instance"), F::Node, ghostSeverity, ghostMessage,
        ghostEvidence, deleteNode, NodeFindings::affected },
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

} // namespace

const FindingTraits &findingTraits(FindingKind kind)
{
    Q_ASSERT(std::size_t(kind) < std::size(table));
    return table[std::size_t(kind)];
}
