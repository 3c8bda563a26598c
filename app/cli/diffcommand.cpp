#include "app/cli/diffcommand.h"

#include "app/cli/clioptions.h"
#include "app/cli/terminal.h"
#include "core/diagnosis.h"
#include "core/statechangereport.h"
#include "services/local/snapshotreader.h"

#include <QCommandLineParser>
#include <QFile>
#include <QTextStream>

int runDiffCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Say what changed in a kluster between two snapshot folders of it: instances added, removed or\n"
        "changed state; nodes joined, left or changed conditions; routes added and removed; security\n"
        "group rules and memberships changed; findings opened and resolved. Incidents (findings that\n"
        "share one cause) opened and resolved come first.\n"
        "Exit status: 0 no difference, 1 differences, 3 the diff could not be made (a bad snapshot,\n"
        "two different klusters)."));
    parser.addHelpOption();
    parser.addPositionalArgument(
        QStringLiteral("SNAPSHOT_A"), QStringLiteral("The earlier snapshot folder."));
    parser.addPositionalArgument(QStringLiteral("SNAPSHOT_B"), QStringLiteral("The later snapshot folder."));
    parser.addOption({ QStringLiteral("format"), QStringLiteral("Output format: text (default) or json."),
        QStringLiteral("text|json"), QStringLiteral("text") });
    CliOptions::addDiagnosis(parser);
    const QString command = QStringLiteral("diff");

    if (!parser.parse(arguments))
        return CliOptions::fail(command, parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        QTextStream(Terminal::out()) << parser.helpText().replace(
            QStringLiteral("flightdeck-cli [options]"), QStringLiteral("flightdeck-cli diff [options]"));
        return 0;
    }
    const QStringList folders = parser.positionalArguments();
    if (folders.size() != 2)
        return CliOptions::fail(command,
            folders.size() < 2
                ? QStringLiteral("give two snapshot folders: diff SNAPSHOT_A SNAPSHOT_B (see --help)")
                : QStringLiteral("unexpected argument \"%1\": diff compares two snapshot folders")
                      .arg(folders.at(2)));
    QString error;
    const std::optional<DiagnosisOptions> options = CliOptions::readDiagnosis(parser, &error);
    if (!options)
        return CliOptions::fail(command, error);
    const QString format = parser.value(QStringLiteral("format"));
    if (format != QLatin1String("text") && format != QLatin1String("json"))
        return CliOptions::fail(command, QStringLiteral("--format: \"%1\" is not text or json").arg(format));

    StateDigest digests[2];
    QList<Incident> incidents[2];
    QString cloud[2], region[2];
    for (int i = 0; i < 2; ++i) {
        KlusterState state;
        try {
            state = SnapshotReader::read(folders.at(i));
        } catch (const ParseError &e) {
            return CliOptions::fail(command, e.toString());
        }
        const Diagnosis diagnosis = Diagnosis::run(state, *options);
        digests[i] = StateDigest::of(state, diagnosis);
        incidents[i] = diagnosis.incidents;
        cloud[i] = state.cloud;
        region[i] = state.region;
    }
    const StateDigest &before = digests[0];
    const StateDigest &after = digests[1];
    // One kluster: the same name, and the same cloud and region wherever both snapshots say them (two
    // klusters named alike in two clouds or regions are two klusters, and their "no changes" a lie).
    const auto differ
        = [](const QString &a, const QString &b) { return !a.isEmpty() && !b.isEmpty() && a != b; };
    if (before.kluster != after.kluster || differ(cloud[0], cloud[1]) || differ(region[0], region[1])) {
        const auto name = [&](int i) {
            return QStringLiteral("%1 (cloud %2, region %3)")
                .arg(digests[i].kluster, cloud[i].isEmpty() ? QStringLiteral("not said") : cloud[i],
                    region[i].isEmpty() ? QStringLiteral("not said") : region[i]);
        };
        return CliOptions::fail(command,
            QStringLiteral("%1 is kluster %2 and %3 is kluster %4: diff compares two moments of one kluster")
                .arg(folders.at(0), name(0), folders.at(1), name(1)));
    }
    const QList<StateChange> changes = diffStates(before, after);
    const QList<IncidentChange> incidentChanges = diffIncidents(before, incidents[0], after, incidents[1]);
    const QByteArray report = format == QLatin1String("json")
        ? stateChangesJson(before, after, changes, incidentChanges)
        : stateChangesText(before, after, changes, incidentChanges);
    // JSON as written (its writer escapes every control character); the text through the terminal's guard.
    if (!Terminal::writeReport(report, format == QLatin1String("json")))
        return CliOptions::fail(command, QStringLiteral("cannot write to standard output"));
    return changes.isEmpty() && incidentChanges.isEmpty() ? 0 : 1;
}
