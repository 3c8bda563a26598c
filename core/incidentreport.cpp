#include "core/incidentreport.h"

#include "core/checkreport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QUrl>

namespace IncidentReport {

QByteArray csvField(const QString &value)
{
    QString v = value;
    if (v.contains(QLatin1Char(',')) || v.contains(QLatin1Char('"')) || v.contains(QLatin1Char('\n'))
        || v.contains(QLatin1Char('\r')))
        v = QLatin1Char('"') + v.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
    return v.toUtf8();
}

QByteArray findingsCsv(const Diagnosis &diagnosis)
{
    QByteArray out = "severity,kind,subject,id,message,repair\r\n";
    for (const Finding &f : diagnosis.findings) {
        // The title alone: a route plan's delta has it without the router's whole list.
        const std::optional<RepairPlan> plan = f.repair(PlanForm::Delta);
        out += csvField(severityName(f.severity)) + ',' + csvField(findingKindName(f.kind)) + ','
            + csvField(f.subject) + ',' + csvField(f.id()) + ',' + csvField(f.message()) + ','
            + csvField(plan ? plan->title : QString()) + "\r\n";
    }
    return out;
}

namespace {

QString esc(const QString &s)
{
    return s.toHtmlEscaped();
}

// An element id for a finding or an incident: ids hold spaces and slashes ("route-stale:C via X"), which an
// HTML id may not; percent-encoded, each id stays its own and a link's fragment finds it.
QString anchor(const char *prefix, const QString &id)
{
    return QLatin1String(prefix) + QString::fromLatin1(QUrl::toPercentEncoding(id, ":@"));
}

QString timestamp(const QDateTime &t)
{
    return t.toUTC().toString(Qt::ISODate);
}

// A timeline from the history, oldest first: each interval from when it was first seen to when it was
// resolved, or open as of `asOf`. Empty when the history has none.
QString timelineHtml(const QList<History::Interval> &timeline, const QDateTime &asOf)
{
    if (timeline.isEmpty())
        return QString();
    QString html = QStringLiteral("<h4>Timeline</h4><ul>\n");
    for (const History::Interval &i : timeline) {
        const QString until = i.resolvedAt.isValid()
            ? QStringLiteral("resolved %1 (after %2)")
                  .arg(timestamp(i.resolvedAt),
                      formatDuration(qMax<qint64>(0, i.firstSeen.secsTo(i.resolvedAt))))
            : QStringLiteral("open at this report (%1)")
                  .arg(formatDuration(qMax<qint64>(0, i.firstSeen.secsTo(asOf))));
        html += QStringLiteral("<li>%1 %2: %3</li>\n")
                    .arg(i.beforeHistory ? QStringLiteral("seen on the first recorded refresh,")
                                         : QStringLiteral("first seen"),
                        timestamp(i.firstSeen), until);
    }
    return html + QStringLiteral("</ul>\n");
}

QString planHtml(const RepairPlan &plan, const QString &heading, const RepairGate::Decision *gate = nullptr)
{
    QString html = QStringLiteral("<h4>%1: %2</h4>\n").arg(heading, esc(plan.title));
    QString detail = plan.refusalDetail;
    const Refusal refusal = gate ? CheckReport::ReportedPlans::refusalOf(*gate, &detail) : plan.refusal;
    if (refusal != Refusal::None)
        html += QStringLiteral("<p><b>Refused as it stands</b> (%1): %2</p>\n")
                    .arg(refusalName(refusal), esc(detail));
    return html
        + QStringLiteral("<pre>%1</pre>\n")
              .arg(esc(QString::fromUtf8(QJsonDocument(plan.toJson()).toJson(QJsonDocument::Indented))));
}

// One incident: its title and severity, its members (links to their findings below), its one repair and
// its timeline.
QString incidentHtml(
    const Incident &i, const Diagnosis &diagnosis, const History *history, const QDateTime &asOf)
{
    const QString severity = severityName(i.severity);
    // One arg() for all: a percent-encoded anchor holds "%2F", which a later arg() would take for its own.
    const QString count
        = QStringLiteral("%1 %2")
              .arg(i.members.size())
              .arg(i.members.size() == 1 ? QStringLiteral("finding") : QStringLiteral("findings"));
    QString html = QStringLiteral(
        "<h3 id=\"%1\" class=\"%2\">[%2] %3</h3>\n<p>Incident <code>%4</code>: %5.</p>\n<ul>\n")
                       .arg(anchor("incident-", i.id()), severity, esc(i.title), esc(i.id()), count);
    for (const QString &id : i.members) {
        const Finding *f = diagnosis.find(id);
        html += QStringLiteral("<li class=\"%1\"><a href=\"#%2\">%3</a>%4</li>\n")
                    .arg(f ? severityName(f->severity) : severity, anchor("finding-", id), esc(id),
                        f ? QStringLiteral(": ") + esc(f->message()) : QString());
    }
    html += QStringLiteral("</ul>\n");
    if (const std::optional<RepairPlan> plan = i.repair())
        html += planHtml(*plan, QStringLiteral("Repair of the incident"));
    else if (i.rule == IncidentRule::ZoneOutage)
        html += QStringLiteral(
            "<p><b>No repair of its own:</b> the zone is down, not its nodes. No instance in it is deleted "
            "while the incident is open (ZoneDisruption).</p>\n");
    else
        html += QStringLiteral("<p><b>No repair of its own:</b> see its members.</p>\n");
    if (history)
        html += timelineHtml(history->incidentTimelines.value(i.id()), asOf);
    return html;
}

QString findingRows(const QList<const Finding *> &findings)
{
    QString html = QStringLiteral("<table><tr><th>severity</th><th>finding</th><th>message</th></tr>\n");
    for (const Finding *f : findings)
        html
            += QStringLiteral("<tr><td class=\"%1\">%1</td><td><a href=\"#%2\">%3</a></td><td>%4</td></tr>\n")
                   .arg(severityName(f->severity), anchor("finding-", f->id()), esc(f->id()),
                       esc(f->message()));
    return html + QStringLiteral("</table>\n");
}

} // namespace

QByteArray toHtml(const KlusterState &state, const Diagnosis &diagnosis, const History *history)
{
    const QString kluster = state.kluster.name;
    // The history's now (its times are this machine's), else the state's.
    const QDateTime asOf = history && history->asOf.isValid() ? history->asOf : state.capturedAt;
    const CheckReport::ReportedPlans plans(state, diagnosis);
    QString html;
    html += QStringLiteral(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Flightdeck report: %1</title>\n"
        "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}"
        ".critical{color:#b00}.warning{color:#a60}pre{background:#f4f4f4;padding:.5em;overflow:auto}"
        "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em "
        ".5em;text-align:left}</style>"
        "</head><body>\n")
                .arg(esc(kluster));
    html += QStringLiteral("<h1>Kluster %1</h1>\n<p>Captured %2 from cloud %3 (region %4) by %5.</p>\n")
                .arg(esc(kluster), timestamp(state.capturedAt), esc(state.cloud), esc(state.region),
                    esc(state.tool));
    QList<const Finding *> alone;
    for (const Finding &f : diagnosis.findings) {
        if (!diagnosis.incidentOf(f.id()))
            alone << &f;
    }
    html
        += QStringLiteral(
            "<p><b>%1%2 critical, %3 warning, %4 info.</b> Remediation budget: %5 of %6 expected nodes "
            "unhealthy (at most %7); instance deletions %8.</p>\n")
               .arg(diagnosis.incidents.isEmpty()
                       ? QString()
                       : QStringLiteral("%1 %2 and %3 %4 in none; ")
                             .arg(diagnosis.incidents.size())
                             .arg(diagnosis.incidents.size() == 1 ? QStringLiteral("incident")
                                                                  : QStringLiteral("incidents"))
                             .arg(alone.size())
                             .arg(alone.size() == 1 ? QStringLiteral("finding") : QStringLiteral("findings")))
               .arg(diagnosis.count(Severity::Critical))
               .arg(diagnosis.count(Severity::Warning))
               .arg(diagnosis.count(Severity::Info))
               .arg(diagnosis.budget.unhealthy)
               .arg(diagnosis.budget.expected)
               .arg(diagnosis.budget.maxUnhealthy)
               .arg(diagnosis.budget.deletionsAllowed
                       ? QStringLiteral("allowed")
                       : QStringLiteral("refused (%1: %2)")
                             .arg(refusalName(diagnosis.budget.reason), esc(diagnosis.budget.detail)));
    for (const QString &n : diagnosis.notDiagnosed)
        html += QStringLiteral("<p><b>Not diagnosed:</b> %1</p>\n").arg(esc(n));
    for (const QString &n : diagnosis.notes)
        html += QStringLiteral("<p>Note: %1</p>\n").arg(esc(n));
    // The incidents first (one cause each, its one repair), then the findings in none (diagnosis.md §5).
    if (!diagnosis.incidents.isEmpty()) {
        html += QStringLiteral("<h2>Incidents (%1)</h2>\n").arg(diagnosis.incidents.size());
        for (const Incident &i : diagnosis.incidents)
            html += incidentHtml(i, diagnosis, history, asOf);
        if (!alone.isEmpty())
            html += QStringLiteral("<h2>Findings in no incident (%1)</h2>\n").arg(alone.size());
    }
    if (!alone.isEmpty() || diagnosis.incidents.isEmpty())
        html += findingRows(alone);
    if (history && history->hasChanges) {
        html += QStringLiteral("<h2>What changed since %1</h2>\n<p>From %2 (%3) to %4.</p>\n")
                    .arg(history->fromHealthy ? QStringLiteral("the last healthy state")
                                              : QStringLiteral("the state before"),
                        timestamp(history->changesFrom),
                        history->fromHealthy ? QStringLiteral("no critical or warning finding")
                                             : QStringLiteral("no healthy state is kept"),
                        timestamp(history->changesTo));
        if (history->changes.isEmpty()) {
            html += QStringLiteral("<p>No change.</p>\n");
        } else {
            html += QStringLiteral(
                "<table><tr><th>change</th><th>what</th><th>subject</th><th>detail</th></tr>\n");
            for (const StateChange &c : history->changes)
                html += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td></tr>\n")
                            .arg(esc(StateChanges::name(c.change)), esc(StateChanges::name(c.category)),
                                esc(c.subject), esc(c.detail));
            html += QStringLiteral("</table>\n");
        }
    }
    if (!diagnosis.findings.isEmpty())
        html += QStringLiteral("<h2>Every finding</h2>\n");
    for (const Finding &f : diagnosis.findings) {
        html += QStringLiteral("<h3 id=\"%1\" class=\"%2\">[%2] %3</h3>\n<p>%4</p>\n")
                    .arg(anchor("finding-", f.id()), severityName(f.severity), esc(f.id()), esc(f.message()));
        if (const Incident *i = diagnosis.incidentOf(f.id()))
            html += QStringLiteral("<p>Part of the incident <a href=\"#%1\">%2</a>.</p>\n")
                        .arg(anchor("incident-", i->id()), esc(i->title));
        html += QStringLiteral("<h4>Evidence</h4><pre>%1</pre>\n")
                    .arg(esc(QString::fromUtf8(QJsonDocument(f.evidence()).toJson(QJsonDocument::Indented))));
        if (history)
            html += timelineHtml(history->timelines.value(f.id()), asOf);
        if (const RepairGate::Decision decision = plans.of(f); decision.plan)
            html += planHtml(*decision.plan, QStringLiteral("Repair"), &decision);
    }
    html += QStringLiteral("</body></html>\n");
    return html.toUtf8();
}

} // namespace IncidentReport
