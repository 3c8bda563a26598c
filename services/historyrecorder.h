#pragma once

#include "core/incidentreport.h"
#include "core/statediff.h"
#include "services/connection.h"
#include "services/history/historystore.h"

#include <QObject>
#include <functional>
#include <memory>

class QTimer;

// Since when each open finding and incident of a kluster is open, as of one recorded refresh: what the
// Findings view's Since column and the repair dialog show.
struct FindingsSince
{
    KlusterKey key; // the console's kluster
    QString historyKey; // the history's key (HistoryStore::klusterKey)
    QDateTime at; // as of this refresh (this machine's clock)
    QHash<QString, FindingHistory> findings; // open findings by id
    QHash<QString, IncidentHistory> incidents; // open incidents by id ("<rule>:<key>")
    QHash<QString, Acknowledgement> acknowledged; // by finding: those not ended nor run out at `at`
    // The router's routes at the kept moments, on the cloud's clock (route-recycled: the next diagnosis of
    // the kluster judges with them); only where the cloud has the ASR driver and its devices were not read.
    std::optional<RouteHistory> routes;
};
Q_DECLARE_METATYPE(FindingsSince)

struct HistoryTrend
{
    KlusterKey key;
    QDateTime from;
    QDateTime to;
    QList<HistorySample> samples;
    QList<HistoryStore::Repair> repairs;
};
Q_DECLARE_METATYPE(HistoryTrend)

struct HistoryChanges
{
    KlusterKey key;
    QList<HistoryMoment> moments; // newest first
    qint64 before = 0; // the moments compared (0: none)
    qint64 after = 0;
    std::optional<StateDigest> beforeDigest;
    std::optional<StateDigest> afterDigest;
    QList<StateChange> changes;
    QList<ChangeCategory> notCompared;
    QList<FindingInterval> intervals; // findings opened or resolved between the two
    QList<IncidentInterval> incidentIntervals; // incidents opened or resolved between the two
    QString error;
};
Q_DECLARE_METATYPE(HistoryChanges)

// The console's side of the history store: lives on a thread of its own, so the window never waits for
// SQLite. Every refresh is recorded as it arrives; what the views ask for comes back in a signal.
class HistoryRecorder : public QObject
{
    Q_OBJECT

public:
    explicit HistoryRecorder(QString path = HistoryStore::defaultPath(), QObject *parent = nullptr);
    ~HistoryRecorder() override;

public slots:
    void open(int retentionDays, int maxMegabytes);
    // A refresh of a live kluster: its findings, numbers and state (a failure: its error). `key`: the
    // kluster's history key as its connection names it (a failure has no state to tell it).
    void record(const RefreshResult &result, const QString &historyKey);
    void loadTrend(const KlusterKey &key, const QDateTime &from, const QDateTime &to);
    // Someone is handling a finding of the kluster (a recorded live one), or no longer is: kept, and
    // findingsSince() sent again with it.
    void acknowledge(const KlusterKey &key, const Acknowledgement &acknowledgement);
    void unacknowledge(const KlusterKey &key, const QString &finding);
    // Two moments of the kluster compared: `before` 0 for the last healthy one before `after` (or the one
    // before it), `after` 0 for the newest.
    void loadChanges(const KlusterKey &key, qint64 before, qint64 after);

public:
    // On the recorder's thread (invoked there): the comparison loadChanges() sends, and what an incident
    // report adds from the history for `findings` (and for every incident the kluster's history keeps).
    HistoryChanges changes(const KlusterKey &console, qint64 before, qint64 after);
    IncidentReport::History reportHistory(const KlusterKey &console, const QStringList &findings);
    // This machine's clock as the history reads it (tests move it, as they move the simulated cloud's).
    void setClock(std::function<QDateTime()> clock);

signals:
    void findingsSince(const FindingsSince &since);
    void trendLoaded(const HistoryTrend &trend);
    void changesLoaded(const HistoryChanges &changes);
    // Something the engineer should know: the file was moved aside, or no history can be kept (and why).
    void problem(const QString &message);

private:
    bool ready();
    void report(const QString &message);
    void trimSoon();

    QString m_path;
    std::unique_ptr<HistoryStore> m_store;
    bool m_failed = false;
    QString m_lastProblem;
    QHash<KlusterKey, QString> m_keys; // the console's kluster -> its history key
    QHash<KlusterKey, QDateTime> m_lastAt; // the console's kluster -> its last recorded refresh
    QHash<KlusterKey, RouteHistory> m_routes; // the console's kluster -> FindingsSince::routes, where wanted
    void sendSince(const KlusterKey &key);
    std::function<QDateTime()> m_clock;
    QTimer *m_trim = nullptr; // the heap trimmed once a burst of records is over
    QDateTime onClock(const QDateTime &local) const; // an instant of this machine's clock, on m_clock
};
