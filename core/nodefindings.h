#pragma once

#include "core/finding.h"

class DiagnosisContext;

// The node findings: node-not-ready and node-network-unavailable (no repair of
// their own), and node-without-instance (delete the node object); their
// entries are in core/findingtraits.cpp.
namespace NodeFindings {

QString notReadyMessage(const DiagnosisContext &c, const Finding &f);
QString networkUnavailableMessage(const DiagnosisContext &c, const Finding &f);

QString ghostMessage(const DiagnosisContext &c, const Finding &f);
Severity ghostSeverity(const FindingFacts &facts); // critical when the router routes its pod CIDR to it
QJsonObject evidence(const DiagnosisContext &c, const Finding &f);
QJsonObject ghostEvidence(const DiagnosisContext &c, const Finding &f);
std::optional<RepairPlan> deleteNode(const DiagnosisContext &c, const Finding &f);
AffectedObjects affected(const DiagnosisContext &c, const Finding &f);

} // namespace NodeFindings
