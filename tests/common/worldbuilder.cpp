#include "tests/common/worldbuilder.h"

#include "core/apiparser.h"
#include "core/diagnosis.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QTimeZone>

static QString uuidFor(const QString &seed)
{
    const QByteArray h = QCryptographicHash::hash(seed.toUtf8(), QCryptographicHash::Sha1).toHex();
    return QString::fromLatin1(
        h.left(8) + '-' + h.mid(8, 4) + '-' + h.mid(12, 4) + '-' + h.mid(16, 4) + '-' + h.mid(20, 12));
}

WorldBuilder::WorldBuilder(const QString &kluster, const QString &clusterCidr)
    : m_kluster(kluster)
    , m_clusterCidr(clusterCidr)
    , m_routerId(uuidFor(QStringLiteral("router:") + kluster))
    , m_capturedAt(defaultCapturedAt())
{
    m_pools.append({ QStringLiteral("pool"), 0 });
    group(m_groupName, true);
}

QDateTime WorldBuilder::defaultCapturedAt()
{
    return QDateTime(QDate(2026, 11, 21), QTime(10, 0, 0), QTimeZone::utc());
}

WorldBuilder &WorldBuilder::capturedAt(const QDateTime &instant)
{
    m_capturedAt = instant;
    return *this;
}

WorldBuilder &WorldBuilder::maxRoutes(int limit)
{
    m_maxRoutes = limit;
    return *this;
}

WorldBuilder &WorldBuilder::pool(const QString &name, int size)
{
    for (auto &p : m_pools) {
        if (p.first == name) {
            p.second = size;
            return *this;
        }
    }
    m_pools.append({ name, size });
    return *this;
}

WorldBuilder &WorldBuilder::securityGroupName(const QString &name)
{
    m_groupName = name;
    return *this;
}

WorldBuilder &WorldBuilder::atomicRoutes(bool atomic)
{
    m_atomic = atomic;
    return *this;
}

WorldBuilder &WorldBuilder::routerRevision(qint64 revision)
{
    m_revision = revision;
    return *this;
}

WorldBuilder &WorldBuilder::realisticBulk(bool on)
{
    m_bulk = on;
    return *this;
}

QString WorldBuilder::serverId(const QString &name) const
{
    return uuidFor(QStringLiteral("server:") + name);
}

