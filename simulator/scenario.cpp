#include "simulator/scenario.h"

#include "simulator/stableid.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>

namespace Scenario {

SimSecurityGroup defaultGroup(const QString &projectId, const QDateTime &created)
{
    SimSecurityGroup g;
    g.id = stableUuid(QStringLiteral("sg:default:") + projectId);
    g.name = QStringLiteral("default");
    g.projectId = projectId;
    g.description = QStringLiteral("Default security group");
    for (const char *ether : { "IPv4", "IPv6" }) {
        for (const char *dir : { "ingress", "egress" }) {
            SimRule r;
            r.id = stableUuid(QStringLiteral("rule:default:%1:%2:%3")
                                  .arg(projectId, QLatin1String(ether), QLatin1String(dir)));
            r.groupId = g.id;
            r.direction = QString::fromLatin1(dir);
            r.ethertype = QString::fromLatin1(ether);
            if (r.direction == QLatin1String("ingress"))
                r.remoteGroupId = g.id;
            r.created = created;
            g.rules.append(r);
        }
    }
    return g;
}

SimRule ruleFrom(const QJsonObject &o, const QString &groupId, int n, const QDateTime &created)
{
    SimRule r;
    r.id = stableUuid(QStringLiteral("rule:%1:%2").arg(groupId).arg(n));
    r.groupId = groupId;
    r.direction = o.value(QStringLiteral("direction")).toString(QStringLiteral("ingress"));
    r.ethertype = o.value(QStringLiteral("ethertype")).toString(QStringLiteral("IPv4"));
    const QJsonValue protocol = o.value(QStringLiteral("protocol"));
    if (protocol.isString())
        r.protocol = protocol.toString();
    if (o.value(QStringLiteral("portRangeMin")).isDouble())
        r.portRangeMin = o.value(QStringLiteral("portRangeMin")).toInt();
    if (o.value(QStringLiteral("portRangeMax")).isDouble())
        r.portRangeMax = o.value(QStringLiteral("portRangeMax")).toInt();
    if (o.value(QStringLiteral("remoteIpPrefix")).isString())
        r.remoteIpPrefix = o.value(QStringLiteral("remoteIpPrefix")).toString();
    r.description = o.value(QStringLiteral("description")).toString();
    r.created = created;
    return r;
}

} // namespace Scenario

namespace {

struct Loader
{
    World &w;
    FaultInjector &faults;
    QString error;
    QDateTime start;
    // A kluster's router, by the project's and its name or id (the last of them).
    static QString projectIdOf(const SimRouter &r) { return World::projectKey(r.projectId, r.id); }
    ListIndex<SimRouter> routersByName { &World::projectNameOf<SimRouter>, &World::idOf<SimRouter>,
        ListIndex<SimRouter>::Keeps::Last };
    ListIndex<SimRouter> routersById { &projectIdOf, &World::idOf<SimRouter>,
        ListIndex<SimRouter>::Keeps::Last };

    bool fail(const QString &where, const QString &what)
    {
        error = where + QStringLiteral(": ") + what;
        return false;
    }

    void addDefaultGroup(const QString &projectId)
    {
        w.securityGroups.append(Scenario::defaultGroup(projectId, start));
    }

    SimRule ruleFrom(const QJsonObject &o, const QString &groupId, int n) const
    {
        return Scenario::ruleFrom(o, groupId, n, start);
    }

    void setStatus(SimServer &s, const QString &status, const QString &fault)
    {
        s.status = status;
        s.vmState = status == QLatin1String("ERROR") ? QStringLiteral("error")
            : status == QLatin1String("BUILD")       ? QStringLiteral("building")
            : status == QLatin1String("SHUTOFF")     ? QStringLiteral("stopped")
            : status == QLatin1String("SUSPENDED")   ? QStringLiteral("suspended")
            : status == QLatin1String("PAUSED")      ? QStringLiteral("paused")
                                                     : QStringLiteral("active");
        s.faultMessage = fault;
        if (s.vmState == QLatin1String("error") && !s.actions.isEmpty())
            s.actions.last().message = QStringLiteral("Error"); // the create that failed
    }

