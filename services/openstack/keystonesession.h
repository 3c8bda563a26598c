#pragma once

#include "services/http/httpclient.h"
#include "services/local/cloudconfig.h"

#include <QDateTime>
#include <QJsonArray>
#include <QList>
#include <QObject>
#include <QSet>
#include <functional>
#include <memory>

struct Credentials;

Q_DECLARE_LOGGING_CATEGORY(lcKeystone)

// A Keystone v3 session: authenticates with a password (user and project by
// name and domain, or by id) or an application credential, picks endpoints
// from the catalog by type, interface and region, reuses the token until
// shortly before it expires, and re-authenticates once, transparently, when
// a service answers 401.
class KeystoneSession : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(KeystoneSession)

public:
    KeystoneSession(HttpClient *client, const CloudConfig &config, QObject *parent = nullptr);

    const CloudConfig &config() const { return m_config; }
    HttpClient *client() const { return m_client; }

    // Sends `method` `path` to the catalog endpoint of `serviceType` with the
    // token. `path` is relative to the endpoint ("/servers/detail").
    HttpCall *send(const QString &serviceType, const QByteArray &method, const QString &path,
        const QByteArray &body = QByteArray(), const QList<QPair<QByteArray, QByteArray>> &headers = {});
    // The same, for an absolute URL of one of the catalog's endpoints (a next-page link).
    HttpCall *sendUrl(const QString &serviceType, const QByteArray &method, const QUrl &url,
        const QByteArray &body = QByteArray(), const QList<QPair<QByteArray, QByteArray>> &headers = {});

    // Authenticates now if there is no usable token; finished() carries the error, if any.
    HttpCall *authenticate();

    bool hasToken() const;
    // An API these credentials were refused (401 with a fresh token, or 403; e.g. the ASR driver's, a cloud
    // admin's): not asked again while the session lasts, so that every refresh does not sign in again.
    bool isRefused(const QString &api) const { return m_refused.contains(api); }
    void noteRefused(const QString &api) { m_refused.insert(api); }
    QString endpoint(const QString &serviceType) const; // empty until authenticated, or when absent
    QString userName() const { return m_userName; }
    QString projectName() const { return m_projectName; }
    QString projectId() const { return m_projectId; }
    QDateTime expiresAt() const { return m_expiresAt; }
    // Who the token is, its roles and access rules, the endpoints used, and what was refused this session
    // (diagnosis.md §8); null until authenticated or when the token answer said no user.
    std::shared_ptr<const Credentials> credentials() const { return m_credentials; }
    // A 403 of a request the preflight judged `key` (PolicyProfile::keyOf): denied for the rest of the
    // session, with what the service said.
    void noteUnexpectedRefusal(const QString &key, const QString &said);
    int authentications() const { return m_authentications; }

    // Re-authenticate when fewer than this many seconds remain (keystoneauth: 120).
    static constexpr int MinTokenLifeSeconds = 120;

    QSslConfiguration tlsConfiguration() const;

    // What the session keeps of a token answer's "token" object.
    struct Token
    {
        QDateTime expiresAt; // invalid when absent or unreadable
        QJsonArray catalog;
        QString userName;
        QString projectName;
        QString projectId;
    };
    static Token parseToken(const QJsonObject &token);
    // The URL (without trailing '/') of the `serviceType` endpoint of `catalog` with
    // `interface` in `regionName` (empty: the first region); empty when absent.
    static QString endpointIn(const QJsonArray &catalog, const QString &serviceType, const QString &interface,
        const QString &regionName);

private:
    void startAuthentication();
    std::shared_ptr<const Credentials> credentialsOf(
        const QByteArray &body, const std::shared_ptr<const Credentials> &earlier) const;
    void whenAuthenticated(QObject *context, std::function<void(const Error &)> then);
    void dispatch(HttpCall *outer, const QString &serviceType, const QByteArray &method, const QUrl &url,
        const QByteArray &body, const QList<QPair<QByteArray, QByteArray>> &headers, bool mayReauthenticate);

    HttpClient *m_client;
    CloudConfig m_config;
    QString m_token;
    QSet<QString> m_refused;
    std::shared_ptr<const Credentials> m_credentials;
    QDateTime m_expiresAt;
    QJsonArray m_catalog;
    QString m_userName;
    QString m_projectName;
    QString m_projectId;
    bool m_authenticating = false;
    int m_authentications = 0;
    QList<QPair<QPointer<QObject>, std::function<void(const Error &)>>> m_waiting;
};
