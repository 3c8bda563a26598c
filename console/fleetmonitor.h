#pragma once

#include "core/klusterkey.h"
#include "core/klusterstanding.h"
#include "core/prometheustext.h"
#include "services/connection.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <optional>

class ConnectionRegistry;
class HistoryClient;
class KlusterStore;
class RefreshCoordinator;
struct KlusterData;

// The fleet without a window, for `check --all` and `serve`: every kluster of the connections given, listed
// and refreshed with the console's own machinery (the project's shared lists fetched once, refreshes bounded
// per connection and endpoint, node watches within their budget, the history if asked), and what is kept
// read back as the monitoring wants it: metrics, one kluster's report, an exit status. Reading never waits on
// the cloud.
class FleetMonitor : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FleetMonitor)

public:
    explicit FleetMonitor(QObject *parent = nullptr);
    ~FleetMonitor() override;

    // Before start(): a connection to watch (its name is its cloud's).
    void add(const ConnectionSpec &spec);
    // Keeps the local history (since when each finding is open: the oldest open finding's start).
    void recordHistory();
    // Lists and refreshes every kluster; again every `refreshMs` when above 0.
    void start(int refreshMs);

    // One kluster as it stands: checked (fully, in part, or not), its data, its status as `check` gives it.
    struct Entry
    {
        KlusterKey key;
        const KlusterData *data = nullptr; // null: never read
        QString projectId;
        bool up = false;
        int status = 3; // check's exit status: 0, 1, 2, or 3 (could not be checked)
        QString problem; // why it is not up
    };
    QList<Entry> entries() const; // by connection, then kluster, as listed; gone klusters left out
    // The same in the one ranking (KlusterRanking): the order of `check --all`, its JSON and the exposition.
    QList<Entry> rankedEntries() const;
    // An entry as the ranking sees it: stale when its last refresh failed, incomplete when a source is
    // missing, unreadable when nothing was ever read.
    static RankedKluster ranked(const Entry &entry);
    // Listings that failed, by connection (a cloud whose klusters could not be listed at all).
    QList<std::pair<QString, QString>> listingFailures() const;

    QByteArray metrics(PrometheusText::Options options) const; // the clouds' listings added
    // The JSON report of `check` for the kluster so named (the connection's, when several have one).
    std::optional<QByteArray> report(const QString &kluster, const QString &projectId = QString()) const;
    // The worst kluster's status (CheckReport::graverStatus: 2, then 3, then 1, then 0). A connection whose
    // listing failed counts as 3.
    int worstStatus() const;

    qint64 refreshesOk() const { return m_refreshesOk; }
    qint64 refreshesFailed() const { return m_refreshesFailed; }
    bool hasCompletedRound() const { return m_firstRoundSaid; }

signals:
    // Every kluster listed and refreshed once (and, when recording, its history written).
    void firstRoundDone();
    // One line per event worth a log: a listing, a kluster that failed or recovered, a round done.
    void logged(const QString &line);

private:
    void onRefreshed(const KlusterKey &key, const KlusterData &before);
    void maybeFirstRoundDone();
    bool everyKlusterReadOnce() const;

    KlusterStore *m_store;
    ConnectionRegistry *m_registry;
    RefreshCoordinator *m_refreshes;
    HistoryClient *m_history = nullptr;
    QList<ConnectionSpec> m_specs;
    QHash<QString, QString> m_listingSaid; // the last line said of each connection's listing
    QHash<QString, std::pair<int, int>> m_shardListed; // with a shard: its klusters, and all those listed
    qint64 m_refreshesOk = 0;
    qint64 m_refreshesFailed = 0;
    bool m_firstRoundSaid = false;
    bool m_historyWaitArmed = false;
    int m_recordsAwaited = 0; // records sent whose "since when" has not come back
    QElapsedTimer m_roundTimer;
};
