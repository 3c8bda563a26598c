// kluster-terminating: a kluster that is going away (diagnosis.md §7).

#include "core/klusterfindings.h"

#include "core/apiparser.h"
#include "core/detection.h"
#include "core/diagnosis.h"
#include "core/diagnosiscontext.h"

namespace KlusterFindings {

bool detectTerminating(Detection &d)
{
    if (d.ctx->phase != KlusterPhase::Terminating)
        return false;
    FindingFacts facts;
    const QString id = Finding::idOf(FindingKind::KlusterTerminating, d.state.kluster.name);
    // Since when: the local history's first sighting of this finding (Kubernikus' kluster says no time).
    if (const QDateTime since = d.state.findingsSince.value(id); since.isValid())
        facts.forSeconds = qMax<qint64>(0, since.secsTo(d.state.capturedAt));
    d.result.findings.append(d.make(FindingKind::KlusterTerminating, d.state.kluster.name, facts));
    return true;
}

Severity terminatingSeverity(const FindingFacts &facts)
{
    if (facts.forSeconds >= GaveUpSeconds)
        return Severity::Critical;
    return facts.forSeconds >= WaitingSeconds ? Severity::Warning : Severity::Info;
}

QString terminatingMessage(const DiagnosisContext &c, const Finding &f)
{
    const QString name = c.state.kluster.name;
    const qint64 age = f.facts.forSeconds;
    const QString tail = QStringLiteral(
        " Its other findings are not shown, and nothing of it is repaired: Kubernikus is tearing it down.");
    if (age < 0)
        return QStringLiteral(
                   "Kluster %1 is Terminating (since when is not known: the local history has not seen it "
                   "before). Kubernikus' deorbiter deletes its volumes and load balancers, then its nodes.")
                   .arg(name)
            + tail;
    if (age >= GaveUpSeconds)
        return QStringLiteral(
                   "Kluster %1 has been Terminating for %2: the deorbiter gave up after 24 h, so debris may "
                   "be left in project %3: volumes, load balancers, routes to %4, the security group %5. "
                   "Look for them before the project is reused.")
                   .arg(name, formatDuration(age), c.state.kluster.projectId, c.state.kluster.clusterCidrText,
                       c.state.kluster.securityGroupName)
            + tail;
    if (age >= WaitingSeconds)
        return QStringLiteral(
                   "Kluster %1 has been Terminating for %2: the deorbiter is waiting for volumes and load "
                   "balancers (a PersistentVolume whose Cinder volume is still there, a LoadBalancer "
                   "Service whose load balancer is not deleted). Look at what holds them.")
                   .arg(name, formatDuration(age))
            + tail;
    return QStringLiteral(
               "Kluster %1 has been Terminating for %2: Kubernikus' deorbiter deletes its volumes and load "
               "balancers, then its nodes.")
               .arg(name, formatDuration(age))
        + tail;
}

QJsonObject terminatingEvidence(const DiagnosisContext &c, const Finding &f)
{
    int instances = c.index.klusterInstances().size();
    return QJsonObject { { QStringLiteral("phase"), c.state.kluster.phase },
        { QStringLiteral("since"),
            f.facts.forSeconds < 0
                ? QJsonValue()
                : QJsonValue(ApiParser::formatTimestamp(c.state.capturedAt.addSecs(-f.facts.forSeconds))) },
        { QStringLiteral("forSeconds"),
            f.facts.forSeconds < 0 ? QJsonValue() : QJsonValue(f.facts.forSeconds) },
        { QStringLiteral("instances"), c.state.serversSource.known ? QJsonValue(instances) : QJsonValue() },
        { QStringLiteral("nodes"),
            c.state.nodesSource.known ? QJsonValue(int(c.state.nodes.size())) : QJsonValue() } };
}

} // namespace KlusterFindings
