#pragma once

#include "repairplan.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

enum class Severity { Critical = 0, Warning = 1, Info = 2 };

QString severityName(Severity severity);  // "critical", "warning", "info"

// What a finding is about, for views that show and select the affected rows.
struct AffectedObjects
{
    QStringList instances;  // instance names
    QStringList nodes;      // node names
    QList<Route> routes;    // routes on the router
    QStringList securityGroups;
};

// One diagnosed failure: a stable kind and subject, a severity, a message a
// person understands at 3 am, the evidence that proves it, and its repair.
struct Finding
{
    QString kind;
    QString subject;
    Severity severity = Severity::Info;
    QString message;
    QJsonObject evidence;
    std::optional<RepairPlan> repair;
    AffectedObjects affected;

    // "<kind>:<subject>", stable across refreshes.
    QString id() const { return kind + QLatin1Char(':') + subject; }
};

// Severity, then kind, then subject: the order of every report.
bool findingLessThan(const Finding &a, const Finding &b);

// The finding kinds of the diagnosis, as constants.
namespace FindingKind {
inline const QString InstanceUnregistered = QStringLiteral("instance-unregistered");
inline const QString InstanceError = QStringLiteral("instance-error");
inline const QString InstanceMissingSecurityGroup = QStringLiteral("instance-missing-security-group");
inline const QString SecurityGroupMissing = QStringLiteral("security-group-missing");
inline const QString SecurityGroupRuleMissing = QStringLiteral("security-group-rule-missing");
inline const QString RouteDuplicate = QStringLiteral("route-duplicate");
inline const QString RouteOrphaned = QStringLiteral("route-orphaned");
inline const QString RouteStale = QStringLiteral("route-stale");
inline const QString RouteMissing = QStringLiteral("route-missing");
inline const QString RouteLimit = QStringLiteral("route-limit");
inline const QString NodeNotReady = QStringLiteral("node-not-ready");
inline const QString NodeNetworkUnavailable = QStringLiteral("node-network-unavailable");
inline const QString NodeProviderMismatch = QStringLiteral("node-provider-mismatch");
} // namespace FindingKind
