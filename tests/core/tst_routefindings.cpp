#include "core/diagnosis.h"
#include "core/klusterindex.h"
#include "core/routeaudit.h"
#include "tests/common/findingassert.h"
#include "tests/common/worldbuilder.h"

#include <QJsonArray>
#include <QTest>

// route-duplicate, route-orphaned, route-stale, route-missing, route-limit,
// and the route audit they come from.
class TestRouteFindings : public QObject
{
    Q_OBJECT
private slots:
    void classicRecycledCidr();
    void fullRouteUpdatesOptionGuardsThePut();
    void orderDecidesEffective();
    void duplicateWithCorrectFirst();
    void duplicateSuppressesOrphanedAndStale();
    void orphaned();
    void nexthopOfAnyProjectInstanceIsNotOrphaned();
    void anotherKlustersRouteIsNeverUnassigned();
    void staleBeforeOrphaned();
    void unassignedNeedsEvidence();
    void floatingAddressCountsAsInstanceAddress();
    void stale();
    void staleToNobodyIsOnlyStale();
    void missing();
    void nodeWithoutPodCidrNeedsNoRoute();
    void partlyOverlappingDestinationIsForeign();
    void foreignRoutesNeverFindings();
    void limitWarningFrom80Percent_data();
    void limitWarningFrom80Percent();
    void foreignRoutesCountTowardLimit();
    void limitCriticalWhenMissingWouldNotFit();
    void limitFromSnapshotAndOption();
    void limitUnknownWhenTheRouterHoldsMore();
    void limitLinksTheRepairsThatFreeSlots();
    void auditRolesAndOwners();
    void noEvidenceRefusesRouteRemoval();
    void nodeWithoutAddressDecidesNothing();
    void nodeWithUnusableAddressRoutedToAnotherNode_data();
    void nodeWithUnusableAddressRoutedToAnotherNode();
    void missingRouteRefusedWhenRouterFull();
    void incompleteServerListDecidesNoOrphan();
};

// Three healthy members on 10.180.0.0/24 with pod CIDRs 198.19.{3,4,5}.0/24
// and their correct routes; the kluster's pod network is 198.19.0.0/16.
static WorldBuilder baseWorld()
{
    WorldBuilder w(QStringLiteral("legacy"), QStringLiteral("198.19.0.0/16"));
    w.pool(QStringLiteral("pool"), 3);
    w.healthyMember(QStringLiteral("kks-legacy-pool-aaaaa"), QStringLiteral("10.180.0.3"),
        QStringLiteral("198.19.3.0/24"));
    w.healthyMember(QStringLiteral("kks-legacy-pool-bbbbb"), QStringLiteral("10.180.0.4"),
        QStringLiteral("198.19.4.0/24"));
    w.healthyMember(QStringLiteral("kks-legacy-pool-ccccc"), QStringLiteral("10.180.0.5"),
        QStringLiteral("198.19.5.0/24"));
    return w;
}

static QStringList rolesOf(const QJsonObject &route)
{
    QStringList r;
    for (const QJsonValue &v : route.value(QStringLiteral("roles")).toArray())
        r << v.toString();
    return r;
}

void TestRouteFindings::classicRecycledCidr()
{
    // 198.19.1.0/24 → .3, → .4, → .5 with only .5 alive: the first route (to a
    // deleted node) takes precedence and the recycled CIDR's new node is cut off.
    WorldBuilder w(QStringLiteral("legacy"), QStringLiteral("198.19.0.0/16"));
    w.pool(QStringLiteral("pool"), 1);
    w.route(QStringLiteral("198.19.1.0/24"), QStringLiteral("10.180.0.3"));
    w.route(QStringLiteral("198.19.1.0/24"), QStringLiteral("10.180.0.4"));
    w.healthyMember(QStringLiteral("kks-legacy-pool-ccccc"), QStringLiteral("10.180.0.5"),
        QStringLiteral("198.19.1.0/24"));
    const Diagnosis d = Diagnosis::run(w.state());
    QCOMPARE(findingIds(d), QStringList { QStringLiteral("route-duplicate:198.19.1.0/24") });
    const Finding &f = d.findings.first();
    QCOMPARE(f.severity, Severity::Critical);
    const QJsonArray routes = f.evidence().value(QStringLiteral("routes")).toArray();
    QCOMPARE(routes.size(), 3);
    QCOMPARE(rolesOf(routes.at(0).toObject()),
        (QStringList {
            QStringLiteral("effective"), QStringLiteral("duplicate"), QStringLiteral("orphaned") }));
    QCOMPARE(rolesOf(routes.at(1).toObject()),
        (QStringList { QStringLiteral("duplicate"), QStringLiteral("orphaned") }));
    QCOMPARE(rolesOf(routes.at(2).toObject()),
        (QStringList { QStringLiteral("correct"), QStringLiteral("duplicate") }));
    QCOMPARE(f.evidence().value(QStringLiteral("correctNexthop")).toString(), QStringLiteral("10.180.0.5"));
    // The repair removes exactly the two wrong routes, atomically.
    QVERIFY(f.repair());
    QCOMPARE(f.repair()->requests.size(), 1);
    const PlannedRequest r = f.repair()->requests.first();
    QCOMPARE(r.method, QStringLiteral("PUT"));
    QCOMPARE(r.path, QStringLiteral("/v2.0/routers/%1/remove_extraroutes").arg(w.routerId()));
    const QJsonArray removed = r.body.toObject()
                                   .value(QStringLiteral("router"))
                                   .toObject()
                                   .value(QStringLiteral("routes"))
                                   .toArray();
    QCOMPARE(removed.size(), 2);
    QCOMPARE(
        removed.at(0).toObject().value(QStringLiteral("nexthop")).toString(), QStringLiteral("10.180.0.3"));
    QCOMPARE(
        removed.at(1).toObject().value(QStringLiteral("nexthop")).toString(), QStringLiteral("10.180.0.4"));
    QVERIFY(r.headers.isEmpty());
    QVERIFY(f.message().contains(QStringLiteral("unreachable")));
}

