// The world's clock and its actors: time passing (tick: servers booting, stopping, nodes joining), the
// churn of a pool's members, power actions, and a world succeeding an old one. The world's state and the
// Nova and Neutron rules it keeps are in world.cpp.
#include "simulator/world.h"

#include <QCryptographicHash>
#include <QSet>

static QString randomSuffix(quint64 seed)
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    const QByteArray h = QCryptographicHash::hash(
        QByteArray("suffix:" + QByteArray::number(seed)), QCryptographicHash::Sha1);
    QString s;
    for (int i = 0; i < 5; ++i)
        s.append(QLatin1Char(alphabet[quint8(h.at(i)) % 36]));
    return s;
}

void World::succeed(const World &old)
{
    const QDateTime t = now();
    deletedServers = old.deletedServers;
    QSet<QString> present;
    for (SimServer &s : servers) {
        s.updated = t;
        present.insert(s.id);
    }
    for (SimPort &p : ports)
        p.updated = t;
    for (const SimServer &s : old.servers) {
        if (present.contains(s.id))
            continue;
        keepDeleted(s, t);
    }
}

std::optional<SimError> World::powerAction(int server, const QString &action)
{
    struct Transition
    {
        const char *action;
        const char *from; // vm_state
        const char *to;
        const char *status;
        const char *verb; // as Nova's conflict names it
    };
    static const Transition transitions[] = {
        { "os-stop", "active", "stopped", "SHUTOFF", "stop" },
        { "os-start", "stopped", "active", "ACTIVE", "start" },
        { "suspend", "active", "suspended", "SUSPENDED", "suspend" },
        { "resume", "suspended", "active", "ACTIVE", "resume" },
        { "pause", "active", "paused", "PAUSED", "pause" },
        { "unpause", "paused", "active", "ACTIVE", "unpause" },
    };
    SimServer &s = servers[server];
    for (const Transition &t : transitions) {
        if (action != QLatin1String(t.action))
            continue;
        if (s.vmState != QLatin1String(t.from) || !s.taskState.isEmpty()) {
            return SimError { 409, QStringLiteral("conflictingRequest"),
                QStringLiteral("Cannot '%1' instance %2 while it is in vm_state %3")
                    .arg(QLatin1String(t.verb), s.id, s.vmState) };
        }
        setPower(
            s, QLatin1String(t.to) == QLatin1String("active"), QLatin1String(t.status), QLatin1String(t.to));
        s.recordAction(QLatin1String(t.verb), now());
        return std::nullopt;
    }
    return SimError { 400, QStringLiteral("badRequest"),
        QStringLiteral("There is no such action: %1").arg(action) };
}

void World::setPower(SimServer &s, bool running, const QString &status, const QString &vmState)
{
    const QDateTime t = now();
    s.status = status;
    s.vmState = vmState;
    s.updated = t;
    if (!s.kluster.isEmpty()) {
        pending.append(Pending { t.addSecs(running ? kubeletStartSeconds : nodeMonitorGraceSeconds),
            running ? Pending::Kind::NodeBack : Pending::Kind::NodeLost, s.kluster, s.pool, s.name });
    }
}

int World::serverIndexByName(const QString &name) const
{
    for (int i = int(servers.size()) - 1; i >= 0; --i) { // the newest of a name
        if (servers.at(i).name == name)
            return i;
    }
    return -1;
}

