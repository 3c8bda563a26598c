#include "core/projectindex.h"

#include "core/cidr.h"

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

template<typename T> static bool sameList(const QList<T> &a, const QList<T> &b)
{
    return a.size() == b.size() && (a.isEmpty() || a.constData() == b.constData());
}

QString ProjectIndex::nodePrefixOf(const QString &instanceName)
{
    if (instanceName.size() < 7 || instanceName.at(instanceName.size() - 6) != QLatin1Char('-'))
        return QString();
    if (!isNameSuffix(QStringView(instanceName).right(5)))
        return QString();
    return instanceName.left(instanceName.size() - 5);
}

ProjectIndex::ProjectIndex(const QList<Instance> &instances, const QList<Port> &ports)
    : m_instances(instances)
    , m_ports(ports)
{
    m_byName.reserve(instances.size());
    m_byAddress.reserve(instances.size() * 2);
    m_ids.reserve(instances.size());
    for (int i = 0; i < instances.size(); ++i) {
        const Instance &instance = instances.at(i);
        if (!m_byName.contains(instance.name))
            m_byName.insert(instance.name, i);
        m_ids.insert(instance.id);
        for (const InstanceAddress &a : instance.addresses) {
            const QString key = canonicalAddress(a.address);
            if (!key.isEmpty() && !m_byAddress.contains(key))
                m_byAddress.insert(key, i);
        }
        if (const QString prefix = nodePrefixOf(instance.name); !prefix.isEmpty())
            m_byNodePrefix[prefix].append(i);
    }
    m_portsByDevice.reserve(ports.size());
    for (int p = 0; p < ports.size(); ++p)
        m_portsByDevice[ports.at(p).deviceId].append(p);
}

bool ProjectIndex::indexes(const QList<Instance> &instances, const QList<Port> &ports) const
{
    return sameList(m_instances, instances) && sameList(m_ports, ports);
}
