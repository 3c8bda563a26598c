#pragma once

#include "services/connection.h"
#include "services/kubernetes/nodewatch.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QSet>
#include <functional>

class HttpClient;
struct Diagnosis;

// A connection's node watches, on its worker thread: which klusters deserve one (the one shown, those in
// trouble, those whose nodes changed in the last 15 minutes) within the process's bound (WatchBudget), each
// started from the version a refresh listed, and the changes they bring applied to the kluster's last result,
// diagnosed again. The rest are listed with their refreshes.
class WatchedKlusters : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WatchedKlusters)

public:
    // How a kluster's watch reaches its API (what its refresh listed the nodes with, or fresh credentials).
    using TargetsFor = std::function<NodeWatch::Targets(const QString &kluster)>;

    WatchedKlusters(const ConnectionSpec &spec, TargetsFor targetsFor, QObject *parent = nullptr);
    ~WatchedKlusters() override; // every place given back to the bound

    void setClient(HttpClient *client) { m_client = client; } // the connection's, once it has one
    // How the watched klusters are diagnosed from now on (the connection's options changed).
    void setOptions(const DiagnosisOptions &options) { m_spec.options = options; }
    void stopAll(); // before the client their streams use goes
    // The kluster a person looks at: watched from what its last refresh listed, whatever the bound.
    void setShown(const QString &kluster);
    bool isShown(const QString &kluster) const { return !kluster.isEmpty() && kluster == m_shown; }
    // Whether the kluster's nodes deserve a watch: shown, in trouble, or changed lately.
    bool wants(const QString &kluster, const Diagnosis *diagnosis) const;
    // Whether the refresh about to start can take the nodes from the watch: connected, and not every tenth
    // refresh since the nodes were listed (a safety net, as for the servers). Counts the refresh.
    bool coversNextRefresh(const QString &kluster);
    // A refresh's result, kept as what the watch's changes apply to; the nodes watched from the version it
    // listed (`listed`; else the watch goes on from where it is), or the watch stopped when they could not be
    // listed or the kluster no longer deserves one.
    void follow(const QString &kluster, const RefreshResult &result, bool listed);
    // The last refresh's result with the changes since (null: none yet).
    const RefreshResult *latest(const QString &kluster) const;

    // The klusters a watch or a refresh's data is kept of.
    QSet<QString> klusters() const;
    // Lets the kluster go (no longer listed): its watch stopped, the data it applied to dropped.
    void forget(const QString &kluster);

signals:
    void nodesChanged(const RefreshResult &result);
    void statusChanged(const QString &kluster, const NodeWatchStatus &status);
    void relistWanted(const QString &kluster); // a watch cannot go on: refresh the kluster

private:
    void drop(const QString &kluster);
    void apply(const QString &kluster, const QList<NodeWatchEvent> &events, const QString &version);
    void emitStatus(const QString &kluster);

    ConnectionSpec m_spec;
    TargetsFor m_targetsFor;
    HttpClient *m_client = nullptr;
    QString m_shown;
    QHash<QString, NodeWatch *> m_watches;
    QHash<QString, RefreshResult> m_latest;
    QHash<QString, QDateTime> m_lastChange;
    QHash<QString, int> m_refreshesWatched; // refreshes since the nodes were last listed, while watched
};
