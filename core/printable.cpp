#include "core/printable.h"

#include <algorithm>

namespace {

bool needsEscape(char16_t c)
{
    return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x061c || c == 0x200e || c == 0x200f
        || (c >= 0x2028 && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

void appendEscape(QString &out, char16_t c)
{
    switch (c) {
    case 0x1b:
        out += QLatin1String("\\e");
        return;
    case '\n':
        out += QLatin1String("\\n");
        return;
    case '\r':
        out += QLatin1String("\\r");
        return;
    case '\t':
        out += QLatin1String("\\t");
        return;
    default:
        break;
    }
    if (c <= 0xff)
        out += QStringLiteral("\\x%1").arg(unsigned(c), 2, 16, QLatin1Char('0'));
    else
        out += QStringLiteral("\\u%1").arg(unsigned(c), 4, 16, QLatin1Char('0'));
}

QString escaped(const QString &text, bool keepNewlines)
{
    const auto first = std::find_if(text.cbegin(), text.cend(), [keepNewlines](QChar c) {
        return needsEscape(c.unicode()) && !(keepNewlines && c == QLatin1Char('\n'));
    });
    if (first == text.cend())
        return text; // shared, not copied: the common case
    QString out;
    out.reserve(text.size() + 16);
    out.append(text.constData(), first - text.cbegin());
    for (auto it = first; it != text.cend(); ++it) {
        const char16_t c = it->unicode();
        if (needsEscape(c) && !(keepNewlines && c == '\n'))
            appendEscape(out, c);
        else
            out.append(*it);
    }
    return out;
}

} // namespace

QString printable(const QString &text)
{
    return escaped(text, false);
}

QString printableLines(const QString &text)
{
    return escaped(text, true);
}

namespace OutsideText {

bool isBidiControl(char16_t c)
{
    return c == 0x061c || c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e)
        || (c >= 0x2066 && c <= 0x2069);
}

static QString shown(const QString &text, int maxChars, bool keepNewlines)
{
    QString out;
    out.reserve(qMin<qsizetype>(text.size(), maxChars) + 8);
    qsizetype kept = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t c = text.at(i).unicode();
        if (isBidiControl(c))
            continue;
        if (kept >= maxChars) {
            out += QChar(0x2026);
            break;
        }
        if (c == '\n' || c == '\r') {
            if (keepNewlines && c == '\n')
                out += QLatin1Char('\n');
            else if (!keepNewlines && !out.endsWith(QLatin1Char(' ')))
                out += QLatin1Char(' ');
            ++kept;
            continue;
        }
        if (needsEscape(c)) {
            appendEscape(out, c);
            ++kept;
            continue;
        }
        out += text.at(i);
        // A surrogate pair is one character: never cut between its halves.
        if (QChar::isHighSurrogate(c) && i + 1 < text.size()
            && QChar::isLowSurrogate(text.at(i + 1).unicode()))
            out += text.at(++i);
        ++kept;
    }
    return out;
}

QString line(const QString &text, int maxChars)
{
    return shown(text, maxChars, false);
}

QString lines(const QString &text, int maxChars)
{
    return shown(text, maxChars, true);
}

// A zero-width space after every WrapChars characters of a run without a space: a 20 KiB word (a summary of
// one letter, a path) wraps in a label instead of widening the window past the screen.
static QString wrappable(const QString &text)
{
    constexpr int WrapChars = 40;
    QString out;
    out.reserve(text.size() + text.size() / WrapChars + 1);
    int run = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        run = c.isSpace() ? 0 : run + 1;
        out += c;
        if (run >= WrapChars && !c.isHighSurrogate()) {
            out += QChar(0x200b);
            run = 0;
        }
    }
    return out;
}

QString wrappableLine(const QString &text, int maxChars)
{
    return wrappable(line(text, maxChars));
}

QString html(const QString &text, int maxChars)
{
    return wrappable(line(text, maxChars)).toHtmlEscaped();
}

QString htmlLines(const QString &text, int maxChars)
{
    return wrappable(lines(text, maxChars))
        .toHtmlEscaped()
        .replace(QLatin1Char('\n'), QStringLiteral("<br>"));
}

QString toolTip(const QString &text, int maxChars)
{
    if (text.isEmpty())
        return text;
    return QStringLiteral("<qt>") + htmlLines(text, maxChars) + QStringLiteral("</qt>");
}

} // namespace OutsideText
