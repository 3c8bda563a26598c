#include "services/kubernetes/nodewatch.h"

#include "services/kubernetes/kubernetesclient.h"

#include <QRandomGenerator>
#include <QTimer>
#include <QUrl>

NodeWatch::NodeWatch(HttpClient *client, Targets targets, const NodeWatchPolicy &policy, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_targets(std::move(targets))
    , m_policy(policy)
    , m_retry(new QTimer(this))
    , m_coalesce(new QTimer(this))
{
    m_retry->setSingleShot(true);
    connect(m_retry, &QTimer::timeout, this, &NodeWatch::connectNow);
    m_coalesce->setSingleShot(true);
    m_coalesce->setInterval(m_policy.coalesceMs);
    connect(m_coalesce, &QTimer::timeout, this, &NodeWatch::flush);
}

NodeWatch::~NodeWatch()
{
    stop();
}

void NodeWatch::start(const QString &resourceVersion)
{
    stop();
    m_version = resourceVersion;
    m_running = true;
    m_backoffMs = 0;
    connectNow();
}

void NodeWatch::stop()
{
    ++m_generation;
    m_running = false;
    m_connected = false;
    m_retry->stop();
    m_coalesce->stop();
    m_pending.clear();
    m_buffer.clear();
    if (m_call)
        m_call->cancel();
    m_call = nullptr;
}

void NodeWatch::connectNow()
{
    if (!m_running)
        return;
    if (m_kube) {
        open();
        return;
    }
    const int generation = m_generation;
    m_targets(this, [this, generation](const std::optional<KubeTarget> &target, const Error &error) {
        if (generation != m_generation)
            return;
        if (!target) {
            fail(error);
            return;
        }
        m_kube = new KubernetesClient(m_client, *target, this);
        open();
    });
}

void NodeWatch::open()
{
    m_buffer.clear();
    m_openedAt = QDateTime::currentDateTimeUtc();
    const QString path = QStringLiteral("/api/v1/nodes?watch=1&allowWatchBookmarks=true&resourceVersion=%1"
                                        "&timeoutSeconds=%2")
                             .arg(QString::fromLatin1(QUrl::toPercentEncoding(m_version)))
                             .arg(m_policy.timeoutSeconds);
    const int generation = m_generation;
    m_call = m_kube->stream(path, m_policy.inactivityMs, [this, generation](const QByteArray &bytes) {
        if (generation == m_generation)
            onData(bytes);
    });
    connect(m_call, &HttpCall::finished, this, [this, generation](const ApiResponse &r) {
        if (generation == m_generation)
            onFinished(r);
    });
}

void NodeWatch::heard()
{
    m_lastHeard = QDateTime::currentDateTimeUtc();
    const bool wasConnected = m_connected;
    m_connected = true;
    m_backoffMs = 0;
    m_problem = Error();
    if (!wasConnected)
        emit stateChanged();
}

void NodeWatch::onData(const QByteArray &bytes)
{
    if (bytes.isEmpty()) {
        heard(); // the server took the watch
        return;
    }
    m_buffer += bytes;
    if (m_buffer.size() > 64 * 1024 * 1024) { // one event never comes near this
        const int generation = m_generation;
        Error e = Error::of(Error::Kind::TooLarge, tr("a node watch event over 64 MB"));
        e.service = QStringLiteral("kubernetes");
        if (m_call)
            m_call->cancel();
        if (generation == m_generation)
            fail(e);
        return;
    }
    qsizetype start = 0;
    for (qsizetype end = m_buffer.indexOf('\n'); end >= 0; end = m_buffer.indexOf('\n', start)) {
        const QByteArray line = m_buffer.mid(start, end - start).trimmed();
        start = end + 1;
        if (line.isEmpty())
            continue;
        Error answer;
        answer.service = QStringLiteral("kubernetes");
        answer.method = QStringLiteral("GET");
        answer.path = QStringLiteral("/api/v1/nodes?watch=1");
        NodeWatchEvent event;
        const Error problem = NodeWatchEvent::read(line, answer, &event);
        if (problem.isError()) {
            // What came before is good: hand it on, and go on from there after a pause.
            m_buffer.clear();
            flush();
            if (m_call)
                m_call->cancel();
            fail(problem);
            return;
        }
        heard();
        if (event.type == NodeWatchEvent::Type::Error) {
            m_buffer.clear();
            flush();
            if (event.code == 410) {
                stop();
                emit relistNeeded(tr("the node watch's version is gone (410): %1").arg(event.message));
                return;
            }
            if (m_call)
                m_call->cancel();
            Error e = answer;
            e.kind = Error::Kind::Http;
            e.status = event.code;
            e.serverMessage = event.message;
            fail(e);
            return;
        }
        if (!event.resourceVersion.isEmpty())
            m_version = event.resourceVersion;
        if (event.type == NodeWatchEvent::Type::Bookmark) {
            if (m_pending.isEmpty())
                emit stateChanged(); // heard from: the caption's "last heard"
            continue;
        }
        m_pending.append(std::move(event));
        if (!m_coalesce->isActive())
            m_coalesce->start();
    }
    m_buffer.remove(0, start);
}

void NodeWatch::flush()
{
    m_coalesce->stop();
    if (m_pending.isEmpty())
        return;
    emit changed(std::exchange(m_pending, {}), m_version);
}

void NodeWatch::onFinished(const ApiResponse &response)
{
    m_call = nullptr;
    flush();
    if (!m_running)
        return;
    if (response.status == 410) {
        stop();
        emit relistNeeded(tr("the node watch's version is gone (410): %1").arg(response.serverMessage()));
        return;
    }
    if (response.error.kind == Error::Kind::Cancelled)
        return;
    if (response.status == 401) {
        m_kube->deleteLater(); // refused: ask for fresh credentials (later: the call that said so is its own)
        m_kube = nullptr;
    }
    if (response.ok()) {
        // The server ended it (its timeout): go on from the last version, at once unless it ends at once.
        const bool brief = m_openedAt.msecsTo(QDateTime::currentDateTimeUtc()) < m_policy.minBackoffMs;
        if (!brief) {
            ++m_reconnects;
            open();
            return;
        }
        Error e = Error::of(Error::Kind::Network, tr("the API server ended the node watch at once"));
        e.service = QStringLiteral("kubernetes");
        fail(e);
        return;
    }
    // A server that says when to come back (429, 503 with Retry-After) is not asked before then, up to a
    // bound.
    const int asked = RetryPolicy::parseRetryAfterMs(response.header("Retry-After"));
    fail(response.error, qMin(asked, MaxRetryAfterMs));
}

void NodeWatch::fail(const Error &error, int atLeastMs)
{
    m_connected = false;
    m_problem = error;
    m_backoffMs = m_backoffMs == 0 ? m_policy.minBackoffMs : qMin(m_backoffMs * 2, m_policy.maxBackoffMs);
    const int jitter = int(QRandomGenerator::global()->bounded(m_backoffMs / 4 + 1));
    ++m_reconnects;
    m_retry->start(qMax(m_backoffMs + jitter, atLeastMs));
    emit stateChanged();
}
