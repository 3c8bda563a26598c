#include "tests/simulator/simfixture.h"

#include <QJsonArray>

// The simulated APIs answer as the real services do (wire-formats.md).
class TestSimulatorApis : public QObject
{
    Q_OBJECT
private slots:
    void keystoneDiscovery();
    void passwordToken();
    void passwordTokenErrors();
    void applicationCredential();
    void expiredAndUnknownTokens();
    void novaPagination();
    void novaMicroversions();
    void novaNameFilterIsARegex();
    void novaSecurityGroupActions();
    void novaDeleteAndReplacement();
    void novaPowerActionsAndTheNodeMonitor();
    void rollingReplacement();
    void neutronDiscovery();
    void neutronRevisionGuard();
    void neutronRouteValidation();
    void neutronPortAddressPairs();
    void neutronRouteLimitBothForms();
    void neutronAtomicExtraRoutes();
    void neutronRuleConflict();
    void kubernetesAuthentication();
    void kubernetesChunkingAndTable();
    void kubernetesCordonAndDelete();
    void kubernikusClustersAndCredentials();
};

static QString routerId(SimFixture &f)
{
    return f.sim.world().klusters.first().routerId;
}

void TestSimulatorApis::keystoneDiscovery()
{
    SimFixture f;
    QString root = f.sim.authUrl();
    root.chop(3);
    const Reply r = f.request("GET", root);
    QCOMPARE(r.status, 300);
    QCOMPARE(r.headers.value("location"), (f.sim.authUrl() + QLatin1Char('/')).toUtf8());
    QCOMPARE(r.json()
                 .value(QStringLiteral("versions"))
                 .toObject()
                 .value(QStringLiteral("values"))
                 .toArray()
                 .size(),
        1);
    const Reply v3 = f.request("GET", f.sim.authUrl());
    QCOMPARE(v3.status, 200);
    QCOMPARE(v3.json().value(QStringLiteral("version")).toObject().value(QStringLiteral("id")).toString(),
        QStringLiteral("v3.14"));
}

void TestSimulatorApis::passwordToken()
{
    SimFixture f;
    const Reply r
        = f.request("POST", f.sim.authUrl() + QStringLiteral("/auth/tokens"), SimFixture::passwordAuth());
    QCOMPARE(r.status, 201);
    QVERIFY(!r.headers.value("x-subject-token").isEmpty());
    const QJsonObject token = r.json().value(QStringLiteral("token")).toObject();
    QVERIFY(token.value(QStringLiteral("expires_at")).toString().endsWith(QLatin1String("000Z")));
    QStringList types;
    for (const QJsonValue &s : token.value(QStringLiteral("catalog")).toArray())
        types << s.toObject().value(QStringLiteral("type")).toString();
    QCOMPARE(types,
        (QStringList { QStringLiteral("identity"), QStringLiteral("compute"), QStringLiteral("network"),
            QStringLiteral("image"), QStringLiteral("kubernikus"), QStringLiteral("volumev3"),
            QStringLiteral("load-balancer") }));
    QCOMPARE(token.value(QStringLiteral("project")).toObject().value(QStringLiteral("name")).toString(),
        QStringLiteral("flightdeck-demo"));
}

void TestSimulatorApis::passwordTokenErrors()
{
    SimFixture f;
    const QString url = f.sim.authUrl() + QStringLiteral("/auth/tokens");
    Reply r
        = f.request("POST", url, SimFixture::passwordAuth(QStringLiteral("demo"), QStringLiteral("wrong")));
    QCOMPARE(r.status, 401);
    QCOMPARE(r.json().value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(), 401);
    QVERIFY(r.headers.value("www-authenticate").startsWith("Keystone uri="));
    r = f.request("POST", url,
        R"({"auth": {"identity": {"methods": ["password"], "password": {"user": {"name": "demo", "password": "flightdeck-demo"}}}}})");
    QCOMPARE(r.status, 400);
    QVERIFY(r.json()
                .value(QStringLiteral("error"))
                .toObject()
                .value(QStringLiteral("message"))
                .toString()
                .startsWith(QLatin1String("Expecting to find domain in user")));
}

