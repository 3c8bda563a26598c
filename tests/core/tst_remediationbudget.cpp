#include "core/diagnosis.h"
#include "core/remediationbudget.h"
#include "tests/common/worldbuilder.h"

#include <QTest>

// The remediation budget, after Cluster API's MachineHealthCheck, and the no-evidence guard.
class TestRemediationBudget : public QObject
{
    Q_OBJECT
private slots:
    void maxUnhealthyParse();
    void durations();
    void percentRoundedDown_data();
    void percentRoundedDown();
    void count();
    void overrideOneAtATimeNeverBulk();
    void noEvidenceEmptyNodesWithActiveInstances();
    void noEvidenceUnknownNodes();
    void emptyNodesWithoutActiveInstancesIsEvidence();
    void json();
    void manyLargePoolsNeverWrap();
};

// `ready` Ready nodes and `notReady` NotReady ones, in a kluster of `expected`.
static WorldBuilder world(int expected, int ready, int notReady)
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), expected);
    int n = 0;
    auto add = [&](const QString &state) {
        const QString name = QStringLiteral("kks-demo-pool-n%1aaa").arg(n);
        const QString ip = QStringLiteral("10.0.0.%1").arg(10 + n);
        w.server(name, ip, 60 * 24);
        w.node(name, ip, QStringLiteral("100.100.%1.0/24").arg(n), state);
        w.route(QStringLiteral("100.100.%1.0/24").arg(n), ip);
        ++n;
    };
    for (int i = 0; i < ready; ++i)
        add(QStringLiteral("True"));
    for (int i = 0; i < notReady; ++i)
        add(QStringLiteral("False"));
    return w;
}

void TestRemediationBudget::maxUnhealthyParse()
{
    QCOMPARE(MaxUnhealthy::parse(QStringLiteral("40%"))->value, 40);
    QVERIFY(MaxUnhealthy::parse(QStringLiteral("40%"))->isPercent);
    QVERIFY(MaxUnhealthy::parse(QStringLiteral(" 25 % "))->isPercent);
    QVERIFY(!MaxUnhealthy::parse(QStringLiteral("3"))->isPercent);
    QCOMPARE(MaxUnhealthy::parse(QStringLiteral("3"))->value, 3);
    QVERIFY(!MaxUnhealthy::parse(QStringLiteral("lots")));
    QVERIFY(!MaxUnhealthy::parse(QStringLiteral("-1")));
    QVERIFY(!MaxUnhealthy::parse(QStringLiteral("101%")));
}

void TestRemediationBudget::durations()
{
    QCOMPARE(*DiagnosisOptions::parseDurationSeconds(QStringLiteral("10m")), 600);
    QCOMPARE(*DiagnosisOptions::parseDurationSeconds(QStringLiteral("90s")), 90);
    QCOMPARE(*DiagnosisOptions::parseDurationSeconds(QStringLiteral("2h")), 7200);
    QCOMPARE(*DiagnosisOptions::parseDurationSeconds(QStringLiteral("15")), 900);
    QVERIFY(!DiagnosisOptions::parseDurationSeconds(QStringLiteral("600000h"))); // no overflow
    QVERIFY(!DiagnosisOptions::parseDurationSeconds(QStringLiteral("99999999999999999999m")));
    QVERIFY(!DiagnosisOptions::parseDurationSeconds(QStringLiteral("-5m")));
}

void TestRemediationBudget::percentRoundedDown_data()
{
    QTest::addColumn<int>("expected");
    QTest::addColumn<int>("ready");
    QTest::addColumn<int>("maxUnhealthy");
    QTest::addColumn<bool>("allowed");
    QTest::newRow("7 × 40 % = 2.8 → 2; 2 unhealthy") << 7 << 5 << 2 << true;
    QTest::newRow("7 × 40 % = 2.8 → 2; 3 unhealthy") << 7 << 4 << 2 << false;
    QTest::newRow("2 × 40 % = 0.8 → 0; 1 unhealthy") << 2 << 1 << 0 << false;
    QTest::newRow("6 → 2, 4 unhealthy (the report example)") << 6 << 2 << 2 << false;
    QTest::newRow("10 → 4, 4 unhealthy") << 10 << 6 << 4 << true;
}

void TestRemediationBudget::percentRoundedDown()
{
    QFETCH(int, expected);
    QFETCH(int, ready);
    QFETCH(int, maxUnhealthy);
    QFETCH(bool, allowed);
    const RemediationBudget b
        = RemediationBudget::compute(world(expected, ready, 1).state(), DiagnosisOptions());
    QCOMPARE(b.expected, expected);
    QCOMPARE(b.ready, ready);
    QCOMPARE(b.unhealthy, expected - ready);
    QCOMPARE(b.maxUnhealthy, maxUnhealthy);
    QCOMPARE(b.deletionsAllowed, allowed);
    QCOMPARE(b.reason, allowed ? Refusal::None : Refusal::TooManyUnhealthy);
}

