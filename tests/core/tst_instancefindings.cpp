#include "core/checkreport.h"
#include "core/diagnosis.h"
#include "tests/common/findingassert.h"
#include "tests/common/worldbuilder.h"

#include <QJsonArray>
#include <QTest>
#include <QTimeZone>

// instance-unregistered, instance-error, instance-missing-security-group and
// the providerID disagreement, with their edges.
class TestInstanceFindings : public QObject
{
    Q_OBJECT
private slots:
    void healthyMemberHasNoFinding();
    void unregisteredThresholds_data();
    void unregisteredThresholds();
    void customTimeouts();
    void errorIsOnlyInstanceError();
    void errorBeingDeletedIsNoFinding();
    void legacyNamesBelongToKluster();
    void foreignNamesAreIgnored();
    void agesAgainstCapturedAtNotWallClock();
    void missingSecurityGroup();
    void missingSecurityGroupOnlyWhenActive();
    void noMembershipFindingsWhenGroupAmbiguous();
    void providerIdDisagreement();
    void unknownNodeSourceSkipsUnregistered();
    void stoppedWithNodesUnknownIsNotDowngraded();
    void errorByStatusWithoutVmState();
    void emptyNodeListMessageWarnsAgainstDeleting();
    void lostNodeIsNotNeverJoined();
    void stopped_data();
    void stopped();
    void stoppedNodeIsNotAlsoNotReady();
    void stoppedWithoutVmState();
};

void TestInstanceFindings::healthyMemberHasNoFinding()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 1);
    w.healthyMember(
        QStringLiteral("kks-demo-pool-abcde"), QStringLiteral("10.0.0.5"), QStringLiteral("100.100.1.0/24"));
    const Diagnosis d = Diagnosis::run(w.state());
    QVERIFY2(d.findings.isEmpty(), qPrintable(findingIds(d).join(QLatin1Char(','))));
}

void TestInstanceFindings::unregisteredThresholds_data()
{
    QTest::addColumn<double>("ageMinutes");
    QTest::addColumn<QString>("severity");
    QTest::newRow("young: not there yet") << 9.9 << "";
    QTest::newRow("exactly the startup timeout") << 10.0 << "warning";
    QTest::newRow("between") << 29.0 << "warning";
    QTest::newRow("token expired") << 30.0 << "critical";
    QTest::newRow("Kubernikus would delete it") << 50.0 << "critical";
}

void TestInstanceFindings::unregisteredThresholds()
{
    QFETCH(double, ageMinutes);
    QFETCH(QString, severity);
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 2);
    w.healthyMember(
        QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), QStringLiteral("100.100.4.0/24"));
    w.server(QStringLiteral("kks-demo-pool-x7k2p"), QStringLiteral("10.0.0.5"), ageMinutes);
    const Diagnosis d = Diagnosis::run(w.state());
    const Finding *f = d.find(QStringLiteral("instance-unregistered:kks-demo-pool-x7k2p"));
    if (severity.isEmpty()) {
        QVERIFY(!f);
        QVERIFY(d.findings.isEmpty());
        return;
    }
    QVERIFY(f);
    QCOMPARE(severityName(f->severity), severity);
    QVERIFY(f->repair());
    QCOMPARE(f->repair()->requests.size(), 1);
    QCOMPARE(f->repair()->requests.first().method, QStringLiteral("DELETE"));
    QCOMPARE(f->repair()->requests.first().path,
        QStringLiteral("/servers/") + w.serverId(QStringLiteral("kks-demo-pool-x7k2p")));
    QCOMPARE(f->evidence()
                 .value(QStringLiteral("instance"))
                 .toObject()
                 .value(QStringLiteral("ageSeconds"))
                 .toInt(),
        int(ageMinutes * 60));
}

