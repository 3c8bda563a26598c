#include "core/cidr.h"

#include <QHashFunctions>
#include <cstring>

namespace {

int hexValue(QChar c)
{
    const char16_t u = c.unicode();
    if (u >= u'0' && u <= u'9')
        return u - u'0';
    if (u >= u'a' && u <= u'f')
        return u - u'a' + 10;
    if (u >= u'A' && u <= u'F')
        return u - u'A' + 10;
    return -1;
}

// Four decimal parts 0..255, no leading zeros, nothing else.
bool parseIPv4(QStringView text, quint8 *out)
{
    int part = 0;
    int value = 0;
    int digits = 0;
    for (qsizetype i = 0; i <= text.size(); ++i) {
        if (i == text.size() || text[i] == u'.') {
            if (digits == 0 || part > 3)
                return false;
            out[part++] = quint8(value);
            value = 0;
            digits = 0;
            continue;
        }
        const char16_t u = text[i].unicode();
        if (u < u'0' || u > u'9')
            return false;
        if (digits == 1 && value == 0)
            return false; // a leading zero
        value = value * 10 + (u - u'0');
        if (++digits > 3 || value > 255)
            return false;
    }
    return part == 4;
}

// RFC 4291 section 2.2: eight groups of up to four hex digits, one "::" for a
// run of zero groups, optionally the last 32 bits as dotted decimal.
bool parseIPv6(QStringView text, quint8 *out)
{
    std::array<quint16, 8> head {};
    std::array<quint16, 8> tail {};
    int heads = 0;
    int tails = 0;
    bool compressed = false;
    qsizetype i = 0;
    const qsizetype n = text.size();
    if (n >= 2 && text[0] == u':' && text[1] == u':') {
        compressed = true;
        i = 2;
    } else if (n >= 1 && text[0] == u':') {
        return false;
    }
    while (i < n) {
        // An IPv4 tail: the last part has a dot.
        const QStringView rest = text.mid(i);
        if (rest.contains(u'.') && !rest.contains(u':')) {
            quint8 v4[4];
            if (!parseIPv4(rest, v4))
                return false;
            const quint16 hi = quint16(v4[0] << 8 | v4[1]);
            const quint16 lo = quint16(v4[2] << 8 | v4[3]);
            for (quint16 g : { hi, lo }) {
                if (heads + tails >= 8)
                    return false;
                (compressed ? tail[tails++] : head[heads++]) = g;
            }
            break; // the tail ends the text
        }
        int value = 0;
        int digits = 0;
        while (i < n && hexValue(text[i]) >= 0) {
            value = value * 16 + hexValue(text[i]);
            if (++digits > 4)
                return false;
            ++i;
        }
        if (digits == 0)
            return false;
        if (heads + tails >= 8)
            return false;
        (compressed ? tail[tails++] : head[heads++]) = quint16(value);
        if (i == n)
            break;
        if (text[i] != u':')
            return false;
        ++i;
        if (i < n && text[i] == u':') {
            if (compressed)
                return false; // a second "::"
            compressed = true;
            ++i;
        } else if (i == n) {
            return false; // a trailing single ':'
        }
    }
    if (compressed ? heads + tails > 7 : heads != 8)
        return false;
    std::array<quint16, 8> groups {};
    for (int g = 0; g < heads; ++g)
        groups[g] = head[g];
    for (int g = 0; g < tails; ++g)
        groups[8 - tails + g] = tail[g];
    for (int g = 0; g < 8; ++g) {
        out[2 * g] = quint8(groups[g] >> 8);
        out[2 * g + 1] = quint8(groups[g] & 0xff);
    }
    return true;
}

} // namespace

IpAddress IpAddress::parse(QStringView text)
{
    IpAddress a;
    if (text.contains(u':')) {
        if (parseIPv6(text, a.m_bytes.data()))
            a.m_family = Family::V6;
    } else if (parseIPv4(text, a.m_bytes.data())) {
        a.m_family = Family::V4;
    }
    if (a.m_family == Family::None)
        a.m_bytes = {};
    return a;
}

quint32 IpAddress::toIPv4() const
{
    if (!isIPv4())
        return 0;
    return quint32(m_bytes[0]) << 24 | quint32(m_bytes[1]) << 16 | quint32(m_bytes[2]) << 8
        | quint32(m_bytes[3]);
}

