#include "simulator/nodewatches.h"

#include "simulator/apirender.h"

#include <QJsonDocument>
#include <QTimer>
#include <algorithm>

namespace {

constexpr int KeptEvents = 5000; // per kluster: older ones are compacted away (a watch from before: 410)

QByteArray eventLine(const char *type, const QJsonObject &object)
{
    return QJsonDocument(QJsonObject { { QStringLiteral("type"), QLatin1String(type) },
                             { QStringLiteral("object"), object } })
               .toJson(QJsonDocument::Compact)
        + '\n';
}

QJsonObject nodeObject(const SimKluster &kluster, const SimNode &node, const QDateTime &now)
{
    QJsonObject o = ApiRender::node(kluster, node, now);
    o.insert(QStringLiteral("kind"), QStringLiteral("Node"));
    o.insert(QStringLiteral("apiVersion"), QStringLiteral("v1"));
    return o;
}

} // namespace

NodeWatches::NodeWatches(World *world, QObject *parent)
    : QObject(parent)
    , m_world(world)
    , m_bookmarks(new QTimer(this))
{
    connect(m_bookmarks, &QTimer::timeout, this, &NodeWatches::bookmark);
}

int NodeWatches::openWatches() const
{
    return int(
        std::count_if(m_watchers.cbegin(), m_watchers.cend(), [](const Watcher &w) { return w.stream; }));
}

NodeWatches::KlusterLog &NodeWatches::logOf(const SimKluster &kluster)
{
    const auto known = m_logs.find(kluster.name);
    if (known != m_logs.end())
        return *known;
    // A kluster's history starts when it is first listed or watched: every version a client of it can
    // hold comes from then on. Made for each kluster when it is needed, not for the whole world at the
    // first request (20,000 nodes rendered were seconds of a large world's first answer).
    KlusterLog &log = m_logs[kluster.name];
    log.since = m_world->resourceVersionCounter;
    for (const SimNode &n : kluster.nodes)
        log.seen.insert(n.name, n);
    return log;
}

void NodeWatches::track(const SimKluster &kluster)
{
    observe();
    logOf(kluster);
}

void NodeWatches::observe()
{
    if (m_observed < 0) {
        m_observed = m_world->resourceVersionCounter;
        return;
    }
    if (m_world->resourceVersionCounter == m_observed)
        return; // every change to a node moves it: nothing changed
    for (const SimKluster &k : m_world->klusters) {
        const auto log = m_logs.find(k.name);
        if (log != m_logs.end())
            observe(k, *log);
    }
    m_observed = m_world->resourceVersionCounter;
}

void NodeWatches::observe(const SimKluster &kluster, KlusterLog &log)
{
    const QDateTime now = m_world->now();
    QList<Event> events;
    QSet<QString> present;
    for (const SimNode &n : kluster.nodes) {
        present.insert(n.name);
        const auto known = log.seen.constFind(n.name);
        if (known != log.seen.cend() && known->resourceVersion == n.resourceVersion)
            continue;
        events.append({ n.resourceVersion,
            eventLine(known == log.seen.cend() ? "ADDED" : "MODIFIED", nodeObject(kluster, n, now)) });
        log.seen.insert(n.name, n);
    }
    for (auto it = log.seen.begin(); it != log.seen.end();) {
        if (present.contains(it.key())) {
            ++it;
            continue;
        }
        // Deleted: its last state, at the resourceVersion of the deletion.
        QJsonObject object = nodeObject(kluster, *it, now);
        QJsonObject meta = object.value(QStringLiteral("metadata")).toObject();
        meta.insert(QStringLiteral("resourceVersion"), QString::number(m_world->resourceVersionCounter));
        object.insert(QStringLiteral("metadata"), meta);
        events.append({ m_world->resourceVersionCounter, eventLine("DELETED", object) });
        it = log.seen.erase(it);
    }
    if (events.isEmpty())
        return;
    std::stable_sort(events.begin(), events.end(),
        [](const Event &a, const Event &b) { return a.resourceVersion < b.resourceVersion; });
    log.events.append(events);
    if (log.events.size() > KeptEvents) {
        const qsizetype drop = log.events.size() - KeptEvents;
        log.since = log.events.at(drop - 1).resourceVersion;
        log.events.remove(0, drop);
    }
    for (const Watcher &w : std::as_const(m_watchers)) {
        if (!w.stream || w.kluster != kluster.name)
            continue;
        for (const Event &e : std::as_const(events))
            w.stream->write(e.line);
    }
}

QByteArray NodeWatches::goneLine(qint64 asked, qint64 oldest)
{
    return eventLine("ERROR",
        QJsonObject { { QStringLiteral("kind"), QStringLiteral("Status") },
            { QStringLiteral("apiVersion"), QStringLiteral("v1") },
            { QStringLiteral("metadata"), QJsonObject() },
            { QStringLiteral("status"), QStringLiteral("Failure") },
            { QStringLiteral("message"),
                QStringLiteral("too old resource version: %1 (%2)").arg(asked).arg(oldest) },
            { QStringLiteral("reason"), QStringLiteral("Expired") }, { QStringLiteral("code"), 410 } });
}

