#include "simulator/world.h"

#include <QCryptographicHash>
#include <QHostAddress>
#include <QSet>
#include <algorithm>

bool cidrContainsAddress(const QString &cidr, const QString &address)
{
    const QPair<QHostAddress, int> subnet = QHostAddress::parseSubnet(cidr);
    QHostAddress a;
    if (subnet.second < 0 || !a.setAddress(address))
        return false;
    return a.isInSubnet(subnet.first, subnet.second);
}

World::World() = default;

QDateTime World::now() const
{
    return QDateTime::currentDateTimeUtc().addSecs(m_offsetSeconds);
}

QString World::newUuid()
{
    const QByteArray h = QCryptographicHash::hash(
        QByteArray("flightdeck-sim:" + QByteArray::number(++m_counter)), QCryptographicHash::Sha1)
                             .toHex();
    return QString::fromLatin1(
        h.left(8) + '-' + h.mid(8, 4) + "-4" + h.mid(13, 3) + "-a" + h.mid(17, 3) + '-' + h.mid(20, 12));
}

QString World::newHexId()
{
    return newUuid().remove(QLatin1Char('-'));
}

QString World::newMac()
{
    const QByteArray h = QCryptographicHash::hash(
        QByteArray("mac:" + QByteArray::number(++m_counter)), QCryptographicHash::Sha1)
                             .toHex();
    return QStringLiteral("fa:16:3e:%1:%2:%3")
        .arg(QString::fromLatin1(h.mid(0, 2)), QString::fromLatin1(h.mid(2, 2)),
            QString::fromLatin1(h.mid(4, 2)));
}

// The position of the first element that matches, or -1.
template<typename List, typename Pred> static int indexWhere(const List &list, Pred matches)
{
    for (int i = 0; i < list.size(); ++i) {
        if (matches(list.at(i)))
            return i;
    }
    return -1;
}

int World::projectIndex(const QString &idOrName) const
{
    return indexWhere(projects, [&](const auto &x) { return x.id == idOrName || x.name == idOrName; });
}

int World::userIndex(const QString &idOrName) const
{
    return indexWhere(users, [&](const auto &x) { return x.id == idOrName || x.name == idOrName; });
}

const SimApplicationCredential *World::applicationCredential(const QString &id) const
{
    if (id.isEmpty())
        return nullptr;
    for (const SimApplicationCredential &c : applicationCredentials) {
        if (c.id == id)
            return &c;
    }
    return nullptr;
}

QString World::stableRuleId(const QString &credentialId, const SimAccessRule &rule)
{
    return QString::fromLatin1(QCryptographicHash::hash(
        (credentialId + rule.service + rule.method + rule.path).toUtf8(), QCryptographicHash::Sha1)
                                   .toHex()
                                   .left(32));
}

int World::nodeIndex(const SimKluster &kluster, const QString &name) const
{
    return indexWhere(kluster.nodes, [&](const auto &x) { return x.name == name; });
}

std::optional<SimError> World::issueToken(
    const QString &userId, const QString &projectId, const QString &appCredId, SimToken *token)
{
    SimToken t;
    t.id = QStringLiteral("gAAAAA") + newHexId() + newHexId();
    t.userId = userId;
    t.projectId = projectId;
    t.applicationCredentialId = appCredId;
    t.issuedAt = now();
    t.expiresAt = t.issuedAt.addSecs(tokenLifetimeSeconds);
    tokens.insert(t.id, t);
    *token = t;
    return std::nullopt;
}

const SimToken *World::validToken(const QString &id) const
{
    auto it = tokens.constFind(id);
    if (it == tokens.cend() || it->expiresAt <= now())
        return nullptr;
    return &it.value();
}

void World::expireAllTokens()
{
    for (auto it = tokens.begin(); it != tokens.end(); ++it)
        it->expiresAt = now().addSecs(-1);
}

