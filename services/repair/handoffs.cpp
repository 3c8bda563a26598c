#include "services/repair/handoffs.h"

#include "core/diagnosis.h"
#include "core/klusterstate.h"
#include "core/permission.h"
#include "services/repair/auditlog.h"
#include "services/repair/eventwriter.h"

#include <algorithm>

namespace {

AuditRecord recordOf(const KlusterState &state)
{
    AuditRecord r;
    r.cloud = state.cloud;
    if (state.credentials) {
        const TokenIdentity &who = state.credentials->identity;
        r.user = who.userName.isEmpty() ? who.userId : who.userName;
        r.project = who.projectName;
        r.projectId = who.projectId;
    }
    r.kluster = state.kluster.name;
    return r;
}

} // namespace

QString HandOffs::prefix()
{
    return QStringLiteral("handed over: ");
}

QString HandOffs::record(
    const KlusterState &state, const QStringList &findings, const RepairPlan &plan, QString *error)
{
    AuditRecord record = recordOf(state);
    record.findings = findings;
    record.repair = plan.title;
    record.planned = plan.requests;
    QString id = AuditLog::begin(record, error);
    if (id.isEmpty())
        return QString();
    const QString why = plan.refusal == Refusal::None
        ? QStringLiteral("a guided manual repair")
        : refusalName(plan.refusal) + QStringLiteral(": ") + plan.refusalDetail;
    if (!AuditLog::finish(id, {}, RepairResult::Refused, prefix() + why, error))
        return QString();
    return id;
}

std::optional<AuditRecord> HandOffs::find(const QString &id, QString *error)
{
    const QList<AuditRecord> records = AuditLog::read(error);
    for (const AuditRecord &r : records) {
        if (r.id == id && r.message.startsWith(prefix()))
            return r;
    }
    if (error->isEmpty())
        *error = QStringLiteral("no hand-off %1 in the audit log (%2)").arg(id.left(80), AuditLog::path());
    return std::nullopt;
}

HandOffs::Verification HandOffs::verify(const KlusterState &state, const Diagnosis &diagnosis,
    const QStringList &findings, const QString &title, const QList<PlannedRequest> &planned,
    const QString &handOffId)
{
    Verification v;
    for (const QString &id : findings) {
        if (std::any_of(diagnosis.findings.cbegin(), diagnosis.findings.cend(),
                [&id](const Finding &f) { return f.id() == id; }))
            v.open << id;
    }
    const QString of = handOffId.isEmpty() ? QString() : QStringLiteral(" (hand-off %1)").arg(handOffId);
    v.message = v.done()
        ? QStringLiteral("repaired by someone else, verified") + of
        : QStringLiteral("not yet: still open: %1").arg(v.open.join(QStringLiteral(", "))) + of;
    AuditRecord record = recordOf(state);
    record.findings = findings;
    record.repair = title;
    record.planned = planned;
    record.requests = QList<AuditRequest>(); // nothing sent by Flightdeck
    record.verification = v.done() ? RepairResult::Fixed : RepairResult::StillThere;
    record.message = v.message;
    AuditLog::append(record, &v.error);
    return v;
}

RepairEvent HandOffs::verifiedEvent(const KlusterState &state, const QStringList &findings,
    const QString &title, const QString &handOffId, const Verification &verification)
{
    const AuditRecord who = recordOf(state);
    RepairEvent event;
    event.phase = RepairEventPhase::Verified;
    event.time = QDateTime::currentDateTimeUtc();
    event.kluster = state.kluster.name;
    event.findings = findings;
    event.repair = title;
    event.user = who.user;
    event.auditId = handOffId;
    event.instance = RepairEventWriter::instance();
    event.outcome = verification.message;
    return event;
}
