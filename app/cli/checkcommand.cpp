#include "app/cli/checkcommand.h"

#include "app/cli/clioptions.h"
#include "core/checkreport.h"
#include "core/diagnosis.h"
#include "services/cloudconfig.h"
#include "services/httpclient.h"
#include "services/keystonesession.h"
#include "services/klusterfetcher.h"
#include "services/snapshotreader.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QTextStream>

namespace {

int writeReport(const KlusterState &state, const Diagnosis &diagnosis, const QString &format)
{
    const QByteArray report = format == QLatin1String("json") ? CheckReport::toJson(state, diagnosis)
                                                              : CheckReport::toText(state, diagnosis);
    QFile out;
    if (!out.open(stdout, QIODevice::WriteOnly) || out.write(report) != report.size())
        return CliOptions::fail(
            QStringLiteral("check"), QStringLiteral("cannot write the report to standard output"));
    out.flush();
    return CheckReport::exitStatus(diagnosis);
}

} // namespace

int runCheckCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Diagnose one kluster and print its findings, their evidence and their repair plans: from a snapshot "
        "folder\n"
        "(--snapshot), or live from the cloud (--cloud/--kluster).\n"
        "Exit status: 0 no warning or critical finding, 1 warnings only, 2 at least one critical finding,\n"
        "3 the check could not run (bad snapshot, unreachable API, authentication failure, a source that "
        "failed)."));
    parser.addHelpOption();
    parser.addOption({ QStringLiteral("snapshot"),
        QStringLiteral("Diagnose the snapshot folder <dir> (see snapshot-format)."), QStringLiteral("dir") });
    parser.addOption({ QStringLiteral("format"), QStringLiteral("Report format: text (default) or json."),
        QStringLiteral("text|json"), QStringLiteral("text") });
    CliOptions::addCloud(parser, true);
    CliOptions::addDiagnosis(parser);
    const QString command = QStringLiteral("check");

    if (!parser.parse(arguments))
        return CliOptions::fail(command, parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        QTextStream(stdout) << parser.helpText().replace(
            QStringLiteral("flightdeck-cli [options]"), QStringLiteral("flightdeck-cli check [options]"));
        return 0;
    }
    if (!parser.positionalArguments().isEmpty())
        return CliOptions::fail(
            command, QStringLiteral("unexpected argument \"%1\"").arg(parser.positionalArguments().first()));
    QString error;
    const std::optional<DiagnosisOptions> options = CliOptions::readDiagnosis(parser, &error);
    if (!options)
        return CliOptions::fail(command, error);
    const QString format = parser.value(QStringLiteral("format"));
    if (format != QLatin1String("text") && format != QLatin1String("json"))
        return CliOptions::fail(command, QStringLiteral("--format: \"%1\" is not text or json").arg(format));

    if (parser.isSet(QStringLiteral("snapshot"))) {
        KlusterState state;
        try {
            state = SnapshotReader::read(parser.value(QStringLiteral("snapshot")));
        } catch (const ParseError &e) {
            return CliOptions::fail(command, e.toString());
        }
        return writeReport(state, Diagnosis::run(state, *options), format);
    }

    if (!parser.isSet(QStringLiteral("kluster")))
        return CliOptions::fail(command,
            QStringLiteral("nothing to check: give --snapshot DIR, or --kluster NAME (with "
                           "--cloud NAME or the OS_* variables); see --help"));
    std::optional<CloudConfig> cloud = CloudConfigLoader::load(parser.value(QStringLiteral("cloud")), &error);
    if (!cloud || !CliOptions::completeSecret(*cloud, &error))
        return CliOptions::fail(command, error);
    bool kubeGiven = false;
    const std::optional<KubeTarget> kube = CliOptions::readKubeTarget(parser, &error, &kubeGiven);
    if (kubeGiven && !kube)
        return CliOptions::fail(command, error);
    const std::optional<int> deadline = CliOptions::readDeadline(parser, &error);
    if (!deadline)
        return CliOptions::fail(command, error);

    HttpClient client;
    KeystoneSession session(&client, *cloud);
    KlusterFetcher fetcher(&session, parser.value(QStringLiteral("kluster")));
    if (kube)
        fetcher.setKubeTarget(*kube);
    int status = CliOptions::ExitUnknown;
    QObject::connect(&fetcher, &KlusterFetcher::finished, &fetcher, [&](const KlusterFetch &fetch) {
        if (!fetch.state.klusterSource.known) {
            status = CliOptions::fail(command, SourceError::joined(fetch.errors));
        } else {
            for (const SourceError &e : fetch.errors)
                QTextStream(stderr) << "flightdeck-cli check: " << e.toString() << Qt::endl;
            status = writeReport(fetch.state, Diagnosis::run(fetch.state, *options), format);
            const KlusterState &s = fetch.state;
            if (!(s.serversSource.known && s.routerSource.known && s.securityGroupsSource.known
                    && s.nodesSource.known))
                status = CliOptions::ExitUnknown; // an incomplete check is no all-clear
        }
        QCoreApplication::exit(status);
    });
    CliOptions::armDeadline(*deadline, &fetcher, [command, seconds = *deadline] {
        QCoreApplication::exit(CliOptions::fail(
            command, QStringLiteral("gave up: not finished within %1 s (--deadline)").arg(seconds)));
    });
    fetcher.start();
    QCoreApplication::exec();
    return status;
}