SimServer &World::addServer(const QString &projectId, const QString &name, const QString &networkIdOrName,
    const QString &ip, const QStringList &groupNames, const QDateTime &created)
{
    SimServer s;
    s.id = newUuid();
    s.name = name;
    s.projectId = projectId;
    s.created = created;
    s.updated = created;
    s.recordAction(QStringLiteral("create"), created);
    const int net = networkIndex(networkIdOrName);
    if (net >= 0) {
        const SimNetwork &network = networks.at(net);
        SimPort port;
        port.id = newUuid();
        port.networkId = network.id;
        port.subnetId = network.subnetId;
        port.deviceId = s.id;
        port.deviceOwner = QStringLiteral("compute:nova");
        port.macAddress = newMac();
        port.ipAddress = ip.isEmpty() ? freeAddress(network) : ip;
        port.created = created;
        port.updated = created;
        for (const QString &g : groupNames) {
            if (const int group = groupIndexByName(projectId, g); group >= 0)
                port.securityGroupIds.append(securityGroups.at(group).id);
        }
        ports.append(port);
        s.portId = port.id;
        s.networkName = network.name;
    }
    servers.append(s);
    // Recorded in the lookups now (each would take them in at its next look all the same).
    m_serverIndex.takeIn(servers);
    m_portIndex.takeIn(ports);
    m_addressIndex.takeIn(ports);
    return servers.last();
}

QStringList World::serverGroupNames(const SimServer &server) const
{
    QStringList names;
    const int p = portIndex(server.portId);
    if (p < 0)
        return names;
    for (const QString &id : ports.at(p).securityGroupIds) {
        const int g = groupIndex(id);
        if (g >= 0)
            names.append(securityGroups.at(g).name);
    }
    return names;
}

QStringList World::serverAddresses(const SimServer &server) const
{
    QStringList a;
    const int p = portIndex(server.portId);
    if (p >= 0)
        a.append(ports.at(p).ipAddress);
    if (!server.floatingIp.isEmpty())
        a.append(server.floatingIp);
    return a;
}

static std::optional<int> resolveGroup(
    const World &w, const QString &projectId, const QString &nameOrId, std::optional<SimError> *error)
{
    QList<int> matches;
    for (int i = 0; i < w.securityGroups.size(); ++i) {
        const SimSecurityGroup &g = w.securityGroups.at(i);
        if (g.projectId != projectId)
            continue;
        if (g.id == nameOrId)
            return i;
        if (g.name == nameOrId)
            matches.append(i);
    }
    if (matches.isEmpty()) {
        *error = SimError { 404, QStringLiteral("itemNotFound"),
            QStringLiteral("Security group %1 not found for project %2.").arg(nameOrId, projectId) };
        return std::nullopt;
    }
    if (matches.size() > 1) {
        *error = SimError { 409, QStringLiteral("conflictingRequest"),
            QStringLiteral("Multiple security groups found matching '%1'. Use an ID to be more specific.")
                .arg(nameOrId) };
        return std::nullopt;
    }
    return matches.first();
}

std::optional<SimError> World::addSecurityGroup(int server, const QString &nameOrId)
{
    SimServer &s = servers[server];
    std::optional<SimError> error;
    const std::optional<int> g = resolveGroup(*this, s.projectId, nameOrId, &error);
    if (!g)
        return error;
    const int p = portIndex(s.portId);
    if (p < 0)
        return SimError { 400, QStringLiteral("badRequest"),
            QStringLiteral("Server %1 has no network port.").arg(s.id) };
    SimPort &port = ports[p];
    const QString id = securityGroups.at(*g).id;
    if (port.securityGroupIds.contains(id)) {
        // Nova appends the group to the port's list; Neutron refuses the duplicate.
        return SimError { 400, QStringLiteral("badRequest"),
            QStringLiteral("Duplicate items in the list: '%1'").arg(id) };
    }
    port.securityGroupIds.append(id);
    ++port.revision;
    port.updated = now(); // the port changes; Nova's record of the server does not (its `updated` stays)
    return std::nullopt;
}

std::optional<SimError> World::removeSecurityGroup(int server, const QString &nameOrId)
{
    SimServer &s = servers[server];
    std::optional<SimError> error;
    const std::optional<int> g = resolveGroup(*this, s.projectId, nameOrId, &error);
    if (!g)
        return error;
    const int p = portIndex(s.portId);
    const QString id = securityGroups.at(*g).id;
    if (p < 0 || !ports.at(p).securityGroupIds.contains(id)) {
        return SimError { 404, QStringLiteral("itemNotFound"),
            QStringLiteral("Security group %1 not associated with the instance %2").arg(nameOrId, s.id) };
    }
    ports[p].securityGroupIds.removeAll(id);
    ++ports[p].revision;
    ports[p].updated = now();
    return std::nullopt;
}

