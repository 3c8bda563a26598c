#include "console/consoletext.h"

#include "console/exportedtext.h"
#include "core/apiparser.h"
#include "core/diagnosis.h"
#include "core/diagnosiscontext.h"
#include "core/klusterphase.h"
#include "core/klusterstanding.h"
#include "core/knowledge.h"
#include "core/permission.h"
#include "core/printable.h"
#include "core/repairproposal.h"

#include <QCoreApplication>
#include <QMap>
#include <algorithm>

namespace ConsoleText {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("ConsoleText", text);
}

QString tr(const char *text, const char *disambiguation, int n)
{
    return QCoreApplication::translate("ConsoleText", text, disambiguation, n);
}

} // namespace

QString clock(const QDateTime &t)
{
    return t.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"));
}

QString clock(const QDateTime &t, const QDateTime &now)
{
    return t.toUTC().date() == now.toUTC().date() ? t.toUTC().toString(QStringLiteral("HH:mm:ss 'UTC'"))
                                                  : clock(t);
}

QString ago(const QDateTime &t, const QDateTime &now)
{
    const qint64 s = qMax<qint64>(0, t.secsTo(now));
    return s < 60 ? tr("%1 s ago").arg(s) : tr("%1 ago").arg(formatDuration(s));
}

QString shortError(const QString &error)
{
    QString line = error.section(QLatin1Char('\n'), 0, 0);
    if (line.size() > 180)
        line = line.left(177) + QStringLiteral("…");
    return line;
}

QString failedSources(const QList<SourceError> &errors)
{
    QStringList named;
    for (const SourceError &e : errors) {
        if (e.source && !named.contains(Sources::name(*e.source)))
            named << Sources::name(*e.source);
    }
    return named.isEmpty() ? tr("a source") : tr("the %1").arg(named.join(QStringLiteral(", ")));
}

Banner banner(const QStringList &connections, const KlusterStore &store, const QString &notice,
    const QString &startupMessage, bool live)
{
    // One line per connection, whatever failed in it; the whole story behind Details; Retry when it may help.
    QStringList lines, details;
    bool retry = false;
    for (const QString &name : connections) {
        QStringList problems;
        QString first;
        if (const Error e = store.listingError(name); e.isError()) {
            problems << tr("its klusters could not be listed");
            first = e.toString();
            retry = retry || e.retryCanHelp();
            details << tr("%1: listing the klusters failed: %2").arg(name, first);
        }
        QStringList stale, incomplete;
        for (const QString &k : store.klusters(name)) {
            const KlusterData *d = store.data({ name, k });
            if (!d)
                continue;
            if (d->isStale()) {
                const QString error = SourceError::joined(d->error);
                stale << k;
                if (first.isEmpty())
                    first = error;
                retry = retry || SourceError::retryCanHelp(d->error);
                details << tr("%1/%2: refresh failed at %3: %4").arg(name, k, clock(d->errorAt), error)
                        + (d->fetch ? tr(" (showing the data fetched at %1, stale)").arg(clock(d->fetchedAt))
                                    : QString());
            } else if (!d->incomplete.isEmpty()) {
                const QString error = SourceError::joined(d->incomplete);
                incomplete << k;
                if (first.isEmpty())
                    first = error;
                retry = retry || SourceError::retryCanHelp(d->incomplete);
                details << tr("%1/%2: incomplete: %3").arg(name, k, error);
            }
        }
        if (!stale.isEmpty())
            problems << tr("%1 could not be refreshed (older data shown, stale)")
                            .arg(stale.join(QStringLiteral(", ")));
        if (!incomplete.isEmpty())
            problems
                << tr("%1 incomplete (counts are lower bounds)").arg(incomplete.join(QStringLiteral(", ")));
        if (problems.isEmpty())
            continue;
        lines << tr("%1: %2 — %3").arg(name, problems.join(QStringLiteral("; ")), shortError(first));
    }
    Banner b;
    if (!lines.isEmpty()) {
        b.kind = Banner::Kind::Failures;
        b.text = lines.join(QLatin1Char('\n'));
        b.details = details.join(QLatin1Char('\n'));
        b.retry = retry && live; // snapshots are never fetched again
        b.listingFailed = store.hasListingErrors();
    } else if (!notice.isEmpty()) {
        b.kind = Banner::Kind::Notice;
        b.text = notice;
    } else if (!startupMessage.isEmpty() && connections.isEmpty()) {
        b.kind = Banner::Kind::Startup;
        b.text = startupMessage;
    }
    return b;
}

