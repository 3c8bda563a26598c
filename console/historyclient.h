#pragma once

#include "core/klusterkey.h"
#include "services/historyrecorder.h"

#include <QHash>
#include <QObject>
#include <functional>

class QThread;

// The console's side of the local history, without a widget: the recorder on a thread of its own (the window
// never waits for SQLite), every refresh recorded as it comes, and what the views ask for (since when each
// finding is open, the trends, two moments compared, a report's timelines) asked there and handed back in
// signals. Keeps, by kluster, the last "since when" it was told.
class HistoryClient : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryClient)

public:
    explicit HistoryClient(QObject *parent = nullptr);
    ~HistoryClient() override; // the last record written whole

    void open(int retentionDays, int maxMegabytes);
    void record(const RefreshResult &result, const QString &historyKey);
    // The trends of the last `hours`, up to now or to the last record when it is later.
    void loadTrend(const KlusterKey &key, int hours);
    // Two moments compared (0: the defaults, the last healthy state and the newest).
    void loadChanges(const KlusterKey &key, qint64 before, qint64 after);
    // What an incident report adds from the history for `findings`, given to `done` on `context`'s thread.
    void reportHistory(const KlusterKey &key, const QStringList &findings, QObject *context,
        const std::function<void(const IncidentReport::History &)> &done);

    // Someone is handling a finding of the kluster, or no longer is (written on the recorder's thread;
    // findingsSinceChanged() follows).
    void acknowledge(const KlusterKey &key, const Acknowledgement &acknowledgement);
    void unacknowledge(const KlusterKey &key, const QString &finding);
    // The finding's acknowledgement that holds at `now` (null: none, run out, or the finding changed).
    const Acknowledgement *acknowledgement(
        const KlusterKey &key, const Finding &finding, const QDateTime &now) const;
    // Acknowledgements can be kept for the kluster: the history has recorded a refresh of it.
    bool canAcknowledge(const KlusterKey &key) const { return findingsSince(key) != nullptr; }

    // Since when each open finding of the kluster is open, as of its last recorded refresh (null: none yet).
    const FindingsSince *findingsSince(const KlusterKey &key) const;
    // The recorder, on its own thread (tests move its clock).
    HistoryRecorder *recorder() const { return m_recorder; }

signals:
    void findingsSinceChanged(const KlusterKey &key);
    void trendLoaded(const HistoryTrend &trend);
    void changesLoaded(const HistoryChanges &changes);
    void problem(const QString &message); // the file moved aside, or no history kept, and why

private:
    QThread *m_thread;
    HistoryRecorder *m_recorder;
    QHash<KlusterKey, FindingsSince> m_since;
};
