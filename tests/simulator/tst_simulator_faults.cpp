#include "tests/simulator/simfixture.h"

#include <QElapsedTimer>
#include <QJsonArray>

// Fault injection, per endpoint, from a scenario or through the admin API
// while running.
class TestSimulatorFaults : public QObject
{
    Q_OBJECT
private slots:
    void latency();
    void tooManyRequestsWithRetryAfter();
    void serverErrors();
    void malformedBody();
    void truncatedBody();
    void htmlFromAProxy();
    void droppedConnection();
    void tokenExpiryMidSession();
    void concurrentWriterBetweenReadAndWrite();
    void countAndRemoval();
    void faultsFromTheScenario();
    void kubernetesTooManyRequestsIsPlainText();

private:
    static Reply addFault(SimFixture &f, const QByteArray &json)
    {
        return f.request("POST", f.sim.adminUrl() + QStringLiteral("/faults"), json);
    }
};

void TestSimulatorFaults::latency()
{
    SimFixture f;
    f.token();
    QCOMPARE(addFault(f,
                 R"({"kind": "latency", "service": "compute", "path": "^/v2.1/servers", "latencyMs": 300})")
                 .status,
        201);
    QElapsedTimer timer;
    timer.start();
    QCOMPARE(f.get(f.sim.endpoint(QStringLiteral("compute")) + QStringLiteral("/servers")).status, 200);
    QVERIFY2(timer.elapsed() >= 290, qPrintable(QString::number(timer.elapsed()))); // the delay happened
    // Other services are not slowed.
    QCOMPARE(f.get(f.sim.endpoint(QStringLiteral("network")) + QStringLiteral("/v2.0/routers")).status, 200);
}

void TestSimulatorFaults::tooManyRequestsWithRetryAfter()
{
    SimFixture f;
    f.token();
    addFault(f, R"({"kind": "status", "status": 429, "retryAfter": 2, "service": "compute", "count": 1})");
    Reply r = f.get(f.sim.endpoint(QStringLiteral("compute")) + QStringLiteral("/servers"));
    QCOMPARE(r.status, 429);
    QCOMPARE(r.headers.value("retry-after"), QByteArray("2"));
    QCOMPARE(
        r.json().value(QStringLiteral("overLimit")).toObject().value(QStringLiteral("code")).toInt(), 429);
    QCOMPARE(f.get(f.sim.endpoint(QStringLiteral("compute")) + QStringLiteral("/servers")).status, 200);
    addFault(f,
        R"({"kind": "status", "status": 503, "retryAfter": "Wed, 21 Oct 2026 07:28:00 GMT", "service": "network", "count": 1})");
    r = f.get(f.sim.endpoint(QStringLiteral("network")) + QStringLiteral("/v2.0/routers"));
    QCOMPARE(r.status, 503);
    QCOMPARE(r.headers.value("retry-after"), QByteArray("Wed, 21 Oct 2026 07:28:00 GMT"));
    QVERIFY(r.json().contains(QStringLiteral("NeutronError")));
    // A number past 32 bits is sent as it was asked for (it once became "0": retry at once).
    addFault(f,
        R"({"kind": "status", "status": 429, "retryAfter": 9900214748400, "service": "compute", "count": 1})");
    r = f.get(f.sim.endpoint(QStringLiteral("compute")) + QStringLiteral("/servers"));
    QCOMPARE(r.headers.value("retry-after"), QByteArray("9900214748400"));
}

void TestSimulatorFaults::serverErrors()
{
    SimFixture f;
    f.token();
    addFault(f, R"({"kind": "status", "status": 500, "service": "compute", "count": 1})");
    const Reply r = f.get(f.sim.endpoint(QStringLiteral("compute")) + QStringLiteral("/servers"));
    QCOMPARE(r.status, 500);
    QCOMPARE(
        r.json().value(QStringLiteral("computeFault")).toObject().value(QStringLiteral("code")).toInt(), 500);
}

void TestSimulatorFaults::malformedBody()
{
    SimFixture f;
    f.token();
    addFault(f, R"({"kind": "malformed", "service": "network", "path": "/routers/", "count": 1})");
    const Reply r = f.get(f.sim.endpoint(QStringLiteral("network")) + QStringLiteral("/v2.0/routers/")
        + f.sim.world().routers.first().id);
    QCOMPARE(r.status, 200);
    QJsonParseError error;
    QJsonDocument::fromJson(r.body, &error);
    QVERIFY(error.error != QJsonParseError::NoError);
}

void TestSimulatorFaults::truncatedBody()
{
    SimFixture f;
    f.token();
    addFault(f, R"({"kind": "truncated", "service": "compute", "count": 1})");
    const Reply r = f.get(f.sim.endpoint(QStringLiteral("compute")) + QStringLiteral("/servers/detail"));
    // The connection closes before Content-Length bytes arrived.
    QVERIFY2(r.error != QNetworkReply::NoError || QJsonDocument::fromJson(r.body).isNull(),
        qPrintable(r.errorString));
}

void TestSimulatorFaults::htmlFromAProxy()
{
    SimFixture f;
    f.token();
    addFault(f, R"({"kind": "html", "service": "kubernikus", "count": 1})");
    const Reply r = f.get(f.sim.endpoint(QStringLiteral("kubernikus")) + QStringLiteral("/api/v1/clusters"));
    QCOMPARE(r.status, 502);
    QCOMPARE(r.headers.value("content-type"), QByteArray("text/html"));
    QVERIFY(r.body.contains("<h1>502 Bad Gateway</h1>"));
}