void TestInstanceFindings::customTimeouts()
{
    WorldBuilder w;
    w.server(QStringLiteral("kks-demo-pool-x7k2p"), QStringLiteral("10.0.0.5"), 6);
    DiagnosisOptions o;
    o.startupTimeoutSeconds = 5 * 60;
    o.tokenExpirySeconds = 6 * 60;
    const Diagnosis d = Diagnosis::run(w.state(), o);
    QCOMPARE(
        d.find(QStringLiteral("instance-unregistered:kks-demo-pool-x7k2p"))->severity, Severity::Critical);
    const Diagnosis defaults = Diagnosis::run(w.state());
    QVERIFY(!defaults.find(QStringLiteral("instance-unregistered:kks-demo-pool-x7k2p")));
}

void TestInstanceFindings::errorIsOnlyInstanceError()
{
    WorldBuilder w;
    w.server(QStringLiteral("kks-demo-pool-t5y6u"), QStringLiteral("10.0.0.6"), 120, QStringLiteral("ERROR"));
    const Diagnosis d = Diagnosis::run(w.state());
    QCOMPARE(findingIds(d), QStringList { QStringLiteral("instance-error:kks-demo-pool-t5y6u") });
    QCOMPARE(d.findings.first().severity, Severity::Critical);
    QCOMPARE(d.findings.first().repair()->requests.first().method, QStringLiteral("DELETE"));
}

void TestInstanceFindings::errorBeingDeletedIsNoFinding()
{
    WorldBuilder w;
    const int i = w.server(
        QStringLiteral("kks-demo-pool-t5y6u"), QStringLiteral("10.0.0.6"), 120, QStringLiteral("ERROR"));
    w.serverAt(i).insert(QStringLiteral("OS-EXT-STS:task_state"), QStringLiteral("deleting"));
    const int j = w.server(QStringLiteral("kks-demo-pool-u7i8o"), QStringLiteral("10.0.0.7"), 120);
    w.serverAt(j).insert(QStringLiteral("OS-EXT-STS:task_state"), QStringLiteral("deleting"));
    const Diagnosis d = Diagnosis::run(w.state());
    QVERIFY2(d.findings.isEmpty(), qPrintable(findingIds(d).join(QLatin1Char(','))));
}

void TestInstanceFindings::legacyNamesBelongToKluster()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 2);
    w.server(QStringLiteral("demo-pool-r3s4d"), QStringLiteral("10.0.0.5"), 60);
    w.server(QStringLiteral("kks-demo-pool-r3s4e"), QStringLiteral("10.0.0.6"), 60);
    const Diagnosis d = Diagnosis::run(w.state());
    QCOMPARE(findingIds(d),
        (QStringList { QStringLiteral("instance-unregistered:demo-pool-r3s4d"),
            QStringLiteral("instance-unregistered:kks-demo-pool-r3s4e") }));
}

void TestInstanceFindings::foreignNamesAreIgnored()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 1);
    w.server(QStringLiteral("kks-other-pool-r3s4d"), QString(), 60); // another kluster
    w.server(QStringLiteral("kks-demo-gpu-r3s4d"), QString(), 60); // a pool the kluster does not have
    w.server(QStringLiteral("kks-demo-pool-R3S4D"), QString(), 60); // not lowercase
    w.server(QStringLiteral("kks-demo-pool-r3s4"), QString(), 60); // four characters
    w.server(QStringLiteral("kks-demo-pool-r3s4dd"), QString(), 60); // six characters
    w.server(QStringLiteral("jumphost"), QString(), 60, QStringLiteral("ACTIVE"), {});
    const Diagnosis d = Diagnosis::run(w.state());
    QVERIFY2(d.findings.isEmpty(), qPrintable(findingIds(d).join(QLatin1Char(','))));
}

