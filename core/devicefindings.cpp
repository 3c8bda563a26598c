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

// device-route-missing: repaired by the nudge rather than the sync (the options ask for it, and the device
// that lacks the route is the ACTIVE).
static bool nudges(const DiagnosisContext &c, const Finding &f)
{
    return c.options.nudgeDeviceRoutes && deviceOf(c, f).role == DeviceRole::Active;
}

// device-route-missing: what repairs it, as its plan does.
static QString remedy(const DiagnosisContext &c, const Finding &f)
{
    if (nudges(c, f))
        return QStringLiteral(
            "Re-add the route in Neutron (removed, then added again: the driver's agent programs "
            "it on the devices again, without the driver's sync).");
    if (c.options.nudgeDeviceRoutes)
        return QStringLiteral(
            "Sync the router to the devices (a cloud admin's): re-adding the route in Neutron "
            "would take it off the device that holds it, and may forward, for a moment.");
    return QStringLiteral("Sync the router to the devices.");
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
            "addition). %5")
            .arg(d.host, router, r.destination, r.nexthop, remedy(c, f));
    case DeviceRole::Active:
        return QStringLiteral(
            "Device %1, the ACTIVE of router %2, lacks %3 via %4, which Neutron has: the pods "
            "behind this route are cut off although Neutron looks right (the device missed "
            "the addition). %5")
            .arg(d.host, router, r.destination, r.nexthop, remedy(c, f));
    case DeviceRole::Unknown:
        break;
    }
    return QStringLiteral("Device %1 of router %2 lacks %3 via %4, which Neutron has (the device missed the "
                          "addition). Which device of the pair forwards is not known: if it is this one, the "
                          "pods behind this route are cut off now. %5")
        .arg(d.host, router, r.destination, r.nexthop, remedy(c, f));
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
    // The nudge removes the route from every device for a moment: only where the one that forwards (the
    // ACTIVE, named by the team) lacks it already does it interrupt nothing that works.
    if (nudges(c, f))
        return RepairPlanner::renewRoutes(c.state.router, { routeOf(c, f) }, c.atomicRoutes);
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

// route-recycled: how long the route to a recycled CIDR has been gone, as a person reads it.
static QString agoText(const QDateTime &until, const QDateTime &now)
{
    const qint64 seconds = std::max<qint64>(0, until.secsTo(now));
    if (seconds < 2 * 60)
        return QStringLiteral("just now");
    if (seconds < 2 * 3600)
        return QStringLiteral("%1 min ago").arg(seconds / 60);
    return QStringLiteral("%1 h ago").arg(seconds / 3600);
}

static const RouteHistory::Gone &earlierOf(const DiagnosisContext &c, const Finding &f)
{
    return c.state.routeHistory->gone.at(f.facts.earlierRoute);
}

// The nexthops Neutron routes a destination to now, in its order.
static QStringList neutronNexthops(const DiagnosisContext &c, const Cidr &destination)
{
    QStringList out;
    for (const Route &r : c.state.router.routes) {
        if (Cidr::parse(r.destination) == destination)
            out << r.nexthop;
    }
    return out;
}

QString recycledMessage(const DiagnosisContext &c, const Finding &f)
{
    const Node &node = c.state.nodes.at(f.facts.node);
    const RouteHistory::Gone &g = earlierOf(c, f);
    const QString router = c.state.router.name.isEmpty() ? c.state.router.id : c.state.router.name;
    const QStringList now = neutronNexthops(c, node.podCidr);
    const QString neutron = now.isEmpty()
        ? QStringLiteral("Neutron has no route to it now")
        : QStringLiteral("Neutron routes it to %1 now").arg(now.join(QStringLiteral(", ")));
    const QString why = c.state.routerDeviceSource.error.isEmpty()
        ? QStringLiteral("the router's devices were not read")
        : QStringLiteral("the router's devices could not be read: %1").arg(c.state.routerDeviceSource.error);
    return QStringLiteral(
        "Node %1's pod CIDR %2 was routed to %3 until %4 (%5, by the local history); %6. Router %7 is on "
        "the ASR driver, where a deletion the devices missed keeps %3's route, and it wins where it is "
        "listed first: %1's pods can be cut off while Neutron looks right. Not confirmed: %8. Someone "
        "who may read the devices (a cloud admin) can check with flightdeck-cli routes --kluster %9.")
        .arg(node.name, node.podCidr.toString(), g.route.nexthop, g.until.toUTC().toString(Qt::ISODate),
            agoText(g.until, c.state.capturedAt), neutron, router, why, c.state.kluster.name);
}

