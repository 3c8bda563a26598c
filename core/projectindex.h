#pragma once

#include "core/instance.h"
#include "core/port.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>

// A project's servers and ports, indexed once for every kluster of the project: servers by name, by address
// (fixed or floating, canonical), by id and by the name a Kubernikus node has without its 5-character
// suffix; ports by the instance they belong to. Where the lists are kept (the connection's server cache) one
// is made per list and every kluster's state refers to it; a state without one (a snapshot, a test) makes its
// own. It holds the lists it indexes, so a state that changes its copy no longer matches it (indexes()).
class ProjectIndex
{
public:
    ProjectIndex(const QList<Instance> &instances, const QList<Port> &ports);

    // Whether it indexes these very lists (the same shared data), so its indices are theirs.
    bool indexes(const QList<Instance> &instances, const QList<Port> &ports) const;

    // -1 when there is none; the first in Nova order when several have it.
    int instanceByName(const QString &name) const { return m_byName.value(name, -1); }
    int instanceByCanonicalAddress(const QString &canonical) const
    {
        return m_byAddress.value(canonical, -1);
    }
    bool hasInstanceId(const QString &id) const { return m_ids.contains(id); }
    // The instances named `<prefix><5 lowercase alphanumerics>`, in Nova order.
    QList<int> instancesNamed(const QString &prefix) const { return m_byNodePrefix.value(prefix); }
    // The ports whose device is the instance with this id, in Neutron's order.
    QList<int> portsOf(const QString &instanceId) const { return m_portsByDevice.value(instanceId); }

    // The name without its 5-character suffix when it ends in `-<5 lowercase alphanumerics>`, else empty.
    static QString nodePrefixOf(const QString &instanceName);

private:
    QList<Instance> m_instances; // held, so a copy that changes detaches from it
    QList<Port> m_ports;
    QHash<QString, int> m_byName;
    QHash<QString, int> m_byAddress;
    QSet<QString> m_ids;
    QHash<QString, QList<int>> m_byNodePrefix;
    QHash<QString, QList<int>> m_portsByDevice;
};
