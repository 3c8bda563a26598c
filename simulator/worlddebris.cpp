// What a kluster keeps outside its nodes, and leaves behind when it goes (diagnosis.md §9): Cinder's volumes
// and Octavia's load balancers, the World's operations on them (docs/wire-formats.md, "What a terminated
// kluster leaves behind").

#include "simulator/world.h"

int World::volumeIndex(const QString &id) const
{
    for (int i = 0; i < volumes.size(); ++i) {
        if (volumes.at(i).id == id)
            return i;
    }
    return -1;
}

int World::loadBalancerIndex(const QString &id) const
{
    for (int i = 0; i < loadBalancers.size(); ++i) {
        if (loadBalancers.at(i).id == id)
            return i;
    }
    return -1;
}

QString World::volumeClusterOf(const QString &kluster, const QString &projectId)
{
    return QString(kluster + QLatin1Char('-') + projectId).left(63);
}

std::optional<SimError> World::deleteVolume(int volume)
{
    // cinder/volume/api.py's conditional update: not attached, and (without force) in one of these.
    static const QStringList deletable
        = { QStringLiteral("available"), QStringLiteral("error"), QStringLiteral("error_restoring"),
              QStringLiteral("error_extending"), QStringLiteral("error_managing") };
    const SimVolume &v = volumes.at(volume);
    if (!v.attachedTo.isEmpty() || !deletable.contains(v.status)) {
        return SimError { 400, QStringLiteral("badRequest"),
            QStringLiteral(
                "Invalid volume: Volume status must be available or error or error_restoring or "
                "error_extending or error_managing and must not be migrating, attached, belong to a "
                "group, have snapshots, awaiting a transfer, or be disassociated from snapshots "
                "after volume transfer.") };
    }
    volumes.removeAt(volume);
    return std::nullopt;
}

std::optional<SimError> World::deleteLoadBalancer(int loadBalancer)
{
    SimLoadBalancer &lb = loadBalancers[loadBalancer];
    // octavia/db/repositories.py test_and_set_provisioning_status: a deletion from ACTIVE or ERROR only.
    if (lb.provisioningStatus != QLatin1String("ACTIVE") && lb.provisioningStatus != QLatin1String("ERROR")) {
        return SimError {
            409, QString(),
            QStringLiteral("Invalid state %1 of loadbalancer resource %2").arg(lb.provisioningStatus, lb.id)
        };
    }
    if (loadBalancerDeleteSeconds <= 0) {
        loadBalancers.removeAt(loadBalancer);
        return std::nullopt;
    }
    const QDateTime t = now();
    lb.provisioningStatus = QStringLiteral("PENDING_DELETE");
    lb.updated = t;
    lb.goneAt = t.addSecs(loadBalancerDeleteSeconds);
    return std::nullopt;
}

void World::detachVolumes(const QString &serverId)
{
    const QDateTime t = now();
    for (SimVolume &v : volumes) {
        if (v.attachedTo.removeAll(serverId) == 0 || !v.attachedTo.isEmpty())
            continue;
        v.status = QStringLiteral("available");
        v.attachedAt = QDateTime();
        v.updated = t;
    }
}

bool World::removeKluster(const QString &name)
{
    const int k = klusterIndex(name);
    if (k < 0)
        return false;
    const QDateTime t = now();
    for (qsizetype s = servers.size() - 1; s >= 0; --s) {
        if (servers.at(s).kluster != name)
            continue;
        const SimServer server = servers.takeAt(s);
        keepDeleted(server, t);
        const int p = portIndex(server.portId);
        if (p >= 0)
            ports.removeAt(p);
        detachVolumes(server.id);
    }
    pending.removeIf([&name](const Pending &job) { return job.kluster == name; });
    klusters.removeAt(k);
    ++resourceVersionCounter; // its nodes went with it
    return true;
}

bool World::removeDeletedLoadBalancers(const QDateTime &t)
{
    return loadBalancers.removeIf([&t](const SimLoadBalancer &lb) {
        return lb.goneAt.isValid() && lb.goneAt <= t;
    }) > 0;
}
