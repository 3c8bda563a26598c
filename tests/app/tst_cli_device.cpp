#include "tests/app/clifixture.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

// The router's devices through flightdeck-cli against the simulated cloud with sapcc's ASR driver
// (docs/wire-formats.md): its device API answers an admin alone; each fault the admin API causes on a
// device is a finding within one check; a reader is told the devices cannot be read, never "no drift".
class TestCliDevice : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void inStepAsAdminIsHealthy();
    void deletionTheDevicesMissedAsAdmin();
    void additionTheStandbyMissedAsAdmin();
    void syncRepairsAMissingRouteVerifiedAndAudited();
    void readerIsToldTheDevicesCannotBeRead();
    void theDriversAnswerAsTheSimulatorRendersIt();
    void standbyGapIsAWarningUntilTheFailover();
    void routesShowNeutronBesideEachDevice();
    void routesForAReaderSayWhyNoDeviceIsShown();
    void routesOfABadSnapshotSayWhy();
    void teardownAndSyncClearsAKeptRoute();
    void recycledFromTheHistoryForAReader();
    void nudgeWhereTheSyncIsNotPermitted();

private:
    using Run = CliFixture::Run;
    QString cause(const QString &kluster, const QString &rule);
    QList<QPair<QByteArray, QByteArray>> tokenOf(const QString &user);
    QString routerOf(const QString &kluster);
    QJsonObject check(
        const QString &cloud, const QString &kluster, int *exitCode = nullptr, const QStringList &more = {});
    QString severityOf(const QJsonObject &report, const QString &id);

    std::unique_ptr<CliFixture> m_cli;
};

void TestCliDevice::init()
{
    // The default world: the cloud has the driver, and an admin and a reader beside its member user (demo).
    m_cli = std::make_unique<CliFixture>();
    m_cli->addCloud(QStringLiteral("sim-admin"), QStringLiteral("admin"));
    m_cli->addCloud(QStringLiteral("sim-reader"), QStringLiteral("reader"));
}

void TestCliDevice::cleanup()
{
    m_cli.reset();
}

QString TestCliDevice::cause(const QString &kluster, const QString &rule)
{
    const Reply r = m_cli->sim.request("POST",
        m_cli->sim.sim.adminUrl() + QStringLiteral("/klusters/%1/cause").arg(kluster),
        QStringLiteral(R"({"rule": "%1"})").arg(rule).toUtf8(), {}, false);
    return r.status == 200 ? QString() : QString::fromUtf8(r.body);
}

QList<QPair<QByteArray, QByteArray>> TestCliDevice::tokenOf(const QString &user)
{
    const Reply r = m_cli->sim.request("POST", m_cli->sim.sim.authUrl() + QStringLiteral("/auth/tokens"),
        SimFixture::passwordAuth(user, QString::fromLatin1(CliFixture::Password)), {}, false);
    return { { "X-Auth-Token", r.headers.value("x-subject-token") } };
}

QString TestCliDevice::routerOf(const QString &kluster)
{
    const World &w = m_cli->sim.sim.world();
    return w.klusters.at(w.klusterIndex(kluster)).routerId;
}

QJsonObject TestCliDevice::check(
    const QString &cloud, const QString &kluster, int *exitCode, const QStringList &more)
{
    const Run r = m_cli->cli(
        QStringList { QStringLiteral("check"), QStringLiteral("--cloud"), cloud, QStringLiteral("--kluster"),
            kluster, QStringLiteral("--format"), QStringLiteral("json") }
        + more);
    if (exitCode)
        *exitCode = r.exitCode;
    return QJsonDocument::fromJson(r.out.toUtf8()).object();
}

static QStringList idsOf(const QJsonObject &report, const QString &prefix)
{
    QStringList ids;
    for (const QJsonValue &f : report.value(QStringLiteral("findings")).toArray()) {
        const QString id = f.toObject().value(QStringLiteral("id")).toString();
        if (id.startsWith(prefix))
            ids << id;
    }
    return ids;
}

void TestCliDevice::inStepAsAdminIsHealthy()
{
    // The devices hold what Neutron holds: no device finding, and the same findings as the member sees.
    const QJsonObject admin = check(QStringLiteral("sim-admin"), QStringLiteral("demo"));
    QVERIFY(!admin.isEmpty());
    QVERIFY(idsOf(admin, QStringLiteral("device-route")).isEmpty());
    const QJsonObject member = check(QStringLiteral("sim"), QStringLiteral("demo"));
    QCOMPARE(admin.value(QStringLiteral("findings")).toArray().size(),
        member.value(QStringLiteral("findings")).toArray().size());
}

