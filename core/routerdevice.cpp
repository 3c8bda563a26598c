// The driver's validate answer read into what each device of the pair holds (docs/wire-formats.md, "The
// validate answer"): Neutron's side rebuilt as the driver builds it, then each device's route entries
// applied.

#include "core/routerdevice.h"

#include "core/cidr.h"
#include "core/json/jsonreader.h"

#include <QJsonArray>
#include <algorithm>

QString deviceRoleName(DeviceRole role)
{
    switch (role) {
    case DeviceRole::Active:
        return QStringLiteral("ACTIVE");
    case DeviceRole::Standby:
        return QStringLiteral("STANDBY");
    case DeviceRole::Unknown:
        break;
    }
    return QStringLiteral("role unknown");
}

QString canonicalRoute(const Route &route)
{
    const Cidr c = Cidr::parse(route.destination);
    return (c.isValid() ? c.toString() : route.destination) + QLatin1Char(' ')
        + canonicalAddress(route.nexthop);
}

RouterDevices withRoles(RouterDevices devices, const QStringList &activeHosts)
{
    const auto named
        = [&](const RouterDevice &d) { return activeHosts.contains(d.host, Qt::CaseInsensitive); };
    if (!std::any_of(devices.devices.cbegin(), devices.devices.cend(), named))
        return devices; // none of this pair named: their roles stay as they were
    for (RouterDevice &d : devices.devices)
        d.role = named(d) ? DeviceRole::Active : DeviceRole::Standby;
    return devices;
}

std::optional<bool> RouterDevice::holds(const Route &route) const
{
    const std::optional<int> at = positionOf(route);
    return at ? std::optional<bool>(*at >= 0) : std::nullopt;
}

std::optional<int> RouterDevice::positionOf(const Route &route) const
{
    const Cidr wanted = Cidr::parse(route.destination);
    const QString nexthop = canonicalAddress(route.nexthop);
    const qsizetype end = knowsAll() ? routes.size() : std::min<qsizetype>(known, routes.size());
    for (qsizetype i = 0; i < end; ++i) {
        const Route &r = routes.at(i);
        if (Cidr::parse(r.destination) == wanted && canonicalAddress(r.nexthop) == nexthop)
            return int(i);
    }
    if (knowsAll())
        return -1;
    // A device's list is sorted by the prefix's text (the driver sorts both sides): past a known route whose
    // prefix sorts after this one's, the device cannot hold it further on.
    if (end > 0) {
        const QString prefix = wanted.isValid() ? wanted.network().toString() : route.destination;
        const QString last = routes.at(end - 1).destination.section(QLatin1Char('/'), 0, 0);
        if (prefix < last)
            return -1;
    }
    return std::nullopt;
}

