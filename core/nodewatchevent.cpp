#include "core/nodewatchevent.h"

#include "core/apiparser.h"
#include "core/json/jsonreader.h"

#include <QHash>
#include <QJsonDocument>
#include <algorithm>

NodeWatchEvent NodeWatchEvent::parse(const QString &source, const QJsonObject &line)
{
    const JsonReader root(source, line);
    const QString type = root.requireString(QStringLiteral("type"));
    const JsonReader object = root.requireField(QStringLiteral("object"));
    object.requireObject();
    NodeWatchEvent e;
    e.resourceVersion = object.child(QStringLiteral("metadata")).isObject()
        ? object.child(QStringLiteral("metadata")).optString(QStringLiteral("resourceVersion"))
        : QString();
    if (type == QLatin1String("BOOKMARK")) {
        e.type = Type::Bookmark;
        return e;
    }
    if (type == QLatin1String("ERROR")) {
        e.type = Type::Error;
        e.code = int(object.optIntegerIn(QStringLiteral("code"), 0, 999).value_or(0));
        e.message = object.optString(QStringLiteral("message"));
        return e;
    }
    if (type == QLatin1String("ADDED"))
        e.type = Type::Added;
    else if (type == QLatin1String("MODIFIED"))
        e.type = Type::Modified;
    else if (type == QLatin1String("DELETED"))
        e.type = Type::Deleted;
    else
        root.failAt(QStringLiteral("type"), QStringLiteral("not a watch event type: %1").arg(type.left(40)));
    e.node = ApiParser::parseNode(object);
    e.object = object.value().toObject();
    return e;
}

Error NodeWatchEvent::read(const QByteArray &line, const Error &answer, NodeWatchEvent *event)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(line, &parseError);
    if (!doc.isObject()) {
        Error e = answer;
        e.kind = Error::Kind::Malformed;
        e.detail = parseError.error == QJsonParseError::NoError
            ? QStringLiteral("a watch event that is not a JSON object")
            : QStringLiteral("a watch event that is not JSON: %1 at offset %2")
                  .arg(parseError.errorString())
                  .arg(parseError.offset);
        return e;
    }
    return parseAnswer(answer, [&event, &doc] { *event = parse(QStringLiteral("watch"), doc.object()); });
}

int applyNodeEvents(KlusterFetch &fetch, const QList<NodeWatchEvent> &events, const QString &resourceVersion)
{
    // The last event of each node is what holds: a node added then deleted in one batch is gone.
    QHash<QString, const NodeWatchEvent *> last;
    for (const NodeWatchEvent &e : events) {
        if (e.type == NodeWatchEvent::Type::Added || e.type == NodeWatchEvent::Type::Modified
            || e.type == NodeWatchEvent::Type::Deleted)
            last.insert(e.node.name, &e);
    }
    QList<Node> &nodes = fetch.state.nodes;
    QHash<QString, const NodeWatchEvent *> pending = last;
    for (qsizetype i = 0; i < nodes.size();) {
        const NodeWatchEvent *e = pending.take(nodes.at(i).name);
        if (!e) {
            ++i;
        } else if (e->type == NodeWatchEvent::Type::Deleted) {
            nodes.removeAt(i);
        } else {
            nodes[i] = e->node;
            ++i;
        }
    }
    for (const NodeWatchEvent *e : std::as_const(pending)) {
        if (e->type == NodeWatchEvent::Type::Deleted)
            continue; // deleted before it was ever seen
        const auto at = std::lower_bound(nodes.begin(), nodes.end(), e->node.name,
            [](const Node &n, const QString &name) { return n.name < name; });
        nodes.insert(at, e->node);
    }

    // The body follows when it is wanted (KlusterFetch::body): parsing and writing a large list again for
    // each batch would cost more than all the rest.
    for (auto it = last.cbegin(); it != last.cend(); ++it)
        fetch.nodesWatched.insert(
            it.key(), it.value()->type == NodeWatchEvent::Type::Deleted ? QJsonObject() : it.value()->object);
    if (!resourceVersion.isEmpty())
        fetch.nodesResourceVersion = resourceVersion;
    return int(last.size());
}