QJsonObject recycledEvidence(const DiagnosisContext &c, const Finding &f)
{
    const Node &node = c.state.nodes.at(f.facts.node);
    const RouteHistory::Gone &g = earlierOf(c, f);
    QJsonObject e { { QStringLiteral("routerId"), c.state.router.id }, { QStringLiteral("node"), node.name },
        { QStringLiteral("podCIDR"), node.podCidr.toString() },
        { QStringLiteral("earlierNexthop"), g.route.nexthop },
        { QStringLiteral("changedAt"), g.until.toUTC().toString(Qt::ISODateWithMs) },
        { QStringLiteral("historySince"), c.state.routeHistory->since.toUTC().toString(Qt::ISODateWithMs) },
        { QStringLiteral("neutronNexthops"), QJsonArray::fromStringList(neutronNexthops(c, node.podCidr)) } };
    if (!c.state.routerDeviceSource.error.isEmpty())
        e.insert(QStringLiteral("deviceError"), c.state.routerDeviceSource.error);
    return e;
}

AffectedObjects recycledAffected(const DiagnosisContext &c, const Finding &f)
{
    const Node &node = c.state.nodes.at(f.facts.node);
    AffectedObjects a; // the node; the earlier route is no longer on the router to be shown
    a.nodes << node.name;
    return a;
}

// Where the devices were not read, on a cloud with the ASR driver: each node whose pod CIDR the history saw
// routed to another nexthop within the last day, a route Neutron no longer has (the device may have kept it).
void detectRecycled(Detection &d)
{
    const KlusterState &s = d.state;
    if (!s.routeHistory || s.routeHistory->gone.isEmpty() || !s.extensionsKnown
        || !s.hasExtension("asr1k_operations") || s.routerDeviceSource.known)
        return;
    const QDateTime dayAgo = s.capturedAt.addSecs(-24 * 3600);
    QSet<QString> inNeutron;
    for (const Route &r : s.router.routes)
        inNeutron.insert(canonicalRoute(r));
    QHash<Cidr, QList<int>> byDestination; // a destination -> its routes gone in the last day (into gone)
    const QList<RouteHistory::Gone> &gone = s.routeHistory->gone;
    for (int g = 0; g < gone.size(); ++g) {
        const Cidr destination = Cidr::parse(gone.at(g).route.destination);
        if (destination.isValid() && gone.at(g).until >= dayAgo
            && !inNeutron.contains(canonicalRoute(gone.at(g).route)))
            byDestination[destination].append(g); // in the order they went
    }
    if (byDestination.isEmpty())
        return;
    for (int n = 0; n < s.nodes.size(); ++n) {
        const Node &node = s.nodes.at(n);
        if (!node.podCidr.isValid() || node.internalIp.isEmpty() || d.ctx->index.isGhost(n))
            continue; // a ghost has its own finding
        const QString own = canonicalAddress(node.internalIp);
        int earlier = -1; // the latest that led elsewhere
        for (int g : byDestination.value(node.podCidr)) {
            if (canonicalAddress(gone.at(g).route.nexthop) != own)
                earlier = g;
        }
        if (earlier < 0)
            continue;
        FindingFacts facts;
        facts.node = n;
        facts.earlierRoute = earlier;
        d.result.findings.append(
            d.make(FindingKind::RouteRecycled, node.podCidr.toString(), std::move(facts)));
    }
}

} // namespace DeviceFindings