int WorldBuilder::server(const QString &name, const QString &ip, double ageMinutes, const QString &status,
    const QStringList &groups)
{
    QJsonObject s;
    s.insert(QStringLiteral("id"), serverId(name));
    s.insert(QStringLiteral("name"), name);
    s.insert(QStringLiteral("status"), status);
    s.insert(QStringLiteral("tenant_id"), QStringLiteral("6f70656e737461636b20726f636b7321"));
    s.insert(QStringLiteral("user_id"), QStringLiteral("admin"));
    s.insert(QStringLiteral("metadata"), QJsonObject());
    const QDateTime created = m_capturedAt.addMSecs(qint64(-ageMinutes * 60 * 1000));
    s.insert(QStringLiteral("created"), ApiParser::formatTimestamp(created));
    s.insert(QStringLiteral("updated"), ApiParser::formatTimestamp(created));
    QJsonObject flavor;
    flavor.insert(QStringLiteral("id"), QStringLiteral("1"));
    flavor.insert(QStringLiteral("links"), QJsonArray());
    s.insert(QStringLiteral("flavor"), flavor);
    if (!ip.isEmpty()) {
        QJsonObject addr;
        addr.insert(QStringLiteral("addr"), ip);
        addr.insert(QStringLiteral("version"), 4);
        addr.insert(QStringLiteral("OS-EXT-IPS:type"), QStringLiteral("fixed"));
        addr.insert(QStringLiteral("OS-EXT-IPS-MAC:mac_addr"), QStringLiteral("fa:16:3e:00:00:01"));
        QJsonObject addresses;
        addresses.insert(QStringLiteral("private"), QJsonArray { addr });
        s.insert(QStringLiteral("addresses"), addresses);
    } else {
        s.insert(QStringLiteral("addresses"), QJsonObject());
    }
    // Nova omits the key when the server has no group.
    if (!groups.isEmpty()) {
        QJsonArray list;
        for (const QString &g : groups)
            list.append(QJsonObject { { QStringLiteral("name"), g } });
        s.insert(QStringLiteral("security_groups"), list);
    }
    const QString vm = status == QLatin1String("ERROR") ? QStringLiteral("error")
        : status == QLatin1String("BUILD")              ? QStringLiteral("building")
        : status == QLatin1String("SHUTOFF")            ? QStringLiteral("stopped")
        : status == QLatin1String("SUSPENDED")          ? QStringLiteral("suspended")
        : status == QLatin1String("PAUSED")             ? QStringLiteral("paused")
                                                        : QStringLiteral("active");
    s.insert(QStringLiteral("OS-EXT-STS:vm_state"), vm);
    s.insert(QStringLiteral("OS-EXT-STS:task_state"), QJsonValue());
    s.insert(QStringLiteral("OS-EXT-STS:power_state"), vm == QLatin1String("active") ? 1 : 0);
    s.insert(QStringLiteral("links"), QJsonArray());
    if (m_bulk) {
        const QString id = serverId(name);
        s.insert(QStringLiteral("hostId"),
            QStringLiteral("9b1f2a6e0c5d4e3f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b"));
        s.insert(QStringLiteral("image"),
            QJsonObject { { QStringLiteral("id"), QStringLiteral("70a599e0-31e7-49b7-b260-868f441e862b") },
                { QStringLiteral("links"),
                    QJsonArray { QJsonObject { { QStringLiteral("rel"), QStringLiteral("bookmark") },
                        { QStringLiteral("href"),
                            QStringLiteral("https://compute.example.cloud/images/"
                                           "70a599e0-31e7-49b7-b260-868f441e862b") } } } } });
        s.insert(QStringLiteral("links"),
            QJsonArray {
                QJsonObject { { QStringLiteral("rel"), QStringLiteral("self") },
                    { QStringLiteral("href"),
                        QString(QStringLiteral("https://compute.example.cloud/v2.1/servers/") + id) } },
                QJsonObject { { QStringLiteral("rel"), QStringLiteral("bookmark") },
                    { QStringLiteral("href"),
                        QString(QStringLiteral("https://compute.example.cloud/servers/") + id) } } });
        s.insert(QStringLiteral("OS-EXT-AZ:availability_zone"), QStringLiteral("eu-de-1a"));
        s.insert(QStringLiteral("OS-DCF:diskConfig"), QStringLiteral("MANUAL"));
        s.insert(QStringLiteral("OS-SRV-USG:launched_at"), s.value(QStringLiteral("created")));
        s.insert(QStringLiteral("OS-SRV-USG:terminated_at"), QJsonValue());
        s.insert(QStringLiteral("accessIPv4"), QString());
        s.insert(QStringLiteral("accessIPv6"), QString());
        s.insert(QStringLiteral("config_drive"), QString());
        s.insert(QStringLiteral("key_name"), QStringLiteral("kubernikus"));
        s.insert(QStringLiteral("progress"), 0);
        s.insert(QStringLiteral("os-extended-volumes:volumes_attached"), QJsonArray());
        s.insert(QStringLiteral("metadata"),
            QJsonObject { { QStringLiteral("kubernikus:kluster"), m_kluster },
                { QStringLiteral("kubernikus:nodepool"), QStringLiteral("pool") } });
    }
    m_servers.append(s);
    return int(m_servers.size() - 1);
}

