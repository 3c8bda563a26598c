#include "services/http/endpointhealth.h"
#include "services/openstack/keystonesession.h"
#include "tests/simulator/simcloud.h"
#include "tests/simulator/simfixture.h"

#include <QTimer>

// Keystone sessions against the simulated Keystone: both kinds of login,
// token reuse, transparent re-authentication, endpoint choice.
class TestKeystoneSession : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void passwordLoginAndCatalog();
    void applicationCredentialLogin();
    void applicationCredentialCreatedThroughTheApi();
    void tokenReused();
    void expiredTokenMidRunReauthenticatesOnce();
    void wrongPassword();
    void tokenRetriedOn503();
    void missingEndpoint();
    void regionChoice();
    void handlesFinishWhenTheTokenIsFresh();
    void cancelDuringReauthentication();

private:
    CloudConfig passwordCloud() const { return simCloud(m_fixture->sim); }
    ApiResponse wait(HttpCall *call)
    {
        QSignalSpy spy(call, &HttpCall::finished);
        if (!spy.wait(20000))
            qFatal("no answer");
        return spy.first().first().value<ApiResponse>();
    }

    std::unique_ptr<SimFixture> m_fixture;
    HttpClient m_client;
};

void TestKeystoneSession::init()
{
    // A simulator of an earlier test may have listened on the same port: its failures are not this one's.
    EndpointHealth::shared().reset();
    qRegisterMetaType<ApiResponse>();
    m_fixture = std::make_unique<SimFixture>();
}

void TestKeystoneSession::passwordLoginAndCatalog()
{
    KeystoneSession session(&m_client, passwordCloud());
    const ApiResponse r = wait(session.authenticate());
    QVERIFY2(r.ok(), qPrintable(r.error.toString()));
    QVERIFY(session.hasToken());
    QCOMPARE(session.userName(), QStringLiteral("demo"));
    QCOMPARE(session.projectName(), QStringLiteral("flightdeck-demo"));
    QCOMPARE(session.endpoint(QStringLiteral("compute")), m_fixture->sim.endpoint(QStringLiteral("compute")));
    QCOMPARE(session.endpoint(QStringLiteral("kubernikus")),
        m_fixture->sim.endpoint(QStringLiteral("kubernikus")));
    const ApiResponse servers
        = wait(session.send(QStringLiteral("compute"), "GET", QStringLiteral("/servers")));
    QVERIFY2(servers.ok(), qPrintable(servers.error.toString()));
}

void TestKeystoneSession::applicationCredentialLogin()
{
    CloudConfig c;
    c.name = QStringLiteral("sim-ci");
    c.authType = QStringLiteral("v3applicationcredential");
    c.authUrl = m_fixture->sim.authUrl();
    c.applicationCredentialId = QStringLiteral("6b1c7e0d2f8a4b3c9d5e0f1a2b3c4d5e");
    c.applicationCredentialSecret = QStringLiteral("flightdeck-demo-secret");
    KeystoneSession session(&m_client, c);
    const ApiResponse r
        = wait(session.send(QStringLiteral("network"), "GET", QStringLiteral("/v2.0/routers")));
    QVERIFY2(r.ok(), qPrintable(r.error.toString()));
    QCOMPARE(session.projectName(), QStringLiteral("flightdeck-demo"));
}

void TestKeystoneSession::applicationCredentialCreatedThroughTheApi()
{
    KeystoneSession password(&m_client, passwordCloud());
    QVERIFY(wait(password.authenticate()).ok());
    QString userId;
    for (const SimUser &u : m_fixture->sim.world().users) {
        if (u.name == QLatin1String("demo"))
            userId = u.id;
    }
    const ApiResponse created = wait(password.send(QStringLiteral("identity"), "POST",
        QStringLiteral("/users/%1/application_credentials").arg(userId),
        R"({"application_credential": {"name": "made-by-test"}})"));
    QVERIFY2(created.ok(), qPrintable(created.error.toString()));
    const QJsonObject cred = QJsonDocument::fromJson(created.body)
                                 .object()
                                 .value(QStringLiteral("application_credential"))
                                 .toObject();
    CloudConfig c;
    c.name = QStringLiteral("made");
    c.authType = QStringLiteral("v3applicationcredential");
    c.authUrl = m_fixture->sim.authUrl();
    c.applicationCredentialId = cred.value(QStringLiteral("id")).toString();
    c.applicationCredentialSecret = cred.value(QStringLiteral("secret")).toString();
    KeystoneSession session(&m_client, c);
    QVERIFY(wait(session.authenticate()).ok());
}

void TestKeystoneSession::tokenReused()
{
    KeystoneSession session(&m_client, passwordCloud());
    for (int i = 0; i < 3; ++i)
        QVERIFY(wait(session.send(QStringLiteral("compute"), "GET", QStringLiteral("/servers"))).ok());
    QCOMPARE(session.authentications(), 1);
}