    QDateTime ago(const QJsonObject &o, double fallbackMinutes) const
    {
        double minutes = o.value(QStringLiteral("ageMinutes")).toDouble(fallbackMinutes);
        // Within a century either way: a larger number would not fit the conversion to whole seconds.
        constexpr double century = 100.0 * 366 * 24 * 60;
        if (!std::isfinite(minutes))
            minutes = fallbackMinutes;
        minutes = qBound(-century, minutes, century);
        return start.addSecs(qint64(-minutes * 60));
    }

    bool project(const QJsonObject &p, int index)
    {
        const QString where = QStringLiteral("projects[%1]").arg(index);
        const QString name = p.value(QStringLiteral("name")).toString();
        if (name.isEmpty())
            return fail(where, QStringLiteral("a project needs a name"));
        const QString projectId
            = p.value(QStringLiteral("id")).toString(stableHex(QStringLiteral("project:") + name));
        w.projects.append(SimProject { projectId, name });
        for (const QJsonValue uv : p.value(QStringLiteral("users")).toArray()) {
            const QJsonObject u = uv.toObject();
            SimUser user;
            user.name = u.value(QStringLiteral("name")).toString();
            user.id = u.value(QStringLiteral("id")).toString(stableHex(QStringLiteral("user:") + user.name));
            user.password = u.value(QStringLiteral("password")).toString();
            user.projectId = projectId;
            // Keystone's roles on the project: a member reads and writes, a reader only reads, an admin also
            // reaches what a cloud admin may (the ASR driver's device API).
            user.roles = { QStringLiteral("member"), QStringLiteral("reader"),
                QStringLiteral("load-balancer_member") };
            if (u.contains(QStringLiteral("roles"))) {
                user.roles.clear();
                for (const QJsonValue r : u.value(QStringLiteral("roles")).toArray())
                    user.roles << r.toString();
            }
            w.users.append(user);
        }
        for (const QJsonValue cv : p.value(QStringLiteral("applicationCredentials")).toArray()) {
            const QJsonObject c = cv.toObject();
            const int u = w.userIndex(c.value(QStringLiteral("user")).toString());
            if (u < 0)
                return fail(where,
                    QStringLiteral("application credential of unknown user %1")
                        .arg(c.value(QStringLiteral("user")).toString()));
            SimApplicationCredential credential { c.value(QStringLiteral("id")).toString(w.newHexId()),
                c.value(QStringLiteral("name")).toString(), c.value(QStringLiteral("secret")).toString(),
                w.users.at(u).id, projectId, {} };
            for (const QJsonValue rv : c.value(QStringLiteral("accessRules")).toArray()) {
                const QJsonObject r = rv.toObject();
                credential.accessRules.append(SimAccessRule { r.value(QStringLiteral("service")).toString(),
                    r.value(QStringLiteral("method")).toString(),
                    r.value(QStringLiteral("path")).toString() });
            }
            w.applicationCredentials.append(credential);
        }
        for (const QJsonValue nv : p.value(QStringLiteral("networks")).toArray()) {
            const QJsonObject n = nv.toObject();
            SimNetwork net;
            net.name = n.value(QStringLiteral("name")).toString();
            net.id = stableUuid(QStringLiteral("net:") + projectId + net.name);
            net.subnetId = stableUuid(QStringLiteral("subnet:") + projectId + net.name);
            net.projectId = projectId;
            net.cidr = n.value(QStringLiteral("cidr")).toString();
            const QPair<QHostAddress, int> subnet = QHostAddress::parseSubnet(net.cidr);
            if (subnet.second < 0)
                return fail(where, QStringLiteral("network %1: not a CIDR: %2").arg(net.name, net.cidr));
            if (subnet.first.protocol() != QAbstractSocket::IPv4Protocol)
                return fail(where,
                    QStringLiteral("network %1: %2 is not IPv4 (a kluster's node network is an IPv4 subnet)")
                        .arg(net.name, net.cidr));
            net.gateway = n.value(QStringLiteral("gateway"))
                              .toString(QHostAddress(subnet.first.toIPv4Address() + 1).toString());
            w.networks.append(net);
        }
        addDefaultGroup(projectId);
        for (const QJsonValue gv : p.value(QStringLiteral("securityGroups")).toArray()) {
            const QJsonObject g = gv.toObject();
            SimSecurityGroup group;
            group.name = g.value(QStringLiteral("name")).toString();
            group.id = g.value(QStringLiteral("id"))
                           .toString(stableUuid(QStringLiteral("sg:%1:%2:%3")
                                                    .arg(projectId, group.name)
                                                    .arg(w.securityGroups.size())));
            group.projectId = projectId;
            group.description = g.value(QStringLiteral("description")).toString();
            int n = 0;
            for (const char *ether : { "IPv4", "IPv6" }) {
                SimRule egress;
                egress.id
                    = stableUuid(QStringLiteral("rule:%1:egress:%2").arg(group.id, QLatin1String(ether)));
                egress.groupId = group.id;
                egress.direction = QStringLiteral("egress");
                egress.ethertype = QString::fromLatin1(ether);
                egress.created = start;
                group.rules.append(egress);
            }
            for (const QJsonValue rv : g.value(QStringLiteral("rules")).toArray())
                group.rules.append(ruleFrom(rv.toObject(), group.id, ++n));
            w.securityGroups.append(group);
        }
        for (const QJsonValue rv : p.value(QStringLiteral("routers")).toArray()) {
            const QJsonObject r = rv.toObject();
            SimRouter router;
            router.name = r.value(QStringLiteral("name")).toString();
            router.id = r.value(QStringLiteral("id"))
                            .toString(stableUuid(QStringLiteral("router:") + projectId + router.name));
            router.projectId = projectId;
            router.created = start.addDays(-400);
            router.updated = start.addSecs(-3600);
            router.revision = r.value(QStringLiteral("revision")).toInt(3);
            for (const QJsonValue nv : r.value(QStringLiteral("networks")).toArray()) {
                const int n = w.networkIndex(nv.toString());
                if (n < 0 || w.networks.at(n).projectId != projectId)
                    return fail(where,
                        QStringLiteral("router %1: unknown network %2").arg(router.name, nv.toString()));
                router.interfaceSubnetIds.append(w.networks.at(n).subnetId);
            }
            const auto routesOf = [](const QJsonValue &list) {
                QList<SimRoute> routes;
                for (const QJsonValue route : list.toArray()) {
                    routes.append(SimRoute { route.toObject().value(QStringLiteral("destination")).toString(),
                        route.toObject().value(QStringLiteral("nexthop")).toString() });
                }
                return routes;
            };
            router.routes = routesOf(r.value(QStringLiteral("routes")));
            // Its ASR pair as the cloud's driver left it (with "asr1k"): what each device missed.
            for (const QJsonValue dv : r.value(QStringLiteral("devices")).toArray()) {
                const QJsonObject d = dv.toObject();
                const QString host = d.value(QStringLiteral("host")).toString();
                if (host.isEmpty())
                    return fail(
                        where, QStringLiteral("router %1: a device without its host").arg(router.name));
                router.devices.append(SimDevice { host, d.value(QStringLiteral("active")).toBool(),
                    routesOf(d.value(QStringLiteral("lacking"))), routesOf(d.value(QStringLiteral("kept"))),
                    false });
            }
            w.routers.append(router);
        }
        for (const QJsonValue sv : p.value(QStringLiteral("servers")).toArray()) {
            const QJsonObject s = sv.toObject();
            SimServer &server = w.addServer(projectId, s.value(QStringLiteral("name")).toString(),
                s.value(QStringLiteral("network")).toString(), s.value(QStringLiteral("ip")).toString(),
                groupNames(s), ago(s, 60 * 24 * 30));
            setStatus(server, s.value(QStringLiteral("status")).toString(QStringLiteral("ACTIVE")),
                s.value(QStringLiteral("fault")).toString());
            server.floatingIp = s.value(QStringLiteral("floatingIp")).toString();
        }
        int k = 0;
        for (const QJsonValue kv : p.value(QStringLiteral("klusters")).toArray()) {
            if (!kluster(kv.toObject(), projectId, where + QStringLiteral(".klusters[%1]").arg(k++)))
                return false;
        }
        int v = 0;
        for (const QJsonValue vv : p.value(QStringLiteral("volumes")).toArray()) {
            if (!volume(vv.toObject(), projectId, where + QStringLiteral(".volumes[%1]").arg(v++)))
                return false;
        }
        int l = 0;
        for (const QJsonValue lv : p.value(QStringLiteral("loadBalancers")).toArray()) {
            if (!loadBalancer(
                    lv.toObject(), projectId, where + QStringLiteral(".loadBalancers[%1]").arg(l++)))
                return false;
        }
        return true;
    }

