#include "console/refreshcoordinator.h"

#include "console/connectionregistry.h"
#include "console/pacedwork.h"
#include "services/connection.h"
#include "services/history/historystore.h"

#include <QTimer>
#include <algorithm>

RefreshCoordinator::RefreshCoordinator(ConnectionRegistry *registry, KlusterStore *store, QObject *parent)
    : QObject(parent)
    , m_registry(registry)
    , m_store(store)
    , m_timer(new QTimer(this))
    , m_incoming(new PacedWork(IncomingBudgetMs, this))
{
    connect(m_timer, &QTimer::timeout, this, &RefreshCoordinator::refreshAll);
    connect(registry, &ConnectionRegistry::added, this, &RefreshCoordinator::wire);
    connect(registry, &ConnectionRegistry::removed, this, [this](const QString &name) {
        m_incoming->drop(name);
        m_awaited.removeIf([&name](const auto &awaited) { return awaited.key().connection == name; });
    });
    connect(registry, &ConnectionRegistry::changed, this, &RefreshCoordinator::connectionsChanged);
}

void RefreshCoordinator::wire(Connection *connection)
{
    const QString name = connection->name();
    m_store->setListing(name);
    if (m_shown.connection == name)
        connection->setShown(m_shown.kluster);
    // What the connection reports is applied in the order it came, a few milliseconds of it per turn of the
    // window's event loop (a round's thousand results never hold the window at once). A refresh asked for
    // here (a person's, a repair's) keeps its place after the results still waiting.
    connect(connection, &Connection::klustersListed, this,
        [this, name](const QStringList &klusters, const Error &error) {
            m_incoming->post(name, [this, name, klusters, error] {
                if (Connection *c = m_registry->connection(name))
                    onListed(c, klusters, error);
            });
        });
    // Under way at once (the round is not settled while its results wait their turn), counted: a refresh
    // asked for again may start before the last one's result, still waiting, is applied.
    connect(connection, &Connection::refreshesStarted, this, [this, name](const QStringList &klusters) {
        m_awaited.reserve(m_awaited.size() + klusters.size());
        for (const QString &k : klusters) {
            const KlusterKey key { name, k };
            ++m_awaited[key];
            m_store->setRefreshing(key, true);
        }
    });
    connect(connection, &Connection::refreshed, this, [this, name](const RefreshResult &result) {
        m_incoming->post(name, [this, result] { onRefreshed(result); });
    });
    connect(connection, &Connection::nodesChanged, this, [this, name](const RefreshResult &result) {
        m_incoming->post(name, [this, result] { onNodesChanged(result); });
    });
    connect(connection, &Connection::watchStatusChanged, this,
        [this, name](const QString &k, const NodeWatchStatus &status) {
            m_incoming->post(name, [this, key = KlusterKey { name, k }, status] {
                if (!m_registry->connection(key.connection))
                    return;
                m_store->setWatchStatus(key, status);
                emit watchStatusChanged(key);
            });
        });
    connection->listKlusters();
}

void RefreshCoordinator::onListed(Connection *connection, const QStringList &klusters, const Error &error)
{
    const QString name = connection->name();
    if (error.kind == Error::Kind::Cancelled) {
        // No failure: the klusters known stay as they are, not refreshed.
        m_store->setListingCancelled(name);
        emit listed(name);
        m_registry->noteStatusChanged();
        m_settleWanted = true;
        settleIfIdle();
        return;
    }
    // Klusters that are gone stay known, said to be gone.
    m_store->setListed(name, klusters, error);
    QStringList toRefresh = klusters;
    if (error.isError()) // the list failed: the klusters known so far are still tried, each on its own
        toRefresh << m_store->klusters(name);
    // A Prometheus round's names are its own, each once (ExportedFleet::displayNames), answered all at once:
    // nothing to take out, no order to keep.
    if (error.isError() || !connection->spec().isPrometheus()) {
        toRefresh.removeDuplicates();
        orderForRound(toRefresh, name);
    }
    connection->refresh(toRefresh);
    emit listed(name);
    m_registry->noteStatusChanged();
    m_settleWanted = true;
    settleIfIdle();
}

void RefreshCoordinator::refreshAll()
{
    // Listing first: klusters made since appear, gone ones are marked; every listed kluster is then
    // refreshed.
    bool any = false;
    for (Connection *c : m_registry->connections()) {
        if (c->spec().isSnapshot() || m_store->isListing(c->name()))
            continue;
        any = true;
        m_store->setListing(c->name());
        c->listKlusters();
    }
    if (any)
        emit refreshStarted();
}

void RefreshCoordinator::refresh(const KlusterKey &key)
{
    if (Connection *c = m_registry->connection(key.connection))
        c->refresh(key.kluster, true);
}

void RefreshCoordinator::setShown(const KlusterKey &key)
{
    const KlusterKey before = std::exchange(m_shown, key);
    if (before.connection != key.connection) {
        if (Connection *c = m_registry->connection(before.connection))
            c->setShown(QString());
    }
    if (Connection *c = m_registry->connection(key.connection))
        c->setShown(key.kluster);
}

