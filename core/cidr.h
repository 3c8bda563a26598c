#pragma once

#include <QString>
#include <array>

// An IPv4 or IPv6 address, parsed and printed here (the core links Qt Core
// only). Parsing is strict: IPv4 as four decimal parts without leading zeros,
// IPv6 as RFC 4291 text (with "::" and an IPv4 tail), no zone. Printing is
// canonical: dotted decimal, and RFC 5952 for IPv6.
class IpAddress
{
public:
    IpAddress() = default;

    static IpAddress parse(QStringView text);

    bool isNull() const { return m_family == Family::None; }
    bool isIPv4() const { return m_family == Family::V4; }
    int bitCount() const { return isIPv4() ? 32 : 128; }
    quint32 toIPv4() const; // 0 for anything but IPv4

    // Clears every bit past the first `prefixLength`.
    IpAddress masked(int prefixLength) const;
    bool inSubnet(const IpAddress &network, int prefixLength) const;

    QString toString() const;

    friend bool operator==(const IpAddress &a, const IpAddress &b)
    {
        return a.m_family == b.m_family && a.m_bytes == b.m_bytes;
    }
    friend bool operator!=(const IpAddress &a, const IpAddress &b) { return !(a == b); }
    friend size_t qHash(const IpAddress &a, size_t seed = 0) noexcept { return a.hash(seed); }

private:
    size_t hash(size_t seed) const noexcept;

    enum class Family : quint8
    {
        None,
        V4,
        V6
    };
    Family m_family = Family::None;
    std::array<quint8, 16> m_bytes {}; // IPv4 in the first four
};

// An IPv4 or IPv6 network in CIDR notation.
class Cidr
{
public:
    Cidr() = default;

    // Accepts "a.b.c.d/n" and a bare address (taken as a host route /32 or /128).
    // The host bits are cleared: "192.168.9.5/24" is 192.168.9.0/24.
    static Cidr parse(const QString &text);

    bool isValid() const { return m_prefixLength >= 0; }
    const IpAddress &network() const { return m_network; }
    int prefixLength() const { return m_prefixLength; }
    bool isIPv4() const { return m_network.isIPv4(); }

    // True when every address of `other` lies in this network.
    bool contains(const Cidr &other) const;
    bool contains(const IpAddress &address) const;

    // Canonical text: the network address (host bits cleared) and the prefix length.
    QString toString() const;

    friend bool operator==(const Cidr &a, const Cidr &b)
    {
        return a.m_prefixLength == b.m_prefixLength && a.m_network == b.m_network;
    }
    friend bool operator!=(const Cidr &a, const Cidr &b) { return !(a == b); }

private:
    IpAddress m_network;
    int m_prefixLength = -1;
};

size_t qHash(const Cidr &cidr, size_t seed = 0) noexcept;

// An IP address as a hashable key: its canonical text. Invalid text maps to an empty key.
QString canonicalAddress(const QString &text);
