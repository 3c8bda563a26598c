#include "services/monitoring/alertmanagerclient.h"

#include "core/apiparser.h"
#include "core/printable.h"
#include "services/http/httpclient.h"
#include "services/local/localfile.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QSet>
#include <algorithm>
#include <array>
#include <memory>

namespace {

struct AuthName
{
    AlertmanagerTarget::Auth auth;
    const char *name;
};
constexpr std::array<AuthName, 3> authNames { {
    { AlertmanagerTarget::Auth::None, "none" },
    { AlertmanagerTarget::Auth::Basic, "basic" },
    { AlertmanagerTarget::Auth::Bearer, "bearer" },
} };

const QString service = QStringLiteral("alertmanager");

} // namespace

QString alertmanagerAuthName(AlertmanagerTarget::Auth auth)
{
    for (const AuthName &a : authNames)
        if (a.auth == auth)
            return QLatin1String(a.name);
    return {};
}

std::optional<AlertmanagerTarget::Auth> alertmanagerAuthFromName(QStringView name)
{
    for (const AuthName &a : authNames)
        if (name == QLatin1String(a.name))
            return a.auth;
    return std::nullopt;
}

QString AlertmanagerTarget::secretKey() const
{
    return QStringLiteral("alertmanager/%1/%2").arg(displayUrl(), username);
}

QString AlertmanagerTarget::displayUrl() const
{
    return url.adjusted(QUrl::RemoveUserInfo | QUrl::StripTrailingSlash).toString();
}

// `text` as it may be echoed: whatever stands between "//" and an "@" before the path (a user and password,
// even in a URL that does not parse) replaced by "…".
static QString withoutUserInfo(const QString &text)
{
    const qsizetype authority = text.indexOf(QStringLiteral("//"));
    const qsizetype start = authority < 0 ? 0 : authority + 2;
    qsizetype end = text.size();
    for (const QChar stop : { QLatin1Char('/'), QLatin1Char('?'), QLatin1Char('#') }) {
        const qsizetype at = text.indexOf(stop, start);
        if (at >= 0)
            end = qMin(end, at);
    }
    const qsizetype at = text.lastIndexOf(QLatin1Char('@'), end - 1);
    if (at < start)
        return text;
    return text.left(start) + QStringLiteral("…") + text.mid(at);
}

std::optional<QUrl> AlertmanagerTarget::readUrl(const QString &text, QString *error)
{
    const QUrl url(text.trimmed(), QUrl::StrictMode);
    const QString scheme = url.scheme();
    if (!url.isValid() || (scheme != QLatin1String("http") && scheme != QLatin1String("https"))
        || url.host().isEmpty()) {
        *error = QStringLiteral("%1 is not an http or https URL of an Alertmanager (http://host:9093)")
                     .arg(quotedExcerpt(withoutUserInfo(text)));
        return std::nullopt;
    }
    if (url.hasQuery() || url.hasFragment() || !url.userInfo().isEmpty()) {
        *error = QStringLiteral("%1: give the Alertmanager's URL without a query, fragment or user (the "
                                "user and secret are settings of their own)")
                     .arg(quotedExcerpt(url.adjusted(QUrl::RemoveUserInfo).toString()));
        return std::nullopt;
    }
    return url;
}

bool AlertmanagerTarget::readFiles(QString *error)
{
    const auto read = [error](const QString &path, QByteArray *out) {
        if (path.isEmpty()) {
            out->clear();
            return true;
        }
        const std::optional<QByteArray> bytes = LocalFile::read(path, LocalFile::ConfigLimit, error);
        if (!bytes)
            return false;
        *out = *bytes;
        return true;
    };
    if (!read(caFile, &caPem) || !read(clientCertFile, &clientCertPem) || !read(clientKeyFile, &clientKeyPem))
        return false;
    if (clientCertPem.isEmpty() != clientKeyPem.isEmpty()) {
        *error = QStringLiteral("a client certificate goes with its key: give both");
        return false;
    }
    return true;
}

