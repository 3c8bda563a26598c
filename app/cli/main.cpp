// flightdeck-cli: the headless twin of the console, for scripts, monitoring
// systems and incident records.

#include "app/cli/clicommands.h"
#include "app/cli/terminal.h"
#include "services/local/hardening.h"

#include <QCoreApplication>
#include <QTextStream>

int main(int argc, char *argv[])
{
    Hardening::noCoreDumps(); // before anything holds a secret
    Hardening::moreOpenFiles(); // a fleet: a socket per kluster API and node watch
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("flightdeck-cli"));
    QCoreApplication::setOrganizationName(QStringLiteral("flightdeck"));
    QCoreApplication::setApplicationVersion(QStringLiteral(FLIGHTDECK_VERSION));

    QStringList args = QCoreApplication::arguments();
    const QString first = args.value(1);
    if (first.isEmpty() || first == QLatin1String("-h") || first == QLatin1String("--help")
        || first == QLatin1String("help")) {
        QTextStream(first.isEmpty() ? Terminal::err() : Terminal::out()) << CliCommands::usage();
        return first.isEmpty() ? 3 : 0;
    }
    if (first == QLatin1String("-v") || first == QLatin1String("--version")
        || first == QLatin1String("version")) {
        QTextStream(Terminal::out()) << "flightdeck-cli " << QCoreApplication::applicationVersion()
                                     << Qt::endl;
        return 0;
    }
    // The names, one per line (what the completions and the manual are checked against).
    if (first == QLatin1String("commands")) {
        QTextStream out(Terminal::out());
        for (const CliCommands::Command &c : CliCommands::all())
            out << c.name << '\n';
        return 0;
    }
    if (const CliCommands::Command *command = CliCommands::find(first)) {
        args.removeAt(1);
        return command->run(args);
    }
    QTextStream(Terminal::err()) << "flightdeck-cli: unknown command \"" << first << "\"\n\n"
                                 << CliCommands::usage();
    return 3;
}
