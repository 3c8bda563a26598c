#pragma once

#include "core/cidr.h"
#include "core/klusterstate.h"
#include "core/projectindex.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <memory>

// The state's project index when it indexes the state's lists (set where the project's lists are kept),
// else one made for it.
std::shared_ptr<const ProjectIndex> projectIndexOf(const KlusterState &state);

// Which of a state's instances and security groups are the kluster's, by Kubernikus' naming: the part of
// the index that needs no other join (a kluster's state digest needs only this).
class KlusterMembers
{
public:
    explicit KlusterMembers(const KlusterState &state);
    KlusterMembers(const KlusterState &state, const ProjectIndex &project);

    // Indices into state.instances of the kluster's instances, in Nova order.
    const QList<int> &instances() const { return m_instances; }
    // Indices into state.securityGroups of the groups named like the kluster's group.
    const QList<int> &groups() const { return m_groups; }
    // The pool an instance belongs to by its name, or empty if it is not the kluster's.
    QString poolOf(const QString &instanceName) const;
    // What the kluster's instances are, in short: their ids and states (status, vm and task state). Two
    // states with the same digest have the same instances in the same states.
    static QByteArray digest(const KlusterState &state);

private:
    void addPool(const QString &prefix, const QString &pool, const ProjectIndex &project);

    QHash<QString, QString> m_poolByPrefix; // "kks-<kluster>-<pool>-" and "<kluster>-<pool>-"
    QList<int> m_instances;
    QList<int> m_groups;
};

// The join of a kluster's OpenStack and Kubernetes views: which instances are
// the kluster's (by Kubernikus' naming), which node is which instance's, and
// who owns an IP address or a pod CIDR. What is the project's (its servers by name and address) is the
// project index's, shared by its klusters; the rest is built once per state in time linear in the kluster.
class KlusterIndex
{
public:
    explicit KlusterIndex(const KlusterState &state);

    const KlusterState &state() const { return m_state; }

    // Indices into state().instances of the kluster's instances, in Nova order.
    const QList<int> &klusterInstances() const { return m_members.instances(); }
    // The pool an instance belongs to by its name, or empty if it is not the kluster's.
    QString poolOf(const QString &instanceName) const { return m_members.poolOf(instanceName); }

    // -1 when there is none.
    int nodeByName(const QString &name) const { return m_nodeByName.value(name, -1); }
    int instanceByName(const QString &name) const { return m_project->instanceByName(name); }
    int instanceByAddress(const QString &address) const; // any project instance, fixed or floating
    int nodeByAddress(const QString &address) const; // by InternalIP
    int nodeByPodCidr(const Cidr &cidr) const { return m_nodeByPodCidr.value(cidr, -1); }

    // The node registered for an instance (same name), or -1.
    int nodeOfInstance(int instanceIndex) const;
    // True when the node's providerID names a different instance than the one of its name.
    bool providerIdDisagrees(int instanceIndex, int nodeIndex) const;

    // A ghost: a node with no instance of its name in the project, whose providerID (if set) names no
    // instance either. Only decided on a complete server list: false when it failed or is partial.
    bool isGhost(int nodeIndex) const { return m_ghosts.contains(nodeIndex); }
    // The instance is named like a Kubernikus node (`kks-<kluster>-<pool>-<5 chars>`) but is not one of
    // this kluster's: it is another kluster's, and so are the routes that lead to it.
    bool isAnotherKlustersInstance(int instanceIndex) const;

    // Indices into state().securityGroups of the groups named like the kluster's group.
    const QList<int> &klusterGroups() const { return m_members.groups(); }
    // The project's servers and ports, indexed.
    const ProjectIndex &project() const { return *m_project; }

private:
    const KlusterState &m_state;
    std::shared_ptr<const ProjectIndex> m_project;
    KlusterMembers m_members;
    QHash<QString, int> m_nodeByName;
    QHash<QString, int> m_nodeByAddress;
    QHash<Cidr, int> m_nodeByPodCidr;
    QSet<int> m_ghosts;
};