void TestSimulatorApis::applicationCredential()
{
    SimFixture f;
    const QString url = f.sim.authUrl() + QStringLiteral("/auth/tokens");
    const QByteArray body
        = R"({"auth": {"identity": {"methods": ["application_credential"], "application_credential":
        {"id": "6b1c7e0d2f8a4b3c9d5e0f1a2b3c4d5e", "secret": "flightdeck-demo-secret"}}}})";
    Reply r = f.request("POST", url, body);
    QCOMPARE(r.status, 201);
    QCOMPARE(r.json()
                 .value(QStringLiteral("token"))
                 .toObject()
                 .value(QStringLiteral("methods"))
                 .toArray()
                 .first()
                 .toString(),
        QStringLiteral("application_credential"));
    QVERIFY(r.json()
                .value(QStringLiteral("token"))
                .toObject()
                .contains(QStringLiteral("application_credential")));
    r = f.request("POST", url,
        R"({"auth": {"identity": {"methods": ["application_credential"], "application_credential":
        {"id": "6b1c7e0d2f8a4b3c9d5e0f1a2b3c4d5e", "secret": "flightdeck-demo-secret"}}, "scope": {"project": {"id": "x"}}}})");
    QCOMPARE(r.status, 401);
    QCOMPARE(r.json().value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString(),
        QStringLiteral("Application credentials cannot request a scope."));
}

void TestSimulatorApis::expiredAndUnknownTokens()
{
    SimFixture f;
    const QString servers = f.sim.endpoint(QStringLiteral("compute")) + QStringLiteral("/servers");
    QCOMPARE(f.get(servers).status, 200);
    Reply r = f.request("GET", servers, QByteArray(), { { "X-Auth-Token", "not-a-token" } });
    QCOMPARE(r.status, 401);
    f.sim.world().advance(f.sim.world().tokenLifetimeSeconds + 1);
    for (const QString &url :
        { servers, f.sim.endpoint(QStringLiteral("network")) + QStringLiteral("/v2.0/routers"),
            f.sim.endpoint(QStringLiteral("kubernikus")) + QStringLiteral("/api/v1/clusters") }) {
        r = f.get(url);
        QVERIFY2(r.status == 401, qPrintable(url));
    }
}

void TestSimulatorApis::novaPagination()
{
    SimFixture f;
    const int total = int(f.sim.world().servers.size());
    QString url = f.sim.endpoint(QStringLiteral("compute")) + QStringLiteral("/servers/detail?limit=4");
    QStringList seen;
    int pages = 0;
    while (!url.isEmpty()) {
        const Reply r = f.get(url);
        QCOMPARE(r.status, 200);
        const QJsonObject body = r.json();
        for (const QJsonValue &s : body.value(QStringLiteral("servers")).toArray())
            seen << s.toObject().value(QStringLiteral("id")).toString();
        url.clear();
        for (const QJsonValue &l : body.value(QStringLiteral("servers_links")).toArray()) {
            if (l.toObject().value(QStringLiteral("rel")).toString() == QLatin1String("next"))
                url = l.toObject().value(QStringLiteral("href")).toString();
        }
        QVERIFY(++pages < 50);
    }
    QCOMPARE(seen.size(), total);
    QCOMPARE(QSet<QString>(seen.begin(), seen.end()).size(), total);
    QCOMPARE(pages, total / 4 + 1); // a full last page still has a next link only when exactly full
    const Reply bad
        = f.get(f.sim.endpoint(QStringLiteral("compute")) + QStringLiteral("/servers/detail?marker=nope"));
    QCOMPARE(bad.status, 400);
    QCOMPARE(
        bad.json().value(QStringLiteral("badRequest")).toObject().value(QStringLiteral("message")).toString(),
        QStringLiteral("marker [nope] not found"));
}

void TestSimulatorApis::novaMicroversions()
{
    SimFixture f;
    const QString url = f.sim.endpoint(QStringLiteral("compute")) + QStringLiteral("/servers/detail?limit=1");
    Reply r = f.get(url);
    QCOMPARE(r.headers.value("x-openstack-nova-api-version"), QByteArray("2.1"));
    QVERIFY(r.json()
                .value(QStringLiteral("servers"))
                .toArray()
                .first()
                .toObject()
                .value(QStringLiteral("flavor"))
                .toObject()
                .contains(QStringLiteral("id")));
    r = f.request("GET", url, QByteArray(),
        { { "OpenStack-API-Version", "compute 2.47" }, { "X-OpenStack-Nova-API-Version", "2.47" } }, true);
    QCOMPARE(r.status, 200);
    const QJsonObject flavor = r.json()
                                   .value(QStringLiteral("servers"))
                                   .toArray()
                                   .first()
                                   .toObject()
                                   .value(QStringLiteral("flavor"))
                                   .toObject();
    QVERIFY(!flavor.contains(QStringLiteral("id")));
    QCOMPARE(flavor.value(QStringLiteral("original_name")).toString(), QStringLiteral("m1.small"));
    QCOMPARE(r.headers.value("openstack-api-version"), QByteArray("compute 2.47"));
    r = f.request("GET", url, QByteArray(), { { "X-OpenStack-Nova-API-Version", "2.200" } }, true);
    QCOMPARE(r.status, 406);
}

