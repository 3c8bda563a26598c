#include "services/auditlog.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QHash>
#include <QHostInfo>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QUuid>
#include <cerrno>
#include <csignal>
#include <sys/types.h>
#include <unistd.h>

QString AuditLog::path()
{
    // One log for the console and the command line: <data>/flightdeck/audit.jsonl.
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation))
        .filePath(QStringLiteral("flightdeck/audit.jsonl"));
}

bool AuditLog::append(const QJsonObject &record, QString *error)
{
    const QString file = path();
    if (!QDir().mkpath(QFileInfo(file).absolutePath())) {
        *error = QStringLiteral("%1: cannot create the folder").arg(QFileInfo(file).absolutePath());
        return false;
    }
    QJsonObject r = record;
    if (!r.contains(QStringLiteral("time")))
        r.insert(QStringLiteral("time"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
    QFile f(file);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Append)) {
        *error = QStringLiteral("%1: %2").arg(file, f.errorString());
        return false;
    }
    f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    const QByteArray line = QJsonDocument(r).toJson(QJsonDocument::Compact) + '\n';
    if (f.write(line) != line.size() || !f.flush() || ::fsync(f.handle()) != 0) {
        *error = QStringLiteral("%1: %2").arg(file, f.errorString());
        return false;
    }
    return true;
}

QString AuditLog::begin(const QJsonObject &record, QString *error)
{
    QJsonObject r = record;
    const QString id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    r.insert(QStringLiteral("id"), id);
    r.insert(QStringLiteral("phase"), QStringLiteral("started"));
    r.insert(QStringLiteral("process"),
        QJsonObject { { QStringLiteral("pid"), qint64(::getpid()) },
            { QStringLiteral("host"), QHostInfo::localHostName() } });
    return append(r, error) ? id : QString();
}

bool AuditLog::finish(const QString &id, const QJsonObject &outcome, QString *error)
{
    QJsonObject r = outcome;
    r.insert(QStringLiteral("id"), id);
    r.insert(QStringLiteral("phase"), QStringLiteral("finished"));
    r.insert(QStringLiteral("time"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
    return append(r, error);
}

QString AuditLog::interruptedMessage()
{
    return QStringLiteral(
        "interrupted before its result was recorded: its requests may have been sent, in part or "
        "whole; check the cloud");
}

// Is the process that wrote a started record still running (on this machine)?
static bool stillRunning(const QJsonObject &process)
{
    const qint64 pid = process.value(QStringLiteral("pid")).toInteger();
    if (pid <= 0 || process.value(QStringLiteral("host")).toString() != QHostInfo::localHostName())
        return false;
    return ::kill(pid_t(pid), 0) == 0 || errno == EPERM;
}

QList<QJsonObject> AuditLog::read(QString *error)
{
    Reader reader;
    reader.update(error);
    return reader.records();
}

bool AuditLog::Reader::update(QString *error)
{
    QFile f(path());
    if (!f.exists()) {
        *this = Reader();
        return true;
    }
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: %2").arg(f.fileName(), f.errorString());
        return false;
    }
    if (f.size() < m_offset)
        *this = Reader(); // rotated or cleared under us: nothing read before still holds
    if (!f.seek(m_offset)) {
        *error = QStringLiteral("%1: %2").arg(f.fileName(), f.errorString());
        return false;
    }
    while (!f.atEnd()) {
        // A line at a time, in a buffer of its own size (Qt's readLine(max) sets `max` bytes aside for every
        // line); one past 16 MiB is no record of ours: read past whole, and named.
        constexpr qsizetype MaxLine = qsizetype(1) << 24;
        QByteArray raw;
        qint64 consumed = 0;
        bool whole = false;
        char chunk[16384];
        for (qint64 n = 0; !whole && (n = f.readLine(chunk, sizeof chunk)) > 0;) {
            consumed += n;
            whole = chunk[n - 1] == '\n';
            if (consumed <= MaxLine)
                raw.append(chunk, n);
        }
        const bool tooLong = consumed > MaxLine;
        const QByteArray bytes = raw.trimmed();
        const QJsonDocument doc = tooLong ? QJsonDocument() : QJsonDocument::fromJson(bytes);
        if (!whole && f.atEnd() && !doc.isObject()) {
            // Being written now, or left torn by a crash: reported, and read again next time.
            *error = QStringLiteral("%1:%2: not a whole JSON record").arg(f.fileName()).arg(m_line + 1);
            break;
        }
        m_offset += consumed;
        ++m_line;
        if (tooLong) {
            *error = QStringLiteral("%1:%2: a line of %3 bytes, not a record (the limit is %4)")
                         .arg(f.fileName())
                         .arg(m_line)
                         .arg(consumed)
                         .arg(MaxLine);
            continue;
        }
        if (bytes.isEmpty())
            continue;
        if (!doc.isObject()) {
            *error = QStringLiteral("%1:%2: not a JSON record").arg(f.fileName()).arg(m_line);
            continue;
        }
        add(doc.object());
    }
    return true;
}

void AuditLog::Reader::add(const QJsonObject &r)
{
    const QString id = r.value(QStringLiteral("id")).toString();
    const QString phase = r.value(QStringLiteral("phase")).toString();
    if (phase == QLatin1String("finished") && m_open.contains(id)) {
        QJsonObject &merged = m_records[m_open.take(id)];
        const QString startedAt = merged.value(QStringLiteral("time")).toString();
        for (auto it = r.constBegin(); it != r.constEnd(); ++it)
            merged.insert(it.key(), it.value());
        merged.insert(QStringLiteral("time"), startedAt);
        merged.insert(QStringLiteral("finishedAt"), r.value(QStringLiteral("time")));
        return;
    }
    if (phase == QLatin1String("started"))
        m_open.insert(id, m_records.size());
    m_records.append(r);
}

QList<QJsonObject> AuditLog::Reader::records() const
{
    QList<QJsonObject> records = m_records; // shared, not copied: only the open ones are annotated
    for (auto it = m_open.cbegin(); it != m_open.cend(); ++it) {
        QJsonObject &r = records[it.value()];
        if (stillRunning(r.value(QStringLiteral("process")).toObject())) {
            r.insert(QStringLiteral("verification"), QStringLiteral("in progress"));
            r.insert(QStringLiteral("message"), QStringLiteral("being sent now"));
        } else {
            r.insert(QStringLiteral("verification"), QStringLiteral("interrupted"));
            r.insert(QStringLiteral("interrupted"), true);
            r.insert(QStringLiteral("message"), interruptedMessage());
        }
    }
    return records;
}
