#include "app/cli/fleetcommands.h"

#include "app/cli/clioptions.h"
#include "app/cli/terminal.h"
#include "console/fleetmonitor.h"
#include "console/klusterstore.h"
#include "core/checkreport.h"
#include "core/json/jsonwriter.h"
#include "core/printable.h"
#include "services/connection.h"
#include "services/http/httpclient.h"
#include "services/local/cloudconfig.h"
#include "services/monitoring/alertmanagerclient.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTextStream>
#include <algorithm>
#include <climits>

namespace {

constexpr int DefaultConcurrency = 8;

QString statusWord(int status)
{
    switch (status) {
    case 0:
        return QStringLiteral("OK");
    case 1:
        return QStringLiteral("WARNING");
    case 2:
        return QStringLiteral("CRITICAL");
    default:
        return QStringLiteral("UNKNOWN");
    }
}

// With --alertmanager: every alert of the Alertmanager, read once for the fleet and split by kluster.
struct FleetAlerts
{
    AlertmanagerTarget target;
    bool known = false;
    QList<Alert> all;
    QString error;

    KlusterAlerts of(const FleetMonitor::Entry &e) const
    {
        KlusterAlerts out;
        out.configured = target.isSet();
        out.known = known;
        out.error = error;
        if (known && e.data && e.data->fetch && e.data->diagnosis) {
            out.alerts
                = Alerts::ofKluster(all, target.klusterLabels, e.key.kluster, e.projectId, &out.omitted);
            Alerts::matchFindings(out.alerts, e.data->fetch->state, *e.data->diagnosis);
        }
        return out;
    }
};

// One line per kluster in the one ranking (KlusterRanking, the console's list's order): its status, its
// counts as causes (KlusterStanding, the list's vocabulary) and its worst cause. What `check --all` prints
// without --verbose.
QByteArray summaryReport(const FleetMonitor &fleet)
{
    const QList<FleetMonitor::Entry> entries = fleet.rankedEntries();
    int width = 0;
    for (const FleetMonitor::Entry &e : entries)
        width = qMax(width, int(printable(e.key.toString()).size()));
    int counts[4] = {};
    QString out;
    for (const FleetMonitor::Entry &e : entries) {
        ++counts[qBound(0, e.status, 3)];
        const RankedKluster k = FleetMonitor::ranked(e);
        QString line
            = statusWord(e.status).leftJustified(9) + printable(e.key.toString()).leftJustified(width + 2);
        const bool read = e.data && e.data->fetch && e.data->diagnosis;
        if (!e.up)
            line += QStringLiteral("could not be checked: %1").arg(printable(e.problem));
        else if (read && !k.standing.worst && k.standing.terminating)
            line += QStringLiteral("%1: Terminating, nothing of it is repaired")
                        .arg(printable(k.standing.reason));
        else if (read && !k.standing.worst)
            line += QStringLiteral("healthy: no critical or warning finding");
        if (read && k.standing.worst) {
            if (!e.up)
                line += QStringLiteral("; as last read: ");
            line += QStringLiteral("%1; worst: %2 (%3)")
                        .arg(k.standing.text(k.reading == Reading::Incomplete), printable(k.standing.reason),
                            printable(k.standing.worstCause));
        }
        out += line + QLatin1Char('\n');
    }
    for (const auto &[cloud, error] : fleet.listingFailures())
        out += statusWord(3).leftJustified(9) + printable(cloud)
            + QStringLiteral(": its klusters could not be listed: ") + printable(error) + QLatin1Char('\n');
    out += QStringLiteral(
        "\n%1 klusters: %2 critical, %3 warning, %4 ok, %5 could not be checked (worst first; counts are of "
        "causes: an incident once)\n"
        "Each kluster's report: flightdeck-cli check --cloud CLOUD --kluster NAME (or --all --verbose).\n")
               .arg(entries.size())
               .arg(counts[2])
               .arg(counts[1])
               .arg(counts[0])
               .arg(counts[3]);
    return out.toUtf8();
}

QByteArray textReport(const FleetMonitor &fleet, const FleetAlerts &alerts)
{
    QByteArray out;
    int counts[4] = {};
    const QList<FleetMonitor::Entry> entries = fleet.rankedEntries();
    for (const FleetMonitor::Entry &e : entries) {
        ++counts[qBound(0, e.status, 3)];
        out += "== " + e.key.connection.toUtf8() + " / " + e.key.kluster.toUtf8() + ": "
            + statusWord(e.status).toUtf8() + " ==\n";
        if (!e.up)
            out += "Could not be checked (" + e.problem.toUtf8() + ")"
                + (e.data && e.data->fetch ? ": what was read, as it was read" : "") + ".\n";
        if (e.data && e.data->fetch && e.data->diagnosis)
            out += CheckReport::toText(e.data->fetch->state, *e.data->diagnosis, alerts.of(e));
        out += '\n';
    }
    for (const auto &[cloud, error] : fleet.listingFailures())
        out += "== " + cloud.toUtf8() + ": UNKNOWN ==\nIts klusters could not be listed: " + error.toUtf8()
            + "\n\n";
    out += QStringLiteral("%1 klusters: %2 critical, %3 warning, %4 ok, %5 could not be checked\n")
               .arg(entries.size())
               .arg(counts[2])
               .arg(counts[1])
               .arg(counts[0])
               .arg(counts[3])
               .toUtf8();
    return out;
}

// {"klusters": [{"rank", "cloud", "kluster", "projectId", "status", "checked", "error", "standing",
// "report"}], "listingErrors", "status"}, the klusters in the one ranking (worst first): each report as
// `check
// --format json` gives it, unchanged (null when nothing could be read); "standing" its counts as causes.
QByteArray jsonReport(const FleetMonitor &fleet, const FleetAlerts &alerts)
{
    JsonWriter w(JsonWriter::Style::Compact);
    w.beginObject();
    w.key(QStringLiteral("klusters"));
    w.beginArray();
    int rank = 0;
    for (const FleetMonitor::Entry &e : fleet.rankedEntries()) {
        const RankedKluster k = FleetMonitor::ranked(e);
        w.beginObject();
        w.key(QStringLiteral("rank"));
        w.value(QJsonValue(++rank));
        w.key(QStringLiteral("cloud"));
        w.value(e.key.connection);
        w.key(QStringLiteral("kluster"));
        w.value(e.key.kluster);
        w.key(QStringLiteral("projectId"));
        w.value(e.projectId);
        w.key(QStringLiteral("status"));
        w.value(QJsonValue(e.status));
        w.key(QStringLiteral("checked"));
        w.value(QJsonValue(e.up));
        w.key(QStringLiteral("error"));
        w.value(e.up ? QJsonValue() : QJsonValue(e.problem));
        w.key(QStringLiteral("standing"));
        w.beginObject();
        w.key(QStringLiteral("reading"));
        w.value(readingName(k.reading));
        w.key(QStringLiteral("reason"));
        w.value(KlusterRanking::reason(k));
        w.key(QStringLiteral("worstCause"));
        w.value(k.standing.worstCause.isEmpty() ? QJsonValue() : QJsonValue(k.standing.worstCause));
        w.key(QStringLiteral("critical"));
        w.value(QJsonValue(k.standing.critical));
        w.key(QStringLiteral("warning"));
        w.value(QJsonValue(k.standing.warning));
        w.key(QStringLiteral("incidents"));
        w.value(QJsonValue(k.standing.incidents));
        w.key(QStringLiteral("incidentFindings"));
        w.value(QJsonValue(k.standing.members));
        w.key(QStringLiteral("otherFindings"));
        w.value(QJsonValue(k.standing.lone));
        w.key(QStringLiteral("text"));
        w.value(k.standing.text(k.reading == Reading::Incomplete));
        w.endObject();
        w.key(QStringLiteral("report"));
        if (e.data && e.data->fetch && e.data->diagnosis)
            w.raw(CheckReport::toJson(e.data->fetch->state, *e.data->diagnosis, alerts.of(e)).trimmed());
        else
            w.value(QJsonValue());
        w.endObject();
    }
    w.endArray();
    w.key(QStringLiteral("listingErrors"));
    w.beginArray();
    for (const auto &[cloud, error] : fleet.listingFailures()) {
        w.beginObject();
        w.key(QStringLiteral("cloud"));
        w.value(cloud);
        w.key(QStringLiteral("error"));
        w.value(error);
        w.endObject();
    }
    w.endArray();
    w.key(QStringLiteral("status"));
    w.value(QJsonValue(fleet.worstStatus()));
    w.endObject();
    return w.takeBytes() + '\n';
}

} // namespace

