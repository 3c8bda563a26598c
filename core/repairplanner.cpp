#include "core/repairplanner.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSet>
#include <QUrl>

namespace RepairPlanner {

static thread_local qint64 entriesWritten = 0;

qint64 routeEntriesWritten()
{
    return entriesWritten;
}

static QJsonObject routesBody(const QList<Route> &routes)
{
    entriesWritten += routes.size();
    QJsonArray list;
    for (const Route &r : routes) {
        QJsonObject o;
        o.insert(QStringLiteral("destination"), r.destination);
        o.insert(QStringLiteral("nexthop"), r.nexthop);
        list.append(o);
    }
    QJsonObject router;
    router.insert(QStringLiteral("routes"), list);
    QJsonObject body;
    body.insert(QStringLiteral("router"), router);
    return body;
}

static QString describeRoutes(const QList<Route> &routes)
{
    QStringList parts;
    for (const Route &r : routes)
        parts.append(r.destination + QStringLiteral(" via ") + r.nexthop);
    return parts.join(QStringLiteral(", "));
}

RepairPlan deleteInstance(const Instance &instance)
{
    RepairPlan plan;
    plan.action = RepairPlan::Action::DeleteInstance;
    plan.title = QStringLiteral("Delete instance %1; Kubernikus launches a replacement").arg(instance.name);
    plan.instanceId = instance.id;
    plan.instanceName = instance.name;
    PlannedRequest request;
    request.service = QStringLiteral("compute");
    request.method = QStringLiteral("DELETE");
    request.path = QStringLiteral("/servers/") + instance.id;
    plan.requests.append(request);
    return plan;
}

RepairPlan deleteNode(const Node &node)
{
    RepairPlan plan;
    plan.action = RepairPlan::Action::DeleteNode;
    plan.title
        = QStringLiteral("Delete node %1 (a node without instance); its pod network is freed").arg(node.name);
    plan.nodeName = node.name;
    PlannedRequest request;
    request.service = QStringLiteral("kubernetes");
    request.method = QStringLiteral("DELETE");
    request.path = QStringLiteral("/api/v1/nodes/") + QString::fromLatin1(QUrl::toPercentEncoding(node.name));
    plan.requests.append(request);
    return plan;
}

static RepairPlan debrisPlan(RepairPlan::Action action, const QString &id, const QString &name,
    const QString &kluster, const QString &title)
{
    RepairPlan plan;
    plan.action = action;
    plan.title = title;
    plan.debrisId = id;
    plan.debrisName = name.isEmpty() ? id : name;
    plan.klusterName = kluster;
    return plan;
}

static PlannedRequest volumeDeletion(const Volume &volume)
{
    PlannedRequest request;
    request.service = QStringLiteral("volumev3");
    request.method = QStringLiteral("DELETE");
    request.path = QStringLiteral("/volumes/") + QString::fromLatin1(QUrl::toPercentEncoding(volume.id));
    return request;
}

RepairPlan deleteVolume(const Volume &volume, const QString &kluster)
{
    RepairPlan plan = debrisPlan(RepairPlan::Action::DeleteVolume, volume.id, volume.name, kluster,
        QStringLiteral("Delete volume %1, left behind by kluster %2 (its data go with it)")
            .arg(volume.name.isEmpty() ? volume.id : volume.name, kluster));
    plan.requests.append(volumeDeletion(volume));
    return plan;
}

RepairPlan resetAndDeleteVolume(const Volume &volume, const QString &kluster)
{
    RepairPlan plan = debrisPlan(RepairPlan::Action::ResetAndDeleteVolume, volume.id, volume.name, kluster,
        QStringLiteral("Reset volume %1 (stuck %2) to error, then delete it; left behind by kluster %3")
            .arg(volume.name.isEmpty() ? volume.id : volume.name, volume.status, kluster));
    PlannedRequest reset;
    reset.service = QStringLiteral("volumev3");
    reset.method = QStringLiteral("POST");
    reset.path = QStringLiteral("/volumes/") + QString::fromLatin1(QUrl::toPercentEncoding(volume.id))
        + QStringLiteral("/action");
    reset.body = QJsonObject { { QStringLiteral("os-reset_status"),
        QJsonObject { { QStringLiteral("status"), QStringLiteral("error") } } } };
    plan.requests << reset << volumeDeletion(volume);
    return plan;
}

RepairPlan deleteLoadBalancer(const LoadBalancer &loadBalancer, const QString &kluster)
{
    RepairPlan plan
        = debrisPlan(RepairPlan::Action::DeleteLoadBalancer, loadBalancer.id, loadBalancer.name, kluster,
            QStringLiteral("Delete load balancer %1 with its listeners and pools, left behind by kluster %2")
                .arg(loadBalancer.name.isEmpty() ? loadBalancer.id : loadBalancer.name, kluster));
    PlannedRequest request;
    request.service = QStringLiteral("load-balancer");
    request.method = QStringLiteral("DELETE");
    request.path = QStringLiteral("/v2/lbaas/loadbalancers/")
        + QString::fromLatin1(QUrl::toPercentEncoding(loadBalancer.id)) + QStringLiteral("?cascade=true");
    plan.requests.append(request);
    return plan;
}

// One Nova server action (POST /servers/{id}/action) as a plan of its own.
static RepairPlan serverAction(
    const Instance &instance, RepairPlan::Action action, const QString &title, const QJsonObject &body)
{
    RepairPlan plan;
    plan.action = action;
    plan.title = title;
    plan.instanceId = instance.id;
    plan.instanceName = instance.name;
    PlannedRequest request;
    request.service = QStringLiteral("compute");
    request.method = QStringLiteral("POST");
    request.path = QStringLiteral("/servers/") + instance.id + QStringLiteral("/action");
    request.body = body;
    plan.requests.append(request);
    return plan;
}

RepairPlan addSecurityGroup(const Instance &instance, const QString &groupName)
{
    return serverAction(instance, RepairPlan::Action::AddSecurityGroup,
        QStringLiteral("Add security group %1 to instance %2").arg(groupName, instance.name),
        QJsonObject {
            { QStringLiteral("addSecurityGroup"), QJsonObject { { QStringLiteral("name"), groupName } } } });
}

QString startAction(const Instance &instance)
{
    const QString state = instance.stoppedAs();
    return state == QLatin1String("suspended") ? QStringLiteral("resume")
        : state == QLatin1String("paused")     ? QStringLiteral("unpause")
                                               : QStringLiteral("os-start");
}

RepairPlan startInstance(const Instance &instance)
{
    const QString action = startAction(instance);
    return serverAction(instance, RepairPlan::Action::StartInstance,
        QStringLiteral("Start instance %1 again (%2); nothing is deleted").arg(instance.name, action),
        QJsonObject { { action, QJsonValue::Null } });
}

RepairPlan createSecurityGroupRule(
    const SecurityGroup &group, const QString &protocol, const QString &remoteIpPrefix)
{
    RepairPlan plan;
    plan.action = RepairPlan::Action::CreateSecurityGroupRule;
    plan.title = QStringLiteral("Allow %1 from the pod network %2 into security group %3")
                     .arg(protocol.toUpper(), remoteIpPrefix, group.name);
    PlannedRequest request;
    request.service = QStringLiteral("network");
    request.method = QStringLiteral("POST");
    request.path = QStringLiteral("/v2.0/security-group-rules");
    QJsonObject rule;
    rule.insert(QStringLiteral("security_group_id"), group.id);
    rule.insert(QStringLiteral("direction"), QStringLiteral("ingress"));
    rule.insert(QStringLiteral("ethertype"), QStringLiteral("IPv4"));
    rule.insert(QStringLiteral("protocol"), protocol);
    rule.insert(QStringLiteral("remote_ip_prefix"), remoteIpPrefix);
    QJsonObject body;
    body.insert(QStringLiteral("security_group_rule"), rule);
    request.body = body;
    plan.requests.append(request);
    return plan;
}

RepairPlan syncDevices(const Router &router, const QList<Route> &lacking)
{
    RepairPlan plan;
    plan.action = RepairPlan::Action::SyncDevices;
    plan.routes = lacking;
    plan.routerName = router.name.isEmpty() ? router.id : router.name;
    plan.title = QStringLiteral("Sync router %1 to its devices (the ASR driver programs the router's "
                                "configuration on them again: what a device lacks is added)")
                     .arg(router.name.isEmpty() ? router.id : router.name);
    PlannedRequest request;
    request.service = QStringLiteral("network");
    request.method = QStringLiteral("PUT");
    request.path = QStringLiteral("/v2.0/asr1k/routers/") + router.id;
    plan.requests.append(request);
    return plan;
}

RepairPlan resetDevices(const Router &router, const QList<Route> &kept, const QStringList &cutOff)
{
    RepairPlan plan;
    plan.action = RepairPlan::Action::ResetDevices;
    plan.routes = kept;
    plan.routerName = router.name.isEmpty() ? router.id : router.name;
    plan.cutOff = cutOff;
    plan.title
        = QStringLiteral("Tear down router %1's configuration on its devices, then sync it (what a device "
                         "kept goes; until the sync ends, %2 lose the router's routes)")
              .arg(plan.routerName,
                  cutOff.isEmpty() ? QStringLiteral("its klusters") : cutOff.join(QStringLiteral(", ")));
    PlannedRequest teardown;
    teardown.service = QStringLiteral("network");
    teardown.method = QStringLiteral("DELETE");
    teardown.path = QStringLiteral("/v2.0/asr1k/routers/") + router.id;
    PlannedRequest sync = teardown;
    sync.method = QStringLiteral("PUT");
    plan.requests = { teardown, sync };
    return plan;
}

RepairPlan addAddressPair(const Port &port, const QString &cidr, bool guarded)
{
    RepairPlan plan;
    plan.action = RepairPlan::Action::AddAddressPair;
    plan.portId = port.id;
    plan.title = port.allowedAddressPairs.isEmpty()
        ? QStringLiteral("Allow the pod network %1 on port %2 (an allowed address pair)").arg(cidr, port.id)
        : QStringLiteral("Allow the pod network %1 on port %2 (an allowed address pair; the %3 there kept)")
              .arg(cidr, port.id)
              .arg(port.allowedAddressPairs.size());
    QJsonArray pairs = addressPairsJson(port.allowedAddressPairs);
    pairs.append(QJsonObject { { QStringLiteral("ip_address"), cidr } });
    PlannedRequest request;
    request.service = QStringLiteral("network");
    request.method = QStringLiteral("PUT");
    request.path = QStringLiteral("/v2.0/ports/") + port.id;
    if (guarded && port.revision >= 0)
        request.headers.insert(QStringLiteral("If-Match"),
            QString(QStringLiteral("revision_number=") + QString::number(port.revision)));
    request.body = QJsonObject { { QStringLiteral("port"),
        QJsonObject { { QStringLiteral("allowed_address_pairs"), pairs } } } };
    plan.requests.append(request);
    return plan;
}

QList<Route> routesWithout(const QList<Route> &current, const QList<Route> &removed)
{
    const QSet<Route> gone(removed.cbegin(), removed.cend());
    QList<Route> result;
    result.reserve(current.size());
    for (const Route &r : current) {
        if (!gone.contains(r))
            result.append(r);
    }
    return result;
}

QList<Route> routesWith(const QList<Route> &current, const QList<Route> &added)
{
    QSet<Route> present(current.cbegin(), current.cend());
    QList<Route> result = current;
    for (const Route &r : added) {
        if (!present.contains(r)) {
            present.insert(r);
            result.append(r);
        }
    }
    return result;
}

static RepairPlan oneChange(const Router &router, const QList<Route> &routes, bool atomic, bool remove)
{
    RepairPlan plan;
    plan.action = remove ? RepairPlan::Action::RemoveRoutes : RepairPlan::Action::AddRoutes;
    plan.routes = routes;
    plan.title
        = (remove ? QStringLiteral("Remove from router %1: %2") : QStringLiteral("Add to router %1: %2"))
              .arg(router.name.isEmpty() ? router.id : router.name, describeRoutes(routes));
    PlannedRequest request;
    request.service = QStringLiteral("network");
    request.method = QStringLiteral("PUT");
    if (atomic) {
        request.path = QStringLiteral("/v2.0/routers/") + router.id
            + (remove ? QStringLiteral("/remove_extraroutes") : QStringLiteral("/add_extraroutes"));
        request.body = routesBody(routes);
    } else {
        request.path = QStringLiteral("/v2.0/routers/") + router.id;
        const QList<Route> next
            = remove ? routesWithout(router.routes, routes) : routesWith(router.routes, routes);
        request.body = routesBody(next);
        if (router.revisionNumber >= 0) {
            request.headers.insert(QStringLiteral("If-Match"),
                QString(QStringLiteral("revision_number=") + QString::number(router.revisionNumber)));
        } else {
            plan.refusal = Refusal::NoRevision;
            plan.refusalDetail
                = QStringLiteral("the router has no revision_number and no extraroute-atomic "
                                 "extension; a full-list update could overwrite a concurrent change");
        }
    }
    plan.requests.append(request);
    return plan;
}

RepairPlan renewRoutes(const Router &router, const QList<Route> &routes, bool atomic)
{
    RepairPlan plan;
    plan.action = RepairPlan::Action::RenewRoutes;
    plan.routes = routes;
    plan.routerName = router.name.isEmpty() ? router.id : router.name;
    plan.title = QStringLiteral("Re-add to router %1 in Neutron (remove, then add): %2")
                     .arg(plan.routerName, describeRoutes(routes));
    const RepairPlan removal = oneChange(router, routes, atomic, true);
    plan.refusal = removal.refusal;
    plan.refusalDetail = removal.refusalDetail;
    plan.requests = removal.requests;
    if (atomic) {
        plan.requests.append(oneChange(router, routes, true, false).requests);
        return plan;
    }
    if (plan.refusal != Refusal::None)
        return plan;
    PlannedRequest again = plan.requests.constFirst();
    again.body = routesBody(router.routes); // the list as it was, the routes back in their places
    again.headers.insert(QStringLiteral("If-Match"),
        QString(QStringLiteral("revision_number=") + QString::number(router.revisionNumber + 1)));
    plan.requests.append(again);
    return plan;
}

RepairPlan changeRoutes(
    const Router &router, const QList<Route> &removed, const QList<Route> &added, bool atomic)
{
    if (added.isEmpty())
        return removeRoutes(router, removed, atomic);
    if (removed.isEmpty())
        return addRoutes(router, added, atomic);
    RepairPlan plan;
    plan.action = RepairPlan::Action::ChangeRoutes;
    plan.routes = removed;
    plan.addedRoutes = added;
    plan.title = QStringLiteral("Change router %1 in one go: remove %2; add %3")
                     .arg(router.name.isEmpty() ? router.id : router.name, describeRoutes(removed),
                         describeRoutes(added));
    if (atomic) {
        plan.requests.append(oneChange(router, removed, true, true).requests);
        plan.requests.append(oneChange(router, added, true, false).requests);
        return plan;
    }
    Router afterRemoval = router;
    afterRemoval.routes = routesWithout(router.routes, removed);
    const RepairPlan full = oneChange(afterRemoval, added, false, false); // the final list, guarded by
    plan.requests = full.requests; // the revision that was read
    plan.refusal = full.refusal;
    plan.refusalDetail = full.refusalDetail;
    return plan;
}

RepairPlan removeRoutes(const Router &router, const QList<Route> &routes, bool atomic)
{
    return oneChange(router, routes, atomic, true);
}

RepairPlan addRoutes(const Router &router, const QList<Route> &routes, bool atomic)
{
    return oneChange(router, routes, atomic, false);
}

} // namespace RepairPlanner