void TestSimulatorApis::novaNameFilterIsARegex()
{
    SimFixture f;
    const Reply r
        = f.get(f.sim.endpoint(QStringLiteral("compute")) + QStringLiteral("/servers?name=kks-legacy"));
    QCOMPARE(r.json().value(QStringLiteral("servers")).toArray().size(), 5); // a regex: prefixes match
}

void TestSimulatorApis::novaSecurityGroupActions()
{
    SimFixture f;
    int i = -1;
    for (int k = 0; k < f.sim.world().servers.size(); ++k) {
        if (f.sim.world().servers.at(k).name == QLatin1String("demo-pool-r3s4d"))
            i = k;
    }
    const QString action = f.sim.endpoint(QStringLiteral("compute"))
        + QStringLiteral("/servers/%1/action").arg(f.sim.world().servers.at(i).id);
    Reply r = f.request("POST", action, R"({"addSecurityGroup": {"name": "kks-demo"}})", {}, true);
    QCOMPARE(r.status, 202);
    QVERIFY(f.sim.world().serverGroupNames(f.sim.world().servers.at(i)).contains(QStringLiteral("kks-demo")));
    r = f.request("POST", action, R"({"addSecurityGroup": {"name": "kks-demo"}})", {}, true);
    QCOMPARE(r.status, 400);
    QVERIFY(r.json()
                .value(QStringLiteral("badRequest"))
                .toObject()
                .value(QStringLiteral("message"))
                .toString()
                .startsWith(QLatin1String("Duplicate items in the list")));
    r = f.request("POST", action, R"({"addSecurityGroup": {"name": "no-such-group"}})", {}, true);
    QCOMPARE(r.status, 404);
    QVERIFY(r.json().contains(QStringLiteral("itemNotFound")));
    r = f.request("POST", action, R"({"reboot": {"type": "SOFT"}})", {}, true);
    QCOMPARE(r.status, 202);
}

// os-stop, os-start, suspend, resume, pause and unpause as Nova answers them (202, or 409 from the wrong
// state); a stopped instance's node turns Unknown after the node monitor's grace, and Ready after a start.
void TestSimulatorApis::novaPowerActionsAndTheNodeMonitor()
{
    SimFixture f;
    World &w = f.sim.world();
    const int i = w.serverIndexByName(QStringLiteral("kks-demo-pool-h7k2p"));
    QVERIFY(i >= 0);
    const QString action = f.sim.endpoint(QStringLiteral("compute"))
        + QStringLiteral("/servers/%1/action").arg(w.servers.at(i).id);
    auto node = [&w]() -> const SimNode & {
        return w.klusters.first().nodes.at(
            w.nodeIndex(w.klusters.first(), QStringLiteral("kks-demo-pool-h7k2p")));
    };
    Reply r = f.request("POST", action, R"({"os-start": null})", {}, true);
    QCOMPARE(r.status, 409);
    QVERIFY(r.json()
                .value(QStringLiteral("conflictingRequest"))
                .toObject()
                .value(QStringLiteral("message"))
                .toString()
                .contains(QStringLiteral("while it is in vm_state active")));
    QCOMPARE(f.request("POST", action, R"({"os-stop": null})", {}, true).status, 202);
    QCOMPARE(w.servers.at(i).status, QStringLiteral("SHUTOFF"));
    QCOMPARE(w.servers.at(i).vmState, QStringLiteral("stopped"));
    w.advance(w.nodeMonitorGraceSeconds - 5);
    w.tick();
    QCOMPARE(node().ready, QStringLiteral("True")); // within the grace: nothing known yet
    w.advance(10);
    w.tick();
    QCOMPARE(node().ready, QStringLiteral("Unknown"));
    QCOMPARE(node().readyReason, QStringLiteral("NodeStatusUnknown"));
    QCOMPARE(f.request("POST", action, R"({"os-start": null})", {}, true).status, 202);
    QCOMPARE(w.servers.at(i).status, QStringLiteral("ACTIVE"));
    w.advance(w.kubeletStartSeconds + 1);
    w.tick();
    QCOMPARE(node().ready, QStringLiteral("True"));
    QCOMPARE(f.request("POST", action, R"({"suspend": null})", {}, true).status, 202);
    QCOMPARE(w.servers.at(i).status, QStringLiteral("SUSPENDED"));
    QCOMPARE(f.request("POST", action, R"({"unpause": null})", {}, true).status, 409);
    QCOMPARE(f.request("POST", action, R"({"resume": null})", {}, true).status, 202);
    QCOMPARE(f.request("POST", action, R"({"pause": null})", {}, true).status, 202);
    QCOMPARE(w.servers.at(i).vmState, QStringLiteral("paused"));
    QCOMPARE(f.request("POST", action, R"({"unpause": null})", {}, true).status, 202);
    QCOMPARE(w.servers.at(i).status, QStringLiteral("ACTIVE"));
}

