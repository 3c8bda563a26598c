#pragma once

// Shared by every libFuzzer target of Flightdeck: one QCoreApplication for the
// whole process, Qt's messages kept quiet (they would slow the fuzzer down and
// bury its report), and helpers to split an input into parts.

#include <QByteArray>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QString>
#include <QtGlobal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace fuzz {

inline void quietMessages(QtMsgType type, const QMessageLogContext &, const QString &message)
{
    // qFatal still ends the process (as a crash the fuzzer reports); the rest
    // is shown only with FLIGHTDECK_FUZZ_VERBOSE=1.
    static const bool verbose = qEnvironmentVariableIntValue("FLIGHTDECK_FUZZ_VERBOSE") == 1;
    if (type == QtFatalMsg) {
        std::fprintf(stderr, "qFatal: %s\n", message.toLocal8Bit().constData());
        std::abort();
    }
    if (verbose)
        std::fprintf(stderr, "qt: %s\n", message.toLocal8Bit().constData());
}

// Called once from LLVMFuzzerInitialize: the application object lives until
// the process ends (Qt's global state is set up once, never per input).
inline void initQt()
{
    static int argc = 1;
    static char name[] = "flightdeck-fuzz";
    static char *argv[] = { name, nullptr };
    qInstallMessageHandler(quietMessages);
    // No plugins, no locale surprises: the C locale, UTC.
    qputenv("LC_ALL", "C");
    qputenv("TZ", "UTC");
    // Inputs are at most 64 KiB; a 1 MiB body limit keeps every read cheap
    // (QIODevice::read(limit) allocates the whole limit up front, and under
    // ASan the default 256 MiB costs about a second per file).
    qputenv("FLIGHTDECK_MAX_BODY_MB", "1");
    static QCoreApplication *app = new QCoreApplication(argc, argv);
    (void)app;
}

inline QByteArray bytes(const uint8_t *data, size_t size)
{
    // A deep copy: the fuzzer's buffer is only valid during the call, and Qt's
    // implicit sharing must never keep a pointer into it.
    return QByteArray(reinterpret_cast<const char *>(data), qsizetype(size));
}

// Splits `input` at the first line that is exactly `marker` (e.g. "#@secure.yaml"):
// `before` and `after` (nullopt-like `found` false when there is none).
struct Split
{
    QByteArray before;
    QByteArray after;
    bool found = false;
};
inline Split splitAt(const QByteArray &input, const QByteArray &marker)
{
    const QByteArray line = QByteArray('\n' + marker + '\n');
    const qsizetype at = input.indexOf(line);
    if (at < 0) {
        if (input.startsWith(QByteArray(marker + '\n')))
            return Split { QByteArray(), input.mid(marker.size() + 1), true };
        return Split { input, QByteArray(), false };
    }
    return Split { input.left(at + 1), input.mid(at + line.size()), true };
}

// A private scratch folder for targets that must go through files, removed at
// exit (libFuzzer's TMPDIR; scripts/fuzz points it into the build folder).
inline QString scratchDir()
{
    static QString *dir = nullptr;
    if (!dir) {
        QString base = qEnvironmentVariable("TMPDIR");
        if (base.isEmpty())
            base = QStringLiteral("/tmp");
        dir = new QString(
            QStringLiteral("%1/flightdeck-fuzz-%2").arg(base).arg(QCoreApplication::applicationPid()));
        QDir().mkpath(*dir);
        std::atexit([] { QDir(*dir).removeRecursively(); });
    }
    return *dir;
}

inline void writeFile(const QString &path, const QByteArray &content)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        std::fprintf(stderr, "fuzz: cannot write %s\n", qPrintable(path));
        std::abort();
    }
    f.write(content);
}

inline QByteArray readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "fuzz: cannot read %s\n", qPrintable(path));
        std::abort();
    }
    return f.readAll();
}

// A check of the fuzzer's own: a broken promise of the code under test.
#define FUZZ_CHECK(cond, ...)                                                                                \
    do {                                                                                                     \
        if (!(cond)) {                                                                                       \
            std::fprintf(stderr, "fuzz check failed at %s:%d: %s: ", __FILE__, __LINE__, #cond);             \
            std::fprintf(stderr, __VA_ARGS__);                                                               \
            std::fprintf(stderr, "\n");                                                                      \
            std::abort();                                                                                    \
        }                                                                                                    \
    } while (0)

} // namespace fuzz
