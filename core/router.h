#pragma once

#include <QHashFunctions>
#include <QList>
#include <QString>
#include <optional>

struct Route
{
    QString destination;
    QString nexthop;

    friend bool operator==(const Route &a, const Route &b)
    {
        return a.destination == b.destination && a.nexthop == b.nexthop;
    }
    friend size_t qHash(const Route &r, size_t seed = 0) noexcept
    {
        return qHashMulti(seed, r.destination, r.nexthop);
    }
};

// A Neutron router as `GET /v2.0/routers/{id}` describes it; routes in router order.
struct Router
{
    QString id;
    QString name;
    qint64 revisionNumber = -1; // -1 when the server did not give one
    QList<Route> routes;
    // external_gateway_info set (a default route to the gateway on the device); none: the body did not say.
    std::optional<bool> hasGateway;
};
