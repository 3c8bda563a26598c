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

std::optional<bool> RouterDevice::holds(const Route &route) const
{
    const Cidr wanted = Cidr::parse(route.destination);
    const QString nexthop = canonicalAddress(route.nexthop);
    const qsizetype end = knowsAll() ? routes.size() : std::min<qsizetype>(known, routes.size());
    for (qsizetype i = 0; i < end; ++i) {
        const Route &r = routes.at(i);
        if (Cidr::parse(r.destination) == wanted && canonicalAddress(r.nexthop) == nexthop)
            return true;
    }
    if (!knowsAll())
        return std::nullopt;
    return false;
}

namespace {

const QString ListKey = QStringLiteral("ip-route-interface-forwarding-list");

// One element of the driver's route list: `ip route vrf <vrf> <prefix> <mask> <nexthop>`.
struct Element
{
    QString prefix;
    QString mask;
    QString nexthop; // empty: the default route to the gateway (not known here)
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

Route routeOf(const Element &e)
{
    const int length = lengthOf(e.mask);
    return Route { length < 0 ? e.prefix + QLatin1Char('/') + e.mask
                              : e.prefix + QLatin1Char('/') + QString::number(length),
        e.nexthop };
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
        list.append({ c.network().toString(), maskOf(c.prefixLength()), r.nexthop });
    }
    if (router.hasGateway.value_or(false) && !ownDefault)
        list.append({ QStringLiteral("0.0.0.0"), QStringLiteral("0.0.0.0"), QString() });
    std::stable_sort(
        list.begin(), list.end(), [](const Element &a, const Element &b) { return a.prefix < b.prefix; });
    return list;
}

// A route element as the answer gives it; `fwd-list` an object (one nexthop) or, as a device's reading may
// give it, a list of them (the first is the one that forwards).
Element elementOf(const JsonReader &v)
{
    v.requireObject();
    Element e;
    e.prefix = v.requireString(QStringLiteral("prefix"));
    e.mask = v.requireString(QStringLiteral("mask"));
    const JsonReader fwd = v.requireField(QStringLiteral("fwd-list"));
    const JsonReader first = fwd.isArray() ? fwd.at(0) : fwd;
    e.nexthop = first.requireString(QStringLiteral("fwd"));
    return e;
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
            path << qint64(p.toDouble());
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

// The nexthop of a `fwd-list`: an object, or (a device's reading of several) a list whose first forwards.
QString nexthopOf(const JsonReader &fwdList)
{
    if (!fwdList.isObject() && !fwdList.isArray())
        return QString();
    const JsonReader first = fwdList.isArray() ? fwdList.at(0) : fwdList;
    return first.isObject() ? first.optString(QStringLiteral("fwd")) : QString();
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
            // The whole document: the device holds no route for the router (or could not be read).
            if (type == QLatin1String("remove")) {
                list.clear();
                length = 0;
            }
            continue;
        }
        if (path.size() >= 4 && path.at(0).toString() == QLatin1String("vrf")
            && path.at(1).toString() == ListKey && type == QLatin1String("change")) {
            const qint64 at = path.at(2).toLongLong();
            if (at < 0 || at >= list.size())
                return misaligned(d, QStringLiteral("a change at route %1 of %2").arg(at).arg(list.size()));
            Element &e = list[at];
            const Element &n = intended.at(at);
            const QString field = path.at(3).toString();
            if (field == QLatin1String("prefix") || field == QLatin1String("mask")) {
                if (neutron.toString() != (field == QLatin1String("prefix") ? n.prefix : n.mask))
                    return misaligned(d, QStringLiteral("route %1's %2 is not Neutron's").arg(at).arg(field));
                (field == QLatin1String("prefix") ? e.prefix : e.mask) = device.toString();
            } else if (field == QLatin1String("fwd-list")) {
                const QString was = path.size() > 4 ? neutron.toString() : nexthopOf(neutron);
                if (!n.nexthop.isEmpty() && was != n.nexthop)
                    return misaligned(d, QStringLiteral("route %1's nexthop is not Neutron's").arg(at));
                e.nexthop = path.size() > 4 ? device.toString() : nexthopOf(device);
            }
            seenUpTo = std::max(seenUpTo, qsizetype(at + 1));
            continue;
        }
        if (!isList(path))
            continue; // the VRF's name, another part of the document
        // dictdiffer's add/remove of list elements: one [index, value] pair on its side; two: the first under
        // "neutron", the second under "device", whatever the type; more: neither.
        QList<std::pair<qint64, JsonReader>> pairs;
        for (const JsonReader &side : { neutron, device }) {
            if (side.isArray() && side.requireArray().size() == 2)
                pairs.append({ qint64(side.requireArray().at(0).toDouble()), side.at(1) });
        }
        const bool told = !pairs.isEmpty();
        if (type == QLatin1String("remove")) {
            // Neutron's list is longer than the device's: its last elements are not on the device.
            if (told) {
                for (const auto &p : pairs) {
                    const Element e = elementOf(p.second);
                    if (p.first < 0 || p.first >= intended.size() || e.prefix != intended.at(p.first).prefix
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
                d.known = int(intended.size());
            }
        }
    }
    if (!lengthKnown)
        length = seenUpTo;
    list.resize(std::min(length, list.size()));
    list.append(added);
    if (!lengthKnown)
        d.known = int(seenUpTo);
    for (const Element &e : std::as_const(list))
        d.routes.append(routeOf(e));
    return d;
}

} // namespace

namespace RouterDeviceReader {

QList<Route> intended(const Router &router)
{
    QList<Route> routes;
    for (const Element &e : intendedElements(router))
        routes.append(routeOf(e));
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
        if (routes.isUndefined() || routes.isNull() || !routes.value().toObject().contains(host)) {
            d.host = host;
            for (const Element &e : want)
                d.routes.append(routeOf(e));
        } else {
            routes.requireObject();
            d = rebuild(host, routes.child(host), want, QString(router.id).remove(QLatin1Char('-')), source);
            result.inStep = result.inStep && routes.child(host).requireArray().isEmpty();
            if (!d.doubt.isEmpty())
                result.notes << QStringLiteral("%1: %2").arg(host, d.doubt);
        }
        result.devices.append(d);
    }
    return result;
}

} // namespace RouterDeviceReader
