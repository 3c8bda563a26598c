#include "services/http/httpclient.h"

#include "core/json/jsonreader.h"
#include "services/http/endpointhealth.h"
#include "services/local/inputlimits.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QJsonDocument>
#include <QLocale>
#include <QMutex>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSslCertificate>
#include <QSslError>
#include <QSslKey>
#include <QTimeZone>
#include <QTimer>
#include <openssl/crypto.h>

Q_LOGGING_CATEGORY(lcHttp, "flightdeck.http", QtWarningMsg)

namespace {

// Qt's network threads are detached: QThread::wait() returns before the thread's thread-local destructors
// have run, and OpenSSL's (its per-thread state) may then run after the process's exit handlers, which by
// default include OpenSSL's own cleanup: the same per-thread state freed twice, an abort at exit (seen
// under the address sanitizer when a command ended right after its last HTTPS answer). OpenSSL is told,
// before anything can start it, to leave its teardown to the end of the process. Every executable that can
// send a request links this file.
[[maybe_unused]] const bool openSslLeftToProcessExit
    = OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, nullptr) == 1;

} // namespace

QString ApiResponse::serverMessage() const
{
    const QByteArray contentType = header("content-type");
    const QByteArray trimmed = body.trimmed();
    if (trimmed.isEmpty())
        return QString();
    const QJsonDocument doc = QJsonDocument::fromJson(trimmed);
    if (doc.isObject()) {
        const QJsonObject o = doc.object();
        const QJsonObject neutron = o.value(QStringLiteral("NeutronError")).toObject();
        if (!neutron.isEmpty()) {
            const QString type = neutron.value(QStringLiteral("type")).toString();
            const QString message = neutron.value(QStringLiteral("message")).toString();
            return type.isEmpty() ? message : message + QStringLiteral(" [") + type + QLatin1Char(']');
        }
        if (o.value(QStringLiteral("kind")).toString() == QLatin1String("Status")) {
            const QString reason = o.value(QStringLiteral("reason")).toString();
            return o.value(QStringLiteral("message")).toString()
                + (reason.isEmpty() ? QString() : QStringLiteral(" [") + reason + QLatin1Char(']'));
        }
        // Prometheus' API: {"status": "error", "errorType": "bad_data", "error": "…"}
        if (o.value(QStringLiteral("status")).toString() == QLatin1String("error")
            && o.value(QStringLiteral("error")).isString())
            return o.value(QStringLiteral("error")).toString() + QStringLiteral(" [")
                + o.value(QStringLiteral("errorType")).toString() + QLatin1Char(']');
        const QJsonObject keystone = o.value(QStringLiteral("error")).toObject();
        if (!keystone.isEmpty())
            return keystone.value(QStringLiteral("message")).toString();
        if (o.size() == 1 && o.begin().value().isObject()) { // a Nova fault: {"itemNotFound": {...}}
            const QJsonObject fault = o.begin().value().toObject();
            if (fault.contains(QStringLiteral("message")))
                return fault.value(QStringLiteral("message")).toString() + QStringLiteral(" [")
                    + o.begin().key() + QLatin1Char(']');
        }
        if (o.value(QStringLiteral("message")).isString())
            return o.value(QStringLiteral("message")).toString();
    }
    QString text = QString::fromUtf8(trimmed.left(4096));
    if (contentType.contains("html") || text.startsWith(QLatin1Char('<'))) {
        static const QRegularExpression title(
            QStringLiteral("<title>([^<]*)</title>"), QRegularExpression::CaseInsensitiveOption);
        const QRegularExpressionMatch m = title.match(text);
        if (m.hasMatch())
            return m.captured(1).trimmed() + QStringLiteral(" (an HTML page, not the API's answer)");
        static const QRegularExpression tags(QStringLiteral("<[^>]*>"));
        text.replace(tags, QStringLiteral(" "));
    }
    for (const QString &line : text.split(QLatin1Char('\n'))) {
        if (!line.trimmed().isEmpty())
            return line.trimmed().left(300);
    }
    return QString();
}

