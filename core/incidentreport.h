#pragma once

#include "core/diagnosis.h"
#include "core/klusterstate.h"

#include <QByteArray>

// Reports for an incident ticket: a self-contained HTML page (verdict,
// budget, every finding with its message, evidence and planned repair) and
// the findings as CSV (RFC 4180). The JSON report is CheckReport::toJson.
namespace IncidentReport {
QByteArray toHtml(const KlusterState &state, const Diagnosis &diagnosis);
QByteArray findingsCsv(const Diagnosis &diagnosis);
QByteArray csvField(const QString &value); // quoted when it must be
} // namespace IncidentReport
