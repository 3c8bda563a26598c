#pragma once

// What the history's files share (historystore.cpp, historyfile.cpp, historyqueries.cpp and the subjects'
// files): instants as stored, and SQLite's words for an error. Inside services/ only.
#include <QDateTime>
#include <QSqlError>
#include <QString>
#include <QVariant>

namespace HistorySql {

inline qint64 ms(const QDateTime &t)
{
    return t.toMSecsSinceEpoch();
}

inline QDateTime fromMs(const QVariant &v)
{
    return v.isNull() ? QDateTime() : QDateTime::fromMSecsSinceEpoch(v.toLongLong(), Qt::UTC);
}

inline QString sqlError(const QSqlError &e)
{
    QString text = e.databaseText().isEmpty() ? e.text() : e.databaseText();
    return text.isEmpty() ? QStringLiteral("unknown error") : text;
}

inline bool isLocked(const QSqlError &e)
{
    // SQLITE_BUSY (5) and SQLITE_LOCKED (6)
    return e.nativeErrorCode() == QLatin1String("5") || e.nativeErrorCode() == QLatin1String("6")
        || e.databaseText().contains(QLatin1String("locked"));
}

} // namespace HistorySql
