// Neutron v2.0: discovery, extensions, routers and extra routes (with the
// If-Match revision guard and the route limit), networks, subnets, ports,
// security groups and rules.

#include "simulator/apirender.h"
#include "simulator/simulator.h"

#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>

namespace {

QByteArray toJson(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

// Filters (?name=x&id=a&id=b: repeated keys are ORed, keys ANDed), `fields`,
// and limit/marker pagination with links, as Neutron does them.
HttpResponse collection(
    const QString &url, const QString &name, const QList<QJsonObject> &items, const HttpRequest &request)
{
    QHash<QString, QStringList> filters;
    QStringList fields;
    for (const auto &item : request.query.queryItems(QUrl::FullyDecoded)) {
        if (item.first == QLatin1String("fields")) {
            fields << item.second;
        } else if (item.first == QLatin1String("changed_since")) {
            // The timestamp extension is listed, yet where filters are validated (Zed) its filter is refused.
            const QJsonObject error { { QStringLiteral("type"), QStringLiteral("HTTPBadRequest") },
                { QStringLiteral("message"),
                    QStringLiteral("['changed_since'] is invalid attribute for filtering") },
                { QStringLiteral("detail"), QString() } };
            return HttpResponse::json(400, toJson(QJsonObject { { QStringLiteral("NeutronError"), error } }));
        } else if (item.first != QLatin1String("limit") && item.first != QLatin1String("marker")
            && item.first != QLatin1String("page_reverse") && item.first != QLatin1String("sort_key")
            && item.first != QLatin1String("sort_dir"))
            filters[item.first] << item.second;
    }
    QList<QJsonObject> matched;
    for (const QJsonObject &o : items) {
        bool ok = true;
        for (auto f = filters.cbegin(); f != filters.cend() && ok; ++f) {
            const QJsonValue v = o.value(f.key());
            QString text;
            if (v.isString())
                text = v.toString();
            else if (v.isBool())
                text = v.toBool() ? QStringLiteral("True") : QStringLiteral("False");
            else if (v.isDouble())
                text = QString::number(v.toDouble());
            else if (v.isNull())
                text = QString();
            ok = f.value().contains(text)
                || (v.isBool() && f.value().contains(text.toLower(), Qt::CaseInsensitive));
        }
        if (ok)
            matched.append(o);
    }
    int start = 0;
    const QString marker = request.queryValue(QStringLiteral("marker"));
    if (!marker.isEmpty()) {
        for (int i = 0; i < matched.size(); ++i) {
            if (matched.at(i).value(QStringLiteral("id")).toString() == marker)
                start = i + 1;
        }
    }
    const int limit = request.query.hasQueryItem(QStringLiteral("limit"))
        ? request.queryValue(QStringLiteral("limit")).toInt()
        : -1;
    const int end = limit > 0 ? qMin(int(matched.size()), start + limit) : int(matched.size());
    QJsonArray list;
    for (int i = start; i < end; ++i) {
        if (fields.isEmpty()) {
            list.append(matched.at(i));
        } else {
            QJsonObject only;
            for (const QString &f : fields)
                only.insert(f, matched.at(i).value(f));
            list.append(only);
        }
    }
    QJsonObject body { { name, list } };
    if (limit > 0) {
        QJsonArray links;
        auto link = [&](const QString &rel, const QString &m, bool reverse) {
            QUrlQuery q;
            q.addQueryItem(QStringLiteral("limit"), QString::number(limit));
            q.addQueryItem(QStringLiteral("marker"), m);
            if (reverse)
                q.addQueryItem(QStringLiteral("page_reverse"), QStringLiteral("True"));
            return QJsonObject { { QStringLiteral("rel"), rel },
                { QStringLiteral("href"),
                    QString(url + request.path + QLatin1Char('?') + q.toString(QUrl::FullyEncoded)) } };
        };
        if (list.size() == limit)
            links.append(link(
                QStringLiteral("next"), matched.at(end - 1).value(QStringLiteral("id")).toString(), false));
        if (start < matched.size() && !matched.isEmpty())
            links.append(link(QStringLiteral("previous"),
                matched.at(qMin(start, int(matched.size()) - 1)).value(QStringLiteral("id")).toString(),
                true));
        body.insert(name + QStringLiteral("_links"), links);
    }
    return HttpResponse::json(200, toJson(body));
}

QList<SimRoute> routesOf(const QJsonObject &body, bool *ok)
{
    const QJsonValue routes = body.value(QStringLiteral("router")).toObject().value(QStringLiteral("routes"));
    QList<SimRoute> list;
    *ok = routes.isArray() || routes.isNull();
    for (const QJsonValue v : routes.toArray()) {
        const QJsonObject o = v.toObject();
        if (!v.isObject() || o.size() != 2 || !o.value(QStringLiteral("destination")).isString()
            || !o.value(QStringLiteral("nexthop")).isString()) {
            *ok = false;
            break;
        }
        list.append(SimRoute { o.value(QStringLiteral("destination")).toString(),
            o.value(QStringLiteral("nexthop")).toString() });
    }
    return list;
}

} // namespace

HttpResponse Simulator::neutron(const HttpRequest &request, const SimToken &token)
{
    const QString service = QStringLiteral("network");
    const QString url = endpoint(service);
    const QString method = QString::fromLatin1(request.method);
    if (request.path == QLatin1String("/")) {
        return HttpResponse::json(200,
            toJson(QJsonObject { { QStringLiteral("versions"),
                QJsonArray { QJsonObject { { QStringLiteral("id"), QStringLiteral("v2.0") },
                    { QStringLiteral("status"), QStringLiteral("CURRENT") },
                    { QStringLiteral("links"),
                        QJsonArray { QJsonObject { { QStringLiteral("rel"), QStringLiteral("self") },
                            { QStringLiteral("href"),
                                QString(url + QStringLiteral("/v2.0/")) } } } } } } } }));
    }
    QStringList parts = request.path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    if (parts.value(0) != QLatin1String("v2.0") || request.path == QLatin1String("/v2.0"))
        return errorFor(
            service, 404, QStringLiteral("HTTPNotFound"), QStringLiteral("The resource could not be found."));
    parts.removeFirst();
    if (parts.isEmpty()) {
        QJsonArray resources;
        for (const char *r :
            { "networks", "subnets", "ports", "routers", "security-groups", "security-group-rules" }) {
            const QString n = QString::fromLatin1(r);
            resources.append(QJsonObject { { QStringLiteral("name"), n }, { QStringLiteral("collection"), n },
                { QStringLiteral("links"),
                    QJsonArray { QJsonObject { { QStringLiteral("rel"), QStringLiteral("self") },
                        { QStringLiteral("href"), QString(url + QStringLiteral("/v2.0/") + n) } } } } });
        }
        return HttpResponse::json(200, toJson(QJsonObject { { QStringLiteral("resources"), resources } }));
    }
    // Strip a ".json" suffix some clients add.
    if (parts.last().endsWith(QLatin1String(".json")))
        parts.last().chop(5);
    const QString collectionName = parts.first();
    const QString id = parts.value(1);
    const QString project = token.projectId;

    if (collectionName == QLatin1String("asr1k") && m_world.asr1k) {
        if (parts.value(1) == QLatin1String("routers") && parts.size() <= 3)
            return asr1kRouters(request, token, parts.value(2));
        return errorFor(
            service, 404, QStringLiteral("HTTPNotFound"), QStringLiteral("The resource could not be found."));
    }
    if (collectionName == QLatin1String("extensions")) {
        const QStringList aliases = ApiRender::extensionAliases(m_world);
        if (id.isEmpty())
            return HttpResponse::json(200, toJson(ApiRender::extensions(m_world)));
        if (!aliases.contains(id))
            return errorFor(service, 404, QStringLiteral("HTTPNotFound"),
                QStringLiteral("Extension with alias %1 does not exist").arg(id));
        for (const QJsonValue e :
            ApiRender::extensions(m_world).value(QStringLiteral("extensions")).toArray()) {
            if (e.toObject().value(QStringLiteral("alias")).toString() == id)
                return HttpResponse::json(
                    200, toJson(QJsonObject { { QStringLiteral("extension"), e.toObject() } }));
        }
    }

    if (collectionName == QLatin1String("routers")) {
        if (id.isEmpty() && method == QLatin1String("GET")) {
            QList<QJsonObject> items;
            for (const SimRouter &r : m_world.routers) {
                if (r.projectId == project)
                    items.append(ApiRender::router(m_world, r));
            }
            return collection(url, QStringLiteral("routers"), items, request);
        }
        const int r = m_world.routerIndex(id);
        if (r < 0 || m_world.routers.at(r).projectId != project)
            return errorFor(service, 404, QStringLiteral("RouterNotFound"),
                QStringLiteral("Router %1 could not be found").arg(id));
        if (parts.size() == 2 && method == QLatin1String("GET"))
            return HttpResponse::json(200,
                toJson(QJsonObject {
                    { QStringLiteral("router"), ApiRender::router(m_world, m_world.routers.at(r)) } }));
        if (method == QLatin1String("PUT")) {
            const QString action = parts.value(2);
            if (!action.isEmpty() && !m_world.extraRouteAtomic)
                return errorFor(service, 404, QStringLiteral("HTTPNotFound"),
                    QStringLiteral("The resource could not be found."));
            if (!action.isEmpty() && action != QLatin1String("add_extraroutes")
                && action != QLatin1String("remove_extraroutes"))
                return errorFor(service, 404, QStringLiteral("HTTPNotFound"),
                    QStringLiteral("The resource could not be found."));
            // If-Match: revision_number=N (extension revision-if-match).
            const QByteArray ifMatch = request.header("if-match");
            if (!ifMatch.isEmpty()) {
                const QByteArray expected
                    = ifMatch.startsWith("revision_number=") ? ifMatch.mid(16) : QByteArray();
                if (expected.toLongLong() != m_world.routers.at(r).revision) {
                    return errorFor(service, 412, QStringLiteral("RevisionNumberConstraintFailed"),
                        QStringLiteral("Constrained to %1, but current revision is %2")
                            .arg(QString::fromUtf8(expected))
                            .arg(m_world.routers.at(r).revision));
                }
            }
            QJsonParseError parseError;
            const QJsonObject body = QJsonDocument::fromJson(request.body, &parseError).object();
            if (parseError.error != QJsonParseError::NoError)
                return errorFor(
                    service, 400, QStringLiteral("HTTPBadRequest"), QStringLiteral("Malformed request body"));
            bool ok = false;
            const QList<SimRoute> given = routesOf(body, &ok);
            if (!ok) {
                return errorFor(service, 400, QStringLiteral("HTTPBadRequest"),
                    QStringLiteral("Invalid input for routes. Reason: Invalid data format for hostroute."));
            }
            if (!body.value(QStringLiteral("router")).toObject().contains(QStringLiteral("routes"))) {
                return HttpResponse::json(200,
                    toJson(QJsonObject {
                        { QStringLiteral("router"), ApiRender::router(m_world, m_world.routers.at(r)) } }));
            }
            QList<SimRoute> next = m_world.routers.at(r).routes;
            if (action == QLatin1String("add_extraroutes")) {
                for (const SimRoute &route : given) {
                    if (!next.contains(route)) // an exact duplicate is merged
                        next.append(route);
                }
            } else if (action == QLatin1String("remove_extraroutes")) {
                for (const SimRoute &route : given)
                    next.removeAll(route); // absent routes are ignored
            } else {
                next = given;
            }
            if (const auto error = m_world.setRoutes(r, next))
                return errorFor(service, error->status, error->type, error->message);
            return HttpResponse::json(200,
                toJson(QJsonObject {
                    { QStringLiteral("router"), ApiRender::router(m_world, m_world.routers.at(r)) } }));
        }
        return errorFor(service, 405, QStringLiteral("HTTPMethodNotAllowed"),
            QStringLiteral("The method is not allowed."));
    }

    if (collectionName == QLatin1String("networks") && method == QLatin1String("GET")) {
        QList<QJsonObject> items;
        for (const SimNetwork &n : m_world.networks) {
            if (n.projectId == project && (id.isEmpty() || n.id == id))
                items.append(ApiRender::network(n));
        }
        if (!id.isEmpty()) {
            if (items.isEmpty())
                return errorFor(service, 404, QStringLiteral("NetworkNotFound"),
                    QStringLiteral("Network %1 could not be found.").arg(id));
            return HttpResponse::json(
                200, toJson(QJsonObject { { QStringLiteral("network"), items.first() } }));
        }
        return collection(url, QStringLiteral("networks"), items, request);
    }
    if (collectionName == QLatin1String("subnets") && method == QLatin1String("GET")) {
        QList<QJsonObject> items;
        for (const SimNetwork &n : m_world.networks) {
            if (n.projectId == project && (id.isEmpty() || n.subnetId == id))
                items.append(ApiRender::subnet(n));
        }
        if (!id.isEmpty()) {
            if (items.isEmpty())
                return errorFor(service, 404, QStringLiteral("SubnetNotFound"),
                    QStringLiteral("Subnet %1 could not be found.").arg(id));
            return HttpResponse::json(
                200, toJson(QJsonObject { { QStringLiteral("subnet"), items.first() } }));
        }
        return collection(url, QStringLiteral("subnets"), items, request);
    }
    if (collectionName == QLatin1String("ports") && method == QLatin1String("GET")) {
        QList<QJsonObject> items;
        for (const SimPort &p : m_world.ports) {
            // The project's own, found before anything is rendered: a region's other projects hold thousands.
            if (!id.isEmpty() && p.id != id)
                continue;
            const int n = m_world.networkIndex(p.networkId);
            if (n >= 0 && m_world.networks.at(n).projectId == project)
                items.append(ApiRender::port(m_world, p));
        }
        // The routers' interfaces, as router ports: each router's in the order of the networks (a
        // thousand routers and networks were a million look-ups of a subnet in a list).
        QMultiHash<QString, int> networkOfSubnet;
        for (int i = 0; i < m_world.networks.size(); ++i)
            networkOfSubnet.insert(m_world.networks.at(i).subnetId, i);
        for (const SimRouter &r : m_world.routers) {
            if (r.projectId != project)
                continue;
            QList<int> interfaces;
            for (const QString &subnet : r.interfaceSubnetIds) {
                for (auto [n, end] = networkOfSubnet.equal_range(subnet); n != end; ++n)
                    interfaces.append(*n);
            }
            std::sort(interfaces.begin(), interfaces.end());
            interfaces.erase(std::unique(interfaces.begin(), interfaces.end()), interfaces.end());
            for (const int i : std::as_const(interfaces)) {
                const SimNetwork &n = m_world.networks.at(i);
                items.append(
                    QJsonObject { { QStringLiteral("id"), QString(r.id.left(24) + n.subnetId.right(12)) },
                        { QStringLiteral("name"), QString() }, { QStringLiteral("network_id"), n.id },
                        { QStringLiteral("tenant_id"), project }, { QStringLiteral("project_id"), project },
                        { QStringLiteral("device_id"), r.id },
                        { QStringLiteral("device_owner"), QStringLiteral("network:router_interface") },
                        { QStringLiteral("mac_address"), QStringLiteral("fa:16:3e:00:00:01") },
                        { QStringLiteral("status"), QStringLiteral("ACTIVE") },
                        { QStringLiteral("admin_state_up"), true },
                        { QStringLiteral("fixed_ips"),
                            QJsonArray { QJsonObject { { QStringLiteral("subnet_id"), n.subnetId },
                                { QStringLiteral("ip_address"), n.gateway } } } },
                        { QStringLiteral("allowed_address_pairs"), QJsonArray() },
                        { QStringLiteral("security_groups"), QJsonArray() },
                        { QStringLiteral("revision_number"), 1 } });
            }
        }
        if (!id.isEmpty()) {
            for (const QJsonObject &o : items) {
                if (o.value(QStringLiteral("id")).toString() == id)
                    return HttpResponse::json(200, toJson(QJsonObject { { QStringLiteral("port"), o } }));
            }
            return errorFor(service, 404, QStringLiteral("PortNotFound"),
                QStringLiteral("Port %1 could not be found.").arg(id));
        }
        return collection(url, QStringLiteral("ports"), items, request);
    }

    if (collectionName == QLatin1String("ports") && method == QLatin1String("PUT") && !id.isEmpty()) {
        const int p = m_world.portIndex(id);
        if (p < 0
            || ApiRender::port(m_world, m_world.ports.at(p)).value(QStringLiteral("project_id")).toString()
                != project)
            return errorFor(service, 404, QStringLiteral("PortNotFound"),
                QStringLiteral("Port %1 could not be found.").arg(id));
        SimPort &port = m_world.ports[p];
        const QByteArray ifMatch = request.header("if-match");
        if (!ifMatch.isEmpty()) {
            const QByteArray expected
                = ifMatch.startsWith("revision_number=") ? ifMatch.mid(16) : QByteArray();
            if (expected.toLongLong() != port.revision)
                return errorFor(service, 412, QStringLiteral("RevisionNumberConstraintFailed"),
                    QStringLiteral("Constrained to %1, but current revision is %2")
                        .arg(QString::fromUtf8(expected))
                        .arg(port.revision));
        }
        QJsonParseError parseError;
        const QJsonObject body = QJsonDocument::fromJson(request.body, &parseError).object();
        const QJsonObject update = body.value(QStringLiteral("port")).toObject();
        if (parseError.error != QJsonParseError::NoError || update.isEmpty())
            return errorFor(
                service, 400, QStringLiteral("HTTPBadRequest"), QStringLiteral("Malformed request body"));
        if (update.contains(QStringLiteral("allowed_address_pairs"))) {
            QStringList pairs;
            for (const QJsonValue v : update.value(QStringLiteral("allowed_address_pairs")).toArray()) {
                const QString ip = v.toObject().value(QStringLiteral("ip_address")).toString();
                const QString mac
                    = v.toObject().value(QStringLiteral("mac_address")).toString(port.macAddress);
                const bool isCidr = ip.contains(QLatin1Char('/'));
                if (ip.isEmpty()
                    || (isCidr ? QHostAddress::parseSubnet(ip).second < 0 : QHostAddress(ip).isNull()))
                    return errorFor(service, 400, QStringLiteral("HTTPBadRequest"),
                        QStringLiteral(
                            "Invalid input for allowed_address_pairs. Reason: '%1' is not a valid IP "
                            "address.")
                            .arg(ip));
                if (pairs.contains(ip))
                    return errorFor(service, 400, QStringLiteral("DuplicateAddressPairInRequest"),
                        QStringLiteral(
                            "Request contains duplicate address pair: mac_address %1 ip_address %2.")
                            .arg(mac, ip));
                pairs.append(ip);
            }
            port.allowedAddressPairs = pairs;
        }
        ++port.revision;
        port.updated = m_world.now();
        return HttpResponse::json(
            200, toJson(QJsonObject { { QStringLiteral("port"), ApiRender::port(m_world, port) } }));
    }

    if (collectionName == QLatin1String("security-groups") && method == QLatin1String("GET")) {
        QList<QJsonObject> items;
        for (const SimSecurityGroup &g : m_world.securityGroups) {
            if (g.projectId == project && (id.isEmpty() || g.id == id))
                items.append(ApiRender::securityGroup(g));
        }
        if (!id.isEmpty()) {
            if (items.isEmpty())
                return errorFor(service, 404, QStringLiteral("SecurityGroupNotFound"),
                    QStringLiteral("Security group %1 does not exist").arg(id));
            return HttpResponse::json(
                200, toJson(QJsonObject { { QStringLiteral("security_group"), items.first() } }));
        }
        return collection(url, QStringLiteral("security_groups"), items, request);
    }
    if (collectionName == QLatin1String("security-group-rules")) {
        if (method == QLatin1String("GET")) {
            QList<QJsonObject> items;
            for (const SimSecurityGroup &g : m_world.securityGroups) {
                if (g.projectId != project)
                    continue;
                for (const SimRule &r : g.rules) {
                    if (id.isEmpty() || r.id == id)
                        items.append(ApiRender::rule(g, r));
                }
            }
            if (!id.isEmpty()) {
                if (items.isEmpty())
                    return errorFor(service, 404, QStringLiteral("SecurityGroupRuleNotFound"),
                        QStringLiteral("Security group rule %1 does not exist").arg(id));
                return HttpResponse::json(
                    200, toJson(QJsonObject { { QStringLiteral("security_group_rule"), items.first() } }));
            }
            return collection(url, QStringLiteral("security_group_rules"), items, request);
        }
        if (method == QLatin1String("POST") && id.isEmpty()) {
            const QJsonObject body = QJsonDocument::fromJson(request.body)
                                         .object()
                                         .value(QStringLiteral("security_group_rule"))
                                         .toObject();
            SimRule rule;
            rule.groupId = body.value(QStringLiteral("security_group_id")).toString();
            const int g = m_world.groupIndex(rule.groupId);
            if (g < 0 || m_world.securityGroups.at(g).projectId != project)
                return errorFor(service, 404, QStringLiteral("SecurityGroupNotFound"),
                    QStringLiteral("Security group %1 does not exist").arg(rule.groupId));
            rule.direction = body.value(QStringLiteral("direction")).toString();
            rule.ethertype = body.value(QStringLiteral("ethertype")).toString(QStringLiteral("IPv4"));
            const QJsonValue protocol = body.value(QStringLiteral("protocol"));
            if (protocol.isString())
                rule.protocol = protocol.toString();
            else if (protocol.isDouble())
                rule.protocol = QString::number(protocol.toInt());
            if (body.value(QStringLiteral("port_range_min")).isDouble())
                rule.portRangeMin = body.value(QStringLiteral("port_range_min")).toInt();
            if (body.value(QStringLiteral("port_range_max")).isDouble())
                rule.portRangeMax = body.value(QStringLiteral("port_range_max")).toInt();
            if (body.value(QStringLiteral("remote_ip_prefix")).isString())
                rule.remoteIpPrefix = body.value(QStringLiteral("remote_ip_prefix")).toString();
            if (body.value(QStringLiteral("remote_group_id")).isString())
                rule.remoteGroupId = body.value(QStringLiteral("remote_group_id")).toString();
            rule.description = body.value(QStringLiteral("description")).toString();
            SimRule created;
            if (const auto error = m_world.createRule(rule, &created))
                return errorFor(service, error->status, error->type, error->message);
            return HttpResponse::json(201,
                toJson(QJsonObject { { QStringLiteral("security_group_rule"),
                    ApiRender::rule(m_world.securityGroups.at(g), created) } }));
        }
        if (method == QLatin1String("DELETE") && !id.isEmpty()) {
            for (SimSecurityGroup &g : m_world.securityGroups) {
                if (g.projectId != project)
                    continue;
                for (int i = 0; i < g.rules.size(); ++i) {
                    if (g.rules.at(i).id == id) {
                        g.rules.removeAt(i);
                        ++g.revision;
                        return HttpResponse::empty(204);
                    }
                }
            }
            return errorFor(service, 404, QStringLiteral("SecurityGroupRuleNotFound"),
                QStringLiteral("Security group rule %1 does not exist").arg(id));
        }
    }
    return errorFor(
        service, 404, QStringLiteral("HTTPNotFound"), QStringLiteral("The resource could not be found."));
}
