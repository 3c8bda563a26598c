#include "core/incidentreport.h"

#include <QJsonArray>
#include <QJsonDocument>

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
        const std::optional<RepairPlan> plan = f.repair();
        out += csvField(severityName(f.severity)) + ',' + csvField(findingKindName(f.kind)) + ','
            + csvField(f.subject) + ',' + csvField(f.id()) + ',' + csvField(f.message()) + ','
            + csvField(plan ? plan->title : QString()) + "\r\n";
    }
    return out;
}

QByteArray toHtml(const KlusterState &state, const Diagnosis &diagnosis, const History *history)
{
    const auto esc = [](const QString &s) { return s.toHtmlEscaped(); };
    const QString kluster = state.kluster.name;
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
                .arg(esc(kluster), state.capturedAt.toUTC().toString(Qt::ISODate), esc(state.cloud),
                    esc(state.region), esc(state.tool));
    html += QStringLiteral(
        "<p><b>%1 critical, %2 warning, %3 info.</b> Remediation budget: %4 of %5 expected nodes unhealthy "
        "(at most %6); instance deletions %7.</p>\n")
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
    html += QStringLiteral("<table><tr><th>severity</th><th>finding</th><th>message</th></tr>\n");
    for (const Finding &f : diagnosis.findings)
        html
            += QStringLiteral("<tr><td class=\"%1\">%1</td><td><a href=\"#%2\">%2</a></td><td>%3</td></tr>\n")
                   .arg(severityName(f.severity), esc(f.id()), esc(f.message()));
    html += QStringLiteral("</table>\n");
    if (history && history->hasChanges) {
        html += QStringLiteral("<h2>What changed since %1</h2>\n<p>From %2 (%3) to %4.</p>\n")
                    .arg(history->fromHealthy ? QStringLiteral("the last healthy state")
                                              : QStringLiteral("the state before"),
                        history->changesFrom.toUTC().toString(Qt::ISODate),
                        history->fromHealthy ? QStringLiteral("no critical or warning finding")
                                             : QStringLiteral("no healthy state is kept"),
                        history->changesTo.toUTC().toString(Qt::ISODate));
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
    for (const Finding &f : diagnosis.findings) {
        html += QStringLiteral(
            "<h2 id=\"%1\" class=\"%2\">[%2] %1</h2>\n<p>%3</p>\n<h3>Evidence</h3><pre>%4</pre>\n")
                    .arg(esc(f.id()), severityName(f.severity), esc(f.message()),
                        esc(QString::fromUtf8(QJsonDocument(f.evidence()).toJson(QJsonDocument::Indented))));
        const QList<History::Interval> timeline
            = history ? history->timelines.value(f.id()) : QList<History::Interval>();
        // The history's now (its times are this machine's), else the state's.
        const QDateTime asOf = history && history->asOf.isValid() ? history->asOf : state.capturedAt;
        if (!timeline.isEmpty()) {
            html += QStringLiteral("<h3>Timeline</h3><ul>\n");
            for (const History::Interval &i : timeline) {
                const QString from = i.firstSeen.toUTC().toString(Qt::ISODate);
                const QString until = i.resolvedAt.isValid()
                    ? QStringLiteral("resolved %1 (after %2)")
                          .arg(i.resolvedAt.toUTC().toString(Qt::ISODate),
                              formatDuration(qMax<qint64>(0, i.firstSeen.secsTo(i.resolvedAt))))
                    : QStringLiteral("open at this report (%1)")
                          .arg(formatDuration(qMax<qint64>(0, i.firstSeen.secsTo(asOf))));
                html += QStringLiteral("<li>%1 %2: %3</li>\n")
                            .arg(i.beforeHistory ? QStringLiteral("seen on the first recorded refresh,")
                                                 : QStringLiteral("first seen"),
                                from, until);
            }
            html += QStringLiteral("</ul>\n");
        }
        if (const std::optional<RepairPlan> plan = f.repair()) {
            html += QStringLiteral("<h3>Repair: %1</h3><pre>%2</pre>\n")
                        .arg(esc(plan->title),
                            esc(QString::fromUtf8(
                                QJsonDocument(plan->toJson()).toJson(QJsonDocument::Indented))));
        }
    }
    html += QStringLiteral("</body></html>\n");
    return html.toUtf8();
}

} // namespace IncidentReport
