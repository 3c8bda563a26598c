#include "simulator/apirender.h"

#include "simulator/jsonbytes.h"

#include <QJsonDocument>
#include <QJsonValue>
#include <cstdio>

namespace ApiRender {

QString timestamp(const QDateTime &t)
{
    // Formatted by hand: QDateTime::toString parses its format on every call,
    // and a page of servers holds thousands of timestamps.
    const QDateTime utc = t.timeSpec() == Qt::UTC ? t : t.toUTC();
    const QDate d = utc.date();
    const QTime tm = utc.time();
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02dT%02d:%02d:%02dZ", d.year(), d.month(), d.day(),
        tm.hour(), tm.minute(), tm.second());
    return QString::fromLatin1(buffer);
}

static const char imageId[] = "3f2a8d1c-7b6e-4c5d-9e0f-1a2b3c4d5e6f";

QJsonObject flavor(const QString &id, int microversion, const QString &computeUrl)
{
    if (microversion >= 2047) {
        return QJsonObject { { QStringLiteral("vcpus"), 2 }, { QStringLiteral("ram"), 4096 },
            { QStringLiteral("disk"), 40 }, { QStringLiteral("ephemeral"), 0 }, { QStringLiteral("swap"), 0 },
            { QStringLiteral("original_name"), id }, { QStringLiteral("extra_specs"), QJsonObject() } };
    }
    QString root = computeUrl;
    root.remove(QStringLiteral("/v2.1"));
    return QJsonObject { { QStringLiteral("id"), id },
        { QStringLiteral("links"),
            QJsonArray { QJsonObject { { QStringLiteral("rel"), QStringLiteral("bookmark") },
                { QStringLiteral("href"), QString(root + QStringLiteral("/flavors/") + id) } } } } };
}