void TestCliDevice::deletionTheDevicesMissedAsAdmin()
{
    const QString problem = cause(QStringLiteral("demo"), QStringLiteral("device-route-stale"));
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    const QStringList stale = idsOf(
        check(QStringLiteral("sim-admin"), QStringLiteral("demo")), QStringLiteral("device-route-stale:"));
    QCOMPARE(stale.size(), 2); // both devices of the pair kept it
    QVERIFY2(stale.at(0).endsWith(QLatin1String(".35")) && stale.at(1).endsWith(QLatin1String(".36")),
        qPrintable(stale.join(QLatin1Char(' '))));
    const QJsonObject report = check(QStringLiteral("sim-admin"), QStringLiteral("demo"));
    for (const QJsonValue &v : report.value(QStringLiteral("findings")).toArray()) {
        const QJsonObject f = v.toObject();
        if (f.value(QStringLiteral("id")).toString() == stale.at(0)) {
            QCOMPARE(
                f.value(QStringLiteral("severity")).toString(), QStringLiteral("critical")); // it competes
        }
    }
    // The member's check cannot see it: the device API is an admin's.
    QVERIFY(idsOf(check(QStringLiteral("sim"), QStringLiteral("demo")), QStringLiteral("device-route"))
                .isEmpty());
}

void TestCliDevice::additionTheStandbyMissedAsAdmin()
{
    const QString problem = cause(QStringLiteral("demo"), QStringLiteral("device-route-missing"));
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    const QStringList missing = idsOf(
        check(QStringLiteral("sim-admin"), QStringLiteral("demo")), QStringLiteral("device-route-missing:"));
    QCOMPARE(missing.size(), 1);
    QVERIFY2(missing.first().endsWith(QLatin1String(".36")), qPrintable(missing.first())); // the STANDBY's
    // The nudge a member may send: remove and re-add the same route in Neutron; the agent programs it again.
    const QString route = missing.first().section(QLatin1Char(':'), 1).section(QStringLiteral(" on "), 0, 0);
    const QString destination = route.section(QStringLiteral(" via "), 0, 0);
    const QString nexthop = route.section(QStringLiteral(" via "), 1);
    const QString base = m_cli->sim.sim.endpoint(QStringLiteral("network")) + QStringLiteral("/v2.0/routers/")
        + routerOf(QStringLiteral("demo"));
    const QByteArray body
        = QStringLiteral(R"({"router": {"routes": [{"destination": "%1", "nexthop": "%2"}]}})")
              .arg(destination, nexthop)
              .toUtf8();
    const auto member = tokenOf(QStringLiteral("demo"));
    QCOMPARE(
        m_cli->sim.request("PUT", base + QStringLiteral("/remove_extraroutes"), body, member).status, 200);
    QCOMPARE(m_cli->sim.request("PUT", base + QStringLiteral("/add_extraroutes"), body, member).status, 200);
    QVERIFY(idsOf(check(QStringLiteral("sim-admin"), QStringLiteral("demo")), QStringLiteral("device-route"))
                .isEmpty());
}

void TestCliDevice::syncRepairsAMissingRouteVerifiedAndAudited()
{
    QVERIFY(cause(QStringLiteral("demo"), QStringLiteral("device-route-missing")).isEmpty());
    const QStringList missing = idsOf(
        check(QStringLiteral("sim-admin"), QStringLiteral("demo")), QStringLiteral("device-route-missing:"));
    QCOMPARE(missing.size(), 1);
    const QStringList base = { QStringLiteral("repair"), QStringLiteral("--cloud"),
        QStringLiteral("sim-admin"), QStringLiteral("--kluster"), QStringLiteral("demo"),
        QStringLiteral("--finding"), missing.first() };
    // The plan first, nothing sent.
    Run r = m_cli->cli(base);
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(
        r.out.contains(QStringLiteral("PUT network /v2.0/asr1k/routers/") + routerOf(QStringLiteral("demo")))
            && r.out.contains(QStringLiteral("Dry run: nothing was sent")),
        qPrintable(r.out));
    r = m_cli->cli(base + QStringList { QStringLiteral("--yes") });
    QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("Result: fixed")),
        qPrintable(
            QStringLiteral("exit %1\n%2\n%3").arg(r.exitCode).arg(r.err.left(2000), r.out.right(1500))));
    QVERIFY(idsOf(check(QStringLiteral("sim-admin"), QStringLiteral("demo")), QStringLiteral("device-route"))
                .isEmpty());
    const QJsonObject record = m_cli->audit().last();
    QCOMPARE(record.value(QStringLiteral("finding")).toString(), missing.first());
    QCOMPARE(record.value(QStringLiteral("verification")).toString(), QStringLiteral("fixed"));
    QCOMPARE(record.value(QStringLiteral("user")).toString(), QStringLiteral("admin"));
}

