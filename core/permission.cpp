#include "core/permission.h"

#include "core/json/jsonreader.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QUrl>
#include <algorithm>
#include <array>

QString Permissions::name(Permission permission)
{
    switch (permission) {
    case Permission::Allowed:
        return QStringLiteral("allowed");
    case Permission::Denied:
        return QStringLiteral("denied");
    case Permission::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

// keystonemiddleware's _path_matches: `{name}` and `*` one non-empty segment, `**` anything, the rest
// literal, the whole path.
bool AccessRule::matches(const QString &serviceType, const QString &httpMethod, const QString &fullPath) const
{
    if (service != serviceType || method.compare(httpMethod, Qt::CaseInsensitive) != 0)
        return false;
    QString pattern = QStringLiteral("^");
    for (qsizetype i = 0; i < path.size(); ++i) {
        const QChar c = path.at(i);
        if (c == QLatin1Char('*') && i + 1 < path.size() && path.at(i + 1) == QLatin1Char('*')) {
            pattern += QStringLiteral(".*");
            ++i;
        } else if (c == QLatin1Char('*')) {
            pattern += QStringLiteral("[^/]+");
        } else if (c == QLatin1Char('{')) {
            const qsizetype end = path.indexOf(QLatin1Char('}'), i);
            if (end < 0) {
                pattern += QRegularExpression::escape(path.mid(i));
                break;
            }
            pattern += QStringLiteral("[^/]+");
            i = end;
        } else {
            pattern += QRegularExpression::escape(QString(c));
        }
    }
    pattern += QLatin1Char('$');
    return QRegularExpression(pattern).match(fullPath).hasMatch();
}

bool TokenIdentity::hasRole(const QString &role) const
{
    // Keystone's default implied roles: admin → member → reader.
    static const std::array<const char *, 3> ladder { "reader", "member", "admin" };
    const auto rank = [](const QString &r) -> int {
        for (int i = 0; i < int(ladder.size()); ++i) {
            if (r == QLatin1String(ladder.at(std::size_t(i))))
                return i;
        }
        return -1;
    };
    if (roles.contains(role))
        return true;
    const int needed = rank(role);
    if (needed < 0)
        return false;
    for (const QString &r : roles) {
        if (rank(r) >= needed)
            return true;
    }
    return false;
}

QString TokenIdentity::summary() const
{
    QString text = userName.isEmpty() ? userId : userName;
    if (!applicationCredential.isEmpty())
        text += QStringLiteral(" (application credential %1%2)")
                    .arg(applicationCredential,
                        accessRules ? QStringLiteral(", %1 access rule(s)").arg(accessRules->size())
                                    : QString());
    text += QStringLiteral(" · ")
        + (roles.isEmpty() ? QStringLiteral("no role") : roles.join(QStringLiteral(", ")));
    if (systemScope)
        text += QStringLiteral(" · system scope");
    else if (!projectId.isEmpty())
        text += QStringLiteral(" · project %1").arg(projectName.isEmpty() ? projectId : projectName);
    return text;
}

TokenIdentity TokenIdentity::parse(const QString &source, const QByteArray &body)
{
    const JsonReader root(source, parseJsonObject(source, body));
    const JsonReader token = root.requireField(QStringLiteral("token"));
    token.requireObject();
    TokenIdentity t;
    const JsonReader user = token.requireField(QStringLiteral("user"));
    user.requireObject();
    t.userId = user.requireString(QStringLiteral("id"));
    t.userName = user.optString(QStringLiteral("name"));
    if (token.has(QStringLiteral("project"))) {
        const JsonReader project = token.child(QStringLiteral("project"));
        project.requireObject();
        t.projectId = project.requireString(QStringLiteral("id"));
        t.projectName = project.optString(QStringLiteral("name"));
    }
    if (token.has(QStringLiteral("system")))
        t.systemScope = token.child(QStringLiteral("system")).optBool(QStringLiteral("all"));
    token.forEachElementOf(QStringLiteral("roles"), [&t](const JsonReader &role) {
        role.requireObject();
        t.roles << role.requireString(QStringLiteral("name"));
    });
    if (token.has(QStringLiteral("application_credential"))) {
        const JsonReader credential = token.child(QStringLiteral("application_credential"));
        credential.requireObject();
        t.applicationCredential
            = credential.optString(QStringLiteral("name"), credential.optString(QStringLiteral("id")));
        if (credential.has(QStringLiteral("access_rules"))) {
            QList<AccessRule> rules;
            credential.forEachElementOf(QStringLiteral("access_rules"), [&rules](const JsonReader &rule) {
                rule.requireObject();
                rules.append(AccessRule { rule.requireString(QStringLiteral("service")),
                    rule.requireString(QStringLiteral("method")),
                    rule.requireString(QStringLiteral("path")) });
            });
            t.accessRules = rules;
        }
    }
    return t;
}

const PolicyProfile &PolicyProfile::defaults()
{
    static const PolicyProfile profile = [] {
        PolicyProfile p;
        const QString id = QStringLiteral("[^/]+");
        const QStringList reader { QStringLiteral("reader") };
        const QStringList member { QStringLiteral("member") };
        // The ASR driver's operations check `context_is_cloud_admin`, which a cloud defines (SAP's:
        // role:cloud_network_admin); Neutron lets an admin through any policy.
        const QStringList cloudAdmin { QStringLiteral("cloud_network_admin"), QStringLiteral("admin") };
        const QString network = QStringLiteral("network");
        const QString compute = QStringLiteral("compute");
        const QString volume = QStringLiteral("volumev3");
        const QString loadBalancer = QStringLiteral("load-balancer");
        p.m_rules = {
            { network, QStringLiteral("GET"), QStringLiteral("/v2\\.0/routers/") + id, {},
                QStringLiteral("get_router"), reader, QStringLiteral("read the project's routers") },
            { network, QStringLiteral("PUT"), QStringLiteral("/v2\\.0/routers/") + id, {},
                QStringLiteral("update_router"), member, QStringLiteral("change the project's routers") },
            { network, QStringLiteral("PUT"),
                QStringLiteral("/v2\\.0/routers/") + id + QStringLiteral("/add_extraroutes"), {},
                QStringLiteral("add_extraroutes"), member,
                QStringLiteral("add routes to the project's routers") },
            { network, QStringLiteral("PUT"),
                QStringLiteral("/v2\\.0/routers/") + id + QStringLiteral("/remove_extraroutes"), {},
                QStringLiteral("remove_extraroutes"), member,
                QStringLiteral("remove routes from the project's routers") },
            { network, QStringLiteral("POST"), QStringLiteral("/v2\\.0/security-group-rules"), {},
                QStringLiteral("create_security_group_rule"), member,
                QStringLiteral("add rules to the project's security groups") },
            { network, QStringLiteral("PUT"), QStringLiteral("/v2\\.0/ports/") + id, {},
                QStringLiteral("update_port:allowed_address_pairs"), member,
                QStringLiteral("change the allowed address pairs of ports on the project's own networks") },
            { network, QStringLiteral("GET"), QStringLiteral("/v2\\.0/asr1k/routers/") + id, {},
                QStringLiteral("context_is_cloud_admin"), cloudAdmin,
                QStringLiteral("read a router's devices (the ASR driver's validate)") },
            { network, QStringLiteral("PUT"), QStringLiteral("/v2\\.0/asr1k/routers/") + id, {},
                QStringLiteral("context_is_cloud_admin"), cloudAdmin,
                QStringLiteral("sync a router to its devices") },
            { network, QStringLiteral("DELETE"), QStringLiteral("/v2\\.0/asr1k/routers/") + id, {},
                QStringLiteral("context_is_cloud_admin"), cloudAdmin,
                QStringLiteral("tear a router's devices down") },
            { compute, QStringLiteral("DELETE"), QStringLiteral("/servers/") + id, {},
                QStringLiteral("os_compute_api:servers:delete"), member,
                QStringLiteral("delete the project's servers") },
            { compute, QStringLiteral("POST"), QStringLiteral("/servers/") + id + QStringLiteral("/action"),
                QStringLiteral("addSecurityGroup"), QStringLiteral("os_compute_api:os-security-groups:add"),
                member, QStringLiteral("add security groups to the project's servers") },
            { compute, QStringLiteral("POST"), QStringLiteral("/servers/") + id + QStringLiteral("/action"),
                QStringLiteral("os-start"), QStringLiteral("os_compute_api:servers:start"), member,
                QStringLiteral("start the project's servers") },
            { compute, QStringLiteral("POST"), QStringLiteral("/servers/") + id + QStringLiteral("/action"),
                QStringLiteral("resume"), QStringLiteral("os_compute_api:os-suspend-server:resume"), member,
                QStringLiteral("resume the project's suspended servers") },
            { compute, QStringLiteral("POST"), QStringLiteral("/servers/") + id + QStringLiteral("/action"),
                QStringLiteral("unpause"), QStringLiteral("os_compute_api:os-pause-server:unpause"), member,
                QStringLiteral("unpause the project's paused servers") },
            { compute, QStringLiteral("POST"), QStringLiteral("/servers/") + id + QStringLiteral("/action"),
                QStringLiteral("reboot"), QStringLiteral("os_compute_api:servers:reboot"), member,
                QStringLiteral("reboot the project's servers") },
            { compute, QStringLiteral("POST"), QStringLiteral("/servers/") + id + QStringLiteral("/action"),
                QStringLiteral("os-getConsoleOutput"), QStringLiteral("os_compute_api:os-console-output"),
                member, QStringLiteral("read the console log of the project's servers") },
            { compute, QStringLiteral("GET"),
                QStringLiteral("/servers/") + id + QStringLiteral("/os-instance-actions"), {},
                QStringLiteral("os_compute_api:os-instance-actions:list"), reader,
                QStringLiteral("read the actions on the project's servers") },
            // Cinder (Zed's defaults: volume/policies/*.py) and Octavia (11.0.0's: its own load-balancer_*
            // role together with the Keystone role, "a+b" all of them; octavia/policies/*.py),
            // docs/wire-formats.md.
            { volume, QStringLiteral("GET"), QStringLiteral("/volumes/detail(\\?.*)?"), {},
                QStringLiteral("volume:get_all"), reader, QStringLiteral("list the project's volumes") },
            { volume, QStringLiteral("DELETE"), QStringLiteral("/volumes/") + id, {},
                QStringLiteral("volume:delete"), member, QStringLiteral("delete the project's volumes") },
            { volume, QStringLiteral("POST"), QStringLiteral("/volumes/") + id + QStringLiteral("/action"),
                QStringLiteral("os-reset_status"),
                QStringLiteral("volume_extension:volume_admin_actions:reset_status"),
                QStringList { QStringLiteral("admin") }, QStringLiteral("reset a volume's status") },
            { loadBalancer, QStringLiteral("GET"), QStringLiteral("/v2/lbaas/loadbalancers(\\?.*)?"), {},
                QStringLiteral("os_load-balancer_api:loadbalancer:get_all"),
                QStringList { QStringLiteral("load-balancer_observer+reader"),
                    QStringLiteral("load-balancer_member+member"),
                    QStringLiteral("load-balancer_global_observer"), QStringLiteral("load-balancer_admin") },
                QStringLiteral("list the project's load balancers") },
            { loadBalancer, QStringLiteral("DELETE"),
                QStringLiteral("/v2/lbaas/loadbalancers/[^/?]+(\\?cascade=true)?"), {},
                QStringLiteral("os_load-balancer_api:loadbalancer:delete"),
                QStringList {
                    QStringLiteral("load-balancer_member+member"), QStringLiteral("load-balancer_admin") },
                QStringLiteral("delete the project's load balancers") },
        };
        for (const Rule &rule : std::as_const(p.m_rules))
            p.m_paths.append(
                QRegularExpression(QStringLiteral("^") + rule.pathPattern + QStringLiteral("$")));
        return p;
    }();
    return profile;
}

PolicyProfile PolicyProfile::withOverrides(QList<PolicyOverride> overrides)
{
    PolicyProfile p = defaults();
    p.m_overrides = std::move(overrides);
    return p;
}

const PolicyOverride *PolicyProfile::overrideFor(const QString &service, const QString &policy) const
{
    const PolicyOverride *any = nullptr;
    for (const PolicyOverride &file : m_overrides) {
        if (!file.rules.contains(policy))
            continue;
        if (file.service == service)
            return &file;
        if (file.service.isEmpty() && !any)
            any = &file;
    }
    return any;
}

namespace {
QString rolesOf(const TokenIdentity &identity)
{
    return identity.roles.isEmpty() ? QStringLiteral("no role") : identity.roles.join(QStringLiteral(", "));
}
} // namespace

// The rule a policy file writes, judged: `rule:` resolved in the same file, else to the defaults' roles for a
// policy of the same service.
PermissionVerdict PolicyProfile::judgeWritten(
    const Rule &rule, const PolicyOverride &file, const TokenIdentity &identity) const
{
    QHash<QString, PolicyRule> defaults;
    const PolicyRule::Resolve resolve = [&](const QString &name) -> const PolicyRule * {
        const auto written = file.rules.constFind(name);
        if (written != file.rules.cend())
            return &*written;
        auto made = defaults.find(name);
        if (made == defaults.end()) {
            for (const Rule &r : m_rules) {
                if (r.service == rule.service && r.policy == name) {
                    QStringList checks;
                    for (const QString &role : r.anyRole) {
                        QStringList all;
                        for (const QString &one : role.split(QLatin1Char('+')))
                            all << QStringLiteral("role:") + one;
                        checks << QStringLiteral("(%1)").arg(all.join(QStringLiteral(" and ")));
                    }
                    made = defaults.insert(name, PolicyRule::parse(checks.join(QStringLiteral(" or "))));
                    break;
                }
            }
        }
        return made == defaults.end() ? nullptr : &*made;
    };
    const PolicyRule &written = file.rules.value(rule.policy);
    QStringList undecided;
    const PolicyRule::Truth truth = written.judge(identity, resolve, &undecided);
    const QString as = QStringLiteral("%1 is \"%2\" in %3").arg(rule.policy, written.text(), file.source);
    switch (truth) {
    case PolicyRule::Truth::True:
        return { Permission::Allowed, QString() };
    case PolicyRule::Truth::False:
        if (!written.parsed())
            return { Permission::Denied,
                QStringLiteral("%1, which %2, and a service denies a rule it cannot parse")
                    .arg(as, written.error()) };
        return { Permission::Denied,
            QStringLiteral("%1 (to %2); these credentials have %3").arg(as, rule.what, rolesOf(identity)) };
    case PolicyRule::Truth::Unknown:
        break;
    }
    undecided.removeDuplicates();
    return { Permission::Unknown,
        QStringLiteral("%1: the service decides %2 (not known before sending)")
            .arg(as, undecided.join(QStringLiteral(", "))) };
}

const PolicyProfile::Rule *PolicyProfile::ruleFor(const PlannedRequest &request) const
{
    const QString path = request.path.section(QLatin1Char('?'), 0, 0);
    for (qsizetype i = 0; i < m_rules.size(); ++i) {
        const Rule &rule = m_rules.at(i);
        if (rule.service != request.service || rule.method != request.method)
            continue;
        if (!m_paths.at(i).match(path).hasMatch())
            continue;
        if (!rule.actionKey.isEmpty() && !request.body.toObject().contains(rule.actionKey))
            continue;
        return &rule;
    }
    return nullptr;
}

PermissionVerdict PolicyProfile::judge(
    const PlannedRequest &request, const TokenIdentity &identity, const QString &endpointPath) const
{
    if (request.service == QLatin1String("kubernetes"))
        return { Permission::Unknown,
            QStringLiteral("the kluster's API server decides (its RBAC, not Keystone's roles)") };
    // An application credential's access rules first: a request none of them matches is refused (401),
    // whatever the roles.
    if (identity.accessRules) {
        QString full = endpointPath;
        while (full.endsWith(QLatin1Char('/')))
            full.chop(1);
        full += request.path.section(QLatin1Char('?'), 0, 0);
        const bool matched = std::any_of(identity.accessRules->cbegin(), identity.accessRules->cend(),
            [&](const AccessRule &r) { return r.matches(request.service, request.method, full); });
        if (!matched)
            return { Permission::Denied,
                QStringLiteral("the application credential %1 has no access rule for %2 %3 %4")
                    .arg(identity.applicationCredential, request.method, request.service, full) };
    }
    const Rule *rule = ruleFor(request);
    if (!rule)
        return { Permission::Unknown,
            QStringLiteral("no policy is known for %1 %2 %3")
                .arg(request.method, request.service, request.path) };
    if (const PolicyOverride *file = overrideFor(rule->service, rule->policy))
        return judgeWritten(*rule, *file, identity);
    for (const QString &role : rule->anyRole) {
        const QStringList all = role.split(QLatin1Char('+'));
        if (std::all_of(
                all.cbegin(), all.cend(), [&identity](const QString &r) { return identity.hasRole(r); }))
            return { Permission::Allowed, QString() };
    }
    return { Permission::Denied,
        QStringLiteral("%1 needs the role %2 (%3) to %4; these credentials have %5")
            .arg(rule->policy,
                rule->anyRole.join(QStringLiteral(" or ")).replace(QLatin1Char('+'), QStringLiteral(" and ")),
                identity.projectName.isEmpty() ? QStringLiteral("the project")
                                               : QStringLiteral("project %1").arg(identity.projectName),
                rule->what, rolesOf(identity)) };
}

QString PolicyProfile::keyOf(const PlannedRequest &request) const
{
    if (const Rule *rule = ruleFor(request))
        return rule->policy;
    return request.method + QLatin1Char(' ') + request.service + QLatin1Char(' ')
        + request.path.section(QLatin1Char('?'), 0, 0);
}

QString Credentials::kubernetesAction(const PlannedRequest &request)
{
    if (request.service != QLatin1String("kubernetes"))
        return QString();
    const QStringList parts
        = request.path.section(QLatin1Char('?'), 0, 0).split(QLatin1Char('/'), Qt::SkipEmptyParts);
    // /api/v1/nodes/{name}, /api/v1/namespaces/{ns}/events, /apis/{group}/{version}/…
    const qsizetype base = parts.value(0) == QLatin1String("api") ? 2 : 3;
    qsizetype at = base;
    if (parts.value(at) == QLatin1String("namespaces") && parts.size() > at + 2)
        at += 2;
    const QString resource = parts.value(at);
    if (resource.isEmpty())
        return QString();
    const bool named = parts.size() > at + 1;
    QString verb;
    if (request.method == QLatin1String("DELETE"))
        verb = QStringLiteral("delete");
    else if (request.method == QLatin1String("POST"))
        verb = QStringLiteral("create");
    else if (request.method == QLatin1String("PUT"))
        verb = QStringLiteral("update");
    else if (request.method == QLatin1String("PATCH"))
        verb = QStringLiteral("patch");
    else if (request.method == QLatin1String("GET"))
        verb = named ? QStringLiteral("get") : QStringLiteral("list");
    else
        return QString();
    return verb + QLatin1Char(' ') + resource;
}

PermissionVerdict Credentials::judge(const PlannedRequest &request) const
{
    if (request.service == QLatin1String("kubernetes")) {
        const QString action = kubernetesAction(request);
        const auto known = kubernetes.constFind(action);
        if (known != kubernetes.cend())
            return *known;
        return { Permission::Unknown,
            QStringLiteral("the kluster's API server decides (its RBAC, not Keystone's roles), and was not "
                           "asked whether these credentials may %1")
                .arg(action.isEmpty() ? request.method : action) };
    }
    const PolicyProfile &profile = policy();
    const auto refused = refusedThisSession.constFind(profile.keyOf(request));
    if (refused != refusedThisSession.cend())
        return { Permission::Denied, QStringLiteral("refused earlier this session: %1").arg(*refused) };
    return profile.judge(request, identity, QUrl(endpoints.value(request.service)).path());
}

void Credentials::judgePlan(RepairPlan &plan, const Credentials *credentials)
{
    const PlannedRequest *denied = nullptr;
    for (PlannedRequest &r : plan.requests) {
        r.permission = credentials ? credentials->judge(r)
                                   : PermissionVerdict { Permission::Unknown,
                                         QStringLiteral("the token was not read: who acts is not known") };
        if (!denied && r.permission.denied())
            denied = &r;
    }
    if (denied && plan.refusal == Refusal::None) {
        plan.refusal = Refusal::NotPermitted;
        plan.refusalDetail = QStringLiteral("%1: %2").arg(denied->summary(), denied->permission.reason);
    }
}

QJsonObject Credentials::toTokenJson() const
{
    const TokenIdentity &t = identity;
    QJsonObject token { { QStringLiteral("user"),
        QJsonObject { { QStringLiteral("id"), t.userId }, { QStringLiteral("name"), t.userName } } } };
    if (!t.projectId.isEmpty())
        token.insert(QStringLiteral("project"),
            QJsonObject { { QStringLiteral("id"), t.projectId }, { QStringLiteral("name"), t.projectName } });
    if (t.systemScope)
        token.insert(QStringLiteral("system"), QJsonObject { { QStringLiteral("all"), true } });
    QJsonArray roles;
    for (const QString &role : t.roles)
        roles.append(QJsonObject { { QStringLiteral("name"), role } });
    token.insert(QStringLiteral("roles"), roles);
    if (!t.applicationCredential.isEmpty() || t.accessRules) {
        QJsonObject credential { { QStringLiteral("name"), t.applicationCredential },
            { QStringLiteral("restricted"), true } };
        if (t.accessRules) {
            QJsonArray rules;
            for (const AccessRule &r : *t.accessRules)
                rules.append(QJsonObject { { QStringLiteral("service"), r.service },
                    { QStringLiteral("method"), r.method }, { QStringLiteral("path"), r.path } });
            credential.insert(QStringLiteral("access_rules"), rules);
        }
        token.insert(QStringLiteral("application_credential"), credential);
    }
    QJsonArray catalog;
    QStringList types = endpoints.keys();
    types.sort();
    for (const QString &type : std::as_const(types))
        catalog.append(QJsonObject { { QStringLiteral("type"), type },
            { QStringLiteral("endpoints"),
                QJsonArray { QJsonObject { { QStringLiteral("interface"), QStringLiteral("public") },
                    { QStringLiteral("url"), endpoints.value(type) } } } } });
    token.insert(QStringLiteral("catalog"), catalog);
    return QJsonObject { { QStringLiteral("token"), token } };
}

Credentials Credentials::fromTokenJson(const QString &source, const QByteArray &body)
{
    Credentials c;
    c.identity = TokenIdentity::parse(source, body);
    const JsonReader root(source, parseJsonObject(source, body)); // outlives the readers of its children
    const JsonReader token = root.child(QStringLiteral("token"));
    if (!token.has(QStringLiteral("catalog")))
        return c;
    token.forEachElementOf(QStringLiteral("catalog"), [&c](const JsonReader &service) {
        service.requireObject();
        const QString type = service.requireString(QStringLiteral("type"));
        service.forEachElementOf(QStringLiteral("endpoints"), [&c, &type](const JsonReader &endpoint) {
            endpoint.requireObject();
            const QString url = endpoint.requireString(QStringLiteral("url"));
            if (!c.endpoints.contains(type)
                || endpoint.optString(QStringLiteral("interface")) == QLatin1String("public"))
                c.endpoints.insert(type, url);
        });
    });
    return c;
}
