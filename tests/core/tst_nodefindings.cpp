#include "core/acknowledgement.h"
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
    void sinceWhen();
    void ghost();
    void ghostRoutedIsCritical();
    void ghostIsOneFinding();
    void ghostKnownByProviderId();
    void noGhostWithoutServerEvidence();
    void acknowledgementHoldsUntilItChanges();
};

// An acknowledgement of a node that is not ready holds while the node just stays so (its ages grow), and
// lapses when its evidence or severity changes, or its time runs out.
void TestNodeFindings::acknowledgementHoldsUntilItChanges()
{
    const QDateTime t0 = QDateTime(QDate(2026, 11, 26), QTime(3, 0), Qt::UTC);
    // The same world, read at `at` (its nodes and conditions as old as that makes them).
    const auto diagnose = [t0](const QDateTime &at, const QString &reason) {
        WorldBuilder w;
        w.capturedAt(t0);
        w.pool(QStringLiteral("pool"), 1);
        w.healthyMember(QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"),
            QStringLiteral("100.100.4.0/24"));
        w.setCondition(0, QStringLiteral("Ready"), QStringLiteral("False"), reason);
        KlusterState state = w.state();
        state.capturedAt = at;
        return Diagnosis::run(state);
    };
    const Diagnosis first = diagnose(t0, QStringLiteral("KubeletNotReady"));
    QCOMPARE(first.findings.size(), 1);
    const Acknowledgement a = Acknowledgement::of(
        first.findings.first(), QStringLiteral("alice"), QStringLiteral("  on   it "), t0, 3600);
    QCOMPARE(a.note, QStringLiteral("on it"));
    QVERIFY(a.holds(first.findings.first(), t0.addSecs(60)));
    // Ten minutes later, the same fault: it holds.
    const Diagnosis later = diagnose(t0.addSecs(600), QStringLiteral("KubeletNotReady"));
    QCOMPARE(Acknowledgement::fingerprintOf(later.findings.first()), a.fingerprint);
    QVERIFY(a.holds(later.findings.first(), t0.addSecs(600)));
    // Its time ran out.
    QCOMPARE(a.standing(later.findings.first(), t0.addSecs(3600)), Acknowledgement::Standing::Expired);
    // Another reason: the evidence changed.
    const Diagnosis other = diagnose(t0.addSecs(600), QStringLiteral("ContainerRuntimeDown"));
    QCOMPARE(a.standing(other.findings.first(), t0.addSecs(600)), Acknowledgement::Standing::Changed);
    // Another severity.
    Finding worse = later.findings.first();
    worse.severity = Severity::Critical;
    QCOMPARE(a.standing(worse, t0.addSecs(600)), Acknowledgement::Standing::Changed);
    // Ranked below the unacknowledged of its severity, above the next severity.
    QVERIFY(findingRank(worse, true) > findingRank(worse, false));
    Finding warning = later.findings.first();
    QVERIFY(findingRank(worse, true) < findingRank(warning, false));
}

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

void TestNodeFindings::sinceWhen()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 1);
    w.server(QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), 60 * 24 * 3);
    const int n = w.node(QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"),
        QStringLiteral("100.100.4.0/24"), QStringLiteral("True"));
    w.setCondition(
        n, QStringLiteral("Ready"), QStringLiteral("False"), QStringLiteral("KubeletNotReady"), 42);
    w.setCondition(n, QStringLiteral("NetworkUnavailable"), QStringLiteral("True"),
        QStringLiteral("NoRouteCreated"), 60 * 27 + 5);
    w.route(QStringLiteral("100.100.4.0/24"), QStringLiteral("10.0.0.4"));
    const Diagnosis d = Diagnosis::run(w.state());
    const Finding *notReady = d.find(QStringLiteral("node-not-ready:kks-demo-pool-aaaaa"));
    QVERIFY(notReady);
    QVERIFY2(
        notReady->message().contains(QStringLiteral("NotReady for 42 min")), qPrintable(notReady->message()));
    const QJsonObject since = notReady->evidence().value(QStringLiteral("since")).toObject();
    QCOMPARE(since.value(QStringLiteral("forSeconds")).toInt(), 42 * 60);
    QCOMPARE(since.value(QStringLiteral("lastTransitionTime")).toString(),
        WorldBuilder::defaultCapturedAt().addSecs(-42 * 60).toString(QStringLiteral("yyyy-MM-ddTHH:mm:ssZ")));
    const Finding *network = d.find(QStringLiteral("node-network-unavailable:kks-demo-pool-aaaaa"));
    QVERIFY(network);
    QVERIFY2(network->message().contains(QStringLiteral("for 1 d 3 h")), qPrintable(network->message()));
    QCOMPARE(network->evidence()
                 .value(QStringLiteral("since"))
                 .toObject()
                 .value(QStringLiteral("type"))
                 .toString(),
        QStringLiteral("NetworkUnavailable"));
    // Without lastTransitionTime, nothing is made up.
    WorldBuilder bare;
    bare.pool(QStringLiteral("pool"), 1);
    bare.server(QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), 60);
    bare.node(QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"),
        QStringLiteral("100.100.4.0/24"), QStringLiteral("False"));
    bare.route(QStringLiteral("100.100.4.0/24"), QStringLiteral("10.0.0.4"));
    const Diagnosis bareDiagnosis = Diagnosis::run(bare.state());
    const Finding *plain = bareDiagnosis.find(QStringLiteral("node-not-ready:kks-demo-pool-aaaaa"));
    QVERIFY(plain);
    QVERIFY(!plain->message().contains(QStringLiteral(" for ")));
    QVERIFY(plain->evidence().value(QStringLiteral("since")).isNull());
}

