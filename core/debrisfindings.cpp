// volume-orphaned, volume-stuck, loadbalancer-orphaned, loadbalancer-stuck: what a terminated kluster leaves
// behind (diagnosis.md §9).

#include "core/debrisfindings.h"

#include "core/apiparser.h"
#include "core/debris.h"
#include "core/detection.h"
#include "core/diagnosis.h"
#include "core/diagnosiscontext.h"
#include "core/repairplanner.h"

#include <QJsonArray>

namespace DebrisFindings {

namespace {

bool deleting(const Volume &v)
{
    return v.status == QLatin1String("deleting") || v.status == QLatin1String("error_deleting");
}

// How long it has been as it is: since its last update (or its creation, never updated).
qint64 ageInStatus(const QDateTime &capturedAt, const QDateTime &created, const QDateTime &updated)
{
    const QDateTime since = updated.isValid() ? updated : created;
    return since.isValid() ? qMax<qint64>(0, since.secsTo(capturedAt)) : -1;
}

QString sizeText(const Volume &v)
{
    return v.sizeGb > 0 ? QStringLiteral("%1 GB").arg(v.sizeGb) : QStringLiteral("size unknown");
}

// "the claim default/data (PersistentVolume pv-1)", or what is known of it.
QString claimText(const Volume &v)
{
    if (v.pvcName.isEmpty())
        return v.pvName.isEmpty() ? QStringLiteral("a PersistentVolume")
                                  : QStringLiteral("PersistentVolume %1").arg(v.pvName);
    return QStringLiteral("the claim %1/%2%3")
        .arg(v.pvcNamespace, v.pvcName,
            v.pvName.isEmpty() ? QString() : QStringLiteral(" (PersistentVolume %1)").arg(v.pvName));
}

QString volumeText(const Volume &v)
{
    return v.name.isEmpty() ? v.id : QStringLiteral("%1 (%2)").arg(v.name, v.id);
}

QString loadBalancerText(const LoadBalancer &lb)
{
    return lb.name.isEmpty() ? lb.id : QStringLiteral("%1 (%2)").arg(lb.name, lb.id);
}

QJsonValue timestampOrNull(const QDateTime &t)
{
    return t.isValid() ? QJsonValue(ApiParser::formatTimestamp(t)) : QJsonValue();
}

QJsonObject klusterEvidence(const DiagnosisContext &c)
{
    return QJsonObject { { QStringLiteral("name"), c.state.kluster.name },
        { QStringLiteral("gone"), c.state.kluster.gone },
        { QStringLiteral("lastSeen"), timestampOrNull(c.state.kluster.lastSeen) },
        { QStringLiteral("phase"), stringOrNull(c.state.kluster.phase) } };
}

} // namespace

bool whyNot(const KlusterState &state, const QString &findingId, Refusal *reason, QString *detail)
{
    const QString kind = findingId.section(QLatin1Char(':'), 0, 0);
    const QString id = findingId.section(QLatin1Char(':'), 1);
    const bool volume = kind == QLatin1String("volume-orphaned") || kind == QLatin1String("volume-stuck");
    const bool loadBalancer
        = kind == QLatin1String("loadbalancer-orphaned") || kind == QLatin1String("loadbalancer-stuck");
    if (!volume && !loadBalancer)
        return false;
    const KlusterPhase phase = KlusterPhases::of(state.kluster);
    const bool live = phase != KlusterPhase::Gone && phase != KlusterPhase::Terminating;
    const QString liveText
        = QStringLiteral("kluster %1 exists and is not Terminating (%2): what it holds is its own")
              .arg(state.kluster.name,
                  state.kluster.phase.isEmpty() ? QStringLiteral("no phase") : state.kluster.phase);
    if (volume) {
        for (const Volume &v : state.volumes) {
            if (v.id != id)
                continue;
            if (v.attached()) {
                *reason = Refusal::Attached;
                *detail = QStringLiteral("volume %1 is attached to server %2: something uses it")
                              .arg(id, v.attachedTo.join(QStringLiteral(", ")));
            } else if (live) {
                *reason = Refusal::KlusterLive;
                *detail = liveText;
            } else {
                *reason = Refusal::None;
                *detail = QStringLiteral("volume %1 is %2 (updated %3): not %4")
                              .arg(id, v.status,
                                  v.updatedAt.isValid() ? ApiParser::formatTimestamp(v.updatedAt)
                                                        : QStringLiteral("never"),
                                  kind);
            }
            return true;
        }
        return false;
    }
    for (const LoadBalancer &lb : state.loadBalancers) {
        if (lb.id != id)
            continue;
        if (live) {
            *reason = Refusal::KlusterLive;
            *detail = liveText;
        } else {
            *reason = Refusal::None;
            *detail = QStringLiteral("load balancer %1 is %2: not %3").arg(id, lb.provisioningStatus, kind);
        }
        return true;
    }
    return false;
}

QString leftBy(const DiagnosisContext &c)
{
    const Kluster &k = c.state.kluster;
    if (k.gone)
        return k.lastSeen.isValid()
            ? QStringLiteral("kluster %1, gone since %2 (last seen %3 ago)")
                  .arg(k.name, ApiParser::formatTimestamp(k.lastSeen),
                      formatDuration(k.lastSeen.secsTo(c.state.capturedAt)))
            : QStringLiteral("kluster %1, gone (Kubernikus no longer has it; this desktop's history has not "
                             "seen it)")
                  .arg(k.name);
    return QStringLiteral("kluster %1, Terminating").arg(k.name);
}

void detect(Detection &d)
{
    const KlusterPhase phase = d.ctx->phase;
    if (phase != KlusterPhase::Terminating && phase != KlusterPhase::Gone)
        return; // a live kluster's volumes and load balancers are its own
    const KlusterState &s = d.state;
    const bool gone = phase == KlusterPhase::Gone;
    // How long it has been Terminating (kluster-terminating's, from the history): -1 when not known.
    qint64 terminating = -1;
    for (const Finding &f : std::as_const(d.result.findings)) {
        if (f.kind == FindingKind::KlusterTerminating)
            terminating = f.facts.forSeconds;
    }
    if (s.volumesSource.known) {
        for (int i = 0; i < s.volumes.size(); ++i) {
            const Volume &v = s.volumes.at(i);
            if (!Debris::madeFor(v, s.kluster.name, s.kluster.projectId))
                continue;
            FindingFacts facts;
            facts.volume = i;
            if (deleting(v)) {
                facts.forSeconds = ageInStatus(s.capturedAt, v.createdAt, v.updatedAt);
                if (facts.forSeconds < StuckSeconds)
                    continue; // the deletion may still be going on
                facts.holdsTerminating = !gone;
                d.result.findings.append(d.make(FindingKind::VolumeStuck, v.id, facts));
            } else if (v.status == QLatin1String("available") && !v.attached()
                && (gone || terminating >= OrphanedAfterTerminatingSeconds)) {
                facts.forSeconds = terminating;
                d.result.findings.append(d.make(FindingKind::VolumeOrphaned, v.id, facts));
            }
        }
    }
    if (s.loadBalancersSource.known) {
        for (int i = 0; i < s.loadBalancers.size(); ++i) {
            const LoadBalancer &lb = s.loadBalancers.at(i);
            if (!Debris::madeFor(lb, s.kluster.name))
                continue;
            FindingFacts facts;
            facts.loadBalancer = i;
            const QString &status = lb.provisioningStatus;
            facts.forSeconds = ageInStatus(s.capturedAt, lb.createdAt, lb.updatedAt);
            if (status == QLatin1String("ERROR")
                || (status == QLatin1String("PENDING_DELETE") && facts.forSeconds >= StuckSeconds))
                d.result.findings.append(d.make(FindingKind::LoadBalancerStuck, lb.id, facts));
            else if (gone && !status.startsWith(QLatin1String("PENDING_")))
                d.result.findings.append(d.make(FindingKind::LoadBalancerOrphaned, lb.id, facts));
        }
    }
}

Severity volumeStuckSeverity(const FindingFacts &facts)
{
    return facts.holdsTerminating ? Severity::Critical : Severity::Warning;
}

QString volumeOrphanedMessage(const DiagnosisContext &c, const Finding &f)
{
    const Volume &v = c.state.volumes.at(f.facts.volume);
    return QStringLiteral(
        "Volume %1 (%2, available, attached to nothing) was made for %3 of %4: nothing uses "
        "it, and it costs quota and money until it is deleted. Delete it (its data go with "
        "it).")
        .arg(volumeText(v), sizeText(v), claimText(v), leftBy(c));
}

QString volumeStuckMessage(const DiagnosisContext &c, const Finding &f)
{
    const Volume &v = c.state.volumes.at(f.facts.volume);
    const QString holds = f.facts.holdsTerminating
        ? QStringLiteral(" It holds kluster %1 in Terminating: the deorbiter waits for it to go.")
              .arg(c.state.kluster.name)
        : QString();
    return QStringLiteral("Volume %1 (%2, of %3) has been %4 for %5: Cinder did not finish deleting it.%6 "
                          "Resetting its status needs an admin: `cinder reset-state --state error %7`, then "
                          "delete it again.")
        .arg(
            volumeText(v), sizeText(v), leftBy(c), v.status, formatDuration(f.facts.forSeconds), holds, v.id);
}

QString loadBalancerOrphanedMessage(const DiagnosisContext &c, const Finding &f)
{
    const LoadBalancer &lb = c.state.loadBalancers.at(f.facts.loadBalancer);
    const std::optional<ServiceRef> service = Debris::serviceOf(lb);
    return QStringLiteral("Load balancer %1 (%2, VIP %3) was made for the Service %4/%5 of %6: nothing "
                          "routes to it any more, and it holds a VIP and costs money until it is deleted. "
                          "Delete it with its listeners and pools (cascade).")
        .arg(loadBalancerText(lb), lb.provisioningStatus,
            lb.vipAddress.isEmpty() ? QStringLiteral("unknown") : lb.vipAddress,
            service ? service->nameSpace : QString(),
            service && !service->service.isEmpty() ? service->service : QStringLiteral("…"), leftBy(c));
}

QString loadBalancerStuckMessage(const DiagnosisContext &c, const Finding &f)
{
    const LoadBalancer &lb = c.state.loadBalancers.at(f.facts.loadBalancer);
    if (lb.provisioningStatus == QLatin1String("ERROR"))
        return QStringLiteral("Load balancer %1 of %2 is in ERROR (since %3): Octavia could not build or "
                              "delete it, and nothing else will. Delete it with cascade.")
            .arg(loadBalancerText(lb), leftBy(c), formatDuration(f.facts.forSeconds));
    return QStringLiteral("Load balancer %1 of %2 has been PENDING_DELETE for %3: Octavia's worker did not "
                          "finish deleting it, and Octavia refuses every change while it is pending. An "
                          "Octavia operator must set it to ERROR in Octavia's database, then delete it: "
                          "`openstack loadbalancer delete --cascade %4`.")
        .arg(loadBalancerText(lb), leftBy(c), formatDuration(f.facts.forSeconds), lb.id);
}

QJsonObject volumeEvidence(const DiagnosisContext &c, const Finding &f)
{
    const Volume &v = c.state.volumes.at(f.facts.volume);
    QJsonArray attachedTo;
    for (const QString &server : v.attachedTo)
        attachedTo.append(server);
    return QJsonObject {
        { QStringLiteral("volume"),
            QJsonObject { { QStringLiteral("id"), v.id }, { QStringLiteral("name"), stringOrNull(v.name) },
                { QStringLiteral("status"), v.status }, { QStringLiteral("sizeGb"), v.sizeGb },
                { QStringLiteral("attachedTo"), attachedTo }, { QStringLiteral("cluster"), v.cluster },
                { QStringLiteral("persistentVolume"), stringOrNull(v.pvName) },
                { QStringLiteral("claim"),
                    v.pvcName.isEmpty() ? QJsonValue()
                                        : QJsonValue(v.pvcNamespace + QLatin1Char('/') + v.pvcName) },
                { QStringLiteral("createdAt"), timestampOrNull(v.createdAt) },
                { QStringLiteral("updatedAt"), timestampOrNull(v.updatedAt) } } },
        { QStringLiteral("kluster"), klusterEvidence(c) },
        { QStringLiteral("forSeconds"),
            f.facts.forSeconds < 0 ? QJsonValue() : QJsonValue(f.facts.forSeconds) }
    };
}

QJsonObject loadBalancerEvidence(const DiagnosisContext &c, const Finding &f)
{
    const LoadBalancer &lb = c.state.loadBalancers.at(f.facts.loadBalancer);
    const std::optional<ServiceRef> service = Debris::serviceOf(lb);
    return QJsonObject {
        { QStringLiteral("loadBalancer"),
            QJsonObject { { QStringLiteral("id"), lb.id }, { QStringLiteral("name"), stringOrNull(lb.name) },
                { QStringLiteral("provisioningStatus"), lb.provisioningStatus },
                { QStringLiteral("operatingStatus"), stringOrNull(lb.operatingStatus) },
                { QStringLiteral("vipAddress"), stringOrNull(lb.vipAddress) },
                { QStringLiteral("service"),
                    service ? QJsonValue(service->nameSpace + QLatin1Char('/') + service->service)
                            : QJsonValue() },
                { QStringLiteral("createdAt"), timestampOrNull(lb.createdAt) },
                { QStringLiteral("updatedAt"), timestampOrNull(lb.updatedAt) } } },
        { QStringLiteral("kluster"), klusterEvidence(c) },
        { QStringLiteral("forSeconds"),
            f.facts.forSeconds < 0 ? QJsonValue() : QJsonValue(f.facts.forSeconds) }
    };
}

// Never anything of a kluster that exists and is not Terminating, never an attached volume (diagnosis.md §9):
// said by the plan itself, whatever found it.
static void refuseUnsafe(const DiagnosisContext &c, const QStringList &attachedTo, RepairPlan &plan)
{
    if (c.phase != KlusterPhase::Gone && c.phase != KlusterPhase::Terminating) {
        plan.refusal = Refusal::KlusterLive;
        plan.refusalDetail
            = QStringLiteral("kluster %1 exists and is not Terminating: what it holds is its own")
                  .arg(c.state.kluster.name);
    } else if (!attachedTo.isEmpty()) {
        plan.refusal = Refusal::Attached;
        plan.refusalDetail = QStringLiteral("the volume is attached to server %1: something uses it")
                                 .arg(attachedTo.join(QStringLiteral(", ")));
    }
}

std::optional<RepairPlan> deleteVolume(const DiagnosisContext &c, const Finding &f)
{
    const Volume &v = c.state.volumes.at(f.facts.volume);
    RepairPlan plan = RepairPlanner::deleteVolume(v, c.state.kluster.name);
    refuseUnsafe(c, v.attachedTo, plan);
    return plan;
}

std::optional<RepairPlan> resetAndDeleteVolume(const DiagnosisContext &c, const Finding &f)
{
    const Volume &v = c.state.volumes.at(f.facts.volume);
    RepairPlan plan = RepairPlanner::resetAndDeleteVolume(v, c.state.kluster.name);
    refuseUnsafe(c, v.attachedTo, plan);
    return plan;
}

std::optional<RepairPlan> deleteLoadBalancer(const DiagnosisContext &c, const Finding &f)
{
    const LoadBalancer &lb = c.state.loadBalancers.at(f.facts.loadBalancer);
    // Octavia changes nothing while a load balancer is pending: one stuck deleting is an operator's.
    if (lb.provisioningStatus == QLatin1String("PENDING_DELETE"))
        return std::nullopt;
    RepairPlan plan = RepairPlanner::deleteLoadBalancer(lb, c.state.kluster.name);
    refuseUnsafe(c, {}, plan);
    return plan;
}

AffectedObjects affectedVolume(const DiagnosisContext &c, const Finding &f)
{
    AffectedObjects a;
    a.volumes << c.state.volumes.at(f.facts.volume).id;
    return a;
}

AffectedObjects affectedLoadBalancer(const DiagnosisContext &c, const Finding &f)
{
    AffectedObjects a;
    a.loadBalancers << c.state.loadBalancers.at(f.facts.loadBalancer).id;
    return a;
}

} // namespace DebrisFindings