void TestRouteFindings::fullRouteUpdatesOptionGuardsThePut()
{
    // The cloud has extraroute-atomic, but the option asks for the guarded full list.
    WorldBuilder w(QStringLiteral("legacy"), QStringLiteral("198.19.0.0/16"));
    w.pool(QStringLiteral("pool"), 1);
    w.route(QStringLiteral("198.19.1.0/24"), QStringLiteral("10.180.0.3"));
    w.route(QStringLiteral("198.19.1.0/24"), QStringLiteral("10.180.0.4"));
    w.healthyMember(QStringLiteral("kks-legacy-pool-ccccc"), QStringLiteral("10.180.0.5"),
        QStringLiteral("198.19.1.0/24"));
    DiagnosisOptions options;
    options.fullRouteUpdates = true;
    const Diagnosis d = Diagnosis::run(w.state(), options);
    const Finding *f = d.find(QStringLiteral("route-duplicate:198.19.1.0/24"));
    QVERIFY2(f, qPrintable(findingIds(d).join(QLatin1Char(','))));
    QVERIFY(f->repair());
    const PlannedRequest r = f->repair()->requests.first();
    QCOMPARE(r.method, QStringLiteral("PUT"));
    QCOMPARE(r.path, QStringLiteral("/v2.0/routers/%1").arg(w.routerId()));
    QVERIFY(r.headers.value(QStringLiteral("If-Match"))
                .toString()
                .startsWith(QStringLiteral("revision_number=")));
}

void TestRouteFindings::orderDecidesEffective()
{
    WorldBuilder w = baseWorld();
    // A second, wrong route for node c's CIDR, pointing at node a (alive).
    w.route(QStringLiteral("198.19.5.0/24"), QStringLiteral("10.180.0.3"));
    const Diagnosis d = Diagnosis::run(w.state());
    QCOMPARE(findingIds(d), QStringList { QStringLiteral("route-duplicate:198.19.5.0/24") });
    const QJsonArray routes = d.findings.first().evidence().value(QStringLiteral("routes")).toArray();
    // The correct route came first: it is the effective one, the late one is stale.
    QCOMPARE(rolesOf(routes.at(0).toObject()),
        (QStringList {
            QStringLiteral("effective"), QStringLiteral("correct"), QStringLiteral("duplicate") }));
    QCOMPARE(rolesOf(routes.at(1).toObject()),
        (QStringList { QStringLiteral("duplicate"), QStringLiteral("stale") }));
    QVERIFY(d.findings.first().message().contains(QStringLiteral("still takes the correct one")));
}

void TestRouteFindings::duplicateWithCorrectFirst()
{
    // Same set, the other order: now the wrong one wins.
    WorldBuilder w(QStringLiteral("legacy"), QStringLiteral("198.19.0.0/16"));
    w.pool(QStringLiteral("pool"), 2);
    w.route(QStringLiteral("198.19.5.0/24"), QStringLiteral("10.180.0.3"));
    w.healthyMember(QStringLiteral("kks-legacy-pool-aaaaa"), QStringLiteral("10.180.0.3"),
        QStringLiteral("198.19.3.0/24"));
    w.healthyMember(QStringLiteral("kks-legacy-pool-ccccc"), QStringLiteral("10.180.0.5"),
        QStringLiteral("198.19.5.0/24"));
    const Diagnosis d = Diagnosis::run(w.state());
    const QJsonArray routes = d.find(QStringLiteral("route-duplicate:198.19.5.0/24"))
                                  ->evidence()
                                  .value(QStringLiteral("routes"))
                                  .toArray();
    QCOMPARE(rolesOf(routes.at(0).toObject()),
        (QStringList { QStringLiteral("effective"), QStringLiteral("duplicate"), QStringLiteral("stale") }));
    QCOMPARE(rolesOf(routes.at(1).toObject()),
        (QStringList { QStringLiteral("correct"), QStringLiteral("duplicate") }));
    QVERIFY(d.find(QStringLiteral("route-duplicate:198.19.5.0/24"))
                ->message()
                .contains(QStringLiteral("unreachable")));
}

