#pragma once

#include "core/error.h"
#include "services/http/endpointslots.h"

#include <QByteArray>
#include <QDateTime>
#include <QElapsedTimer>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QLoggingCategory>
#include <QObject>
#include <QPair>
#include <QPointer>
#include <QSet>
#include <QSslConfiguration>
#include <QSslKey>
#include <QUrl>
#include <functional>
#include <optional>

class EndpointHealth;
class QNetworkAccessManager;
class QNetworkReply;
class QTimer;

Q_DECLARE_LOGGING_CATEGORY(lcHttp)

struct ApiRequest
{
    QString service; // the catalog type, for errors: compute, network, identity, kubernetes, kubernikus
    QByteArray method = "GET";
    QUrl url;
    QByteArray body; // JSON unless a Content-Type header says otherwise
    QList<QPair<QByteArray, QByteArray>> headers;
    std::optional<QSslConfiguration> tls; // CAs and client certificate; system CAs when empty
    int timeoutMs = 30000; // without a byte for this long: given up (an inactivity timer)
    int deadlineMs = 120000; // the whole answer, however it trickles in, within this long: else given up

    // A POST with no side effect (asking Keystone for a token) may be retried like a GET.
    bool retrySafe = false;
    // A stream (a Kubernetes watch): a successful answer's body goes here piece by piece as it arrives, and
    // is not kept; it has no deadline and no size limit (the inactivity timer still holds). An empty piece
    // first says the answer's head came, successful: the stream is open. An error answer's body is kept as
    // usual, to name what failed.
    std::function<void(const QByteArray &)> onData;

    // GET, HEAD, PUT and DELETE are retried on 429 and 503; a POST only when it is retry-safe.
    bool idempotent() const
    {
        return retrySafe || method == "GET" || method == "HEAD" || method == "PUT" || method == "DELETE";
    }
    QString path() const { return url.path(); }
};

struct ApiResponse
{
    int status = 0;
    QByteArray body;
    QHash<QByteArray, QByteArray> headers; // lower-case names
    Error error;
    int attempts = 0;

    bool ok() const { return !error.isError(); }
    QByteArray header(const QByteArray &name) const { return headers.value(name.toLower()); }
    // The body as a JSON object; sets `error` to Malformed when it is not one,
    // naming the request this answered (the service, method and path that
    // `error` records for every response).
    QJsonObject json(Error *error) const;
    // The server's message in an error body: NeutronError, Nova faults, Keystone errors, Kubernetes
    // Status, Kubernikus errors, or the first line of an HTML or plain-text body.
    QString serverMessage() const;
    // The answer read by `parse` (a parser that throws ParseError) from the body: no error, or why not:
    // the request's own error, a body that is not a JSON object, or what the parser refused.
    Error read(const std::function<void(const QJsonObject &)> &parse) const;
};

Q_DECLARE_METATYPE(ApiResponse)

// The handle of one asynchronous call: emits `finished` exactly once, with a
// value or an error. Deletes itself after `finished` (connect with a context
// object). `cancel()` ends it with a Cancelled error.
class HttpCall : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HttpCall)

public:
    explicit HttpCall(QObject *parent = nullptr);
    bool isFinished() const { return m_finished; }
    void cancel();
    // For composite operations: finish with `response` (once; later calls are ignored).
    void finish(const ApiResponse &response);
    // Runs `abort` when the call is cancelled (the current inner request, say).
    void setCanceller(std::function<void()> abort) { m_canceller = std::move(abort); }

signals:
    void finished(const ApiResponse &response);

private:
    bool m_finished = false;
    std::function<void()> m_canceller;
};

// The retry policy for 429 and 503 on idempotent requests: Retry-After when
// the server gives one (seconds or an HTTP date, capped), otherwise
// exponential backoff with jitter; bounded in attempts.
struct RetryPolicy
{
    int maxAttempts = 4;
    int baseDelayMs = 500;
    int maxDelayMs = 60000;

    // The delay before attempt `attempt` (2, 3, ...), or -1 for no retry.
    int delayFor(int attempt, const QByteArray &retryAfter) const;
    static int parseRetryAfterMs(const QByteArray &value); // -1 when absent or unreadable
};

// The TLS configuration of a server's CA (added to the system's) and a client certificate chain and key (PEM;
// used where both read). Made once for each set and kept (a few thousand at most): copying the system's CAs
// again for every request of a thousand klusters cost a third of the connections' threads' time.
QSslConfiguration tlsConfigurationFor(
    const QByteArray &caPem, const QByteArray &certPem = {}, const QByteArray &keyPem = {});