void TestInstanceFindings::agesAgainstCapturedAtNotWallClock()
{
    // Captured years ago: against the wall clock this instance would be ancient.
    WorldBuilder w;
    w.capturedAt(QDateTime(QDate(2020, 1, 1), QTime(12, 0), QTimeZone::utc()));
    w.server(QStringLiteral("kks-demo-pool-x7k2p"), QStringLiteral("10.0.0.5"), 5);
    QVERIFY(Diagnosis::run(w.state()).findings.isEmpty());
    // And one captured in the future is judged against its own instant too.
    WorldBuilder later;
    later.capturedAt(QDateTime(QDate(2090, 1, 1), QTime(12, 0), QTimeZone::utc()));
    later.server(QStringLiteral("kks-demo-pool-x7k2p"), QStringLiteral("10.0.0.5"), 15);
    const Diagnosis d = Diagnosis::run(later.state());
    QCOMPARE(
        d.find(QStringLiteral("instance-unregistered:kks-demo-pool-x7k2p"))->severity, Severity::Warning);
}

void TestInstanceFindings::missingSecurityGroup()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 2);
    w.server(QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), 60 * 24,
        QStringLiteral("ACTIVE"), {});
    w.node(
        QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), QStringLiteral("100.100.4.0/24"));
    w.route(QStringLiteral("100.100.4.0/24"), QStringLiteral("10.0.0.4"));
    w.server(QStringLiteral("kks-demo-pool-bbbbb"), QStringLiteral("10.0.0.5"), 60 * 24,
        QStringLiteral("ACTIVE"), { QStringLiteral("default") });
    w.node(
        QStringLiteral("kks-demo-pool-bbbbb"), QStringLiteral("10.0.0.5"), QStringLiteral("100.100.5.0/24"));
    w.route(QStringLiteral("100.100.5.0/24"), QStringLiteral("10.0.0.5"));
    const Diagnosis d = Diagnosis::run(w.state());
    QCOMPARE(findingIds(d),
        (QStringList { QStringLiteral("instance-missing-security-group:kks-demo-pool-aaaaa"),
            QStringLiteral("instance-missing-security-group:kks-demo-pool-bbbbb") }));
    const Finding *f = d.find(QStringLiteral("instance-missing-security-group:kks-demo-pool-aaaaa"));
    QCOMPARE(f->severity, Severity::Critical);
    const PlannedRequest r = f->repair()->requests.first();
    QCOMPARE(r.service, QStringLiteral("compute"));
    QCOMPARE(r.method, QStringLiteral("POST"));
    QCOMPARE(
        r.path, QStringLiteral("/servers/%1/action").arg(w.serverId(QStringLiteral("kks-demo-pool-aaaaa"))));
    QCOMPARE(r.body.toObject()
                 .value(QStringLiteral("addSecurityGroup"))
                 .toObject()
                 .value(QStringLiteral("name"))
                 .toString(),
        QStringLiteral("kks-sg"));
}

void TestInstanceFindings::missingSecurityGroupOnlyWhenActive()
{
    WorldBuilder w;
    w.server(
        QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), 5, QStringLiteral("BUILD"), {});
    w.server(
        QStringLiteral("kks-demo-pool-bbbbb"), QStringLiteral("10.0.0.5"), 5, QStringLiteral("SHUTOFF"), {});
    QVERIFY(Diagnosis::run(w.state()).findings.isEmpty());
}

void TestInstanceFindings::noMembershipFindingsWhenGroupAmbiguous()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 1);
    w.group(QStringLiteral("kks-sg")); // a second group with the kluster's group name
    w.server(QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), 60 * 24,
        QStringLiteral("ACTIVE"), {});
    w.node(
        QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), QStringLiteral("100.100.4.0/24"));
    w.route(QStringLiteral("100.100.4.0/24"), QStringLiteral("10.0.0.4"));
    const Diagnosis d = Diagnosis::run(w.state());
    QCOMPARE(findingIds(d), QStringList { QStringLiteral("security-group-missing:kks-sg") });
}

void TestInstanceFindings::providerIdDisagreement()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 1);
    w.healthyMember(
        QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), QStringLiteral("100.100.4.0/24"));
    QJsonObject spec = w.nodeAt(0).value(QStringLiteral("spec")).toObject();
    spec.insert(
        QStringLiteral("providerID"), QStringLiteral("openstack:///00000000-0000-0000-0000-000000000000"));
    w.nodeAt(0).insert(QStringLiteral("spec"), spec);
    const Diagnosis d = Diagnosis::run(w.state());
    // Not a finding kind of diagnosis.md: a note.
    QVERIFY(d.findings.isEmpty());
    QCOMPARE(d.notes.size(), 1);
    QVERIFY(d.notes.first().contains(QStringLiteral("providerID")));
}

