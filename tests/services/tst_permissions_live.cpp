// Know before you click (diagnosis.md §8), live: every repair kind Flightdeck plans, judged for the demo
// world's reader, member and admin and for an application credential restricted to reading, then sent as
// it stands to the simulated services (which enforce the default policies' roles and the credential's
// access rules on their own): the verdict equals the outcome in every cell. Flightdeck's own path never
// sends a denied request; this test sends each one itself, to prove the services would have refused it.
#include "core/diagnosis.h"
#include "core/permission.h"
#include "core/repairplanner.h"
#include "services/openstack/klusterfetcher.h"
#include "tests/common/repairkinds.h"
#include "tests/simulator/simcloud.h"
#include "tests/simulator/simfixture.h"

#include <QJsonDocument>

class TestPermissionsLive : public QObject
{
    Q_OBJECT
private slots:
    void verdictIsOutcome_data();
    void verdictIsOutcome();
};

Q_DECLARE_METATYPE(KlusterFetch)

void TestPermissionsLive::verdictIsOutcome_data()
{
    QTest::addColumn<QString>("user");
    QTest::addColumn<bool>("readOnlyCredential");
    QTest::addColumn<QStringList>("allowedKinds"); // the repair kinds whose every request is allowed
    const QStringList projectChanges { QStringLiteral("DeleteInstance"), QStringLiteral("AddSecurityGroup"),
        QStringLiteral("CreateSecurityGroupRule"), QStringLiteral("AddRoutes"),
        QStringLiteral("RemoveRoutes"), QStringLiteral("ChangeRoutes"), QStringLiteral("StartInstance"),
        QStringLiteral("AddAddressPair"), QStringLiteral("RenewRoutes") };
    const QStringList devices { QStringLiteral("SyncDevices"), QStringLiteral("ResetDevices") };
    QTest::newRow("reader") << QStringLiteral("reader") << false << QStringList();
    QTest::newRow("member") << QStringLiteral("member") << false << projectChanges;
    QTest::newRow("admin") << QStringLiteral("admin") << false << projectChanges + devices;
    // The cloud's own rule for the ASR driver's API (SAP's role:cloud_network_admin), and nothing else.
    QTest::newRow("cloud network admin") << QStringLiteral("netadmin") << false << devices;
    QTest::newRow("read-only application credential") << QStringLiteral("demo") << true << QStringList();
}

void TestPermissionsLive::verdictIsOutcome()
{
    QFETCH(QString, user);
    QFETCH(bool, readOnlyCredential);
    QFETCH(QStringList, allowedKinds);
    SimFixture f;
    CloudConfig cloud = simCloud(f.sim);
    cloud.username = user;
    if (readOnlyCredential) {
        cloud.authType = QStringLiteral("v3applicationcredential");
        cloud.applicationCredentialId = QStringLiteral("7c2d8f1e3a9b4c5d8e6f1a2b3c4d5e6f");
        cloud.applicationCredentialSecret = QStringLiteral("flightdeck-readonly-secret");
    }
    HttpClient client;
    KeystoneSession session(&client, cloud);
    KlusterFetcher fetcher(&session, QStringLiteral("demo"));
    QSignalSpy spy(&fetcher, &KlusterFetcher::finished);
    fetcher.start();
    QVERIFY(spy.wait(60000));
    const KlusterFetch fetch = spy.first().first().value<KlusterFetch>();
    QVERIFY2(fetch.state.klusterSource.known, qPrintable(fetch.state.klusterSource.error));
    QVERIFY(fetch.state.tokenSource.known);
    QVERIFY(fetch.state.credentials);
    QCOMPARE(fetch.state.credentials->identity.userName, user);
    QCOMPARE(fetch.state.credentials->identity.accessRules.has_value(), readOnlyCredential);
    const Diagnosis diagnosis = Diagnosis::run(fetch.state, DiagnosisOptions());

    // Every kind: the findings' own plans, and the kinds the demo world has no finding for.
    QList<RepairPlan> plans = RepairKinds::plansOf(fetch.state, diagnosis);
    const KlusterState &s = fetch.state;
    QSet<QString> kindsSeen;
    int writesDenied = 0;
    for (RepairPlan &plan : plans) {
        Credentials::judgePlan(plan, s.credentials.get());
        const QString kind = RepairKinds::name(plan.action);
        kindsSeen.insert(kind);
        for (const PlannedRequest &r : std::as_const(plan.requests)) {
            const QString cell
                = QStringLiteral("%1 × %2: %3 (%4)")
                      .arg(user, kind, r.summary(), Permissions::name(r.permission.permission));
            if (r.service == QLatin1String("kubernetes")) {
                // The kluster's API server decides (RBAC): not Keystone's, never judged here.
                QCOMPARE(r.permission.permission, Permission::Unknown);
                continue;
            }
            QVERIFY2(r.permission.permission != Permission::Unknown, qPrintable(cell));
            QCOMPARE(r.permission.permission == Permission::Allowed, allowedKinds.contains(kind));
            if (plan.refusal != Refusal::NotPermitted && plan.refusal != Refusal::None)
                continue; // refused for another reason (a full router): not sent by anyone
            HttpCall *call = session.send(
                r.service, r.method.toUtf8(), r.path, RepairKinds::bodyOf(r), RepairKinds::headersOf(r));
            QSignalSpy answered(call, &HttpCall::finished);
            QVERIFY(answered.wait(20000));
            const ApiResponse response = answered.first().first().value<ApiResponse>();
            const bool refused = response.status == 401 || response.status == 403;
            QVERIFY2(refused == r.permission.denied(),
                qPrintable(cell
                    + QStringLiteral(": the service answered %1 %2")
                          .arg(response.status)
                          .arg(response.error.toString())));
            writesDenied += refused ? 1 : 0;
        }
    }
    for (const QString &kind : RepairKinds::all())
        QVERIFY2(kindsSeen.contains(kind), qPrintable(kind));
    if (allowedKinds.isEmpty())
        QVERIFY(writesDenied > 10);
}

QTEST_GUILESS_MAIN(TestPermissionsLive)
#include "tst_permissions_live.moc"
