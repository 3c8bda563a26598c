// The words and JSON of findings: messages, evidence, repair plans and the
// affected objects, derived on demand from the state a diagnosis was made of.

#include "core/apiparser.h"
#include "core/diagnosis.h"
#include "core/diagnosiscontext.h"
#include "core/repairplanner.h"

#include <QJsonArray>

QString Finding::message() const
{
    return context ? context->message(*this) : QString();
}

QJsonObject Finding::evidence() const
{
    return context ? context->evidence(*this) : QJsonObject();
}

std::optional<RepairPlan> Finding::repair() const
{
    return context ? context->repair(*this) : std::nullopt;
}

AffectedObjects Finding::affected() const
{
    return context ? context->affected(*this) : AffectedObjects();
}

QString normalizedProtocol(const std::optional<QString> &protocol)
{
    if (!protocol)
        return QString();
    const QString p = protocol->trimmed().toLower();
    if (p.isEmpty())
        return QStringLiteral("(empty)");  // not "any": only null (or "any") means every protocol
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

RuleVerdict judgeRule(const SecurityGroupRule &rule, const QString &protocol, const Cidr &podNetwork, bool explain)
{
    RuleVerdict v;
    if (rule.direction != QLatin1String("ingress") || rule.ethertype != QLatin1String("IPv4"))
        return v;
    const QString p = normalizedProtocol(rule.protocol);
    if (!p.isEmpty() && p != protocol)
        return v;
    v.relevant = true;
    bool remoteOk = true;
    if (rule.remoteIpPrefix) {
        remoteOk = Cidr::parse(*rule.remoteIpPrefix).contains(podNetwork);
        if (!remoteOk && explain)
            v.problem = QStringLiteral("it allows only %1, not the whole pod network %2").arg(*rule.remoteIpPrefix, podNetwork.toString());
    } else if (rule.remoteGroupId || rule.remoteAddressGroupId) {
        remoteOk = false;  // only members of a group: pod addresses are not
        if (explain)
            v.problem = QStringLiteral("it allows only members of another group, not the pod network");
    }
    const bool ports = rule.portRangeMin || rule.portRangeMax;  // only some ports: not pod-to-pod traffic
    v.satisfies = remoteOk && !ports;
    if (ports && explain) {
        const QString range = QStringLiteral("%1-%2").arg(rule.portRangeMin ? QString::number(*rule.portRangeMin) : QStringLiteral("*"),
                                                          rule.portRangeMax ? QString::number(*rule.portRangeMax) : QStringLiteral("*"));
        const QString portText = protocol == QLatin1String("icmp") ? QStringLiteral("it allows only ICMP type/code %1").arg(range)
                                                                   : QStringLiteral("it opens only ports %1").arg(range);
        v.problem = v.problem.isEmpty() ? portText : v.problem + QStringLiteral(" and ") + portText;
    }
    return v;
}

static QJsonValue nullable(const QString &s)
{
    return s.isEmpty() ? QJsonValue() : QJsonValue(s);
}

static QJsonObject routeJson(const Route &r)
{
    return QJsonObject{{QStringLiteral("destination"), r.destination}, {QStringLiteral("nexthop"), r.nexthop}};
}

static int effectiveRouteLimit(const KlusterState &state, const DiagnosisOptions &options)
{
    return (options.routeLimitExplicit || !state.maxRoutes) ? options.routeLimit : *state.maxRoutes;
}

static bool computeNodeEvidenceMissing(const KlusterState &state, const KlusterIndex &index)
{
    if (!state.nodesSource.known)
        return true;
    if (!state.nodes.isEmpty())
        return false;
    for (int i : index.klusterInstances()) {
        if (state.instances.at(i).isActive())
            return true;
    }
    return false;
}

DiagnosisContext::DiagnosisContext(const KlusterState &s, const DiagnosisOptions &o)
    : state(s)
    , options(o)
    , index(state)
    , audit(index)
    , nodeEvidenceMissing(computeNodeEvidenceMissing(state, index))
    , atomicRoutes(state.hasAtomicExtraRoutes() && !options.fullRouteUpdates)
    , routeLimit(effectiveRouteLimit(state, options))
{
    for (int i = 0; i < audit.entries().size(); ++i) {
        const RouteAudit::Entry &e = audit.entries().at(i);
        if (e.position >= 0)
            routesByDestination[e.destination].append(i);
    }
}

QString DiagnosisContext::routeFindingKind(int destinationGroup) const
{
    const RouteAudit::DestinationGroup &group = audit.klusterDestinations().at(destinationGroup);
    if (group.entries.size() > 1)
        return FindingKind::RouteDuplicate;
    const RouteAudit::Entry &e = audit.entries().at(group.entries.first());
    if ((e.roles & RouteAudit::Stale) && state.nodesSource.known)
        return FindingKind::RouteStale;
    if ((e.roles & RouteAudit::Orphaned) && state.serversSource.known)
        return FindingKind::RouteOrphaned;
    return QString();
}

QString DiagnosisContext::routeSubject(int destinationGroup) const
{
    const RouteAudit::DestinationGroup &group = audit.klusterDestinations().at(destinationGroup);
    if (group.entries.size() > 1)
        return group.destination.toString();
    const Route &r = audit.entries().at(group.entries.first()).route;
    return r.destination + QStringLiteral(" via ") + r.nexthop;
}

QList<Route> DiagnosisContext::wrongRoutes(int destinationGroup) const
{
    const RouteAudit::DestinationGroup &group = audit.klusterDestinations().at(destinationGroup);
    QList<Route> wrong;
    for (int idx : group.entries) {
        const RouteAudit::Entry &e = audit.entries().at(idx);
        // While the owner has no address, only routes to nobody or to another node are surely wrong.
        const bool isWrong = group.undecided ? bool(e.roles & (RouteAudit::Orphaned | RouteAudit::Stale)) : !(e.roles & RouteAudit::Correct);
        if (isWrong)
            wrong.append(e.route);
    }
    return wrong;
}

int DiagnosisContext::routeLimitFreeable(QStringList *related) const
{
    int freeable = 0;
    for (int g = 0; g < audit.klusterDestinations().size(); ++g) {
        const QString kind = routeFindingKind(g);
        if (kind.isEmpty())
            continue;
        const int n = int(wrongRoutes(g).size());
        if (n == 0)
            continue;
        freeable += n;
        if (related)
            related->append(kind + QLatin1Char(':') + routeSubject(g));
    }
    if (related && state.nodesSource.known) {
        for (const RouteAudit::Entry &e : audit.entries()) {
            if (e.roles & RouteAudit::Missing)
                related->append(FindingKind::RouteMissing + QLatin1Char(':') + e.destinationNode);
        }
    }
    return freeable;
}

QJsonObject DiagnosisContext::instanceJson(const Instance &instance) const
{
    QJsonArray addresses;
    for (const InstanceAddress &a : instance.addresses)
        addresses.append(a.address);
    QJsonObject o{{QStringLiteral("id"), instance.id},
                  {QStringLiteral("name"), instance.name},
                  {QStringLiteral("status"), instance.status},
                  {QStringLiteral("vm_state"), nullable(instance.vmState)},
                  {QStringLiteral("task_state"), nullable(instance.taskState)},
                  {QStringLiteral("created"), ApiParser::formatTimestamp(instance.created)},
                  {QStringLiteral("ageSeconds"), ageOf(instance.created)},
                  {QStringLiteral("addresses"), addresses},
                  {QStringLiteral("security_groups"), QJsonArray::fromStringList(instance.securityGroups)}};
    if (!instance.faultMessage.isEmpty())
        o.insert(QStringLiteral("fault"), instance.faultMessage);
    return o;
}

QJsonObject DiagnosisContext::nodeJson(const Node &node) const
{
    QJsonArray conditions;
    for (const NodeCondition &c : node.conditions) {
        conditions.append(QJsonObject{{QStringLiteral("type"), c.type},
                                      {QStringLiteral("status"), c.status},
                                      {QStringLiteral("reason"), nullable(c.reason)},
                                      {QStringLiteral("message"), nullable(c.message)}});
    }
    QJsonObject o{{QStringLiteral("name"), node.name},
                  {QStringLiteral("internalIP"), nullable(node.internalIp)},
                  {QStringLiteral("podCIDR"), nullable(node.podCidrText)},
                  {QStringLiteral("providerID"), nullable(node.providerId)},
                  {QStringLiteral("conditions"), conditions}};
    if (node.created.isValid()) {
        o.insert(QStringLiteral("created"), ApiParser::formatTimestamp(node.created));
        o.insert(QStringLiteral("ageSeconds"), ageOf(node.created));
    }
    return o;
}

QJsonObject DiagnosisContext::auditEntryJson(const RouteAudit::Entry &e) const
{
    QJsonObject o = routeJson(e.route);
    o.insert(QStringLiteral("position"), e.position);
    o.insert(QStringLiteral("roles"), QJsonArray::fromStringList(RouteAudit::roleNames(e.roles)));
    o.insert(QStringLiteral("nexthopInstance"), nullable(e.nexthopInstance));
    o.insert(QStringLiteral("nexthopNode"), nullable(e.nexthopNode));
    return o;
}

void DiagnosisContext::refuseUnguarded(RepairPlan &plan) const
{
    if (!plan.refusal.isEmpty() || atomicRoutes || state.extensions.contains(QStringLiteral("revision-if-match")))
        return;
    plan.refusal = QStringLiteral("NoRevision");
    plan.refusalDetail = state.extensionsKnown
        ? QStringLiteral("the cloud lists neither extraroute-atomic nor revision-if-match: Neutron would ignore If-Match, "
                         "and a full-list update could overwrite a concurrent change")
        : QStringLiteral("the Neutron extensions are unknown: without extraroute-atomic or revision-if-match a full-list "
                         "update could overwrite a concurrent change");
}

void DiagnosisContext::refuseWithoutEvidence(RepairPlan &plan, bool needsNodes) const
{
    if (!state.serversSource.known) {
        plan.refusal = QStringLiteral("NoEvidence");
        plan.refusalDetail = QStringLiteral("the instance list could not be fetched: whether a nexthop belongs to "
                                            "anything is unknown");
    } else if (!state.serversSource.incomplete.isEmpty()) {
        plan.refusal = QStringLiteral("NoEvidence");
        plan.refusalDetail = QStringLiteral("the instance list is incomplete (%1): a nexthop may belong to one of the "
                                            "missing servers")
                                 .arg(state.serversSource.incomplete);
    } else if (needsNodes && nodeEvidenceMissing) {
        plan.refusal = QStringLiteral("NoEvidence");
        plan.refusalDetail = QStringLiteral("the node list is missing or empty while instances are active: which "
                                            "route is correct is unknown");
    }
}

QString DiagnosisContext::message(const Finding &f) const
{
    const QString &kind = f.kind;
    if (kind == FindingKind::InstanceError) {
        const Instance &instance = state.instances.at(f.facts.instance);
        return QStringLiteral("Instance %1 is in ERROR%2. It will not recover by itself: delete it and Kubernikus "
                              "launches a replacement.")
            .arg(instance.name, instance.faultMessage.isEmpty()
                                    ? QString()
                                    : QStringLiteral(" (Nova: \"%1\")").arg(instance.faultMessage));
    }
    if (kind == FindingKind::InstanceUnregistered) {
        const Instance &instance = state.instances.at(f.facts.instance);
        const qint64 age = ageOf(instance.created);
        if (nodeEvidenceMissing) {
            return QStringLiteral("Instance %1 (%2, created %3 ago) has no node, but the node list is empty while the "
                                  "kluster's instances are active: check the Kubernetes API first. Do not delete "
                                  "instances on this evidence.")
                .arg(instance.name, instance.status, formatDuration(age));
        }
        if (f.severity == Severity::Critical) {
            return QStringLiteral("Instance %1 (%2) was created %3 ago and never registered as a node. Its bootstrap "
                                  "token expired after %4, so it can never join: delete it and Kubernikus launches a "
                                  "replacement.")
                .arg(instance.name, instance.status, formatDuration(age), formatDuration(options.tokenExpirySeconds));
        }
        return QStringLiteral("Instance %1 (%2) was created %3 ago and has not registered as a node (startup timeout "
                              "%4). Check its console log; after %5 its bootstrap token expires and it can never join.")
            .arg(instance.name, instance.status, formatDuration(age), formatDuration(options.startupTimeoutSeconds),
                 formatDuration(options.tokenExpirySeconds));
    }
    if (kind == FindingKind::InstanceMissingSecurityGroup) {
        const Instance &instance = state.instances.at(f.facts.instance);
        return QStringLiteral("Instance %1 is ACTIVE but not in the kluster's security group %2%3: it is cut off the "
                              "network (no SSH, no kubelet, no pod traffic). Add the group.")
            .arg(instance.name, state.kluster.securityGroupName,
                 instance.securityGroups.isEmpty()
                     ? QStringLiteral(" (it has no security group at all)")
                     : QStringLiteral(" (it has: %1)").arg(instance.securityGroups.join(QStringLiteral(", "))));
    }
    if (kind == FindingKind::NodeNotReady) {
        const Node &node = state.nodes.at(f.facts.node);
        const NodeCondition *ready = node.condition(QStringLiteral("Ready"));
        if (!ready) {
            return QStringLiteral("Node %1 reports no Ready condition: the kubelet has not posted its status yet. "
                                  "Look at the kubelet on the instance.")
                .arg(node.name);
        }
        return QStringLiteral("Node %1 is not Ready (Ready=%2%3%4). Look at the kubelet and the container runtime on "
                              "the instance; there is no automatic repair.")
            .arg(node.name, ready->status, ready->reason.isEmpty() ? QString() : QStringLiteral(", ") + ready->reason,
                 ready->message.isEmpty() ? QString() : QStringLiteral(": ") + ready->message);
    }
    if (kind == FindingKind::NodeNetworkUnavailable) {
        const Node &node = state.nodes.at(f.facts.node);
        const NodeCondition *network = node.condition(QStringLiteral("NetworkUnavailable"));
        QString why;
        if (network && !network->reason.isEmpty())
            why = QStringLiteral(" (%1%2)").arg(network->reason, network->message.isEmpty()
                                                                     ? QString()
                                                                     : QStringLiteral(": ") + network->message);
        return QStringLiteral("Node %1 has NetworkUnavailable=True%2: the route controller could not set up its pod "
                              "network route. Check the router's routes and its route limit.")
            .arg(node.name, why);
    }
    if (kind == FindingKind::SecurityGroupMissing) {
        const int n = int(index.klusterGroups().size());
        if (n == 0) {
            return QStringLiteral("The kluster's security group %1 does not exist in the project: new instances cannot "
                                  "get it and are cut off the network. Recreate it (with its rules) or fix "
                                  "spec.openstack.securityGroupName.")
                .arg(state.kluster.securityGroupName);
        }
        return QStringLiteral("The kluster's security group name %1 is ambiguous: %2 groups have it. Nova cannot add it "
                              "to instances by name (409). Rename or delete the extra groups.")
            .arg(state.kluster.securityGroupName)
            .arg(n);
    }
    if (kind == FindingKind::SecurityGroupRuleMissing) {
        const SecurityGroup &group = state.securityGroups.at(groupIndex);
        const QString pod = state.kluster.clusterCidr.toString();
        QString message = QStringLiteral("Security group %1 has no rule letting %2 in from the pod network %3: "
                                         "pod-to-pod %2 traffic between nodes is dropped.")
                              .arg(group.name, f.facts.protocol.toUpper(), pod);
        QStringList why;
        for (const QJsonValue &v : evidence(f).value(QStringLiteral("rulesThatDoNotSatisfy")).toArray()) {
            const QJsonObject miss = v.toObject();
            why << QStringLiteral("rule %1 does not count: %2")
                       .arg(miss.value(QStringLiteral("ruleId")).toString(), miss.value(QStringLiteral("why")).toString());
        }
        if (!why.isEmpty())
            message += QLatin1Char(' ') + why.join(QStringLiteral("; "))
                + QStringLiteral(" (pod traffic needs every port, from the whole pod network).");
        if (message.contains(QStringLiteral("opens only ports")) || message.contains(QStringLiteral("ICMP type/code")))
            message += QStringLiteral(" Kubernikus' own check accepts such a rule, so its controllers will not fix it.");
        return message;
    }
    if (kind == FindingKind::RouteDuplicate) {
        const RouteAudit::DestinationGroup &group = audit.klusterDestinations().at(f.facts.destinationGroup);
        const RouteAudit::Entry &first = audit.entries().at(group.entries.first());
        QStringList described;
        for (int idx : group.entries) {
            const RouteAudit::Entry &e = audit.entries().at(idx);
            described << QStringLiteral("via %1 (%2%3)")
                             .arg(e.route.nexthop,
                                  RouteAudit::roleNames(e.roles & ~RouteAudit::Roles(RouteAudit::Duplicate)).join(QStringLiteral(", ")),
                                  e.nexthopInstance.isEmpty() ? QStringLiteral(", belongs to nobody")
                                                              : QStringLiteral(", instance ") + e.nexthopInstance);
        }
        QString outcome;
        if (group.undecided)
            outcome = QStringLiteral("Node %1 owns this pod network but has no InternalIP yet, so which route is correct "
                                     "cannot be told; only routes to nobody are removed.")
                          .arg(first.destinationNode);
        else if (first.roles & RouteAudit::Correct)
            outcome = QStringLiteral("Traffic still takes the correct one first, but the extra routes waste slots and "
                                     "win as soon as the order changes.");
        else if (!first.destinationNode.isEmpty())
            outcome = QStringLiteral("Traffic takes the first, wrong one, so pods on node %1 (%2) are unreachable.")
                          .arg(first.destinationNode, first.correctNexthop);
        else
            outcome = QStringLiteral("No node owns this pod network any more.");
        return QStringLiteral("The router has %1 routes for %2: %3. %4 Remove the %5 wrong route(s).")
            .arg(group.entries.size())
            .arg(f.subject, described.join(QStringLiteral("; ")), outcome)
            .arg(wrongRoutes(f.facts.destinationGroup).size());
    }
    if (kind == FindingKind::RouteStale) {
        const RouteAudit::Entry &e = audit.entries().at(f.facts.routeEntry);
        const QString where = e.nexthopInstance.isEmpty() ? QStringLiteral("an address no instance has")
                              : !e.nexthopNode.isEmpty() && e.nexthopNode != e.destinationNode ? QStringLiteral("node ") + e.nexthopNode
                                                                                             : QStringLiteral("instance ") + e.nexthopInstance;
        if (e.correctNexthop.isEmpty()) {
            return QStringLiteral("The route for node %1's pod network %2 points at %3 (%4), and node %1 has no usable "
                                  "address to route to (InternalIP %5): pods on %1 are unreachable. Remove the route; fix "
                                  "the node's address, and its route is then added by its own repair.")
                .arg(e.destinationNode, e.route.destination, e.route.nexthop, where,
                     e.destinationNodeAddress.isEmpty() ? QStringLiteral("absent") : quotedExcerpt(e.destinationNodeAddress));
        }
        return QStringLiteral("The route for node %1's pod network %2 points at %3 (%4) instead of the node's own "
                              "address %5: pods on %1 are unreachable. Remove it; the correct route is then added by "
                              "its own repair.")
            .arg(e.destinationNode, e.route.destination, e.route.nexthop, where, e.correctNexthop);
    }
    if (kind == FindingKind::RouteOrphaned) {
        const RouteAudit::Entry &e = audit.entries().at(f.facts.routeEntry);
        return QStringLiteral("The route %1 points at %2, which is no address of any instance in the project (its node "
                              "is gone). It routes nothing and takes one of the router's route slots. Remove it.")
            .arg(e.route.destination, e.route.nexthop);
    }
    if (kind == FindingKind::RouteMissing) {
        const RouteAudit::Entry &e = audit.entries().at(f.facts.routeEntry);
        QStringList elsewhere;
        for (int idx : routesByDestination.value(e.destination))
            elsewhere << audit.entries().at(idx).route.nexthop;
        return QStringLiteral("Node %1 has the pod network %2 but the router has no route to it via the node's address "
                              "%3%4: pods on %1 cannot be reached from other nodes. Add the route.")
            .arg(e.destinationNode, e.route.destination, e.route.nexthop,
                 elsewhere.isEmpty() ? QString()
                                     : QStringLiteral(" (the router sends it via %1 instead)").arg(elsewhere.join(QStringLiteral(", "))));
    }
    if (kind == FindingKind::RouteLimit) {
        const int count = audit.routeCount();
        const int missing = state.nodesSource.known ? audit.missingCount() : 0;
        const int freeable = routeLimitFreeable(nullptr);
        const bool atLimit = count >= routeLimit;
        const bool wouldNotFit = count + missing > routeLimit;
        QString m = QStringLiteral("Router %1 holds %2 of its %3 routes (%4 %; %5 foreign).")
                        .arg(state.router.name.isEmpty() ? state.router.id : state.router.name)
                        .arg(count)
                        .arg(routeLimit)
                        .arg(int(qint64(count) * 100 / routeLimit))
                        .arg(audit.foreignCount());
        if (atLimit)
            m += QStringLiteral(" It is at its limit: the next route is refused (400 RoutesExhausted or 409 OverQuota) "
                                "and new nodes get no pod network route.");
        if (missing > 0)
            m += QStringLiteral(" %1 route(s) that nodes need are missing%2.")
                     .arg(missing)
                     .arg(wouldNotFit ? QStringLiteral(" and would not fit") : QString());
        if (freeable > 0)
            m += QStringLiteral(" Repairing the duplicate, stale and orphaned routes frees %1 slot(s).").arg(freeable);
        else if (atLimit || wouldNotFit)
            m += QStringLiteral(" No route can be freed safely; ask for a higher route limit.");
        return m;
    }
    return QString();
}

QJsonObject DiagnosisContext::evidence(const Finding &f) const
{
    const QString &kind = f.kind;
    if (kind == FindingKind::InstanceError || kind == FindingKind::InstanceUnregistered
        || kind == FindingKind::InstanceMissingSecurityGroup) {
        const Instance &instance = state.instances.at(f.facts.instance);
        QJsonObject o{{QStringLiteral("instance"), instanceJson(instance)},
                      {QStringLiteral("pool"), index.poolOf(instance.name)}};
        if (kind == FindingKind::InstanceUnregistered) {
            o.insert(QStringLiteral("node"), QJsonValue());
            o.insert(QStringLiteral("startupTimeoutSeconds"), options.startupTimeoutSeconds);
            o.insert(QStringLiteral("tokenExpirySeconds"), options.tokenExpirySeconds);
        }
        if (kind == FindingKind::InstanceMissingSecurityGroup) {
            o.insert(QStringLiteral("securityGroup"), state.kluster.securityGroupName);
            o.insert(QStringLiteral("securityGroupId"), state.securityGroups.at(groupIndex).id);
        }
        return o;
    }
    if (kind == FindingKind::NodeNotReady || kind == FindingKind::NodeNetworkUnavailable)
        return QJsonObject{{QStringLiteral("node"), nodeJson(state.nodes.at(f.facts.node))}};
    if (kind == FindingKind::SecurityGroupMissing) {
        QJsonArray ids;
        for (int g : index.klusterGroups())
            ids.append(state.securityGroups.at(g).id);
        return QJsonObject{{QStringLiteral("securityGroupName"), state.kluster.securityGroupName},
                           {QStringLiteral("matchingGroupIds"), ids},
                           {QStringLiteral("groupsInProject"), int(state.securityGroups.size())}};
    }
    if (kind == FindingKind::SecurityGroupRuleMissing) {
        const SecurityGroup &group = state.securityGroups.at(groupIndex);
        const Cidr &podNetwork = state.kluster.clusterCidr;
        const QString &protocol = f.facts.protocol;
        QJsonArray nearMisses;
        for (const SecurityGroupRule &rule : group.rules) {
            const RuleVerdict verdict = judgeRule(rule, protocol, podNetwork, true);
            if (!verdict.relevant || verdict.satisfies)
                continue;
            const QString &problem = verdict.problem;
            nearMisses.append(QJsonObject{
                {QStringLiteral("ruleId"), rule.id},
                {QStringLiteral("protocol"), rule.protocol ? QJsonValue(*rule.protocol) : QJsonValue()},
                {QStringLiteral("port_range_min"), rule.portRangeMin ? QJsonValue(*rule.portRangeMin) : QJsonValue()},
                {QStringLiteral("port_range_max"), rule.portRangeMax ? QJsonValue(*rule.portRangeMax) : QJsonValue()},
                {QStringLiteral("remote_ip_prefix"), rule.remoteIpPrefix ? QJsonValue(*rule.remoteIpPrefix) : QJsonValue()},
                {QStringLiteral("why"), problem}});
        }
        return QJsonObject{{QStringLiteral("securityGroup"), group.name},
                           {QStringLiteral("securityGroupId"), group.id},
                           {QStringLiteral("protocol"), protocol},
                           {QStringLiteral("podCIDR"), podNetwork.toString()},
                           {QStringLiteral("rulesThatDoNotSatisfy"), nearMisses}};
    }
    if (kind == FindingKind::RouteDuplicate) {
        const RouteAudit::DestinationGroup &group = audit.klusterDestinations().at(f.facts.destinationGroup);
        const RouteAudit::Entry &first = audit.entries().at(group.entries.first());
        QJsonArray routes;
        for (int idx : group.entries)
            routes.append(auditEntryJson(audit.entries().at(idx)));
        return QJsonObject{{QStringLiteral("destination"), f.subject},
                           {QStringLiteral("routes"), routes},
                           {QStringLiteral("node"), nullable(first.destinationNode)},
                           {QStringLiteral("correctNexthop"), nullable(first.correctNexthop)},
                           {QStringLiteral("routerId"), state.router.id}};
    }
    if (kind == FindingKind::RouteStale) {
        const RouteAudit::Entry &e = audit.entries().at(f.facts.routeEntry);
        QJsonObject evidence{{QStringLiteral("route"), auditEntryJson(e)},
                             {QStringLiteral("node"), e.destinationNode},
                             {QStringLiteral("correctNexthop"), nullable(e.correctNexthop)},
                             {QStringLiteral("routerId"), state.router.id}};
        if (e.correctNexthop.isEmpty())
            evidence.insert(QStringLiteral("nodeInternalIP"), nullable(e.destinationNodeAddress));
        return evidence;
    }
    if (kind == FindingKind::RouteOrphaned) {
        const RouteAudit::Entry &e = audit.entries().at(f.facts.routeEntry);
        return QJsonObject{{QStringLiteral("route"), auditEntryJson(e)},
                           {QStringLiteral("instancesInProject"), int(state.instances.size())},
                           {QStringLiteral("routerId"), state.router.id}};
    }
    if (kind == FindingKind::RouteMissing) {
        const RouteAudit::Entry &e = audit.entries().at(f.facts.routeEntry);
        QJsonArray existing;
        for (int idx : routesByDestination.value(e.destination))
            existing.append(auditEntryJson(audit.entries().at(idx)));
        return QJsonObject{{QStringLiteral("node"), e.destinationNode},
                           {QStringLiteral("podCIDR"), e.route.destination},
                           {QStringLiteral("internalIP"), e.route.nexthop},
                           {QStringLiteral("routesForDestination"), existing},
                           {QStringLiteral("routerId"), state.router.id}};
    }
    if (kind == FindingKind::RouteLimit) {
        QStringList related;
        const int freeable = routeLimitFreeable(&related);
        const int count = audit.routeCount();
        return QJsonObject{{QStringLiteral("routerId"), state.router.id},
                           {QStringLiteral("routes"), count},
                           {QStringLiteral("limit"), routeLimit},
                           {QStringLiteral("foreign"), audit.foreignCount()},
                           {QStringLiteral("kluster"), count - audit.foreignCount()},
                           {QStringLiteral("missing"), state.nodesSource.known ? audit.missingCount() : 0},
                           {QStringLiteral("freeable"), freeable},
                           {QStringLiteral("warningPercent"), options.routeWarningPercent},
                           {QStringLiteral("relatedFindings"), QJsonArray::fromStringList(related)}};
    }
    return QJsonObject();
}

std::optional<RepairPlan> DiagnosisContext::repair(const Finding &f) const
{
    const QString &kind = f.kind;
    if (kind == FindingKind::InstanceError || kind == FindingKind::InstanceUnregistered)
        return RepairPlanner::deleteInstance(state.instances.at(f.facts.instance));
    if (kind == FindingKind::InstanceMissingSecurityGroup)
        return RepairPlanner::addSecurityGroup(state.instances.at(f.facts.instance), state.kluster.securityGroupName);
    if (kind == FindingKind::SecurityGroupRuleMissing) {
        return RepairPlanner::createSecurityGroupRule(state.securityGroups.at(groupIndex), f.facts.protocol,
                                                      state.kluster.clusterCidr.toString());
    }
    if (kind == FindingKind::RouteDuplicate || kind == FindingKind::RouteStale || kind == FindingKind::RouteOrphaned) {
        const QList<Route> wrong = wrongRoutes(f.facts.destinationGroup);
        if (wrong.isEmpty())
            return std::nullopt;
        RepairPlan plan = RepairPlanner::removeRoutes(state.router, wrong, atomicRoutes);
        // Which route is correct rests on the node list; orphans only on the instance list.
        refuseWithoutEvidence(plan, kind != FindingKind::RouteOrphaned);
        refuseUnguarded(plan);
        return plan;
    }
    if (kind == FindingKind::RouteMissing) {
        RepairPlan plan = RepairPlanner::addRoutes(state.router, {audit.entries().at(f.facts.routeEntry).route}, atomicRoutes);
        refuseUnguarded(plan);
        if (plan.refusal.isEmpty() && audit.routeCount() >= routeLimit) {
            plan.refusal = QStringLiteral("RouteLimit");
            plan.refusalDetail = QStringLiteral("the router holds %1 of its %2 routes: Neutron would refuse one more "
                                                "(400 RoutesExhausted or 409 OverQuota); free a slot first (see route-limit)")
                                     .arg(audit.routeCount())
                                     .arg(routeLimit);
        }
        return plan;
    }
    return std::nullopt;
}

AffectedObjects DiagnosisContext::affected(const Finding &f) const
{
    AffectedObjects a;
    if (f.facts.instance >= 0)
        a.instances << state.instances.at(f.facts.instance).name;
    if (f.facts.node >= 0)
        a.nodes << state.nodes.at(f.facts.node).name;
    if (f.kind == FindingKind::SecurityGroupMissing || f.kind == FindingKind::SecurityGroupRuleMissing
        || f.kind == FindingKind::InstanceMissingSecurityGroup)
        a.securityGroups << state.kluster.securityGroupName;
    if (f.facts.destinationGroup >= 0) {
        for (int idx : audit.klusterDestinations().at(f.facts.destinationGroup).entries) {
            const RouteAudit::Entry &e = audit.entries().at(idx);
            a.routes << e.route;
            if (!e.destinationNode.isEmpty() && !a.nodes.contains(e.destinationNode))
                a.nodes << e.destinationNode;
            if (f.kind == FindingKind::RouteStale && !e.nexthopInstance.isEmpty())
                a.instances << e.nexthopInstance;
        }
    } else if (f.facts.routeEntry >= 0) {
        const RouteAudit::Entry &e = audit.entries().at(f.facts.routeEntry);
        a.nodes << e.destinationNode;
        if (!e.nexthopInstance.isEmpty())
            a.instances << e.nexthopInstance;
    }
    return a;
}
