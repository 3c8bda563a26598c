#pragma once

#include "console/klusterstore.h"
#include "core/klusterkey.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <functional>

class Connection;
class ConnectionRegistry;
class PacedWork;
class QTimer;
struct RefreshResult;

// What a round of refreshes came to, once nothing asked for is under way: counted from the store.
struct RefreshSummary
{
    int klusters = 0; // every kluster of every connection
    int failed = 0; // whose last refresh failed, or that could not be listed
    bool snapshots = false; // every connection is a snapshot (opened, not refreshed)
    bool cancelled = false; // the last result was a cancel
};

// Refreshes, without a widget: lists every connection's klusters as it is added and again on refresh, then
// refreshes each kluster listed; feeds the kluster store with what comes back; cancels; refreshes on an
// interval; and says when everything asked for is back and the views show it (settled). A cancel is no
// failure: the data stays as it was.
class RefreshCoordinator : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RefreshCoordinator)

public:
    RefreshCoordinator(ConnectionRegistry *registry, KlusterStore *store, QObject *parent = nullptr);

    void refreshAll(); // every live connection listed again, and each of its klusters refreshed
    void refresh(const KlusterKey &key); // one kluster again (after a repair): before any waiting its turn
    // The kluster a person looks at: refreshed first in each round, its nodes watched whatever the bound.
    void setShown(const KlusterKey &key);
    void cancelAll();
    int pending() const { return m_store->pending(); }

    void setAutoRefreshMinutes(int minutes); // 0: off
    void setAutoRefreshMilliseconds(int milliseconds); // the soak's pace; watching as far as notifications go
    int autoRefreshMinutes() const { return m_autoRefreshMinutes; }
    bool isWatching() const { return m_autoRefreshMinutes > 0; }
    // Snapshots have nothing to refresh: the interval only runs while a live connection is there.
    void connectionsChanged();

    // Whether the views are still being made from what came back (the view preparer's): settled waits for
    // them too.
    void setViewsBusy(std::function<bool()> busy) { m_viewsBusy = std::move(busy); }
    // Says settled() once nothing asked for is under way, if something was asked for since the last time.
    void settleIfIdle();
    bool isSettled() const { return pending() == 0 && !(m_viewsBusy && m_viewsBusy()); }

signals:
    void refreshStarted(); // a round of listings began
    void listed(
        const QString &connection); // a connection's klusters listed (or not), and their refreshes asked
    // A kluster's refresh came back and the store holds it; `before`: what it held (to tell what is new).
    void refreshed(const KlusterKey &key, const KlusterData &before, bool cancelled);
    // A live change of the nodes between refreshes, in the store.
    void nodesChanged(const KlusterKey &key, const KlusterData &before);
    void watchStatusChanged(const KlusterKey &key);
    // Every refresh asked for is back (not yet the views): the round's summary.
    void roundDone(const RefreshSummary &summary);
    void cancelled(const QList<KlusterKey> &keys); // refreshes cancelled since the round began
    // A refresh result, for the history (live connections only; `historyKey` names a failure's kluster).
    void recordable(const RefreshResult &result, const QString &historyKey);
    // Every refresh asked for has come back and the views show it.
    void settled();

private:
    void wire(Connection *connection);
    void onListed(Connection *connection, const QStringList &klusters, const Error &error);
    void onRefreshed(const RefreshResult &result);
    void onNodesChanged(const RefreshResult &result);
    RefreshSummary summary(bool cancelled) const;
    // A round's order: the kluster shown, then the worst (critical, then warning or failed), then the rest.
    void orderForRound(QStringList &klusters, const QString &connection) const;

    // How long the window's thread spends on reported results in one turn of its event loop.
    static constexpr int IncomingBudgetMs = 8;

    ConnectionRegistry *m_registry;
    KlusterStore *m_store;
    QTimer *m_timer;
    PacedWork *m_incoming; // what the connections reported, applied in order
    QHash<KlusterKey, int> m_awaited; // results of refreshes started, not applied yet
    int m_autoRefreshMinutes = 0;
    bool m_settleWanted = false;
    QList<KlusterKey> m_cancelled; // since the last round came back
    KlusterKey m_shown;
    std::function<bool()> m_viewsBusy;
};
