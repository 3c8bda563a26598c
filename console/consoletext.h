#pragma once

#include "console/klusterstore.h"
#include "console/refreshcoordinator.h"
#include "core/alerts.h"
#include "core/error.h"
#include "core/finding.h"
#include "core/klusterkey.h"
#include "services/repair/repairexecutor.h"

#include <QDateTime>
#include <QString>
#include <QStringList>
#include <functional>
#include <optional>

struct ConnectionSpec;
struct RemediationBudget;
struct ExportedReportEntry;

// What the console says, made without a widget from what it knows: the banner, the captions over the views,
// the desktop notification of a change, the status line after a round of refreshes. Pure functions of their
// arguments (now included), tested alone (tst_consoletext).
namespace ConsoleText {

QString clock(const QDateTime &t); // "2026-11-26 13:05:00 UTC"
QString clock(const QDateTime &t, const QDateTime &now); // "13:05:00 UTC" on now's day, else with the date
QString ago(const QDateTime &t, const QDateTime &now); // "42 s ago", "2 h 10 min ago"
QString shortError(const QString &error); // its first line, at most 180 characters
// Which sources could not be read ("the servers, nodes"), for one short line.
QString failedSources(const QList<SourceError> &errors);

// The banner over the views: one line per connection with what failed in it (the details behind a button,
// Retry when trying again may help), else a notice that stays until dismissed, else the first-run message.
struct Banner
{
    enum class Kind
    {
        None,
        Failures, // an error: offer Connections… when a listing failed (`listingFailed`)
        Notice, // a warning (a secret kept for this session only): offer Connections…
        Startup, // the first run: offer Add connection… (and the demo cloud)
    };
    Kind kind = Kind::None;
    QString text;
    QString details;
    bool retry = false;
    bool listingFailed = false;
};
// `connections`: the connections' names in their order; `live`: whether any can be fetched again (Retry is
// offered only then).
Banner banner(const QStringList &connections, const KlusterStore &store, const QString &notice,
    const QString &startupMessage, bool live);

// The texts over the views of the kluster shown: the header (rich text: where, and how old or why stale), and
// each table's caption.
struct Captions
{
    QString header;
    QString findings;
    QString nodes;
    QString routes;
    QString security;
    // A Prometheus connection's kluster: its exporter's report, read-only (HTML for the Findings view; empty
    // for any other kluster).
    QString exportedReport;
};
struct CaptionFacts
{
    KlusterKey key;
    const KlusterData *data = nullptr;
    QString connection; // the connection's name, empty when it is gone
    bool snapshot = false;
    bool readOnly = false;
    Error listingError; // the connection's, for its own row
    int routes = 0; // the Routes view's counts
    int foreignRoutes = 0;
    int routeLimit = 0;
    QString securitySummary; // the Security view's groups in words
    QString alarmColor; // the palette's colour for alarms ("#c62828")
    QDateTime now;
    QString prometheus; // a Prometheus connection's URL (its klusters are what the exporters gave)
    KlusterKey live; // the kluster shown, in a connection to its cloud (null: none, or it is that one)
    const ExportedReportEntry *exportedReport = nullptr; // a Prometheus kluster's report, as read so far
};
Captions captions(const CaptionFacts &facts);
// An error's first line, at most 60 characters: what a one-line heading says when the whole message is
// shown elsewhere.
QString gist(const QString &error);

// The desktop notification a refresh calls for, comparing what was known before with what is known now: the
// kluster became unreachable, or critical findings appeared (or became critical, or changed from what someone
// acknowledged). None for anything else, nor for what `acknowledged` says someone is handling. One per cause:
// new findings of one new incident (diagnosis.md §5) are told as that incident, once (its title; `finding` is
// the incident's id); a new finding of an incident known before is not told again.
struct Notification
{
    QString title;
    QString body;
    QString finding; // the first new finding or incident, to open on a click (empty: the kluster)
    Severity severity = Severity::Critical;
};
std::optional<Notification> notification(const KlusterKey &key, const KlusterData &before,
    const KlusterData &after, const std::function<bool(const Finding &)> &acknowledged = {});

// The status line once a round of refreshes is back: how many klusters, how many could not be read.
QString roundDone(const RefreshSummary &summary, const QDateTime &now);
// A kluster's heading while its views are made, and the window's title.
QString windowTitle(const KlusterKey &key, bool forceReadOnly);

// The Overview's alerts (docs/alertmanager.md): a heading with the count and the alerts no finding explains,
// one row per alert (severity, name, summary, since when, what it explains or that nothing does), the
// critical findings no alert covers, and why the alerts could not be read, if so. Empty without an
// Alertmanager.
struct AlertsText
{
    QString heading;
    struct Row
    {
        QString severity; // the alert's severity label, "critical", "warning", … (empty: none)
        QString text; // one line
        bool unexplained = false;
        bool silenced = false;
        QString fingerprint; // the alert's, for a silence of it alone
    };
    QList<Row> rows; // the worst first, at most ShownAlerts
    QString more; // "… and 37 more, less grave" (empty: none)
    QString gap; // "2 critical findings no alert covers: …" (empty: none)
    QString problem; // the Alertmanager could not be read: why, and as of when the rows are
};
// The alerts shown beside a kluster's findings: the worst ShownAlerts, each line of outside text made safe
// to show (OutsideText::line), the rest counted.
constexpr int ShownAlerts = 10;
AlertsText alertsText(
    const KlusterAlerts &alerts, const Diagnosis &diagnosis, const QDateTime &readAt, const QDateTime &now);

// The Overview's words for a kluster: its title (the worst cause first, the counts as causes), the caption
// of incomplete data, and the summary's lines (rich text; outside text escaped): what is wrong by kind, the
// remediation budget, what was not diagnosed, the notes.
struct OverviewText
{
    QString title; // "demo: pod-network rule missing · 8 critical · 4 warning", "demo: healthy"
    QString caption; // "INCOMPLETE: …" (empty: every source read)
    QStringList lines;
};
// `incomplete`: what could not be read (empty: everything was): the counts are then lower bounds.
OverviewText overviewText(const QString &kluster, const Diagnosis &diagnosis, const QString &incomplete);
// The remediation budget of a kluster in a sentence (rich text).
QString budgetLine(const RemediationBudget &budget);

// One finding's outcome of a repair, as the repair dialog lists it (plain text; outside text as it came):
// "✔ <id>: fixed (verified). <message>", then each request sent with its answer.
QString repairOutcomeLine(const QString &findingId, const RepairExecutor::Outcome &outcome);
// How a repair ended, for the dialog: its worst (none: every finding fixed), its status (rich text), the
// window's title and the heading.
struct RepairEnd
{
    std::optional<Severity> severity;
    QString status;
    QString windowTitle;
    QString heading;
};
RepairEnd repairEnd(const QString &kluster, int fixed, int total, bool anySent);

} // namespace ConsoleText