void TestCliDevice::readerIsToldTheDevicesCannotBeRead()
{
    QVERIFY(cause(QStringLiteral("demo"), QStringLiteral("device-route-stale")).isEmpty());
    const Run r = m_cli->cli({ QStringLiteral("check"), QStringLiteral("--cloud"),
        QStringLiteral("sim-reader"), QStringLiteral("--kluster"), QStringLiteral("demo") });
    QVERIFY2(r.out.contains(QStringLiteral("NOT DIAGNOSED: the routes on the router's devices"))
            && r.out.contains(QStringLiteral("not readable with these credentials")),
        qPrintable(r.out.left(3000)));
    QVERIFY(!r.out.contains(QStringLiteral("device-route-stale")));
    QVERIFY2(!r.err.contains(QStringLiteral("router device")), qPrintable(r.err)); // no failure of the check
}

void TestCliDevice::theDriversAnswerAsTheSimulatorRendersIt()
{
    // The answer's shape (docs/wire-formats.md): 401 NeutronError for a member; 500 for a router no agent
    // hosts; {"diffs": {}} in step; after a teardown, the whole document removed; sync answers "Sync".
    // edge's router: no two routes of one destination (a device keys its routes by destination, so a router
    // with duplicate routes, as demo's and legacy's, never reads in step).
    const QString routerId = routerOf(QStringLiteral("edge"));
    const QString url
        = m_cli->sim.sim.endpoint(QStringLiteral("network")) + QStringLiteral("/v2.0/asr1k/routers/");
    const Reply member = m_cli->sim.request("GET", url + routerId, {}, tokenOf(QStringLiteral("demo")));
    QCOMPARE(member.status, 401);
    QCOMPARE(member.json()
                 .value(QStringLiteral("NeutronError"))
                 .toObject()
                 .value(QStringLiteral("type"))
                 .toString(),
        QStringLiteral("HTTPUnauthorized"));
    const auto token = tokenOf(QStringLiteral("admin"));
    QCOMPARE(m_cli->sim.request("GET", url + routerId, {}, token, false).body, QByteArray(R"({"diffs":{}})"));
    QCOMPARE(m_cli->sim.request("GET", url + QStringLiteral("nope"), {}, token, false).status, 500);
    QCOMPARE(m_cli->sim.request("DELETE", url + routerId, {}, token, false).status, 204);
    const QJsonObject torn = m_cli->sim.request("GET", url + routerId, {}, token, false).json();
    const QJsonArray entries = torn.value(QStringLiteral("diffs"))
                                   .toObject()
                                   .value(QStringLiteral("route"))
                                   .toObject()
                                   .value(m_cli->sim.sim.world()
                                              .routers.at(m_cli->sim.sim.world().routerIndex(routerId))
                                              .devices.first()
                                              .host)
                                   .toArray();
    QCOMPARE(entries.size(), 1);
    QCOMPARE(entries.first().toObject().value(QStringLiteral("item")).toString(), QString());
    const Reply sync = m_cli->sim.request("PUT", url + routerId, {}, token, false);
    QCOMPARE(sync.body, QByteArray(R"({"device":{"network_id":"Sync"}})"));
    QCOMPARE(m_cli->sim.request("GET", url + routerId, {}, token, false).body, QByteArray(R"({"diffs":{}})"));
}

QString TestCliDevice::severityOf(const QJsonObject &report, const QString &id)
{
    for (const QJsonValue &v : report.value(QStringLiteral("findings")).toArray()) {
        if (v[QStringLiteral("id")].toString() == id)
            return v[QStringLiteral("severity")].toString();
    }
    return QString();
}

