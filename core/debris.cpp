#include "core/debris.h"

#include "core/apiparser.h"
#include "core/json/jsonreader.h"
#include "core/klusterstate.h"

#include <algorithm>

namespace {

const QString ClusterKey = QStringLiteral("cinder.csi.openstack.org/cluster");
const QString ServicePrefix = QStringLiteral("kube_service_");

// A metadata value: the APIs hold strings; anything else is not what the CSI driver wrote (empty).
QString metadataString(const JsonReader &metadata, const QString &key)
{
    return metadata.child(key).toString();
}

std::optional<ServiceRef> serviceNamed(const QString &name)
{
    if (!name.startsWith(ServicePrefix))
        return std::nullopt;
    const QStringList parts = name.mid(ServicePrefix.size()).split(QLatin1Char('_'));
    // Kluster, namespace and service names are DNS labels: no '_' in any of them.
    if (parts.size() < 2 || parts.size() > 3 || parts.at(0).isEmpty() || parts.at(1).isEmpty())
        return std::nullopt;
    return ServiceRef { parts.at(0), parts.at(1), parts.value(2) };
}

} // namespace

QList<Volume> Debris::parseVolumes(const QString &source, const QJsonObject &body)
{
    const JsonReader root(source, body);
    const JsonReader list = root.requireField(QStringLiteral("volumes"));
    QList<Volume> volumes;
    list.forEachElement([&volumes](const JsonReader &item) {
        item.requireObject();
        Volume v;
        v.id = item.requireString(QStringLiteral("id"));
        v.name = item.optString(QStringLiteral("name"));
        v.status = item.requireString(QStringLiteral("status"));
        v.sizeGb = item.optIntegerIn(QStringLiteral("size"), 0, qint64(1) << 40).value_or(0);
        item.forEachElementOf(QStringLiteral("attachments"), [&v](const JsonReader &attachment) {
            attachment.requireObject();
            v.attachedTo << attachment.optString(QStringLiteral("server_id"));
        });
        if (item.has(QStringLiteral("metadata"))) {
            const JsonReader metadata = item.child(QStringLiteral("metadata"));
            metadata.requireObject();
            v.cluster = metadataString(metadata, ClusterKey);
            v.pvName = metadataString(metadata, QStringLiteral("csi.storage.k8s.io/pv/name"));
            v.pvcNamespace = metadataString(metadata, QStringLiteral("csi.storage.k8s.io/pvc/namespace"));
            v.pvcName = metadataString(metadata, QStringLiteral("csi.storage.k8s.io/pvc/name"));
        }
        v.createdAt = ApiParser::optTimestampOf(item, QStringLiteral("created_at"));
        v.updatedAt = ApiParser::optTimestampOf(item, QStringLiteral("updated_at"));
        volumes.append(v);
    });
    return volumes;
}

QList<LoadBalancer> Debris::parseLoadBalancers(const QString &source, const QJsonObject &body)
{
    const JsonReader root(source, body);
    const JsonReader list = root.requireField(QStringLiteral("loadbalancers"));
    QList<LoadBalancer> loadBalancers;
    list.forEachElement([&loadBalancers](const JsonReader &item) {
        item.requireObject();
        LoadBalancer lb;
        lb.id = item.requireString(QStringLiteral("id"));
        lb.name = item.optString(QStringLiteral("name"));
        lb.projectId = item.optString(QStringLiteral("project_id"));
        lb.provisioningStatus = item.requireString(QStringLiteral("provisioning_status"));
        lb.operatingStatus = item.optString(QStringLiteral("operating_status"));
        lb.vipAddress = item.optString(QStringLiteral("vip_address"));
        item.forEachElementOf(
            QStringLiteral("tags"), [&lb](const JsonReader &tag) { lb.tags << tag.requireStringValue(); });
        lb.createdAt = ApiParser::optTimestampOf(item, QStringLiteral("created_at"));
        lb.updatedAt = ApiParser::optTimestampOf(item, QStringLiteral("updated_at"));
        loadBalancers.append(lb);
    });
    return loadBalancers;
}

QString Debris::volumeClusterOf(const QString &kluster, const QString &projectId)
{
    const QString name = kluster + QLatin1Char('-') + projectId;
    return name.left(63);
}

std::optional<ServiceRef> Debris::serviceOf(const LoadBalancer &lb)
{
    if (std::optional<ServiceRef> named = serviceNamed(lb.name))
        return named;
    // A load balancer renamed by hand still carries the cloud provider's tag.
    for (const QString &tag : lb.tags) {
        if (std::optional<ServiceRef> tagged = serviceNamed(tag))
            return tagged;
    }
    return std::nullopt;
}

QStringList Debris::goneKlusters(
    const QList<Volume> &volumes, const QStringList &existing, const QString &projectId)
{
    QStringList gone;
    if (projectId.isEmpty())
        return gone;
    const QString suffix = QLatin1Char('-') + projectId;
    for (const Volume &v : volumes) {
        if (v.cluster.size() <= suffix.size() || !v.cluster.endsWith(suffix))
            continue;
        const QString name = v.cluster.chopped(suffix.size());
        if (!existing.contains(name) && !gone.contains(name))
            gone << name;
    }
    gone.sort();
    return gone;
}

bool Debris::madeFor(const Volume &volume, const QString &kluster, const QString &projectId)
{
    return !volume.cluster.isEmpty() && volume.cluster == volumeClusterOf(kluster, projectId);
}

bool Debris::madeFor(const LoadBalancer &loadBalancer, const QString &kluster)
{
    const std::optional<ServiceRef> service = serviceOf(loadBalancer);
    return service && service->kluster == kluster;
}

int Debris::leftBehind(const KlusterState &state)
{
    const Kluster &k = state.kluster;
    return int(std::count_if(state.volumes.cbegin(), state.volumes.cend(),
               [&k](const Volume &v) { return madeFor(v, k.name, k.projectId); }))
        + int(std::count_if(state.loadBalancers.cbegin(), state.loadBalancers.cend(),
            [&k](const LoadBalancer &lb) { return madeFor(lb, k.name); }));
}