namespace {

const QString ListKey = QStringLiteral("ip-route-interface-forwarding-list");

// One element of the driver's route list: `ip route vrf <vrf> <prefix> <mask> <nexthop>…`. Neutron's side has
// one nexthop per element (a route each); a device's reading keys its routes by prefix and mask, so one
// element may hold several (its `fwd-list` a list).
struct Element
{
    QString prefix;
    QString mask;
    QStringList nexthops; // none: the default route to the gateway (its nexthop not known here)
};

QString maskOf(int length)
{
    const quint32 bits = length == 0 ? 0 : ~quint32(0) << (32 - length);
    return QStringLiteral("%1.%2.%3.%4")
        .arg(bits >> 24)
        .arg((bits >> 16) & 0xff)
        .arg((bits >> 8) & 0xff)
        .arg(bits & 0xff);
}

// The prefix length of a dotted mask; -1 when it is no mask.
int lengthOf(const QString &mask)
{
    const IpAddress a = IpAddress::parse(mask);
    if (!a.isIPv4())
        return -1;
    const quint32 bits = a.toIPv4();
    int length = 0;
    while (length < 32 && (bits & (quint32(1) << (31 - length))))
        ++length;
    return maskOf(length) == a.toString() ? length : -1;
}

// The routes an element stands for: one per nexthop (the default route to the gateway: one, its nexthop
// empty).
QList<Route> routesOf(const Element &e)
{
    const int length = lengthOf(e.mask);
    const QString destination = e.prefix + QLatin1Char('/') + (length < 0 ? e.mask : QString::number(length));
    QList<Route> routes;
    for (const QString &nexthop : e.nexthops)
        routes.append(Route { destination, nexthop });
    if (e.nexthops.isEmpty())
        routes.append(Route { destination, QString() });
    return routes;
}

QList<Element> intendedElements(const Router &router)
{
    QList<Element> list;
    bool ownDefault = false;
    for (const Route &r : router.routes) {
        const Cidr c = Cidr::parse(r.destination);
        if (!c.isValid() || !c.isIPv4())
            continue; // the driver programs IPv4 routes (a prefix and a mask)
        ownDefault = ownDefault || c.prefixLength() == 0;
        list.append({ c.network().toString(), maskOf(c.prefixLength()), { r.nexthop } });
    }
    if (router.hasGateway.value_or(false) && !ownDefault)
        list.append({ QStringLiteral("0.0.0.0"), QStringLiteral("0.0.0.0"), {} });
    std::stable_sort(
        list.begin(), list.end(), [](const Element &a, const Element &b) { return a.prefix < b.prefix; });
    return list;
}

// The nexthops of a `fwd-list`: an object (one), or a list of them (a device's reading of several).
QStringList nexthopsOf(const JsonReader &fwdList)
{
    QStringList nexthops;
    if (fwdList.isObject()) {
        nexthops << fwdList.requireString(QStringLiteral("fwd"));
    } else {
        const QJsonArray all = fwdList.requireArray();
        for (qsizetype i = 0; i < all.size(); ++i)
            nexthops << fwdList.at(i).requireString(QStringLiteral("fwd"));
    }
    return nexthops;
}

Element elementOf(const JsonReader &v)
{
    v.requireObject();
    Element e;
    e.prefix = v.requireString(QStringLiteral("prefix"));
    e.mask = v.requireString(QStringLiteral("mask"));
    e.nexthops = nexthopsOf(v.requireField(QStringLiteral("fwd-list")));
    return e;
}

// A list index as the answer gives it (a JSON number); -1 when it is none a list could have.
qint64 indexOf(const QJsonValue &v)
{
    const double d = v.toDouble(-1);
    return v.isDouble() && d >= 0 && d < 1e6 && d == double(qint64(d)) ? qint64(d) : -1;
}

// An entry's path: a dotted string, or a list of keys and indexes.
QVariantList pathOf(const JsonReader &item)
{
    QVariantList path;
    if (item.isString()) {
        const QString text = item.toString();
        if (!text.isEmpty()) {
            for (const QString &part : text.split(QLatin1Char('.')))
                path << part;
        }
        return path;
    }
    const QJsonArray parts = item.requireArray();
    for (qsizetype i = 0; i < parts.size(); ++i) {
        const QJsonValue p = parts.at(i);
        if (p.isDouble())
            path << indexOf(p);
        else
            path << item.at(i).requireStringValue();
    }
    return path;
}

bool isList(const QVariantList &path)
{
    return path.size() == 2 && path.at(0).toString() == QLatin1String("vrf")
        && path.at(1).toString() == ListKey;
}

// A device whose answer does not line up with Neutron's routes as rebuilt here: nothing about it is known.
RouterDevice misaligned(RouterDevice &d, const QString &why)
{
    d.routes.clear();
    d.known = 0;
    d.doubt = QStringLiteral("its answer does not line up with Neutron's routes (%1)").arg(why);
    return d;
}

// Rebuilds one device's list from Neutron's and its entries; says in `doubt` what it could not.
RouterDevice rebuild(const QString &host, const JsonReader &entries, const QList<Element> &intended,
    const QString &vrf, const QString &source)
{
    RouterDevice d;
    d.host = host;
    QList<Element> list = intended;
    QList<Element> added; // on the device past Neutron's list, by index
    qsizetype length = intended.size(); // the device's list's length
    qsizetype knownElements = -1; // -1: all
    bool lengthKnown = true;
    qsizetype seenUpTo = 0; // the device holds at least this many elements (a change at i: i + 1)
    const QJsonArray all = entries.requireArray();
    for (qsizetype i = 0; i < all.size(); ++i) {
        const JsonReader entry = entries.at(i);
        entry.requireObject();
        const QString type = entry.requireString(QStringLiteral("type"));
        // The driver names the router's routes by its VRF: the router's id without dashes.
        if (const QString entity = entry.optString(QStringLiteral("entity"));
            !entity.isEmpty() && entity != vrf)
            throw ParseError(source, entry.path() + QStringLiteral(".entity"),
                QStringLiteral("is about router %1, not %2").arg(entity, vrf));
        const QVariantList path = pathOf(entry.child(QStringLiteral("item")));
        const JsonReader neutron = entry.child(QStringLiteral("neutron"));
        const JsonReader device = entry.child(QStringLiteral("device"));
        if (path.isEmpty()) {
            // The whole document: the device holds no route for the router, or could not be reached (the
            // driver reads an unreachable device as an empty one): which, the answer does not say.
            d.routes.clear();
            d.known = 0;
            d.doubt
                = QStringLiteral("the driver reports no route at all on it: it holds none, or could not be "
                                 "reached");
            return d;
        }
        if (path.size() >= 4 && path.at(0).toString() == QLatin1String("vrf")
            && path.at(1).toString() == ListKey && type == QLatin1String("change")) {
            const qint64 at = path.at(2).toLongLong();
            if (at < 0 || at >= list.size())
                return misaligned(d, QStringLiteral("a change at route %1 of %2").arg(at).arg(list.size()));
            Element &e = list[at];
            const Element &n = intended.at(at);
            const QString field = path.at(3).toString();
            if ((field == QLatin1String("prefix") || field == QLatin1String("mask")) && path.size() == 4) {
                const bool prefix = field == QLatin1String("prefix");
                if (neutron.toString() != (prefix ? n.prefix : n.mask))
                    return misaligned(d, QStringLiteral("route %1's %2 is not Neutron's").arg(at).arg(field));
                (prefix ? e.prefix : e.mask) = device.toString();
            } else if (field == QLatin1String("fwd-list") && path.size() == 5
                && path.at(4).toString() == QLatin1String("fwd")) {
                if (!n.nexthops.isEmpty() && neutron.toString() != n.nexthops.value(0))
                    return misaligned(d, QStringLiteral("route %1's nexthop is not Neutron's").arg(at));
                e.nexthops = QStringList { device.toString() };
            } else if (field == QLatin1String("fwd-list") && path.size() == 4) {
                // The whole list of nexthops (a device holding several for one destination).
                if (!n.nexthops.isEmpty() && nexthopsOf(neutron) != n.nexthops)
                    return misaligned(d, QStringLiteral("route %1's nexthops are not Neutron's").arg(at));
                e.nexthops = nexthopsOf(device);
            } else {
                return misaligned(
                    d, QStringLiteral("a change of route %1 this reading does not know").arg(at));
            }
            seenUpTo = std::max(seenUpTo, qsizetype(at + 1));
            continue;
        }
        if (!isList(path))
            continue; // the VRF's name, another part of the document
        // dictdiffer's add/remove of list elements: one [index, value] pair on its side; two: one under
        // "neutron", the other under "device", whatever the type; more: neither.
        QList<std::pair<qint64, JsonReader>> pairs;
        for (const JsonReader &side : { neutron, device }) {
            if (side.isArray() && side.requireArray().size() == 2) {
                const qint64 at = indexOf(side.requireArray().at(0));
                if (at < 0)
                    return misaligned(d, QStringLiteral("an index that is none"));
                pairs.append({ at, side.at(1) });
            }
        }
        const bool told = !pairs.isEmpty();
        if (type == QLatin1String("remove")) {
            // Neutron's list is longer than the device's: its last elements are not on the device.
            if (told) {
                for (const auto &p : pairs) {
                    const Element e = elementOf(p.second);
                    if (p.first >= intended.size() || e.prefix != intended.at(p.first).prefix
                        || e.mask != intended.at(p.first).mask)
                        return misaligned(
                            d, QStringLiteral("route %1 removed is not Neutron's").arg(p.first));
                    length = std::min(length, qsizetype(p.first));
                }
            } else {
                lengthKnown = false;
                d.doubt = QStringLiteral(
                    "the driver's answer leaves out which of three or more routes are missing");
            }
        } else if (type == QLatin1String("add")) {
            if (told) {
                for (const auto &p : pairs)
                    added.append(elementOf(p.second));
            } else {
                d.doubt = QStringLiteral(
                    "the driver's answer leaves out three or more routes the device holds beyond Neutron's");
                knownElements = intended.size();
            }
        }
    }
    if (!lengthKnown) {
        length = seenUpTo;
        knownElements = seenUpTo;
    }
    list.resize(std::min(length, list.size()));
    list.append(added);
    qsizetype known = 0;
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QList<Route> routes = routesOf(list.at(i));
        d.routes.append(routes);
        if (knownElements < 0 || i < knownElements)
            known += routes.size();
    }
    d.known = knownElements < 0 ? -1 : int(known);
    return d;
}

} // namespace

