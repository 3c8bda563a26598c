// Flightdeck against the real Keystone, Neutron and Nova (Debian 12, Zed) on
// loopback, started by tests/integration/openstack/stack (scripts/test does
// it). The OpenStack side of a kluster is built here through the real APIs,
// as the `member` user; its Kubernetes side (nodes) and the Kubernikus API
// come from the simulator, pointed at the same instances. Then: logins,
// live check, snapshot, every repair kind with its verification, the route
// limit, and the conformance checks on both the real servers and the
// simulator.
//
//   FLIGHTDECK_OPENSTACK_STATE=<state dir of `stack up`> build/tests/integration/tst_openstack
//   FLIGHTDECK_EXAMPLE_DIR=<dir>   also keeps the findings report and the audit log there

#include "core/permission.h"
#include "core/repairgate.h"
#include "services/local/policyfile.h"
#include "services/openstack/keystonesession.h"
#include "services/openstack/klusterfetcher.h"
#include "services/repair/repairexecutor.h"
#include "simulator/scenario.h"
#include "simulator/simulator.h"
#include "tests/common/repairkinds.h"
#include "tests/conformance/conformance.h"
#include "tests/conformance/expected.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using Conformance::Reply;
using Conformance::Session;

namespace {

constexpr auto KlusterName = "real";
const QString PodNetwork = QStringLiteral("100.110.0.0/16");

QByteArray json(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

} // namespace

class TestOpenStack : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void passwordLogin();
    void applicationCredentialLogin();
    void liveCheckFindsThePlantedFailures();
    void preflightVerdictIsTheRealOutcome();
    void snapshotThenCheckGivesTheSameFindings();
    void removeRouteAtomically();
    void addRouteAtomically();
    void removeRouteByGuardedFullUpdate();
    void addRouteByGuardedFullUpdate();
    void concurrentChangeGivesA412AndNothingIsOverwritten();
    void portPairAddedUnderTheRevisionGuard();
    void recycledCidrIncidentAsOneChange_data();
    void recycledCidrIncidentAsOneChange();
    void severalRouteFindingsAsOneChange_data();
    void severalRouteFindingsAsOneChange();
    void createRuleThenItsRepeatIsAlreadyDone();
    void addGroupThenItsRepeatIsAlreadyDone();
    void bootEvidenceFromTheRealNova();
    void stoppedInstanceStartedAgain();
    void deleteInstances();
    void routeLimitForReal();
    void debrisFoundAndCleanedForReal();
    void conformanceOfTheSimulator();

private:
    struct Run
    {
        int exit = -1;
        QString out;
        QString err;
    };
    Run cli(const QStringList &args);
    QStringList findingIds(const QStringList &extra = {});
    Reply api(const QByteArray &method, const QString &service, const QString &path,
        const QJsonObject &body = {}, const QByteArray &microversion = "compute 2.79");
    QString bootServer(const QString &name, const QString &group, const QString &flavorId);
    QJsonObject waitServer(const QString &id, const QStringList &states);
    void setRoutes(const QList<QPair<QString, QString>> &routes);
    QList<QPair<QString, QString>> routes();
    QList<RepairExecutor::Outcome> repairFromOneState(const QString &findingId,
        const DiagnosisOptions &options, int times, const std::function<void()> &beforeSending = {});
    RepairExecutor::Outcome repairInProcess(const QString &findingId, const DiagnosisOptions &options,
        const std::function<void()> &beforeSending = {});
    // The findings repaired together, as the console and `repair --finding A --finding B` do: one step.
    RepairExecutor::Outcome repairTogether(const QStringList &findingIds, const DiagnosisOptions &options,
        const std::function<void()> &beforeSending, RepairPlan *sent);
    QList<int> sendTwice(const QString &findingId);
    QString portOf(const QString &server);
    QStringList pairsOf(const QString &portId);
    Reply setPairs(const QString &portId, const QStringList &pairs);
    CloudConfig memberCloud() const;
    qsizetype serviceWrites() const;
    // A statement in the stage's MariaDB (`stack sql`): what only a volume backend or Octavia's worker would
    // do.
    bool sql(const QString &database, const QString &statement);
    QString volumeStatus(const QString &id);

    QString m_state;
    QNetworkAccessManager m_nam;
    Session m_admin;
    Session m_member;
    std::unique_ptr<Simulator> m_sim;
    std::unique_ptr<QTemporaryDir> m_home;
    QString m_networkId, m_subnetId, m_routerId, m_groupId, m_imageId, m_tinyFlavor;
    QHash<QString, QString> m_ids; // server name -> id
    QHash<QString, QString> m_ips; // server name -> fixed IP
    QString m_orphanIp;
    bool m_errorPlanted = false;
    QStringList m_expected;
};

CloudConfig TestOpenStack::memberCloud() const
{
    CloudConfig c;
    c.name = QStringLiteral("fd-member");
    c.authUrl = QStringLiteral("http://127.0.0.1:5000/v3");
    c.username = QStringLiteral("member");
    c.password = QStringLiteral("member-pass");
    c.userDomainName = QStringLiteral("Default");
    c.projectName = QStringLiteral("flightdeck");
    c.projectDomainName = QStringLiteral("Default");
    c.regionName = QStringLiteral("RegionOne");
    return c;
}

