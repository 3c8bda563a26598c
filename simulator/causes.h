#pragma once

#include "simulator/world.h"

#include <QString>
#include <QStringList>

// The faults behind Flightdeck's incidents (diagnosis.md §5), port-address-pair-missing, Kubernikus' stalled
// automation (§7) and a terminated kluster's leftovers (§9), caused live on one kluster of the world by the
// admin API (`POST /klusters/<k>/cause {"rule": …}`), so that tests and a person trying the demo can watch
// each appear over real HTTP.
namespace Causes {

// The rules it can cause, as the admin API names them: "recycled-pod-cidr", "zone-outage",
// "security-group-detached", "pod-network-closed", "router-full", "port-address-pair-missing"; and, where the
// cloud has the ASR driver, the device's: "device-route-stale" (a deletion the pair missed), "device-route-
// missing" (an addition the STANDBY missed), "failover" (the STANDBY becomes the ACTIVE); Kubernikus' own:
// "flight-stalled", "servicing-stuck"; and what a terminated kluster leaves behind: "volume-stuck"
// (Terminating, its deorbiter held by a volume stuck in error_deleting), "debris" (the kluster gone, its
// volumes and load balancers left: `kluster` is then no longer in the world).
const QStringList &names();

// Causes `rule` on `kluster` (`zone`: for zone-outage, the zone to take down; empty: its first node's).
// Returns what it did, in words; empty with `error` set when it could not (no such rule, nothing to act on).
QString cause(World &world, SimKluster &kluster, const QString &rule, const QString &zone, QString *error);

} // namespace Causes
