#pragma once

#include <QStringList>

// The commands that talk to a cloud: snapshot, klusters, repair; and audit.
int runSnapshotCommand(const QStringList &arguments);
int runKlustersCommand(const QStringList &arguments);
int runRepairCommand(const QStringList &arguments);
int runAuditCommand(const QStringList &arguments);
int runCredentialsCommand(const QStringList &arguments);
