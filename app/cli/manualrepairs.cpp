#include "app/cli/manualrepairs.h"

#include "app/cli/terminal.h"
#include "core/diagnosis.h"
#include "core/klusterfetch.h"
#include "core/manualrepair.h"
#include "core/printable.h"
#include "core/repairproposal.h"
#include "services/repair/handoffs.h"

#include <QTextStream>

int ManualRepairs::handOver(QTextStream &out, const RepairProposal &proposal, const QString &cloud)
{
    const QList<HandOff> handOffs = HandOff::of(proposal);
    for (const HandOff &h : handOffs) {
        out << "\n";
        for (const QString &line : h.guide.text().split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            out << printable(line) << "\n";
        QString error;
        const QString id = HandOffs::record(proposal.fetch()->state, h.findings, h.plan, &error);
        if (id.isEmpty())
            out << "  (not recorded in the audit log: " << printable(error) << ")\n";
        else
            out << "  Recorded in the audit log as " << id << ". Once it is done: flightdeck-cli repair "
                << (cloud == QLatin1String("envvars") // the OS_* variables: no --cloud to name
                           ? QString()
                           : QStringLiteral("--cloud ") + printable(cloud) + QLatin1Char(' '))
                << "--kluster " << printable(proposal.kluster()) << " --verify " << id << "\n";
    }
    out.flush();
    return int(handOffs.size());
}

int ManualRepairs::verify(QTextStream &out, const QString &id, const KlusterFetch &fetch,
    const Diagnosis &diagnosis, std::optional<RepairEvent> *event)
{
    QString error;
    const std::optional<AuditRecord> handed = HandOffs::find(id, &error);
    if (!handed || handed->kluster != fetch.state.kluster.name) {
        QTextStream(Terminal::err())
            << "flightdeck-cli repair: "
            << printable(
                   handed ? QStringLiteral("hand-off %1 is of kluster %2").arg(id, handed->kluster) : error)
            << Qt::endl;
        return 3;
    }
    const HandOffs::Verification v = HandOffs::verify(
        fetch.state, diagnosis, handed->findings, handed->repair, handed->planned, handed->id);
    out << printable(v.sentence()) << "\n";
    if (!v.error.isEmpty())
        out << "  (not recorded in the audit log: " << printable(v.error) << ")\n";
    out.flush();
    if (v.done())
        *event = HandOffs::verifiedEvent(fetch.state, handed->findings, handed->repair, handed->id, v);
    return !v.error.isEmpty() ? 3 : v.done() ? 0 : 1;
}