void TestKeystoneSession::expiredTokenMidRunReauthenticatesOnce()
{
    KeystoneSession session(&m_client, passwordCloud());
    QVERIFY(wait(session.send(QStringLiteral("compute"), "GET", QStringLiteral("/servers"))).ok());
    QCOMPARE(
        m_fixture->request("POST", m_fixture->sim.adminUrl() + QStringLiteral("/tokens/expire")).status, 204);
    const ApiResponse r
        = wait(session.send(QStringLiteral("network"), "GET", QStringLiteral("/v2.0/routers")));
    QVERIFY2(r.ok(), qPrintable(r.error.toString()));
    QCOMPARE(session.authentications(), 2);
}

void TestKeystoneSession::wrongPassword()
{
    CloudConfig c = passwordCloud();
    c.password = QStringLiteral("wrong");
    KeystoneSession session(&m_client, c);
    const ApiResponse r = wait(session.send(QStringLiteral("compute"), "GET", QStringLiteral("/servers")));
    QCOMPARE(r.error.kind, Error::Kind::Auth);
    QVERIFY2(r.error.toString().contains(QStringLiteral("requires authentication")),
        qPrintable(r.error.toString()));
    QVERIFY(!r.error.toString().contains(QStringLiteral("wrong"))); // never the secret
}

void TestKeystoneSession::tokenRetriedOn503()
{
    // Asking for a token changes nothing: one 503 (or 429) from Keystone no longer fails a whole check.
    QCOMPARE(
        m_fixture
            ->request("POST", m_fixture->sim.adminUrl() + QStringLiteral("/faults"),
                R"({"kind": "status", "status": 503, "retryAfter": "0", "service": "keystone", "method": "POST", "count": 1})")
            .status,
        201);
    KeystoneSession session(&m_client, passwordCloud());
    const ApiResponse r = wait(session.send(QStringLiteral("compute"), "GET", QStringLiteral("/servers")));
    QVERIFY2(r.ok(), qPrintable(r.error.toString()));
    // A lasting outage is still reported, after a bounded number of tries.
    QCOMPARE(
        m_fixture
            ->request("POST", m_fixture->sim.adminUrl() + QStringLiteral("/faults"),
                R"({"kind": "status", "status": 503, "retryAfter": "0", "service": "keystone", "method": "POST"})")
            .status,
        201);
    KeystoneSession again(&m_client, passwordCloud());
    const ApiResponse down = wait(again.send(QStringLiteral("compute"), "GET", QStringLiteral("/servers")));
    QVERIFY(!down.ok());
    QVERIFY2(down.error.toString().contains(QStringLiteral("503")), qPrintable(down.error.toString()));
}

void TestKeystoneSession::missingEndpoint()
{
    KeystoneSession session(&m_client, passwordCloud());
    const ApiResponse r = wait(session.send(QStringLiteral("object-store"), "GET", QStringLiteral("/v1")));
    QCOMPARE(r.error.kind, Error::Kind::Config);
    QVERIFY(r.error.toString().contains(QStringLiteral("no object-store endpoint")));
}

void TestKeystoneSession::regionChoice()
{
    CloudConfig c = passwordCloud();
    c.regionName = QStringLiteral("RegionTwo");
    KeystoneSession session(&m_client, c);
    const ApiResponse r = wait(session.send(QStringLiteral("compute"), "GET", QStringLiteral("/servers")));
    QCOMPARE(r.error.kind, Error::Kind::Config);
    QVERIFY(r.error.toString().contains(QStringLiteral("region RegionTwo")));
}

void TestKeystoneSession::handlesFinishWhenTheTokenIsFresh()
{
    KeystoneSession session(&m_client, passwordCloud());
    QVERIFY(wait(session.authenticate()).ok());
    QVERIFY(wait(session.authenticate()).ok()); // a fresh token: still finishes, later
    QCOMPARE(wait(session.send(QStringLiteral("object-store"), "GET", QStringLiteral("/v1"))).error.kind,
        Error::Kind::Config);
}

void TestKeystoneSession::cancelDuringReauthentication()
{
    KeystoneSession session(&m_client, passwordCloud());
    QVERIFY(wait(session.authenticate()).ok());
    QCOMPARE(
        m_fixture->request("POST", m_fixture->sim.adminUrl() + QStringLiteral("/tokens/expire")).status, 204);
    QCOMPARE(m_fixture
                 ->request("POST", m_fixture->sim.adminUrl() + QStringLiteral("/faults"),
                     R"({"kind": "latency", "latencyMs": 1500, "service": "keystone"})")
                 .status,
        201);
    HttpCall *call = session.send(QStringLiteral("compute"), "GET", QStringLiteral("/servers"));
    QSignalSpy spy(call, &HttpCall::finished);
    QTimer::singleShot(500, call, &HttpCall::cancel); // the 401 came back; re-authentication is under way
    QVERIFY(spy.wait(5000));
    QCOMPARE(spy.first().first().value<ApiResponse>().error.kind, Error::Kind::Cancelled);
    QTest::qWait(1500); // the authentication ends after the cancel: nothing may touch the dead call
}

QTEST_GUILESS_MAIN(TestKeystoneSession)
#include "tst_keystonesession.moc"
