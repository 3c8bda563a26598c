#pragma once

#include "core/finding.h"

class DiagnosisContext;

// The node findings: node-not-ready and node-network-unavailable (no repair of
// their own), and node-without-instance (delete the node object); their
// entries are in core/findingtraits.cpp.
struct Detection;

namespace NodeFindings {

// Its rules: which of its findings exist in the diagnosis being made (core/diagnosis.cpp calls it once the
// sources it needs were read).
void detect(Detection &d);

QString notReadyMessage(const DiagnosisContext &c, const Finding &f);
// Kubernikus' servicing gives up on a node after this long (sapcc/kubernikus UpdateTimeout: 3 h 15 min).
inline constexpr qint64 ServicingTimeoutSeconds = 3 * 60 * 60 + 15 * 60;
// A warning; critical for a node being serviced past servicing's own timeout.
Severity notReadySeverity(const FindingFacts &facts);
QString networkUnavailableMessage(const DiagnosisContext &c, const Finding &f);

QString ghostMessage(const DiagnosisContext &c, const Finding &f);
Severity ghostSeverity(const FindingFacts &facts); // critical when the router routes its pod CIDR to it
QJsonObject evidence(const DiagnosisContext &c, const Finding &f);
QJsonObject ghostEvidence(const DiagnosisContext &c, const Finding &f);
std::optional<RepairPlan> deleteNode(const DiagnosisContext &c, const Finding &f);
AffectedObjects affected(const DiagnosisContext &c, const Finding &f);

} // namespace NodeFindings