QString gist(const QString &error)
{
    QString first = error.section(QLatin1Char('\n'), 0, 0).simplified();
    if (first.size() > 60)
        first = first.left(59) + QChar(0x2026);
    return first;
}

Captions captions(const CaptionFacts &f)
{
    Captions c;
    const KlusterData *d = f.data;
    if (d && d->exported) { // read through Prometheus: what the exporter gave
        const ExportedText::Facts e { f.key, d->exported.get(), f.prometheus, f.live, f.alarmColor, f.now,
            f.exportedReport };
        c.header = ExportedText::header(e);
        c.findings = ExportedText::findings(e);
        c.exportedReport = ExportedText::report(e);
        return c;
    }
    if (!d || !d->fetch) {
        if (f.key.isNull())
            return c;
        if (f.key.kluster.isEmpty()) // a connection's own row
            // The banner above has the whole message: here, only its gist (one line that is never cut).
            c.header = tr("<b>Connection %1</b>: its klusters could not be listed<br><b style=\"color:%2\">%3"
                          "</b> (the message above says what to do)")
                           .arg(OutsideText::html(f.key.connection), f.alarmColor,
                               OutsideText::html(gist(f.listingError.toString())));
        else
            c.header = d && d->isStale()
                ? tr("<b>%1</b><br>Could not be read: %2")
                      .arg(OutsideText::html(f.key.toString()),
                          OutsideText::html(shortError(SourceError::joined(d->error))))
                : tr("<b>%1</b><br>No data yet.").arg(OutsideText::html(f.key.toString()));
        return c;
    }
    QString when = f.snapshot ? tr("Snapshot captured %1 (%2), opened offline, read-only")
                                    .arg(clock(d->fetchedAt), ago(d->fetchedAt, f.now))
                              : tr("Fetched %1 (%2) in %3 ms, %4 requests")
                                    .arg(clock(d->fetchedAt, f.now), ago(d->fetchedAt, f.now))
                                    .arg(d->elapsedMs)
                                    .arg(d->fetch->requests);
    // Two clocks, said as two: ages, the Since column, the trends and the repair dialog read the cloud's
    // instant (its Date header); "fetched" and "ago" read this machine's. Named when they disagree.
    const QDateTime cloudAt = d->fetch->state.capturedAt;
    if (!f.snapshot && cloudAt.isValid() && d->fetchedAt.isValid()
        && qAbs(d->fetchedAt.secsTo(cloudAt)) >= 60) {
        const qint64 skew = d->fetchedAt.secsTo(cloudAt);
        when
            += tr(" · the cloud's clock read %1, %2 %3 this machine's: ages and times of findings are on the "
                  "cloud's clock")
                   .arg(clock(cloudAt), formatDuration(qAbs(skew)), skew > 0 ? tr("ahead of") : tr("behind"));
    }
    // The nodes, between refreshes: live from their watch, or why not.
    const NodeWatchStatus &watch = d->watch;
    if (!f.snapshot && watch.watching && !d->isStale()) {
        if (watch.connected)
            when += tr(" · nodes live (watch; last heard %1)").arg(clock(watch.lastHeard, f.now));
        else if (!watch.problem.isEmpty())
            when += tr(" · node watch reconnecting (nodes as of %1): %2")
                        .arg(watch.lastHeard.isValid() ? clock(watch.lastHeard) : clock(d->fetchedAt),
                            shortError(watch.problem));
    }
    if (!f.snapshot && d->fetch->nodesListedAt.isValid() && !d->isStale())
        when += tr(" · nodes as listed %1 (%2; a healthy kluster's are listed every 10 min, and at once when "
                   "its instances change)")
                    .arg(clock(d->fetch->nodesListedAt, f.now), ago(d->fetch->nodesListedAt, f.now));
    QString alarm;
    const QString shortWhen
        = (f.snapshot ? tr("captured %1 (%2)") : tr("fetched %1 (%2)"))
              .arg(d->fetchedAt.toUTC().toString(QStringLiteral("HH:mm:ss 'UTC'")), ago(d->fetchedAt, f.now));
    if (d->isStale())
        alarm = tr("STALE: the last refresh failed at %1; this is older data,")
                    .arg(d->errorAt.toUTC().toString(QStringLiteral("HH:mm:ss 'UTC'")));
    else if (!d->incomplete.isEmpty())
        alarm = tr("INCOMPLETE: %1 could not be read; counts are lower bounds.")
                    .arg(failedSources(d->incomplete));
    const KlusterState &s = d->fetch->state;
    // The router as read; when it could not be read, the id the kluster names.
    const QString routerId = s.router.id.isEmpty() ? s.kluster.routerId : s.router.id;
    const QString router = s.router.name.isEmpty()
        ? (routerId.isEmpty() ? tr("(unknown)") : routerId.left(8) + QStringLiteral("…"))
        : tr("%1 (%2)").arg(s.router.name, routerId.left(8) + QStringLiteral("…"));
    QString where = tr("Kluster %1 · cloud %2 · router %3").arg(s.kluster.name, f.connection, router);
    // Who reads it, with which roles (diagnosis.md §8): what the repairs offered are judged for.
    if (s.credentials)
        where += tr(" · as %1").arg(s.credentials->identity.summary());
    c.header = QStringLiteral("<b>%1</b>%4<br>%2%3")
                   .arg(OutsideText::html(where),
                       alarm.isEmpty()
                           ? OutsideText::html(when)
                           : QStringLiteral("<b style=\"color:%1\">%2</b> %3")
                                 .arg(f.alarmColor, OutsideText::html(alarm), OutsideText::html(shortWhen)),
                       QString(), f.readOnly ? tr(" · <i>read-only: repairs hidden</i>") : QString());
    const QString state = d->isStale() ? tr("STALE — ")
        : !d->incomplete.isEmpty()     ? tr("INCOMPLETE — ")
                                       : QString();
    const QString caption = state
        + (f.snapshot ? tr("Captured %1") : tr("Fetched %1")).arg(clock(d->fetchedAt))
        + (!f.snapshot && watch.connected && !d->isStale() ? tr(", nodes live") : QString());
    const QString atLeast = d->incomplete.isEmpty() ? QString() : QStringLiteral("≥ ");
    // The findings themselves, then what they come to as causes (the list's and the Fleet's counts).
    const KlusterStanding standing = KlusterStanding::of(*d->diagnosis);
    const int critical = d->diagnosis->count(Severity::Critical);
    const int warning = d->diagnosis->count(Severity::Warning);
    c.findings
        = tr("%1 · %2%3 findings (%4 critical, %5 warning)%6")
              .arg(caption, atLeast)
              .arg(critical + warning)
              .arg(critical)
              .arg(warning)
              .arg(standing.incidents > 0 ? tr(" · as causes: %1").arg(standing.text(!atLeast.isEmpty()))
                                          : QString());
    c.nodes = tr("%1 · instances and nodes joined by name; marked rows have a finding").arg(caption);
    const Knowledge known(s);
    for (const Source source : { Source::Servers, Source::Nodes }) {
        if (!known.known(source))
            c.nodes += QStringLiteral(" · ") + known.unknown(source);
    }
    if (!known.routes()) {
        c.routes = tr("%1 · router %2: %3 — no route is shown, and none is called missing")
                       .arg(caption, router, known.unknown(Source::Router));
    } else {
        c.routes = tr("%1 · router %2: %3 of %4 routes used (%5 other klusters' or operators') · grouped by "
                      "destination; the first route of a destination wins")
                       .arg(caption, router)
                       .arg(f.routes)
                       .arg(f.routeLimit > 0 ? QString::number(f.routeLimit) : tr("?"))
                       .arg(f.foreignRoutes);
        if (!known.routeRoles())
            c.routes += tr(" · roles and owners %1").arg(known.unknown(known.firstUnknownOfRoutes()));
        // Beside Neutron's routes, the router's devices where the ASR driver's view was read (or why not).
        const RouterDevices &devices = d->diagnosis->routerDevices;
        if (known.known(Source::RouterDevice)) {
            QStringList pair;
            for (const RouterDevice &device : devices.devices)
                pair << tr("%1 %2").arg(device.host, deviceRoleName(device.role));
            c.routes += pair.isEmpty()
                ? tr(" · the router's devices hold what Neutron does")
                : tr(" · beside Neutron, what each device holds and in which order (%1)")
                      .arg(pair.join(QStringLiteral(", ")));
            if (!devices.notes.isEmpty())
                c.routes += QStringLiteral(" · ") + devices.notes.join(QStringLiteral("; "));
        } else if (!s.routerDeviceSource.error.isEmpty()) {
            c.routes += tr(" · the router's devices: %1").arg(s.routerDeviceSource.error);
        }
    }
    c.security = tr("%1 · %2").arg(caption, f.securitySummary);
    return c;
}

