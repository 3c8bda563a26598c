#pragma once

#include "simulator/httpserver.h"
#include "simulator/world.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPointer>
#include <optional>

// The Events of the simulated API servers, as kube-apiserver keeps them: created, read, listed and watched
// through `events.k8s.io/v1`, and the same Events read through core `v1` (what `kubectl get events` and
// `kubectl events` ask for, the table included). An Event is forgotten an hour after it was written (the
// API server's default `--event-ttl`), by the world's clock. Creation is checked as the API server checks
// it: the fields an `events.k8s.io/v1` Event must have, a name taken (409), a namespace that is not the
// path's (400).
class KubeEvents : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(KubeEvents)

public:
    explicit KubeEvents(World *world, QObject *parent = nullptr);

    // The answer to a request for Events (or their discovery), or nothing when the path is not one of theirs.
    std::optional<HttpResponse> handle(const QString &kluster, const HttpRequest &request);
    // The kluster's Events now (expired ones gone), as events.k8s.io/v1 objects, oldest first.
    QList<QJsonObject> events(const QString &kluster);
    static constexpr qint64 TtlSeconds = 3600;

    // The discovery entries the API server lists for Events.
    static QJsonObject coreResource();
    static QJsonObject groupEntry();

private:
    struct Stored
    {
        QString nameSpace;
        QString name;
        qint64 resourceVersion = 0;
        QDateTime created;
        QJsonObject object; // events.k8s.io/v1
    };
    // A field or label selector's terms, as the API server reads them: key=value, key==value, key!=value, and
    // for labels also key and !key. Set-based terms (in, notin) are not read here: a 400 says so.
    struct Term
    {
        enum class Op
        {
            Equal,
            NotEqual,
            Exists,
            Absent
        };
        QString key;
        Op op = Op::Equal;
        QString value;
    };
    struct Selector
    {
        QList<Term> fields;
        QList<Term> labels;
        bool core = false; // the fields are core v1's names (involvedObject, message, ...)
        bool matches(const QJsonObject &object, const QJsonObject &coreObject) const;
    };
    // The request's selectors, or why they cannot be read (the API server's 400).
    static std::optional<Selector> selectorOf(const HttpRequest &request, bool core, QString *error);
    struct Watcher
    {
        QPointer<HttpStream> stream;
        QString kluster;
        QString nameSpace; // empty: all
        Selector selector;
    };
    void expire(const QString &kluster);
    HttpResponse create(const QString &kluster, const QString &nameSpace, const HttpRequest &request);
    HttpResponse list(const QString &kluster, const QString &nameSpace, const Selector &selector,
        const HttpRequest &request);
    HttpResponse watch(const QString &kluster, const QString &nameSpace, const Selector &selector,
        const HttpRequest &request);
    QJsonObject coreForm(const Stored &event) const;
    QJsonObject table(const QList<const Stored *> &events, const QString &resourceVersion) const;

    World *m_world;
    QHash<QString, QList<Stored>> m_events; // by kluster, oldest first
    QList<Watcher> m_watchers;
};
