// Keystone v3: version discovery, tokens (password and application
// credential), the catalog.

#include "simulator/apirender.h"
#include "simulator/simulator.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace {

QByteArray toJson(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QJsonObject versionV3(const QString &v3)
{
    return QJsonObject {
        { QStringLiteral("id"), QStringLiteral("v3.14") },
        { QStringLiteral("status"), QStringLiteral("stable") },
        { QStringLiteral("updated"), QStringLiteral("2020-04-07T00:00:00Z") },
        { QStringLiteral("links"),
            QJsonArray { QJsonObject { { QStringLiteral("rel"), QStringLiteral("self") },
                { QStringLiteral("href"), QString(v3 + QLatin1Char('/')) } } } },
        { QStringLiteral("media-types"),
            QJsonArray { QJsonObject { { QStringLiteral("base"), QStringLiteral("application/json") },
                { QStringLiteral("type"), QStringLiteral("application/vnd.openstack.identity-v3+json") } } } }
    };
}

// Microseconds, as Keystone writes them.
QString keystoneTime(const QDateTime &t)
{
    return t.toUTC().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzz000Z"));
}

} // namespace

// A token's body as Keystone renders it for POST and GET /v3/auth/tokens alike
// (keystone/common/render_token.py): user, scope, roles, catalog, and the application credential with its
// access rules.
QJsonObject Simulator::renderToken(const SimToken &token, const QString &method, bool withCatalog) const
{
    const QString &userId = token.userId;
    const QString &projectId = token.projectId;
    const QString &appCredId = token.applicationCredentialId;
    const int u = m_world.userIndex(userId);
    const int p = m_world.projectIndex(projectId);
    QJsonObject t { { QStringLiteral("methods"), QJsonArray { method } },
        { QStringLiteral("audit_ids"), QJsonArray { token.id.right(22) } },
        { QStringLiteral("is_domain"), false },
        { QStringLiteral("expires_at"), keystoneTime(token.expiresAt) },
        { QStringLiteral("issued_at"), keystoneTime(token.issuedAt) },
        { QStringLiteral("user"),
            QJsonObject { { QStringLiteral("id"), userId },
                { QStringLiteral("name"), u >= 0 ? m_world.users.at(u).name : QString() },
                { QStringLiteral("domain"),
                    QJsonObject { { QStringLiteral("id"), QStringLiteral("default") },
                        { QStringLiteral("name"), QStringLiteral("Default") } } },
                { QStringLiteral("password_expires_at"), QJsonValue() } } } };
    if (p >= 0) {
        t.insert(QStringLiteral("project"),
            QJsonObject { { QStringLiteral("id"), projectId },
                { QStringLiteral("name"), m_world.projects.at(p).name },
                { QStringLiteral("domain"),
                    QJsonObject { { QStringLiteral("id"), QStringLiteral("default") },
                        { QStringLiteral("name"), QStringLiteral("Default") } } } });
        QJsonArray roles;
        for (const QString &role : m_world.users.at(u).roles)
            roles.append(QJsonObject { { QStringLiteral("id"), QString(QStringLiteral("role-") + role) },
                { QStringLiteral("name"), role } });
        t.insert(QStringLiteral("roles"), roles);
        if (withCatalog) {
            QJsonArray catalog;
            const QList<QPair<QString, QString>> services
                = { { QStringLiteral("identity"), QStringLiteral("keystone") },
                      { QStringLiteral("compute"), QStringLiteral("nova") },
                      { QStringLiteral("network"), QStringLiteral("neutron") },
                      { QStringLiteral("image"), QStringLiteral("glance") },
                      { QStringLiteral("kubernikus"), QStringLiteral("kubernikus") },
                      { QStringLiteral("volumev3"), QStringLiteral("cinderv3") },
                      { QStringLiteral("load-balancer"), QStringLiteral("octavia") } };
            for (const auto &s : services) {
                // Cinder's endpoint names the project, as a real catalog's does ("…/v3/%(project_id)s").
                const QString url = s.first == QLatin1String("volumev3")
                    ? endpoint(s.first) + QLatin1Char('/') + projectId
                    : endpoint(s.first);
                QJsonArray endpoints;
                for (const char *interface : { "public", "internal", "admin" }) {
                    endpoints.append(QJsonObject {
                        { QStringLiteral("id"),
                            QString(s.second + QLatin1Char('-') + QString::fromLatin1(interface)) },
                        { QStringLiteral("interface"), QString::fromLatin1(interface) },
                        { QStringLiteral("region"), m_world.region },
                        { QStringLiteral("region_id"), m_world.region }, { QStringLiteral("url"), url } });
                }
                catalog.append(
                    QJsonObject { { QStringLiteral("type"), s.first }, { QStringLiteral("name"), s.second },
                        { QStringLiteral("id"), QString(s.second + QStringLiteral("-service")) },
                        { QStringLiteral("endpoints"), endpoints } });
            }
            t.insert(QStringLiteral("catalog"), catalog);
        }
    }
    if (const SimApplicationCredential *c = m_world.applicationCredential(appCredId)) {
        QJsonObject credential { { QStringLiteral("id"), c->id }, { QStringLiteral("name"), c->name },
            { QStringLiteral("restricted"), true } };
        if (!c->accessRules.isEmpty()) {
            QJsonArray rules;
            for (const SimAccessRule &r : c->accessRules)
                rules.append(QJsonObject { { QStringLiteral("id"), m_world.stableRuleId(c->id, r) },
                    { QStringLiteral("service"), r.service }, { QStringLiteral("method"), r.method },
                    { QStringLiteral("path"), r.path } });
            credential.insert(QStringLiteral("access_rules"), rules);
        }
        t.insert(QStringLiteral("application_credential"), credential);
    }
    return t;
}