void TestRouteFindings::duplicateSuppressesOrphanedAndStale()
{
    WorldBuilder w = baseWorld();
    w.route(QStringLiteral("198.19.9.0/24"), QStringLiteral("10.180.0.99"));
    w.route(QStringLiteral("198.19.9.0/24"), QStringLiteral("10.180.0.98"));
    const Diagnosis d = Diagnosis::run(w.state());
    QCOMPARE(findingIds(d), QStringList { QStringLiteral("route-duplicate:198.19.9.0/24") });
    // No node owns the destination: every route of it is wrong.
    QCOMPARE(d.findings.first().repair()->routes.size(), 2);
}

void TestRouteFindings::orphaned()
{
    WorldBuilder w = baseWorld();
    w.route(QStringLiteral("198.19.7.0/24"), QStringLiteral("10.180.0.99"));
    const Diagnosis d = Diagnosis::run(w.state());
    QCOMPARE(findingIds(d), QStringList { QStringLiteral("route-orphaned:198.19.7.0/24 via 10.180.0.99") });
    const Finding &f = d.findings.first();
    QCOMPARE(f.severity, Severity::Warning);
    QCOMPARE(f.repair()->requests.first().path,
        QStringLiteral("/v2.0/routers/%1/remove_extraroutes").arg(w.routerId()));
}

void TestRouteFindings::nexthopOfAnyProjectInstanceIsNotOrphaned()
{
    // A live instance has the nexthop: not orphaned, but no node has the destination: unassigned.
    WorldBuilder w = baseWorld();
    w.server(QStringLiteral("bastion"), QStringLiteral("10.180.0.50"), 600, QStringLiteral("ACTIVE"),
        { QStringLiteral("default") });
    w.route(QStringLiteral("198.19.7.0/24"), QStringLiteral("10.180.0.50"));
    const Diagnosis d = Diagnosis::run(w.state());
    QCOMPARE(findingIds(d), QStringList { QStringLiteral("route-unassigned:198.19.7.0/24 via 10.180.0.50") });
    const Finding &f = d.findings.first();
    QCOMPARE(f.severity, Severity::Warning);
    QVERIFY2(f.message().contains(QStringLiteral("no node has the pod network")), qPrintable(f.message()));
    QCOMPARE(rolesOf(f.evidence().value(QStringLiteral("route")).toObject()),
        (QStringList { QStringLiteral("effective"), QStringLiteral("unassigned") }));
    QCOMPARE(f.repair()->requests.first().path,
        QStringLiteral("/v2.0/routers/%1/remove_extraroutes").arg(w.routerId()));
    QCOMPARE(f.repair()->routes,
        (QList<Route> { Route { QStringLiteral("198.19.7.0/24"), QStringLiteral("10.180.0.50") } }));
}

void TestRouteFindings::anotherKlustersRouteIsNeverUnassigned()
{
    // Two klusters on one router and one pod network: the other's node route is not this kluster's to remove.
    WorldBuilder w = baseWorld();
    w.server(QStringLiteral("kks-other-pool-zzzzz"), QStringLiteral("10.180.0.60"), 600);
    w.route(QStringLiteral("198.19.8.0/24"), QStringLiteral("10.180.0.60"));
    QVERIFY2(Diagnosis::run(w.state()).findings.isEmpty(),
        qPrintable(findingIds(Diagnosis::run(w.state())).join(',')));
    // Where both use one CIDR it shows as a duplicate, and its repair leaves the other kluster's route alone.
    w.route(QStringLiteral("198.19.3.0/24"), QStringLiteral("10.180.0.60"));
    const Diagnosis d = Diagnosis::run(w.state());
    QCOMPARE(findingIds(d), QStringList { QStringLiteral("route-duplicate:198.19.3.0/24") });
    QVERIFY(!d.findings.first().repair()); // the only wrong route is the other kluster's
}

void TestRouteFindings::staleBeforeOrphaned()
{
    // A sole route to node c's CIDR via a dead address is stale (node c is cut off), not orphaned; via a live
    // instance, stale, not unassigned.
    for (const QString &hop : { QStringLiteral("10.180.0.99"), QStringLiteral("10.180.0.50") }) {
        WorldBuilder w(QStringLiteral("legacy"), QStringLiteral("198.19.0.0/16"));
        w.pool(QStringLiteral("pool"), 1);
        w.server(QStringLiteral("kks-legacy-pool-ccccc"), QStringLiteral("10.180.0.5"), 600);
        w.node(QStringLiteral("kks-legacy-pool-ccccc"), QStringLiteral("10.180.0.5"),
            QStringLiteral("198.19.5.0/24"));
        w.server(QStringLiteral("bastion"), QStringLiteral("10.180.0.50"), 600, QStringLiteral("ACTIVE"),
            { QStringLiteral("default") });
        w.route(QStringLiteral("198.19.5.0/24"), hop);
        const Diagnosis d = Diagnosis::run(w.state());
        QCOMPARE(findingIds(d, FindingKind::RouteStale).size(), 1);
        QVERIFY(findingIds(d, FindingKind::RouteOrphaned).isEmpty());
        QVERIFY(findingIds(d, FindingKind::RouteUnassigned).isEmpty());
    }
}

