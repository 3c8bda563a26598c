#include "services/http/endpointhealth.h"
#include "services/http/httpclient.h"
#include "tests/simulator/simfixture.h"

#include <QElapsedTimer>
#include <QLocale>
#include <QNetworkAccessManager>
#include <QPointer>
#include <QRegularExpression>
#include <QTimer>

// The HTTP core against the simulated cloud's faults: retries where the rules
// allow them, clear errors everywhere else.
class TestHttpClient : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void success();
    void retryAfterSecondsOn429();
    void retryAfterHttpDateOn503();
    void backoffWithoutRetryAfterIsBounded();
    void postIsNotRetried();
    void httpErrorNamesTheServerMessage();
    void htmlErrorPage();
    void malformedJson();
    void truncatedBody();
    void droppedConnection();
    void connectionClosedOnceIsSentAgain();
    void timeout();
    void cancellation();
    void unknownCertificateAuthority();
    void retryDelays();
    void tricklingServerMeetsTheDeadline();
    void answerLargerThanTheLimit();
    void farRetryAfterDateIsCapped();
    void timeoutIsQuiet();
    void managersRetireWithTheirLastAnswer();
    void failingEndpointIsGivenARest();
    void oneProbeAnswersForThoseWaiting();
    void endpointIsSentABoundedNumberAtOnce();

private:
    ApiResponse run(const ApiRequest &request)
    {
        HttpCall *call = m_client->send(request);
        QSignalSpy spy(call, &HttpCall::finished);
        if (!spy.wait(30000))
            qFatal("no answer");
        return spy.first().first().value<ApiResponse>();
    }
    ApiRequest servers()
    {
        ApiRequest r;
        r.service = QStringLiteral("compute");
        r.url = QUrl(m_fixture->sim.endpoint(QStringLiteral("compute")) + QStringLiteral("/servers"));
        r.headers.append({ "X-Auth-Token", m_fixture->token().toUtf8() });
        return r;
    }
    [[nodiscard]] bool fault(const QByteArray &json)
    {
        return m_fixture->request("POST", m_fixture->sim.adminUrl() + QStringLiteral("/faults"), json).status
            == 201;
    }

    std::unique_ptr<SimFixture> m_fixture;
    std::unique_ptr<HttpClient> m_client;
};

void TestHttpClient::init()
{
    // A simulator of an earlier test may have listened on the same port: its failures are not this one's.
    EndpointHealth::shared().reset();
    qRegisterMetaType<ApiResponse>();
    m_fixture = std::make_unique<SimFixture>();
    m_client = std::make_unique<HttpClient>();
    m_client->setRetryPolicy(RetryPolicy { 4, 50, 2000 });
}

void TestHttpClient::cleanup()
{
    m_client.reset();
    m_fixture.reset();
}

void TestHttpClient::success()
{
    const ApiResponse r = run(servers());
    QVERIFY2(r.ok(), qPrintable(r.error.toString()));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.attempts, 1);
}

void TestHttpClient::retryAfterSecondsOn429()
{
    QVERIFY(fault(R"({"kind": "status", "status": 429, "retryAfter": 1, "service": "compute", "count": 2})"));
    QElapsedTimer timer;
    timer.start();
    const ApiResponse r = run(servers());
    QVERIFY2(r.ok(), qPrintable(r.error.toString()));
    QCOMPARE(r.attempts, 3);
    QVERIFY2(timer.elapsed() >= 1900,
        qPrintable(QString::number(timer.elapsed()))); // Retry-After was honoured twice
}

void TestHttpClient::retryAfterHttpDateOn503()
{
    const QByteArray when = QLocale::c()
                                .toString(QDateTime::currentDateTimeUtc().addSecs(1),
                                    QStringLiteral("ddd, dd MMM yyyy hh:mm:ss 'GMT'"))
                                .toLatin1();
    QVERIFY(fault(R"({"kind": "status", "status": 503, "service": "compute", "count": 1, "retryAfter": ")"
        + when + "\"}"));
    const ApiResponse r = run(servers());
    QVERIFY2(r.ok(), qPrintable(r.error.toString()));
    QCOMPARE(r.attempts, 2);
}