HttpResponse Simulator::keystone(const HttpRequest &request)
{
    const QString v3 = endpoint(QStringLiteral("identity"));
    const QString path = request.path;
    if (request.method == "GET" && path == QLatin1String("/")) {
        HttpResponse r = HttpResponse::json(300,
            toJson(QJsonObject { { QStringLiteral("versions"),
                QJsonObject { { QStringLiteral("values"), QJsonArray { versionV3(v3) } } } } }));
        r.header("Location", (v3 + QLatin1Char('/')).toUtf8());
        return r;
    }
    if (request.method == "GET" && (path == QLatin1String("/v3") || path == QLatin1String("/v3/")))
        return HttpResponse::json(200, toJson(QJsonObject { { QStringLiteral("version"), versionV3(v3) } }));

    if (path == QLatin1String("/v3/auth/tokens") && request.method == "POST") {
        QJsonParseError parseError;
        const QJsonObject body = QJsonDocument::fromJson(request.body, &parseError).object();
        const QJsonObject auth = body.value(QStringLiteral("auth")).toObject();
        const QJsonObject identity = auth.value(QStringLiteral("identity")).toObject();
        const QJsonArray methods = identity.value(QStringLiteral("methods")).toArray();
        if (parseError.error != QJsonParseError::NoError || methods.isEmpty())
            return errorFor(QStringLiteral("keystone"), 400, QString(),
                QStringLiteral(
                    "The request you have made is malformed: 'identity' and 'methods' are required."));
        const QString method = methods.first().toString();
        QString userId;
        QString projectId;
        QString appCredId;
        const QJsonObject scope = auth.value(QStringLiteral("scope")).toObject();
        if (method == QLatin1String("password")) {
            const QJsonObject user = identity.value(QStringLiteral("password"))
                                         .toObject()
                                         .value(QStringLiteral("user"))
                                         .toObject();
            const QString password = user.value(QStringLiteral("password")).toString();
            int u = -1;
            if (user.contains(QStringLiteral("id"))) {
                u = m_world.userIndex(user.value(QStringLiteral("id")).toString());
            } else {
                if (!user.contains(QStringLiteral("domain")))
                    return errorFor(QStringLiteral("keystone"), 400, QString(),
                        QStringLiteral("Expecting to find domain in user. The server could not comply with "
                                       "the request since it is either malformed or otherwise incorrect. The "
                                       "client is assumed to be in error."));
                u = m_world.userIndex(user.value(QStringLiteral("name")).toString());
            }
            if (u < 0 || m_world.users.at(u).password != password)
                return errorFor(QStringLiteral("keystone"), 401, QString(),
                    QStringLiteral("The request you have made requires authentication."));
            userId = m_world.users.at(u).id;
            const QJsonObject project = scope.value(QStringLiteral("project")).toObject();
            if (!project.isEmpty()) {
                if (project.contains(QStringLiteral("name")) && !project.contains(QStringLiteral("domain")))
                    return errorFor(QStringLiteral("keystone"), 400, QString(),
                        QStringLiteral("Expecting to find domain in project. The server could not comply "
                                       "with the request since it is either malformed or otherwise "
                                       "incorrect. The client is assumed to be in error."));
                const int p = m_world.projectIndex(project.contains(QStringLiteral("id"))
                        ? project.value(QStringLiteral("id")).toString()
                        : project.value(QStringLiteral("name")).toString());
                if (p < 0 || m_world.projects.at(p).id != m_world.users.at(u).projectId)
                    return errorFor(QStringLiteral("keystone"), 401, QString(),
                        QStringLiteral("The request you have made requires authentication."));
                projectId = m_world.projects.at(p).id;
            }
        } else if (method == QLatin1String("application_credential")) {
            if (!scope.isEmpty())
                return errorFor(QStringLiteral("keystone"), 401, QString(),
                    QStringLiteral("Application credentials cannot request a scope."));
            const QJsonObject cred = identity.value(QStringLiteral("application_credential")).toObject();
            const QString id = cred.value(QStringLiteral("id")).toString();
            const QString name = cred.value(QStringLiteral("name")).toString();
            const QString secret = cred.value(QStringLiteral("secret")).toString();
            const SimApplicationCredential *found = nullptr;
            for (const SimApplicationCredential &c : m_world.applicationCredentials) {
                if ((!id.isEmpty() && c.id == id) || (id.isEmpty() && !name.isEmpty() && c.name == name))
                    found = &c;
            }
            if (!found || found->secret != secret)
                return errorFor(QStringLiteral("keystone"), 401, QString(),
                    QStringLiteral("The request you have made requires authentication."));
            userId = found->userId;
            projectId = found->projectId;
            appCredId = found->id;
        } else {
            return errorFor(QStringLiteral("keystone"), 401, QString(),
                QStringLiteral("Attempted to authenticate with an unsupported method."));
        }
        SimToken token;
        m_world.issueToken(userId, projectId, appCredId, &token);
        const QJsonObject t
            = renderToken(token, method, !request.query.hasQueryItem(QStringLiteral("nocatalog")));
        HttpResponse r = HttpResponse::json(201, toJson(QJsonObject { { QStringLiteral("token"), t } }));
        r.header("X-Subject-Token", token.id.toUtf8());
        return r;
    }

    // Validate or revoke a token.
    if (path == QLatin1String("/v3/auth/tokens")
        && (request.method == "GET" || request.method == "HEAD" || request.method == "DELETE")) {
        if (!m_world.validToken(QString::fromUtf8(request.header("x-auth-token"))))
            return errorFor(QStringLiteral("keystone"), 401, QString(),
                QStringLiteral("The request you have made requires authentication."));
        const QString subject = QString::fromUtf8(request.header("x-subject-token"));
        const SimToken *t = m_world.validToken(subject);
        if (!t)
            return errorFor(QStringLiteral("keystone"), 404, QString(),
                QStringLiteral("Could not find token: %1.").arg(subject));
        if (request.method == "DELETE") {
            m_world.tokens.remove(subject);
            return HttpResponse::empty(204);
        }
        // Keystone hides a token restricted by access rules from a validator that does not say it enforces
        // them (keystone/api/auth.py, OpenStack-Identity-Access-Rules).
        const SimApplicationCredential *credential
            = m_world.applicationCredential(t->applicationCredentialId);
        if (credential && !credential->accessRules.isEmpty()
            && request.header("openstack-identity-access-rules").isEmpty())
            return errorFor(QStringLiteral("keystone"), 404, QString(),
                QStringLiteral("Could not find token: %1.").arg(subject));
        HttpResponse r = HttpResponse::json(200,
            toJson(QJsonObject { { QStringLiteral("token"),
                renderToken(*t,
                    t->applicationCredentialId.isEmpty() ? QStringLiteral("password")
                                                         : QStringLiteral("application_credential"),
                    !request.query.hasQueryItem(QStringLiteral("nocatalog"))) } }));
        r.header("X-Subject-Token", subject.toUtf8());
        return r;
    }

    // Application credentials of a user: what tests create through the API.
    const QStringList parts = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    if (parts.size() == 4 && parts.at(0) == QLatin1String("v3") && parts.at(1) == QLatin1String("users")
        && parts.at(3) == QLatin1String("application_credentials") && request.method == "POST") {
        const SimToken *t = m_world.validToken(QString::fromUtf8(request.header("x-auth-token")));
        if (!t)
            return errorFor(QStringLiteral("keystone"), 401, QString(),
                QStringLiteral("The request you have made requires authentication."));
        if (t->userId != parts.at(2))
            return errorFor(QStringLiteral("keystone"), 403, QString(),
                QStringLiteral("You are not authorized to perform the requested action."));
        const QJsonObject body = QJsonDocument::fromJson(request.body)
                                     .object()
                                     .value(QStringLiteral("application_credential"))
                                     .toObject();
        SimApplicationCredential c;
        c.id = m_world.newHexId();
        c.name = body.value(QStringLiteral("name")).toString();
        c.secret = body.value(QStringLiteral("secret")).toString();
        if (c.secret.isEmpty())
            c.secret = m_world.newHexId();
        c.userId = t->userId;
        c.projectId = t->projectId;
        m_world.applicationCredentials.append(c);
        return HttpResponse::json(201,
            toJson(QJsonObject { { QStringLiteral("application_credential"),
                QJsonObject { { QStringLiteral("id"), c.id }, { QStringLiteral("name"), c.name },
                    { QStringLiteral("secret"), c.secret }, { QStringLiteral("project_id"), c.projectId },
                    { QStringLiteral("user_id"), c.userId }, { QStringLiteral("unrestricted"), false },
                    { QStringLiteral("expires_at"), QJsonValue() },
                    { QStringLiteral("roles"), QJsonArray() } } } }));
    }
    return errorFor(QStringLiteral("keystone"), 404, QString(),
        QStringLiteral("Could not find the requested resource: %1.").arg(path));
}