void TestRouteFindings::unassignedNeedsEvidence()
{
    WorldBuilder w = baseWorld();
    w.server(QStringLiteral("bastion"), QStringLiteral("10.180.0.50"), 600, QStringLiteral("ACTIVE"),
        { QStringLiteral("default") });
    w.route(QStringLiteral("198.19.7.0/24"), QStringLiteral("10.180.0.50"));
    // The server list failed: whether the nexthop lives is unknown.
    KlusterState noServers = w.state();
    noServers.serversSource = SourceStatus { false, QStringLiteral("timeout"), QString() };
    noServers.instances.clear();
    QVERIFY(findingIds(Diagnosis::run(noServers), FindingKind::RouteUnassigned).isEmpty());
    // The node list failed, or is empty while instances are active: whether a node has the CIDR is unknown.
    KlusterState noNodes = w.state();
    noNodes.nodesSource = SourceStatus { false, QStringLiteral("timeout"), QString() };
    noNodes.nodes.clear();
    QVERIFY(findingIds(Diagnosis::run(noNodes), FindingKind::RouteUnassigned).isEmpty());
    KlusterState emptyNodes = w.state();
    emptyNodes.nodes.clear();
    QVERIFY(findingIds(Diagnosis::run(emptyNodes), FindingKind::RouteUnassigned).isEmpty());
}

void TestRouteFindings::floatingAddressCountsAsInstanceAddress()
{
    WorldBuilder w = baseWorld();
    QJsonObject addresses = w.serverAt(0).value(QStringLiteral("addresses")).toObject();
    QJsonArray list = addresses.value(QStringLiteral("private")).toArray();
    list.append(QJsonObject { { QStringLiteral("addr"), QStringLiteral("172.24.4.20") },
        { QStringLiteral("OS-EXT-IPS:type"), QStringLiteral("floating") } });
    addresses.insert(QStringLiteral("private"), list);
    w.serverAt(0).insert(QStringLiteral("addresses"), addresses);
    w.route(QStringLiteral("198.19.7.0/24"), QStringLiteral("172.24.4.20"));
    QCOMPARE(findingIds(Diagnosis::run(w.state())),
        QStringList { QStringLiteral("route-unassigned:198.19.7.0/24 via 172.24.4.20") });
}

void TestRouteFindings::stale()
{
    WorldBuilder w(QStringLiteral("legacy"), QStringLiteral("198.19.0.0/16"));
    w.pool(QStringLiteral("pool"), 2);
    w.healthyMember(QStringLiteral("kks-legacy-pool-aaaaa"), QStringLiteral("10.180.0.3"),
        QStringLiteral("198.19.3.0/24"));
    w.server(QStringLiteral("kks-legacy-pool-ddddd"), QStringLiteral("10.180.0.6"), 60 * 24);
    w.node(QStringLiteral("kks-legacy-pool-ddddd"), QStringLiteral("10.180.0.6"),
        QStringLiteral("198.19.2.0/24"));
    w.route(QStringLiteral("198.19.2.0/24"), QStringLiteral("10.180.0.3")); // the sole route points at node a
    const Diagnosis d = Diagnosis::run(w.state());
    // The wrong route is stale; the node's own route is (literally) missing too.
    QCOMPARE(findingIds(d),
        (QStringList { QStringLiteral("route-missing:kks-legacy-pool-ddddd"),
            QStringLiteral("route-stale:198.19.2.0/24 via 10.180.0.3") }));
    const Finding *f = d.find(QStringLiteral("route-stale:198.19.2.0/24 via 10.180.0.3"));
    QCOMPARE(f->severity, Severity::Critical);
    QCOMPARE(f->evidence().value(QStringLiteral("correctNexthop")).toString(), QStringLiteral("10.180.0.6"));
    QCOMPARE(f->repair()->routes,
        (QList<Route> { Route { QStringLiteral("198.19.2.0/24"), QStringLiteral("10.180.0.3") } }));
    const Finding *m = d.find(QStringLiteral("route-missing:kks-legacy-pool-ddddd"));
    QVERIFY(m->message().contains(QStringLiteral("via 10.180.0.3 instead")));
}

void TestRouteFindings::staleToNobodyIsOnlyStale()
{
    WorldBuilder w(QStringLiteral("legacy"), QStringLiteral("198.19.0.0/16"));
    w.pool(QStringLiteral("pool"), 1);
    w.server(QStringLiteral("kks-legacy-pool-ddddd"), QStringLiteral("10.180.0.6"), 60 * 24);
    w.node(QStringLiteral("kks-legacy-pool-ddddd"), QStringLiteral("10.180.0.6"),
        QStringLiteral("198.19.2.0/24"));
    w.route(QStringLiteral("198.19.2.0/24"), QStringLiteral("10.180.0.99"));
    const Diagnosis d = Diagnosis::run(w.state());
    QCOMPARE(findingIds(d),
        (QStringList { QStringLiteral("route-missing:kks-legacy-pool-ddddd"),
            QStringLiteral("route-stale:198.19.2.0/24 via 10.180.0.99") }));
}