void World::keepDeleted(const SimServer &server, const QDateTime &at)
{
    SimServer deleted = server;
    deleted.status = QStringLiteral("DELETED");
    deleted.vmState = QStringLiteral("deleted");
    deleted.taskState.clear();
    deleted.updated = at;
    deletedServers.append(deleted);
}

std::optional<SimError> World::deleteServer(int server)
{
    const SimServer s = servers.takeAt(server);
    keepDeleted(s, now());
    const int p = portIndex(s.portId);
    if (p >= 0)
        ports.removeAt(p); // a route whose nexthop was this port's address stays: that is how orphans arise
    detachVolumes(s.id);
    if (!s.kluster.isEmpty()) {
        pending.append(Pending { now().addSecs(1), Pending::Kind::RemoveNode, s.kluster, s.pool, s.name });
        if (replaceDeletedInstances) {
            pending.append(Pending { now().addSecs(replacementBootSeconds), Pending::Kind::BootReplacement,
                s.kluster, s.pool, QString() });
        }
    }
    return std::nullopt;
}

std::optional<SimError> World::setRoutes(int routerIndex, const QList<SimRoute> &routes)
{
    SimRouter &router = routers[routerIndex];
    auto quote = [](const SimRoute &r) {
        return QStringLiteral("{'destination': '%1', 'nexthop': '%2'}").arg(r.destination, r.nexthop);
    };
    // 1. Attribute validation (type:hostroutes).
    QSet<std::pair<QString, QString>> seen; // the first duplicate is named
    seen.reserve(routes.size());
    for (int i = 0; i < routes.size(); ++i) {
        const SimRoute &r = routes.at(i);
        const QPair<QHostAddress, int> subnet = QHostAddress::parseSubnet(r.destination);
        if (subnet.second < 0 || !r.destination.contains(QLatin1Char('/'))) {
            return SimError { 400, QStringLiteral("HTTPBadRequest"),
                QStringLiteral("Invalid input for routes. Reason: '%1' is not a valid IP subnet.")
                    .arg(r.destination) };
        }
        const QString canonical = subnet.first.toString() + QLatin1Char('/') + QString::number(subnet.second);
        if (canonical != r.destination) {
            return SimError { 400, QStringLiteral("HTTPBadRequest"),
                QStringLiteral("Invalid input for routes. Reason: '%1' isn't a recognized IP subnet cidr, "
                               "'%2' is recommended.")
                    .arg(r.destination, canonical) };
        }
        QHostAddress hop;
        if (!hop.setAddress(r.nexthop)) {
            return SimError { 400, QStringLiteral("HTTPBadRequest"),
                QStringLiteral("Invalid input for routes. Reason: '%1' is not a valid IP address.")
                    .arg(r.nexthop) };
        }
        if (seen.contains({ r.destination, r.nexthop })) {
            return SimError { 400, QStringLiteral("HTTPBadRequest"),
                QStringLiteral("Invalid input for routes. Reason: Duplicate hostroute '%1'.").arg(quote(r)) };
        }
        seen.insert({ r.destination, r.nexthop });
    }
    // 2. The route limit, as released Neutron checks it: before the nexthops.
    if (!routeLimitAsQuota && routes.size() > maxRoutes) {
        return SimError { 400, QStringLiteral("RoutesExhausted"),
            QStringLiteral(
                "Unable to complete operation for %1. The number of routes exceeds the maximum %2.")
                .arg(router.id)
                .arg(maxRoutes) };
    }
    // 3. Every nexthop must be on one of the router's subnets, and not the router itself.
    for (const SimRoute &r : routes) {
        bool connected = false;
        bool own = false;
        for (const QString &subnetId : router.interfaceSubnetIds) {
            for (const SimNetwork &n : networks) {
                if (n.subnetId != subnetId)
                    continue;
                if (cidrContainsAddress(n.cidr, r.nexthop))
                    connected = true;
                if (n.gateway == r.nexthop)
                    own = true;
            }
        }
        if (!connected || own) {
            return SimError { 400, QStringLiteral("InvalidRoutes"),
                QStringLiteral("Invalid format for routes: [%1], the nexthop is %2")
                    .arg(quote(r),
                        own ? QStringLiteral("used by router")
                            : QStringLiteral("not connected with router")) };
        }
    }
    // 4. The newest Neutron: a per-router quota, checked last.
    if (routeLimitAsQuota && routes.size() > maxRoutes) {
        return SimError { 409, QStringLiteral("OverQuota"),
            QStringLiteral("Quota exceeded for resources: ['router_route'].") };
    }
    for (SimDevice &device : router.devices) {
        for (const SimRoute &r : routes) {
            if (!router.routes.contains(r))
                device.lacking.removeAll(r); // the agent's event: programmed now
        }
    }
    router.routes = routes;
    ++router.revision;
    router.updated = now();
    return std::nullopt;
}

