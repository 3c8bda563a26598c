#pragma once

#include "core/repairplan.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <optional>

// How a repair ended: the executor's outcome, and what the audit log says of a repair whose outcome was
// never written (in progress in a process still running; interrupted when that process is gone).
enum class RepairResult
{
    Fixed,
    StillThere,
    Failed,
    Refused,
    Changed, // 412: the router changed meanwhile; re-planned, not sent
    InProgress,
    Interrupted,
    Unknown, // a record written by no version of this program (no verification, or another word)
};

namespace RepairResults {
QString name(RepairResult result); // "fixed", "still there", "changed meanwhile", "in progress", …
RepairResult fromName(const QString &name);
// Whether it needs a person: failed or interrupted (critical), did not fix (warning), or neither.
bool failed(RepairResult result);
bool settled(RepairResult result); // fixed or in progress: nothing to look at
} // namespace RepairResults

// One request of a repair as the audit log keeps it: as sent, and its answer (status 0 and
// mayHaveBeenSent when none came).
struct AuditRequest
{
    PlannedRequest request;
    int status = 0;
    QString outcome; // "done", "already done: …", "failed: …", "no answer: may have been carried out"
    bool mayHaveBeenSent = false;

    // "DELETE compute /servers/…" (as it came: print it escaped).
    QString summary() const { return request.summary(); }
    friend bool operator==(const AuditRequest &a, const AuditRequest &b)
    {
        return a.request == b.request && a.status == b.status && a.outcome == b.outcome
            && a.mayHaveBeenSent == b.mayHaveBeenSent;
    }
};

// The process that wrote a started record: what tells it from a later process given the same id.
struct AuditProcess
{
    qint64 pid = 0;
    QString host;
    QString started; // clock ticks since boot (empty when unknown)
    QString boot; // the boot's id (empty when unknown)

    friend bool operator==(const AuditProcess &a, const AuditProcess &b)
    {
        return a.pid == b.pid && a.host == b.host && a.started == b.started && a.boot == b.boot;
    }
};

// One repair in the audit log: who, where, which findings, what was about to be sent, and (once finished)
// each request's answer and the verification. The one place a record's JSON is written and read.
struct AuditRecord
{
    enum class Phase
    {
        Whole, // written in one piece (no id): by earlier versions, and by append()
        Started, // written ahead, before the first request
        Finished, // the outcome of a started record (merged into it when read)
    };

    QString id;
    Phase phase = Phase::Whole;
    QDateTime time; // when it was written (a merged record: when the repair started)
    QDateTime finishedAt; // a merged record: when its outcome was written
    QString cloud;
    QString user;
    QString project;
    QString projectId;
    QString kluster;
    QStringList findings; // ids
    QString repair; // the plan's title
    bool override = false;
    QDateTime firstSeen; // since when the finding was open, by the local history (invalid: not known)
    QList<PlannedRequest> planned; // what was about to be sent
    std::optional<QList<AuditRequest>> requests; // what was sent and answered: none until finished
    RepairResult verification = RepairResult::Unknown;
    QString message;
    // The repair's Kubernetes Events (core/repairevent.h), one line each: "RepairStarted written" or
    // "RepairStarted not written: <why>". A repair is never held back by one: this is where it is said.
    QStringList events;
    std::optional<AuditProcess> process;

    QString finding() const; // the ids, ", " between them
    bool interrupted() const { return verification == RepairResult::Interrupted; }

    // One compact line of JSON (no newline), keys in a fixed order; what is unset is left out.
    QByteArray toJson() const;
    QJsonObject toJsonObject() const;
    // A record as read from the log: what it does not hold stays unset; nothing in it is trusted to be
    // of the right type (a wrong one reads as unset).
    static AuditRecord fromJson(const QJsonObject &json);
    // A started record completed by its finished one.
    void complete(const AuditRecord &finished);

    friend bool operator==(const AuditRecord &a, const AuditRecord &b);
    friend bool operator!=(const AuditRecord &a, const AuditRecord &b) { return !(a == b); }
};

Q_DECLARE_METATYPE(AuditRecord)