void TestInstanceFindings::unknownNodeSourceSkipsUnregistered()
{
    WorldBuilder w;
    w.server(QStringLiteral("kks-demo-pool-x7k2p"), QStringLiteral("10.0.0.5"), 60);
    KlusterState s = w.state();
    s.nodesSource.known = false;
    s.nodesSource.error = QStringLiteral("GET /api/v1/nodes: 503");
    const Diagnosis d = Diagnosis::run(s);
    QVERIFY(findingIds(d, FindingKind::InstanceUnregistered).isEmpty());
    QVERIFY(!d.notDiagnosed.isEmpty());
    QCOMPARE(d.budget.reason, Refusal::NoEvidence);
}

// The Kubernetes API timed out: a SHUTOFF instance whose node was there keeps its critical instance-stopped
// (it fell to a warning that said "has no node … it will not join"), its words say the nodes are unknown,
// and the text report's header says "node(s) unknown", never 0.
void TestInstanceFindings::stoppedWithNodesUnknownIsNotDowngraded()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 2);
    const QString name = QStringLiteral("kks-demo-pool-s70p5");
    w.server(name, QStringLiteral("10.0.0.5"), 600, QStringLiteral("SHUTOFF"));
    w.node(name, QStringLiteral("10.0.0.5"), QStringLiteral("100.100.5.0/24"), QStringLiteral("Unknown"));
    KlusterState s = w.state();
    QCOMPARE(
        Diagnosis::run(s).find(QStringLiteral("instance-stopped:") + name)->severity, Severity::Critical);
    s.nodesSource.known = false;
    s.nodesSource.error = QStringLiteral("GET /api/v1/nodes: no answer within 30 s");
    s.nodes.clear();
    const Diagnosis d = Diagnosis::run(s);
    const Finding *f = d.find(QStringLiteral("instance-stopped:") + name);
    QVERIFY(f);
    QCOMPARE(f->severity, Severity::Critical);
    QVERIFY2(
        f->message().contains(QStringLiteral("Whether it is a node is not known")), qPrintable(f->message()));
    QVERIFY(!f->message().contains(QStringLiteral("has no node")));
    const QString text = QString::fromUtf8(CheckReport::toText(s, d));
    QVERIFY2(text.contains(QStringLiteral("node(s) unknown")), qPrintable(text.left(400)));
    QVERIFY(!text.contains(QStringLiteral("0 node(s)")));
}

void TestInstanceFindings::errorByStatusWithoutVmState()
{
    WorldBuilder w;
    const int i = w.server(
        QStringLiteral("kks-demo-pool-t5y6u"), QStringLiteral("10.0.0.6"), 120, QStringLiteral("ERROR"));
    w.serverAt(i).remove(QStringLiteral("OS-EXT-STS:vm_state")); // not shown by policy
    const Diagnosis d = Diagnosis::run(w.state());
    QCOMPARE(findingIds(d), QStringList { QStringLiteral("instance-error:kks-demo-pool-t5y6u") });
}

void TestInstanceFindings::emptyNodeListMessageWarnsAgainstDeleting()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 1);
    w.server(QStringLiteral("kks-demo-pool-x7k2p"), QStringLiteral("10.0.0.5"), 60);
    const Diagnosis d = Diagnosis::run(w.state());
    const Finding *f = d.find(QStringLiteral("instance-unregistered:kks-demo-pool-x7k2p"));
    QVERIFY(f);
    QVERIFY2(
        f->message().contains(QStringLiteral("check the Kubernetes API first")), qPrintable(f->message()));
    QCOMPARE(d.budget.reason, Refusal::NoEvidence);
}

