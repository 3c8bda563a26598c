#pragma once

// Ids that are the same on every run: a hash of what they name (a scenario's objects, a generated region's).
#include <QCryptographicHash>
#include <QString>

inline QString stableHex(const QString &seed)
{
    return QString::fromLatin1(
        QCryptographicHash::hash(seed.toUtf8(), QCryptographicHash::Sha1).toHex().left(32));
}

// A version-4-shaped UUID made of stableHex(seed).
inline QString stableUuid(const QString &seed)
{
    const QString h = stableHex(seed);
    return h.left(8) + QLatin1Char('-') + h.mid(8, 4) + QStringLiteral("-4") + h.mid(13, 3)
        + QStringLiteral("-a") + h.mid(17, 3) + QLatin1Char('-') + h.mid(20, 12);
}
