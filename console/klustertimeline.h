#pragma once

#include "core/kubernikusevent.h"
#include "core/repairevent.h"

#include <QDateTime>
#include <QList>
#include <QStringList>

struct KlusterState;

// The kluster's timeline as the Overview shows it: who repaired it lately (its repair Events, read by
// TeamRepairs) and what Kubernikus itself recorded (its events, read with each refresh), one line each,
// newest first; and why either could not be read. Pure: tested alone (tst_consoletext).
namespace KlusterTimeline {

constexpr int KubernikusHours = 24; // Kubernikus' events of the last day are shown
constexpr int Shown = 8; // lines at most; the rest counted

struct Lines
{
    QStringList lines;
    QStringList problems; // "Repairs by others not read: …", "Kubernikus' events not read: …"
};

// `repairs`: TeamRepairs::recent (newest first); `repairsError`: why they were not read (empty: they were);
// `state`: the kluster as last read (its Kubernikus events and whether they were read); may be null.
Lines lines(const QList<RepairEvent> &repairs, const QString &repairsError, const KlusterState *state,
    const QDateTime &now);

// One of Kubernikus' events: "Kubernikus, 4 min ago: Warning FailedRebootNode (3 times): Upgrading OS for
// node: …" (a Normal one without its type; its texts as OutsideText::line shows them).
QString describe(const KubernikusEvent &event, const QDateTime &now);

} // namespace KlusterTimeline
