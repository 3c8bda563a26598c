#include "core/bootevidence.h"

#include "core/apiparser.h"
#include "core/diagnosiscontext.h"
#include "core/json/jsonreader.h"
#include "core/printable.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>

bool BootEvidences::wanted(FindingKind kind)
{
    return kind == FindingKind::InstanceUnregistered || kind == FindingKind::InstanceError
        || kind == FindingKind::InstanceStopped;
}

std::optional<BootEvidences::Server> BootEvidences::serverOf(const Finding &finding)
{
    if (!wanted(finding.kind) || !finding.context || finding.facts.instance < 0
        || finding.facts.instance >= finding.context->state.instances.size())
        return std::nullopt;
    const Instance &i = finding.context->state.instances.at(finding.facts.instance);
    return Server { i.id, i.name };
}

QByteArray BootEvidences::consoleRequest()
{
    return QJsonDocument(QJsonObject { { QStringLiteral("os-getConsoleOutput"),
                             QJsonObject { { QStringLiteral("length"), ConsoleLines } } } })
        .toJson(QJsonDocument::Compact);
}

QStringList BootEvidences::parseConsoleOutput(const QString &source, const QByteArray &body)
{
    const JsonReader root(source, parseJsonObject(source, body));
    // Nova answers a string (its schema: required); another server's null is an empty log.
    const QString output = root.child(QStringLiteral("output")).isNull()
        ? QString()
        : root.requireString(QStringLiteral("output"));
    QStringList lines = output.split(QLatin1Char('\n'));
    if (!lines.isEmpty() && lines.constLast().isEmpty())
        lines.removeLast(); // the break that ends the last line starts none
    if (lines.size() > ConsoleLines)
        lines = lines.mid(lines.size() - ConsoleLines);
    for (QString &line : lines) {
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
        if (line.size() > MaxLineChars)
            line = line.left(MaxLineChars - 1) + QChar(0x2026);
    }
    return lines;
}

QList<InstanceAction> BootEvidences::parseInstanceActions(const QString &source, const QByteArray &body)
{
    const JsonReader root(source, parseJsonObject(source, body));
    QList<InstanceAction> actions;
    root.requireField(QStringLiteral("instanceActions")).forEachElement([&actions](const JsonReader &item) {
        item.requireObject();
        InstanceAction a;
        a.action = item.requireString(QStringLiteral("action")).left(MaxLineChars);
        // Nova writes UTC without a zone: read as UTC whatever this machine's zone (a local reading would
        // refuse a time in its daylight-saving gap).
        const QString start = item.optString(QStringLiteral("start_time"));
        a.startTime = ApiParser::parseTimestamp(start, true);
        if (!a.startTime.isValid() && !start.isEmpty())
            a.startTime = ApiParser::parseTimestamp(start + QLatin1Char('Z'), true);
        a.message = item.optNullableString(QStringLiteral("message")).value_or(QString()).left(MaxLineChars);
        a.requestId = item.optString(QStringLiteral("request_id")).left(MaxLineChars);
        a.userId = item.optNullableString(QStringLiteral("user_id")).value_or(QString()).left(MaxLineChars);
        actions.append(std::move(a));
    });
    std::stable_sort(actions.begin(), actions.end(), [](const InstanceAction &a, const InstanceAction &b) {
        if (a.startTime.isValid() != b.startTime.isValid())
            return a.startTime.isValid();
        return a.startTime.isValid() && a.startTime > b.startTime;
    });
    if (actions.size() > MaxActions)
        actions.resize(MaxActions);
    return actions;
}

QStringList BootEvidence::describe() const
{
    QStringList out;
    const QString server
        = serverName.isEmpty() ? serverId : QStringLiteral("%1 (%2)").arg(serverName, serverId);
    if (actionsRead) {
        out << QStringLiteral("Nova's actions on %1, newest first:").arg(printable(server));
        if (actions.isEmpty())
            out << QStringLiteral("  none recorded");
        for (const InstanceAction &a : actions) {
            QString line = QStringLiteral("  %1  %2")
                               .arg(a.startTime.isValid() ? ApiParser::formatTimestamp(a.startTime)
                                                          : QStringLiteral("(time unknown)      "),
                                   printable(a.action));
            if (!a.message.isEmpty())
                line += QStringLiteral(": %1").arg(printable(a.message));
            if (!a.userId.isEmpty())
                line += QStringLiteral("  by user %1").arg(printable(a.userId));
            if (!a.requestId.isEmpty())
                line += QStringLiteral("  (%1)").arg(printable(a.requestId));
            out << line;
        }
    } else {
        out << QStringLiteral("Nova's actions on %1: not read (%2)")
                   .arg(printable(server), printable(actionsError));
    }
    if (consoleRead) {
        out << (consoleLines.isEmpty()
                ? QStringLiteral("Console log: empty")
                : QStringLiteral("Console log, its last %1 line(s):").arg(consoleLines.size()));
        for (const QString &line : consoleLines)
            out << QStringLiteral("  | %1").arg(printable(line));
    } else {
        out << QStringLiteral("Console log: not read (%1)").arg(printable(consoleError));
    }
    return out;
}