QByteArray serverJson(const World &w, const SimServer &s, int microversion, const QString &computeUrl)
{
    QString root = computeUrl;
    root.remove(QStringLiteral("/v2.1"));
    const QString image = QString::fromLatin1(imageId);
    JsonBytes b;
    b.raw("{");
    b.key("id").str(s.id);
    b.key("name").str(s.name);
    b.key("status").str(s.status);
    b.key("tenant_id").str(s.projectId);
    b.key("user_id").str(QStringLiteral("9e1c7a3b5d2f4e6a8b0c1d2e3f4a5b6c"));
    b.key("metadata").raw("{");
    if (!s.kluster.isEmpty()) {
        b.key("kubernikus:kluster").str(s.kluster);
        b.key("kubernikus:nodepool").str(s.pool);
    }
    b.raw("}");
    b.key("hostId").str(QStringLiteral("5f4dcc3b5aa765d61d8327deb882cf99e0a4b9c5d6e7f8a9b0c1d2e3"));
    b.key("image").raw("{");
    b.key("id").str(image);
    b.key("links").raw("[{");
    b.key("rel").str(QStringLiteral("bookmark"));
    b.key("href").str(root + QStringLiteral("/images/") + image);
    b.raw("}]}");
    b.key("flavor");
    if (microversion >= 2047) {
        b.raw("{");
        b.key("vcpus").num(2);
        b.key("ram").num(4096);
        b.key("disk").num(40);
        b.key("ephemeral").num(0);
        b.key("swap").num(0);
        b.key("original_name").str(s.flavorId);
        b.key("extra_specs").raw("{}");
        b.raw("}");
    } else {
        b.raw("{");
        b.key("id").str(s.flavorId);
        b.key("links").raw("[{");
        b.key("rel").str(QStringLiteral("bookmark"));
        b.key("href").str(root + QStringLiteral("/flavors/") + s.flavorId);
        b.raw("}]}");
    }
    b.key("created").str(timestamp(s.created));
    b.key("updated").str(timestamp(s.updated));
    b.key("addresses").raw("{");
    const int p = w.portIndex(s.portId);
    if (p >= 0) {
        const SimPort &port = w.ports.at(p);
        b.key(s.networkName.toUtf8().constData()).raw("[{");
        b.key("version").num(4);
        b.key("addr").str(port.ipAddress);
        b.key("OS-EXT-IPS:type").str(QStringLiteral("fixed"));
        b.key("OS-EXT-IPS-MAC:mac_addr").str(port.macAddress);
        b.raw("}");
        if (!s.floatingIp.isEmpty()) {
            b.raw(",{");
            b.key("version").num(4);
            b.key("addr").str(s.floatingIp);
            b.key("OS-EXT-IPS:type").str(QStringLiteral("floating"));
            b.key("OS-EXT-IPS-MAC:mac_addr").str(port.macAddress);
            b.raw("}");
        }
        b.raw("]");
    }
    b.raw("}");
    b.key("accessIPv4").str(QString());
    b.key("accessIPv6").str(QString());
    b.key("links").raw("[{");
    b.key("rel").str(QStringLiteral("self"));
    b.key("href").str(computeUrl + QStringLiteral("/servers/") + s.id);
    b.raw("},{");
    b.key("rel").str(QStringLiteral("bookmark"));
    b.key("href").str(root + QStringLiteral("/servers/") + s.id);
    b.raw("}]");
    b.key("OS-DCF:diskConfig").str(QStringLiteral("MANUAL"));
    b.key("progress").num(0);
    b.key("OS-EXT-AZ:availability_zone").str(s.zone);
    b.key("config_drive").str(QString());
    b.key("key_name").raw("null");
    b.key("OS-SRV-USG:launched_at");
    if (s.status == QLatin1String("ACTIVE"))
        b.str(timestamp(s.created));
    else
        b.raw("null");
    b.key("OS-SRV-USG:terminated_at");
    if (s.status == QLatin1String("DELETED"))
        b.str(timestamp(s.updated));
    else
        b.raw("null");
    b.key("OS-EXT-STS:task_state").strOrNull(s.taskState);
    b.key("OS-EXT-STS:vm_state").str(s.vmState);
    b.key("OS-EXT-STS:power_state").num(s.vmState == QLatin1String("active") ? 1 : 0);
    b.key("os-extended-volumes:volumes_attached").raw("[]");
    const QStringList groups = w.serverGroupNames(s);
    if (!groups.isEmpty()) { // Nova leaves the key out when there are none
        b.key("security_groups").raw("[");
        for (int i = 0; i < groups.size(); ++i) {
            b.raw(i ? ",{" : "{");
            b.key("name").str(groups.at(i));
            b.raw("}");
        }
        b.raw("]");
    }
    if (s.status == QLatin1String("ERROR") && !s.faultMessage.isEmpty()) {
        b.key("fault").raw("{");
        b.key("code").num(500);
        b.key("created").str(timestamp(s.updated));
        b.key("message").str(s.faultMessage);
        b.raw("}");
    }
    if (microversion >= 2009)
        b.key("locked").raw("false");
    if (microversion >= 2019)
        b.key("description").raw("null");
    if (microversion >= 2026)
        b.key("tags").raw("[]");
    if (microversion >= 2073)
        b.key("locked_reason").raw("null");
    b.raw("}");
    return b.take();
}

QJsonObject server(const World &w, const SimServer &s, int microversion, const QString &computeUrl)
{
    return QJsonDocument::fromJson(serverJson(w, s, microversion, computeUrl)).object();
}

QJsonObject router(const World &w, const SimRouter &r)
{
    // Neutron answers with its routes table's order: by destination, then
    // nexthop, as strings (the table's primary key), not in the order given.
    const QList<SimRoute> ordered = inNeutronOrder(r.routes);
    QJsonArray routes;
    for (const SimRoute &route : ordered)
        routes.append(QJsonObject { { QStringLiteral("destination"), route.destination },
            { QStringLiteral("nexthop"), route.nexthop } });
    Q_UNUSED(w);
    return QJsonObject { { QStringLiteral("id"), r.id }, { QStringLiteral("name"), r.name },
        { QStringLiteral("tenant_id"), r.projectId }, { QStringLiteral("project_id"), r.projectId },
        { QStringLiteral("admin_state_up"), true }, { QStringLiteral("status"), QStringLiteral("ACTIVE") },
        { QStringLiteral("external_gateway_info"), QJsonValue() },
        { QStringLiteral("description"), QString() },
        { QStringLiteral("availability_zones"), QJsonArray { QStringLiteral("nova") } },
        { QStringLiteral("availability_zone_hints"), QJsonArray() }, { QStringLiteral("distributed"), false },
        { QStringLiteral("ha"), false }, { QStringLiteral("flavor_id"), QJsonValue() },
        { QStringLiteral("tags"), QJsonArray() }, { QStringLiteral("created_at"), timestamp(r.created) },
        { QStringLiteral("updated_at"), timestamp(r.updated) },
        { QStringLiteral("revision_number"), r.revision }, { QStringLiteral("routes"), routes } };
}

