#include "console/exportedtext.h"

#include "console/consoletext.h"
#include "console/exportedreports.h"
#include "core/printable.h"

#include <QCoreApplication>
#include <QUrl>

namespace ExportedText {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("ExportedText", text);
}

// Where the whole kluster is read: live, else the exporter's report.
QString whereWhole(const Facts &f)
{
    const ExportedFleet::Kluster &k = *f.kluster;
    if (!f.live.isNull())
        return tr("Read live and repaired through connection <b>%1</b>: <a href=\"%2\">open %3</a>.")
            .arg(OutsideText::html(f.live.connection), f.live.toString().toHtmlEscaped(),
                OutsideText::html(f.live.toString()));
    return tr(
        "Its findings are its exporter's: <tt>/klusters/%1?project_id=%2</tt> on %3. To read it live and "
        "repair it, add a connection to its cloud (File → Connections…).")
        .arg(OutsideText::html(k.name), OutsideText::html(k.projectId), OutsideText::html(k.exporter));
}

} // namespace

QString header(const Facts &f)
{
    const ExportedFleet::Kluster &k = *f.kluster;
    QString standing = k.standing.headline();
    if (!k.standing.reason.isEmpty())
        standing += tr(" — worst cause: %1").arg(OutsideText::html(k.standing.reason));
    if (!k.phase.isEmpty() && k.phase != QLatin1String("none"))
        standing += tr(" · phase %1").arg(OutsideText::html(k.phase));
    QString read = k.readAt ? tr("Exporter %1 read it %2 (%3)")
                                  .arg(OutsideText::html(k.exporter), ConsoleText::clock(*k.readAt, f.now),
                                      ConsoleText::ago(*k.readAt, f.now))
                            : tr("Exporter %1 has not read it").arg(OutsideText::html(k.exporter));
    if (k.exporters > 1)
        read += tr(" · %1 exporters give it (HA): the freshest is shown").arg(k.exporters);
    QString alarm;
    if (!k.present)
        alarm = tr("STALE: its exporter is not scraped now; this is the data it last gave.");
    else if (!k.up)
        alarm
            = tr("STALE: its exporter's last check could not read every source; this is the last good data.");
    else if (k.reading == Reading::Unreadable)
        alarm = tr("Not read yet by its exporter.");
    QString text
        = tr("<b>%1</b> · read-only, from Prometheus %2<br>%3<br>%4")
              .arg(OutsideText::html(f.key.toString()), OutsideText::html(f.prometheus), standing, read);
    if (!alarm.isEmpty())
        text += tr("<br><b style=\"color:%1\">%2</b>").arg(f.alarmColor, alarm);
    return text + QStringLiteral("<br>") + whereWhole(f);
}

QString findings(const Facts &f)
{
    // Plain text: the caption is no rich text.
    return f.live.isNull()
        ? tr("Prometheus holds %1's counts, not its findings: below is its exporter's report, read-only. To "
             "repair it, add a connection to its cloud (File → Connections…).")
              .arg(OutsideText::line(f.kluster->name))
        : tr("Prometheus holds %1's counts, not its findings: below is its exporter's report, read-only. "
             "Open it live through %2 (the link above) to repair it.")
              .arg(OutsideText::line(f.kluster->name), OutsideText::line(f.live.toString()));
}

