#include "core/klusterindex.h"

#include <QCryptographicHash>
#include <algorithm>

std::shared_ptr<const ProjectIndex> projectIndexOf(const KlusterState &state)
{
    if (state.projectIndex && state.projectIndex->indexes(state.instances, state.ports))
        return state.projectIndex;
    return std::make_shared<const ProjectIndex>(state.instances, state.ports);
}

KlusterMembers::KlusterMembers(const KlusterState &state)
    : KlusterMembers(state, *projectIndexOf(state))
{ }

QByteArray KlusterMembers::digest(const KlusterState &state)
{
    QStringList members;
    const KlusterMembers kluster(state); // held: instances() is its own
    for (const int i : kluster.instances()) {
        const Instance &in = state.instances.at(i);
        members << in.id + QLatin1Char(' ') + in.status + QLatin1Char(' ') + in.vmState + QLatin1Char(' ')
                + in.taskState;
    }
    members.sort();
    return QCryptographicHash::hash(members.join(QLatin1Char('\n')).toUtf8(), QCryptographicHash::Sha1);
}

KlusterMembers::KlusterMembers(const KlusterState &state, const ProjectIndex &project)
{
    const Kluster &k = state.kluster;
    for (const NodePool &pool : k.nodePools) {
        addPool(QStringLiteral("kks-") + k.name + QLatin1Char('-') + pool.name + QLatin1Char('-'), pool.name,
            project);
        addPool(k.name + QLatin1Char('-') + pool.name + QLatin1Char('-'), pool.name, project);
    }
    std::sort(m_instances.begin(), m_instances.end()); // Nova order
    m_instances.erase(std::unique(m_instances.begin(), m_instances.end()), m_instances.end());
    for (int i = 0; i < state.securityGroups.size(); ++i) {
        if (state.securityGroups.at(i).name == k.securityGroupName)
            m_groups.append(i);
    }
}

void KlusterMembers::addPool(const QString &prefix, const QString &pool, const ProjectIndex &project)
{
    if (m_poolByPrefix.contains(prefix))
        return;
    m_poolByPrefix.insert(prefix, pool);
    m_instances += project.instancesNamed(prefix);
}

QString KlusterMembers::poolOf(const QString &instanceName) const
{
    // <prefix><5 lowercase alphanumerics>
    const QString prefix = ProjectIndex::nodePrefixOf(instanceName);
    return prefix.isEmpty() ? QString() : m_poolByPrefix.value(prefix);
}

KlusterIndex::KlusterIndex(const KlusterState &state)
    : m_state(state)
    , m_project(projectIndexOf(state))
    , m_members(state, *m_project)
{
    m_nodeByName.reserve(state.nodes.size());
    m_nodeByAddress.reserve(state.nodes.size());
    m_nodeByPodCidr.reserve(state.nodes.size());
    for (int i = 0; i < state.nodes.size(); ++i) {
        const Node &node = state.nodes.at(i);
        if (!m_nodeByName.contains(node.name))
            m_nodeByName.insert(node.name, i);
        const QString ip = canonicalAddress(node.internalIp);
        if (!ip.isEmpty() && !m_nodeByAddress.contains(ip))
            m_nodeByAddress.insert(ip, i);
        if (node.podCidr.isValid() && !m_nodeByPodCidr.contains(node.podCidr))
            m_nodeByPodCidr.insert(node.podCidr, i);
    }

    if (state.serversSource.known && state.serversSource.incomplete.isEmpty()) {
        for (int i = 0; i < state.nodes.size(); ++i) {
            const Node &node = state.nodes.at(i);
            if (m_project->instanceByName(node.name) >= 0)
                continue;
            const QString providerInstance = node.providerInstanceId();
            if (!providerInstance.isEmpty() && m_project->hasInstanceId(providerInstance))
                continue;
            m_ghosts.insert(i);
        }
    }
}

bool KlusterIndex::isAnotherKlustersInstance(int instanceIndex) const
{
    if (instanceIndex < 0)
        return false;
    const QString &name = m_state.instances.at(instanceIndex).name;
    // kks-<kluster>-<pool>-<5 lowercase alphanumerics>: at least one character for kluster and pool.
    const QString prefix = ProjectIndex::nodePrefixOf(name);
    if (!prefix.startsWith(QLatin1String("kks-")) || prefix.size() < 4 + 2 + 2)
        return false;
    const QStringView middle = QStringView(prefix).mid(4, prefix.size() - 4 - 1); // <kluster>-<pool>
    const qsizetype dash = middle.indexOf(QLatin1Char('-'));
    if (dash <= 0 || dash == middle.size() - 1)
        return false;
    return m_members.poolOf(name).isEmpty();
}

int KlusterIndex::instanceByAddress(const QString &address) const
{
    return m_project->instanceByCanonicalAddress(canonicalAddress(address));
}

int KlusterIndex::nodeByAddress(const QString &address) const
{
    return m_nodeByAddress.value(canonicalAddress(address), -1);
}

int KlusterIndex::nodeOfInstance(int instanceIndex) const
{
    return nodeByName(m_state.instances.at(instanceIndex).name);
}

bool KlusterIndex::providerIdDisagrees(int instanceIndex, int nodeIndex) const
{
    if (instanceIndex < 0 || nodeIndex < 0)
        return false;
    const Node &node = m_state.nodes.at(nodeIndex);
    if (node.providerId.isEmpty())
        return false;
    return node.providerInstanceId() != m_state.instances.at(instanceIndex).id;
}