void TestHttpClient::backoffWithoutRetryAfterIsBounded()
{
    QVERIFY(fault(R"({"kind": "status", "status": 503, "service": "compute"})"));
    const ApiResponse r = run(servers());
    QCOMPARE(r.attempts, 4); // maxAttempts, then the error
    QCOMPARE(r.error.kind, Error::Kind::Http);
    QCOMPARE(r.status, 503);
}

void TestHttpClient::postIsNotRetried()
{
    QVERIFY(fault(R"({"kind": "status", "status": 503, "service": "compute", "count": 1})"));
    ApiRequest request = servers();
    request.method = "POST";
    request.url
        = QUrl(m_fixture->sim.endpoint(QStringLiteral("compute")) + QStringLiteral("/servers/x/action"));
    request.body = R"({"reboot": {"type": "SOFT"}})";
    const ApiResponse r = run(request);
    QCOMPARE(r.attempts, 1);
    QCOMPARE(r.status, 503);
}

void TestHttpClient::httpErrorNamesTheServerMessage()
{
    ApiRequest request = servers();
    request.url
        = QUrl(m_fixture->sim.endpoint(QStringLiteral("network")) + QStringLiteral("/v2.0/routers/nope"));
    request.service = QStringLiteral("network");
    const ApiResponse r = run(request);
    QCOMPARE(r.error.kind, Error::Kind::Http);
    QCOMPARE(r.error.toString(),
        QStringLiteral(
            "network: GET /v2.0/routers/nope: HTTP 404: Router nope could not be found [RouterNotFound]"));
}

void TestHttpClient::htmlErrorPage()
{
    QVERIFY(fault(R"({"kind": "html", "service": "compute", "count": 1})"));
    const ApiResponse r = run(servers());
    QCOMPARE(r.status, 502);
    QVERIFY2(
        r.error.toString().contains(QStringLiteral("502 Bad Gateway (an HTML page, not the API's answer)")),
        qPrintable(r.error.toString()));
}

void TestHttpClient::malformedJson()
{
    QVERIFY(fault(R"({"kind": "malformed", "service": "compute", "count": 1})"));
    const ApiResponse r = run(servers());
    QVERIFY(r.ok());
    Error error;
    r.json(&error);
    QCOMPARE(error.kind, Error::Kind::Malformed);
    QVERIFY2(error.toString().startsWith(
                 QStringLiteral("compute: GET /v2.1/servers: HTTP 200 with a malformed body: not JSON")),
        qPrintable(error.toString()));
}

void TestHttpClient::truncatedBody()
{
    QVERIFY(fault(R"({"kind": "truncated", "service": "compute"})"));
    const ApiResponse r = run(servers());
    Error error = r.error;
    if (!error.isError())
        r.json(&error);
    QVERIFY2(error.isError(), "a truncated body must not pass as an answer");
}

void TestHttpClient::droppedConnection()
{
    QVERIFY(fault(R"({"kind": "drop", "service": "compute"})"));
    const ApiResponse r = run(servers());
    QCOMPARE(r.error.kind, Error::Kind::Network);
    QVERIFY(r.error.toString().startsWith(QStringLiteral("compute: GET /v2.1/servers: network error")));
    QCOMPARE(r.attempts, 2); // a connection closed without an answer: a GET is sent once more, then said
}

// A server that closes a connection without answering once (a kept-alive connection it closed meanwhile): a
// GET is sent again at once and answered.
void TestHttpClient::connectionClosedOnceIsSentAgain()
{
    QVERIFY(fault(R"({"kind": "drop", "service": "compute", "count": 1})"));
    const ApiResponse r = run(servers());
    QVERIFY2(r.ok(), qPrintable(r.error.toString())); // sent again (by Qt's own resend, or then by ours)
    QVERIFY(r.attempts <= 2);
}

