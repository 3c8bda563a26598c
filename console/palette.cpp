#include "console/palette.h"

#include <algorithm>
#include <numeric>

namespace Palette {

QString kindName(Kind kind)
{
    switch (kind) {
    case Kind::Kluster:
        return QStringLiteral("kluster");
    case Kind::View:
        return QStringLiteral("view");
    case Kind::Action:
        return QStringLiteral("action");
    }
    return QString();
}

namespace {

bool wordStart(QStringView text, qsizetype i)
{
    if (i == 0)
        return true;
    const QChar before = text.at(i - 1);
    return !before.isLetterOrNumber() || (before.isLower() && text.at(i).isUpper());
}

} // namespace

int score(QStringView query, QStringView text)
{
    if (query.trimmed().isEmpty())
        return 0;
    // Greedy, from the left, preferring a word start when one comes before the next plain match would end a
    // run: good enough for names of a few dozen characters.
    int total = 0;
    qsizetype from = 0;
    qsizetype last = -2;
    for (qsizetype q = 0; q < query.size(); ++q) {
        const QChar c = query.at(q).toCaseFolded();
        if (c.isSpace())
            continue;
        qsizetype found = -1;
        qsizetype word = -1;
        for (qsizetype i = from; i < text.size(); ++i) {
            if (text.at(i).toCaseFolded() != c)
                continue;
            if (found < 0)
                found = i;
            if (i == last + 1) { // the run goes on: take it
                found = i;
                word = -1;
                break;
            }
            if (wordStart(text, i)) {
                word = i;
                break;
            }
        }
        if (found < 0)
            return -1;
        const qsizetype at = word >= 0 ? word : found;
        int points = 1;
        if (at == last + 1)
            points += 5; // a run
        if (wordStart(text, at))
            points += 3;
        if (at == 0)
            points += 4;
        total += points;
        last = at;
        from = at + 1;
    }
    // Shorter names win a tie: "Findings" before "Go to findings of…".
    return total * 100 - int(qMin<qsizetype>(text.size(), 99));
}

QList<int> matches(const QList<Entry> &entries, const QString &query, int limit)
{
    QList<QPair<int, int>> scored; // score, index
    for (int i = 0; i < entries.size(); ++i) {
        const int s = query.trimmed().isEmpty() ? 0 : score(query, entries.at(i).text);
        if (s >= 0)
            scored.append({ s, i });
    }
    std::stable_sort(scored.begin(), scored.end(),
        [](const QPair<int, int> &a, const QPair<int, int> &b) { return a.first > b.first; });
    QList<int> result;
    for (int i = 0; i < scored.size() && i < limit; ++i)
        result << scored.at(i).second;
    return result;
}

} // namespace Palette