// The STANDBY missed an addition: a warning while the team knows the other device forwards; the pair fails
// over and the team names the new ACTIVE: the same gap is critical. Without the team's word, critical.
void TestCliDevice::standbyGapIsAWarningUntilTheFailover()
{
    QVERIFY(cause(QStringLiteral("demo"), QStringLiteral("device-route-missing")).isEmpty());
    const QStringList before = { QStringLiteral("--active-device"), QStringLiteral("10.44.0.35") };
    const QJsonObject standby = check(QStringLiteral("sim-admin"), QStringLiteral("demo"), nullptr, before);
    const QStringList missing = idsOf(standby, QStringLiteral("device-route-missing:"));
    QCOMPARE(missing.size(), 1);
    QVERIFY2(missing.first().endsWith(QLatin1String("on 10.44.0.36")), qPrintable(missing.first()));
    QCOMPARE(severityOf(standby, missing.first()), QStringLiteral("warning"));
    QCOMPARE(severityOf(check(QStringLiteral("sim-admin"), QStringLiteral("demo")), missing.first()),
        QStringLiteral("critical"));

    QVERIFY(cause(QStringLiteral("demo"), QStringLiteral("failover")).isEmpty());
    const QJsonObject active = check(QStringLiteral("sim-admin"), QStringLiteral("demo"), nullptr,
        { QStringLiteral("--active-device"), QStringLiteral("10.44.0.36") });
    QCOMPARE(severityOf(active, missing.first()), QStringLiteral("critical"));
    for (const QJsonValue &v : active.value(QStringLiteral("findings")).toArray()) {
        if (v[QStringLiteral("id")].toString() == missing.first())
            QCOMPARE(
                v[QStringLiteral("evidence")][QStringLiteral("role")].toString(), QStringLiteral("ACTIVE"));
    }
}

// `routes` as admin on the demo world's blue, whose router's pair shows every device failure: Neutron's
// order beside the ACTIVE's and the STANDBY's, what each lacks, what only a device holds and where, and the
// findings about each route; the same in JSON.
void TestCliDevice::routesShowNeutronBesideEachDevice()
{
    const QStringList args { QStringLiteral("routes"), QStringLiteral("--cloud"), QStringLiteral("sim-admin"),
        QStringLiteral("--kluster"), QStringLiteral("blue"), QStringLiteral("--active-device"),
        QStringLiteral("10.44.1.35") };
    const Run json = m_cli->cli(args + QStringList { QStringLiteral("--format"), QStringLiteral("json") });
    QCOMPARE(json.exitCode, 0);
    const QJsonObject report = QJsonDocument::fromJson(json.out.toUtf8()).object();
    const QJsonObject devices = report.value(QStringLiteral("devices")).toObject();
    QVERIFY(devices.value(QStringLiteral("read")).toBool());
    const QJsonArray columns = devices.value(QStringLiteral("columns")).toArray();
    QCOMPARE(columns.size(), 2);
    QCOMPARE(columns.at(0)[QStringLiteral("header")].toString(), QStringLiteral("ACTIVE 10.44.1.35"));
    QCOMPARE(columns.at(1)[QStringLiteral("role")].toString(), QStringLiteral("STANDBY"));
    QHash<QString, QJsonObject> routes;
    for (const QJsonValue &v : report.value(QStringLiteral("routes")).toArray())
        routes.insert(v[QStringLiteral("destination")].toString() + QStringLiteral(" via ")
                + v[QStringLiteral("nexthop")].toString(),
            v.toObject());
    const auto cell = [&](const QString &route, int column) {
        return routes.value(route).value(QStringLiteral("devices")).toArray().at(column).toObject();
    };
    // The ACTIVE lacks a node's route Neutron has; the STANDBY holds it first.
    const QString lacked = QStringLiteral("100.102.11.0/24 via 10.181.0.11");
    QCOMPARE(routes.value(lacked).value(QStringLiteral("neutron")).toInt(), 1);
    QCOMPARE(cell(lacked, 0).value(QStringLiteral("state")).toString(), QStringLiteral("lacks"));
    QCOMPARE(cell(lacked, 1).value(QStringLiteral("state")).toString(), QStringLiteral("holds"));
    QVERIFY(
        routes.value(lacked)
            .value(QStringLiteral("findings"))
            .toArray()
            .contains(QStringLiteral("device-route-missing:100.102.11.0/24 via 10.181.0.11 on 10.44.1.35")));
    // The deleted route both kept, listed before Neutron's: not in Neutron, first on the ACTIVE.
    const QString kept = QStringLiteral("100.102.12.0/24 via 10.181.0.99");
    QVERIFY(routes.value(kept).value(QStringLiteral("neutron")).isNull());
    QCOMPARE(cell(kept, 0).value(QStringLiteral("state")).toString(), QStringLiteral("extra"));
    QCOMPARE(cell(kept, 0).value(QStringLiteral("position")).toInt(), 1);
    QCOMPARE(routes.value(kept).value(QStringLiteral("findings")).toArray().size(), 2); // on each device
    // One more only the STANDBY kept.
    const QString standbyOnly = QStringLiteral("100.102.40.0/24 via 10.181.0.40");
    QCOMPARE(cell(standbyOnly, 0).value(QStringLiteral("state")).toString(), QStringLiteral("absent"));
    QCOMPARE(cell(standbyOnly, 1).value(QStringLiteral("state")).toString(), QStringLiteral("extra"));

    const Run text = m_cli->cli(args);
    QCOMPARE(text.exitCode, 0);
    QVERIFY2(text.out.contains(QStringLiteral("ACTIVE 10.44.1.35"))
            && text.out.contains(QStringLiteral("missing"))
            && text.out.contains(QStringLiteral("#1, not in Neutron")),
        qPrintable(text.out));
}