void TestHttpClient::timeout()
{
    QVERIFY(fault(R"({"kind": "latency", "latencyMs": 3000, "service": "compute"})"));
    ApiRequest request = servers();
    request.timeoutMs = 300;
    const ApiResponse r = run(request);
    QCOMPARE(r.error.kind, Error::Kind::Timeout);
}

void TestHttpClient::cancellation()
{
    QVERIFY(fault(R"({"kind": "latency", "latencyMs": 3000, "service": "compute"})"));
    HttpCall *call = m_client->send(servers());
    QSignalSpy spy(call, &HttpCall::finished);
    QTimer::singleShot(100, call, &HttpCall::cancel);
    QVERIFY(spy.wait(2000));
    QCOMPARE(spy.first().first().value<ApiResponse>().error.kind, Error::Kind::Cancelled);
}

void TestHttpClient::unknownCertificateAuthority()
{
    ApiRequest request;
    request.service = QStringLiteral("kubernetes");
    request.url = QUrl(m_fixture->sim.kubernetesUrl(QStringLiteral("demo")) + QStringLiteral("/version"));
    const ApiResponse r = run(request); // system CAs only: the simulator's CA is unknown
    QCOMPARE(r.error.kind, Error::Kind::Tls);
    QVERIFY2(r.error.toString().contains(QStringLiteral("TLS error")), qPrintable(r.error.toString()));
    request.tls = m_fixture->kubernetesTls();
    m_client->network()->clearConnectionCache();
    const ApiResponse trusted = run(request);
    QVERIFY2(trusted.ok(), qPrintable(trusted.error.toString()));
}

void TestHttpClient::retryDelays()
{
    const RetryPolicy policy { 4, 500, 60000 };
    QCOMPARE(policy.delayFor(2, "3"), 3000);
    QCOMPARE(policy.delayFor(2, "120"), 60000); // capped
    QCOMPARE(policy.delayFor(5, "1"), -1); // bounded
    const int backoff = policy.delayFor(3, QByteArray());
    QVERIFY(backoff >= 750 && backoff <= 1250); // 1 s ± 25 %
    QCOMPARE(RetryPolicy::parseRetryAfterMs("soon"), -1);
    QVERIFY(RetryPolicy::parseRetryAfterMs("Wed, 21 Oct 2015 07:28:00 GMT") == 0); // in the past: now
}

void TestHttpClient::tricklingServerMeetsTheDeadline()
{
    // The defect: one byte every 200 ms never trips the inactivity timeout, so a check waited forever.
    QVERIFY(fault(R"({"kind": "trickle", "latencyMs": 200, "service": "compute"})"));
    ApiRequest request = servers();
    request.timeoutMs = 1000;
    request.deadlineMs = 1500;
    QElapsedTimer clock;
    clock.start();
    const ApiResponse r = run(request);
    QCOMPARE(r.error.kind, Error::Kind::Timeout);
    QVERIFY2(r.error.toString().contains(QStringLiteral("no complete answer within 1.5 s")),
        qPrintable(r.error.toString()));
    QVERIFY2(r.error.toString().contains(QStringLiteral("compute: GET")), qPrintable(r.error.toString()));
    QVERIFY(clock.elapsed() < 10000);
}

