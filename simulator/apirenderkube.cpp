// The simulator's Kubernetes and Kubernikus bodies (a kluster's nodes as the API server and kubectl's table
// render them, Kubernikus' kluster and its events); the OpenStack ones are in apirender.cpp.
#include "simulator/apirender.h"

#include <QJsonDocument>
#include <QJsonValue>
#include <cstdio>

namespace ApiRender {

QJsonObject node(const SimKluster &k, const SimNode &n, const QDateTime &now)
{
    Q_UNUSED(k);
    QJsonObject spec { { QStringLiteral("providerID"), n.providerId } };
    if (!n.podCidr.isEmpty()) {
        spec.insert(QStringLiteral("podCIDR"), n.podCidr);
        if (n.podCidrs)
            spec.insert(QStringLiteral("podCIDRs"), QJsonArray { n.podCidr });
    }
    if (n.unschedulable) {
        spec.insert(QStringLiteral("unschedulable"), true);
        spec.insert(QStringLiteral("taints"),
            QJsonArray {
                QJsonObject { { QStringLiteral("key"), QStringLiteral("node.kubernetes.io/unschedulable") },
                    { QStringLiteral("effect"), QStringLiteral("NoSchedule") },
                    { QStringLiteral("timeAdded"), timestamp(now) } } });
    }
    QJsonArray conditions;
    const QDateTime since = n.transition.isValid() ? n.transition : n.created;
    const QString beat = timestamp(now.addSecs(-37));
    if (!n.networkUnavailable.isEmpty()) {
        conditions.append(QJsonObject { { QStringLiteral("type"), QStringLiteral("NetworkUnavailable") },
            { QStringLiteral("status"), n.networkUnavailable }, { QStringLiteral("reason"), n.networkReason },
            { QStringLiteral("message"), n.networkMessage },
            { QStringLiteral("lastHeartbeatTime"), timestamp(n.created) },
            { QStringLiteral("lastTransitionTime"), timestamp(since) } });
    }
    for (const char *type : { "MemoryPressure", "DiskPressure", "PIDPressure" }) {
        conditions.append(QJsonObject { { QStringLiteral("type"), QString::fromLatin1(type) },
            { QStringLiteral("status"), QStringLiteral("False") },
            { QStringLiteral("reason"),
                QString(QStringLiteral("KubeletHasSufficient")
                    + QString::fromLatin1(type).remove(QStringLiteral("Pressure"))) },
            { QStringLiteral("message"), QStringLiteral("kubelet has no pressure") },
            { QStringLiteral("lastHeartbeatTime"), beat },
            { QStringLiteral("lastTransitionTime"), timestamp(n.created) } });
    }
    if (!n.ready.isEmpty()) {
        conditions.append(QJsonObject { { QStringLiteral("type"), QStringLiteral("Ready") },
            { QStringLiteral("status"), n.ready }, { QStringLiteral("reason"), n.readyReason },
            { QStringLiteral("message"), n.readyMessage }, { QStringLiteral("lastHeartbeatTime"), beat },
            { QStringLiteral("lastTransitionTime"), timestamp(since) } });
    }
    QJsonArray addresses;
    if (!n.internalIp.isEmpty())
        addresses.append(QJsonObject { { QStringLiteral("type"), QStringLiteral("InternalIP") },
            { QStringLiteral("address"), n.internalIp } });
    addresses.append(QJsonObject {
        { QStringLiteral("type"), QStringLiteral("Hostname") }, { QStringLiteral("address"), n.name } });
    const QJsonObject resources { { QStringLiteral("cpu"), QStringLiteral("2") },
        { QStringLiteral("ephemeral-storage"), QStringLiteral("40470732Ki") },
        { QStringLiteral("memory"), QStringLiteral("4025676Ki") },
        { QStringLiteral("pods"), QStringLiteral("110") } };
    QJsonObject labels { { QStringLiteral("beta.kubernetes.io/arch"), QStringLiteral("amd64") },
        { QStringLiteral("beta.kubernetes.io/os"), QStringLiteral("linux") },
        { QStringLiteral("kubernetes.io/arch"), QStringLiteral("amd64") },
        { QStringLiteral("kubernetes.io/hostname"), n.name },
        { QStringLiteral("kubernetes.io/os"), QStringLiteral("linux") },
        { QStringLiteral("ccloud.sap.com/nodepool"), n.pool },
        { QStringLiteral("node.kubernetes.io/instance-type"), QStringLiteral("m1.small") },
        { QStringLiteral("topology.kubernetes.io/zone"), n.zone } };
    QJsonObject annotations { { QStringLiteral("node.alpha.kubernetes.io/ttl"), QStringLiteral("0") } };
    // Kubernikus' servicing stamps a node before it cordons it (sapcc/kubernikus pkg/controller/servicing).
    if (n.servicingSince.isValid())
        annotations.insert(
            QStringLiteral("kubernikus.cloud.sap/updateTimestamp"), timestamp(n.servicingSince));
    return QJsonObject {
        { QStringLiteral("metadata"),
            QJsonObject { { QStringLiteral("name"), n.name }, { QStringLiteral("uid"), n.uid },
                { QStringLiteral("resourceVersion"), QString::number(n.resourceVersion) },
                { QStringLiteral("creationTimestamp"), timestamp(n.created) },
                { QStringLiteral("labels"), labels }, { QStringLiteral("annotations"), annotations } } },
        { QStringLiteral("spec"), spec },
        { QStringLiteral("status"),
            QJsonObject { { QStringLiteral("capacity"), resources },
                { QStringLiteral("allocatable"), resources }, { QStringLiteral("conditions"), conditions },
                { QStringLiteral("addresses"), addresses },
                { QStringLiteral("daemonEndpoints"),
                    QJsonObject { { QStringLiteral("kubeletEndpoint"),
                        QJsonObject { { QStringLiteral("Port"), 10250 } } } } },
                { QStringLiteral("nodeInfo"),
                    QJsonObject { { QStringLiteral("machineID"), n.uid.left(8) },
                        { QStringLiteral("systemUUID"), n.providerId.section(QLatin1Char('/'), -1) },
                        { QStringLiteral("bootID"), n.uid },
                        { QStringLiteral("kernelVersion"), QStringLiteral("6.6.60-flatcar") },
                        { QStringLiteral("osImage"),
                            QStringLiteral("Flatcar Container Linux by Kinvolk 4081.2.0 (Oklo)") },
                        { QStringLiteral("containerRuntimeVersion"), QStringLiteral("containerd://1.7.23") },
                        { QStringLiteral("kubeletVersion"), QStringLiteral("v1.30.6") },
                        { QStringLiteral("kubeProxyVersion"), QStringLiteral("v1.30.6") },
                        { QStringLiteral("operatingSystem"), QStringLiteral("linux") },
                        { QStringLiteral("architecture"), QStringLiteral("amd64") } } } } }
    };
}

static QString humanAge(qint64 seconds)
{
    if (seconds < 120)
        return QString::number(seconds) + QLatin1Char('s');
    if (seconds < 3 * 3600)
        return QString::number(seconds / 60) + QLatin1Char('m');
    if (seconds < 48 * 3600)
        return QString::number(seconds / 3600) + QLatin1Char('h');
    return QString::number(seconds / 86400) + QLatin1Char('d');
}

QJsonObject nodeTable(const SimKluster &k, const QList<const SimNode *> &nodes, const QDateTime &now,
    const QString &resourceVersion, const QString &continueToken)
{
    auto column
        = [](const char *name, const char *type, const char *format, int priority, const char *description) {
              return QJsonObject { { QStringLiteral("name"), QString::fromLatin1(name) },
                  { QStringLiteral("type"), QString::fromLatin1(type) },
                  { QStringLiteral("format"), QString::fromLatin1(format) },
                  { QStringLiteral("description"), QString::fromLatin1(description) },
                  { QStringLiteral("priority"), priority } };
          };
    const QJsonArray columns { column("Name", "string", "name", 0, "Name must be unique within a namespace."),
        column("Status", "string", "", 0, "The status of the node"),
        column("Roles", "string", "", 0, "The roles of the node"),
        column("Age", "string", "", 0, "CreationTimestamp is a timestamp"),
        column("Version", "string", "", 0, "Kubelet Version reported by the node."),
        column("Internal-IP", "string", "", 1, "List of addresses reachable to the node."),
        column("External-IP", "string", "", 1, "List of addresses reachable to the node."),
        column("OS-Image", "string", "", 1, "OS Image reported by the node."),
        column("Kernel-Version", "string", "", 1, "Kernel Version reported by the node."),
        column("Container-Runtime", "string", "", 1, "Container Runtime Version reported by the node.") };
    QJsonArray rows;
    for (const SimNode *n : nodes) {
        QString status = n->ready == QLatin1String("True") ? QStringLiteral("Ready")
            : n->ready == QLatin1String("False")           ? QStringLiteral("NotReady")
                                                           : QStringLiteral("Unknown");
        if (n->unschedulable)
            status += QStringLiteral(",SchedulingDisabled");
        const QJsonObject full = node(k, *n, now);
        const QJsonObject metadata = full.value(QStringLiteral("metadata")).toObject();
        rows.append(
            QJsonObject { { QStringLiteral("cells"),
                              QJsonArray { n->name, status, QStringLiteral("<none>"),
                                  humanAge(n->created.secsTo(now)), QStringLiteral("v1.30.6"),
                                  n->internalIp.isEmpty() ? QStringLiteral("<none>") : n->internalIp,
                                  QStringLiteral("<none>"),
                                  QStringLiteral("Flatcar Container Linux by Kinvolk 4081.2.0 (Oklo)"),
                                  QStringLiteral("6.6.60-flatcar"), QStringLiteral("containerd://1.7.23") } },
                { QStringLiteral("object"),
                    QJsonObject { { QStringLiteral("kind"), QStringLiteral("PartialObjectMetadata") },
                        { QStringLiteral("apiVersion"), QStringLiteral("meta.k8s.io/v1") },
                        { QStringLiteral("metadata"), metadata } } } });
    }
    QJsonObject meta { { QStringLiteral("resourceVersion"), resourceVersion } };
    if (!continueToken.isEmpty())
        meta.insert(QStringLiteral("continue"), continueToken);
    return QJsonObject { { QStringLiteral("kind"), QStringLiteral("Table") },
        { QStringLiteral("apiVersion"), QStringLiteral("meta.k8s.io/v1") },
        { QStringLiteral("metadata"), meta }, { QStringLiteral("columnDefinitions"), columns },
        { QStringLiteral("rows"), rows } };
}

QJsonArray kubernikusEvents(const SimKluster &k)
{
    const auto goTime = [](const QDateTime &t) -> QString {
        return t.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) + QStringLiteral(" +0000 UTC");
    };
    QJsonArray list;
    for (const SimKubernikusEvent &e : k.events) {
        QJsonObject o { { QStringLiteral("count"), e.count } };
        const std::pair<const char *, QString> fields[]
            = { { "firstTimestamp", goTime(e.first) }, { "lastTimestamp", goTime(e.last) },
                  { "message", e.message }, { "reason", e.reason }, { "type", e.type } };
        for (const auto &[key, value] : fields) {
            if (!value.isEmpty())
                o.insert(QLatin1String(key), value);
        }
        list.append(o);
    }
    return list;
}

