#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

// One entry of a port's allowed_address_pairs: an address or a CIDR the port may send from besides its own.
struct AddressPair
{
    QString ipAddress; // "100.100.3.0/24" or "10.0.0.9"
    QString macAddress; // empty: the port's own
};

// A Neutron port as `GET /v2.0/ports` describes it (the fields diagnosis.md §1 reads).
struct Port
{
    QString id;
    QString deviceId; // the instance (or router) it belongs to
    QStringList fixedIps; // fixed_ips[].ip_address
    // Absent when the cloud has no port-security extension (or the field was not listed): not known to be on.
    std::optional<bool> portSecurityEnabled;
    QList<AddressPair> allowedAddressPairs;
    qint64 revision = -1; // revision_number; -1 when not given
};

// The pairs as Neutron writes them: [{"ip_address", "mac_address" (when set)}].
inline QJsonArray addressPairsJson(const QList<AddressPair> &pairs)
{
    QJsonArray list;
    for (const AddressPair &p : pairs) {
        QJsonObject pair { { QStringLiteral("ip_address"), p.ipAddress } };
        if (!p.macAddress.isEmpty())
            pair.insert(QStringLiteral("mac_address"), p.macAddress);
        list.append(pair);
    }
    return list;
}
