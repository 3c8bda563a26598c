#include "services/watchedklusters.h"

#include "core/diagnosis.h"
#include "services/http/httpclient.h"
#include "services/kubernetes/watchbudget.h"

#include <QElapsedTimer>

namespace {

constexpr int WholeNodeListEvery = 10; // while watched, the nodes are listed again every this many refreshes
constexpr int RecentChangeSeconds = 15 * 60; // nodes that changed this lately stay watched

} // namespace

WatchedKlusters::WatchedKlusters(const ConnectionSpec &spec, TargetsFor targetsFor, QObject *parent)
    : QObject(parent)
    , m_spec(spec)
    , m_targetsFor(std::move(targetsFor))
{ }

WatchedKlusters::~WatchedKlusters()
{
    stopAll();
}

void WatchedKlusters::stopAll()
{
    WatchBudget::shared().give(int(m_watches.size()));
    qDeleteAll(m_watches);
    m_watches.clear();
    m_refreshesWatched.clear();
}

bool WatchedKlusters::wants(const QString &kluster, const Diagnosis *diagnosis) const
{
    if (kluster == m_shown)
        return true;
    const QDateTime changed = m_lastChange.value(kluster);
    if (changed.isValid() && changed.secsTo(QDateTime::currentDateTimeUtc()) < RecentChangeSeconds)
        return true;
    return diagnosis && diagnosis->worst() != Severity::Info; // in trouble
}

bool WatchedKlusters::coversNextRefresh(const QString &kluster)
{
    const NodeWatch *watch = m_watches.value(kluster);
    const bool covered = watch && watch->isConnected() && m_latest.contains(kluster)
        && ++m_refreshesWatched[kluster] % WholeNodeListEvery != 0;
    if (!covered)
        m_refreshesWatched.remove(kluster);
    return covered;
}

const RefreshResult *WatchedKlusters::latest(const QString &kluster) const
{
    const auto it = m_latest.constFind(kluster);
    return it == m_latest.cend() ? nullptr : &it.value();
}

QSet<QString> WatchedKlusters::klusters() const
{
    QSet<QString> all;
    for (auto it = m_latest.cbegin(); it != m_latest.cend(); ++it)
        all.insert(it.key());
    for (auto it = m_watches.cbegin(); it != m_watches.cend(); ++it)
        all.insert(it.key());
    return all;
}

void WatchedKlusters::forget(const QString &kluster)
{
    drop(kluster);
    m_latest.remove(kluster);
    m_lastChange.remove(kluster);
}

void WatchedKlusters::drop(const QString &kluster)
{
    if (NodeWatch *w = m_watches.take(kluster)) {
        w->stop();
        w->deleteLater();
        WatchBudget::shared().give();
    }
    m_refreshesWatched.remove(kluster);
}

void WatchedKlusters::setShown(const QString &kluster)
{
    m_shown = kluster;
    // Shown, its nodes are watched from now on (from what the last refresh listed), whatever the bound.
    if (!kluster.isEmpty() && !m_watches.contains(kluster) && m_latest.contains(kluster))
        follow(kluster, m_latest.value(kluster), true);
}

void WatchedKlusters::follow(const QString &kluster, const RefreshResult &result, bool listed)
{
    m_latest.insert(kluster, result);
    if (!m_spec.watchNodes)
        return;
    const std::shared_ptr<const KlusterFetch> &fetch = result.fetch;
    if (!wants(kluster, result.diagnosis.get())) {
        // Healthy and out of sight: its nodes are listed (cheaply, from the API server's cache) with each
        // refresh, and its watch's connection goes back to the fleet's bound.
        if (m_watches.contains(kluster)) {
            drop(kluster);
            emitStatus(kluster);
        }
        return;
    }
    NodeWatch *watch = m_watches.value(kluster);
    if (!listed && watch && watch->isRunning())
        return; // the watch goes on from where it is
    if (!fetch || !fetch->state.nodesSource.known || fetch->nodesResourceVersion.isEmpty()) {
        // Nothing to bring up to date: the next refresh that lists the nodes starts it again.
        if (watch)
            watch->stop();
        emitStatus(kluster);
        return;
    }
    if (!watch) {
        if (!m_client || !WatchBudget::shared().take(kluster == m_shown)) {
            emitStatus(kluster); // the bound is reached: listed with each refresh
            return;
        }
        watch = new NodeWatch(m_client, m_targetsFor(kluster), NodeWatchPolicy(), this);
        m_watches.insert(kluster, watch);
        connect(watch, &NodeWatch::changed, this,
            [this, kluster](const QList<NodeWatchEvent> &events, const QString &version) {
                apply(kluster, events, version);
            });
        connect(watch, &NodeWatch::relistNeeded, this, [this, kluster] {
            emitStatus(kluster);
            emit relistWanted(kluster);
        });
        connect(watch, &NodeWatch::stateChanged, this, [this, kluster] { emitStatus(kluster); });
    }
    watch->start(fetch->nodesResourceVersion); // from what this refresh listed
    emitStatus(kluster);
}

void WatchedKlusters::apply(
    const QString &kluster, const QList<NodeWatchEvent> &events, const QString &version)
{
    if (!m_latest.contains(kluster))
        return;
    RefreshResult result = m_latest.value(kluster); // the last refresh's, with the changes so far
    QElapsedTimer timer;
    timer.start();
    auto f = std::make_shared<KlusterFetch>(*result.fetch);
    if (applyNodeEvents(*f, events, version) == 0)
        return;
    // Ages are read against now: the nodes are as of now, the rest as of the last refresh.
    f->state.capturedAt = QDateTime::currentDateTimeUtc();
    if (const qint64 offset = m_client ? m_client->serverClockOffsetMs() : 0; qAbs(offset) > 5000)
        f->state.capturedAt
            = f->state.capturedAt.addSecs(qRound64(double(offset) / 1000)); // the cloud's clock, as a refresh
    result.diagnosis = std::make_shared<const Diagnosis>(Diagnosis::run(f->state, m_spec.options));
    result.fetch = f;
    result.elapsedMs = timer.elapsed();
    m_latest.insert(kluster, result);
    m_lastChange.insert(kluster, QDateTime::currentDateTimeUtc());
    emit nodesChanged(result);
    emitStatus(kluster);
}

void WatchedKlusters::emitStatus(const QString &kluster)
{
    NodeWatchStatus status;
    if (const NodeWatch *w = m_watches.value(kluster)) {
        status.watching = w->isRunning();
        status.connected = w->isRunning() && w->isConnected();
        status.lastHeard = w->lastHeard();
        if (w->isRunning() && !w->isConnected() && w->problem().isError())
            status.problem = w->problem().toString();
    }
    status.lastChange = m_lastChange.value(kluster);
    emit statusChanged(kluster, status);
}
