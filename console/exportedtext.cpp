#include "console/exportedtext.h"

#include "console/consoletext.h"
#include "core/printable.h"

#include <QCoreApplication>

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
    return tr("Prometheus holds %1's counts, not its findings. %2")
        .arg(OutsideText::html(f.kluster->name), whereWhole(f));
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
