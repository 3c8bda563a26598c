#include "core/routeaudit.h"

#include <QSet>

// The node has an InternalIP of the destination's family to route it to.
static bool hasAddressFor(const Node &node, const Cidr &destination)
{
    const QString ip = canonicalAddress(node.internalIp);
    if (ip.isEmpty())
        return false;
    return ip.contains(QLatin1Char(':')) == !destination.isIPv4();
}

RouteAudit::RouteAudit(const KlusterIndex &index)
{
    const KlusterState &state = index.state();
    const Cidr &podNetwork = state.kluster.clusterCidr;
    const QList<Route> &routes = state.router.routes;
    m_routeCount = int(routes.size());
    m_entries.reserve(routes.size() + state.nodes.size());

    QHash<Cidr, int> groupOf; // destination -> index in m_groups
    QSet<std::pair<Cidr, QString>> present; // (destination, canonical nexthop)
    present.reserve(routes.size());

    for (int i = 0; i < routes.size(); ++i) {
        Entry e;
        e.position = i;
        e.route = routes.at(i);
        e.destination = Cidr::parse(e.route.destination);
        const QString hop = canonicalAddress(e.route.nexthop);
        present.insert({ e.destination, hop });

        const int instance = index.instanceByAddress(hop);
        if (instance >= 0) {
            e.nexthopInstance = state.instances.at(instance).name;
            e.nexthopInstanceIndex = instance;
            if (index.isAnotherKlustersInstance(instance))
                e.roles |= OtherKluster;
        }
        const int hopNode = index.nodeByAddress(hop);
        if (hopNode >= 0)
            e.nexthopNode = state.nodes.at(hopNode).name;

        if (!podNetwork.contains(e.destination)) {
            e.roles |= Foreign;
            ++m_foreignCount;
        } else {
            const int owner = index.nodeByPodCidr(e.destination);
            bool undecided = false;
            if (owner >= 0) {
                const Node &node = state.nodes.at(owner);
                e.destinationNode = node.name;
                e.destinationNodeAddress = node.internalIp;
                if (hasAddressFor(node, e.destination)) {
                    e.correctNexthop = node.internalIp;
                    if (!hop.isEmpty() && hop == canonicalAddress(node.internalIp))
                        e.roles |= Correct;
                } else {
                    undecided = true;
                }
            }
            auto it = groupOf.find(e.destination);
            if (it == groupOf.end()) {
                it = groupOf.insert(e.destination, int(m_groups.size()));
                m_groups.append(DestinationGroup { e.destination, {}, undecided });
            }
            m_groups[it.value()].entries.append(int(m_entries.size()));
            if (instance >= 0)
                m_routesVia[instance].append(int(m_entries.size()));
        }
        m_entries.append(e);
    }

    for (const DestinationGroup &group : std::as_const(m_groups)) {
        const bool duplicated = group.entries.size() > 1;
        for (int k = 0; k < group.entries.size(); ++k) {
            Entry &e = m_entries[group.entries.at(k)];
            if (k == 0)
                e.roles |= Effective;
            if (duplicated)
                e.roles |= Duplicate;
            if (e.roles & Correct) {
                e.roles &= ~Roles(OtherKluster); // the owner's own address: whoever's instance it is
                continue;
            }
            // The owner has no usable address: which route is right cannot be told, but a route to *another
            // node's* address is surely wrong (that node is not the owner), and the owner is cut off.
            const bool anotherNode
                = group.undecided && !e.nexthopNode.isEmpty() && e.nexthopNode != e.destinationNode;
            if (duplicated) {
                // Within a duplicate set a wrong route is orphaned when nobody
                // has its nexthop, stale when somebody does.
                if (e.nexthopInstance.isEmpty())
                    e.roles |= Orphaned;
                else if (!group.undecided || anotherNode)
                    e.roles |= Stale;
            } else if (anotherNode) {
                e.roles |= Stale;
            } else if (!e.correctNexthop.isEmpty()) {
                // The sole route for a node's pod CIDR points elsewhere: the node is cut off.
                e.roles |= Stale;
                if (e.nexthopInstance.isEmpty())
                    e.roles |= Orphaned;
            } else if (e.nexthopInstance.isEmpty()) {
                e.roles |= Orphaned;
            } else if (e.destinationNode.isEmpty() && !(e.roles & OtherKluster)) {
                e.roles |= Unassigned; // no node has the destination, a live instance the nexthop
            }
        }
    }

    for (int n = 0; n < state.nodes.size(); ++n) {
        const Node &node = state.nodes.at(n);
        if (!node.podCidr.isValid() || !hasAddressFor(node, node.podCidr))
            continue; // nothing to route yet
        if (index.isGhost(n))
            continue; // its instance is gone: a route to its address would lead nowhere
        if (present.contains({ node.podCidr, canonicalAddress(node.internalIp) }))
            continue;
        Entry e;
        e.route = Route { node.podCidrText, node.internalIp };
        e.destination = node.podCidr;
        e.roles = Missing;
        e.destinationNode = node.name;
        e.correctNexthop = node.internalIp;
        e.nexthopNode = node.name;
        const int instance = index.instanceByAddress(node.internalIp);
        if (instance >= 0) {
            e.nexthopInstance = state.instances.at(instance).name;
            e.nexthopInstanceIndex = instance;
        }
        m_entries.append(e);
        ++m_missingCount;
    }
}

QStringList RouteAudit::roleNames(Roles roles)
{
    QStringList names;
    if (roles & Effective)
        names << QStringLiteral("effective");
    if (roles & Correct)
        names << QStringLiteral("correct");
    if (roles & Duplicate)
        names << QStringLiteral("duplicate");
    if (roles & Stale)
        names << QStringLiteral("stale");
    if (roles & Orphaned)
        names << QStringLiteral("orphaned");
    if (roles & Foreign)
        names << QStringLiteral("foreign");
    if (roles & Unassigned)
        names << QStringLiteral("unassigned");
    if (roles & OtherKluster)
        names << QStringLiteral("other-kluster");
    if (roles & Missing)
        names << QStringLiteral("missing");
    return names;
}
