#pragma once

#include "core/debris.h"
#include "core/instance.h"
#include "core/node.h"
#include "core/port.h"
#include "core/repairplan.h"
#include "core/router.h"
#include "core/securitygroup.h"

#include <QList>
#include <QString>

// Turns a repair into the exact requests of diagnosis.md §3. Pure: the same
// router, instance or group always gives the same plan, so a plan can be made
// again from freshly read state (after a 412, say) and compared.
namespace RepairPlanner {

RepairPlan deleteInstance(const Instance &instance);
RepairPlan deleteNode(const Node &node); // Kubernetes DELETE /api/v1/nodes/{name}
RepairPlan addSecurityGroup(const Instance &instance, const QString &groupName);
// A stopped instance started again: Nova's os-start (SHUTOFF), resume (SUSPENDED) or unpause (PAUSED).
RepairPlan startInstance(const Instance &instance);
QString startAction(const Instance &instance); // "os-start", "resume" or "unpause"
RepairPlan createSecurityGroupRule(
    const SecurityGroup &group, const QString &protocol, const QString &remoteIpPrefix);
// The pod network `cidr` added to the port's allowed address pairs, every pair it has kept: one PUT of the
// port, guarded with `If-Match: revision_number=<n>` where the cloud honours it (`guarded`) and the revision
// is known, so that a concurrent change is refused (412) rather than overwritten.
RepairPlan addAddressPair(const Port &port, const QString &cidr, bool guarded);
// The ASR driver's sync of `router` to its devices (docs/wire-formats.md): `PUT /v2.0/asr1k/routers/{id}`, a
// cloud admin's; it programs the router's configuration on the devices again (what a device lacks is
// added).
RepairPlan syncDevices(const Router &router, const QList<Route> &lacking);
// The only known recovery from a route a device kept (docs/wire-formats.md): the driver's teardown of the
// router's configuration on its devices (`DELETE /v2.0/asr1k/routers/{id}`), then its sync (`PUT`), both a
// cloud admin's. Every route of the router is gone from the devices until the sync ends: `cutOff` names who
// loses them, and the router's name is typed to confirm.
RepairPlan resetDevices(const Router &router, const QList<Route> &kept, const QStringList &cutOff);

// The seeds' nudge for routes a device lacks (where the driver's sync may not be sent): the same routes
// removed from the router in Neutron, then added again, and the driver's agent programs them on the devices
// again. With extraroute-atomic, remove_extraroutes then add_extraroutes; otherwise the full list without
// them, then with them, each guarded by the revision it follows (Neutron counts every update by one).
RepairPlan renewRoutes(const Router &router, const QList<Route> &routes, bool atomic);

// Route changes: the atomic remove_extraroutes/add_extraroutes where the
// `extraroute-atomic` extension exists; otherwise the full new list, PUT with
// `If-Match: revision_number=<n>` so that a concurrent change is refused (412)
// rather than overwritten. Without a known revision no full-list plan is safe,
// and the plan carries the refusal NoRevision.
RepairPlan removeRoutes(const Router &router, const QList<Route> &routes, bool atomic);
RepairPlan addRoutes(const Router &router, const QList<Route> &routes, bool atomic);
// Several route findings of one router as one change: one remove_extraroutes with every route to remove,
// then one add_extraroutes with every route to add (removals first, so the limit is not crossed on the
// way), or one guarded full-list PUT with the final list.
RepairPlan changeRoutes(
    const Router &router, const QList<Route> &removed, const QList<Route> &added, bool atomic);

// What a terminated kluster left behind (diagnosis.md §9), deleted: a volume (`DELETE volumev3
// /volumes/{id}`); one stuck deleting first reset to `error` (`os-reset_status`, an admin's); a load balancer
// with its listeners and pools (`DELETE load-balancer /v2/lbaas/loadbalancers/{id}?cascade=true`). The
// kluster's name is typed to confirm.
RepairPlan deleteVolume(const Volume &volume, const QString &kluster);
RepairPlan resetAndDeleteVolume(const Volume &volume, const QString &kluster);
RepairPlan deleteLoadBalancer(const LoadBalancer &loadBalancer, const QString &kluster);

// The route list a router would have after removing or adding routes, in router order.
QList<Route> routesWithout(const QList<Route> &current, const QList<Route> &removed);
QList<Route> routesWith(const QList<Route> &current, const QList<Route> &added);

// How many route entries this thread's plans have written into request bodies so far: the work plans
// cost, counted (not timed) by the tests and benchmarks that hold it linear in the routes.
qint64 routeEntriesWritten();

} // namespace RepairPlanner
