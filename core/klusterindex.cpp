#include "core/klusterindex.h"

static bool isNameSuffix(QStringView suffix)
{
    if (suffix.size() != 5)
        return false;
    for (QChar c : suffix) {
        if (!((c >= QLatin1Char('a') && c <= QLatin1Char('z'))
                || (c >= QLatin1Char('0') && c <= QLatin1Char('9'))))
            return false;
    }
    return true;
}

KlusterMembers::KlusterMembers(const KlusterState &state)
{
    const Kluster &k = state.kluster;
    for (const NodePool &pool : k.nodePools) {
        m_poolByPrefix.insert(
            QStringLiteral("kks-") + k.name + QLatin1Char('-') + pool.name + QLatin1Char('-'), pool.name);
        m_poolByPrefix.insert(k.name + QLatin1Char('-') + pool.name + QLatin1Char('-'), pool.name);
    }
    for (int i = 0; i < state.instances.size(); ++i) {
        if (!poolOf(state.instances.at(i).name).isEmpty())
            m_instances.append(i);
    }
    for (int i = 0; i < state.securityGroups.size(); ++i) {
        if (state.securityGroups.at(i).name == k.securityGroupName)
            m_groups.append(i);
    }
}

QString KlusterMembers::poolOf(const QString &instanceName) const
{
    // <prefix><5 lowercase alphanumerics>
    if (instanceName.size() < 7 || instanceName.at(instanceName.size() - 6) != QLatin1Char('-'))
        return QString();
    if (!isNameSuffix(QStringView(instanceName).right(5)))
        return QString();
    return m_poolByPrefix.value(instanceName.left(instanceName.size() - 5));
}

KlusterIndex::KlusterIndex(const KlusterState &state)
    : m_state(state)
    , m_members(state)
{
    m_instanceByName.reserve(state.instances.size());
    m_instanceByAddress.reserve(state.instances.size() * 2);
    for (int i = 0; i < state.instances.size(); ++i) {
        const Instance &instance = state.instances.at(i);
        if (!m_instanceByName.contains(instance.name))
            m_instanceByName.insert(instance.name, i);
        for (const InstanceAddress &a : instance.addresses) {
            const QString key = canonicalAddress(a.address);
            if (!key.isEmpty() && !m_instanceByAddress.contains(key))
                m_instanceByAddress.insert(key, i);
        }
    }

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
        QSet<QString> instanceIds; // made only when a node has no instance of its name
        for (int i = 0; i < state.nodes.size(); ++i) {
            const Node &node = state.nodes.at(i);
            if (m_instanceByName.contains(node.name))
                continue;
            if (instanceIds.isEmpty()) {
                instanceIds.reserve(state.instances.size());
                for (const Instance &instance : state.instances)
                    instanceIds.insert(instance.id);
            }
            const QString providerInstance = node.providerInstanceId();
            if (!providerInstance.isEmpty() && instanceIds.contains(providerInstance))
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
    if (!name.startsWith(QLatin1String("kks-")) || name.size() < 4 + 2 + 2 + 5
        || name.at(name.size() - 6) != QLatin1Char('-') || !isNameSuffix(QStringView(name).right(5)))
        return false;
    const QStringView middle = QStringView(name).mid(4, name.size() - 4 - 6); // <kluster>-<pool>
    const qsizetype dash = middle.indexOf(QLatin1Char('-'));
    if (dash <= 0 || dash == middle.size() - 1)
        return false;
    return poolOf(name).isEmpty();
}

int KlusterIndex::instanceByAddress(const QString &address) const
{
    return m_instanceByAddress.value(canonicalAddress(address), -1);
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
