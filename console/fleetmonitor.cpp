#include "console/fleetmonitor.h"

#include "console/connectionregistry.h"
#include "console/historyclient.h"
#include "console/klusterstore.h"
#include "console/refreshcoordinator.h"
#include "core/checkreport.h"
#include "services/settings.h"

#include <QSet>
#include <QTimer>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace {

constexpr int HistoryWaitMs = 5000; // the history's answers waited for after the first round, at most

} // namespace

FleetMonitor::FleetMonitor(QObject *parent)
    : QObject(parent)
    , m_store(new KlusterStore(this))
    , m_registry(new ConnectionRegistry(m_store, this))
    , m_refreshes(new RefreshCoordinator(m_registry, m_store, this))
{
    connect(m_refreshes, &RefreshCoordinator::refreshed, this,
        [this](const KlusterKey &key, const KlusterData &before, bool cancelled) {
            if (!m_store->klusters(key.connection).contains(key.kluster))
                m_store->forget(key); // no longer listed since this refresh was asked for
            else if (!cancelled)
                onRefreshed(key, before);
            m_store->takeRetired(); // no view shows the data replaced: it goes now
            maybeFirstRoundDone();
        });
    connect(m_refreshes, &RefreshCoordinator::nodesChanged, this, [this] { m_store->takeRetired(); });
    connect(m_refreshes, &RefreshCoordinator::listed, this, [this](const QString &connection) {
        // Said when it changes: a listing that failed, recovered, or brought another count.
        const Error error = m_store->listingError(connection);
        if (!error.isError() && !m_store->isListing(connection)) {
            // Klusters Kubernikus no longer lists (deleted; one that left volumes or load balancers behind is
            // still listed, gone) leave the exposition and this process now. A listing that failed or was
            // cancelled lets nothing go: the last data stays, stale.
            for (const QString &k : m_store->klusters(connection)) {
                if (m_store->isGone({ connection, k }))
                    m_store->forget({ connection, k });
            }
            m_store->takeRetired();
        }
        const auto sharded = m_shardListed.constFind(connection);
        const Connection *c = m_registry->connection(connection);
        const QString line = error.isError()
            ? QStringLiteral("cloud %1: klusters could not be listed: %2").arg(connection, error.toString())
            : sharded != m_shardListed.cend() && c && c->spec().shard
            ? QStringLiteral("cloud %1: %2 of the %3 klusters listed are shard %4's")
                  .arg(connection)
                  .arg(m_store->klusters(connection).size())
                  .arg(sharded->second)
                  .arg(c->spec().shard->toString())
            : QStringLiteral("cloud %1: %2 klusters listed")
                  .arg(connection)
                  .arg(m_store->klusters(connection).size());
        if (m_listingSaid.value(connection) != line)
            emit logged(line);
        m_listingSaid.insert(connection, line);
        maybeFirstRoundDone();
    });
    connect(m_refreshes, &RefreshCoordinator::roundDone, this, [this](const RefreshSummary &summary) {
#ifdef __GLIBC__
        // Hand the freed pages back, as the console does after its views are made: an exporter that runs for
        // months keeps its resident size flat instead of holding every round's peak in fragmented heaps.
        malloc_trim(0);
#endif
        // With a shard: how many of the klusters listed are this shard's (the others are never read).
        QString ofListing;
        int listed = 0;
        QSet<QString> shards;
        for (const Connection *c : m_registry->connections()) {
            if (const auto s = m_shardListed.constFind(c->name());
                s != m_shardListed.cend() && c->spec().shard) {
                listed += s->second;
                shards.insert(c->spec().shard->toString());
            }
        }
        if (!shards.isEmpty())
            ofListing = QStringLiteral(" (shard %1 of %2 listed)")
                            .arg(QStringList(shards.cbegin(), shards.cend()).join(QStringLiteral(", ")))
                            .arg(listed);
        emit logged(QStringLiteral("round done: %1 klusters%2, %3 could not be checked, in %4 s")
                        .arg(summary.klusters)
                        .arg(ofListing)
                        .arg(summary.failed)
                        .arg(double(m_roundTimer.elapsed()) / 1000.0, 0, 'f', 1));
    });
    connect(m_refreshes, &RefreshCoordinator::refreshStarted, this, [this] { m_roundTimer.restart(); });
}

FleetMonitor::~FleetMonitor()
{
    delete m_registry; // the connections first (their workers on the network thread), then that thread
    delete m_history; // the last record written whole
}

