#pragma once

#include "app/cli/clioptions.h"
#include "core/diagnosisoptions.h"
#include "services/connection.h"
#include "services/local/cloudconfig.h"

#include <QCommandLineParser>
#include <QStringList>

// The fleet at once: `check --all` (every kluster of one or more clouds checked concurrently, in text, JSON
// or the Prometheus format) and `serve` (the exporter that keeps them fresh). docs/monitoring.md.
namespace FleetCommands {

// --all, --all-clouds, --concurrency, --node-series: added to check's own options.
void addCheckAllOptions(QCommandLineParser &parser);
bool wantsCheckAll(const QCommandLineParser &parser);
// With an Alertmanager set, each kluster's report carries its alerts (read once for the fleet).
int runCheckAll(const QCommandLineParser &parser, const DiagnosisOptions &options,
    CliOptions::ReportFormat format, const AlertmanagerTarget &alertmanager = {});

// Shared with serve: the clouds named (--cloud, repeated; none: $OS_CLOUD, else the OS_* variables) or every
// cloud of clouds.yaml, each with its secret (nullopt with `error` for the first that cannot be used); a
// count option within bounds; the connection a cloud is watched through (read-only).
std::optional<QList<CloudConfig>> loadClouds(const QStringList &names, bool allClouds, QString *error);
std::optional<int> readCount(
    const QCommandLineParser &parser, const QString &name, int fallback, int min, int max, QString *error);
ConnectionSpec specFor(
    const CloudConfig &cloud, const DiagnosisOptions &options, int concurrency, bool watch);

} // namespace FleetCommands

int runServeCommand(const QStringList &arguments);
// `fleet --prometheus URL`: the estate as the team's Prometheus holds it
// (app/cli/prometheusfleetcommand.cpp).
int runFleetCommand(const QStringList &arguments);
