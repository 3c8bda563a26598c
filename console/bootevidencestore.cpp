#include "console/bootevidencestore.h"

#include "console/connectionregistry.h"
#include "services/connection.h"

BootEvidenceStore::BootEvidenceStore(ConnectionRegistry *registry, QObject *parent)
    : QObject(parent)
    , m_registry(registry)
{
    for (Connection *c : registry->connections())
        follow(c);
    connect(registry, &ConnectionRegistry::added, this, &BootEvidenceStore::follow);
    connect(registry, &ConnectionRegistry::removed, this, [this](const QString &name) {
        m_entries.removeIf([&name](const auto &it) { return it.key().connection == name; });
    });
}

void BootEvidenceStore::follow(Connection *connection)
{
    const QString name = connection->name();
    connect(connection, &Connection::bootEvidenceRead, this,
        [this, name](const QString &kluster, const BootEvidence &evidence) {
            const KlusterKey key { name, kluster };
            const auto k = m_entries.find(key);
            if (k == m_entries.end() || !k->contains(evidence.serverId))
                return; // forgotten meanwhile (the connection removed)
            Entry &e = (*k)[evidence.serverId];
            e.evidence = evidence;
            e.pending = false;
            emit changed(key, evidence.serverId);
        });
}

const BootEvidenceStore::Entry &BootEvidenceStore::want(
    const KlusterKey &key, const BootEvidences::Server &server, const QDateTime &refreshedAt)
{
    Entry &e = m_entries[key][server.id];
    if (e.pending || (e.refreshedAt.isValid() && e.refreshedAt == refreshedAt))
        return e;
    Connection *c = m_registry->connection(key.connection);
    if (!c) {
        e.evidence.serverId = server.id;
        e.evidence.readAt = QDateTime::currentDateTimeUtc();
        e.evidence.consoleError = e.evidence.actionsError = tr("the connection is gone");
        return e;
    }
    e.refreshedAt = refreshedAt;
    e.pending = true;
    c->readBootEvidence(key.kluster, server);
    return e;
}

const BootEvidenceStore::Entry *BootEvidenceStore::entry(const KlusterKey &key, const QString &serverId) const
{
    const auto k = m_entries.constFind(key);
    if (k == m_entries.cend())
        return nullptr;
    const auto e = k->constFind(serverId);
    return e == k->cend() ? nullptr : &*e;
}
