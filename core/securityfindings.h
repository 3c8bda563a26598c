#pragma once

#include "core/finding.h"

class DiagnosisContext;

// The security group findings: security-group-missing and
// security-group-rule-missing (their entries in core/findingtraits.cpp).
struct Detection;

namespace SecurityFindings {

// Its rules: which of its findings exist in the diagnosis being made (core/diagnosis.cpp calls it once the
// sources it needs were read).
void detect(Detection &d);

QString groupMissingMessage(const DiagnosisContext &c, const Finding &f);
QString ruleMissingMessage(const DiagnosisContext &c, const Finding &f);

QJsonObject groupMissingEvidence(const DiagnosisContext &c, const Finding &f);
QJsonObject ruleMissingEvidence(const DiagnosisContext &c, const Finding &f);

std::optional<RepairPlan> createRule(const DiagnosisContext &c, const Finding &f);

AffectedObjects affectedGroup(const DiagnosisContext &c, const Finding &f);

} // namespace SecurityFindings
