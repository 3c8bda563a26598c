// oslo.policy's rule language as Flightdeck reads a cloud's policy file (diagnosis.md §8): parsed as
// oslo.policy's _parser parses it, judged three-valued from the token alone, and a profile whose file writes
// a policy judging the calls by the file's rule instead of the defaults' roles.
#include "core/permission.h"
#include "core/policyrule.h"

#include <QTest>

class TestPolicyRule : public QObject
{
    Q_OBJECT

private slots:
    void judged_data();
    void judged();
    void unparsable_data();
    void unparsable();
    void rulesReferred();
    void profileOverridden();
};

Q_DECLARE_METATYPE(PolicyRule::Truth)

static TokenIdentity identity(const QStringList &roles, bool projectScoped = true)
{
    TokenIdentity t;
    t.userId = QStringLiteral("u1");
    t.userName = QStringLiteral("oncall");
    if (projectScoped) {
        t.projectId = QStringLiteral("p1");
        t.projectName = QStringLiteral("flightdeck-demo");
    } else {
        t.systemScope = true;
    }
    t.roles = roles;
    return t;
}

void TestPolicyRule::judged_data()
{
    QTest::addColumn<QString>("rule");
    QTest::addColumn<QStringList>("roles");
    QTest::addColumn<PolicyRule::Truth>("truth");
    using T = PolicyRule::Truth;
    const QStringList reader { QStringLiteral("reader") };
    const QStringList member { QStringLiteral("member"), QStringLiteral("reader") };
    const QStringList netadmin { QStringLiteral("network_admin") };
    QTest::newRow("empty: always") << QString() << QStringList() << T::True;
    QTest::newRow("blank: always") << QStringLiteral("  \t ") << QStringList() << T::True;
    QTest::newRow("@") << QStringLiteral("@") << QStringList() << T::True;
    QTest::newRow("!") << QStringLiteral("!") << member << T::False;
    QTest::newRow("role held") << QStringLiteral("role:member") << member << T::True;
    QTest::newRow("role case") << QStringLiteral("role:Member") << member << T::True;
    QTest::newRow("role implied by admin")
        << QStringLiteral("role:member") << QStringList { "admin" } << T::True;
    QTest::newRow("role lacking") << QStringLiteral("role:member") << reader << T::False;
    QTest::newRow("or") << QStringLiteral("role:member or role:network_admin") << netadmin << T::True;
    QTest::newRow("OR upper") << QStringLiteral("role:member OR role:network_admin") << netadmin << T::True;
    QTest::newRow("and") << QStringLiteral("role:member and role:network_admin") << member << T::False;
    // `and` binds tighter than `or`: A or (B and C).
    QTest::newRow("precedence") << QStringLiteral("role:admin or role:member and role:network_admin")
                                << netadmin << T::False;
    QTest::newRow("parentheses") << QStringLiteral("(role:admin or role:member) and role:network_admin")
                                 << QStringList { "member", "network_admin" } << T::True;
    QTest::newRow("nested ((") << QStringLiteral("((role:member))") << member << T::True;
    QTest::newRow("not") << QStringLiteral("not role:reader") << member << T::False;
    QTest::newRow("not binds tight") << QStringLiteral("not role:admin and role:member") << member << T::True;
    QTest::newRow("not not") << QStringLiteral("not not role:member") << member << T::True;
    // The resource's project is the token's own (Flightdeck acts on its project's resources).
    QTest::newRow("own project") << QStringLiteral("role:member and project_id:%(project_id)s") << member
                                 << T::True;
    QTest::newRow("tenant_id") << QStringLiteral("role:member and tenant_id:%(tenant_id)s") << member
                               << T::True;
    // Who owns the resource, or a field of it, the service knows: unknown, unless decided anyway.
    QTest::newRow("owner unknown") << QStringLiteral("role:member and user_id:%(user_id)s") << member
                                   << T::Unknown;
    QTest::newRow("false decides and")
        << QStringLiteral("role:admin and user_id:%(user_id)s") << member << T::False;
    QTest::newRow("true decides or") << QStringLiteral("role:member or field:networks:shared=True") << member
                                     << T::True;
    QTest::newRow("not unknown") << QStringLiteral("not field:networks:shared=True") << member << T::Unknown;
    QTest::newRow("is_admin") << QStringLiteral("is_admin:True") << QStringList { "admin" } << T::True;
    QTest::newRow("is_admin otherwise") << QStringLiteral("is_admin:True") << member << T::Unknown;
    // A check without a kind is one oslo.policy cannot understand: it never passes.
    QTest::newRow("no kind") << QStringLiteral("member or role:member") << member << T::True;
    QTest::newRow("no kind alone") << QStringLiteral("member") << member << T::False;
    QTest::newRow("unresolved rule") << QStringLiteral("rule:somewhere_else") << member << T::Unknown;
}

