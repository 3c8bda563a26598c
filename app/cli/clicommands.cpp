#include "app/cli/clicommands.h"

#include "app/cli/checkcommand.h"
#include "app/cli/diffcommand.h"
#include "app/cli/fleetcommands.h"
#include "app/cli/livecommands.h"

namespace CliCommands {

const QList<Command> &all()
{
    static const QList<Command> commands = {
        { QStringLiteral("check"),
            QStringLiteral("Diagnose a kluster (a snapshot folder, or live), or every kluster (--all), and "
                           "print the findings (text, JSON, or Prometheus metrics)"),
            &runCheckCommand },
        { QStringLiteral("serve"),
            QStringLiteral("Keep every kluster of the clouds checked and serve Prometheus metrics"),
            &runServeCommand },
        { QStringLiteral("fleet"),
            QStringLiteral("List every kluster the team's Prometheus holds from the exporters, worst first"),
            &runFleetCommand },
        { QStringLiteral("snapshot"), QStringLiteral("Fetch a kluster and write it as a snapshot folder"),
            &runSnapshotCommand },
        { QStringLiteral("diff"),
            QStringLiteral("Say what changed in a kluster between two snapshot folders"), &runDiffCommand },
        { QStringLiteral("klusters"), QStringLiteral("List the klusters of a cloud's project"),
            &runKlustersCommand },
        { QStringLiteral("routes"),
            QStringLiteral(
                "Show a kluster's router: Neutron's routes beside each router device's, the routes "
                "nodes lack, and the findings about each (text or JSON)"),
            &runRoutesCommand },
        { QStringLiteral("repair"),
            QStringLiteral("Repair findings (one, several, or all of a router's routes): print the plan, "
                           "send it with --yes, verify, audit"),
            &runRepairCommand },
        { QStringLiteral("audit"), QStringLiteral("Print the audit log of repairs"), &runAuditCommand },
        { QStringLiteral("credentials"),
            QStringLiteral("Keep a cloud's password in the system keychain (set, status, delete)"),
            &runCredentialsCommand },
    };
    return commands;
}

const Command *find(const QString &name)
{
    for (const Command &c : all()) {
        if (c.name == name)
            return &c;
    }
    return nullptr;
}

// `text` in lines of at most `width` characters, each after `indent` spaces but the first.
static QString wrapped(const QString &text, int width, int indent)
{
    QString out;
    QString line;
    for (const QString &word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (!line.isEmpty() && line.size() + 1 + word.size() > width) {
            out += line + QLatin1Char('\n') + QString(indent, QLatin1Char(' '));
            line.clear();
        }
        line += (line.isEmpty() ? QString() : QStringLiteral(" ")) + word;
    }
    return out + line;
}

QString usage()
{
    QString commands;
    for (const Command &c : all()) {
        // The summaries in one column, 15 characters in.
        const QString name = QStringLiteral("  %1").arg(c.name, -13);
        commands += (name.size() > 15 ? name + QLatin1Char(' ') : name) + wrapped(c.summary, 80 - 15, 15)
            + QLatin1Char('\n');
    }
    return QStringLiteral("Usage: flightdeck-cli <command> [options]\n"
                          "\n"
                          "Diagnose Kubernikus klusters: nodes that never registered, instances cut off\n"
                          "from their security group, missing pod-network rules, duplicate, orphaned,\n"
                          "stale or missing routes, a router at its route limit.\n"
                          "\n"
                          "Commands:\n")
        + commands
        + QStringLiteral(
            "  (flightdeck-cli COMMAND --help for each command's options)\n"
            "\n"
            "Clouds come from clouds.yaml (+ secure.yaml) or the OS_* variables; nodes from the\n"
            "kubeconfig Kubernikus hands out, or --kubeconfig/--context.\n"
            "\n"
            "Options:\n"
            "  -h, --help     Show this help\n"
            "  -v, --version  Show the version\n");
}

} // namespace CliCommands