QList<SimRoute> inNeutronOrder(QList<SimRoute> routes)
{
    std::sort(routes.begin(), routes.end(), [](const SimRoute &a, const SimRoute &b) {
        return a.destination != b.destination ? a.destination < b.destination : a.nexthop < b.nexthop;
    });
    return routes;
}

void World::addDevicePairs()
{
    for (int i = 0; i < routers.size(); ++i) {
        SimRouter &router = routers[i];
        if (!router.devices.isEmpty())
            continue;
        const QString base = QStringLiteral("10.44.%1.").arg(i % 250);
        router.devices = { SimDevice { base + QStringLiteral("35"), true, {}, {}, false },
            SimDevice { base + QStringLiteral("36"), false, {}, {}, false } };
    }
}

QList<SimRoute> World::deviceRoutes(const SimRouter &router, const SimDevice &device) const
{
    QList<SimRoute> held;
    if (device.tornDown)
        return held;
    for (const SimRoute &r : inNeutronOrder(router.routes)) {
        if (device.lacking.contains(r))
            continue;
        // A route whose deletion the device missed stays before Neutron's route to the same destination.
        for (const SimRoute &k : device.kept) {
            if (k.destination == r.destination && !held.contains(k) && !router.routes.contains(k))
                held.append(k);
        }
        held.append(r);
    }
    for (const SimRoute &k : device.kept) {
        if (!held.contains(k) && !router.routes.contains(k))
            held.append(k);
    }
    return held;
}

static QString normalizeProtocol(const std::optional<QString> &p)
{
    if (!p)
        return QString();
    QString l = p->toLower();
    if (l == QLatin1String("6"))
        return QStringLiteral("tcp");
    if (l == QLatin1String("17"))
        return QStringLiteral("udp");
    if (l == QLatin1String("1"))
        return QStringLiteral("icmp");
    if (l == QLatin1String("any"))
        return QString();
    return l;
}

static QString normalizePrefix(const std::optional<QString> &p)
{
    if (!p || *p == QLatin1String("0.0.0.0/0") || *p == QLatin1String("::/0"))
        return QString();
    if (!p->contains(QLatin1Char('/')))
        return *p + (p->contains(QLatin1Char(':')) ? QStringLiteral("/128") : QStringLiteral("/32"));
    return *p;
}

