#pragma once

#include "core/repairgate.h"

#include <QList>
#include <QString>

struct BootEvidence;
struct Diagnosis;
struct Finding;
struct Incident;
struct PlannedRequest;
struct RepairPlan;
class RepairProposal;

// A finding and its repair plan in words and HTML, for the findings view,
// the repair dialog and the exported report: the same text everywhere.
namespace RepairText {
QString requestLine(const PlannedRequest &request); // "PUT network /v2.0/routers/…  [If-Match: …]"
QString permissionLine(const PermissionVerdict &verdict); // under a request: may these credentials send it
QString planHtml(const RepairPlan &plan); // the requests, with their bodies, each marked with its permission
// A router's route list before and after a change, each route marked (removed struck out, added in bold).
QString routeChangeHtml(const QList<RepairGate::RouteLine> &lines);
// `beforeEvidence`: HTML shown after the repair and before the evidence (the boot evidence read on demand).
QString findingHtml(const Finding &finding, bool withPlan, const QString &beforeEvidence = QString());
QString headerHtml(const Finding &finding); // severity, id and message
QString evidenceHtml(const Finding &finding);
// An incident: its cause, each member finding with its message, and its one repair (or why it has none); what
// the repair resolves and what the other members are.
QString incidentHtml(const Incident &incident, const Diagnosis &diagnosis, bool withPlan);
// Its heading and member findings alone (`markResolved`: which of them its repair resolves).
// A plan as the repair dialog shows it: its incidents, the one route change, each finding with its plan and
// evidence, and what was asked for and is not in the data.
QString proposalHtml(const RepairProposal &proposal);
// What must be typed to confirm the proposal, and why: a teardown's router (and who it cuts off), a protected
// kluster's name, a deletion's name; empty when nothing is.
QString typeToConfirmHtml(const RepairProposal &proposal);
QString incidentMembersHtml(const Incident &incident, const Diagnosis &diagnosis, bool markResolved);
// A server's boot evidence under its finding: Nova's actions and the console log's tail, in a fixed-width
// block, every line escaped; `pending`: being read (what was read before, if anything, shown meanwhile).
QString bootEvidenceHtml(const BootEvidence &evidence, bool pending);
} // namespace RepairText
