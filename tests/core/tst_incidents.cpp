// diagnosis.md §5 as a table of worlds: each rule's incident, its members and repair, and what makes none
// (one member, the node lifecycle controller's thresholds not met, a source partial), and the rules' order.

#include "core/checkreport.h"
#include "core/diagnosis.h"
#include "core/repairgate.h"
#include "core/repairplanner.h"
#include "tests/common/worldbuilder.h"

#include <QJsonArray>
#include <QTest>

namespace {

QStringList ids(const Diagnosis &d)
{
    QStringList out;
    for (const Incident &i : d.incidents)
        out << i.id();
    return out;
}

} // namespace

class TestIncidents : public QObject
{
    Q_OBJECT
private slots:
    void recycledPodCidr();
    void oneMemberIsNoIncident();
    void zoneOutage_data();
    void zoneOutage();
    void zoneWithoutLabelsUsesNova();
    void securityGroupDetached();
    void podNetworkClosed();
    void routerFull();
    void routerFullWithNothingToFreeOffersNoRepair();
    void routerFullRepairLinearWithoutAtomicRoutes_data();
    void routerFullRepairLinearWithoutAtomicRoutes();
    void recycledClaimsBeforeTheDetachedGroup();
    void partialSourceMakesNone();
    void noDeletionInADisruptedZone();
};

// While zone az-1 is down, its unregistered instance is not deleted (ZoneDisruption; one alone with the
// override), though the budget allows deletions; an instance of a healthy zone still may be; the budget's
// own verdict and JSON are unchanged.
void TestIncidents::noDeletionInADisruptedZone()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 10); // 3 of 10 expected unhealthy: within the budget (4)
    for (int n = 0; n < 10; ++n) {
        const QString name = QStringLiteral("kks-demo-pool-n%1xxx").arg(n);
        const QString ip = QStringLiteral("10.0.0.%1").arg(10 + n);
        const QString cidr = QStringLiteral("100.100.%1.0/24").arg(10 + n);
        const int s = w.server(name, ip, 600);
        const int k = w.node(name, ip, cidr, n < 3 ? QStringLiteral("Unknown") : QStringLiteral("True"));
        w.route(cidr, ip);
        w.inZone(s, k, n < 3 ? QStringLiteral("az-1") : QStringLiteral("az-2"));
    }
    const int lost = w.server(QStringLiteral("kks-demo-pool-lostx"), QStringLiteral("10.0.0.40"), 600);
    w.serverAt(lost).insert(QStringLiteral("OS-EXT-AZ:availability_zone"), QStringLiteral("az-1"));
    const int other = w.server(QStringLiteral("kks-demo-pool-othrx"), QStringLiteral("10.0.0.41"), 600);
    w.serverAt(other).insert(QStringLiteral("OS-EXT-AZ:availability_zone"), QStringLiteral("az-2"));
    const Diagnosis d = Diagnosis::run(w.state());
    QCOMPARE(ids(d), QStringList { QStringLiteral("zone-outage:az-1") });
    QVERIFY(d.budget.deletionsAllowed);
    QCOMPARE(d.budget.disruptedZones, QStringList { QStringLiteral("az-1") });
    QVERIFY(!d.budget.toJson().contains(QStringLiteral("disruptedZones")));
    const Finding *inZoneA = d.find(QStringLiteral("instance-unregistered:kks-demo-pool-lostx"));
    const Finding *inZoneB = d.find(QStringLiteral("instance-unregistered:kks-demo-pool-othrx"));
    QVERIFY(inZoneA && inZoneB);
    QCOMPARE(d.incidentOf(inZoneA->id())->rule, IncidentRule::ZoneOutage);
    QVERIFY(inZoneA->repair() && inZoneA->repair()->deletesInstance());
    const RepairGate::Decision a = RepairGate::judge(*inZoneA, inZoneA->repair(), d.budget);
    QCOMPARE(a.verdict, RepairGate::Verdict::NeedsOverride);
    QCOMPARE(a.reason, Refusal::ZoneDisruption);
    QVERIFY(a.detail.contains(QStringLiteral("az-1")));
    const RepairGate::Decision b = RepairGate::judge(*inZoneB, inZoneB->repair(), d.budget);
    QCOMPARE(b.verdict, RepairGate::Verdict::Sendable);
    // Chosen together: the one in the disrupted zone is refused outright, the other goes.
    const RepairGate gate({ inZoneA, inZoneB }, d.budget);
    QCOMPARE(gate.sendable(), QStringList { inZoneB->id() });
}