void TestInstanceFindings::lostNodeIsNotNeverJoined()
{
    // 15 min old (past the startup timeout, long before the token expires), no node, and the router still
    // routes a pod CIDR to it: it was a node and lost it.
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 2);
    w.healthyMember(
        QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), QStringLiteral("100.100.4.0/24"));
    w.server(QStringLiteral("kks-demo-pool-lllll"), QStringLiteral("10.0.0.7"), 15);
    w.route(QStringLiteral("100.100.7.0/24"), QStringLiteral("10.0.0.7"));
    const Diagnosis d = Diagnosis::run(w.state());
    QCOMPARE(findingIds(d),
        (QStringList { QStringLiteral("instance-unregistered:kks-demo-pool-lllll"),
            QStringLiteral("route-unassigned:100.100.7.0/24 via 10.0.0.7") }));
    const Finding *f = d.find(QStringLiteral("instance-unregistered:kks-demo-pool-lllll"));
    QCOMPARE(f->severity, Severity::Critical);
    QVERIFY2(f->message().contains(
                 QStringLiteral("its node is gone; the router still routes 100.100.7.0/24 to it")),
        qPrintable(f->message()));
    QVERIFY(!f->message().contains(QStringLiteral("never registered")));
    QCOMPARE(f->evidence().value(QStringLiteral("routedPodCIDRs")).toArray(),
        QJsonArray { QStringLiteral("100.100.7.0/24") });
    // Without the route it is an instance that has not joined yet: a warning, as before.
    WorldBuilder plain;
    plain.pool(QStringLiteral("pool"), 1);
    plain.server(QStringLiteral("kks-demo-pool-lllll"), QStringLiteral("10.0.0.7"), 15);
    const Diagnosis p = Diagnosis::run(plain.state());
    const Finding *g = p.find(QStringLiteral("instance-unregistered:kks-demo-pool-lllll"));
    QVERIFY(g);
    QCOMPARE(g->severity, Severity::Warning);
    QCOMPARE(g->evidence().value(QStringLiteral("routedPodCIDRs")).toArray(), QJsonArray());
}

// instance-stopped (diagnosis.md §2, §3): SHUTOFF, SUSPENDED or PAUSED with no task under way, older than the
// startup timeout; critical with a node, warning without; started again, never deleted.
void TestInstanceFindings::stopped_data()
{
    QTest::addColumn<QString>("status");
    QTest::addColumn<bool>("withNode");
    QTest::addColumn<QString>("taskState");
    QTest::addColumn<double>("ageMinutes");
    QTest::addColumn<QString>("severity"); // empty: no finding
    QTest::addColumn<QString>("action");
    QTest::newRow("SHUTOFF with a node") << "SHUTOFF" << true << "" << 600.0 << "critical"
                                         << "os-start";
    QTest::newRow("SHUTOFF without a node") << "SHUTOFF" << false << "" << 600.0 << "warning"
                                            << "os-start";
    QTest::newRow("SUSPENDED") << "SUSPENDED" << true << "" << 600.0 << "critical"
                               << "resume";
    QTest::newRow("PAUSED") << "PAUSED" << false << "" << 600.0 << "warning"
                            << "unpause";
    QTest::newRow("stopping now") << "ACTIVE" << true << "powering-off" << 600.0 << ""
                                  << "";
    QTest::newRow("being started") << "SHUTOFF" << true << "powering-on" << 600.0 << ""
                                   << "";
    QTest::newRow("younger than the startup timeout") << "SHUTOFF" << false << "" << 9.0 << ""
                                                      << "";
    QTest::newRow("exactly the startup timeout") << "SHUTOFF" << false << "" << 10.0 << "warning"
                                                 << "os-start";
}

