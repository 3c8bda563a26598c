#include "services/openstack/keystonesession.h"

#include "core/apiparser.h"
#include "core/permission.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSslCertificate>

Q_LOGGING_CATEGORY(lcKeystone, "flightdeck.keystone", QtWarningMsg)

KeystoneSession::KeystoneSession(HttpClient *client, const CloudConfig &config, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_config(config)
{ }

QSslConfiguration KeystoneSession::tlsConfiguration() const
{
    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
    if (!m_config.caCertFile.isEmpty())
        tls.addCaCertificates(CloudConfig::caCertificates(m_config.caCertFile));
    return tls;
}

bool KeystoneSession::hasToken() const
{
    return !m_token.isEmpty() && QDateTime::currentDateTimeUtc().secsTo(m_expiresAt) > MinTokenLifeSeconds;
}

QString KeystoneSession::endpoint(const QString &serviceType) const
{
    return endpointIn(m_catalog, serviceType, m_config.interface, m_config.regionName);
}

QString KeystoneSession::endpointIn(const QJsonArray &catalog, const QString &serviceType,
    const QString &interface, const QString &regionName)
{
    QString fallback;
    for (const QJsonValue s : catalog) {
        const QJsonObject service = s.toObject();
        if (service.value(QStringLiteral("type")).toString() != serviceType)
            continue;
        for (const QJsonValue e : service.value(QStringLiteral("endpoints")).toArray()) {
            const QJsonObject endpoint = e.toObject();
            if (endpoint.value(QStringLiteral("interface")).toString() != interface)
                continue;
            const QString region = endpoint.value(QStringLiteral("region_id"))
                                       .toString(endpoint.value(QStringLiteral("region")).toString());
            QString url = endpoint.value(QStringLiteral("url")).toString();
            while (url.endsWith(QLatin1Char('/')))
                url.chop(1);
            if (regionName.isEmpty() || region == regionName)
                return url;
            if (fallback.isEmpty() && regionName.isEmpty())
                fallback = url;
        }
    }
    return fallback;
}

KeystoneSession::Token KeystoneSession::parseToken(const QJsonObject &token)
{
    Token t;
    t.expiresAt = ApiParser::parseTimestamp(token.value(QStringLiteral("expires_at")).toString());
    t.catalog = token.value(QStringLiteral("catalog")).toArray();
    t.userName = token.value(QStringLiteral("user")).toObject().value(QStringLiteral("name")).toString();
    t.projectName
        = token.value(QStringLiteral("project")).toObject().value(QStringLiteral("name")).toString();
    t.projectId = token.value(QStringLiteral("project")).toObject().value(QStringLiteral("id")).toString();
    return t;
}

static QJsonObject domainRef(const QString &name, const QString &id)
{
    if (!id.isEmpty())
        return QJsonObject { { QStringLiteral("id"), id } };
    return QJsonObject { { QStringLiteral("name"), name.isEmpty() ? QStringLiteral("Default") : name } };
}

void KeystoneSession::startAuthentication()
{
    if (m_authenticating)
        return;
    m_authenticating = true;
    QJsonObject identity;
    QJsonObject auth;
    if (m_config.isApplicationCredential()) {
        QJsonObject cred { { QStringLiteral("secret"), m_config.applicationCredentialSecret } };
        if (!m_config.applicationCredentialId.isEmpty()) {
            cred.insert(QStringLiteral("id"), m_config.applicationCredentialId);
        } else {
            cred.insert(QStringLiteral("name"), m_config.applicationCredentialName);
            QJsonObject user = m_config.userId.isEmpty()
                ? QJsonObject { { QStringLiteral("name"), m_config.username },
                      { QStringLiteral("domain"),
                          domainRef(m_config.userDomainName, m_config.userDomainId) } }
                : QJsonObject { { QStringLiteral("id"), m_config.userId } };
            cred.insert(QStringLiteral("user"), user);
        }
        identity = QJsonObject { { QStringLiteral("methods"),
                                     QJsonArray { QStringLiteral("application_credential") } },
            { QStringLiteral("application_credential"), cred } };
        auth.insert(
            QStringLiteral("identity"), identity); // no scope: an application credential carries its own
    } else {
        QJsonObject user { { QStringLiteral("password"), m_config.password } };
        if (!m_config.userId.isEmpty()) {
            user.insert(QStringLiteral("id"), m_config.userId);
        } else {
            user.insert(QStringLiteral("name"), m_config.username);
            user.insert(QStringLiteral("domain"), domainRef(m_config.userDomainName, m_config.userDomainId));
        }
        identity = QJsonObject { { QStringLiteral("methods"), QJsonArray { QStringLiteral("password") } },
            { QStringLiteral("password"), QJsonObject { { QStringLiteral("user"), user } } } };
        auth.insert(QStringLiteral("identity"), identity);
        QJsonObject project;
        if (!m_config.projectId.isEmpty()) {
            project.insert(QStringLiteral("id"), m_config.projectId);
        } else if (!m_config.projectName.isEmpty()) {
            project.insert(QStringLiteral("name"), m_config.projectName);
            project.insert(
                QStringLiteral("domain"), domainRef(m_config.projectDomainName, m_config.projectDomainId));
        }
        if (!project.isEmpty())
            auth.insert(QStringLiteral("scope"), QJsonObject { { QStringLiteral("project"), project } });
    }
    QString url = m_config.authUrl;
    while (url.endsWith(QLatin1Char('/')))
        url.chop(1);
    if (!url.endsWith(QLatin1String("/v3")))
        url += QStringLiteral("/v3");
    ApiRequest request;
    request.service = QStringLiteral("identity");
    request.method = "POST";
    request.url = QUrl(url + QStringLiteral("/auth/tokens"));
    request.body
        = QJsonDocument(QJsonObject { { QStringLiteral("auth"), auth } }).toJson(QJsonDocument::Compact);
    request.tls = tlsConfiguration();
    request.retrySafe = true; // asking for a token changes nothing: a 429 or 503 is retried like a GET
    HttpCall *call = m_client->send(request);
    connect(call, &HttpCall::finished, this, [this, request](const ApiResponse &r) {
        m_authenticating = false;
        Error error = r.error;
        if (!error.isError()) {
            const QJsonObject token = r.json(&error).value(QStringLiteral("token")).toObject();
            if (!error.isError()) {
                m_token = QString::fromUtf8(r.header("x-subject-token"));
                const Token parsed = parseToken(token);
                m_expiresAt = parsed.expiresAt;
                m_catalog = parsed.catalog;
                m_userName = parsed.userName;
                m_projectName = parsed.projectName;
                m_projectId = parsed.projectId;
                m_credentials = credentialsOf(r.body, m_credentials);
                ++m_authentications;
                if (m_token.isEmpty() || !m_expiresAt.isValid()) {
                    error.kind = Error::Kind::Malformed;
                    error.detail = QStringLiteral("the token answer has no X-Subject-Token or expires_at");
                }
                qCDebug(lcKeystone) << "authenticated as" << m_userName << "in" << m_projectName << "until"
                                    << m_expiresAt;
            }
        } else if (error.kind == Error::Kind::Http && (error.status == 401 || error.status == 400)) {
            error.kind = Error::Kind::Auth;
        }
        const auto waiting = std::exchange(m_waiting, {});
        for (const auto &w : waiting) {
            if (w.first)
                w.second(error);
        }
    });
}

// The token's answer as Credentials (Keystone renders the same body for POST and GET /v3/auth/tokens:
// docs/wire-formats.md), with the endpoints this session uses; what was refused earlier this session stays.
std::shared_ptr<const Credentials> KeystoneSession::credentialsOf(
    const QByteArray &body, const std::shared_ptr<const Credentials> &earlier) const
{
    auto c = std::make_shared<Credentials>();
    try {
        c->identity = TokenIdentity::parse(QStringLiteral("Keystone's token"), body);
    } catch (const ParseError &e) {
        qCWarning(lcKeystone) << "the token's roles could not be read:" << e.toString();
        return earlier; // what was known of this session stays (its refusals with it)
    }
    for (const char *type : { "compute", "network", "identity", "kubernikus" }) {
        const QString url = endpoint(QLatin1String(type));
        if (!url.isEmpty())
            c->endpoints.insert(QLatin1String(type), url);
    }
    if (earlier)
        c->refusedThisSession = earlier->refusedThisSession;
    c->profile = m_config.policy;
    return c;
}

void KeystoneSession::noteUnexpectedRefusal(const QString &key, const QString &said)
{
    if (!m_credentials || m_credentials->refusedThisSession.contains(key))
        return;
    auto c = std::make_shared<Credentials>(*m_credentials);
    c->refusedThisSession.insert(key, said);
    m_credentials = std::move(c);
}

void KeystoneSession::whenAuthenticated(QObject *context, std::function<void(const Error &)> then)
{
    if (hasToken()) {
        // Later, never before the caller has had the handle to connect to.
        QMetaObject::invokeMethod(
            context, [then] { then(Error()); }, Qt::QueuedConnection);
        return;
    }
    m_waiting.append({ QPointer<QObject>(context), std::move(then) });
    startAuthentication();
}

HttpCall *KeystoneSession::authenticate()
{
    auto *outer = new HttpCall(this);
    whenAuthenticated(outer, [outer](const Error &error) {
        ApiResponse r;
        r.error = error;
        outer->finish(r);
    });
    return outer;
}

HttpCall *KeystoneSession::send(const QString &serviceType, const QByteArray &method, const QString &path,
    const QByteArray &body, const QList<QPair<QByteArray, QByteArray>> &headers)
{
    auto *outer = new HttpCall(this);
    whenAuthenticated(outer, [this, outer, serviceType, method, path, body, headers](const Error &error) {
        if (error.isError()) {
            ApiResponse r;
            r.error = error;
            outer->finish(r);
            return;
        }
        const QString base = endpoint(serviceType);
        if (base.isEmpty()) {
            ApiResponse r;
            r.error.kind = Error::Kind::Config;
            r.error.service = serviceType;
            r.error.detail
                = QStringLiteral("the catalog has no %1 endpoint (interface %2%3)")
                      .arg(serviceType, m_config.interface,
                          m_config.regionName.isEmpty() ? QString()
                                                        : QStringLiteral(", region ") + m_config.regionName);
            outer->finish(r);
            return;
        }
        dispatch(outer, serviceType, method, QUrl(base + path), body, headers, true);
    });
    return outer;
}

HttpCall *KeystoneSession::sendUrl(const QString &serviceType, const QByteArray &method, const QUrl &url,
    const QByteArray &body, const QList<QPair<QByteArray, QByteArray>> &headers)
{
    auto *outer = new HttpCall(this);
    whenAuthenticated(outer, [this, outer, serviceType, method, url, body, headers](const Error &error) {
        if (error.isError()) {
            ApiResponse r;
            r.error = error;
            outer->finish(r);
            return;
        }
        dispatch(outer, serviceType, method, url, body, headers, true);
    });
    return outer;
}

void KeystoneSession::dispatch(HttpCall *outer, const QString &serviceType, const QByteArray &method,
    const QUrl &url, const QByteArray &body, const QList<QPair<QByteArray, QByteArray>> &headers,
    bool mayReauthenticate)
{
    ApiRequest request;
    request.service = serviceType;
    request.method = method;
    request.url = url;
    request.body = body;
    request.headers = headers;
    const QString usedToken = m_token;
    request.headers.append({ "X-Auth-Token", usedToken.toUtf8() });
    request.tls = tlsConfiguration();
    HttpCall *inner = m_client->send(request);
    const QPointer<HttpCall> guard(inner);
    outer->setCanceller([guard] {
        if (guard)
            guard->cancel();
    });
    connect(inner, &HttpCall::finished, outer,
        [this, outer, serviceType, method, url, body, headers, mayReauthenticate, usedToken](
            const ApiResponse &r) {
            if (r.status == 401 && mayReauthenticate) {
                // The token expired or was revoked: one fresh authentication, then the request again.
                qCDebug(lcKeystone) << "401 from" << serviceType << "- re-authenticating once";
                if (m_token == usedToken)
                    m_token.clear(); // another request may have fetched a fresh one already
                whenAuthenticated(
                    outer, [this, outer, serviceType, method, url, body, headers](const Error &error) {
                        if (error.isError()) {
                            ApiResponse failed;
                            failed.error = error;
                            outer->finish(failed);
                            return;
                        }
                        dispatch(outer, serviceType, method, url, body, headers, false);
                    });
                return;
            }
            outer->finish(r);
        });
}
