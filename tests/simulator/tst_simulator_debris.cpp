#include "simulator/apirender.h"
#include "simulator/stableid.h"
#include "tests/simulator/simfixture.h"

#include <QDir>
#include <QJsonArray>
#include <QRegularExpression>
#include <QTemporaryDir>

// Cinder's volumes and Octavia's load balancers as the real services answer them (wire-formats.md, "What a
// terminated kluster leaves behind"): pages, deletions and their refusals, the policies and access rules;
// the demo world's leftovers, the causes that make more, and the snapshot dump's files.
class TestSimulatorDebris : public QObject
{
    Q_OBJECT
private slots:
    void catalog();
    void cinderPages();
    void cinderVolume();
    void cinderDelete();
    void octaviaPagesAndDelete();
    void policy();
    void accessRules();
    void faultsAndRequestCounts();
    void volumeStuck();
    void debris();
    void snapshotDump();
    void scenarioKeys();
    void generatedRegion();
};

namespace {

QString demoProject()
{
    return stableHex(QStringLiteral("project:flightdeck-demo"));
}

// A token's catalog URL of `type`, and the token itself.
struct Session
{
    QString token;
    QJsonObject body;

    QString url(const QString &type) const
    {
        for (const QJsonValue &s : body.value(QStringLiteral("catalog")).toArray()) {
            if (s.toObject().value(QStringLiteral("type")).toString() == type)
                return s.toObject()
                    .value(QStringLiteral("endpoints"))
                    .toArray()
                    .first()
                    .toObject()
                    .value(QStringLiteral("url"))
                    .toString();
        }
        return QString();
    }
};

Session signIn(SimFixture &f, const QByteArray &auth = SimFixture::passwordAuth())
{
    const Reply r = f.request("POST", f.sim.authUrl() + QStringLiteral("/auth/tokens"), auth);
    return Session { QString::fromUtf8(r.headers.value("x-subject-token")),
        r.json().value(QStringLiteral("token")).toObject() };
}

Reply as(SimFixture &f, const Session &s, const QByteArray &method, const QString &url)
{
    return f.request(method, url, QByteArray(), { { "X-Auth-Token", s.token.toUtf8() } });
}

QJsonArray listOf(const Reply &r, const char *key)
{
    return r.json().value(QLatin1String(key)).toArray();
}

QString nextOf(const QJsonArray &links)
{
    for (const QJsonValue &l : links) {
        if (l.toObject().value(QStringLiteral("rel")).toString() == QLatin1String("next"))
            return l.toObject().value(QStringLiteral("href")).toString();
    }
    return QString();
}

// The volume of `pvc` ("namespace/name") of `kluster`, in the world.
const SimVolume *volumeOf(const World &w, const QString &kluster, const QString &pvc)
{
    for (const SimVolume &v : w.volumes) {
        if (v.metadataValue(QStringLiteral("cinder.csi.openstack.org/cluster"))
                == World::volumeClusterOf(kluster, v.projectId)
            && v.metadataValue(QStringLiteral("csi.storage.k8s.io/pvc/namespace"))
                == pvc.section(QLatin1Char('/'), 0, 0)
            && v.metadataValue(QStringLiteral("csi.storage.k8s.io/pvc/name"))
                == pvc.section(QLatin1Char('/'), 1))
            return &v;
    }
    return nullptr;
}

const SimLoadBalancer *loadBalancerNamed(const World &w, const QString &name)
{
    for (const SimLoadBalancer &lb : w.loadBalancers) {
        if (lb.name == name)
            return &lb;
    }
    return nullptr;
}

QDateTime cinderTime(const QString &s)
{
    QDateTime t = QDateTime::fromString(s.left(23), QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzz"));
    t.setTimeSpec(Qt::UTC);
    return t;
}

const QByteArray readonlyCredential
    = R"({"auth": {"identity": {"methods": ["application_credential"], "application_credential":
        {"id": "7c2d8f1e3a9b4c5d8e6f1a2b3c4d5e6f", "secret": "flightdeck-readonly-secret"}}}})";

} // namespace

void TestSimulatorDebris::catalog()
{
    SimFixture f;
    const Session s = signIn(f);
    QCOMPARE(s.url(QStringLiteral("volumev3")),
        f.sim.endpoint(QStringLiteral("volumev3")) + QLatin1Char('/') + demoProject());
    QVERIFY(s.url(QStringLiteral("volumev3")).endsWith(QStringLiteral("/v3/") + demoProject()));
    QCOMPARE(s.url(QStringLiteral("load-balancer")), f.sim.endpoint(QStringLiteral("load-balancer")));
    QVERIFY(f.sim.describe().contains(QStringLiteral("load-balancer")));
    // Version documents need no token.
    QCOMPARE(
        f.request("GET", f.sim.endpoint(QStringLiteral("load-balancer")) + QLatin1Char('/')).status, 200);
    QString cinderRoot = f.sim.endpoint(QStringLiteral("volumev3"));
    cinderRoot.chop(3);
    QCOMPARE(f.request("GET", cinderRoot).status, 300);
}

