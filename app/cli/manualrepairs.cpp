#include "app/cli/manualrepairs.h"

#include "core/auditrecord.h"
#include "core/diagnosis.h"
#include "core/klusterfetch.h"
#include "core/manualrepair.h"
#include "core/permission.h"
#include "core/printable.h"
#include "core/repairproposal.h"
#include "services/openstack/keystonesession.h"
#include "services/repair/auditlog.h"

#include <QTextStream>

namespace {

// What a record made by this program says of a hand-off, and of its verification.
const QString HandedOverPrefix = QStringLiteral("handed over: ");

AuditRecord recordFor(const KeystoneSession &session, const QString &kluster)
{
    AuditRecord r;
    r.cloud = session.config().name;
    r.user = session.userName();
    r.project = session.projectName();
    r.projectId = session.projectId();
    r.kluster = kluster;
    return r;
}

} // namespace

int ManualRepairs::handOver(QTextStream &out, const RepairProposal &proposal, const KeystoneSession &session)
{
    const Credentials *credentials = proposal.fetch()->state.credentials.get();
    int handed = 0;
    bool routeChangeShown = false;
    for (const RepairGate::Decision &d : proposal.gate().decisions()) {
        if (d.reason != Refusal::NotPermitted || !d.plan)
            continue;
        // The findings of one route change are handed over as that one change.
        if (d.combined && std::exchange(routeChangeShown, true))
            continue;
        const RepairPlan &plan
            = d.combined && proposal.gate().routeChange() ? *proposal.gate().routeChange() : *d.plan;
        const QStringList findings
            = d.combined ? proposal.gate().routeChangeFindings() : QStringList { d.finding->id() };
        const ManualRepair guide = ManualRepair::of(plan, proposal.kluster(), credentials);
        out << "\n";
        for (const QString &line : guide.text().split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            out << printable(line) << "\n";
        AuditRecord record = recordFor(session, proposal.kluster());
        record.findings = findings;
        record.repair = plan.title;
        record.planned = plan.requests;
        QString error;
        const QString id = AuditLog::begin(record, &error);
        if (id.isEmpty()
            || !AuditLog::finish(id, {}, RepairResult::Refused,
                HandedOverPrefix + refusalName(Refusal::NotPermitted) + QStringLiteral(": ")
                    + plan.refusalDetail,
                &error)) {
            out << "  (not recorded in the audit log: " << printable(error) << ")\n";
        } else {
            out << "  Recorded in the audit log as " << id
                << ". Once it is done: flightdeck-cli repair --cloud " << printable(session.config().name)
                << " --kluster " << printable(proposal.kluster()) << " --verify " << id << "\n";
        }
        ++handed;
    }
    out.flush();
    return handed;
}

AuditRecord ManualRepairs::handedOver(const QString &id, QString *error)
{
    const QList<AuditRecord> records = AuditLog::read(error);
    for (const AuditRecord &r : records) {
        if (r.id == id && r.message.startsWith(HandedOverPrefix))
            return r;
    }
    if (error->isEmpty())
        *error = QStringLiteral("no hand-off %1 in the audit log (%2)").arg(id.left(80), AuditLog::path());
    return AuditRecord();
}

int ManualRepairs::verify(
    QTextStream &out, const AuditRecord &handed, const Diagnosis &diagnosis, const KeystoneSession &session)
{
    QStringList open;
    for (const QString &id : handed.findings) {
        if (std::any_of(diagnosis.findings.cbegin(), diagnosis.findings.cend(),
                [&id](const Finding &f) { return f.id() == id; }))
            open << id;
    }
    AuditRecord record = recordFor(session, handed.kluster);
    record.findings = handed.findings;
    record.repair = handed.repair;
    record.planned = handed.planned;
    record.requests = QList<AuditRequest>(); // nothing sent by Flightdeck
    record.verification = open.isEmpty() ? RepairResult::Fixed : RepairResult::StillThere;
    record.message = open.isEmpty()
        ? QStringLiteral("repaired by someone else, verified (hand-off %1)").arg(handed.id)
        : QStringLiteral("not yet: still open: %1 (hand-off %2)")
              .arg(open.join(QStringLiteral(", ")), handed.id);
    QString error;
    const bool recorded = AuditLog::append(record, &error);
    QString said = record.message;
    said[0] = said.at(0).toUpper();
    out << printable(said) << "\n";
    if (!recorded)
        out << "  (not recorded in the audit log: " << printable(error) << ")\n";
    out.flush();
    return !recorded ? 3 : open.isEmpty() ? 0 : 1;
}
