#include "core/finding.h"

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

bool findingLessThan(const Finding &a, const Finding &b)
{
    if (a.severity != b.severity)
        return int(a.severity) < int(b.severity);
    // Kinds are shared constants: equal data means equal kinds, without comparing.
    if (a.kind.constData() != b.kind.constData() && a.kind != b.kind)
        return a.kind < b.kind;
    return a.subject < b.subject;
}