int WorldBuilder::node(const QString &name, const QString &ip, const QString &podCidr, const QString &ready)
{
    QJsonObject metadata;
    metadata.insert(QStringLiteral("name"), name);
    metadata.insert(QStringLiteral("uid"), uuidFor(QStringLiteral("node:") + name));
    metadata.insert(
        QStringLiteral("creationTimestamp"), ApiParser::formatTimestamp(m_capturedAt.addSecs(-3600)));
    metadata.insert(
        QStringLiteral("labels"), QJsonObject { { QStringLiteral("kubernetes.io/hostname"), name } });
    QJsonObject spec;
    if (!podCidr.isEmpty()) {
        spec.insert(QStringLiteral("podCIDR"), podCidr);
        spec.insert(QStringLiteral("podCIDRs"), QJsonArray { podCidr });
    }
    spec.insert(QStringLiteral("providerID"), QString(QStringLiteral("openstack:///") + serverId(name)));
    QJsonObject status;
    QJsonArray addresses;
    if (!ip.isEmpty())
        addresses.append(QJsonObject {
            { QStringLiteral("type"), QStringLiteral("InternalIP") }, { QStringLiteral("address"), ip } });
    addresses.append(QJsonObject {
        { QStringLiteral("type"), QStringLiteral("Hostname") }, { QStringLiteral("address"), name } });
    status.insert(QStringLiteral("addresses"), addresses);
    QJsonArray conditions;
    conditions.append(QJsonObject { { QStringLiteral("type"), QStringLiteral("NetworkUnavailable") },
        { QStringLiteral("status"), QStringLiteral("False") },
        { QStringLiteral("reason"), QStringLiteral("RouteCreated") },
        { QStringLiteral("message"), QStringLiteral("RouteController created a route") } });
    if (!ready.isEmpty()) {
        conditions.append(QJsonObject { { QStringLiteral("type"), QStringLiteral("Ready") },
            { QStringLiteral("status"), ready },
            { QStringLiteral("reason"),
                ready == QLatin1String("True") ? QStringLiteral("KubeletReady")
                                               : QStringLiteral("KubeletNotReady") },
            { QStringLiteral("message"), QStringLiteral("kubelet status") } });
    }
    status.insert(QStringLiteral("conditions"), conditions);
    status.insert(QStringLiteral("nodeInfo"),
        QJsonObject { { QStringLiteral("kubeletVersion"), QStringLiteral("v1.30.6") } });
    if (m_bulk) {
        QJsonObject labels = metadata.value(QStringLiteral("labels")).toObject();
        for (const char *l : { "beta.kubernetes.io/arch", "beta.kubernetes.io/os", "kubernetes.io/arch",
                 "kubernetes.io/os", "node.kubernetes.io/instance-type", "topology.kubernetes.io/region",
                 "topology.kubernetes.io/zone", "ccloud.sap.com/nodepool",
                 "kubernikus.cloud.sap/template-version" })
            labels.insert(QString::fromLatin1(l),
                QString(QStringLiteral("value-of-") + QString::fromLatin1(l).section(QLatin1Char('/'), -1)));
        metadata.insert(QStringLiteral("labels"), labels);
        metadata.insert(QStringLiteral("annotations"),
            QJsonObject { { QStringLiteral("node.alpha.kubernetes.io/ttl"), QStringLiteral("0") },
                { QStringLiteral("volumes.kubernetes.io/controller-managed-attach-detach"),
                    QStringLiteral("true") } });
        metadata.insert(QStringLiteral("resourceVersion"), QStringLiteral("48213977"));
        const QJsonObject resources { { QStringLiteral("cpu"), QStringLiteral("8") },
            { QStringLiteral("ephemeral-storage"), QStringLiteral("61714800Ki") },
            { QStringLiteral("memory"), QStringLiteral("32883408Ki") },
            { QStringLiteral("pods"), QStringLiteral("110") } };
        status.insert(QStringLiteral("capacity"), resources);
        status.insert(QStringLiteral("allocatable"), resources);
        QJsonArray images;
        for (int i = 0; i < 12; ++i) {
            images.append(QJsonObject {
                { QStringLiteral("names"),
                    QJsonArray {
                        QStringLiteral("keppel.example.cloud/ccloud/"
                                       "image-%1@sha256:"
                                       "4b1f2a6e0c5d4e3f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f")
                            .arg(i),
                        QStringLiteral("keppel.example.cloud/ccloud/image-%1:v1.%1.0").arg(i) } },
                { QStringLiteral("sizeBytes"), 10485760 + i * 1048576 } });
        }
        status.insert(QStringLiteral("images"), images);
        status.insert(QStringLiteral("nodeInfo"),
            QJsonObject { { QStringLiteral("kubeletVersion"), QStringLiteral("v1.30.6") },
                { QStringLiteral("kubeProxyVersion"), QStringLiteral("v1.30.6") },
                { QStringLiteral("osImage"),
                    QStringLiteral("Flatcar Container Linux by Kinvolk 4081.2.0 (Oklo)") },
                { QStringLiteral("kernelVersion"), QStringLiteral("6.6.60-flatcar") },
                { QStringLiteral("containerRuntimeVersion"), QStringLiteral("containerd://1.7.23") },
                { QStringLiteral("machineID"), QStringLiteral("9b1f2a6e0c5d4e3f8a7b6c5d4e3f2a1b") },
                { QStringLiteral("operatingSystem"), QStringLiteral("linux") },
                { QStringLiteral("architecture"), QStringLiteral("amd64") } });
    }
    QJsonObject n;
    n.insert(QStringLiteral("metadata"), metadata);
    n.insert(QStringLiteral("spec"), spec);
    n.insert(QStringLiteral("status"), status);
    m_nodes.append(n);
    return int(m_nodes.size() - 1);
}

