// What a terminated kluster leaves behind (diagnosis.md §9), read from hand-written Cinder and Octavia bodies
// in the shapes docs/wire-formats.md cites: volumes and load balancers parsed, attributed to their kluster by
// the CSI driver's metadata and the cloud provider's names, and what is not a body refused naming where.
#include "core/debris.h"
#include "core/json/jsonreader.h"

#include <QJsonDocument>
#include <QTest>

class TestDebris : public QObject
{
    Q_OBJECT

private slots:
    void volumesRead();
    void volumesRefused_data();
    void volumesRefused();
    void loadBalancersRead();
    void volumeClusterIsTheKlustersObjectName();
    void loadBalancerNames_data();
    void loadBalancerNames();
};

static QJsonObject json(const char *text)
{
    QJsonParseError error;
    const QJsonDocument d = QJsonDocument::fromJson(QByteArray(text), &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("bad test body: %s", qPrintable(error.errorString()));
    return d.object();
}

void TestDebris::volumesRead()
{
    const QList<Volume> volumes = Debris::parseVolumes(QStringLiteral("volumes.json"), json(R"({
        "volumes": [
            {"id": "7a1c0b52-1111-4c1e-9a3a-0d2c7d2b0001", "name": "pv-demo-2f94b45ab3444cff92cbf030591a1126-3f1e",
             "status": "available", "size": 10, "attachments": [],
             "metadata": {"cinder.csi.openstack.org/cluster": "demo-2f94b45ab3444cff92cbf030591a1126",
                          "csi.storage.k8s.io/pv/name": "pv-demo-3f1e", "csi.storage.k8s.io/pvc/name": "data-db-0",
                          "csi.storage.k8s.io/pvc/namespace": "shop"},
             "created_at": "2026-11-28T06:25:15.288987", "updated_at": null},
            {"id": "7a1c0b52-2222-4c1e-9a3a-0d2c7d2b0002", "name": "attached", "status": "in-use", "size": 1,
             "attachments": [{"id": "a1", "attachment_id": "a1", "volume_id": "7a1c0b52-2222-4c1e-9a3a-0d2c7d2b0002",
                              "server_id": "6f0c3e1a-4b2d-4c8e-9a1f-2b3c4d5e6f70", "host_name": null,
                              "device": "/dev/vdb", "attached_at": "2026-11-28T06:30:00.000000"}],
             "metadata": {}, "created_at": "2026-11-28T06:25:15.288987", "updated_at": "2026-11-28T06:30:01.5"},
            {"id": "7a1c0b52-3333-4c1e-9a3a-0d2c7d2b0003", "status": "error_deleting", "metadata": null,
             "created_at": "2026-11-28T06:25:15Z"},
            {"id": "7a1c0b52-4444-4c1e-9a3a-0d2c7d2b0004", "status": "available",
             "metadata": {"cinder.csi.openstack.org/cluster": 42}}
        ],
        "volumes_links": [{"rel": "next", "href": "http://cinder/v3/p/volumes/detail?marker=x"}]
    })"));
    QCOMPARE(volumes.size(), 4);
    const Volume &v = volumes.at(0);
    QCOMPARE(v.status, QStringLiteral("available"));
    QCOMPARE(v.sizeGb, 10);
    QVERIFY(!v.attached());
    QCOMPARE(v.cluster, QStringLiteral("demo-2f94b45ab3444cff92cbf030591a1126"));
    QCOMPARE(v.pvName, QStringLiteral("pv-demo-3f1e"));
    QCOMPARE(v.pvcNamespace, QStringLiteral("shop"));
    QCOMPARE(v.pvcName, QStringLiteral("data-db-0"));
    // Cinder's timestamps have no zone: UTC.
    QCOMPARE(v.createdAt, QDateTime(QDate(2026, 11, 28), QTime(6, 25, 15, 288), Qt::UTC));
    QVERIFY(!v.updatedAt.isValid());
    QVERIFY(volumes.at(1).attached());
    QCOMPARE(
        volumes.at(1).attachedTo, QStringList { QStringLiteral("6f0c3e1a-4b2d-4c8e-9a1f-2b3c4d5e6f70") });
    QVERIFY(volumes.at(1).cluster.isEmpty());
    QVERIFY(volumes.at(2).cluster.isEmpty()); // metadata null
    QVERIFY(volumes.at(2).name.isEmpty());
    QVERIFY(volumes.at(3).cluster.isEmpty()); // not a string: not what the CSI driver wrote
}

void TestDebris::volumesRefused_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("where");
    QTest::newRow("no list") << QByteArray(R"({"volume": []})") << QStringLiteral("$.volumes");
    QTest::newRow("not a list") << QByteArray(R"({"volumes": {}})") << QStringLiteral("$.volumes");
    QTest::newRow("no id") << QByteArray(R"({"volumes": [{"status": "available"}]})")
                           << QStringLiteral("$.volumes[0].id");
    QTest::newRow("no status") << QByteArray(R"({"volumes": [{"id": "v"}]})")
                               << QStringLiteral("$.volumes[0].status");
    QTest::newRow("bad time") << QByteArray(
        R"({"volumes": [{"id": "v", "status": "x", "created_at": "yesterday"}]})")
                              << QStringLiteral("$.volumes[0].created_at");
    QTest::newRow("size text") << QByteArray(R"({"volumes": [{"id": "v", "status": "x", "size": "big"}]})")
                               << QStringLiteral("$.volumes[0].size");
    QTest::newRow("attachments object")
        << QByteArray(R"({"volumes": [{"id": "v", "status": "x", "attachments": {"a": 1}}]})")
        << QStringLiteral("$.volumes[0].attachments");
}

