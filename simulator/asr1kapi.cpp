// The ASR1k driver's device API (sapcc/asr1k-neutron-l3, alias asr1k_operations), as docs/wire-formats.md
// describes it from the driver's code: GET validate (each device of the router's pair against Neutron, the
// driver's dictdiffer entries), PUT sync, DELETE teardown; a cloud admin only (401 otherwise); a router not
// known to one L3 agent: 500 "No agent can be determined".

#include "simulator/simulator.h"

#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>

namespace {

QByteArray toJson(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

HttpResponse neutronError(int status, const QString &type, const QString &message)
{
    return HttpResponse::json(status,
        toJson(QJsonObject { { QStringLiteral("NeutronError"),
            QJsonObject { { QStringLiteral("type"), type }, { QStringLiteral("message"), message },
                { QStringLiteral("detail"), QString() } } } }));
}

// `ip route vrf <vrf> <prefix> <mask> <nexthop>…` as the driver's document holds it (route.py to_dict): on
// Neutron's side a route each; a device keys its routes by prefix and mask, so several nexthops of one
// destination are one element whose `fwd-list` is a list.
struct Element
{
    QString prefix;
    QString mask;
    QStringList nexthops;
    QJsonValue fwdList() const
    {
        if (nexthops.size() == 1)
            return QJsonObject { { QStringLiteral("fwd"), nexthops.first() } };
        QJsonArray list;
        for (const QString &n : nexthops)
            list.append(QJsonObject { { QStringLiteral("fwd"), n } });
        return list;
    }
    QJsonObject json() const
    {
        return QJsonObject { { QStringLiteral("prefix"), prefix }, { QStringLiteral("mask"), mask },
            { QStringLiteral("fwd-list"), fwdList() } };
    }
};

// The driver's list: IPv4 routes, sorted by the prefix's text (stable); a device's (`keyed`) with one element
// per prefix and mask.
QList<Element> elements(const QList<SimRoute> &routes, bool keyed)
{
    QList<Element> list;
    for (const SimRoute &r : routes) {
        const QPair<QHostAddress, int> subnet = QHostAddress::parseSubnet(r.destination);
        if (subnet.first.protocol() != QAbstractSocket::IPv4Protocol)
            continue;
        const quint32 mask = subnet.second == 0 ? 0 : ~quint32(0) << (32 - subnet.second);
        const Element e { subnet.first.toString(), QHostAddress(mask).toString(), { r.nexthop } };
        const auto same = std::find_if(list.begin(), list.end(),
            [&e](const Element &x) { return x.prefix == e.prefix && x.mask == e.mask; });
        if (keyed && same != list.end())
            same->nexthops << r.nexthop;
        else
            list.append(e);
    }
    std::stable_sort(
        list.begin(), list.end(), [](const Element &a, const Element &b) { return a.prefix < b.prefix; });
    return list;
}

// dictdiffer's entries between Neutron's document and a device's (ny_base.py `_diff`): the lists compared by
// index; a change per differing field; the elements past the shorter list as one add or remove, their
// [index, value] pairs placed as the driver places them (one: on its side; two: the first under "neutron",
// the second under "device"; more: neither).
QJsonArray entries(
    const QString &vrf, const QList<Element> &neutron, const QList<Element> &device, bool tornDown)
{
    QJsonArray out;
    const auto entry
        = [&vrf](const QString &type, const QJsonValue &item, const QJsonValue &n, const QJsonValue &d) {
              return QJsonObject { { QStringLiteral("entity"), vrf }, { QStringLiteral("type"), type },
                  { QStringLiteral("item"), item }, { QStringLiteral("neutron"), n },
                  { QStringLiteral("device"), d } };
          };
    const QString list = QStringLiteral("ip-route-interface-forwarding-list");
    if (tornDown) {
        QJsonArray routes;
        for (const Element &e : neutron)
            routes.append(e.json());
        const QJsonObject document { { QStringLiteral("name"), vrf }, { list, routes } };
        out.append(entry(QStringLiteral("remove"), QString(), QJsonArray { QStringLiteral("vrf"), document },
            QJsonValue()));
        return out;
    }
    const qsizetype common = std::min(neutron.size(), device.size());
    for (qsizetype i = 0; i < common; ++i) {
        const Element &n = neutron.at(i);
        const Element &d = device.at(i);
        const auto path = [&list, i](const QStringList &rest) {
            QJsonArray p { QStringLiteral("vrf"), list, int(i) };
            for (const QString &part : rest)
                p.append(part);
            return p;
        };
        if (n.prefix != d.prefix)
            out.append(
                entry(QStringLiteral("change"), path({ QStringLiteral("prefix") }), n.prefix, d.prefix));
        if (n.mask != d.mask)
            out.append(entry(QStringLiteral("change"), path({ QStringLiteral("mask") }), n.mask, d.mask));
        if (n.nexthops != d.nexthops) {
            // One nexthop each: the value changed; else the whole list (a dict against a list, for
            // dictdiffer).
            if (n.nexthops.size() == 1 && d.nexthops.size() == 1)
                out.append(entry(QStringLiteral("change"),
                    path({ QStringLiteral("fwd-list"), QStringLiteral("fwd") }), n.nexthops.first(),
                    d.nexthops.first()));
            else
                out.append(entry(QStringLiteral("change"), path({ QStringLiteral("fwd-list") }), n.fwdList(),
                    d.fwdList()));
        }
    }
    const bool removed = neutron.size() > device.size();
    const QList<Element> &longer = removed ? neutron : device;
    QJsonArray pairs;
    for (qsizetype i = common; i < longer.size(); ++i)
        pairs.append(QJsonArray { int(i), longer.at(i).json() });
    if (!pairs.isEmpty()) {
        const QString type = removed ? QStringLiteral("remove") : QStringLiteral("add");
        const QString item = QStringLiteral("vrf.") + list;
        if (pairs.size() == 1)
            out.append(removed ? entry(type, item, pairs.at(0), QJsonValue())
                               : entry(type, item, QJsonValue(), pairs.at(0)));
        else if (pairs.size() == 2)
            out.append(entry(type, item, pairs.at(0), pairs.at(1)));
        else
            out.append(entry(type, item, QJsonValue(), QJsonValue()));
    }
    return out;
}

} // namespace

HttpResponse Simulator::asr1kRouters(const HttpRequest &request, const SimToken &token, const QString &id)
{
    const QString method = QString::fromLatin1(request.method);
    const int u = m_world.userIndex(token.userId);
    // context_is_cloud_admin: the cloud's own rule (SAP's role:cloud_network_admin), or Neutron's admin.
    if (u < 0
        || (!m_world.users.at(u).roles.contains(QStringLiteral("admin"))
            && !m_world.users.at(u).roles.contains(QStringLiteral("cloud_network_admin"))))
        return neutronError(401, QStringLiteral("HTTPUnauthorized"),
            QStringLiteral(
                "This server could not verify that you are authorized to access the document you "
                "requested. Either you supplied the wrong credentials (e.g., bad password), or your "
                "browser does not understand how to supply the credentials required."));
    const int r = m_world.routerIndex(id);
    if (id.isEmpty() || r < 0 || m_world.routers.at(r).devices.isEmpty())
        return neutronError(
            500, QStringLiteral("HTTPInternalServerError"), QStringLiteral("No agent can be determined"));
    SimRouter &router = m_world.routers[r];
    if (method == QLatin1String("PUT")) {
        for (SimDevice &d : router.devices) {
            d.lacking.clear();
            d.tornDown = false;
            if (!m_world.deviceSyncAddsOnly)
                d.kept.clear();
        }
        return HttpResponse::json(200,
            toJson(QJsonObject { { QStringLiteral("device"),
                QJsonObject { { QStringLiteral("network_id"), QStringLiteral("Sync") } } } }));
    }
    if (method == QLatin1String("DELETE")) {
        for (SimDevice &d : router.devices) {
            d.lacking.clear();
            d.kept.clear();
            d.tornDown = true;
        }
        return HttpResponse::empty(204); // the plugin's {"device": {"id": "Teardown"}} is dropped
    }
    if (method != QLatin1String("GET"))
        return neutronError(
            405, QStringLiteral("HTTPMethodNotAllowed"), QStringLiteral("The method is not allowed"));
    const QString vrf = QString(router.id).remove(QLatin1Char('-'));
    const QList<Element> neutron = elements(inNeutronOrder(router.routes), false);
    QJsonObject perDevice;
    bool differs = false;
    for (const SimDevice &d : std::as_const(router.devices)) {
        const QJsonArray e
            = entries(vrf, neutron, elements(m_world.deviceRoutes(router, d), true), d.tornDown);
        differs = differs || !e.isEmpty();
        perDevice.insert(d.host, e);
    }
    QJsonObject diffs;
    if (differs)
        diffs.insert(QStringLiteral("route"), perDevice);
    return HttpResponse::json(200, toJson(QJsonObject { { QStringLiteral("diffs"), diffs } }));
}