void TestHttpClient::answerLargerThanTheLimit()
{
    qputenv("FLIGHTDECK_MAX_BODY_MB", "1");
    // A thousand servers in detail: more than the megabyte allowed here.
    for (int i = 0; i < 3000; ++i) {
        SimServer s;
        s.id = QStringLiteral("big-%1").arg(i);
        s.name = QStringLiteral("padding-server-with-a-long-name-%1").arg(i, 6, 10, QLatin1Char('0'));
        s.projectId = m_fixture->sim.world().projects.first().id;
        s.created = s.updated = m_fixture->sim.world().now();
        s.networkName = QStringLiteral("kks-net");
        m_fixture->sim.world().servers.append(s);
    }
    ApiRequest request = servers();
    request.url = QUrl(
        m_fixture->sim.endpoint(QStringLiteral("compute")) + QStringLiteral("/servers/detail?limit=1000"));
    const ApiResponse r = run(request);
    qunsetenv("FLIGHTDECK_MAX_BODY_MB");
    QCOMPARE(r.error.kind, Error::Kind::TooLarge);
    QVERIFY2(r.error.toString().contains(QStringLiteral("FLIGHTDECK_MAX_BODY_MB")),
        qPrintable(r.error.toString()));
    QVERIFY(r.body.isEmpty());
}

void TestHttpClient::farRetryAfterDateIsCapped()
{
    // The defect: a date ~25 days ahead wrapped round 32 bits and was ignored; it is capped instead, like
    // seconds.
    const QDateTime future = QDateTime::currentDateTimeUtc().addDays(40);
    const QByteArray date
        = QLocale::c().toString(future, QStringLiteral("ddd, dd MMM yyyy hh:mm:ss 'GMT'")).toLatin1();
    QCOMPARE(RetryPolicy::parseRetryAfterMs(date), 24 * 3600 * 1000);
    const RetryPolicy policy { 4, 500, 60000 };
    QCOMPARE(policy.delayFor(2, date), 60000);
    // Found by fuzzing: 19 digits of seconds overflowed the product with 1000.
    QCOMPARE(RetryPolicy::parseRetryAfterMs("9223372036854775807"), 24 * 3600 * 1000);
    QCOMPARE(RetryPolicy::parseRetryAfterMs("99999999999999999"), 24 * 3600 * 1000);
}

void TestHttpClient::timeoutIsQuiet()
{
    // The defect: every timeout also printed "QIODevice::read (QNetworkReplyHttpImpl): device not open".
    QVERIFY(fault(R"({"kind": "latency", "latencyMs": 3000, "service": "compute"})"));
    ApiRequest request = servers();
    request.timeoutMs = 300;
    QTest::failOnWarning(QRegularExpression(QStringLiteral("device not open")));
    const ApiResponse r = run(request);
    QCOMPARE(r.error.kind, Error::Kind::Timeout);
}

// After its lifetime a manager takes no new request, and goes (with its connections and their TLS contexts)
// when its last answer is in: an answer in flight across the change still arrives whole.
void TestHttpClient::managersRetireWithTheirLastAnswer()
{
    // A lifetime of a second: a request on a busy machine (the sanitizers, two cores) takes a good part of a
    // shorter one, and its manager would be retired in turn before the counts are read.
    m_client->setManagerLifetime(1000);
    QVERIFY(run(servers()).ok());
    const QPointer<QNetworkAccessManager> first = m_client->network();
    QVERIFY(fault(R"({"kind": "latency", "latencyMs": 3000, "service": "compute", "count": 1})"));
    HttpCall *slow = m_client->send(servers()); // on the first manager
    QSignalSpy slowDone(slow, &HttpCall::finished);
    QTest::qWait(1100);
    QVERIFY(run(servers()).ok()); // on a new one: the first is retired, with an answer to wait for
    QCOMPARE(m_client->managersRetired(), 1);
    QVERIFY(m_client->network() != first.data());
    QVERIFY(first);
    QCOMPARE(m_client->managersAlive(), 2);
    QVERIFY(slowDone.wait(10000));
    const ApiResponse r = slowDone.first().first().value<ApiResponse>();
    QVERIFY2(r.ok(), qPrintable(r.error.toString()));
    QTRY_VERIFY_WITH_TIMEOUT(!first, 5000); // gone with its last reply
    QCOMPARE(m_client->managersAlive(), 1);

    // Never retired (0): the same manager for every request.
    m_client->setManagerLifetime(0);
    const QNetworkAccessManager *now = m_client->network();
    QTest::qWait(250);
    QVERIFY(run(servers()).ok());
    QCOMPARE(m_client->network(), now);
}

