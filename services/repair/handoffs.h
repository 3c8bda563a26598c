#pragma once

#include "core/auditrecord.h"
#include "core/repairevent.h"

#include <QString>
#include <QStringList>
#include <optional>

struct Diagnosis;
struct KlusterState;
struct RepairPlan;

// Guided manual repairs in the audit log (diagnosis.md §8): a plan these credentials may not send, handed
// over to someone who may, and later verified by reading the kluster again. Who is recorded is who read the
// kluster (its token's user and project); nothing is sent to the cloud here.
namespace HandOffs {

// What a hand-off record's message begins with.
QString prefix(); // "handed over: "

// Records `plan` for `findings` of the kluster `state` holds as handed over: its id, or empty with `error`.
QString record(
    const KlusterState &state, const QStringList &findings, const RepairPlan &plan, QString *error);

// The hand-off `id` in the audit log; nullopt with `error` when there is none.
std::optional<AuditRecord> find(const QString &id, QString *error);

struct Verification
{
    QStringList open; // the findings still there (empty: done)
    QString message; // "repaired by someone else, verified (…)" or "not yet: still open: …"
    QString error; // why it could not be recorded (empty: recorded)

    bool done() const { return open.isEmpty(); }
    // The message as a sentence begins ("Repaired by someone else, verified …"): what the CLI prints and the
    // console shows.
    QString sentence() const
    {
        return message.isEmpty() ? message : message.at(0).toUpper() + message.mid(1);
    }
};

// Whether `findings` are gone from `diagnosis` (the kluster read again now), recorded in the audit log as
// "repaired by someone else, verified" or "not yet" beside the plan that was handed over (`handOffId`: the
// hand-off's record, when there is one).
Verification verify(const KlusterState &state, const Diagnosis &diagnosis, const QStringList &findings,
    const QString &title, const QList<PlannedRequest> &planned, const QString &handOffId = {});

// The Kubernetes Event that tells teammates a handed-over repair was verified done (RepairVerified, by who
// verified it, named after the hand-off `handOffId`); only for a verification that is done.
RepairEvent verifiedEvent(const KlusterState &state, const QStringList &findings, const QString &title,
    const QString &handOffId, const Verification &verification);

} // namespace HandOffs
