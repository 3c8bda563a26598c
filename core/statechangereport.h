#pragma once

#include "core/statediff.h"

#include <QByteArray>
#include <QList>

// For people: a header naming the kluster and the two moments, the changes grouped by category and
// aligned ("+" added or opened, "-" removed or resolved, "~" changed), then "N changes" or "no changes".
QByteArray stateChangesText(
    const StateDigest &before, const StateDigest &after, const QList<StateChange> &changes);
// For programs: {"kluster", "before", "after", "reversed", "changes": [{"category", "change", "subject",
// "detail"}], "summary": {category: count}, "notCompared": [category]}, keys in that order.
QByteArray stateChangesJson(
    const StateDigest &before, const StateDigest &after, const QList<StateChange> &changes);
