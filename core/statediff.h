#pragma once

#include "core/statechange.h"
#include "core/statedigest.h"

#include <QList>
#include <QStringList>

// The categories that cannot be compared because a source they rest on was not known (or not complete)
// in either digest: a source that failed is never read as everything removed.
QList<ChangeCategory> uncomparedCategories(const StateDigest &before, const StateDigest &after);

// What changed from `before` to `after`, in deterministic order: category (as StateChanges::categories),
// then subject, then change. Memberships of an instance that came or went are not listed apart.
QList<StateChange> diffStates(const StateDigest &before, const StateDigest &after);

// An incident (diagnosis.md §5) opened or resolved between two moments, as the later (opened) or the earlier
// (resolved) diagnosis named it.
struct IncidentChange
{
    ChangeKind change = ChangeKind::Opened; // Opened or Resolved
    QString id; // "<rule>:<key>"
    IncidentRule rule = IncidentRule::RecycledPodCidr;
    Severity severity = Severity::Critical;
    QString title;
    QStringList members; // finding ids

    friend bool operator==(const IncidentChange &a, const IncidentChange &b)
    {
        return a.change == b.change && a.id == b.id && a.rule == b.rule && a.severity == b.severity
            && a.title == b.title && a.members == b.members;
    }
};

// The incidents opened (in `afterIncidents`, not in `beforeIncidents`) and resolved (the other way round), by
// id: opened first, then resolved, each by id. Compared only where the findings are (every source known at
// both moments, uncomparedCategories): an incident not derived for want of a source is not resolved.
QList<IncidentChange> diffIncidents(const StateDigest &before, const QList<Incident> &beforeIncidents,
    const StateDigest &after, const QList<Incident> &afterIncidents);
