#pragma once

#include <QHash>
#include <QList>
#include <QMutex>
#include <QPair>
#include <QString>
#include <QUrl>
#include <functional>

// How each endpoint (scheme, host and port) has been answering, shared by every HttpClient of the process:
// every connection, every kluster, the console's refreshes and the command line's requests. A failing API
// then sees fewer requests, not more: without it, each kluster retried on its own, and 120 klusters under
// a 503 sent Kubernikus 2.5 times its normal rate.
//
// A circuit breaker. Closed, every request goes. After `failuresToOpen` failures in a row (5xx, 429, no
// answer, a dropped connection; any other answer is the endpoint answering) it opens: requests are held
// (not sent, an Error::Kind::Held that names the failures and when the next try is) for a pause of 2 s,
// doubled after each failed probe up to 60 s, or as long as a Retry-After asks. Once the pause is over, one
// request goes as the probe, and the requests that come meanwhile wait for its answer: it answers, the
// breaker closes and they go; it fails, they are held and the breaker opens again for a longer pause.
// Retries of a request whose endpoint opened meanwhile are not sent: its last answer stands.
class EndpointHealth
{
public:
    struct Policy
    {
        int failuresToOpen = 5;
        int firstPauseMs = 2000;
        int maxPauseMs = 60000;
    };

    enum class Verdict
    {
        Send, // closed: send it
        Probe, // the pause is over: send it as the one probe, and report its outcome with probe = true
        Wait, // a probe is in flight: `resume` is called with the verdict once it answers
        Held, // open: do not send (`why` says since when and until when)
    };
    enum class Outcome
    {
        Answered, // any answer but a failing one
        Failed, // 5xx, 429, no answer, a dropped connection
        Abandoned, // cancelled before an answer: says nothing of the endpoint
    };

    // The process' one instance.
    static EndpointHealth &shared();
    // "https://nova.example:8774": what one breaker covers.
    static QString endpointOf(const QUrl &url);

    void setPolicy(const Policy &policy);
    Policy policy() const;

    using Resume = std::function<void(Verdict verdict, const QString &why)>;
    // Whether a request to `endpoint` may be sent now. On Wait, `resume` is called later with Send, Probe
    // (the probe went without an answer: this one probes instead), or Held and its `why`; it is called on
    // whichever thread reports the probe's outcome, with this object locked, so it must only post to its
    // own thread (QMetaObject::invokeMethod, queued). `ticket` names the wait for withdraw().
    Verdict admit(const QString &endpoint, QString *why, Resume resume = {}, quint64 *ticket = nullptr);
    // A waiting request that went (cancelled, its client gone): `resume` is not called.
    void withdraw(const QString &endpoint, quint64 ticket);
    // What became of a request that was sent (`probe`: it was admitted as the probe). `retryAfterMs` (or -1)
    // lengthens the pause to what the server asked.
    // `tooMany`: the failure was a 429, the endpoint asking its clients to slow down (its pause is then one
    // a client waits out rather than fails on: pauseLeftMs()).
    void report(
        const QString &endpoint, Outcome outcome, bool probe, int retryAfterMs = -1, bool tooMany = false);

    // How many requests have been held since the process began (for tests and the reliability figures).
    qint64 heldCount() const;
    bool isOpen(const QString &endpoint) const;
    // How long requests to `endpoint` are still held because the endpoint asked for the pause (a
    // Retry-After); 0 when none are, or when it is held for failing.
    qint64 pauseLeftMs(const QString &endpoint) const;
    // Forgets every endpoint (tests).
    void reset();

private:
    struct State
    {
        int failures = 0; // in a row
        qint64 openUntil = 0; // steady ms; 0: closed
        int pauseMs = 0; // the last pause
        bool probing = false;
        bool askedToWait = false; // opened by a 429: the endpoint asked its clients to slow down
        QList<QPair<quint64, Resume>> waiting;
    };
    static qint64 nowMs();
    QString heldWhy(const State &s, qint64 now) const;
    void open(State &s, int retryAfterMs, bool tooMany);

    mutable QMutex m_mutex;
    Policy m_policy;
    QHash<QString, State> m_states;
    qint64 m_held = 0;
    quint64 m_tickets = 0;
};