static WorldBuilder withGhost(bool routed)
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 2);
    w.healthyMember(
        QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), QStringLiteral("100.100.4.0/24"));
    w.ghostNode(
        QStringLiteral("kks-demo-pool-ggggg"), QStringLiteral("10.0.0.9"), QStringLiteral("100.100.9.0/24"));
    if (routed)
        w.route(QStringLiteral("100.100.9.0/24"), QStringLiteral("10.0.0.9"));
    return w;
}

void TestNodeFindings::ghost()
{
    const Diagnosis d = Diagnosis::run(withGhost(false).state());
    QCOMPARE(findingIds(d), QStringList { QStringLiteral("node-without-instance:kks-demo-pool-ggggg") });
    const Finding &f = d.findings.first();
    QCOMPARE(f.severity, Severity::Warning);
    QVERIFY2(f.message().contains(QStringLiteral("no instance")), qPrintable(f.message()));
    QCOMPARE(f.evidence().value(QStringLiteral("routedToIt")).toBool(), false);
    const std::optional<RepairPlan> plan = f.repair();
    QVERIFY(plan);
    QCOMPARE(plan->action, RepairPlan::Action::DeleteNode);
    QVERIFY(plan->deletes());
    QCOMPARE(plan->deletedName(), QStringLiteral("kks-demo-pool-ggggg"));
    QCOMPARE(plan->requests.size(), 1);
    QCOMPARE(plan->requests.first().service, QStringLiteral("kubernetes"));
    QCOMPARE(plan->requests.first().method, QStringLiteral("DELETE"));
    QCOMPARE(plan->requests.first().path, QStringLiteral("/api/v1/nodes/kks-demo-pool-ggggg"));
}

void TestNodeFindings::ghostRoutedIsCritical()
{
    const Diagnosis d = Diagnosis::run(withGhost(true).state());
    // Its route points at its own address: it looks correct, so it is no route finding of its own.
    QCOMPARE(findingIds(d), QStringList { QStringLiteral("node-without-instance:kks-demo-pool-ggggg") });
    const Finding &f = d.findings.first();
    QCOMPARE(f.severity, Severity::Critical);
    QVERIFY2(f.message().contains(QStringLiteral("leads nowhere")), qPrintable(f.message()));
    QCOMPARE(f.evidence().value(QStringLiteral("routesForPodCIDR")).toArray().size(), 1);
}

void TestNodeFindings::ghostIsOneFinding()
{
    // NotReady, NetworkUnavailable and without its route: still only node-without-instance.
    WorldBuilder w = withGhost(false);
    w.setCondition(
        1, QStringLiteral("NetworkUnavailable"), QStringLiteral("True"), QStringLiteral("NoRouteCreated"));
    const Diagnosis d = Diagnosis::run(w.state());
    QCOMPARE(findingIds(d), QStringList { QStringLiteral("node-without-instance:kks-demo-pool-ggggg") });
    // It counts in the budget like any node: two expected, one Ready.
    QCOMPARE(d.budget.unhealthy, 1);
}

void TestNodeFindings::ghostKnownByProviderId()
{
    // A node whose name no instance has, but whose providerID names one, is no ghost (a renamed instance).
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 1);
    w.server(QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), 60);
    const int n
        = w.node(QStringLiteral("other-name"), QStringLiteral("10.0.0.4"), QStringLiteral("100.100.4.0/24"));
    QJsonObject spec = w.nodeAt(n).value(QStringLiteral("spec")).toObject();
    spec.insert(QStringLiteral("providerID"),
        QString(QStringLiteral("openstack:///") + w.serverId(QStringLiteral("kks-demo-pool-aaaaa"))));
    w.nodeAt(n).insert(QStringLiteral("spec"), spec);
    w.route(QStringLiteral("100.100.4.0/24"), QStringLiteral("10.0.0.4"));
    QVERIFY(findingIds(Diagnosis::run(w.state()), FindingKind::NodeWithoutInstance).isEmpty());
}

void TestNodeFindings::noGhostWithoutServerEvidence()
{
    // The server list failed: nothing is a ghost, and the node is judged as any other.
    KlusterState failed = withGhost(true).state();
    failed.serversSource = SourceStatus { false, QStringLiteral("503 Service Unavailable"), QString() };
    failed.instances.clear();
    const Diagnosis a = Diagnosis::run(failed);
    QVERIFY(findingIds(a, FindingKind::NodeWithoutInstance).isEmpty());
    QVERIFY(!findingIds(a, FindingKind::NodeNotReady).isEmpty());
    // It is partial (a cell did not answer): nothing is a ghost either.
    KlusterState partial = withGhost(true).state();
    partial.serversSource.incomplete = QStringLiteral("1 server without details");
    QVERIFY(findingIds(Diagnosis::run(partial), FindingKind::NodeWithoutInstance).isEmpty());
}

QTEST_GUILESS_MAIN(TestNodeFindings)
#include "tst_nodefindings.moc"