int WorldBuilder::ghostNode(const QString &name, const QString &ip, const QString &podCidr)
{
    const int n = node(name, ip, podCidr, QStringLiteral("Unknown"));
    QJsonObject spec = m_nodes.at(n).value(QStringLiteral("spec")).toObject();
    spec.insert(
        QStringLiteral("providerID"), QStringLiteral("openstack:///0f0f0f0f-dead-4bad-8bad-0f0f0f0f0f0f"));
    m_nodes[n].insert(QStringLiteral("spec"), spec);
    return n;
}

void WorldBuilder::inZone(int serverIndex, int nodeIndex, const QString &zone)
{
    m_servers[serverIndex].insert(QStringLiteral("OS-EXT-AZ:availability_zone"), zone);
    if (nodeIndex < 0)
        return;
    QJsonObject metadata = m_nodes[nodeIndex].value(QStringLiteral("metadata")).toObject();
    metadata.insert(
        QStringLiteral("labels"), QJsonObject { { QStringLiteral("topology.kubernetes.io/zone"), zone } });
    m_nodes[nodeIndex].insert(QStringLiteral("metadata"), metadata);
}

void WorldBuilder::setCondition(
    int nodeIndex, const QString &type, const QString &status, const QString &reason, double sinceMinutes)
{
    QJsonObject n = m_nodes.at(nodeIndex);
    QJsonObject st = n.value(QStringLiteral("status")).toObject();
    QJsonArray conditions = st.value(QStringLiteral("conditions")).toArray();
    QJsonObject c { { QStringLiteral("type"), type }, { QStringLiteral("status"), status },
        { QStringLiteral("reason"), reason } };
    if (sinceMinutes >= 0)
        c.insert(QStringLiteral("lastTransitionTime"),
            m_capturedAt.addSecs(qint64(-sinceMinutes * 60)).toString(Qt::ISODate));
    bool replaced = false;
    for (qsizetype i = 0; i < conditions.size(); ++i) {
        if (conditions.at(i).toObject().value(QStringLiteral("type")).toString() == type) {
            conditions.replace(i, c);
            replaced = true;
        }
    }
    if (!replaced)
        conditions.append(c);
    st.insert(QStringLiteral("conditions"), conditions);
    n.insert(QStringLiteral("status"), st);
    m_nodes[nodeIndex] = n;
}

void WorldBuilder::healthyMember(
    const QString &name, const QString &ip, const QString &podCidr, double ageMinutes)
{
    server(name, ip, ageMinutes);
    node(name, ip, podCidr);
    route(podCidr, ip);
}

