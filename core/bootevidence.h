#pragma once

#include "core/finding.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

// One of the actions Nova recorded on a server (`GET /v2.1/servers/{id}/os-instance-actions`): create,
// reboot, stop, start, delete, … and who asked for it.
struct InstanceAction
{
    QString action;
    QDateTime startTime; // invalid: not said, or not a time
    QString message; // Nova's "Error" when the action failed (null otherwise)
    QString requestId;
    QString userId;
};

// What a server that never became a node (or broke) shows of its boot, read on demand for one finding
// (diagnosis.md §7): the tail of its console log and the actions Nova recorded. Each part is read or says
// why not; nothing in them is trusted (every line is shown as printable() escapes it).
struct BootEvidence
{
    QString serverId;
    QString serverName;
    QDateTime readAt;

    bool consoleRead = false;
    QStringList consoleLines; // the last ConsoleLines lines, oldest first, as the server wrote them
    QString consoleError; // why not read

    bool actionsRead = false;
    QList<InstanceAction> actions; // newest first
    QString actionsError;

    // The lines a person reads (the CLI's --explain, the console's details), control characters escaped:
    // "Nova's actions on kks-…:", "  2026-11-29T10:00:00Z  create  by <user>  (req-…)", "Console log (last 50
    // lines):", "  | …"; or why each could not be read.
    QStringList describe() const;
};

namespace BootEvidences {

constexpr int ConsoleLines = 50; // the tail asked for (os-getConsoleOutput's length)
constexpr int MaxLineChars = 400; // a console line longer than this is cut
constexpr int MaxActions = 20;

// Whether a finding of this kind has boot evidence: instance-unregistered, instance-error, instance-stopped.
bool wanted(FindingKind kind);
// The server a finding of those kinds concerns (its id and name), from the state it was diagnosed in.
struct Server
{
    QString id;
    QString name;
};
std::optional<Server> serverOf(const Finding &finding);

// The request body: {"os-getConsoleOutput": {"length": 50}}.
QByteArray consoleRequest();
// Nova's answer {"output": "…"}: its last ConsoleLines lines (a trailing line break ends the last line; a
// carriage return at a line's end is dropped; a line past MaxLineChars is cut). Throws ParseError.
QStringList parseConsoleOutput(const QString &source, const QByteArray &body);
// Nova's {"instanceActions": [...]}: newest first, at most MaxActions. Throws ParseError.
QList<InstanceAction> parseInstanceActions(const QString &source, const QByteArray &body);

} // namespace BootEvidences
