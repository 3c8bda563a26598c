#include "benchmarks/fleetscenario.h"
#include "simulator/scenario.h"

#include <QHostAddress>
#include <QSet>
#include <QTest>

// The world's lookups at scale (simulator/worldindex.h) and the addresses it hands out: right after servers
// are added, after ports and servers are removed by every way the world removes them, and after things are
// appended to its lists directly (as the region generator and tests do); and a fleet loaded from its
// scenario file.
class TestSimulatorIndex : public QObject
{
    Q_OBJECT
private slots:
    void addedServersAreFound();
    void removalsAreSeen();
    void directAppendsAreSeen();
    void namesFindTheFirst();
    void klustersByName();
    void loadedFleet();
};

namespace {

const QString project = QStringLiteral("p");

// A world with project "p", its network "net" (10.0.0.0/24), its groups "default" and "kks" (twice: the first
// is the one), and project "q"'s group "kks".
World smallWorld()
{
    World w;
    w.projects.append(SimProject { project, project });
    w.networks.append(SimNetwork { QStringLiteral("net-id"), QStringLiteral("net"), project,
        QStringLiteral("subnet-id"), QStringLiteral("10.0.0.0/24"), QStringLiteral("10.0.0.1") });
    for (const auto &g : { std::pair { "g-default", "p" }, std::pair { "g-q", "q" },
             std::pair { "g-kks", "p" }, std::pair { "g-kks-2", "p" } }) {
        SimSecurityGroup group;
        group.id = QString::fromLatin1(g.first);
        group.name
            = group.id == QLatin1String("g-default") ? QStringLiteral("default") : QStringLiteral("kks");
        group.projectId = QString::fromLatin1(g.second);
        w.securityGroups.append(group);
    }
    return w;
}

SimServer &add(World &w, int n)
{
    return w.addServer(project, QStringLiteral("s%1").arg(n), QStringLiteral("net"), QString(),
        { QStringLiteral("kks") }, w.now());
}

// Every server's and port's lookup finds it, each server's port is its own, no two ports share an address.
void verifyLookups(const World &w)
{
    QSet<QString> addresses;
    for (int s = 0; s < w.servers.size(); ++s) {
        const SimServer &server = w.servers.at(s);
        QCOMPARE(w.serverIndex(server.id), s);
        const int p = w.portIndex(server.portId);
        QVERIFY2(p >= 0, qPrintable(server.name));
        QCOMPARE(w.ports.at(p).id, server.portId);
        QCOMPARE(w.ports.at(p).deviceId, server.id);
    }
    for (int p = 0; p < w.ports.size(); ++p) {
        QCOMPARE(w.portIndex(w.ports.at(p).id), p);
        QVERIFY2(!addresses.contains(w.ports.at(p).ipAddress), qPrintable(w.ports.at(p).ipAddress));
        addresses.insert(w.ports.at(p).ipAddress);
    }
}

// What freeAddress hands out is in the network, not its gateway, and no port's.
void verifyFree(const World &w, const QString &expected)
{
    const QString free = w.freeAddress(w.networks.at(0));
    QCOMPARE(free, expected);
    for (const SimPort &p : w.ports)
        QVERIFY2(p.ipAddress != free, qPrintable(free));
}

QString address(int n)
{
    return QStringLiteral("10.0.0.%1").arg(n);
}

} // namespace

void TestSimulatorIndex::addedServersAreFound()
{
    World w = smallWorld();
    for (int n = 0; n < 200; ++n) {
        const SimServer &s = add(w, n);
        // Looked up at once, and every earlier one again: each insertion is taken in, nothing goes stale.
        QCOMPARE(w.serverIndex(s.id), n);
        QCOMPARE(w.serverAddresses(s), QStringList { address(10 + n) });
        if (n % 37 == 0)
            verifyLookups(w);
        QCOMPARE(w.ports.last().securityGroupIds, QStringList { QStringLiteral("g-kks") });
    }
    verifyLookups(w);
    QCOMPARE(w.serverIndex(QStringLiteral("no-such-server")), -1);
    QCOMPARE(w.portIndex(QString()), -1);
    verifyFree(w, address(210));
}

void TestSimulatorIndex::removalsAreSeen()
{
    World w = smallWorld();
    w.replaceDeletedInstances = false;
    for (int n = 0; n < 40; ++n)
        add(w, n);
    verifyLookups(w);
    // Nova's DELETE: the server and its port go from the middle of their lists.
    const SimServer gone = w.servers.at(7);
    QVERIFY(!w.deleteServer(7));
    QCOMPARE(w.serverIndex(gone.id), -1);
    QCOMPARE(w.portIndex(gone.portId), -1);
    verifyLookups(w);
    // Its address is free again, the lowest: handed out again, once.
    verifyFree(w, address(17));
    QCOMPARE(w.serverAddresses(add(w, 100)), QStringList { address(17) });
    verifyFree(w, address(50));
    verifyLookups(w);
    // A kluster's members removed as the clock and the debris remove them (the port by its position).
    const int first = w.portIndex(w.servers.at(0).portId);
    const QString firstAddress = w.ports.at(first).ipAddress;
    w.ports.removeAt(first);
    w.servers.removeFirst();
    verifyLookups(w);
    verifyFree(w, firstAddress);
    // The last port removed and another appended behind the world's back: as many ports as before.
    const QString lastAddress = w.ports.last().ipAddress;
    w.servers.removeLast();
    w.ports.removeLast();
    SimPort stray;
    stray.id = QStringLiteral("stray");
    stray.ipAddress = firstAddress;
    w.ports.append(stray);
    QCOMPARE(w.portIndex(QStringLiteral("stray")), int(w.ports.size()) - 1);
    verifyLookups(w);
    verifyFree(w, lastAddress);
}

