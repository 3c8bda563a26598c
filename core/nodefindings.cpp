// The words, evidence and affected objects of the node findings.

#include "core/nodefindings.h"

#include "core/apiparser.h"
#include "core/diagnosiscontext.h"

#include <QJsonArray>

namespace NodeFindings {

static QJsonObject nodeJson(const DiagnosisContext &c, const Node &node)
{
    QJsonArray conditions;
    for (const NodeCondition &cond : node.conditions) {
        conditions.append(
            QJsonObject { { QStringLiteral("type"), cond.type }, { QStringLiteral("status"), cond.status },
                { QStringLiteral("reason"), stringOrNull(cond.reason) },
                { QStringLiteral("message"), stringOrNull(cond.message) } });
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

QString notReadyMessage(const DiagnosisContext &c, const Finding &f)
{
    const Node &node = c.state.nodes.at(f.facts.node);
    const NodeCondition *ready = node.condition(QStringLiteral("Ready"));
    if (!ready) {
        return QStringLiteral(
            "Node %1 reports no Ready condition: the kubelet has not posted its status yet. "
            "Look at the kubelet on the instance.")
            .arg(node.name);
    }
    return QStringLiteral(
        "Node %1 is not Ready (Ready=%2%3%4). Look at the kubelet and the container runtime on "
        "the instance; there is no automatic repair.")
        .arg(node.name, ready->status,
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
        "Node %1 has NetworkUnavailable=True%2: the route controller could not set up its pod "
        "network route. Check the router's routes and its route limit.")
        .arg(node.name, why);
}

QJsonObject evidence(const DiagnosisContext &c, const Finding &f)
{
    return QJsonObject { { QStringLiteral("node"), nodeJson(c, c.state.nodes.at(f.facts.node)) } };
}

AffectedObjects affected(const DiagnosisContext &c, const Finding &f)
{
    AffectedObjects a;
    a.nodes << c.state.nodes.at(f.facts.node).name;
    return a;
}

} // namespace NodeFindings
