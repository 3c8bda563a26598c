#include "diagnosis.h"

#include "apiparser.h"
#include "klusterindex.h"
#include "repairplanner.h"
#include "routeaudit.h"

#include <QJsonArray>

#include <algorithm>

QString formatDuration(qint64 seconds)
{
    if (seconds < 0)
        seconds = 0;
    const qint64 minutes = seconds / 60;
    if (minutes < 1)
        return QString::number(seconds) + QStringLiteral(" s");
    if (minutes < 60)
        return QString::number(minutes) + QStringLiteral(" min");
    const qint64 hours = minutes / 60;
    if (hours < 24) {
        const qint64 rest = minutes % 60;
        return QString::number(hours) + QStringLiteral(" h")
            + (rest ? QLatin1Char(' ') + QString::number(rest) + QStringLiteral(" min") : QString());
    }
    const qint64 days = hours / 24;
    const qint64 rest = hours % 24;
    return QString::number(days) + QStringLiteral(" d")
        + (rest ? QLatin1Char(' ') + QString::number(rest) + QStringLiteral(" h") : QString());
}

int Diagnosis::count(Severity severity) const
{
    return int(std::count_if(findings.begin(), findings.end(),
                             [severity](const Finding &f) { return f.severity == severity; }));
}

Severity Diagnosis::worst() const
{
    Severity worst = Severity::Info;
    for (const Finding &f : findings) {
        if (int(f.severity) < int(worst))
            worst = f.severity;
    }
    return worst;
}

const Finding *Diagnosis::find(const QString &id) const
{
    for (const Finding &f : findings) {
        if (f.id() == id)
            return &f;
    }
    return nullptr;
}

namespace {

QJsonValue nullable(const QString &s)
{
    return s.isEmpty() ? QJsonValue() : QJsonValue(s);
}

QJsonObject routeJson(const Route &r)
{
    QJsonObject o;
    o.insert(QStringLiteral("destination"), r.destination);
    o.insert(QStringLiteral("nexthop"), r.nexthop);
    return o;
}

class Diagnoser
{
public:
    Diagnoser(const KlusterState &state, const DiagnosisOptions &options)
        : m_state(state)
        , m_options(options)
        , m_index(state)
    {
    }

    Diagnosis run();

private:
    qint64 ageOf(const QDateTime &t) const { return t.isValid() ? t.secsTo(m_state.capturedAt) : 0; }
    QJsonObject instanceJson(const Instance &instance) const;
    QJsonObject nodeJson(const Node &node) const;
    QJsonObject auditEntryJson(const RouteAudit::Entry &e) const;
    bool nodeEvidenceMissing() const;
    void refuse(RepairPlan &plan, const QString &detail) const;

    void checkInstances();
    void checkNodes();
    void checkSecurityGroups();
    void checkRoutes();