void TestSimulatorApis::novaDeleteAndReplacement()
{
    SimFixture f;
    QString id;
    for (const SimServer &s : f.sim.world().servers) {
        if (s.name == QLatin1String("kks-demo-pool-t5y6u"))
            id = s.id;
    }
    const QString url = f.sim.endpoint(QStringLiteral("compute")) + QStringLiteral("/servers/") + id;
    QCOMPARE(f.request("DELETE", url, QByteArray(), {}, true).status, 204);
    const Reply gone = f.get(url);
    QCOMPARE(gone.status, 404);
    QCOMPARE(
        gone.json().value(QStringLiteral("itemNotFound")).toObject().value(QStringLiteral("code")).toInt(),
        404);
    QCOMPARE(f.request("DELETE", url, QByteArray(), {}, true).status, 404);
    // Launch control: a replacement instance in the pool, which registers as a node.
    const int nodesBefore = int(f.sim.world().klusters.first().nodes.size());
    f.sim.world().advance(2);
    f.sim.world().tick();
    QString replacement;
    for (const SimServer &s : f.sim.world().servers) {
        if (s.kluster == QLatin1String("demo") && s.created >= f.sim.world().now().addSecs(-5))
            replacement = s.name;
    }
    QVERIFY2(replacement.startsWith(QLatin1String("kks-demo-pool-")), qPrintable(replacement));
    f.sim.world().advance(5);
    f.sim.world().tick();
    const SimKluster &demo = f.sim.world().klusters.first();
    QCOMPARE(demo.nodes.size(), nodesBefore + 1);
    QCOMPARE(demo.nodes.last().name, replacement);
    QVERIFY(!demo.nodes.last().podCidr.isEmpty());
    // The route controller gave it its route.
    const SimRouter &router = f.sim.world().routers.at(f.sim.world().routerIndex(demo.routerId));
    QVERIFY(router.routes.contains(SimRoute { demo.nodes.last().podCidr, demo.nodes.last().internalIp }));
}

// The admin API's finished rolling replacement: members gone and new ones in their places, as Nova, Neutron
// and Kubernetes then show them.
void TestSimulatorApis::rollingReplacement()
{
    SimFixture f;
    World &w = f.sim.world();
    const SimKluster &demo = w.klusters.first();
    const QList<SimNode> before = demo.nodes;
    const qsizetype servers = w.servers.size();
    const Reply answer
        = f.request("POST", f.sim.adminUrl() + QStringLiteral("/klusters/demo/churn"), R"({"replace": 2})");
    QCOMPARE(answer.status, 200);
    QCOMPARE(answer.json().value(QStringLiteral("changed")).toInt(), 2);
    QCOMPARE(demo.nodes.size(), before.size());
    QCOMPARE(w.servers.size(), servers);
    const SimRouter &router = w.routers.at(w.routerIndex(demo.routerId));
    int replaced = 0;
    for (qsizetype i = 0; i < before.size(); ++i) {
        const SimNode &now = demo.nodes.at(i);
        if (now.name == before.at(i).name)
            continue;
        ++replaced;
        // In the same place, with the old pod CIDR, a new server and address, and the route moved to it.
        QVERIFY2(now.name.startsWith(QLatin1String("kks-demo-")), qPrintable(now.name));
        QCOMPARE(now.podCidr, before.at(i).podCidr);
        QVERIFY(now.internalIp != before.at(i).internalIp);
        QVERIFY(!router.routes.contains(SimRoute { before.at(i).podCidr, before.at(i).internalIp }));
        if (!now.podCidr.isEmpty())
            QVERIFY(router.routes.contains(SimRoute { now.podCidr, now.internalIp }));
        const int server = w.serverIndex(now.providerId.section(QLatin1Char('/'), -1));
        QVERIFY(server >= 0);
        QCOMPARE(w.servers.at(server).name, now.name);
        // The old server is among the deleted ones, as `changes-since` lists them.
        QVERIFY(std::any_of(w.deletedServers.cbegin(), w.deletedServers.cend(),
            [&](const SimServer &s) { return s.name == before.at(i).name; }));
    }
    QCOMPARE(replaced, 2);
}

void TestSimulatorApis::neutronDiscovery()
{
    SimFixture f;
    const QString base = f.sim.endpoint(QStringLiteral("network"));
    QCOMPARE(f.request("GET", base + QLatin1Char('/')).status, 200);
    QCOMPARE(f.get(base + QStringLiteral("/v2.0")).status, 404);
    QCOMPARE(f.get(base + QStringLiteral("/v2.0/")).status, 200);
    const Reply ext = f.get(base + QStringLiteral("/v2.0/extensions/extraroute-atomic"));
    QCOMPARE(ext.status, 200);
    f.sim.world().extraRouteAtomic = false;
    QCOMPARE(f.get(base + QStringLiteral("/v2.0/extensions/extraroute-atomic")).status, 404);
    const Reply missing = f.get(base + QStringLiteral("/v2.0/routers/nope"));
    QCOMPARE(missing.status, 404);
    QCOMPARE(missing.json()
                 .value(QStringLiteral("NeutronError"))
                 .toObject()
                 .value(QStringLiteral("type"))
                 .toString(),
        QStringLiteral("RouterNotFound"));
}