// A failing API sees fewer requests, not more: every client of the process (every connection, every
// kluster) shares one backoff per endpoint. Without it, each retried on its own: four tries of every
// request, from every kluster.
void TestHttpClient::failingEndpointIsGivenARest()
{
    EndpointHealth health;
    health.setPolicy({ 3, 400, 1600 });
    m_client->setEndpointHealth(&health);
    HttpClient other; // another connection
    other.setRetryPolicy(m_client->retryPolicy());
    other.setEndpointHealth(&health);
    QVERIFY(fault(R"({"kind": "status", "status": 503, "service": "compute", "count": 1000})"));
    const qint64 before = m_fixture->sim.requestCount(QStringLiteral("compute"));

    // The first request tries three times; then the endpoint is given a rest, and its fourth try is not
    // sent: its last answer stands.
    const ApiResponse first = run(servers());
    QCOMPARE(first.status, 503);
    QCOMPARE(m_fixture->sim.requestCount(QStringLiteral("compute")) - before, 3);
    QVERIFY(health.isOpen(EndpointHealth::endpointOf(servers().url)));
    // What follows from either client is held, not sent, and says so.
    for (HttpClient *client : { m_client.get(), &other, m_client.get(), &other }) {
        HttpCall *call = client->send(servers());
        QSignalSpy spy(call, &HttpCall::finished);
        QVERIFY(spy.wait(5000));
        const ApiResponse r = spy.first().first().value<ApiResponse>();
        QCOMPARE(r.error.kind, Error::Kind::Held);
        QVERIFY2(r.error.toString().startsWith(
                     QStringLiteral("compute: GET /v2.1/servers: not sent: http://127.0.0.1:")),
            qPrintable(r.error.toString()));
        QVERIFY2(r.error.toString().contains(QStringLiteral("its last 3 answers failed")),
            qPrintable(r.error.toString()));
        QVERIFY(r.error.retryCanHelp());
    }
    QCOMPARE(m_fixture->sim.requestCount(QStringLiteral("compute")) - before, 3);
    QCOMPARE(health.heldCount(), 5);

    // After the rest, one probe; it fails, and the rest is longer.
    QTest::qWait(450);
    QCOMPARE(run(servers()).status, 503);
    QCOMPARE(m_fixture->sim.requestCount(QStringLiteral("compute")) - before, 4);
    QCOMPARE(run(servers()).error.kind, Error::Kind::Held);
    QTest::qWait(450); // not long enough now (800 ms)
    QCOMPARE(run(servers()).error.kind, Error::Kind::Held);
    QCOMPARE(m_fixture->sim.requestCount(QStringLiteral("compute")) - before, 4);
    m_client->setEndpointHealth(&EndpointHealth::shared());
}

void TestHttpClient::oneProbeAnswersForThoseWaiting()
{
    EndpointHealth health;
    health.setPolicy({ 2, 300, 1000 });
    m_client->setRetryPolicy(RetryPolicy { 1, 50, 2000 }); // no retries: each failure is one request
    m_client->setEndpointHealth(&health);
    QVERIFY(fault(R"({"kind": "status", "status": 503, "service": "compute", "count": 2})"));
    QCOMPARE(run(servers()).status, 503);
    QCOMPARE(run(servers()).status, 503);
    QVERIFY(health.isOpen(EndpointHealth::endpointOf(servers().url)));
    QCOMPARE(run(servers()).error.kind, Error::Kind::Held);
    // The API is back (the fault's count is used up). After the rest, three requests at once: one goes as
    // the probe, the others wait for it and go once it answers.
    QTest::qWait(350);
    const qint64 before = m_fixture->sim.requestCount(QStringLiteral("compute"));
    QList<HttpCall *> calls;
    for (int i = 0; i < 3; ++i)
        calls << m_client->send(servers());
    QList<std::shared_ptr<QSignalSpy>> spies;
    for (HttpCall *c : calls)
        spies << std::make_shared<QSignalSpy>(c, &HttpCall::finished);
    for (const auto &spy : spies) {
        QVERIFY(spy->count() == 1 || spy->wait(5000));
        const ApiResponse r = spy->first().first().value<ApiResponse>();
        QVERIFY2(r.ok(), qPrintable(r.error.toString()));
    }
    QCOMPARE(m_fixture->sim.requestCount(QStringLiteral("compute")) - before, 3);
    QVERIFY(!health.isOpen(EndpointHealth::endpointOf(servers().url)));
    m_client->setEndpointHealth(&EndpointHealth::shared());
}

