#include "simulator/causes.h"

#include <QHostAddress>

namespace Causes {

namespace {

using Cause = QString (*)(World &, SimKluster &, const QString &zone, QString *error);

SimRouter *routerOf(World &w, const SimKluster &k)
{
    const int r = w.routerIndex(k.routerId);
    return r >= 0 ? &w.routers[r] : nullptr;
}

void touch(World &w, SimRouter &router)
{
    ++router.revision;
    router.updated = w.now();
}

void networkDown(World &w, SimNode &node)
{
    node.networkUnavailable = QStringLiteral("True");
    node.networkReason = QStringLiteral("NoRouteCreated");
    node.networkMessage = QStringLiteral("RouteController failed to create a route");
    node.transition = w.now();
    node.resourceVersion = ++w.resourceVersionCounter;
}

// A routed member: a node with an instance whose {podCIDR -> InternalIP} is on the router (from the end of
// the list: the newest).
int routedNode(const World &w, const SimKluster &k, const SimRouter &router)
{
    for (int n = int(k.nodes.size()) - 1; n >= 0; --n) {
        const SimNode &node = k.nodes.at(n);
        if (!node.podCidr.isEmpty() && router.routes.contains(SimRoute { node.podCidr, node.internalIp })
            && w.serverIndexByName(node.name) >= 0)
            return n;
    }
    return -1;
}

// A recycled pod CIDR's previous owner: another member's address (empty, with `error`, when there is none).
QString previousOwner(const SimKluster &k, const SimNode &node, QString *error)
{
    for (const SimNode &other : std::as_const(k.nodes)) {
        if (other.name != node.name && !other.internalIp.isEmpty())
            return other.internalIp;
    }
    *error = QStringLiteral("the kluster needs a second node whose address the route can lead to");
    return QString();
}

// The route to a node's pod CIDR points at another member (its previous owner's address, still first), and
// the node's own route was never added: the route controller gave up.
QString recycledPodCidr(World &w, SimKluster &k, const QString &, QString *error)
{
    SimRouter *router = routerOf(w, k);
    const int n = router ? routedNode(w, k, *router) : -1;
    if (n < 0) {
        *error = QStringLiteral("no node of the kluster is routed");
        return QString();
    }
    SimNode &node = k.nodes[n];
    const QString previous = previousOwner(k, node, error);
    if (previous.isEmpty())
        return QString();
    router->routes.removeAll(SimRoute { node.podCidr, node.internalIp });
    router->routes.prepend(SimRoute { node.podCidr, previous });
    touch(w, *router);
    networkDown(w, node);
    return QStringLiteral("%1 (node %2's pod CIDR) now routed to %3").arg(node.podCidr, node.name, previous);
}

// Every node of a zone stops posting status: the node lifecycle controller marks them Unknown.
QString zoneOutage(World &w, SimKluster &k, const QString &zone, QString *error)
{
    const QString z = !zone.isEmpty() ? zone : k.nodes.isEmpty() ? QString() : k.nodes.first().zone;
    int down = 0;
    for (SimNode &node : k.nodes) {
        if (node.zone != z || z.isEmpty())
            continue;
        node.ready = QStringLiteral("Unknown");
        node.readyReason = QStringLiteral("NodeStatusUnknown");
        node.readyMessage = QStringLiteral("Kubelet stopped posting node status.");
        node.transition = w.now();
        node.resourceVersion = ++w.resourceVersionCounter;
        ++down;
    }
    if (down == 0) {
        *error = QStringLiteral("no node of the kluster is in zone %1")
                     .arg(z.isEmpty() ? QStringLiteral("(none)") : z);
        return QString();
    }
    return QStringLiteral("zone %1: %2 node(s) stopped posting status").arg(z).arg(down);
}

// The kluster's group taken off two of its running instances (their ports).
QString securityGroupDetached(World &w, SimKluster &k, const QString &, QString *error)
{
    QStringList detached;
    for (int s = 0; s < w.servers.size() && detached.size() < 2; ++s) {
        const SimServer &server = w.servers.at(s);
        if (server.kluster != k.name || server.status != QLatin1String("ACTIVE"))
            continue;
        if (!w.removeSecurityGroup(s, k.securityGroupName))
            detached << server.name;
    }
    if (detached.size() < 2) {
        *error = QStringLiteral("fewer than two running instances of the kluster have its group");
        return QString();
    }
    return QStringLiteral("%1 removed from %2").arg(k.securityGroupName, detached.join(QStringLiteral(", ")));
}

// The group's rules that open whole protocols deleted (those with a port range, like SSH's, stay).
QString podNetworkClosed(World &w, SimKluster &k, const QString &, QString *error)
{
    for (SimSecurityGroup &group : w.securityGroups) {
        if (group.projectId != k.projectId || group.name != k.securityGroupName)
            continue;
        const auto opensAll = [](const SimRule &r) {
            return r.direction == QLatin1String("ingress") && !r.portRangeMin && !r.portRangeMax
                && !r.remoteGroupId;
        };
        const qsizetype removed = group.rules.removeIf(opensAll);
        if (removed == 0)
            break;
        ++group.revision;
        return QStringLiteral("%1 rule(s) of %2 deleted").arg(removed).arg(group.name);
    }
    *error = QStringLiteral("the kluster's group has no rule opening a whole protocol");
    return QString();
}

// A node's route dropped (its network unavailable) and the router filled with an operator's routes up to the
// limit: the route cannot come back.
QString routerFull(World &w, SimKluster &k, const QString &, QString *error)
{
    SimRouter *router = routerOf(w, k);
    const int n = router ? routedNode(w, k, *router) : -1;
    if (n < 0 || w.maxRoutes <= 0) {
        *error = QStringLiteral("no node of the kluster is routed, or the cloud has no route limit");
        return QString();
    }
    SimNode &node = k.nodes[n];
    router->routes.removeAll(SimRoute { node.podCidr, node.internalIp });
    networkDown(w, node);
    int added = 0;
    for (int i = 0; router->routes.size() < w.maxRoutes && i < 256; ++i) {
        const SimRoute foreign { QStringLiteral("10.201.%1.0/24").arg(i), node.internalIp };
        if (!router->routes.contains(foreign)) {
            router->routes.append(foreign);
            ++added;
        }
    }
    touch(w, *router);
    return QStringLiteral("node %1's route dropped; %2 operator route(s) fill the router to its limit of %3")
        .arg(node.name)
        .arg(added)
        .arg(w.maxRoutes);
}

// The cloud provider's update of a node's port lost: its pod CIDR no longer an allowed address pair.
QString portPairMissing(World &w, SimKluster &k, const QString &, QString *error)
{
    for (const SimNode &node : std::as_const(k.nodes)) {
        const int s = w.serverIndexByName(node.name);
        const int p = s >= 0 ? w.portIndex(w.servers.at(s).portId) : -1;
        if (p >= 0 && w.ports.at(p).allowedAddressPairs.contains(node.podCidr)) {
            w.setNodePair(node, false);
            return QStringLiteral("%1 dropped from node %2's port %3")
                .arg(node.podCidr, node.name, w.ports.at(p).id);
        }
    }
    *error = QStringLiteral("no node of the kluster has its pod CIDR on its port");
    return QString();
}

// The kluster's router's ASR pair and its newest routed node; null, with `error`, when there is none.
SimRouter *pairOf(World &w, const SimKluster &k, int *node, QString *error)
{
    SimRouter *router = routerOf(w, k);
    if (!router || router->devices.isEmpty()) {
        *error = QStringLiteral("the cloud has no ASR driver (\"asr1k\": true in the scenario's cloud)");
        return nullptr;
    }
    *node = routedNode(w, k, *router);
    if (*node < 0) {
        *error = QStringLiteral("no node of the kluster is routed");
        return nullptr;
    }
    return router;
}

// A deletion the pair missed: a routed node's pod CIDR was routed to another member before (its previous
// owner's address); Neutron deleted that route, the devices kept it, listed first: it wins on the devices.
QString deviceRouteStale(World &w, SimKluster &k, const QString &, QString *error)
{
    int n = -1;
    SimRouter *router = pairOf(w, k, &n, error);
    if (!router)
        return QString();
    const SimNode &node = k.nodes.at(n);
    const QString previous = previousOwner(k, node, error);
    if (previous.isEmpty())
        return QString();
    for (SimDevice &d : router->devices)
        d.kept.append(SimRoute { node.podCidr, previous });
    return QStringLiteral(
        "the devices of router %1 kept %2 via %3 (a deletion they missed), before node %4's route")
        .arg(router->name, node.podCidr, previous, node.name);
}

// An addition the STANDBY missed: a routed node's route is not on it.
QString deviceRouteMissing(World &w, SimKluster &k, const QString &, QString *error)
{
    int n = -1;
    SimRouter *router = pairOf(w, k, &n, error);
    if (!router)
        return QString();
    const SimNode &node = k.nodes.at(n);
    for (SimDevice &d : router->devices) {
        if (!d.active) {
            d.lacking.append(SimRoute { node.podCidr, node.internalIp });
            return QStringLiteral("device %1 (STANDBY) of router %2 missed the addition of %3 via %4")
                .arg(d.host, router->name, node.podCidr, node.internalIp);
        }
    }
    *error = QStringLiteral("the pair has no STANDBY");
    return QString();
}

// The STANDBY, with whatever it missed, becomes the ACTIVE.
QString failover(World &w, SimKluster &k, const QString &, QString *error)
{
    SimRouter *router = routerOf(w, k);
    if (!router || router->devices.isEmpty()) {
        *error = QStringLiteral("the cloud has no ASR driver (\"asr1k\": true in the scenario's cloud)");
        return QString();
    }
    QString active;
    for (SimDevice &d : router->devices) {
        d.active = !d.active;
        if (d.active)
            active = d.host;
    }
    return QStringLiteral("router %1 failed over: %2 is ACTIVE now").arg(router->name, active);
}

struct Entry
{
    const char *name;
    Cause cause;
};

// Kubernikus' flight stopped (its controller down, its credentials expired) and its work piling up: two
// instances that never registered, created 55 min ago (past flight's 45 min, and one period more).
QString flightStalled(World &w, SimKluster &k, const QString &, QString *error)
{
    const int net = w.networkIndex(k.networkId);
    if (net < 0 || k.pools.isEmpty()) {
        *error = QStringLiteral("the kluster has no network or no pool to boot instances in");
        return QString();
    }
    w.flight.on = false;
    QStringList booted;
    for (int i = 0; i < 2; ++i) {
        QString name;
        int n = 0;
        do {
            // A member's name: Kubernikus' five characters after the pool's.
            name = QStringLiteral("kks-%1-%2-stal%3").arg(k.name, k.pools.first().name).arg(n++);
        } while (w.serverIndexByName(name) >= 0);
        SimServer &s = w.addServer(k.projectId, name, w.networks.at(net).id, QString(),
            { k.securityGroupName }, w.now().addSecs(-55 * 60));
        s.kluster = k.name;
        s.pool = k.pools.first().name;
        s.updated = w.now(); // new to the cloud now: what asks for the changes since a moment ago sees it
        booted << name;
    }
    return QStringLiteral("flight stopped; %1 never registered (created 55 min ago)")
        .arg(booted.join(QStringLiteral(", ")));
}

// Kubernikus' servicing cordoned a node for a reboot 3 h 20 min ago, and the reboot never came back: past
// servicing's own timeout of 3 h 15 min.
QString servicingStuck(World &w, SimKluster &k, const QString &, QString *error)
{
    for (SimNode &node : k.nodes) {
        if (node.ready != QLatin1String("True") || node.unschedulable || w.serverIndexByName(node.name) < 0)
            continue;
        node.unschedulable = true;
        node.servicingSince = w.now().addSecs(-(3 * 60 + 20) * 60);
        node.servicingStuck = true;
        node.ready = QStringLiteral("False");
        node.readyReason = QStringLiteral("KubeletNotReady");
        node.readyMessage = QStringLiteral("container runtime is down");
        node.transition = node.servicingSince.addSecs(2 * 60);
        node.resourceVersion = ++w.resourceVersionCounter;
        return QStringLiteral(
            "%1 cordoned for servicing 3 h 20 min ago; its reboot did not come back (NotReady)")
            .arg(node.name);
    }
    *error = QStringLiteral("no Ready, schedulable node with an instance to service");
    return QString();
}

// The kluster's volumes: those the CSI driver made for it.
QList<int> volumesOf(const World &w, const SimKluster &k)
{
    const QString cluster = World::volumeClusterOf(k.name, k.projectId);
    QList<int> found;
    for (int v = 0; v < w.volumes.size(); ++v) {
        if (w.volumes.at(v).projectId == k.projectId
            && w.volumes.at(v).metadataValue(QStringLiteral("cinder.csi.openstack.org/cluster")) == cluster)
            found << v;
    }
    return found;
}

// A PersistentVolume's volume, made for the kluster by the CSI driver two days ago (for a kluster that has
// none to act on); its index.
int newVolume(World &w, const SimKluster &k)
{
    SimVolume v;
    v.id = w.newUuid();
    const QString cluster = World::volumeClusterOf(k.name, k.projectId);
    v.name = QStringLiteral("pv-%1-%2").arg(cluster, w.newUuid());
    v.projectId = k.projectId;
    for (const SimUser &u : w.users) {
        if (v.userId.isEmpty() && u.projectId == k.projectId)
            v.userId = u.id;
    }
    v.description = QStringLiteral("Created by OpenStack Cinder CSI driver");
    v.size = 10;
    v.metadata = { { QStringLiteral("cinder.csi.openstack.org/cluster"), cluster },
        { QStringLiteral("csi.storage.k8s.io/pvc/name"), QStringLiteral("data-0") },
        { QStringLiteral("csi.storage.k8s.io/pvc/namespace"), QStringLiteral("default") },
        { QStringLiteral("csi.storage.k8s.io/pv/name"), v.name } };
    v.created = w.now().addDays(-2);
    w.volumes.append(v);
    return int(w.volumes.size()) - 1;
}

// The deorbiter held: the kluster is Terminating, and one of its volumes (or one made for it) failed to be
// deleted 15 min ago (error_deleting): it waits for it. Its load balancers stay as they are.
QString volumeStuck(World &w, SimKluster &k, const QString &, QString *)
{
    const QDateTime t = w.now();
    if (k.phase != QLatin1String("Terminating")) // as ground control records the change of phase
        k.record(QStringLiteral("Normal"), QStringLiteral("Terminating"),
            QStringLiteral("Terminating kluster"), t);
    k.phase = QStringLiteral("Terminating");
    k.record(QStringLiteral("Normal"), QStringLiteral("WaitingForDeorbitPVs"),
        QStringLiteral("Waiting for cleanup of Cinder volumes"), t);
    const QList<int> own = volumesOf(w, k);
    const int v = own.isEmpty() ? newVolume(w, k) : own.first();
    SimVolume &volume = w.volumes[v];
    volume.attachedTo.clear(); // its claim deleted, its pod gone: detached, then the deletion failed
    volume.attachedAt = QDateTime();
    volume.status = QStringLiteral("error_deleting");
    volume.updated = t.addSecs(-15 * 60);
    return QStringLiteral("%1 is Terminating; its volume %2 (%3) is stuck in error_deleting since 15 min ago")
        .arg(k.name, volume.name, volume.id);
}

// What a deorbiter that self-destructed after 24 h leaves: the kluster gone from Kubernikus (its API, servers
// and nodes with it), its volumes detached (available; one made for it when it had none), its load balancers
// as they were.
QString debris(World &w, SimKluster &k, const QString &, QString *)
{
    const QString name = k.name;
    const QString prefix = QStringLiteral("kube_service_") + name + QLatin1Char('_');
    QList<int> own = volumesOf(w, k);
    if (own.isEmpty())
        own << newVolume(w, k);
    QStringList volumeIds;
    for (const int v : std::as_const(own))
        volumeIds << w.volumes.at(v).id;
    int balancers = 0;
    for (const SimLoadBalancer &lb : std::as_const(w.loadBalancers))
        balancers += lb.projectId == k.projectId && lb.name.startsWith(prefix) ? 1 : 0;
    int servers = 0;
    for (const SimServer &s : std::as_const(w.servers))
        servers += s.kluster == name ? 1 : 0;
    w.removeKluster(name); // `k` is gone with it
    return QStringLiteral(
        "kluster %1 gone with its %2 server(s) and nodes; left behind: %3 volume(s) (%4), %5 "
        "load balancer(s)")
        .arg(name)
        .arg(servers)
        .arg(volumeIds.size())
        .arg(volumeIds.join(QStringLiteral(", ")))
        .arg(balancers);
}

const Entry table[] = {
    { "recycled-pod-cidr", recycledPodCidr },
    { "zone-outage", zoneOutage },
    { "security-group-detached", securityGroupDetached },
    { "pod-network-closed", podNetworkClosed },
    { "router-full", routerFull },
    { "port-address-pair-missing", portPairMissing },
    { "device-route-stale", deviceRouteStale },
    { "device-route-missing", deviceRouteMissing },
    { "failover", failover },
    { "flight-stalled", flightStalled },
    { "servicing-stuck", servicingStuck },
    { "volume-stuck", volumeStuck },
    { "debris", debris },
};

} // namespace

const QStringList &names()
{
    static const QStringList list = [] {
        QStringList l;
        for (const Entry &e : table)
            l << QLatin1String(e.name);
        return l;
    }();
    return list;
}

QString cause(World &world, SimKluster &kluster, const QString &rule, const QString &zone, QString *error)
{
    for (const Entry &e : table) {
        if (rule == QLatin1String(e.name))
            return e.cause(world, kluster, zone, error);
    }
    *error = QStringLiteral("\"rule\" is one of %1").arg(names().join(QStringLiteral(", ")));
    return QString();
}

} // namespace Causes
