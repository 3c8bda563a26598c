// flightdeck-cli serve: the exporter. Every kluster of its clouds kept fresh by the console's own machinery
// (FleetMonitor), served to Prometheus from what is kept: /metrics, /healthz, /klusters/<name>, /runbooks/.

#include "app/cli/clioptions.h"
#include "app/cli/fleetcommands.h"
#include "app/cli/terminal.h"
#include "console/fleetmonitor.h"
#include "core/printable.h"
#include "core/shard.h"
#include "services/monitoring/exporterserver.h"
#include "services/monitoring/runbooks.h"
#include "services/monitoring/webconfig.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QSocketNotifier>
#include <QTextStream>
#include <QUrlQuery>
#include <csignal>
#include <fcntl.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace {

int signalPipe[2] = { -1, -1 };

// One line per event on standard error: the time, then what happened.
void logLine(const QString &line)
{
    QTextStream(Terminal::err()) << QDateTime::currentDateTimeUtc().toString(Qt::ISODate)
                                 << " flightdeck-serve " << line << Qt::endl;
}

// The config file (--config): `key = value` lines, # comments. The keys are the command's long options
// (listen, cloud, all-clouds, refresh, record, concurrency, node-series, shard, and the diagnosis options);
// an option given on the command line (`given`) wins over the file's. Returns the arguments it stands for, or
// nullopt with `error`.
std::optional<QStringList> readConfig(const QString &path, const QCommandLineParser &given, QString *error)
{
    static const QStringList keys = { QStringLiteral("listen"), QStringLiteral("cloud"),
        QStringLiteral("all-clouds"), QStringLiteral("refresh"), QStringLiteral("record"),
        QStringLiteral("concurrency"), QStringLiteral("node-series"), QStringLiteral("shard"),
        QStringLiteral("startup-timeout"), QStringLiteral("token-expiry"), QStringLiteral("route-limit"),
        QStringLiteral("route-warning"), QStringLiteral("max-unhealthy"),
        QStringLiteral("full-route-updates"), QStringLiteral("web.config.file") };
    static const QStringList switches
        = { QStringLiteral("all-clouds"), QStringLiteral("record"), QStringLiteral("full-route-updates") };
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read the config file %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    QStringList args;
    int number = 0;
    while (!file.atEnd()) {
        ++number;
        const QString line = QString::fromUtf8(file.readLine()).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        const QString key = (eq < 0 ? line : line.left(eq)).trimmed();
        const QString value = eq < 0 ? QString() : line.mid(eq + 1).trimmed();
        if (!keys.contains(key)) {
            *error = QStringLiteral("%1:%2: unknown key \"%3\" (known: %4)")
                         .arg(path)
                         .arg(number)
                         .arg(key.left(40), keys.join(QStringLiteral(", ")));
            return std::nullopt;
        }
        // The command line wins: a key it gives (a cloud, all clouds) is not taken from the file.
        const bool overridden = given.isSet(key)
            || ((key == QLatin1String("cloud") || key == QLatin1String("all-clouds"))
                && (given.isSet(QStringLiteral("cloud")) || given.isSet(QStringLiteral("all-clouds"))));
        if (overridden)
            continue;
        if (switches.contains(key)) {
            if (value != QLatin1String("true") && value != QLatin1String("false")) {
                *error = QStringLiteral("%1:%2: %3 is true or false").arg(path).arg(number).arg(key);
                return std::nullopt;
            }
            if (value == QLatin1String("true"))
                args << QStringLiteral("--") + key;
        } else if (key == QLatin1String("cloud")) {
            for (const QString &c : value.split(QLatin1Char(','), Qt::SkipEmptyParts))
                args << QStringLiteral("--cloud") << c.trimmed();
        } else {
            args << QStringLiteral("--") + key << value;
        }
    }
    return args;
}

