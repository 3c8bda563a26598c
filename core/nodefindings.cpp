// The words, evidence and affected objects of the node findings.

#include "core/nodefindings.h"

#include "core/apiparser.h"
#include "core/detection.h"
#include "core/diagnosis.h"
#include "core/diagnosiscontext.h"
#include "core/repairplanner.h"

#include <QJsonArray>

namespace NodeFindings {

static QJsonObject nodeJson(const DiagnosisContext &c, const Node &node)
{
    QJsonArray conditions;
    for (const NodeCondition &cond : node.conditions) {
        conditions.append(QJsonObject { { QStringLiteral("type"), cond.type },
            { QStringLiteral("status"), cond.status },
            { QStringLiteral("reason"), stringOrNull(cond.reason) },
            { QStringLiteral("message"), stringOrNull(cond.message) },
            { QStringLiteral("lastTransitionTime"),
                cond.lastTransition.isValid() ? QJsonValue(ApiParser::formatTimestamp(cond.lastTransition))
                                              : QJsonValue() } });
    }
    QJsonObject o { { QStringLiteral("name"), node.name },
        { QStringLiteral("internalIP"), stringOrNull(node.internalIp) },
        { QStringLiteral("podCIDR"), stringOrNull(node.podCidrText) },
        { QStringLiteral("providerID"), stringOrNull(node.providerId) },
        { QStringLiteral("conditions"), conditions } };
    if (node.created.isValid()) {
        o.insert(QStringLiteral("created"), ApiParser::formatTimestamp(node.created));
        o.insert(QStringLiteral("ageSeconds"), c.ageOf(node.created));
    }
    return o;
}

// " for 42 min": how long the condition has held, measured against the time the data was fetched.
static QString heldFor(const DiagnosisContext &c, const NodeCondition *condition)
{
    if (!condition || !condition->lastTransition.isValid())
        return QString();
    return QStringLiteral(" for ") + formatDuration(c.ageOf(condition->lastTransition));
}

Severity notReadySeverity(const FindingFacts &facts)
{
    return facts.forSeconds >= ServicingTimeoutSeconds ? Severity::Critical : Severity::Warning;
}

QString notReadyMessage(const DiagnosisContext &c, const Finding &f)
{
    const Node &node = c.state.nodes.at(f.facts.node);
    const NodeCondition *ready = node.condition(QStringLiteral("Ready"));
    if (f.facts.forSeconds >= ServicingTimeoutSeconds)
        return QStringLiteral(
            "Node %1 has been in Kubernikus' servicing since %2 (%3), past servicing's own timeout of 3 h 15 "
            "min, and is still NotReady: servicing counts it as failed and services no other node of the "
            "kluster until it is fixed. Look at the kubelet on the instance (the reboot or the replacement "
            "did not come back); uncordon it once it is Ready.")
            .arg(node.name, ApiParser::formatTimestamp(node.servicingSince),
                formatDuration(f.facts.forSeconds));
    if (f.facts.forSeconds >= 0)
        return QStringLiteral(
            "Node %1 is being serviced by Kubernikus since %2 (%3): cordoned and drained for a reboot or a "
            "replacement, one node at a time. NotReady is expected until it is back; servicing gives up "
            "after "
            "3 h 15 min (in %4).")
            .arg(node.name, ApiParser::formatTimestamp(node.servicingSince),
                formatDuration(f.facts.forSeconds),
                formatDuration(ServicingTimeoutSeconds - f.facts.forSeconds));
    if (!ready) {
        return QStringLiteral(
            "Node %1 reports no Ready condition: the kubelet has not posted its status yet. "
            "Look at the kubelet on the instance.")
            .arg(node.name);
    }
    return QStringLiteral(
        "Node %1 has been NotReady%2 (Ready=%3%4%5). Look at the kubelet and the container runtime on "
        "the instance; there is no automatic repair.")
        .arg(node.name, heldFor(c, ready), ready->status,
            ready->reason.isEmpty() ? QString() : QStringLiteral(", ") + ready->reason,
            ready->message.isEmpty() ? QString() : QStringLiteral(": ") + ready->message);
}

QString networkUnavailableMessage(const DiagnosisContext &c, const Finding &f)
{
    const Node &node = c.state.nodes.at(f.facts.node);
    const NodeCondition *network = node.condition(QStringLiteral("NetworkUnavailable"));
    QString why;
    if (network && !network->reason.isEmpty())
        why = QStringLiteral(" (%1%2)").arg(network->reason,
            network->message.isEmpty() ? QString() : QStringLiteral(": ") + network->message);
    return QStringLiteral(
        "Node %1 has had NetworkUnavailable=True%2%3: the route controller could not set up its pod "
        "network route. Check the router's routes and its route limit.")
        .arg(node.name, heldFor(c, network), why);
}

Severity ghostSeverity(const FindingFacts &facts)
{
    return facts.routed ? Severity::Critical : Severity::Warning;
}

QString ghostMessage(const DiagnosisContext &c, const Finding &f)
{
    const Node &node = c.state.nodes.at(f.facts.node);
    QString holds;
    if (f.facts.routed)
        holds = QStringLiteral(
            " It still holds the pod network %1, and the router routes it to %2, the address of a machine "
            "that is gone: the route looks correct but leads nowhere, and the CIDR cannot be given to a new "
            "node.")
                    .arg(node.podCidrText, node.internalIp);
    else if (node.podCidr.isValid())
        holds = QStringLiteral(" It still holds the pod network %1, so no new node can get it.")
                    .arg(node.podCidrText);
    return QStringLiteral(
        "Node %1 has no instance: no server in the project has its name%2.%3 The cloud controller did not "
        "delete it. Delete the node object; its pod network is then freed%4.")
        .arg(node.name,
            node.providerId.isEmpty()
                ? QString()
                : QStringLiteral(" or the id of its providerID %1").arg(node.providerId),
            holds, f.facts.routed ? QStringLiteral(" and its route shows as orphaned") : QString());
}

// The condition that a node finding is about, with since when it holds.
static QJsonValue conditionSince(const DiagnosisContext &c, const NodeCondition *condition)
{
    if (!condition || !condition->lastTransition.isValid())
        return QJsonValue();
    return QJsonObject { { QStringLiteral("type"), condition->type },
        { QStringLiteral("status"), condition->status },
        { QStringLiteral("lastTransitionTime"), ApiParser::formatTimestamp(condition->lastTransition) },
        { QStringLiteral("forSeconds"), c.ageOf(condition->lastTransition) } };
}

QJsonObject evidence(const DiagnosisContext &c, const Finding &f)
{
    const Node &node = c.state.nodes.at(f.facts.node);
    const NodeCondition *condition
        = node.condition(f.kind == FindingKind::NodeNetworkUnavailable ? QStringLiteral("NetworkUnavailable")
                                                                       : QStringLiteral("Ready"));
    QJsonObject o { { QStringLiteral("node"), nodeJson(c, node) },
        { QStringLiteral("since"), conditionSince(c, condition) } };
    if (f.kind == FindingKind::NodeNotReady && f.facts.forSeconds >= 0)
        o.insert(QStringLiteral("servicingSince"), ApiParser::formatTimestamp(node.servicingSince));
    return o;
}

QJsonObject ghostEvidence(const DiagnosisContext &c, const Finding &f)
{
    const Node &node = c.state.nodes.at(f.facts.node);
    QJsonArray routes;
    for (int idx : c.routesByDestination.value(node.podCidr)) {
        const Route &r = c.audit.entries().at(idx).route;
        routes.append(QJsonObject {
            { QStringLiteral("destination"), r.destination }, { QStringLiteral("nexthop"), r.nexthop } });
    }
    return QJsonObject { { QStringLiteral("node"), nodeJson(c, node) },
        { QStringLiteral("instance"), QJsonValue() },
        { QStringLiteral("providerInstanceId"), stringOrNull(node.providerInstanceId()) },
        { QStringLiteral("instancesInProject"), int(c.state.instances.size()) },
        { QStringLiteral("routedToIt"), f.facts.routed }, { QStringLiteral("routesForPodCIDR"), routes } };
}

std::optional<RepairPlan> deleteNode(const DiagnosisContext &c, const Finding &f)
{
    return RepairPlanner::deleteNode(c.state.nodes.at(f.facts.node));
}

AffectedObjects affected(const DiagnosisContext &c, const Finding &f)
{
    AffectedObjects a;
    a.nodes << c.state.nodes.at(f.facts.node).name;
    return a;
}

namespace {

// The router routes the node's pod CIDR to the node's own address.
bool routedToNode(const Detection &d, const Node &node)
{
    if (!node.podCidr.isValid() || !d.state.routerSource.known)
        return false;
    const QString ip = canonicalAddress(node.internalIp);
    if (ip.isEmpty())
        return false;
    const RouteAudit &audit = d.ctx->audit;
    for (int idx : d.ctx->routesByDestination.value(node.podCidr)) {
        if (canonicalAddress(audit.entries().at(idx).route.nexthop) == ip)
            return true;
    }
    return false;
}

} // namespace

void detect(Detection &d)
{
    for (int i = 0; i < d.state.nodes.size(); ++i) {
        const Node &node = d.state.nodes.at(i);
        FindingFacts facts;
        facts.node = i;
        if (d.ctx->index.isGhost(i)) {
            // A ghost is one finding: its conditions and its route are the ghost's, not news.
            facts.routed = routedToNode(d, node);
            d.result.findings.append(d.make(FindingKind::NodeWithoutInstance, node.name, std::move(facts)));
            continue;
        }
        const NodeCondition *ready = node.condition(QStringLiteral("Ready"));
        if ((!ready || ready->status != QLatin1String("True")) && !d.stoppedNodes.contains(i)) {
            // A node Kubernikus' servicing has cordoned is expected down for a while (diagnosis.md §7).
            FindingFacts notReady = facts;
            if (node.inServicing())
                notReady.forSeconds = qMax<qint64>(0, node.servicingSince.secsTo(d.state.capturedAt));
            d.result.findings.append(d.make(FindingKind::NodeNotReady, node.name, notReady));
        }
        const NodeCondition *network = node.condition(QStringLiteral("NetworkUnavailable"));
        if (network && network->status == QLatin1String("True"))
            d.result.findings.append(d.make(FindingKind::NodeNetworkUnavailable, node.name, facts));
        // No kind of diagnosis.md speaks of it, but it is never silent: a node with a pod network and no
        // address of its family cannot be routed to.
        if (node.podCidr.isValid()) {
            const QString ip = canonicalAddress(node.internalIp);
            if (ip.isEmpty() || ip.contains(QLatin1Char(':')) == node.podCidr.isIPv4()) {
                d.result.notes << QStringLiteral(
                    "node %1 has no usable InternalIP for its pod network %2 (InternalIP %3): no route "
                    "can point at it, so its pods cannot be reached from other nodes")
                                      .arg(node.name, node.podCidrText,
                                          node.internalIp.isEmpty() ? QStringLiteral("absent")
                                                                    : quotedExcerpt(node.internalIp));
            }
        }
    }
}

} // namespace NodeFindings