std::optional<SimError> World::createRule(const SimRule &rule, SimRule *created)
{
    const int g = groupIndex(rule.groupId);
    if (g < 0) {
        return SimError { 404, QStringLiteral("SecurityGroupNotFound"),
            QStringLiteral("Security group %1 does not exist").arg(rule.groupId) };
    }
    if (rule.direction != QLatin1String("ingress") && rule.direction != QLatin1String("egress")) {
        return SimError { 400, QStringLiteral("HTTPBadRequest"),
            QStringLiteral("Invalid input for direction. Reason: %1 is not in valid_values.")
                .arg(rule.direction) };
    }
    if ((rule.portRangeMin || rule.portRangeMax) && !rule.protocol) {
        return SimError { 400, QStringLiteral("SecurityGroupProtocolRequiredWithPorts"),
            QStringLiteral("Must also specify protocol if port range is given.") };
    }
    if (rule.portRangeMin && rule.portRangeMax && *rule.portRangeMin > *rule.portRangeMax
        && normalizeProtocol(rule.protocol) != QLatin1String("icmp")) {
        return SimError { 400, QStringLiteral("SecurityGroupInvalidPortRange"),
            QStringLiteral("For TCP/UDP protocols, port_range_min must be <= port_range_max") };
    }
    if (rule.remoteIpPrefix && rule.remoteGroupId) {
        return SimError { 400, QStringLiteral("SecurityGroupMultipleRemoteEntites"),
            QStringLiteral("Only one of remote_ip_prefix, remote_group_id and remote_address_group_id may "
                           "be provided.") };
    }
    if (rule.remoteIpPrefix) {
        const bool v6 = rule.remoteIpPrefix->contains(QLatin1Char(':'));
        if (v6 != (rule.ethertype == QLatin1String("IPv6"))) {
            return SimError { 400, QStringLiteral("SecurityGroupRuleParameterConflict"),
                QStringLiteral("Conflicting value ethertype %1 for CIDR %2")
                    .arg(rule.ethertype, *rule.remoteIpPrefix) };
        }
    }
    SimSecurityGroup &group = securityGroups[g];
    for (const SimRule &r : group.rules) {
        if (r.direction == rule.direction && r.ethertype == rule.ethertype
            && normalizeProtocol(r.protocol) == normalizeProtocol(rule.protocol)
            && r.portRangeMin == rule.portRangeMin && r.portRangeMax == rule.portRangeMax
            && normalizePrefix(r.remoteIpPrefix) == normalizePrefix(rule.remoteIpPrefix)
            && r.remoteGroupId == rule.remoteGroupId) {
            return SimError { 409, QStringLiteral("SecurityGroupRuleExists"),
                QStringLiteral("Security group rule already exists. Rule id is %1.").arg(r.id) };
        }
    }
    SimRule r = rule;
    r.id = newUuid();
    r.created = now();
    group.rules.append(r);
    ++group.revision;
    *created = r;
    return std::nullopt;
}

QString World::freePodCidr(const SimKluster &kluster) const
{
    QSet<QString> used;
    for (const SimNode &n : kluster.nodes)
        used.insert(n.podCidr);
    const QPair<QHostAddress, int> net = QHostAddress::parseSubnet(kluster.clusterCidr);
    if (net.second < 0 || net.second > 24)
        return QString();
    const quint32 base = net.first.toIPv4Address();
    const quint32 count = 1u << (24 - net.second);
    for (quint32 i = 0; i < count; ++i) {
        QString candidate = QHostAddress(base + (i << 8)).toString() + QStringLiteral("/24");
        if (!used.contains(candidate))
            return candidate;
    }
    return QString();
}

std::optional<SimError> World::routeNode(SimKluster &kluster, SimNode &node)
{
    const int r = routerIndex(kluster.routerId);
    if (r < 0 || node.podCidr.isEmpty() || node.internalIp.isEmpty())
        return std::nullopt;
    setNodePair(node, true);
    QList<SimRoute> routes = routers.at(r).routes;
    const SimRoute route { node.podCidr, node.internalIp };
    std::optional<SimError> error;
    if (!routes.contains(route)) {
        routes.append(route);
        error = setRoutes(r, routes);
    }
    if (error) {
        node.networkUnavailable = QStringLiteral("True");
        node.networkReason = QStringLiteral("NoRouteCreated");
        node.networkMessage = QStringLiteral("RouteController failed to create a route");
    } else {
        node.networkUnavailable = QStringLiteral("False");
        node.networkReason = QStringLiteral("RouteCreated");
        node.networkMessage = QStringLiteral("RouteController created a route");
    }
    node.resourceVersion = ++resourceVersionCounter;
    return error;
}

bool World::setNodePair(const SimNode &node, bool present)
{
    const int server = serverIndexByName(node.name);
    return server >= 0 && !node.podCidr.isEmpty()
        && setPortPair(servers.at(server).portId, node.podCidr, present);
}

bool World::setPortPair(const QString &portId, const QString &cidr, bool present)
{
    const int p = portIndex(portId);
    if (p < 0)
        return false;
    SimPort &port = ports[p];
    if (port.allowedAddressPairs.contains(cidr) == present)
        return true;
    if (present)
        port.allowedAddressPairs.append(cidr);
    else
        port.allowedAddressPairs.removeAll(cidr);
    ++port.revision;
    port.updated = now();
    return true;
}
