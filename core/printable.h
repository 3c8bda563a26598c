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

// Text from outside (a cloud's names, an alert's labels and annotations, a kluster's Events, a silence, a
// link) as the console shows it, the one way it enters a window:
// - bidirectional controls (U+202A–U+202E, U+2066–U+2069, the marks U+200E, U+200F, U+061C) are removed:
//   an unclosed override would mirror every line drawn after it;
// - other control characters are shown as their escapes (as printable() shows them); `line` shows a line
//   break as a space, `lines` keeps them;
// - at most `maxChars` characters are kept (cut on a character boundary, "…" appended): a 200 KiB
//   annotation widens no dialog and blocks no layout.
namespace OutsideText {
constexpr int LineChars = 300;
constexpr int TextChars = 4000;
QString line(const QString &text, int maxChars = LineChars);
QString lines(const QString &text, int maxChars = TextChars);
// line() for a plain-text label that wraps: a long word given a place to wrap (a zero-width space every 40
// characters of a run without a space), as html() gives it.
QString wrappableLine(const QString &text, int maxChars = LineChars);
// line() as HTML, for rich text built around it: escaped, so that no tag, entity or image in it is
// interpreted (an <img src=file:…> in an alert's name is text, never a file read), and a long word given a
// place to wrap (a zero-width space every 40 characters of a run without a space).
QString html(const QString &text, int maxChars = LineChars);
QString htmlLines(const QString &text, int maxChars = TextChars); // lines() escaped, line breaks as <br>
// For a tool tip (which Qt takes for rich text when it looks like it): the text escaped inside <qt>.
QString toolTip(const QString &text, int maxChars = TextChars);
// Whether `c` is a bidirectional control that line() removes.
bool isBidiControl(char16_t c);
} // namespace OutsideText
