#pragma once

#include "core/finding.h"

class DiagnosisContext;
struct Detection;

// The router device's findings (diagnosis.md §6): device-route-stale and device-route-missing (their entries
// in core/findingtraits.cpp), judged from what each device of the router's HA pair holds against Neutron
// (core/routerdevice.h), for the routes of this kluster's pod network.
namespace DeviceFindings {

// Its rules: called once the router and its devices were read.
void detect(Detection &d);
// Without the devices' view: route-recycled, from the history (called where the devices were not read, the
// router and the nodes were).
void detectRecycled(Detection &d);

Severity staleSeverity(const FindingFacts &facts);
Severity missingSeverity(const FindingFacts &facts);
QString staleMessage(const DiagnosisContext &c, const Finding &f);
QString missingMessage(const DiagnosisContext &c, const Finding &f);
QJsonObject evidence(const DiagnosisContext &c, const Finding &f);
AffectedObjects affected(const DiagnosisContext &c, const Finding &f);
QString recycledMessage(const DiagnosisContext &c, const Finding &f);
QJsonObject recycledEvidence(const DiagnosisContext &c, const Finding &f);
AffectedObjects recycledAffected(const DiagnosisContext &c, const Finding &f);
// device-route-missing: the driver's sync of the router (it adds what the device lacks).
std::optional<RepairPlan> sync(const DiagnosisContext &c, const Finding &f);
// device-route-stale: the driver's teardown of the router's configuration on its devices, then its sync (the
// only known recovery; every kluster on the router loses its routes until the sync ends).
std::optional<RepairPlan> reset(const DiagnosisContext &c, const Finding &f);

} // namespace DeviceFindings