void TestSimulatorFaults::droppedConnection()
{
    SimFixture f;
    f.token();
    // Every time: HTTP clients may resend an idempotent request once on a
    // connection closed without an answer.
    const QString id = addFault(f, R"({"kind": "drop", "service": "network"})")
                           .json()
                           .value(QStringLiteral("id"))
                           .toString();
    const Reply r = f.get(f.sim.endpoint(QStringLiteral("network")) + QStringLiteral("/v2.0/routers"));
    QVERIFY2(r.error != QNetworkReply::NoError, qPrintable(r.errorString));
    QCOMPARE(r.status, 0);
    QCOMPARE(f.request("DELETE", f.sim.adminUrl() + QStringLiteral("/faults/") + id).status, 204);
    QCOMPARE(f.get(f.sim.endpoint(QStringLiteral("network")) + QStringLiteral("/v2.0/routers")).status, 200);
}

void TestSimulatorFaults::tokenExpiryMidSession()
{
    SimFixture f;
    QCOMPARE(f.get(f.sim.endpoint(QStringLiteral("compute")) + QStringLiteral("/servers")).status, 200);
    QCOMPARE(f.request("POST", f.sim.adminUrl() + QStringLiteral("/tokens/expire")).status, 204);
    QCOMPARE(f.get(f.sim.endpoint(QStringLiteral("compute")) + QStringLiteral("/servers")).status, 401);
    f.forgetToken();
    QCOMPARE(f.get(f.sim.endpoint(QStringLiteral("compute")) + QStringLiteral("/servers")).status, 200);
    // And as a fault rule, on the next matching request.
    addFault(f, R"({"kind": "expire-tokens", "service": "network", "count": 1})");
    QCOMPARE(f.get(f.sim.endpoint(QStringLiteral("network")) + QStringLiteral("/v2.0/routers")).status, 401);
}

void TestSimulatorFaults::concurrentWriterBetweenReadAndWrite()
{
    SimFixture f;
    const QString url = f.sim.endpoint(QStringLiteral("network")) + QStringLiteral("/v2.0/routers/")
        + f.sim.world().klusters.first().routerId;
    const QJsonObject router = f.get(url).json().value(QStringLiteral("router")).toObject();
    addFault(f, R"({"kind": "concurrent-write", "service": "network", "method": "PUT", "count": 1})");
    QJsonArray routes = router.value(QStringLiteral("routes")).toArray();
    routes.removeAt(0);
    const Reply r = f.request("PUT", url,
        QJsonDocument(QJsonObject { { QStringLiteral("router"),
                          QJsonObject { { QStringLiteral("routes"), routes } } } })
            .toJson(),
        { { "If-Match",
            "revision_number="
                + QByteArray::number(router.value(QStringLiteral("revision_number")).toInteger()) } },
        true);
    QCOMPARE(r.status, 412);
    // The other writer's route is there; nothing was overwritten.
    const QJsonArray now = f.get(url)
                               .json()
                               .value(QStringLiteral("router"))
                               .toObject()
                               .value(QStringLiteral("routes"))
                               .toArray();
    QCOMPARE(now.size(), router.value(QStringLiteral("routes")).toArray().size() + 1);
}

void TestSimulatorFaults::countAndRemoval()
{
    SimFixture f;
    f.token();
    const Reply added = addFault(f, R"({"kind": "status", "status": 503, "service": "compute"})");
    const QString id = added.json().value(QStringLiteral("id")).toString();
    for (int i = 0; i < 3; ++i)
        QCOMPARE(f.get(f.sim.endpoint(QStringLiteral("compute")) + QStringLiteral("/servers")).status, 503);
    const Reply list = f.request("GET", f.sim.adminUrl() + QStringLiteral("/faults"));
    QCOMPARE(list.json()
                 .value(QStringLiteral("faults"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(QStringLiteral("hits"))
                 .toInt(),
        3);
    QCOMPARE(f.request("DELETE", f.sim.adminUrl() + QStringLiteral("/faults/") + id).status, 204);
    QCOMPARE(f.get(f.sim.endpoint(QStringLiteral("compute")) + QStringLiteral("/servers")).status, 200);
    QCOMPARE(addFault(f, R"({"kind": "explode"})").status, 400);
}

void TestSimulatorFaults::faultsFromTheScenario()
{
    QJsonObject scenario = QJsonDocument::fromJson(Scenario::defaultScenario()).object();
    scenario.insert(QStringLiteral("faults"),
        QJsonArray { QJsonObject { { QStringLiteral("kind"), QStringLiteral("status") },
            { QStringLiteral("status"), 503 }, { QStringLiteral("service"), QStringLiteral("kubernikus") },
            { QStringLiteral("path"), QStringLiteral("^/api/v1/clusters$") } } });
    SimFixture f(QJsonDocument(scenario).toJson());
    QCOMPARE(
        f.get(f.sim.endpoint(QStringLiteral("kubernikus")) + QStringLiteral("/api/v1/clusters")).status, 503);
    QCOMPARE(
        f.get(f.sim.endpoint(QStringLiteral("kubernikus")) + QStringLiteral("/api/v1/clusters/demo")).status,
        200);
}

void TestSimulatorFaults::kubernetesTooManyRequestsIsPlainText()
{
    SimFixture f;
    addFault(f, R"({"kind": "status", "status": 429, "retryAfter": 1, "service": "kubernetes", "count": 1})");
    const Reply r
        = f.request("GET", f.sim.kubernetesUrl(QStringLiteral("demo")) + QStringLiteral("/api/v1/nodes"),
            QByteArray(), {}, false, f.kubernetesTls());
    QCOMPARE(r.status, 429);
    QCOMPARE(r.headers.value("retry-after"), QByteArray("1"));
    QVERIFY(r.body.startsWith("Too many requests"));
}

QTEST_GUILESS_MAIN(TestSimulatorFaults)
#include "tst_simulator_faults.moc"
