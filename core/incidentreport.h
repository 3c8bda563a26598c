#pragma once

#include "core/diagnosis.h"
#include "core/klusterstate.h"
#include "core/statediff.h"

#include <QByteArray>
#include <QMap>

// Reports for an incident ticket: a self-contained HTML page (verdict,
// budget, the incidents of diagnosis.md §5 first, each with its members, its
// repair and its timeline, then the findings in none; every finding with its
// message, evidence and planned repair) and the findings as CSV (RFC 4180).
// The JSON report is CheckReport::toJson.
namespace IncidentReport {

// What the local history adds to a report: each finding's and incident's timeline (its intervals, oldest
// first) and what changed since the last good state.
struct History
{
    struct Interval
    {
        QDateTime firstSeen;
        QDateTime resolvedAt; // invalid: still open
        bool beforeHistory = false;
    };
    QMap<QString, QList<Interval>> timelines; // by finding id
    QMap<QString, QList<Interval>> incidentTimelines; // by incident id ("<rule>:<key>")
    QDateTime asOf; // the history's now (its times are this machine's; capturedAt may be the cloud's)
    bool hasChanges = false;
    QDateTime changesFrom; // the state compared with (the last healthy one, or the one before)
    QDateTime changesTo;
    bool fromHealthy = false;
    QList<StateChange> changes;
};

QByteArray toHtml(const KlusterState &state, const Diagnosis &diagnosis, const History *history = nullptr);
QByteArray findingsCsv(const Diagnosis &diagnosis);
QByteArray csvField(const QString &value); // quoted when it must be
} // namespace IncidentReport
