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