void addServeOptions(QCommandLineParser &parser)
{
    parser.setApplicationDescription(QStringLiteral(
        "Keep every kluster of the clouds checked and serve the result to Prometheus (docs/monitoring.md):\n"
        "  /metrics                the fleet's metrics (read from what is kept; never waits on the cloud)\n"
        "  /healthz                200 while serving\n"
        "  /klusters/<name>        one kluster's report, as check --format json (?project_id= when two share "
        "a name)\n"
        "  /runbooks/<name>        the runbook of a finding kind, incident rule or alert (Markdown)\n"
        "Logs one line per event to standard error; stops on SIGTERM or SIGINT."));
    parser.addHelpOption();
    parser.addOption({ QStringLiteral("config"),
        QStringLiteral("Read the options from <file> (key = value lines; the command line wins)."),
        QStringLiteral("file") });
    parser.addOption({ QStringLiteral("listen"),
        QStringLiteral("The address to serve on (default 127.0.0.1:9473; :9473 for every address)."),
        QStringLiteral("address") });
    parser.addOption({ QStringLiteral("web.config.file"),
        QStringLiteral(
            "TLS and basic authentication from <file>: the Prometheus exporters' web configuration file "
            "(tls_server_config, basic_auth_users, http_server_config.headers, rate_limit); read again when "
            "it or its certificates change."),
        QStringLiteral("file") });
    parser.addOption({ QStringLiteral("hash-password"),
        QStringLiteral("Read a password on standard input, print its bcrypt hash for basic_auth_users, and "
                       "exit.") });
    parser.addOption({ QStringLiteral("cloud"),
        QStringLiteral(
            "A cloud of clouds.yaml to watch (repeat for several; default: $OS_CLOUD, else the OS_* "
            "variables)."),
        QStringLiteral("name") });
    parser.addOption({ QStringLiteral("all-clouds"), QStringLiteral("Watch every cloud of clouds.yaml.") });
    parser.addOption({ QStringLiteral("refresh"),
        QStringLiteral("How often every kluster is checked again (default 1m; s, m, h)."),
        QStringLiteral("D"), QStringLiteral("1m") });
    parser.addOption({ QStringLiteral("record"),
        QStringLiteral(
            "Record each check in the local history, as the console does (the oldest open finding's "
            "start comes from it).") });
    parser.addOption({ QStringLiteral("concurrency"),
        QStringLiteral("Klusters checked at once per cloud (default 8)."), QStringLiteral("n") });
    parser.addOption({ QStringLiteral("node-series"),
        QStringLiteral("A series per node on /metrics, at most n in all (default 0: none)."),
        QStringLiteral("n") });
    parser.addOption({ QStringLiteral("shard"),
        QStringLiteral(
            "Serve only shard I of N (0 to N-1): the klusters whose region, project id and name hash "
            "to I, as Prometheus' hashmod does; N exporters with 0/N to N-1/N serve each kluster "
            "once. The others are never read (default 0/1: all)."),
        QStringLiteral("I/N") });
    CliOptions::addDiagnosis(parser);
}

QByteArray healthz(const FleetMonitor &fleet)
{
    int up = 0;
    const QList<FleetMonitor::Entry> entries = fleet.entries();
    for (const FleetMonitor::Entry &e : entries)
        up += e.up ? 1 : 0;
    return QStringLiteral("ok: %1 klusters, %2 checked fully%3\n")
        .arg(entries.size())
        .arg(up)
        .arg(fleet.hasCompletedRound() ? QString() : QStringLiteral(", first round under way"))
        .toUtf8();
}

// --hash-password: a bcrypt hash of the password on standard input (its first line), for basic_auth_users.
int hashPassword()
{
    QTextStream in(stdin);
    const QString password = in.readLine();
    if (password.isEmpty()) {
        QTextStream(Terminal::err()) << "flightdeck-cli serve: --hash-password: no password on standard input"
                                     << Qt::endl;
        return 2;
    }
    const QByteArray hash = BasicAuth::hash(password.toUtf8(), 10);
    if (hash.isEmpty()) {
        QTextStream(Terminal::err()) << "flightdeck-cli serve: --hash-password: the system's crypt makes no "
                                        "bcrypt hash"
                                     << Qt::endl;
        return 3;
    }
    QTextStream(Terminal::out()) << hash << Qt::endl;
    return 0;
}

} // namespace