void TestPolicyRule::judged()
{
    QFETCH(QString, rule);
    QFETCH(QStringList, roles);
    QFETCH(PolicyRule::Truth, truth);
    const PolicyRule parsed = PolicyRule::parse(rule);
    QVERIFY2(parsed.parsed(), qPrintable(parsed.error()));
    QStringList undecided;
    QCOMPARE(parsed.judge(identity(roles), {}, &undecided), truth);
    QCOMPARE(undecided.isEmpty(), truth != PolicyRule::Truth::Unknown);
}

void TestPolicyRule::unparsable_data()
{
    QTest::addColumn<QString>("rule");
    QTest::newRow("unclosed") << QStringLiteral("(role:member");
    QTest::newRow("unopened") << QStringLiteral("role:member)");
    QTest::newRow("dangling or") << QStringLiteral("role:member or");
    QTest::newRow("and or") << QStringLiteral("role:admin and or role:member");
    QTest::newRow("empty parentheses") << QStringLiteral("()");
    QTest::newRow("quoted") << QStringLiteral("'role:member'");
    QTest::newRow("two checks") << QStringLiteral("role:member role:admin");
    QTest::newRow("deep") << QString(QStringLiteral("not ").repeated(300) + QStringLiteral("role:member"));
}

void TestPolicyRule::unparsable()
{
    QFETCH(QString, rule);
    const PolicyRule parsed = PolicyRule::parse(rule);
    QVERIFY(!parsed.parsed());
    QVERIFY(!parsed.error().isEmpty());
    // oslo.policy denies a rule it cannot parse, whoever asks.
    QCOMPARE(parsed.judge(identity({ QStringLiteral("admin") }), {}, nullptr), PolicyRule::Truth::False);
}

void TestPolicyRule::rulesReferred()
{
    QHash<QString, PolicyRule> file;
    file.insert(QStringLiteral("admin_only"), PolicyRule::parse(QStringLiteral("role:admin")));
    file.insert(QStringLiteral("loop"), PolicyRule::parse(QStringLiteral("rule:loop")));
    const PolicyRule::Resolve resolve = [&file](const QString &name) -> const PolicyRule * {
        const auto it = file.constFind(name);
        return it == file.cend() ? nullptr : &*it;
    };
    const PolicyRule rule = PolicyRule::parse(QStringLiteral("rule:admin_only or role:network_admin"));
    QCOMPARE(rule.judge(identity({ QStringLiteral("member") }), resolve, nullptr), PolicyRule::Truth::False);
    QCOMPARE(rule.judge(identity({ QStringLiteral("admin") }), resolve, nullptr), PolicyRule::Truth::True);
    QStringList undecided;
    QCOMPARE(PolicyRule::parse(QStringLiteral("rule:loop")).judge(identity({}), resolve, &undecided),
        PolicyRule::Truth::Unknown);
    QCOMPARE(undecided, QStringList { QStringLiteral("rule:loop") });
    QCOMPARE(
        PolicyRule::parse(QStringLiteral("system_scope:all")).judge(identity({}, false), resolve, nullptr),
        PolicyRule::Truth::True);
}

