// The simulator's Kubernetes and Kubernikus bodies (a kluster's nodes as the API server and kubectl's table
// render them, Kubernikus' kluster and its events); the OpenStack ones are in apirender.cpp.
#include "simulator/apirender.h"
#include "simulator/jsonbytes.h"

#include <QJsonDocument>
#include <QJsonValue>
#include <cstdio>

namespace ApiRender {

QByteArray nodeJson(const SimKluster &k, const SimNode &n, const QDateTime &now)
{
    Q_UNUSED(k);
    const QString created = timestamp(n.created);
    const QString since = n.transition.isValid() ? timestamp(n.transition) : created;
    const QString beat = timestamp(now.addSecs(-37));
    JsonBytes b;
    b.raw("{");
    b.key("metadata").raw("{");
    b.key("name").str(n.name);
    b.key("uid").str(n.uid);
    b.key("resourceVersion").str(QString::number(n.resourceVersion));
    b.key("creationTimestamp").str(created);
    b.key("labels").raw("{");
    b.key("beta.kubernetes.io/arch").raw("\"amd64\"");
    b.key("beta.kubernetes.io/os").raw("\"linux\"");
    b.key("kubernetes.io/arch").raw("\"amd64\"");
    b.key("kubernetes.io/hostname").str(n.name);
    b.key("kubernetes.io/os").raw("\"linux\"");
    b.key("ccloud.sap.com/nodepool").str(n.pool);
    b.key("node.kubernetes.io/instance-type").raw("\"m1.small\"");
    b.key("topology.kubernetes.io/zone").str(n.zone);
    b.raw("}");
    b.key("annotations").raw("{");
    b.key("node.alpha.kubernetes.io/ttl").raw("\"0\"");
    // Kubernikus' servicing stamps a node before it cordons it (sapcc/kubernikus pkg/controller/servicing).
    if (n.servicingSince.isValid())
        b.key("kubernikus.cloud.sap/updateTimestamp").str(timestamp(n.servicingSince));
    b.raw("}}");
    b.key("spec").raw("{");
    b.key("providerID").str(n.providerId);
    if (!n.podCidr.isEmpty()) {
        b.key("podCIDR").str(n.podCidr);
        if (n.podCidrs) {
            b.key("podCIDRs").raw("[");
            b.str(n.podCidr).raw("]");
        }
    }
    if (n.unschedulable) {
        b.key("unschedulable").raw("true");
        b.key("taints").raw("[{");
        b.key("key").raw("\"node.kubernetes.io/unschedulable\"");
        b.key("effect").raw("\"NoSchedule\"");
        b.key("timeAdded").str(timestamp(now));
        b.raw("}]");
    }
    b.raw("}");
    b.key("status").raw("{");
    const char resources[] = "{\"cpu\":\"2\",\"ephemeral-storage\":\"40470732Ki\",\"memory\":\"4025676Ki\","
                             "\"pods\":\"110\"}";
    b.key("capacity").raw(resources);
    b.key("allocatable").raw(resources);
    b.key("conditions").raw("[");
    const auto condition = [&](const QString &type, const QString &status, const QString &reason,
                               const QString &message, const QString &heartbeat, const QString &transition) {
        b.raw(b.endsWithOpening() ? "{" : ",{");
        b.key("type").str(type);
        b.key("status").str(status);
        b.key("reason").str(reason);
        b.key("message").str(message);
        b.key("lastHeartbeatTime").str(heartbeat);
        b.key("lastTransitionTime").str(transition);
        b.raw("}");
    };
    if (!n.networkUnavailable.isEmpty())
        condition(QStringLiteral("NetworkUnavailable"), n.networkUnavailable, n.networkReason,
            n.networkMessage, created, since);
    for (const char *type : { "MemoryPressure", "DiskPressure", "PIDPressure" }) {
        const QString name = QString::fromLatin1(type);
        condition(name, QStringLiteral("False"),
            QStringLiteral("KubeletHasSufficient") + QString(name).remove(QStringLiteral("Pressure")),
            QStringLiteral("kubelet has no pressure"), beat, created);
    }
    if (!n.ready.isEmpty())
        condition(QStringLiteral("Ready"), n.ready, n.readyReason, n.readyMessage, beat, since);
    b.raw("]");
    b.key("addresses").raw("[");
    if (!n.internalIp.isEmpty()) {
        b.raw("{");
        b.key("type").raw("\"InternalIP\"");
        b.key("address").str(n.internalIp);
        b.raw("},");
    }
    b.raw("{");
    b.key("type").raw("\"Hostname\"");
    b.key("address").str(n.name);
    b.raw("}]");
    b.key("daemonEndpoints").raw("{\"kubeletEndpoint\":{\"Port\":10250}}");
    b.key("nodeInfo").raw("{");
    b.key("machineID").str(n.uid.left(8));
    b.key("systemUUID").str(n.providerId.section(QLatin1Char('/'), -1));
    b.key("bootID").str(n.uid);
    b.key("kernelVersion").raw("\"6.6.60-flatcar\"");
    b.key("osImage").raw("\"Flatcar Container Linux by Kinvolk 4081.2.0 (Oklo)\"");
    b.key("containerRuntimeVersion").raw("\"containerd://1.7.23\"");
    b.key("kubeletVersion").raw("\"v1.30.6\"");
    b.key("kubeProxyVersion").raw("\"v1.30.6\"");
    b.key("operatingSystem").raw("\"linux\"");
    b.key("architecture").raw("\"amd64\"");
    b.raw("}}}");
    return b.take();
}

QJsonObject node(const SimKluster &k, const SimNode &n, const QDateTime &now)
{
    return QJsonDocument::fromJson(nodeJson(k, n, now)).object();
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