void TestRouteFindings::missing()
{
    WorldBuilder w = baseWorld();
    w.server(QStringLiteral("kks-legacy-pool-eeeee"), QStringLiteral("10.180.0.7"), 60 * 24);
    w.node(QStringLiteral("kks-legacy-pool-eeeee"), QStringLiteral("10.180.0.7"),
        QStringLiteral("198.19.7.0/24"));
    w.atomicRoutes(false);
    w.routerRevision(41);
    const Diagnosis d = Diagnosis::run(w.state());
    QCOMPARE(findingIds(d), QStringList { QStringLiteral("route-missing:kks-legacy-pool-eeeee") });
    const Finding &f = d.findings.first();
    QCOMPARE(f.severity, Severity::Critical);
    // Without extraroute-atomic: the full new list, guarded by the revision.
    const PlannedRequest r = f.repair()->requests.first();
    QCOMPARE(r.path, QStringLiteral("/v2.0/routers/%1").arg(w.routerId()));
    QCOMPARE(r.headers.value(QStringLiteral("If-Match")).toString(), QStringLiteral("revision_number=41"));
    const QJsonArray list = r.body.toObject()
                                .value(QStringLiteral("router"))
                                .toObject()
                                .value(QStringLiteral("routes"))
                                .toArray();
    QCOMPARE(list.size(), 4);
    QCOMPARE(list.last().toObject().value(QStringLiteral("destination")).toString(),
        QStringLiteral("198.19.7.0/24"));
    QCOMPARE(
        list.last().toObject().value(QStringLiteral("nexthop")).toString(), QStringLiteral("10.180.0.7"));
}

void TestRouteFindings::nodeWithoutPodCidrNeedsNoRoute()
{
    WorldBuilder w = baseWorld();
    w.server(QStringLiteral("kks-legacy-pool-eeeee"), QStringLiteral("10.180.0.7"), 60 * 24);
    w.node(QStringLiteral("kks-legacy-pool-eeeee"), QStringLiteral("10.180.0.7"), QString());
    QVERIFY(Diagnosis::run(w.state()).findings.isEmpty());
}

void TestRouteFindings::partlyOverlappingDestinationIsForeign()
{
    WorldBuilder w = baseWorld();
    w.route(QStringLiteral("198.18.0.0/15"),
        QStringLiteral("10.180.0.99")); // contains the pod network: not inside it
    w.route(
        QStringLiteral("198.19.0.0/16"), QStringLiteral("10.180.0.98")); // exactly the pod network: inside
    const KlusterState s = w.state();
    const KlusterIndex index(s);
    const RouteAudit audit(index);
    QVERIFY(audit.entries().at(3).roles & RouteAudit::Foreign);
    QVERIFY(!(audit.entries().at(4).roles & RouteAudit::Foreign));
    const Diagnosis d = Diagnosis::run(s);
    QCOMPARE(findingIds(d), QStringList { QStringLiteral("route-orphaned:198.19.0.0/16 via 10.180.0.98") });
}

void TestRouteFindings::foreignRoutesNeverFindings()
{
    WorldBuilder w = baseWorld();
    w.route(QStringLiteral("10.0.0.0/8"), QStringLiteral("10.180.0.99"));
    w.route(QStringLiteral("10.0.0.0/8"), QStringLiteral("10.180.0.98")); // even duplicated: not ours
    QVERIFY(Diagnosis::run(w.state()).findings.isEmpty());
}

void TestRouteFindings::limitWarningFrom80Percent_data()
{
    QTest::addColumn<int>("foreign");
    QTest::addColumn<QString>("severity");
    // 3 kluster routes + foreign routes against a limit of 30.
    QTest::newRow("22 of 30") << 19 << "";
    QTest::newRow("23 of 30 (76 %)") << 20 << "";
    QTest::newRow("24 of 30 (80 %)") << 21 << "warning";
    QTest::newRow("29 of 30") << 26 << "warning";
    QTest::newRow("30 of 30") << 27 << "critical";
}

void TestRouteFindings::limitWarningFrom80Percent()
{
    QFETCH(int, foreign);
    QFETCH(QString, severity);
    WorldBuilder w = baseWorld();
    for (int i = 0; i < foreign; ++i)
        w.route(QStringLiteral("192.168.%1.0/24").arg(i), QStringLiteral("10.180.0.3"));
    const Diagnosis d = Diagnosis::run(w.state());
    const Finding *f = d.find(QStringLiteral("route-limit:") + w.routerId());
    if (severity.isEmpty()) {
        QVERIFY(!f);
        return;
    }
    QVERIFY(f);
    QCOMPARE(severityName(f->severity), severity);
    QVERIFY(!f->repair());
    QCOMPARE(f->evidence().value(QStringLiteral("routes")).toInt(), foreign + 3);
    QCOMPARE(f->evidence().value(QStringLiteral("foreign")).toInt(), foreign);
    QCOMPARE(f->evidence().value(QStringLiteral("limit")).toInt(), 30);
}

