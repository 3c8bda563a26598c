#include "app/cli/fleetcommands.h"

#include "app/cli/clioptions.h"
#include "app/cli/terminal.h"
#include "console/fleetmonitor.h"
#include "core/checkreport.h"
#include "models/klusterstore.h"
#include "services/cloudconfig.h"
#include "services/connection.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTextStream>

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

QByteArray jsonString(const QString &s)
{
    QByteArray out = "\"";
    for (const QChar c : s) {
        if (c == QLatin1Char('"') || c == QLatin1Char('\\'))
            out += '\\' + QString(c).toUtf8();
        else if (c.unicode() < 0x20)
            out += "\\u" + QByteArray::number(c.unicode(), 16).rightJustified(4, '0');
        else
            out += QString(c).toUtf8();
    }
    return out + '"';
}

QByteArray textReport(const FleetMonitor &fleet)
{
    QByteArray out;
    int counts[4] = {};
    const QList<FleetMonitor::Entry> entries = fleet.entries();
    for (const FleetMonitor::Entry &e : entries) {
        ++counts[qBound(0, e.status, 3)];
        out += "== " + e.key.connection.toUtf8() + " / " + e.key.kluster.toUtf8() + ": "
            + statusWord(e.status).toUtf8() + " ==\n";
        if (!e.up)
            out += "Could not be checked: " + e.problem.toUtf8() + "\n";
        if (e.up && e.data && e.data->fetch && e.data->diagnosis)
            out += CheckReport::toText(e.data->fetch->state, *e.data->diagnosis);
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

// {"klusters": [{"cloud", "kluster", "projectId", "status", "checked", "error", "report"}], "listingErrors",
// "status"}: each report as `check --format json` gives it, unchanged.
QByteArray jsonReport(const FleetMonitor &fleet)
{
    QByteArray out = "{\"klusters\":[";
    const QList<FleetMonitor::Entry> entries = fleet.entries();
    for (qsizetype i = 0; i < entries.size(); ++i) {
        const FleetMonitor::Entry &e = entries[i];
        out += (i > 0 ? "," : "") + QByteArray("{\"cloud\":") + jsonString(e.key.connection)
            + ",\"kluster\":" + jsonString(e.key.kluster) + ",\"projectId\":" + jsonString(e.projectId)
            + ",\"status\":" + QByteArray::number(e.status) + ",\"checked\":" + (e.up ? "true" : "false")
            + ",\"error\":" + (e.up ? QByteArray("null") : jsonString(e.problem)) + ",\"report\":"
            + (e.up && e.data && e.data->fetch && e.data->diagnosis
                    ? CheckReport::toJson(e.data->fetch->state, *e.data->diagnosis).trimmed()
                    : QByteArray("null"))
            + '}';
    }
    out += "],\"listingErrors\":[";
    const auto failures = fleet.listingFailures();
    for (qsizetype i = 0; i < failures.size(); ++i)
        out += (i > 0 ? "," : "") + QByteArray("{\"cloud\":") + jsonString(failures[i].first)
            + ",\"error\":" + jsonString(failures[i].second) + '}';
    out += "],\"status\":" + QByteArray::number(fleet.worstStatus()) + "}\n";
    return out;
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

int runCheckAll(const QCommandLineParser &parser, const DiagnosisOptions &options, const QString &format)
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
    int status = CliOptions::ExitUnknown;
    bool written = false;
    const auto finish = [&] {
        if (written)
            return;
        written = true;
        QByteArray report;
        if (format == QLatin1String("json"))
            report = jsonReport(fleet);
        else if (format == QLatin1String("prometheus")) {
            PrometheusText::Options o;
            o.nodeSeries = *nodeSeries;
            o.runSeconds = double(timer.elapsed()) / 1000.0;
            report = fleet.metrics(o);
        } else
            report = textReport(fleet);
        status = Terminal::writeReport(report, format != QLatin1String("text"))
            ? fleet.worstStatus()
            : CliOptions::fail(command, QStringLiteral("cannot write the report to standard output"));
        QCoreApplication::exit(status);
    };
    QObject::connect(&fleet, &FleetMonitor::firstRoundDone, &fleet, finish);
    // Past the deadline, what was checked is reported; the rest as not checked (exit 3 at least).
    CliOptions::armDeadline(*deadline, &fleet, [&, seconds = *deadline] {
        QTextStream(Terminal::err()) << "flightdeck-cli check: not every kluster checked within " << seconds
                                     << " s (--deadline): the rest are reported as not checked" << Qt::endl;
        finish();
        status = FleetMonitor::graver(status, CliOptions::ExitUnknown);
        QCoreApplication::exit(status);
    });
    fleet.start(0);
    QCoreApplication::exec();
    return status;
}

} // namespace FleetCommands
