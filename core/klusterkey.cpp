#include "core/klusterkey.h"

#include <QHashFunctions>

QString KlusterKey::toString() const
{
    return connection + QLatin1Char('/') + kluster;
}

KlusterKey KlusterKey::fromString(const QString &text)
{
    const qsizetype slash = text.lastIndexOf(QLatin1Char('/'));
    if (slash < 0)
        return {};
    return { text.left(slash), text.mid(slash + 1) };
}

size_t qHash(const KlusterKey &key, size_t seed) noexcept
{
    return qHashMulti(seed, key.connection, key.kluster);
}
