#pragma once

#include "core/repairgate.h"

#include <QList>
#include <QString>

struct Finding;
struct PlannedRequest;
struct RepairPlan;

// A finding and its repair plan in words and HTML, for the findings view,
// the repair dialog and the exported report: the same text everywhere.
namespace RepairText {
QString requestLine(const PlannedRequest &request); // "PUT network /v2.0/routers/…  [If-Match: …]"
QString planHtml(const RepairPlan &plan); // the requests, with their bodies
// A router's route list before and after a change, each route marked (removed struck out, added in bold).
QString routeChangeHtml(const QList<RepairGate::RouteLine> &lines);
QString findingHtml(const Finding &finding, bool withPlan);
QString headerHtml(const Finding &finding); // severity, id and message
QString evidenceHtml(const Finding &finding);
} // namespace RepairText
