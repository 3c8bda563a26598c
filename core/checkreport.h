#pragma once

#include "core/alerts.h"
#include "core/diagnosis.h"
#include "core/klusterstate.h"
#include "core/repairgate.h"

#include <QByteArray>

// The report of `check` (snapshot-format.md): JSON for programs, text for people.
namespace CheckReport {

// The JSON object of snapshot-format.md, keys in its order; byte-identical for the same input. With an
// Alertmanager configured, "alerts" follows "incidents": the kluster's alerts with the findings they match,
// or null when they could not be read.
QByteArray toJson(const KlusterState &state, const Diagnosis &diagnosis, const KlusterAlerts &alerts = {});
// Grouped by severity; each finding with its message, evidence and planned requests; the alerts after the
// glance, with the two gaps (an alert no finding explains, a critical finding no alert covers).
QByteArray toText(const KlusterState &state, const Diagnosis &diagnosis, const KlusterAlerts &alerts = {});
// One finding explained (`check --explain ID`): the kluster's line, the incident the finding is part of, and
// the finding as toText details it. Empty when the diagnosis has no finding of that id.
QByteArray explain(const KlusterState &state, const Diagnosis &diagnosis, const QString &findingId);

// Each finding's plan as every report gives it (JSON, text, the console's HTML and CSV exports), judged by
// the repair gate as `repair` would judge it alone: its refusal is the plan's own, the remediation
// budget's or a disrupted zone's. On a router without extraroute-atomic with thousands of route findings,
// each plan would be the router's whole list (the report the square of the routes): past a bound those
// plans are withheld, never built, refused as TooLarge, each one a `repair --finding ID` away.
class ReportedPlans
{
public:
    ReportedPlans(const KlusterState &state, const Diagnosis &diagnosis);
    RepairGate::Decision of(const Finding &finding) const;
    // Why the decision's plan must not be sent as it stands ("" and Refusal::None when it may).
    static Refusal refusalOf(const RepairGate::Decision &decision, QString *detail);

private:
    const KlusterState &m_state;
    const Diagnosis &m_diagnosis;
    qint64 m_withheld = 0; // findings whose full-list plans are withheld (0: none)
};

// The monitoring-plugin exit status: 0 OK, 1 warning, 2 critical.
int exitStatus(const Diagnosis &diagnosis);

// Whether the check read every source it needs (the kluster, servers, router, security groups, nodes); an
// optional one (the ports, the extensions) only narrows what is diagnosed. Without them, no all-clear: 3.
bool readEverySource(const KlusterState &state);

// Of two exit statuses (3: the check could not run), the graver in the monitoring plugins' order: critical
// (2), then unknown (3), then warning (1), then ok (0); what `check --all` exits with over its klusters.
int graverStatus(int a, int b);

} // namespace CheckReport