void TestSimulatorDebris::cinderPages()
{
    SimFixture f;
    const Session s = signIn(f);
    const QString base = s.url(QStringLiteral("volumev3"));
    // Everything in one page: no links at all.
    Reply r = as(f, s, "GET", base + QStringLiteral("/volumes/detail"));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.headers.value("openstack-api-version"), QByteArray("volume 3.0"));
    const int total = int(listOf(r, "volumes").size());
    QCOMPARE(total, int(f.sim.world().volumes.size()));
    QVERIFY(!r.json().contains(QStringLiteral("volumes_links")));
    // Two at a time: a next link on every full page (the last, full or not, may have one: Cinder's way).
    QString url = base + QStringLiteral("/volumes/detail?limit=2");
    QStringList seen;
    int pages = 0;
    while (!url.isEmpty()) {
        r = as(f, s, "GET", url);
        QCOMPARE(r.status, 200);
        const QJsonArray page = listOf(r, "volumes");
        QVERIFY(page.size() <= 2);
        for (const QJsonValue &v : page)
            seen << v.toObject().value(QStringLiteral("id")).toString();
        url = nextOf(listOf(r, "volumes_links"));
        if (!url.isEmpty()) {
            QCOMPARE(page.size(), 2);
            QCOMPARE(url,
                base + QStringLiteral("/volumes/detail?limit=2&marker=")
                    + page.last().toObject().value(QStringLiteral("id")).toString());
        }
        QVERIFY(++pages < 20);
    }
    QCOMPARE(seen.size(), total);
    QCOMPARE(QSet<QString>(seen.begin(), seen.end()).size(), total);
    QCOMPARE(pages, total / 2 + 1);
    // Newest first.
    r = as(f, s, "GET", base + QStringLiteral("/volumes/detail"));
    const QJsonArray all = listOf(r, "volumes");
    for (qsizetype i = 1; i < all.size(); ++i)
        QVERIFY(all.at(i - 1).toObject().value(QStringLiteral("created_at")).toString()
            >= all.at(i).toObject().value(QStringLiteral("created_at")).toString());
    // An unknown marker is looked up as a volume: 404.
    r = as(f, s, "GET", base + QStringLiteral("/volumes/detail?marker=nope"));
    QCOMPARE(r.status, 404);
    QCOMPARE(r.json(),
        QJsonDocument::fromJson(
            R"({"itemNotFound": {"code": 404, "message": "Volume nope could not be found."}})")
            .object());
    QCOMPARE(as(f, s, "GET", base + QStringLiteral("/volumes/detail?limit=x")).status, 400);
    // Another project in the URL; none (3.67's form), whose links then name none.
    r = as(f, s, "GET", f.sim.endpoint(QStringLiteral("volumev3")) + QStringLiteral("/0123/volumes/detail"));
    QCOMPARE(r.status, 400);
    QCOMPARE(
        r.json().value(QStringLiteral("badRequest")).toObject().value(QStringLiteral("message")).toString(),
        QStringLiteral("Malformed request url"));
    r = as(
        f, s, "GET", f.sim.endpoint(QStringLiteral("volumev3")) + QStringLiteral("/volumes/detail?limit=1"));
    QCOMPARE(r.status, 200);
    QCOMPARE(nextOf(listOf(r, "volumes_links")).section(QLatin1Char('?'), 0, 0),
        f.sim.endpoint(QStringLiteral("volumev3")) + QStringLiteral("/volumes/detail"));
    // A filter.
    r = as(f, s, "GET", base + QStringLiteral("/volumes/detail?status=error_deleting"));
    QCOMPARE(listOf(r, "volumes").size(), 2); // gone's and retired's
}