QJsonObject network(const SimNetwork &n)
{
    return QJsonObject { { QStringLiteral("id"), n.id }, { QStringLiteral("name"), n.name },
        { QStringLiteral("tenant_id"), n.projectId }, { QStringLiteral("project_id"), n.projectId },
        { QStringLiteral("admin_state_up"), true }, { QStringLiteral("status"), QStringLiteral("ACTIVE") },
        { QStringLiteral("shared"), false }, { QStringLiteral("router:external"), false },
        { QStringLiteral("mtu"), 1450 }, { QStringLiteral("port_security_enabled"), true },
        { QStringLiteral("subnets"), QJsonArray { n.subnetId } }, { QStringLiteral("revision_number"), 1 },
        { QStringLiteral("tags"), QJsonArray() } };
}

QJsonObject subnet(const SimNetwork &n)
{
    return QJsonObject { { QStringLiteral("id"), n.subnetId },
        { QStringLiteral("name"), QString(n.name + QStringLiteral("-subnet")) },
        { QStringLiteral("network_id"), n.id }, { QStringLiteral("tenant_id"), n.projectId },
        { QStringLiteral("project_id"), n.projectId }, { QStringLiteral("ip_version"), 4 },
        { QStringLiteral("cidr"), n.cidr }, { QStringLiteral("gateway_ip"), n.gateway },
        { QStringLiteral("enable_dhcp"), true }, { QStringLiteral("allocation_pools"), QJsonArray() },
        { QStringLiteral("dns_nameservers"), QJsonArray() }, { QStringLiteral("host_routes"), QJsonArray() },
        { QStringLiteral("revision_number"), 1 } };
}

QJsonObject port(const World &w, const SimPort &p)
{
    QJsonArray pairs;
    for (const QString &cidr : p.allowedAddressPairs)
        pairs.append(QJsonObject {
            { QStringLiteral("ip_address"), cidr }, { QStringLiteral("mac_address"), p.macAddress } });
    const int n = w.networkIndex(p.networkId);
    const QString project = n >= 0 ? w.networks.at(n).projectId : QString();
    return QJsonObject { { QStringLiteral("id"), p.id }, { QStringLiteral("name"), QString() },
        { QStringLiteral("network_id"), p.networkId }, { QStringLiteral("tenant_id"), project },
        { QStringLiteral("project_id"), project }, { QStringLiteral("device_id"), p.deviceId },
        { QStringLiteral("device_owner"), p.deviceOwner }, { QStringLiteral("mac_address"), p.macAddress },
        { QStringLiteral("status"), QStringLiteral("ACTIVE") }, { QStringLiteral("admin_state_up"), true },
        { QStringLiteral("port_security_enabled"), true },
        { QStringLiteral("fixed_ips"),
            QJsonArray { QJsonObject { { QStringLiteral("subnet_id"), p.subnetId },
                { QStringLiteral("ip_address"), p.ipAddress } } } },
        { QStringLiteral("allowed_address_pairs"), pairs },
        { QStringLiteral("security_groups"), QJsonArray::fromStringList(p.securityGroupIds) },
        { QStringLiteral("revision_number"), p.revision },
        { QStringLiteral("created_at"), timestamp(p.created) },
        { QStringLiteral("updated_at"), timestamp(p.updated.isValid() ? p.updated : p.created) } };
}

QJsonObject rule(const SimSecurityGroup &g, const SimRule &r)
{
    auto opt = [](const std::optional<QString> &v) { return v ? QJsonValue(*v) : QJsonValue(); };
    auto optInt = [](const std::optional<int> &v) { return v ? QJsonValue(*v) : QJsonValue(); };
    return QJsonObject { { QStringLiteral("id"), r.id }, { QStringLiteral("security_group_id"), g.id },
        { QStringLiteral("tenant_id"), g.projectId }, { QStringLiteral("project_id"), g.projectId },
        { QStringLiteral("direction"), r.direction }, { QStringLiteral("ethertype"), r.ethertype },
        { QStringLiteral("protocol"), opt(r.protocol) },
        { QStringLiteral("port_range_min"), optInt(r.portRangeMin) },
        { QStringLiteral("port_range_max"), optInt(r.portRangeMax) },
        { QStringLiteral("remote_ip_prefix"), opt(r.remoteIpPrefix) },
        { QStringLiteral("remote_group_id"), opt(r.remoteGroupId) },
        { QStringLiteral("remote_address_group_id"), QJsonValue() },
        { QStringLiteral("normalized_cidr"), opt(r.remoteIpPrefix) },
        { QStringLiteral("description"), r.description }, { QStringLiteral("tags"), QJsonArray() },
        { QStringLiteral("created_at"), timestamp(r.created) },
        { QStringLiteral("updated_at"), timestamp(r.created) }, { QStringLiteral("revision_number"), 0 },
        { QStringLiteral("belongs_to_default_sg"), g.name == QLatin1String("default") } };
}

