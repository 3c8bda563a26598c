// Cinder's volumes and Octavia's load balancers as the real services render them
// (cinder/api/v2/views/volumes.py, octavia/api/v2/types/load_balancer.py; docs/wire-formats.md, "What a
// terminated kluster leaves behind").

#include "simulator/apirender.h"
#include "simulator/stableid.h"

#include <algorithm>

namespace ApiRender {

namespace {

QJsonValue orNull(const QString &s)
{
    return s.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s);
}

} // namespace

QString cinderTime(const QDateTime &t)
{
    return t.toUTC().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzz000"));
}

QList<const SimVolume *> projectVolumes(const World &w, const QString &projectId)
{
    QList<const SimVolume *> list;
    for (const SimVolume &v : w.volumes) {
        if (v.projectId == projectId)
            list.append(&v);
    }
    // Cinder's default sort: created_at, then id, both descending.
    std::sort(list.begin(), list.end(), [](const SimVolume *a, const SimVolume *b) {
        return a->created != b->created ? a->created > b->created : a->id > b->id;
    });
    return list;
}

QJsonObject volume(const SimVolume &v, int microversion, const QString &url)
{
    QJsonObject metadata;
    for (const auto &m : v.metadata)
        metadata.insert(m.first, m.second);
    QJsonArray attachments;
    for (const QString &server : v.attachedTo) {
        attachments.append(QJsonObject { { QStringLiteral("id"), v.id },
            { QStringLiteral("attachment_id"), stableUuid(QStringLiteral("attachment:") + v.id + server) },
            { QStringLiteral("volume_id"), v.id }, { QStringLiteral("server_id"), server },
            { QStringLiteral("host_name"), QJsonValue() }, // an admin's only
            { QStringLiteral("device"), v.device },
            { QStringLiteral("attached_at"),
                cinderTime(v.attachedAt.isValid() ? v.attachedAt : v.created) } });
    }
    // The bookmark is the link without its version ("http://…/v3/p/volumes/x" → "http://…/p/volumes/x").
    QString bookmark = url;
    bookmark.replace(QStringLiteral("/v3"), QString());
    QJsonObject o { { QStringLiteral("id"), v.id }, { QStringLiteral("name"), orNull(v.name) },
        { QStringLiteral("status"), v.status }, { QStringLiteral("size"), v.size },
        { QStringLiteral("availability_zone"), v.zone },
        { QStringLiteral("created_at"), cinderTime(v.created) },
        { QStringLiteral("updated_at"),
            v.updated.isValid() ? QJsonValue(cinderTime(v.updated)) : QJsonValue() },
        { QStringLiteral("description"), orNull(v.description) },
        { QStringLiteral("volume_type"), v.volumeType }, { QStringLiteral("snapshot_id"), QJsonValue() },
        { QStringLiteral("source_volid"), QJsonValue() }, { QStringLiteral("metadata"), metadata },
        { QStringLiteral("links"),
            QJsonArray { QJsonObject { { QStringLiteral("rel"), QStringLiteral("self") },
                             { QStringLiteral("href"), QString(url + QStringLiteral("/volumes/") + v.id) } },
                QJsonObject { { QStringLiteral("rel"), QStringLiteral("bookmark") },
                    { QStringLiteral("href"), QString(bookmark + QStringLiteral("/volumes/") + v.id) } } } },
        { QStringLiteral("user_id"), v.userId }, { QStringLiteral("bootable"), QStringLiteral("false") },
        { QStringLiteral("encrypted"), false },
        { QStringLiteral("replication_status"), QStringLiteral("disabled") },
        { QStringLiteral("consistencygroup_id"), QJsonValue() }, { QStringLiteral("multiattach"), false },
        { QStringLiteral("attachments"), attachments },
        { QStringLiteral("os-vol-tenant-attr:tenant_id"), v.projectId } };
    if (microversion >= 3013)
        o.insert(QStringLiteral("group_id"), QJsonValue());
    if (microversion >= 3048) {
        o.insert(QStringLiteral("shared_targets"), false);
        o.insert(QStringLiteral("service_uuid"), QJsonValue());
    }
    if (microversion >= 3063)
        o.insert(QStringLiteral("volume_type_id"), stableUuid(QStringLiteral("volume-type:") + v.volumeType));
    if (microversion >= 3065)
        o.insert(QStringLiteral("consumes_quota"), true);
    return o;
}

QString octaviaTime(const QDateTime &t)
{
    return t.toUTC().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss"));
}

QList<const SimLoadBalancer *> projectLoadBalancers(const World &w, const QString &projectId)
{
    QList<const SimLoadBalancer *> list;
    for (const SimLoadBalancer &lb : w.loadBalancers) {
        if (lb.projectId == projectId)
            list.append(&lb);
    }
    // Octavia's default sort: created_at, then id, both ascending.
    std::sort(list.begin(), list.end(), [](const SimLoadBalancer *a, const SimLoadBalancer *b) {
        return a->created != b->created ? a->created < b->created : a->id < b->id;
    });
    return list;
}

QJsonObject loadBalancer(const SimLoadBalancer &lb)
{
    return QJsonObject { { QStringLiteral("id"), lb.id }, { QStringLiteral("name"), lb.name },
        { QStringLiteral("description"), lb.description },
        { QStringLiteral("provisioning_status"), lb.provisioningStatus },
        { QStringLiteral("operating_status"), lb.operatingStatus },
        { QStringLiteral("admin_state_up"), true }, { QStringLiteral("project_id"), lb.projectId },
        { QStringLiteral("created_at"), octaviaTime(lb.created) },
        { QStringLiteral("updated_at"),
            lb.updated.isValid() ? QJsonValue(octaviaTime(lb.updated)) : QJsonValue() },
        { QStringLiteral("vip_address"), orNull(lb.vipAddress) },
        { QStringLiteral("vip_port_id"), orNull(lb.vipPortId) },
        { QStringLiteral("vip_subnet_id"), orNull(lb.vipSubnetId) },
        { QStringLiteral("vip_network_id"), orNull(lb.vipNetworkId) },
        { QStringLiteral("vip_qos_policy_id"), QJsonValue() },
        { QStringLiteral("additional_vips"), QJsonArray() }, { QStringLiteral("listeners"), QJsonArray() },
        { QStringLiteral("pools"), QJsonArray() }, { QStringLiteral("provider"), lb.provider },
        { QStringLiteral("flavor_id"), QJsonValue() },
        { QStringLiteral("tags"), QJsonArray::fromStringList(lb.tags) },
        { QStringLiteral("availability_zone"), QJsonValue() } };
}

} // namespace ApiRender
