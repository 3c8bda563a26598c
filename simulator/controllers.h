#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QString>

class World;
struct SimKluster;

// One of Kubernikus' own controllers in the simulated cloud (sapcc/kubernikus pkg/controller/; docs/
// wire-formats.md): switched on or off per scenario and by the admin API's settings, run on the world's clock
// every `periodSeconds` (tests advance the clock instead of waiting).
struct SimController
{
    bool on = false;
    int periodSeconds = 300;
    QDateTime lastRun; // invalid: not yet
};

// Each controller in a room of its own: it reads the world and changes it through the world's own rules,
// as the real one does through the APIs.
namespace Controllers {

// Switches them from {"flight": true, "routegc": {"on": true, "periodSeconds": 60}, "servicing": false} (a
// scenario's cloud.controllers, the admin API's settings); a key not given keeps its controller as it is.
bool configure(World &world, const QJsonObject &settings, QString *error);

// Every controller that is on and due runs once; returns whether the world changed.
bool run(World &world);

// flight, on a Running kluster: deletes the instances still unregistered 45 min after they were created and
// those in ERROR, adds the kluster's security group back where an instance lacks it, recreates the
// pod-network rules.
bool flight(World &world, SimKluster &kluster);
// routegc, on a Running kluster: removes the routes into its pod network whose nexthop is no server's
// address.
bool routeGc(World &world, SimKluster &kluster);
// servicing, on a Running kluster: a node it is servicing (cordoned, stamped) comes back Ready and is
// uncordoned once its reboot is done, unless it is stuck.
bool servicing(World &world, SimKluster &kluster);

// flight's INSTANCE_SPAWNING_TIMEOUT.
inline constexpr int FlightDeleteSeconds = 45 * 60;
// How long a serviced node takes to come back in the simulation.
inline constexpr int ServicingRebootSeconds = 10 * 60;

} // namespace Controllers