void TestRouteFindings::foreignRoutesCountTowardLimit()
{
    WorldBuilder w = baseWorld();
    w.maxRoutes(4);
    w.route(QStringLiteral("10.0.0.0/8"), QStringLiteral("10.180.0.99"));
    const Diagnosis d = Diagnosis::run(w.state());
    QCOMPARE(d.find(QStringLiteral("route-limit:") + w.routerId())->severity, Severity::Critical);
}

void TestRouteFindings::limitCriticalWhenMissingWouldNotFit()
{
    WorldBuilder w = baseWorld(); // 3 routes
    for (int i = 0; i < 4; ++i) {
        const QString name = QStringLiteral("kks-legacy-pool-m%1aaa").arg(i);
        w.server(name, QStringLiteral("10.180.0.%1").arg(20 + i), 60 * 24);
        w.node(name, QStringLiteral("10.180.0.%1").arg(20 + i), QStringLiteral("198.19.%1.0/24").arg(20 + i));
    }
    DiagnosisOptions o;
    o.routeLimit = 6; // 3 present of 6 = 50 %, but 4 missing would not fit
    o.routeLimitExplicit = true;
    const Diagnosis d = Diagnosis::run(w.state(), o);
    const Finding *f = d.find(QStringLiteral("route-limit:") + w.routerId());
    QVERIFY(f);
    QCOMPARE(f->severity, Severity::Critical);
    QCOMPARE(f->evidence().value(QStringLiteral("missing")).toInt(), 4);
    QCOMPARE(findingIds(d, FindingKind::RouteMissing).size(), 4);
    o.routeLimit = 7; // 3 + 4 fits exactly: nothing to say at 42 %
    QVERIFY(!Diagnosis::run(w.state(), o).find(QStringLiteral("route-limit:") + w.routerId()));
}

void TestRouteFindings::limitFromSnapshotAndOption()
{
    WorldBuilder w = baseWorld();
    w.maxRoutes(3); // the snapshot says 3: 3 of 3
    QCOMPARE(Diagnosis::run(w.state()).find(QStringLiteral("route-limit:") + w.routerId())->severity,
        Severity::Critical);
    DiagnosisOptions o;
    o.routeLimit = 256;
    o.routeLimitExplicit = true; // the person said 256: that wins
    QVERIFY(Diagnosis::run(w.state(), o).findings.isEmpty());
}

// Without a known limit (no --route-limit, no maxRoutes) the default 30 is assumed; a router that holds 207
// routes proves it wrong, so its limit is "not known": no route-limit finding (it was a critical "207 of its
// 30 routes, 690 %"), no RouteLimit refusal of a missing route, no limit series, and the report says why.
void TestRouteFindings::limitUnknownWhenTheRouterHoldsMore()
{
    WorldBuilder w = baseWorld();
    for (int i = 0; i < 204; ++i) // other klusters' or operators' routes
        w.route(QStringLiteral("192.168.%1.0/24").arg(i), QStringLiteral("10.180.0.3"));
    w.server(QStringLiteral("kks-legacy-pool-ddddd"), QStringLiteral("10.180.0.6"), 600);
    w.node(QStringLiteral("kks-legacy-pool-ddddd"), QStringLiteral("10.180.0.6"),
        QStringLiteral("198.19.6.0/24"));
    const KlusterState s = w.state();
    const Diagnosis d = Diagnosis::run(s);
    QCOMPARE(d.routeLimit, 0);
    QVERIFY(!d.find(QStringLiteral("route-limit:") + w.routerId()));
    QVERIFY2(d.notDiagnosed.join(QLatin1Char('\n'))
                 .contains(QStringLiteral("holds 207 routes, more than the 30 assumed")),
        qPrintable(d.notDiagnosed.join(QLatin1Char('\n'))));
    const Finding *missing = d.find(QStringLiteral("route-missing:kks-legacy-pool-ddddd"));
    QVERIFY(missing && missing->repair());
    QCOMPARE(missing->repair()->refusal, Refusal::None);
    // A limit known (the snapshot's, or given) is judged by.
    w.maxRoutes(250);
    QCOMPARE(Diagnosis::run(w.state()).find(QStringLiteral("route-limit:") + w.routerId())->severity,
        Severity::Warning);
    DiagnosisOptions o;
    o.routeLimit = 207;
    o.routeLimitExplicit = true;
    QCOMPARE(Diagnosis::run(s, o).find(QStringLiteral("route-limit:") + w.routerId())->severity,
        Severity::Critical);
    // 29 routes: the default stands (29 of 30: a warning).
    WorldBuilder few = baseWorld();
    for (int i = 0; i < 26; ++i)
        few.route(QStringLiteral("192.168.%1.0/24").arg(i), QStringLiteral("10.180.0.3"));
    const Diagnosis fd = Diagnosis::run(few.state());
    QCOMPARE(fd.routeLimit, 30);
    QVERIFY(fd.find(QStringLiteral("route-limit:") + few.routerId()));
}