// Node b got a's old pod CIDR: the router still sends it to a (whose node is gone), b's route is missing, its
// network unavailable: one incident, one route change (removal first), its members in the findings' order.
void TestIncidents::recycledPodCidr()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 3);
    w.healthyMember(
        QStringLiteral("kks-demo-pool-ccccc"), QStringLiteral("10.0.0.6"), QStringLiteral("100.100.6.0/24"));
    w.server(QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), 600); // lost its node
    w.server(QStringLiteral("kks-demo-pool-bbbbb"), QStringLiteral("10.0.0.5"), 600);
    const int b = w.node(
        QStringLiteral("kks-demo-pool-bbbbb"), QStringLiteral("10.0.0.5"), QStringLiteral("100.100.4.0/24"));
    w.setCondition(
        b, QStringLiteral("NetworkUnavailable"), QStringLiteral("True"), QStringLiteral("NoRouteCreated"));
    w.route(QStringLiteral("100.100.4.0/24"), QStringLiteral("10.0.0.4"));
    const Diagnosis d = Diagnosis::run(w.state());
    QCOMPARE(ids(d), QStringList { QStringLiteral("recycled-pod-cidr:100.100.4.0/24") });
    const Incident &i = d.incidents.first();
    QCOMPARE(i.severity, Severity::Critical);
    QVERIFY2(i.members.contains(QStringLiteral("route-missing:kks-demo-pool-bbbbb"))
            && i.members.contains(QStringLiteral("node-network-unavailable:kks-demo-pool-bbbbb"))
            && i.members.contains(QStringLiteral("instance-unregistered:kks-demo-pool-aaaaa")),
        qPrintable(i.members.join(QLatin1Char(','))));
    QVERIFY(i.title.contains(QStringLiteral("routed to 10.0.0.4")));
    // In the order of the findings, each marked.
    QStringList order;
    for (const Finding &f : d.findings) {
        if (i.members.contains(f.id()))
            order << f.id();
        QCOMPARE(d.incidentOf(f.id()) != nullptr, i.members.contains(f.id()));
    }
    QCOMPARE(i.members, order);
    // One change: the wrong route out, the right one in.
    const std::optional<RepairPlan> plan = i.repair();
    QVERIFY(plan);
    QCOMPARE(plan->action, RepairPlan::Action::ChangeRoutes);
    QCOMPARE(plan->routes.size(), 1);
    QCOMPARE(plan->routes.first().nexthop, QStringLiteral("10.0.0.4"));
    QCOMPARE(plan->addedRoutes.size(), 1);
    QCOMPARE(plan->addedRoutes.first().nexthop, QStringLiteral("10.0.0.5"));
    // The members keep their own repairs.
    QVERIFY(d.find(QStringLiteral("route-missing:kks-demo-pool-bbbbb"))->repair());
}

void TestIncidents::oneMemberIsNoIncident()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 2);
    w.healthyMember(
        QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), QStringLiteral("100.100.4.0/24"));
    w.healthyMember(
        QStringLiteral("kks-demo-pool-bbbbb"), QStringLiteral("10.0.0.5"), QStringLiteral("100.100.5.0/24"));
    w.route(QStringLiteral("100.100.4.0/24"), QStringLiteral("10.0.0.5")); // a duplicate: one finding
    const Diagnosis d = Diagnosis::run(w.state());
    QVERIFY(!d.findings.isEmpty());
    QVERIFY2(d.incidents.isEmpty(), qPrintable(ids(d).join(QLatin1Char(','))));
}