void NodeWatches::worldReplaced()
{
    for (const Watcher &w : std::as_const(m_watchers)) {
        if (w.stream) {
            w.stream->write(goneLine(m_observed, m_world->resourceVersionCounter));
            w.stream->end();
        }
    }
    m_watchers.clear();
    m_logs.clear();
    m_observed = m_world->resourceVersionCounter;
}

HttpResponse NodeWatches::watch(const SimKluster &kluster, const HttpRequest &request)
{
    observe();
    KlusterLog &log = logOf(kluster);
    const QString asked = request.queryValue(QStringLiteral("resourceVersion"));
    QList<QByteArray> first;
    if (asked.isEmpty() || asked == QLatin1String("0")) {
        // From "any": the current state as ADDED events, then the changes.
        const QDateTime now = m_world->now();
        for (const SimNode &n : kluster.nodes)
            first.append(eventLine("ADDED", nodeObject(kluster, n, now)));
    } else {
        bool ok = false;
        const qint64 from = asked.toLongLong(&ok);
        if (!ok || from < 0) {
            HttpResponse r = HttpResponse::json(400,
                QJsonDocument(QJsonObject { { QStringLiteral("kind"), QStringLiteral("Status") },
                                  { QStringLiteral("apiVersion"), QStringLiteral("v1") },
                                  { QStringLiteral("status"), QStringLiteral("Failure") },
                                  { QStringLiteral("message"),
                                      QStringLiteral("invalid resource version: %1").arg(asked) },
                                  { QStringLiteral("reason"), QStringLiteral("BadRequest") },
                                  { QStringLiteral("code"), 400 } })
                    .toJson(QJsonDocument::Compact));
            return r;
        }
        if (from < log.since) {
            // As the API server answers a watch from a compacted version: 200, one ERROR event, the end.
            HttpResponse r;
            r.header("Content-Type", "application/json");
            r.stream = [line = goneLine(from, log.since)](HttpStream *s) {
                s->write(line);
                s->end();
            };
            return r;
        }
        for (const Event &e : std::as_const(log.events)) {
            if (e.resourceVersion > from)
                first.append(e.line);
        }
    }
    const bool bookmarks = request.queryValue(QStringLiteral("allowWatchBookmarks")) == QLatin1String("true")
        || request.queryValue(QStringLiteral("allowWatchBookmarks")) == QLatin1String("1");
    const int timeoutSeconds = request.queryValue(QStringLiteral("timeoutSeconds")).toInt();
    HttpResponse r;
    r.header("Content-Type", "application/json");
    QPointer<NodeWatches> self(this);
    r.stream = [self, first, bookmarks, timeoutSeconds, name = kluster.name](HttpStream *s) {
        if (!self) {
            s->end();
            return;
        }
        for (const QByteArray &line : first)
            s->write(line);
        self->m_watchers.append({ QPointer<HttpStream>(s), name, bookmarks });
        if (!self->m_bookmarks->isActive())
            self->m_bookmarks->start(self->bookmarkMs);
        s->endAfter(timeoutSeconds);
    };
    return r;
}

void NodeWatches::bookmark()
{
    m_watchers.removeIf([](const Watcher &w) { return !w.stream; });
    if (m_watchers.isEmpty()) {
        m_bookmarks->stop();
        return;
    }
    m_bookmarks->setInterval(bookmarkMs);
    observe();
    const QByteArray line = eventLine("BOOKMARK",
        QJsonObject { { QStringLiteral("kind"), QStringLiteral("Node") },
            { QStringLiteral("apiVersion"), QStringLiteral("v1") },
            { QStringLiteral("metadata"),
                QJsonObject { { QStringLiteral("resourceVersion"),
                    QString::number(m_world->resourceVersionCounter) } } } });
    for (const Watcher &w : std::as_const(m_watchers)) {
        if (w.bookmarks)
            w.stream->write(line);
    }
}

int NodeWatches::end(const QString &kluster, End how)
{
    int ended = 0;
    observe();
    if (how == End::Gone && m_logs.contains(kluster)) {
        // Compacted: every version known so far is gone; a list from now on gives one that can be watched.
        KlusterLog &log = m_logs[kluster];
        log.events.clear();
        log.since = ++m_world->resourceVersionCounter;
        m_observed = log.since;
    }
    for (Watcher &w : m_watchers) {
        if (!w.stream || w.kluster != kluster)
            continue;
        ++ended;
        if (how == End::Gone) {
            w.stream->write(goneLine(m_world->resourceVersionCounter - 1, m_world->resourceVersionCounter));
            w.stream->end();
        } else if (how == End::Close) {
            w.stream->end();
        } else {
            w.stream->drop();
        }
        w.stream = nullptr;
    }
    m_watchers.removeIf([](const Watcher &w) { return !w.stream; });
    return ended;
}
