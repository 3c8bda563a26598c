// A cloud's policy file (diagnosis.md §8) as PolicyFiles reads it: oslo.policy's YAML or JSON, each rule
// parsed by PolicyRule, then every call of the defaults' table judged with it for a reader, a member, an
// admin and a system-scoped token (every verdict but allowed says why); and the input itself as one rule,
// parsed and judged against the file's rules (what cannot be parsed denies, and says why). Input: the file's
// bytes. Expected: no exception but ParseError, no crash, no endless recursion.

#include "core/json/jsonreader.h"
#include "core/permission.h"
#include "core/policyrule.h"
#include "fuzz/fuzzcommon.h"
#include "services/local/policyfile.h"

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::initQt();
    return 0;
}

static QList<TokenIdentity> identities()
{
    QList<TokenIdentity> list;
    for (const char *role : { "reader", "member", "admin", "network_admin" }) {
        TokenIdentity t;
        t.userId = QStringLiteral("u1");
        t.projectId = QStringLiteral("p1");
        t.projectName = QStringLiteral("flightdeck-demo");
        t.roles = { QLatin1String(role) };
        list << t;
    }
    TokenIdentity system;
    system.userId = QStringLiteral("u2");
    system.systemScope = true;
    system.roles = { QStringLiteral("admin") };
    list << system;
    return list;
}

// One request each rule of the defaults' table guards.
static PlannedRequest requestFor(const PolicyProfile::Rule &rule)
{
    PlannedRequest r;
    r.service = rule.service;
    r.method = rule.method;
    r.path = QString(rule.pathPattern)
                 .replace(QStringLiteral("[^/]+"), QStringLiteral("a20a76df"))
                 .remove(QLatin1Char('\\'));
    if (!rule.actionKey.isEmpty())
        r.body = QJsonObject { { rule.actionKey, QJsonValue::Null } };
    return r;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes = fuzz::bytes(data, size);
    static const QList<TokenIdentity> who = identities();
    PolicyOverride file;
    try {
        file = PolicyFiles::parse(QStringLiteral("network"), QStringLiteral("policy.yaml"), bytes);
    } catch (const ParseError &e) {
        FUZZ_CHECK(!e.toString().isEmpty(), "a ParseError without why");
    }
    const PolicyProfile profile = PolicyProfile::withOverrides({ file });
    for (const PolicyProfile::Rule &rule : PolicyProfile::defaults().rules()) {
        const PlannedRequest request = requestFor(rule);
        for (const TokenIdentity &t : who) {
            const PermissionVerdict v = profile.judge(request, t);
            FUZZ_CHECK(v.permission == Permission::Allowed || !v.reason.isEmpty(),
                "a verdict other than allowed without its reason");
        }
    }
    const PolicyRule rule = PolicyRule::parse(QString::fromUtf8(bytes));
    FUZZ_CHECK(rule.parsed() || !rule.error().isEmpty(), "a rule not parsed without why");
    const PolicyRule::Resolve resolve = [&file](const QString &name) -> const PolicyRule * {
        const auto it = file.rules.constFind(name);
        return it == file.rules.cend() ? nullptr : &*it;
    };
    for (const TokenIdentity &t : who) {
        QStringList undecided;
        const PolicyRule::Truth truth = rule.judge(t, resolve, &undecided);
        FUZZ_CHECK(
            truth != PolicyRule::Truth::Unknown || !undecided.isEmpty(), "unknown without a check named");
        FUZZ_CHECK(
            rule.parsed() || truth == PolicyRule::Truth::False, "a rule not parsed that does not deny");
    }
    return 0;
}
