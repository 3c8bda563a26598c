#pragma once

#include "core/klusterkey.h"
#include "core/repairevent.h"

#include <QDateTime>
#include <QHash>
#include <QObject>

class ConnectionRegistry;
class Connection;

// Who repaired what on each kluster lately, as the klusters' own Events tell it (core/repairevent.h): read
// for the kluster shown after each of its refreshes, after a repair, and when a repair is about to be
// confirmed; kept per kluster with when they were read. What could not be read is one line; the last Events
// read stay. Teammates' repairs are those another console or command wrote (another instance).
class TeamRepairs : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TeamRepairs)

public:
    explicit TeamRepairs(ConnectionRegistry *registry, QObject *parent = nullptr);

    void read(const KlusterKey &key); // asks again (the answer comes with changed())

    struct Seen
    {
        QList<RepairEvent> events; // as last read, oldest first
        QDateTime readAt; // invalid: never read
        QString error; // the last read failed (empty: it did not)
    };
    const Seen *seen(const KlusterKey &key) const;
    // The repairs of the last hour, one per repair, newest first (this console's own included).
    QList<RepairEvent> recent(const KlusterKey &key, const QDateTime &now) const;
    // Repairs another instance started on the kluster in the last RepairEvents::WarnMinutes: what a repair
    // warns of before it is confirmed.
    QList<RepairEvent> teammatesStarted(const KlusterKey &key, const QDateTime &now) const;

signals:
    void changed(const KlusterKey &key);

private:
    void follow(Connection *connection);

    ConnectionRegistry *m_registry;
    QHash<KlusterKey, Seen> m_seen;
};