void TestDebris::volumesRefused()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, where);
    try {
        Debris::parseVolumes(QStringLiteral("volumes.json"), QJsonDocument::fromJson(body).object());
        QFAIL("read what is not a volume list");
    } catch (const ParseError &e) {
        QVERIFY2(e.toString().contains(QStringLiteral("volumes.json")) && e.toString().contains(where),
            qPrintable(e.toString()));
    }
}

void TestDebris::loadBalancersRead()
{
    const QList<LoadBalancer> lbs = Debris::parseLoadBalancers(QStringLiteral("loadbalancers.json"), json(R"({
        "loadbalancers": [
            {"id": "lb1", "name": "kube_service_demo_shop_web", "project_id": "2f94b45ab3444cff92cbf030591a1126",
             "provisioning_status": "PENDING_DELETE", "operating_status": "ONLINE", "vip_address": "10.180.0.200",
             "tags": ["kube_service_demo_shop_web"], "created_at": "2017-02-28T00:41:44", "updated_at": null,
             "provider": "octavia", "listeners": [{"id": "l1"}], "pools": []},
            {"id": "lb2", "name": "", "provisioning_status": "ERROR", "tags": []}
        ],
        "loadbalancers_links": []
    })"));
    QCOMPARE(lbs.size(), 2);
    QCOMPARE(lbs.at(0).provisioningStatus, QStringLiteral("PENDING_DELETE"));
    QCOMPARE(lbs.at(0).vipAddress, QStringLiteral("10.180.0.200"));
    QCOMPARE(lbs.at(0).createdAt, QDateTime(QDate(2017, 2, 28), QTime(0, 41, 44), Qt::UTC));
    QVERIFY(!lbs.at(0).updatedAt.isValid());
    QVERIFY(!Debris::serviceOf(lbs.at(1)));
    try {
        Debris::parseLoadBalancers(
            QStringLiteral("loadbalancers.json"), json(R"({"loadbalancers": [{"id": "x", "tags": [1]}]})"));
        QFAIL("read a load balancer without its status");
    } catch (const ParseError &e) {
        QVERIFY2(e.toString().contains(QStringLiteral("provisioning_status")), qPrintable(e.toString()));
    }
}

void TestDebris::volumeClusterIsTheKlustersObjectName()
{
    QCOMPARE(
        Debris::volumeClusterOf(QStringLiteral("demo"), QStringLiteral("2f94b45ab3444cff92cbf030591a1126")),
        QStringLiteral("demo-2f94b45ab3444cff92cbf030591a1126"));
    // The Helm release's name is cut to 63 characters.
    const QString longName = QStringLiteral("a-kluster-with-a-rather-long-name");
    const QString cluster
        = Debris::volumeClusterOf(longName, QStringLiteral("2f94b45ab3444cff92cbf030591a1126"));
    QCOMPARE(cluster.size(), 63);
    QVERIFY(cluster.startsWith(longName + QLatin1Char('-')));
    // Another kluster whose name begins the same is another cluster.
    QVERIFY(Debris::volumeClusterOf(QStringLiteral("demo-2"), QStringLiteral("p"))
        != Debris::volumeClusterOf(QStringLiteral("demo"), QStringLiteral("p")));
}

void TestDebris::loadBalancerNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QStringList>("tags");
    QTest::addColumn<QString>("kluster"); // empty: none
    QTest::addColumn<QString>("service");
    QTest::newRow("the cloud provider's") << QStringLiteral("kube_service_demo_shop_web") << QStringList()
                                          << QStringLiteral("demo") << QStringLiteral("web");
    QTest::newRow("a kluster with a dash")
        << QStringLiteral("kube_service_demo-2_kube-system_ingress") << QStringList()
        << QStringLiteral("demo-2") << QStringLiteral("ingress");
    QTest::newRow("cut in the service") << QStringLiteral("kube_service_demo_shop_we") << QStringList()
                                        << QStringLiteral("demo") << QStringLiteral("we");
    QTest::newRow("cut before the service")
        << QStringLiteral("kube_service_demo_shop") << QStringList() << QStringLiteral("demo") << QString();
    QTest::newRow("renamed, tagged") << QStringLiteral(
        "my-lb") << QStringList { QStringLiteral("team-a"), QStringLiteral("kube_service_blue_default_api") }
                                     << QStringLiteral("blue") << QStringLiteral("api");
    QTest::newRow("before 1.14 (a<uid>)")
        << QStringLiteral("a3f1e9c2d4b5a11e9b6a3fa163e0c1d2f") << QStringList() << QString() << QString();
    QTest::newRow("someone else's") << QStringLiteral("kube_service_") << QStringList() << QString()
                                    << QString();
    QTest::newRow("underscore in the rest")
        << QStringLiteral("kube_service_demo_shop_web_extra") << QStringList() << QString() << QString();
    QTest::newRow("prefix only in the middle")
        << QStringLiteral("x_kube_service_demo_shop_web") << QStringList() << QString() << QString();
}

void TestDebris::loadBalancerNames()
{
    QFETCH(QString, name);
    QFETCH(QStringList, tags);
    QFETCH(QString, kluster);
    QFETCH(QString, service);
    LoadBalancer lb;
    lb.name = name;
    lb.tags = tags;
    const std::optional<ServiceRef> ref = Debris::serviceOf(lb);
    QCOMPARE(ref.has_value(), !kluster.isEmpty());
    if (ref) {
        QCOMPARE(ref->kluster, kluster);
        QCOMPARE(ref->service, service);
    }
}

QTEST_GUILESS_MAIN(TestDebris)
#include "tst_debris.moc"
