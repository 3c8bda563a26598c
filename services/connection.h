#pragma once

#include "core/bootevidence.h"
#include "core/diagnosis.h"
#include "core/exporterreport.h"
#include "core/klusterkey.h"
#include "core/nodewatchevent.h"
#include "core/shard.h"
#include "services/local/cloudconfig.h"
#include "services/monitoring/alertmanagerclient.h"
#include "services/monitoring/prometheusclient.h"
#include "services/openstack/klusterfetcher.h"
#include "services/repair/repairexecutor.h"
#include "services/repair/repairsession.h"
#include "services/routehistories.h"

#include <QDateTime>
#include <QObject>
#include <QPointer>
#include <memory>
#include <optional>

class QThread;
class ConnectionWorker;
class PrometheusFleetReader;

// Where a connection's klusters come from and what may be done to them.
struct ConnectionSpec
{
    QString name; // shown in the sidebar; unique
    QString cloud; // a clouds.yaml cloud (or "envvars"); empty when `config` is given
    std::optional<CloudConfig> config; // an explicit cloud (the demo, one added in the console)
    QString snapshotPath; // a snapshot folder, or a folder of them: read-only, offline
    QString kubeContext; // nodes from this kubeconfig context instead of Kubernikus' credentials
    // The cloud's oslo.policy files, each "[SERVICE=]FILE" (services/local/policyfile.h): what its requests
    // are judged against before they are offered, with the defaults.
    QStringList policyFiles;
    bool readOnly = false; // hides every repair
    bool protectedRepairs = false; // every repair of its klusters asks for the kluster's name typed
    // Klusters refreshed at once, the rest wait their turn (0: no bound); unset: the console's setting
    // (refresh/concurrency, 8).
    std::optional<int> refreshConcurrency;
    bool watchNodes = true; // between refreshes, each kluster's nodes are watched and shown as they change
    DiagnosisOptions options;
    // The Alertmanager whose alerts are shown beside the klusters' findings (unset: none). Its secret is held
    // here in memory only; the settings keep where it is, the keychain the secret.
    AlertmanagerTarget alertmanager;
    // Only the klusters of this shard are listed (serve --shard): the others are never read, as if Kubernikus
    // did not have them (unset: all of them).
    std::optional<Shard> shard;

    // A fleet read from the team's Prometheus instead of a cloud (docs/monitoring.md): its klusters as the
    // exporters it scrapes give them, read-only. Its secret is held here in memory only.
    PrometheusTarget prometheus;

    bool isSnapshot() const { return !snapshotPath.isEmpty(); }
    bool isPrometheus() const { return prometheus.isSet(); }
};

// One refresh of one kluster: the state and bodies fetched, its diagnosis,
// and what failed. `fetch` is null when nothing could be read at all.
struct RefreshResult
{
    KlusterKey key; // the connection's name and the kluster's
    std::shared_ptr<const KlusterFetch> fetch;
    std::shared_ptr<const Diagnosis> diagnosis;
    QDateTime fetchedAt;
    // Without `fetch`, why the refresh failed (the last good data stays, marked stale); with it, the sources
    // that could not be read (the rest is fresh).
    QList<SourceError> errors;
    bool cancelled = false;
    qint64 elapsedMs = 0;
    // A Prometheus connection's kluster: what its exporter gave (no fetch, no diagnosis; `fetchedAt` when
    // the exporter read it).
    std::shared_ptr<const ExportedFleet::Kluster> exported;
};
Q_DECLARE_METATYPE(RefreshResult)

Q_DECLARE_METATYPE(NodeWatchStatus)

Q_DECLARE_METATYPE(RepairExecutor::Outcome)
Q_DECLARE_METATYPE(RepairEvent)
Q_DECLARE_METATYPE(ExporterReport::Read)

// A connection to one cloud (or snapshot) for the console. The network work,
// the parsing of large responses and the diagnosis run on a worker thread;
// this object lives on the GUI thread and only receives finished results
// through queued signals, so the window never waits for the network.
class Connection : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Connection)

