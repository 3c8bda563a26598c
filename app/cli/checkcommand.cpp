#include "app/cli/checkcommand.h"

#include "app/cli/clioptions.h"
#include "app/cli/fleetcommands.h"
#include "app/cli/terminal.h"
#include "core/apiparser.h"
#include "core/bootevidence.h"
#include "core/checkreport.h"
#include "core/debris.h"
#include "core/diagnosis.h"
#include "core/permission.h"
#include "core/printable.h"
#include "services/history/historystore.h"
#include "services/http/httpclient.h"
#include "services/local/cloudconfig.h"
#include "services/local/snapshotreader.h"
#include "services/monitoring/alertmanagerclient.h"
#include "services/openstack/bootevidencereader.h"
#include "services/openstack/keystonesession.h"
#include "services/openstack/klusterfetcher.h"
#include "services/routehistories.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTextStream>

namespace {

int writeReport(const KlusterState &state, const Diagnosis &diagnosis, CliOptions::ReportFormat format,
    const KlusterAlerts &alerts)
{
    const bool json = format == CliOptions::ReportFormat::Json;
    const QByteArray report = json ? CheckReport::toJson(state, diagnosis, alerts)
                                   : CheckReport::toText(state, diagnosis, alerts);
    // JSON as written (its writer escapes every control character); the text through the terminal's guard.
    if (!Terminal::writeReport(report, json))
        return CliOptions::fail(
            QStringLiteral("check"), QStringLiteral("cannot write the report to standard output"));
    return CheckReport::exitStatus(diagnosis);
}

// --record: the result goes into the local history, as the console's refreshes do. A history that cannot be
// written is said on standard error and changes no exit status: the check itself ran.
void record(const HistoryRecord &record)
{
    HistoryStore store;
    if (!store.open() || !store.record(record))
        QTextStream(Terminal::err()) << "flightdeck-cli check: not recorded: " << store.error() << Qt::endl;
    if (const QString notice = store.takeNotice(); !notice.isEmpty())
        QTextStream(Terminal::err()) << "flightdeck-cli check: " << notice << Qt::endl;
}

// With --alertmanager: the kluster's alerts, their findings matched, then `then` (later, from the event
// loop). Alerts that cannot be read are one line on standard error; the findings and the exit status stand.
void withAlerts(HttpClient *client, const AlertmanagerTarget &target, const KlusterState &state,
    const Diagnosis &diagnosis, QObject *context, const std::function<void(const KlusterAlerts &)> &then)
{
    if (!target.isSet()) {
        then(KlusterAlerts());
        return;
    }
    auto *alertmanager = new AlertmanagerClient(client, target, context);
    alertmanager->fetchKlusterAlerts(state.kluster.name, state.kluster.projectId, context,
        [state, diagnosis, then, alertmanager](KlusterAlerts alerts) {
            alertmanager->deleteLater();
            if (alerts.known)
                Alerts::matchFindings(alerts.alerts, state, diagnosis);
            else
                QTextStream(Terminal::err())
                    << "flightdeck-cli check: alerts not read: " << alerts.error << Qt::endl;
            then(alerts);
        });
}

// --explain ID: the one finding, then its boot evidence (read live, from `session`; a snapshot holds none),
// then `finished` with the finding's exit status. A finding not in this check is exit 3.
void explain(const KlusterState &state, const Diagnosis &diagnosis, const QString &id,
    KeystoneSession *session, QObject *context, const std::function<void(int)> &finished)
{
    const QByteArray text = CheckReport::explain(state, diagnosis, id);
    if (text.isEmpty()) {
        finished(CliOptions::fail(QStringLiteral("check"),
            CheckReport::readEverySource(state)
                ? QStringLiteral(
                    "--explain: no finding \"%1\" in this check (it is gone, or the id is not one: "
                    "`check` lists them)")
                      .arg(printable(id.left(200)))
                : QStringLiteral("--explain: no finding \"%1\" in this check, which could not read every "
                                 "source (named above): what rests on them was not diagnosed")
                      .arg(printable(id.left(200)))));
        return;
    }
    const Finding *f = diagnosis.find(id);
    // The finding's status; an incomplete check is no all-clear (3), as for the whole report.
    const int status = !CheckReport::readEverySource(state) ? CliOptions::ExitUnknown
        : f->severity == Severity::Critical                 ? 2
        : f->severity == Severity::Warning                  ? 1
                                                            : 0;
    if (!Terminal::writeReport(text, false)) {
        finished(CliOptions::fail(
            QStringLiteral("check"), QStringLiteral("cannot write the report to standard output")));
        return;
    }
    const std::optional<BootEvidences::Server> server = BootEvidences::serverOf(*f);
    if (!server) {
        finished(status);
        return;
    }
    if (!session) {
        Terminal::writeReport(
            "\nBoot evidence: read live only (--cloud/--kluster): a snapshot holds no console log.\n", false);
        finished(status);
        return;
    }
    BootEvidenceReader::read(session, *server, context, [status, finished](const BootEvidence &evidence) {
        const QString lines
            = QStringLiteral("\nBoot evidence (read %1):\n").arg(ApiParser::formatTimestamp(evidence.readAt))
            + evidence.describe().join(QLatin1Char('\n')) + QLatin1Char('\n');
        // Each line made printable by describe(); written through the terminal's guard as the report is.
        Terminal::writeReport(lines.toUtf8(), false);
        finished(status);
    });
}

} // namespace

int runCheckCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Diagnose one kluster and print its findings, their evidence and their repair plans: from a snapshot "
        "folder\n"
        "(--snapshot), live from the cloud (--cloud/--kluster), or every kluster of one or more clouds "
        "(--all).\n"
        "Exit status: 0 no warning or critical finding, 1 warnings only, 2 at least one critical finding,\n"
        "3 the check could not run (bad snapshot, unreachable API, authentication failure, a source that "
        "failed).\n"
        "With --all, the worst kluster's: 2 before 3 before 1 before 0."));
    parser.addHelpOption();
    parser.addOption({ QStringLiteral("snapshot"),
        QStringLiteral("Diagnose the snapshot folder <dir> (see snapshot-format)."), QStringLiteral("dir") });
    parser.addOption({ QStringLiteral("format"),
        QStringLiteral(
            "Report format: text (default), json, or prometheus (with --all; docs/monitoring.md)."),
        QStringLiteral("text|json|prometheus"), QStringLiteral("text") });
    parser.addOption({ QStringLiteral("record"),
        QStringLiteral(
            "Record the result in the local history (<data>/flightdeck/history.sqlite), as the console "
            "does: since when each finding is open, the kluster's numbers, its state for diffs.") });
    parser.addOption({ QStringLiteral("explain"),
        QStringLiteral("Explain one finding: its message, evidence, automation and repair plan, and for an "
                       "instance that never registered, is in ERROR or stopped, its boot evidence read live "
                       "from Nova (the console log's last 50 lines, the instance actions). Exit status: the "
                       "finding's (3 when this check has no such finding)."),
        QStringLiteral("finding id") });
    CliOptions::addCloud(parser, true);
    CliOptions::addDiagnosis(parser);
    FleetCommands::addCheckAllOptions(parser);
    CliOptions::addAlertmanager(parser);
    const QString command = QStringLiteral("check");

    if (!parser.parse(arguments))
        return CliOptions::fail(command, parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        QTextStream(Terminal::out()) << parser.helpText().replace(
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
    const std::optional<CliOptions::ReportFormat> format
        = CliOptions::reportFormatFromName(parser.value(QStringLiteral("format")));
    if (!format)
        return CliOptions::fail(command,
            QStringLiteral("--format: \"%1\" is not text, json or prometheus")
                .arg(parser.value(QStringLiteral("format")).left(40)));
    const std::optional<AlertmanagerTarget> alertmanager = CliOptions::readAlertmanager(parser, &error);
    if (!alertmanager)
        return CliOptions::fail(command, error);
    const QString explainId = parser.value(QStringLiteral("explain"));
    if (parser.isSet(QStringLiteral("explain"))
        && (FleetCommands::wantsCheckAll(parser) || *format != CliOptions::ReportFormat::Text
            || parser.isSet(QStringLiteral("record"))))
        return CliOptions::fail(command,
            QStringLiteral("--explain explains one finding of one kluster, as text: give it without --all, "
                           "--format and --record"));
    if (FleetCommands::wantsCheckAll(parser))
        return FleetCommands::runCheckAll(parser, *options, *format, *alertmanager);
    if (*format == CliOptions::ReportFormat::Prometheus)
        return CliOptions::fail(command,
            QStringLiteral(
                "--format prometheus is the fleet's: give --all (every kluster of the cloud's project)"));
    if (parser.values(QStringLiteral("cloud")).size() > 1)
        return CliOptions::fail(
            command, QStringLiteral("--cloud given more than once: give --all to check several clouds"));

    if (parser.isSet(QStringLiteral("snapshot"))) {
        KlusterState state;
        try {
            state = SnapshotReader::read(parser.value(QStringLiteral("snapshot")));
        } catch (const ParseError &e) {
            return CliOptions::fail(command, e.toString());
        }
        std::shared_ptr<const PolicyProfile> policy;
        if (!CliOptions::readPolicy(parser, &policy, &error))
            return CliOptions::fail(command, error);
        if (policy && state.credentials) {
            auto judged = std::make_shared<Credentials>(*state.credentials);
            judged->profile = policy;
            state.credentials = std::move(judged);
        }
        const Diagnosis diagnosis = Diagnosis::run(state, *options);
        int status = CliOptions::ExitUnknown;
        if (parser.isSet(QStringLiteral("explain"))) {
            explain(state, diagnosis, explainId, nullptr, nullptr, [&status](int s) { status = s; });
            return status;
        }
        HttpClient client;
        withAlerts(&client, *alertmanager, state, diagnosis, &client, [&](const KlusterAlerts &alerts) {
            status = writeReport(state, diagnosis, *format, alerts);
            if (alertmanager->isSet())
                QCoreApplication::exit(status);
        });
        if (alertmanager->isSet())
            QCoreApplication::exec();
        if (parser.isSet(QStringLiteral("record")))
            record(HistoryRecord::of(state, diagnosis, 0));
        return status;
    }

    if (!parser.isSet(QStringLiteral("kluster")))
        return CliOptions::fail(command,
            QStringLiteral("nothing to check: give --snapshot DIR, or --kluster NAME (with "
                           "--cloud NAME or the OS_* variables); see --help"));
    const std::optional<CliOptions::Parsed> live = CliOptions::readCloud(parser, &error);
    if (!live)
        return CliOptions::fail(command, error);
    const std::optional<CloudConfig> &cloud = live->cloud;
    const std::optional<KubeTarget> &kube = live->kube;
    const int deadline = live->deadlineSeconds;

    HttpClient client;
    KeystoneSession session(&client, *cloud);
    KlusterFetcher fetcher(&session, parser.value(QStringLiteral("kluster")));
    fetcher.setKubernikusEvents(true); // the report says what Kubernikus recorded lately
    fetcher.setAccessReviews(
        true); // each Kubernetes write of a plan judged by the API server (diagnosis.md §8)
    if (kube)
        fetcher.setKubeTarget(*kube);
    int status = CliOptions::ExitUnknown;
    const bool recording = parser.isSet(QStringLiteral("record"));
    QElapsedTimer timer;
    timer.start();
    QObject::connect(&fetcher, &KlusterFetcher::finished, &fetcher, [&](KlusterFetch fetch) {
        const KlusterState &s = fetch.state;
        // What the local history kept, where one is kept (read-only: check never makes one): the router's
        // routes (route-recycled), since when the findings are open (Kubernikus' automation). The history
        // keeps this machine's time; capturedAt is on the cloud's clock.
        if (s.klusterSource.known) {
            const QDateTime at = fetch.state.capturedAt;
            const qint64 shift
                = at.msecsTo(HistoryStore::localInstant(at, client.serverClockOffsetMs())) * -1;
            KeptHistory::read(s, shift).applyTo(fetch.state, shift);
        }
        if (fetch.state.kluster.gone && Debris::leftBehind(fetch.state) == 0) {
            // Not there, and nothing of it left: a name mistyped, most likely.
            status = CliOptions::fail(command,
                QStringLiteral("kubernikus: no kluster %1 in this project (HTTP 404), and no volume or load "
                               "balancer of one by that name is left behind%2")
                    .arg(fetch.state.kluster.name,
                        fetch.errors.isEmpty()
                            ? QString()
                            : QStringLiteral(" (") + SourceError::joined(fetch.errors) + QLatin1Char(')')));
        } else if (!fetch.state.klusterSource.known) {
            status = CliOptions::fail(command, SourceError::joined(fetch.errors));
            if (recording)
                record(HistoryRecord::failure(HistoryStore::klusterKey(cloud->name, cloud->regionName,
                                                  parser.value(QStringLiteral("kluster"))),
                    HistoryStore::localInstant(fetch.state.capturedAt, client.serverClockOffsetMs()),
                    SourceError::joined(fetch.errors), timer.elapsed()));
        } else {
            for (const SourceError &e : fetch.errors)
                QTextStream(Terminal::err()) << "flightdeck-cli check: " << e.toString() << Qt::endl;
            const Diagnosis diagnosis = Diagnosis::run(fetch.state, *options);
            if (parser.isSet(QStringLiteral("explain"))) {
                explain(fetch.state, diagnosis, explainId, &session, &fetcher, [&status](int s) {
                    status = s;
                    QCoreApplication::exit(s);
                });
                return;
            }
            const qint64 elapsed = timer.elapsed();
            withAlerts(&client, *alertmanager, fetch.state, diagnosis, &fetcher,
                [&, state = fetch.state, diagnosis, elapsed](const KlusterAlerts &alerts) {
                    status = writeReport(state, diagnosis, *format, alerts);
                    if (recording) {
                        // The history keeps this machine's time; capturedAt is on the cloud's clock.
                        HistoryRecord r = HistoryRecord::of(state, diagnosis, elapsed);
                        r.at = HistoryStore::localInstant(r.at, client.serverClockOffsetMs());
                        record(r);
                    }
                    if (!CheckReport::readEverySource(state))
                        status = CliOptions::ExitUnknown; // an incomplete check is no all-clear
                    QCoreApplication::exit(status);
                });
            return;
        }
        QCoreApplication::exit(status);
    });
    CliOptions::armDeadline(deadline, &fetcher, [command, seconds = deadline] {
        QCoreApplication::exit(CliOptions::fail(
            command, QStringLiteral("gave up: not finished within %1 s (--deadline)").arg(seconds)));
    });
    fetcher.start();
    QCoreApplication::exec();
    return status;
}