std::optional<Notification> notification(const KlusterKey &key, const KlusterData &before,
    const KlusterData &after, const std::function<bool(const Finding &)> &acknowledged)
{
    if (!before.fetch && before.error.isEmpty())
        return std::nullopt; // nothing to compare with
    if (after.isStale() && !before.isStale())
        return Notification { tr("Kluster %1 is unreachable").arg(key.toString()),
            shortError(SourceError::joined(after.error)), QString(), Severity::Critical };
    if (!after.diagnosis || after.isStale())
        return std::nullopt;
    QStringList fresh;
    for (const Finding &f : after.diagnosis->findings) {
        if (f.severity != Severity::Critical || (acknowledged && acknowledged(f)))
            continue; // someone is handling it
        // New, newly critical, or no longer what someone acknowledged (it changed: it is news again).
        const Finding *old = before.diagnosis ? before.diagnosis->find(f.id()) : nullptr;
        if (!old || old->severity != Severity::Critical || (acknowledged && acknowledged(*old)))
            fresh << f.id();
    }
    // One notification per cause (diagnosis.md §5): the new findings of one new incident are that incident,
    // told once; a finding of an incident known before was told with it.
    QList<const Incident *> incidents; // new incidents, in the order of their first new finding
    QStringList lone;
    for (const QString &id : std::as_const(fresh)) {
        const Incident *incident = after.diagnosis->incidentOf(id);
        if (!incident) {
            lone << id;
            continue;
        }
        const bool known = before.diagnosis
            && std::any_of(before.diagnosis->incidents.cbegin(), before.diagnosis->incidents.cend(),
                [incident](const Incident &i) { return i.id() == incident->id(); });
        if (!known && !incidents.contains(incident))
            incidents << incident;
    }
    if (incidents.isEmpty() && lone.isEmpty())
        return std::nullopt;
    Notification n;
    if (!incidents.isEmpty()) {
        const Incident *first = incidents.first();
        n.title = incidents.size() == 1 && lone.isEmpty()
            ? tr("%1: new incident").arg(key.toString())
            : tr("%1: %2 new incident(s), %3 other new critical finding(s)")
                  .arg(key.toString())
                  .arg(incidents.size())
                  .arg(lone.size());
        n.body
            = first->title + QStringLiteral("\n") + tr("%1 findings, one cause").arg(first->members.size());
        if (incidents.size() + lone.size() > 1)
            n.body += tr("\n…and %1 more").arg(incidents.size() + lone.size() - 1);
        n.finding = first->id(); // a click shows the incident (flat: its findings)
        n.severity = first->severity;
        return n;
    }
    const Finding *first = after.diagnosis->find(lone.first());
    n.title = lone.size() == 1 ? tr("%1: new critical finding").arg(key.toString())
                               : tr("%1: %2 new critical findings").arg(key.toString()).arg(lone.size());
    n.body = lone.first() + QStringLiteral("\n") + shortError(first->message());
    if (lone.size() > 1)
        n.body += tr("\n…and %1 more").arg(lone.size() - 1);
    n.finding = lone.first();
    return n;
}

