#include "views/repairtext.h"

#include "core/bootevidence.h"
#include "core/diagnosis.h"
#include "core/diagnosiscontext.h"
#include "core/finding.h"
#include "core/repairproposal.h"
#include "models/findingsmodel.h"
#include "models/findingstreemodel.h"
#include "views/severitystyle.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

namespace RepairText {

QString requestLine(const PlannedRequest &r)
{
    QString line = QStringLiteral("%1 %2 %3").arg(r.method, r.service, r.path);
    for (auto h = r.headers.begin(); h != r.headers.end(); ++h)
        line += QStringLiteral("  [%1: %2]").arg(h.key(), h.value().toString());
    return line;
}

// What these credentials may do with one request (diagnosis.md §8), marked under it.
QString permissionLine(const PermissionVerdict &verdict)
{
    switch (verdict.permission) {
    case Permission::Allowed:
        return QStringLiteral("    <span style=\"color:%1\">%2</span>\n")
            .arg(SeverityStyle::colour(std::nullopt).name(), QObject::tr("permitted for these credentials"));
    case Permission::Denied:
        return QStringLiteral("    <span style=\"color:%1\"><b>%2</b> %3</span>\n")
            .arg(SeverityStyle::colour(Severity::Critical).name(), QObject::tr("NOT PERMITTED:"),
                verdict.reason.toHtmlEscaped());
    case Permission::Unknown:
        break;
    }
    return QStringLiteral("    <span style=\"color:%1\">%2 %3</span>\n")
        .arg(SeverityStyle::colour(Severity::Warning).name(), QObject::tr("not known whether permitted:"),
            verdict.reason.toHtmlEscaped());
}

QString planHtml(const RepairPlan &plan)
{
    QString html = QStringLiteral("<pre>");
    for (const PlannedRequest &r : plan.requests) {
        html += requestLine(r).toHtmlEscaped() + QLatin1Char('\n');
        html += permissionLine(r.permission);
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
    const QString removedColour = SeverityStyle::colour(Severity::Critical).name();
    const QString addedColour = SeverityStyle::colour(std::nullopt).name();
    auto text = [](const Route &r) {
        return QStringLiteral("%1 via %2").arg(r.destination, r.nexthop).toHtmlEscaped();
    };
    auto removedCell = [&](const Route &r) {
        return QStringLiteral("<span style=\"color:%1\"><s>%2</s></span>").arg(removedColour, text(r));
    };
    auto addedCell = [&](const Route &r) {
        return QStringLiteral("<span style=\"color:%1\"><b>%2</b></span>").arg(addedColour, text(r));
    };
    int removed = 0;
    int added = 0;
    QString changes;
    QString rows;
    for (const RepairGate::RouteLine &line : lines) {
        if (line.change == Change::Removed) {
            ++removed;
            changes += QStringLiteral("<tr><td><b>−</b></td><td>%1</td></tr>").arg(removedCell(line.route));
            rows += QStringLiteral("<tr><td>−</td><td>%1</td><td></td></tr>").arg(removedCell(line.route));
        } else if (line.change == Change::Added) {
            ++added;
            changes += QStringLiteral("<tr><td><b>+</b></td><td>%1</td></tr>").arg(addedCell(line.route));
            rows += QStringLiteral("<tr><td>+</td><td></td><td>%1</td></tr>").arg(addedCell(line.route));
        } else {
            rows += QStringLiteral("<tr><td></td><td>%1</td><td>%1</td></tr>").arg(text(line.route));
        }
    }
    // The changes first, where they are seen; then the whole list in router order, before and after.
    return QObject::tr("<p><b>Changes:</b> %1 removed, %2 added</p>").arg(removed).arg(added)
        + QStringLiteral("<table cellspacing=\"0\" cellpadding=\"1\">") + changes + QStringLiteral("</table>")
        + QObject::tr("<p><b>The router's routes in router order</b>, before (%1) and after (%2):</p>")
              .arg(lines.size() - added)
              .arg(lines.size() - removed)
        + QStringLiteral("<table cellspacing=\"4\" cellpadding=\"0\"><tr><th></th><th align=\"left\">%1</th>"
                         "<th align=\"left\">%2</th></tr>")
              .arg(QObject::tr("Before"), QObject::tr("After"))
        + rows + QStringLiteral("</table>");
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

QString automationHtml(const Finding &f)
{
    const std::optional<Automation> a = f.automation();
    if (!a)
        return QString();
    const QString line = a->line(f.context->state.capturedAt).toHtmlEscaped();
    if (a->overdue)
        return QObject::tr("<p><b>Automation overdue:</b> %1. Repair it here; if more of its findings are "
                           "overdue, it is stalled (automation-stalled).</p>")
            .arg(line);
    return QObject::tr(
        "<p><b>Automation:</b> %1. Waiting does the same; a repair now needs the override.</p>")
        .arg(line);
}

QString findingHtml(const Finding &f, bool withPlan, const QString &beforeEvidence)
{
    // What is wrong, who else repairs it and when, what to do, what the server itself shows, then the proof:
    // the order a person reads at 3 am.
    QString html = headerHtml(f) + automationHtml(f);
    const QString evidence = beforeEvidence + evidenceHtml(f);
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

QString incidentMembersHtml(const Incident &incident, const Diagnosis &diagnosis, bool markResolved)
{
    QString html = QObject::tr("<h3>[%1] Incident: %2</h3><p>One cause (%3), %4:</p><ul>")
                       .arg(severityName(incident.severity).toUpper(), incident.title.toHtmlEscaped(),
                           incident.id().toHtmlEscaped(),
                           FindingsTreeModel::memberCount(int(incident.members.size())));
    const QStringList resolved = incident.repairFindings();
    for (const QString &id : incident.members) {
        const Finding *f = diagnosis.find(id);
        html += QStringLiteral("<li><b>%1</b>%2: %3</li>")
                    .arg(id.toHtmlEscaped(),
                        markResolved && resolved.contains(id) ? QObject::tr(" (resolved by the repair)")
                                                              : QString(),
                        f ? f->message().toHtmlEscaped() : QString());
    }
    return html + QStringLiteral("</ul>");
}

QString incidentHtml(const Incident &incident, const Diagnosis &diagnosis, bool withPlan)
{
    QString html = incidentMembersHtml(incident, diagnosis, withPlan);
    const QStringList resolved = incident.repairFindings();
    if (!withPlan)
        return html;
    const std::optional<RepairPlan> plan = incident.repair();
    if (!plan)
        return html
            + QObject::tr("<p><b>%1</b></p>")
                  .arg(FindingsModel::noRepairReason(incident.rule).toHtmlEscaped());
    html += QObject::tr("<p><b>Its one repair</b> (Ctrl+R previews it; nothing is sent before you confirm): "
                        "%1.</p>")
                .arg(plan->title.toHtmlEscaped());
    if (resolved.size() < incident.members.size())
        html
            += QObject::tr("<p>The other findings are its symptoms: look at them again once it is sent; each "
                           "keeps its own repair.</p>");
    if (plan->refusal != Refusal::None)
        html += QObject::tr("<p><b>Refused as it stands (%1):</b> %2</p>")
                    .arg(refusalName(plan->refusal), plan->refusalDetail.toHtmlEscaped());
    return html;
}

QString proposalHtml(const RepairProposal &p)
{
    QString html;
    const RepairGate &gate = p.gate();
    for (const Incident &i : p.incidents()) {
        const std::optional<RepairPlan> plan = i.repair();
        html += incidentMembersHtml(i, *p.diagnosis(), true)
            + (plan ? QObject::tr(
                   "<p><b>One repair for the cause:</b> %1. It is sent as the findings marked above, "
                   "each verified gone%2.</p>")
                          .arg(plan->title.toHtmlEscaped(),
                              i.repairFindings().size() < i.members.size()
                                  ? QObject::tr("; the others are its symptoms, read again afterwards")
                                  : QString())
                    : QObject::tr("<p><b>%1</b></p>").arg(i.noRepairReason().toHtmlEscaped()));
    }
    if (!p.incidents().isEmpty())
        html += QStringLiteral("<hr>");
    // Several route findings: one change of the router, its list before and after, then each finding.
    if (const std::optional<RepairPlan> &change = gate.routeChange()) {
        const QStringList ids = gate.routeChangeFindings();
        html += QObject::tr("<h3>One change of the router for %1 findings</h3>"
                            "<p>%2 are repaired together: sent as one change and verified once.</p>"
                            "<p><b>What will be done:</b> %3</p>")
                    .arg(ids.size())
                    .arg(ids.join(QStringLiteral(", ")).toHtmlEscaped(), change->title.toHtmlEscaped())
            + routeChangeHtml(gate.routeChangeLines()) + QObject::tr("<p><b>The exact requests:</b></p>")
            + planHtml(*change);
    }
    // Several findings of one router's devices: one sync (or one teardown and sync) sent for them all.
    QSet<QString> onDevices;
    for (const RepairGate::Step &step : p.steps()) {
        if (!step.plan.actsOnDevices() || step.findingIds.size() < 2)
            continue;
        onDevices.unite(QSet<QString>(step.findingIds.cbegin(), step.findingIds.cend()));
        html += QObject::tr("<h3>One request to router %1's devices for %2 findings</h3>"
                            "<p>%3 are repaired together: sent once and verified once.</p>"
                            "<p><b>What will be done:</b> %4</p>")
                    .arg(step.plan.routerName.toHtmlEscaped())
                    .arg(step.findingIds.size())
                    .arg(step.findingIds.join(QStringLiteral(", ")).toHtmlEscaped(),
                        step.plan.title.toHtmlEscaped())
            + planHtml(step.plan);
    }
    for (const RepairGate::Decision &d : gate.decisions()) {
        html += headerHtml(*d.finding);
        if (!d.plan)
            html += evidenceHtml(*d.finding);
        else if (onDevices.contains(d.finding->id()))
            html
                += QObject::tr("<p><b>What will be done:</b> part of the one request to the router's devices "
                               "above</p>")
                + evidenceHtml(*d.finding);
        else if (d.combined)
            html += QObject::tr(
                        "<p><b>What will be done:</b> part of the one change of the router above (%1)</p>")
                        .arg(d.plan->title.toHtmlEscaped())
                + evidenceHtml(*d.finding);
        else
            html += QObject::tr("<p><b>What will be done:</b> %1</p>").arg(d.plan->title.toHtmlEscaped())
                + planHtml(*d.plan) + evidenceHtml(*d.finding);
    }
    for (const QString &id : p.absent())
        html += QObject::tr("<p><b>%1</b>: not in the data read: nothing to repair.</p>")
                    .arg(id.toHtmlEscaped());
    return html;
}

QString typeToConfirmHtml(const RepairProposal &p)
{
    const QString typed = p.typeToConfirm();
    if (typed.isEmpty())
        return QString();
    const QStringList deleteNames = p.gate().deletedNames();
    if (const RepairPlan *teardown = p.teardown()) {
        // Every kluster on the router loses its routes until the sync ends: its name typed, whoever asks.
        return QObject::tr(
            "This tears router <b>%1</b>'s configuration on its devices down, then syncs it: until "
            "the sync ends, %2 lose the router's routes.%3 Type <b>%4</b> to confirm:")
            .arg(teardown->routerName.toHtmlEscaped(),
                teardown->cutOff.isEmpty() ? QObject::tr("its klusters")
                                           : teardown->cutOff.join(QStringLiteral(", ")).toHtmlEscaped(),
                deleteNames.isEmpty() ? QString()
                                      : QObject::tr(" It also deletes %1.")
                                            .arg(deleteNames.join(QStringLiteral(", ")).toHtmlEscaped()),
                typed.toHtmlEscaped());
    }
    if (p.choice().protectedKluster)
        return QObject::tr(
            "<b>%1</b> is a protected kluster: every repair asks for its name. %2Type <b>%1</b> to "
            "confirm:")
            .arg(p.kluster().toHtmlEscaped(),
                deleteNames.isEmpty() ? QString() : QObject::tr("This repair deletes what is named above. "));
    // What a kluster left behind: the kluster's name confirms it, one deletion or ten (diagnosis.md §9).
    QStringList debris;
    for (const RepairGate::Decision &d : p.gate().decisions()) {
        if (d.mayBeSent(true) && d.plan && d.plan->deletesDebris())
            debris << d.plan->debrisName;
    }
    if (!debris.isEmpty())
        return QObject::tr(
            "This deletes %n volume(s) or load balancer(s) that kluster <b>%1</b> left behind "
            "(%2), with their data; nothing brings them back. Type the kluster's name <b>%1</b> "
            "to confirm:",
            nullptr, int(debris.size()))
            .arg(typed.toHtmlEscaped(), debris.join(QStringLiteral(", ")).toHtmlEscaped());
    if (deleteNames.size() == 1)
        return (p.deletesNode()
                ? QObject::tr("This deletes the Kubernetes node <b>%1</b> (its instance is gone); "
                              "its pod network is freed. Type its name to confirm:")
                : QObject::tr("This deletes instance <b>%1</b>; Kubernikus creates a replacement. "
                              "Type its name to confirm:"))
            .arg(typed.toHtmlEscaped());
    return QObject::tr(
        "This deletes %1 instances and nodes (%2). Type the kluster's name <b>%3</b> to confirm:")
        .arg(deleteNames.size())
        .arg(deleteNames.join(QStringLiteral(", ")).toHtmlEscaped(), p.kluster().toHtmlEscaped());
}

QString bootEvidenceHtml(const BootEvidence &evidence, bool pending)
{
    QString html = QStringLiteral("<h4>Boot evidence</h4>");
    if (!evidence.readAt.isValid())
        return html
            + QStringLiteral("<p><i>Reading the console log and the instance actions from Nova…</i></p>");
    if (!evidence.consoleRead && !evidence.actionsRead && evidence.consoleError == evidence.actionsError)
        return html + QStringLiteral("<p><i>Not read: %1</i></p>").arg(evidence.consoleError.toHtmlEscaped());
    html += QStringLiteral("<p><i>Read from Nova at %1%2.</i></p>")
                .arg(evidence.readAt.toString(QStringLiteral("HH:mm:ss 'UTC'")),
                    pending ? QStringLiteral(", reading again") : QString());
    // Each line as printable() escapes it (describe()), then escaped for HTML: the log is the server's text.
    html += QStringLiteral("<pre style=\"white-space: pre-wrap\">%1</pre>")
                .arg(evidence.describe().join(QLatin1Char('\n')).toHtmlEscaped());
    return html;
}

} // namespace RepairText
