#include "console/teamrepairs.h"

#include "console/connectionregistry.h"
#include "services/connection.h"

TeamRepairs::TeamRepairs(ConnectionRegistry *registry, QObject *parent)
    : QObject(parent)
    , m_registry(registry)
{
    for (Connection *c : registry->connections())
        follow(c);
    connect(registry, &ConnectionRegistry::added, this, &TeamRepairs::follow);
    connect(registry, &ConnectionRegistry::removed, this, [this](const QString &name) {
        m_seen.removeIf([&name](const auto &it) { return it.key().connection == name; });
    });
}

void TeamRepairs::follow(Connection *connection)
{
    const QString name = connection->name();
    connect(connection, &Connection::repairEventsRead, this,
        [this, name](const QString &kluster, const QList<RepairEvent> &events, const Error &error) {
            const KlusterKey key { name, kluster };
            Seen &seen = m_seen[key];
            if (error.isError()) {
                seen.error = error.toString();
            } else {
                seen.events = events;
                seen.readAt = QDateTime::currentDateTimeUtc();
                seen.error.clear();
            }
            emit changed(key);
        });
}

void TeamRepairs::read(const KlusterKey &key)
{
    if (key.kluster.isEmpty())
        return;
    if (Connection *c = m_registry->connection(key.connection))
        c->readRepairEvents(key.kluster);
}

const TeamRepairs::Seen *TeamRepairs::seen(const KlusterKey &key) const
{
    const auto it = m_seen.constFind(key);
    return it == m_seen.constEnd() ? nullptr : &*it;
}

QList<RepairEvent> TeamRepairs::recent(const KlusterKey &key, const QDateTime &now) const
{
    const Seen *s = seen(key);
    if (!s)
        return {};
    QList<RepairEvent> out;
    for (const RepairEvent &e : RepairEvents::latestPerRepair(s->events)) {
        if (e.time.secsTo(now) <= 3600)
            out.append(e);
    }
    return out;
}

QList<RepairEvent> TeamRepairs::teammatesStarted(const KlusterKey &key, const QDateTime &now) const
{
    const Seen *s = seen(key);
    const Connection *c = m_registry->connection(key.connection);
    if (!s || !c)
        return {};
    return RepairEvents::teammatesStarted(s->events, c->eventInstance(), now);
}