void TestSimulatorApis::neutronRevisionGuard()
{
    SimFixture f;
    const QString url
        = f.sim.endpoint(QStringLiteral("network")) + QStringLiteral("/v2.0/routers/") + routerId(f);
    const QJsonObject router = f.get(url).json().value(QStringLiteral("router")).toObject();
    const qint64 revision = router.value(QStringLiteral("revision_number")).toInteger();
    QJsonArray routes = router.value(QStringLiteral("routes")).toArray();
    routes.removeAt(0);
    const QByteArray body = QJsonDocument(
        QJsonObject { { QStringLiteral("router"), QJsonObject { { QStringLiteral("routes"), routes } } } })
                                .toJson();
    Reply r = f.request(
        "PUT", url, body, { { "If-Match", "revision_number=" + QByteArray::number(revision - 1) } }, true);
    QCOMPARE(r.status, 412);
    r = f.request(
        "PUT", url, body, { { "If-Match", "revision_number=" + QByteArray::number(revision) } }, true);
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json()
                 .value(QStringLiteral("router"))
                 .toObject()
                 .value(QStringLiteral("revision_number"))
                 .toInteger(),
        revision + 1);
    QCOMPARE(
        r.json().value(QStringLiteral("router")).toObject().value(QStringLiteral("routes")).toArray().size(),
        routes.size());
}

// A registered node's port allows its pod CIDR (the cloud provider's update); a PUT of the pairs is guarded
// by If-Match and refuses duplicates as Neutron does.
void TestSimulatorApis::neutronPortAddressPairs()
{
    SimFixture f;
    const QString network = f.sim.endpoint(QStringLiteral("network"));
    const QJsonArray ports = f.get(network
                                  + QStringLiteral("/v2.0/ports?fields=id&fields=device_id&fields=fixed_ips"
                                                   "&fields=allowed_address_pairs&fields=revision_number"))
                                 .json()
                                 .value(QStringLiteral("ports"))
                                 .toArray();
    QJsonObject port;
    for (const QJsonValue v : ports) {
        const QJsonArray fixed = v.toObject().value(QStringLiteral("fixed_ips")).toArray();
        if (!fixed.isEmpty()
            && fixed.first().toObject().value(QStringLiteral("ip_address")) == QLatin1String("10.180.0.21"))
            port = v.toObject();
    }
    QVERIFY(!port.isEmpty());
    QCOMPARE(port.keys().size(), 5); // trimmed to the fields asked for
    const QJsonArray pairs = port.value(QStringLiteral("allowed_address_pairs")).toArray();
    QCOMPARE(pairs.size(), 1);
    QCOMPARE(pairs.first().toObject().value(QStringLiteral("ip_address")).toString(),
        QStringLiteral("100.100.21.0/24"));
    const QString url
        = network + QStringLiteral("/v2.0/ports/") + port.value(QStringLiteral("id")).toString();
    const qint64 revision = port.value(QStringLiteral("revision_number")).toInteger();
    auto put = [&](const QJsonArray &list, qint64 rev) {
        const QByteArray body = QJsonDocument(
            QJsonObject { { QStringLiteral("port"),
                QJsonObject { { QStringLiteral("allowed_address_pairs"),
                    list } } } }).toJson();
        return f.request(
            "PUT", url, body, { { "If-Match", "revision_number=" + QByteArray::number(rev) } }, true);
    };
    const QJsonObject extra { { QStringLiteral("ip_address"), QStringLiteral("10.9.9.9") } };
    QCOMPARE(put(QJsonArray { pairs.first(), extra }, revision - 1).status, 412);
    Reply r = put(QJsonArray { pairs.first(), pairs.first() }, revision);
    QCOMPARE(r.status, 400);
    QVERIFY(r.body.contains("DuplicateAddressPairInRequest"));
    r = put(QJsonArray { pairs.first(), extra }, revision);
    QCOMPARE(r.status, 200);
    const QJsonObject now = r.json().value(QStringLiteral("port")).toObject();
    QCOMPARE(now.value(QStringLiteral("revision_number")).toInteger(), revision + 1);
    QCOMPARE(now.value(QStringLiteral("allowed_address_pairs")).toArray().size(), 2);
}