void TestInstanceFindings::stopped()
{
    QFETCH(QString, status);
    QFETCH(bool, withNode);
    QFETCH(QString, taskState);
    QFETCH(double, ageMinutes);
    QFETCH(QString, severity);
    QFETCH(QString, action);
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 2);
    w.healthyMember(
        QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), QStringLiteral("100.100.4.0/24"));
    const QString name = QStringLiteral("kks-demo-pool-s70p5");
    const int i = w.server(name, QStringLiteral("10.0.0.5"), ageMinutes, status);
    if (!taskState.isEmpty())
        w.serverAt(i).insert(QStringLiteral("OS-EXT-STS:task_state"), taskState);
    if (withNode) {
        w.node(name, QStringLiteral("10.0.0.5"), QStringLiteral("100.100.5.0/24"), QStringLiteral("Unknown"));
        w.route(QStringLiteral("100.100.5.0/24"), QStringLiteral("10.0.0.5"));
    }
    const Diagnosis d = Diagnosis::run(w.state());
    const Finding *f = d.find(QStringLiteral("instance-stopped:") + name);
    // Never also unregistered: a stopped instance is why it has no node.
    QVERIFY(!d.find(QStringLiteral("instance-unregistered:") + name));
    if (severity.isEmpty()) {
        QVERIFY2(!f, qPrintable(findingIds(d).join(QLatin1Char(','))));
        return;
    }
    QVERIFY2(f, qPrintable(findingIds(d).join(QLatin1Char(','))));
    QCOMPARE(severityName(f->severity), severity);
    QVERIFY(f->message().contains(status));
    QVERIFY(f->message().contains(QStringLiteral("nothing is deleted")));
    const std::optional<RepairPlan> plan = f->repair();
    QVERIFY(plan);
    QCOMPARE(plan->action, RepairPlan::Action::StartInstance);
    QVERIFY(!plan->deletes());
    QCOMPARE(plan->requests.size(), 1);
    const PlannedRequest &r = plan->requests.first();
    QCOMPARE(r.service, QStringLiteral("compute"));
    QCOMPARE(r.method, QStringLiteral("POST"));
    QCOMPARE(r.path, QStringLiteral("/servers/%1/action").arg(w.serverId(name)));
    QCOMPARE(r.body.toObject(), (QJsonObject { { action, QJsonValue::Null } }));
    QCOMPARE(f->evidence().value(QStringLiteral("node")).toString(), withNode ? name : QString());
    QCOMPARE(f->affected().nodes, withNode ? QStringList { name } : QStringList());
}

void TestInstanceFindings::stoppedNodeIsNotAlsoNotReady()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 1);
    const QString name = QStringLiteral("kks-demo-pool-s70p5");
    w.server(name, QStringLiteral("10.0.0.5"), 600, QStringLiteral("SHUTOFF"));
    const int n = w.node(
        name, QStringLiteral("10.0.0.5"), QStringLiteral("100.100.5.0/24"), QStringLiteral("Unknown"));
    w.setCondition(
        n, QStringLiteral("Ready"), QStringLiteral("Unknown"), QStringLiteral("NodeStatusUnknown"), 30);
    w.route(QStringLiteral("100.100.5.0/24"), QStringLiteral("10.0.0.5"));
    const Diagnosis d = Diagnosis::run(w.state());
    QCOMPARE(findingIds(d), QStringList { QStringLiteral("instance-stopped:") + name });
    QCOMPARE(d.findings.first().severity, Severity::Critical);
    QVERIFY(d.findings.first().message().contains(QStringLiteral("its node %1 is lost").arg(name)));
}

void TestInstanceFindings::stoppedWithoutVmState()
{
    WorldBuilder w;
    const int i = w.server(QStringLiteral("kks-demo-pool-s70p5"), QStringLiteral("10.0.0.5"), 600,
        QStringLiteral("SHUTOFF"), { QStringLiteral("kks-sg") });
    w.serverAt(i).remove(QStringLiteral("OS-EXT-STS:vm_state")); // not shown by policy
    const Diagnosis d = Diagnosis::run(w.state());
    QCOMPARE(findingIds(d), QStringList { QStringLiteral("instance-stopped:kks-demo-pool-s70p5") });
    QCOMPARE(d.findings.first().severity, Severity::Warning);
}

QTEST_GUILESS_MAIN(TestInstanceFindings)
#include "tst_instancefindings.moc"
