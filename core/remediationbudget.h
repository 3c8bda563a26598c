#pragma once

#include "core/diagnosisoptions.h"
#include "core/klusterstate.h"
#include "core/refusal.h"

#include <QJsonObject>
#include <QString>

// The remediation budget (diagnosis.md §3 rule 3): instance deletions are
// refused while too many of the kluster's expected nodes are unhealthy, or
// while the evidence to judge them is missing.
struct RemediationBudget
{
    qint64 expected = 0; // sum of the pool sizes (64 bits: a sum of many pools never wraps)
    qint64 ready = 0; // Ready nodes
    qint64 unhealthy = 0; // max(0, expected - ready)
    qint64 maxUnhealthy = 0; // as configured, resolved against `expected`
    bool deletionsAllowed = true;
    Refusal reason = Refusal::None; // while deletions are refused: TooManyUnhealthy or NoEvidence
    QString detail; // the reason in words
    // The zones a zone-outage incident holds (diagnosis.md §5): no instance in them is deleted while it is
    // open (ZoneDisruption; an explicit override lets one through, alone). Not part of the budget's JSON.
    QStringList disruptedZones;

    static RemediationBudget compute(const KlusterState &state, const DiagnosisOptions &options);

    // May `count` instances be deleted now? One at a time may pass
    // TooManyUnhealthy with an explicit override; a bulk delete never, and
    // NoEvidence never.
    bool allowsDeletion(qint64 count, bool override) const;

    QJsonObject toJson() const;
};
