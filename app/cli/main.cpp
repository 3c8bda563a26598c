// flightdeck-cli: the headless twin of the console, for scripts, monitoring
// systems and incident records.

#include "app/cli/checkcommand.h"
#include "app/cli/diffcommand.h"
#include "app/cli/fleetcommands.h"
#include "app/cli/livecommands.h"
#include "app/cli/terminal.h"
#include "services/hardening.h"

#include <QCoreApplication>
#include <QTextStream>

static const char usage[]
    = "Usage: flightdeck-cli <command> [options]\n"
      "\n"
      "Diagnose Kubernikus klusters: nodes that never registered, instances cut off\n"
      "from their security group, missing pod-network rules, duplicate, orphaned,\n"
      "stale or missing routes, a router at its route limit.\n"
      "\n"
      "Commands:\n"
      "  check      Diagnose a kluster (a snapshot folder, or live), or every kluster (--all), and\n"
      "             print the findings (text, JSON, or Prometheus metrics)\n"
      "  serve      Keep every kluster of the clouds checked and serve Prometheus metrics\n"
      "  snapshot   Fetch a kluster and write it as a snapshot folder\n"
      "  diff       Say what changed in a kluster between two snapshot folders\n"
      "  klusters   List the klusters of a cloud's project\n"
      "  repair     Repair findings (one, several, or all of a router's routes): print the\n"
      "             plan, send it with --yes, verify, audit\n"
      "  audit      Print the audit log of repairs\n"
      "  credentials  Keep a cloud's password in the system keychain (set, status, delete)\n"
      "  (flightdeck-cli COMMAND --help for each command's options)\n"
      "\n"
      "Clouds come from clouds.yaml (+ secure.yaml) or the OS_* variables; nodes from the\n"
      "kubeconfig Kubernikus hands out, or --kubeconfig/--context.\n"
      "\n"
      "Options:\n"
      "  -h, --help     Show this help\n"
      "  -v, --version  Show the version\n";

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
        QTextStream(first.isEmpty() ? Terminal::err() : Terminal::out()) << usage;
        return first.isEmpty() ? 3 : 0;
    }
    if (first == QLatin1String("-v") || first == QLatin1String("--version")
        || first == QLatin1String("version")) {
        QTextStream(Terminal::out()) << "flightdeck-cli " << QCoreApplication::applicationVersion()
                                     << Qt::endl;
        return 0;
    }
    const QHash<QString, int (*)(const QStringList &)> commands = {
        { QStringLiteral("check"), &runCheckCommand }, { QStringLiteral("snapshot"), &runSnapshotCommand },
        { QStringLiteral("diff"), &runDiffCommand }, { QStringLiteral("klusters"), &runKlustersCommand },
        { QStringLiteral("repair"), &runRepairCommand }, { QStringLiteral("audit"), &runAuditCommand },
        { QStringLiteral("credentials"), &runCredentialsCommand },
        { QStringLiteral("serve"), &runServeCommand }
    };
    if (const auto run = commands.value(first)) {
        args.removeAt(1);
        return run(args);
    }
    QTextStream(Terminal::err()) << "flightdeck-cli: unknown command \"" << first << "\"\n\n" << usage;
    return 3;
}