public:
    // `thread`: the worker thread (shared by every connection), already running.
    Connection(const ConnectionSpec &spec, QThread *thread, QObject *parent = nullptr);
    ~Connection() override;

    const ConnectionSpec &spec() const { return m_spec; }
    QString name() const { return m_spec.name; }
    bool isReadOnly() const { return m_spec.readOnly || m_spec.isSnapshot() || m_spec.isPrometheus(); }

    void listKlusters();
    void cancelListing(); // said as a listing that failed Cancelled: no failure, the klusters known stay
    // `urgent` (one asked for by a person, or after a repair): before the klusters waiting their turn.
    void refresh(const QString &kluster, bool urgent = false);
    // A round's klusters, in their order: each as refresh() would; a Prometheus connection answers them all
    // from its last round in one go (no call per kluster across the threads).
    void refresh(const QStringList &klusters);
    void cancelRefresh(const QString &kluster);
    // The kluster a person looks at (empty: none of this connection's): its nodes are watched first.
    void setShown(const QString &kluster);
    // What the local history kept of the kluster (its router's routes, since when its findings are open), for
    // its next diagnoses.
    void setKeptHistory(const QString &kluster, const KeptHistory &history);
    bool isRefreshing(const QString &kluster) const { return m_refreshing.contains(kluster); }
    // Sends the plan the person confirmed (core/repairproposal.h), step by step, once the kluster read again
    // gives the same plan (else repairReplanned() and nothing is sent). Refused while read-only.
    void repair(const std::shared_ptr<const RepairProposal> &confirmed, bool override);
    void cancelRepair(); // stops before the next finding; a request in flight completes
    // Reads the kluster's repair Events (repairEventsRead() with them); none for a snapshot.
    void readRepairEvents(const QString &kluster);
    // Writes one repair Event to the kluster (a handed-over repair verified): repairEventWritten() says how;
    // nothing for a snapshot.
    void writeRepairEvent(const QString &kluster, const RepairEvent &event);
    // Reads a server's boot evidence (its console log's tail, its actions) from Nova: bootEvidenceRead() with
    // it; a snapshot holds none (said in it, each part not read).
    void readBootEvidence(const QString &kluster, const BootEvidences::Server &server);
    // A Prometheus connection's kluster: its exporter's report (read-only), exportedReportRead() with it or
    // with why not. Any other connection answers that it has none.
    void readExportedReport(const QString &kluster);
    // Who this console's repairs are written as in the klusters' Events: this host, process and connection.
    QString eventInstance() const { return m_eventInstance; }

signals:
    void klustersListed(const QStringList &klusters, const Error &error);
    // With a shard (ConnectionSpec::shard), before klustersListed: how many klusters the listing held in all,
    // `inShard` of them this shard's (those klustersListed gives).
    void shardListed(int inShard, int listed);
    void identityRead(const QString &summary); // "demo · member, reader · project flightdeck-demo"
    // Refreshes of `klusters` are under way (asked for, or asked for again while one ran), each until its
    // refreshed(): said once for what was asked at once (a round's ten thousand, one signal).
    void refreshesStarted(const QStringList &klusters);
    void refreshed(const RefreshResult &result);
    // The nodes' watch brought changes: the kluster's data with them applied, diagnosed again (the rest is
    // as the last refresh fetched it).
    void nodesChanged(const RefreshResult &result);
    void watchStatusChanged(const QString &kluster, const NodeWatchStatus &status);
    void repairProgress(const QString &findingId, const QString &message);
    void repairStepFinished(const QString &findingId, const RepairExecutor::Outcome &outcome);
    void repairFinished();
    void repairReplanned(const std::shared_ptr<const RepairProposal> &fresh, const QStringList &differences);
    void repairEventsRead(const QString &kluster, const QList<RepairEvent> &events, const Error &error);
    void repairEventWritten(const QString &kluster, const QString &outcome); // "RepairVerified written"
    void bootEvidenceRead(const QString &kluster, const BootEvidence &evidence);
    void exportedReportRead(const QString &kluster, const ExporterReport::Read &read);

private:
    void wireFleet(QThread *thread); // a Prometheus connection's reader, on the worker thread

    ConnectionSpec m_spec;
    ConnectionWorker *m_worker;
    PrometheusFleetReader *m_fleet = nullptr; // a Prometheus connection's: listing and refreshes go to it
    QSet<QString> m_refreshing;
    QSet<QString> m_again; // refresh once more when the one in flight is done
    QString m_eventInstance;
};
