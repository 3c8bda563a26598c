#include "auditlog.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QStandardPaths>

#include <unistd.h>

QString AuditLog::path()
{
    // One log for the console and the command line: <data>/flightdeck/audit.jsonl.
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)).filePath(QStringLiteral("flightdeck/audit.jsonl"));
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

QList<QJsonObject> AuditLog::read(QString *error)
{
    QList<QJsonObject> records;
    QFile f(path());
    if (!f.exists())
        return records;
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: %2").arg(f.fileName(), f.errorString());
        return records;
    }
    int line = 0;
    while (!f.atEnd()) {
        const QByteArray bytes = f.readLine().trimmed();
        ++line;
        if (bytes.isEmpty())
            continue;
        const QJsonDocument doc = QJsonDocument::fromJson(bytes);
        if (!doc.isObject()) {
            *error = QStringLiteral("%1:%2: not a JSON record").arg(f.fileName()).arg(line);
            continue;
        }
        records.append(doc.object());
    }
    return records;
}
