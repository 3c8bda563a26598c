#pragma once

#include "core/auditrecord.h"

#include <QHash>
#include <QIODevice>
#include <QList>
#include <QString>

// The local audit log of repairs: JSON Lines in the user's data folder
// (QStandardPaths::GenericDataLocation + flightdeck/, e.g.
// ~/.local/share/flightdeck/audit.jsonl, shared by the console and the CLI).
// Records name who, where, what and the outcome; never a token or a secret.
//
// Written ahead: before the first request of a repair is sent, a *started*
// record (who, where, the finding, the requests about to be sent) is appended
// and fsync'ed; after it, a *finished* record with the same id adds each
// request's answer and the verification. A repair interrupted in between (the
// process killed, the machine down) leaves its started record alone, and it
// reads as *interrupted: check the cloud*; the process is told by its id, its
// start and the machine's boot, so a later process given the same id does not
// make it "in progress". Appends are whole lines, never rewritten: one that
// fails (a full disk) is rolled back to the last whole record, and a line left
// torn by a crash is ended before the next. The folder must be this user's
// alone and the file is opened without following links; older records without
// an id read as they are.
class AuditLog
{
public:
    static QString path();
    // Appends `record` (its time now when it has none); false with `error` on failure.
    static bool append(AuditRecord record, QString *error);

    // The started record of a repair about to be sent: `record` with an id, the phase, the time and this
    // process (to tell a repair in progress from an interrupted one). The id, or empty with `error`: then
    // nothing may be sent.
    static QString begin(AuditRecord record, QString *error);
    // The finished record of the repair `id`: each request sent with its answer, the verification.
    // `events`: what became of the repair's Kubernetes Events (AuditRecord::events).
    static bool finish(const QString &id, const QList<AuditRequest> &requests, RepairResult verification,
        const QString &message, QString *error, const QStringList &events = {});

    // The repairs, oldest first: started and finished records merged into one each. A repair that was
    // started and never finished by a process that is gone reads as Interrupted; one whose process still
    // runs, InProgress.
    static QList<AuditRecord> read(QString *error);
    static QString interruptedMessage();

    // What tells a process from a later one given the same id: its start on this machine's clock (ticks
    // since boot, /proc/<pid>/stat; -1 when unknown), and this boot's id.
    static qint64 processStartTicks(qint64 pid);
    static QString bootId();

    // Reads the log as it grows: each update() parses only the lines appended since the last one (a
    // shorter file, rotated or cleared, is read again from the start), so a console that re-reads
    // after every repair does not re-parse the whole log each time. records() is what read() gives.
    class Reader
    {
    public:
        bool update(QString *error); // false with `error` when the file cannot be read
        // The same from `device` (the log's bytes from its start; its name in errors is `name`).
        bool update(QIODevice &device, const QString &name, QString *error);
        QList<AuditRecord> records() const;

    private:
        void add(const AuditRecord &record);

        QList<AuditRecord> m_records; // as written, started and finished merged
        QHash<QString, qsizetype> m_open; // id of a started record without its finish -> index
        qint64 m_offset = 0; // bytes read: whole lines only
        int m_line = 0;
    };
};