void WorldBuilder::route(const QString &destination, const QString &nexthop)
{
    m_routes.append(QJsonObject {
        { QStringLiteral("destination"), destination }, { QStringLiteral("nexthop"), nexthop } });
}

int WorldBuilder::group(const QString &name, bool withGoodRules)
{
    QJsonObject g;
    g.insert(QStringLiteral("id"), uuidFor(QStringLiteral("sg:") + name + QString::number(m_groups.size())));
    g.insert(QStringLiteral("name"), name);
    g.insert(QStringLiteral("description"), QString());
    g.insert(QStringLiteral("stateful"), true);
    g.insert(QStringLiteral("revision_number"), 1);
    g.insert(QStringLiteral("security_group_rules"), QJsonArray());
    m_groups.append(g);
    const int index = int(m_groups.size() - 1);
    rule(index, QJsonValue(), QJsonValue(), QJsonValue(), QJsonValue(), QStringLiteral("egress"));
    if (withGoodRules) {
        rule(index, QStringLiteral("tcp"), m_clusterCidr);
        rule(index, QStringLiteral("udp"), m_clusterCidr);
        rule(index, QStringLiteral("icmp"), m_clusterCidr);
    }
    return index;
}

void WorldBuilder::rule(int groupIndex, const QJsonValue &protocol, const QJsonValue &remoteIpPrefix,
    const QJsonValue &portMin, const QJsonValue &portMax, const QString &direction, const QString &ethertype)
{
    QJsonObject g = m_groups.at(groupIndex);
    QJsonArray rules = g.value(QStringLiteral("security_group_rules")).toArray();
    QJsonObject r;
    r.insert(QStringLiteral("id"), uuidFor(QStringLiteral("rule:") + QString::number(++m_ruleCounter)));
    r.insert(QStringLiteral("security_group_id"), g.value(QStringLiteral("id")));
    r.insert(QStringLiteral("direction"), direction);
    r.insert(QStringLiteral("ethertype"), ethertype);
    r.insert(QStringLiteral("protocol"), protocol);
    r.insert(QStringLiteral("port_range_min"), portMin);
    r.insert(QStringLiteral("port_range_max"), portMax);
    r.insert(QStringLiteral("remote_ip_prefix"), remoteIpPrefix);
    r.insert(QStringLiteral("remote_group_id"), QJsonValue());
    r.insert(QStringLiteral("remote_address_group_id"), QJsonValue());
    r.insert(QStringLiteral("description"), QString());
    r.insert(QStringLiteral("revision_number"), 0);
    rules.append(r);
    g.insert(QStringLiteral("security_group_rules"), rules);
    m_groups[groupIndex] = g;
}

QJsonObject WorldBuilder::captureJson() const
{
    QJsonObject c;
    c.insert(QStringLiteral("capturedAt"), ApiParser::formatTimestamp(m_capturedAt));
    if (m_maxRoutes > 0)
        c.insert(QStringLiteral("maxRoutes"), m_maxRoutes);
    c.insert(QStringLiteral("cloud"), QStringLiteral("test"));
    c.insert(QStringLiteral("tool"), QStringLiteral("flightdeck-tests"));
    return c;
}

QJsonObject WorldBuilder::klusterJson() const
{
    QJsonArray pools;
    for (const auto &p : m_pools) {
        pools.append(QJsonObject { { QStringLiteral("name"), p.first }, { QStringLiteral("size"), p.second },
            { QStringLiteral("flavor"), QStringLiteral("m1.small") },
            { QStringLiteral("image"), QStringLiteral("flatcar-stable-amd64") } });
    }
    QJsonObject openstack { { QStringLiteral("routerID"), m_routerId },
        { QStringLiteral("projectID"), QStringLiteral("6f70656e737461636b20726f636b7321") },
        { QStringLiteral("securityGroupName"), m_groupName } };
    QJsonObject spec { { QStringLiteral("clusterCIDR"), m_clusterCidr },
        { QStringLiteral("serviceCIDR"), QStringLiteral("198.18.128.0/17") },
        { QStringLiteral("openstack"), openstack }, { QStringLiteral("nodePools"), pools } };
    return QJsonObject { { QStringLiteral("name"), m_kluster }, { QStringLiteral("spec"), spec },
        { QStringLiteral("status"),
            QJsonObject { { QStringLiteral("phase"), QStringLiteral("Running") } } } };
}

