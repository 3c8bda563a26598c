#include "services/refreshqueue.h"

#include <QTimer>
#include <algorithm>

RefreshQueue::RefreshQueue(int limit, Start start, QObject *parent)
    : QObject(parent)
    , m_limit(limit)
    , m_start(std::move(start))
    , m_resume(new QTimer(this))
{
    m_resume->setSingleShot(true);
    connect(m_resume, &QTimer::timeout, this, &RefreshQueue::startWaiting);
}

void RefreshQueue::ask(const QString &kluster, const QDateTime &askedAt, bool urgent)
{
    const bool paused = m_pausedUntil.isValid() && askedAt < m_pausedUntil;
    if (!paused && (m_limit <= 0 || m_running < m_limit)) {
        ++m_running;
        m_start(kluster, askedAt);
        return;
    }
    // Polite to the APIs: the rest wait their turn.
    const auto at = std::find_if(m_waiting.begin(), m_waiting.end(),
        [&kluster](const QPair<QString, QDateTime> &q) { return q.first == kluster; });
    if (at != m_waiting.end() && !urgent)
        return;
    if (at != m_waiting.end())
        m_waiting.erase(at);
    if (urgent) // one a person asked for: before the fleet's round
        m_waiting.prepend({ kluster, askedAt });
    else
        m_waiting.append({ kluster, askedAt });
}

void RefreshQueue::finished()
{
    --m_running;
    startWaiting();
}

void RefreshQueue::again(const QString &kluster, const QDateTime &askedAt, qint64 pauseMs)
{
    const QDateTime until = QDateTime::currentDateTimeUtc().addMSecs(pauseMs);
    if (!m_pausedUntil.isValid() || until > m_pausedUntil)
        m_pausedUntil = until;
    m_waiting.prepend({ kluster, askedAt });
    finished();
}

bool RefreshQueue::withdraw(const QString &kluster)
{
    const auto at = std::find_if(m_waiting.begin(), m_waiting.end(),
        [&kluster](const QPair<QString, QDateTime> &q) { return q.first == kluster; });
    if (at == m_waiting.end())
        return false;
    m_waiting.erase(at);
    return true;
}

void RefreshQueue::startWaiting()
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    if (m_pausedUntil.isValid() && now < m_pausedUntil) {
        m_resume->start(int(qBound<qint64>(1, now.msecsTo(m_pausedUntil), qint64(3600) * 1000)));
        return;
    }
    m_pausedUntil = QDateTime();
    while (!m_waiting.isEmpty() && (m_limit <= 0 || m_running < m_limit)) {
        const QPair<QString, QDateTime> next = m_waiting.takeFirst();
        ++m_running;
        m_start(next.first, next.second);
    }
}
