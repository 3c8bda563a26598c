#pragma once

// ApiParser::parseTimestamp as it was written first (a pattern, then Qt's ISO 8601 reading), kept as the
// reference the hand-written one is held to: tst_apiparser and the timestamp fuzz target compare them.
// Header-only: the fuzz targets include it too.

#include <QDateTime>
#include <QRegularExpression>
#include <QTimeZone>

inline QDateTime referenceParseTimestamp(const QString &text, bool requireZone = false)
{
    static const QRegularExpression shape(
        QStringLiteral("^\\d{4}-\\d{2}-\\d{2}[Tt]\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?([Zz]|[+-]\\d{2}:\\d{2})?$"));
    const QRegularExpressionMatch m = shape.match(text);
    if (!m.hasMatch() || (requireZone && m.captured(2).isEmpty()))
        return QDateTime();
    QString t = text;
    // Qt keeps milliseconds; trim longer fractions (Keystone writes microseconds).
    const qsizetype dot = t.indexOf(QLatin1Char('.'));
    if (dot > 0) {
        qsizetype end = dot + 1;
        while (end < t.size() && t.at(end).isDigit())
            ++end;
        if (end - dot - 1 > 3)
            t.remove(dot + 4, end - dot - 4);
    }
    QDateTime result = QDateTime::fromString(t, Qt::ISODateWithMs);
    if (!result.isValid())
        return QDateTime();
    if (result.timeSpec() == Qt::LocalTime)
        result.setTimeZone(QTimeZone::utc());
    result = result.toUTC();
    if (result.date().year() < 1 || result.date().year() > 9999)
        return QDateTime();
    return result;
}
