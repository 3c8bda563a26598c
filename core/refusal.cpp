#include "core/refusal.h"

QString refusalName(Refusal refusal)
{
    switch (refusal) {
    case Refusal::None:
        break;
    case Refusal::NoEvidence:
        return QStringLiteral("NoEvidence");
    case Refusal::NoRevision:
        return QStringLiteral("NoRevision");
    case Refusal::RouteLimit:
        return QStringLiteral("RouteLimit");
    case Refusal::TooLarge:
        return QStringLiteral("TooLarge");
    case Refusal::TooManyUnhealthy:
        return QStringLiteral("TooManyUnhealthy");
    case Refusal::ZoneDisruption:
        return QStringLiteral("ZoneDisruption");
    case Refusal::ProtectedRouter:
        return QStringLiteral("ProtectedRouter");
    case Refusal::AutomationPending:
        return QStringLiteral("AutomationPending");
    case Refusal::NotPermitted:
        return QStringLiteral("NotPermitted");
    case Refusal::TooManyDeletions:
        return QStringLiteral("TooManyDeletions");
    case Refusal::KlusterLive:
        return QStringLiteral("KlusterLive");
    case Refusal::Attached:
        return QStringLiteral("Attached");
    }
    return QString();
}