QString roundDone(const RefreshSummary &s, const QDateTime &now)
{
    if (s.snapshots)
        return tr("Opened %1 snapshot(s), offline").arg(s.klusters);
    if (s.cancelled)
        return QString();
    return s.failed == 0
        ? tr("Refreshed %1 kluster(s) at %2").arg(s.klusters).arg(clock(now))
        : tr("Refreshed at %1: %2 of %3 kluster(s) could not be read (marked in the sidebar)")
              .arg(clock(now))
              .arg(s.failed)
              .arg(s.klusters);
}

QString windowTitle(const KlusterKey &key, bool forceReadOnly)
{
    return (key.isNull() ? tr("Flightdeck") : tr("%1 — Flightdeck").arg(key.toString()))
        + (forceReadOnly ? tr(" (read-only)") : QString());
}

AlertsText alertsText(
    const KlusterAlerts &alerts, const Diagnosis &diagnosis, const QDateTime &readAt, const QDateTime &now)
{
    AlertsText out;
    if (!alerts.configured)
        return out;
    if (!alerts.known) {
        out.heading = tr("Alerts");
        out.problem = tr("Not read: %1").arg(shortError(alerts.error));
        return out;
    }
    const int unexplained = Alerts::unexplainedCount(alerts.alerts);
    const int count = int(alerts.alerts.size() + alerts.omitted);
    out.heading = alerts.alerts.isEmpty() ? tr("Alerts: none firing in Alertmanager")
        : unexplained > 0                 ? tr("Alerts: %n in Alertmanager", nullptr, count)
            + tr(", %n that no finding explains", nullptr, unexplained)
                          : tr("Alerts: %n in Alertmanager, each explained by a finding", nullptr, count);
    QList<Alert> worst = alerts.alerts;
    std::stable_sort(worst.begin(), worst.end(), Alerts::worstFirst);
    if (const qsizetype more = qMax<qsizetype>(0, worst.size() - ShownAlerts) + alerts.omitted; more > 0)
        out.more = tr(
            "… and %n more, less grave (flightdeck-cli check --format json lists them)", nullptr, int(more));
    worst = worst.mid(0, ShownAlerts);
    for (const Alert &a : std::as_const(worst)) {
        AlertsText::Row row;
        row.severity = OutsideText::line(a.severity(), 20);
        row.silenced = a.silenced();
        row.fingerprint = a.fingerprint;
        row.unexplained = a.findings.isEmpty();
        QString explains;
        if (a.findings.isEmpty())
            explains = tr("no finding explains it: the cause is outside what Flightdeck reads");
        else if (a.findings.size() <= 2)
            explains = tr("explained by %1").arg(a.findings.join(QStringLiteral(", ")));
        else
            explains = tr("explained by %1 and %n more", nullptr, int(a.findings.size() - 1))
                           .arg(a.findings.first());
        // The summary, when there is one beside the name (a bare alert's summary is its name).
        const QString named = a.summary() == a.name()
            ? OutsideText::line(a.name(), 120)
            : OutsideText::line(a.name(), 120) + QStringLiteral(" — ") + OutsideText::line(a.summary(), 240);
        row.text = QStringLiteral("%1 · %2%3 · %4")
                       .arg(named, tr("started %1").arg(ago(a.startsAt, now)),
                           a.silenced() ? tr(" · silenced") : QString(), explains);
        out.rows.append(row);
    }
    const QStringList uncovered = Alerts::uncoveredCriticalFindings(alerts.alerts, diagnosis);
    if (!uncovered.isEmpty())
        out.gap = tr("%n critical finding(s) no alert covers (a gap in the monitoring): ", nullptr,
                      int(uncovered.size()))
            + (uncovered.size() <= 3
                    ? uncovered.join(QStringLiteral(", "))
                    : uncovered.mid(0, 3).join(QStringLiteral(", ")) + QStringLiteral(", …"));
    if (!alerts.error.isEmpty())
        out.problem
            = tr("The last read failed (%1); these are the alerts of %2.")
                  .arg(shortError(alerts.error), readAt.isValid() ? ago(readAt, now) : tr("an earlier read"));
    return out;
}

