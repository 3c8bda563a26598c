#pragma once

#include <QStringList>

// `flightdeck-cli check`: diagnose a kluster and print the report.
// Returns the monitoring-plugin exit status (0 OK, 1 warning, 2 critical,
// 3 the check could not run).
int runCheckCommand(const QStringList &arguments);
