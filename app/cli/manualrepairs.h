#pragma once

#include <QString>

class QTextStream;
class KeystoneSession;
class RepairProposal;
struct AuditRecord;
struct Diagnosis;

// The guided manual repairs of `repair` (diagnosis.md §8): a plan these credentials may not send is printed
// as the commands for someone who may, and recorded in the audit log as handed over; `repair --verify ID`
// reads the kluster again later and records whether it was done.
namespace ManualRepairs {

// Prints a guide for each chosen repair refused NotPermitted and records each in the audit log. Returns
// how many were handed over (0: none was refused for want of permission).
int handOver(QTextStream &out, const RepairProposal &proposal, const KeystoneSession &session);

// The hand-off `id` of the audit log (nullopt-like: an empty id with `error` when there is none).
AuditRecord handedOver(const QString &id, QString *error);

// Whether the findings of the hand-off `record` are gone from `diagnosis` (the kluster read again now):
// recorded in the audit log as "repaired by someone else, verified" or "not yet". The exit status: 0
// verified, 1 not yet, 3 the record could not be written.
int verify(
    QTextStream &out, const AuditRecord &record, const Diagnosis &diagnosis, const KeystoneSession &session);

} // namespace ManualRepairs