QJsonObject ApiResponse::json(Error *error) const
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error == QJsonParseError::NoError && doc.isObject())
        return doc.object();
    Error e;
    e.kind = Error::Kind::Malformed;
    e.service = this->error.service;
    e.method = this->error.method;
    e.path = this->error.path;
    e.status = status;
    const QString html = serverMessage();
    e.detail = parseError.error != QJsonParseError::NoError
        ? QStringLiteral("not JSON (%1 at byte %2)%3")
              .arg(parseError.errorString())
              .arg(parseError.offset)
              .arg(html.isEmpty() ? QString() : QStringLiteral(": ") + html)
        : QStringLiteral("expected a JSON object");
    *error = e;
    return QJsonObject();
}

Error ApiResponse::read(const std::function<void(const QJsonObject &)> &parse) const
{
    Error answer = error;
    QJsonObject object;
    if (!answer.isError())
        object = json(&answer);
    return parseAnswer(answer, [&parse, &object] { parse(object); });
}

HttpCall::HttpCall(QObject *parent)
    : QObject(parent)
{ }

void HttpCall::cancel()
{
    if (m_finished)
        return;
    const std::function<void()> abort = std::move(m_canceller);
    ApiResponse r;
    r.error.kind = Error::Kind::Cancelled;
    finish(r); // first: the aborted request's own end is then ignored
    if (abort)
        abort();
}

void HttpCall::finish(const ApiResponse &response)
{
    if (m_finished)
        return;
    m_finished = true;
    m_canceller = nullptr;
    emit finished(response);
    deleteLater();
}

QDateTime parseHttpDate(const QByteArray &value)
{
    QDateTime when = QLocale::c().toDateTime(
        QString::fromLatin1(value.trimmed()), QStringLiteral("ddd, dd MMM yyyy hh:mm:ss 'GMT'"));
    if (when.isValid())
        when.setTimeZone(QTimeZone::utc());
    return when;
}

int RetryPolicy::parseRetryAfterMs(const QByteArray &value)
{
    const QByteArray v = value.trimmed();
    if (v.isEmpty())
        return -1;
    bool ok = false;
    const qint64 seconds = v.toLongLong(&ok);
    if (ok) // capped before the product, which could overflow for 19 digits
        return seconds < 0 ? -1 : int(qMin<qint64>(seconds, 24LL * 3600) * 1000);
    // An HTTP date: "Wed, 21 Oct 2026 07:28:00 GMT". Far in the future is capped like a number of seconds
    // (a date 25 days ahead once wrapped round the 32 bits of the result and was ignored).
    const QDateTime when = parseHttpDate(v);
    if (!when.isValid())
        return -1;
    return int(qBound<qint64>(0, QDateTime::currentDateTimeUtc().msecsTo(when), 24LL * 3600 * 1000));
}

int RetryPolicy::delayFor(int attempt, const QByteArray &retryAfter) const
{
    if (attempt > maxAttempts)
        return -1;
    const int given = parseRetryAfterMs(retryAfter);
    if (given >= 0)
        return qMin(given, maxDelayMs);
    // 0.5 s, 1 s, 2 s, ... capped, each with up to ±25 % jitter.
    const qint64 base = qMin<qint64>(qint64(baseDelayMs) << qMin(attempt - 2, 20), maxDelayMs);
    const double jitter = 0.75 + QRandomGenerator::global()->generateDouble() * 0.5;
    return int(qMin<qint64>(qint64(base * jitter), maxDelayMs));
}

HttpClient::HttpClient(QObject *parent)
    : QObject(parent)
    , m_nam(newManager())
    , m_health(&EndpointHealth::shared())
    , m_slots(&EndpointSlots::shared())
{
    m_namAge.start();
}

QNetworkAccessManager *HttpClient::newManager()
{
    auto *nam = new QNetworkAccessManager(this);
    nam->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    return nam;
}