int World::churn(const QString &name, int servers, int nodes)
{
    const int k = klusterIndex(name);
    if (k < 0)
        return 0;
    const QDateTime t = now();
    int changed = 0;
    QList<int> mine;
    for (int i = 0; i < this->servers.size(); ++i) {
        if (this->servers.at(i).kluster == name)
            mine << i;
    }
    for (int n = 0; n < servers && !mine.isEmpty(); ++n, ++changed) {
        SimServer &s = this->servers[mine.at(m_churnServer++ % mine.size())];
        const bool stop = s.status == QLatin1String("ACTIVE");
        setPower(s, !stop, stop ? QStringLiteral("SHUTOFF") : QStringLiteral("ACTIVE"),
            stop ? QStringLiteral("stopped") : QStringLiteral("active"));
    }
    QList<SimNode> &all = klusters[k].nodes;
    for (int n = 0; n < nodes && !all.isEmpty(); ++n, ++changed) {
        SimNode &node = all[m_churnNode++ % all.size()];
        const bool down = node.ready == QLatin1String("True");
        node.ready = down ? QStringLiteral("False") : QStringLiteral("True");
        node.readyReason = down ? QStringLiteral("KubeletNotReady") : QStringLiteral("KubeletReady");
        node.readyMessage = down ? QStringLiteral("container runtime is down")
                                 : QStringLiteral("kubelet is posting ready status");
        node.transition = t;
        node.resourceVersion = ++resourceVersionCounter;
    }
    return changed;
}

int World::replaceMembers(const QString &name, int count)
{
    const int k = klusterIndex(name);
    if (k < 0 || count <= 0)
        return 0;
    const QDateTime t = now();
    const int r = routerIndex(klusters.at(k).routerId);
    const int net = networkIndex(klusters.at(k).networkId);
    const int size = int(klusters.at(k).nodes.size());
    count = qMin(count, size);
    // Spread out, as a rolling upgrade of several pools leaves them; the last ones first, so the places
    // still to be taken do not move.
    QList<int> places;
    for (int i = count - 1; i >= 0; --i)
        places << int(qint64(i) * size / count);
    int replaced = 0;
    QSet<std::pair<QString, QString>> gone;
    QSet<QString> joined;
    for (const int place : std::as_const(places)) {
        const SimNode old = klusters.at(k).nodes.at(place);
        int server = -1;
        for (int i = 0; i < servers.size() && server < 0; ++i) {
            if (servers.at(i).kluster == name && servers.at(i).name == old.name)
                server = i;
        }
        const QString pool = server >= 0 ? servers.at(server).pool : old.pool;
        if (server >= 0) {
            const SimServer s = servers.takeAt(server);
            keepDeleted(s, t);
            const int p = portIndex(s.portId);
            if (p >= 0)
                ports.removeAt(p);
            detachVolumes(s.id);
        }
        klusters[k].nodes.removeAt(place);
        gone.insert(
            { old.podCidr, old.internalIp }); // the route controller lets go of a deleted node's route
        QString newName;
        do {
            newName = QStringLiteral("kks-%1-%2-%3").arg(name, pool, randomSuffix(++m_counter));
        } while (nodeIndex(klusters.at(k), newName) >= 0);
        SimServer &s = addServer(klusters.at(k).projectId, newName,
            net >= 0 ? networks.at(net).id : QString(), QString(), { klusters.at(k).securityGroupName }, t);
        s.kluster = name;
        s.pool = pool;
        SimNode node;
        node.name = newName;
        node.uid = newUuid();
        node.created = t;
        node.pool = pool;
        node.providerId = QStringLiteral("openstack:///") + s.id;
        node.internalIp = serverAddresses(s).value(0);
        node.podCidr = old.podCidr;
        node.resourceVersion = ++resourceVersionCounter;
        klusters[k].nodes.insert(place, node);
        joined << newName;
        ++replaced;
    }
    // The route controller's changes, as one: the new nodes' routes where it routes them.
    if (r >= 0) {
        QList<SimRoute> routes = routers.at(r).routes;
        routes.removeIf([&gone](const SimRoute &route) {
            return gone.contains({ route.destination, route.nexthop });
        });
        QList<SimNode *> routed;
        for (SimNode &node : klusters[k].nodes) {
            if (routeController && joined.contains(node.name) && !node.podCidr.isEmpty()
                && !node.internalIp.isEmpty()) {
                routes.append(SimRoute { node.podCidr, node.internalIp });
                routed << &node;
            }
        }
        const bool ok = !setRoutes(r, routes);
        if (!ok) // as much as is left without them
            setRoutes(r, routes.mid(0, routes.size() - routed.size()));
        for (SimNode *node : std::as_const(routed)) {
            node->networkUnavailable = ok ? QStringLiteral("False") : QStringLiteral("True");
            node->networkReason = ok ? QStringLiteral("RouteCreated") : QStringLiteral("NoRouteCreated");
            node->networkMessage = ok ? QStringLiteral("RouteController created a route")
                                      : QStringLiteral("RouteController failed to create a route");
            node->resourceVersion = ++resourceVersionCounter;
        }
    }
    return replaced;
}

