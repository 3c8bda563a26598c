#include "tests/app/clifixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
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

private:
    using Run = CliFixture::Run;
    QString cause(const QString &kluster, const QString &rule);
    QList<QPair<QByteArray, QByteArray>> tokenOf(const QString &user);
    QString routerOf(const QString &kluster);
    QJsonObject check(const QString &cloud, const QString &kluster, int *exitCode = nullptr);

    std::unique_ptr<CliFixture> m_cli;
};

void TestCliDevice::init()
{
    // The default world with the driver, and an admin and a reader beside its member user.
    m_cli = std::make_unique<CliFixture>([](QJsonObject &root) {
        QJsonObject cloud = root.value(QStringLiteral("cloud")).toObject();
        cloud.insert(QStringLiteral("asr1k"), true);
        root.insert(QStringLiteral("cloud"), cloud);
        QJsonArray projects = root.value(QStringLiteral("projects")).toArray();
        QJsonObject project = projects.at(0).toObject();
        QJsonArray users = project.value(QStringLiteral("users")).toArray();
        users.append(QJsonObject { { QStringLiteral("name"), QStringLiteral("admin") },
            { QStringLiteral("password"), QString::fromLatin1(CliFixture::Password) },
            { QStringLiteral("roles"),
                QJsonArray {
                    QStringLiteral("admin"), QStringLiteral("member"), QStringLiteral("reader") } } });
        users.append(QJsonObject { { QStringLiteral("name"), QStringLiteral("reader") },
            { QStringLiteral("password"), QString::fromLatin1(CliFixture::Password) },
            { QStringLiteral("roles"), QJsonArray { QStringLiteral("reader") } } });
        project.insert(QStringLiteral("users"), users);
        projects.replace(0, project);
        root.insert(QStringLiteral("projects"), projects);
    });
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

QJsonObject TestCliDevice::check(const QString &cloud, const QString &kluster, int *exitCode)
{
    const Run r = m_cli->cli({ QStringLiteral("check"), QStringLiteral("--cloud"), cloud,
        QStringLiteral("--kluster"), kluster, QStringLiteral("--format"), QStringLiteral("json") });
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

QTEST_GUILESS_MAIN(TestCliDevice)
#include "tst_cli_device.moc"