QByteArray SilenceRequest::toJson() const
{
    QJsonArray list;
    for (const Matcher &m : matchers)
        list.append(QJsonObject { { QStringLiteral("name"), m.name }, { QStringLiteral("value"), m.value },
            { QStringLiteral("isRegex"), m.isRegex }, { QStringLiteral("isEqual"), m.isEqual } });
    const QJsonObject body { { QStringLiteral("matchers"), list },
        { QStringLiteral("startsAt"), ApiParser::formatTimestamp(startsAt) },
        { QStringLiteral("endsAt"), ApiParser::formatTimestamp(endsAt) },
        { QStringLiteral("createdBy"), createdBy }, { QStringLiteral("comment"), comment } };
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

QString SilenceRequest::matchersText() const
{
    QStringList parts;
    for (const Matcher &m : matchers) {
        const QString op = m.isRegex ? (m.isEqual ? QStringLiteral("=~") : QStringLiteral("!~"))
                                     : (m.isEqual ? QStringLiteral("=") : QStringLiteral("!="));
        parts.append(m.name + op + QLatin1Char('"') + m.value + QLatin1Char('"'));
    }
    return QLatin1Char('{') + parts.join(QStringLiteral(", ")) + QLatin1Char('}');
}

QList<SilenceRequest::Matcher> SilenceRequest::matchersOf(
    const Alert &alert, const QStringList &klusterLabels)
{
    QList<Matcher> out;
    for (auto it = alert.labels.cbegin(); it != alert.labels.cend(); ++it)
        out.append(Matcher { it.key(), it.value(), false, true });
    for (const QString &label : Alerts::identifyingLabels(klusterLabels)) {
        if (!alert.labels.contains(label))
            out.append(Matcher { label, QString(), false, true });
    }
    return out;
}

QStringList SilenceRequest::filter() const
{
    QStringList out;
    for (const Matcher &m : matchers)
        out << AlertmanagerClient::matcher(m.name, m.value);
    return out;
}

AlertmanagerClient::AlertmanagerClient(HttpClient *client, AlertmanagerTarget target, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_target(std::move(target))
{ }

QString AlertmanagerClient::matcher(const QString &label, const QString &value)
{
    QString escaped = value;
    escaped.replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
        .replace(QLatin1Char('"'), QStringLiteral("\\\""));
    escaped.replace(QLatin1Char('\n'), QStringLiteral("\\n"));
    return label + QStringLiteral("=\"") + escaped + QLatin1Char('"');
}

QList<QStringList> AlertmanagerClient::klusterFilters(const QStringList &labels, const QString &name)
{
    QList<QStringList> out;
    QStringList absent;
    for (const QString &label : labels) {
        QStringList filter = absent;
        filter.append(matcher(label, name));
        out.append(filter);
        absent.append(matcher(label, QString())); // an empty matcher selects the alerts without the label
    }
    return out;
}

ApiRequest AlertmanagerTarget::request(
    const QString &serviceName, const QByteArray &method, const QString &path) const
{
    ApiRequest r;
    r.service = serviceName;
    r.method = method;
    r.url = url;
    QString base = r.url.path();
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    r.url.setPath(base + path);
    r.timeoutMs = 15000;
    r.deadlineMs = 30000;
    if (!caPem.isEmpty() || !clientCertPem.isEmpty())
        r.tls = tlsConfigurationFor(caPem, clientCertPem, clientKeyPem);
    if (auth == Auth::Basic)
        r.headers.append(qMakePair(QByteArray("Authorization"),
            "Basic " + (username + QLatin1Char(':') + secret).toUtf8().toBase64()));
    else if (auth == Auth::Bearer)
        r.headers.append(qMakePair(QByteArray("Authorization"), "Bearer " + secret.toUtf8()));
    r.headers.append(qMakePair(QByteArray("Accept"), QByteArray("application/json")));
    return r;
}

ApiRequest AlertmanagerClient::request(const QByteArray &method, const QString &path) const
{
    return m_target.request(service, method, path);
}

QString AlertmanagerClient::describe(const QString &what) const
{
    // The HTTP core's words name the service first; the line names the Alertmanager by its URL instead.
    const QString prefix = service + QStringLiteral(": ");
    return QStringLiteral("Alertmanager %1: %2")
        .arg(m_target.displayUrl(), what.startsWith(prefix) ? what.mid(prefix.size()) : what);
}

HttpCall *AlertmanagerClient::fetchAlerts(const QStringList &filter)
{
    ApiRequest r = request("GET", QStringLiteral("/api/v2/alerts"));
    // Every matcher percent-encoded whole: quotes, `=`, `&` and `+` in a kluster's name stay in its value.
    QByteArray query = "active=true&silenced=true&inhibited=true&unprocessed=true";
    for (const QString &f : filter)
        query += "&filter=" + QUrl::toPercentEncoding(f);
    r.url.setQuery(QString::fromLatin1(query), QUrl::StrictMode);
    return m_client->send(r);
}

void AlertmanagerClient::fetchKlusterAlerts(const QString &name, const QString &projectId, QObject *context,
    const std::function<void(const KlusterAlerts &)> &done)
{
    const QList<QStringList> filters = klusterFilters(m_target.klusterLabels, name);
    struct Gathering
    {
        int waiting = 0;
        QList<Alert> alerts;
        qsizetype unread = 0; // of the kluster's (the server selected them): past what an answer is read for
        QString error;
    };
    auto gathering = std::make_shared<Gathering>();
    gathering->waiting = int(filters.size());
    const QStringList labels = m_target.klusterLabels;
    for (const QStringList &filter : filters) {
        HttpCall *call = fetchAlerts(filter);
        connect(call, &HttpCall::finished, context,
            [this, gathering, done, labels, name, projectId](const ApiResponse &response) {
                if (gathering->error.isEmpty()) {
                    if (!response.ok()) {
                        gathering->error = describe(response.error.toString());
                    } else {
                        try {
                            qsizetype total = 0;
                            const QList<Alert> read
                                = Alerts::parse(QStringLiteral("its alerts"), response.body, &total);
                            gathering->unread += total - read.size();
                            gathering->alerts += read;
                        } catch (const ParseError &e) {
                            gathering->error = describe(e.toString());
                        }
                    }
                }
                if (--gathering->waiting > 0)
                    return;
                KlusterAlerts out;
                out.configured = true;
                out.known = gathering->error.isEmpty();
                out.error = gathering->error;
                if (out.known) { // the server's filter is not trusted alone: never another kluster's
                    out.alerts = Alerts::ofKluster(gathering->alerts, labels, name, projectId, &out.omitted);
                    out.omitted += gathering->unread;
                }
                done(out);
            });
    }
}

void AlertmanagerClient::fetchAlertList(const QStringList &filter, QObject *context,
    const std::function<void(const QList<Alert> &, const QString &)> &done)
{
    HttpCall *call = fetchAlerts(filter);
    connect(call, &HttpCall::finished, context, [this, done](const ApiResponse &response) {
        if (!response.ok()) {
            done({}, describe(response.error.toString()));
            return;
        }
        try {
            done(Alerts::parse(QStringLiteral("its alerts"), response.body), QString());
        } catch (const ParseError &e) {
            done({}, describe(e.toString()));
        }
    });
}

void AlertmanagerClient::fetchAllAlerts(
    QObject *context, const std::function<void(const QList<Alert> &, const QString &)> &done)
{
    fetchAlertList({}, context, done);
}

void AlertmanagerClient::fetchCaught(const SilenceRequest &silence, QObject *context,
    const std::function<void(const QList<Alert> &, const QString &)> &done)
{
    fetchAlertList(silence.filter(), context, done);
}

HttpCall *AlertmanagerClient::createSilence(const SilenceRequest &silence)
{
    ApiRequest r = request("POST", QStringLiteral("/api/v2/silences"));
    r.body = silence.toJson();
    r.headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
    return m_client->send(r);
}

HttpCall *AlertmanagerClient::expireSilence(const QString &id)
{
    return m_client->send(request(
        "DELETE", QStringLiteral("/api/v2/silence/") + QString::fromLatin1(QUrl::toPercentEncoding(id))));
}

QString AlertmanagerClient::silenceIdOf(const QByteArray &body)
{
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    return doc.isObject() ? doc.object().value(QStringLiteral("silenceID")).toString() : QString();
}
