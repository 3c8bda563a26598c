#pragma once

#include "core/findinghistory.h"
#include "core/klusterstate.h"

#include <QDateTime>
#include <QHash>
#include <QSet>
#include <QString>
#include <optional>

// What the local history kept of one kluster that its next diagnosis judges with: the router's routes at the
// kept moments (route-recycled, diagnosis.md §6; only where the cloud has the ASR driver and its devices were
// not read), and since when each open finding has been seen (when Kubernikus' automation is due, §7), on this
// machine's clock.
struct KeptHistory
{
    std::optional<RouteHistory> routes; // on the cloud's clock already
    QHash<QString, QDateTime> findingsSince;
    // A kluster gone: when the history last saw it (invalid: never, or not gone).
    QDateTime lastSeen;

    // The first sightings of open findings.
    static QHash<QString, QDateTime> firstSeen(const QHash<QString, FindingHistory> &open);
    // What the default history file kept of the state's kluster, read-only (nothing where none is kept): the
    // routes only where route-recycled can be derived, shifted by `shiftMs` to the cloud's clock.
    static KeptHistory read(const KlusterState &state, qint64 shiftMs);
    // The state judged with it; `shiftMs` takes this machine's clock to the cloud's.
    void applyTo(KlusterState &state, qint64 shiftMs) const;
};

// Each kluster's kept history, for one connection's diagnoses: handed over by the history recorder after each
// record of the kluster, and until then read once from the history file (so that a session's first refresh
// judges with it too). Lives on the connection's worker thread.
class RouteHistories
{
public:
    // The recorder's.
    void set(const QString &kluster, const KeptHistory &history);
    // The state, about to be diagnosed, judged with its kluster's history.
    void apply(const QString &kluster, KlusterState &state);
    // The kluster is no longer listed: what was kept of it goes (read again should it come back).
    void forget(const QString &kluster)
    {
        m_kept.remove(kluster);
        m_read.remove(kluster);
    }

private:
    QHash<QString, KeptHistory> m_kept;
    QSet<QString> m_read; // klusters whose history was read from the file once
};