namespace FleetCommands {

void addCheckAllOptions(QCommandLineParser &parser)
{
    parser.addOption({ QStringLiteral("all"),
        QStringLiteral(
            "Check every kluster of the cloud's project (--cloud may be repeated); the exit status is "
            "the worst kluster's: critical, then could not be checked, then warning.") });
    parser.addOption({ QStringLiteral("all-clouds"),
        QStringLiteral("Check every kluster of every cloud of clouds.yaml.") });
    parser.addOption({ QStringLiteral("verbose"),
        QStringLiteral(
            "With --all, in text: every kluster's whole report, not one line each (worst first).") });
    parser.addOption({ QStringLiteral("concurrency"),
        QStringLiteral("With --all: klusters checked at once per cloud (default %1).")
            .arg(DefaultConcurrency),
        QStringLiteral("n") });
    parser.addOption({ QStringLiteral("node-series"),
        QStringLiteral("With --format prometheus: a series per node, at most n in all (default 0: none)."),
        QStringLiteral("n") });
}

bool wantsCheckAll(const QCommandLineParser &parser)
{
    return parser.isSet(QStringLiteral("all")) || parser.isSet(QStringLiteral("all-clouds"));
}

std::optional<QList<CloudConfig>> loadClouds(const QStringList &names, bool allClouds, QString *error)
{
    if (allClouds && !names.isEmpty()) {
        *error = QStringLiteral("give --cloud NAME (one or more) or --all-clouds, not both");
        return std::nullopt;
    }
    QStringList wanted = names;
    if (allClouds) {
        wanted = CloudConfigLoader::cloudNames(error);
        if (wanted.isEmpty()) {
            if (error->isEmpty())
                *error = QStringLiteral("--all-clouds: no cloud in clouds.yaml (%1) and no OS_* variables")
                             .arg(CloudConfigLoader::cloudsFiles().join(QStringLiteral(", ")));
            return std::nullopt;
        }
    }
    if (wanted.isEmpty())
        wanted << QString(); // $OS_CLOUD, else the OS_* variables
    wanted.removeDuplicates();
    QList<CloudConfig> clouds;
    for (const QString &name : std::as_const(wanted)) {
        std::optional<CloudConfig> cloud = CloudConfigLoader::load(name, error);
        if (!cloud || !CliOptions::completeSecret(*cloud, error))
            return std::nullopt;
        clouds << *cloud;
    }
    return clouds;
}

std::optional<int> readCount(
    const QCommandLineParser &parser, const QString &name, int fallback, int min, int max, QString *error)
{
    if (!parser.isSet(name))
        return fallback;
    bool ok = false;
    const int n = parser.value(name).toInt(&ok);
    if (!ok || n < min || n > max) {
        *error = QStringLiteral("--%1: \"%2\" is not a number from %3 to %4")
                     .arg(name, parser.value(name).left(40))
                     .arg(min)
                     .arg(max);
        return std::nullopt;
    }
    return n;
}

ConnectionSpec specFor(const CloudConfig &cloud, const DiagnosisOptions &options, int concurrency, bool watch)
{
    ConnectionSpec spec;
    spec.name = cloud.name;
    spec.config = cloud;
    spec.options = options;
    spec.readOnly = true; // the fleet commands read; repairs are `repair`'s
    spec.refreshConcurrency = concurrency;
    spec.watchNodes = watch;
    return spec;
}

int runCheckAll(const QCommandLineParser &parser, const DiagnosisOptions &options,
    CliOptions::ReportFormat format, const AlertmanagerTarget &alertmanager)
{
    const QString command = QStringLiteral("check");
    if (parser.isSet(QStringLiteral("kluster")) || parser.isSet(QStringLiteral("snapshot")))
        return CliOptions::fail(
            command, QStringLiteral("--all checks every kluster: leave out --kluster and --snapshot"));
    if (parser.isSet(QStringLiteral("kubeconfig")) || parser.isSet(QStringLiteral("context")))
        return CliOptions::fail(command,
            QStringLiteral("--all reads each kluster with the credentials Kubernikus hands out: leave out "
                           "--kubeconfig and --context"));
    QString error;
    const std::optional<int> concurrency
        = readCount(parser, QStringLiteral("concurrency"), DefaultConcurrency, 1, 256, &error);
    const std::optional<int> nodeSeries
        = readCount(parser, QStringLiteral("node-series"), 0, 0, 1000000, &error);
    const std::optional<int> deadline = CliOptions::readDeadline(parser, &error);
    if (!concurrency || !nodeSeries || !deadline)
        return CliOptions::fail(command, error);
    const std::optional<QList<CloudConfig>> clouds = loadClouds(
        parser.values(QStringLiteral("cloud")), parser.isSet(QStringLiteral("all-clouds")), &error);
    if (!clouds)
        return CliOptions::fail(command, error);

    FleetMonitor fleet;
    for (const CloudConfig &cloud : *clouds)
        fleet.add(specFor(cloud, options, *concurrency, false));
    if (parser.isSet(QStringLiteral("record")))
        fleet.recordHistory();
    QElapsedTimer timer;
    timer.start();
    FleetAlerts alerts;
    alerts.target = alertmanager;
    HttpClient alertmanagerHttp;
    AlertmanagerClient alertmanagerClient(&alertmanagerHttp, alertmanager);
    int status = CliOptions::ExitUnknown;
    bool written = false;
    const auto finish = [&] {
        if (written)
            return;
        written = true;
        QByteArray report;
        if (format == CliOptions::ReportFormat::Json)
            report = jsonReport(fleet, alerts);
        else if (format == CliOptions::ReportFormat::Prometheus) {
            PrometheusText::Options o;
            o.nodeSeries = *nodeSeries;
            o.runSeconds = double(timer.elapsed()) / 1000.0;
            report = fleet.metrics(o);
        } else if (parser.isSet(QStringLiteral("verbose")))
            report = textReport(fleet, alerts);
        else
            report = summaryReport(fleet);
        status = Terminal::writeReport(report, format != CliOptions::ReportFormat::Text)
            ? fleet.worstStatus()
            : CliOptions::fail(command, QStringLiteral("cannot write the report to standard output"));
        QCoreApplication::exit(status);
    };
    // The alerts are read once the klusters are (the Prometheus format has none: they are Alertmanager's).
    const auto readAlertsThenFinish = [&] {
        if (!alertmanager.isSet() || format == CliOptions::ReportFormat::Prometheus) {
            finish();
            return;
        }
        alertmanagerClient.fetchAllAlerts(&fleet, [&](const QList<Alert> &all, const QString &failure) {
            alerts.known = failure.isEmpty();
            alerts.all = all;
            alerts.error = failure;
            if (!alerts.known)
                QTextStream(Terminal::err())
                    << "flightdeck-cli check: alerts not read: " << failure << Qt::endl;
            finish();
        });
    };
    QObject::connect(&fleet, &FleetMonitor::firstRoundDone, &fleet, readAlertsThenFinish);
    // Past the deadline, what was checked is reported; the rest as not checked (exit 3 at least).
    CliOptions::armDeadline(*deadline, &fleet, [&, seconds = *deadline] {
        if (written)
            return;
        QTextStream(Terminal::err()) << "flightdeck-cli check: not every kluster checked within " << seconds
                                     << " s (--deadline): the rest are reported as not checked" << Qt::endl;
        finish();
        status = CheckReport::graverStatus(status, CliOptions::ExitUnknown);
        QCoreApplication::exit(status);
    });
    fleet.start(0);
    QCoreApplication::exec();
    return status;
}

} // namespace FleetCommands