// A private key from PEM, whichever its algorithm (EC, RSA, DSA); null when it is none (or encrypted).
QSslKey privateKeyFromPem(const QByteArray &pem);

// An HTTP date ("Wed, 21 Oct 2026 07:28:00 GMT": a Date or Retry-After header), in UTC; invalid when absent
// or unreadable.
QDateTime parseHttpDate(const QByteArray &value);

// The one HTTP core of Flightdeck over one QNetworkAccessManager: every call
// asynchronous, timed out, cancellable, retried where safe, TLS verified
// (system CAs plus any configured CA, never a silent "ignore TLS errors"),
// and polite to a failing API: every client of the process shares one
// backoff per endpoint (EndpointHealth), so a request to an endpoint that has
// been failing is held, not sent, until one probe finds it answering again.
class HttpClient : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HttpClient)

public:
    explicit HttpClient(QObject *parent = nullptr);
    ~HttpClient() override;

    HttpCall *send(const ApiRequest &request);

    void setRetryPolicy(const RetryPolicy &policy) { m_retry = policy; }
    const RetryPolicy &retryPolicy() const { return m_retry; }
    qint64 requestsSent() const { return m_sent; }
    qint64 bytesReceived() const { return m_received; } // the bytes of every response body (decompressed)
    // How far the servers' clock (the Date header of the last answer) is ahead of this machine's, in ms; 0
    // before any answer. Whole seconds on the wire: within a second of 0 when both clocks are right.
    qint64 serverClockOffsetMs() const { return m_serverClockOffsetMs; }
    QNetworkAccessManager *network() const { return m_nam; } // the one new requests go to

    // How long one QNetworkAccessManager takes new requests before a new one does (0: for ever). The old one
    // goes, with its connections, when its last answer is in. Qt keeps what it needs to talk TLS to each
    // server (a context shared by the connections to it, which holds a session with the server's
    // certificate for each handshake) for as long as requests keep coming: under frequent refreshes and
    // reconnects it grew without end (the soak, docs/reliability.md). A new manager every two minutes
    // costs a new handshake per server.
    void setManagerLifetime(int ms) { m_managerLifetimeMs = ms; }
    static constexpr int DefaultManagerLifetimeMs = 2 * 60 * 1000;
    int managersRetired() const { return m_managersRetired; }
    int managersAlive() const { return int(m_retired.size()) + 1; }

    // The endpoints' health this client reports to and asks (the process' one by default; tests give their
    // own).
    void setEndpointHealth(EndpointHealth *health) { m_health = health; }
    // The bound on requests in flight per endpoint this client keeps to (the process' one by default).
    void setEndpointSlots(EndpointSlots *places) { m_slots = places; }

private:
    // Sends attempt `attempt` when the endpoint's health allows, else holds it (`previous`: the answer of
    // the attempt before, which then stands).
    void attempt(
        HttpCall *call, const ApiRequest &request, int attempt, const std::optional<ApiResponse> &previous);
    // Sends it once the endpoint has a place for it (a stream goes at once).
    void sendInTurn(HttpCall *call, const ApiRequest &request, int attempt, bool probe);
    void transmit(HttpCall *call, const ApiRequest &request, int attempt, bool probe,
        const EndpointSlots::Lease &lease);
    void hold(HttpCall *call, const ApiRequest &request, const std::optional<ApiResponse> &previous,
        const QString &why);
    QNetworkAccessManager *newManager();
    QNetworkAccessManager *managerForNextRequest();
    void answered(QNetworkAccessManager *nam);

    QNetworkAccessManager *m_nam;
    QElapsedTimer m_namAge;
    int m_managerLifetimeMs = DefaultManagerLifetimeMs;
    int m_managersRetired = 0;
    QHash<QNetworkAccessManager *, int> m_inFlight; // replies not yet deleted, by manager
    QSet<QNetworkAccessManager *> m_retired; // taking no new request; deleted with their last reply
    RetryPolicy m_retry;
    qint64 m_sent = 0;
    qint64 m_serverClockOffsetMs = 0;
    qint64 m_received = 0;
    EndpointHealth *m_health;
    EndpointSlots *m_slots;
    QHash<HttpCall *, QPair<QString, quint64>> m_waiting; // calls waiting for a probe: endpoint, ticket
    QHash<HttpCall *, QPair<QString, quint64>> m_queued; // calls waiting for a place: endpoint, ticket
};
