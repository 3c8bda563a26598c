#pragma once

#include "core/alerts.h"
#include "core/diagnosis.h"
#include "core/klusterstate.h"

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

// The monitoring-plugin exit status: 0 OK, 1 warning, 2 critical.
int exitStatus(const Diagnosis &diagnosis);

// Whether the check read every source it needs (the kluster, servers, router, security groups, nodes); an
// optional one (the ports, the extensions) only narrows what is diagnosed. Without them, no all-clear: 3.
bool readEverySource(const KlusterState &state);

// Of two exit statuses (3: the check could not run), the graver in the monitoring plugins' order: critical
// (2), then unknown (3), then warning (1), then ok (0); what `check --all` exits with over its klusters.
int graverStatus(int a, int b);

} // namespace CheckReport
