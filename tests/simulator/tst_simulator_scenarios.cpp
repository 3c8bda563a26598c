#include "core/diagnosis.h"
#include "services/local/snapshotreader.h"
#include "tests/simulator/simfixture.h"

#include <QDir>
#include <QElapsedTimer>
#include <QSet>
#include <QTemporaryDir>

// Scenarios, the generator, and the snapshot dump: what the simulator plants
// is what the diagnosis finds.
class TestSimulatorScenarios : public QObject
{
    Q_OBJECT
private slots:
    void defaultScenarioShowsEveryFindingKind();
    void dumpOnlyOneKluster();
    void badScenarios_data();
    void badScenarios();
    void addressesOfAnyNetwork();
    void generatedWorld();
    void generatedFleet();
};

static QStringList ids(const Diagnosis &d)
{
    QStringList list;
    for (const Finding &f : d.findings)
        list << f.id();
    return list;
}

void TestSimulatorScenarios::defaultScenarioShowsEveryFindingKind()
{
    Simulator sim;
    QString error;
    QVERIFY(Scenario::load(Scenario::defaultScenario(), sim.world(), sim.faults(), &error));
    QTemporaryDir dir;
    QVERIFY2(sim.dumpSnapshots(dir.path(), QString(), &error), qPrintable(error));
    QSet<QString> kinds;
    QHash<QString, QStringList> byKluster;
    for (const QString &k : { QStringLiteral("demo"), QStringLiteral("legacy"), QStringLiteral("blue") }) {
        KlusterState state;
        try {
            state = SnapshotReader::read(QDir(dir.path()).filePath(k));
        } catch (const ParseError &e) {
            QFAIL(qPrintable(e.toString()));
        }
        const Diagnosis d = Diagnosis::run(state);
        byKluster.insert(k, ids(d));
        for (const Finding &f : d.findings)
            kinds.insert(findingKindName(f.kind));
    }
    const QStringList every = { QStringLiteral("instance-unregistered"), QStringLiteral("instance-error"),
        QStringLiteral("instance-missing-security-group"), QStringLiteral("security-group-missing"),
        QStringLiteral("security-group-rule-missing"), QStringLiteral("route-duplicate"),
        QStringLiteral("route-orphaned"), QStringLiteral("route-stale"), QStringLiteral("route-missing"),
        QStringLiteral("route-limit"), QStringLiteral("node-not-ready"),
        QStringLiteral("node-network-unavailable"), QStringLiteral("route-unassigned"),
        QStringLiteral("node-without-instance") };
    for (const QString &kind : every)
        QVERIFY2(kinds.contains(kind), qPrintable(kind));
    // Exactly what the scenario planted.
    const QString router = sim.world().klusters.first().routerId;
    QCOMPARE(byKluster.value(QStringLiteral("demo")),
        (QStringList { QStringLiteral("instance-error:kks-demo-pool-t5y6u"),
            QStringLiteral("instance-missing-security-group:demo-pool-r3s4d"),
            QStringLiteral("instance-unregistered:kks-demo-pool-w7e2r"), // lost its node: critical
            QStringLiteral("instance-unregistered:kks-demo-pool-z8b1n"),
            QStringLiteral("node-network-unavailable:kks-demo-pool-q9w3e"),
            QStringLiteral("node-without-instance:kks-demo-pool-g4h0s"), // routed ghost: critical
            QStringLiteral("route-missing:kks-demo-pool-q9w3e"),
            QStringLiteral("security-group-rule-missing:tcp"),
            QStringLiteral("instance-unregistered:kks-demo-pool-x2c5v"),
            QStringLiteral("node-not-ready:kks-demo-pool-m4r8t"), QStringLiteral("route-limit:") + router,
            QStringLiteral("route-unassigned:100.100.31.0/24 via 10.180.0.41") }));
    QCOMPARE(byKluster.value(QStringLiteral("legacy")),
        (QStringList { QStringLiteral("node-network-unavailable:kks-legacy-default-k7l8m"),
            QStringLiteral("route-duplicate:198.19.1.0/24"),
            QStringLiteral("route-missing:kks-legacy-default-g5h6j"),
            QStringLiteral("route-missing:kks-legacy-default-k7l8m"),
            QStringLiteral("route-stale:198.19.2.0/24 via 10.180.0.5"),
            QStringLiteral("route-limit:") + router,
            QStringLiteral("route-orphaned:198.19.7.0/24 via 10.180.0.99") }));
    QCOMPARE(byKluster.value(QStringLiteral("blue")),
        (QStringList { QStringLiteral("instance-stopped:kks-blue-pool-f7g6h"),
            QStringLiteral("security-group-missing:kks-blue") }));
}

void TestSimulatorScenarios::dumpOnlyOneKluster()
{
    Simulator sim;
    QString error;
    QVERIFY(Scenario::load(Scenario::defaultScenario(), sim.world(), sim.faults(), &error));
    QTemporaryDir dir;
    QVERIFY(sim.dumpSnapshots(dir.path(), QStringLiteral("blue"), &error));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot),
        QStringList { QStringLiteral("blue") });
    QVERIFY(!sim.dumpSnapshots(dir.path(), QStringLiteral("nope"), &error));
    QVERIFY(error.contains(QStringLiteral("nope")));
}

