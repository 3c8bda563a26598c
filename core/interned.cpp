#include "core/interned.h"

#include <QSet>

namespace {
constexpr qsizetype MaxLength = 160; // longer texts are seldom repeated word for word
constexpr qsizetype MaxEntries = 4096; // then begun again: a table that only grows would be a leak
} // namespace

QString interned(const QString &text)
{
    if (text.isEmpty() || text.size() > MaxLength)
        return text;
    thread_local QSet<QString> table;
    const auto it = table.constFind(text);
    if (it != table.cend())
        return *it;
    if (table.size() >= MaxEntries)
        table.clear();
    table.insert(text);
    return text;
}
