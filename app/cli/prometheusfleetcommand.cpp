// flightdeck-cli fleet: the whole estate as the team's Prometheus holds it, read from the series the
// `flightdeck-cli serve` exporters give it (a few instant queries, never one per kluster), worst first.

#include "app/cli/clioptions.h"
#include "app/cli/terminal.h"
#include "core/checkreport.h"
#include "core/printable.h"
#include "services/http/httpclient.h"
#include "services/monitoring/prometheusclient.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

namespace {

using ExportedFleet::Exporter;
using ExportedFleet::Fleet;
using Exported = ExportedFleet::Kluster;

QString ageText(const std::optional<QDateTime> &at, const QDateTime &now)
{
    if (!at)
        return QStringLiteral("never");
    const qint64 s = qMax<qint64>(0, at->secsTo(now));
    if (s < 120)
        return QStringLiteral("%1 s").arg(s);
    if (s < 7200)
        return QStringLiteral("%1 min").arg(s / 60);
    return QStringLiteral("%1 h").arg(s / 3600);
}

QString standingText(const Exported &k)
{
    QString text = k.standing.headline();
    if (k.reading == Reading::Stale)
        text = QStringLiteral("STALE · ") + text;
    else if (k.reading == Reading::Unreadable)
        text = QStringLiteral("UNREADABLE");
    return text;
}

QJsonObject toJson(const Exported &k)
{
    QJsonObject target;
    for (auto it = k.target.cbegin(); it != k.target.cend(); ++it)
        target.insert(it.key(), it.value());
    QJsonObject o { { QStringLiteral("name"), k.name }, { QStringLiteral("projectId"), k.projectId },
        { QStringLiteral("target"), target }, { QStringLiteral("exporter"), k.exporter },
        { QStringLiteral("exporters"), k.exporters }, { QStringLiteral("present"), k.present },
        { QStringLiteral("up"), k.up }, { QStringLiteral("reading"), readingName(k.reading) },
        { QStringLiteral("phase"), k.phase }, { QStringLiteral("critical"), k.standing.critical },
        { QStringLiteral("warning"), k.standing.warning },
        { QStringLiteral("incidents"), k.standing.incidents },
        { QStringLiteral("worstCause"), k.standing.worstCause },
        { QStringLiteral("reason"), k.standing.reason } };
    o.insert(QStringLiteral("readAt"),
        k.readAt ? QJsonValue(k.readAt->toUTC().toString(Qt::ISODateWithMs)) : QJsonValue());
    return o;
}

QJsonObject toJson(const Exporter &e)
{
    QJsonObject o { { QStringLiteral("instance"), e.instance }, { QStringLiteral("job"), e.job },
        { QStringLiteral("up"), e.up }, { QStringLiteral("klusters"), e.klusters } };
    o.insert(QStringLiteral("lastSeen"),
        e.lastSeen ? QJsonValue(e.lastSeen->toUTC().toString(Qt::ISODateWithMs)) : QJsonValue());
    if (e.shard && e.shards)
        o.insert(QStringLiteral("shard"), QStringLiteral("%1/%2").arg(*e.shard).arg(*e.shards));
    return o;
}

void printText(QTextStream &out, const PrometheusTarget &target, const PrometheusClient::Round &round)
{
    const Fleet &fleet = round.fleet;
    int critical = 0;
    int warning = 0;
    int doubtful = 0;
    for (const Exported &k : fleet.klusters) {
        critical += k.standing.worst == Severity::Critical ? 1 : 0;
        warning += k.standing.worst == Severity::Warning ? 1 : 0;
        doubtful += k.reading == Reading::Fresh ? 0 : 1;
    }
    out << "Fleet from Prometheus " << target.displayUrl() << " at "
        << fleet.evaluatedAt.toUTC().toString(Qt::ISODate) << ": " << fleet.klusters.size() << " klusters · "
        << critical << " critical · " << warning << " warning · "
        << (fleet.klusters.size() - critical - warning) << " without · " << doubtful << " data in doubt\n";
    out << ExportedFleet::exportersText(fleet) << " · " << round.queries << " queries";
    if (fleet.duplicates > 0)
        out << " · " << fleet.duplicates << " kluster series given twice (HA), shown once";
    out << "\n\n";
    const QStringList header { QStringLiteral("KLUSTER"), QStringLiteral("PROJECT"),
        QStringLiteral("STANDING"), QStringLiteral("WORST CAUSE"), QStringLiteral("PHASE"),
        QStringLiteral("DATA AGE"), QStringLiteral("EXPORTER") };
    QList<QStringList> rows { header };
    for (const Exported &k : fleet.klusters)
        rows << QStringList { printable(k.title()), printable(k.projectId), standingText(k),
            k.standing.reason.isEmpty() ? QStringLiteral("-") : k.standing.reason,
            k.phase.isEmpty() ? QStringLiteral("-") : printable(k.phase),
            ageText(k.readAt, fleet.evaluatedAt),
            printable(k.exporter) + (k.present ? QString() : QStringLiteral(" (not scraped now)")) };
    QList<int> widths(header.size(), 0);
    for (const QStringList &row : rows)
        for (int c = 0; c < row.size(); ++c)
            widths[c] = qMax(widths[c], int(row.at(c).size()));
    for (const QStringList &row : rows) {
        QString line;
        for (int c = 0; c < row.size(); ++c)
            line += c + 1 < row.size() ? row.at(c).leftJustified(widths[c] + 2) : row.at(c);
        out << line << '\n';
    }
}

} // namespace

