// What a token may do, as the real services decide it: an application credential's access rules, checked by
// keystonemiddleware before the service sees the request (a mismatch is a 401), then the service's policy
// against the token's roles on the project (a 403 whose body names the rule). The defaults with
// `enforce_new_defaults`: `reader` reads, `member` changes the project's resources (docs/wire-formats.md,
// "What a token may do"); the ASR driver's API checks a cloud admin itself (simulator/asr1kapi.cpp).

#include "simulator/simulator.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>

namespace {

// keystonemiddleware's matching of an access rule's path, segment by segment: `*` and `{name}` match one
// segment, `**` any number of them (none included), anything else itself.
bool segmentsMatch(const QStringList &pattern, qsizetype p, const QStringList &path, qsizetype s)
{
    if (p == pattern.size())
        return s == path.size();
    const QString &part = pattern.at(p);
    if (part == QLatin1String("**")) {
        for (qsizetype rest = s; rest <= path.size(); ++rest) {
            if (segmentsMatch(pattern, p + 1, path, rest))
                return true;
        }
        return false;
    }
    if (s == path.size())
        return false;
    const bool wildcard = part == QLatin1String("*")
        || (part.startsWith(QLatin1Char('{')) && part.endsWith(QLatin1Char('}')));
    return (wildcard || part == path.at(s)) && segmentsMatch(pattern, p + 1, path, s + 1);
}

bool ruleMatches(
    const SimAccessRule &rule, const QString &service, const QByteArray &method, const QString &path)
{
    return rule.service == service && rule.method.toLatin1().toUpper() == method
        && segmentsMatch(rule.path.split(QLatin1Char('/'), Qt::SkipEmptyParts), 0,
            path.split(QLatin1Char('/'), Qt::SkipEmptyParts), 0);
}

// The policy that guards a change, by the name the service gives it in a 403.
QString networkPolicy(const QByteArray &method, const QStringList &parts, const QJsonObject &body)
{
    // /v2.0/<resource>[/<id>[/<action>]]
    const QString resource = parts.value(1);
    QString singular = resource;
    if (singular.endsWith(QLatin1Char('s')))
        singular.chop(1);
    singular.replace(QLatin1Char('-'), QLatin1Char('_'));
    if (parts.size() >= 4 && method == "PUT")
        return parts.at(3); // add_extraroutes, remove_extraroutes
    if (method == "POST")
        return QStringLiteral("create_") + singular;
    if (method == "DELETE")
        return QStringLiteral("delete_") + singular;
    const QJsonObject object = body.value(singular).toObject();
    if (singular == QLatin1String("port") && object.contains(QStringLiteral("allowed_address_pairs")))
        return QStringLiteral("update_port:allowed_address_pairs");
    return QStringLiteral("update_") + singular;
}

QString computePolicy(const QByteArray &method, const QStringList &parts, const QJsonObject &body)
{
    // /v2.1/servers/<id>[/action]
    if (parts.value(1) != QLatin1String("servers"))
        return QStringLiteral("os_compute_api:%1").arg(parts.value(1));
    if (method == "DELETE")
        return QStringLiteral("os_compute_api:servers:delete");
    if (parts.value(3) == QLatin1String("action")) {
        const QString action = body.keys().value(0);
        if (action == QLatin1String("addSecurityGroup"))
            return QStringLiteral("os_compute_api:os-security-groups:add");
        if (action == QLatin1String("os-start"))
            return QStringLiteral("os_compute_api:servers:start");
        if (action == QLatin1String("os-stop"))
            return QStringLiteral("os_compute_api:servers:stop");
        if (action == QLatin1String("resume"))
            return QStringLiteral("os_compute_api:os-suspend-server:resume");
        if (action == QLatin1String("unpause"))
            return QStringLiteral("os_compute_api:os-pause-server:unpause");
        if (action == QLatin1String("os-getConsoleOutput"))
            return QStringLiteral("os_compute_api:os-console-output");
        return QStringLiteral("os_compute_api:servers:") + action;
    }
    return QStringLiteral("os_compute_api:servers:") + QString::fromLatin1(method).toLower();
}

QString volumePolicy(const QByteArray &method, const QStringList &parts)
{
    // /v3[/<project id>]/volumes[/detail|/<id>]
    if (method == "DELETE")
        return QStringLiteral("volume:delete");
    if (method != "GET" && method != "HEAD")
        return QStringLiteral("volume:update");
    const QString last = parts.value(parts.size() - 1);
    return last == QLatin1String("volumes") || last == QLatin1String("detail")
        ? QStringLiteral("volume:get_all")
        : QStringLiteral("volume:get");
}

} // namespace

std::optional<HttpResponse> Simulator::policyRefusal(
    const QString &service, const HttpRequest &request, const SimToken &token) const
{
    if (service != QLatin1String("compute") && service != QLatin1String("network")
        && service != QLatin1String("image") && service != QLatin1String("volumev3")
        && service != QLatin1String("load-balancer"))
        return std::nullopt; // Kubernikus checks Keystone's token itself, not through keystonemiddleware
    const SimApplicationCredential *c = m_world.applicationCredential(token.applicationCredentialId);
    if (c && !c->accessRules.isEmpty()
        && std::none_of(c->accessRules.cbegin(), c->accessRules.cend(),
            [&](const SimAccessRule &r) { return ruleMatches(r, service, request.method, request.path); }))
        return errorFor(
            service, 401, QString(), QStringLiteral("The request you have made requires authentication."));
    const bool reads = request.method == "GET" || request.method == "HEAD";
    const int u = m_world.userIndex(token.userId);
    const QStringList roles = u >= 0 ? m_world.users.at(u).roles : QStringList();
    bool member = roles.contains(QStringLiteral("member")) || roles.contains(QStringLiteral("admin"));
    bool reader = member || roles.contains(QStringLiteral("reader"));
    if (service == QLatin1String("load-balancer")) {
        // Octavia 11's defaults: its own role together with Keystone's (octavia/policies/base.py).
        const bool lbMember = member && roles.contains(QStringLiteral("load-balancer_member"));
        reader = lbMember || (reader && roles.contains(QStringLiteral("load-balancer_observer")));
        member = lbMember;
    }
    if (reads ? reader : member)
        return std::nullopt;
    const QStringList parts = request.path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    const QJsonObject body = QJsonDocument::fromJson(request.body).object();
    if (service == QLatin1String("network")) {
        if (parts.value(1) == QLatin1String("asr1k"))
            return std::nullopt; // the driver answers for itself
        const QString policy
            = reads ? QStringLiteral("get_") + parts.value(1) : networkPolicy(request.method, parts, body);
        return errorFor(service, 403, QStringLiteral("PolicyNotAuthorized"),
            QStringLiteral("rule:%1 is disallowed by policy").arg(policy));
    }
    if (service == QLatin1String("volumev3"))
        return errorFor(service, 403, QStringLiteral("forbidden"),
            QStringLiteral("Policy doesn't allow %1 to be performed.")
                .arg(volumePolicy(request.method, parts)));
    if (service == QLatin1String("load-balancer"))
        return errorFor(
            service, 403, QString(), QStringLiteral("Policy does not allow this request to be performed."));
    const QString policy = computePolicy(request.method, parts, body);
    return errorFor(
        service, 403, QString(), QStringLiteral("Policy doesn't allow %1 to be performed.").arg(policy));
}
