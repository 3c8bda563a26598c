#include "views/repairtext.h"

#include "core/finding.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace RepairText {

QString requestLine(const PlannedRequest &r)
{
    QString line = QStringLiteral("%1 %2 %3").arg(r.method, r.service, r.path);
    for (auto h = r.headers.begin(); h != r.headers.end(); ++h)
        line += QStringLiteral("  [%1: %2]").arg(h.key(), h.value().toString());
    return line;
}

QString planHtml(const RepairPlan &plan)
{
    QString html = QStringLiteral("<pre>");
    for (const PlannedRequest &r : plan.requests) {
        html += requestLine(r).toHtmlEscaped() + QLatin1Char('\n');
        if (!r.body.isNull()) {
            const QJsonDocument body
                = r.body.isArray() ? QJsonDocument(r.body.toArray()) : QJsonDocument(r.body.toObject());
            html += QStringLiteral("    ")
                + QString::fromUtf8(body.toJson(QJsonDocument::Compact)).toHtmlEscaped() + QLatin1Char('\n');
        }
    }
    html += QStringLiteral("</pre>");
    return html;
}

QString routeChangeHtml(const QList<RepairGate::RouteLine> &lines)
{
    using Change = RepairGate::RouteLine::Change;
    int removed = 0;
    int added = 0;
    QString rows;
    for (const RepairGate::RouteLine &line : lines) {
        const QString route = QStringLiteral("%1 via %2").arg(line.route.destination, line.route.nexthop).toHtmlEscaped();
        if (line.change == Change::Removed) {
            ++removed;
            rows += QStringLiteral("<tr><td><b>−</b></td><td><s>%1</s></td><td>%2</td></tr>").arg(route, QObject::tr("removed"));
        } else if (line.change == Change::Added) {
            ++added;
            rows += QStringLiteral("<tr><td><b>+</b></td><td><b>%1</b></td><td>%2</td></tr>").arg(route, QObject::tr("added"));
        } else {
            rows += QStringLiteral("<tr><td></td><td>%1</td><td></td></tr>").arg(route);
        }
    }
    return QObject::tr("<p><b>The router's routes</b>: %1 before, %2 after (%3 removed, %4 added)</p>")
               .arg(lines.size() - added)
               .arg(lines.size() - removed)
               .arg(removed)
               .arg(added)
        + QStringLiteral("<table cellspacing=\"0\" cellpadding=\"2\">") + rows + QStringLiteral("</table>");
}

QString headerHtml(const Finding &f)
{
    return QStringLiteral("<h3>[%1] %2</h3><p>%3</p>")
        .arg(severityName(f.severity).toUpper(), f.id().toHtmlEscaped(), f.message().toHtmlEscaped());
}

QString evidenceHtml(const Finding &f)
{
    return QObject::tr("<p><b>Evidence</b></p><pre>%1</pre>")
        .arg(QString::fromUtf8(QJsonDocument(f.evidence()).toJson(QJsonDocument::Indented)).toHtmlEscaped());
}

QString findingHtml(const Finding &f, bool withPlan)
{
    // What is wrong, what to do, then the proof: the order a person reads at 3 am.
    QString html = headerHtml(f);
    const QString evidence = evidenceHtml(f);
    if (!withPlan)
        return html + evidence;
    const std::optional<RepairPlan> plan = f.repair();
    if (!plan)
        return html + QObject::tr("<p><b>Repair:</b> none of its own (the message says what to look at).</p>")
            + evidence;
    html += QObject::tr("<p><b>Repair</b> (Ctrl+R previews it; nothing is sent before you confirm): %1</p>")
                .arg(plan->title.toHtmlEscaped())
        + planHtml(*plan);
    if (plan->refusal != Refusal::None)
        html += QObject::tr("<p><b>Refused as it stands (%1):</b> %2</p>")
                    .arg(refusalName(plan->refusal), plan->refusalDetail.toHtmlEscaped());
    return html + evidence;
}

} // namespace RepairText