// The kluster's lifecycle where it is not plainly Running (diagnosis.md §7), in a sentence (rich text).
static QString phaseLine(const Diagnosis &d)
{
    switch (KlusterPhases::parse(d.phase)) {
    case KlusterPhase::None:
    case KlusterPhase::Running:
        return QString();
    case KlusterPhase::Terminating:
        return tr(
            "Phase: <b>Terminating</b>%1. Kubernikus is tearing it down: one finding stands for it, and "
            "nothing of it is repaired.")
            .arg(d.terminatingSeconds < 0 ? QString()
                                          : tr(" for %1").arg(formatDuration(d.terminatingSeconds)));
    case KlusterPhase::Pending:
    case KlusterPhase::Creating:
        return tr(
            "Phase: <b>%1</b>. Nodes not created yet are not counted as unhealthy; Kubernikus' flight and "
            "routegc act once it is Running.")
            .arg(d.phase.toHtmlEscaped());
    case KlusterPhase::Upgrading:
        return tr("Phase: <b>Upgrading</b>. Kubernikus' flight and routegc wait until it is Running again.");
    case KlusterPhase::Gone:
        return tr("<b>Gone</b>: Kubernikus no longer has this kluster%1. What it left behind in the project "
                  "(volumes, load balancers) is shown, and nothing else of it.")
            .arg(d.lastSeen.isValid() ? tr(" (last seen %1)").arg(ApiParser::formatTimestamp(d.lastSeen))
                                      : tr(" (this desktop's history has not seen it)"));
    case KlusterPhase::Unknown:
        break;
    }
    return tr("Phase: <b>%1</b>, which Flightdeck does not know: diagnosed as Running.")
        .arg(OutsideText::html(d.phase, 60));
}

