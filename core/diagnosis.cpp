#include "core/diagnosis.h"

#include "core/diagnosiscontext.h"
#include "core/findingtraits.h"
#include "core/json/jsonreader.h"
#include "core/knowledge.h"
#include "core/portfindings.h"

#include <QSet>
#include <algorithm>
#include <climits>

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
    return int(std::count_if(
        findings.begin(), findings.end(), [severity](const Finding &f) { return f.severity == severity; }));
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

int Diagnosis::worstRank() const
{
    int rank = INT_MAX;
    for (const Finding &f : findings)
        rank = qMin(rank, findingRank(f));
    return rank;
}

const Finding *Diagnosis::find(const QString &id) const
{
    for (const Finding &f : findings) {
        if (f.id() == id)
            return &f;
    }
    return nullptr;
}

const Incident *Diagnosis::incidentOf(const QString &findingId) const
{
    for (const Incident &i : incidents) {
        if (i.members.contains(findingId))
            return &i;
    }
    return nullptr;
}

namespace {

// Detection only: decides which findings exist, with their kind, subject,
// severity and facts. Words and JSON come from the context, on demand.
class Detector
{
public:
    explicit Detector(std::shared_ptr<DiagnosisContext> context)
        : m_ctx(std::move(context))
        , m_state(m_ctx->state)
    { }

    Diagnosis run();

private:
    // A finding of `kind`, its severity by the kind's rule on what detection decided.
    Finding make(FindingKind kind, const QString &subject, FindingFacts facts = FindingFacts())
    {
        Finding f;
        f.kind = kind;
        f.subject = subject;
        f.severity = findingTraits(kind).severity(facts);
        f.facts = std::move(facts);
        f.context = m_ctx;
        return f;
    }

    bool routedToNode(const Node &node) const;
    void checkSecurityGroups();
    void checkInstances();
    void checkNodes();
    void checkRoutes();
    void checkPorts();
    void dropUnjudged();

