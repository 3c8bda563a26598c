#pragma once

#include "simulator/faults.h"
#include "simulator/world.h"

#include <QByteArray>
#include <QString>

// Scenarios: the world a simulated cloud starts with, as a JSON document
// (format: docs/simulator.md). `defaultScenario()` is the built-in world of
// `flightdeck --demo`: several klusters that together show every finding
// kind. `generate()` makes a large kluster for scale tests and benchmarks.
namespace Scenario {

// Fills `world` and `faults` from a scenario document; false with `error` set
// when the document is not a valid scenario.
bool load(const QByteArray &json, World &world, FaultInjector &faults, QString *error);
bool loadFile(const QString &path, World &world, FaultInjector &faults, QString *error);

QByteArray defaultScenario();

// One project with one kluster of `nodes` instances and nodes, their routes on
// a router with room for them, and a realistic sprinkling of every failure.
void generate(World &world, int nodes);

} // namespace Scenario
