#pragma once

#include "core/diagnosisoptions.h"
#include "core/finding.h"
#include "core/klusterindex.h"
#include "core/klusterphase.h"
#include "core/klusterstate.h"
#include "core/routeaudit.h"

#include <QJsonValue>
#include <optional>

// The routes the kluster's router takes: the limit given explicitly, else the snapshot's maxRoutes, else the
// default of the options (diagnosis.md: 30) — unless the router holds more routes than that default, which
// proves its limit higher by an unknown amount: then 0, "limit unknown", and no route-limit finding, no
// RouteLimit refusal is derived from it.
int effectiveRouteLimit(const KlusterState &state, const DiagnosisOptions &options);
// Whether the default limit was disproved by the routes the router holds (the limit is then unknown).
bool routeLimitDisproved(const KlusterState &state, const DiagnosisOptions &options);

// What one diagnosis was made from, shared by all its findings: a copy of the
// state (implicitly shared, so cheap), the options, the join and the route
// audit. Findings keep their facts small and ask their kind's traits
// (core/findingtraits.h) for their words, which read this.
class DiagnosisContext
{
public:
    DiagnosisContext(const KlusterState &state, const DiagnosisOptions &options);
    Q_DISABLE_COPY_MOVE(DiagnosisContext)

    const KlusterState state;
    const DiagnosisOptions options;
    const KlusterIndex index;
    const RouteAudit audit;

    const KlusterPhase phase; // the kluster's lifecycle phase (diagnosis.md §7)
    int groupIndex = -1; // the kluster's security group, when it can be identified
    bool nodeEvidenceMissing = false;
    bool atomicRoutes = false;
    int routeLimit = 0; // 0: not known (effectiveRouteLimit)
    QHash<Cidr, QList<int>> routesByDestination; // audit entries on the router, by destination

    // The route finding a destination of the kluster gets, if any: route-duplicate,
    // route-stale, route-orphaned or route-unassigned (shared by the diagnosis and the route-limit evidence).
    std::optional<FindingKind> routeFindingKind(int destinationGroup) const;
    QString routeSubject(int destinationGroup) const;
    QList<Route> wrongRoutes(int destinationGroup) const;

    qint64 ageOf(const QDateTime &t) const { return t.isValid() ? t.secsTo(state.capturedAt) : 0; }
};

// An optional text of the state in evidence: null when it is empty.
inline QJsonValue stringOrNull(const QString &s)
{
    return s.isEmpty() ? QJsonValue() : QJsonValue(s);
}
