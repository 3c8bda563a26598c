#pragma once

#include "core/diagnosisoptions.h"
#include "core/finding.h"
#include "core/incidents.h"
#include "core/klusterstate.h"
#include "core/remediationbudget.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>
#include <memory>

// The diagnosis of diagnosis.md as a pure function: state in, findings out.
// No network, no clock (ages are measured against state.capturedAt), no globals.
struct Diagnosis
{
    QList<Finding> findings; // sorted by severity, kind, subject
    RemediationBudget budget;
    QStringList notDiagnosed; // what could not be judged because a source failed, and why
    // Facts worth a look that are no finding of diagnosis.md (a node whose
    // providerID names another instance than its name, an incomplete server list).
    QStringList notes;
    // The findings that share one cause (diagnosis.md §5), by severity, then id; each finding in at most one.
    QList<Incident> incidents;
    // The router's route limit the diagnosis judged by (effectiveRouteLimit): 0 when it is not known.
    int routeLimit = 0;
    // The router's devices as judged: what each holds, with the role the options give it.
    RouterDevices routerDevices;
    // The kluster's status.phase as Kubernikus said it (empty: none; "Gone": Kubernikus no longer has it),
    // and how long it has been Terminating by the local history (-1: not Terminating, or not known since
    // when).
    QString phase;
    qint64 terminatingSeconds = -1;
    QDateTime lastSeen; // Gone: when the local history last saw the kluster (invalid: not known)

    int count(Severity severity) const;
    Severity worst() const; // Info when there is no finding
    const Finding *find(const QString &id) const;
    const Incident *incidentOf(const QString &findingId) const; // null: it stands alone

    static Diagnosis run(const KlusterState &state, const DiagnosisOptions &options = DiagnosisOptions());
};

// "42 min", "1 h 12 min", "3 d 4 h": an age for people.
QString formatDuration(qint64 seconds);