void TestCliDevice::routesForAReaderSayWhyNoDeviceIsShown()
{
    const Run r = m_cli->cli({ QStringLiteral("routes"), QStringLiteral("--cloud"),
        QStringLiteral("sim-reader"), QStringLiteral("--kluster"), QStringLiteral("blue") });
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(QStringLiteral("not readable with these credentials"))
            && r.out.contains(QStringLiteral("100.102.11.0/24"))
            && !r.out.contains(QStringLiteral("10.181.0.99")),
        qPrintable(r.out));
}

// The seeds' recovery from a deletion the devices missed, through `repair`: the plan (a teardown, then a
// sync) names who is cut off; it is not sent without the router's name; a protected kluster's router refuses
// it without the override; overridden, it is sent once for both devices' findings, verified, audited.
void TestCliDevice::teardownAndSyncClearsAKeptRoute()
{
    QVERIFY(cause(QStringLiteral("demo"), QStringLiteral("device-route-stale")).isEmpty());
    const QStringList stale = idsOf(
        check(QStringLiteral("sim-admin"), QStringLiteral("demo")), QStringLiteral("device-route-stale:"));
    QCOMPARE(stale.size(), 2);
    const QString router = routerOf(QStringLiteral("demo"));
    QStringList base = { QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim-admin"),
        QStringLiteral("--kluster"), QStringLiteral("demo") };
    for (const QString &id : stale)
        base << QStringLiteral("--finding") << id;
    Run r = m_cli->cli(base);
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(QStringLiteral("DELETE network /v2.0/asr1k/routers/") + router)
            && r.out.contains(QStringLiteral("PUT network /v2.0/asr1k/routers/") + router)
            && r.out.contains(QStringLiteral("kluster demo ("))
            && r.out.contains(QStringLiteral("kks-legacy"))
            && r.out.contains(QStringLiteral("Repaired by the same request to the router's devices as")),
        qPrintable(r.out));
    // Not without the router's name.
    r = m_cli->cli(base + QStringList { QStringLiteral("--yes") });
    QVERIFY2(
        r.exitCode == 3 && r.err.contains(QStringLiteral("give --router kks-router")), qPrintable(r.err));
    QCOMPARE(idsOf(check(QStringLiteral("sim-admin"), QStringLiteral("demo")),
                 QStringLiteral("device-route-stale:"))
                 .size(),
        2);
    // A protected kluster's router: refused in a batch, and alone without the override.
    const QStringList confirmed { QStringLiteral("--yes"), QStringLiteral("--router"),
        QStringLiteral("kks-router"), QStringLiteral("--protected") };
    r = m_cli->cli(base + confirmed);
    QVERIFY2(r.exitCode == 2 && r.err.contains(QStringLiteral("ProtectedRouter")), qPrintable(r.err + r.out));
    const QStringList one = { QStringLiteral("repair"), QStringLiteral("--cloud"),
        QStringLiteral("sim-admin"), QStringLiteral("--kluster"), QStringLiteral("demo"),
        QStringLiteral("--finding"), stale.first() };
    r = m_cli->cli(one + confirmed);
    QVERIFY2(r.exitCode == 2 && r.err.contains(QStringLiteral("--override tears the devices down anyway")),
        qPrintable(r.err + r.out));
    r = m_cli->cli(one + confirmed + QStringList { QStringLiteral("--override") });
    QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("Result: fixed")),
        qPrintable(
            QStringLiteral("exit %1\n%2\n%3").arg(r.exitCode).arg(r.err.left(2000), r.out.right(2000))));
    // The devices hold what Neutron does: both findings gone.
    QVERIFY(idsOf(check(QStringLiteral("sim-admin"), QStringLiteral("demo")), QStringLiteral("device-route"))
                .isEmpty());
    const QJsonObject record = m_cli->audit().last();
    QCOMPARE(record.value(QStringLiteral("finding")).toString(), stale.first());
    QCOMPARE(record.value(QStringLiteral("verification")).toString(), QStringLiteral("fixed"));

    // Kept again on both devices, with the STANDBY missing a route too: the three findings together are one
    // teardown and one sync (a request each), verified.
    QVERIFY(cause(QStringLiteral("demo"), QStringLiteral("device-route-stale")).isEmpty());
    QVERIFY(cause(QStringLiteral("demo"), QStringLiteral("device-route-missing")).isEmpty());
    const QStringList again
        = idsOf(check(QStringLiteral("sim-admin"), QStringLiteral("demo")), QStringLiteral("device-route-"));
    QCOMPARE(again.size(), 3);
    QStringList all = { QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim-admin"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--yes"),
        QStringLiteral("--router"), QStringLiteral("kks-router") };
    for (const QString &id : again)
        all << QStringLiteral("--finding") << id;
    r = m_cli->cli(all);
    QVERIFY2(r.exitCode == 0 && r.out.count(QStringLiteral("Sending: ")) == 1,
        qPrintable(
            QStringLiteral("exit %1\n%2\n%3").arg(r.exitCode).arg(r.err.left(2000), r.out.right(2000))));
    QVERIFY(idsOf(check(QStringLiteral("sim-admin"), QStringLiteral("demo")), QStringLiteral("device-route"))
                .isEmpty());
}

