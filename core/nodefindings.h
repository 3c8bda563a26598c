#pragma once

#include "core/finding.h"

class DiagnosisContext;

// The node findings: node-not-ready and node-network-unavailable (their
// entries in core/findingtraits.cpp). Neither has a repair of its own.
namespace NodeFindings {

QString notReadyMessage(const DiagnosisContext &c, const Finding &f);
QString networkUnavailableMessage(const DiagnosisContext &c, const Finding &f);

QJsonObject evidence(const DiagnosisContext &c, const Finding &f);
AffectedObjects affected(const DiagnosisContext &c, const Finding &f);

} // namespace NodeFindings