bool World::tick()
{
    bool changed = false;
    const QDateTime t = now();
    // Nova's archive of soft-deleted rows.
    deletedServers.removeIf(
        [&](const SimServer &s) { return s.updated.secsTo(t) > deletedServerRetentionSeconds; });
    for (int i = 0; i < pending.size();) {
        if (pending.at(i).due > t) {
            ++i;
            continue;
        }
        const Pending job = pending.takeAt(i);
        changed = true;
        const int k = klusterIndex(job.kluster);
        if (k < 0)
            continue;
        SimKluster &kluster = klusters[k];
        switch (job.kind) {
        case Pending::Kind::RemoveNode: {
            const int n = nodeIndex(kluster, job.name);
            if (n >= 0)
                kluster.nodes.removeAt(n);
            break;
        }
        case Pending::Kind::BootReplacement: {
            QString name;
            do {
                name = QStringLiteral("kks-%1-%2-%3").arg(kluster.name, job.pool, randomSuffix(++m_counter));
            } while ([&] {
                for (const SimServer &s : servers) {
                    if (s.name == name)
                        return true;
                }
                return false;
            }());
            const int net = networkIndex(kluster.networkId);
            SimServer &s = addServer(kluster.projectId, name, net >= 0 ? networks.at(net).id : QString(),
                QString(), { kluster.securityGroupName }, t);
            s.kluster = kluster.name;
            s.pool = job.pool;
            pending.append(Pending {
                t.addSecs(registrationDelaySeconds), Pending::Kind::Register, kluster.name, job.pool, name });
            break;
        }
        case Pending::Kind::NodeLost:
        case Pending::Kind::NodeBack: {
            const int n = nodeIndex(kluster, job.name);
            const int s = serverIndexByName(job.name);
            if (n < 0 || s < 0)
                break;
            const bool running = servers.at(s).vmState == QLatin1String("active");
            SimNode &node = kluster.nodes[n];
            if (job.kind == Pending::Kind::NodeLost && !running && node.ready != QLatin1String("Unknown")) {
                node.ready = QStringLiteral("Unknown");
                node.readyReason = QStringLiteral("NodeStatusUnknown");
                node.readyMessage = QStringLiteral("Kubelet stopped posting node status.");
            } else if (job.kind == Pending::Kind::NodeBack && running
                && node.readyReason == QLatin1String("NodeStatusUnknown")) {
                node.ready = QStringLiteral("True");
                node.readyReason = QStringLiteral("KubeletReady");
                node.readyMessage = QStringLiteral("kubelet is posting ready status");
            } else {
                break;
            }
            node.transition = t;
            node.resourceVersion = ++resourceVersionCounter;
            break;
        }
        case Pending::Kind::Register: {
            const int found = serverIndexByName(job.name);
            const SimServer *server = found >= 0 ? &servers.at(found) : nullptr;
            if (!server || nodeIndex(kluster, job.name) >= 0)
                break;
            SimNode node;
            node.name = job.name;
            node.uid = newUuid();
            node.created = t;
            node.pool = job.pool;
            node.providerId = QStringLiteral("openstack:///") + server->id;
            node.internalIp = serverAddresses(*server).value(0);
            node.podCidr = freePodCidr(kluster);
            node.zone = server->zone;
            node.resourceVersion = ++resourceVersionCounter;
            kluster.nodes.append(node);
            if (routeController)
                routeNode(kluster, kluster.nodes.last());
            break;
        }
        }
    }
    // Octavia's deletions done.
    changed = removeDeletedLoadBalancers(t) || changed;
    // Kubernikus' own controllers, each when it is due.
    changed = Controllers::run(*this) || changed;
    return changed;
}