Reply TestOpenStack::api(const QByteArray &method, const QString &service, const QString &path,
    const QJsonObject &body, const QByteArray &microversion)
{
    QList<QPair<QByteArray, QByteArray>> headers { { "X-Auth-Token", m_member.token.toUtf8() } };
    if (service == QLatin1String("compute"))
        headers.append({ "OpenStack-API-Version", microversion });
    QString base = m_member.endpoints.value(service);
    if (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    return Conformance::request(
        m_nam, method, base + path, body.isEmpty() ? QByteArray() : json(body), headers);
}

QString TestOpenStack::bootServer(const QString &name, const QString &group, const QString &flavorId)
{
    const Reply r = api("POST", QStringLiteral("compute"), QStringLiteral("/servers"),
        { { QStringLiteral("server"),
            QJsonObject { { QStringLiteral("name"), name }, { QStringLiteral("flavorRef"), flavorId },
                { QStringLiteral("imageRef"), m_imageId },
                { QStringLiteral("networks"),
                    QJsonArray { QJsonObject { { QStringLiteral("uuid"), m_networkId } } } },
                { QStringLiteral("security_groups"),
                    QJsonArray { QJsonObject { { QStringLiteral("name"), group } } } } } } });
    if (r.status != 202)
        qWarning("boot %s: %d %s", qPrintable(name), r.status, r.body.left(400).constData());
    return r.json().value(QStringLiteral("server")).toObject().value(QStringLiteral("id")).toString();
}

QJsonObject TestOpenStack::waitServer(const QString &id, const QStringList &states)
{
    QJsonObject server;
    for (int i = 0; i < 240; ++i) {
        server = api("GET", QStringLiteral("compute"), QStringLiteral("/servers/") + id)
                     .json()
                     .value(QStringLiteral("server"))
                     .toObject();
        if (states.contains(server.value(QStringLiteral("status")).toString()))
            return server;
        QTest::qWait(500);
    }
    return server;
}

QString TestOpenStack::portOf(const QString &server)
{
    const QJsonArray ports = api(
        "GET", QStringLiteral("network"), QStringLiteral("/v2.0/ports?device_id=") + m_ids.value(server))
                                 .json()
                                 .value(QStringLiteral("ports"))
                                 .toArray();
    return ports.isEmpty() ? QString() : ports.first().toObject().value(QStringLiteral("id")).toString();
}

QStringList TestOpenStack::pairsOf(const QString &portId)
{
    QStringList pairs;
    for (const QJsonValue &p : api("GET", QStringLiteral("network"), QStringLiteral("/v2.0/ports/") + portId)
                                   .json()
                                   .value(QStringLiteral("port"))
                                   .toObject()
                                   .value(QStringLiteral("allowed_address_pairs"))
                                   .toArray())
        pairs << p.toObject().value(QStringLiteral("ip_address")).toString();
    return pairs;
}

Reply TestOpenStack::setPairs(const QString &portId, const QStringList &pairs)
{
    QJsonArray list;
    for (const QString &p : pairs)
        list.append(QJsonObject { { QStringLiteral("ip_address"), p } });
    return api("PUT", QStringLiteral("network"), QStringLiteral("/v2.0/ports/") + portId,
        { { QStringLiteral("port"), QJsonObject { { QStringLiteral("allowed_address_pairs"), list } } } });
}

QList<QPair<QString, QString>> TestOpenStack::routes()
{
    QList<QPair<QString, QString>> list;
    const QJsonObject router
        = api("GET", QStringLiteral("network"), QStringLiteral("/v2.0/routers/") + m_routerId)
              .json()
              .value(QStringLiteral("router"))
              .toObject();
    for (const QJsonValue &v : router.value(QStringLiteral("routes")).toArray())
        list << qMakePair(v.toObject().value(QStringLiteral("destination")).toString(),
            v.toObject().value(QStringLiteral("nexthop")).toString());
    return list;
}

void TestOpenStack::setRoutes(const QList<QPair<QString, QString>> &list)
{
    QJsonArray a;
    for (const auto &r : list)
        a.append(QJsonObject {
            { QStringLiteral("destination"), r.first }, { QStringLiteral("nexthop"), r.second } });
    const Reply r = api("PUT", QStringLiteral("network"), QStringLiteral("/v2.0/routers/") + m_routerId,
        { { QStringLiteral("router"), QJsonObject { { QStringLiteral("routes"), a } } } });
    QVERIFY2(r.status == 200, r.body.constData());
}

void TestOpenStack::initTestCase()
{
    m_state = qEnvironmentVariable("FLIGHTDECK_OPENSTACK_STATE");
    if (m_state.isEmpty() || !QFile::exists(m_state + QStringLiteral("/clouds.yaml")))
        QFAIL("The real OpenStack stack is not running: FLIGHTDECK_OPENSTACK_STATE must name the state "
              "folder of "
              "`tests/integration/openstack/stack up DIR` (scripts/test does this). Not skipped: these tests "
              "must run.");
    // The command line and the repairs made in this process share one audit log, in a folder of the test's
    // own.
    m_home = std::make_unique<QTemporaryDir>();
    qputenv("XDG_DATA_HOME", m_home->filePath(QStringLiteral("data")).toUtf8());
    qputenv("XDG_CONFIG_HOME", m_home->filePath(QStringLiteral("config")).toUtf8());
    m_admin = Conformance::login(m_nam, QStringLiteral("http://127.0.0.1:5000/v3"), QStringLiteral("admin"),
        QStringLiteral("admin-pass"), QStringLiteral("flightdeck"));
    QVERIFY2(m_admin.error.isEmpty(), qPrintable(m_admin.error));
    m_member = Conformance::login(m_nam, QStringLiteral("http://127.0.0.1:5000/v3"), QStringLiteral("member"),
        QStringLiteral("member-pass"), QStringLiteral("flightdeck"));
    QVERIFY2(m_member.error.isEmpty(), qPrintable(m_member.error));

    // The network, subnet, router and security group, as Kubernikus makes them.
    Reply r = api("POST", QStringLiteral("network"), QStringLiteral("/v2.0/networks"),
        { { QStringLiteral("network"),
            QJsonObject { { QStringLiteral("name"), QStringLiteral("kks-real-net") } } } });
    QVERIFY2(r.status == 201, r.body.constData());
    m_networkId = r.json().value(QStringLiteral("network")).toObject().value(QStringLiteral("id")).toString();
    r = api("POST", QStringLiteral("network"), QStringLiteral("/v2.0/subnets"),
        { { QStringLiteral("subnet"),
            QJsonObject { { QStringLiteral("network_id"), m_networkId }, { QStringLiteral("ip_version"), 4 },
                { QStringLiteral("cidr"), QStringLiteral("10.190.0.0/24") },
                { QStringLiteral("name"), QStringLiteral("kks-real-subnet") } } } });
    QVERIFY2(r.status == 201, r.body.constData());
    m_subnetId = r.json().value(QStringLiteral("subnet")).toObject().value(QStringLiteral("id")).toString();
    r = api("POST", QStringLiteral("network"), QStringLiteral("/v2.0/routers"),
        { { QStringLiteral("router"),
            QJsonObject { { QStringLiteral("name"), QStringLiteral("kks-real-router") } } } });
    QVERIFY2(r.status == 201, r.body.constData());
    m_routerId = r.json().value(QStringLiteral("router")).toObject().value(QStringLiteral("id")).toString();
    r = api("PUT", QStringLiteral("network"),
        QStringLiteral("/v2.0/routers/%1/add_router_interface").arg(m_routerId),
        { { QStringLiteral("subnet_id"), m_subnetId } });
    QVERIFY2(r.status == 200, r.body.constData());
    r = api("POST", QStringLiteral("network"), QStringLiteral("/v2.0/security-groups"),
        { { QStringLiteral("security_group"),
            QJsonObject { { QStringLiteral("name"), QStringLiteral("kks-real") } } } });
    QVERIFY2(r.status == 201, r.body.constData());
    m_groupId
        = r.json().value(QStringLiteral("security_group")).toObject().value(QStringLiteral("id")).toString();
    // UDP from the pod network; TCP only on one port (too narrow); no ICMP.
    for (const QJsonObject &rule : { QJsonObject { { QStringLiteral("protocol"), QStringLiteral("udp") } },
             QJsonObject { { QStringLiteral("protocol"), QStringLiteral("tcp") },
                 { QStringLiteral("port_range_min"), 22 }, { QStringLiteral("port_range_max"), 22 } } }) {
        QJsonObject body = rule;
        body.insert(QStringLiteral("security_group_id"), m_groupId);
        body.insert(QStringLiteral("direction"), QStringLiteral("ingress"));
        body.insert(QStringLiteral("ethertype"), QStringLiteral("IPv4"));
        body.insert(QStringLiteral("remote_ip_prefix"), PodNetwork);
        r = api("POST", QStringLiteral("network"), QStringLiteral("/v2.0/security-group-rules"),
            { { QStringLiteral("security_group_rule"), body } });
        QVERIFY2(r.status == 201, r.body.constData());
    }

    // The image and flavors of the stack; one flavor no host can take, made by the admin.
    const Reply images = api("GET", QStringLiteral("image"), QStringLiteral("/v2/images"));
    QVERIFY2(!images.json().value(QStringLiteral("images")).toArray().isEmpty(), images.body.constData());
    m_imageId = images.json()
                    .value(QStringLiteral("images"))
                    .toArray()
                    .first()
                    .toObject()
                    .value(QStringLiteral("id"))
                    .toString();
    for (const QJsonValue &f : api("GET", QStringLiteral("compute"), QStringLiteral("/flavors"))
                                   .json()
                                   .value(QStringLiteral("flavors"))
                                   .toArray()) {
        if (m_tinyFlavor.isEmpty()
            || f.toObject().value(QStringLiteral("name")).toString() == QLatin1String("m1.tiny"))
            m_tinyFlavor = f.toObject().value(QStringLiteral("id")).toString();
    }
    QVERIFY(!m_tinyFlavor.isEmpty());
    const Reply huge = Conformance::request(m_nam, "POST",
        m_admin.endpoints.value(QStringLiteral("compute")) + QStringLiteral("/flavors"),
        json({ { QStringLiteral("flavor"),
            QJsonObject { { QStringLiteral("name"), QStringLiteral("fd-no-host") },
                { QStringLiteral("ram"), 100 * 1024 }, { QStringLiteral("vcpus"), 1 },
                { QStringLiteral("disk"), 1 } } } }),
        { { "X-Auth-Token", m_admin.token.toUtf8() } });
    const QString hugeFlavor
        = huge.json().value(QStringLiteral("flavor")).toObject().value(QStringLiteral("id")).toString();

    // The kluster's instances: a..d and f become nodes; e never registers; f lacks the group; g cannot be
    // placed.
    const QStringList names { QStringLiteral("kks-real-pool-aaaaa"), QStringLiteral("kks-real-pool-bbbbb"),
        QStringLiteral("kks-real-pool-ccccc"), QStringLiteral("kks-real-pool-ddddd"),
        QStringLiteral("kks-real-pool-eeeee"), QStringLiteral("kks-real-pool-fffff") };
    for (const QString &name : names)
        m_ids.insert(name,
            bootServer(name,
                name.endsWith(QLatin1String("fffff")) ? QStringLiteral("default")
                                                      : QStringLiteral("kks-real"),
                m_tinyFlavor));
    QString errorId;
    if (!hugeFlavor.isEmpty())
        errorId = bootServer(QStringLiteral("kks-real-pool-ggggg"), QStringLiteral("kks-real"), hugeFlavor);
    for (const QString &name : names) {
        const QJsonObject server
            = waitServer(m_ids.value(name), { QStringLiteral("ACTIVE"), QStringLiteral("ERROR") });
        QVERIFY2(server.value(QStringLiteral("status")).toString() == QLatin1String("ACTIVE"),
            qPrintable(name + QStringLiteral(": ") + QString::fromUtf8(json(server))));
        const QJsonObject addresses = server.value(QStringLiteral("addresses")).toObject();
        QVERIFY(!addresses.isEmpty());
        m_ips.insert(name,
            addresses.begin().value().toArray().first().toObject().value(QStringLiteral("addr")).toString());
    }
    if (!errorId.isEmpty()) {
        const QJsonObject server = waitServer(errorId, { QStringLiteral("ERROR"), QStringLiteral("ACTIVE") });
        m_errorPlanted = server.value(QStringLiteral("status")).toString() == QLatin1String("ERROR");
        m_ids.insert(QStringLiteral("kks-real-pool-ggggg"), errorId);
        if (!m_errorPlanted)
            qWarning("the fake driver placed the no-host flavor: no instance in ERROR is planted (%s)",
                json(server).constData());
    }

    // An address that nobody will have: a port made and deleted (its route stays).
    r = api("POST", QStringLiteral("network"), QStringLiteral("/v2.0/ports"),
        { { QStringLiteral("port"),
            QJsonObject { { QStringLiteral("network_id"), m_networkId },
                { QStringLiteral("name"), QStringLiteral("kks-real-gone") } } } });
    QVERIFY2(r.status == 201, r.body.constData());
    const QJsonObject port = r.json().value(QStringLiteral("port")).toObject();
    m_orphanIp = port.value(QStringLiteral("fixed_ips"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("ip_address"))
                     .toString();

    // Routes: a recycled pod CIDR routed first to the gone address (duplicate),
    // an orphan, c's pod CIDR routed to a (stale), none for d (missing), and
    // foreign routes up to 24 of the 30 (the limit's warning).
    const QString a = m_ips.value(names.at(0)), b = m_ips.value(names.at(1)), f = m_ips.value(names.at(5));
    QList<QPair<QString, QString>> list { { QStringLiteral("100.110.2.0/24"), m_orphanIp },
        { QStringLiteral("100.110.1.0/24"), a }, { QStringLiteral("100.110.2.0/24"), b },
        { QStringLiteral("100.110.3.0/24"), a }, { QStringLiteral("100.110.6.0/24"), f },
        { QStringLiteral("100.110.9.0/24"), m_orphanIp } };
    for (int i = 0; list.size() < 24; ++i)
        list << qMakePair(QStringLiteral("10.250.%1.0/24").arg(i), a);
    setRoutes(list);
    r = api("DELETE", QStringLiteral("network"),
        QStringLiteral("/v2.0/ports/") + port.value(QStringLiteral("id")).toString());
    QVERIFY2(r.status == 204, r.body.constData());
    QCOMPARE(routes().size(), 24); // the orphan's routes stay

    // The Kubernetes side and Kubernikus: the simulator, joined to these instances.
    QJsonArray nodes;
    const QList<QPair<QString, QJsonObject>> nodeSpecs {
        { names.at(0), { { QStringLiteral("podCIDR"), QStringLiteral("100.110.1.0/24") } } },
        { names.at(1), { { QStringLiteral("podCIDR"), QStringLiteral("100.110.2.0/24") } } },
        { names.at(2),
            { { QStringLiteral("podCIDR"), QStringLiteral("100.110.3.0/24") },
                { QStringLiteral("ready"), QStringLiteral("Unknown") } } },
        { names.at(3),
            { { QStringLiteral("podCIDR"), QStringLiteral("100.110.4.0/24") },
                { QStringLiteral("networkUnavailable"), QStringLiteral("True") } } },
        { names.at(5), { { QStringLiteral("podCIDR"), QStringLiteral("100.110.6.0/24") } } }
    };
    for (const auto &spec : nodeSpecs) {
        QJsonObject n = spec.second;
        n.insert(QStringLiteral("name"), spec.first);
        n.insert(QStringLiteral("pool"), QStringLiteral("pool"));
        n.insert(QStringLiteral("internalIP"), m_ips.value(spec.first));
        n.insert(QStringLiteral("providerID"), QStringLiteral("openstack:///") + m_ids.value(spec.first));
        nodes.append(n);
    }
    QJsonObject kluster;
    kluster.insert(QStringLiteral("name"), QString::fromLatin1(KlusterName));
    kluster.insert(QStringLiteral("clusterCIDR"), PodNetwork);
    kluster.insert(QStringLiteral("securityGroupName"), QStringLiteral("kks-real"));
    QJsonObject pool;
    pool.insert(QStringLiteral("name"), QStringLiteral("pool"));
    pool.insert(QStringLiteral("size"), m_errorPlanted ? 7 : 6);
    kluster.insert(QStringLiteral("pools"), QJsonArray { pool });
    QJsonObject openstack;
    openstack.insert(QStringLiteral("projectID"), m_member.projectId);
    openstack.insert(QStringLiteral("routerID"), m_routerId);
    openstack.insert(QStringLiteral("networkID"), m_networkId);
    kluster.insert(QStringLiteral("openstack"), openstack);
    kluster.insert(QStringLiteral("nodes"), nodes);
    QJsonObject project;
    project.insert(QStringLiteral("name"), QStringLiteral("flightdeck"));
    project.insert(QStringLiteral("klusters"), QJsonArray { kluster });
    QJsonObject scenario;
    scenario.insert(QStringLiteral("description"),
        QStringLiteral("The Kubernetes side of a kluster whose OpenStack side is a real cloud"));
    scenario.insert(QStringLiteral("region"), QStringLiteral("RegionOne"));
    scenario.insert(QStringLiteral("externalIdentity"), true);
    scenario.insert(QStringLiteral("cloud"),
        QJsonObject { { QStringLiteral("routeController"), false },
            { QStringLiteral("replaceDeletedInstances"), false } });
    scenario.insert(QStringLiteral("projects"), QJsonArray { project });
    m_sim = std::make_unique<Simulator>();
    QString error;
    QVERIFY2(Scenario::load(json(scenario), m_sim->world(), m_sim->faults(), &error), qPrintable(error));
    QVERIFY2(m_sim->start(Simulator::Ports(), &error), qPrintable(error));

    // Kubernikus in the real catalog (the admin's doing, as an operator's).
    const QList<QPair<QByteArray, QByteArray>> admin { { "X-Auth-Token", m_admin.token.toUtf8() } };
    const QString keystone = QStringLiteral("http://127.0.0.1:5000/v3");
    for (const QJsonValue &s :
        Conformance::request(m_nam, "GET", keystone + QStringLiteral("/services?type=kubernikus"), {}, admin)
            .json()
            .value(QStringLiteral("services"))
            .toArray())
        Conformance::request(m_nam, "DELETE",
            keystone + QStringLiteral("/services/") + s.toObject().value(QStringLiteral("id")).toString(), {},
            admin);
    r = Conformance::request(m_nam, "POST", keystone + QStringLiteral("/services"),
        json({ { QStringLiteral("service"),
            QJsonObject { { QStringLiteral("type"), QStringLiteral("kubernikus") },
                { QStringLiteral("name"), QStringLiteral("kubernikus") } } } }),
        admin);
    QVERIFY2(r.status == 201, r.body.constData());
    const QString serviceId
        = r.json().value(QStringLiteral("service")).toObject().value(QStringLiteral("id")).toString();
    for (const QString &iface : { QStringLiteral("public"), QStringLiteral("internal") }) {
        r = Conformance::request(m_nam, "POST", keystone + QStringLiteral("/endpoints"),
            json({ { QStringLiteral("endpoint"),
                QJsonObject { { QStringLiteral("service_id"), serviceId },
                    { QStringLiteral("interface"), iface },
                    { QStringLiteral("region_id"), QStringLiteral("RegionOne") },
                    { QStringLiteral("url"), m_sim->endpoint(QStringLiteral("kubernikus")) } } } }),
            admin);
        QVERIFY2(r.status == 201, r.body.constData());
    }
    m_member = Conformance::login(m_nam, keystone, QStringLiteral("member"), QStringLiteral("member-pass"),
        QStringLiteral("flightdeck")); // the new catalog

    // The cloud provider allowed each node's pod CIDR on its port, but for b, whose update was lost: its port
    // allows only an address of an operator's.
    for (const auto &spec : nodeSpecs) {
        const QString port = portOf(spec.first);
        QVERIFY2(!port.isEmpty(), qPrintable(spec.first));
        const QStringList pairs = spec.first == names.at(1)
            ? QStringList { QStringLiteral("10.190.0.250") }
            : QStringList { spec.second.value(QStringLiteral("podCIDR")).toString() };
        r = setPairs(port, pairs);
        QVERIFY2(r.status == 200, r.body.constData());
    }

    m_expected = QStringList {
        QStringLiteral("instance-missing-security-group:kks-real-pool-fffff"),
        QStringLiteral("port-address-pair-missing:kks-real-pool-bbbbb"),
        QStringLiteral("instance-unregistered:kks-real-pool-eeeee"),
        QStringLiteral("node-network-unavailable:kks-real-pool-ddddd"),
        QStringLiteral("node-not-ready:kks-real-pool-ccccc"),
        QStringLiteral("route-duplicate:100.110.2.0/24"),
        QStringLiteral("route-limit:") + m_routerId,
        QStringLiteral("route-missing:kks-real-pool-ccccc"),
        QStringLiteral("route-missing:kks-real-pool-ddddd"),
        QStringLiteral("route-orphaned:100.110.9.0/24 via ") + m_orphanIp,
        QStringLiteral("route-stale:100.110.3.0/24 via ") + a,
        QStringLiteral("security-group-rule-missing:icmp"),
        QStringLiteral("security-group-rule-missing:tcp"),
    };
    if (m_errorPlanted)
        m_expected << QStringLiteral("instance-error:kks-real-pool-ggggg");
    m_expected.sort();
}

void TestOpenStack::cleanupTestCase()
{
    if (m_home) {
        const QString keep = qEnvironmentVariable("FLIGHTDECK_EXAMPLE_DIR");
        if (!keep.isEmpty()) {
            QDir().mkpath(keep);
            const QString audit = m_home->filePath(QStringLiteral("data/flightdeck/audit.jsonl"));
            QFile::remove(keep + QStringLiteral("/audit.jsonl"));
            QFile::copy(audit, keep + QStringLiteral("/audit.jsonl"));
        }
    }
    m_sim.reset();
}

TestOpenStack::Run TestOpenStack::cli(const QStringList &args)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString &key : env.keys()) {
        if (key.startsWith(QLatin1String("OS_")) || key == QLatin1String("KUBECONFIG"))
            env.remove(key);
    }
    env.insert(QStringLiteral("OS_CLIENT_CONFIG_FILE"), m_state + QStringLiteral("/clouds.yaml"));
    env.insert(QStringLiteral("HOME"), m_home->path());
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home->filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), m_home->filePath(QStringLiteral("data")));
    p.setProcessEnvironment(env);
    QSignalSpy finished(&p, &QProcess::finished);
    // No Kubernikus controller runs on this cloud: said to the commands that diagnose (diagnosis.md §7).
    QStringList given = args;
    static const QStringList diagnosing { QStringLiteral("check"), QStringLiteral("repair"),
        QStringLiteral("diff"), QStringLiteral("routes"), QStringLiteral("serve") };
    if (!given.isEmpty() && diagnosing.contains(given.first()))
        given.insert(1, QStringLiteral("--no-automation"));
    p.start(QStringLiteral(FLIGHTDECK_CLI), given);
    if (!p.waitForStarted(30000)) // (its binary being relinked meanwhile): said at once, never waited for
        return Run { -1, QString(), QStringLiteral("flightdeck-cli did not start: ") + p.errorString() };
    if (!finished.wait(180000)) { // the simulator answers from this event loop meanwhile
        p.kill();
        p.waitForFinished(5000);
    }
    Run r { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
        QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError()) };
    if (r.exit != 0 && r.exit != 1 && r.exit != 2)
        qWarning().noquote() << "flightdeck-cli" << args.join(QLatin1Char(' ')) << "->" << r.exit << "\n"
                             << r.out.right(3000) << r.err.right(3000);
    return r;
}