void TestSimulatorApis::neutronRouteValidation()
{
    SimFixture f;
    const QString url = f.sim.endpoint(QStringLiteral("network")) + QStringLiteral("/v2.0/routers/")
        + routerId(f) + QStringLiteral("/add_extraroutes");
    Reply r = f.request("PUT", url,
        R"({"router": {"routes": [{"destination": "10.9.0.0/24", "nexthop": "192.0.2.1"}]}})", {}, true);
    QCOMPARE(r.status, 400);
    QCOMPARE(
        r.json().value(QStringLiteral("NeutronError")).toObject().value(QStringLiteral("type")).toString(),
        QStringLiteral("InvalidRoutes"));
    QVERIFY(r.json()
                .value(QStringLiteral("NeutronError"))
                .toObject()
                .value(QStringLiteral("message"))
                .toString()
                .endsWith(QLatin1String("the nexthop is not connected with router")));
    r = f.request("PUT", url,
        R"({"router": {"routes": [{"destination": "10.9.0.0/24", "nexthop": "10.180.0.1"}]}})", {}, true);
    QVERIFY(r.json()
                .value(QStringLiteral("NeutronError"))
                .toObject()
                .value(QStringLiteral("message"))
                .toString()
                .endsWith(QLatin1String("the nexthop is used by router")));
    r = f.request("PUT", url,
        R"({"router": {"routes": [{"destination": "192.168.9.5/24", "nexthop": "10.180.0.5"}]}})", {}, true);
    QCOMPARE(r.status, 400);
    QVERIFY(r.json()
                .value(QStringLiteral("NeutronError"))
                .toObject()
                .value(QStringLiteral("message"))
                .toString()
                .contains(QLatin1String("'192.168.9.0/24' is recommended")));
    const QString full
        = f.sim.endpoint(QStringLiteral("network")) + QStringLiteral("/v2.0/routers/") + routerId(f);
    r = f.request("PUT", full,
        R"({"router": {"routes": [{"destination": "10.9.0.0/24", "nexthop": "10.180.0.5"},
                                                          {"destination": "10.9.0.0/24", "nexthop": "10.180.0.5"}]}})",
        {}, true);
    QCOMPARE(r.status, 400);
    QVERIFY(r.json()
                .value(QStringLiteral("NeutronError"))
                .toObject()
                .value(QStringLiteral("message"))
                .toString()
                .contains(QLatin1String("Duplicate hostroute")));
    // The same destination twice with different nexthops is how duplicates arise: allowed.
    r = f.request("PUT", full,
        R"({"router": {"routes": [{"destination": "10.9.0.0/24", "nexthop": "10.180.0.5"},
                                                          {"destination": "10.9.0.0/24", "nexthop": "10.180.0.6"}]}})",
        {}, true);
    QCOMPARE(r.status, 200);
}

void TestSimulatorApis::neutronRouteLimitBothForms()
{
    SimFixture f;
    const QString url
        = f.sim.endpoint(QStringLiteral("network")) + QStringLiteral("/v2.0/routers/") + routerId(f);
    QJsonArray routes;
    for (int i = 0; i < 31; ++i)
        routes.append(QJsonObject { { QStringLiteral("destination"), QStringLiteral("10.50.%1.0/24").arg(i) },
            { QStringLiteral("nexthop"), QStringLiteral("10.180.0.5") } });
    const QByteArray body = QJsonDocument(
        QJsonObject { { QStringLiteral("router"), QJsonObject { { QStringLiteral("routes"), routes } } } })
                                .toJson();
    Reply r = f.request("PUT", url, body, {}, true);
    QCOMPARE(r.status, 400);
    QCOMPARE(
        r.json().value(QStringLiteral("NeutronError")).toObject().value(QStringLiteral("type")).toString(),
        QStringLiteral("RoutesExhausted"));
    QVERIFY(r.json()
                .value(QStringLiteral("NeutronError"))
                .toObject()
                .value(QStringLiteral("message"))
                .toString()
                .endsWith(QLatin1String("exceeds the maximum 30.")));
    f.sim.world().routeLimitAsQuota = true;
    r = f.request("PUT", url, body, {}, true);
    QCOMPARE(r.status, 409);
    QCOMPARE(
        r.json().value(QStringLiteral("NeutronError")).toObject().value(QStringLiteral("type")).toString(),
        QStringLiteral("OverQuota"));
    routes.removeLast();
    r = f.request("PUT", url,
        QJsonDocument(QJsonObject { { QStringLiteral("router"),
                          QJsonObject { { QStringLiteral("routes"), routes } } } })
            .toJson(),
        {}, true);
    QCOMPARE(r.status, 200);
}