    const KlusterState &m_state;
    const DiagnosisOptions &m_options;
    KlusterIndex m_index;
    Diagnosis m_result;
    int m_groupIndex = -1;  // the kluster's security group, when it can be identified
};

QJsonObject Diagnoser::instanceJson(const Instance &instance) const
{
    QJsonObject o;
    o.insert(QStringLiteral("id"), instance.id);
    o.insert(QStringLiteral("name"), instance.name);
    o.insert(QStringLiteral("status"), instance.status);
    o.insert(QStringLiteral("vm_state"), nullable(instance.vmState));
    o.insert(QStringLiteral("task_state"), nullable(instance.taskState));
    o.insert(QStringLiteral("created"), ApiParser::formatTimestamp(instance.created));
    o.insert(QStringLiteral("ageSeconds"), ageOf(instance.created));
    QJsonArray addresses;
    for (const InstanceAddress &a : instance.addresses)
        addresses.append(a.address);
    o.insert(QStringLiteral("addresses"), addresses);
    o.insert(QStringLiteral("security_groups"), QJsonArray::fromStringList(instance.securityGroups));
    if (!instance.faultMessage.isEmpty())
        o.insert(QStringLiteral("fault"), instance.faultMessage);
    return o;
}

QJsonObject Diagnoser::nodeJson(const Node &node) const
{
    QJsonObject o;
    o.insert(QStringLiteral("name"), node.name);
    o.insert(QStringLiteral("internalIP"), nullable(node.internalIp));
    o.insert(QStringLiteral("podCIDR"), nullable(node.podCidrText));
    o.insert(QStringLiteral("providerID"), nullable(node.providerId));
    if (node.created.isValid()) {
        o.insert(QStringLiteral("created"), ApiParser::formatTimestamp(node.created));
        o.insert(QStringLiteral("ageSeconds"), ageOf(node.created));
    }
    QJsonArray conditions;
    for (const NodeCondition &c : node.conditions) {
        QJsonObject co;
        co.insert(QStringLiteral("type"), c.type);
        co.insert(QStringLiteral("status"), c.status);
        co.insert(QStringLiteral("reason"), nullable(c.reason));
        co.insert(QStringLiteral("message"), nullable(c.message));
        conditions.append(co);
    }
    o.insert(QStringLiteral("conditions"), conditions);
    return o;
}

QJsonObject Diagnoser::auditEntryJson(const RouteAudit::Entry &e) const
{
    QJsonObject o = routeJson(e.route);
    o.insert(QStringLiteral("position"), e.position);
    o.insert(QStringLiteral("roles"), QJsonArray::fromStringList(RouteAudit::roleNames(e.roles)));
    o.insert(QStringLiteral("nexthopInstance"), nullable(e.nexthopInstance));
    o.insert(QStringLiteral("nexthopNode"), nullable(e.nexthopNode));
    return o;
}

bool Diagnoser::nodeEvidenceMissing() const
{
    if (!m_state.nodesSource.known)
        return true;
    if (!m_state.nodes.isEmpty())
        return false;
    for (int i : m_index.klusterInstances()) {
        if (m_state.instances.at(i).isActive())
            return true;
    }
    return false;
}

void Diagnoser::refuse(RepairPlan &plan, const QString &detail) const
{
    plan.refusal = QStringLiteral("NoEvidence");
    plan.refusalDetail = detail;
}

void Diagnoser::checkInstances()
{
    const QString groupName = m_state.kluster.securityGroupName;
    const bool nodesKnown = m_state.nodesSource.known;
    for (int i : m_index.klusterInstances()) {
        const Instance &instance = m_state.instances.at(i);
        const qint64 age = ageOf(instance.created);
        const int nodeIndex = nodesKnown ? m_index.nodeOfInstance(i) : -1;

        if (instance.isError() && !instance.isDeleting()) {
            Finding f;
            f.kind = FindingKind::InstanceError;
            f.subject = instance.name;
            f.severity = Severity::Critical;
            f.message = QStringLiteral("Instance %1 is in ERROR%2. It will not recover by itself: delete it and "
                                       "Kubernikus launches a replacement.")
                            .arg(instance.name, instance.faultMessage.isEmpty()
                                                    ? QString()
                                                    : QStringLiteral(" (Nova: \"%1\")").arg(instance.faultMessage));
            f.evidence.insert(QStringLiteral("instance"), instanceJson(instance));
            f.evidence.insert(QStringLiteral("pool"), m_index.poolOf(instance.name));
            f.repair = RepairPlanner::deleteInstance(instance);
            f.affected.instances << instance.name;
            m_result.findings.append(f);
            continue;  // one fact, one finding
        }

        const bool gone = instance.isDeleting() || instance.status == QLatin1String("DELETED")
            || instance.status == QLatin1String("SOFT_DELETED") || instance.isError();
        if (nodesKnown && !gone && nodeIndex < 0 && age >= m_options.startupTimeoutSeconds) {
            const bool expired = age >= m_options.tokenExpirySeconds;
            Finding f;
            f.kind = FindingKind::InstanceUnregistered;
            f.subject = instance.name;
            f.severity = expired ? Severity::Critical : Severity::Warning;
            if (expired) {
                f.message = QStringLiteral("Instance %1 (%2) was created %3 ago and never registered as a node. Its "
                                           "bootstrap token expired after %4, so it can never join: delete it and "
                                           "Kubernikus launches a replacement.")
                                .arg(instance.name, instance.status, formatDuration(age),
                                     formatDuration(m_options.tokenExpirySeconds));
            } else {
                f.message = QStringLiteral("Instance %1 (%2) was created %3 ago and has not registered as a node "
                                           "(startup timeout %4). Check its console log; after %5 its bootstrap "
                                           "token expires and it can never join.")
                                .arg(instance.name, instance.status, formatDuration(age),
                                     formatDuration(m_options.startupTimeoutSeconds),
                                     formatDuration(m_options.tokenExpirySeconds));
            }
            f.evidence.insert(QStringLiteral("instance"), instanceJson(instance));
            f.evidence.insert(QStringLiteral("pool"), m_index.poolOf(instance.name));
            f.evidence.insert(QStringLiteral("node"), QJsonValue());
            f.evidence.insert(QStringLiteral("startupTimeoutSeconds"), m_options.startupTimeoutSeconds);
            f.evidence.insert(QStringLiteral("tokenExpirySeconds"), m_options.tokenExpirySeconds);
            f.repair = RepairPlanner::deleteInstance(instance);
            f.affected.instances << instance.name;
            m_result.findings.append(f);
        }

        if (m_groupIndex >= 0 && instance.isActive() && !instance.securityGroups.contains(groupName)) {
            Finding f;
            f.kind = FindingKind::InstanceMissingSecurityGroup;
            f.subject = instance.name;
            f.severity = Severity::Critical;
            f.message = QStringLiteral("Instance %1 is ACTIVE but not in the kluster's security group %2%3: it is "
                                       "cut off the network (no SSH, no kubelet, no pod traffic). Add the group.")
                            .arg(instance.name, groupName,
                                 instance.securityGroups.isEmpty()
                                     ? QStringLiteral(" (it has no security group at all)")
                                     : QStringLiteral(" (it has: %1)").arg(instance.securityGroups.join(QStringLiteral(", "))));
            f.evidence.insert(QStringLiteral("instance"), instanceJson(instance));
            f.evidence.insert(QStringLiteral("securityGroup"), groupName);
            f.evidence.insert(QStringLiteral("securityGroupId"), m_state.securityGroups.at(m_groupIndex).id);
            f.repair = RepairPlanner::addSecurityGroup(instance, groupName);
            f.affected.instances << instance.name;
            f.affected.securityGroups << groupName;
            m_result.findings.append(f);
        }

        if (nodeIndex >= 0 && m_index.providerIdDisagrees(i, nodeIndex)) {
            const Node &node = m_state.nodes.at(nodeIndex);
            Finding f;
            f.kind = FindingKind::NodeProviderMismatch;
            f.subject = node.name;
            f.severity = Severity::Info;
            f.message = QStringLiteral("Node %1 has the name of instance %2 (%3), but its providerID %4 names "
                                       "another instance. The node may belong to an instance that was replaced.")
                            .arg(node.name, instance.name, instance.id, node.providerId);
            f.evidence.insert(QStringLiteral("instance"), instanceJson(instance));
            f.evidence.insert(QStringLiteral("node"), nodeJson(node));
            f.affected.instances << instance.name;
            f.affected.nodes << node.name;
            m_result.findings.append(f);
        }
    }
}

void Diagnoser::checkNodes()
{
    for (const Node &node : m_state.nodes) {
        const NodeCondition *ready = node.condition(QStringLiteral("Ready"));
        if (!ready || ready->status != QLatin1String("True")) {
            Finding f;
            f.kind = FindingKind::NodeNotReady;
            f.subject = node.name;
            f.severity = Severity::Warning;
            if (!ready) {
                f.message = QStringLiteral("Node %1 reports no Ready condition: the kubelet has not posted its status "
                                           "yet. Look at the kubelet on the instance.")
                                .arg(node.name);
            } else {
                f.message = QStringLiteral("Node %1 is not Ready (Ready=%2%3%4). Look at the kubelet and the "
                                           "container runtime on the instance; no automatic repair.")
                                .arg(node.name, ready->status,
                                     ready->reason.isEmpty() ? QString() : QStringLiteral(", ") + ready->reason,
                                     ready->message.isEmpty() ? QString() : QStringLiteral(": ") + ready->message);
            }
            f.evidence.insert(QStringLiteral("node"), nodeJson(node));
            f.affected.nodes << node.name;
            m_result.findings.append(f);
        }
        const NodeCondition *network = node.condition(QStringLiteral("NetworkUnavailable"));
        if (network && network->status == QLatin1String("True")) {
            Finding f;
            f.kind = FindingKind::NodeNetworkUnavailable;
            f.subject = node.name;
            f.severity = Severity::Critical;
            f.message = QStringLiteral("Node %1 has NetworkUnavailable=True%2: the route controller could not set up "
                                       "its pod network route. Check the router's routes and its route limit.")
                            .arg(node.name, network->reason.isEmpty()
                                                ? QString()
                                                : QStringLiteral(" (%1%2)").arg(network->reason,
                                                                                network->message.isEmpty()
                                                                                    ? QString()
                                                                                    : QStringLiteral(": ") + network->message));
            f.evidence.insert(QStringLiteral("node"), nodeJson(node));
            f.affected.nodes << node.name;
            m_result.findings.append(f);
        }
    }
}

QString normalizedProtocol(const std::optional<QString> &protocol)
{
    if (!protocol)
        return QString();
    const QString p = protocol->trimmed().toLower();
    if (p == QLatin1String("6"))
        return QStringLiteral("tcp");
    if (p == QLatin1String("17"))
        return QStringLiteral("udp");
    if (p == QLatin1String("1"))
        return QStringLiteral("icmp");
    if (p == QLatin1String("any"))
        return QString();
    return p;
}

void Diagnoser::checkSecurityGroups()
{
    const QString groupName = m_state.kluster.securityGroupName;
    const QList<int> &groups = m_index.klusterGroups();
    if (groups.size() != 1) {
        Finding f;
        f.kind = FindingKind::SecurityGroupMissing;
        f.subject = groupName;
        f.severity = Severity::Critical;
        QJsonArray ids;
        for (int g : groups)
            ids.append(m_state.securityGroups.at(g).id);
        if (groups.isEmpty()) {
            f.message = QStringLiteral("The kluster's security group %1 does not exist in the project: new instances "
                                       "cannot get it and are cut off the network. Recreate it (with its rules) or "
                                       "fix spec.openstack.securityGroupName.")
                            .arg(groupName);
        } else {
            f.message = QStringLiteral("The kluster's security group name %1 is ambiguous: %2 groups have it. Nova "
                                       "cannot add it to instances by name (409). Rename or delete the extra groups.")
                                .arg(groupName)
                                .arg(groups.size());
        }
        f.evidence.insert(QStringLiteral("securityGroupName"), groupName);
        f.evidence.insert(QStringLiteral("matchingGroupIds"), ids);
        f.evidence.insert(QStringLiteral("groupsInProject"), int(m_state.securityGroups.size()));
        f.affected.securityGroups << groupName;
        m_result.findings.append(f);
        return;
    }

    m_groupIndex = groups.first();
    const SecurityGroup &group = m_state.securityGroups.at(m_groupIndex);
    const Cidr &podNetwork = m_state.kluster.clusterCidr;
    const QString podText = podNetwork.toString();
    static const QStringList required = {QStringLiteral("tcp"), QStringLiteral("udp"), QStringLiteral("icmp")};
    for (const QString &protocol : required) {
        bool satisfied = false;
        QJsonArray nearMisses;
        QStringList why;
        for (const SecurityGroupRule &rule : group.rules) {
            if (rule.direction != QLatin1String("ingress") || rule.ethertype != QLatin1String("IPv4"))
                continue;
            const QString p = normalizedProtocol(rule.protocol);
            if (!p.isEmpty() && p != protocol)
                continue;
            bool remoteOk = false;
            QString remoteProblem;
            if (rule.remoteIpPrefix) {
                const Cidr remote = Cidr::parse(*rule.remoteIpPrefix);
                remoteOk = remote.contains(podNetwork);
                if (!remoteOk)
                    remoteProblem = QStringLiteral("it allows only %1, not the whole pod network %2")
                                        .arg(*rule.remoteIpPrefix, podText);
            } else if (rule.remoteGroupId || rule.remoteAddressGroupId) {
                remoteProblem = QStringLiteral("it allows only members of another group, not the pod network");
            } else {
                remoteOk = true;  // no remote at all: from anywhere
            }
            const bool ports = rule.portRangeMin.has_value() || rule.portRangeMax.has_value();
            if (remoteOk && !ports) {
                satisfied = true;
                break;
            }
            QString problem = remoteProblem;
            if (ports) {
                const QString range = QStringLiteral("%1-%2")
                                          .arg(rule.portRangeMin ? QString::number(*rule.portRangeMin) : QStringLiteral("*"),
                                               rule.portRangeMax ? QString::number(*rule.portRangeMax) : QStringLiteral("*"));
                const QString portProblem = protocol == QLatin1String("icmp")
                    ? QStringLiteral("it allows only ICMP type/code %1").arg(range)
                    : QStringLiteral("it opens only ports %1").arg(range);
                problem = problem.isEmpty() ? portProblem : problem + QStringLiteral(" and ") + portProblem;
            }
            QJsonObject miss;
            miss.insert(QStringLiteral("ruleId"), rule.id);
            miss.insert(QStringLiteral("protocol"), rule.protocol ? QJsonValue(*rule.protocol) : QJsonValue());
            miss.insert(QStringLiteral("port_range_min"), rule.portRangeMin ? QJsonValue(*rule.portRangeMin) : QJsonValue());
            miss.insert(QStringLiteral("port_range_max"), rule.portRangeMax ? QJsonValue(*rule.portRangeMax) : QJsonValue());
            miss.insert(QStringLiteral("remote_ip_prefix"), rule.remoteIpPrefix ? QJsonValue(*rule.remoteIpPrefix) : QJsonValue());
            miss.insert(QStringLiteral("why"), problem);
            nearMisses.append(miss);
            why << QStringLiteral("rule %1 does not count: %2").arg(rule.id, problem);
        }
        if (satisfied)
            continue;
        Finding f;
        f.kind = FindingKind::SecurityGroupRuleMissing;
        f.subject = protocol;
        f.severity = Severity::Critical;
        f.message = QStringLiteral("Security group %1 has no rule letting %2 in from the pod network %3: pod-to-pod "
                                   "%2 traffic between nodes is dropped.")
                        .arg(group.name, protocol.toUpper(), podText);
        if (!why.isEmpty())
            f.message += QLatin1Char(' ') + why.join(QStringLiteral("; "))
                + QStringLiteral(" (pod traffic needs every port, from the whole pod network).");
        f.evidence.insert(QStringLiteral("securityGroup"), group.name);
        f.evidence.insert(QStringLiteral("securityGroupId"), group.id);
        f.evidence.insert(QStringLiteral("protocol"), protocol);
        f.evidence.insert(QStringLiteral("podCIDR"), podText);
        f.evidence.insert(QStringLiteral("rulesThatDoNotSatisfy"), nearMisses);
        f.repair = RepairPlanner::createSecurityGroupRule(group, protocol, podText);
        f.affected.securityGroups << group.name;
        m_result.findings.append(f);
    }
}

void Diagnoser::checkRoutes()
{
    const RouteAudit audit(m_index);
    const QList<RouteAudit::Entry> &entries = audit.entries();
    const Router &router = m_state.router;
    const bool atomic = m_state.hasAtomicExtraRoutes();
    const bool instancesKnown = m_state.serversSource.known;
    const bool nodesMissing = nodeEvidenceMissing();
    const QString noInstances = QStringLiteral("the instance list could not be fetched: whether a nexthop belongs "
                                               "to anything is unknown");
    const QString noNodes = QStringLiteral("the node list is missing or empty while instances are active: which "
                                           "route is correct is unknown");
    QStringList freeing;
    int freeable = 0;

    for (const RouteAudit::DestinationGroup &group : audit.klusterDestinations()) {
        const RouteAudit::Entry &first = entries.at(group.entries.first());
        if (group.entries.size() > 1) {
            QJsonArray routes;
            QList<Route> wrong;
            QStringList described;
            QString correct;
            for (int idx : group.entries) {
                const RouteAudit::Entry &e = entries.at(idx);
                routes.append(auditEntryJson(e));
                if (e.roles & RouteAudit::Correct)
                    correct = e.route.nexthop;
                else
                    wrong.append(e.route);
                described << QStringLiteral("via %1 (%2%3)")
                                 .arg(e.route.nexthop, RouteAudit::roleNames(e.roles & ~RouteAudit::Duplicate).join(QStringLiteral(", ")),
                                      e.nexthopInstance.isEmpty() ? QStringLiteral(", belongs to nobody")
                                                                  : QStringLiteral(", instance ") + e.nexthopInstance);
            }
            Finding f;
            f.kind = FindingKind::RouteDuplicate;
            f.subject = group.destination.toString();
            f.severity = Severity::Critical;
            QString outcome;
            if (first.roles & RouteAudit::Correct)
                outcome = QStringLiteral("Traffic still takes the correct one first, but the extra routes waste slots "
                                         "and win as soon as the order changes.");
            else if (!first.destinationNode.isEmpty())
                outcome = QStringLiteral("Traffic takes the first, wrong one, so pods on node %1 (%2) are unreachable.")
                              .arg(first.destinationNode, first.correctNexthop);
            else
                outcome = QStringLiteral("No node owns this pod network any more.");
            f.message = QStringLiteral("The router has %1 routes for %2: %3. %4 Remove the %5 wrong route(s).")
                            .arg(group.entries.size())
                            .arg(f.subject, described.join(QStringLiteral("; ")), outcome)
                            .arg(wrong.size());
            f.evidence.insert(QStringLiteral("destination"), f.subject);
            f.evidence.insert(QStringLiteral("routes"), routes);
            f.evidence.insert(QStringLiteral("node"), nullable(first.destinationNode));
            f.evidence.insert(QStringLiteral("correctNexthop"), nullable(first.correctNexthop));
            f.evidence.insert(QStringLiteral("routerId"), router.id);
            if (!wrong.isEmpty()) {
                RepairPlan plan = RepairPlanner::removeRoutes(router, wrong, atomic);
                if (!instancesKnown)
                    refuse(plan, noInstances);
                else if (nodesMissing)
                    refuse(plan, noNodes);
                f.repair = plan;
                freeable += int(wrong.size());
                freeing << f.id();
            }
            for (int idx : group.entries)
                f.affected.routes << entries.at(idx).route;
            if (!first.destinationNode.isEmpty())
                f.affected.nodes << first.destinationNode;
            m_result.findings.append(f);
            continue;
        }

        const RouteAudit::Entry &e = first;
        const QString subject = e.route.destination + QStringLiteral(" via ") + e.route.nexthop;
        if ((e.roles & RouteAudit::Stale) && m_state.nodesSource.known) {
            Finding f;
            f.kind = FindingKind::RouteStale;
            f.subject = subject;
            f.severity = Severity::Critical;
            f.message = QStringLiteral("The route for node %1's pod network %2 points at %3 (%4) instead of the "
                                       "node's own address %5: pods on %1 are unreachable. Remove it; the correct "
                                       "route is then added by its own repair.")
                            .arg(e.destinationNode, e.route.destination, e.route.nexthop,
                                 e.nexthopInstance.isEmpty() ? QStringLiteral("an address no instance has")
                                                             : QStringLiteral("instance ") + e.nexthopInstance,
                                 e.correctNexthop);
            f.evidence.insert(QStringLiteral("route"), auditEntryJson(e));
            f.evidence.insert(QStringLiteral("node"), e.destinationNode);
            f.evidence.insert(QStringLiteral("correctNexthop"), e.correctNexthop);
            f.evidence.insert(QStringLiteral("routerId"), router.id);
            RepairPlan plan = RepairPlanner::removeRoutes(router, {e.route}, atomic);
            if (!instancesKnown)
                refuse(plan, noInstances);
            else if (nodesMissing)
                refuse(plan, noNodes);
            f.repair = plan;
            f.affected.routes << e.route;
            f.affected.nodes << e.destinationNode;
            if (!e.nexthopInstance.isEmpty())
                f.affected.instances << e.nexthopInstance;
            freeable += 1;
            freeing << f.id();
            m_result.findings.append(f);
        } else if ((e.roles & RouteAudit::Orphaned) && instancesKnown) {
            Finding f;
            f.kind = FindingKind::RouteOrphaned;
            f.subject = subject;
            f.severity = Severity::Warning;
            f.message = QStringLiteral("The route %1 points at %2, which is no address of any instance in the "
                                       "project (its node is gone). It routes nothing and takes one of the router's "
                                       "route slots. Remove it.")
                            .arg(e.route.destination, e.route.nexthop);
            f.evidence.insert(QStringLiteral("route"), auditEntryJson(e));
            f.evidence.insert(QStringLiteral("instancesInProject"), int(m_state.instances.size()));
            f.evidence.insert(QStringLiteral("routerId"), router.id);
            f.repair = RepairPlanner::removeRoutes(router, {e.route}, atomic);
            f.affected.routes << e.route;
            freeable += 1;
            freeing << f.id();
            m_result.findings.append(f);
        }
    }

    QStringList missingIds;
    QHash<Cidr, QList<int>> byDestination;  // routes on the router, by destination
    for (int i = 0; i < entries.size(); ++i) {
        if (entries.at(i).position >= 0)
            byDestination[entries.at(i).destination].append(i);
    }
    if (m_state.nodesSource.known) {
        for (const RouteAudit::Entry &e : entries) {
            if (!(e.roles & RouteAudit::Missing))
                continue;
            Finding f;
            f.kind = FindingKind::RouteMissing;
            f.subject = e.destinationNode;
            f.severity = Severity::Critical;
            // Is there a wrong route for the same destination?
            QStringList elsewhere;
            QJsonArray existing;
            for (int idx : byDestination.value(e.destination)) {
                const RouteAudit::Entry &other = entries.at(idx);
                elsewhere << other.route.nexthop;
                existing.append(auditEntryJson(other));
            }
            f.message = QStringLiteral("Node %1 has the pod network %2 but the router has no route to it via the "
                                       "node's address %3%4: pods on %1 cannot be reached from other nodes. Add the "
                                       "route.")
                            .arg(e.destinationNode, e.route.destination, e.route.nexthop,
                                 elsewhere.isEmpty() ? QString()
                                                     : QStringLiteral(" (the router sends it via %1 instead)")
                                                           .arg(elsewhere.join(QStringLiteral(", "))));
            f.evidence.insert(QStringLiteral("node"), e.destinationNode);
            f.evidence.insert(QStringLiteral("podCIDR"), e.route.destination);
            f.evidence.insert(QStringLiteral("internalIP"), e.route.nexthop);
            f.evidence.insert(QStringLiteral("routesForDestination"), existing);
            f.evidence.insert(QStringLiteral("routerId"), router.id);
            f.repair = RepairPlanner::addRoutes(router, {e.route}, atomic);
            f.affected.nodes << e.destinationNode;
            if (!e.nexthopInstance.isEmpty())
                f.affected.instances << e.nexthopInstance;
            missingIds << f.id();
            m_result.findings.append(f);
        }
    }

    const int limit = (m_options.routeLimitExplicit || !m_state.maxRoutes) ? m_options.routeLimit : *m_state.maxRoutes;
    const int count = audit.routeCount();
    const int missing = m_state.nodesSource.known ? audit.missingCount() : 0;
    const bool atLimit = count >= limit;
    const bool wouldNotFit = count + missing > limit;
    const bool nearLimit = qint64(count) * 100 >= qint64(limit) * m_options.routeWarningPercent;
    if (limit > 0 && (atLimit || wouldNotFit || nearLimit)) {
        Finding f;
        f.kind = FindingKind::RouteLimit;
        f.subject = router.id;
        f.severity = (atLimit || wouldNotFit) ? Severity::Critical : Severity::Warning;
        const int percent = int(qint64(count) * 100 / limit);
        f.message = QStringLiteral("Router %1 holds %2 of its %3 routes (%4 %; %5 foreign).")
                        .arg(router.name.isEmpty() ? router.id : router.name)
                        .arg(count)
                        .arg(limit)
                        .arg(percent)
                        .arg(audit.foreignCount());
        if (atLimit)
            f.message += QStringLiteral(" It is at its limit: the next route is refused (400 RoutesExhausted or "
                                        "409 OverQuota) and new nodes get no pod network route.");
        if (missing > 0)
            f.message += QStringLiteral(" %1 route(s) that nodes need are missing%2.")
                             .arg(missing)
                             .arg(wouldNotFit ? QStringLiteral(" and would not fit") : QString());
        if (freeable > 0)
            f.message += QStringLiteral(" Repairing the duplicate, stale and orphaned routes frees %1 slot(s).").arg(freeable);
        else if (atLimit || wouldNotFit)
            f.message += QStringLiteral(" No route can be freed safely; ask for a higher route limit.");
        f.evidence.insert(QStringLiteral("routerId"), router.id);
        f.evidence.insert(QStringLiteral("routes"), count);
        f.evidence.insert(QStringLiteral("limit"), limit);
        f.evidence.insert(QStringLiteral("foreign"), audit.foreignCount());
        f.evidence.insert(QStringLiteral("kluster"), count - audit.foreignCount());
        f.evidence.insert(QStringLiteral("missing"), missing);
        f.evidence.insert(QStringLiteral("freeable"), freeable);
        f.evidence.insert(QStringLiteral("warningPercent"), m_options.routeWarningPercent);
        f.evidence.insert(QStringLiteral("relatedFindings"), QJsonArray::fromStringList(freeing + missingIds));
        m_result.findings.append(f);
    }
}

Diagnosis Diagnoser::run()
{
    m_result.budget = RemediationBudget::compute(m_state, m_options);
    auto skip = [this](const SourceStatus &source, const QString &what, const QString &name) {
        if (source.known)
            return false;
        m_result.notDiagnosed << QStringLiteral("%1: %2 could not be read (%3)")
                                     .arg(what, name, source.error.isEmpty() ? QStringLiteral("unknown error") : source.error);
        return true;
    };
    if (skip(m_state.klusterSource, QStringLiteral("everything"), QStringLiteral("the kluster")))
        return m_result;

    if (!skip(m_state.securityGroupsSource, QStringLiteral("security groups and memberships"),
              QStringLiteral("the security groups")))
        checkSecurityGroups();
    if (!skip(m_state.serversSource, QStringLiteral("instances and orphaned routes"), QStringLiteral("the servers")))
        checkInstances();
    if (!skip(m_state.nodesSource, QStringLiteral("nodes, unregistered instances, stale and missing routes"),
              QStringLiteral("the nodes")))
        checkNodes();
    if (!skip(m_state.routerSource, QStringLiteral("routes"), QStringLiteral("the router")))
        checkRoutes();

    std::sort(m_result.findings.begin(), m_result.findings.end(), findingLessThan);
    return m_result;
}

} // namespace

Diagnosis Diagnosis::run(const KlusterState &state, const DiagnosisOptions &options)
{
    Diagnoser diagnoser(state, options);
    return diagnoser.run();
}
