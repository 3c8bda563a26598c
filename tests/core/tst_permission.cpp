// What these credentials may do (diagnosis.md §8), judged before anything is sent: Keystone's token read, an
// application credential's access rules matched as keystonemiddleware matches them, and each call Flightdeck
// sends against the default policies' roles.
#include "core/json/jsonreader.h"
#include "core/manualrepair.h"
#include "core/permission.h"
#include "core/repairplanner.h"

#include <QJsonArray>
#include <QJsonDocument>
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
    void plansJudged();
    void tokenJsonRoundTrip();
    void guideOfEveryKind();
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

static Credentials credentialsOf(const QStringList &roles)
{
    Credentials c;
    c.identity.userId = QStringLiteral("u1");
    c.identity.userName = QStringLiteral("oncall");
    c.identity.projectId = QStringLiteral("p1");
    c.identity.projectName = QStringLiteral("flightdeck-demo");
    c.identity.roles = roles;
    c.endpoints.insert(QStringLiteral("network"), QStringLiteral("https://neutron.example:9696"));
    c.endpoints.insert(QStringLiteral("compute"), QStringLiteral("https://nova.example:8774/v2.1"));
    return c;
}

static Router router()
{
    Router r;
    r.id = QStringLiteral("a20a76df-33af-4f58-aff8-136f601ebdf0");
    r.name = QStringLiteral("kks-router");
    r.revisionNumber = 7;
    r.routes = { Route { QStringLiteral("100.100.1.0/24"), QStringLiteral("10.180.0.4") } };
    return r;
}

void TestPermission::plansJudged()
{
    // Nobody known: each request unknown, and said why; the plan is not refused for it.
    RepairPlan plan = RepairPlanner::addRoutes(
        router(), { Route { QStringLiteral("100.100.2.0/24"), QStringLiteral("10.180.0.5") } }, true);
    Credentials::judgePlan(plan, nullptr);
    QCOMPARE(plan.requests.first().permission.permission, Permission::Unknown);
    QVERIFY(plan.requests.first().permission.reason.contains(QStringLiteral("token was not read")));
    QCOMPARE(plan.refusal, Refusal::None);
    // A reader: denied, the plan refused NotPermitted, naming the request and the role.
    const Credentials reader = credentialsOf({ QStringLiteral("reader") });
    Credentials::judgePlan(plan, &reader);
    QCOMPARE(plan.refusal, Refusal::NotPermitted);
    QVERIFY2(plan.refusalDetail.startsWith(QStringLiteral(
                 "PUT network /v2.0/routers/a20a76df-33af-4f58-aff8-136f601ebdf0/add_extraroutes: "
                 "add_extraroutes needs the role member")),
        qPrintable(plan.refusalDetail));
    // A plan refused for another reason keeps it (the guide would not help).
    RepairPlan full = RepairPlanner::removeRoutes(Router(), router().routes, false);
    QCOMPARE(full.refusal, Refusal::NoRevision);
    Credentials::judgePlan(full, &reader);
    QCOMPARE(full.refusal, Refusal::NoRevision);
    // A member, allowed; then a 403 nobody expected is remembered for the session: denied after.
    Credentials member = credentialsOf({ QStringLiteral("member") });
    RepairPlan again = RepairPlanner::addRoutes(
        router(), { Route { QStringLiteral("100.100.2.0/24"), QStringLiteral("10.180.0.5") } }, true);
    Credentials::judgePlan(again, &member);
    QCOMPARE(again.requests.first().permission.permission, Permission::Allowed);
    QCOMPARE(again.refusal, Refusal::None);
    member.refusedThisSession.insert(
        QStringLiteral("add_extraroutes"), QStringLiteral("rule:add_extraroutes is disallowed by policy"));
    Credentials::judgePlan(again, &member);
    QCOMPARE(again.refusal, Refusal::NotPermitted);
    QVERIFY(
        again.refusalDetail.contains(QStringLiteral("refused earlier this session: rule:add_extraroutes")));
    // Kubernetes: what the API server said, else unknown.
    Node node;
    node.name = QStringLiteral("kks-demo-pool-g4h0s");
    RepairPlan deleteNode = RepairPlanner::deleteNode(node);
    QCOMPARE(Credentials::kubernetesAction(deleteNode.requests.first()), QStringLiteral("delete nodes"));
    Credentials::judgePlan(deleteNode, &member);
    QCOMPARE(deleteNode.requests.first().permission.permission, Permission::Unknown);
    member.kubernetes.insert(
        QStringLiteral("delete nodes"), PermissionVerdict { Permission::Denied, QStringLiteral("RBAC") });
    Credentials::judgePlan(deleteNode, &member);
    QCOMPARE(deleteNode.refusal, Refusal::NotPermitted);
    PlannedRequest event;
    event.service = QStringLiteral("kubernetes");
    event.method = QStringLiteral("POST");
    event.path = QStringLiteral("/apis/events.k8s.io/v1/namespaces/default/events");
    QCOMPARE(Credentials::kubernetesAction(event), QStringLiteral("create events"));
}

