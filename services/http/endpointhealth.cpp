#include "services/http/endpointhealth.h"

#include <chrono>
#include <utility>

EndpointHealth &EndpointHealth::shared()
{
    static EndpointHealth health;
    return health;
}

QString EndpointHealth::endpointOf(const QUrl &url)
{
    return url.adjusted(QUrl::RemovePath | QUrl::RemoveQuery | QUrl::RemoveFragment | QUrl::RemoveUserInfo)
        .toString();
}

qint64 EndpointHealth::nowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void EndpointHealth::setPolicy(const Policy &policy)
{
    QMutexLocker lock(&m_mutex);
    m_policy = policy;
}

EndpointHealth::Policy EndpointHealth::policy() const
{
    QMutexLocker lock(&m_mutex);
    return m_policy;
}

QString EndpointHealth::heldWhy(const State &s, qint64 now) const
{
    const qint64 left = qMax<qint64>(0, s.openUntil - now);
    return QStringLiteral("its last %1 answers failed; it is given a rest, and tried again in %2 s")
        .arg(s.failures)
        .arg(double(qMax<qint64>(left, 100)) / 1000, 0, 'f', 1);
}

void EndpointHealth::open(State &s, int retryAfterMs, bool tooMany)
{
    s.pauseMs = s.pauseMs == 0 ? m_policy.firstPauseMs : qMin(s.pauseMs * 2, m_policy.maxPauseMs);
    const int pause = qMax(s.pauseMs, qMin(retryAfterMs, 24 * 3600 * 1000));
    s.openUntil = nowMs() + pause;
    s.askedToWait = tooMany;
}

EndpointHealth::Verdict EndpointHealth::admit(
    const QString &endpoint, QString *why, Resume resume, quint64 *ticket)
{
    QMutexLocker lock(&m_mutex);
    const auto it = m_states.find(endpoint);
    if (it == m_states.end() || it->openUntil == 0)
        return Verdict::Send;
    State &s = *it;
    const qint64 now = nowMs();
    if (now < s.openUntil) {
        ++m_held;
        *why = heldWhy(s, now);
        return Verdict::Held;
    }
    if (!s.probing) {
        s.probing = true;
        return Verdict::Probe;
    }
    if (!resume) {
        ++m_held;
        *why = QStringLiteral("its last %1 answers failed; one request is trying it again now")
                   .arg(s.failures);
        return Verdict::Held;
    }
    s.waiting.append({ ++m_tickets, std::move(resume) });
    if (ticket)
        *ticket = m_tickets;
    return Verdict::Wait;
}

void EndpointHealth::withdraw(const QString &endpoint, quint64 ticket)
{
    QMutexLocker lock(&m_mutex);
    const auto it = m_states.find(endpoint);
    if (it == m_states.end())
        return;
    it->waiting.removeIf([ticket](const QPair<quint64, Resume> &w) { return w.first == ticket; });
}

void EndpointHealth::report(
    const QString &endpoint, Outcome outcome, bool probe, int retryAfterMs, bool tooMany)
{
    // Those waiting are resumed under the lock: a wait withdrawn (its request gone) is then never resumed.
    QMutexLocker lock(&m_mutex);
    const auto it = m_states.find(endpoint);
    if (outcome == Outcome::Abandoned) {
        if (!probe || it == m_states.end())
            return;
        // The probe went without an answer: the next request probes instead; one of those waiting, if any.
        it->probing = !it->waiting.isEmpty();
        if (!it->waiting.isEmpty())
            it->waiting.takeFirst().second(Verdict::Probe, QString());
        return;
    }
    if (outcome == Outcome::Answered) {
        if (it == m_states.end())
            return; // never failed: nothing to keep
        const QList<QPair<quint64, Resume>> waiting = std::move(it->waiting);
        m_states.erase(it);
        for (const auto &w : waiting)
            w.second(Verdict::Send, QString());
        return;
    }
    State &s = m_states[endpoint];
    ++s.failures;
    if (probe) {
        s.probing = false;
        open(s, retryAfterMs, tooMany);
        const QList<QPair<quint64, Resume>> waiting = std::move(s.waiting);
        s.waiting.clear();
        m_held += waiting.size();
        const QString why = heldWhy(s, nowMs());
        for (const auto &w : waiting)
            w.second(Verdict::Held, why);
    } else if (s.openUntil == 0 && s.failures >= m_policy.failuresToOpen) {
        open(s, retryAfterMs, tooMany);
    }
}

qint64 EndpointHealth::heldCount() const
{
    QMutexLocker lock(&m_mutex);
    return m_held;
}

qint64 EndpointHealth::pauseLeftMs(const QString &endpoint) const
{
    const QMutexLocker lock(&m_mutex);
    const auto it = m_states.constFind(endpoint);
    if (it == m_states.cend() || it->openUntil == 0 || !it->askedToWait)
        return 0;
    return qMax<qint64>(0, it->openUntil - nowMs());
}

bool EndpointHealth::isOpen(const QString &endpoint) const
{
    QMutexLocker lock(&m_mutex);
    const auto it = m_states.constFind(endpoint);
    return it != m_states.cend() && it->openUntil != 0;
}

void EndpointHealth::reset()
{
    QMutexLocker lock(&m_mutex);
    m_states.clear();
    m_held = 0;
}