void TestIncidents::zoneOutage_data()
{
    QTest::addColumn<int>("nodes");
    QTest::addColumn<int>("notReady");
    QTest::addColumn<bool>("incident");
    QTest::newRow("2 of 3: no outage") << 3 << 2 << false;
    QTest::newRow("3 of 5: partial") << 5 << 3 << true;
    QTest::newRow("3 of 6: under 55 %") << 6 << 3 << false;
    QTest::newRow("2 of 2: full") << 2 << 2 << true;
    QTest::newRow("1 of 1: full, one member") << 1 << 1 << false;
}

void TestIncidents::zoneOutage()
{
    QFETCH(int, nodes);
    QFETCH(int, notReady);
    QFETCH(bool, incident);
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), nodes + 1);
    // Another zone, healthy.
    w.healthyMember(
        QStringLiteral("kks-demo-pool-zzzzz"), QStringLiteral("10.0.1.9"), QStringLiteral("100.100.99.0/24"));
    w.inZone(0, 0, QStringLiteral("eu-de-1a"));
    for (int n = 0; n < nodes; ++n) {
        const QString name = QStringLiteral("kks-demo-pool-n%1xxx").arg(n);
        const QString ip = QStringLiteral("10.0.0.%1").arg(10 + n);
        const QString cidr = QStringLiteral("100.100.%1.0/24").arg(10 + n);
        const int s = w.server(name, ip, 600);
        const int k
            = w.node(name, ip, cidr, n < notReady ? QStringLiteral("Unknown") : QStringLiteral("True"));
        w.route(cidr, ip);
        w.inZone(s, k, QStringLiteral("eu-de-1b"));
    }
    const Diagnosis d = Diagnosis::run(w.state());
    if (!incident) {
        QVERIFY2(d.incidents.isEmpty(), qPrintable(ids(d).join(QLatin1Char(','))));
        return;
    }
    QCOMPARE(ids(d), QStringList { QStringLiteral("zone-outage:eu-de-1b") });
    QCOMPARE(d.incidents.first().members.size(), notReady);
    QCOMPARE(d.incidents.first().title,
        QStringLiteral("Zone eu-de-1b: %1 of %2 nodes NotReady").arg(notReady).arg(nodes));
    QVERIFY(!d.incidents.first().repair()); // the zone is down, not the nodes
}

// Without a zone label, a node is in its instance's Nova zone.
void TestIncidents::zoneWithoutLabelsUsesNova()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 2);
    for (int n = 0; n < 2; ++n) {
        const QString name = QStringLiteral("kks-demo-pool-n%1xxx").arg(n);
        const int s = w.server(name, QStringLiteral("10.0.0.%1").arg(10 + n), 600);
        w.node(name, QStringLiteral("10.0.0.%1").arg(10 + n), QStringLiteral("100.100.%1.0/24").arg(10 + n),
            QStringLiteral("False"));
        w.route(QStringLiteral("100.100.%1.0/24").arg(10 + n), QStringLiteral("10.0.0.%1").arg(10 + n));
        w.serverAt(s).insert(QStringLiteral("OS-EXT-AZ:availability_zone"), QStringLiteral("az-2"));
    }
    const Diagnosis d = Diagnosis::run(w.state());
    QCOMPARE(ids(d), QStringList { QStringLiteral("zone-outage:az-2") });
}

void TestIncidents::securityGroupDetached()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 3);
    w.healthyMember(
        QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), QStringLiteral("100.100.4.0/24"));
    w.healthyMember(
        QStringLiteral("kks-demo-pool-bbbbb"), QStringLiteral("10.0.0.5"), QStringLiteral("100.100.5.0/24"));
    w.server(
        QStringLiteral("kks-demo-pool-ccccc"), QStringLiteral("10.0.0.6"), 600, QStringLiteral("ACTIVE"), {});
    w.serverAt(0).remove(QStringLiteral("security_groups"));
    const Diagnosis d = Diagnosis::run(w.state());
    QCOMPARE(ids(d), QStringList { QStringLiteral("security-group-detached:kks-sg") });
    const Incident &i = d.incidents.first();
    QVERIFY2(i.members.contains(QStringLiteral("instance-missing-security-group:kks-demo-pool-aaaaa"))
            && i.members.contains(QStringLiteral("instance-missing-security-group:kks-demo-pool-ccccc"))
            && i.members.contains(QStringLiteral("instance-unregistered:kks-demo-pool-ccccc")),
        qPrintable(i.members.join(QLatin1Char(','))));
    QVERIFY2(i.title.startsWith(QStringLiteral("kks-sg missing from 2 instance(s) (1 never registered")),
        qPrintable(i.title));
    QVERIFY(i.repair());
    QCOMPARE(i.repair()->requests.size(), 2); // one addSecurityGroup each
}

