#pragma once

#include "core/cidr.h"
#include "core/klusterindex.h"
#include "core/router.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

// The route audit of diagnosis.md: every route on the router with its roles
// and the owner of its nexthop, plus the routes that nodes need and lack.
// The diagnosis derives its route findings from it; the Routes view shows it.
class RouteAudit
{
public:
    enum Role
    {
        Correct = 0x01, // points at the InternalIP of the node that owns the destination
        Effective = 0x02, // the first route for its destination: the one traffic takes
        Duplicate = 0x04, // shares its destination with another of the kluster's routes
        Stale = 0x08, // the destination is a node's pod CIDR, the nexthop is not that node
        Orphaned = 0x10, // the nexthop is no address of any instance in the project
        Foreign = 0x20, // not wholly inside the kluster's pod network: never touched
        Missing = 0x40, // a route a node needs that the router does not have
        // The destination is no node's pod CIDR, the nexthop a live instance of the project (not another
        // kluster's): the route holds a slot and wins once the CIDR is given to a new node.
        Unassigned = 0x80,
        // The nexthop is another kluster's instance (`kks-<other>-…`): that kluster's route, never removed
        // here.
        OtherKluster = 0x100,
    };
    Q_DECLARE_FLAGS(Roles, Role)

    struct Entry
    {
        int position = -1; // index in router order; -1 for a missing route
        Route route;
        Cidr destination;
        Roles roles;
        QString nexthopInstance; // the instance that has the nexthop address, if any
        int nexthopInstanceIndex = -1; // its index in the state's instances
        QString nexthopNode; // the node whose InternalIP it is, if any
        QString destinationNode; // the node whose pod CIDR is the destination, if any
        QString correctNexthop; // that node's InternalIP (empty when it has none of the family)
        QString destinationNodeAddress; // that node's InternalIP as it reads, usable or not
    };

    struct DestinationGroup
    {
        Cidr destination;
        QList<int> entries; // indices into entries(), router order
        // A node owns the destination but has no address of its family yet:
        // which route is correct cannot be told, so none is called stale.
        bool undecided = false;
    };

    explicit RouteAudit(const KlusterIndex &index);

    const QList<Entry> &entries() const { return m_entries; } // router order, then missing
    const QList<DestinationGroup> &klusterDestinations() const { return m_groups; }
    int routeCount() const { return m_routeCount; } // routes on the router, all of them
    int foreignCount() const { return m_foreignCount; }
    int missingCount() const { return m_missingCount; }
    // The kluster's routes (not foreign) whose nexthop is an address of this instance, in router order.
    QList<int> routesVia(int instanceIndex) const { return m_routesVia.value(instanceIndex); }

    static QStringList roleNames(Roles roles);

private:
    QList<Entry> m_entries;
    QList<DestinationGroup> m_groups;
    int m_routeCount = 0;
    int m_foreignCount = 0;
    int m_missingCount = 0;
    QHash<int, QList<int>> m_routesVia; // instance index -> entries
};

Q_DECLARE_OPERATORS_FOR_FLAGS(RouteAudit::Roles)