    // When an object was last updated: `updatedMinutes` ago (absent: never, an invalid time).
    QDateTime updatedAgo(const QJsonObject &o) const
    {
        if (!o.contains(QStringLiteral("updatedMinutes")))
            return QDateTime();
        return ago(
            QJsonObject { { QStringLiteral("ageMinutes"), o.value(QStringLiteral("updatedMinutes")) } }, 0);
    }

    // A Cinder volume: "kluster" makes it the CSI driver's for that kluster (of this project, whether or not
    // it exists), named after its PersistentVolume, "pvc" ("namespace/name") the claim it backs.
    bool volume(const QJsonObject &o, const QString &projectId, const QString &where)
    {
        SimVolume v;
        const QString kluster = o.value(QStringLiteral("kluster")).toString();
        const QString pvc = o.value(QStringLiteral("pvc")).toString();
        // csi-provisioner's name: its --volume-name-prefix (Kubernikus': "pv-<kluster>-<project id>") and the
        // claim's uid.
        v.name = o.value(QStringLiteral("name"))
                     .toString(kluster.isEmpty()
                             ? QString()
                             : QStringLiteral("pv-%1-%2")
                                   .arg(World::volumeClusterOf(kluster, projectId),
                                       stableUuid(QStringLiteral("pvc:%1:%2").arg(kluster, pvc))));
        v.projectId = projectId;
        int same = 0;
        for (const SimVolume &other : std::as_const(w.volumes))
            same += other.projectId == projectId && other.name == v.name ? 1 : 0;
        v.id = o.value(QStringLiteral("id"))
                   .toString(stableUuid(QStringLiteral("volume:%1:%2:%3").arg(projectId, v.name).arg(same)));
        // Made by "user", or by the project's first user.
        for (const SimUser &user : std::as_const(w.users)) {
            if (v.userId.isEmpty() && user.projectId == projectId)
                v.userId = user.id;
        }
        if (const int u = w.userIndex(o.value(QStringLiteral("user")).toString()); u >= 0)
            v.userId = w.users.at(u).id;
        v.size = o.value(QStringLiteral("size")).toInt(10);
        v.zone = o.value(QStringLiteral("zone")).toString(v.zone);
        v.volumeType = o.value(QStringLiteral("volumeType")).toString(v.volumeType);
        if (!kluster.isEmpty()) {
            v.description = QStringLiteral("Created by OpenStack Cinder CSI driver");
            v.metadata.append({ QStringLiteral("cinder.csi.openstack.org/cluster"),
                World::volumeClusterOf(kluster, projectId) });
            if (!pvc.isEmpty()) {
                v.metadata.append(
                    { QStringLiteral("csi.storage.k8s.io/pvc/name"), pvc.section(QLatin1Char('/'), 1) });
                v.metadata.append({ QStringLiteral("csi.storage.k8s.io/pvc/namespace"),
                    pvc.section(QLatin1Char('/'), 0, 0) });
                v.metadata.append({ QStringLiteral("csi.storage.k8s.io/pv/name"), v.name });
            }
        }
        const QJsonObject metadata = o.value(QStringLiteral("metadata")).toObject();
        for (auto it = metadata.begin(); it != metadata.end(); ++it)
            v.metadata.append({ it.key(), it.value().toString() });
        v.description = o.value(QStringLiteral("description")).toString(v.description);
        v.created = ago(o, 60 * 24 * 30);
        v.updated = updatedAgo(o);
        QStringList attached;
        const QJsonValue to = o.value(QStringLiteral("attachedTo"));
        if (to.isString())
            attached << to.toString();
        for (const QJsonValue s : to.toArray())
            attached << s.toString();
        for (const QString &server : std::as_const(attached)) {
            int s = w.serverIndex(server);
            if (s < 0)
                s = w.serverIndexByName(server);
            if (s < 0 || w.servers.at(s).projectId != projectId)
                return fail(
                    where, QStringLiteral("volume %1: attached to unknown server %2").arg(v.name, server));
            v.attachedTo << w.servers.at(s).id;
        }
        v.attachedAt = v.created;
        v.device = o.value(QStringLiteral("device")).toString(v.device);
        v.status
            = o.value(QStringLiteral("status"))
                  .toString(v.attachedTo.isEmpty() ? QStringLiteral("available") : QStringLiteral("in-use"));
        w.volumes.append(v);
        return true;
    }

