// The World's lookups at scale (simulator/worldindex.h), and the free addresses of a network.
#include "simulator/world.h"

#include <QHostAddress>

int World::serverIndex(const QString &id) const
{
    return m_serverIndex.find(servers, id);
}

int World::routerIndex(const QString &id) const
{
    return m_routerIndex.find(routers, id);
}

int World::networkIndex(const QString &idOrName) const
{
    const int byId = m_networkIndex.find(networks, idOrName);
    return byId >= 0 ? byId : m_networkNameIndex.find(networks, idOrName);
}

int World::portIndex(const QString &id) const
{
    return m_portIndex.find(ports, id);
}

int World::groupIndex(const QString &id) const
{
    return m_groupIndex.find(securityGroups, id);
}

int World::groupIndexByName(const QString &projectId, const QString &name) const
{
    return m_groupNameIndex.find(securityGroups, projectKey(projectId, name));
}

int World::klusterIndex(const QString &name) const
{
    return m_klusterIndex.find(klusters, name);
}

QString World::freeAddress(const SimNetwork &network) const
{
    // Only an IPv4 network of a prefix 0..32 has addresses to hand out here (the scenario loader refuses
    // any other); an IPv6 or unparsed one has none, rather than a shift past the word.
    const QPair<QHostAddress, int> subnet = QHostAddress::parseSubnet(network.cidr);
    if (subnet.first.protocol() != QAbstractSocket::IPv4Protocol || subnet.second < 0 || subnet.second > 32)
        return QString();
    // The lowest from .10 on that is neither the gateway nor any port's: what a port removed had is free
    // again. Each candidate is one look at the ports' addresses, not a set of them all made per call.
    const quint64 base = subnet.first.toIPv4Address();
    const quint64 size = quint64(1) << (32 - subnet.second);
    for (quint64 i = 10; i + 1 < size && base + i <= 0xffffffffu; ++i) {
        QString candidate = QHostAddress(quint32(base + i)).toString();
        if (candidate != network.gateway && m_addressIndex.find(ports, candidate) < 0)
            return candidate;
    }
    return QString();
}
