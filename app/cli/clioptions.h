#pragma once

#include "core/diagnosisoptions.h"
#include "services/local/cloudconfig.h"
#include "services/local/kubeconfig.h"
#include "services/monitoring/alertmanagerclient.h"
#include "services/monitoring/prometheusclient.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QObject>
#include <QString>
#include <functional>
#include <optional>

// Options shared by the commands of flightdeck-cli.
namespace CliOptions {

constexpr int ExitUnknown = 3;

int fail(const QString &command, const QString &message); // prints one line on stderr, returns 3

// What `check` prints (--format): for people, for programs, for Prometheus (the fleet's, with --all).
enum class ReportFormat
{
    Text,
    Json,
    Prometheus,
};
std::optional<ReportFormat> reportFormatFromName(const QString &name); // "text", "json", "prometheus"

// --startup-timeout, --token-expiry, --route-limit, --route-warning, --max-unhealthy
void addDiagnosis(QCommandLineParser &parser);
std::optional<DiagnosisOptions> readDiagnosis(const QCommandLineParser &parser, QString *error);

// --cloud, --kluster, --kubeconfig, --context, --deadline, --policy
void addCloud(QCommandLineParser &parser, bool klusterRequired);
// The policy files given with --policy (repeated, [SERVICE=]FILE) read into `out` (null: none given); false
// with `error` when one cannot be used.
bool readPolicy(const QCommandLineParser &parser, std::shared_ptr<const PolicyProfile> *out, QString *error);
// The whole command's deadline (--deadline, default 10 min), in seconds; nullopt with `error` when
// unreadable.
std::optional<int> readDeadline(const QCommandLineParser &parser, QString *error);
// Calls `expired` once the command has run for `seconds` (a server that trickles, a paging that does not
// end): a live command never runs forever.
void armDeadline(int seconds, QObject *context, std::function<void()> expired);
// The kubeconfig target given with --kubeconfig/--context, if any.
std::optional<KubeTarget> readKubeTarget(const QCommandLineParser &parser, QString *error, bool *given);

// What a command that talks to a cloud was given.
struct Parsed
{
    std::optional<CloudConfig> cloud;
    std::optional<KubeTarget> kube;
    QString kluster;
    int deadlineSeconds = 600;
};
// The cloud options already parsed (--cloud with its secret completed, the kubeconfig, --deadline, --kluster
// when set); nullopt with `error` when what is given cannot be used.
std::optional<Parsed> readCloud(const QCommandLineParser &parser, QString *error);
// Parses the shared cloud options (--cloud with its secret completed, --kluster when required, the
// kubeconfig, --deadline) after `parser`'s own; returns -1 to go on, else the exit status (--help: 0).
int parseCloudCommand(QCommandLineParser &parser, const QStringList &arguments, const QString &command,
    const QString &description, bool klusterRequired, Parsed *out);

// Completes a cloud's secret from the keychain when neither its files nor
// the environment hold it; false with `error` when there is none anywhere.
bool completeSecret(CloudConfig &cloud, QString *error);

// --alertmanager URL and its settings: --alertmanager-label (repeated; default kluster_name, then kluster),
// --alertmanager-ca, --alertmanager-auth none|basic|bearer, --alertmanager-user, --alertmanager-secret-file,
// --alertmanager-cert, --alertmanager-key.
void addAlertmanager(QCommandLineParser &parser);
// The Alertmanager given, its secret (basic or bearer) from --alertmanager-secret-file, else
// $FLIGHTDECK_ALERTMANAGER_SECRET, else the keychain (`credentials set --alertmanager URL`); an unset target
// when none is given; nullopt with `error` when what is given cannot be used.
std::optional<AlertmanagerTarget> readAlertmanager(const QCommandLineParser &parser, QString *error);
// --prometheus URL and its settings (as the Alertmanager's, without labels): --prometheus-ca,
// --prometheus-auth, --prometheus-user, --prometheus-secret-file ($FLIGHTDECK_PROMETHEUS_SECRET, the
// keychain: `credentials set --prometheus URL`), --prometheus-cert, --prometheus-key.
void addPrometheus(QCommandLineParser &parser);
std::optional<PrometheusTarget> readPrometheus(const QCommandLineParser &parser, QString *error);

} // namespace CliOptions
