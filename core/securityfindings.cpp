// The words, evidence, repairs and affected objects of the security group findings.

#include "core/securityfindings.h"

#include "core/detection.h"
#include "core/diagnosiscontext.h"
#include "core/repairplanner.h"
#include "core/ruleverdict.h"

#include <QJsonArray>
#include <algorithm>

namespace SecurityFindings {

QString groupMissingMessage(const DiagnosisContext &c, const Finding &)
{
    const int n = int(c.index.klusterGroups().size());
    if (n == 0) {
        return QStringLiteral(
            "The kluster's security group %1 does not exist in the project: new instances cannot "
            "get it and are cut off the network. Recreate it (with its rules) or fix "
            "spec.openstack.securityGroupName.")
            .arg(c.state.kluster.securityGroupName);
    }
    return QStringLiteral(
        "The kluster's security group name %1 is ambiguous: %2 groups have it. Nova cannot add it "
        "to instances by name (409). Rename or delete the extra groups.")
        .arg(c.state.kluster.securityGroupName)
        .arg(n);
}

// Why a rule the detection found falling short does not count, in words.
static QString problemOf(const DiagnosisContext &c, const Finding &f, const RuleVerdict &verdict)
{
    const SecurityGroup &group = c.state.securityGroups.at(c.groupIndex);
    return ruleProblem(group.rules.at(verdict.rule), verdict, f.facts.protocol, c.state.kluster.clusterCidr);
}

QString ruleMissingMessage(const DiagnosisContext &c, const Finding &f)
{
    const SecurityGroup &group = c.state.securityGroups.at(c.groupIndex);
    const QString pod = c.state.kluster.clusterCidr.toString();
    QString message = QStringLiteral("Security group %1 has no rule letting %2 in from the pod network %3: "
                                     "pod-to-pod %2 traffic between nodes is dropped.")
                          .arg(group.name, f.facts.protocol.toUpper(), pod);
    const QList<RuleVerdict> &fallingShort = f.facts.rulesFallingShort;
    QStringList why;
    for (const RuleVerdict &v : fallingShort)
        why << QStringLiteral("rule %1 does not count: %2")
                   .arg(group.rules.at(v.rule).id, problemOf(c, f, v));
    if (!why.isEmpty())
        message += QLatin1Char(' ') + why.join(QStringLiteral("; "))
            + QStringLiteral(" (pod traffic needs every port, from the whole pod network).");
    const auto onlySomePorts = [](const RuleVerdict &v) { return v.somePorts; };
    if (std::any_of(fallingShort.cbegin(), fallingShort.cend(), onlySomePorts))
        message += QStringLiteral(
            " Kubernikus' own check accepts such a rule, so its controllers will not fix it.");
    return message;
}

QJsonObject groupMissingEvidence(const DiagnosisContext &c, const Finding &)
{
    QJsonArray ids;
    for (int g : c.index.klusterGroups())
        ids.append(c.state.securityGroups.at(g).id);
    return QJsonObject { { QStringLiteral("securityGroupName"), c.state.kluster.securityGroupName },
        { QStringLiteral("matchingGroupIds"), ids },
        { QStringLiteral("groupsInProject"), int(c.state.securityGroups.size()) } };
}

QJsonObject ruleMissingEvidence(const DiagnosisContext &c, const Finding &f)
{
    const SecurityGroup &group = c.state.securityGroups.at(c.groupIndex);
    QJsonArray nearMisses;
    for (const RuleVerdict &v : f.facts.rulesFallingShort) {
        const SecurityGroupRule &rule = group.rules.at(v.rule);
        nearMisses.append(QJsonObject { { QStringLiteral("ruleId"), rule.id },
            { QStringLiteral("protocol"), rule.protocol ? QJsonValue(*rule.protocol) : QJsonValue() },
            { QStringLiteral("port_range_min"),
                rule.portRangeMin ? QJsonValue(*rule.portRangeMin) : QJsonValue() },
            { QStringLiteral("port_range_max"),
                rule.portRangeMax ? QJsonValue(*rule.portRangeMax) : QJsonValue() },
            { QStringLiteral("remote_ip_prefix"),
                rule.remoteIpPrefix ? QJsonValue(*rule.remoteIpPrefix) : QJsonValue() },
            { QStringLiteral("why"), problemOf(c, f, v) } });
    }
    return QJsonObject { { QStringLiteral("securityGroup"), group.name },
        { QStringLiteral("securityGroupId"), group.id }, { QStringLiteral("protocol"), f.facts.protocol },
        { QStringLiteral("podCIDR"), c.state.kluster.clusterCidr.toString() },
        { QStringLiteral("rulesThatDoNotSatisfy"), nearMisses } };
}

std::optional<RepairPlan> createRule(const DiagnosisContext &c, const Finding &f)
{
    return RepairPlanner::createSecurityGroupRule(
        c.state.securityGroups.at(c.groupIndex), f.facts.protocol, c.state.kluster.clusterCidr.toString());
}

AffectedObjects affectedGroup(const DiagnosisContext &c, const Finding &)
{
    AffectedObjects a;
    a.securityGroups << c.state.kluster.securityGroupName;
    return a;
}

void detect(Detection &d)
{
    const QList<int> &groups = d.ctx->index.klusterGroups();
    if (groups.size() != 1) {
        d.result.findings.append(
            d.make(FindingKind::SecurityGroupMissing, d.state.kluster.securityGroupName));
        return;
    }
    d.ctx->groupIndex = groups.first();
    const SecurityGroup &group = d.state.securityGroups.at(d.ctx->groupIndex);
    const Cidr &podNetwork = d.state.kluster.clusterCidr;
    static const QString required[]
        = { QStringLiteral("tcp"), QStringLiteral("udp"), QStringLiteral("icmp") };
    for (const QString &protocol : required) {
        FindingFacts facts;
        facts.protocol = protocol;
        bool satisfied = false;
        for (int r = 0; r < group.rules.size() && !satisfied; ++r) {
            RuleVerdict verdict = judgeRule(group.rules.at(r), protocol, podNetwork);
            satisfied = verdict.satisfies;
            if (verdict.relevant && !verdict.satisfies) {
                verdict.rule = r;
                facts.rulesFallingShort.append(verdict);
            }
        }
        if (!satisfied)
            d.result.findings.append(
                d.make(FindingKind::SecurityGroupRuleMissing, protocol, std::move(facts)));
    }
}

} // namespace SecurityFindings