namespace {

// At most this many findings in the view: the rest are in the report itself (its URL is shown).
constexpr int ShownFindings = 300;

QString severityCell(Severity severity, const QString &alarmColor)
{
    const QString name = severityName(severity).toUpper();
    return severity == Severity::Critical
        ? QStringLiteral("<b style=\"color:%1\">%2</b>").arg(alarmColor, name)
        : severity == Severity::Warning ? QStringLiteral("<b>%1</b>").arg(name)
                                        : name;
}

QString plan(const QString &title, const QList<ExporterReport::Request> &requests)
{
    if (title.isEmpty())
        return tr("no repair (see the message)");
    QString text = OutsideText::html(title);
    for (const ExporterReport::Request &r : requests) {
        text
            += QStringLiteral("<br><tt>%1 %2 %3</tt>")
                   .arg(OutsideText::html(r.method), OutsideText::html(r.service), OutsideText::html(r.path));
        if (!r.permission.isEmpty() && r.permission != QLatin1String("allowed"))
            text += QStringLiteral(" (%1)").arg(OutsideText::html(r.permission));
    }
    return text;
}

QString reportBody(const Facts &f, const ExporterReport::Report &r)
{
    QString html;
    if (!r.incidents.isEmpty()) {
        html += tr("<p><b>Incidents</b> (the causes; their findings below)</p><ul>");
        for (const ExporterReport::Incident &i : r.incidents)
            html += QStringLiteral("<li>%1 %2 <tt>%3</tt>%4</li>")
                        .arg(severityCell(i.severity, f.alarmColor), OutsideText::html(i.title),
                            OutsideText::html(i.id),
                            i.repairTitle.isEmpty()
                                ? QString()
                                : tr("<br>its repair: %1").arg(OutsideText::html(i.repairTitle)));
        html += QStringLiteral("</ul>");
    }
    if (r.findings.isEmpty())
        return html + tr("<p>No finding: its exporter found nothing wrong.</p>");
    html += tr(
        "<p><b>Findings</b>, as the report orders them (severity, kind, subject)</p>"
        "<table cellspacing=\"0\" cellpadding=\"4\" border=\"1\" width=\"100%\">"
        "<tr><th>Severity</th><th>Finding</th><th>What is wrong</th><th>Its plan (not sent from here)</th>"
        "</tr>");
    int shown = 0;
    for (const ExporterReport::Reported &x : r.findings) {
        if (shown++ == ShownFindings)
            break;
        QString what = OutsideText::htmlLines(x.message);
        if (!x.incident.isEmpty())
            what += tr("<br><i>part of %1</i>").arg(OutsideText::html(x.incident));
        if (!x.automation.isEmpty())
            what += tr("<br><i>Kubernikus acts: %1</i>").arg(OutsideText::html(x.automation));
        html += QStringLiteral("<tr><td>%1</td><td><tt>%2</tt><br><a href=\"runbook:%3\">runbook</a></td>"
                               "<td>%4</td><td>%5</td></tr>")
                    .arg(severityCell(x.severity, f.alarmColor), OutsideText::html(x.id),
                        QString::fromLatin1(QUrl::toPercentEncoding(OutsideText::line(x.kind, 80))), what,
                        plan(x.repairTitle, x.requests));
    }
    html += QStringLiteral("</table>");
    if (r.findings.size() > ShownFindings)
        html += tr("<p>… and %1 more findings: the whole report is at its URL above.</p>")
                    .arg(r.findings.size() - ShownFindings);
    return html;
}

} // namespace

QString report(const Facts &f)
{
    const ExportedReportEntry *e = f.report;
    if (!e)
        return QString();
    QString html
        = tr("<p><b>Its exporter's report</b> · read-only: %1</p>")
              .arg(f.live.isNull()
                      ? tr("nothing here is sent; to repair it, add a connection to its cloud "
                           "(File → Connections…)")
                      : tr("open it live through %1 to repair it").arg(OutsideText::html(f.live.toString())));
    if (e->error.isError())
        html += tr("<p><b style=\"color:%1\">The report could not be read</b>: %2</p>")
                    .arg(f.alarmColor, OutsideText::html(e->error.toString()));
    if (!e->report)
        return html
            + (e->pending ? tr("<p>Reading it from its exporter %1…</p>")
                                .arg(OutsideText::html(f.kluster->exporter))
                          : QString());
    const ExporterReport::Report &r = *e->report;
    QString when = tr("Read %1 (%2) from <tt>%3</tt>")
                       .arg(ConsoleText::clock(e->readAt, f.now), ConsoleText::ago(e->readAt, f.now),
                           OutsideText::html(e->url));
    if (r.capturedAt.isValid())
        when += tr("; its exporter checked the kluster %1 (%2)")
                    .arg(ConsoleText::clock(r.capturedAt, f.now), ConsoleText::ago(r.capturedAt, f.now));
    html += QStringLiteral("<p>%1.<br>%2</p>")
                .arg(when,
                    tr("%1 critical · %2 warning · %3 info%4")
                        .arg(r.critical)
                        .arg(r.warning)
                        .arg(r.info)
                        .arg(r.phase.isEmpty() || r.phase == QLatin1String("Running")
                                ? QString()
                                : tr(" · phase %1").arg(OutsideText::html(r.phase))));
    if (e->error.isError() || !f.kluster->present || !f.kluster->up)
        html += tr("<p><b style=\"color:%1\">STALE</b>: %2</p>")
                    .arg(f.alarmColor,
                        e->error.isError() ? tr("the last report read, before the failure above")
                                           : tr("its exporter's data is not current (the header says why)"));
    return html + reportBody(f, r);
}

std::optional<ConsoleText::Notification> notification(
    const KlusterKey &key, const ExportedFleet::Kluster *before, const ExportedFleet::Kluster &after)
{
    if (!before)
        return std::nullopt; // nothing to compare with
    if (before->present && !after.present)
        return ConsoleText::Notification {
            tr("Kluster %1: its exporter is no longer scraped").arg(key.toString()),
            tr("Its data is what %1 last gave; the exporter may be down (the runbook exporter-down).")
                .arg(after.exporter),
            QString(), Severity::Critical
        };
    const bool newWorst = after.standing.worst == Severity::Critical
        && (before->standing.worst != Severity::Critical
            || before->standing.worstCause != after.standing.worstCause);
    if (after.standing.critical <= before->standing.critical && !newWorst)
        return std::nullopt;
    return ConsoleText::Notification { tr("Kluster %1: %2").arg(key.toString(), after.standing.headline()),
        after.standing.reason.isEmpty() ? QString() : tr("Worst cause: %1").arg(after.standing.reason),
        QString(), Severity::Critical };
}

} // namespace ExportedText
