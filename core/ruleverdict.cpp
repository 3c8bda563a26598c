#include "core/ruleverdict.h"

QString normalizedProtocol(const std::optional<QString> &protocol)
{
    if (!protocol)
        return QString();
    QString p = protocol->trimmed().toLower();
    if (p.isEmpty())
        return QStringLiteral("(empty)"); // not "any": only null (or "any") means every protocol
    if (p == QLatin1String("6"))
        return QStringLiteral("tcp");
    if (p == QLatin1String("17"))
        return QStringLiteral("udp");
    if (p == QLatin1String("1"))
        return QStringLiteral("icmp");
    if (p == QLatin1String("any"))
        return QString();
    return p;
}

RuleVerdict judgeRule(const SecurityGroupRule &rule, const QString &protocol, const Cidr &podNetwork)
{
    RuleVerdict v;
    if (rule.direction != QLatin1String("ingress") || rule.ethertype != QLatin1String("IPv4"))
        return v;
    const QString p = normalizedProtocol(rule.protocol);
    if (!p.isEmpty() && p != protocol)
        return v;
    v.relevant = true;
    if (rule.remoteIpPrefix)
        v.narrowRemote = !Cidr::parse(*rule.remoteIpPrefix).contains(podNetwork);
    else // only members of a group: pod addresses are not
        v.groupRemote = rule.remoteGroupId || rule.remoteAddressGroupId;
    v.somePorts = rule.portRangeMin || rule.portRangeMax; // only some ports: not pod-to-pod traffic
    v.satisfies = !v.narrowRemote && !v.groupRemote && !v.somePorts;
    return v;
}

QString ruleProblem(const SecurityGroupRule &rule, const RuleVerdict &verdict, const QString &protocol,
    const Cidr &podNetwork)
{
    QString problem;
    if (verdict.narrowRemote)
        problem = QStringLiteral("it allows only %1, not the whole pod network %2")
                      .arg(*rule.remoteIpPrefix, podNetwork.toString());
    else if (verdict.groupRemote)
        problem = QStringLiteral("it allows only members of another group, not the pod network");
    if (verdict.somePorts) {
        const auto bound = [](const std::optional<int> &port) {
            return port ? QString::number(*port) : QStringLiteral("*");
        };
        const QString range = bound(rule.portRangeMin) + QLatin1Char('-') + bound(rule.portRangeMax);
        const QString portText = protocol == QLatin1String("icmp")
            ? QStringLiteral("it allows only ICMP type/code %1").arg(range)
            : QStringLiteral("it opens only ports %1").arg(range);
        problem = problem.isEmpty() ? portText : problem + QStringLiteral(" and ") + portText;
    }
    return problem;
}
