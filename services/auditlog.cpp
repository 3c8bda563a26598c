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
    QList<QJsonObject> records;
    QHash<QString, int> started; // id -> index in records
    QFile f(path());
    if (!f.exists())
        return records;
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: %2").arg(f.fileName(), f.errorString());
        return records;
    }
    int line = 0;
    while (!f.atEnd()) {
        const QByteArray bytes = f.readLine(1 << 24).trimmed();
        ++line;
        if (bytes.isEmpty())
            continue;
        const QJsonDocument doc = QJsonDocument::fromJson(bytes);
        if (!doc.isObject()) {
            *error = QStringLiteral("%1:%2: not a JSON record").arg(f.fileName()).arg(line);
            continue;
        }
        QJsonObject r = doc.object();
        const QString id = r.value(QStringLiteral("id")).toString();
        const QString phase = r.value(QStringLiteral("phase")).toString();
        if (phase == QLatin1String("finished") && started.contains(id)) {
            QJsonObject &merged = records[started.take(id)];
            const QString startedAt = merged.value(QStringLiteral("time")).toString();
            for (auto it = r.constBegin(); it != r.constEnd(); ++it)
                merged.insert(it.key(), it.value());
            merged.insert(QStringLiteral("time"), startedAt);
            merged.insert(QStringLiteral("finishedAt"), r.value(QStringLiteral("time")));
            continue;
        }
        if (phase == QLatin1String("started"))
            started.insert(id, int(records.size()));
        records.append(r);
    }
    for (auto it = started.cbegin(); it != started.cend(); ++it) {
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
