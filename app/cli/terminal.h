#pragma once

#include <QIODevice>

// The command line's standard output and error as the text reports reach them: whatever a report or a
// message holds, nothing in it drives the terminal. Every control character but the line break is shown as
// printable() shows it (core/printable.h), so a router's name with an escape sequence prints as `\e[2J`
// instead of clearing the screen. The reports escape each name of the cloud themselves as well (a line
// break in a name must not start a line of its own); this is the last guard, for every line printed.
// JSON goes to the raw standard output (its writer escapes every control character).
namespace Terminal {

QIODevice *out(); // standard output
QIODevice *err(); // standard error

// A whole report on standard output: JSON as written, text through the guard. False when not all of it
// could be written.
bool writeReport(const QByteArray &report, bool json);

} // namespace Terminal
