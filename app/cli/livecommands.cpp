#include "app/cli/livecommands.h"

#include "app/cli/clioptions.h"
#include "app/cli/terminal.h"
#include "core/checkreport.h"
#include "core/diagnosis.h"
#include "core/printable.h"
#include "core/repairgate.h"
#include "services/history/historystore.h"
#include "services/http/httpclient.h"
#include "services/local/cloudconfig.h"
#include "services/local/secretstore.h"
#include "services/local/snapshotwriter.h"
#include "services/monitoring/alertmanagerclient.h"
#include "services/openstack/keystonesession.h"
#include "services/openstack/klusterfetcher.h"
#include "services/repair/auditlog.h"
#include "services/repair/repairexecutor.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

namespace {

using CliOptions::Parsed;

int parse(QCommandLineParser &parser, const QStringList &arguments, const QString &command,
    const QString &description, bool klusterRequired, Parsed *out)
{
    return CliOptions::parseCloudCommand(parser, arguments, command, description, klusterRequired, out);
}

// The command's deadline: past it, the command says so and ends with 3.
void armDeadline(const Parsed &p, const QString &command, QObject *context)
{
    CliOptions::armDeadline(p.deadlineSeconds, context, [command, seconds = p.deadlineSeconds] {
        QCoreApplication::exit(CliOptions::fail(
            command, QStringLiteral("gave up: not finished within %1 s (--deadline)").arg(seconds)));
    });
}

} // namespace

int runSnapshotCommand(const QStringList &arguments)
{
    const QString command = QStringLiteral("snapshot");
    QCommandLineParser parser;
    parser.addOption(
        { QStringLiteral("out"), QStringLiteral("The snapshot folder to write."), QStringLiteral("dir") });
    parser.addOption({ QStringLiteral("route-limit"),
        QStringLiteral("Record the router's route limit in capture.json."), QStringLiteral("count") });
    Parsed p;
    if (const int status = parse(parser, arguments, command,
            QStringLiteral("Fetch one kluster and write it as a snapshot folder (snapshot-format): the "
                           "unmodified API bodies, pages merged; never a token, password or key."),
            true, &p);
        status >= 0)
        return status;
    if (!parser.isSet(QStringLiteral("out")))
        return CliOptions::fail(command, QStringLiteral("give --out DIR"));
    HttpClient client;
    KeystoneSession session(&client, *p.cloud);
    KlusterFetcher fetcher(&session, p.kluster);
    fetcher.setKubernikusEvents(true); // kubernikus-events.json
    if (p.kube)
        fetcher.setKubeTarget(*p.kube);
    if (parser.isSet(QStringLiteral("route-limit"))) {
        bool ok = false;
        const int limit = parser.value(QStringLiteral("route-limit")).toInt(&ok);
        if (!ok || limit <= 0)
            return CliOptions::fail(command,
                QStringLiteral("--route-limit: \"%1\" is not a positive count")
                    .arg(parser.value(QStringLiteral("route-limit"))));
        fetcher.setRouteLimit(limit);
    }
    int status = CliOptions::ExitUnknown;
    QObject::connect(&fetcher, &KlusterFetcher::finished, &fetcher, [&](const KlusterFetch &fetch) {
        QString error;
        if (!SnapshotWriter::write(parser.value(QStringLiteral("out")), fetch, &error)) {
            status = CliOptions::fail(command, error);
        } else {
            QTextStream(Terminal::out())
                << "snapshot of " << p.kluster << " written to " << parser.value(QStringLiteral("out"))
                << " (" << fetch.requests << " requests)" << Qt::endl;
            status = 0;
        }
        QCoreApplication::exit(status);
    });
    armDeadline(p, command, &fetcher);
    fetcher.start();
    QCoreApplication::exec();
    return status;
}