void TestIncidents::podNetworkClosed()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 1);
    w.healthyMember(
        QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), QStringLiteral("100.100.4.0/24"));
    w.clearGroups();
    const int g = w.group(QStringLiteral("kks-sg"));
    w.rule(g, QStringLiteral("icmp"), QStringLiteral("100.100.0.0/16"));
    const Diagnosis d = Diagnosis::run(w.state());
    QCOMPARE(ids(d), QStringList { QStringLiteral("pod-network-closed:kks-sg") });
    QCOMPARE(d.incidents.first().members,
        (QStringList { QStringLiteral("security-group-rule-missing:tcp"),
            QStringLiteral("security-group-rule-missing:udp") }));
    QVERIFY(d.incidents.first().repair());
    QCOMPARE(d.incidents.first().repair()->requests.size(), 2);
}

// A full router and routes still missing: the limit and the missing routes, one change over all of them.
void TestIncidents::routerFull()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 4);
    w.maxRoutes(3);
    w.healthyMember(
        QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), QStringLiteral("100.100.4.0/24"));
    w.route(QStringLiteral("100.100.7.0/24"), QStringLiteral("10.0.0.99")); // orphaned: a slot to free
    w.route(QStringLiteral("192.168.0.0/24"), QStringLiteral("10.0.0.1")); // foreign
    for (const QString &name :
        { QStringLiteral("kks-demo-pool-bbbbb"), QStringLiteral("kks-demo-pool-ccccc") }) {
        const QString ip
            = name.endsWith(QLatin1Char('b')) ? QStringLiteral("10.0.0.5") : QStringLiteral("10.0.0.6");
        const QString cidr = name.endsWith(QLatin1Char('b')) ? QStringLiteral("100.100.5.0/24")
                                                             : QStringLiteral("100.100.6.0/24");
        w.server(name, ip, 600);
        w.node(name, ip, cidr);
    }
    const Diagnosis d
        = Diagnosis::run(w.stateOpenFor(60)); // routegc overdue: the orphan's removal frees the slot
    QVERIFY2(ids(d).contains(QStringLiteral("router-full:%1").arg(w.routerId())),
        qPrintable(ids(d).join(QLatin1Char(','))));
    const Incident *i = d.incidentOf(QStringLiteral("route-limit:%1").arg(w.routerId()));
    QVERIFY(i);
    QVERIFY(i->members.contains(QStringLiteral("route-missing:kks-demo-pool-bbbbb")));
    QVERIFY(i->members.contains(QStringLiteral("route-missing:kks-demo-pool-ccccc")));
    QVERIFY(i->repair());
    QCOMPARE(i->repair()->action, RepairPlan::Action::ChangeRoutes);
}

// A full router whose routes are all right (its own and others'): no slot can be freed, so its missing routes
// cannot go in. No repair is offered that could only be refused ("Nothing can be sent"); its reason says what
// a person must do, and `repair --finding router-full:…` refuses with it.
void TestIncidents::routerFullWithNothingToFreeOffersNoRepair()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 4);
    w.maxRoutes(2);
    w.healthyMember(
        QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), QStringLiteral("100.100.4.0/24"));
    w.route(QStringLiteral("192.168.0.0/24"), QStringLiteral("10.0.0.1")); // another's: not ours to remove
    for (const QString &name :
        { QStringLiteral("kks-demo-pool-bbbbb"), QStringLiteral("kks-demo-pool-ccccc") }) {
        const QString ip
            = name.endsWith(QLatin1Char('b')) ? QStringLiteral("10.0.0.5") : QStringLiteral("10.0.0.6");
        w.server(name, ip, 600);
        w.node(name, ip,
            name.endsWith(QLatin1Char('b')) ? QStringLiteral("100.100.5.0/24")
                                            : QStringLiteral("100.100.6.0/24"));
    }
    const Diagnosis d = Diagnosis::run(w.state());
    const Incident *i = d.incidentOf(QStringLiteral("route-limit:%1").arg(w.routerId()));
    QVERIFY(i);
    QCOMPARE(i->rule, IncidentRule::RouterFull);
    QVERIFY(!i->repair());
    QVERIFY(i->repairFindings().isEmpty());
    QVERIFY2(i->noRepairReason().contains(QStringLiteral("none of its routes is wrong")),
        qPrintable(i->noRepairReason()));
}