QNetworkAccessManager *HttpClient::managerForNextRequest()
{
    if (m_managerLifetimeMs > 0 && m_namAge.elapsed() >= m_managerLifetimeMs) {
        // Retired: new requests go to a new one; the old one goes when its last answer is in.
        QNetworkAccessManager *old = m_nam;
        m_nam = newManager();
        m_namAge.restart();
        ++m_managersRetired;
        if (m_inFlight.contains(old)) // answers still to come (answered() counts them down)
            m_retired.insert(old);
        else
            old->deleteLater();
    }
    return m_nam;
}

void HttpClient::answered(QNetworkAccessManager *nam)
{
    if (--m_inFlight[nam] > 0)
        return;
    m_inFlight.remove(nam);
    if (m_retired.remove(nam))
        nam->deleteLater();
}

HttpClient::~HttpClient()
{
    // Waits in the shared backoff end with this client: nothing may resume them later.
    for (auto it = m_waiting.cbegin(); it != m_waiting.cend(); ++it)
        m_health->withdraw(it->first, it->second);
    for (auto it = m_queued.cbegin(); it != m_queued.cend(); ++it)
        m_slots->withdraw(it->first, it->second);
}

HttpCall *HttpClient::send(const ApiRequest &request)
{
    auto *call = new HttpCall(this);
    attempt(call, request, 1, std::nullopt);
    return call;
}

void HttpClient::attempt(
    HttpCall *call, const ApiRequest &request, int attemptNumber, const std::optional<ApiResponse> &previous)
{
    // The endpoint's health, shared by every client of the process: a failing API is given a rest.
    const QString endpoint = EndpointHealth::endpointOf(request.url);
    QString why;
    quint64 ticket = 0;
    const auto resume = [this, call, request, attemptNumber, previous](
                            EndpointHealth::Verdict verdict, const QString &why) {
        // Called with the backoff locked, maybe on another thread: only posted to the call's.
        QMetaObject::invokeMethod(
            call,
            [this, call, request, attemptNumber, previous, verdict, why] {
                m_waiting.remove(call);
                call->setCanceller({});
                if (verdict == EndpointHealth::Verdict::Held)
                    hold(call, request, previous, why);
                else
                    sendInTurn(call, request, attemptNumber, verdict == EndpointHealth::Verdict::Probe);
            },
            Qt::QueuedConnection);
    };
    switch (m_health->admit(endpoint, &why, resume, &ticket)) {
    case EndpointHealth::Verdict::Send:
        sendInTurn(call, request, attemptNumber, false);
        return;
    case EndpointHealth::Verdict::Probe:
        sendInTurn(call, request, attemptNumber, true);
        return;
    case EndpointHealth::Verdict::Wait:
        m_waiting.insert(call, { endpoint, ticket });
        call->setCanceller([this, call, endpoint, ticket] {
            m_waiting.remove(call);
            m_health->withdraw(endpoint, ticket);
        });
        return;
    case EndpointHealth::Verdict::Held:
        hold(call, request, previous, why);
        return;
    }
}

void HttpClient::hold(
    HttpCall *call, const ApiRequest &request, const std::optional<ApiResponse> &previous, const QString &why)
{
    if (previous) { // a retry that is not sent: the last answer stands
        call->finish(*previous);
        return;
    }
    ApiResponse r;
    r.error.kind = Error::Kind::Held;
    r.error.service = request.service;
    r.error.method = QString::fromLatin1(request.method);
    r.error.path = request.path();
    r.error.detail = QStringLiteral("%1 is failing: %2").arg(EndpointHealth::endpointOf(request.url), why);
    // Later, never before the caller has connected.
    QMetaObject::invokeMethod(
        call, [call, r] { call->finish(r); }, Qt::QueuedConnection);
}