void TestSimulatorScenarios::badScenarios_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("error");
    QTest::newRow("not json") << QByteArray("{") << "not a JSON object";
    QTest::newRow("nameless project")
        << QByteArray(R"({"projects": [{}]})") << "projects[0]: a project needs a name";
    QTest::newRow("unknown router") << QByteArray(
        R"({"projects": [{"name": "p", "networks": [{"name": "n", "cidr": "10.0.0.0/24"}],
        "klusters": [{"name": "k", "router": "r", "network": "n"}]}]})")
                                    << "kluster k: unknown router r";
    QTest::newRow("bad fault") << QByteArray(R"({"faults": [{"kind": "meteor"}]})")
                               << "faults[0]: unknown fault kind";
    // An IPv6 or unparsable network: said, never a shift past the word when a server takes an address.
    QTest::newRow("IPv6 network") << QByteArray(
        R"({"projects": [{"name": "p", "networks": [{"name": "n", "cidr": "fd00::/64"}],
        "servers": [{"name": "s", "network": "n"}]}]})")
                                  << "network n: fd00::/64 is not IPv4";
    QTest::newRow("no CIDR") << QByteArray(
        R"({"projects": [{"name": "p", "networks": [{"name": "n", "cidr": "10.0.0.0/99"}],
        "servers": [{"name": "s", "network": "n"}]}]})")
                             << "network n: not a CIDR: 10.0.0.0/99";
}

void TestSimulatorScenarios::badScenarios()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, error);
    World world;
    FaultInjector faults;
    QString message;
    QVERIFY(!Scenario::load(json, world, faults, &message));
    QVERIFY2(message.contains(error), qPrintable(message));
}

void TestSimulatorScenarios::addressesOfAnyNetwork()
{
    World world;
    FaultInjector faults;
    QString message;
    // The widest IPv4 network (a prefix of 0) and a single address hand out what they hold.
    QVERIFY2(Scenario::load(R"({"projects": [{"name": "p", "networks": [
        {"name": "all", "cidr": "0.0.0.0/0"}, {"name": "one", "cidr": "192.0.2.7/32"}],
        "servers": [{"name": "a", "network": "all"}, {"name": "b", "network": "one"}]}]})",
                 world, faults, &message),
        qPrintable(message));
    QCOMPARE(world.serverAddresses(world.servers.at(0)), QStringList { QStringLiteral("0.0.0.10") });
    QVERIFY(world.serverAddresses(world.servers.at(1)).value(0).isEmpty());
    // A network the loader would refuse has no address to give (not undefined behaviour).
    SimNetwork v6;
    v6.cidr = QStringLiteral("fd00::/64");
    QCOMPARE(world.freeAddress(v6), QString());
    SimNetwork garbage;
    garbage.cidr = QStringLiteral("ten dot zero");
    QCOMPARE(world.freeAddress(garbage), QString());
}

void TestSimulatorScenarios::generatedWorld()
{
    Simulator sim;
    Scenario::generate(sim.world(), 1000);
    QTemporaryDir dir;
    QString error;
    QVERIFY(sim.dumpSnapshots(dir.path(), QString(), &error));
    const KlusterState state = SnapshotReader::read(QDir(dir.path()).filePath(QStringLiteral("scale")));
    QCOMPARE(state.instances.size(), 1000);
    const Diagnosis d = Diagnosis::run(state);
    QSet<QString> kinds;
    for (const Finding &f : d.findings)
        kinds.insert(findingKindName(f.kind));
    for (const char *kind : { "instance-unregistered", "instance-error", "instance-missing-security-group",
             "route-duplicate", "route-orphaned", "route-stale", "route-missing", "node-not-ready" })
        QVERIFY2(kinds.contains(QString::fromLatin1(kind)), kind);
}

void TestSimulatorScenarios::generatedFleet()
{
    Simulator sim;
    Scenario::generate(sim.world(), 40, 5);
    QCOMPARE(sim.world().klusters.size(), 5);
    QCOMPARE(sim.world().servers.size(), 200);
    QCOMPARE(sim.world().projects.size(), 1); // one project, what its klusters share
    QTemporaryDir dir;
    QString error;
    QVERIFY2(sim.dumpSnapshots(dir.path(), QString(), &error), qPrintable(error));
    QSet<QString> routers;
    for (int k = 0; k < 5; ++k) {
        const QString name = QStringLiteral("scale-%1").arg(k, 3, 10, QLatin1Char('0'));
        const KlusterState state = SnapshotReader::read(QDir(dir.path()).filePath(name));
        QCOMPARE(state.kluster.name, name);
        QCOMPARE(state.instances.size(), 200); // the project's servers, every kluster's
        QCOMPARE(state.nodes.size(), 38); // two of each 200 never registered
        routers.insert(state.router.id);
        const Diagnosis d = Diagnosis::run(state);
        QVERIFY(d.find(QStringLiteral("instance-unregistered:kks-%1-pool-aaaah").arg(name)));
        for (const Finding &f : d.findings) // another kluster's instances are never this one's findings
            QVERIFY2(
                f.id().contains(name) || !f.id().contains(QStringLiteral("kks-scale-")), qPrintable(f.id()));
    }
    QCOMPARE(routers.size(), 5);
}

QTEST_GUILESS_MAIN(TestSimulatorScenarios)
#include "tst_simulator_scenarios.moc"
