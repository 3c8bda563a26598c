#include "core/repairgate.h"

#include <algorithm>

QString RepairGate::Decision::why(const QString &howToOverride) const
{
    return refusalName(reason) + QStringLiteral(": ") + detail
        + (verdict == Verdict::NeedsOverride ? QStringLiteral(" (%1)").arg(howToOverride) : QString());
}

// What the plan alone says: no repair, its own refusal, or sendable as far as it goes.
static RepairGate::Decision planDecision(const Finding &finding, std::optional<RepairPlan> plan)
{
    RepairGate::Decision d;
    d.finding = &finding;
    d.plan = std::move(plan);
    if (!d.plan) {
        d.verdict = RepairGate::Verdict::NoRepair;
    } else if (d.plan->refusal != Refusal::None) {
        d.verdict = RepairGate::Verdict::Refused;
        d.reason = d.plan->refusal;
        d.detail = d.plan->refusalDetail;
    } else {
        d.verdict = RepairGate::Verdict::Sendable;
    }
    return d;
}

static bool isSendableDeletion(const RepairGate::Decision &d)
{
    return d.verdict == RepairGate::Verdict::Sendable && d.plan->deletesInstance();
}

// A deletion, one of `deletions` sent together, as the remediation budget weighs it.
static void weighDeletion(RepairGate::Decision &d, const RemediationBudget &budget, qint64 deletions)
{
    if (!isSendableDeletion(d) || budget.allowsDeletion(deletions, false))
        return;
    d.verdict = budget.allowsDeletion(deletions, true) ? RepairGate::Verdict::NeedsOverride
                                                       : RepairGate::Verdict::Refused;
    d.reason = budget.reason;
    d.detail = budget.detail;
    d.byBudget = true;
}

RepairGate::RepairGate(const QList<const Finding *> &findings, const RemediationBudget &budget)
{
    for (const Finding *f : findings)
        m_decisions.append(planDecision(*f, f->repair()));
    m_deletions = std::count_if(m_decisions.cbegin(), m_decisions.cend(), isSendableDeletion);
    for (Decision &d : m_decisions)
        weighDeletion(d, budget, m_deletions);
    m_refusedInBulk
        = m_deletions > 1 && !budget.allowsDeletion(m_deletions, false) && budget.allowsDeletion(1, true);
}

RepairGate::Decision RepairGate::judge(
    const Finding &finding, std::optional<RepairPlan> plan, const RemediationBudget &budget)
{
    Decision d = planDecision(finding, std::move(plan));
    weighDeletion(d, budget, 1);
    return d;
}

QStringList RepairGate::sendable() const
{
    QStringList ids;
    for (const Decision &d : m_decisions) {
        if (d.mayBeSent(true))
            ids << d.finding->id();
    }
    return ids;
}

bool RepairGate::needsOverride() const
{
    return std::any_of(m_decisions.cbegin(), m_decisions.cend(),
        [](const Decision &d) { return d.verdict == Verdict::NeedsOverride; });
}

bool RepairGate::deletionsAllowed() const
{
    return std::none_of(
        m_decisions.cbegin(), m_decisions.cend(), [](const Decision &d) { return d.byBudget; });
}

QStringList RepairGate::deletedInstances() const
{
    QStringList names;
    for (const Decision &d : m_decisions) {
        if (d.mayBeSent(true) && d.plan->deletesInstance())
            names << d.plan->instanceName;
    }
    return names;
}

QString RepairGate::typeToConfirm(const QString &kluster) const
{
    const QStringList names = deletedInstances();
    if (names.size() == 1)
        return names.first();
    return names.isEmpty() ? QString() : kluster;
}
