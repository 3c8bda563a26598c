#pragma once

#include <QString>

// Text from the cloud made safe to print. Any project member may name a router, a server or a security
// group, and a node's conditions carry whatever its kubelet wrote: such text must never drive a terminal
// (an escape sequence clears the screen, draws a fake verdict, hides what follows) nor start a line of its
// own in a report. printable() shows every control character as an escape instead: ESC as `\e`, a newline
// as `\n`, the rest of C0 and DEL as `\x07`, C1 controls, Unicode line and paragraph separators and the
// bidirectional overrides (which reorder what is shown) as `\u202e`. A backslash is left as it is; nothing
// else changes. It is the one function every text output (check, repair, audit, diff, errors) passes a
// cloud's string through.
QString printable(const QString &text);

// The same for a whole text made of lines: each line as printable() shows it, the line breaks kept.
QString printableLines(const QString &text);
