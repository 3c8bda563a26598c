// Each kluster's kept history for a connection's diagnoses.

#include "services/routehistories.h"

#include "services/history/historystore.h"

QHash<QString, QDateTime> KeptHistory::firstSeen(const QHash<QString, FindingHistory> &open)
{
    QHash<QString, QDateTime> since;
    since.reserve(open.size());
    for (auto it = open.cbegin(); it != open.cend(); ++it)
        since.insert(it.key(), it->firstSeen);
    return since;
}

KeptHistory KeptHistory::read(const KlusterState &state, qint64 shiftMs)
{
    const QString key = HistoryStore::klusterKey(state.cloud, state.region, state.kluster.name);
    KeptHistory read;
    read.findingsSince = HistoryStore::readFindingsSince(key);
    if (state.kluster.gone)
        read.lastSeen = HistoryStore::readLastSeen(key, state.kluster.name);
    // The routes only where route-recycled can be derived: a cloud with the ASR driver whose devices were not
    // read.
    if (state.hasExtension("asr1k_operations") && !state.routerDeviceSource.known) {
        if (const std::optional<RouteHistory> kept = HistoryStore::readRouteHistory(key))
            read.routes = kept->shifted(shiftMs);
    }
    return read;
}

void KeptHistory::applyTo(KlusterState &state, qint64 shiftMs) const
{
    if (routes)
        state.setRouteHistory(*routes);
    if (state.kluster.gone && lastSeen.isValid())
        state.kluster.lastSeen = lastSeen.addMSecs(shiftMs);
    state.findingsSince.clear();
    state.findingsSince.reserve(findingsSince.size());
    for (auto it = findingsSince.cbegin(); it != findingsSince.cend(); ++it)
        state.findingsSince.insert(it.key(), it->addMSecs(shiftMs));
}

void RouteHistories::set(const QString &kluster, const KeptHistory &history)
{
    KeptHistory kept = history;
    if (!kept.lastSeen.isValid()) // read once from the file: the recorder does not say it
        kept.lastSeen = m_kept.value(kluster).lastSeen;
    m_kept.insert(kluster, kept);
}

void RouteHistories::apply(const QString &kluster, KlusterState &state)
{
    // The history keeps this machine's time; capturedAt is on the cloud's clock (within 5 s: the same).
    const qint64 offset = QDateTime::currentDateTimeUtc().msecsTo(state.capturedAt);
    const qint64 shift = qAbs(offset) > 5000 ? offset : 0;
    if (!m_kept.contains(kluster) && !m_read.contains(kluster)) {
        m_read.insert(kluster);
        m_kept.insert(kluster, KeptHistory::read(state, shift));
    }
    if (const auto h = m_kept.constFind(kluster); h != m_kept.cend())
        h->applyTo(state, shift);
}