    // An Octavia load balancer; one named as the cloud provider names them, with its kluster, namespace and
    // service after "kube_service_", is tagged and described as the cloud provider does it.
    bool loadBalancer(const QJsonObject &o, const QString &projectId, const QString &where)
    {
        SimLoadBalancer lb;
        lb.name = o.value(QStringLiteral("name")).toString();
        lb.projectId = projectId;
        lb.id = o.value(QStringLiteral("id"))
                    .toString(stableUuid(QStringLiteral("lb:%1:%2").arg(projectId, lb.name)));
        const QString prefix = QStringLiteral("kube_service_");
        if (lb.name.startsWith(prefix)) {
            const QStringList service = lb.name.mid(prefix.size()).split(QLatin1Char('_'));
            lb.tags = { lb.name };
            lb.description
                = QStringLiteral("Kubernetes external service %1/%2 from cluster %3")
                      .arg(service.value(1), service.mid(2).join(QLatin1Char('_')), service.value(0));
        }
        if (o.contains(QStringLiteral("tags"))) {
            lb.tags.clear();
            for (const QJsonValue t : o.value(QStringLiteral("tags")).toArray())
                lb.tags << t.toString();
        }
        lb.description = o.value(QStringLiteral("description")).toString(lb.description);
        lb.provisioningStatus = o.value(QStringLiteral("provisioningStatus")).toString(lb.provisioningStatus);
        lb.operatingStatus
            = o.value(QStringLiteral("operatingStatus"))
                  .toString(lb.provisioningStatus == QLatin1String("ERROR") ? QStringLiteral("ERROR")
                                                                            : lb.operatingStatus);
        const QString network = o.value(QStringLiteral("network")).toString();
        for (const SimNetwork &n : std::as_const(w.networks)) {
            if (n.projectId == projectId && (network.isEmpty() || n.name == network || n.id == network)
                && lb.vipNetworkId.isEmpty()) {
                lb.vipNetworkId = n.id;
                lb.vipSubnetId = n.subnetId;
            }
        }
        if (lb.vipNetworkId.isEmpty())
            return fail(where, QStringLiteral("load balancer %1: unknown network %2").arg(lb.name, network));
        lb.vipPortId = stableUuid(QStringLiteral("lb-port:") + lb.id);
        lb.vipAddress = o.value(QStringLiteral("vipAddress")).toString();
        lb.created = ago(o, 60 * 24 * 30);
        lb.updated = updatedAgo(o);
        w.loadBalancers.append(lb);
        return true;
    }

