#pragma once

#include <QStringList>

// `flightdeck-cli diff SNAPSHOT_A SNAPSHOT_B`: what changed in a kluster between two snapshots.
// Returns 0 when nothing changed, 1 when something did, 3 when the diff could not be made.
int runDiffCommand(const QStringList &arguments);
