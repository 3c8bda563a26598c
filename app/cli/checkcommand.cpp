#include "checkcommand.h"

#include "checkreport.h"
#include "diagnosis.h"
#include "snapshotreader.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QTextStream>

namespace {

constexpr int ExitUnknown = 3;

int fail(const QString &message)
{
    QTextStream(stderr) << "flightdeck-cli check: " << message << Qt::endl;
    return ExitUnknown;
}

} // namespace

int runCheckCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Diagnose one kluster and print its findings, their evidence and their repair plans.\n"
        "Exit status: 0 no warning or critical finding, 1 warnings only, 2 at least one critical finding,\n"
        "3 the check could not run (bad snapshot, bad option)."));
    parser.addHelpOption();
    const QCommandLineOption snapshot(QStringLiteral("snapshot"),
                                      QStringLiteral("Diagnose the snapshot folder <dir> (see snapshot-format)."),
                                      QStringLiteral("dir"));
    const QCommandLineOption format(QStringLiteral("format"), QStringLiteral("Report format: text (default) or json."),
                                    QStringLiteral("text|json"), QStringLiteral("text"));
    const QCommandLineOption startup(QStringLiteral("startup-timeout"),
                                     QStringLiteral("An instance without a node is reported from this age on "
                                                    "(default 10m; s, m, h; a bare number is minutes)."),
                                     QStringLiteral("duration"), QStringLiteral("10m"));
    const QCommandLineOption token(QStringLiteral("token-expiry"),
                                   QStringLiteral("Bootstrap token lifetime: an unregistered instance older than "
                                                  "this can never join and is critical (default 30m)."),
                                   QStringLiteral("duration"), QStringLiteral("30m"));
    const QCommandLineOption routeLimit(QStringLiteral("route-limit"),
                                        QStringLiteral("Routes allowed per router (default: the snapshot's "
                                                       "maxRoutes, else 30)."),
                                        QStringLiteral("count"));
    const QCommandLineOption routeWarning(QStringLiteral("route-warning"),
                                          QStringLiteral("Warn when the router's routes reach this percentage of "
                                                         "the limit (default 80)."),
                                          QStringLiteral("percent"), QStringLiteral("80"));
    const QCommandLineOption maxUnhealthy(QStringLiteral("max-unhealthy"),
                                          QStringLiteral("Remediation budget: refuse instance deletions while more "
                                                         "expected nodes than this are unhealthy; a count or a "
                                                         "percentage, rounded down (default 40%)."),
                                          QStringLiteral("count|percent%"), QStringLiteral("40%"));
    parser.addOptions({snapshot, format, startup, token, routeLimit, routeWarning, maxUnhealthy});

    if (!parser.parse(arguments))
        return fail(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        QTextStream(stdout) << parser.helpText().replace(QStringLiteral("flightdeck-cli [options]"),
                                                         QStringLiteral("flightdeck-cli check [options]"));
        return 0;
    }
    if (!parser.positionalArguments().isEmpty())
        return fail(QStringLiteral("unexpected argument \"%1\"").arg(parser.positionalArguments().first()));

    DiagnosisOptions options;
    if (const auto s = DiagnosisOptions::parseDurationSeconds(parser.value(startup)))
        options.startupTimeoutSeconds = *s;
    else
        return fail(QStringLiteral("--startup-timeout: \"%1\" is not a duration").arg(parser.value(startup)));
    if (const auto s = DiagnosisOptions::parseDurationSeconds(parser.value(token)))
        options.tokenExpirySeconds = *s;
    else
        return fail(QStringLiteral("--token-expiry: \"%1\" is not a duration").arg(parser.value(token)));
    if (parser.isSet(routeLimit)) {
        bool ok = false;
        const int n = parser.value(routeLimit).toInt(&ok);
        if (!ok || n <= 0)
            return fail(QStringLiteral("--route-limit: \"%1\" is not a positive count").arg(parser.value(routeLimit)));
        options.routeLimit = n;
        options.routeLimitExplicit = true;
    }
    {
        bool ok = false;
        QString text = parser.value(routeWarning).trimmed();
        if (text.endsWith(QLatin1Char('%')))
            text.chop(1);
        const int n = text.toInt(&ok);
        if (!ok || n <= 0 || n > 100)
            return fail(QStringLiteral("--route-warning: \"%1\" is not a percentage from 1 to 100")
                            .arg(parser.value(routeWarning)));
        options.routeWarningPercent = n;
    }
    if (const auto m = MaxUnhealthy::parse(parser.value(maxUnhealthy)))
        options.maxUnhealthy = *m;
    else
        return fail(QStringLiteral("--max-unhealthy: \"%1\" is neither a count nor a percentage")
                        .arg(parser.value(maxUnhealthy)));

    const QString fmt = parser.value(format);
    if (fmt != QLatin1String("text") && fmt != QLatin1String("json"))
        return fail(QStringLiteral("--format: \"%1\" is not text or json").arg(fmt));
    if (!parser.isSet(snapshot))
        return fail(QStringLiteral("nothing to check: give --snapshot DIR (see --help)"));

    KlusterState state;
    try {
        state = SnapshotReader::read(parser.value(snapshot));
    } catch (const ParseError &error) {
        return fail(error.toString());
    }

    const Diagnosis diagnosis = Diagnosis::run(state, options);
    const QByteArray report = fmt == QLatin1String("json") ? CheckReport::toJson(state, diagnosis)
                                                           : CheckReport::toText(state, diagnosis);
    QFile out;
    if (!out.open(stdout, QIODevice::WriteOnly) || out.write(report) != report.size())
        return fail(QStringLiteral("cannot write the report to standard output"));
    out.flush();
    return CheckReport::exitStatus(diagnosis);
}