// What Kubernikus' automation is due to repair, and where it is overdue (diagnosis.md §7), in a sentence.
static QString automationLine(const Diagnosis &d)
{
    struct Due
    {
        int pending = 0;
        int overdue = 0;
        QDateTime next;
    };
    QMap<QString, Due> byActor;
    QDateTime reference;
    for (const Finding &f : d.findings) {
        const std::optional<Automation> a = f.automation();
        if (!a)
            continue;
        reference = f.context->state.capturedAt;
        Due &due = byActor[Actors::name(a->actor)];
        if (a->overdue) {
            ++due.overdue;
        } else {
            ++due.pending;
            if (!due.next.isValid() || a->due < due.next)
                due.next = a->due;
        }
    }
    QStringList parts;
    for (auto it = byActor.cbegin(); it != byActor.cend(); ++it) {
        QStringList said;
        if (it->pending > 0)
            said << tr("due on %n finding(s), the next %1", nullptr, it->pending)
                        .arg(reference.secsTo(it->next) > 0
                                ? tr("in %1").arg(formatDuration(reference.secsTo(it->next)))
                                : tr("now"));
        if (it->overdue > 0)
            said << tr("<b>overdue on %n</b>", nullptr, it->overdue);
        parts << QStringLiteral("%1 %2").arg(it.key(), said.join(tr(", ")));
    }
    if (parts.isEmpty())
        return QString();
    return tr(
        "Kubernikus' automation: %1. A repair it is due to make waits for it (AutomationPending) unless "
        "overridden.")
        .arg(parts.join(QStringLiteral("; ")));
}

OverviewText overviewText(const QString &kluster, const Diagnosis &diagnosis, const QString &incomplete)
{
    OverviewText text;
    // Missing data never reads as health: with a source missing, the counts are at least what was found. The
    // counts are causes (KlusterStanding), as the list, the Fleet and check --all count them; the worst cause
    // leads, as it ranks the kluster.
    const KlusterStanding standing = KlusterStanding::of(diagnosis);
    const bool atLeast = !incomplete.isEmpty();
    text.title = standing.worst ? tr("%1: %2 · %3").arg(kluster, standing.reason, standing.text(atLeast))
        : standing.terminating  ? tr("%1: %2").arg(kluster, standing.reason)
        : incomplete.isEmpty()  ? tr("%1: healthy").arg(kluster)
                                : tr("%1: unknown — incomplete data").arg(kluster);
    if (!incomplete.isEmpty())
        text.caption = tr("INCOMPLETE: %1. The counts are lower bounds; what depends on it is not diagnosed.")
                           .arg(incomplete);
    if (diagnosis.count(Severity::Critical) + diagnosis.count(Severity::Warning) > 0) {
        QMap<QString, int> byKind;
        for (const Finding &f : diagnosis.findings) {
            if (f.severity != Severity::Info)
                byKind[findingKindName(f.kind)] += 1;
        }
        QStringList kinds;
        for (auto it = byKind.cbegin(); it != byKind.cend(); ++it)
            kinds << QStringLiteral("%1 × <b>%2</b>").arg(it.value()).arg(it.key().toHtmlEscaped());
        text.lines << tr("What is wrong: %1. Open <b>Findings</b> (Ctrl+2) to see each with its evidence and "
                         "repair.")
                          .arg(kinds.join(QStringLiteral(", ")));
    } else {
        text.lines << tr("No warning or critical finding.");
    }
    if (const QString phase = phaseLine(diagnosis); !phase.isEmpty())
        text.lines << phase;
    if (const QString automation = automationLine(diagnosis); !automation.isEmpty())
        text.lines << automation;
    if (KlusterPhases::parse(diagnosis.phase) != KlusterPhase::Gone) // no node of it is left to weigh
        text.lines << budgetLine(diagnosis.budget);
    for (const QString &n : diagnosis.notDiagnosed)
        text.lines << tr("<b>Not diagnosed:</b> %1").arg(OutsideText::html(n, 600));
    for (const QString &n : diagnosis.notes)
        text.lines << tr("Note: %1").arg(OutsideText::html(n, 600));
    return text;
}

