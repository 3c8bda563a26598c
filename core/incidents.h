#pragma once

#include "core/finding.h"
#include "core/repairplan.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

class DiagnosisContext;

// diagnosis.md §5: findings that share one cause, grouped, named and repaired as one. The rules, in the order
// they claim findings (a finding belongs to the first that claims it; an incident needs two members).
enum class IncidentRule
{
    RecycledPodCidr,
    ZoneOutage,
    SecurityGroupDetached,
    PodNetworkClosed,
    RouterFull,
    AutomationStalled, // an actor of diagnosis.md §7 is overdue on two or more findings (applied last)
};
QString incidentRuleName(IncidentRule rule); // "recycled-pod-cidr", …
QString incidentRulePhrase(IncidentRule rule); // the cause in a few words: "pod network closed", …
const QList<IncidentRule> &incidentRules(); // in the order they are applied

struct Incident
{
    IncidentRule rule = IncidentRule::RecycledPodCidr;
    QString key;
    Severity severity = Severity::Critical;
    QString title; // one line: the cause and the count
    QStringList members; // finding ids, in the order of the findings
    QString id() const { return incidentRuleName(rule) + QLatin1Char(':') + key; }
    // A zone outage's zone (its key): no instance in it may be deleted while it is open. Empty for the
    // others.
    QString zone() const { return rule == IncidentRule::ZoneOutage ? key : QString(); }
    // An automation-stalled incident's actor (its key): whom it is handed to. None for the others.
    std::optional<Actor> actor() const
    {
        return rule == IncidentRule::AutomationStalled ? Actors::fromName(key) : std::nullopt;
    }
    // The one repair that removes the cause (none for a zone outage), made on demand like a finding's: from
    // the plans of the findings it rests on, as one route change of the router or their requests in turn.
    std::optional<RepairPlan> repair() const;
    // The findings whose own plans make repair(), in order: what a repair of the incident sends and verifies
    // (each is gone once it worked). Empty when it has none.
    QStringList repairFindings() const;
    // Why it has no repair of its own (when repairFindings() is empty), in words the console and the command
    // line share.
    QString noRepairReason() const;

    // What repair() is made from (set by the rules).
    enum class Repair
    {
        None,
        RouteChange, // the combined route change of `planFrom` (removals first)
        InTurn, // the requests of `planFrom`'s plans, one after another
    };
    Repair repairStyle = Repair::None;
    QString repairTitle;
    QList<Finding> planFrom;
};

namespace Incidents {

// The incidents of one kluster's findings (sorted as a diagnosis sorts them), by severity, then id. Derived
// from no source that failed or is partial: their findings then stand alone.
QList<Incident> find(const QList<Finding> &findings, const DiagnosisContext &context);

} // namespace Incidents
