#pragma once

#include "core/cidr.h"
#include "core/securitygroup.h"

#include <QString>

// How a security group rule stands toward a protocol the pod network needs:
// not about it (another direction, family or protocol), satisfying it, or
// about it without satisfying it, and why not. A finding keeps the verdicts of
// the rules that fall short, so that its words say what the rule decided.
struct RuleVerdict
{
    int rule = -1; // index into the group's rules, when a finding keeps the verdict
    bool relevant = false;
    bool satisfies = false;
    bool narrowRemote = false; // its remote prefix does not hold the whole pod network
    bool groupRemote = false; // it admits only members of another group, not pod addresses
    bool somePorts = false; // it opens only some ports (for ICMP: some types and codes)
};

// A rule's protocol as the required rules name it: "6" is tcp, "17" udp, "1" icmp; empty for any (null or
// "any"); "(empty)" for "" (not any).
QString normalizedProtocol(const std::optional<QString> &protocol);

// `protocol` is tcp, udp or icmp; a rule's "6", "17" and "1" count as those, "any" as any.
RuleVerdict judgeRule(const SecurityGroupRule &rule, const QString &protocol, const Cidr &podNetwork);

// Why a rule about `protocol` does not satisfy it, in words ("it opens only ports 22-22").
QString ruleProblem(const SecurityGroupRule &rule, const RuleVerdict &verdict, const QString &protocol,
    const Cidr &podNetwork);