QJsonObject WorldBuilder::serversJson() const
{
    QJsonArray list;
    for (const QJsonObject &s : m_servers)
        list.append(s);
    return QJsonObject { { QStringLiteral("servers"), list } };
}

QJsonObject WorldBuilder::routerJson() const
{
    QJsonObject r { { QStringLiteral("id"), m_routerId },
        { QStringLiteral("name"), QString(QStringLiteral("kks-") + m_kluster) },
        { QStringLiteral("status"), QStringLiteral("ACTIVE") }, { QStringLiteral("admin_state_up"), true },
        { QStringLiteral("external_gateway_info"), QJsonValue() }, { QStringLiteral("routes"), m_routes } };
    if (m_revision >= 0)
        r.insert(QStringLiteral("revision_number"), m_revision);
    return QJsonObject { { QStringLiteral("router"), r } };
}

QJsonObject WorldBuilder::securityGroupsJson() const
{
    QJsonArray list;
    for (const QJsonObject &g : m_groups)
        list.append(g);
    return QJsonObject { { QStringLiteral("security_groups"), list } };
}

QJsonObject WorldBuilder::nodesJson() const
{
    QJsonArray items;
    for (const QJsonObject &n : m_nodes)
        items.append(n);
    return QJsonObject { { QStringLiteral("kind"), QStringLiteral("NodeList") },
        { QStringLiteral("apiVersion"), QStringLiteral("v1") },
        { QStringLiteral("metadata"),
            QJsonObject { { QStringLiteral("resourceVersion"), QStringLiteral("101") } } },
        { QStringLiteral("items"), items } };
}

QJsonObject WorldBuilder::extensionsJson() const
{
    QJsonArray list;
    QStringList aliases = { QStringLiteral("router"), QStringLiteral("extraroute"),
        QStringLiteral("security-group"), QStringLiteral("revision-if-match") };
    if (m_atomic)
        aliases.append(QStringLiteral("extraroute-atomic"));
    if (m_ports)
        aliases.append(QStringLiteral("allowed-address-pairs"));
    for (const QString &a : aliases)
        list.append(QJsonObject { { QStringLiteral("alias"), a }, { QStringLiteral("name"), a },
            { QStringLiteral("links"), QJsonArray() } });
    return QJsonObject { { QStringLiteral("extensions"), list } };
}

WorldBuilder &WorldBuilder::withPorts(bool on)
{
    m_ports = on;
    return *this;
}

void WorldBuilder::port(const QString &serverName, const QJsonArray &pairs, const QJsonValue &portSecurity)
{
    m_ports = true;
    m_portChanges.insert(serverName,
        QJsonObject { { QStringLiteral("allowed_address_pairs"), pairs },
            { QStringLiteral("port_security_enabled"), portSecurity } });
}

QString WorldBuilder::portId(const QString &serverName) const
{
    return uuidFor(QStringLiteral("port:") + serverName);
}

