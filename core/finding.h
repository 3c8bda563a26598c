#pragma once

#include "core/repairplan.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
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

// Which objects of the diagnosed state a finding rests on: indices into the
// state's lists and into the route audit. Cheap to make, so that diagnosing
// thousands of nodes stays fast; the words and JSON are made when asked for.
struct FindingFacts
{
    int instance = -1;          // index into state.instances
    int node = -1;              // index into state.nodes
    int routeEntry = -1;        // index into RouteAudit::entries()
    int destinationGroup = -1;  // index into RouteAudit::klusterDestinations()
    QString protocol;           // tcp, udp, icmp
};

class DiagnosisContext;

// One diagnosed failure: a stable kind and subject, a severity, a message a
// person understands at 3 am, the evidence that proves it, and its repair.
// The message, evidence, repair and affected objects are derived from the
// diagnosed state on demand (the finding keeps that state alive).
struct Finding
{
    QString kind;
    QString subject;
    Severity severity = Severity::Info;
    FindingFacts facts;
    std::shared_ptr<const DiagnosisContext> context;

    // "<kind>:<subject>", stable across refreshes.
    QString id() const { return kind + QLatin1Char(':') + subject; }

    QString message() const;
    QJsonObject evidence() const;
    std::optional<RepairPlan> repair() const;
    AffectedObjects affected() const;
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
} // namespace FindingKind