void TestRemediationBudget::count()
{
    DiagnosisOptions o;
    o.maxUnhealthy = *MaxUnhealthy::parse(QStringLiteral("3"));
    QVERIFY(RemediationBudget::compute(world(10, 7, 0).state(), o).deletionsAllowed);
    QVERIFY(!RemediationBudget::compute(world(10, 6, 0).state(), o).deletionsAllowed);
    // More Ready nodes than expected is not negative unhealthiness.
    QCOMPARE(RemediationBudget::compute(world(1, 3, 0).state(), o).unhealthy, 0);
}

void TestRemediationBudget::overrideOneAtATimeNeverBulk()
{
    const RemediationBudget b = RemediationBudget::compute(world(6, 2, 1).state(), DiagnosisOptions());
    QVERIFY(!b.deletionsAllowed);
    QVERIFY(!b.allowsDeletion(1, false));
    QVERIFY(b.allowsDeletion(1, true));
    QVERIFY(!b.allowsDeletion(2, true));
    const RemediationBudget ok = RemediationBudget::compute(world(6, 6, 0).state(), DiagnosisOptions());
    QVERIFY(ok.allowsDeletion(3, false));
}

void TestRemediationBudget::noEvidenceEmptyNodesWithActiveInstances()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 3);
    w.server(QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), 60);
    const RemediationBudget b = RemediationBudget::compute(w.state(), DiagnosisOptions());
    QVERIFY(!b.deletionsAllowed);
    QCOMPARE(b.reason, Refusal::NoEvidence);
    QVERIFY(!b.allowsDeletion(1, true)); // no override for missing evidence
}

void TestRemediationBudget::noEvidenceUnknownNodes()
{
    KlusterState s = world(3, 3, 0).state();
    s.nodesSource = SourceStatus { false, QStringLiteral("timeout") };
    const RemediationBudget b = RemediationBudget::compute(s, DiagnosisOptions());
    QCOMPARE(b.reason, Refusal::NoEvidence);
    QVERIFY(b.detail.contains(QStringLiteral("timeout")));
}

void TestRemediationBudget::emptyNodesWithoutActiveInstancesIsEvidence()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 0);
    w.server(QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), 60, QStringLiteral("ERROR"));
    const RemediationBudget b = RemediationBudget::compute(w.state(), DiagnosisOptions());
    QVERIFY(b.deletionsAllowed);
    QCOMPARE(b.reason, Refusal::None);
}

void TestRemediationBudget::json()
{
    const RemediationBudget b = RemediationBudget::compute(world(6, 2, 1).state(), DiagnosisOptions());
    const QJsonObject o = b.toJson();
    QCOMPARE(o.value(QStringLiteral("expected")).toInt(), 6);
    QCOMPARE(o.value(QStringLiteral("ready")).toInt(), 2);
    QCOMPARE(o.value(QStringLiteral("unhealthy")).toInt(), 4);
    QCOMPARE(o.value(QStringLiteral("maxUnhealthy")).toInt(), 2);
    QCOMPARE(o.value(QStringLiteral("deletionsAllowed")).toBool(), false);
    QCOMPARE(o.value(QStringLiteral("reason")).toString(), QStringLiteral("TooManyUnhealthy"));
    const QJsonObject fine = RemediationBudget::compute(world(6, 6, 0).state(), DiagnosisOptions()).toJson();
    QVERIFY(fine.value(QStringLiteral("reason")).isNull());
}

void TestRemediationBudget::manyLargePoolsNeverWrap()
{
    // The defect: pools summing past 32 bits gave "expected": -2 and allowed deletions.
    KlusterState state = world(2, 1, 0).state();
    state.kluster.nodePools.clear();
    for (int i = 0; i < 30000; ++i)
        state.kluster.nodePools.append(NodePool { QStringLiteral("p%1").arg(i), 100000 });
    const RemediationBudget b = RemediationBudget::compute(state, DiagnosisOptions());
    QCOMPARE(b.expected, Q_INT64_C(3000000000));
    QVERIFY(b.unhealthy > 0);
    QVERIFY(!b.deletionsAllowed);
    QCOMPARE(b.reason, Refusal::TooManyUnhealthy);
    QCOMPARE(b.toJson().value(QStringLiteral("expected")).toInteger(), Q_INT64_C(3000000000));
}

QTEST_GUILESS_MAIN(TestRemediationBudget)
#include "tst_remediationbudget.moc"
