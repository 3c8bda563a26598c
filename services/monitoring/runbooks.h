#pragma once

#include <QByteArray>
#include <QStringList>
#include <optional>

// The runbooks (docs/runbooks/, built into the programs): one per finding kind, incident rule and alert of
// the exporter, by that name ("route-duplicate", "zone-outage", "kluster-unchecked"). The exporter serves
// them; the console opens them from a finding's or an incident's details.
namespace Runbooks {

QStringList names(); // sorted; README (the index) left out
std::optional<QByteArray> markdown(const QString &name); // nullopt: no such runbook

} // namespace Runbooks