// A snapshot that is no snapshot (an HTML error page saved as its capture, a folder that is not there): said
// with the file and why, exit status 3, nothing printed as if it were routes.
void TestCliDevice::routesOfABadSnapshotSayWhy()
{
    QTemporaryDir dir;
    QFile kluster(dir.filePath(QStringLiteral("capture.json")));
    QVERIFY(kluster.open(QIODevice::WriteOnly));
    kluster.write("<html><body>502 Bad Gateway</body></html>");
    kluster.close();
    Run r = m_cli->cli({ QStringLiteral("routes"), QStringLiteral("--snapshot"), dir.path() });
    QVERIFY2(r.exitCode == 3 && r.err.contains(QStringLiteral("kluster.json"))
            && !r.out.contains(QStringLiteral("DESTINATION")),
        qPrintable(r.err + r.out));
    r = m_cli->cli(
        { QStringLiteral("routes"), QStringLiteral("--snapshot"), dir.filePath(QStringLiteral("none")) });
    QVERIFY2(r.exitCode == 3 && !r.err.isEmpty(), qPrintable(r.err));
    r = m_cli->cli({ QStringLiteral("routes"), QStringLiteral("--format"), QStringLiteral("yaml"),
        QStringLiteral("--snapshot"), dir.path() });
    QVERIFY2(r.exitCode == 3 && r.err.contains(QStringLiteral("--format")), qPrintable(r.err));
}

QTEST_GUILESS_MAIN(TestCliDevice)
#include "tst_cli_device.moc"