void HttpClient::sendInTurn(HttpCall *call, const ApiRequest &request, int attemptNumber, bool probe)
{
    if (request.onData) { // a stream stays open for hours: it takes no place
        transmit(call, request, attemptNumber, probe, nullptr);
        return;
    }
    const QString endpoint = EndpointHealth::endpointOf(request.url);
    quint64 ticket = 0;
    const auto go = [this, call, request, attemptNumber, probe, endpoint](const EndpointSlots::Lease &lease) {
        // Called on whichever thread gave a place back: only posted to the call's. Dropped unrun (the call
        // gone), the lease goes with it and the place is given back.
        QMetaObject::invokeMethod(
            call,
            [this, call, request, attemptNumber, probe, endpoint, lease] {
                m_queued.remove(call);
                if (call->isFinished()) { // cancelled just as its turn came
                    if (probe)
                        m_health->report(endpoint, EndpointHealth::Outcome::Abandoned, true);
                    return;
                }
                call->setCanceller({});
                transmit(call, request, attemptNumber, probe, lease);
            },
            Qt::QueuedConnection);
    };
    EndpointSlots::Lease lease = m_slots->take(endpoint, go, &ticket);
    if (lease) {
        transmit(call, request, attemptNumber, probe, lease);
        return;
    }
    m_queued.insert(call, { endpoint, ticket });
    call->setCanceller([this, call, endpoint, ticket, probe] {
        m_queued.remove(call);
        m_slots->withdraw(endpoint, ticket);
        if (probe) // admitted as the probe and never sent: the endpoint is for the next one to try
            m_health->report(endpoint, EndpointHealth::Outcome::Abandoned, true);
    });
}

