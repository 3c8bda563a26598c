#pragma once

#include "simulator/httpserver.h"
#include "simulator/world.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>

class QTimer;

// The node watches of the simulated API servers (`GET /api/v1/nodes?watch=1`). It observes the world's nodes
// after every change (any change to a node moves the world's resourceVersion), keeps each kluster's recent
// events as the API server's watch cache keeps them, and streams them to every open watch: ADDED, MODIFIED
// and DELETED, a BOOKMARK every `bookmarkMs` to watches that allow them, and the ERROR event with a 410
// Status for a resourceVersion older than what is kept. Through the admin API the watches can be told the
// history is gone (410), closed by the server, or dropped mid-stream.
class NodeWatches : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NodeWatches)

public:
    explicit NodeWatches(World *world, QObject *parent = nullptr);

    // What changed in the world since the last look, as events to the open watches.
    void observe();
    // The kluster's history kept from now on, if it was not yet: called when its nodes are listed, so that
    // a watch from the list's version can be served.
    void track(const SimKluster &kluster);
    // The world was replaced (an admin reset): every open watch gets 410, and the history starts again.
    void worldReplaced();
    HttpResponse watch(const SimKluster &kluster, const HttpRequest &request);

    enum class End
    {
        Gone, // the ERROR event with a 410 Status, then closed; the history is forgotten (compaction)
        Close, // closed by the server, as a timeout ends it
        Drop // the connection reset mid-stream
    };
    int end(const QString &kluster, End how); // returns how many watches were ended
    int bookmarkMs = 5000;
    int openWatches() const;

private:
    struct Event
    {
        qint64 resourceVersion;
        QByteArray line; // {"type": ..., "object": ...}\n
    };
    struct KlusterLog
    {
        QHash<QString, SimNode> seen; // node -> its state when last observed (a deleted one's last state)
        QList<Event> events; // oldest first
        qint64 since = 0; // a watch from here on can be served (older: 410)
    };
    struct Watcher
    {
        QPointer<HttpStream> stream;
        QString kluster;
        bool bookmarks = false;
    };
    KlusterLog &logOf(const SimKluster &kluster);
    void observe(const SimKluster &kluster, KlusterLog &log);
    static QByteArray goneLine(qint64 asked, qint64 oldest);
    void bookmark();

    World *m_world;
    qint64 m_observed = -1; // the world's resourceVersion last looked at
    QHash<QString, KlusterLog> m_logs;
    QList<Watcher> m_watchers;
    QTimer *m_bookmarks;
};