// Without the devices' view (a reader), the local history: node N's pod CIDR C was routed to A (a recycled
// CIDR, recorded by check --record), then Neutron was put right; the next check says route-recycled (a
// warning) with the earlier nexthop, and a check without that history says nothing of it.
void TestCliDevice::recycledFromTheHistoryForAReader()
{
    const QStringList record { QStringLiteral("--record") };
    int exit = -1;
    QVERIFY(!check(QStringLiteral("sim-reader"), QStringLiteral("demo"), &exit, record).isEmpty());
    const Reply caused
        = m_cli->sim.request("POST", m_cli->sim.sim.adminUrl() + QStringLiteral("/klusters/demo/cause"),
            QByteArrayLiteral(R"({"rule": "recycled-pod-cidr"})"), {}, false);
    QCOMPARE(caused.status, 200);
    // The cloud's clock says seconds: a second record in the same second would be no later moment.
    QTest::qWait(1100);
    // "C (node N's pod CIDR) now routed to A"
    const QString did
        = QJsonDocument::fromJson(caused.body).object().value(QStringLiteral("caused")).toString();
    const QString cidr = did.section(QLatin1Char(' '), 0, 0);
    const QString earlier = did.section(QLatin1Char(' '), -1);
    const QString node
        = did.section(QStringLiteral("(node "), 1).section(QStringLiteral("'s pod CIDR"), 0, 0);
    QVERIFY2(!cidr.isEmpty() && !earlier.isEmpty() && !node.isEmpty(), qPrintable(did));
    QJsonObject report = check(QStringLiteral("sim-reader"), QStringLiteral("demo"), &exit, record);
    QVERIFY(idsOf(report, QStringLiteral("route-recycled:")).isEmpty()); // Neutron says it itself
    QCOMPARE(report.value(QStringLiteral("phase")).toString(), QStringLiteral("Running")); // Kubernikus' word
    QString nodeIp;
    for (const SimNode &n : m_cli->sim.sim.world()
                                .klusters.at(m_cli->sim.sim.world().klusterIndex(QStringLiteral("demo")))
                                .nodes) {
        if (n.name == node)
            nodeIp = n.internalIp;
    }
    QVERIFY(!nodeIp.isEmpty());

    // Neutron put right by a member: the earlier route removed, the node's own added.
    const QString base = m_cli->sim.sim.endpoint(QStringLiteral("network")) + QStringLiteral("/v2.0/routers/")
        + routerOf(QStringLiteral("demo"));
    const auto member = tokenOf(QStringLiteral("demo"));
    const QString body
        = QStringLiteral(R"({"router": {"routes": [{"destination": "%1", "nexthop": "%2"}]}})");
    QCOMPARE(m_cli->sim
                 .request("PUT", base + QStringLiteral("/remove_extraroutes"),
                     body.arg(cidr, earlier).toUtf8(), member)
                 .status,
        200);
    QCOMPARE(m_cli->sim
                 .request("PUT", base + QStringLiteral("/add_extraroutes"), body.arg(cidr, nodeIp).toUtf8(),
                     member)
                 .status,
        200);

    report = check(QStringLiteral("sim-reader"), QStringLiteral("demo"), &exit);
    QCOMPARE(idsOf(report, QStringLiteral("route-recycled:")),
        QStringList({ QStringLiteral("route-recycled:") + cidr }));
    QCOMPARE(severityOf(report, QStringLiteral("route-recycled:") + cidr), QStringLiteral("warning"));
    for (const QJsonValue &v : report.value(QStringLiteral("findings")).toArray()) {
        const QJsonObject f = v.toObject();
        if (f.value(QStringLiteral("kind")).toString() != QLatin1String("route-recycled"))
            continue;
        const QJsonObject e = f.value(QStringLiteral("evidence")).toObject();
        QCOMPARE(e.value(QStringLiteral("earlierNexthop")).toString(), earlier);
        QCOMPARE(e.value(QStringLiteral("node")).toString(), node);
        QVERIFY2(e.value(QStringLiteral("deviceError")).toString().contains(QStringLiteral("401")),
            qPrintable(e.value(QStringLiteral("deviceError")).toString()));
        QVERIFY(f.value(QStringLiteral("repair")).isNull());
    }
    // The member's check has no history of its own (another cloud entry, another history key): nothing said.
    QVERIFY(idsOf(check(QStringLiteral("sim"), QStringLiteral("demo")), QStringLiteral("route-recycled:"))
                .isEmpty());
}

