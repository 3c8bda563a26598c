#include "app/cli/clioptions.h"

#include "app/cli/terminal.h"
#include "core/json/jsonreader.h"
#include "services/local/localfile.h"
#include "services/local/policyfile.h"
#include "services/local/secretstore.h"

#include <QCoreApplication>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTextStream>
#include <QTimer>
#include <chrono>

namespace CliOptions {

std::optional<ReportFormat> reportFormatFromName(const QString &name)
{
    static const std::pair<const char *, ReportFormat> names[] = { { "text", ReportFormat::Text },
        { "json", ReportFormat::Json }, { "prometheus", ReportFormat::Prometheus } };
    for (const auto &[word, format] : names) {
        if (name == QLatin1String(word))
            return format;
    }
    return std::nullopt;
}

int fail(const QString &command, const QString &message)
{
    QString line = message;
    line.replace(QLatin1Char('\n'), QLatin1Char(' '));
    QTextStream(Terminal::err()) << "flightdeck-cli " << command << ": " << line << Qt::endl;
    return ExitUnknown;
}

void addDiagnosis(QCommandLineParser &parser)
{
    parser.addOption({ QStringLiteral("startup-timeout"),
        QStringLiteral("An instance without a node is reported from this age on (default 10m; s, m, h; a "
                       "bare number is minutes)."),
        QStringLiteral("duration"), QStringLiteral("10m") });
    parser.addOption({ QStringLiteral("token-expiry"),
        QStringLiteral("Bootstrap token lifetime: an unregistered instance older than this can never join "
                       "and is critical (default 30m)."),
        QStringLiteral("duration"), QStringLiteral("30m") });
    parser.addOption({ QStringLiteral("route-limit"),
        QStringLiteral("Routes allowed per router (default: the snapshot's maxRoutes, else 30)."),
        QStringLiteral("count") });
    parser.addOption({ QStringLiteral("route-warning"),
        QStringLiteral("Warn when the router's routes reach this percentage of the limit (default 80)."),
        QStringLiteral("percent"), QStringLiteral("80") });
    parser.addOption({ QStringLiteral("max-unhealthy"),
        QStringLiteral("Remediation budget: refuse instance deletions while more expected nodes than this "
                       "are unhealthy; a count or a percentage, rounded down (default 40%)."),
        QStringLiteral("count|percent%"), QStringLiteral("40%") });
    parser.addOption({ QStringLiteral("full-route-updates"),
        QStringLiteral("Plan route changes as the full route list guarded by If-Match, even where the cloud "
                       "has extraroute-atomic.") });
    parser.addOption({ QStringLiteral("active-device"),
        QStringLiteral("The router device (its host, as the ASR driver names it) your team knows to be the "
                       "ACTIVE of its pair; the other is then its STANDBY. Repeat for several routers. The "
                       "driver does not say which is which: without it, a device's missing route is judged "
                       "as on the one that forwards."),
        QStringLiteral("host") });
    parser.addOption({ QStringLiteral("no-automation"),
        QStringLiteral(
            "Kubernikus' own controllers (flight, routegc) and the klusters' route controllers do not "
            "run on this cloud: no finding says when they repair it, and no repair waits for them "
            "(AutomationPending).") });
}

std::optional<DiagnosisOptions> readDiagnosis(const QCommandLineParser &parser, QString *error)
{
    DiagnosisOptions options;
    if (const auto s
        = DiagnosisOptions::parseDurationSeconds(parser.value(QStringLiteral("startup-timeout")))) {
        options.startupTimeoutSeconds = *s;
    } else {
        *error = QStringLiteral("--startup-timeout: \"%1\" is not a duration")
                     .arg(parser.value(QStringLiteral("startup-timeout")));
        return std::nullopt;
    }
    if (const auto s = DiagnosisOptions::parseDurationSeconds(parser.value(QStringLiteral("token-expiry")))) {
        options.tokenExpirySeconds = *s;
    } else {
        *error = QStringLiteral("--token-expiry: \"%1\" is not a duration")
                     .arg(parser.value(QStringLiteral("token-expiry")));
        return std::nullopt;
    }
    if (parser.isSet(QStringLiteral("route-limit"))) {
        bool ok = false;
        const int n = parser.value(QStringLiteral("route-limit")).toInt(&ok);
        if (!ok || n <= 0) {
            *error = QStringLiteral("--route-limit: \"%1\" is not a positive count")
                         .arg(parser.value(QStringLiteral("route-limit")));
            return std::nullopt;
        }
        options.routeLimit = n;
        options.routeLimitExplicit = true;
    }
    QString warning = parser.value(QStringLiteral("route-warning")).trimmed();
    if (warning.endsWith(QLatin1Char('%')))
        warning.chop(1);
    bool ok = false;
    const int percent = warning.toInt(&ok);
    if (!ok || percent <= 0 || percent > 100) {
        *error = QStringLiteral("--route-warning: \"%1\" is not a percentage from 1 to 100")
                     .arg(parser.value(QStringLiteral("route-warning")));
        return std::nullopt;
    }
    options.routeWarningPercent = percent;
    options.fullRouteUpdates = parser.isSet(QStringLiteral("full-route-updates"));
    options.automation = !parser.isSet(QStringLiteral("no-automation"));
    for (const QString &host : parser.values(QStringLiteral("active-device"))) {
        if (host.trimmed().isEmpty()) {
            *error = QStringLiteral("--active-device: a device's host is needed");
            return std::nullopt;
        }
        options.activeDevices << host.trimmed();
    }
    if (const auto m = MaxUnhealthy::parse(parser.value(QStringLiteral("max-unhealthy")))) {
        options.maxUnhealthy = *m;
    } else {
        *error = QStringLiteral("--max-unhealthy: \"%1\" is neither a count nor a percentage")
                     .arg(parser.value(QStringLiteral("max-unhealthy")));
        return std::nullopt;
    }
    return options;
}

void addCloud(QCommandLineParser &parser, bool klusterRequired)
{
    parser.addOption({ QStringLiteral("cloud"),
        QStringLiteral("The cloud of clouds.yaml to use (default: $OS_CLOUD, else the OS_* variables)."),
        QStringLiteral("name") });
    if (klusterRequired)
        parser.addOption(
            { QStringLiteral("kluster"), QStringLiteral("The kluster, by name."), QStringLiteral("name") });
    parser.addOption({ QStringLiteral("kubeconfig"),
        QStringLiteral("Read nodes with this kubeconfig (a list like $KUBECONFIG) instead of the credentials "
                       "Kubernikus hands out."),
        QStringLiteral("files") });
    parser.addOption({ QStringLiteral("context"),
        QStringLiteral("The kubeconfig context (default: its current one)."), QStringLiteral("name") });
    parser.addOption({ QStringLiteral("deadline"),
        QStringLiteral("Give up (exit 3) when the command has not finished within D (s, m, h; default 10m)."),
        QStringLiteral("D"), QStringLiteral("10m") });
    parser.addOption({ QStringLiteral("policy"),
        QStringLiteral(
            "Judge what these credentials may do against this oslo.policy file (YAML or JSON) as "
            "well as the defaults; SERVICE= (network, compute) limits it to one service. Repeat for "
            "several."),
        QStringLiteral("[SERVICE=]FILE") });
}

bool readPolicy(const QCommandLineParser &parser, std::shared_ptr<const PolicyProfile> *out, QString *error)
{
    if (!PolicyFiles::profile(parser.values(QStringLiteral("policy")), out, error)) {
        *error = QStringLiteral("--policy: ") + *error;
        return false;
    }
    return true;
}

std::optional<int> readDeadline(const QCommandLineParser &parser, QString *error)
{
    const std::optional<int> seconds
        = DiagnosisOptions::parseDurationSeconds(parser.value(QStringLiteral("deadline")));
    if (!seconds || *seconds <= 0 || *seconds > 24 * 3600) {
        *error = QStringLiteral("--deadline: \"%1\" is not a duration from 1 s to 24 h")
                     .arg(parser.value(QStringLiteral("deadline")).left(40));
        return std::nullopt;
    }
    return seconds;
}

void armDeadline(int seconds, QObject *context, std::function<void()> expired)
{
    auto *timer = new QTimer(context);
    timer->setSingleShot(true);
    QObject::connect(timer, &QTimer::timeout, context, std::move(expired));
    timer->start(std::chrono::seconds(seconds));
}

std::optional<KubeTarget> readKubeTarget(const QCommandLineParser &parser, QString *error, bool *given)
{
    *given = parser.isSet(QStringLiteral("kubeconfig")) || parser.isSet(QStringLiteral("context"));
    if (!*given)
        return std::nullopt;
    QStringList files;
    if (parser.isSet(QStringLiteral("kubeconfig")))
        files = parser.value(QStringLiteral("kubeconfig")).split(QLatin1Char(':'), Qt::SkipEmptyParts);
    const std::optional<Kubeconfig> config = Kubeconfig::load(files, error);
    if (!config)
        return std::nullopt;
    return config->target(parser.value(QStringLiteral("context")), error);
}

bool completeSecret(CloudConfig &cloud, QString *error)
{
    QString &secret = cloud.isApplicationCredential() ? cloud.applicationCredentialSecret : cloud.password;
    if (!secret.isEmpty())
        return true;
    SecretStore store;
    SecretResult result;
    SecretCall *call = store.read(cloud.secretKey());
    QObject::connect(call, &SecretCall::finished, &store, [&result](const SecretResult &r) {
        result = r;
        QCoreApplication::exit(0);
    });
    QCoreApplication::exec(); // until the keychain answers (or its timeout)
    if (result.found) {
        secret = result.secret;
        return true;
    }
    *error = QStringLiteral(
        "no %1 for cloud \"%2\" (%3): put it in secure.yaml or %4, or store it in the keychain with "
        "`flightdeck-cli credentials set --cloud %2` (%5)")
                 .arg(cloud.isApplicationCredential() ? QStringLiteral("application credential secret")
                                                      : QStringLiteral("password"),
                     cloud.name, cloud.source,
                     cloud.isApplicationCredential() ? QStringLiteral("OS_APPLICATION_CREDENTIAL_SECRET")
                                                     : QStringLiteral("OS_PASSWORD"),
                     result.error);
    return false;
}

int parseCloudCommand(QCommandLineParser &parser, const QStringList &arguments, const QString &command,
    const QString &description, bool klusterRequired, Parsed *out)
{
    parser.setApplicationDescription(description);
    parser.addHelpOption();
    addCloud(parser, klusterRequired);
    if (!parser.parse(arguments))
        return fail(command, parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        QTextStream(Terminal::out()) << parser.helpText().replace(QStringLiteral("flightdeck-cli [options]"),
            QStringLiteral("flightdeck-cli ") + command + QStringLiteral(" [options]"));
        return 0;
    }
    if (!parser.positionalArguments().isEmpty())
        return fail(
            command, QStringLiteral("unexpected argument \"%1\"").arg(parser.positionalArguments().first()));
    if (klusterRequired && !parser.isSet(QStringLiteral("kluster")))
        return fail(command, QStringLiteral("give --kluster NAME (see --help)"));
    QString error;
    std::optional<Parsed> read = readCloud(parser, &error);
    if (!read)
        return fail(command, error);
    *out = std::move(*read);
    return -1;
}

std::optional<Parsed> readCloud(const QCommandLineParser &parser, QString *error)
{
    Parsed out;
    if (parser.isSet(QStringLiteral("kluster")))
        out.kluster = parser.value(QStringLiteral("kluster"));
    out.cloud = CloudConfigLoader::load(parser.value(QStringLiteral("cloud")), error);
    if (!out.cloud || !readPolicy(parser, &out.cloud->policy, error) || !completeSecret(*out.cloud, error))
        return std::nullopt;
    bool given = false;
    out.kube = readKubeTarget(parser, error, &given);
    if (given && !out.kube)
        return std::nullopt;
    const std::optional<int> deadline = readDeadline(parser, error);
    if (!deadline)
        return std::nullopt;
    out.deadlineSeconds = *deadline;
    return out;
}

namespace {

// The options of an Alertmanager or a Prometheus: --<p>, --<p>-ca, --<p>-auth, --<p>-user, --<p>-secret-file,
// --<p>-cert, --<p>-key (and for an Alertmanager --<p>-label).
struct Monitoring
{
    QString option; // "alertmanager"
    QString what; // "Alertmanager"
    const char *environment; // the variable a secret may come from
    bool labels; // --<p>-label: the labels that name a kluster in its alerts
    QString (*secretKey)(const AlertmanagerTarget &target);
    QString opt(const char *suffix) const { return option + QLatin1Char('-') + QLatin1String(suffix); }
};

QString alertmanagerSecretKey(const AlertmanagerTarget &target)
{
    return target.secretKey();
}

const Monitoring alertmanagerOptions { QStringLiteral("alertmanager"), QStringLiteral("Alertmanager"),
    "FLIGHTDECK_ALERTMANAGER_SECRET", true, &alertmanagerSecretKey };
const Monitoring prometheusOptions { QStringLiteral("prometheus"), QStringLiteral("Prometheus"),
    "FLIGHTDECK_PROMETHEUS_SECRET", false, &PrometheusClient::secretKey };

void addMonitoring(QCommandLineParser &parser, const Monitoring &m, const QString &description)
{
    parser.addOption({ m.option, description, QStringLiteral("url") });
    if (m.labels)
        parser.addOption({ m.opt("label"),
            QStringLiteral("The label that names the kluster in its alerts (repeat for a fallback; default "
                           "kluster_name, then kluster)."),
            QStringLiteral("name") });
    parser.addOption(
        { m.opt("ca"), QStringLiteral("A CA (PEM) to trust for the %1, beside the system's.").arg(m.what),
            QStringLiteral("file") });
    parser.addOption({ m.opt("auth"), QStringLiteral("How to authenticate: none (default), basic or bearer."),
        QStringLiteral("none|basic|bearer"), QStringLiteral("none") });
    parser.addOption(
        { m.opt("user"), QStringLiteral("The user of basic authentication."), QStringLiteral("name") });
    parser.addOption({ m.opt("secret-file"),
        QStringLiteral("A file holding the password or token (else $%1, else the keychain).")
            .arg(QLatin1String(m.environment)),
        QStringLiteral("file") });
    parser.addOption({ m.opt("cert"),
        QStringLiteral("A client certificate (PEM) for the %1, with --%2.").arg(m.what, m.opt("key")),
        QStringLiteral("file") });
    parser.addOption(
        { m.opt("key"), QStringLiteral("The client certificate's key (PEM)."), QStringLiteral("file") });
}

std::optional<AlertmanagerTarget> readMonitoring(
    const QCommandLineParser &parser, const Monitoring &m, QString *error)
{
    AlertmanagerTarget target;
    if (!parser.isSet(m.option)) {
        for (const char *other : { "label", "ca", "user", "secret-file", "cert", "key" })
            if ((m.labels || qstrcmp(other, "label") != 0) && parser.isSet(m.opt(other))) {
                *error = QStringLiteral("--%1 without --%2 URL").arg(m.opt(other), m.option);
                return std::nullopt;
            }
        return target;
    }
    QString why;
    const std::optional<QUrl> url = AlertmanagerTarget::readUrl(parser.value(m.option), &why);
    if (!url) {
        *error = QStringLiteral("--%1: %2").arg(m.option, why);
        return std::nullopt;
    }
    target.url = *url;
    if (m.labels && parser.isSet(m.opt("label"))) {
        target.klusterLabels = parser.values(m.opt("label"));
        for (const QString &label : target.klusterLabels) {
            static const QRegularExpression name(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
            if (!name.match(label).hasMatch()) {
                *error = QStringLiteral("--%1: %2 is not a label name")
                             .arg(m.opt("label"), quotedExcerpt(label));
                return std::nullopt;
            }
        }
    }
    const std::optional<AlertmanagerTarget::Auth> auth
        = alertmanagerAuthFromName(parser.value(m.opt("auth")));
    if (!auth) {
        *error = QStringLiteral("--%1: %2 is not none, basic or bearer")
                     .arg(m.opt("auth"), quotedExcerpt(parser.value(m.opt("auth"))));
        return std::nullopt;
    }
    target.auth = *auth;
    target.username = parser.value(m.opt("user"));
    if (target.auth == AlertmanagerTarget::Auth::Basic && target.username.isEmpty()) {
        *error = QStringLiteral("--%1 basic needs --%2").arg(m.opt("auth"), m.opt("user"));
        return std::nullopt;
    }
    target.caFile = parser.value(m.opt("ca"));
    target.clientCertFile = parser.value(m.opt("cert"));
    target.clientKeyFile = parser.value(m.opt("key"));
    if (!target.readFiles(&why)) {
        *error = QStringLiteral("--%1: %2").arg(m.option, why);
        return std::nullopt;
    }
    if (target.auth == AlertmanagerTarget::Auth::None)
        return target;
    if (parser.isSet(m.opt("secret-file"))) {
        const std::optional<QByteArray> secret
            = LocalFile::read(parser.value(m.opt("secret-file")), LocalFile::ConfigLimit, &why);
        if (!secret) {
            *error = QStringLiteral("--%1: %2").arg(m.opt("secret-file"), why);
            return std::nullopt;
        }
        target.secret = QString::fromUtf8(*secret).section(QLatin1Char('\n'), 0, 0).trimmed();
    }
    if (target.secret.isEmpty())
        target.secret = QProcessEnvironment::systemEnvironment().value(QLatin1String(m.environment));
    if (target.secret.isEmpty()) {
        SecretStore store;
        SecretResult result;
        SecretCall *call = store.read(m.secretKey(target));
        QObject::connect(call, &SecretCall::finished, &store, [&result](const SecretResult &r) {
            result = r;
            QCoreApplication::exit(0);
        });
        QCoreApplication::exec(); // until the keychain answers (or its timeout)
        if (!result.found) {
            *error
                = QStringLiteral("no secret for the %1 %2: give --%3, $%4, or store it with `flightdeck-cli "
                                 "credentials set --%5 %2%6` (%7)")
                      .arg(m.what, target.displayUrl(), m.opt("secret-file"), QLatin1String(m.environment),
                          m.option,
                          target.username.isEmpty()
                              ? QString()
                              : QStringLiteral(" --%1 %2").arg(m.opt("user"), target.username),
                          result.error.isEmpty() ? QStringLiteral("not in the keychain") : result.error);
            return std::nullopt;
        }
        target.secret = result.secret;
    }
    return target;
}

} // namespace

void addAlertmanager(QCommandLineParser &parser)
{
    addMonitoring(parser, alertmanagerOptions,
        QStringLiteral("Show the kluster's alerts of this Alertmanager (v2 API) beside its findings "
                       "(docs/alertmanager.md)."));
}

std::optional<AlertmanagerTarget> readAlertmanager(const QCommandLineParser &parser, QString *error)
{
    return readMonitoring(parser, alertmanagerOptions, error);
}

void addPrometheus(QCommandLineParser &parser)
{
    addMonitoring(parser, prometheusOptions,
        QStringLiteral("The team's Prometheus that scrapes the flightdeck-cli serve exporters "
                       "(docs/monitoring.md)."));
}

std::optional<PrometheusTarget> readPrometheus(const QCommandLineParser &parser, QString *error)
{
    return readMonitoring(parser, prometheusOptions, error);
}

} // namespace CliOptions
