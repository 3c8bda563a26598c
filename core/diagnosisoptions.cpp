#include "core/diagnosisoptions.h"

std::optional<MaxUnhealthy> MaxUnhealthy::parse(const QString &text)
{
    QString t = text.trimmed();
    MaxUnhealthy result;
    result.isPercent = t.endsWith(QLatin1Char('%'));
    if (result.isPercent)
        t.chop(1);
    bool ok = false;
    const int value = t.trimmed().toInt(&ok);
    if (!ok || value < 0 || (result.isPercent && value > 100))
        return std::nullopt;
    result.value = value;
    return result;
}

qint64 MaxUnhealthy::resolve(qint64 expected) const
{
    if (!isPercent)
        return value;
    // Rounded down, as MachineHealthCheck does.
    return (expected * value) / 100;
}

QString MaxUnhealthy::toString() const
{
    return isPercent ? QString::number(value) + QLatin1Char('%') : QString::number(value);
}

std::optional<int> DiagnosisOptions::parseDurationSeconds(const QString &text)
{
    QString t = text.trimmed().toLower();
    int unit = 60;
    if (t.endsWith(QLatin1Char('s'))) {
        unit = 1;
        t.chop(1);
    } else if (t.endsWith(QLatin1Char('m'))) {
        unit = 60;
        t.chop(1);
    } else if (t.endsWith(QLatin1Char('h'))) {
        unit = 3600;
        t.chop(1);
    }
    bool ok = false;
    const qint64 value = t.trimmed().toLongLong(&ok);
    if (!ok || value < 0)
        return std::nullopt;
    const qint64 seconds = value * unit;
    if (value > qint64(365) * 24 * 3600 || seconds > qint64(365) * 24 * 3600)
        return std::nullopt; // more than a year: surely a mistake
    return int(seconds);
}
