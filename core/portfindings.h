#pragma once

#include "core/cidr.h"
#include "core/finding.h"
#include "core/port.h"

class DiagnosisContext;

// The port finding: port-address-pair-missing (its entry in core/findingtraits.cpp).
struct Detection;

namespace PortFindings {

// Its rules: which of its findings exist in the diagnosis being made (core/diagnosis.cpp calls it once the
// sources it needs were read).
void detect(Detection &d);

// Whether the pairs let the port send from `podCidr`: an entry equal to it or containing it.
bool pairsCover(const QList<AddressPair> &pairs, const Cidr &podCidr);

QString pairMissingMessage(const DiagnosisContext &c, const Finding &f);
QJsonObject pairMissingEvidence(const DiagnosisContext &c, const Finding &f);
std::optional<RepairPlan> addPair(const DiagnosisContext &c, const Finding &f);
AffectedObjects affectedNodeAndInstance(const DiagnosisContext &c, const Finding &f);

} // namespace PortFindings