void FleetMonitor::add(const ConnectionSpec &spec)
{
    m_specs << spec;
}

void FleetMonitor::recordHistory()
{
    if (m_history)
        return;
    m_history = new HistoryClient(this);
    m_history->open(Settings::historyDays().value(), Settings::historyMegabytes().value());
    connect(m_history, &HistoryClient::problem, this,
        [this](const QString &message) { emit logged(QStringLiteral("history: %1").arg(message)); });
    connect(m_refreshes, &RefreshCoordinator::recordable, this,
        [this](const RefreshResult &result, const QString &historyKey) {
            // The recorder answers "since when" for what it could read (a failure has no findings); only the
            // first round waits for those answers.
            if (!m_firstRoundSaid && result.fetch && !result.cancelled)
                ++m_recordsAwaited;
            m_history->record(result, historyKey);
        });
    connect(m_history, &HistoryClient::findingsSinceChanged, this, [this] {
        m_recordsAwaited = qMax(0, m_recordsAwaited - 1);
        maybeFirstRoundDone();
    });
}

void FleetMonitor::start(int refreshMs)
{
    m_roundTimer.start();
    for (const ConnectionSpec &spec : std::as_const(m_specs)) {
        Connection *c = m_registry->add(spec, false);
        connect(c, &Connection::shardListed, this, [this, name = spec.name](int inShard, int listed) {
            m_shardListed.insert(name, { inShard, listed });
        });
    }
    if (refreshMs > 0)
        m_refreshes->setAutoRefreshMilliseconds(refreshMs);
}

bool FleetMonitor::everyKlusterReadOnce() const
{
    // Each connection listed (or failed to), each kluster it listed refreshed once (or failed to): a round
    // that overlaps the next (a refresh interval shorter than a round) still ends the first one.
    for (const Connection *c : m_registry->connections()) {
        if (!m_listingSaid.contains(c->name()))
            return false;
        for (const QString &k : m_store->klusters(c->name())) {
            if (!m_store->data({ c->name(), k }))
                return false;
        }
    }
    return true;
}

void FleetMonitor::maybeFirstRoundDone()
{
    if (m_firstRoundSaid || !everyKlusterReadOnce())
        return;
    if (m_history && m_recordsAwaited > 0) {
        // The history's answers (since when each finding is open) follow the records; not for ever.
        if (!m_historyWaitArmed) {
            m_historyWaitArmed = true;
            QTimer::singleShot(HistoryWaitMs, this, [this] {
                m_recordsAwaited = 0;
                maybeFirstRoundDone();
            });
        }
        return;
    }
    m_firstRoundSaid = true;
    emit firstRoundDone();
}

void FleetMonitor::onRefreshed(const KlusterKey &key, const KlusterData &before)
{
    const KlusterData *after = m_store->data(key);
    if (!after)
        return;
    if (after->isStale()) {
        ++m_refreshesFailed;
        if (!before.isStale())
            emit logged(QStringLiteral("kluster %1: could not be checked: %2")
                            .arg(key.toString(), SourceError::joined(after->error)));
    } else {
        ++m_refreshesOk;
        if (before.isStale())
            emit logged(QStringLiteral("kluster %1: checked again").arg(key.toString()));
        else if (!after->incomplete.isEmpty() && before.incomplete.isEmpty())
            emit logged(QStringLiteral("kluster %1: checked in part: %2")
                            .arg(key.toString(), SourceError::joined(after->incomplete)));
    }
}

QList<FleetMonitor::Entry> FleetMonitor::entries() const
{
    QList<Entry> out;
    // Two clouds that reach one project (two users of it) list the same klusters: each once, as the first
    // connection has it (one series per kluster_name and project_id).
    QSet<std::pair<QString, QString>> seen;
    for (const Connection *c : m_registry->connections()) {
        const QString cloudProject = c->spec().config ? c->spec().config->projectId : QString();
        for (const QString &k : m_store->klusters(c->name())) {
            const KlusterKey key { c->name(), k };
            if (m_store->isGone(key))
                continue;
            Entry e;
            e.key = key;
            e.data = m_store->data(key);
            e.projectId = cloudProject;
            if (!e.data || !e.data->fetch) {
                e.problem = e.data && e.data->isStale() ? SourceError::joined(e.data->error)
                                                        : QStringLiteral("not checked yet");
            } else {
                const KlusterState &state = e.data->fetch->state;
                if (!state.kluster.projectId.isEmpty())
                    e.projectId = state.kluster.projectId;
                // As `check` has it: every required source read (an optional one, the ports or the
                // extensions, only narrows what is diagnosed); stale data is no check.
                e.up = !e.data->isStale() && CheckReport::readEverySource(state);
                if (e.data->isStale())
                    e.problem = SourceError::joined(e.data->error);
                else if (!e.up)
                    e.problem = SourceError::joined(e.data->incomplete);
                if (e.up && e.data->diagnosis)
                    e.status = CheckReport::exitStatus(*e.data->diagnosis);
            }
            if (seen.contains({ e.projectId, k }))
                continue;
            seen.insert({ e.projectId, k });
            out << e;
        }
    }
    return out;
}

