// Know before you click (diagnosis.md §8), live: every repair kind Flightdeck plans, judged for the demo
// world's reader, member and admin and for an application credential restricted to reading, then sent as
// it stands to the simulated services (which enforce the default policies' roles and the credential's
// access rules on their own): the verdict equals the outcome in every cell. Flightdeck's own path never
// sends a denied request; this test sends each one itself, to prove the services would have refused it.
#include "core/diagnosis.h"
#include "core/permission.h"
#include "core/repairplanner.h"
#include "services/openstack/klusterfetcher.h"
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

static QString actionName(RepairPlan::Action action)
{
    switch (action) {
    case RepairPlan::Action::DeleteInstance:
        return QStringLiteral("DeleteInstance");
    case RepairPlan::Action::AddSecurityGroup:
        return QStringLiteral("AddSecurityGroup");
    case RepairPlan::Action::CreateSecurityGroupRule:
        return QStringLiteral("CreateSecurityGroupRule");
    case RepairPlan::Action::RemoveRoutes:
        return QStringLiteral("RemoveRoutes");
    case RepairPlan::Action::AddRoutes:
        return QStringLiteral("AddRoutes");
    case RepairPlan::Action::ChangeRoutes:
        return QStringLiteral("ChangeRoutes");
    case RepairPlan::Action::DeleteNode:
        return QStringLiteral("DeleteNode");
    case RepairPlan::Action::StartInstance:
        return QStringLiteral("StartInstance");
    case RepairPlan::Action::AddAddressPair:
        return QStringLiteral("AddAddressPair");
    case RepairPlan::Action::SyncDevices:
        return QStringLiteral("SyncDevices");
    case RepairPlan::Action::ResetDevices:
        return QStringLiteral("ResetDevices");
    case RepairPlan::Action::RenewRoutes:
        return QStringLiteral("RenewRoutes");
    }
    return QString();
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

    // Every kind: the findings' own plans, and the kinds the demo world has no finding for made from its
    // objects as the planner makes them.
    QList<RepairPlan> plans;
    for (const Finding &finding : diagnosis.findings) {
        if (std::optional<RepairPlan> plan = finding.repair())
            plans << *plan;
    }
    const KlusterState &s = fetch.state;
    const Route route = s.router.routes.constFirst();
    const Route spare { QStringLiteral("100.100.250.0/24"), route.nexthop };
    plans << RepairPlanner::startInstance(s.instances.constFirst())
          << RepairPlanner::addAddressPair(s.ports.constFirst(), QStringLiteral("100.100.0.0/16"), true)
          << RepairPlanner::changeRoutes(s.router, { route }, { spare }, true)
          << RepairPlanner::renewRoutes(s.router, { route }, true) << RepairPlanner::syncDevices(s.router, {})
          << RepairPlanner::resetDevices(s.router, {}, {});
    QSet<QString> kindsSeen;
    int writesDenied = 0;
    for (RepairPlan &plan : plans) {
        Credentials::judgePlan(plan, s.credentials.get());
        const QString kind = actionName(plan.action);
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
            QList<QPair<QByteArray, QByteArray>> headers;
            for (auto it = r.headers.begin(); it != r.headers.end(); ++it)
                headers.append({ it.key().toUtf8(), it.value().toString().toUtf8() });
            HttpCall *call = session.send(r.service, r.method.toUtf8(), r.path,
                r.body.isNull() ? QByteArray()
                                : QJsonDocument(r.body.toObject()).toJson(QJsonDocument::Compact),
                headers);
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
    for (const QString &kind : { QStringLiteral("DeleteInstance"), QStringLiteral("AddSecurityGroup"),
             QStringLiteral("CreateSecurityGroupRule"), QStringLiteral("AddRoutes"),
             QStringLiteral("RemoveRoutes"), QStringLiteral("DeleteNode"), QStringLiteral("StartInstance"),
             QStringLiteral("AddAddressPair"), QStringLiteral("SyncDevices"), QStringLiteral("ResetDevices"),
             QStringLiteral("RenewRoutes"), QStringLiteral("ChangeRoutes") })
        QVERIFY2(kindsSeen.contains(kind), qPrintable(kind));
    if (allowedKinds.isEmpty())
        QVERIFY(writesDenied > 10);
}

QTEST_GUILESS_MAIN(TestPermissionsLive)
#include "tst_permissions_live.moc"
