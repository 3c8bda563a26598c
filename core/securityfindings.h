#pragma once

#include "core/finding.h"

class DiagnosisContext;

// The security group findings: security-group-missing and
// security-group-rule-missing (their entries in core/findingtraits.cpp).
namespace SecurityFindings {

QString groupMissingMessage(const DiagnosisContext &c, const Finding &f);
QString ruleMissingMessage(const DiagnosisContext &c, const Finding &f);

QJsonObject groupMissingEvidence(const DiagnosisContext &c, const Finding &f);
QJsonObject ruleMissingEvidence(const DiagnosisContext &c, const Finding &f);

std::optional<RepairPlan> createRule(const DiagnosisContext &c, const Finding &f);

AffectedObjects affectedGroup(const DiagnosisContext &c, const Finding &f);

} // namespace SecurityFindings