QStringList TestOpenStack::findingIds(const QStringList &extra)
{
    const Run r = cli(QStringList { QStringLiteral("check"), QStringLiteral("--cloud"),
                          QStringLiteral("fd-member"), QStringLiteral("--kluster"),
                          QString::fromLatin1(KlusterName), QStringLiteral("--startup-timeout"),
                          QStringLiteral("1s"), QStringLiteral("--format"), QStringLiteral("json") }
        + extra);
    QStringList ids;
    for (const QJsonValue &f :
        QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("findings")).toArray())
        ids << f.toObject().value(QStringLiteral("id")).toString();
    ids.sort();
    return ids;
}

void TestOpenStack::passwordLogin()
{
    HttpClient client;
    KeystoneSession session(&client, memberCloud());
    QSignalSpy done(session.authenticate(), &HttpCall::finished);
    QVERIFY(done.wait(60000));
    const ApiResponse r = done.first().first().value<ApiResponse>();
    QVERIFY2(!r.error.isError(), qPrintable(r.error.toString()));
    QVERIFY(session.hasToken());
    QCOMPARE(session.userName(), QStringLiteral("member"));
    QCOMPARE(session.projectName(), QStringLiteral("flightdeck"));
    QVERIFY(session.endpoint(QStringLiteral("network")).startsWith(QStringLiteral("http://127.0.0.1:")));
    QVERIFY(session.endpoint(QStringLiteral("compute")).startsWith(QStringLiteral("http://127.0.0.1:")));
    QVERIFY(session.expiresAt() > QDateTime::currentDateTimeUtc());
}

