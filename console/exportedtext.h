#pragma once

#include "console/consoletext.h"
#include "core/exportedfleet.h"
#include "core/klusterkey.h"

#include <QDateTime>
#include <QString>

struct ExportedReportEntry;

// What the console says of a kluster read through the team's Prometheus (a Prometheus connection): it holds
// the exporter's counts and worst cause, not the findings, so the header says where the data came from, how
// old it is, whether it is stale and why, and where the kluster can be read whole: a connection to its cloud
// that lists it (`live`), else the exporter's own report.
namespace ExportedText {

struct Facts
{
    KlusterKey key;
    const ExportedFleet::Kluster *kluster = nullptr;
    QString prometheus; // the connection's Prometheus, for people (no secret)
    KlusterKey live; // the same kluster in a connection to its cloud (null: none)
    QString alarmColor;
    QDateTime now;
    const ExportedReportEntry *report = nullptr; // its exporter's report as read so far (null: not asked)
};

QString header(const Facts &facts); // rich text
QString findings(const Facts &facts); // the Findings view's caption: why it has no rows
// Its exporter's report in the Findings view (rich text, read-only): where and when it was read, the
// incidents, each finding with its message, plan and runbook; or that it is being read, or why it could not
// be (the last one read kept below, marked stale). Empty when none was asked for.
QString report(const Facts &facts);
// The desktop notification a round calls for (as ConsoleText::notification for a cloud's): its exporter no
// longer scraped, or more critical causes than before (or a new critical worst cause). None the first time.
std::optional<ConsoleText::Notification> notification(
    const KlusterKey &key, const ExportedFleet::Kluster *before, const ExportedFleet::Kluster &after);

} // namespace ExportedText