void TestIncidents::routerFullRepairLinearWithoutAtomicRoutes_data()
{
    QTest::addColumn<bool>("atomic");
    QTest::addColumn<int>(
        "openMinutes"); // since when the findings are open: Kubernikus' automation overdue or due
    QTest::newRow("full-list PUT") << false << 60;
    QTest::newRow("extraroute-atomic") << true << 60;
    // Kubernikus' automation due, not overdue: the one change waits for the override as a whole, still one
    // change (each finding's own full list, held apart, was the square of the routes).
    QTest::newRow("full-list PUT, automation due") << false << 1;
}

// A router at its limit of 3,000 routes, every one orphaned, and 40 nodes without their route: the
// router-full incident's one change. Without extraroute-atomic each finding's own plan is the router's whole
// list; the incident, the gate and the report must combine them without making each (counted in route entries
// written, not timed): a few times the routes for each of the six ways it is asked for here, not their
// square (9 million before).
void TestIncidents::routerFullRepairLinearWithoutAtomicRoutes()
{
    QFETCH(bool, atomic);
    QFETCH(int, openMinutes);
    constexpr int routes = 3000;
    constexpr int missing = 40;
    WorldBuilder w(QStringLiteral("demo"), QStringLiteral("10.0.0.0/8"));
    w.pool(QStringLiteral("pool"), missing);
    w.maxRoutes(routes).atomicRoutes(atomic).routerRevision(7);
    for (int i = 0; i < routes; ++i)
        w.route(QStringLiteral("10.200.%1.%2/32").arg(i / 250).arg(i % 250),
            QStringLiteral("172.31.%1.%2").arg(i / 250).arg(i % 250 + 1));
    for (int n = 0; n < missing; ++n) {
        const QString name = QStringLiteral("kks-demo-pool-m%1").arg(n, 4, 10, QLatin1Char('0'));
        const QString ip = QStringLiteral("172.16.0.%1").arg(n + 2);
        w.server(name, ip, 600);
        w.node(name, ip, QStringLiteral("10.1.%1.0/24").arg(n));
    }
    // Watched for an hour: routegc is overdue on the orphans, so their removals are not waited for.
    const KlusterState state = w.stateOpenFor(openMinutes);
    const qint64 before = RepairPlanner::routeEntriesWritten();
    const Diagnosis d = Diagnosis::run(state);
    const Incident *full = d.incidentOf(QStringLiteral("route-limit:%1").arg(w.routerId()));
    QVERIFY(full);
    QCOMPARE(full->rule, IncidentRule::RouterFull);
    const std::optional<RepairPlan> plan = full->repair();
    QVERIFY(plan);
    QCOMPARE(plan->action, RepairPlan::Action::ChangeRoutes);
    QCOMPARE(plan->form, PlanForm::Exact);
    QCOMPARE(plan->routes.size(), routes);
    QCOMPARE(plan->addedRoutes.size(), missing);
    QCOMPARE(full->repairFindings().size(), routes + missing);
    if (!atomic) { // one guarded PUT of the final list: the 40 added routes alone
        QCOMPARE(plan->requests.size(), 1);
        QCOMPARE(plan->requests.first()
                     .body.toObject()
                     .value(QStringLiteral("router"))
                     .toObject()
                     .value(QStringLiteral("routes"))
                     .toArray()
                     .size(),
            missing);
        QCOMPARE(plan->requests.first().headers.value(QStringLiteral("If-Match")).toString(),
            QStringLiteral("revision_number=7"));
    }
    // Every route finding of the router chosen together, as "repair all route findings" does.
    const RepairGate gate(RepairGate::routeFindings(d.findings), d.budget);
    QCOMPARE(gate.steps().size(), 1);
    QCOMPARE(gate.steps().first().plan.form, PlanForm::Exact);
    QCOMPARE(gate.steps().first().findingIds.size(), routes + missing);
    for (const RepairGate::Decision &decision : gate.decisions()) {
        QVERIFY(decision.combined);
        QCOMPARE(decision.verdict,
            openMinutes < 60 ? RepairGate::Verdict::NeedsOverride : RepairGate::Verdict::Sendable);
    }
    // The report: each finding's plan (withheld past its bound) and the incident's.
    const QByteArray json = CheckReport::toJson(state, d);
    QVERIFY(json.contains("router-full:"));
    const qint64 written = RepairPlanner::routeEntriesWritten() - before;
    QVERIFY2(written < 20 * routes, qPrintable(QStringLiteral("%1 route entries written").arg(written)));
}