namespace RouterDeviceReader {

QList<Route> intended(const Router &router)
{
    QList<Route> routes;
    for (const Element &e : intendedElements(router))
        routes.append(routesOf(e));
    return routes;
}

RouterDevices read(const QString &source, const QJsonObject &body, const Router &router)
{
    const JsonReader root(source, body);
    const JsonReader diffs = root.requireField(QStringLiteral("diffs"));
    const QJsonObject entities = diffs.requireObject();
    RouterDevices result;
    // The hosts the answer names (any entity lists every device that answered).
    QStringList hosts;
    for (auto it = entities.begin(); it != entities.end(); ++it) {
        if (it.value().isObject()) {
            for (const QString &host : it.value().toObject().keys()) {
                if (!hosts.contains(host))
                    hosts << host;
            }
        }
    }
    std::sort(hosts.begin(), hosts.end());
    const JsonReader routes = diffs.child(QStringLiteral("route"));
    const QList<Element> want = intendedElements(router);
    for (const QString &host : std::as_const(hosts)) {
        RouterDevice d;
        if (!routes.isUndefined() && !routes.isNull())
            routes.requireObject();
        if (routes.isUndefined() || routes.isNull() || !routes.value().toObject().contains(host)) {
            d.host = host;
            for (const Element &e : want)
                d.routes.append(routesOf(e));
        } else {
            d = rebuild(host, routes.child(host), want, QString(router.id).remove(QLatin1Char('-')), source);
            result.inStep = result.inStep && routes.child(host).requireArray().isEmpty();
            if (!d.doubt.isEmpty())
                result.notes << QStringLiteral(
                    "router device %1: %2; no route past its first %3 is judged on it")
                                    .arg(host, d.doubt)
                                    .arg(std::max(d.known, 0));
        }
        result.devices.append(d);
    }
    // The driver leaves out a device whose check failed: one named is no proof of the other's state.
    if (hosts.size() == 1)
        result.notes << QStringLiteral(
            "the ASR driver named one device of the router (%1): the other's check "
            "failed or the router has one; only %1 is judged")
                            .arg(hosts.first());
    return result;
}

} // namespace RouterDeviceReader