    std::shared_ptr<DiagnosisContext> m_ctx;
    const KlusterState &m_state;
    Diagnosis m_result;
    QSet<int> m_stoppedNodes; // nodes whose instance is instance-stopped: not also node-not-ready
};

void Detector::checkSecurityGroups()
{
    const QList<int> &groups = m_ctx->index.klusterGroups();
    if (groups.size() != 1) {
        m_result.findings.append(make(FindingKind::SecurityGroupMissing, m_state.kluster.securityGroupName));
        return;
    }
    m_ctx->groupIndex = groups.first();
    const SecurityGroup &group = m_state.securityGroups.at(m_ctx->groupIndex);
    const Cidr &podNetwork = m_state.kluster.clusterCidr;
    static const QString required[]
        = { QStringLiteral("tcp"), QStringLiteral("udp"), QStringLiteral("icmp") };
    for (const QString &protocol : required) {
        FindingFacts facts;
        facts.protocol = protocol;
        bool satisfied = false;
        for (int r = 0; r < group.rules.size() && !satisfied; ++r) {
            RuleVerdict verdict = judgeRule(group.rules.at(r), protocol, podNetwork);
            satisfied = verdict.satisfies;
            if (verdict.relevant && !verdict.satisfies) {
                verdict.rule = r;
                facts.rulesFallingShort.append(verdict);
            }
        }
        if (!satisfied)
            m_result.findings.append(make(FindingKind::SecurityGroupRuleMissing, protocol, std::move(facts)));
    }
}

void Detector::checkInstances()
{
    const DiagnosisOptions &o = m_ctx->options;
    const QString &groupName = m_state.kluster.securityGroupName;
    const bool nodesKnown = m_state.nodesSource.known;
    for (int i : m_ctx->index.klusterInstances()) {
        const Instance &instance = m_state.instances.at(i);
        FindingFacts facts;
        facts.instance = i;
        if (instance.isError() && !instance.isDeleting()) {
            m_result.findings.append(make(FindingKind::InstanceError, instance.name, facts));
            continue; // one fact, one finding
        }
        const int node = nodesKnown ? m_ctx->index.nodeOfInstance(i) : -1;
        const qint64 age = m_ctx->ageOf(instance.created);
        if (instance.isStopped()) {
            // One fact, one finding: not also instance-unregistered, and its node not also node-not-ready.
            // Nova stopping or starting it now (a task state) is not yet news.
            if (!instance.isBusy() && age >= o.startupTimeoutSeconds) {
                FindingFacts stopped = facts;
                stopped.node = node;
                stopped.nodesUnknown = !nodesKnown;
                if (node >= 0)
                    m_stoppedNodes.insert(node);
                m_result.findings.append(
                    make(FindingKind::InstanceStopped, instance.name, std::move(stopped)));
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
            unregistered.routed = !m_ctx->nodeEvidenceMissing && !m_ctx->audit.routesVia(i).isEmpty();
            m_result.findings.append(
                make(FindingKind::InstanceUnregistered, instance.name, std::move(unregistered)));
        }
        if (m_ctx->groupIndex >= 0 && instance.isActive() && !instance.securityGroups.contains(groupName))
            m_result.findings.append(make(FindingKind::InstanceMissingSecurityGroup, instance.name, facts));
        if (node >= 0 && m_ctx->index.providerIdDisagrees(i, node)) {
            const Node &n = m_state.nodes.at(node);
            m_result.notes << QStringLiteral(
                "node %1 has the name of instance %2 (%3), but its providerID %4 names "
                "another instance: it may belong to an instance that was replaced")
                                  .arg(n.name, instance.name, instance.id, n.providerId);
        }
    }
}

// The router routes the node's pod CIDR to the node's own address.
bool Detector::routedToNode(const Node &node) const
{
    if (!node.podCidr.isValid() || !m_state.routerSource.known)
        return false;
    const QString ip = canonicalAddress(node.internalIp);
    if (ip.isEmpty())
        return false;
    const RouteAudit &audit = m_ctx->audit;
    for (int idx : m_ctx->routesByDestination.value(node.podCidr)) {
        if (canonicalAddress(audit.entries().at(idx).route.nexthop) == ip)
            return true;
    }
    return false;
}

void Detector::checkNodes()
{
    for (int i = 0; i < m_state.nodes.size(); ++i) {
        const Node &node = m_state.nodes.at(i);
        FindingFacts facts;
        facts.node = i;
        if (m_ctx->index.isGhost(i)) {
            // A ghost is one finding: its conditions and its route are the ghost's, not news.
            facts.routed = routedToNode(node);
            m_result.findings.append(make(FindingKind::NodeWithoutInstance, node.name, std::move(facts)));
            continue;
        }
        const NodeCondition *ready = node.condition(QStringLiteral("Ready"));
        if ((!ready || ready->status != QLatin1String("True")) && !m_stoppedNodes.contains(i))
            m_result.findings.append(make(FindingKind::NodeNotReady, node.name, facts));
        const NodeCondition *network = node.condition(QStringLiteral("NetworkUnavailable"));
        if (network && network->status == QLatin1String("True"))
            m_result.findings.append(make(FindingKind::NodeNetworkUnavailable, node.name, facts));
        // No kind of diagnosis.md speaks of it, but it is never silent: a node with a pod network and no
        // address of its family cannot be routed to.
        if (node.podCidr.isValid()) {
            const QString ip = canonicalAddress(node.internalIp);
            if (ip.isEmpty() || ip.contains(QLatin1Char(':')) == node.podCidr.isIPv4()) {
                m_result.notes << QStringLiteral(
                    "node %1 has no usable InternalIP for its pod network %2 (InternalIP %3): no route "
                    "can point at it, so its pods cannot be reached from other nodes")
                                      .arg(node.name, node.podCidrText,
                                          node.internalIp.isEmpty() ? QStringLiteral("absent")
                                                                    : quotedExcerpt(node.internalIp));
            }
        }
    }
}

void Detector::checkRoutes()
{
    const RouteAudit &audit = m_ctx->audit;
    const QList<RouteAudit::DestinationGroup> &groups = audit.klusterDestinations();
    for (int g = 0; g < groups.size(); ++g) {
        const std::optional<FindingKind> kind = m_ctx->routeFindingKind(g);
        if (!kind)
            continue;
        FindingFacts facts;
        facts.destinationGroup = g;
        facts.routeEntry = groups.at(g).entries.first();
        m_result.findings.append(make(*kind, m_ctx->routeSubject(g), std::move(facts)));
    }

    if (m_state.nodesSource.known) {
        const QList<RouteAudit::Entry> &entries = audit.entries();
        for (int e = 0; e < entries.size(); ++e) {
            if (!(entries.at(e).roles & RouteAudit::Missing))
                continue;
            FindingFacts facts;
            facts.routeEntry = e;
            m_result.findings.append(
                make(FindingKind::RouteMissing, entries.at(e).destinationNode, std::move(facts)));
        }
    }

    const int limit = m_ctx->routeLimit;
    const int count = audit.routeCount();
    if (limit <= 0 && routeLimitDisproved(m_state, m_ctx->options))
        m_result.notDiagnosed << QStringLiteral(
            "route-limit: router %1 holds %2 routes, more than the %3 assumed without a known limit: its "
            "limit "
            "is not known (give it with --route-limit, or as the snapshot's maxRoutes)")
                                     .arg(m_state.router.name.isEmpty() ? m_state.router.id
                                                                        : m_state.router.name)
                                     .arg(count)
                                     .arg(m_ctx->options.routeLimit);
    const int missing = m_state.nodesSource.known ? audit.missingCount() : 0;
    const bool atLimit = count >= limit;
    const bool wouldNotFit = count + missing > limit;
    const bool nearLimit = qint64(count) * 100 >= qint64(limit) * m_ctx->options.routeWarningPercent;
    if (limit > 0 && (atLimit || wouldNotFit || nearLimit)) {
        FindingFacts facts;
        facts.routesOverflow = atLimit || wouldNotFit;
        m_result.findings.append(make(FindingKind::RouteLimit, m_state.router.id, std::move(facts)));
    }
}

// port-address-pair-missing: only where the cloud has the extension and the ports are known (the port list is
// optional), for each kluster node with a pod network whose own port (its instance's, holding its InternalIP)
// filters spoofed traffic.
void Detector::checkPorts()
{
    if (!m_state.portsSource.known || !m_state.portsSource.incomplete.isEmpty()
        || !m_state.hasExtension("allowed-address-pairs") || !m_state.nodesSource.known
        || !m_state.serversSource.known)
        return;
    for (int i : m_ctx->index.klusterInstances()) {
        const int n = m_ctx->index.nodeOfInstance(i);
        if (n < 0)
            continue;
        const Node &node = m_state.nodes.at(n);
        const QString ip = canonicalAddress(node.internalIp);
        if (!node.podCidr.isValid() || ip.isEmpty())
            continue;
        for (const int p : m_ctx->index.project().portsOf(m_state.instances.at(i).id)) {
            const Port &port = m_state.ports.at(p);
            const bool holdsIp = std::any_of(port.fixedIps.cbegin(), port.fixedIps.cend(),
                [&ip, &node](const QString &a) { return a == node.internalIp || canonicalAddress(a) == ip; });
            if (!holdsIp)
                continue;
            if (port.portSecurityEnabled.value_or(false)
                && !PortFindings::pairsCover(port.allowedAddressPairs, node.podCidr)) {
                FindingFacts facts;
                facts.instance = i;
                facts.node = n;
                facts.port = p;
                m_result.findings.append(
                    make(FindingKind::PortAddressPairMissing, node.name, std::move(facts)));
            }
            break;
        }
    }
}

// Every kind's rule declares the sources it judges from (findingTraits): a finding that rests on a source not
// known, or not whole where the rule needs it whole, is not reported but listed as not diagnosed. Decided
// here, once, for the console and the command line alike; the rules above skip what they cannot judge, and
// this is what holds should one of them not.
void Detector::dropUnjudged()
{
    const Knowledge knowledge(m_state);
    QList<FindingKind> dropped;
    m_result.findings.removeIf([&](const Finding &f) {
        if (knowledge.judges(f.kind))
            return false;
        if (!dropped.contains(f.kind))
            dropped << f.kind;
        return true;
    });
    for (const FindingKind kind : std::as_const(dropped)) {
        const Source source = *knowledge.stops(kind);
        m_result.notDiagnosed
            << QStringLiteral("%1: the %2 %3")
                   .arg(findingTraits(kind).name, Sources::name(source),
                       knowledge.known(source)
                           ? QStringLiteral("came back incomplete (%1)").arg(knowledge.why(source))
                           : QStringLiteral("could not be read (%1)").arg(knowledge.why(source)));
    }
}

Diagnosis Detector::run()
{
    m_result.budget = RemediationBudget::compute(m_state, m_ctx->options);
    m_result.routeLimit = m_ctx->routeLimit;
    auto skip = [this](const SourceStatus &source, const QString &what, const QString &name) {
        if (source.known)
            return false;
        m_result.notDiagnosed << QStringLiteral("%1: %2 could not be read (%3)")
                                     .arg(what, name,
                                         source.error.isEmpty() ? QStringLiteral("unknown error")
                                                                : source.error);
        return true;
    };
    if (skip(m_state.klusterSource, QStringLiteral("everything"), QStringLiteral("the kluster")))
        return m_result;

    m_result.findings.reserve(m_state.nodes.size() + m_ctx->index.klusterInstances().size() / 8 + 16);
    if (!skip(m_state.securityGroupsSource, QStringLiteral("security groups and memberships"),
            QStringLiteral("the security groups")))
        checkSecurityGroups();
    if (!skip(m_state.serversSource, QStringLiteral("instances and orphaned routes"),
            QStringLiteral("the servers")))
        checkInstances();
    if (!m_state.serversSource.incomplete.isEmpty())
        m_result.notes << QStringLiteral(
            "the server list is incomplete (%1): no route is removed as orphaned while it is")
                              .arg(m_state.serversSource.incomplete);
    if (!skip(m_state.nodesSource, QStringLiteral("nodes, unregistered instances, stale and missing routes"),
            QStringLiteral("the nodes")))
        checkNodes();
    if (!skip(m_state.routerSource, QStringLiteral("routes"), QStringLiteral("the router")))
        checkRoutes();
    if (m_state.portsSource.known)
        checkPorts();
    else if (!m_state.portsSource.error.isEmpty())
        m_result.notDiagnosed << QStringLiteral("allowed address pairs: the ports could not be read (%1)")
                                     .arg(m_state.portsSource.error);

    dropUnjudged();
    std::sort(m_result.findings.begin(), m_result.findings.end(), findingLessThan);
    m_result.incidents = Incidents::find(m_result.findings, *m_ctx);
    for (const Incident &i : std::as_const(m_result.incidents)) {
        if (!i.zone().isEmpty())
            m_result.budget.disruptedZones << i.zone();
    }
    return m_result;
}

} // namespace

Diagnosis Diagnosis::run(const KlusterState &state, const DiagnosisOptions &options)
{
    Detector detector(std::make_shared<DiagnosisContext>(state, options));
    return detector.run();
}
