#pragma once

#include "core/repairevent.h"

#include <QString>
#include <optional>

class QTextStream;
class RepairProposal;
struct KlusterFetch;
struct Diagnosis;

// The guided manual repairs of `repair` (diagnosis.md §8): a plan these credentials may not send is printed
// as the commands for someone who may, and recorded in the audit log as handed over (services/repair/
// handoffs.h); `repair --verify ID` reads the kluster again later and records whether it was done.
namespace ManualRepairs {

// Prints a guide for each chosen repair refused NotPermitted and records each in the audit log. Returns
// how many were handed over (0: none was refused for want of permission).
int handOver(QTextStream &out, const RepairProposal &proposal, const QString &cloud);

// The hand-off `id`, verified against `fetch` read again now: printed and recorded. The exit status: 0
// verified, 1 not yet, 3 it could not be recorded or `id` is no hand-off of this kluster. Verified: `event`
// is the Kubernetes Event that tells teammates (the caller writes it).
int verify(QTextStream &out, const QString &id, const KlusterFetch &fetch, const Diagnosis &diagnosis,
    std::optional<RepairEvent> *event);

} // namespace ManualRepairs
