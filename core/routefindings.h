#pragma once

#include "core/finding.h"

class DiagnosisContext;

// The route findings: route-duplicate, route-stale, route-orphaned,
// route-unassigned, route-missing and route-limit (their entries in core/findingtraits.cpp).
struct Detection;

namespace RouteFindings {

// Its rules: which of its findings exist in the diagnosis being made (core/diagnosis.cpp calls it once the
// sources it needs were read).
void detect(Detection &d);

Severity limitSeverity(const FindingFacts &facts); // critical when the router is full or would overflow

QString duplicateMessage(const DiagnosisContext &c, const Finding &f);
QString staleMessage(const DiagnosisContext &c, const Finding &f);
QString orphanedMessage(const DiagnosisContext &c, const Finding &f);
QString unassignedMessage(const DiagnosisContext &c, const Finding &f);
QString missingMessage(const DiagnosisContext &c, const Finding &f);
QString limitMessage(const DiagnosisContext &c, const Finding &f);

QJsonObject duplicateEvidence(const DiagnosisContext &c, const Finding &f);
QJsonObject staleEvidence(const DiagnosisContext &c, const Finding &f);
QJsonObject orphanedEvidence(const DiagnosisContext &c, const Finding &f);
QJsonObject unassignedEvidence(const DiagnosisContext &c, const Finding &f);
QJsonObject missingEvidence(const DiagnosisContext &c, const Finding &f);
QJsonObject limitEvidence(const DiagnosisContext &c, const Finding &f);

// Removing the wrong routes of a destination: which one is correct rests on the
// node list; a route to nobody (orphaned) only on the instance list.
std::optional<RepairPlan> removeWrongRoutes(const DiagnosisContext &c, const Finding &f);
std::optional<RepairPlan> removeOrphanedRoutes(const DiagnosisContext &c, const Finding &f);
std::optional<RepairPlan> addMissingRoute(const DiagnosisContext &c, const Finding &f);
// The repair of a route finding in either form (the three above are its Exact form); none for route-limit.
std::optional<RepairPlan> plan(const DiagnosisContext &c, const Finding &f, PlanForm form);

AffectedObjects affectedDestination(const DiagnosisContext &c, const Finding &f);
// And the instances its routes point at.
AffectedObjects affectedDestinationAndNexthops(const DiagnosisContext &c, const Finding &f);
AffectedObjects affectedMissingRoute(const DiagnosisContext &c, const Finding &f);

} // namespace RouteFindings
