#pragma once

#include <QHostAddress>
#include <QString>

// An IPv4 or IPv6 network in CIDR notation. All arithmetic is delegated to
// QHostAddress (parseSubnet, isInSubnet), never done by hand.
class Cidr
{
public:
    Cidr() = default;

    // Accepts "a.b.c.d/n" and a bare address (taken as a host route /32 or /128).
    static Cidr parse(const QString &text);

    bool isValid() const { return m_prefixLength >= 0; }
    const QHostAddress &network() const { return m_network; }
    int prefixLength() const { return m_prefixLength; }
    bool isIPv4() const { return m_network.protocol() == QAbstractSocket::IPv4Protocol; }

    // True when every address of `other` lies in this network.
    bool contains(const Cidr &other) const;
    bool contains(const QHostAddress &address) const;

    // Canonical text: the network address (host bits cleared) and the prefix length.
    QString toString() const;

    friend bool operator==(const Cidr &a, const Cidr &b)
    {
        return a.m_prefixLength == b.m_prefixLength && a.m_network == b.m_network;
    }
    friend bool operator!=(const Cidr &a, const Cidr &b) { return !(a == b); }

private:
    QHostAddress m_network;
    int m_prefixLength = -1;
};

size_t qHash(const Cidr &cidr, size_t seed = 0) noexcept;

// An IP address as a hashable key: IPv4 addresses as their 32-bit value,
// anything else by its canonical text. Invalid text maps to an empty key.
QString canonicalAddress(const QString &text);