void TestPermission::tokenJsonRoundTrip()
{
    Credentials c = credentialsOf({ QStringLiteral("member"), QStringLiteral("reader") });
    c.identity.applicationCredential = QStringLiteral("flightdeck-readonly");
    c.identity.accessRules = QList<AccessRule> { { QStringLiteral("compute"), QStringLiteral("GET"),
        QStringLiteral("/v2.1/**") } };
    const QByteArray body = QJsonDocument(c.toTokenJson()).toJson();
    QVERIFY(!body.contains("secret") && !body.contains("X-Subject-Token"));
    const Credentials back = Credentials::fromTokenJson(QStringLiteral("token.json"), body);
    QCOMPARE(back.identity.userName, c.identity.userName);
    QCOMPARE(back.identity.roles, c.identity.roles);
    QCOMPARE(back.identity.projectName, c.identity.projectName);
    QCOMPARE(back.identity.applicationCredential, c.identity.applicationCredential);
    QVERIFY(back.identity.accessRules && back.identity.accessRules->size() == 1);
    QCOMPARE(back.endpoints, c.endpoints);
    // The access rule is matched against the endpoint's path read back: a GET of the servers passes, a
    // DELETE does not.
    PlannedRequest get = request("compute", "GET", QStringLiteral("/servers/detail"));
    PlannedRequest del = request("compute", "DELETE", QStringLiteral("/servers/x"));
    QCOMPARE(back.judge(del).permission, Permission::Denied);
    QVERIFY(back.judge(del).reason.contains(QStringLiteral("/v2.1/servers/x")));
    QVERIFY(back.judge(get).permission != Permission::Denied);
}

