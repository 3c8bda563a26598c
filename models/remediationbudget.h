#pragma once

#include "diagnosisoptions.h"
#include "klusterstate.h"

#include <QJsonObject>
#include <QString>

// The remediation budget (diagnosis.md §3 rule 3): instance deletions are
// refused while too many of the kluster's expected nodes are unhealthy, or
// while the evidence to judge them is missing.
struct RemediationBudget
{
    int expected = 0;      // sum of the pool sizes
    int ready = 0;         // Ready nodes
    int unhealthy = 0;     // max(0, expected - ready)
    int maxUnhealthy = 0;  // as configured, resolved against `expected`
    bool deletionsAllowed = true;
    QString reason;        // empty, "TooManyUnhealthy" or "NoEvidence"
    QString detail;        // the reason in words

    static RemediationBudget compute(const KlusterState &state, const DiagnosisOptions &options);

    // May `count` instances be deleted now? One at a time may pass
    // TooManyUnhealthy with an explicit override; a bulk delete never, and
    // NoEvidence never.
    bool allowsDeletion(int count, bool override) const;

    QJsonObject toJson() const;
};
