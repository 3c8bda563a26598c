#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>

struct Diagnosis;
struct Finding;
struct KlusterState;

// `flightdeck-cli routes`: the kluster's router as a visual audit for a terminal. Every route Neutron holds
// (in its order) and every route a node needs and lacks, then the routes only a device holds; for each, its
// place in Neutron's order and on each device of the router's HA pair (where the ASR driver's view was read),
// its roles, whose its nexthop is, and the findings about it.
namespace RouteReport {

// {"kluster", "router": {"id", "name", "routes", "limit"}, "devices": {"read", "why", "notes", "columns":
// [{"host", "role"}]}, "routes": [{"destination", "nexthop", "neutron": position (1: first) or null, "roles":
// [...], "owner", "devices": [{"host", "state", "position"}], "findings": [ids]}]}
QByteArray toJson(const KlusterState &state, const Diagnosis &diagnosis);
// The same as a table, the routes that differ marked.
QByteArray toText(const KlusterState &state, const Diagnosis &diagnosis);

// The findings about each route ("<destination> via <nexthop>" as the router or device spells it): those that
// name it, and a route finding's repair that adds it (a missing route is on no router yet); the router's
// limit is about none of them.
QHash<QString, QList<const Finding *>> findingsByRoute(const Diagnosis &diagnosis);

} // namespace RouteReport
