// Each kluster's route history for a connection's diagnoses.

#include "services/routehistories.h"

#include "services/history/historystore.h"

void RouteHistories::set(const QString &kluster, const std::optional<RouteHistory> &history)
{
    if (history)
        m_kept.insert(kluster, *history);
    else
        m_kept.remove(kluster);
}

void RouteHistories::apply(const QString &kluster, KlusterState &state)
{
    // Only where route-recycled can be derived: a cloud with the ASR driver whose devices were not read.
    if (!m_kept.contains(kluster) && !m_read.contains(kluster) && state.hasExtension("asr1k_operations")
        && !state.routerDeviceSource.known) {
        m_read.insert(kluster);
        if (const std::optional<RouteHistory> kept = HistoryStore::readRouteHistory(
                HistoryStore::klusterKey(state.cloud, state.region, state.kluster.name))) {
            // The history keeps this machine's time; capturedAt is on the cloud's clock (within 5 s: the
            // same).
            const qint64 offset = QDateTime::currentDateTimeUtc().msecsTo(state.capturedAt);
            m_kept.insert(kluster, kept->shifted(qAbs(offset) > 5000 ? offset : 0));
        }
    }
    if (const auto h = m_kept.constFind(kluster); h != m_kept.cend())
        state.setRouteHistory(*h);
}
