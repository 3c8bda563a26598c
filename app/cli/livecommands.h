#pragma once

#include <QStringList>

// The commands that talk to a cloud: snapshot, klusters, routes, repair; and audit.
int runSnapshotCommand(const QStringList &arguments);
int runKlustersCommand(const QStringList &arguments);
int runRepairCommand(const QStringList &arguments);
int runAuditCommand(const QStringList &arguments);
int runCredentialsCommand(const QStringList &arguments);
// routes (app/cli/routescommand.cpp)
int runRoutesCommand(const QStringList &arguments);