RunningServers runningServers(const World &w)
{
    RunningServers running;
    for (const SimServer &s : w.servers) {
        if (!s.kluster.isEmpty() && s.status == QLatin1String("ACTIVE"))
            ++running[s.kluster + QLatin1Char('/') + s.pool];
    }
    return running;
}

QJsonObject kluster(const World &w, const SimKluster &k)
{
    return kluster(w, k, runningServers(w));
}

QJsonObject kluster(const World &w, const SimKluster &k, const RunningServers &running)
{
    QJsonArray pools;
    QJsonArray poolInfo;
    for (const SimNodePool &p : k.pools) {
        pools.append(QJsonObject { { QStringLiteral("name"), p.name }, { QStringLiteral("size"), p.size },
            { QStringLiteral("flavor"), QStringLiteral("m1.small") },
            { QStringLiteral("image"), QStringLiteral("flatcar-stable-amd64") },
            { QStringLiteral("availabilityZone"), QStringLiteral("nova") },
            { QStringLiteral("config"),
                QJsonObject {
                    { QStringLiteral("allowReboot"), true }, { QStringLiteral("allowReplace"), true } } } });
        int healthy = 0;
        for (const SimNode &n : k.nodes) {
            if (n.pool == p.name && n.ready == QLatin1String("True"))
                ++healthy;
        }
        poolInfo.append(QJsonObject { { QStringLiteral("name"), p.name }, { QStringLiteral("size"), p.size },
            { QStringLiteral("running"), running.value(k.name + QLatin1Char('/') + p.name) },
            { QStringLiteral("healthy"), healthy }, { QStringLiteral("schedulable"), healthy } });
    }
    const int n = w.networkIndex(k.networkId);
    return QJsonObject { { QStringLiteral("name"), k.name },
        { QStringLiteral("spec"),
            QJsonObject { { QStringLiteral("name"), k.name },
                { QStringLiteral("version"), QStringLiteral("1.30.6") },
                { QStringLiteral("clusterCIDR"), k.clusterCidr },
                { QStringLiteral("serviceCIDR"), k.serviceCidr },
                { QStringLiteral("advertiseAddress"), QStringLiteral("1.1.1.1") },
                { QStringLiteral("dnsAddress"), QStringLiteral("198.18.128.10") },
                { QStringLiteral("dnsDomain"), QStringLiteral("cluster.local") },
                { QStringLiteral("sshPublicKey"), QString() },
                { QStringLiteral("openstack"),
                    QJsonObject { { QStringLiteral("projectID"), k.projectId },
                        { QStringLiteral("routerID"), k.routerId },
                        { QStringLiteral("networkID"), n >= 0 ? w.networks.at(n).id : QString() },
                        { QStringLiteral("lbSubnetID"), n >= 0 ? w.networks.at(n).subnetId : QString() },
                        { QStringLiteral("lbFloatingNetworkID"), QString() },
                        { QStringLiteral("securityGroupName"), k.securityGroupName } } },
                { QStringLiteral("nodePools"), pools } } },
        { QStringLiteral("status"),
            QJsonObject { { QStringLiteral("phase"), k.phase },
                { QStringLiteral("version"), QStringLiteral("1.30.6") }, { QStringLiteral("specVersion"), 2 },
                { QStringLiteral("migrationsPending"), false },
                { QStringLiteral("nodePools"), poolInfo } } } };
}

} // namespace ApiRender
