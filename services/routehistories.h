#pragma once

#include "core/klusterstate.h"

#include <QHash>
#include <QSet>
#include <QString>
#include <optional>

// What the local history kept of each kluster's router's routes (route-recycled, diagnosis.md §6), for one
// connection's diagnoses: handed over by the history recorder after each record of the kluster, and until
// then read once from the history file (so that a session's first refresh judges with it too). Lives on the
// connection's worker thread.
class RouteHistories
{
public:
    // The recorder's (none: the kluster needs none, or no history is kept).
    void set(const QString &kluster, const std::optional<RouteHistory> &history);
    // The state, about to be diagnosed, judged with its kluster's history.
    void apply(const QString &kluster, KlusterState &state);

private:
    QHash<QString, RouteHistory> m_kept;
    QSet<QString> m_read; // klusters whose history was read from the file once
};
