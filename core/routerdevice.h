#pragma once

#include "core/router.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

// Which device of the router's HA pair forwards: the driver's answer does not say (docs/wire-formats.md), so
// it comes from the person who knows the pair; unknown, a device may be the one that forwards.
enum class DeviceRole
{
    Unknown,
    Active,
    Standby,
};

QString deviceRoleName(DeviceRole role); // "ACTIVE", "STANDBY", "role unknown"

// A route as one text whatever its spelling ("10.0.0.0/24 10.1.0.5"): to compare Neutron's with a device's.
QString canonicalRoute(const Route &route);

// What one device of the router's pair holds for it, rebuilt from the driver's validate answer: its routes
// in the order it holds them (the driver's: by the prefix's text), known in full or up to `known`.
struct RouterDevice
{
    QString host; // as the driver names the device (its `host =`)
    DeviceRole role = DeviceRole::Unknown;
    QList<Route> routes; // CIDR destinations; the default route to the gateway has an empty nexthop
    int known = -1; // -1: every route it holds is known; else only routes [0, known)
    QString doubt; // why not every route is known (the answer's words fell short)

    bool knowsAll() const { return known < 0; }
    // Whether the device holds `route` (a destination and nexthop), as far as its routes are known: true,
    // false (also when the known part already passed where the driver's order by prefix would place it), or
    // none when the part that would say is not known.
    std::optional<bool> holds(const Route &route) const;
    // Where it holds `route` in its order (0: first), -1 where it does not, none where the part that would
    // say is not known.
    std::optional<int> positionOf(const Route &route) const;
};

// The pair's view of the router: every device that answered. `inStep`: the answer named no route difference
// (then `devices` lists the hosts the answer named, or none when it named no difference at all).
struct RouterDevices
{
    QList<RouterDevice> devices;
    bool inStep = true;
    QStringList notes; // what could not be rebuilt, said where the devices are shown
};

// `devices` with the roles the team gave: a device whose host is in `activeHosts` is the ACTIVE; where one of
// the pair is, the others are STANDBY; where none is, the roles stay as they were (unknown, as read).
RouterDevices withRoles(RouterDevices devices, const QStringList &activeHosts);

namespace RouterDeviceReader {

// Neutron's side as the driver compares it (models/neutron/l3/router.py `_build_routes`): the router's IPv4
// routes and, where it has a gateway and no default route of its own, the default route to the gateway (its
// nexthop unknown here: empty), sorted by the prefix's text (a stable sort, as Python's).
QList<Route> intended(const Router &router);

// The validate answer (`GET /v2.0/asr1k/routers/{id}`: {"diffs": {...}}) for `router`: each device's routes
// rebuilt from Neutron's and the answer's route entries. Throws ParseError (naming `source` and the JSON
// path) for a body that is not the driver's shape.
RouterDevices read(const QString &source, const QJsonObject &body, const Router &router);

} // namespace RouterDeviceReader
