#pragma once

#include "core/bootevidence.h"
#include "core/klusterkey.h"

#include <QDateTime>
#include <QHash>
#include <QObject>

class ConnectionRegistry;
class Connection;

// The boot evidence (core/bootevidence.h) of the servers whose findings the person opened: asked for when a
// finding's details show it, once per refresh of its kluster (`refreshedAt`: the refresh it belongs to),
// never for every instance on every refresh. One read at a time per server; the answer comes with changed().
class BootEvidenceStore : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BootEvidenceStore)

public:
    explicit BootEvidenceStore(ConnectionRegistry *registry, QObject *parent = nullptr);

    struct Entry
    {
        BootEvidence evidence; // as last read (readAt invalid: not yet)
        QDateTime refreshedAt; // the refresh it was asked for
        bool pending = false;
    };
    // What is known of the server for the kluster's refresh `refreshedAt`; asks Nova when it has not been
    // asked for that refresh (the entry is then pending; the last one read stays shown meanwhile).
    const Entry &want(
        const KlusterKey &key, const BootEvidences::Server &server, const QDateTime &refreshedAt);
    const Entry *entry(const KlusterKey &key, const QString &serverId) const;

signals:
    void changed(const KlusterKey &key, const QString &serverId);

private:
    void follow(Connection *connection);

    ConnectionRegistry *m_registry;
    QHash<KlusterKey, QHash<QString, Entry>> m_entries; // by kluster, then server id
};