// The driver's sync refused by the cloud's policy (403): said, with the way out; repair --nudge removes the
// route in Neutron and adds it again (the driver's agent programs it on the devices again), verified by
// reading the devices, audited.
void TestCliDevice::nudgeWhereTheSyncIsNotPermitted()
{
    // The STANDBY missed an addition, then became the ACTIVE: the device that forwards lacks the route.
    QVERIFY(cause(QStringLiteral("demo"), QStringLiteral("device-route-missing")).isEmpty());
    QVERIFY(cause(QStringLiteral("demo"), QStringLiteral("failover")).isEmpty());
    const QStringList missing = idsOf(
        check(QStringLiteral("sim-admin"), QStringLiteral("demo")), QStringLiteral("device-route-missing:"));
    QCOMPARE(missing.size(), 1);
    FaultRule policy;
    policy.service = QStringLiteral("network");
    policy.method = QStringLiteral("PUT");
    policy.path = QRegularExpression(QStringLiteral("^/v2.0/asr1k/"));
    policy.status = 403;
    m_cli->sim.sim.faults().add(policy);
    const QStringList base = { QStringLiteral("repair"), QStringLiteral("--cloud"),
        QStringLiteral("sim-admin"), QStringLiteral("--kluster"), QStringLiteral("demo"),
        QStringLiteral("--finding"), missing.first(), QStringLiteral("--yes"),
        QStringLiteral("--active-device"), missing.first().section(QStringLiteral(" on "), 1) };
    Run r = m_cli->cli(base);
    QVERIFY2(r.exitCode == 3 && r.out.contains(QStringLiteral("-> 403"))
            && r.out.contains(QStringLiteral("repaired without it by --nudge")),
        qPrintable(r.out.right(1500)));

    // The nudge: remove_extraroutes, then add_extraroutes of the same route; nothing of the driver's.
    const QString route = missing.first().section(QLatin1Char(':'), 1).section(QStringLiteral(" on "), 0, 0);
    r = m_cli->cli(base + QStringList { QStringLiteral("--nudge") });
    QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("Result: fixed")),
        qPrintable(
            QStringLiteral("exit %1\n%2\n%3").arg(r.exitCode).arg(r.err.left(2000), r.out.right(2000))));
    const qsizetype removed = r.out.indexOf(QStringLiteral("/remove_extraroutes -> 200"));
    const qsizetype added = r.out.indexOf(QStringLiteral("/add_extraroutes -> 200"));
    QVERIFY2(removed > 0 && added > removed && !r.out.contains(QStringLiteral("PUT /v2.0/asr1k/")),
        qPrintable(r.out.right(2000)));
    QVERIFY(idsOf(check(QStringLiteral("sim-admin"), QStringLiteral("demo")), QStringLiteral("device-route"))
                .isEmpty());
    const QJsonObject record = m_cli->audit().last();
    QCOMPARE(record.value(QStringLiteral("finding")).toString(), missing.first());
    QCOMPARE(record.value(QStringLiteral("verification")).toString(), QStringLiteral("fixed"));
    const QByteArray sent = QJsonDocument(record.value(QStringLiteral("requests")).toArray()).toJson();
    QVERIFY2(sent.contains("remove_extraroutes") && sent.contains("add_extraroutes")
            && !sent.contains("/v2.0/asr1k/"),
        sent.constData());
    QCOMPARE(m_cli->sim.sim.faults().rules().constFirst().hits, 1); // the refused sync only
    // A STANDBY's gap is never nudged (the removal would take the route off the ACTIVE that holds it): the
    // sync stays its plan.
    QVERIFY(cause(QStringLiteral("demo"), QStringLiteral("device-route-missing")).isEmpty());
    const QStringList standby = idsOf(check(QStringLiteral("sim-admin"), QStringLiteral("demo"), nullptr,
                                          { QStringLiteral("--active-device"), base.last() }),
        QStringLiteral("device-route-missing:"));
    QCOMPARE(standby.size(), 1);
    QVERIFY(!standby.first().endsWith(base.last()));
    r = m_cli->cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim-admin"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--finding"), standby.first(),
        QStringLiteral("--active-device"), base.last(), QStringLiteral("--nudge") });
    QVERIFY2(r.out.contains(QStringLiteral("PUT network /v2.0/asr1k/routers/"))
            && !r.out.contains(QStringLiteral("remove_extraroutes")),
        qPrintable(r.out.right(2000)));
}
