#pragma once

#include "core/diagnosisoptions.h"
#include "core/finding.h"
#include "core/klusterindex.h"
#include "core/klusterstate.h"
#include "core/routeaudit.h"

#include <QJsonObject>

// A protocol as the required rules name it: "6" is tcp, "17" udp, "1" icmp;
// empty for any (null or "any").
QString normalizedProtocol(const std::optional<QString> &protocol);

// How a security group rule stands toward a protocol the pod network needs:
// not about it (another direction, family or protocol), satisfying it, or
// about it without satisfying it (port ranges, a narrower or group-only
// remote), with the reason in words when `explain` is set.
struct RuleVerdict
{
    bool relevant = false;
    bool satisfies = false;
    QString problem;
};
RuleVerdict judgeRule(const SecurityGroupRule &rule, const QString &protocol, const Cidr &podNetwork, bool explain);

// What one diagnosis was made from, shared by all its findings: a copy of the
// state (implicitly shared, so cheap), the options, the join and the route
// audit. Findings keep their facts small and ask it for their words.
class DiagnosisContext
{
public:
    DiagnosisContext(const KlusterState &state, const DiagnosisOptions &options);
    Q_DISABLE_COPY_MOVE(DiagnosisContext)

    const KlusterState state;
    const DiagnosisOptions options;
    const KlusterIndex index;
    const RouteAudit audit;

    int groupIndex = -1;            // the kluster's security group, when it can be identified
    bool nodeEvidenceMissing = false;
    bool atomicRoutes = false;
    int routeLimit = 0;
    QHash<Cidr, QList<int>> routesByDestination;  // audit entries on the router, by destination

    // The route finding a destination of the kluster gets, if any: route-duplicate,
    // route-stale or route-orphaned (shared by the diagnosis and the route-limit evidence).
    QString routeFindingKind(int destinationGroup) const;
    QString routeSubject(int destinationGroup) const;
    QList<Route> wrongRoutes(int destinationGroup) const;

    qint64 ageOf(const QDateTime &t) const { return t.isValid() ? t.secsTo(state.capturedAt) : 0; }

    QString message(const Finding &f) const;
    QJsonObject evidence(const Finding &f) const;
    std::optional<RepairPlan> repair(const Finding &f) const;
    AffectedObjects affected(const Finding &f) const;

private:
    QJsonObject instanceJson(const Instance &instance) const;
    QJsonObject nodeJson(const Node &node) const;
    QJsonObject auditEntryJson(const RouteAudit::Entry &e) const;
    void refuseWithoutEvidence(RepairPlan &plan, bool needsNodes) const;
    void refuseUnguarded(RepairPlan &plan) const;
    int routeLimitFreeable(QStringList *related) const;
};