void TestSimulatorIndex::directAppendsAreSeen()
{
    World w = smallWorld();
    for (int n = 0; n < 5; ++n)
        add(w, n);
    verifyFree(w, address(15));
    // What the region generator does: ports and servers appended to the lists themselves.
    for (int n = 0; n < 5; ++n) {
        SimPort port;
        port.id = QStringLiteral("direct-port-%1").arg(n);
        port.ipAddress = address(15 + n);
        SimServer server;
        server.id = QStringLiteral("direct-%1").arg(n);
        server.portId = port.id;
        port.deviceId = server.id;
        w.ports.append(port);
        w.servers.append(server);
    }
    verifyFree(w, address(20));
    verifyLookups(w);
    QCOMPARE(w.serverAddresses(add(w, 10)), QStringList { address(20) });
    verifyLookups(w);
}

void TestSimulatorIndex::namesFindTheFirst()
{
    World w = smallWorld();
    // Project p's first group "kks" (not q's, not p's second).
    QCOMPARE(add(w, 0).name, QStringLiteral("s0"));
    QCOMPARE(w.ports.last().securityGroupIds, QStringList { QStringLiteral("g-kks") });
    QCOMPARE(w.groupIndex(QStringLiteral("g-kks-2")), 3);
    w.securityGroups.removeAt(2);
    add(w, 1);
    QCOMPARE(w.ports.last().securityGroupIds, QStringList { QStringLiteral("g-kks-2") });
    QCOMPARE(w.groupIndex(QStringLiteral("g-kks-2")), 2);
    QCOMPARE(w.groupIndex(QStringLiteral("g-kks")), -1);
    // A group the project does not have is none.
    w.addServer(
        project, QStringLiteral("s2"), QStringLiteral("net"), QString(), { QStringLiteral("nope") }, w.now());
    QVERIFY(w.ports.last().securityGroupIds.isEmpty());
    // Networks by id, else the first of the name.
    SimNetwork second = w.networks.at(0);
    second.id = QStringLiteral("net-2");
    second.cidr = QStringLiteral("10.0.1.0/24");
    w.networks.append(second);
    QCOMPARE(w.networkIndex(QStringLiteral("net")), 0);
    QCOMPARE(w.networkIndex(QStringLiteral("net-2")), 1);
    w.networks.removeFirst();
    QCOMPARE(w.networkIndex(QStringLiteral("net")), 0);
    QCOMPARE(w.networkIndex(QStringLiteral("net-id")), -1);
    QCOMPARE(w.networks.at(w.networkIndex(QStringLiteral("net"))).id, QStringLiteral("net-2"));
}

void TestSimulatorIndex::klustersByName()
{
    World w;
    Scenario::generate(w, 3, 12);
    for (int k = 0; k < w.klusters.size(); ++k) {
        QCOMPARE(w.klusterIndex(w.klusters.at(k).name), k);
        QCOMPARE(w.routerIndex(w.klusters.at(k).routerId), k);
    }
    QVERIFY(w.removeKluster(QStringLiteral("scale-004")));
    QCOMPARE(w.klusterIndex(QStringLiteral("scale-004")), -1);
    QCOMPARE(w.klusterIndex(QStringLiteral("scale-005")), 4);
    QCOMPARE(w.klusterIndex(QStringLiteral("scale-003")), 3);
    verifyLookups(w);
}

void TestSimulatorIndex::loadedFleet()
{
    World w;
    FaultInjector faults;
    QString error;
    QVERIFY2(Scenario::load(FleetScenario::make(30, 20), w, faults, &error), qPrintable(error));
    QCOMPARE(w.klusters.size(), 30);
    QCOMPARE(w.servers.size(), 30 * 20);
    verifyLookups(w);
    for (const SimKluster &k : std::as_const(w.klusters)) {
        const int net = w.networkIndex(k.networkId);
        QVERIFY(net >= 0);
        const int router = w.routerIndex(k.routerId);
        QVERIFY(router >= 0);
        QCOMPARE(w.routers.at(router).name, k.name + QStringLiteral("-router"));
        QCOMPARE(w.routers.at(router).routes.size(), 10 + k.nodes.size());
        int members = 0;
        for (const SimServer &s : std::as_const(w.servers)) {
            if (s.kluster != k.name)
                continue;
            ++members;
            const SimPort &port = w.ports.at(w.portIndex(s.portId));
            QVERIFY2(
                cidrContainsAddress(w.networks.at(net).cidr, port.ipAddress), qPrintable(port.ipAddress));
            QCOMPARE(port.securityGroupIds.size(), 1);
            QCOMPARE(w.securityGroups.at(w.groupIndex(port.securityGroupIds.at(0))).name,
                QStringLiteral("kks-") + k.name);
            const int node = w.nodeIndex(k, s.name);
            QCOMPARE(node >= 0, s.status == QLatin1String("ACTIVE"));
            if (node >= 0)
                QCOMPARE(k.nodes.at(node).internalIp, port.ipAddress);
        }
        QCOMPARE(members, 20);
    }
}

QTEST_GUILESS_MAIN(TestSimulatorIndex)
#include "tst_simulator_index.moc"
