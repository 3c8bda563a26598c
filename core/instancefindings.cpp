// The words, evidence, repairs and affected objects of the instance findings.

#include "core/instancefindings.h"

#include "core/apiparser.h"
#include "core/detection.h"
#include "core/diagnosis.h"
#include "core/diagnosiscontext.h"
#include "core/repairplanner.h"

#include <QJsonArray>

namespace InstanceFindings {

static QJsonObject instanceJson(const DiagnosisContext &c, const Instance &instance)
{
    QJsonArray addresses;
    for (const InstanceAddress &a : instance.addresses)
        addresses.append(a.address);
    QJsonObject o { { QStringLiteral("id"), instance.id }, { QStringLiteral("name"), instance.name },
        { QStringLiteral("status"), instance.status },
        { QStringLiteral("vm_state"), stringOrNull(instance.vmState) },
        { QStringLiteral("task_state"), stringOrNull(instance.taskState) },
        { QStringLiteral("created"), ApiParser::formatTimestamp(instance.created) },
        { QStringLiteral("ageSeconds"), c.ageOf(instance.created) },
        { QStringLiteral("addresses"), addresses },
        { QStringLiteral("security_groups"), QJsonArray::fromStringList(instance.securityGroups) } };
    if (!instance.faultMessage.isEmpty())
        o.insert(QStringLiteral("fault"), instance.faultMessage);
    return o;
}

Severity unregisteredSeverity(const FindingFacts &facts)
{
    // A lost node is critical once the startup timeout has passed: no token expiry applies.
    return facts.tokenExpired || facts.routed ? Severity::Critical : Severity::Warning;
}

// The pod CIDRs the kluster's routes still send to the instance.
static QStringList routedPodCidrs(const DiagnosisContext &c, const Finding &f)
{
    QStringList cidrs;
    for (int idx : c.audit.routesVia(f.facts.instance))
        cidrs << c.audit.entries().at(idx).route.destination;
    return cidrs;
}

Severity stoppedSeverity(const FindingFacts &facts)
{
    // Without the nodes, that it has none is not known: never the lesser severity for what was not read.
    return facts.node >= 0 || facts.nodesUnknown ? Severity::Critical : Severity::Warning;
}

// "SHUTOFF", or "SHUTOFF (vm_state stopped)" when Nova says both.
static QString stateOf(const Instance &instance)
{
    if (instance.vmState.isEmpty() || instance.status.isEmpty())
        return instance.status.isEmpty() ? instance.vmState : instance.status;
    return QStringLiteral("%1 (vm_state %2)").arg(instance.status, instance.vmState);
}

QString stoppedMessage(const DiagnosisContext &c, const Finding &f)
{
    const Instance &instance = c.state.instances.at(f.facts.instance);
    const QString how = RepairPlanner::startAction(instance);
    if (f.facts.node >= 0) {
        return QStringLiteral(
            "Instance %1 is %2: its node %3 is lost (its kubelet has stopped, its pods are gone). "
            "Start it again (%4); nothing is deleted.")
            .arg(instance.name, stateOf(instance), c.state.nodes.at(f.facts.node).name, how);
    }
    if (f.facts.nodesUnknown) {
        return QStringLiteral(
            "Instance %1 is %2. Whether it is a node is not known: the nodes could not be read (%3). If it "
            "was one, its node is lost. Start it again (%4); nothing is deleted.")
            .arg(instance.name, stateOf(instance),
                c.state.nodesSource.error.isEmpty() ? QStringLiteral("no answer") : c.state.nodesSource.error,
                how);
    }
    return QStringLiteral(
        "Instance %1 is %2 and has no node (created %3 ago): it will not join while it is stopped. "
        "Start it again (%4); nothing is deleted.")
        .arg(instance.name, stateOf(instance), formatDuration(c.ageOf(instance.created)), how);
}

QString unregisteredMessage(const DiagnosisContext &c, const Finding &f)
{
    const Instance &instance = c.state.instances.at(f.facts.instance);
    const qint64 age = c.ageOf(instance.created);
    if (c.nodeEvidenceMissing) {
        return QStringLiteral(
            "Instance %1 (%2, created %3 ago) has no node, but the node list is empty while the "
            "kluster's instances are active: check the Kubernetes API first. Do not delete "
            "instances on this evidence.")
            .arg(instance.name, instance.status, formatDuration(age));
    }
    if (f.facts.routed) {
        return QStringLiteral(
            "Instance %1 (%2, created %3 ago) was a node and lost it: its node is gone; the router still "
            "routes %4 to it. It will not register again by itself: delete it and Kubernikus launches a "
            "replacement (the route is route-unassigned).")
            .arg(instance.name, instance.status, formatDuration(age),
                routedPodCidrs(c, f).join(QStringLiteral(", ")));
    }
    if (f.facts.tokenExpired) {
        return QStringLiteral(
            "Instance %1 (%2) was created %3 ago and never registered as a node. Its bootstrap "
            "token expired after %4, so it can never join: delete it and Kubernikus launches a "
            "replacement.")
            .arg(instance.name, instance.status, formatDuration(age),
                formatDuration(c.options.tokenExpirySeconds));
    }
    return QStringLiteral(
        "Instance %1 (%2) was created %3 ago and has not registered as a node (startup timeout "
        "%4). Check its console log; after %5 its bootstrap token expires and it can never join.")
        .arg(instance.name, instance.status, formatDuration(age),
            formatDuration(c.options.startupTimeoutSeconds), formatDuration(c.options.tokenExpirySeconds));
}

QString errorMessage(const DiagnosisContext &c, const Finding &f)
{
    const Instance &instance = c.state.instances.at(f.facts.instance);
    return QStringLiteral(
        "Instance %1 is in ERROR%2. It will not recover by itself: delete it and Kubernikus "
        "launches a replacement.")
        .arg(instance.name,
            instance.faultMessage.isEmpty() ? QString()
                                            : QStringLiteral(" (Nova: \"%1\")").arg(instance.faultMessage));
}

QString missingGroupMessage(const DiagnosisContext &c, const Finding &f)
{
    const Instance &instance = c.state.instances.at(f.facts.instance);
    return QStringLiteral(
        "Instance %1 is ACTIVE but not in the kluster's security group %2%3: it is cut off the "
        "network (no SSH, no kubelet, no pod traffic). Add the group.")
        .arg(instance.name, c.state.kluster.securityGroupName,
            instance.securityGroups.isEmpty()
                ? QStringLiteral(" (it has no security group at all)")
                : QStringLiteral(" (it has: %1)").arg(instance.securityGroups.join(QStringLiteral(", "))));
}

QJsonObject errorEvidence(const DiagnosisContext &c, const Finding &f)
{
    const Instance &instance = c.state.instances.at(f.facts.instance);
    return QJsonObject { { QStringLiteral("instance"), instanceJson(c, instance) },
        { QStringLiteral("pool"), c.index.poolOf(instance.name) } };
}

QJsonObject unregisteredEvidence(const DiagnosisContext &c, const Finding &f)
{
    QJsonObject o = errorEvidence(c, f);
    o.insert(QStringLiteral("node"), QJsonValue());
    o.insert(QStringLiteral("startupTimeoutSeconds"), c.options.startupTimeoutSeconds);
    o.insert(QStringLiteral("tokenExpirySeconds"), c.options.tokenExpirySeconds);
    o.insert(QStringLiteral("routedPodCIDRs"), QJsonArray::fromStringList(routedPodCidrs(c, f)));
    return o;
}

QJsonObject missingGroupEvidence(const DiagnosisContext &c, const Finding &f)
{
    QJsonObject o = errorEvidence(c, f);
    o.insert(QStringLiteral("securityGroup"), c.state.kluster.securityGroupName);
    o.insert(QStringLiteral("securityGroupId"), c.state.securityGroups.at(c.groupIndex).id);
    return o;
}

QJsonObject stoppedEvidence(const DiagnosisContext &c, const Finding &f)
{
    QJsonObject o = errorEvidence(c, f);
    o.insert(QStringLiteral("node"),
        f.facts.node >= 0 ? QJsonValue(c.state.nodes.at(f.facts.node).name) : QJsonValue());
    o.insert(QStringLiteral("startupTimeoutSeconds"), c.options.startupTimeoutSeconds);
    return o;
}

std::optional<RepairPlan> deleteInstance(const DiagnosisContext &c, const Finding &f)
{
    return RepairPlanner::deleteInstance(c.state.instances.at(f.facts.instance));
}

std::optional<RepairPlan> addGroup(const DiagnosisContext &c, const Finding &f)
{
    return RepairPlanner::addSecurityGroup(
        c.state.instances.at(f.facts.instance), c.state.kluster.securityGroupName);
}

std::optional<RepairPlan> startInstance(const DiagnosisContext &c, const Finding &f)
{
    return RepairPlanner::startInstance(c.state.instances.at(f.facts.instance));
}

AffectedObjects affectedInstance(const DiagnosisContext &c, const Finding &f)
{
    AffectedObjects a;
    a.instances << c.state.instances.at(f.facts.instance).name;
    return a;
}

AffectedObjects affectedInstanceAndGroup(const DiagnosisContext &c, const Finding &f)
{
    AffectedObjects a = affectedInstance(c, f);
    a.securityGroups << c.state.kluster.securityGroupName;
    return a;
}

AffectedObjects affectedInstanceAndNode(const DiagnosisContext &c, const Finding &f)
{
    AffectedObjects a = affectedInstance(c, f);
    if (f.facts.node >= 0)
        a.nodes << c.state.nodes.at(f.facts.node).name;
    return a;
}

void detect(Detection &d)
{
    const DiagnosisOptions &o = d.ctx->options;
    const QString &groupName = d.state.kluster.securityGroupName;
    const bool nodesKnown = d.state.nodesSource.known;
    for (int i : d.ctx->index.klusterInstances()) {
        const Instance &instance = d.state.instances.at(i);
        FindingFacts facts;
        facts.instance = i;
        if (instance.isError() && !instance.isDeleting()) {
            d.result.findings.append(d.make(FindingKind::InstanceError, instance.name, facts));
            continue; // one fact, one finding
        }
        const int node = nodesKnown ? d.ctx->index.nodeOfInstance(i) : -1;
        const qint64 age = d.ctx->ageOf(instance.created);
        if (instance.isStopped()) {
            // One fact, one finding: not also instance-unregistered, and its node not also node-not-ready.
            // Nova stopping or starting it now (a task state) is not yet news.
            if (!instance.isBusy() && age >= o.startupTimeoutSeconds) {
                FindingFacts stopped = facts;
                stopped.node = node;
                stopped.nodesUnknown = !nodesKnown;
                if (node >= 0)
                    d.stoppedNodes.insert(node);
                d.result.findings.append(
                    d.make(FindingKind::InstanceStopped, instance.name, std::move(stopped)));
            }
            continue;
        }
        const bool gone = instance.isDeleting() || instance.isError()
            || instance.status == QLatin1String("DELETED")
            || instance.status == QLatin1String("SOFT_DELETED");
        if (nodesKnown && !gone && node < 0 && age >= o.startupTimeoutSeconds) {
            FindingFacts unregistered = facts;
            unregistered.tokenExpired = age >= o.tokenExpirySeconds;
            // Routes lead to it: it was a node (the route controller routes only registered nodes) and lost
            // it.
            unregistered.routed = !d.ctx->nodeEvidenceMissing && !d.ctx->audit.routesVia(i).isEmpty();
            d.result.findings.append(
                d.make(FindingKind::InstanceUnregistered, instance.name, std::move(unregistered)));
        }
        if (d.ctx->groupIndex >= 0 && instance.isActive() && !instance.securityGroups.contains(groupName))
            d.result.findings.append(d.make(FindingKind::InstanceMissingSecurityGroup, instance.name, facts));
        if (node >= 0 && d.ctx->index.providerIdDisagrees(i, node)) {
            const Node &n = d.state.nodes.at(node);
            d.result.notes << QStringLiteral(
                "node %1 has the name of instance %2 (%3), but its providerID %4 names "
                "another instance: it may belong to an instance that was replaced")
                                  .arg(n.name, instance.name, instance.id, n.providerId);
        }
    }
}

} // namespace InstanceFindings