void TestPermission::guideOfEveryKind()
{
    const Credentials reader = credentialsOf({ QStringLiteral("reader") });
    Instance instance;
    instance.id = QStringLiteral("53a91d7b-4608-4faf-a6e7-15e96a706873");
    instance.name = QStringLiteral("kks-demo-pool-t5y6u");
    instance.status = QStringLiteral("SUSPENDED");
    SecurityGroup group;
    group.id = QStringLiteral("07b59d0d-11e4-4f44-a5b2-e179fc8d6c5c");
    group.name = QStringLiteral("kks-demo");
    Port port;
    port.id = QStringLiteral("9c1d2e3f-0000-4000-8000-000000000001");
    port.revision = 3;
    Node node;
    node.name = QStringLiteral("kks-demo-pool-g4h0s");
    const Route route { QStringLiteral("100.100.2.0/24"), QStringLiteral("10.180.0.5") };
    const QList<QPair<RepairPlan, QString>> cases {
        { RepairPlanner::deleteInstance(instance),
            QStringLiteral("openstack server delete 53a91d7b-4608-4faf-a6e7-15e96a706873") },
        { RepairPlanner::startInstance(instance),
            QStringLiteral("openstack server resume 53a91d7b-4608-4faf-a6e7-15e96a706873") },
        { RepairPlanner::addSecurityGroup(instance, group.name),
            QStringLiteral(
                "openstack server add security group 53a91d7b-4608-4faf-a6e7-15e96a706873 kks-demo") },
        { RepairPlanner::createSecurityGroupRule(
              group, QStringLiteral("tcp"), QStringLiteral("100.100.0.0/16")),
            QStringLiteral("openstack security group rule create --ingress --ethertype IPv4 --protocol tcp "
                           "--remote-ip 100.100.0.0/16 07b59d0d-11e4-4f44-a5b2-e179fc8d6c5c") },
        { RepairPlanner::addAddressPair(port, QStringLiteral("100.100.0.0/16"), true),
            QStringLiteral("openstack port set --allowed-address ip-address=100.100.0.0/16 "
                           "9c1d2e3f-0000-4000-8000-000000000001") },
        { RepairPlanner::addRoutes(router(), { route }, true),
            QStringLiteral("openstack router add route --route destination=100.100.2.0/24,gateway=10.180.0.5 "
                           "a20a76df-33af-4f58-aff8-136f601ebdf0") },
        { RepairPlanner::removeRoutes(router(), router().routes, true),
            QStringLiteral(
                "openstack router remove route --route destination=100.100.1.0/24,gateway=10.180.0.4 "
                "a20a76df-33af-4f58-aff8-136f601ebdf0") },
        { RepairPlanner::deleteNode(node),
            QStringLiteral("kubectl --context demo delete node kks-demo-pool-g4h0s") },
        // No client sends these as planned: the request itself.
        { RepairPlanner::addRoutes(router(), { route }, false),
            QStringLiteral("If-Match: revision_number=7") },
        { RepairPlanner::syncDevices(router(), {}),
            QStringLiteral(
                "curl -sS -X PUT "
                "https://neutron.example:9696/v2.0/asr1k/routers/a20a76df-33af-4f58-aff8-136f601ebdf0 ") },
    };
    // A name from the cloud is one word for the shell, whatever it holds; one that looks like an option comes
    // after `--`; no backtick of it closes a Markdown fence.
    SecurityGroup hostile = group;
    hostile.id = QStringLiteral("-x'$(touch /tmp/p)`\n```");
    RepairPlan rule = RepairPlanner::createSecurityGroupRule(
        hostile, QStringLiteral("tcp"), QStringLiteral("100.100.0.0/16"));
    Credentials::judgePlan(rule, &reader);
    const ManualRepair quoted = ManualRepair::of(rule, QStringLiteral("demo"), &reader);
    QVERIFY2(quoted.steps.first().command.endsWith(
                 QStringLiteral("--remote-ip 100.100.0.0/16 -- '-x'\\''$(touch /tmp/p)`\n```'")),
        qPrintable(quoted.steps.first().command));
    QVERIFY2(quoted.markdown().contains(QStringLiteral("````sh\n")), qPrintable(quoted.markdown()));
    for (const auto &[planned, expected] : cases) {
        RepairPlan plan = planned;
        Credentials::judgePlan(plan, &reader);
        const ManualRepair guide = ManualRepair::of(plan, QStringLiteral("demo"), &reader);
        QCOMPARE(guide.steps.size(), plan.requests.size());
        const QString markdown = guide.markdown();
        QVERIFY2(markdown.contains(expected), qPrintable(markdown));
        QVERIFY2(guide.text().contains(expected), qPrintable(guide.text()));
        QVERIFY(markdown.contains(QStringLiteral("curl -sS -X "))
            || plan.requests.first().service == QLatin1String("kubernetes"));
    }
}

QTEST_GUILESS_MAIN(TestPermission)
#include "tst_permission.moc"
