#include "app/cli/clioptions.h"
#include "app/cli/livecommands.h"
#include "app/cli/terminal.h"
#include "core/diagnosis.h"
#include "core/routereport.h"
#include "services/http/httpclient.h"
#include "services/local/snapshotreader.h"
#include "services/openstack/keystonesession.h"
#include "services/openstack/klusterfetcher.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>

namespace {

// The report on standard output; 0, or 3 when it cannot be written.
int writeRoutes(const KlusterState &state, const Diagnosis &diagnosis, bool json)
{
    const QByteArray report
        = json ? RouteReport::toJson(state, diagnosis) : RouteReport::toText(state, diagnosis);
    if (!Terminal::writeReport(report, json))
        return CliOptions::fail(QStringLiteral("routes"), QStringLiteral("cannot write to standard output"));
    return 0;
}

} // namespace

int runRoutesCommand(const QStringList &arguments)
{
    const QString command = QStringLiteral("routes");
    QCommandLineParser parser;
    parser.addOption({ QStringLiteral("snapshot"),
        QStringLiteral("Read the kluster from the snapshot folder <dir> instead of the cloud."),
        QStringLiteral("dir") });
    parser.addOption({ QStringLiteral("format"), QStringLiteral("text (default) or json."),
        QStringLiteral("text|json"), QStringLiteral("text") });
    CliOptions::addDiagnosis(parser);
    parser.setApplicationDescription(QStringLiteral(
        "Show a kluster's router as a route audit: every route in Neutron's order (the intent) beside what "
        "each device of the router's ASR pair holds and in which order (the truth, where the ASR driver's "
        "view can be read: a cloud admin's), the routes its nodes need and lack, the routes only a device "
        "holds, whose each nexthop is, and the findings about each.\n"
        "Exit status: 0 shown, 3 the kluster could not be read."));
    parser.addHelpOption();
    CliOptions::addCloud(parser, true);
    if (!parser.parse(arguments))
        return CliOptions::fail(command, parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        QTextStream(Terminal::out()) << parser.helpText().replace(
            QStringLiteral("flightdeck-cli [options]"), QStringLiteral("flightdeck-cli routes [options]"));
        return 0;
    }
    if (!parser.positionalArguments().isEmpty())
        return CliOptions::fail(
            command, QStringLiteral("unexpected argument \"%1\"").arg(parser.positionalArguments().first()));
    const QString format = parser.value(QStringLiteral("format"));
    if (format != QLatin1String("text") && format != QLatin1String("json"))
        return CliOptions::fail(
            command, QStringLiteral("--format: \"%1\" is not text or json").arg(format.left(40)));
    const bool json = format == QLatin1String("json");
    QString error;
    const std::optional<DiagnosisOptions> options = CliOptions::readDiagnosis(parser, &error);
    if (!options)
        return CliOptions::fail(command, error);

    if (parser.isSet(QStringLiteral("snapshot"))) {
        KlusterState state;
        try {
            state = SnapshotReader::read(parser.value(QStringLiteral("snapshot")));
        } catch (const ParseError &e) {
            return CliOptions::fail(command, e.toString());
        }
        return writeRoutes(state, Diagnosis::run(state, *options), json);
    }
    if (!parser.isSet(QStringLiteral("kluster")))
        return CliOptions::fail(command,
            QStringLiteral(
                "nothing to show: give --kluster NAME (with --cloud NAME or the OS_* variables), or "
                "--snapshot DIR; see --help"));
    const std::optional<CliOptions::Parsed> live = CliOptions::readCloud(parser, &error);
    if (!live)
        return CliOptions::fail(command, error);

    HttpClient client;
    KeystoneSession session(&client, *live->cloud);
    KlusterFetcher fetcher(&session, live->kluster);
    if (live->kube)
        fetcher.setKubeTarget(*live->kube);
    if (options->routeLimitExplicit)
        fetcher.setRouteLimit(options->routeLimit);
    int status = CliOptions::ExitUnknown;
    QObject::connect(&fetcher, &KlusterFetcher::finished, &fetcher, [&](const KlusterFetch &fetch) {
        if (!fetch.state.klusterSource.known) {
            status = CliOptions::fail(command, SourceError::joined(fetch.errors));
        } else {
            // What could not be read is said here and in the report (a source unknown shows nothing of it).
            for (const SourceError &e : fetch.errors)
                QTextStream(Terminal::err()) << "flightdeck-cli routes: " << e.toString() << Qt::endl;
            status = writeRoutes(fetch.state, Diagnosis::run(fetch.state, *options), json);
        }
        QCoreApplication::exit(status);
    });
    CliOptions::armDeadline(live->deadlineSeconds, &fetcher, [command, seconds = live->deadlineSeconds] {
        QCoreApplication::exit(CliOptions::fail(
            command, QStringLiteral("gave up: not finished within %1 s (--deadline)").arg(seconds)));
    });
    fetcher.start();
    QCoreApplication::exec();
    return status;
}