int runKlustersCommand(const QStringList &arguments)
{
    const QString command = QStringLiteral("klusters");
    QCommandLineParser parser;
    Parsed p;
    if (const int status = parse(parser, arguments, command,
            QStringLiteral("List the klusters of the cloud's project (the Kubernikus API)."), false, &p);
        status >= 0)
        return status;
    HttpClient client;
    KeystoneSession session(&client, *p.cloud);
    int status = CliOptions::ExitUnknown;
    HttpCall *call = session.send(QStringLiteral("kubernikus"), "GET", QStringLiteral("/api/v1/clusters"));
    QObject::connect(call, &HttpCall::finished, &session, [&](const ApiResponse &r) {
        const QJsonDocument doc = QJsonDocument::fromJson(r.body);
        if (r.error.isError()) {
            status = CliOptions::fail(command, r.error.toString());
        } else if (!doc.isArray()) {
            Error e;
            e.kind = Error::Kind::Malformed;
            e.service = QStringLiteral("kubernikus");
            e.method = QStringLiteral("GET");
            e.path = QStringLiteral("/api/v1/clusters");
            e.status = r.status;
            const QString message = r.serverMessage();
            e.detail = QStringLiteral("expected a JSON list of klusters")
                + (message.isEmpty() ? QString() : QStringLiteral(": ") + message);
            status = CliOptions::fail(command, e.toString());
        } else {
            const QJsonArray list = doc.array();
            QTextStream out(Terminal::out());
            out << QStringLiteral("%1 %2 %3 %4\n")
                       .arg(QStringLiteral("NAME"), -20)
                       .arg(QStringLiteral("PHASE"), -12)
                       .arg(QStringLiteral("POD NETWORK"), -18)
                       .arg(QStringLiteral("NODES"));
            for (const QJsonValue v : list) {
                const QJsonObject k = v.toObject();
                const QJsonObject spec = k.value(QStringLiteral("spec")).toObject();
                int size = 0;
                for (const QJsonValue pool : spec.value(QStringLiteral("nodePools")).toArray())
                    size += pool.toObject().value(QStringLiteral("size")).toInt();
                out << QStringLiteral("%1 %2 %3 %4\n")
                           .arg(k.value(QStringLiteral("name")).toString(), -20)
                           .arg(k.value(QStringLiteral("status"))
                                    .toObject()
                                    .value(QStringLiteral("phase"))
                                    .toString(),
                               -12)
                           .arg(spec.value(QStringLiteral("clusterCIDR")).toString(), -18)
                           .arg(size);
            }
            status = 0;
        }
        QCoreApplication::exit(status);
    });
    armDeadline(p, command, &session);
    QCoreApplication::exec();
    return status;
}

int runCredentialsCommand(const QStringList &arguments)
{
    const QString command = QStringLiteral("credentials");
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Keep a cloud's password or application credential secret in the system keychain "
        "(service \"flightdeck\"):\n"
        "  credentials set --cloud NAME      reads the secret from standard input (one line)\n"
        "  credentials status --cloud NAME   says whether the keychain holds it\n"
        "  credentials delete --cloud NAME   removes it\n"
        "With --alertmanager URL (and --alertmanager-user NAME for basic authentication), the same for an\n"
        "Alertmanager's password or token; with --prometheus URL (and --prometheus-user NAME), a "
        "Prometheus'.\n"
        "Secrets never go to a file."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("action"), QStringLiteral("set, status or delete"));
    parser.addOption({ QStringLiteral("cloud"),
        QStringLiteral("The cloud of clouds.yaml (default: $OS_CLOUD)."), QStringLiteral("name") });
    parser.addOption({ QStringLiteral("alertmanager"),
        QStringLiteral("An Alertmanager's secret instead of a cloud's."), QStringLiteral("url") });
    parser.addOption({ QStringLiteral("alertmanager-user"),
        QStringLiteral("The Alertmanager's user (basic authentication)."), QStringLiteral("name") });
    parser.addOption({ QStringLiteral("prometheus"),
        QStringLiteral("A Prometheus' secret instead of a cloud's."), QStringLiteral("url") });
    parser.addOption({ QStringLiteral("prometheus-user"),
        QStringLiteral("The Prometheus' user (basic authentication)."), QStringLiteral("name") });
    if (!parser.parse(arguments))
        return CliOptions::fail(command, parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        QTextStream(Terminal::out()) << parser.helpText();
        return 0;
    }
    const QString action = parser.positionalArguments().value(0);
    if (action != QLatin1String("set") && action != QLatin1String("status")
        && action != QLatin1String("delete"))
        return CliOptions::fail(command, QStringLiteral("give set, status or delete (see --help)"));
    QString error;
    QString key;
    if (parser.isSet(QStringLiteral("prometheus"))) {
        PrometheusTarget target;
        const std::optional<QUrl> url
            = PrometheusTarget::readUrl(parser.value(QStringLiteral("prometheus")), &error);
        if (!url)
            return CliOptions::fail(command, QStringLiteral("--prometheus: ") + error);
        target.url = *url;
        target.username = parser.value(QStringLiteral("prometheus-user"));
        key = PrometheusClient::secretKey(target);
    } else if (parser.isSet(QStringLiteral("alertmanager"))) {
        AlertmanagerTarget target;
        const std::optional<QUrl> url
            = AlertmanagerTarget::readUrl(parser.value(QStringLiteral("alertmanager")), &error);
        if (!url)
            return CliOptions::fail(command, QStringLiteral("--alertmanager: ") + error);
        target.url = *url;
        target.username = parser.value(QStringLiteral("alertmanager-user"));
        key = target.secretKey();
    } else {
        const std::optional<CloudConfig> cloud
            = CloudConfigLoader::load(parser.value(QStringLiteral("cloud")), &error);
        if (!cloud)
            return CliOptions::fail(command, error);
        key = cloud->secretKey();
    }
    SecretStore store;
    SecretCall *call = nullptr;
    if (action == QLatin1String("set")) {
        QTextStream in(stdin);
        const QString secret = in.readLine();
        if (secret.isEmpty())
            return CliOptions::fail(command, QStringLiteral("no secret on standard input"));
        call = store.write(key, secret);
    } else if (action == QLatin1String("delete")) {
        call = store.remove(key);
    } else {
        call = store.read(key);
    }
    int status = CliOptions::ExitUnknown;
    QObject::connect(call, &SecretCall::finished, &store, [&](const SecretResult &r) {
        QTextStream out(Terminal::out());
        if (r.inMemoryOnly) {
            status = CliOptions::fail(command,
                QStringLiteral("no keychain is available (%1); nothing was stored: secrets are "
                               "never written to a file")
                    .arg(store.memoryOnlyReason()));
        } else if (action == QLatin1String("status")) {
            out << key << ": " << (r.found ? "stored in the keychain" : "not in the keychain") << Qt::endl;
            status = r.found ? 0 : 1;
        } else if (!r.ok) {
            status = CliOptions::fail(command, r.error);
        } else {
            out << key
                << (action == QLatin1String("set") ? ": stored in the keychain"
                                                   : ": removed from the keychain")
                << Qt::endl;
            status = 0;
        }
        QCoreApplication::exit(status);
    });
    QCoreApplication::exec();
    return status;
}