void TestRouteFindings::limitLinksTheRepairsThatFreeSlots()
{
    WorldBuilder w = baseWorld();
    w.maxRoutes(5);
    w.route(QStringLiteral("198.19.8.0/24"), QStringLiteral("10.180.0.99"));
    w.route(QStringLiteral("198.19.9.0/24"), QStringLiteral("10.180.0.98"));
    const Diagnosis d = Diagnosis::run(w.state());
    const Finding *f = d.find(QStringLiteral("route-limit:") + w.routerId());
    QVERIFY(f);
    QCOMPARE(f->evidence().value(QStringLiteral("freeable")).toInt(), 2);
    const QJsonArray related = f->evidence().value(QStringLiteral("relatedFindings")).toArray();
    QCOMPARE(related.size(), 2);
    QCOMPARE(related.at(0).toString(), QStringLiteral("route-orphaned:198.19.8.0/24 via 10.180.0.99"));
}

void TestRouteFindings::auditRolesAndOwners()
{
    WorldBuilder w = baseWorld();
    w.route(QStringLiteral("10.0.0.0/8"), QStringLiteral("10.180.0.3"));
    const KlusterState s = w.state();
    const KlusterIndex index(s);
    const RouteAudit audit(index);
    QCOMPARE(audit.routeCount(), 4);
    QCOMPARE(audit.foreignCount(), 1);
    QCOMPARE(audit.missingCount(), 0);
    const RouteAudit::Entry &e = audit.entries().at(0);
    QCOMPARE(e.roles, RouteAudit::Roles(RouteAudit::Correct | RouteAudit::Effective));
    QCOMPARE(e.nexthopInstance, QStringLiteral("kks-legacy-pool-aaaaa"));
    QCOMPARE(e.nexthopNode, QStringLiteral("kks-legacy-pool-aaaaa"));
    QCOMPARE(e.destinationNode, QStringLiteral("kks-legacy-pool-aaaaa"));
    QCOMPARE(audit.entries().at(3).nexthopInstance, QStringLiteral("kks-legacy-pool-aaaaa"));
}

void TestRouteFindings::noEvidenceRefusesRouteRemoval()
{
    WorldBuilder w(QStringLiteral("legacy"), QStringLiteral("198.19.0.0/16"));
    w.pool(QStringLiteral("pool"), 1);
    w.server(QStringLiteral("kks-legacy-pool-aaaaa"), QStringLiteral("10.180.0.3"), 60 * 24);
    w.route(QStringLiteral("198.19.3.0/24"), QStringLiteral("10.180.0.3"));
    w.route(QStringLiteral("198.19.3.0/24"), QStringLiteral("10.180.0.9"));
    // No nodes while the instance is active: which route is correct cannot be known.
    const Diagnosis d = Diagnosis::run(w.state());
    const Finding *f = d.find(QStringLiteral("route-duplicate:198.19.3.0/24"));
    QVERIFY(f && f->repair());
    QCOMPARE(f->repair()->refusal, Refusal::NoEvidence);
}

void TestRouteFindings::nodeWithoutAddressDecidesNothing()
{
    // The node owning 198.19.3.0/24 has no InternalIP (yet): its route (via its own instance's address) is
    // not stale, and in a duplicate set only the routes to nobody or to another node's address are wrong.
    WorldBuilder w(QStringLiteral("legacy"), QStringLiteral("198.19.0.0/16"));
    w.pool(QStringLiteral("pool"), 2);
    w.healthyMember(QStringLiteral("kks-legacy-pool-bbbbb"), QStringLiteral("10.180.0.4"),
        QStringLiteral("198.19.4.0/24"));
    w.server(QStringLiteral("kks-legacy-pool-aaaaa"), QStringLiteral("10.180.0.3"), 60 * 24);
    w.node(QStringLiteral("kks-legacy-pool-aaaaa"), QString(), QStringLiteral("198.19.3.0/24"));
    w.route(QStringLiteral("198.19.3.0/24"), QStringLiteral("10.180.0.3"));
    QVERIFY2(Diagnosis::run(w.state()).findings.isEmpty(),
        qPrintable(findingIds(Diagnosis::run(w.state())).join(QLatin1Char(','))));
    w.route(QStringLiteral("198.19.3.0/24"), QStringLiteral("10.180.0.4"));
    w.route(QStringLiteral("198.19.3.0/24"), QStringLiteral("10.180.0.99"));
    const Diagnosis d = Diagnosis::run(w.state());
    QCOMPARE(findingIds(d), QStringList { QStringLiteral("route-duplicate:198.19.3.0/24") });
    QCOMPARE(d.findings.first().repair()->routes,
        (QList<Route> { Route { QStringLiteral("198.19.3.0/24"), QStringLiteral("10.180.0.4") },
            Route { QStringLiteral("198.19.3.0/24"), QStringLiteral("10.180.0.99") } }));
}

