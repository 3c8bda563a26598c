#pragma once

#include "simulator/faults.h"
#include "simulator/world.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
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

// What the loader and the region generator make alike: a project's "default" security group (its four
// rules), and a rule of a group from its scenario object.
SimSecurityGroup defaultGroup(const QString &projectId, const QDateTime &created);
SimRule ruleFrom(const QJsonObject &o, const QString &groupId, int n, const QDateTime &created);

// One project with one kluster "scale" of `nodes` instances and nodes, their
// routes on a router with room for them, and a realistic sprinkling of every
// failure; or, for a fleet, `klusters` such klusters "scale-000", "scale-001",
// … in the one project (each with its own network, group and router; at most
// 240 nodes each).
void generate(World &world, int nodes, int klusters = 1);

// A region's shape: `klusters` klusters "scale-000", … spread over `projects` projects "scale-p00", …
// (one user of the same name each, password "scale-password"; a single project is "scale"), each kluster of
// `nodes` nodes, or with `mixedSizes` of the sizes a real region has: most 3–30 nodes, some up to 100, a
// few 100–300, and its faults in some klusters only (each fixed by the kluster's number, so every run is the
// same region).
struct RegionShape
{
    int klusters = 1;
    int nodes = 20;
    int projects = 1;
    bool mixedSizes = false;
};
void generateRegion(World &world, const RegionShape &shape);
// The size of kluster number `n` of a region of mixed sizes.
int mixedSize(int n);

} // namespace Scenario
