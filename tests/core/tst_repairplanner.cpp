#include "core/repairplanner.h"

#include <QJsonArray>
#include <QTest>

// The exact requests of diagnosis.md §3.
class TestRepairPlanner : public QObject
{
    Q_OBJECT
private slots:
    void deleteInstance();
    void addSecurityGroup();
    void createRule();
    void removeRoutesAtomic();
    void addRoutesAtomic();
    void removeRoutesGuardedFullPut();
    void addRoutesGuardedFullPutKeepsOrderAndIsIdempotent();
    void noRevisionMeansNoFullPut();
};

static Router sampleRouter()
{
    Router r;
    r.id = QStringLiteral("r-1");
    r.name = QStringLiteral("kks-router");
    r.revisionNumber = 9;
    r.routes = { { QStringLiteral("198.19.1.0/24"), QStringLiteral("10.0.0.3") },
        { QStringLiteral("10.0.0.0/8"), QStringLiteral("10.0.0.1") },
        { QStringLiteral("198.19.1.0/24"), QStringLiteral("10.0.0.5") } };
    return r;
}

static QJsonArray bodyRoutes(const PlannedRequest &r)
{
    return r.body.toObject()
        .value(QStringLiteral("router"))
        .toObject()
        .value(QStringLiteral("routes"))
        .toArray();
}

void TestRepairPlanner::deleteInstance()
{
    Instance i;
    i.id = QStringLiteral("abc");
    i.name = QStringLiteral("kks-demo-pool-x7k2p");
    const RepairPlan p = RepairPlanner::deleteInstance(i);
    QVERIFY(p.deletesInstance());
    QCOMPARE(p.requests.size(), 1);
    QCOMPARE(p.requests.first().toJson(),
        (QJsonObject { { QStringLiteral("service"), QStringLiteral("compute") },
            { QStringLiteral("method"), QStringLiteral("DELETE") },
            { QStringLiteral("path"), QStringLiteral("/servers/abc") },
            { QStringLiteral("headers"), QJsonObject() }, { QStringLiteral("body"), QJsonValue() } }));
    QVERIFY(p.title.contains(i.name));
}

void TestRepairPlanner::addSecurityGroup()
{
    Instance i;
    i.id = QStringLiteral("abc");
    i.name = QStringLiteral("n");
    const PlannedRequest r = RepairPlanner::addSecurityGroup(i, QStringLiteral("kks-sg")).requests.first();
    QCOMPARE(r.method, QStringLiteral("POST"));
    QCOMPARE(r.path, QStringLiteral("/servers/abc/action"));
    QCOMPARE(r.body.toObject(),
        (QJsonObject { { QStringLiteral("addSecurityGroup"),
            QJsonObject { { QStringLiteral("name"), QStringLiteral("kks-sg") } } } }));
}

void TestRepairPlanner::createRule()
{
    SecurityGroup g;
    g.id = QStringLiteral("sg-1");
    g.name = QStringLiteral("kks-sg");
    const PlannedRequest r
        = RepairPlanner::createSecurityGroupRule(g, QStringLiteral("icmp"), QStringLiteral("198.19.0.0/16"))
              .requests.first();
    QCOMPARE(r.service, QStringLiteral("network"));
    QCOMPARE(r.path, QStringLiteral("/v2.0/security-group-rules"));
    QCOMPARE(r.body.toObject(),
        (QJsonObject { { QStringLiteral("security_group_rule"),
            QJsonObject { { QStringLiteral("security_group_id"), QStringLiteral("sg-1") },
                { QStringLiteral("direction"), QStringLiteral("ingress") },
                { QStringLiteral("ethertype"), QStringLiteral("IPv4") },
                { QStringLiteral("protocol"), QStringLiteral("icmp") },
                { QStringLiteral("remote_ip_prefix"), QStringLiteral("198.19.0.0/16") } } } }));
}

void TestRepairPlanner::removeRoutesAtomic()
{
    const Router router = sampleRouter();
    const RepairPlan p = RepairPlanner::removeRoutes(router, { router.routes.first() }, true);
    const PlannedRequest r = p.requests.first();
    QCOMPARE(r.method, QStringLiteral("PUT"));
    QCOMPARE(r.path, QStringLiteral("/v2.0/routers/r-1/remove_extraroutes"));
    QVERIFY(r.headers.isEmpty());
    QCOMPARE(bodyRoutes(r).size(), 1);
    QCOMPARE(bodyRoutes(r).first().toObject().value(QStringLiteral("nexthop")).toString(),
        QStringLiteral("10.0.0.3"));
    QCOMPARE(p.refusal, Refusal::None);
}

void TestRepairPlanner::addRoutesAtomic()
{
    const RepairPlan p = RepairPlanner::addRoutes(
        sampleRouter(), { { QStringLiteral("198.19.2.0/24"), QStringLiteral("10.0.0.6") } }, true);
    QCOMPARE(p.requests.first().path, QStringLiteral("/v2.0/routers/r-1/add_extraroutes"));
    QCOMPARE(bodyRoutes(p.requests.first()).size(), 1);
}

void TestRepairPlanner::removeRoutesGuardedFullPut()
{
    const Router router = sampleRouter();
    const RepairPlan p = RepairPlanner::removeRoutes(router, { router.routes.first() }, false);
    const PlannedRequest r = p.requests.first();
    QCOMPARE(r.path, QStringLiteral("/v2.0/routers/r-1"));
    QCOMPARE(
        r.headers, (QJsonObject { { QStringLiteral("If-Match"), QStringLiteral("revision_number=9") } }));
    const QJsonArray list = bodyRoutes(r);
    QCOMPARE(list.size(), 2); // the foreign route stays, in order
    QCOMPARE(
        list.at(0).toObject().value(QStringLiteral("destination")).toString(), QStringLiteral("10.0.0.0/8"));
    QCOMPARE(list.at(1).toObject().value(QStringLiteral("nexthop")).toString(), QStringLiteral("10.0.0.5"));
}

void TestRepairPlanner::addRoutesGuardedFullPutKeepsOrderAndIsIdempotent()
{
    const Router router = sampleRouter();
    const Route added { QStringLiteral("198.19.2.0/24"), QStringLiteral("10.0.0.6") };
    const QJsonArray list = bodyRoutes(
        RepairPlanner::addRoutes(router, { added, router.routes.at(1) }, false).requests.first());
    QCOMPARE(list.size(), 4); // the present route is not added twice (Neutron refuses exact duplicates)
    QCOMPARE(list.last().toObject().value(QStringLiteral("destination")).toString(),
        QStringLiteral("198.19.2.0/24"));
}

void TestRepairPlanner::noRevisionMeansNoFullPut()
{
    Router router = sampleRouter();
    router.revisionNumber = -1;
    const RepairPlan p = RepairPlanner::removeRoutes(router, { router.routes.first() }, false);
    QCOMPARE(p.refusal, Refusal::NoRevision);
    QVERIFY(p.requests.first().headers.isEmpty());
    QCOMPARE(RepairPlanner::removeRoutes(router, { router.routes.first() }, true).refusal, Refusal::None);
}

QTEST_GUILESS_MAIN(TestRepairPlanner)
#include "tst_repairplanner.moc"