QJsonObject securityGroup(const SimSecurityGroup &g)
{
    QJsonArray rules;
    for (const SimRule &r : g.rules)
        rules.append(rule(g, r));
    return QJsonObject { { QStringLiteral("id"), g.id }, { QStringLiteral("name"), g.name },
        { QStringLiteral("tenant_id"), g.projectId }, { QStringLiteral("project_id"), g.projectId },
        { QStringLiteral("description"), g.description }, { QStringLiteral("stateful"), true },
        { QStringLiteral("shared"), false }, { QStringLiteral("tags"), QJsonArray() },
        { QStringLiteral("revision_number"), g.revision },
        { QStringLiteral("security_group_rules"), rules } };
}

QStringList extensionAliases(const World &w)
{
    QStringList aliases = { QStringLiteral("agent"), QStringLiteral("allowed-address-pairs"),
        QStringLiteral("empty-string-filtering"), QStringLiteral("external-net"),
        QStringLiteral("extraroute"), QStringLiteral("filter-validation"), QStringLiteral("pagination"),
        QStringLiteral("port-security"), QStringLiteral("quotas"), QStringLiteral("revision-if-match"),
        QStringLiteral("router"), QStringLiteral("security-group"), QStringLiteral("sorting"),
        QStringLiteral("standard-attr-revisions") };
    if (w.extraRouteAtomic)
        aliases.append(QStringLiteral("extraroute-atomic"));
    if (w.asr1k)
        aliases.append(QStringLiteral("asr1k_operations"));
    aliases.sort();
    return aliases;
}

QJsonObject extensions(const World &w)
{
    QJsonArray list;
    for (const QString &alias : extensionAliases(w)) {
        if (alias
            == QLatin1String("asr1k_operations")) { // the driver's own words (asr1koperations.py l.34-53)
            list.append(QJsonObject { { QStringLiteral("alias"), alias },
                { QStringLiteral("name"), QStringLiteral("Viewing and managing ASR1K device state") },
                { QStringLiteral("description"), QStringLiteral("ASR1k Devices API") },
                { QStringLiteral("updated"), QStringLiteral("2018-03-08T10:00:00-00:00") },
                { QStringLiteral("links"), QJsonArray() } });
            continue;
        }
        list.append(QJsonObject { { QStringLiteral("alias"), alias }, { QStringLiteral("name"), alias },
            { QStringLiteral("description"), QStringLiteral("The %1 extension.").arg(alias) },
            { QStringLiteral("updated"), QStringLiteral("2019-12-17T10:00:00-00:00") },
            { QStringLiteral("links"), QJsonArray() } });
    }
    return QJsonObject { { QStringLiteral("extensions"), list } };
}

