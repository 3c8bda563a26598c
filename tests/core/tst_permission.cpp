// What these credentials may do (diagnosis.md §8), judged before anything is sent: Keystone's token read, an
// application credential's access rules matched as keystonemiddleware matches them, and each call Flightdeck
// sends against the default policies' roles.
#include "core/json/jsonreader.h"
#include "core/permission.h"

#include <QJsonArray>
#include <QTest>

class TestPermission : public QObject
{
    Q_OBJECT

private slots:
    void tokenRead();
    void tokenRefused();
    void accessRulePaths_data();
    void accessRulePaths();
    void everyCallByRole_data();
    void everyCallByRole();
    void accessRulesComeFirst();
};

static PlannedRequest request(
    const char *service, const char *method, const QString &path, const QJsonValue &body = QJsonValue::Null)
{
    PlannedRequest r;
    r.service = QLatin1String(service);
    r.method = QLatin1String(method);
    r.path = path;
    r.body = body;
    return r;
}

void TestPermission::tokenRead()
{
    const TokenIdentity t = TokenIdentity::parse(QStringLiteral("token"), R"({"token": {
        "methods": ["application_credential"], "user": {"id": "u1", "name": "demo", "domain": {"id": "default"}},
        "project": {"id": "p1", "name": "flightdeck-demo", "domain": {"id": "default", "name": "Default"}},
        "roles": [{"id": "r1", "name": "reader"}],
        "application_credential": {"id": "ac1", "name": "readonly", "restricted": true,
            "access_rules": [{"id": "a1", "service": "compute", "method": "GET", "path": "/v2.1/servers/**"}]},
        "expires_at": "2026-11-30T12:00:00.000000Z"}})");
    QCOMPARE(t.userName, QStringLiteral("demo"));
    QCOMPARE(t.projectName, QStringLiteral("flightdeck-demo"));
    QCOMPARE(t.roles, QStringList { QStringLiteral("reader") });
    QVERIFY(t.hasRole(QStringLiteral("reader")));
    QVERIFY(!t.hasRole(QStringLiteral("member")));
    QCOMPARE(t.applicationCredential, QStringLiteral("readonly"));
    QVERIFY(t.accessRules);
    QCOMPARE(t.accessRules->size(), 1);
    QCOMPARE(t.summary(),
        QStringLiteral(
            "demo (application credential readonly, 1 access rule(s)) · reader · project flightdeck-demo"));

    const TokenIdentity admin = TokenIdentity::parse(QStringLiteral("token"),
        R"({"token": {"user": {"id": "u2"}, "system": {"all": true}, "roles": [{"id": "r", "name": "admin"}]}})");
    QVERIFY(admin.systemScope);
    QVERIFY(admin.hasRole(QStringLiteral("member")) && admin.hasRole(QStringLiteral("reader")));
    QVERIFY(!admin.hasRole(QStringLiteral("cloud_network_admin")));
    QVERIFY(!admin.accessRules); // unrestricted by access rules
    QCOMPARE(admin.summary(), QStringLiteral("u2 · admin · system scope"));
}

void TestPermission::tokenRefused()
{
    for (const QByteArray &body :
        { QByteArray(R"({})"), QByteArray(R"({"token": {"roles": []}})"),
            QByteArray(R"({"token": {"user": {"id": "u"}, "roles": [{"id": "r"}]}})"),
            QByteArray(
                R"({"token": {"user": {"id": "u"}, "application_credential": {"access_rules": [{"service": "x"}]}}})"),
            QByteArray("<html>401</html>") }) {
        try {
            TokenIdentity::parse(QStringLiteral("token.json"), body);
            QFAIL(body.constData());
        } catch (const ParseError &e) {
            QVERIFY2(e.toString().contains(QStringLiteral("token.json")), qPrintable(e.toString()));
        }
    }
}

void TestPermission::accessRulePaths_data()
{
    QTest::addColumn<QString>("rule");
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("matches");
    QTest::newRow("one segment") << "/v2.1/servers/*"
                                 << "/v2.1/servers/abc" << true;
    QTest::newRow("not two") << "/v2.1/servers/*"
                             << "/v2.1/servers/abc/action" << false;
    QTest::newRow("not none") << "/v2.1/servers/*"
                              << "/v2.1/servers/" << false;
    QTest::newRow("named") << "/v2.1/servers/{server_id}/action"
                           << "/v2.1/servers/abc/action" << true;
    QTest::newRow("anything") << "/v2.0/routers/**"
                              << "/v2.0/routers/r1/add_extraroutes" << true;
    QTest::newRow("whole path") << "/v2.0/routers"
                                << "/v2.0/routers/r1" << false;
    QTest::newRow("literal dot") << "/v2.0/routers/*"
                                 << "/v2x0/routers/r1" << false;
}

void TestPermission::accessRulePaths()
{
    QFETCH(QString, rule);
    QFETCH(QString, path);
    QFETCH(bool, matches);
    const AccessRule r { QStringLiteral("network"), QStringLiteral("GET"), rule };
    QCOMPARE(r.matches(QStringLiteral("network"), QStringLiteral("GET"), path), matches);
    QVERIFY(!r.matches(QStringLiteral("compute"), QStringLiteral("GET"), path));
    QVERIFY(!r.matches(QStringLiteral("network"), QStringLiteral("PUT"), path));
}