void TestOpenStack::applicationCredentialLogin()
{
    const Reply created = Conformance::request(m_nam, "POST",
        QStringLiteral("http://127.0.0.1:5000/v3/users/%1/application_credentials").arg(m_member.userId),
        json({ { QStringLiteral("application_credential"),
            QJsonObject { { QStringLiteral("name"),
                QStringLiteral("flightdeck-%1").arg(QDateTime::currentMSecsSinceEpoch()) } } } }),
        { { "X-Auth-Token", m_member.token.toUtf8() } });
    QVERIFY2(created.status == 201, created.body.constData());
    const QJsonObject credential = created.json().value(QStringLiteral("application_credential")).toObject();
    CloudConfig c;
    c.name = QStringLiteral("fd-appcred");
    c.authType = QStringLiteral("v3applicationcredential");
    c.authUrl = QStringLiteral("http://127.0.0.1:5000/v3");
    c.applicationCredentialId = credential.value(QStringLiteral("id")).toString();
    c.applicationCredentialSecret = credential.value(QStringLiteral("secret")).toString();
    HttpClient client;
    KeystoneSession session(&client, c);
    QSignalSpy routers(
        session.send(QStringLiteral("network"), "GET", QStringLiteral("/v2.0/routers")), &HttpCall::finished);
    QVERIFY(routers.wait(60000));
    const ApiResponse r = routers.first().first().value<ApiResponse>();
    QVERIFY2(!r.error.isError(), qPrintable(r.error.toString()));
    QCOMPARE(r.status, 200);
    QVERIFY(r.body.contains(m_routerId.toUtf8()));
    QCOMPARE(session.projectName(), QStringLiteral("flightdeck"));

    // A wrong secret is refused with Keystone's own words.
    c.applicationCredentialSecret = QStringLiteral("wrong");
    KeystoneSession wrong(&client, c);
    QSignalSpy refused(wrong.authenticate(), &HttpCall::finished);
    QVERIFY(refused.wait(60000));
    const ApiResponse w = refused.first().first().value<ApiResponse>();
    QVERIFY(w.error.isError());
    QVERIFY2(w.error.toString().contains(QStringLiteral("401")), qPrintable(w.error.toString()));
}

void TestOpenStack::liveCheckFindsThePlantedFailures()
{
    const QStringList ids = findingIds();
    QCOMPARE(ids, m_expected);
    const Run report = cli({ QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("fd-member"),
        QStringLiteral("--kluster"), QString::fromLatin1(KlusterName), QStringLiteral("--startup-timeout"),
        QStringLiteral("1s") });
    QCOMPARE(report.exit, 2); // critical findings
    // Know before you click (diagnosis.md §8), against the real Keystone: the member's token read from its
    // own sign-in, each of its repairs' OpenStack requests judged allowed; the tests below then send them and
    // the real Neutron and Nova accept them (the verdict is the outcome).
    {
        const Run json = cli({ QStringLiteral("check"), QStringLiteral("--cloud"),
            QStringLiteral("fd-member"), QStringLiteral("--kluster"), QString::fromLatin1(KlusterName),
            QStringLiteral("--startup-timeout"), QStringLiteral("1s"), QStringLiteral("--format"),
            QStringLiteral("json") });
        int judged = 0;
        for (const QJsonValue &f :
            QJsonDocument::fromJson(json.out.toUtf8()).object().value(QStringLiteral("findings")).toArray()) {
            const QJsonArray requests = f.toObject()
                                            .value(QStringLiteral("repair"))
                                            .toObject()
                                            .value(QStringLiteral("requests"))
                                            .toArray();
            for (const QJsonValue &r : requests) {
                const QJsonObject request = r.toObject();
                const QString service = request.value(QStringLiteral("service")).toString();
                if (service == QLatin1String("kubernetes")
                    || request.value(QStringLiteral("path"))
                           .toString()
                           .startsWith(QLatin1String("/v2.0/asr1k/")))
                    continue;
                ++judged;
                QVERIFY2(request.value(QStringLiteral("permission")).toString() == QLatin1String("allowed"),
                    qPrintable(QJsonDocument(request).toJson(QJsonDocument::Compact)));
            }
        }
        QVERIFY(judged > 0);
    }
    const QString keep = qEnvironmentVariable("FLIGHTDECK_EXAMPLE_DIR");
    if (!keep.isEmpty()) {
        QDir().mkpath(keep);
        QFile text(keep + QStringLiteral("/findings.txt"));
        QVERIFY(text.open(QIODevice::WriteOnly));
        text.write(report.out.toUtf8());
        const Run json = cli({ QStringLiteral("check"), QStringLiteral("--cloud"),
            QStringLiteral("fd-member"), QStringLiteral("--kluster"), QString::fromLatin1(KlusterName),
            QStringLiteral("--startup-timeout"), QStringLiteral("1s"), QStringLiteral("--format"),
            QStringLiteral("json") });
        QFile file(keep + QStringLiteral("/findings.json"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(json.out.toUtf8());
    }
}

// Know before you click (diagnosis.md §8) against the real Keystone, Neutron and Nova running their new
// default roles (`enforce_new_defaults`): every repair kind judged for the reader, the member and an
// application credential of the member's restricted to GETs, each from its own token; every request judged
// denied is sent as it stands and refused by the real service (403; 401 for an access rule), so nothing
// changes; the member's, all allowed, are sent by the tests below and accepted. Then Flightdeck's own repair
// as the reader sends no write: the services' request logs hold not one more.
void TestOpenStack::preflightVerdictIsTheRealOutcome()
{
    const QString keystone = QStringLiteral("http://127.0.0.1:5000/v3");
    QJsonArray getsOnly;
    for (const auto &[service, path] : { std::pair { "compute", "/v2.1/**" },
             std::pair { "network", "/v2.0/**" }, std::pair { "kubernikus", "/**" } })
        getsOnly.append(QJsonObject { { QStringLiteral("service"), QLatin1String(service) },
            { QStringLiteral("method"), QStringLiteral("GET") },
            { QStringLiteral("path"), QLatin1String(path) } });
    const Reply created = Conformance::request(m_nam, "POST",
        keystone + QStringLiteral("/users/%1/application_credentials").arg(m_member.userId),
        json({ { QStringLiteral("application_credential"),
            QJsonObject {
                { QStringLiteral("name"),
                    QStringLiteral("flightdeck-readonly-%1").arg(QDateTime::currentMSecsSinceEpoch()) },
                { QStringLiteral("access_rules"), getsOnly } } } }),
        { { "X-Auth-Token", m_member.token.toUtf8() } });
    QVERIFY2(created.status == 201, created.body.constData());
    const QJsonObject credential = created.json().value(QStringLiteral("application_credential")).toObject();

    CloudConfig reader = memberCloud();
    reader.name = QStringLiteral("fd-reader");
    reader.username = QStringLiteral("reader");
    reader.password = QStringLiteral("reader-pass");
    CloudConfig readOnly;
    readOnly.name = QStringLiteral("fd-readonly");
    readOnly.authType = QStringLiteral("v3applicationcredential");
    readOnly.authUrl = keystone;
    readOnly.regionName = QStringLiteral("RegionOne");
    readOnly.applicationCredentialId = credential.value(QStringLiteral("id")).toString();
    readOnly.applicationCredentialSecret = credential.value(QStringLiteral("secret")).toString();
    struct Who
    {
        QString name;
        CloudConfig cloud;
        bool mayChange;
    };
    // The services' own effective policies, as their operators would hand them over (oslo.policy's generator
    // over the running configuration): read as policy files, they judge no cell against what the services do.
    QStringList policyFiles;
    for (const auto &[service, nameSpace, conf] :
        { std::tuple { "network", "neutron", "/etc/neutron/neutron.conf" },
            std::tuple { "compute", "nova", "/etc/nova-api/nova.conf" } }) {
        const QString file = m_home->filePath(QStringLiteral("%1-policy.yaml").arg(QLatin1String(nameSpace)));
        QProcess generator;
        generator.start(QStringLiteral("/usr/bin/oslopolicy-policy-generator"),
            { QStringLiteral("--namespace"), QLatin1String(nameSpace), QStringLiteral("--config-file"),
                m_state + QLatin1String(conf), QStringLiteral("--output-file"), file });
        QVERIFY2(generator.waitForFinished(120000) && generator.exitCode() == 0,
            generator.readAllStandardError().right(2000).constData());
        policyFiles << QLatin1String(service) + QLatin1Char('=') + file;
    }
    std::shared_ptr<const PolicyProfile> generated;
    QString policyError;
    QVERIFY2(
        PolicyFiles::profile(policyFiles, &generated, &policyError) && generated, qPrintable(policyError));
    DiagnosisOptions options;
    options.startupTimeoutSeconds = 1;
    options.automation = false;
    int refusedByTheServices = 0;
    int judgedByTheFiles = 0;
    for (const Who &who : { Who { QStringLiteral("reader"), reader, false },
             Who { QStringLiteral("member"), memberCloud(), true },
             Who { QStringLiteral("GET-only application credential"), readOnly, false } }) {
        HttpClient client;
        KeystoneSession session(&client, who.cloud);
        KlusterFetcher fetcher(&session, QString::fromLatin1(KlusterName));
        QSignalSpy spy(&fetcher, &KlusterFetcher::finished);
        fetcher.start();
        QVERIFY(spy.wait(120000));
        const KlusterFetch fetch = spy.first().first().value<KlusterFetch>();
        QVERIFY2(fetch.state.klusterSource.known, qPrintable(who.name + fetch.state.klusterSource.error));
        QVERIFY2(fetch.state.credentials, qPrintable(who.name));
        QVERIFY2(fetch.state.serversSource.known && fetch.state.routerSource.known
                && fetch.state.securityGroupsSource.known,
            qPrintable(who.name + QStringLiteral(": ") + SourceError::joined(fetch.errors)));
        QCOMPARE(
            fetch.state.credentials->identity.accessRules.has_value(), who.cloud.isApplicationCredential());
        const Diagnosis diagnosis = Diagnosis::run(fetch.state, options);
        QSet<QString> kinds;
        for (RepairPlan &plan : RepairKinds::plansOf(fetch.state, diagnosis)) {
            Credentials::judgePlan(plan, fetch.state.credentials.get());
            kinds.insert(RepairKinds::name(plan.action));
            for (const PlannedRequest &r : std::as_const(plan.requests)) {
                // The kluster's API server (here the simulator's) judges Kubernetes writes; this cloud has no
                // ASR driver, whose API answers 404 to everyone.
                if (r.service == QLatin1String("kubernetes")
                    || r.path.startsWith(QLatin1String("/v2.0/asr1k/")))
                    continue;
                const QString cell = QStringLiteral("%1 × %2: %3 (%4: %5)")
                                         .arg(who.name, RepairKinds::name(plan.action), r.summary(),
                                             Permissions::name(r.permission.permission), r.permission.reason);
                QVERIFY2(
                    r.permission.permission == (who.mayChange ? Permission::Allowed : Permission::Denied),
                    qPrintable(cell));
                {
                    Credentials withFiles = *fetch.state.credentials;
                    withFiles.profile = generated;
                    const PermissionVerdict byFiles = withFiles.judge(r);
                    QVERIFY2(byFiles.permission != (who.mayChange ? Permission::Denied : Permission::Allowed),
                        qPrintable(cell + QStringLiteral(", with the services' own policy files: ")
                            + Permissions::name(byFiles.permission) + QStringLiteral(": ") + byFiles.reason));
                    judgedByTheFiles += byFiles.permission == Permission::Unknown ? 0 : 1;
                }
                if (who.mayChange)
                    continue; // sent by the tests below, and accepted
                QSignalSpy answered(session.send(r.service, r.method.toUtf8(), r.path, RepairKinds::bodyOf(r),
                                        RepairKinds::headersOf(r)),
                    &HttpCall::finished);
                QVERIFY(answered.wait(60000));
                const ApiResponse response = answered.first().first().value<ApiResponse>();
                QVERIFY2(response.status == 401 || response.status == 403,
                    qPrintable(cell
                        + QStringLiteral(": the real service answered %1 %2")
                              .arg(response.status)
                              .arg(QString::fromUtf8(response.body.left(300)))));
                ++refusedByTheServices;
            }
        }
        // Every kind with an OpenStack request (a node's deletion is the kluster's API server's alone, and
        // the Kubernikus here hands a reader no kubeconfig to read nodes with).
        for (const QString &kind : RepairKinds::all())
            QVERIFY2(kinds.contains(kind) || kind == QLatin1String("DeleteNode"),
                qPrintable(who.name + QStringLiteral(": no ") + kind));
    }
    qInfo("%d denied requests refused by the real services; %d verdicts decided by their own policy files",
        refusedByTheServices, judgedByTheFiles);
    QVERIFY(refusedByTheServices > 20);
    QVERIFY(judgedByTheFiles > 20); // most cells decided by the files' rules, not left unknown
    QCOMPARE(findingIds(), m_expected); // nothing changed

    // Flightdeck's own path as the reader: a guide, exit 2, and not one request that could change something.
    const qsizetype before = serviceWrites();
    for (const QString &id : { QStringLiteral("security-group-rule-missing:tcp"),
             QStringLiteral("instance-missing-security-group:kks-real-pool-fffff"),
             QStringLiteral("route-duplicate:100.110.2.0/24") }) {
        const Run r = cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("fd-reader"),
            QStringLiteral("--kluster"), QString::fromLatin1(KlusterName),
            QStringLiteral("--startup-timeout"), QStringLiteral("1s"), QStringLiteral("--finding"), id,
            QStringLiteral("--yes") });
        QVERIFY2(r.exit == 2 && r.err.contains(QStringLiteral("NotPermitted")),
            qPrintable(QStringLiteral("%1: exit %2\n%3\n%4").arg(id).arg(r.exit).arg(r.out, r.err)));
        QVERIFY2(r.out.contains(QStringLiteral("Guided manual repair")), qPrintable(r.out));
    }
    QCOMPARE(serviceWrites(), before);
}