void TestSimulatorApis::neutronAtomicExtraRoutes()
{
    SimFixture f;
    const QString base
        = f.sim.endpoint(QStringLiteral("network")) + QStringLiteral("/v2.0/routers/") + routerId(f);
    const int before = int(f.get(base)
                               .json()
                               .value(QStringLiteral("router"))
                               .toObject()
                               .value(QStringLiteral("routes"))
                               .toArray()
                               .size());
    // Adding a present route and removing an absent one change nothing.
    Reply r = f.request("PUT", base + QStringLiteral("/add_extraroutes"),
        R"({"router": {"routes": [{"destination": "198.19.7.0/24", "nexthop": "10.180.0.99"}]}})", {}, true);
    QCOMPARE(r.status, 200);
    QCOMPARE(
        r.json().value(QStringLiteral("router")).toObject().value(QStringLiteral("routes")).toArray().size(),
        before);
    r = f.request("PUT", base + QStringLiteral("/remove_extraroutes"),
        R"({"router": {"routes": [{"destination": "10.77.0.0/24", "nexthop": "10.180.0.99"}]}})", {}, true);
    QCOMPARE(r.status, 200);
    QCOMPARE(
        r.json().value(QStringLiteral("router")).toObject().value(QStringLiteral("routes")).toArray().size(),
        before);
    r = f.request("PUT", base + QStringLiteral("/remove_extraroutes"),
        R"({"router": {"routes": [{"destination": "198.19.7.0/24", "nexthop": "10.180.0.99"}]}})", {}, true);
    QCOMPARE(
        r.json().value(QStringLiteral("router")).toObject().value(QStringLiteral("routes")).toArray().size(),
        before - 1);
}

void TestSimulatorApis::neutronRuleConflict()
{
    SimFixture f;
    QString groupId;
    for (const SimSecurityGroup &g : f.sim.world().securityGroups) {
        if (g.name == QLatin1String("kks-demo"))
            groupId = g.id;
    }
    const QString url
        = f.sim.endpoint(QStringLiteral("network")) + QStringLiteral("/v2.0/security-group-rules");
    const QByteArray body
        = QStringLiteral(R"({"security_group_rule": {"security_group_id": "%1", "direction": "ingress",
        "ethertype": "IPv4", "protocol": "tcp", "remote_ip_prefix": "100.100.0.0/16"}})")
              .arg(groupId)
              .toUtf8();
    Reply r = f.request("POST", url, body, {}, true);
    QCOMPARE(r.status, 201);
    const QString id = r.json()
                           .value(QStringLiteral("security_group_rule"))
                           .toObject()
                           .value(QStringLiteral("id"))
                           .toString();
    r = f.request("POST", url, body, {}, true);
    QCOMPARE(r.status, 409);
    const QJsonObject error = r.json().value(QStringLiteral("NeutronError")).toObject();
    QCOMPARE(error.value(QStringLiteral("type")).toString(), QStringLiteral("SecurityGroupRuleExists"));
    QCOMPARE(error.value(QStringLiteral("message")).toString(),
        QStringLiteral("Security group rule already exists. Rule id is %1.").arg(id));
    QCOMPARE(f.request("DELETE", url + QLatin1Char('/') + id, QByteArray(), {}, true).status, 204);
}

void TestSimulatorApis::kubernetesAuthentication()
{
    SimFixture f;
    const QString url = f.sim.kubernetesUrl(QStringLiteral("demo")) + QStringLiteral("/api/v1/nodes");
    Reply r = f.request("GET", url, QByteArray(), {}, false, f.kubernetesTls(false));
    QCOMPARE(r.status, 401);
    QCOMPARE(r.json().value(QStringLiteral("kind")).toString(), QStringLiteral("Status"));
    QCOMPARE(r.json().value(QStringLiteral("reason")).toString(), QStringLiteral("Unauthorized"));
    r = f.request("GET", url, QByteArray(), {}, false, f.kubernetesTls(true));
    QCOMPARE(r.status, 200);
    r = f.request("GET", url, QByteArray(),
        { { "Authorization", "Bearer " + f.sim.world().klusters.first().bearerToken.toUtf8() } }, false,
        f.kubernetesTls(false));
    QCOMPARE(r.status, 200);
    // Without our CA, the server's certificate is not trusted.
    f.nam.clearConnectionCache();
    r = f.request("GET", url);
    QCOMPARE(r.error, QNetworkReply::SslHandshakeFailedError);
}