IpAddress IpAddress::masked(int prefixLength) const
{
    IpAddress r = *this;
    const int bits = bitCount();
    for (int byte = 0; byte < bits / 8; ++byte) {
        const int keep = qBound(0, prefixLength - byte * 8, 8);
        r.m_bytes[size_t(byte)] &= quint8(0xff00 >> keep);
    }
    return r;
}

bool IpAddress::inSubnet(const IpAddress &network, int prefixLength) const
{
    if (isNull() || m_family != network.m_family || prefixLength < 0 || prefixLength > bitCount())
        return false;
    return masked(prefixLength) == network.masked(prefixLength);
}

QString IpAddress::toString() const
{
    if (isNull())
        return QString();
    if (isIPv4()) {
        // Written by hand: this runs for every address of every instance, node and route of a kluster.
        char text[16];
        char *p = text;
        for (size_t i = 0; i < 4; ++i) {
            if (i > 0)
                *p++ = '.';
            int v = m_bytes[i];
            if (v >= 100) {
                *p++ = char('0' + v / 100);
                v %= 100;
                *p++ = char('0' + v / 10);
                v %= 10;
            } else if (v >= 10) {
                *p++ = char('0' + v / 10);
                v %= 10;
            }
            *p++ = char('0' + v);
        }
        return QString::fromLatin1(text, p - text);
    }
    std::array<quint16, 8> g {};
    for (size_t i = 0; i < g.size(); ++i)
        g[i] = quint16(m_bytes[2 * i] << 8 | m_bytes[2 * i + 1]);
    // IPv4-mapped and IPv4-compatible addresses keep their IPv4 tail: ::ffff:10.0.0.1, ::10.0.0.1
    // (but ::1 stays ::1), as QHostAddress prints them.
    if (g[0] == 0 && g[1] == 0 && g[2] == 0 && g[3] == 0 && g[4] == 0
        && (g[5] == 0xffff || (g[5] == 0 && g[6] != 0))) {
        return QStringLiteral("::%1%2.%3.%4.%5")
            .arg(g[5] == 0xffff ? QStringLiteral("ffff:") : QString())
            .arg(m_bytes[12])
            .arg(m_bytes[13])
            .arg(m_bytes[14])
            .arg(m_bytes[15]);
    }
    // RFC 5952: the longest run of two or more zero groups (the first of equals) becomes "::".
    int bestStart = -1;
    int bestLength = 1;
    for (int i = 0; i < 8;) {
        if (g[size_t(i)] != 0) {
            ++i;
            continue;
        }
        int j = i;
        while (j < 8 && g[size_t(j)] == 0)
            ++j;
        if (j - i > bestLength) {
            bestStart = i;
            bestLength = j - i;
        }
        i = j;
    }
    QString out;
    for (int i = 0; i < 8; ++i) {
        if (i == bestStart) {
            out += QStringLiteral("::");
            i += bestLength - 1;
            continue;
        }
        if (!out.isEmpty() && !out.endsWith(QLatin1Char(':')))
            out += QLatin1Char(':');
        out += QString::number(g[size_t(i)], 16);
    }
    return out;
}

size_t IpAddress::hash(size_t seed) const noexcept
{
    return qHashMulti(seed, quint8(m_family), qHashBits(m_bytes.data(), m_bytes.size()));
}

Cidr Cidr::parse(const QString &text)
{
    Cidr result;
    const QStringView trimmed = QStringView(text).trimmed();
    const qsizetype slash = trimmed.indexOf(u'/');
    const IpAddress address = IpAddress::parse(slash < 0 ? trimmed : trimmed.left(slash));
    if (address.isNull())
        return result;
    int length = address.bitCount();
    if (slash >= 0) {
        const QStringView digits = trimmed.mid(slash + 1);
        bool ok = false;
        length = digits.isEmpty() || digits.size() > 3 ? -1 : digits.toInt(&ok);
        if (!ok || length < 0 || length > address.bitCount())
            return result;
        for (QChar c : digits)
            if (!c.isDigit())
                return result;
    }
    result.m_network = address.masked(length);
    result.m_prefixLength = length;
    return result;
}

bool Cidr::contains(const Cidr &other) const
{
    if (!isValid() || !other.isValid() || other.m_prefixLength < m_prefixLength)
        return false;
    return other.m_network.inSubnet(m_network, m_prefixLength);
}

bool Cidr::contains(const IpAddress &address) const
{
    return isValid() && address.inSubnet(m_network, m_prefixLength);
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

QString canonicalAddress(const QString &text)
{
    return IpAddress::parse(QStringView(text).trimmed()).toString();
}
