#pragma once

#include "core/statechange.h"
#include "core/statedigest.h"

#include <QList>

// The categories that cannot be compared because a source they rest on was not known (or not complete)
// in either digest: a source that failed is never read as everything removed.
QList<ChangeCategory> uncomparedCategories(const StateDigest &before, const StateDigest &after);

// What changed from `before` to `after`, in deterministic order: category (as StateChanges::categories),
// then subject, then change. Memberships of an instance that came or went are not listed apart.
QList<StateChange> diffStates(const StateDigest &before, const StateDigest &after);