// How many requests that could change something (POST, PUT, PATCH, DELETE) Neutron and the Nova API have
// logged so far: what a refused repair must not add to.
qsizetype TestOpenStack::serviceWrites() const
{
    static const QRegularExpression write(QStringLiteral("\"(POST|PUT|PATCH|DELETE) /"));
    qsizetype n = 0;
    for (const QString &log : { QStringLiteral("/log/neutron.log"), QStringLiteral("/log/nova-api.log") }) {
        QFile file(m_state + log);
        if (!file.open(QIODevice::ReadOnly))
            continue;
        n += QString::fromUtf8(file.readAll()).count(write);
    }
    return n;
}

void TestOpenStack::snapshotThenCheckGivesTheSameFindings()
{
    const QString dir = m_home->filePath(QStringLiteral("snapshot"));
    const Run snap = cli({ QStringLiteral("snapshot"), QStringLiteral("--cloud"), QStringLiteral("fd-member"),
        QStringLiteral("--kluster"), QString::fromLatin1(KlusterName), QStringLiteral("--out"), dir });
    QVERIFY2(snap.exit == 0, qPrintable(snap.err));
    const Run check = cli(
        { QStringLiteral("check"), QStringLiteral("--snapshot"), dir, QStringLiteral("--startup-timeout"),
            QStringLiteral("1s"), QStringLiteral("--format"), QStringLiteral("json") });
    QStringList ids;
    for (const QJsonValue &f :
        QJsonDocument::fromJson(check.out.toUtf8()).object().value(QStringLiteral("findings")).toArray())
        ids << f.toObject().value(QStringLiteral("id")).toString();
    ids.sort();
    QCOMPARE(ids, m_expected);
    // No token or password in the snapshot.
    for (const QString &file : QDir(dir).entryList(QDir::Files)) {
        QFile f(QDir(dir).filePath(file));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray body = f.readAll();
        QVERIFY2(!body.contains("member-pass") && !body.contains(m_member.token.toUtf8()), qPrintable(file));
    }
}

void TestOpenStack::removeRouteAtomically()
{
    const QString id = QStringLiteral("route-orphaned:100.110.9.0/24 via ") + m_orphanIp;
    const Run r = cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("fd-member"),
        QStringLiteral("--kluster"), QString::fromLatin1(KlusterName), QStringLiteral("--startup-timeout"),
        QStringLiteral("1s"), QStringLiteral("--finding"), id, QStringLiteral("--yes") });
    QVERIFY2(r.exit == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains(QStringLiteral("remove_extraroutes")), qPrintable(r.out));
    QVERIFY(!routes().contains(qMakePair(QStringLiteral("100.110.9.0/24"), m_orphanIp)));
    // The duplicate too: the wrong first route goes, the correct one stays.
    const Run d = cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("fd-member"),
        QStringLiteral("--kluster"), QString::fromLatin1(KlusterName), QStringLiteral("--startup-timeout"),
        QStringLiteral("1s"), QStringLiteral("--finding"), QStringLiteral("route-duplicate:100.110.2.0/24"),
        QStringLiteral("--yes") });
    QVERIFY2(d.exit == 0, qPrintable(d.out + d.err));
    QVERIFY(routes().contains(
        qMakePair(QStringLiteral("100.110.2.0/24"), m_ips.value(QStringLiteral("kks-real-pool-bbbbb")))));
    QVERIFY(!routes().contains(qMakePair(QStringLiteral("100.110.2.0/24"), m_orphanIp)));
}

void TestOpenStack::addRouteAtomically()
{
    const Run r = cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("fd-member"),
        QStringLiteral("--kluster"), QString::fromLatin1(KlusterName), QStringLiteral("--startup-timeout"),
        QStringLiteral("1s"), QStringLiteral("--finding"),
        QStringLiteral("route-missing:kks-real-pool-ddddd"), QStringLiteral("--yes") });
    QVERIFY2(r.exit == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains(QStringLiteral("add_extraroutes")), qPrintable(r.out));
    QVERIFY(routes().contains(
        qMakePair(QStringLiteral("100.110.4.0/24"), m_ips.value(QStringLiteral("kks-real-pool-ddddd")))));
}

void TestOpenStack::removeRouteByGuardedFullUpdate()
{
    const QString id = QStringLiteral("route-stale:100.110.3.0/24 via ")
        + m_ips.value(QStringLiteral("kks-real-pool-aaaaa"));
    const Run r = cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("fd-member"),
        QStringLiteral("--kluster"), QString::fromLatin1(KlusterName), QStringLiteral("--startup-timeout"),
        QStringLiteral("1s"), QStringLiteral("--full-route-updates"), QStringLiteral("--finding"), id,
        QStringLiteral("--yes") });
    QVERIFY2(r.exit == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains(QStringLiteral("If-Match: revision_number=")), qPrintable(r.out));
    QVERIFY(!routes().contains(
        qMakePair(QStringLiteral("100.110.3.0/24"), m_ips.value(QStringLiteral("kks-real-pool-aaaaa")))));
}

void TestOpenStack::addRouteByGuardedFullUpdate()
{
    const QList<QPair<QString, QString>> before = routes();
    const Run r = cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("fd-member"),
        QStringLiteral("--kluster"), QString::fromLatin1(KlusterName), QStringLiteral("--startup-timeout"),
        QStringLiteral("1s"), QStringLiteral("--full-route-updates"), QStringLiteral("--finding"),
        QStringLiteral("route-missing:kks-real-pool-ccccc"), QStringLiteral("--yes") });
    QVERIFY2(r.exit == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains(QStringLiteral("If-Match: revision_number=")), qPrintable(r.out));
    const QList<QPair<QString, QString>> after = routes();
    QCOMPARE(after.size(), before.size() + 1);
    for (const auto &route : before) // the others kept (Neutron answers them in its own order)
        QVERIFY(after.contains(route));
    QVERIFY(after.contains(
        qMakePair(QStringLiteral("100.110.3.0/24"), m_ips.value(QStringLiteral("kks-real-pool-ccccc")))));
}

QList<RepairExecutor::Outcome> TestOpenStack::repairFromOneState(const QString &findingId,
    const DiagnosisOptions &options, int times, const std::function<void()> &beforeSending)
{
    HttpClient client;
    KeystoneSession session(&client, memberCloud());
    KlusterFetcher fetcher(&session, QString::fromLatin1(KlusterName));
    QSignalSpy fetched(&fetcher, &KlusterFetcher::finished);
    fetcher.start();
    if (!fetched.wait(120000))
        return {};
    const KlusterFetch state = fetched.first().first().value<KlusterFetch>();
    const Diagnosis diagnosis = Diagnosis::run(state.state, options);
    const Finding *finding = diagnosis.find(findingId);
    if (!finding) {
        RepairExecutor::Outcome none;
        none.message = QStringLiteral("no finding ") + findingId;
        return { none };
    }
    if (beforeSending)
        beforeSending();
    // The same plan, from the same state, `times` times: a repeat meets what the first one did.
    const std::optional<RepairPlan> plan = finding->repair();
    if (!plan) {
        RepairExecutor::Outcome none;
        none.message = QStringLiteral("no repair of ") + findingId;
        return { none };
    }
    QList<RepairExecutor::Outcome> outcomes;
    for (int i = 0; i < times; ++i) {
        RepairExecutor executor(&session, QString::fromLatin1(KlusterName), state.state, { *finding }, *plan,
            diagnosis.budget, options);
        QSignalSpy finished(&executor, &RepairExecutor::finished);
        executor.start();
        if (!finished.wait(180000))
            return outcomes;
        outcomes << finished.first().first().value<RepairExecutor::Outcome>();
    }
    return outcomes;
}

