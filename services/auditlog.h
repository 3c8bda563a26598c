#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

// The local audit log of repairs: JSON Lines in the user's data folder
// (QStandardPaths::GenericDataLocation + flightdeck/, e.g.
// ~/.local/share/flightdeck/audit.jsonl, shared by the console and the CLI),
// one record per repair sent, flushed to disk before the repair is reported.
// Records name who, where, what and the outcome; never a token or a secret.
class AuditLog
{
public:
    static QString path();
    // Appends `record` (with "time" added when absent); false with `error` on failure.
    static bool append(const QJsonObject &record, QString *error);
    static QList<QJsonObject> read(QString *error);
};