    static QStringList groupNames(const QJsonObject &o)
    {
        if (!o.contains(QStringLiteral("securityGroups")))
            return { QStringLiteral("default") };
        QStringList names;
        for (const QJsonValue g : o.value(QStringLiteral("securityGroups")).toArray())
            names << g.toString();
        return names;
    }

    bool kluster(const QJsonObject &o, const QString &projectId, const QString &where)
    {
        SimKluster k;
        k.name = o.value(QStringLiteral("name")).toString();
        k.projectId = projectId;
        k.clusterCidr = o.value(QStringLiteral("clusterCIDR")).toString(QStringLiteral("100.100.0.0/16"));
        k.securityGroupName
            = o.value(QStringLiteral("securityGroupName")).toString(QStringLiteral("default"));
        k.phase = o.value(QStringLiteral("phase")).toString(QStringLiteral("Running"));
        k.bearerToken
            = stableHex(QStringLiteral("token:") + k.name) + stableHex(QStringLiteral("token2:") + k.name);
        for (const QJsonValue pv : o.value(QStringLiteral("pools")).toArray())
            k.pools.append(SimNodePool { pv.toObject().value(QStringLiteral("name")).toString(),
                pv.toObject().value(QStringLiteral("size")).toInt() });
        const QJsonObject external = o.value(QStringLiteral("openstack")).toObject();
        if (!external.isEmpty()) {
            // A kluster whose OpenStack side lives in another cloud (a real one): only
            // its Kubernikus record and its nodes are simulated.
            k.projectId = external.value(QStringLiteral("projectID")).toString(projectId);
            k.routerId = external.value(QStringLiteral("routerID")).toString();
            k.networkId = external.value(QStringLiteral("networkID")).toString();
            if (k.routerId.isEmpty())
                return fail(where, QStringLiteral("kluster %1: openstack.routerID is required").arg(k.name));
            addListedNodes(o, k);
            addEvents(o, k);
            w.klusters.append(k);
            return true;
        }
        // The project's last router of that name or id.
        const QString routerName = o.value(QStringLiteral("router")).toString();
        const QString key = World::projectKey(projectId, routerName);
        if (const int r = qMax(routersByName.find(w.routers, key), routersById.find(w.routers, key)); r >= 0)
            k.routerId = w.routers.at(r).id;
        if (k.routerId.isEmpty())
            return fail(where, QStringLiteral("kluster %1: unknown router %2").arg(k.name, routerName));
        const int net = w.networkIndex(o.value(QStringLiteral("network")).toString());
        if (net < 0)
            return fail(where,
                QStringLiteral("kluster %1: unknown network %2")
                    .arg(k.name, o.value(QStringLiteral("network")).toString()));
        k.networkId = w.networks.at(net).id;
        const int routerIndex = w.routerIndex(k.routerId);
        int i = 0;
        for (const QJsonValue iv : o.value(QStringLiteral("instances")).toArray()) {
            const QJsonObject inst = iv.toObject();
            const QString name = inst.value(QStringLiteral("name")).toString();
            if (name.isEmpty())
                return fail(where + QStringLiteral(".instances[%1]").arg(i),
                    QStringLiteral("an instance needs a name"));
            QStringList groups = { k.securityGroupName };
            if (inst.contains(QStringLiteral("securityGroups")))
                groups = groupNames(inst);
            SimServer &server = w.addServer(projectId, name, k.networkId,
                inst.value(QStringLiteral("ip")).toString(), groups, ago(inst, 60 * 24));
            setStatus(server, inst.value(QStringLiteral("status")).toString(QStringLiteral("ACTIVE")),
                inst.value(QStringLiteral("fault")).toString());
            server.consoleLog = inst.value(QStringLiteral("consoleLog")).toString();
            server.kluster = k.name;
            server.zone = inst.value(QStringLiteral("zone")).toString(server.zone);
            server.pool = inst.value(QStringLiteral("pool"))
                              .toString(k.pools.isEmpty() ? QString() : k.pools.first().name);
            const QString ip = w.serverAddresses(server).value(0);
            if (inst.contains(QStringLiteral("node"))) {
                const QJsonObject n = inst.value(QStringLiteral("node")).toObject();
                SimNode node = nodeFrom(n, name, server.pool, ip, QStringLiteral("openstack:///") + server.id,
                    ago(inst, 60 * 24).addSecs(150));
                node.zone = server.zone;
                if (inst.value(QStringLiteral("route")).toBool(true) && !node.podCidr.isEmpty()
                    && routerIndex >= 0)
                    w.routers[routerIndex].routes.append(SimRoute { node.podCidr, node.internalIp });
                // The cloud provider allowed the pod CIDR on the node's port, unless its update was lost.
                k.nodes.append(node);
                if (inst.value(QStringLiteral("addressPair")).toBool(true) && !node.podCidr.isEmpty())
                    w.setPortPair(server.portId, node.podCidr, true);
            }
            ++i;
        }
        addListedNodes(o, k);
        addEvents(o, k);
        w.klusters.append(k);
        return true;
    }

