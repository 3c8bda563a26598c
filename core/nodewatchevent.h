#pragma once

#include "core/error.h"
#include "core/klusterfetch.h"
#include "core/node.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

// One event of a node watch (`GET /api/v1/nodes?watch=1`: a JSON object per line, {"type", "object"}).
struct NodeWatchEvent
{
    enum class Type
    {
        Added,
        Modified,
        Deleted,
        Bookmark, // only a resourceVersion: the watch is alive and this far
        Error // a Status: code 410 when the version watched from is gone
    };
    Type type = Type::Bookmark;
    Node node; // Added, Modified, Deleted
    QJsonObject object; // the node as sent (Added, Modified, Deleted)
    QString resourceVersion; // the object's metadata.resourceVersion
    int code = 0; // Error: the Status' code
    QString message; // Error: the Status' message

    // Throws ParseError (naming `source` and the JSON path) when `line` is not an event.
    static NodeWatchEvent parse(const QString &source, const QJsonObject &line);
    // One line of the stream: the event, or why it is not one (a Malformed error naming `answer`'s request).
    static Error read(const QByteArray &line, const Error &answer, NodeWatchEvent *event);
};

// How a kluster's node watch stands: connected (and when the API server last said anything), or why not.
struct NodeWatchStatus
{
    bool watching = false; // a watch is under way (connected or reconnecting)
    bool connected = false;
    QDateTime lastHeard;
    QString problem; // why it is not connected now
    QDateTime lastChange; // the last change it brought
};
// Brings a fetched kluster's nodes up to date with watch events, in order: the parsed nodes (in the order a
// list gives them, by name), and what nodes.json will be made with when it is wanted (nodesWatched); the
// nodes' resourceVersion becomes `resourceVersion`. Bookmarks and errors are not applied. Returns how many
// nodes changed.
int applyNodeEvents(KlusterFetch &fetch, const QList<NodeWatchEvent> &events, const QString &resourceVersion);
