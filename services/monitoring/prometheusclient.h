#pragma once

#include "core/error.h"
#include "core/exportedfleet.h"
#include "services/monitoring/alertmanagerclient.h"

#include <QObject>
#include <QString>
#include <functional>

class HttpCall;
class HttpClient;

// A Prometheus is reached as an Alertmanager is: its URL, basic or bearer authentication (the secret in
// memory only: the keychain, a file or the environment), an extra CA and a client certificate.
using PrometheusTarget = AlertmanagerTarget;

// The team's Prometheus through its HTTP API (/api/v1/query) over the one HTTP core: the fleet's instant
// queries of a round (ExportedFleet) sent together, each timed out, TLS verified, the secret sent only to the
// Prometheus it belongs to.
class PrometheusClient : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PrometheusClient)

public:
    PrometheusClient(HttpClient *client, PrometheusTarget target, QObject *parent = nullptr);

    const PrometheusTarget &target() const { return m_target; }
    // The keychain's name for a Prometheus' secret: one per Prometheus and user.
    static QString secretKey(const PrometheusTarget &target);

    // GET /api/v1/query?query=… (an instant query, now).
    HttpCall *query(const QString &promql);
    // GET /api/v1/targets?state=active: what it scrapes now, each target's labels and URL.
    HttpCall *targets();
    // A request's failure or a malformed answer in words that name this Prometheus.
    QString describe(const QString &what) const;

    // One round: the fleet's queries at once, assembled. `done` once, later, on `context`'s thread, with the
    // fleet, or with why a query failed ("Prometheus http://…: the query held: 503 …") and no fleet.
    struct Round
    {
        ExportedFleet::Fleet fleet;
        QString error;
        Error::Kind kind
            = Error::Kind::None; // of the failure: a network's, an HTTP status, a malformed answer
        int queries = 0; // sent in this round
    };
    void readFleet(QObject *context, const std::function<void(const Round &)> &done);

private:
    HttpClient *m_client;
    PrometheusTarget m_target;
};
