#pragma once

// Every repair kind Flightdeck plans, for one kluster's state: the plans of its findings, and the kinds it
// has no finding for made from its objects as the planner makes them; each kind named. For the tables that
// judge each kind for each identity and send it (tst_permissions_live against the simulator, tst_openstack
// against the real services).

#include "core/diagnosis.h"
#include "core/repairplanner.h"

#include <QJsonDocument>
#include <QStringList>

namespace RepairKinds {

inline QString name(RepairPlan::Action action)
{
    switch (action) {
    case RepairPlan::Action::DeleteInstance:
        return QStringLiteral("DeleteInstance");
    case RepairPlan::Action::AddSecurityGroup:
        return QStringLiteral("AddSecurityGroup");
    case RepairPlan::Action::CreateSecurityGroupRule:
        return QStringLiteral("CreateSecurityGroupRule");
    case RepairPlan::Action::RemoveRoutes:
        return QStringLiteral("RemoveRoutes");
    case RepairPlan::Action::AddRoutes:
        return QStringLiteral("AddRoutes");
    case RepairPlan::Action::ChangeRoutes:
        return QStringLiteral("ChangeRoutes");
    case RepairPlan::Action::DeleteNode:
        return QStringLiteral("DeleteNode");
    case RepairPlan::Action::StartInstance:
        return QStringLiteral("StartInstance");
    case RepairPlan::Action::AddAddressPair:
        return QStringLiteral("AddAddressPair");
    case RepairPlan::Action::SyncDevices:
        return QStringLiteral("SyncDevices");
    case RepairPlan::Action::ResetDevices:
        return QStringLiteral("ResetDevices");
    case RepairPlan::Action::RenewRoutes:
        return QStringLiteral("RenewRoutes");
    case RepairPlan::Action::DeleteVolume:
        return QStringLiteral("DeleteVolume");
    case RepairPlan::Action::ResetAndDeleteVolume:
        return QStringLiteral("ResetAndDeleteVolume");
    case RepairPlan::Action::DeleteLoadBalancer:
        return QStringLiteral("DeleteLoadBalancer");
    }
    return QString();
}

// Every kind there is (the table's rows must cover them all).
inline QStringList all()
{
    return { QStringLiteral("DeleteInstance"), QStringLiteral("AddSecurityGroup"),
        QStringLiteral("CreateSecurityGroupRule"), QStringLiteral("AddRoutes"),
        QStringLiteral("RemoveRoutes"), QStringLiteral("DeleteNode"), QStringLiteral("StartInstance"),
        QStringLiteral("AddAddressPair"), QStringLiteral("SyncDevices"), QStringLiteral("ResetDevices"),
        QStringLiteral("RenewRoutes"), QStringLiteral("ChangeRoutes") };
}

// The findings' own plans, then one of each kind the state has no finding for (its first instance, port and
// route; none of a kind the state has nothing for: the caller's table says which kinds it saw).
inline QList<RepairPlan> plansOf(const KlusterState &s, const Diagnosis &diagnosis)
{
    QList<RepairPlan> plans;
    for (const Finding &finding : diagnosis.findings) {
        if (std::optional<RepairPlan> plan = finding.repair())
            plans << *plan;
    }
    if (!s.instances.isEmpty())
        plans << RepairPlanner::startInstance(s.instances.constFirst());
    if (!s.ports.isEmpty())
        plans << RepairPlanner::addAddressPair(s.ports.constFirst(), QStringLiteral("100.100.0.0/16"), true);
    if (!s.router.routes.isEmpty()) {
        const Route route = s.router.routes.constFirst();
        const Route spare { QStringLiteral("100.100.250.0/24"), route.nexthop };
        plans << RepairPlanner::changeRoutes(s.router, { route }, { spare }, true)
              << RepairPlanner::renewRoutes(s.router, { route }, true);
    }
    if (!s.router.id.isEmpty())
        plans << RepairPlanner::syncDevices(s.router, {}) << RepairPlanner::resetDevices(s.router, {}, {});
    return plans;
}

// A planned request's headers and body as they are sent.
inline QList<QPair<QByteArray, QByteArray>> headersOf(const PlannedRequest &r)
{
    QList<QPair<QByteArray, QByteArray>> headers;
    for (auto it = r.headers.begin(); it != r.headers.end(); ++it)
        headers.append({ it.key().toUtf8(), it.value().toString().toUtf8() });
    return headers;
}
inline QByteArray bodyOf(const PlannedRequest &r)
{
    return r.body.isNull() ? QByteArray() : QJsonDocument(r.body.toObject()).toJson(QJsonDocument::Compact);
}

} // namespace RepairKinds