void TestRouteFindings::nodeWithUnusableAddressRoutedToAnotherNode_data()
{
    QTest::addColumn<QString>("internalIp");
    QTest::newRow("empty") << QString();
    QTest::newRow("not an address") << QStringLiteral("not-an-ip");
    QTest::newRow("a prefix") << QStringLiteral("10.180.0.11/32");
    QTest::newRow("IPv6 for an IPv4 pod network") << QStringLiteral("fd00::11");
}

void TestRouteFindings::nodeWithUnusableAddressRoutedToAnotherNode()
{
    // The defect: exit 0 while node aaaaa is cut off, its pod network routed to node bbbbb.
    QFETCH(QString, internalIp);
    WorldBuilder w(QStringLiteral("legacy"), QStringLiteral("198.19.0.0/16"));
    w.pool(QStringLiteral("pool"), 2);
    w.healthyMember(QStringLiteral("kks-legacy-pool-bbbbb"), QStringLiteral("10.180.0.4"),
        QStringLiteral("198.19.4.0/24"));
    w.server(QStringLiteral("kks-legacy-pool-aaaaa"), QStringLiteral("10.180.0.11"), 60 * 24);
    w.node(QStringLiteral("kks-legacy-pool-aaaaa"), internalIp, QStringLiteral("198.19.3.0/24"));
    w.route(QStringLiteral("198.19.3.0/24"), QStringLiteral("10.180.0.4"));
    const Diagnosis d = Diagnosis::run(w.state());
    const Finding *stale = d.find(QStringLiteral("route-stale:198.19.3.0/24 via 10.180.0.4"));
    QVERIFY2(stale, qPrintable(findingIds(d).join(QLatin1Char(','))));
    QCOMPARE(stale->severity, Severity::Critical);
    QVERIFY2(stale->message().contains(QStringLiteral("no usable address")), qPrintable(stale->message()));
    QVERIFY2(stale->message().contains(QStringLiteral("node kks-legacy-pool-bbbbb")),
        qPrintable(stale->message()));
    QCOMPARE(stale->repair()->routes,
        (QList<Route> { Route { QStringLiteral("198.19.3.0/24"), QStringLiteral("10.180.0.4") } }));
    // And the node's address itself is said.
    QVERIFY2(d.notes.join(QLatin1Char('\n'))
                 .contains(QStringLiteral("node kks-legacy-pool-aaaaa has no usable InternalIP")),
        qPrintable(d.notes.join(QLatin1Char('\n'))));
}

void TestRouteFindings::missingRouteRefusedWhenRouterFull()
{
    WorldBuilder w = baseWorld();
    w.maxRoutes(3);
    w.server(QStringLiteral("kks-legacy-pool-eeeee"), QStringLiteral("10.180.0.7"), 60 * 24);
    w.node(QStringLiteral("kks-legacy-pool-eeeee"), QStringLiteral("10.180.0.7"),
        QStringLiteral("198.19.7.0/24"));
    const Diagnosis d = Diagnosis::run(w.state());
    const auto repair = d.find(QStringLiteral("route-missing:kks-legacy-pool-eeeee"))->repair();
    QVERIFY(repair);
    QCOMPARE(repair->refusal, Refusal::RouteLimit);
}

void TestRouteFindings::incompleteServerListDecidesNoOrphan()
{
    WorldBuilder w = baseWorld();
    w.route(QStringLiteral("198.19.7.0/24"), QStringLiteral("10.180.0.99"));
    const int partial = w.server(QStringLiteral("x"), QString(), 60);
    w.serverAt(partial) = QJsonObject { { QStringLiteral("id"), QStringLiteral("0c1d9e3a-partial") },
        { QStringLiteral("status"), QStringLiteral("UNKNOWN") }, { QStringLiteral("links"), QJsonArray() } };
    KlusterState s = w.state();
    s.noteIncompleteServers();
    const Diagnosis d = Diagnosis::run(s);
    // Its nexthop may be a server of the cell that did not answer: an absence in part of the list proves
    // nothing, so no route is called orphaned (and none is removed) while it is.
    QVERIFY(!d.find(QStringLiteral("route-orphaned:198.19.7.0/24 via 10.180.0.99")));
    QVERIFY2(d.notDiagnosed.join(u'\n').contains(
                 QStringLiteral("route-orphaned: the servers came back incomplete")),
        qPrintable(d.notDiagnosed.join(u'\n')));
    QVERIFY(!d.notes.isEmpty());
    // Whole again: orphaned, and its removal planned.
    const Diagnosis whole = Diagnosis::run(w.state());
    const Finding *f = whole.find(QStringLiteral("route-orphaned:198.19.7.0/24 via 10.180.0.99"));
    QVERIFY(f && f->repair() && f->repair()->refusal == Refusal::None);
}

QTEST_GUILESS_MAIN(TestRouteFindings)
#include "tst_routefindings.moc"
