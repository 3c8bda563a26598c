#pragma once

#include "core/alerts.h"

#include <QByteArray>
#include <QDateTime>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QUrl>
#include <functional>
#include <optional>

class HttpCall;
class HttpClient;
struct ApiRequest;

// How Flightdeck reaches an Alertmanager (docs/alertmanager.md): its URL, how it authenticates, its TLS, and
// the labels that name a kluster in its alerts. The secret is held in memory only (from the keychain, a file
// or the environment), never written.
struct AlertmanagerTarget
{
    enum class Auth
    {
        None,
        Basic,
        Bearer,
    };

    QUrl url; // the base: http(s)://host:port[/prefix]
    Auth auth = Auth::None;
    QString username; // basic
    QString secret; // the basic password or the bearer token
    QString caFile; // an extra CA to trust (PEM), and a client certificate with its key: where they are kept
    QString clientCertFile;
    QString clientKeyFile;
    QByteArray caPem; // what those files hold (readFiles)
    QByteArray clientCertPem;
    QByteArray clientKeyPem;
    QStringList klusterLabels = Alerts::defaultKlusterLabels();

    bool isSet() const { return url.isValid() && !url.isEmpty(); }
    bool needsSecret() const { return auth != Auth::None; }
    // Reads the CA, certificate and key files named; false with `error` ("<file>: <why>") for the first that
    // cannot be read, or a certificate without its key.
    bool readFiles(QString *error);
    // The keychain's name for its secret: one per Alertmanager and user.
    QString secretKey() const;
    // The URL for messages: no user or password in it.
    QString displayUrl() const;
    // Checks a URL given by a person: http or https, a host, no query; nullopt with `error` otherwise.
    static std::optional<QUrl> readUrl(const QString &text, QString *error);
    // A request to `path` under the URL, with its TLS and authentication (the secret sent only here),
    // timed out; `serviceName` names it in errors ("alertmanager", "prometheus").
    ApiRequest request(const QString &serviceName, const QByteArray &method, const QString &path) const;
};

QString alertmanagerAuthName(AlertmanagerTarget::Auth auth); // "none", "basic", "bearer"
std::optional<AlertmanagerTarget::Auth> alertmanagerAuthFromName(QStringView name);

// A silence to create: who, why, for how long, and the matchers that select the alerts (Alertmanager's
// PostableSilence).
struct SilenceRequest
{
    struct Matcher
    {
        QString name;
        QString value;
        bool isRegex = false;
        bool isEqual = true;
    };
    QList<Matcher> matchers;
    QDateTime startsAt;
    QDateTime endsAt;
    QString createdBy;
    QString comment;
    QString alertFingerprint; // the alert it is made for (not sent)

    QByteArray toJson() const;
    // The matchers as Alertmanager shows them: {alertname="X", kluster_name="demo"}.
    QString matchersText() const;
    // The matchers of a silence of `alert` and no other: every label it carries, each equal, and each
    // identifying label it lacks (Alerts::identifyingLabels) pinned equal to "" (absent): without them a
    // silence of demo's alert also silences another project's kluster demo, and every per-node alert of
    // that name.
    static QList<Matcher> matchersOf(
        const Alert &alert, const QStringList &klusterLabels = Alerts::defaultKlusterLabels());
    // The matchers as Alertmanager's alert filter takes them (label="value", escaped).
    QStringList filter() const;
};

// Alertmanager's v2 API over the one HTTP core: every call asynchronous and timed out, TLS verified, the
// secret sent only to the Alertmanager it belongs to.
class AlertmanagerClient : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AlertmanagerClient)

public:
    AlertmanagerClient(HttpClient *client, AlertmanagerTarget target, QObject *parent = nullptr);

    const AlertmanagerTarget &target() const { return m_target; }

    // GET /api/v2/alerts of every state (active, silenced, inhibited, unprocessed), with `filter` matchers
    // (label="value", ANDed) if any. The answer is read with Alerts::parse.
    HttpCall *fetchAlerts(const QStringList &filter = {});
    // The alerts of one kluster, findings not yet matched: one request per kluster label (the first label
    // equal to the name; the next with the ones before it absent), merged. `done` is called once, later.
    void fetchKlusterAlerts(const QString &name, const QString &projectId, QObject *context,
        const std::function<void(const KlusterAlerts &)> &done);
    // Every alert of the Alertmanager in one request (a fleet's refresh shares it, Alerts::ofKluster splits).
    void fetchAllAlerts(
        QObject *context, const std::function<void(const QList<Alert> &, const QString &error)> &done);

    // The alerts `silence` would catch now (GET /api/v2/alerts filtered by its matchers, every state):
    // `done` once, later, with them or why they could not be read.
    void fetchCaught(const SilenceRequest &silence, QObject *context,
        const std::function<void(const QList<Alert> &, const QString &error)> &done);

    // POST /api/v2/silences: the answer's {"silenceID": "…"} is read with silenceIdOf.
    HttpCall *createSilence(const SilenceRequest &silence);
    // DELETE /api/v2/silence/{id}: expires it (it stays listed, expired).
    HttpCall *expireSilence(const QString &id);
    static QString silenceIdOf(const QByteArray &body); // empty when the answer has none

    // The filters that select a kluster's alerts by `labels`, one set per request.
    static QList<QStringList> klusterFilters(const QStringList &labels, const QString &name);
    // label="value" with Alertmanager's escapes.
    static QString matcher(const QString &label, const QString &value);

private:
    // The alerts `filter` selects, read (Alerts::parse), or why not: `done` once, later.
    void fetchAlertList(const QStringList &filter, QObject *context,
        const std::function<void(const QList<Alert> &, const QString &error)> &done);
    ApiRequest request(const QByteArray &method, const QString &path) const;
    QString describe(const QString &what) const;

    HttpClient *m_client;
    AlertmanagerTarget m_target;
};
