#pragma once

#include "core/finding.h"

class DiagnosisContext;

// The instance findings: instance-unregistered, instance-error, instance-stopped and
// instance-missing-security-group (their entries in core/findingtraits.cpp).
struct Detection;

namespace InstanceFindings {

// Its rules: which of its findings exist in the diagnosis being made (core/diagnosis.cpp calls it once the
// sources it needs were read).
void detect(Detection &d);

Severity unregisteredSeverity(const FindingFacts &facts); // critical once its bootstrap token expired
Severity stoppedSeverity(const FindingFacts &facts); // critical when it has a node (a node lost)

QString unregisteredMessage(const DiagnosisContext &c, const Finding &f);
QString errorMessage(const DiagnosisContext &c, const Finding &f);
QString missingGroupMessage(const DiagnosisContext &c, const Finding &f);
QString stoppedMessage(const DiagnosisContext &c, const Finding &f);

QJsonObject unregisteredEvidence(const DiagnosisContext &c, const Finding &f);
QJsonObject errorEvidence(const DiagnosisContext &c, const Finding &f);
QJsonObject missingGroupEvidence(const DiagnosisContext &c, const Finding &f);
QJsonObject stoppedEvidence(const DiagnosisContext &c, const Finding &f);

std::optional<RepairPlan> deleteInstance(const DiagnosisContext &c, const Finding &f);
std::optional<RepairPlan> addGroup(const DiagnosisContext &c, const Finding &f);
std::optional<RepairPlan> startInstance(const DiagnosisContext &c, const Finding &f);

AffectedObjects affectedInstance(const DiagnosisContext &c, const Finding &f);
AffectedObjects affectedInstanceAndGroup(const DiagnosisContext &c, const Finding &f);
AffectedObjects affectedInstanceAndNode(const DiagnosisContext &c, const Finding &f);

} // namespace InstanceFindings
