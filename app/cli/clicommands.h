#pragma once

#include <QList>
#include <QString>
#include <QStringList>

// flightdeck-cli's commands, in one table: the dispatch, the top-level --help, and `flightdeck-cli
// commands` (the names, one per line: what the completions and the man page's command list are checked
// against) are all made from it. A new command is a row here and its run function.
namespace CliCommands {

struct Command
{
    QString name;
    QString summary; // one sentence, as --help lists it
    int (*run)(const QStringList &arguments);
};

const QList<Command> &all(); // in the order --help lists them
const Command *find(const QString &name);
QString usage(); // the top-level --help

} // namespace CliCommands
