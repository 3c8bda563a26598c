// The words, evidence and affected objects of device-route-stale and device-route-missing.

#include "core/devicefindings.h"

#include "core/detection.h"
#include "core/diagnosiscontext.h"
#include "core/projectindex.h"
#include "core/repairplanner.h"

#include <QJsonArray>
#include <QMap>
#include <QSet>

namespace DeviceFindings {

namespace {

const RouterDevice &deviceOf(const DiagnosisContext &c, const Finding &f)
{
    return c.state.routerDevices.devices.at(f.facts.device);
}

// The route a finding is about: on the device (stale), or on the router (missing).
const Route &routeOf(const DiagnosisContext &c, const Finding &f)
{
    return f.kind == FindingKind::DeviceRouteStale ? deviceOf(c, f).routes.at(f.facts.deviceRoute)
                                                   : c.state.router.routes.at(f.facts.deviceRoute);
}

QJsonArray routesJson(const QList<Route> &routes)
{
    QJsonArray list;
    for (const Route &route : routes)
        list.append(QJsonObject { { QStringLiteral("destination"), route.destination },
            { QStringLiteral("nexthop"), route.nexthop } });
    return list;
}

} // namespace

Severity staleSeverity(const FindingFacts &facts)
{
    // On the STANDBY it wins only after a failover.
    return facts.competes && !facts.onStandby ? Severity::Critical : Severity::Warning;
}

Severity missingSeverity(const FindingFacts &facts)
{
    return facts.onStandby ? Severity::Warning : Severity::Critical;
}

QString staleMessage(const DiagnosisContext &c, const Finding &f)
{
    const RouterDevice &d = deviceOf(c, f);
    const Route &r = routeOf(c, f);
    const QString router = c.state.router.name.isEmpty() ? c.state.router.id : c.state.router.name;
    return f.facts.competes
        ? QStringLiteral(
            "Device %1 (%2) of router %3 still holds %4 via %5, which Neutron no longer has (a "
            "deletion the device missed): a node's pod network or a route of Neutron's has that "
            "destination, so traffic for %4 can go to %5 on the device while Neutron says "
            "otherwise%6. The known recovery is to tear the router's configuration on the devices "
            "down and sync it again (every kluster on the router loses its routes until the sync ends).")
              .arg(d.host, deviceRoleName(d.role), router, r.destination, r.nexthop,
                  d.role == DeviceRole::Standby ? QStringLiteral(" once it is the ACTIVE (after a failover)")
                                                : QString())
        : QStringLiteral(
            "Device %1 (%2) of router %3 still holds %4 via %5, which Neutron no longer has (a "
            "deletion the device missed). No node's pod network is routed there now, so nothing is "
            "cut off yet; a node that gets %4 later would be.")
              .arg(d.host, deviceRoleName(d.role), router, r.destination, r.nexthop);
}

QString missingMessage(const DiagnosisContext &c, const Finding &f)
{
    const RouterDevice &d = deviceOf(c, f);
    const Route &r = routeOf(c, f);
    const QString router = c.state.router.name.isEmpty() ? c.state.router.id : c.state.router.name;
    switch (d.role) {
    case DeviceRole::Standby:
        return QStringLiteral(
            "Device %1, the STANDBY of router %2, lacks %3 via %4, which Neutron has: nothing "
            "is cut off now, but a failover cuts this route's pods off (the device missed the "
            "addition). Sync the router to the devices.")
            .arg(d.host, router, r.destination, r.nexthop);
    case DeviceRole::Active:
        return QStringLiteral(
            "Device %1, the ACTIVE of router %2, lacks %3 via %4, which Neutron has: the pods "
            "behind this route are cut off although Neutron looks right (the device missed "
            "the addition). Sync the router to the devices.")
            .arg(d.host, router, r.destination, r.nexthop);
    case DeviceRole::Unknown:
        break;
    }
    return QStringLiteral("Device %1 of router %2 lacks %3 via %4, which Neutron has (the device missed the "
                          "addition). Which device of the pair forwards is not known: if it is this one, the "
                          "pods behind this route are cut off now. Sync the router to the devices.")
        .arg(d.host, router, r.destination, r.nexthop);
}

QJsonObject evidence(const DiagnosisContext &c, const Finding &f)
{
    const RouterDevice &d = deviceOf(c, f);
    const Route &r = routeOf(c, f);
    const QJsonArray held = routesJson(d.routes);
    const QJsonArray neutron = routesJson(c.state.router.routes);
    QJsonObject e { { QStringLiteral("routerId"), c.state.router.id }, { QStringLiteral("device"), d.host },
        { QStringLiteral("role"), deviceRoleName(d.role) }, { QStringLiteral("destination"), r.destination },
        { QStringLiteral("nexthop"), r.nexthop }, { QStringLiteral("deviceRoutes"), held },
        { QStringLiteral("neutronRoutes"), neutron } };
    if (!d.knowsAll())
        e.insert(QStringLiteral("knownRoutes"), d.known);
    return e;
}

std::optional<RepairPlan> sync(const DiagnosisContext &c, const Finding &f)
{
    return RepairPlanner::syncDevices(c.state.router, { routeOf(c, f) });
}

// Who loses the router's routes while its devices are torn down: this kluster, the klusters whose instances
// are nexthops of the router (by their instances' prefix: kks-<kluster>-<pool>), the other routes (an
// operator's), each with how many routes.
static QStringList cutOffBy(const DiagnosisContext &c)
{
    int mine = 0;
    int others = 0;
    QMap<QString, int> klusters;
    for (const RouteAudit::Entry &e : c.audit.entries()) {
        if (e.position < 0)
            continue;
        if (!(e.roles & RouteAudit::Foreign))
            ++mine;
        else if ((e.roles & RouteAudit::OtherKluster) && !e.nexthopInstance.isEmpty())
            klusters[ProjectIndex::nodePrefixOf(e.nexthopInstance)] += 1;
        else
            ++others;
    }
    QStringList out;
    if (mine > 0)
        out << QStringLiteral("kluster %1 (%2 routes)").arg(c.state.kluster.name).arg(mine);
    for (auto it = klusters.cbegin(); it != klusters.cend(); ++it)
        out << QStringLiteral("the kluster of %1-… (%2 routes)").arg(it.key()).arg(it.value());
    if (others > 0)
        out << QStringLiteral("%1 other routes (an operator's, or a kluster not read)").arg(others);
    return out;
}

std::optional<RepairPlan> reset(const DiagnosisContext &c, const Finding &f)
{
    return RepairPlanner::resetDevices(c.state.router, { routeOf(c, f) }, cutOffBy(c));
}

AffectedObjects affected(const DiagnosisContext &c, const Finding &f)
{
    AffectedObjects a;
    a.routes << routeOf(c, f);
    return a;
}

// Where the devices were read: for each device, the routes of the kluster's pod network it holds that Neutron
// does not (stale), and those Neutron has that it lacks (missing), as far as its routes are known.
void detect(Detection &d)
{
    const KlusterState &s = d.state;
    const Cidr &pods = s.kluster.clusterCidr;
    if (!s.routerDeviceSource.known || !s.routerSource.known || !pods.isValid())
        return;
    d.result.notes << s.routerDevices.notes; // what the driver's answer left out: nothing is judged on it
    const auto ours = [&pods](const Route &r) {
        const Cidr c = Cidr::parse(r.destination);
        return c.isValid() && c.prefixLength() > 0 && pods.contains(c);
    };
    QSet<QString> inNeutron;
    QSet<QString> competing; // destinations a stale route can win: nodes' pod networks, the router's routes
    for (const Route &r : s.router.routes) {
        inNeutron.insert(canonicalRoute(r));
        competing.insert(Cidr::parse(r.destination).toString());
    }
    // A node's own route (its pod CIDR via its InternalIP) a device holds and Neutron lacks is the one that
    // works, not a stale one: Neutron's gap is route-missing.
    QSet<QString> needed;
    for (const Node &n : s.nodes) {
        if (!n.podCidr.isValid())
            continue;
        competing.insert(n.podCidr.toString());
        if (!n.internalIp.isEmpty())
            needed.insert(canonicalRoute(Route { n.podCidr.toString(), n.internalIp }));
    }
    for (int di = 0; di < s.routerDevices.devices.size(); ++di) {
        const RouterDevice &device = s.routerDevices.devices.at(di);
        const int known = device.knowsAll() ? int(device.routes.size())
                                            : std::min(device.known, int(device.routes.size()));
        for (int ri = 0; ri < known; ++ri) {
            const Route &r = device.routes.at(ri);
            if (r.nexthop.isEmpty() || !ours(r) || inNeutron.contains(canonicalRoute(r))
                || needed.contains(canonicalRoute(r)))
                continue;
            FindingFacts facts;
            facts.device = di;
            facts.deviceRoute = ri;
            facts.competes = competing.contains(Cidr::parse(r.destination).toString());
            facts.onStandby = device.role == DeviceRole::Standby;
            d.result.findings.append(d.make(FindingKind::DeviceRouteStale,
                QStringLiteral("%1 via %2 on %3").arg(r.destination, r.nexthop, device.host),
                std::move(facts)));
        }
        for (int ri = 0; ri < s.router.routes.size(); ++ri) {
            const Route &r = s.router.routes.at(ri);
            if (!ours(r) || !Cidr::parse(r.destination).isIPv4() || device.holds(r).value_or(true))
                continue;
            FindingFacts facts;
            facts.device = di;
            facts.deviceRoute = ri;
            facts.onStandby = device.role == DeviceRole::Standby;
            d.result.findings.append(d.make(FindingKind::DeviceRouteMissing,
                QStringLiteral("%1 via %2 on %3").arg(r.destination, r.nexthop, device.host),
                std::move(facts)));
        }
    }
}

} // namespace DeviceFindings