RepairExecutor::Outcome TestOpenStack::repairInProcess(
    const QString &findingId, const DiagnosisOptions &options, const std::function<void()> &beforeSending)
{
    return repairFromOneState(findingId, options, 1, beforeSending).value(0);
}

void TestOpenStack::concurrentChangeGivesA412AndNothingIsOverwritten()
{
    // Plant a duplicate route, plan its removal as a guarded full update, and
    // let somebody else change the router before it is sent.
    const QString a = m_ips.value(QStringLiteral("kks-real-pool-aaaaa"));
    QList<QPair<QString, QString>> list = routes();
    list << qMakePair(QStringLiteral("100.110.6.0/24"), a);
    setRoutes(list);
    const QString id = QStringLiteral("route-duplicate:100.110.6.0/24");
    DiagnosisOptions options;
    options.automation = false; // no Kubernikus controller runs here
    options.startupTimeoutSeconds = 1;
    options.fullRouteUpdates = true;
    const auto someoneElse = qMakePair(QStringLiteral("10.251.0.0/24"), a);
    const RepairExecutor::Outcome o = repairInProcess(id, options, [&] {
        QList<QPair<QString, QString>> theirs = routes();
        theirs << someoneElse;
        setRoutes(theirs);
    });
    QVERIFY2(o.result == RepairExecutor::Outcome::Result::Changed,
        qPrintable(RepairExecutor::Outcome::resultName(o.result) + QStringLiteral(": ") + o.message));
    QCOMPARE(o.requests.first().status, 412);
    const QList<QPair<QString, QString>> now = routes();
    QVERIFY(now.contains(someoneElse)); // nothing overwritten
    QVERIFY(now.contains(qMakePair(QStringLiteral("100.110.6.0/24"), a))); // and nothing removed
    // Re-planned on the new revision, it goes through.
    const RepairExecutor::Outcome again = repairInProcess(id, options);
    QVERIFY2(again.result == RepairExecutor::Outcome::Result::Fixed, qPrintable(again.message));
    QVERIFY(routes().contains(someoneElse));
    QVERIFY(!routes().contains(qMakePair(QStringLiteral("100.110.6.0/24"), a)));
}

void TestOpenStack::portPairAddedUnderTheRevisionGuard()
{
    const QString id = QStringLiteral("port-address-pair-missing:kks-real-pool-bbbbb");
    const QString port = portOf(QStringLiteral("kks-real-pool-bbbbb"));
    DiagnosisOptions options;
    options.automation = false; // no Kubernikus controller runs here
    options.startupTimeoutSeconds = 1;
    // Somebody changes the port between our read and our write: Neutron refuses ours (412), theirs stays.
    const RepairExecutor::Outcome o = repairInProcess(id, options, [&] {
        const Reply r = setPairs(port, { QStringLiteral("10.190.0.250"), QStringLiteral("10.190.0.251") });
        QVERIFY2(r.status == 200, r.body.constData());
    });
    QVERIFY2(o.result == RepairExecutor::Outcome::Result::Changed,
        qPrintable(RepairExecutor::Outcome::resultName(o.result) + QStringLiteral(": ") + o.message));
    QCOMPARE(o.requests.first().status, 412);
    QVERIFY(o.requests.first().request.headers.contains(QStringLiteral("If-Match")));
    QCOMPARE(pairsOf(port), (QStringList { QStringLiteral("10.190.0.250"), QStringLiteral("10.190.0.251") }));
    // Planned again from the port as it is: every pair kept, the pod CIDR added, the finding gone.
    const RepairExecutor::Outcome again = repairInProcess(id, options);
    QVERIFY2(again.result == RepairExecutor::Outcome::Result::Fixed, qPrintable(again.message));
    QCOMPARE(pairsOf(port),
        (QStringList { QStringLiteral("10.190.0.250"), QStringLiteral("10.190.0.251"),
            QStringLiteral("100.110.2.0/24") }));
    QVERIFY(!findingIds().contains(id));
}

void TestOpenStack::recycledCidrIncidentAsOneChange_data()
{
    QTest::addColumn<bool>("atomic");
    QTest::newRow("remove_extraroutes then add_extraroutes") << true;
    QTest::newRow("one guarded full PUT, a concurrent writer first") << false;
}

// Node c's pod CIDR routed to a (its previous owner, say) and c's own route never made: the stale route, the
// missing one and c NotReady are one incident, repaired as one change of the router.
void TestOpenStack::recycledCidrIncidentAsOneChange()
{
    QFETCH(bool, atomic);
    const QString a = m_ips.value(QStringLiteral("kks-real-pool-aaaaa"));
    const QString c = m_ips.value(QStringLiteral("kks-real-pool-ccccc"));
    const QString cidr = QStringLiteral("100.110.3.0/24");
    QList<QPair<QString, QString>> list;
    for (const auto &route : routes()) {
        if (route.first != cidr)
            list << route;
    }
    list.prepend(qMakePair(cidr, a));
    setRoutes(list);
    const QString incident = QStringLiteral("recycled-pod-cidr:") + cidr;
    DiagnosisOptions options;
    options.automation = false; // no Kubernikus controller runs here
    options.startupTimeoutSeconds = 1;
    options.fullRouteUpdates = !atomic;
    const auto someoneElse = qMakePair(QStringLiteral("10.253.0.0/24"), a);
    RepairPlan sent;
    if (!atomic) {
        const RepairExecutor::Outcome o = repairTogether(
            { incident }, options,
            [&] {
                QList<QPair<QString, QString>> theirs = routes();
                theirs << someoneElse;
                setRoutes(theirs);
            },
            &sent);
        QVERIFY2(o.result == RepairExecutor::Outcome::Result::Changed,
            qPrintable(RepairExecutor::Outcome::resultName(o.result) + QStringLiteral(": ") + o.message));
        QCOMPARE(o.requests.first().status, 412);
        QVERIFY(routes().contains(someoneElse));
        QVERIFY(routes().contains(qMakePair(cidr, a))); // nothing removed
    }
    const RepairExecutor::Outcome o = repairTogether({ incident }, options, {}, &sent);
    QVERIFY2(o.result == RepairExecutor::Outcome::Result::Fixed,
        qPrintable(RepairExecutor::Outcome::resultName(o.result) + QStringLiteral(": ") + o.message));
    if (atomic) {
        QCOMPARE(sent.requests.size(), 2); // one removal, then one addition
        QVERIFY(sent.requests.at(0).path.endsWith(QLatin1String("/remove_extraroutes")));
        QVERIFY(sent.requests.at(1).path.endsWith(QLatin1String("/add_extraroutes")));
    } else {
        QCOMPARE(sent.requests.size(), 1);
        QVERIFY(sent.requests.first().headers.contains(QStringLiteral("If-Match")));
        QVERIFY(routes().contains(someoneElse)); // the other writer's route survived
    }
    const QList<QPair<QString, QString>> now = routes();
    QVERIFY(now.contains(qMakePair(cidr, c)));
    QVERIFY(!now.contains(qMakePair(cidr, a)));
    const QStringList ids = findingIds();
    QVERIFY(!ids.contains(QStringLiteral("route-missing:kks-real-pool-ccccc")));
    QVERIFY(!ids.contains(QStringLiteral("route-stale:") + cidr + QStringLiteral(" via ") + a));
}

RepairExecutor::Outcome TestOpenStack::repairTogether(const QStringList &findingIds,
    const DiagnosisOptions &options, const std::function<void()> &beforeSending, RepairPlan *sent)
{
    RepairExecutor::Outcome failed;
    HttpClient client;
    KeystoneSession session(&client, memberCloud());
    KlusterFetcher fetcher(&session, QString::fromLatin1(KlusterName));
    QSignalSpy fetched(&fetcher, &KlusterFetcher::finished);
    fetcher.start();
    if (!fetched.wait(120000)) {
        failed.message = QStringLiteral("the kluster was not fetched");
        return failed;
    }
    const KlusterFetch state = fetched.first().first().value<KlusterFetch>();
    const Diagnosis diagnosis = Diagnosis::run(state.state, options);
    QList<const Finding *> chosen;
    for (const QString &id : findingIds) {
        if (const Finding *f = diagnosis.find(id))
            chosen << f;
    }
    // An incident: its one repair, verified on the findings it is made from.
    for (const Incident &incident : diagnosis.incidents) {
        if (findingIds != QStringList { incident.id() })
            continue;
        const std::optional<RepairPlan> plan = incident.repair();
        if (!plan) {
            failed.message = QStringLiteral("%1 has no repair").arg(incident.id());
            return failed;
        }
        *sent = *plan;
        if (beforeSending)
            beforeSending();
        QList<Finding> resolved;
        for (const QString &id : incident.repairFindings())
            resolved << *diagnosis.find(id);
        RepairExecutor executor(&session, QString::fromLatin1(KlusterName), state.state, resolved, *plan,
            diagnosis.budget, options);
        QSignalSpy finished(&executor, &RepairExecutor::finished);
        executor.start();
        if (!finished.wait(180000)) {
            failed.message = QStringLiteral("the repair did not finish");
            return failed;
        }
        return finished.first().first().value<RepairExecutor::Outcome>();
    }
    const RepairGate gate(chosen, diagnosis.budget);
    const QList<RepairGate::Step> steps = gate.steps();
    if (chosen.size() != findingIds.size() || steps.size() != 1) {
        failed.message = QStringLiteral("expected one step for %1 findings, got %2 steps for %3")
                             .arg(findingIds.size())
                             .arg(steps.size())
                             .arg(chosen.size());
        return failed;
    }
    *sent = steps.first().plan;
    QList<Finding> findings;
    for (const QString &id : steps.first().findingIds)
        findings << *diagnosis.find(id);
    if (beforeSending)
        beforeSending();
    RepairExecutor executor(&session, QString::fromLatin1(KlusterName), state.state, findings,
        steps.first().plan, diagnosis.budget, options);
    QSignalSpy finished(&executor, &RepairExecutor::finished);
    executor.start();
    if (!finished.wait(180000)) {
        failed.message = QStringLiteral("the repair did not finish");
        return failed;
    }
    return finished.first().first().value<RepairExecutor::Outcome>();
}

void TestOpenStack::severalRouteFindingsAsOneChange_data()
{
    QTest::addColumn<bool>("atomic");
    QTest::newRow("remove_extraroutes then add_extraroutes") << true;
    QTest::newRow("one guarded full PUT, a concurrent writer first") << false;
}