    // What Kubernikus recorded on the kluster before the world began: "events": [{"type", "reason",
    // "message", "count", "ageMinutes" (when last), "firstAgeMinutes"}].
    void addEvents(const QJsonObject &o, SimKluster &k) const
    {
        for (const QJsonValue ev : o.value(QStringLiteral("events")).toArray()) {
            const QJsonObject e = ev.toObject();
            const QDateTime last = ago(e, 0);
            QJsonObject first { { QStringLiteral("ageMinutes"),
                e.value(QStringLiteral("firstAgeMinutes")) } };
            k.events.append(SimKubernikusEvent {
                e.value(QStringLiteral("type")).toString(QStringLiteral("Normal")),
                e.value(QStringLiteral("reason")).toString(), e.value(QStringLiteral("message")).toString(),
                qBound(1, e.value(QStringLiteral("count")).toInt(1), 1000000),
                e.contains(QStringLiteral("firstAgeMinutes")) ? ago(first, 0) : last, last });
        }
    }

    // The kluster's `nodes`: nodes given on their own (without an instance of this world).
    void addListedNodes(const QJsonObject &o, SimKluster &k)
    {
        for (const QJsonValue nv : o.value(QStringLiteral("nodes")).toArray()) {
            const QJsonObject n = nv.toObject();
            k.nodes.append(nodeFrom(n, n.value(QStringLiteral("name")).toString(),
                n.value(QStringLiteral("pool")).toString(), n.value(QStringLiteral("internalIP")).toString(),
                n.value(QStringLiteral("providerID")).toString(), ago(n, 60 * 24)));
        }
    }