void TestHttpClient::endpointIsSentABoundedNumberAtOnce()
{
    // Two clients (two connections of a region) share one Nova, at most 3 requests at once between them.
    EndpointSlots places;
    places.setLimit(3);
    auto other = std::make_unique<HttpClient>();
    m_client->setEndpointSlots(&places);
    other->setEndpointSlots(&places);
    QVERIFY(fault(R"({"kind": "latency", "latencyMs": 400, "service": "compute"})"));
    const QString endpoint = EndpointHealth::endpointOf(servers().url);
    const qint64 before = m_fixture->sim.requestCount(QStringLiteral("compute"));
    QList<std::shared_ptr<QSignalSpy>> spies;
    for (int i = 0; i < 10; ++i) {
        HttpCall *call = (i % 2 ? other.get() : m_client.get())->send(servers());
        spies << std::make_shared<QSignalSpy>(call, &HttpCall::finished);
    }
    // One more waits its turn and is cancelled meanwhile: it never reaches the server, and takes no place.
    HttpCall *cancelled = m_client->send(servers());
    QSignalSpy cancelledSpy(cancelled, &HttpCall::finished);
    QCOMPARE(places.inFlight(endpoint), 3);
    QCOMPARE(places.waiting(endpoint), 8);
    cancelled->cancel();
    QCOMPARE(cancelledSpy.count(), 1);
    QCOMPARE(places.waiting(endpoint), 7);
    // The server sees the first three, and no fourth before one of them is answered (400 ms after it came).
    QTRY_COMPARE_WITH_TIMEOUT(m_fixture->sim.requestCount(QStringLiteral("compute")) - before, 3, 5000);
    QTest::qWait(100);
    QCOMPARE(m_fixture->sim.requestCount(QStringLiteral("compute")) - before, 3);
    for (const auto &spy : spies) {
        QVERIFY(spy->count() == 1 || spy->wait(10000));
        const ApiResponse r = spy->first().first().value<ApiResponse>();
        QVERIFY2(r.ok(), qPrintable(r.error.toString()));
    }
    QCOMPARE(m_fixture->sim.requestCount(QStringLiteral("compute")) - before, 10);
    QCOMPARE(places.mostInFlight(), 3);
    QCOMPARE(places.waitedCount(), 8);
    QTRY_COMPARE(places.inFlight(endpoint), 0);

    // A client that goes with requests in flight and in line gives every place back.
    for (int i = 0; i < 6; ++i)
        other->send(servers());
    QCOMPARE(places.inFlight(endpoint), 3);
    QTRY_COMPARE_WITH_TIMEOUT(m_fixture->sim.requestCount(QStringLiteral("compute")) - before, 13, 5000);
    other.reset();
    QCOMPARE(places.waiting(endpoint), 0);
    QTRY_COMPARE(places.inFlight(endpoint), 0);
    // And the endpoint answers the next at once.
    const ApiResponse r = run(servers());
    QVERIFY2(r.ok(), qPrintable(r.error.toString()));
    m_client->setEndpointSlots(&EndpointSlots::shared());
}

QTEST_GUILESS_MAIN(TestHttpClient)
#include "tst_httpclient.moc"