QJsonObject WorldBuilder::portsJson() const
{
    QHash<QString, QString> podCidrs; // node name -> pod CIDR
    for (const QJsonObject &n : m_nodes)
        podCidrs.insert(
            n.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("name")).toString(),
            n.value(QStringLiteral("spec")).toObject().value(QStringLiteral("podCIDR")).toString());
    QJsonArray list;
    int revision = 3;
    for (const QJsonObject &server : m_servers) {
        const QString name = server.value(QStringLiteral("name")).toString();
        QJsonArray fixed;
        const QJsonObject addresses = server.value(QStringLiteral("addresses")).toObject();
        for (const QJsonValue net : addresses) {
            for (const QJsonValue a : net.toArray())
                fixed.append(QJsonObject { { QStringLiteral("subnet_id"), uuidFor(QStringLiteral("subnet")) },
                    { QStringLiteral("ip_address"), a.toObject().value(QStringLiteral("addr")) } });
        }
        QJsonArray pairs;
        if (const QString pod = podCidrs.value(name); !pod.isEmpty())
            pairs.append(QJsonObject { { QStringLiteral("ip_address"), pod },
                { QStringLiteral("mac_address"), QStringLiteral("fa:16:3e:00:00:01") } });
        QJsonObject port { { QStringLiteral("id"), portId(name) },
            { QStringLiteral("device_id"), server.value(QStringLiteral("id")) },
            { QStringLiteral("fixed_ips"), fixed }, { QStringLiteral("port_security_enabled"), true },
            { QStringLiteral("allowed_address_pairs"), pairs },
            { QStringLiteral("revision_number"), revision++ } };
        const QJsonObject change = m_portChanges.value(name);
        for (auto it = change.begin(); it != change.end(); ++it) {
            if (it.value().isNull())
                port.remove(it.key());
            else
                port.insert(it.key(), it.value());
        }
        list.append(port);
    }
    return QJsonObject { { QStringLiteral("ports"), list } };
}

KlusterState WorldBuilder::stateOpenFor(int minutes) const
{
    KlusterState s = state();
    const Diagnosis first = Diagnosis::run(s);
    for (const Finding &f : first.findings)
        s.findingsSince.insert(f.id(), s.capturedAt.addSecs(-qint64(minutes) * 60));
    return s;
}

KlusterState WorldBuilder::state() const
{
    KlusterState s;
    s.capturedAt = m_capturedAt;
    if (m_maxRoutes > 0)
        s.maxRoutes = m_maxRoutes;
    s.cloud = QStringLiteral("test");
    s.kluster = ApiParser::parseKluster(QStringLiteral("kluster.json"), klusterJson());
    s.instances = ApiParser::parseServers(QStringLiteral("servers.json"), serversJson());
    s.router = ApiParser::parseRouter(QStringLiteral("router.json"), routerJson());
    s.securityGroups
        = ApiParser::parseSecurityGroups(QStringLiteral("security-groups.json"), securityGroupsJson());
    s.nodes = ApiParser::parseNodes(QStringLiteral("nodes.json"), nodesJson());
    s.extensions = ApiParser::parseExtensions(QStringLiteral("extensions.json"), extensionsJson());
    s.extensionsKnown = true;
    s.klusterSource.known = s.serversSource.known = s.routerSource.known = true;
    s.securityGroupsSource.known = s.nodesSource.known = true;
    if (m_ports) {
        s.ports = ApiParser::parsePorts(QStringLiteral("ports.json"), portsJson());
        s.portsSource.known = true;
    }
    return s;
}

bool WorldBuilder::writeSnapshot(const QString &directory) const
{
    if (!QDir().mkpath(directory))
        return false;
    const QList<QPair<QString, QJsonObject>> files = {
        { QStringLiteral("capture.json"), captureJson() },
        { QStringLiteral("kluster.json"), klusterJson() },
        { QStringLiteral("servers.json"), serversJson() },
        { QStringLiteral("router.json"), routerJson() },
        { QStringLiteral("security-groups.json"), securityGroupsJson() },
        { QStringLiteral("nodes.json"), nodesJson() },
        { QStringLiteral("extensions.json"), extensionsJson() },
    };
    if (m_ports) {
        QFile file(QDir(directory).filePath(QStringLiteral("ports.json")));
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)
            || file.write(QJsonDocument(portsJson()).toJson()) < 0)
            return false;
    }
    for (const auto &f : files) {
        QFile file(QDir(directory).filePath(f.first));
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return false;
        if (file.write(QJsonDocument(f.second).toJson()) < 0)
            return false;
    }
    return true;
}