void TestOpenStack::severalRouteFindingsAsOneChange()
{
    // Three route findings on one router: an unassigned route (via a live instance, to a CIDR no node has),
    // an orphan, and node f's route gone (missing).
    QFETCH(bool, atomic);
    const QString a = m_ips.value(QStringLiteral("kks-real-pool-aaaaa"));
    const QString f = m_ips.value(QStringLiteral("kks-real-pool-fffff"));
    const auto unassigned = qMakePair(QStringLiteral("100.110.20.0/24"), a);
    const auto orphan = qMakePair(QStringLiteral("100.110.21.0/24"), m_orphanIp);
    const auto nodeRoute = qMakePair(QStringLiteral("100.110.6.0/24"), f);
    QList<QPair<QString, QString>> list = routes();
    list.removeAll(nodeRoute);
    list << unassigned << orphan;
    setRoutes(list);
    const QStringList ids { QStringLiteral("route-unassigned:100.110.20.0/24 via ") + a,
        QStringLiteral("route-orphaned:100.110.21.0/24 via ") + m_orphanIp,
        QStringLiteral("route-missing:kks-real-pool-fffff") };
    DiagnosisOptions options;
    options.automation = false; // no Kubernikus controller runs here
    options.startupTimeoutSeconds = 1;
    options.fullRouteUpdates = !atomic;
    const auto someoneElse = qMakePair(QStringLiteral("10.252.0.0/24"), a);
    RepairPlan plan;
    if (!atomic) {
        // Somebody changes the router between our read and our write: 412, nothing overwritten.
        const RepairExecutor::Outcome o = repairTogether(
            ids, options,
            [&] {
                QList<QPair<QString, QString>> theirs = routes();
                theirs << someoneElse;
                setRoutes(theirs);
            },
            &plan);
        QVERIFY2(o.result == RepairExecutor::Outcome::Result::Changed,
            qPrintable(RepairExecutor::Outcome::resultName(o.result) + QStringLiteral(": ") + o.message));
        QCOMPARE(o.requests.size(), 1);
        QCOMPARE(o.requests.first().status, 412);
        const QList<QPair<QString, QString>> now = routes();
        QVERIFY(now.contains(someoneElse) && now.contains(unassigned) && now.contains(orphan));
        QVERIFY(!now.contains(nodeRoute));
    }
    // Sent as one change, verified once: every finding gone.
    const RepairExecutor::Outcome o = repairTogether(ids, options, {}, &plan);
    QVERIFY2(o.result == RepairExecutor::Outcome::Result::Fixed,
        qPrintable(RepairExecutor::Outcome::resultName(o.result) + QStringLiteral(": ") + o.message));
    QCOMPARE(plan.action, RepairPlan::Action::ChangeRoutes);
    if (atomic) {
        QCOMPARE(o.requests.size(), 2);
        QVERIFY(o.requests.at(0).request.path.endsWith(QStringLiteral("/remove_extraroutes")));
        QVERIFY(o.requests.at(1).request.path.endsWith(QStringLiteral("/add_extraroutes")));
    } else {
        QCOMPARE(o.requests.size(), 1);
        QVERIFY(o.requests.first().request.headers.contains(QStringLiteral("If-Match")));
    }
    const QList<QPair<QString, QString>> now = routes();
    QVERIFY(!now.contains(unassigned) && !now.contains(orphan));
    QVERIFY(now.contains(nodeRoute));
    if (!atomic) {
        QVERIFY(now.contains(someoneElse)); // the other writer's route survived
        QList<QPair<QString, QString>> back = now;
        back.removeAll(someoneElse);
        setRoutes(back);
    }
    for (const QString &id : ids)
        QVERIFY2(!findingIds().contains(id), qPrintable(id));
}

// Sends the plan of `findingId` twice from one state; each must count as fixed.
// Returns the status of each first request.
QList<int> TestOpenStack::sendTwice(const QString &findingId)
{
    DiagnosisOptions options;
    options.automation = false; // no Kubernikus controller runs here
    options.startupTimeoutSeconds = 1;
    QList<int> statuses;
    for (const RepairExecutor::Outcome &o : repairFromOneState(findingId, options, 2)) {
        if (o.result != RepairExecutor::Outcome::Result::Fixed)
            qWarning("%s: %s", qPrintable(findingId), qPrintable(o.message));
        statuses << (o.result == RepairExecutor::Outcome::Result::Fixed ? o.requests.first().status : -1);
    }
    return statuses;
}

void TestOpenStack::createRuleThenItsRepeatIsAlreadyDone()
{
    // The second plan meets the rule the first made.
    QCOMPARE(sendTwice(QStringLiteral("security-group-rule-missing:icmp")), (QList<int> { 201, 409 }));
    // And the TCP rule through the command line.
    const Run r = cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("fd-member"),
        QStringLiteral("--kluster"), QString::fromLatin1(KlusterName), QStringLiteral("--startup-timeout"),
        QStringLiteral("1s"), QStringLiteral("--finding"), QStringLiteral("security-group-rule-missing:tcp"),
        QStringLiteral("--yes") });
    QVERIFY2(r.exit == 0, qPrintable(r.out + r.err));
}

void TestOpenStack::addGroupThenItsRepeatIsAlreadyDone()
{
    // Nova: "Duplicate items in the list" means already done.
    QCOMPARE(sendTwice(QStringLiteral("instance-missing-security-group:kks-real-pool-fffff")),
        (QList<int> { 202, 400 }));
}

// check --explain reads an unregistered instance's boot evidence from the real Nova, as the project's member:
// its fake driver's console (os-getConsoleOutput) and the create Nova recorded (os-instance-actions).
void TestOpenStack::bootEvidenceFromTheRealNova()
{
    const QString id = QStringLiteral("instance-unregistered:kks-real-pool-eeeee");
    const Run r = cli({ QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("fd-member"),
        QStringLiteral("--kluster"), QString::fromLatin1(KlusterName), QStringLiteral("--startup-timeout"),
        QStringLiteral("1s"), QStringLiteral("--explain"), id });
    QVERIFY2(r.out.contains(QStringLiteral("] ") + id), qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains(QStringLiteral("Nova's actions on kks-real-pool-eeeee (")
                 + m_ids.value(QStringLiteral("kks-real-pool-eeeee"))),
        qPrintable(r.out));
    QVERIFY2(r.out.contains(QRegularExpression(
                 QStringLiteral("\\n  \\d{4}-\\d\\d-\\d\\dT[0-9:]{8}Z  create  by user "))),
        qPrintable(r.out));
    QVERIFY2(r.out.contains(
                 QStringLiteral("Console log, its last 3 line(s):\n  | FAKE CONSOLE OUTPUT\n  | ANOTHER\n"
                                "  | LAST LINE\n")),
        qPrintable(r.out));
}

// instance-stopped against the real Nova: a member stopped (os-stop), found critical (it has a node), started
// again by its repair (os-start, 202), and the repeat is already done (409 while it starts or runs).
void TestOpenStack::stoppedInstanceStartedAgain()
{
    const QString name = QStringLiteral("kks-real-pool-bbbbb");
    const QString id = m_ids.value(name);
    const QString finding = QStringLiteral("instance-stopped:") + name;
    Reply r = api("POST", QStringLiteral("compute"), QStringLiteral("/servers/%1/action").arg(id),
        { { QStringLiteral("os-stop"), QJsonValue() } });
    QVERIFY2(r.status == 202, r.body.constData());
    QJsonObject server = waitServer(id, { QStringLiteral("SHUTOFF") });
    QCOMPARE(server.value(QStringLiteral("status")).toString(), QStringLiteral("SHUTOFF"));
    QTRY_VERIFY_WITH_TIMEOUT(findingIds().contains(finding), 30000);
    QCOMPARE(sendTwice(finding), (QList<int> { 202, 409 }));
    server = waitServer(id, { QStringLiteral("ACTIVE") });
    QCOMPARE(server.value(QStringLiteral("status")).toString(), QStringLiteral("ACTIVE"));
    QVERIFY(!findingIds().contains(finding));
}

void TestOpenStack::deleteInstances()
{
    QStringList ids { QStringLiteral("instance-unregistered:kks-real-pool-eeeee") };
    if (m_errorPlanted)
        ids << QStringLiteral("instance-error:kks-real-pool-ggggg");
    for (const QString &id : ids) {
        const Run r = cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("fd-member"),
            QStringLiteral("--kluster"), QString::fromLatin1(KlusterName),
            QStringLiteral("--startup-timeout"), QStringLiteral("1s"), QStringLiteral("--max-unhealthy"),
            QStringLiteral("100%"), QStringLiteral("--finding"), id, QStringLiteral("--yes") });
        QVERIFY2(r.exit == 0, qPrintable(r.out + r.err));
        const QString name = id.section(QLatin1Char(':'), 1);
        QTRY_COMPARE_WITH_TIMEOUT(
            api("GET", QStringLiteral("compute"), QStringLiteral("/servers/") + m_ids.value(name)).status,
            404, 60000);
    }
    // What is left: the node problems, which have no repair, and the route limit's warning.
    const QStringList left = findingIds();
    QCOMPARE(left,
        (QStringList { QStringLiteral("node-network-unavailable:kks-real-pool-ddddd"),
            QStringLiteral("node-not-ready:kks-real-pool-ccccc"),
            QStringLiteral("route-limit:") + m_routerId }));
}

bool TestOpenStack::sql(const QString &database, const QString &statement)
{
    QProcess p;
    p.start(QStringLiteral(FLIGHTDECK_SOURCE_DIR "/tests/integration/openstack/stack"),
        { QStringLiteral("sql"), m_state, database, statement });
    QSignalSpy finished(&p, &QProcess::finished);
    if (!finished.wait(60000) || p.exitCode() != 0) {
        qWarning("stack sql %s: %s", qPrintable(statement), p.readAllStandardError().constData());
        return false;
    }
    return true;
}

QString TestOpenStack::volumeStatus(const QString &id)
{
    const Reply r = api("GET", QStringLiteral("volumev3"), QStringLiteral("/volumes/") + id);
    if (r.status == 404)
        return QStringLiteral("gone");
    return r.json().value(QStringLiteral("volume")).toObject().value(QStringLiteral("status")).toString();
}