    SimNode nodeFrom(const QJsonObject &n, const QString &name, const QString &pool, const QString &ip,
        const QString &providerId, const QDateTime &created)
    {
        SimNode node;
        node.name = name;
        node.uid = stableUuid(QStringLiteral("node:") + name);
        node.created = n.contains(QStringLiteral("ageMinutes")) ? ago(n, 0) : created;
        node.pool = pool;
        node.podCidr = n.value(QStringLiteral("podCIDR")).toString();
        node.podCidrs = n.value(QStringLiteral("podCIDRs")).toBool(true);
        node.internalIp = n.value(QStringLiteral("internalIP")).toString(ip);
        node.providerId = n.value(QStringLiteral("providerID")).toString(providerId);
        node.ready = n.value(QStringLiteral("ready")).toString(QStringLiteral("True"));
        if (node.ready == QLatin1String("False")) {
            node.readyReason = QStringLiteral("KubeletNotReady");
            node.readyMessage = QStringLiteral(
                "container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady");
        } else if (node.ready == QLatin1String("Unknown")) {
            node.readyReason = QStringLiteral("NodeStatusUnknown");
            node.readyMessage = QStringLiteral("Kubelet stopped posting node status.");
        }
        node.readyReason = n.value(QStringLiteral("readyReason")).toString(node.readyReason);
        node.readyMessage = n.value(QStringLiteral("readyMessage")).toString(node.readyMessage);
        node.networkUnavailable
            = n.value(QStringLiteral("networkUnavailable")).toString(QStringLiteral("False"));
        if (node.networkUnavailable == QLatin1String("True")) {
            node.networkReason = QStringLiteral("NoRouteCreated");
            node.networkMessage = QStringLiteral("RouteController failed to create a route");
        }
        node.unschedulable = n.value(QStringLiteral("unschedulable")).toBool(false);
        // Minutes since Ready and NetworkUnavailable last changed (default: since the node was created).
        if (n.contains(QStringLiteral("transitionMinutes")))
            node.transition = start.addSecs(
                qint64(-qBound(0.0, n.value(QStringLiteral("transitionMinutes")).toDouble(), 1e7) * 60));
        // Minutes since Kubernikus' servicing cordoned it for a reboot (it is then cordoned);
        // "servicingStuck": the reboot never comes back.
        if (n.contains(QStringLiteral("servicingMinutes"))) {
            node.servicingSince = start.addSecs(
                qint64(-qBound(0.0, n.value(QStringLiteral("servicingMinutes")).toDouble(), 1e7) * 60));
            node.unschedulable = true;
            node.servicingStuck = n.value(QStringLiteral("servicingStuck")).toBool(false);
        }
        node.resourceVersion = ++w.resourceVersionCounter;
        return node;
    }
};

} // namespace

