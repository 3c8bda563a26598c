#pragma once

#include "core/debris.h"
#include "core/instance.h"
#include "core/kluster.h"
#include "core/kubernikusevent.h"
#include "core/node.h"
#include "core/port.h"
#include "core/routehistory.h"
#include "core/router.h"
#include "core/routerdevice.h"
#include "core/securitygroup.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>
#include <utility>

// Where one part of a kluster's state came from, and whether it could be read.
// Diagnosis only uses the parts that are known; a failed source is never
// mistaken for an empty one.
struct SourceStatus
{
    bool known = false;
    QString error; // why it is not known
    QString incomplete; // known, but some of it is missing, and why (empty: complete)
};

class ProjectIndex;
struct Credentials;

// Everything a snapshot holds about one kluster: the raw API state, parsed,
// stamped with the instant it was fetched.
struct KlusterState
{
    QDateTime capturedAt; // the reference instant for every age
    std::optional<int> maxRoutes; // the router's route limit, if known
    QString cloud;
    QString region;
    QString tool;

    Kluster kluster;
    QList<Instance> instances; // the whole project's servers
    Router router;
    QList<SecurityGroup> securityGroups;
    QList<Node> nodes;
    QStringList extensions; // Neutron extension aliases
    bool extensionsKnown = false;
    QList<Port> ports; // the project's ports (optional: portsSource says whether they are known)
    // The instances and ports indexed once for the whole project, where they are kept (null: each index
    // makes its own; one that no longer indexes these lists is not used).
    std::shared_ptr<const ProjectIndex> projectIndex;

    SourceStatus klusterSource;
    SourceStatus serversSource;
    SourceStatus routerSource;
    SourceStatus securityGroupsSource;
    SourceStatus nodesSource;
    SourceStatus portsSource; // optional: unknown, port-address-pair-missing is not diagnosed
    // The router's devices as the ASR driver sees them (optional: where the cloud lists asr1k_operations and
    // the credentials may read it; unknown, no device finding is derived).
    RouterDevices routerDevices;
    SourceStatus routerDeviceSource;
    // What Kubernikus recorded about the kluster, newest first (optional: nothing is diagnosed from it; the
    // kluster's timeline shows it, and why it could not be read).
    QList<KubernikusEvent> kubernikusEvents;
    SourceStatus kubernikusEventsSource;
    // Who acts (diagnosis.md §8): the token read, shared by the klusters of one session; null where it was
    // not read (every request of a plan is then judged unknown).
    std::shared_ptr<const Credentials> credentials;
    SourceStatus tokenSource; // optional: token.json in a snapshot, the token's answer live
    // What a terminated kluster leaves behind (diagnosis.md §9): the project's Cinder volumes and Octavia
    // load balancers (optional: a cloud without them, or a snapshot without their files, is a known state).
    QList<Volume> volumes;
    SourceStatus volumesSource;
    QList<LoadBalancer> loadBalancers;
    SourceStatus loadBalancersSource;
    // The router's routes at the moments the local history keeps (route-recycled, diagnosis.md §6); none
    // where no history is kept: nothing is derived from it then.
    std::optional<RouteHistory> routeHistory;
    // Since when each open finding has been seen, by id, on the cloud's clock (the local history's first
    // sighting; empty where no history is kept): when Kubernikus' automation is due (diagnosis.md §7), and
    // since when a kluster has been Terminating.
    QHash<QString, QDateTime> findingsSince;

    // The history's routes as of the moment this state was read (`kept` extended by this state's router):
    // what the router held at a kept moment and does not hold now went by now.
    void setRouteHistory(RouteHistory kept)
    {
        if (routerSource.known)
            kept.then(capturedAt, router.routes);
        routeHistory = std::move(kept);
    }

    bool hasExtension(const char *alias) const { return extensions.contains(QLatin1String(alias)); }

    bool hasAtomicExtraRoutes() const { return extensions.contains(QStringLiteral("extraroute-atomic")); }

    // Servers of an unreachable Nova cell come back as partial records: the
    // server list is then known to be incomplete.
    void noteIncompleteServers()
    {
        int partial = 0;
        // std::as_const: the list is the project's, shared by every kluster of it; a non-const walk would
        // make each kluster its own copy of every server.
        for (const Instance &i : std::as_const(instances))
            partial += i.isPartial() ? 1 : 0;
        serversSource.incomplete = partial == 0
            ? QString()
            : QStringLiteral("%1 server(s) of an unreachable cell came back without their details")
                  .arg(partial);
    }
};