void TestSimulatorApis::kubernetesChunkingAndTable()
{
    SimFixture f;
    const QString base = f.sim.kubernetesUrl(QStringLiteral("demo")) + QStringLiteral("/api/v1/nodes");
    QStringList names;
    QString cont;
    int chunks = 0;
    do {
        QString url = base + QStringLiteral("?limit=2");
        if (!cont.isEmpty())
            url += QStringLiteral("&continue=") + cont;
        const Reply r = f.request("GET", url, QByteArray(), {}, false, f.kubernetesTls());
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json().value(QStringLiteral("kind")).toString(), QStringLiteral("NodeList"));
        for (const QJsonValue &n : r.json().value(QStringLiteral("items")).toArray())
            names << n.toObject()
                         .value(QStringLiteral("metadata"))
                         .toObject()
                         .value(QStringLiteral("name"))
                         .toString();
        cont = r.json()
                   .value(QStringLiteral("metadata"))
                   .toObject()
                   .value(QStringLiteral("continue"))
                   .toString();
        ++chunks;
    } while (!cont.isEmpty() && chunks < 20);
    QCOMPARE(names.size(), f.sim.world().klusters.first().nodes.size());
    QCOMPARE(chunks, 4); // seven nodes, two per chunk
    const Reply table = f.request("GET", base + QStringLiteral("?limit=500"), QByteArray(),
        { { "Accept", "application/json;as=Table;v=v1;g=meta.k8s.io,application/json" } }, false,
        f.kubernetesTls());
    QCOMPARE(table.json().value(QStringLiteral("kind")).toString(), QStringLiteral("Table"));
    QCOMPARE(table.json().value(QStringLiteral("rows")).toArray().size(), names.size());
    QCOMPARE(table.json().value(QStringLiteral("columnDefinitions")).toArray().size(), 10);
}

void TestSimulatorApis::kubernetesCordonAndDelete()
{
    SimFixture f;
    const QString url
        = f.sim.kubernetesUrl(QStringLiteral("demo")) + QStringLiteral("/api/v1/nodes/kks-demo-pool-h7k2p");
    Reply r = f.request("PATCH", url, R"({"spec":{"unschedulable":true}})",
        { { "Content-Type", "application/strategic-merge-patch+json" } }, false, f.kubernetesTls());
    QCOMPARE(r.status, 200);
    QCOMPARE(
        r.json().value(QStringLiteral("spec")).toObject().value(QStringLiteral("unschedulable")).toBool(),
        true);
    r = f.request("PATCH", url, R"({"spec":{"unschedulable":null}})",
        { { "Content-Type", "application/merge-patch+json" } }, false, f.kubernetesTls());
    QVERIFY(!r.json().value(QStringLiteral("spec")).toObject().contains(QStringLiteral("unschedulable")));
    r = f.request(
        "PATCH", url, R"({"spec":{}})", { { "Content-Type", "text/plain" } }, false, f.kubernetesTls());
    QCOMPARE(r.status, 415);
    r = f.request("DELETE", url, R"({"propagationPolicy":"Background"})", {}, false, f.kubernetesTls());
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("Success"));
    r = f.request("GET", url, QByteArray(), {}, false, f.kubernetesTls());
    QCOMPARE(r.status, 404);
    QCOMPARE(r.json().value(QStringLiteral("message")).toString(),
        QStringLiteral("nodes \"kks-demo-pool-h7k2p\" not found"));
    // Deleting again: 404, which a repair reads as already done.
    r = f.request("DELETE", url, QByteArray(), {}, false, f.kubernetesTls());
    QCOMPARE(r.status, 404);
    // Its pod CIDR is free again: no node holds it, so the next node to register may get it.
    for (const SimNode &n : f.sim.world().klusters.first().nodes)
        QVERIFY(n.podCidr != QLatin1String("100.100.21.0/24"));
}

void TestSimulatorApis::kubernikusClustersAndCredentials()
{
    SimFixture f;
    const QString base = f.sim.endpoint(QStringLiteral("kubernikus")) + QStringLiteral("/api/v1/clusters");
    Reply r = f.get(base);
    QCOMPARE(r.status, 200);
    const QJsonArray list = QJsonDocument::fromJson(r.body).array();
    QCOMPARE(list.size(), 6); // demo, legacy, blue, edge, green, gone
    r = f.get(base + QStringLiteral("/legacy"));
    QCOMPARE(
        r.json().value(QStringLiteral("spec")).toObject().value(QStringLiteral("clusterCIDR")).toString(),
        QStringLiteral("198.19.0.0/16"));
    r = f.get(base + QStringLiteral("/legacy/credentials"));
    const QString kubeconfig = r.json().value(QStringLiteral("kubeconfig")).toString();
    QVERIFY(kubeconfig.contains(f.sim.kubernetesUrl(QStringLiteral("legacy"))));
    QVERIFY(kubeconfig.contains(QStringLiteral("certificate-authority-data:")));
    QVERIFY(kubeconfig.contains(QStringLiteral("client-key-data:")));
    QCOMPARE(f.get(base + QStringLiteral("/nope")).status, 404);
    QCOMPARE(f.request("GET", base).status, 401);
}

QTEST_GUILESS_MAIN(TestSimulatorApis)
#include "tst_simulator_apis.moc"
