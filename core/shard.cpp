#include "core/shard.h"

#include "core/printable.h"

#include <QCryptographicHash>
#include <QtEndian>
#include <algorithm>

std::optional<Shard> Shard::parse(const QString &text, QString *error)
{
    const QString given = text.trimmed();
    const qsizetype slash = given.indexOf(QLatin1Char('/'));
    bool indexOk = false;
    bool countOk = false;
    const int index = slash < 0 ? 0 : given.left(slash).toInt(&indexOk);
    const int count = slash < 0 ? 0 : given.mid(slash + 1).toInt(&countOk);
    // toInt takes "+1" and " 1": only digits are a shard.
    const auto digits = [](const QString &s) {
        return !s.isEmpty() && std::all_of(s.cbegin(), s.cend(), [](QChar c) { return c.isDigit(); });
    };
    if (slash < 0 || !indexOk || !countOk || !digits(given.left(slash)) || !digits(given.mid(slash + 1))
        || count < 1 || count > MaxCount || index < 0 || index >= count) {
        *error = QStringLiteral("\"%1\" is not a shard I/N (N from 1 to %2, I from 0 to N-1; e.g. 0/3, 1/3, "
                                "2/3)")
                     .arg(printable(text.left(40)))
                     .arg(MaxCount);
        return std::nullopt;
    }
    return Shard { index, count };
}

QString Shard::key(const QString &region, const QString &projectId, const QString &kluster)
{
    return region + QLatin1Char('/') + projectId + QLatin1Char('/') + kluster;
}

quint64 Shard::hash(const QString &key)
{
    const QByteArray digest = QCryptographicHash::hash(key.toUtf8(), QCryptographicHash::Sha1);
    return qFromBigEndian<quint64>(digest.constData());
}

int Shard::of(const QString &key, int count)
{
    return count <= 1 ? 0 : int(hash(key) % quint64(count));
}
