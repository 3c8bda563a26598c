#pragma once

#include <QByteArray>
#include <QList>
#include <optional>
#include <utility>

// Where the items of a list are in its bytes: the top-level object's one "items" array, its elements'
// byte ranges, separated by commas. A scan, not a parse: every byte is read again by the parser, the
// elements in batches and the rest (the array emptied) on its own, and the pieces parse only if the whole
// does. Anything it does not expect (no array, a key escaped or given twice, no object) ends in nullopt:
// the body is read whole.
struct ItemsSplit
{
    qsizetype open = 0; // the array's '['
    qsizetype close = 0; // its ']'
    QList<std::pair<qsizetype, qsizetype>> batches; // [begin, end): whole elements and the commas between
};

// Where the items are in `body`, in batches of at most `batch` bytes each (a batch holds one item at
// least); nullopt when it is not the shape expected.
std::optional<ItemsSplit> scanItems(const QByteArray &body, qsizetype batch);