void HttpClient::transmit(HttpCall *call, const ApiRequest &request, int attemptNumber, bool probe,
    const EndpointSlots::Lease &lease)
{
    QNetworkRequest req(request.url);
    req.setTransferTimeout(request.timeoutMs);
    req.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    // Qt refuses a gzipped answer that decompresses to over 40 times its size once past 10 MiB (its guard
    // against archive bombs): a Prometheus vector of ten thousand klusters does (repetitive JSON). The
    // answer's own bound (InputLimits::maxBodyBytes, below) holds it instead; Qt's check applies past that.
    req.setDecompressedSafetyCheckThreshold(InputLimits::maxBodyBytes());
    req.setRawHeader("Accept", "application/json");
    req.setRawHeader("User-Agent", "flightdeck/" FLIGHTDECK_VERSION);
    if (!request.body.isEmpty())
        req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    for (const auto &h : request.headers)
        req.setRawHeader(h.first, h.second);
    if (request.tls) {
        QSslConfiguration tls = *request.tls;
        req.setSslConfiguration(tls);
    }
    ++m_sent;
    QNetworkAccessManager *nam = managerForNextRequest();
    ++m_inFlight[nam];
    QNetworkReply *reply = nam->sendCustomRequest(req, request.method, request.body);
    auto tlsErrors = std::make_shared<QStringList>();
    connect(reply, &QNetworkReply::sslErrors, reply, [tlsErrors](const QList<QSslError> &errors) {
        for (const QSslError &e : errors)
            tlsErrors->append(e.errorString());
        // Never ignored: the reply fails with a TLS error.
    });
    QPointer<QNetworkReply> guard(reply);
    call->setCanceller([guard] {
        if (guard)
            guard->abort();
    });
    // Why this client gave up on the answer, if it did: too slow as a whole, or too large.
    auto givenUp = std::make_shared<QString>();
    auto tooLarge = std::make_shared<bool>(false);
    auto *deadline = new QTimer(reply);
    deadline->setSingleShot(true);
    connect(deadline, &QTimer::timeout, reply, [reply, givenUp, request] {
        *givenUp = QStringLiteral(
            "no complete answer within %1 s (the inactivity timeout alone would wait forever for a "
            "server that trickles)")
                       .arg(request.deadlineMs / 1000.0);
        reply->abort();
    });
    if (request.onData) {
        connect(reply, &QNetworkReply::metaDataChanged, call, [reply, request] {
            const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            if (status >= 200 && status < 300)
                request.onData(QByteArray());
        });
        connect(reply, &QNetworkReply::readyRead, call, [this, reply, request] {
            const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            if (status < 200 || status >= 300)
                return; // an error's body: read whole at the end
            const QByteArray piece = reply->readAll();
            m_received += piece.size();
            request.onData(piece);
        });
    } else {
        deadline->start(request.deadlineMs);
    }
    connect(reply, &QNetworkReply::downloadProgress, reply,
        [reply, givenUp, tooLarge, streamed = bool(request.onData)](qint64 received, qint64 total) {
            if (streamed)
                return;
            const qint64 limit = InputLimits::maxBodyBytes();
            if (givenUp->isEmpty() && (received > limit || total > limit)) {
                *givenUp = InputLimits::tooLarge(QStringLiteral("the answer"));
                *tooLarge = true;
                reply->abort();
            }
        });
    // Counted when the reply goes (it always does, whatever becomes of the call): its manager may be retired,
    // and its place given back to the endpoint.
    connect(reply, &QObject::destroyed, this, [this, nam, lease] {
        answered(nam);
        (void)lease; // held until here
    });
    connect(reply, &QNetworkReply::finished, call,
        [this, call, request, attemptNumber, reply, tlsErrors, givenUp, tooLarge, probe] {
            reply->deleteLater();
            const QString endpoint = EndpointHealth::endpointOf(request.url);
            if (call->isFinished()) { // cancelled: no word on the endpoint
                m_health->report(endpoint, EndpointHealth::Outcome::Abandoned, probe);
                return;
            }
            ApiResponse r;
            r.attempts = attemptNumber;
            r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            if (reply->isOpen()) // an aborted reply is closed: reading it would only warn
                r.body = reply->readAll();
            m_received += r.body.size();
            if (request.onData && r.status >= 200 && r.status < 300 && !r.body.isEmpty())
                request.onData(std::exchange(r.body, QByteArray()));
            for (const auto &pair : reply->rawHeaderPairs())
                r.headers.insert(pair.first.toLower(), pair.second);
            if (const QDateTime date = parseHttpDate(r.headers.value("date")); date.isValid())
                m_serverClockOffsetMs
                    = QDateTime::currentDateTimeUtc().msecsTo(date.addMSecs(500)); // mid-second
            Error &e = r.error;
            e.service = request.service;
            e.method = QString::fromLatin1(request.method);
            e.path = request.path();
            e.status = r.status;
            const QNetworkReply::NetworkError netError = reply->error();
            if (!givenUp->isEmpty()) {
                e.kind = *tooLarge ? Error::Kind::TooLarge : Error::Kind::Timeout;
                e.detail = *givenUp;
                r.body.clear();
            } else if (r.status >= 400) {
                e.kind = Error::Kind::Http;
                e.serverMessage = r.serverMessage();
            } else if (r.status >= 300) {
                e.kind = Error::Kind::Http;
                e.detail = QStringLiteral("an unexpected redirect%1; not followed")
                               .arg(r.header("location").isEmpty()
                                       ? QString()
                                       : QStringLiteral(" to ") + QString::fromUtf8(r.header("location")));
            } else if (netError == QNetworkReply::OperationCanceledError) {
                e.kind = Error::Kind::Timeout; // the transfer timeout aborts the reply
                e.detail = QStringLiteral("after %1 s").arg(request.timeoutMs / 1000.0);
            } else if (netError >= QNetworkReply::SslHandshakeFailedError
                && netError <= QNetworkReply::UnknownNetworkError
                && (!tlsErrors->isEmpty() || netError == QNetworkReply::SslHandshakeFailedError)) {
                e.kind = Error::Kind::Tls;
                e.detail
                    = tlsErrors->isEmpty() ? reply->errorString() : tlsErrors->join(QStringLiteral("; "));
            } else if (netError != QNetworkReply::NoError) {
                // No answer, or one that broke off (a truncated body, a reset mid-transfer).
                e.kind = Error::Kind::Network;
                e.detail = reply->errorString();
            } else {
                e.kind = Error::Kind::None;
            }
            // What this says of the endpoint, for every client of the process: failing (overloaded, down,
            // unreachable), or answering.
            const bool failing = r.status == 429 || (r.status >= 500 && r.status <= 504)
                || (r.status == 0 && (e.kind == Error::Kind::Network || e.kind == Error::Kind::Timeout));
            m_health->report(endpoint,
                failing ? EndpointHealth::Outcome::Failed : EndpointHealth::Outcome::Answered, probe,
                RetryPolicy::parseRetryAfterMs(r.header("retry-after")), r.status == 429);
            const bool retryable = request.idempotent()
                && (r.status == 429 || r.status == 503
                    || (r.status == 413 && !r.header("retry-after").isEmpty()));
            // A connection the server closed before a byte of the answer came back (a kept-alive connection
            // it closed meanwhile, or one it closed after breaking off another answer): an idempotent request
            // is sent once more at once, as browsers and keystoneauth do; a second close is the answer.
            const bool closedUnanswered = request.idempotent() && r.status == 0 && attemptNumber == 1
                && netError == QNetworkReply::RemoteHostClosedError && r.body.isEmpty();
            if (retryable || closedUnanswered) {
                const int delay
                    = closedUnanswered ? 0 : m_retry.delayFor(attemptNumber + 1, r.header("retry-after"));
                if (delay >= 0) {
                    qCDebug(lcHttp) << request.method << request.url.path() << r.status << "retry in" << delay
                                    << "ms";
                    auto *timer = new QTimer(call);
                    timer->setSingleShot(true);
                    connect(timer, &QTimer::timeout, call, [this, call, request, attemptNumber, r] {
                        attempt(call, request, attemptNumber + 1, r);
                    });
                    call->setCanceller([timer] { timer->stop(); });
                    timer->start(delay);
                    return;
                }
            }
            call->finish(r);
        });
}