namespace Scenario {

bool load(const QByteArray &json, World &world, FaultInjector &faults, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        *error = QStringLiteral("not a JSON object: %1 at byte %2")
                     .arg(parseError.errorString())
                     .arg(parseError.offset);
        return false;
    }
    const QJsonObject root = doc.object();
    Loader loader { world, faults, QString(), world.now() };
    world.region = root.value(QStringLiteral("region")).toString(world.region);
    world.externalIdentity = root.value(QStringLiteral("externalIdentity")).toBool(world.externalIdentity);
    const QJsonObject cloud = root.value(QStringLiteral("cloud")).toObject();
    world.maxRoutes = cloud.value(QStringLiteral("maxRoutes")).toInt(world.maxRoutes);
    world.routeLimitAsQuota
        = cloud.value(QStringLiteral("routeLimitError")).toString() == QLatin1String("OverQuota");
    world.extraRouteAtomic = cloud.value(QStringLiteral("extraRouteAtomic")).toBool(world.extraRouteAtomic);
    world.tokenLifetimeSeconds
        = cloud.value(QStringLiteral("tokenLifetimeSeconds")).toInt(world.tokenLifetimeSeconds);
    world.replaceDeletedInstances
        = cloud.value(QStringLiteral("replaceDeletedInstances")).toBool(world.replaceDeletedInstances);
    world.replacementBootSeconds
        = cloud.value(QStringLiteral("replacementBootSeconds")).toInt(world.replacementBootSeconds);
    world.registrationDelaySeconds
        = cloud.value(QStringLiteral("registrationDelaySeconds")).toInt(world.registrationDelaySeconds);
    world.routeController = cloud.value(QStringLiteral("routeController")).toBool(world.routeController);
    world.loadBalancerDeleteSeconds
        = cloud.value(QStringLiteral("loadBalancerDeleteSeconds")).toInt(world.loadBalancerDeleteSeconds);
    world.asr1k = cloud.value(QStringLiteral("asr1k")).toBool(world.asr1k);
    if (QString problem;
        !Controllers::configure(world, cloud.value(QStringLiteral("controllers")).toObject(), &problem)) {
        *error = QStringLiteral("cloud.controllers: %1").arg(problem);
        return false;
    }
    world.deviceSyncAddsOnly
        = cloud.value(QStringLiteral("deviceSyncAddsOnly")).toBool(world.deviceSyncAddsOnly);
    int i = 0;
    for (const QJsonValue p : root.value(QStringLiteral("projects")).toArray()) {
        if (!loader.project(p.toObject(), i++)) {
            *error = loader.error;
            return false;
        }
    }
    if (world.asr1k)
        world.addDevicePairs();
    i = 0;
    for (const QJsonValue f : root.value(QStringLiteral("faults")).toArray()) {
        QString problem;
        const std::optional<FaultRule> rule = FaultRule::fromJson(f.toObject(), &problem);
        if (!rule) {
            *error = QStringLiteral("faults[%1]: %2").arg(i).arg(problem);
            return false;
        }
        faults.add(*rule);
        ++i;
    }
    return true;
}

bool loadFile(const QString &path, World &world, FaultInjector &faults, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    if (!load(file.readAll(), world, faults, error)) {
        *error = path + QStringLiteral(": ") + *error;
        return false;
    }
    return true;
}

QByteArray defaultScenario()
{
    QFile file(QStringLiteral(":/flightdeck/scenarios/default.json"));
    if (!file.open(QIODevice::ReadOnly))
        return QByteArray();
    return file.readAll();
}

} // namespace Scenario
