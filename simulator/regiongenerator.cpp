// Scenario's region generator: a region of many klusters over many projects, the same on every run (a
// benchmark's, a soak's, flightdeck-sim --klusters). The loader of scenario files is scenario.cpp.
#include "simulator/scenario.h"
#include "simulator/stableid.h"

#include <QHostAddress>

namespace Scenario {

void generate(World &world, int nodes, int klusters)
{
    RegionShape shape;
    shape.klusters = klusters;
    shape.nodes = nodes;
    generateRegion(world, shape);
}

int mixedSize(int n)
{
    // A fixed scramble of the number: the same region every run, the sizes spread over it.
    const quint32 h = quint32(n) * 2654435761U;
    const int bucket = int((h >> 8) % 100);
    const int within = int((h >> 16) % 1000);
    if (bucket < 85)
        return 3 + within % 28; // 3–30
    if (bucket < 97)
        return 31 + within % 70; // 31–100
    return 101 + within % 200; // 101–300
}

void generateRegion(World &world, const RegionShape &shape)
{
    const int klusters = shape.klusters;
    const QDateTime now = world.now();
    QStringList projectIds;
    const qsizetype firstUser = world.users.size(); // one user per project from here on
    for (int p = 0; p < qMax(1, shape.projects); ++p) {
        const QString name = shape.projects > 1 ? QStringLiteral("scale-p%1").arg(p, 2, 10, QLatin1Char('0'))
                                                : QStringLiteral("scale");
        const QString projectId = stableHex(QStringLiteral("project:") + name);
        projectIds << projectId;
        world.projects.append(SimProject { projectId, name });
        world.users.append(SimUser { stableHex(QStringLiteral("user:") + name), name,
            QStringLiteral("scale-password"), projectId, { QStringLiteral("member") } });
        world.applicationCredentials.append(SimApplicationCredential { name + QStringLiteral("-appcred"),
            name, QStringLiteral("scale-secret"), world.users.last().id, projectId, {} });
        world.securityGroups.append(defaultGroup(projectId, now));
    }
    world.servers.reserve(qsizetype(shape.nodes) * klusters);
    world.ports.reserve(qsizetype(shape.nodes) * klusters);
    int maxRoutes = 0;
    for (int kn = 0; kn < klusters; ++kn) {
        const QString &projectId = projectIds.at(kn % projectIds.size());
        const int nodes = shape.mixedSizes ? mixedSize(kn) : shape.nodes;
        // A real region's faults sit in some klusters, not in all: there, a quarter of the klusters have the
        // pattern of faults (one in 200 nodes of each kind, from a place of their own in it), the others
        // nodes only from its part without faults; a few have routes left by deleted nodes. A uniform fleet
        // has them all, the same in every kluster.
        const quint32 scramble = quint32(kn) * 2246822519U + 374761393U;
        const bool faulty = !shape.mixedSizes || (scramble >> 20) % 100 < 25;
        const int faultOffset = shape.mixedSizes ? int((scramble >> 5) % 40) : 0;
        const bool orphans = !shape.mixedSizes || (scramble >> 13) % 100 < 8;
        // One kluster keeps the names it always had; a fleet's are scale-000, scale-001, …, each with its
        // own network, group and router, in the one project.
        const QString kname = klusters == 1 ? QStringLiteral("scale")
                                            : QStringLiteral("scale-%1").arg(kn, 3, 10, QLatin1Char('0'));
        const QString cidr = klusters == 1
            ? QStringLiteral("172.16.0.0/12")
            : QStringLiteral("172.%1.%2.0/22").arg(16 + kn / 64).arg((kn % 64) * 4);
        SimNetwork net { stableUuid(QStringLiteral("net:") + kname), kname + QStringLiteral("-net"),
            projectId, stableUuid(QStringLiteral("subnet:") + kname), cidr,
            QHostAddress(QHostAddress::parseSubnet(cidr).first.toIPv4Address() + 1).toString() };
        world.networks.append(net);
        SimSecurityGroup group;
        group.id = stableUuid(QStringLiteral("sg:") + kname);
        group.name = QStringLiteral("kks-") + kname;
        group.projectId = projectId;
        int n = 0;
        for (const char *p : { "tcp", "udp", "icmp" }) {
            QJsonObject r { { QStringLiteral("protocol"), QString::fromLatin1(p) },
                { QStringLiteral("remoteIpPrefix"), QStringLiteral("10.0.0.0/8") } };
            group.rules.append(ruleFrom(r, group.id, ++n, now));
        }
        world.securityGroups.append(group);
        SimRouter router;
        router.id = stableUuid(QStringLiteral("router:") + kname);
        router.name = QStringLiteral("kks-") + kname + QStringLiteral("-router");
        router.projectId = projectId;
        router.interfaceSubnetIds = { net.subnetId };
        router.created = now.addDays(-300);
        router.updated = now;
        SimKluster k;
        k.name = kname;
        k.projectId = projectId;
        k.clusterCidr = QStringLiteral("10.0.0.0/8");
        k.routerId = router.id;
        k.networkId = net.id;
        k.securityGroupName = group.name;
        k.pools = { SimNodePool { QStringLiteral("pool"), nodes } };
        k.bearerToken
            = stableHex(QStringLiteral("token:") + kname) + stableHex(QStringLiteral("token2:") + kname);
        static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
        const quint32 base = QHostAddress::parseSubnet(cidr).first.toIPv4Address();
        for (int i = 0; i < nodes; ++i) {
            QString suffix(5, QLatin1Char('a'));
            int v = i;
            for (int c = 4; c >= 0; --c) {
                suffix[c] = QLatin1Char(alphabet[v % 36]);
                v /= 36;
            }
            const QString name = QStringLiteral("kks-") + kname + QStringLiteral("-pool-") + suffix;
            const QString ip = QHostAddress(base + 10 + quint32(i)).toString();
            const QString pod = QStringLiteral("10.%1.%2.0/24").arg(i / 256).arg(i % 256);
            const int mod = faulty ? (i + faultOffset) % 200 : 100 + i % 100;
            SimServer s;
            s.id = stableUuid(QStringLiteral("server:%1:%2").arg(kname).arg(i));
            s.name = name;
            s.projectId = projectId;
            s.created = now.addSecs(mod == 7 ? -3600 : -86400LL * 5 - i);
            s.updated = s.created;
            s.networkName = net.name;
            s.kluster = k.name;
            s.pool = QStringLiteral("pool");
            SimPort port;
            port.id = stableUuid(QStringLiteral("port:%1:%2").arg(kname).arg(i));
            port.networkId = net.id;
            port.subnetId = net.subnetId;
            port.deviceId = s.id;
            port.deviceOwner = QStringLiteral("compute:nova");
            port.macAddress = QStringLiteral("fa:16:3e:%1:%2:%3")
                                  .arg(((i >> 16) + kn * 4) & 0xff, 2, 16, QLatin1Char('0'))
                                  .arg((i >> 8) & 0xff, 2, 16, QLatin1Char('0'))
                                  .arg(i & 0xff, 2, 16, QLatin1Char('0'));
            port.ipAddress = ip;
            port.created = s.created;
            if (mod != 13) // one in 200 lacks the kluster's group
                port.securityGroupIds = { group.id };
            if (mod != 7 && mod != 11 && mod != 37) // a registered node's pod CIDR; one in 200 lost it
                port.allowedAddressPairs = { pod };
            s.portId = port.id;
            if (mod == 11) { // one in 200 in ERROR
                s.status = QStringLiteral("ERROR");
                s.vmState = QStringLiteral("error");
                s.faultMessage
                    = QStringLiteral("No valid host was found. There are not enough hosts available.");
            }
            world.ports.append(port);
            world.servers.append(s);
            if (mod == 7 || mod == 11)
                continue; // never registered
            SimNode node;
            node.name = name;
            node.uid = stableUuid(QStringLiteral("node:%1:%2").arg(kname).arg(i));
            node.created = s.created.addSecs(150);
            node.pool = s.pool;
            node.podCidr = pod;
            node.internalIp = ip;
            node.providerId = QStringLiteral("openstack:///") + s.id;
            if (mod == 17) {
                node.ready = QStringLiteral("False");
                node.readyReason = QStringLiteral("KubeletNotReady");
                node.readyMessage = QStringLiteral("PLEG is not healthy");
            }
            node.resourceVersion = ++world.resourceVersionCounter;
            k.nodes.append(node);
            if (mod == 23)
                continue; // one in 200 has no route
            if (mod == 31) { // one in 200 routed to another node only (stale)
                router.routes.append(
                    SimRoute { pod, QHostAddress(base + 10 + quint32(i > 0 ? i - 1 : i + 1)).toString() });
                continue;
            }
            if (mod == 29) // one in 200 routed to a recycled CIDR's old node first
                router.routes.append(
                    SimRoute { pod, QHostAddress(base + 10 + quint32(nodes) + quint32(i)).toString() });
            router.routes.append(SimRoute { pod, ip });
        }
        for (int i = 0; i < (orphans ? qMax(1, nodes / 500) : 0); ++i) // orphans of deleted nodes
            router.routes.append(SimRoute { QStringLiteral("10.255.%1.0/24").arg(i % 256),
                QHostAddress(base + 5 + quint32(2 * nodes) + quint32(i)).toString() });
        if (nodes > 0) { // one PersistentVolume, the CSI driver's, attached to its first instance
            SimVolume v;
            v.id = stableUuid(QStringLiteral("volume:") + kname);
            v.name = QStringLiteral("pv-%1-%2")
                         .arg(World::volumeClusterOf(kname, projectId),
                             stableUuid(QStringLiteral("pvc:") + kname));
            v.projectId = projectId;
            v.userId = world.users.at(firstUser + kn % projectIds.size()).id;
            v.description = QStringLiteral("Created by OpenStack Cinder CSI driver");
            v.status = QStringLiteral("in-use");
            v.metadata = { { QStringLiteral("cinder.csi.openstack.org/cluster"),
                               World::volumeClusterOf(kname, projectId) },
                { QStringLiteral("csi.storage.k8s.io/pvc/name"), QStringLiteral("data-0") },
                { QStringLiteral("csi.storage.k8s.io/pvc/namespace"), QStringLiteral("default") },
                { QStringLiteral("csi.storage.k8s.io/pv/name"), v.name } };
            v.attachedTo = { stableUuid(QStringLiteral("server:%1:0").arg(kname)) };
            v.created = now.addDays(-5);
            v.attachedAt = v.created;
            v.updated = v.created;
            world.volumes.append(v);
        }
        maxRoutes = qMax(maxRoutes, int(router.routes.size()) + 100);
        world.routers.append(router);
        world.klusters.append(k);
    }
    world.maxRoutes = maxRoutes;
}

} // namespace Scenario
