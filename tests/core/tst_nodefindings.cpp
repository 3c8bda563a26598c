#include "core/diagnosis.h"
#include "tests/common/findingassert.h"
#include "tests/common/worldbuilder.h"

#include <QTest>

class TestNodeFindings : public QObject
{
    Q_OBJECT
private slots:
    void notReady_data();
    void notReady();
    void networkUnavailable();
    void bothConditions();
};

void TestNodeFindings::notReady_data()
{
    QTest::addColumn<QString>("ready");
    QTest::addColumn<bool>("finding");
    QTest::newRow("True") << "True" << false;
    QTest::newRow("False") << "False" << true;
    QTest::newRow("Unknown") << "Unknown" << true;
    QTest::newRow("no Ready condition") << "" << true;
}

void TestNodeFindings::notReady()
{
    QFETCH(QString, ready);
    QFETCH(bool, finding);
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 1);
    w.server(QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), 60);
    w.node(QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"),
        QStringLiteral("100.100.4.0/24"), ready);
    w.route(QStringLiteral("100.100.4.0/24"), QStringLiteral("10.0.0.4"));
    const Diagnosis d = Diagnosis::run(w.state());
    if (!finding) {
        QVERIFY(d.findings.isEmpty());
        return;
    }
    QCOMPARE(findingIds(d), QStringList { QStringLiteral("node-not-ready:kks-demo-pool-aaaaa") });
    QCOMPARE(d.findings.first().severity, Severity::Warning);
    QVERIFY(!d.findings.first().repair());
    QCOMPARE(d.findings.first().affected().nodes, QStringList { QStringLiteral("kks-demo-pool-aaaaa") });
}

void TestNodeFindings::networkUnavailable()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 1);
    w.healthyMember(
        QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), QStringLiteral("100.100.4.0/24"));
    w.setCondition(
        0, QStringLiteral("NetworkUnavailable"), QStringLiteral("True"), QStringLiteral("NoRouteCreated"));
    const Diagnosis d = Diagnosis::run(w.state());
    QCOMPARE(findingIds(d), QStringList { QStringLiteral("node-network-unavailable:kks-demo-pool-aaaaa") });
    QCOMPARE(d.findings.first().severity, Severity::Critical);
    QVERIFY(d.findings.first().message().contains(QStringLiteral("NoRouteCreated")));
    QVERIFY(!d.findings.first().repair());
}

void TestNodeFindings::bothConditions()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 1);
    w.healthyMember(
        QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), QStringLiteral("100.100.4.0/24"));
    w.setCondition(0, QStringLiteral("NetworkUnavailable"), QStringLiteral("True"));
    w.setCondition(0, QStringLiteral("Ready"), QStringLiteral("False"));
    const Diagnosis d = Diagnosis::run(w.state());
    QCOMPARE(findingIds(d),
        (QStringList { QStringLiteral("node-network-unavailable:kks-demo-pool-aaaaa"),
            QStringLiteral("node-not-ready:kks-demo-pool-aaaaa") }));
}

QTEST_GUILESS_MAIN(TestNodeFindings)
#include "tst_nodefindings.moc"