// A node NotReady because its CIDR was recycled belongs to that incident, not to the detached group's.
void TestIncidents::recycledClaimsBeforeTheDetachedGroup()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 3);
    w.server(QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), 600);
    const int s = w.server(
        QStringLiteral("kks-demo-pool-bbbbb"), QStringLiteral("10.0.0.5"), 600, QStringLiteral("ACTIVE"), {});
    Q_UNUSED(s);
    const int b = w.node(QStringLiteral("kks-demo-pool-bbbbb"), QStringLiteral("10.0.0.5"),
        QStringLiteral("100.100.4.0/24"), QStringLiteral("False"));
    Q_UNUSED(b);
    w.route(QStringLiteral("100.100.4.0/24"), QStringLiteral("10.0.0.4"));
    w.server(
        QStringLiteral("kks-demo-pool-ccccc"), QStringLiteral("10.0.0.6"), 600, QStringLiteral("ACTIVE"), {});
    const Diagnosis d = Diagnosis::run(w.state());
    const Incident *recycled = d.incidentOf(QStringLiteral("node-not-ready:kks-demo-pool-bbbbb"));
    QVERIFY2(recycled, qPrintable(ids(d).join(QLatin1Char(','))));
    QCOMPARE(recycled->rule, IncidentRule::RecycledPodCidr);
    const Incident *detached
        = d.incidentOf(QStringLiteral("instance-missing-security-group:kks-demo-pool-bbbbb"));
    QVERIFY(detached);
    QCOMPARE(detached->rule, IncidentRule::SecurityGroupDetached);
    QVERIFY(!detached->members.contains(QStringLiteral("node-not-ready:kks-demo-pool-bbbbb")));
}

// The nodes could be read only in part: no zone outage, no recycled CIDR; their findings stand alone.
void TestIncidents::partialSourceMakesNone()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 2);
    for (int n = 0; n < 2; ++n) {
        const QString name = QStringLiteral("kks-demo-pool-n%1xxx").arg(n);
        const int s = w.server(name, QStringLiteral("10.0.0.%1").arg(10 + n), 600);
        const int k = w.node(name, QStringLiteral("10.0.0.%1").arg(10 + n),
            QStringLiteral("100.100.%1.0/24").arg(10 + n), QStringLiteral("False"));
        w.route(QStringLiteral("100.100.%1.0/24").arg(10 + n), QStringLiteral("10.0.0.%1").arg(10 + n));
        w.inZone(s, k, QStringLiteral("az-1"));
    }
    KlusterState state = w.state();
    QCOMPARE(Diagnosis::run(state).incidents.size(), 1);
    state.nodesSource.incomplete = QStringLiteral("the list was cut short");
    const Diagnosis d = Diagnosis::run(state);
    QVERIFY(!d.findings.isEmpty());
    QVERIFY(d.incidents.isEmpty());
}

QTEST_GUILESS_MAIN(TestIncidents)
#include "tst_incidents.moc"