void TestPolicyRule::profileOverridden()
{
    PlannedRequest update;
    update.service = QStringLiteral("network");
    update.method = QStringLiteral("PUT");
    update.path = QStringLiteral("/v2.0/routers/r1");
    PlannedRequest del;
    del.service = QStringLiteral("compute");
    del.method = QStringLiteral("DELETE");
    del.path = QStringLiteral("/servers/s1");

    PolicyOverride neutron;
    neutron.service = QStringLiteral("network");
    neutron.source = QStringLiteral("neutron-policy.yaml");
    neutron.rules.insert(QStringLiteral("update_router"),
        PolicyRule::parse(QStringLiteral("role:network_admin or rule:get_router")));
    neutron.rules.insert(QStringLiteral("get_router"), PolicyRule::parse(QStringLiteral("role:admin")));
    PolicyOverride everywhere; // a file for every service, that a service's own file comes before
    everywhere.source = QStringLiteral("all.yaml");
    everywhere.rules.insert(QStringLiteral("update_router"), PolicyRule::parse(QStringLiteral("@")));
    everywhere.rules.insert(QStringLiteral("os_compute_api:servers:delete"),
        PolicyRule::parse(QStringLiteral("user_id:%(user_id)s")));
    const PolicyProfile profile = PolicyProfile::withOverrides({ everywhere, neutron });

    const PermissionVerdict member = profile.judge(update, identity({ QStringLiteral("member") }));
    QCOMPARE(member.permission, Permission::Denied);
    QVERIFY2(
        member.reason.contains(QStringLiteral("update_router is \"role:network_admin or rule:get_router\" "
                                              "in neutron-policy.yaml")),
        qPrintable(member.reason));
    QVERIFY2(
        member.reason.contains(QStringLiteral("these credentials have member")), qPrintable(member.reason));
    QCOMPARE(
        profile.judge(update, identity({ QStringLiteral("network_admin") })).permission, Permission::Allowed);
    QCOMPARE(profile.judge(update, identity({ QStringLiteral("admin") })).permission, Permission::Allowed);
    // The defaults stand for a policy no file writes; one a file cannot decide from the token is unknown.
    QCOMPARE(PolicyProfile::defaults().judge(update, identity({ QStringLiteral("member") })).permission,
        Permission::Allowed);
    const PermissionVerdict owner = profile.judge(del, identity({ QStringLiteral("member") }));
    QCOMPARE(owner.permission, Permission::Unknown);
    QVERIFY2(owner.reason.contains(QStringLiteral("user_id:%(user_id)s")), qPrintable(owner.reason));
    // A rule referring to a policy the file does not write gets the defaults' roles for it.
    PolicyOverride refers;
    refers.service = QStringLiteral("network");
    refers.source = QStringLiteral("refers.yaml");
    refers.rules.insert(
        QStringLiteral("update_router"), PolicyRule::parse(QStringLiteral("rule:get_router")));
    const PolicyProfile referring = PolicyProfile::withOverrides({ refers });
    QCOMPARE(referring.judge(update, identity({ QStringLiteral("reader") })).permission, Permission::Allowed);
    QCOMPARE(referring.judge(update, identity({})).permission, Permission::Denied);
    // A rule a service cannot parse denies everyone, and the reason says why.
    PolicyOverride broken;
    broken.source = QStringLiteral("broken.yaml");
    broken.rules.insert(QStringLiteral("update_router"), PolicyRule::parse(QStringLiteral("(role:admin")));
    const PermissionVerdict unparsed
        = PolicyProfile::withOverrides({ broken }).judge(update, identity({ QStringLiteral("admin") }));
    QCOMPARE(unparsed.permission, Permission::Denied);
    QVERIFY2(unparsed.reason.contains(QStringLiteral("cannot parse")), qPrintable(unparsed.reason));
}

QTEST_GUILESS_MAIN(TestPolicyRule)
#include "tst_policyrule.moc"
