#pragma once

#include "core/error.h"
#include "core/nodewatchevent.h"
#include "services/http/httpclient.h"
#include "services/local/kubeconfig.h"

#include <QDateTime>
#include <QObject>
#include <QPointer>
#include <functional>
#include <optional>

class KubernetesClient;
class QTimer;

struct NodeWatchPolicy
{
    int timeoutSeconds = 300; // asked of the server: it ends the watch then, and the watch goes on from there
    int inactivityMs = 120000; // not a byte (an event or a bookmark) for this long: the connection is dead
    int coalesceMs = 200; // events within this long of the first are handed on together
    int minBackoffMs = 1000; // after a failure, the first wait before connecting again; doubled up to max
    int maxBackoffMs = 30000;
};

// Watches a kluster's nodes (`GET /api/v1/nodes?watch=1&allowWatchBookmarks=true`) from the resourceVersion
// of a list, and hands on what changed, coalesced. What breaks a watch is handled: the server closing it (a
// timeout: resumed from the last version at once), a dropped or silent connection, an error answer (resumed
// with a bounded backoff, or after the server's Retry-After), a refused credential (a fresh one is asked
// for), and `410 Gone` (the version is no longer kept: relistNeeded(), and the watch stops until start()
// again).
class NodeWatch : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NodeWatch)

public:
    // Gives the API server's address and credentials (asked again after a 401): `done` in `context`.
    using Targets = std::function<void(
        QObject *context, std::function<void(const std::optional<KubeTarget> &, const Error &)> done)>;

    NodeWatch(HttpClient *client, Targets targets, const NodeWatchPolicy &policy, QObject *parent = nullptr);
    ~NodeWatch() override;

    void start(const QString &resourceVersion); // from a list's version; a watch under way starts again
    void stop();
    bool isRunning() const { return m_running; }
    QString resourceVersion() const { return m_version; }
    QDateTime lastHeard() const { return m_lastHeard; } // the server last said something (even a bookmark)
    bool isConnected() const { return m_connected; }
    Error problem() const { return m_problem; } // why it is not connected (none while it is)
    int reconnects() const { return m_reconnects; }

signals:
    void changed(const QList<NodeWatchEvent> &events, const QString &resourceVersion);
    void relistNeeded(const QString &why);
    void stateChanged(); // connected, a problem, or heard from (a bookmark)

private:
    void connectNow();
    void open();
    void onData(const QByteArray &bytes);
    void onFinished(const ApiResponse &response);
    void fail(const Error &error, int atLeastMs = 0); // and connect again after a backoff, or atLeastMs
    static constexpr int MaxRetryAfterMs = 300000; // a Retry-After beyond five minutes is not waited out
    void flush();
    void heard();

    HttpClient *m_client;
    Targets m_targets;
    NodeWatchPolicy m_policy;
    KubernetesClient *m_kube = nullptr;
    QPointer<HttpCall> m_call;
    QTimer *m_retry;
    QTimer *m_coalesce;
    QByteArray m_buffer;
    QList<NodeWatchEvent> m_pending;
    QString m_version;
    QDateTime m_lastHeard;
    QDateTime m_openedAt;
    Error m_problem;
    bool m_running = false;
    bool m_connected = false;
    int m_backoffMs = 0;
    int m_reconnects = 0;
    int m_generation = 0; // a stream started before the last start()/stop() is ignored
};
