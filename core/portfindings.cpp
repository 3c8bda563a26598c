// The words, evidence, repair and affected objects of port-address-pair-missing.

#include "core/portfindings.h"

#include "core/detection.h"
#include "core/diagnosiscontext.h"
#include "core/repairplanner.h"

#include <QJsonArray>

namespace PortFindings {

bool pairsCover(const QList<AddressPair> &pairs, const Cidr &podCidr)
{
    for (const AddressPair &p : pairs) {
        const QString &text = p.ipAddress;
        const Cidr pair = text.contains(QLatin1Char('/'))
            ? Cidr::parse(text)
            : Cidr::parse(
                text + (text.contains(QLatin1Char(':')) ? QStringLiteral("/128") : QStringLiteral("/32")));
        if (pair.isValid() && pair.contains(podCidr))
            return true;
    }
    return false;
}

static QString pairsText(const Port &port)
{
    QStringList pairs;
    for (const AddressPair &p : port.allowedAddressPairs)
        pairs << p.ipAddress;
    return pairs.isEmpty() ? QStringLiteral("none") : pairs.join(QStringLiteral(", "));
}

QString pairMissingMessage(const DiagnosisContext &c, const Finding &f)
{
    const Node &node = c.state.nodes.at(f.facts.node);
    const Port &port = c.state.ports.at(f.facts.port);
    return QStringLiteral(
        "Node %1's port %2 (%3) does not allow its pod network %4 (allowed address pairs: %5): Neutron drops "
        "the traffic of the node's pods as spoofed (sporadic pod, service, load balancer and DNS failures), "
        "and the route controller treats the node's route as absent. The cloud provider's update of the "
        "port was lost; add the pod network to the port's allowed address pairs.")
        .arg(node.name, port.id, node.internalIp, node.podCidrText, pairsText(port));
}

QJsonObject pairMissingEvidence(const DiagnosisContext &c, const Finding &f)
{
    const Node &node = c.state.nodes.at(f.facts.node);
    const Port &port = c.state.ports.at(f.facts.port);
    const QJsonArray pairs = addressPairsJson(port.allowedAddressPairs);
    return QJsonObject { { QStringLiteral("node"), node.name },
        { QStringLiteral("instanceId"),
            f.facts.instance >= 0 ? c.state.instances.at(f.facts.instance).id : QString() },
        { QStringLiteral("internalIP"), node.internalIp }, { QStringLiteral("podCIDR"), node.podCidrText },
        { QStringLiteral("portId"), port.id }, { QStringLiteral("port_security_enabled"), true },
        { QStringLiteral("allowed_address_pairs"), pairs },
        { QStringLiteral("revision_number"),
            port.revision >= 0 ? QJsonValue(port.revision) : QJsonValue() } };
}

std::optional<RepairPlan> addPair(const DiagnosisContext &c, const Finding &f)
{
    const Node &node = c.state.nodes.at(f.facts.node);
    RepairPlan plan = RepairPlanner::addAddressPair(
        c.state.ports.at(f.facts.port), node.podCidrText, c.state.hasExtension("revision-if-match"));
    plan.nodeName = node.name;
    if (f.facts.instance >= 0) {
        plan.instanceId = c.state.instances.at(f.facts.instance).id;
        plan.instanceName = c.state.instances.at(f.facts.instance).name;
    }
    return plan;
}

AffectedObjects affectedNodeAndInstance(const DiagnosisContext &c, const Finding &f)
{
    AffectedObjects a;
    a.nodes << c.state.nodes.at(f.facts.node).name;
    if (f.facts.instance >= 0)
        a.instances << c.state.instances.at(f.facts.instance).name;
    return a;
}

// port-address-pair-missing: only where the cloud has the extension and the ports are known (the port list is
// optional), for each kluster node with a pod network whose own port (its instance's, holding its InternalIP)
// filters spoofed traffic.
void detect(Detection &d)
{
    if (!d.state.portsSource.known || !d.state.portsSource.incomplete.isEmpty()
        || !d.state.hasExtension("allowed-address-pairs") || !d.state.nodesSource.known
        || !d.state.serversSource.known)
        return;
    for (int i : d.ctx->index.klusterInstances()) {
        const int n = d.ctx->index.nodeOfInstance(i);
        if (n < 0)
            continue;
        const Node &node = d.state.nodes.at(n);
        const QString ip = canonicalAddress(node.internalIp);
        if (!node.podCidr.isValid() || ip.isEmpty())
            continue;
        for (const int p : d.ctx->index.project().portsOf(d.state.instances.at(i).id)) {
            const Port &port = d.state.ports.at(p);
            const bool holdsIp = std::any_of(port.fixedIps.cbegin(), port.fixedIps.cend(),
                [&ip, &node](const QString &a) { return a == node.internalIp || canonicalAddress(a) == ip; });
            if (!holdsIp)
                continue;
            if (port.portSecurityEnabled.value_or(false)
                && !pairsCover(port.allowedAddressPairs, node.podCidr)) {
                FindingFacts facts;
                facts.instance = i;
                facts.node = n;
                facts.port = p;
                d.result.findings.append(
                    d.make(FindingKind::PortAddressPairMissing, node.name, std::move(facts)));
            }
            break;
        }
    }
}

} // namespace PortFindings
