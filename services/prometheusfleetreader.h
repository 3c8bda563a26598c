#pragma once

#include "core/exporterreport.h"
#include "services/connection.h"
#include "services/monitoring/prometheusclient.h"

#include <QHash>
#include <QObject>
#include <memory>

class HttpClient;
struct SecretResult;

// A Prometheus connection's work on the network thread (docs/monitoring.md, "The fleet from the team's
// Prometheus"): listing its klusters is a round of the fleet's instant queries; a kluster's refresh is
// answered from the last round (a RefreshResult with `exported` and no fetch), never a query of its own. The
// klusters are named as ExportedFleet::displayNames names them.
class PrometheusFleetReader : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PrometheusFleetReader)

public:
    explicit PrometheusFleetReader(const ConnectionSpec &spec);
    ~PrometheusFleetReader() override;

    void listKlusters(); // a round; klustersListed() with its names, or the error and none
    void cancelListing();
    void refresh(const QStringList &klusters); // refreshed() at once with them all, from the last round
    void secretRead(const SecretResult &result); // the answer to secretWanted()
    // The kluster's report from its exporter (/klusters/<name>), found through Prometheus' targets (once a
    // round per exporter): reportRead() with it, or with why not. Sent without the Prometheus' secret, with
    // its CA.
    void readReport(const QString &kluster);

signals:
    void klustersListed(const QStringList &klusters, const Error &error);
    void refreshed(const QList<RefreshResult> &results);
    void secretWanted(const QString &key); // the target's secret, from the keychain
    void reportRead(const QString &kluster, const ExporterReport::Read &read);

private:
    void round();
    void fetchReport(const QString &kluster, const ExportedFleet::Kluster &k, const QUrl &exporter);
    void reportFailed(const QString &kluster, const Error &error, const QString &url = QString());

    ConnectionSpec m_spec;
    std::unique_ptr<HttpClient> m_http;
    std::unique_ptr<HttpClient> m_exporterHttp; // the exporters' reports: nothing shared with the Prometheus'
    std::unique_ptr<PrometheusClient> m_client;
    QHash<QString, std::shared_ptr<const ExportedFleet::Kluster>> m_klusters; // by display name
    // The last round's names, kept here: the window's thread lets go of its copies without freeing them (the
    // strings were made on this thread: freed there, ten thousand of them waited on this thread's allocator).
    QStringList m_names;
    QString m_exporters; // the last round's exporters in a line
    QHash<QString, QUrl> m_exporterUrls; // by instance and job, as Prometheus' targets named them this round
    QDateTime m_evaluatedAt;
    quint64 m_round = 0; // the round whose answer is awaited (a cancelled one's answer is dropped)
    bool m_listing = false;
    bool m_awaitingSecret = false;
};
