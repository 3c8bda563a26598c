// A server's boot evidence (diagnosis.md §7): Nova's os-getConsoleOutput answer and its instance actions,
// read from one input (the console body, then after the first NUL byte the actions body). Expected: no crash;
// each body is read or refused with a ParseError naming it; at most ConsoleLines lines of at most
// MaxLineChars and MaxActions actions are kept; and the lines shown (describe(): the CLI's --explain, the
// details pane) carry no control character and no bidirectional override.

#include "core/bootevidence.h"
#include "core/json/jsonreader.h"
#include "fuzz/fuzzcommon.h"

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::initQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input = fuzz::bytes(data, size);
    const qsizetype split = input.indexOf('\0');
    const QByteArray console = split < 0 ? input : input.left(split);
    const QByteArray actions = split < 0 ? QByteArray() : input.mid(split + 1);
    BootEvidence e;
    e.serverId = QStringLiteral("id");
    e.serverName = QStringLiteral("kks-k-pool-a");
    try {
        e.consoleLines = BootEvidences::parseConsoleOutput(QStringLiteral("the console log"), console);
        e.consoleRead = true;
    } catch (const ParseError &error) {
        if (!error.toString().contains(QLatin1String("the console log")))
            qFatal("a refusal that does not name the body: %s", qPrintable(error.toString()));
        e.consoleError = error.toString();
    }
    try {
        e.actions = BootEvidences::parseInstanceActions(QStringLiteral("the instance actions"), actions);
        e.actionsRead = true;
    } catch (const ParseError &error) {
        if (!error.toString().contains(QLatin1String("the instance actions")))
            qFatal("a refusal that does not name the body: %s", qPrintable(error.toString()));
        e.actionsError = error.toString();
    }
    if (e.consoleLines.size() > BootEvidences::ConsoleLines || e.actions.size() > BootEvidences::MaxActions)
        qFatal("more kept than asked for");
    for (const QString &line : std::as_const(e.consoleLines)) {
        if (line.size() > BootEvidences::MaxLineChars)
            qFatal("a line of %lld characters", qlonglong(line.size()));
    }
    for (const QString &line : e.describe()) {
        for (const QChar c : line) {
            if (c.unicode() < 0x20 || c.unicode() == 0x7f || (c.unicode() >= 0x80 && c.unicode() < 0xa0)
                || (c.unicode() >= 0x202a && c.unicode() <= 0x202e) || c.unicode() == 0x2028
                || c.unicode() == 0x2029)
                qFatal("a control character shown: %s", qPrintable(line));
        }
    }
    return 0;
}
