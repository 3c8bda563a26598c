#include "core/finding.h"

#include "core/diagnosiscontext.h"
#include "core/findingtraits.h"
#include "core/permission.h"
#include "core/routefindings.h"

QString severityName(Severity severity)
{
    switch (severity) {
    case Severity::Critical:
        return QStringLiteral("critical");
    case Severity::Warning:
        return QStringLiteral("warning");
    case Severity::Info:
        break;
    }
    return QStringLiteral("info");
}

std::optional<Severity> severityFromName(QStringView name)
{
    for (Severity s : { Severity::Critical, Severity::Warning, Severity::Info }) {
        if (severityName(s) == name)
            return s;
    }
    return std::nullopt;
}

QString findingKindName(FindingKind kind)
{
    return findingTraits(kind).name;
}

FindingFamily findingFamily(FindingKind kind)
{
    return findingTraits(kind).family;
}

QString Finding::idOf(FindingKind kind, const QString &subject)
{
    return findingTraits(kind).name + QLatin1Char(':') + subject;
}

QString Finding::message() const
{
    return context ? findingTraits(kind).message(*context, *this) : QString();
}

QJsonObject Finding::evidence() const
{
    return context ? findingTraits(kind).evidence(*context, *this) : QJsonObject();
}

std::optional<RepairPlan> Finding::repair(PlanForm form) const
{
    std::optional<RepairPlan> plan;
    if (form == PlanForm::Delta && context && findingFamily(kind) == FindingFamily::Route) {
        plan = RouteFindings::plan(*context, *this, PlanForm::Delta);
    } else {
        const FindingTraits &traits = findingTraits(kind);
        if (context && traits.repair)
            plan = traits.repair(*context, *this);
    }
    if (plan)
        Credentials::judgePlan(*plan, context->state.credentials.get());
    return plan;
}

AffectedObjects Finding::affected() const
{
    const FindingTraits &traits = findingTraits(kind);
    return context && traits.affected ? traits.affected(*context, *this) : AffectedObjects();
}

std::optional<Automation> Finding::automation() const
{
    return automationOf(*this);
}

QString impactName(Impact impact)
{
    switch (impact) {
    case Impact::Kluster:
        return QStringLiteral("kluster");
    case Impact::Node:
        return QStringLiteral("node");
    case Impact::Slot:
        return QStringLiteral("slot");
    }
    return QString();
}

Impact findingImpact(const Finding &finding)
{
    return findingTraits(finding.kind).impact(finding.severity);
}

int findingRank(const Finding &finding)
{
    return int(finding.severity) * 3 + int(findingImpact(finding));
}

int findingRank(const Finding &finding, bool acknowledged)
{
    return int(finding.severity) * 6 + (acknowledged ? 3 : 0) + int(findingImpact(finding));
}

bool worstFirst(const Finding &a, const Finding &b)
{
    const int ra = findingRank(a);
    const int rb = findingRank(b);
    return ra != rb ? ra < rb : findingLessThan(a, b);
}

bool findingLessThan(const Finding &a, const Finding &b)
{
    if (a.severity != b.severity)
        return int(a.severity) < int(b.severity);
    if (a.kind != b.kind)
        return findingTraits(a.kind).name < findingTraits(b.kind).name;
    return a.subject < b.subject;
}