int runAuditCommand(const QStringList &arguments)
{
    const QString command = QStringLiteral("audit");
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Print the audit log of repairs (JSON Lines at %1).").arg(AuditLog::path()));
    parser.addHelpOption();
    parser.addOption(
        { QStringLiteral("format"), QStringLiteral("text (default) or json (the records, one per line)."),
            QStringLiteral("text|json"), QStringLiteral("text") });
    if (!parser.parse(arguments))
        return CliOptions::fail(command, parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        QTextStream(Terminal::out()) << parser.helpText();
        return 0;
    }
    QString error;
    const QList<AuditRecord> records = AuditLog::read(&error);
    if (!error.isEmpty())
        CliOptions::fail(command, error);
    const bool json = parser.value(QStringLiteral("format")) == QLatin1String("json");
    // JSON as it is (its writer escapes every control character), the text through the terminal's guard.
    QFile raw;
    if (json)
        raw.open(stdout, QIODevice::WriteOnly);
    QTextStream out(json ? static_cast<QIODevice *>(&raw) : Terminal::out());
    int interruptedCount = 0;
    for (const AuditRecord &r : records) {
        if (json) {
            out << r.toJson() << "\n";
            continue;
        }
        // Every value of a record may have come from the cloud (a router's name, a server's words): printed
        // so that none of it drives the terminal.
        out << r.time.toUTC().toString(Qt::ISODateWithMs) << "  " << printable(r.user) << "@"
            << printable(r.project) << " (" << printable(r.cloud) << ")  " << printable(r.kluster) << "  "
            << printable(r.finding()) << "\n    " << printable(r.repair) << "\n";
        if (!r.requests) {
            // Only what was about to be sent is known: each request may or may not have reached the cloud.
            for (const PlannedRequest &q : r.planned)
                out << "    " << printable(q.summary()) << " -> unknown (about to be sent)\n";
        }
        for (const AuditRequest &q : r.requests.value_or(QList<AuditRequest>()))
            out << "    " << printable(q.summary()) << " -> " << q.status << " " << printable(q.outcome)
                << "\n";
        out << "    verification: "
            << (r.interrupted() ? QStringLiteral("INTERRUPTED - check the cloud")
                                : printable(RepairResults::name(r.verification)))
            << " - " << printable(r.message) << "\n";
        if (r.interrupted())
            ++interruptedCount;
    }
    if (interruptedCount > 0 && !json)
        out << interruptedCount
            << " repair(s) were interrupted before their result was recorded: check the cloud, then "
            << "the kluster again (flightdeck-cli check)." << Qt::endl;
    if (records.isEmpty() && !json)
        out << "No repair has been made yet (" << AuditLog::path() << ")." << Qt::endl;
    return error.isEmpty() ? 0 : 3;
}