void TestSimulatorDebris::cinderVolume()
{
    SimFixture f;
    const Session s = signIn(f);
    const QString base = s.url(QStringLiteral("volumev3"));
    const World &w = f.sim.world();
    const SimVolume *postgres = volumeOf(w, QStringLiteral("demo"), QStringLiteral("shop/data-postgres-0"));
    QVERIFY(postgres);
    Reply r = as(f, s, "GET", base + QStringLiteral("/volumes/") + postgres->id);
    QCOMPARE(r.status, 200);
    const QJsonObject v = r.json().value(QStringLiteral("volume")).toObject();
    const QString cluster = QStringLiteral("demo-") + demoProject();
    QCOMPARE(v.value(QStringLiteral("status")).toString(), QStringLiteral("in-use"));
    QCOMPARE(v.value(QStringLiteral("name")).toString(),
        QStringLiteral("pv-") + cluster + QLatin1Char('-')
            + stableUuid(QStringLiteral("pvc:demo:shop/data-postgres-0")));
    const QJsonObject metadata = v.value(QStringLiteral("metadata")).toObject();
    QCOMPARE(metadata.value(QStringLiteral("cinder.csi.openstack.org/cluster")).toString(), cluster);
    QCOMPARE(metadata.value(QStringLiteral("csi.storage.k8s.io/pvc/name")).toString(),
        QStringLiteral("data-postgres-0"));
    QCOMPARE(metadata.value(QStringLiteral("csi.storage.k8s.io/pvc/namespace")).toString(),
        QStringLiteral("shop"));
    QCOMPARE(metadata.value(QStringLiteral("csi.storage.k8s.io/pv/name")).toString(),
        v.value(QStringLiteral("name")).toString());
    QCOMPARE(v.value(QStringLiteral("os-vol-tenant-attr:tenant_id")).toString(), demoProject());
    QCOMPARE(v.value(QStringLiteral("bootable")).toString(), QStringLiteral("false"));
    const QRegularExpression micro(QStringLiteral("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}$"));
    QVERIFY(micro.match(v.value(QStringLiteral("created_at")).toString()).hasMatch());
    QVERIFY(micro.match(v.value(QStringLiteral("updated_at")).toString()).hasMatch());
    const QJsonObject attachment = v.value(QStringLiteral("attachments")).toArray().first().toObject();
    QCOMPARE(attachment.value(QStringLiteral("server_id")).toString(),
        w.servers.at(w.serverIndexByName(QStringLiteral("kks-demo-pool-h7k2p"))).id);
    QCOMPARE(attachment.value(QStringLiteral("volume_id")).toString(), postgres->id);
    QVERIFY(attachment.value(QStringLiteral("host_name")).isNull());
    QCOMPARE(attachment.value(QStringLiteral("device")).toString(), QStringLiteral("/dev/vdb"));
    QCOMPARE(v.value(QStringLiteral("links"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(QStringLiteral("href"))
                 .toString(),
        base + QStringLiteral("/volumes/") + postgres->id);
    // A microversion adds its keys; one beyond Cinder's is refused.
    r = f.request("GET", base + QStringLiteral("/volumes/") + postgres->id, QByteArray(),
        { { "X-Auth-Token", s.token.toUtf8() }, { "OpenStack-API-Version", "volume 3.63" } });
    QCOMPARE(r.headers.value("openstack-api-version"), QByteArray("volume 3.63"));
    QVERIFY(r.json().value(QStringLiteral("volume")).toObject().contains(QStringLiteral("volume_type_id")));
    r = f.request("GET", base + QStringLiteral("/volumes/") + postgres->id, QByteArray(),
        { { "X-Auth-Token", s.token.toUtf8() }, { "OpenStack-API-Version", "volume 3.99" } });
    QCOMPARE(r.status, 406);
    // The volume without the CSI driver's metadata (someone's own) is there, and the gone kluster's is stuck.
    r = as(f, s, "GET", base + QStringLiteral("/volumes/detail?name=ops-backup"));
    QCOMPARE(listOf(r, "volumes").first().toObject().value(QStringLiteral("metadata")).toObject(),
        QJsonObject({ { QStringLiteral("purpose"), QStringLiteral("backup") } }));
    const SimVolume *gone = volumeOf(w, QStringLiteral("gone"), QStringLiteral("shop/data-postgres-0"));
    QVERIFY(gone);
    QCOMPARE(gone->status, QStringLiteral("error_deleting"));
    QVERIFY(qAbs(gone->updated.secsTo(w.now()) - 40 * 60) < 60);
}

void TestSimulatorDebris::cinderDelete()
{
    SimFixture f;
    const Session s = signIn(f);
    const QString base = s.url(QStringLiteral("volumev3"));
    const World &w = f.sim.world();
    const QString attached = volumeOf(w, QStringLiteral("demo"), QStringLiteral("shop/data-postgres-0"))->id;
    const QString stuck = volumeOf(w, QStringLiteral("retired"), QStringLiteral("monitoring/grafana"))->id;
    const QString orphan
        = volumeOf(w, QStringLiteral("retired"), QStringLiteral("logging/data-elasticsearch-0"))->id;
    const qsizetype before = w.volumes.size();
    const QJsonObject refused = QJsonDocument::fromJson(
        R"({"badRequest": {"code": 400, "message": "Invalid volume: Volume status must be available or error or error_restoring or error_extending or error_managing and must not be migrating, attached, belong to a group, have snapshots, awaiting a transfer, or be disassociated from snapshots after volume transfer."}})")
                                    .object();
    Reply r = as(f, s, "DELETE", base + QStringLiteral("/volumes/") + attached);
    QCOMPARE(r.status, 400);
    QCOMPARE(r.json(), refused);
    r = as(f, s, "DELETE", base + QStringLiteral("/volumes/") + stuck);
    QCOMPARE(r.status, 400);
    QCOMPARE(r.json(), refused);
    QCOMPARE(w.volumes.size(), before);
    r = as(f, s, "DELETE", base + QStringLiteral("/volumes/") + orphan);
    QCOMPARE(r.status, 202);
    QVERIFY(r.body.isEmpty());
    QCOMPARE(w.volumes.size(), before - 1);
    for (const QByteArray method : { QByteArray("GET"), QByteArray("DELETE") }) {
        r = as(f, s, method, base + QStringLiteral("/volumes/") + orphan);
        QCOMPARE(r.status, 404);
        QCOMPARE(r.json(),
            QJsonObject({ { QStringLiteral("itemNotFound"),
                QJsonObject({ { QStringLiteral("code"), 404 },
                    { QStringLiteral("message"),
                        QStringLiteral("Volume %1 could not be found.").arg(orphan) } }) } }));
    }
    // A deleted server's volumes are detached, as Nova does it.
    const QString server = w.servers.at(w.serverIndexByName(QStringLiteral("kks-demo-pool-h7k2p"))).id;
    QCOMPARE(
        f.request("DELETE", f.sim.endpoint(QStringLiteral("compute")) + QStringLiteral("/servers/") + server,
             QByteArray(), {}, true)
            .status,
        204);
    r = as(f, s, "GET", base + QStringLiteral("/volumes/") + attached);
    QCOMPARE(r.json().value(QStringLiteral("volume")).toObject().value(QStringLiteral("status")).toString(),
        QStringLiteral("available"));
    QVERIFY(r.json()
                .value(QStringLiteral("volume"))
                .toObject()
                .value(QStringLiteral("attachments"))
                .toArray()
                .isEmpty());
}

void TestSimulatorDebris::octaviaPagesAndDelete()
{
    SimFixture f;
    const Session s = signIn(f);
    const QString base = s.url(QStringLiteral("load-balancer")) + QStringLiteral("/v2/lbaas/loadbalancers");
    World &w = f.sim.world();
    Reply r = as(f, s, "GET", base);
    QCOMPARE(r.status, 200);
    const QJsonArray all = listOf(r, "loadbalancers");
    QCOMPARE(all.size(), w.loadBalancers.size());
    QCOMPARE(listOf(r, "loadbalancers_links"), QJsonArray()); // always there
    const QJsonObject first = all.first().toObject();
    for (const char *key :
        { "id", "name", "description", "project_id", "provisioning_status", "operating_status",
            "admin_state_up", "vip_address", "vip_port_id", "vip_subnet_id", "vip_network_id", "listeners",
            "pools", "provider", "flavor_id", "created_at", "updated_at", "tags", "availability_zone" })
        QVERIFY2(first.contains(QLatin1String(key)), key);
    QVERIFY(QRegularExpression(QStringLiteral("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d$"))
                .match(first.value(QStringLiteral("created_at")).toString())
                .hasMatch());
    // Oldest first, two at a time: next on a full page, previous after a marker.
    QString url = base + QStringLiteral("?limit=2");
    QStringList seen;
    int pages = 0;
    while (!url.isEmpty()) {
        r = as(f, s, "GET", url);
        QCOMPARE(r.status, 200);
        for (const QJsonValue &lb : listOf(r, "loadbalancers"))
            seen << lb.toObject().value(QStringLiteral("id")).toString();
        url = nextOf(listOf(r, "loadbalancers_links"));
        QVERIFY(++pages < 10);
    }
    QStringList ids;
    for (const QJsonValue &lb : all)
        ids << lb.toObject().value(QStringLiteral("id")).toString();
    QCOMPARE(seen, ids);
    r = as(f, s, "GET", base + QStringLiteral("?limit=2&marker=") + ids.at(1));
    QCOMPARE(listOf(r, "loadbalancers_links").first().toObject().value(QStringLiteral("rel")).toString(),
        QStringLiteral("previous"));
    r = as(f, s, "GET", base + QStringLiteral("?marker=nope"));
    QCOMPARE(r.status, 400);
    QCOMPARE(r.json().value(QStringLiteral("faultstring")).toString(),
        QStringLiteral("Supplied pagination marker 'nope' is not valid."));

    // Deletions: one pending is refused; an ACTIVE one and one in ERROR go, through PENDING_DELETE.
    const QString pending = loadBalancerNamed(w, QStringLiteral("kube_service_gone_shop_web"))->id;
    r = as(f, s, "DELETE", base + QLatin1Char('/') + pending + QStringLiteral("?cascade=true"));
    QCOMPARE(r.status, 409);
    QCOMPARE(r.json(),
        QJsonObject({ { QStringLiteral("faultcode"), QStringLiteral("Client") },
            { QStringLiteral("faultstring"),
                QStringLiteral("Invalid state PENDING_DELETE of loadbalancer resource %1").arg(pending) },
            { QStringLiteral("debuginfo"), QJsonValue() } }));
    const QString ingress = loadBalancerNamed(w, QStringLiteral("kube_service_retired_default_ingress"))->id;
    const QString grafana
        = loadBalancerNamed(w, QStringLiteral("kube_service_retired_monitoring_grafana"))->id;
    r = as(f, s, "DELETE", base + QLatin1Char('/') + ingress + QStringLiteral("?cascade=true"));
    QCOMPARE(r.status, 204);
    QVERIFY(r.body.isEmpty());
    QCOMPARE(as(f, s, "DELETE", base + QLatin1Char('/') + grafana).status, 204);
    r = as(f, s, "GET", base + QLatin1Char('/') + ingress);
    QCOMPARE(r.json()
                 .value(QStringLiteral("loadbalancer"))
                 .toObject()
                 .value(QStringLiteral("provisioning_status")),
        QJsonValue(QStringLiteral("PENDING_DELETE")));
    QCOMPARE(as(f, s, "DELETE", base + QLatin1Char('/') + ingress).status, 409);
    const QByteArray advance = "{\"seconds\": " + QByteArray::number(w.loadBalancerDeleteSeconds + 1) + '}';
    QCOMPARE(f.request("POST", f.sim.adminUrl() + QStringLiteral("/clock/advance"), advance).status, 200);
    r = as(f, s, "GET", base + QLatin1Char('/') + ingress);
    QCOMPARE(r.status, 404);
    QCOMPARE(r.json().value(QStringLiteral("faultstring")).toString(),
        QStringLiteral("Load Balancer %1 not found.").arg(ingress));
    QCOMPARE(listOf(as(f, s, "GET", base), "loadbalancers").size(), all.size() - 2);
    // The one stuck in PENDING_DELETE stays so.
    QCOMPARE(loadBalancerNamed(w, QStringLiteral("kube_service_gone_shop_web"))->provisioningStatus,
        QStringLiteral("PENDING_DELETE"));
}

void TestSimulatorDebris::policy()
{
    SimFixture f;
    const Session reader = signIn(f, SimFixture::passwordAuth(QStringLiteral("reader")));
    const World &w = f.sim.world();
    const QString volume
        = volumeOf(w, QStringLiteral("retired"), QStringLiteral("logging/data-elasticsearch-0"))->id;
    const QString lb = loadBalancerNamed(w, QStringLiteral("kube_service_retired_default_ingress"))->id;
    const QString volumes = reader.url(QStringLiteral("volumev3")) + QStringLiteral("/volumes");
    const QString lbs
        = reader.url(QStringLiteral("load-balancer")) + QStringLiteral("/v2/lbaas/loadbalancers");
    QCOMPARE(as(f, reader, "GET", volumes + QStringLiteral("/detail")).status, 200);
    QCOMPARE(as(f, reader, "GET", lbs).status, 200);
    Reply r = as(f, reader, "DELETE", volumes + QLatin1Char('/') + volume);
    QCOMPARE(r.status, 403);
    const QJsonObject forbidden { { QStringLiteral("forbidden"),
        QJsonObject { { QStringLiteral("code"), 403 },
            { QStringLiteral("message"),
                QStringLiteral("Policy doesn't allow volume:delete to be performed.") } } } };
    QCOMPARE(r.json(), forbidden);
    r = as(f, reader, "DELETE", lbs + QLatin1Char('/') + lb + QStringLiteral("?cascade=true"));
    QCOMPARE(r.status, 403);
    QCOMPARE(r.json(),
        QJsonDocument::fromJson(
            R"({"faultcode": "Client", "faultstring": "Policy does not allow this request to be performed.", "debuginfo": null})")
            .object());
    QVERIFY(w.volumeIndex(volume) >= 0);
    QCOMPARE(w.loadBalancers.at(w.loadBalancerIndex(lb)).provisioningStatus, QStringLiteral("ACTIVE"));
}

void TestSimulatorDebris::accessRules()
{
    SimFixture f;
    const Session readonly = signIn(f, readonlyCredential);
    QVERIFY(!readonly.token.isEmpty());
    const World &w = f.sim.world();
    const QString volume
        = volumeOf(w, QStringLiteral("retired"), QStringLiteral("logging/data-elasticsearch-0"))->id;
    const QString lb = loadBalancerNamed(w, QStringLiteral("kube_service_retired_default_ingress"))->id;
    const QString volumes = readonly.url(QStringLiteral("volumev3")) + QStringLiteral("/volumes");
    const QString lbs
        = readonly.url(QStringLiteral("load-balancer")) + QStringLiteral("/v2/lbaas/loadbalancers");
    QCOMPARE(as(f, readonly, "GET", volumes + QStringLiteral("/detail")).status, 200);
    QCOMPARE(as(f, readonly, "GET", lbs).status, 200);
    // keystonemiddleware refuses what no access rule allows before the service sees it.
    for (const QString &url :
        { QString(volumes + QLatin1Char('/') + volume), QString(lbs + QLatin1Char('/') + lb) }) {
        const Reply r = as(f, readonly, "DELETE", url);
        QCOMPARE(r.status, 401);
        QCOMPARE(
            r.json().value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString(),
            QStringLiteral("The request you have made requires authentication."));
    }
    QVERIFY(w.volumeIndex(volume) >= 0);
    QVERIFY(w.loadBalancerIndex(lb) >= 0);
}

void TestSimulatorDebris::faultsAndRequestCounts()
{
    SimFixture f;
    const Session s = signIn(f);
    QSignalSpy handled(&f.sim, &Simulator::requestHandled);
    QCOMPARE(f.request("POST", f.sim.adminUrl() + QStringLiteral("/faults"),
                  R"({"kind": "status", "status": 503, "service": "volumev3", "count": 1})")
                 .status,
        201);
    QCOMPARE(f.request("POST", f.sim.adminUrl() + QStringLiteral("/faults"),
                  R"({"kind": "status", "status": 503, "service": "load-balancer", "count": 1})")
                 .status,
        201);
    Reply r = as(f, s, "GET", s.url(QStringLiteral("volumev3")) + QStringLiteral("/volumes/detail"));
    QCOMPARE(r.status, 503);
    QCOMPARE(
        r.json().value(QStringLiteral("serviceUnavailable")).toObject().value(QStringLiteral("code")).toInt(),
        503);
    r = as(f, s, "GET", s.url(QStringLiteral("load-balancer")) + QStringLiteral("/v2/lbaas/loadbalancers"));
    QCOMPARE(r.status, 503);
    QCOMPARE(r.json().value(QStringLiteral("faultcode")).toString(), QStringLiteral("Server"));
    QCOMPARE(
        as(f, s, "GET", s.url(QStringLiteral("volumev3")) + QStringLiteral("/volumes/detail")).status, 200);
    // Each request is logged by its service.
    QStringList services;
    for (const QList<QVariant> &args : std::as_const(handled))
        services << args.at(0).toString();
    QCOMPARE(services.count(QStringLiteral("volumev3")), 2);
    QCOMPARE(services.count(QStringLiteral("load-balancer")), 1);
    const QJsonObject requests = f.request("GET", f.sim.adminUrl() + QStringLiteral("/world"))
                                     .json()
                                     .value(QStringLiteral("requests"))
                                     .toObject();
    QCOMPARE(requests.value(QStringLiteral("volumev3")).toInt(), 2);
    QCOMPARE(requests.value(QStringLiteral("load-balancer")).toInt(), 1);
}

void TestSimulatorDebris::volumeStuck()
{
    SimFixture f;
    const Session s = signIn(f);
    const World &w = f.sim.world();
    Reply r = f.request(
        "POST", f.sim.adminUrl() + QStringLiteral("/klusters/demo/cause"), R"({"rule": "volume-stuck"})");
    QCOMPARE(r.status, 200);
    QVERIFY(r.json().value(QStringLiteral("caused")).toString().contains(QStringLiteral("error_deleting")));
    const QString kubernikus
        = f.sim.endpoint(QStringLiteral("kubernikus")) + QStringLiteral("/api/v1/clusters/demo");
    r = as(f, s, "GET", kubernikus);
    QCOMPARE(r.json().value(QStringLiteral("status")).toObject().value(QStringLiteral("phase")).toString(),
        QStringLiteral("Terminating"));
    QStringList reasons;
    for (const QJsonValue &e :
        QJsonDocument::fromJson(as(f, s, "GET", kubernikus + QStringLiteral("/events")).body).array())
        reasons << e.toObject().value(QStringLiteral("reason")).toString();
    QVERIFY(reasons.contains(QStringLiteral("Terminating")));
    QVERIFY(reasons.contains(QStringLiteral("WaitingForDeorbitPVs")));
    r = as(f, s, "GET",
        s.url(QStringLiteral("volumev3")) + QStringLiteral("/volumes/detail?status=error_deleting"));
    QJsonObject stuck;
    for (const QJsonValue &v : listOf(r, "volumes")) {
        if (v.toObject()
                .value(QStringLiteral("metadata"))
                .toObject()
                .value(QStringLiteral("cinder.csi.openstack.org/cluster"))
            == QJsonValue(World::volumeClusterOf(QStringLiteral("demo"), demoProject())))
            stuck = v.toObject();
    }
    QVERIFY(!stuck.isEmpty());
    QVERIFY(stuck.value(QStringLiteral("attachments")).toArray().isEmpty());
    const qint64 age = cinderTime(stuck.value(QStringLiteral("updated_at")).toString()).secsTo(w.now());
    QVERIFY2(qAbs(age - 15 * 60) < 60, qPrintable(QString::number(age)));
    // Its load balancer stays as it was.
    QCOMPARE(loadBalancerNamed(w, QStringLiteral("kube_service_demo_shop_web"))->provisioningStatus,
        QStringLiteral("ACTIVE"));
    // A kluster without volumes gets one made for it.
    r = f.request(
        "POST", f.sim.adminUrl() + QStringLiteral("/klusters/gone/cause"), R"({"rule": "volume-stuck"})");
    QCOMPARE(r.status, 200);
    QCOMPARE(
        f.request("POST", f.sim.adminUrl() + QStringLiteral("/klusters/nope/cause"), R"({"rule": "debris"})")
            .status,
        404);
}

void TestSimulatorDebris::debris()
{
    SimFixture f;
    const Session s = signIn(f);
    const World &w = f.sim.world();
    const QString volume = volumeOf(w, QStringLiteral("green"), QStringLiteral("default/data-mysql-0"))->id;
    const QString server = w.servers.at(w.serverIndexByName(QStringLiteral("kks-green-pool-s1a2b"))).id;
    Reply r = f.request(
        "POST", f.sim.adminUrl() + QStringLiteral("/klusters/green/cause"), R"({"rule": "debris"})");
    QCOMPARE(r.status, 200);
    QVERIFY(r.json().value(QStringLiteral("caused")).toString().contains(volume));
    // Gone from Kubernikus, its API, Nova.
    const QString clusters
        = f.sim.endpoint(QStringLiteral("kubernikus")) + QStringLiteral("/api/v1/clusters");
    for (const QJsonValue &k : QJsonDocument::fromJson(as(f, s, "GET", clusters).body).array())
        QVERIFY(k.toObject().value(QStringLiteral("name")).toString() != QLatin1String("green"));
    QCOMPARE(as(f, s, "GET", clusters + QStringLiteral("/green")).status, 404);
    QCOMPARE(f.request("GET", f.sim.kubernetesUrl(QStringLiteral("green")) + QStringLiteral("/api/v1/nodes"),
                  QByteArray(), {}, false, f.kubernetesTls())
                 .status,
        503);
    QCOMPARE(
        f.request("GET", f.sim.endpoint(QStringLiteral("compute")) + QStringLiteral("/servers/") + server,
             QByteArray(), {}, true)
            .status,
        404);
    // Its volume left detached, its load balancer as it was.
    r = as(f, s, "GET", s.url(QStringLiteral("volumev3")) + QStringLiteral("/volumes/") + volume);
    const QJsonObject v = r.json().value(QStringLiteral("volume")).toObject();
    QCOMPARE(v.value(QStringLiteral("status")).toString(), QStringLiteral("available"));
    QVERIFY(v.value(QStringLiteral("attachments")).toArray().isEmpty());
    QCOMPARE(loadBalancerNamed(w, QStringLiteral("kube_service_green_ingress-nginx_ingress-nginx-controller"))
                 ->provisioningStatus,
        QStringLiteral("ACTIVE"));
    // Nothing else went: the other klusters' volumes are still attached.
    QCOMPARE(volumeOf(w, QStringLiteral("demo"), QStringLiteral("shop/data-postgres-0"))->status,
        QStringLiteral("in-use"));
    QCOMPARE(
        f.request("POST", f.sim.adminUrl() + QStringLiteral("/klusters/green/cause"), R"({"rule": "debris"})")
            .status,
        404);
}

void TestSimulatorDebris::snapshotDump()
{
    SimFixture f;
    const Session s = signIn(f);
    QTemporaryDir dir;
    QString error;
    QVERIFY2(f.sim.dumpSnapshots(dir.path(), QStringLiteral("gone"), &error), qPrintable(error));
    auto read = [&dir](const QString &name) {
        QFile file(QDir(dir.path()).filePath(QStringLiteral("gone/") + name));
        return file.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(file.readAll()).object()
                                              : QJsonObject();
    };
    // Exactly what the APIs answer, every page in one.
    QCOMPARE(read(QStringLiteral("volumes.json")),
        as(f, s, "GET", s.url(QStringLiteral("volumev3")) + QStringLiteral("/volumes/detail")).json());
    QCOMPARE(read(QStringLiteral("loadbalancers.json")),
        as(f, s, "GET", s.url(QStringLiteral("load-balancer")) + QStringLiteral("/v2/lbaas/loadbalancers"))
            .json());
    QCOMPARE(read(QStringLiteral("volumes.json")).value(QStringLiteral("volumes")).toArray().size(),
        f.sim.world().volumes.size());
}

void TestSimulatorDebris::scenarioKeys()
{
    const QByteArray scenario = R"({"projects": [{"name": "p", "users": [{"name": "u", "password": "x"}],
        "networks": [{"name": "net", "cidr": "10.0.0.0/24"}],
        "servers": [{"name": "vm", "network": "net", "ip": "10.0.0.5"}],
        "volumes": [
            {"kluster": "k", "pvc": "ns/claim", "attachedTo": "vm", "ageMinutes": 60},
            {"name": "mine", "size": 3, "metadata": {"a": "b"}, "status": "error", "updatedMinutes": 5}],
        "loadBalancers": [
            {"name": "kube_service_k_ns_svc_x", "vipAddress": "10.0.0.9"},
            {"name": "own", "provisioningStatus": "ERROR", "tags": ["t"], "network": "net"}]}]})";
    Simulator sim;
    QString error;
    QVERIFY2(Scenario::load(scenario, sim.world(), sim.faults(), &error), qPrintable(error));
    const World &w = sim.world();
    QCOMPARE(w.volumes.size(), 2);
    const SimVolume &csi = w.volumes.at(0);
    const QString project = w.projects.first().id;
    QCOMPARE(csi.metadataValue(QStringLiteral("cinder.csi.openstack.org/cluster")),
        QStringLiteral("k-") + project);
    QCOMPARE(csi.metadataValue(QStringLiteral("csi.storage.k8s.io/pvc/namespace")), QStringLiteral("ns"));
    QCOMPARE(csi.metadataValue(QStringLiteral("csi.storage.k8s.io/pv/name")), csi.name);
    QCOMPARE(csi.status, QStringLiteral("in-use"));
    QCOMPARE(csi.attachedTo, QStringList { w.servers.first().id });
    QVERIFY(!csi.updated.isValid()); // never updated: null
    QCOMPARE(ApiRender::volume(csi, 3000, QStringLiteral("http://x/v3")).value(QStringLiteral("updated_at")),
        QJsonValue());
    QCOMPARE(csi.id, stableUuid(QStringLiteral("volume:%1:%2:0").arg(project, csi.name))); // stable
    const SimVolume &mine = w.volumes.at(1);
    QCOMPARE(mine.status, QStringLiteral("error"));
    QCOMPARE(
        mine.metadata, (QList<QPair<QString, QString>> { { QStringLiteral("a"), QStringLiteral("b") } }));
    QVERIFY(mine.updated.isValid());
    const SimLoadBalancer &kube = w.loadBalancers.at(0);
    QCOMPARE(kube.tags, QStringList { kube.name });
    QCOMPARE(kube.description, QStringLiteral("Kubernetes external service ns/svc_x from cluster k"));
    QCOMPARE(kube.vipNetworkId, w.networks.first().id);
    QCOMPARE(w.loadBalancers.at(1).operatingStatus, QStringLiteral("ERROR"));
    QCOMPARE(w.loadBalancers.at(1).tags, QStringList { QStringLiteral("t") });
    // A bad reference is named.
    World bad;
    FaultInjector faults;
    QVERIFY(
        !Scenario::load(R"({"projects": [{"name": "p", "volumes": [{"name": "v", "attachedTo": "nope"}]}]})",
            bad, faults, &error));
    QVERIFY2(error.contains(QStringLiteral("volumes[0]")), qPrintable(error));
}

void TestSimulatorDebris::generatedRegion()
{
    World w;
    Scenario::RegionShape shape;
    shape.klusters = 4;
    shape.nodes = 5;
    shape.projects = 2;
    Scenario::generateRegion(w, shape);
    QCOMPARE(w.volumes.size(), 4);
    for (const SimVolume &v : std::as_const(w.volumes)) {
        QCOMPARE(v.status, QStringLiteral("in-use"));
        const int s = w.serverIndex(v.attachedTo.value(0));
        QVERIFY(s >= 0);
        QCOMPARE(w.servers.at(s).projectId, v.projectId);
        QCOMPARE(v.metadataValue(QStringLiteral("cinder.csi.openstack.org/cluster")),
            World::volumeClusterOf(w.servers.at(s).kluster, v.projectId));
    }
}

QTEST_GUILESS_MAIN(TestSimulatorDebris)
#include "tst_simulator_debris.moc"
