#pragma once

#include "core/finding.h"
#include "core/remediationbudget.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

// What of the repairs chosen may be sent (diagnosis.md §3), decided in one
// place for the console's repair dialog, `flightdeck-cli repair`, the repair
// executor and the check report. A plan's own refusal (missing evidence, no
// revision, a full router, withheld as too large) stops it. Deletions (of
// instances and of nodes) answer to the remediation budget, together: refused
// while it refuses, except one deletion chosen alone past TooManyUnhealthy,
// which an explicit override lets through; in a batch never. Deleting asks for
// a name to be typed. The route changes of several findings are combined into
// one change of the router (diagnosis.md §3, "Several findings at once").
class RepairGate
{
public:
    enum class Verdict
    {
        Sendable, // may be sent once confirmed
        NoRepair, // the finding has no repair of its own
        Refused, // its plan or the remediation budget refuses it
        // One instance deletion past the budget, or a teardown of the devices of a protected kluster's
        // router, chosen alone: sent only with the override.
        NeedsOverride,
    };

    struct Decision
    {
        const Finding *finding = nullptr;
        std::optional<RepairPlan> plan;
        Verdict verdict = Verdict::NoRepair;
        Refusal reason = Refusal::None; // Refused and NeedsOverride: why
        QString detail; // the reason in words
        bool byBudget = false; // the remediation budget's reason, not the plan's
        bool combined = false; // sent as part of the one route change of the batch

        bool mayBeSent(bool overridden) const
        {
            return verdict == Verdict::Sendable || (verdict == Verdict::NeedsOverride && overridden);
        }
        // "TooManyUnhealthy: 4 of 7 expected nodes are unhealthy, …", and how to
        // override, in parentheses, where the override would let it through.
        QString why(const QString &howToOverride) const;
    };

    // The findings chosen together (their plans are made here), in their order.
    // `protectedRouter`: a kluster on the router is protected (this one, or another the console holds): a
    // teardown of its devices needs the override, chosen alone (refused in a batch).
    RepairGate(const QList<const Finding *> &findings, const RemediationBudget &budget,
        bool protectedRouter = false);

    // One finding alone, with its plan as it will be shown (a report may show a withheld one).
    // Every route finding of the kluster's router that has a repair (route-limit has none of its own): what
    // "repair all route findings of this router" sends as one change, in the console and the command line.
    static QList<const Finding *> routeFindings(const QList<Finding> &findings);

    static Decision judge(const Finding &finding, std::optional<RepairPlan> plan,
        const RemediationBudget &budget, bool protectedRouter = false);

    const QList<Decision> &decisions() const { return m_decisions; }

    // What a confirmation sends, in order: each plan on its own, except the route changes of several
    // findings, which are one step (one combined plan) where the first of them stands.
    struct Step
    {
        QStringList findingIds;
        RepairPlan plan;
    };
    QList<Step> steps() const;
    // The combined route change, when several findings change routes (empty otherwise).
    const std::optional<RepairPlan> &routeChange() const { return m_routeChange; }
    QStringList routeChangeFindings() const;
    // The router's route list before and after the combined change, each route marked.
    struct RouteLine
    {
        Route route;
        enum class Change
        {
            Kept,
            Removed,
            Added
        } change
            = Change::Kept;
    };
    QList<RouteLine> routeChangeLines() const;
    QStringList sendable() const; // the findings a confirmation sends, the one needing the override included
    bool needsOverride() const; // the confirmation needs the override as well

    // The instance deletions among the chosen plans that may be sent, before the budget weighs them.
    qint64 deletions() const { return m_deletions; }
    bool deletionsAllowed() const; // the budget lets them through (or there are none)
    bool refusedInBulk() const { return m_refusedInBulk; } // one alone could be overridden; several never

    // The instances and nodes a confirmation deletes, and what must be typed to confirm it: the router's name
    // where its devices are torn down (the kluster's name when deletions come with it), else the name for one
    // deletion, the kluster's name for several, nothing for none.
    QStringList deletedNames() const;
    QString typeToConfirm(const QString &kluster) const;

private:
    void combineRouteChanges();
    void settleDeltas();

    QList<Decision> m_decisions;
    std::optional<RepairPlan> m_routeChange;
    QList<Route> m_routesBefore;
    qint64 m_deletions = 0;
    bool m_refusedInBulk = false;
};