int runFleetCommand(const QStringList &arguments)
{
    const QString command = QStringLiteral("fleet");
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "List every kluster the team's Prometheus holds from the flightdeck-cli serve exporters it scrapes, "
        "worst first: its causes, worst cause, phase and the age of its data. Four instant queries, "
        "whatever "
        "the fleet's size; two exporters of the same klusters (HA) count once, shards join, the klusters of "
        "an "
        "exporter no longer scraped are shown stale. Exit status: 0 nothing critical or warning, 1 a "
        "warning, "
        "2 a critical kluster, 3 the Prometheus could not be read."));
    parser.addHelpOption();
    CliOptions::addPrometheus(parser);
    parser.addOption({ QStringLiteral("format"), QStringLiteral("text (default) or json."),
        QStringLiteral("text|json"), QStringLiteral("text") });
    if (!parser.parse(arguments))
        return CliOptions::fail(command, parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        QTextStream(Terminal::out()) << parser.helpText();
        return 0;
    }
    const QString format = parser.value(QStringLiteral("format"));
    if (format != QLatin1String("text") && format != QLatin1String("json"))
        return CliOptions::fail(command, QStringLiteral("--format: text or json"));
    QString error;
    const std::optional<PrometheusTarget> target = CliOptions::readPrometheus(parser, &error);
    if (!target)
        return CliOptions::fail(command, error);
    if (!target->isSet())
        return CliOptions::fail(command, QStringLiteral("give --prometheus URL"));

    HttpClient http;
    PrometheusClient client(&http, *target);
    int status = CliOptions::ExitUnknown;
    client.readFleet(&client, [&](const PrometheusClient::Round &round) {
        if (!round.error.isEmpty()) {
            status = CliOptions::fail(command, printable(round.error));
            QCoreApplication::exit(status);
            return;
        }
        status = 0;
        for (const Exported &k : round.fleet.klusters) {
            const int mine = k.standing.worst == Severity::Critical ? 2
                : k.standing.worst == Severity::Warning             ? 1
                                                                    : 0;
            status = CheckReport::graverStatus(status, mine);
        }
        QTextStream out(Terminal::out());
        if (format == QLatin1String("json")) {
            QJsonArray klusters;
            for (const Exported &k : round.fleet.klusters)
                klusters.append(toJson(k));
            QJsonArray exporters;
            for (const Exporter &e : round.fleet.exporters)
                exporters.append(toJson(e));
            const QJsonObject doc { { QStringLiteral("prometheus"), target->displayUrl() },
                { QStringLiteral("evaluatedAt"),
                    round.fleet.evaluatedAt.toUTC().toString(Qt::ISODateWithMs) },
                { QStringLiteral("queries"), round.queries },
                { QStringLiteral("duplicates"), round.fleet.duplicates },
                { QStringLiteral("exporters"), exporters }, { QStringLiteral("klusters"), klusters } };
            out << QJsonDocument(doc).toJson(QJsonDocument::Indented);
        } else {
            printText(out, *target, round);
        }
        out.flush();
        QCoreApplication::exit(status);
    });
    QCoreApplication::exec();
    return status;
}
