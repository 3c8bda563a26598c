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
