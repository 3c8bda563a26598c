#include "cidr.h"

#include <QHashFunctions>

Cidr Cidr::parse(const QString &text)
{
    Cidr result;
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return result;
    if (!trimmed.contains(QLatin1Char('/'))) {
        QHostAddress host;
        if (!host.setAddress(trimmed))
            return result;
        result.m_network = host;
        result.m_prefixLength = host.protocol() == QAbstractSocket::IPv4Protocol ? 32 : 128;
        return result;
    }
    const QPair<QHostAddress, int> subnet = QHostAddress::parseSubnet(trimmed);
    if (subnet.first.isNull() || subnet.second < 0)
        return result;
    // parseSubnet clears the host bits; "192.168.9.5/24" becomes 192.168.9.0/24.
    result.m_network = subnet.first;
    result.m_prefixLength = subnet.second;
    return result;
}

bool Cidr::contains(const Cidr &other) const
{
    if (!isValid() || !other.isValid())
        return false;
    if (m_network.protocol() != other.m_network.protocol())
        return false;
    if (other.m_prefixLength < m_prefixLength)
        return false;
    return other.m_network.isInSubnet(m_network, m_prefixLength);
}

bool Cidr::contains(const QHostAddress &address) const
{
    if (!isValid() || address.isNull())
        return false;
    return address.isInSubnet(m_network, m_prefixLength);
}

QString Cidr::toString() const
{
    if (!isValid())
        return QString();
    return m_network.toString() + QLatin1Char('/') + QString::number(m_prefixLength);
}

size_t qHash(const Cidr &cidr, size_t seed) noexcept
{
    return qHashMulti(seed, cidr.network(), cidr.prefixLength());
}

// True for dotted-quad IPv4 text that QHostAddress would print unchanged
// ("10.0.0.5", not "010.0.0.5" or " 10.0.0.5"): the common case, kept cheap.
static bool isCanonicalIPv4(const QString &text)
{
    int parts = 0;
    int digits = 0;
    int value = 0;
    bool leadingZero = false;
    for (QChar c : text) {
        if (c == QLatin1Char('.')) {
            if (digits == 0)
                return false;
            ++parts;
            digits = 0;
            value = 0;
            continue;
        }
        if (c < QLatin1Char('0') || c > QLatin1Char('9'))
            return false;
        if (digits == 1 && leadingZero)
            return false;
        leadingZero = digits == 0 && c == QLatin1Char('0');
        value = value * 10 + (c.unicode() - '0');
        if (++digits > 3 || value > 255)
            return false;
    }
    return parts == 3 && digits > 0;
}

QString canonicalAddress(const QString &text)
{
    if (isCanonicalIPv4(text))
        return text;
    QHostAddress address;
    if (!address.setAddress(text.trimmed()))
        return QString();
    return address.toString();
}
