#include "services/monitoring/prometheusclient.h"

#include "core/json/jsonreader.h"
#include "services/http/httpclient.h"

#include <QPointer>
#include <memory>

namespace {

const QString service = QStringLiteral("prometheus");

} // namespace

PrometheusClient::PrometheusClient(HttpClient *client, PrometheusTarget target, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_target(std::move(target))
{ }

QString PrometheusClient::secretKey(const PrometheusTarget &target)
{
    return QStringLiteral("prometheus/%1/%2").arg(target.displayUrl(), target.username);
}

HttpCall *PrometheusClient::query(const QString &promql)
{
    ApiRequest r = m_target.request(service, "GET", QStringLiteral("/api/v1/query"));
    // Encoded whole: `+`, `=`, `&` and quotes in the expression stay in it.
    r.url.setQuery(
        QStringLiteral("query=") + QString::fromLatin1(QUrl::toPercentEncoding(promql)), QUrl::StrictMode);
    // A fleet's answer is large (tens of MB at ten thousand klusters); Prometheus takes up to 2 min itself.
    r.deadlineMs = 120000;
    return m_client->send(r);
}

HttpCall *PrometheusClient::targets()
{
    ApiRequest r = m_target.request(service, "GET", QStringLiteral("/api/v1/targets"));
    r.url.setQuery(QStringLiteral("state=active"));
    return m_client->send(r);
}

QString PrometheusClient::describe(const QString &what) const
{
    const QString prefix = service + QStringLiteral(": ");
    return QStringLiteral("Prometheus %1: %2")
        .arg(m_target.displayUrl(), what.startsWith(prefix) ? what.mid(prefix.size()) : what);
}

void PrometheusClient::readFleet(QObject *context, const std::function<void(const Round &)> &done)
{
    // The answers, filled as they come; the first failure ends the round (the others are cancelled).
    struct Pending
    {
        QList<QList<ExportedFleet::Sample>> answers;
        QList<QPointer<HttpCall>> calls;
        int left = ExportedFleet::QueryCount;
        bool over = false;
    };
    auto pending = std::make_shared<Pending>();
    pending->answers.resize(ExportedFleet::QueryCount);
    for (int i = 0; i < ExportedFleet::QueryCount; ++i) {
        const auto which = ExportedFleet::Query(i);
        HttpCall *call = query(ExportedFleet::promql(which));
        pending->calls << call;
        connect(
            call, &HttpCall::finished, context, [this, pending, which, done](const ApiResponse &response) {
                if (pending->over)
                    return;
                const QString what = QStringLiteral("the query %1").arg(ExportedFleet::queryName(which));
                QString error;
                Error::Kind kind = Error::Kind::None;
                if (!response.ok()) {
                    error = describe(QStringLiteral("%1: %2").arg(what, response.error.toString()));
                    kind = response.error.kind;
                } else {
                    try {
                        pending->answers[int(which)] = ExportedFleet::parseVector(response.body, what);
                    } catch (const ParseError &e) {
                        error = describe(e.toString());
                        kind = Error::Kind::Malformed;
                    }
                }
                Round round;
                round.queries = ExportedFleet::QueryCount;
                if (!error.isEmpty()) {
                    pending->over = true;
                    for (const QPointer<HttpCall> &other : std::as_const(pending->calls)) {
                        if (other && !other->isFinished())
                            other->cancel();
                    }
                    round.error = error;
                    round.kind = kind;
                    done(round);
                    return;
                }
                if (--pending->left > 0)
                    return;
                pending->over = true;
                round.fleet = ExportedFleet::assemble(pending->answers);
                done(round);
            });
    }
}