QSslKey privateKeyFromPem(const QByteArray &pem)
{
    for (QSsl::KeyAlgorithm algorithm : { QSsl::Ec, QSsl::Rsa, QSsl::Dsa }) {
        QSslKey key(pem, algorithm, QSsl::Pem);
        if (!key.isNull())
            return key;
    }
    return QSslKey();
}

QSslConfiguration tlsConfigurationFor(const QByteArray &caPem, const QByteArray &cert, const QByteArray &key)
{
    // Made once for each set of certificates and key, not for every request: parsing them and copying the
    // system's CAs again for each node list of a thousand klusters was a third of the connections' threads'
    // time. Held in memory only, at most a few thousand.
    QCryptographicHash id(QCryptographicHash::Sha256);
    for (const QByteArray *part : { &caPem, &cert, &key }) {
        id.addData(QByteArray(QByteArray::number(part->size()) + ":"));
        id.addData(*part);
    }
    const QByteArray made = id.result();
    static QMutex mutex;
    // Never destroyed: a TLS key freed after the TLS backend at exit would call into it.
    static auto &kept = *new QHash<QByteArray, QSslConfiguration>;
    {
        const QMutexLocker lock(&mutex);
        if (const auto it = kept.constFind(made); it != kept.cend())
            return it.value();
    }
    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
    if (!caPem.isEmpty())
        tls.addCaCertificates(QSslCertificate::fromData(caPem, QSsl::Pem));
    if (!cert.isEmpty() && !key.isEmpty()) {
        const QList<QSslCertificate> chain = QSslCertificate::fromData(cert, QSsl::Pem);
        if (!chain.isEmpty()) {
            tls.setLocalCertificate(chain.first());
            if (chain.size() > 1)
                tls.setLocalCertificateChain(chain);
        }
        tls.setPrivateKey(privateKeyFromPem(key));
    }
    const QMutexLocker lock(&mutex);
    if (kept.size() >= 4096)
        kept.clear();
    kept.insert(made, tls);
    return tls;
}