void RefreshCoordinator::orderForRound(QStringList &klusters, const QString &connection) const
{
    // Lower first; the order listed (by name) among equals.
    const auto urgency = [this, &connection](const QString &k) {
        const KlusterKey key { connection, k };
        if (key == m_shown)
            return 0;
        const KlusterData *d = m_store->data(key);
        if (!d)
            return 3;
        const Severity worst = d->diagnosis ? d->diagnosis->worst() : Severity::Info; // Info: none
        if (worst == Severity::Critical)
            return 1;
        if (d->isStale() || worst == Severity::Warning)
            return 2;
        return 3;
    };
    QList<QPair<int, QString>> ranked;
    ranked.reserve(klusters.size());
    for (const QString &k : std::as_const(klusters))
        ranked.append({ urgency(k), k });
    std::stable_sort(ranked.begin(), ranked.end(),
        [](const QPair<int, QString> &a, const QPair<int, QString> &b) { return a.first < b.first; });
    for (int i = 0; i < ranked.size(); ++i)
        klusters[i] = ranked.at(i).second;
}

void RefreshCoordinator::cancelAll()
{
    for (Connection *c : m_registry->connections()) {
        if (m_store->isListing(c->name()))
            c->cancelListing();
        for (const QString &k : m_store->klusters(c->name()))
            c->cancelRefresh(k);
    }
}

void RefreshCoordinator::onRefreshed(const RefreshResult &result)
{
    const KlusterKey &key = result.key;
    Connection *connection = m_registry->connection(key.connection);
    if (!connection)
        return; // removed meanwhile
    if (const auto awaited = m_awaited.find(key); awaited != m_awaited.end() && --awaited.value() > 0)
        m_store->setRefreshing(key, true); // another is under way
    else {
        m_awaited.remove(key);
        m_store->setRefreshing(key, false);
    }
    if (const ConnectionSpec &spec = connection->spec(); !spec.isSnapshot() && !spec.isPrometheus()) {
        // A failure has no state to name its cloud and region: the connection's own, when it holds them.
        emit recordable(result,
            spec.config ? HistoryStore::klusterKey(spec.config->name, spec.config->regionName, key.kluster)
                        : QString());
    }
    const KlusterData before = m_store->data(key) ? *m_store->data(key) : KlusterData();
    if (result.cancelled) {
        // A cancel is no failure: the data stays what it was, and says its age.
        if (!m_cancelled.contains(key))
            m_cancelled << key;
        emit cancelled(m_cancelled);
    } else if (result.exported) {
        // A Prometheus connection's: what the exporter gave, as it gave it.
        m_store->setExported(key, result.exported, result.fetchedAt);
    } else if (result.fetch) {
        // A source that failed: the rest is fresh.
        m_store->setFetched(
            key, result.fetch, result.diagnosis, result.fetchedAt, result.elapsedMs, result.errors);
    } else {
        m_store->setFailed(key, result.errors, QDateTime::currentDateTimeUtc());
    }
    emit refreshed(key, before, result.cancelled);
    m_registry->noteStatusChanged();
    if (pending() == 0) {
        m_cancelled.clear();
        emit roundDone(summary(result.cancelled));
        m_settleWanted = true;
        settleIfIdle();
    }
}

void RefreshCoordinator::onNodesChanged(const RefreshResult &result)
{
    // A node changed between refreshes (its watch): in place, as a refresh would bring it.
    const KlusterKey &key = result.key;
    if (!m_registry->connection(key.connection) || !m_store->data(key))
        return;
    const KlusterData before = *m_store->data(key);
    m_store->setNodesChanged(key, result.fetch, result.diagnosis);
    emit nodesChanged(key, before);
}

RefreshSummary RefreshCoordinator::summary(bool cancelled) const
{
    const KlusterStore::Counts counts = m_store->counts();
    RefreshSummary s;
    s.klusters = counts.klusters;
    s.failed = counts.failed;
    s.cancelled = cancelled;
    const QList<Connection *> connections = m_registry->connections();
    s.snapshots = std::all_of(
        connections.cbegin(), connections.cend(), [](const Connection *c) { return c->spec().isSnapshot(); });
    return s;
}

void RefreshCoordinator::settleIfIdle()
{
    if (m_settleWanted && isSettled()) {
        m_settleWanted = false;
        emit settled();
    }
}

void RefreshCoordinator::setAutoRefreshMinutes(int minutes)
{
    m_autoRefreshMinutes = qMax(0, minutes);
    m_timer->stop();
    connectionsChanged();
}

void RefreshCoordinator::setAutoRefreshMilliseconds(int milliseconds)
{
    m_autoRefreshMinutes = 1; // watching, as far as notifications are concerned
    m_timer->start(qMax(100, milliseconds));
}

void RefreshCoordinator::connectionsChanged()
{
    // Snapshots are what they are: nothing to refresh.
    if (!m_registry->anyLive() && !m_registry->isEmpty())
        m_timer->stop();
    else if (m_autoRefreshMinutes > 0 && !m_timer->isActive())
        m_timer->start(m_autoRefreshMinutes * 60 * 1000);
}
