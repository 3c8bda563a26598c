#pragma once

#include "core/statediff.h"

#include <QByteArray>
#include <QList>

// For people: a header naming the kluster and the two moments; the incidents opened and resolved
// ("Incident opened: <title> (<id>, N findings)"); the changes grouped by category and aligned ("+" added or
// opened, "-" removed or resolved, "~" changed); then "N changes", "no changes", or "no other changes" when
// only incidents differ.
QByteArray stateChangesText(const StateDigest &before, const StateDigest &after,
    const QList<StateChange> &changes, const QList<IncidentChange> &incidents = {});
// For programs: {"kluster", "before", "after", "reversed", "incidents": [{"change", "id", "rule", "severity",
// "title", "members": [finding id]}], "changes": [{"category", "change", "subject", "detail"}],
// "summary": {category: count}, "notCompared": [category]}, keys in that order.
QByteArray stateChangesJson(const StateDigest &before, const StateDigest &after,
    const QList<StateChange> &changes, const QList<IncidentChange> &incidents = {});
