// The conformance checks against the simulated cloud: it must answer as the
// real servers do (tests/conformance/expected.h; the integration test runs
// the same checks against the real Keystone, Neutron and Nova).

#include "tests/conformance/conformance.h"
#include "tests/conformance/expected.h"
#include "tests/simulator/simfixture.h"

#include <QTest>

class TestConformanceSim : public QObject
{
    Q_OBJECT

private slots:
    void simulatorAnswersAsTheRealServers();
};

// The default scenario's demo kluster, as a conformance target.
Conformance::Target simulatorTarget(const Simulator &sim)
{
    const World &w = sim.world();
    Conformance::Target t;
    t.authUrl = sim.authUrl();
    t.user = QStringLiteral("demo");
    t.password = QStringLiteral("flightdeck-demo");
    t.project = QStringLiteral("flightdeck-demo");
    for (const SimRouter &r : w.routers) {
        if (r.name == QLatin1String("kks-router"))
            t.routerId = r.id;
    }
    for (const SimSecurityGroup &g : w.securityGroups) {
        if (g.name == QLatin1String("kks-demo"))
            t.securityGroupId = g.id;
    }
    for (const SimServer &s : w.servers) {
        if (s.name == QLatin1String("kks-demo-pool-h7k2p"))
            t.serverId = s.id;
        if (s.name == QLatin1String("kks-demo-pool-t5y6u"))
            t.serverToDelete = s.id;
    }
    t.serverGroup = QStringLiteral("kks-demo");
    t.nexthopA = QStringLiteral("10.180.0.21");
    t.nexthopB = QStringLiteral("10.180.0.22");
    t.outsideNexthop = QStringLiteral("172.31.255.7");
    return t;
}

void TestConformanceSim::simulatorAnswersAsTheRealServers()
{
    SimFixture fixture;
    QString error;
    const QList<Conformance::Observation> seen = Conformance::run(simulatorTarget(fixture.sim), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QList<Conformance::Observation> expected = expectedObservations();
    for (const Conformance::Observation &o : seen)
        qInfo("%s  (%s)", qPrintable(o.toString()), qPrintable(o.message));
    QCOMPARE(seen.size(), expected.size());
    for (int i = 0; i < seen.size(); ++i)
        QVERIFY2(seen.at(i).sameAs(expected.at(i)),
            qPrintable(QStringLiteral("simulator: %1 (%2)\nreal:      %3")
                           .arg(seen.at(i).toString(), seen.at(i).message, expected.at(i).toString())));
}

QTEST_MAIN(TestConformanceSim)
#include "tst_conformance_sim.moc"