int runServeCommand(const QStringList &arguments)
{
#ifdef __GLIBC__
    // An exporter runs for months. Its live heap is flat from round to round (heaptrack: 62.7 MB after 17
    // rounds and after 68, docs/benchmarks.md), yet its resident size crept up: glibc raises its mmap
    // threshold each time a large block (an API body) is freed, so the next large ones land in the heaps,
    // where they fragment, and each thread that allocates gets an arena of its own. A fixed threshold keeps
    // the bodies in mappings that go back whole, and two arenas bound what fragments.
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
    mallopt(M_ARENA_MAX, 2);
#endif
    const QString command = QStringLiteral("serve");
    QCommandLineParser parser;
    addServeOptions(parser);

    QStringList args = arguments;
    QString error;
    // The config file first, so that the command line given after it wins.
    {
        QCommandLineParser given;
        addServeOptions(given);
        if (!given.parse(arguments))
            return CliOptions::fail(command, given.errorText());
        if (given.isSet(QStringLiteral("config"))) {
            const std::optional<QStringList> fromFile
                = readConfig(given.value(QStringLiteral("config")), given, &error);
            if (!fromFile)
                return CliOptions::fail(command, error);
            args = QStringList { arguments.value(0) } + *fromFile + arguments.mid(1);
        }
    }
    if (!parser.parse(args))
        return CliOptions::fail(command, parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        QTextStream(Terminal::out()) << parser.helpText().replace(
            QStringLiteral("flightdeck-cli [options]"), QStringLiteral("flightdeck-cli serve [options]"));
        return 0;
    }
    if (!parser.positionalArguments().isEmpty())
        return CliOptions::fail(
            command, QStringLiteral("unexpected argument \"%1\"").arg(parser.positionalArguments().first()));
    if (parser.isSet(QStringLiteral("hash-password")))
        return hashPassword();
    // The web configuration is checked before anything else is read: a wrong one ends it at once.
    if (parser.isSet(QStringLiteral("web.config.file"))
        && !WebConfig::load(parser.value(QStringLiteral("web.config.file")), &error))
        return CliOptions::fail(command, QStringLiteral("--web.config.file: %1").arg(error));
    const std::optional<DiagnosisOptions> options = CliOptions::readDiagnosis(parser, &error);
    if (!options)
        return CliOptions::fail(command, error);
    const std::optional<int> refresh
        = DiagnosisOptions::parseDurationSeconds(parser.value(QStringLiteral("refresh")));
    if (!refresh || *refresh < 5 || *refresh > 24 * 3600)
        return CliOptions::fail(command,
            QStringLiteral("--refresh: \"%1\" is not a duration from 5 s to 24 h")
                .arg(parser.value(QStringLiteral("refresh")).left(40)));
    const std::optional<int> concurrency
        = FleetCommands::readCount(parser, QStringLiteral("concurrency"), 8, 1, 256, &error);
    const std::optional<int> nodeSeries
        = FleetCommands::readCount(parser, QStringLiteral("node-series"), 0, 0, 1000000, &error);
    if (!concurrency || !nodeSeries)
        return CliOptions::fail(command, error);
    std::optional<Shard> shard = Shard { 0, 1 };
    if (parser.isSet(QStringLiteral("shard"))) {
        shard = Shard::parse(parser.value(QStringLiteral("shard")), &error);
        if (!shard)
            return CliOptions::fail(command, QStringLiteral("--shard: %1").arg(error));
    }
    const std::optional<QList<CloudConfig>> clouds = FleetCommands::loadClouds(
        parser.values(QStringLiteral("cloud")), parser.isSet(QStringLiteral("all-clouds")), &error);
    if (!clouds)
        return CliOptions::fail(command, error);

    FleetMonitor fleet;
    QElapsedTimer sinceStart;
    sinceStart.start();
    double lastScrapeSeconds = 0;
    ExporterServer server([&](const ExporterServer::Request &request) -> ExporterServer::Response {
        QElapsedTimer timer;
        timer.start();
        if (request.path == "/metrics") {
            PrometheusText::Options o;
            o.nodeSeries = *nodeSeries;
            o.refreshesOk = fleet.refreshesOk();
            o.refreshesFailed = fleet.refreshesFailed();
            o.scrapeSeconds = lastScrapeSeconds;
            o.shard = shard;
            ExporterServer::Response r { 200, PrometheusText::contentType(), fleet.metrics(o), true };
            lastScrapeSeconds = double(timer.nsecsElapsed()) / 1e9;
            return r;
        }
        if (request.path == "/healthz")
            return { 200, "text/plain; charset=utf-8", healthz(fleet) };
        if (request.path.startsWith("/klusters/")) {
            const QString name = QUrl::fromPercentEncoding(request.path.mid(10));
            const QString project
                = QUrlQuery(QString::fromUtf8(request.query)).queryItemValue(QStringLiteral("project_id"));
            if (const std::optional<QByteArray> report = fleet.report(name, project))
                return { 200, "application/json", *report, true };
            // The name as asked, never echoed raw: escapes shown as such, cut short.
            return { 404, "text/plain; charset=utf-8",
                QStringLiteral("no report of kluster \"%1\" (not known, or not read yet)\n")
                    .arg(printable(name.left(80)) + (name.size() > 80 ? QStringLiteral("…") : QString()))
                    .toUtf8() };
        }
        if (request.path == "/runbooks/" || request.path == "/runbooks")
            return { 200, "text/plain; charset=utf-8",
                Runbooks::names().join(QLatin1Char('\n')).toUtf8() + '\n' };
        if (request.path.startsWith("/runbooks/")) {
            QString name = QUrl::fromPercentEncoding(request.path.mid(10));
            if (name.endsWith(QLatin1String(".md")))
                name.chop(3);
            if (const std::optional<QByteArray> text = Runbooks::markdown(name))
                return { 200, "text/markdown; charset=utf-8", *text };
            return { 404, "text/plain; charset=utf-8",
                QStringLiteral("no runbook \"%1\"; there are: %2\n")
                    .arg(printable(name.left(80)) + (name.size() > 80 ? QStringLiteral("…") : QString()),
                        Runbooks::names().join(QStringLiteral(", ")))
                    .toUtf8() };
        }
        if (request.path == "/")
            return { 200, "text/html; charset=utf-8",
                "<html><head><title>Flightdeck exporter</title></head><body><h1>Flightdeck exporter</h1>"
                "<p><a href=\"/metrics\">Metrics</a> &middot; <a href=\"/healthz\">Health</a> &middot; "
                "<a href=\"/runbooks/\">Runbooks</a></p></body></html>\n" };
        return { 404, "text/plain; charset=utf-8",
            "not found: /metrics, /healthz, /klusters/<name>, /runbooks/\n" };
    });
    // Bound before anything starts: a port taken is a clear error, never a half-started exporter.
    const QString listen = parser.isSet(QStringLiteral("listen")) ? parser.value(QStringLiteral("listen"))
                                                                  : QStringLiteral("127.0.0.1:9473");
    if (parser.isSet(QStringLiteral("web.config.file"))
        && !server.setWebConfig(parser.value(QStringLiteral("web.config.file")), &error))
        return CliOptions::fail(command, QStringLiteral("--web.config.file: %1").arg(error));
    if (!server.listen(listen, &error))
        return CliOptions::fail(command, QStringLiteral("--listen: %1").arg(error));
    QObject::connect(&server, &ExporterServer::logged, &server, logLine);

    // SIGTERM and SIGINT end the event loop through a pipe (nothing else is safe in a signal handler).
    if (::pipe2(signalPipe, O_CLOEXEC | O_NONBLOCK) != 0)
        return CliOptions::fail(command, QStringLiteral("cannot make the signal pipe"));
    QSocketNotifier stopper(signalPipe[0], QSocketNotifier::Read);
    int stopSignal = 0;
    QObject::connect(&stopper, &QSocketNotifier::activated, &fleet, [&] {
        unsigned char s = 0;
        if (::read(signalPipe[0], &s, 1) == 1)
            stopSignal = s;
        QCoreApplication::quit();
    });
    struct sigaction action = {};
    action.sa_handler = [](int signal) {
        const auto s = static_cast<unsigned char>(signal);
        [[maybe_unused]] const ssize_t n = ::write(signalPipe[1], &s, 1);
    };
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGTERM, &action, nullptr);
    ::sigaction(SIGINT, &action, nullptr);

    for (const CloudConfig &cloud : *clouds) {
        ConnectionSpec spec = FleetCommands::specFor(cloud, *options, *concurrency, true);
        if (!shard->isWhole())
            spec.shard = shard;
        fleet.add(spec);
    }
    if (parser.isSet(QStringLiteral("record")))
        fleet.recordHistory();
    QObject::connect(&fleet, &FleetMonitor::logged, &fleet, logLine);
    QObject::connect(&fleet, &FleetMonitor::firstRoundDone, &fleet, [&] {
        logLine(
            QStringLiteral("first round done in %1 s").arg(double(sinceStart.elapsed()) / 1000.0, 0, 'f', 1));
    });
    QStringList names;
    for (const CloudConfig &cloud : *clouds)
        names << cloud.name;
    logLine(QStringLiteral("serving %1/metrics for %2 (%3every kluster checked every %4 s; %5)")
                .arg(server.url(), names.join(QStringLiteral(", ")),
                    shard->isWhole() ? QString()
                                     : QStringLiteral("shard %1: the klusters whose key hashes to %2 of %3; ")
                                           .arg(shard->toString())
                                           .arg(shard->index)
                                           .arg(shard->count))
                .arg(*refresh)
                .arg(server.usesTls() && server.authenticates() ? QStringLiteral("TLS, basic authentication")
                        : server.usesTls()                      ? QStringLiteral("TLS, no authentication")
                        : server.authenticates() ? QStringLiteral("basic authentication without TLS")
                                                 : QStringLiteral("no TLS, no authentication")));
    if (server.reachableBeyondLoopback() && !(server.usesTls() && server.authenticates()))
        logLine(QStringLiteral(
            "warning: %1 is reachable beyond this machine %2: whoever can connect reads every kluster's "
            "addresses, CIDRs, ids, names and repair paths (/klusters/<name>). Give --web.config.file with "
            "tls_server_config and basic_auth_users (docs/monitoring.md), or listen on 127.0.0.1.")
                    .arg(server.address(),
                        server.usesTls()             ? QStringLiteral("without authentication")
                            : server.authenticates() ? QStringLiteral("with passwords sent in clear (no TLS)")
                                                     : QStringLiteral("without TLS or authentication")));
    fleet.start(*refresh * 1000);
    QCoreApplication::exec();
    // From here a signal ends the process as it would by default; the pipe goes.
    action.sa_handler = SIG_DFL;
    ::sigaction(SIGTERM, &action, nullptr);
    ::sigaction(SIGINT, &action, nullptr);
    logLine(stopSignal ? QStringLiteral("stopping (signal %1)").arg(stopSignal) : QStringLiteral("stopping"));
    ::close(signalPipe[0]);
    ::close(signalPipe[1]);
    return 0;
}
