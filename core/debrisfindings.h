#pragma once

#include "core/finding.h"
#include "core/klusterstate.h"

class DiagnosisContext;
struct Detection;

// What a terminated kluster leaves behind (diagnosis.md §9): volume-orphaned, volume-stuck,
// loadbalancer-orphaned and loadbalancer-stuck (their entries in core/findingtraits.cpp). Derived only for a
// kluster that is Terminating or gone: a live kluster's volumes and load balancers are its own.
namespace DebrisFindings {

// A volume or load balancer in a deleting status for longer than this is stuck.
inline constexpr qint64 StuckSeconds = 10 * 60;
// A Terminating kluster's available volumes are orphaned after this (the deorbiter deletes them before).
inline constexpr qint64 OrphanedAfterTerminatingSeconds = 60 * 60;
// At most this many deletions of debris in one confirmation.
inline constexpr int MaxDeletions = 10;

void detect(Detection &d);

Severity volumeStuckSeverity(const FindingFacts &facts);
QString volumeOrphanedMessage(const DiagnosisContext &c, const Finding &f);
QString volumeStuckMessage(const DiagnosisContext &c, const Finding &f);
QString loadBalancerOrphanedMessage(const DiagnosisContext &c, const Finding &f);
QString loadBalancerStuckMessage(const DiagnosisContext &c, const Finding &f);
QJsonObject volumeEvidence(const DiagnosisContext &c, const Finding &f);
QJsonObject loadBalancerEvidence(const DiagnosisContext &c, const Finding &f);
std::optional<RepairPlan> deleteVolume(const DiagnosisContext &c, const Finding &f);
std::optional<RepairPlan> resetAndDeleteVolume(const DiagnosisContext &c, const Finding &f);
std::optional<RepairPlan> deleteLoadBalancer(const DiagnosisContext &c, const Finding &f);
AffectedObjects affectedVolume(const DiagnosisContext &c, const Finding &f);
AffectedObjects affectedLoadBalancer(const DiagnosisContext &c, const Finding &f);

// Why a finding of what a kluster left behind, asked for by its id, is not one of the state's: the volume or
// load balancer is attached (Attached), or its kluster exists and is not Terminating (KlusterLive), or its
// status makes it none (None, with the status in `detail`). False when the id names no such finding kind, or
// no object of the state.
bool whyNot(const KlusterState &state, const QString &findingId, Refusal *reason, QString *detail);

// Who left it: "kluster retired, gone (last seen 3 d ago)", "kluster gone, Terminating for 2 h".
QString leftBy(const DiagnosisContext &c);

} // namespace DebrisFindings