QString consoleOutput(const World &w, const SimServer &s, std::optional<qint64> lines)
{
    QString log = s.consoleLog;
    if (log.isEmpty()) {
        const SimNode *node = nullptr;
        for (const SimKluster &k : w.klusters) {
            for (const SimNode &n : k.nodes) {
                if (n.providerId == QLatin1String("openstack:///") + s.id)
                    node = &n;
            }
        }
        const QString mac
            = QStringLiteral("fa:16:3e:%1:%2:%3").arg(s.id.mid(0, 2), s.id.mid(2, 2), s.id.mid(4, 2));
        QStringList boot {
            QStringLiteral("[    0.000000] Linux version 6.6.60-flatcar (build@flightdeck-sim) #1 SMP"),
            QStringLiteral(
                "[    0.000000] Command line: BOOT_IMAGE=/flatcar/vmlinuz-a flatcar.oem.id=openstack"),
            QStringLiteral("[    1.912345] virtio_net virtio1 eth0: renamed from eth0, MAC %1").arg(mac),
            QStringLiteral("[    3.204411] systemd[1]: Starting Ignition (fetch)..."),
        };
        if (!s.kluster.isEmpty() && !node && s.vmState == QLatin1String("active")) {
            boot << QStringLiteral(
                "[    4.118020] systemd-networkd[612]: eth0: DHCPv4 client: no lease received, retrying")
                 << QStringLiteral("[   19.520233] ignition[640]: GET "
                                   "http://169.254.169.254/openstack/latest/user_data: attempt #5")
                 << QStringLiteral("[   19.520301] ignition[640]: GET error: dial tcp 169.254.169.254:80: "
                                   "connect: network is unreachable")
                 << QStringLiteral(
                        "[   64.020011] ignition[640]: failed to fetch config: giving up after 10 attempts")
                 << QStringLiteral("[   64.101544] systemd[1]: Reached target Emergency Mode.") << QString()
                 << QStringLiteral("This is %1 (Linux x86_64 6.6.60-flatcar) %2")
                        .arg(s.name, s.created.toString(QStringLiteral("HH:mm:ss")))
                 << QStringLiteral("SSH host key: SHA256:none (ECDSA)")
                 << QStringLiteral("eth0: fe80::f816:3eff:fe%1:%2").arg(s.id.mid(0, 2), s.id.mid(2, 4))
                 << QString() << QStringLiteral("%1 login:").arg(s.name);
        } else {
            const QString ip = w.serverAddresses(s).value(0);
            boot << QStringLiteral(
                "[    4.118020] systemd-networkd[612]: eth0: DHCPv4 address %1/24, gateway via DHCP")
                        .arg(ip)
                 << QStringLiteral("[    5.733190] ignition[640]: fetched user config from \"openstack\"")
                 << QStringLiteral(
                        "[   12.402119] systemd[1]: Started kubelet.service - Kubernetes Kubelet.");
            if (node)
                boot << QStringLiteral("[   16.880212] kubelet[1042]: Successfully registered node %1")
                            .arg(node->name);
            boot << QString() << QStringLiteral("This is %1 (Linux x86_64 6.6.60-flatcar)").arg(s.name)
                 << QStringLiteral("eth0: %1 fe80::f816:3eff:fe%2:%3").arg(ip, s.id.mid(0, 2), s.id.mid(2, 4))
                 << QString() << QStringLiteral("%1 login:").arg(s.name);
            if (s.vmState == QLatin1String("stopped"))
                boot << QStringLiteral("[%1] reboot: Power down")
                            .arg(QStringLiteral("86400.000001").rightJustified(12));
        }
        log = boot.join(QLatin1Char('\n')) + QLatin1Char('\n');
    }
    // Nova's manager: the tail by lines of the bytes, decoded as ASCII with replacement.
    QByteArray bytes = log.toLatin1();
    if (lines) {
        if (*lines == 0) {
            bytes.clear();
        } else {
            QList<QByteArray> parts = bytes.split('\n');
            const qsizetype from = *lines < 0 ? qMin<qsizetype>(parts.size(), -*lines)
                                              : qMax<qsizetype>(0, parts.size() - *lines);
            parts = parts.mid(from);
            bytes = parts.join('\n');
        }
    }
    QString out;
    out.reserve(bytes.size());
    for (const char c : std::as_const(bytes)) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x80)
            out += QChar(0xFFFD);
        else if (u == '\t' || u == '\n' || u >= 0x20)
            out += QLatin1Char(c); // the API drops [\x00-\x08\x0B-\x1F]
    }
    return out;
}

QJsonObject instanceActions(const SimServer &s)
{
    QJsonArray list;
    for (qsizetype i = s.actions.size() - 1; i >= 0; --i) {
        const SimAction &a = s.actions.at(i);
        list.append(
            QJsonObject { { QStringLiteral("action"), a.action }, { QStringLiteral("instance_uuid"), s.id },
                { QStringLiteral("message"), a.message.isEmpty() ? QJsonValue() : QJsonValue(a.message) },
                { QStringLiteral("project_id"), s.projectId }, { QStringLiteral("request_id"), a.requestId },
                { QStringLiteral("start_time"),
                    a.start.toUTC().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzz000")) },
                { QStringLiteral("user_id"), a.userId.isEmpty() ? QJsonValue() : QJsonValue(a.userId) } });
    }
    return QJsonObject { { QStringLiteral("instanceActions"), list } };
}

} // namespace ApiRender