void TestPermission::everyCallByRole_data()
{
    QTest::addColumn<PlannedRequest>("call");
    QTest::addColumn<QString>("needs"); // the least role that may
    const QString router = QStringLiteral("/v2.0/routers/1b2c");
    QTest::newRow("router update") << request("network", "PUT", router) << "member";
    QTest::newRow("add_extraroutes") << request("network", "PUT", router + QStringLiteral("/add_extraroutes"))
                                     << "member";
    QTest::newRow("remove_extraroutes")
        << request("network", "PUT", router + QStringLiteral("/remove_extraroutes")) << "member";
    QTest::newRow("rule") << request("network", "POST", QStringLiteral("/v2.0/security-group-rules"))
                          << "member";
    QTest::newRow("port pairs") << request("network", "PUT", QStringLiteral("/v2.0/ports/p1")) << "member";
    QTest::newRow("device sync") << request("network", "PUT", QStringLiteral("/v2.0/asr1k/routers/1b2c"))
                                 << "cloud_network_admin";
    QTest::newRow("device teardown") << request(
        "network", "DELETE", QStringLiteral("/v2.0/asr1k/routers/1b2c"))
                                     << "cloud_network_admin";
    QTest::newRow("server delete") << request("compute", "DELETE", QStringLiteral("/servers/s1")) << "member";
    QTest::newRow("add group") << request("compute", "POST", QStringLiteral("/servers/s1/action"),
        QJsonObject { { QStringLiteral("addSecurityGroup"),
            QJsonObject { { QStringLiteral("name"), QStringLiteral("g") } } } })
                               << "member";
    QTest::newRow("start") << request("compute", "POST", QStringLiteral("/servers/s1/action"),
        QJsonObject { { QStringLiteral("os-start"), QJsonValue() } })
                           << "member";
    QTest::newRow("console") << request("compute", "POST", QStringLiteral("/servers/s1/action"),
        QJsonObject {
            { QStringLiteral("os-getConsoleOutput"), QJsonObject { { QStringLiteral("length"), 50 } } } })
                             << "member";
    QTest::newRow("actions") << request("compute", "GET", QStringLiteral("/servers/s1/os-instance-actions"))
                             << "reader";
}

void TestPermission::everyCallByRole()
{
    QFETCH(PlannedRequest, call);
    QFETCH(QString, needs);
    const PolicyProfile &profile = PolicyProfile::defaults();
    QVERIFY(profile.ruleFor(call));
    const QStringList ladder { QStringLiteral("reader"), QStringLiteral("member"), QStringLiteral("admin") };
    for (const QString &role : ladder) {
        TokenIdentity t;
        t.userId = QStringLiteral("u");
        t.projectName = QStringLiteral("p");
        t.roles = { role };
        const PermissionVerdict v = profile.judge(call, t);
        const bool expected = needs == QLatin1String("cloud_network_admin")
            ? role == QLatin1String("admin")
            : ladder.indexOf(role) >= ladder.indexOf(needs);
        QCOMPARE(v.permission, expected ? Permission::Allowed : Permission::Denied);
        if (!expected) {
            QVERIFY2(v.reason.contains(profile.ruleFor(call)->policy), qPrintable(v.reason));
            QVERIFY2(
                v.reason.contains(QStringLiteral("these credentials have ") + role), qPrintable(v.reason));
        }
    }
    TokenIdentity cloudAdmin;
    cloudAdmin.roles = { QStringLiteral("cloud_network_admin") };
    if (needs == QLatin1String("cloud_network_admin"))
        QCOMPARE(profile.judge(call, cloudAdmin).permission, Permission::Allowed);
}

void TestPermission::accessRulesComeFirst()
{
    TokenIdentity t;
    t.roles = { QStringLiteral("admin") };
    t.applicationCredential = QStringLiteral("readonly");
    t.accessRules = QList<AccessRule> { { QStringLiteral("compute"), QStringLiteral("GET"),
                                            QStringLiteral("/v2.1/**") },
        { QStringLiteral("network"), QStringLiteral("GET"), QStringLiteral("/v2.0/**") } };
    const PolicyProfile &profile = PolicyProfile::defaults();
    const PermissionVerdict del = profile.judge(
        request("compute", "DELETE", QStringLiteral("/servers/s1")), t, QStringLiteral("/v2.1"));
    QCOMPARE(del.permission, Permission::Denied);
    QVERIFY2(del.reason.contains(QStringLiteral("no access rule for DELETE compute /v2.1/servers/s1")),
        qPrintable(del.reason));
    QCOMPARE(profile
                 .judge(request("compute", "GET", QStringLiteral("/servers/s1/os-instance-actions")), t,
                     QStringLiteral("/v2.1/"))
                 .permission,
        Permission::Allowed);
    // No rule known: unknown, offered with a note; a Kubernetes write is the API server's to judge.
    QCOMPARE(profile.judge(request("network", "GET", QStringLiteral("/v2.0/networks")), TokenIdentity())
                 .permission,
        Permission::Unknown);
    QCOMPARE(profile.judge(request("kubernetes", "DELETE", QStringLiteral("/api/v1/nodes/n1")), t).permission,
        Permission::Unknown);
    QCOMPARE(Permissions::name(Permission::Denied), QStringLiteral("denied"));
}

QTEST_GUILESS_MAIN(TestPermission)
#include "tst_permission.moc"