// What a terminated kluster leaves behind (diagnosis.md §9), against the real Cinder and Octavia: volumes the
// CSI driver made for kluster `vanished` (which Kubernikus does not have) and one of the live kluster `real`,
// a load balancer its cloud provider made; the states only a backend or Octavia's worker reach set in their
// databases. Flightdeck lists the debris, deletes the orphaned volume and load balancer, verified, and
// refuses the attached volume and the live kluster's; nothing else is deleted.
void TestOpenStack::debrisFoundAndCleanedForReal()
{
    if (m_member.endpoints.value(QStringLiteral("volumev3")).isEmpty()
        || m_member.endpoints.value(QStringLiteral("load-balancer")).isEmpty())
        QSKIP("the stage runs without Cinder or Octavia");
    const QString gone = QStringLiteral("vanished");
    const auto makeVolume = [this](const QString &kluster, const QString &pvc) {
        const Reply r = api("POST", QStringLiteral("volumev3"), QStringLiteral("/volumes"),
            { { QStringLiteral("volume"),
                QJsonObject { { QStringLiteral("size"), 1 },
                    { QStringLiteral("name"), QStringLiteral("pv-") + pvc },
                    { QStringLiteral("metadata"),
                        QJsonObject { { QStringLiteral("cinder.csi.openstack.org/cluster"),
                                          kluster + QLatin1Char('-') + m_member.projectId },
                            { QStringLiteral("csi.storage.k8s.io/pvc/name"), pvc },
                            { QStringLiteral("csi.storage.k8s.io/pvc/namespace"), QStringLiteral("default") },
                            { QStringLiteral("csi.storage.k8s.io/pv/name"),
                                QStringLiteral("pv-") + pvc } } } } } });
        if (r.status != 202)
            qWarning("volume %s: %d %s", qPrintable(pvc), r.status, r.body.left(300).constData());
        return r.json().value(QStringLiteral("volume")).toObject().value(QStringLiteral("id")).toString();
    };
    const QString orphan = makeVolume(gone, QStringLiteral("data"));
    const QString attached = makeVolume(gone, QStringLiteral("logs"));
    const QString live = makeVolume(QString::fromLatin1(KlusterName), QStringLiteral("cache"));
    QVERIFY(!orphan.isEmpty() && !attached.isEmpty() && !live.isEmpty());
    // No backend: the scheduler puts each in error.
    for (const QString &id : { orphan, attached, live })
        QTRY_COMPARE_WITH_TIMEOUT(volumeStatus(id), QStringLiteral("error"), 60000);
    QVERIFY(sql(QStringLiteral("cinder"),
        QStringLiteral(
            "UPDATE volumes SET status='available' WHERE id IN ('%1', '%3'); "
            "UPDATE volumes SET status='in-use', attach_status='attached' WHERE id='%2'; "
            "INSERT INTO volume_attachment (id, volume_id, instance_uuid, mountpoint, attach_time, "
            "attach_mode, attach_status, created_at, updated_at, deleted) VALUES (UUID(), '%2', "
            "'%4', '/dev/vdb', UTC_TIMESTAMP(), 'rw', 'attached', UTC_TIMESTAMP(), UTC_TIMESTAMP(), 0)")
            .arg(orphan, attached, live, QStringLiteral("6f1c2d3e-0000-4000-8000-00000000a77a"))));
    const QString lbName = QStringLiteral("kube_service_%1_default_web").arg(gone);
    const Reply made = api("POST", QStringLiteral("load-balancer"), QStringLiteral("/v2/lbaas/loadbalancers"),
        { { QStringLiteral("loadbalancer"),
            QJsonObject { { QStringLiteral("name"), lbName },
                { QStringLiteral("tags"), QJsonArray { lbName } },
                { QStringLiteral("vip_subnet_id"), m_subnetId },
                { QStringLiteral("provider"), QStringLiteral("noop_driver") } } } });
    QVERIFY2(made.status == 201, made.body.constData());
    const QString lb
        = made.json().value(QStringLiteral("loadbalancer")).toObject().value(QStringLiteral("id")).toString();
    QVERIFY(sql(QStringLiteral("octavia"),
        QStringLiteral(
            "UPDATE load_balancer SET provisioning_status='ACTIVE', operating_status='ONLINE' WHERE id='%1'")
            .arg(lb)));

    // Found and attributed: the gone kluster's orphaned volume and load balancer, not its attached volume.
    const Run report = cli({ QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("fd-member"),
        QStringLiteral("--kluster"), gone, QStringLiteral("--format"), QStringLiteral("json") });
    QVERIFY2(report.exit == 1, qPrintable(report.out + report.err));
    QStringList ids;
    for (const QJsonValue &f :
        QJsonDocument::fromJson(report.out.toUtf8()).object().value(QStringLiteral("findings")).toArray())
        ids << f.toObject().value(QStringLiteral("id")).toString();
    ids.sort();
    QCOMPARE(ids,
        QStringList(
            { QStringLiteral("loadbalancer-orphaned:") + lb, QStringLiteral("volume-orphaned:") + orphan }));

    // Refused: the attached volume, and the live kluster's.
    Run r = cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("fd-member"),
        QStringLiteral("--kluster"), gone, QStringLiteral("--finding"),
        QStringLiteral("volume-orphaned:") + attached, QStringLiteral("--yes") });
    QVERIFY2(r.exit == 2 && r.out.contains(QLatin1String("Attached: volume ")), qPrintable(r.out + r.err));
    r = cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("fd-member"),
        QStringLiteral("--kluster"), QString::fromLatin1(KlusterName), QStringLiteral("--finding"),
        QStringLiteral("volume-orphaned:") + live, QStringLiteral("--yes") });
    QVERIFY2(r.exit == 2 && r.out.contains(QLatin1String("KlusterLive: kluster real exists")),
        qPrintable(r.out + r.err));

    // Deleted, verified: the orphaned volume (no backend host: Cinder deletes it at once) and the load
    // balancer (PENDING_DELETE: Octavia's worker's to finish).
    r = cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("fd-member"),
        QStringLiteral("--kluster"), gone, QStringLiteral("--finding"),
        QStringLiteral("volume-orphaned:") + orphan, QStringLiteral("--finding"),
        QStringLiteral("loadbalancer-orphaned:") + lb, QStringLiteral("--yes") });
    QVERIFY2(r.exit == 0, qPrintable(r.out + r.err));
    QCOMPARE(volumeStatus(orphan), QStringLiteral("gone"));
    const Reply after
        = api("GET", QStringLiteral("load-balancer"), QStringLiteral("/v2/lbaas/loadbalancers/") + lb);
    QCOMPARE(after.json()
                 .value(QStringLiteral("loadbalancer"))
                 .toObject()
                 .value(QStringLiteral("provisioning_status"))
                 .toString(),
        QStringLiteral("PENDING_DELETE"));
    // Nothing else.
    QCOMPARE(volumeStatus(attached), QStringLiteral("in-use"));
    QCOMPARE(volumeStatus(live), QStringLiteral("available"));
}

void TestOpenStack::routeLimitForReal()
{
    QList<QPair<QString, QString>> list = routes();
    const QString a = m_ips.value(QStringLiteral("kks-real-pool-aaaaa"));
    for (int i = 100; list.size() < 30; ++i)
        list << qMakePair(QStringLiteral("10.250.%1.0/24").arg(i), a);
    setRoutes(list);
    // The 31st, through Flightdeck's own client: refused, and the error says why.
    HttpClient client;
    KeystoneSession session(&client, memberCloud());
    QSignalSpy done(session.send(QStringLiteral("network"), "PUT",
                        QStringLiteral("/v2.0/routers/%1/add_extraroutes").arg(m_routerId),
                        R"({"router": {"routes": [{"destination": "10.252.0.0/24", "nexthop": ")" + a.toUtf8()
                            + R"("}]}})"),
        &HttpCall::finished);
    QVERIFY(done.wait(60000));
    const ApiResponse r = done.first().first().value<ApiResponse>();
    QCOMPARE(r.status, 400);
    QVERIFY2(r.error.toString().contains(QStringLiteral("RoutesExhausted"))
            || r.error.toString().contains(QStringLiteral("exceeds the maximum")),
        qPrintable(r.error.toString()));
    // The check sees the router at its limit: critical.
    const Run check = cli({ QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("fd-member"),
        QStringLiteral("--kluster"), QString::fromLatin1(KlusterName), QStringLiteral("--startup-timeout"),
        QStringLiteral("1s"), QStringLiteral("--format"), QStringLiteral("json") });
    bool critical = false;
    for (const QJsonValue &f :
        QJsonDocument::fromJson(check.out.toUtf8()).object().value(QStringLiteral("findings")).toArray()) {
        if (f.toObject().value(QStringLiteral("kind")).toString() == QLatin1String("route-limit"))
            critical = f.toObject().value(QStringLiteral("severity")).toString() == QLatin1String("critical");
    }
    QVERIFY2(critical, qPrintable(check.out.left(2000)));
}

void TestOpenStack::conformanceOfTheSimulator()
{
    // Objects of their own for the checks: a router on the kluster's subnet is
    // taken as it is; two servers; a group.
    Conformance::Target real;
    real.authUrl = QStringLiteral("http://127.0.0.1:5000/v3");
    real.user = QStringLiteral("member");
    real.password = QStringLiteral("member-pass");
    real.project = QStringLiteral("flightdeck");
    real.routerId = m_routerId;
    setRoutes({});
    real.nexthopA = m_ips.value(QStringLiteral("kks-real-pool-aaaaa"));
    real.nexthopB = m_ips.value(QStringLiteral("kks-real-pool-bbbbb"));
    real.outsideNexthop = QStringLiteral("172.31.255.7");
    real.securityGroupId = m_groupId;
    real.serverId = m_ids.value(QStringLiteral("kks-real-pool-aaaaa"));
    real.serverGroup = QStringLiteral("kks-real");
    real.serverToDelete = m_ids.value(QStringLiteral("kks-real-pool-bbbbb"));
    QString error;
    const QList<Conformance::Observation> seen = Conformance::run(real, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QList<Conformance::Observation> expected = expectedObservations();
    QStringList differences;
    for (int i = 0; i < qMax(seen.size(), expected.size()); ++i) {
        const Conformance::Observation s = seen.value(i), e = expected.value(i);
        qInfo("real: %s  (%s)", qPrintable(s.toString()), qPrintable(s.message));
        if (!s.sameAs(e))
            differences
                << QStringLiteral("real: %1\nexpected (and simulated): %2").arg(s.toString(), e.toString());
    }
    QVERIFY2(differences.isEmpty(), qPrintable(differences.join(QLatin1Char('\n'))));
}

QTEST_GUILESS_MAIN(TestOpenStack)
#include "tst_openstack.moc"