QList<std::pair<QString, QString>> FleetMonitor::listingFailures() const
{
    QList<std::pair<QString, QString>> out;
    for (const Connection *c : m_registry->connections()) {
        const Error error = m_store->listingError(c->name());
        if (error.isError())
            out.append({ c->name(), error.toString() });
    }
    return out;
}

RankedKluster FleetMonitor::ranked(const Entry &entry)
{
    RankedKluster k;
    k.key = entry.key;
    const KlusterData *d = entry.data;
    if (!d || !d->fetch)
        k.reading = d && d->isStale() ? Reading::Unreadable : Reading::NotRead;
    else if (d->isStale())
        k.reading = Reading::Stale;
    else if (!entry.up || !d->incomplete.isEmpty())
        k.reading = Reading::Incomplete;
    else
        k.reading = Reading::Fresh;
    if (d && d->fetch && d->diagnosis)
        k.standing = KlusterStanding::of(*d->diagnosis);
    return k;
}

QList<FleetMonitor::Entry> FleetMonitor::rankedEntries() const
{
    QList<Entry> out = entries();
    QList<std::pair<RankedKluster, qsizetype>> order;
    order.reserve(out.size());
    for (qsizetype i = 0; i < out.size(); ++i)
        order.append({ ranked(out.at(i)), i });
    std::stable_sort(order.begin(), order.end(),
        [](const auto &a, const auto &b) { return KlusterRanking::before(a.first, b.first); });
    QList<Entry> sorted;
    sorted.reserve(out.size());
    for (const auto &o : std::as_const(order))
        sorted << out.at(o.second);
    return sorted;
}

QByteArray FleetMonitor::metrics(PrometheusText::Options options) const
{
    for (const Connection *c : m_registry->connections()) {
        if (m_listingSaid.contains(c->name())) // listed (or not) once
            options.cloudsListed.append({ c->name(), !m_store->listingError(c->name()).isError() });
    }
    QList<PrometheusText::Kluster> klusters;
    for (const Entry &e : rankedEntries()) {
        PrometheusText::Kluster k;
        k.name = e.key.kluster;
        k.projectId = e.projectId;
        k.up = e.up;
        if (e.data) {
            if (e.data->fetch) {
                k.state = &e.data->fetch->state;
                k.diagnosis = e.data->diagnosis.get();
                k.readAt = e.data->fetchedAt;
            }
            k.checkSeconds = double(e.data->elapsedMs) / 1000.0;
        }
        if (const Connection *c = m_registry->connection(e.key.connection))
            k.options = c->spec().options;
        if (m_history && k.diagnosis) {
            if (const FindingsSince *since = m_history->findingsSince(e.key)) {
                for (const Finding &f : k.diagnosis->findings) {
                    if (f.severity == Severity::Info)
                        continue;
                    const auto h = since->findings.constFind(f.id());
                    if (h != since->findings.cend() && h->firstSeen.isValid()
                        && (!k.oldestOpenSince || h->firstSeen < *k.oldestOpenSince))
                        k.oldestOpenSince = h->firstSeen;
                }
            }
        }
        klusters << k;
    }
    return PrometheusText::write(klusters, options);
}

std::optional<QByteArray> FleetMonitor::report(const QString &kluster, const QString &projectId) const
{
    for (const Entry &e : entries()) {
        if (e.key.kluster != kluster || (!projectId.isEmpty() && e.projectId != projectId))
            continue;
        if (!e.data || !e.data->fetch || !e.data->diagnosis)
            return std::nullopt;
        return CheckReport::toJson(e.data->fetch->state, *e.data->diagnosis);
    }
    return std::nullopt;
}

int FleetMonitor::worstStatus() const
{
    int worst = 0;
    for (const Entry &e : entries())
        worst = CheckReport::graverStatus(worst, e.status);
    if (!listingFailures().isEmpty())
        worst = CheckReport::graverStatus(worst, 3);
    return worst;
}
