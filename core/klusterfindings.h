#pragma once

#include "core/finding.h"

class DiagnosisContext;
struct Detection;

// The kluster's lifecycle findings (diagnosis.md §7): kluster-terminating (its entry in
// core/findingtraits.cpp).
namespace KlusterFindings {

// A Terminating kluster is one finding and nothing else: returns true when it is (the other rules are then
// not applied, and nothing of it is repaired).
bool detectTerminating(Detection &d);

// The deorbiter waits for volumes and load balancers (warning after 1 h) and gives up after 24 h (critical).
inline constexpr qint64 WaitingSeconds = 60 * 60;
inline constexpr qint64 GaveUpSeconds = 24 * 60 * 60;

Severity terminatingSeverity(const FindingFacts &facts);
QString terminatingMessage(const DiagnosisContext &c, const Finding &f);
QJsonObject terminatingEvidence(const DiagnosisContext &c, const Finding &f);

} // namespace KlusterFindings
