#pragma once

#include "core/acknowledgement.h"
#include "core/alerts.h"
#include "core/findinghistory.h"
#include "core/klusterkey.h"
#include "core/repairevent.h"

#include <QDateTime>
#include <QHash>
#include <QString>

struct KlusterData;

// "Copy as Markdown": a kluster or one of its incidents handed over to whoever takes it next, in the shape a
// ticket or a chat thread takes: its incidents (the causes), what is wrong and since when and who
// acknowledged it, the alerts, what was repaired and by whom, and what is left. Made from what the console
// holds; nothing is fetched for it.
namespace Handoff {

struct Facts
{
    KlusterKey key;
    QString link; // flightdeck://… of the kluster (or the incident)
    const KlusterData *data = nullptr;
    KlusterAlerts alerts;
    QList<RepairEvent> repairs; // the kluster's lately, newest first (TeamRepairs::recent)
    QHash<QString, FindingHistory> since; // by finding id
    QHash<QString, Acknowledgement> acknowledged; // by finding id: who is on it (those that still hold)
    QString incident; // one incident's hand-off; empty: the kluster's
    QDateTime now;
};

QString markdown(const Facts &facts);

} // namespace Handoff
