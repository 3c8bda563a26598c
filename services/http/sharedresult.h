#pragma once

#include <QDateTime>
#include <QList>
#include <QObject>
#include <QPointer>
#include <functional>
#include <memory>

// What the klusters of one project share: the result of a fetch (T has
// `startedAt` and `error`), handed to everyone who asked for one no older than
// the moment they asked. Who asks while a fetch runs that began after gets
// its result; who asks later gets the next one. The owner fetches when
// request() or finish() say so. Lives on one thread; answers are queued.
template<typename T> class SharedResult
{
public:
    using Done = std::function<void(const std::shared_ptr<const T> &)>;

    // Answers from the last result when it is new enough; else queues the
    // request. Returns whether a fetch must start now.
    bool request(const QDateTime &notBefore, QObject *context, const Done &done)
    {
        if (m_last && m_last->startedAt >= notBefore) {
            const std::shared_ptr<const T> last = m_last;
            QMetaObject::invokeMethod(
                context, [done, last] { done(last); }, Qt::QueuedConnection);
            return false;
        }
        m_waiting.append(Waiter { QPointer<QObject>(context), done, notBefore });
        return !m_flightStarted.isValid();
    }
    // A fetch begins now.
    QDateTime start()
    {
        m_flightStarted = QDateTime::currentDateTimeUtc();
        return m_flightStarted;
    }
    QDateTime flightStarted() const { return m_flightStarted; } // invalid: none in flight
    // The fetch ended with `result`: everyone who asked before it began gets it; a good one is kept for later
    // requests. Returns whether another fetch must start for those who asked after.
    bool finish(const std::shared_ptr<T> &result)
    {
        result->startedAt = m_flightStarted;
        m_flightStarted = QDateTime();
        if (!result->error.isError())
            m_last = result;
        QList<Waiter> later;
        const auto waiting = std::exchange(m_waiting, {});
        for (const Waiter &w : waiting) {
            if (!w.context)
                continue;
            if (w.notBefore > result->startedAt) {
                later << w;
                continue;
            }
            const std::shared_ptr<const T> shared = result;
            QMetaObject::invokeMethod(
                w.context, [w, shared] { w.done(shared); }, Qt::QueuedConnection);
        }
        m_waiting = later;
        return !m_waiting.isEmpty();
    }

private:
    struct Waiter
    {
        QPointer<QObject> context;
        Done done;
        QDateTime notBefore;
    };
    QList<Waiter> m_waiting;
    QDateTime m_flightStarted; // invalid: none in flight
    std::shared_ptr<const T> m_last;
};