QString budgetLine(const RemediationBudget &b)
{
    return b.deletionsAllowed
        ? tr("Remediation budget: instance deletions are allowed. %1 of %2 expected nodes are unhealthy; "
             "deletions stop once more than %3 are.")
              .arg(b.unhealthy)
              .arg(b.expected)
              .arg(b.maxUnhealthy)
        : tr("Remediation budget: <b>instance deletions refused</b> (%1): %2")
              .arg(refusalName(b.reason), OutsideText::html(b.detail, 600));
}

QString repairOutcomeLine(const QString &findingId, const RepairExecutor::Outcome &outcome)
{
    using R = RepairExecutor::Outcome::Result;
    const QString mark = outcome.result == R::Fixed ? QStringLiteral("✔")
        : outcome.result == R::StillThere           ? QStringLiteral("●")
                                                    : QStringLiteral("✖");
    QString line = QStringLiteral("%1 %2: %3. %4")
                       .arg(mark, findingId, RepairProposal::outcomeWords(outcome.result), outcome.message);
    for (const AuditRequest &r : outcome.requests)
        line += QStringLiteral("\n    %1 → %2 %3").arg(r.summary()).arg(r.status).arg(r.outcome);
    if (!outcome.auditError.isEmpty())
        line += tr(" The audit record could not be written: %1").arg(outcome.auditError);
    return line;
}

RepairEnd repairEnd(const QString &kluster, int fixed, int total, bool anySent)
{
    RepairEnd end;
    end.severity = fixed == total ? std::nullopt
        : fixed == 0              ? std::optional(Severity::Critical)
                                  : std::optional(Severity::Warning);
    end.status = !end.severity
        ? tr("<b>Fixed:</b> %1 of %2 repaired and verified. The views are being refreshed; the audit log has "
             "every request.")
              .arg(fixed)
              .arg(total)
        : end.severity == Severity::Critical
        ? (total == 1
                ? tr("<b>Failed:</b> the repair did not fix its finding; the reason is below. The audit "
                     "log has every request that was sent.")
                : tr("<b>Failed:</b> none of the %1 repairs fixed its finding; the reasons are below. The "
                     "audit log has every request that was sent.")
                      .arg(total))
        : tr("<b>Partly done:</b> %1 of %2 fixed and verified; the others are below, with their reasons.")
              .arg(fixed)
              .arg(total);
    end.windowTitle = (!end.severity                               ? tr("Repaired")
                              : end.severity == Severity::Critical ? tr("Repair failed")
                                                                   : tr("Repair partly done"))
        + tr(" — kluster %1").arg(kluster);
    end.heading = anySent
        ? tr("<b>The repair was sent</b> in kluster <b>%1</b>: every request is recorded in the audit log.")
              .arg(kluster.toHtmlEscaped())
        : tr("<b>Nothing was sent</b> in kluster <b>%1</b>: the reasons are below.")
              .arg(kluster.toHtmlEscaped());
    return end;
}

} // namespace ConsoleText
