#include "tests/app/clifixture.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <sys/stat.h>

// flightdeck-cli against the simulated cloud, as a person or a script runs
// it: live check, snapshot, klusters, and repair for every kind that has one
// (plan, dry run, refusals, execution, verification, audit).
class TestCliLive : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void klusters();
    void liveCheckEqualsSnapshotCheck();
    void repairEveryKind();
    void severalFindingsAsOneChange_data();
    void severalFindingsAsOneChange();
    void severalFindingsByName();
    void incidentRepairedByItsId();
    void refusedByTheBudgetUnlessOverridden();
    void refusedWithoutEvidence();
    void concurrentWriterLosesNoRoute();
    void planChangedBeforeSendingIsPrintedNotSent();
    void klusterUnreadableBeforeSendingSendsNothing();
    void portPairAddedKeepingAConcurrentWritersPair();
    void zoneDisruptionRefusesDeletionUnlessOverridden();
    void everyIncidentRuleCausedLive_data();
    void everyIncidentRuleCausedLive();
    void authenticationFailureExits3();
    void noSecretInAnyFile();
    void deadlineEndsACheck();
    void deadlineDuringARequestIsNoRequestNotSent();
    void namesFromTheCloudNeverDriveTheTerminal();
    void snapshotIntoAPreparedFolderOverwritesNothing();

private:
    using Run = CliFixture::Run;
    Run cli(const QStringList &args) { return m_cli->cli(args); }
    QStringList findingIds(const QString &kluster) { return m_cli->findingIds(kluster); }
    QList<QJsonObject> audit() { return m_cli->audit(); }

    static constexpr const char *Password = CliFixture::Password;
    std::unique_ptr<CliFixture> m_cli;
    SimFixture *m_fixture = nullptr; // m_cli's
};

void TestCliLive::init()
{
    m_cli = std::make_unique<CliFixture>();
    m_fixture = &m_cli->sim;
}

void TestCliLive::cleanup()
{
    m_fixture = nullptr;
    m_cli.reset();
}

void TestCliLive::klusters()
{
    const Run r = cli({ QStringLiteral("klusters"), QStringLiteral("--cloud"), QStringLiteral("sim") });
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains(QStringLiteral("legacy")) && r.out.contains(QStringLiteral("198.19.0.0/16")));
    QCOMPARE(r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts).size(), 7); // a heading and six klusters
    // A broken answer is no empty list.
    QCOMPARE(m_fixture
                 ->request("POST", m_fixture->sim.adminUrl() + QStringLiteral("/faults"),
                     R"({"kind": "html", "service": "kubernikus"})")
                 .status,
        201);
    const Run broken = cli({ QStringLiteral("klusters"), QStringLiteral("--cloud"), QStringLiteral("sim") });
    QCOMPARE(broken.exitCode, 3);
    QVERIFY2(broken.err.contains(QStringLiteral("502 Bad Gateway")), qPrintable(broken.err));
}

void TestCliLive::liveCheckEqualsSnapshotCheck()
{
    // edge's snapshot holds ports.json: its port-address-pair-missing is found offline as live.
    for (const QString &kluster : { QStringLiteral("demo"), QStringLiteral("legacy"), QStringLiteral("blue"),
             QStringLiteral("edge") }) {
        const Run live = cli({ QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("sim"),
            QStringLiteral("--kluster"), kluster, QStringLiteral("--format"), QStringLiteral("json") });
        QCOMPARE(live.exitCode, 2);
        const QString dir = m_cli->home.filePath(QStringLiteral("snap-") + kluster);
        const Run snap = cli({ QStringLiteral("snapshot"), QStringLiteral("--cloud"), QStringLiteral("sim"),
            QStringLiteral("--kluster"), kluster, QStringLiteral("--out"), dir });
        QVERIFY2(snap.exitCode == 0, qPrintable(snap.err));
        const Run offline = cli({ QStringLiteral("check"), QStringLiteral("--snapshot"), dir,
            QStringLiteral("--format"), QStringLiteral("json") });
        QCOMPARE(offline.exitCode, 2);
        auto ids = [](const QString &json) {
            QStringList list;
            for (const QJsonValue &f :
                QJsonDocument::fromJson(json.toUtf8()).object().value(QStringLiteral("findings")).toArray())
                list << f.toObject().value(QStringLiteral("id")).toString();
            return list;
        };
        QVERIFY(!ids(live.out).isEmpty());
        QCOMPARE(ids(offline.out), ids(live.out));
        QVERIFY(QFile::exists(dir + QStringLiteral("/ports.json")));
    }
    QVERIFY(findingIds(QStringLiteral("edge"))
                .contains(QStringLiteral("port-address-pair-missing:kks-edge-pool-e3c4d")));
}

void TestCliLive::repairEveryKind()
{
    const QList<QPair<QString, QString>> repairs = {
        { QStringLiteral("demo"), QStringLiteral("instance-unregistered:kks-demo-pool-z8b1n") },
        { QStringLiteral("demo"), QStringLiteral("instance-error:kks-demo-pool-t5y6u") },
        { QStringLiteral("demo"), QStringLiteral("instance-missing-security-group:demo-pool-r3s4d") },
        { QStringLiteral("demo"), QStringLiteral("security-group-rule-missing:tcp") },
        { QStringLiteral("legacy"), QStringLiteral("route-duplicate:198.19.1.0/24") },
        { QStringLiteral("legacy"), QStringLiteral("route-stale:198.19.2.0/24 via 10.180.0.5") },
        { QStringLiteral("legacy"), QStringLiteral("route-orphaned:198.19.7.0/24 via 10.180.0.99") },
        { QStringLiteral("legacy"), QStringLiteral("route-missing:kks-legacy-default-k7l8m") },
        { QStringLiteral("demo"), QStringLiteral("route-unassigned:100.100.31.0/24 via 10.180.0.41") },
        { QStringLiteral("blue"), QStringLiteral("instance-stopped:kks-blue-pool-f7g6h") },
        { QStringLiteral("edge"), QStringLiteral("port-address-pair-missing:kks-edge-pool-e3c4d") },
        { QStringLiteral("demo"), QStringLiteral("node-without-instance:kks-demo-pool-g4h0s") },
    };
    for (const auto &repair : repairs) {
        const QStringList base = { QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim"),
            QStringLiteral("--kluster"), repair.first, QStringLiteral("--finding"), repair.second };
        QVERIFY2(findingIds(repair.first).contains(repair.second), qPrintable(repair.second));
        // Without --yes: the plan, and nothing sent.
        Run r = cli(base);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("Plan: "))
                && r.out.contains(QStringLiteral("Dry run: nothing was sent")),
            qPrintable(r.out));
        QVERIFY(findingIds(repair.first).contains(repair.second));
        // With --yes: sent, verified, audited.
        const int records = int(audit().size());
        r = cli(base + QStringList { QStringLiteral("--yes") });
        QVERIFY2(r.exitCode == 0,
            qPrintable(QStringLiteral("%1: exit %2\nstderr: %3\nstdout: %4")
                           .arg(repair.second)
                           .arg(r.exitCode)
                           .arg(r.err.left(3000), r.out.right(500))));
        QVERIFY2(r.out.contains(QStringLiteral("Result: fixed")), qPrintable(r.out));
        QVERIFY(!findingIds(repair.first).contains(repair.second));
        const QList<QJsonObject> log = audit();
        QCOMPARE(log.size(), records + 1);
        const QJsonObject record = log.last();
        QCOMPARE(record.value(QStringLiteral("finding")).toString(), repair.second);
        QCOMPARE(record.value(QStringLiteral("verification")).toString(), QStringLiteral("fixed"));
        QCOMPARE(record.value(QStringLiteral("user")).toString(), QStringLiteral("demo"));
        QCOMPARE(record.value(QStringLiteral("project")).toString(), QStringLiteral("flightdeck-demo"));
        QVERIFY(!record.value(QStringLiteral("requests")).toArray().isEmpty());
        // Marked once on the kluster's trends, on this machine's clock (it was once written twice).
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("repairs"));
            db.setDatabaseName(m_cli->home.filePath(QStringLiteral("data/flightdeck/history.sqlite")));
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*), MAX(at) FROM repairs WHERE finding = '%1'")
                               .arg(repair.second)));
            QVERIFY(q.next());
            QCOMPARE(q.value(0).toInt(), 1);
            QVERIFY(qAbs(q.value(1).toLongLong() - QDateTime::currentMSecsSinceEpoch()) < 60000);
        }
        QSqlDatabase::removeDatabase(QStringLiteral("repairs"));
        // Idempotent: once more, the finding is gone and nothing is sent.
        r = cli(base + QStringList { QStringLiteral("--yes") });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(QStringLiteral("nothing to repair")));
    }
    // The ghost's node object is gone (a Kubernetes DELETE), its pod CIDR is free, and its route, which led
    // nowhere, now shows for what it is.
    QCOMPARE(audit()
                 .last()
                 .value(QStringLiteral("requests"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(QStringLiteral("service")),
        QStringLiteral("kubernetes"));
    QVERIFY(findingIds(QStringLiteral("demo"))
                .contains(QStringLiteral("route-orphaned:100.100.30.0/24 via 10.180.0.40")));
}

void TestCliLive::severalFindingsAsOneChange_data()
{
    QTest::addColumn<bool>("atomic");
    QTest::newRow("extraroute-atomic") << true;
    QTest::newRow("guarded full list") << false;
}

void TestCliLive::severalFindingsAsOneChange()
{
    QFETCH(bool, atomic);
    QCOMPARE(m_fixture
                 ->request("POST", m_fixture->sim.adminUrl() + QStringLiteral("/settings"),
                     atomic ? R"({"extraRouteAtomic": true})" : R"({"extraRouteAtomic": false})")
                 .status,
        204);
    const QStringList base = { QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("legacy"), QStringLiteral("--all-routes") };
    QStringList routeFindings;
    for (const QString &id : findingIds(QStringLiteral("legacy"))) {
        if (id.startsWith(QLatin1String("route-")) && !id.startsWith(QLatin1String("route-limit:")))
            routeFindings << id;
    }
    QCOMPARE(routeFindings.size(), 5); // duplicate, stale, orphaned, two missing
    // The dry run: one change, the list before and after, the exact requests.
    Run r = cli(base);
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains(QStringLiteral("One change of the router for 5 findings")), qPrintable(r.out));
    QVERIFY(r.out.contains(QStringLiteral("before and after (- removed, + added)")));
    QVERIFY(r.out.contains(QStringLiteral("  - 198.19.7.0/24 via 10.180.0.99")));
    if (atomic) {
        QCOMPARE(r.out.count(QStringLiteral("/remove_extraroutes")), 1);
        QCOMPARE(r.out.count(QStringLiteral("/add_extraroutes")), 1);
        QVERIFY(r.out.indexOf(QStringLiteral("/remove_extraroutes"))
            < r.out.indexOf(QStringLiteral("/add_extraroutes")));
    } else {
        QCOMPARE(r.out.count(QStringLiteral("[If-Match: revision_number=")), 1);
    }
    QCOMPARE(findingIds(QStringLiteral("legacy")).size(), routeFindings.size() + 2); // nothing sent
    const qint64 revision
        = m_fixture->sim.world()
              .routers.at(m_fixture->sim.world().routerIndex(m_fixture->sim.world().klusters.at(1).routerId))
              .revision;
    // Sent: one change, verified once, one audit record naming every finding.
    const int records = int(audit().size());
    r = cli(base + QStringList { QStringLiteral("--yes") });
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains(QStringLiteral("Result: fixed")), qPrintable(r.out));
    const QList<QJsonObject> log = audit();
    QCOMPARE(log.size(), records + 1);
    QCOMPARE(log.last().value(QStringLiteral("findings")).toArray().size(), 5);
    QCOMPARE(log.last().value(QStringLiteral("requests")).toArray().size(), atomic ? 2 : 1);
    QCOMPARE(log.last().value(QStringLiteral("verification")).toString(), QStringLiteral("fixed"));
    const qint64 after
        = m_fixture->sim.world()
              .routers.at(m_fixture->sim.world().routerIndex(m_fixture->sim.world().klusters.at(1).routerId))
              .revision;
    QCOMPARE(after - revision, atomic ? 2 : 1); // one change (a pair of atomic calls, or one PUT)
    for (const QString &id : findingIds(QStringLiteral("legacy")))
        QVERIFY2(!routeFindings.contains(id), qPrintable(id));
    // Idempotent: nothing left to change.
    r = cli(base + QStringList { QStringLiteral("--yes") });
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(QStringLiteral("No route finding")), qPrintable(r.out));
}

void TestCliLive::severalFindingsByName()
{
    // --finding twice: the two route changes go as one; a deletion in the batch past an override never.
    const QStringList base = { QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("legacy"), QStringLiteral("--finding"),
        QStringLiteral("route-orphaned:198.19.7.0/24 via 10.180.0.99"), QStringLiteral("--finding"),
        QStringLiteral("route-missing:kks-legacy-default-g5h6j") };
    Run r = cli(base);
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    QVERIFY(r.out.contains(QStringLiteral("One change of the router for 2 findings")));
    r = cli(base + QStringList { QStringLiteral("--yes") });
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    const QStringList now = findingIds(QStringLiteral("legacy"));
    QVERIFY(!now.contains(QStringLiteral("route-orphaned:198.19.7.0/24 via 10.180.0.99")));
    QVERIFY(!now.contains(QStringLiteral("route-missing:kks-legacy-default-g5h6j")));
    QVERIFY(now.contains(QStringLiteral("route-missing:kks-legacy-default-k7l8m"))); // not chosen: untouched
    r = cli(base + QStringList { QStringLiteral("--override") });
    QCOMPARE(r.exitCode, 3);
    QVERIFY(r.err.contains(QStringLiteral("--override")));
}

// The id `check` prints for an incident (and links carry) runs its one repair; one without a repair of its
// own is refused with why (exit 2), never "nothing to repair". --dry-run is the word for what no --yes does.
void TestCliLive::incidentRepairedByItsId()
{
    const QString recycled = QStringLiteral("recycled-pod-cidr:198.19.2.0/24");
    const QStringList base = { QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("legacy"), QStringLiteral("--finding"), recycled };
    Run r = cli(base + QStringList { QStringLiteral("--dry-run") });
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains(QStringLiteral("Dry run: nothing was sent")), qPrintable(r.out));
    QVERIFY(r.out.contains(QStringLiteral("198.19.2.0/24 via 10.180.0.33")));
    r = cli(base + QStringList { QStringLiteral("--dry-run"), QStringLiteral("--yes") });
    QCOMPARE(r.exitCode, 3);
    r = cli(base + QStringList { QStringLiteral("--yes") });
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    QVERIFY(r.out.contains(QStringLiteral("Result: fixed")));
    const Run after = cli({ QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("legacy"), QStringLiteral("--format"),
        QStringLiteral("json") });
    QVERIFY2(!after.out.contains(recycled), qPrintable(after.out.left(600)));
    // Edge's zone is down (no repair of its own), and its full router has no wrong route to take out.
    for (const QString &incident :
        { QStringLiteral("zone-outage:eu-de-1b"), QStringLiteral("router-full:") }) {
        QString id = incident;
        if (id.endsWith(QLatin1Char(':'))) {
            const Run check = cli({ QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("sim"),
                QStringLiteral("--kluster"), QStringLiteral("edge"), QStringLiteral("--format"),
                QStringLiteral("json") });
            for (const QJsonValue i : QJsonDocument::fromJson(check.out.toUtf8())
                                          .object()
                                          .value(QStringLiteral("incidents"))
                                          .toArray())
                if (i.toObject().value(QStringLiteral("id")).toString().startsWith(incident))
                    id = i.toObject().value(QStringLiteral("id")).toString();
            QVERIFY2(id != incident, qPrintable(check.out.left(400)));
        }
        r = cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim"),
            QStringLiteral("--kluster"), QStringLiteral("edge"), QStringLiteral("--finding"), id,
            QStringLiteral("--yes") });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.out.contains(QStringLiteral("Refused: ") + id + QStringLiteral(": No repair")),
            qPrintable(r.out));
    }
}

void TestCliLive::refusedByTheBudgetUnlessOverridden()
{
    const QStringList base = { QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--finding"),
        QStringLiteral("instance-error:kks-demo-pool-t5y6u"), QStringLiteral("--max-unhealthy"),
        QStringLiteral("0"), QStringLiteral("--yes") };
    // The dry run says so too.
    QStringList dry = base;
    dry.removeAll(QStringLiteral("--yes"));
    Run r = cli(dry);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(
        r.out.contains(QStringLiteral("This plan would be refused: TooManyUnhealthy")), qPrintable(r.out));
    r = cli(base);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("TooManyUnhealthy")), qPrintable(r.err));
    QVERIFY(
        findingIds(QStringLiteral("demo")).contains(QStringLiteral("instance-error:kks-demo-pool-t5y6u")));
    r = cli(base + QStringList { QStringLiteral("--override") });
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    QVERIFY(audit().last().value(QStringLiteral("override")).toBool());
}

void TestCliLive::refusedWithoutEvidence()
{
    QCOMPARE(
        m_fixture
            ->request("POST", m_fixture->sim.adminUrl() + QStringLiteral("/faults"),
                R"({"kind": "status", "status": 500, "service": "kubernetes", "path": "^/api/v1/nodes"})")
            .status,
        201);
    const Run r = cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--finding"),
        QStringLiteral("instance-error:kks-demo-pool-t5y6u"), QStringLiteral("--yes") });
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("NoEvidence")), qPrintable(r.err));
    bool present = false;
    for (const SimServer &s : m_fixture->sim.world().servers)
        present = present || s.name == QLatin1String("kks-demo-pool-t5y6u");
    QVERIFY(present);
    // An incomplete snapshot never passes as a complete one.
    const QString snap = m_cli->home.filePath(QStringLiteral("incident"));
    const Run s = cli({ QStringLiteral("snapshot"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--out"), snap });
    QCOMPARE(s.exitCode, 3);
    QVERIFY2(
        s.err.contains(QStringLiteral("incomplete: nodes.json could not be fetched")), qPrintable(s.err));
    QVERIFY(!QFile::exists(snap + QStringLiteral("/servers.json")));
    QVERIFY(QFile::exists(snap + QStringLiteral(".incomplete/servers.json")));
    // A live check with a failed source says so and exits 3: it is no all-clear.
    const Run check = cli({ QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("demo") });
    QCOMPARE(check.exitCode, 3);
    QVERIFY2(check.err.contains(QStringLiteral("nodes: kubernetes: GET /api/v1/nodes: HTTP 500")),
        qPrintable(check.err));
    QVERIFY(check.out.contains(QStringLiteral("NOT DIAGNOSED")));
}

void TestCliLive::concurrentWriterLosesNoRoute()
{
    QCOMPARE(m_fixture
                 ->request("POST", m_fixture->sim.adminUrl() + QStringLiteral("/settings"),
                     R"({"extraRouteAtomic": false})")
                 .status,
        204);
    QCOMPARE(m_fixture
                 ->request("POST", m_fixture->sim.adminUrl() + QStringLiteral("/faults"),
                     R"({"kind": "concurrent-write", "service": "network", "method": "PUT", "count": 1})")
                 .status,
        201);
    const QStringList args = { QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("legacy"), QStringLiteral("--finding"),
        QStringLiteral("route-orphaned:198.19.7.0/24 via 10.180.0.99"), QStringLiteral("--yes") };
    // Someone writes between our read and our write: 412, nothing overwritten, ask again.
    Run r = cli(args);
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.out.contains(QStringLiteral("-> 412")), qPrintable(r.out));
    QVERIFY(r.out.contains(QStringLiteral("[If-Match: revision_number=")));
    QVERIFY2(r.err.contains(QStringLiteral("nothing was overwritten")), qPrintable(r.err));
    QCOMPARE(
        audit().last().value(QStringLiteral("verification")).toString(), QStringLiteral("changed meanwhile"));
    // Confirmed again, on the router as it is now.
    r = cli(args);
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    const SimRouter &router = m_fixture->sim.world().routers.at(
        m_fixture->sim.world().routerIndex(m_fixture->sim.world().klusters.first().routerId));
    bool concurrentRouteKept = false;
    for (const SimRoute &route : router.routes)
        concurrentRouteKept
            = concurrentRouteKept || route.destination.startsWith(QLatin1String("198.51.100."));
    QVERIFY(concurrentRouteKept); // the other writer's route survived
    QVERIFY(
        !router.routes.contains(SimRoute { QStringLiteral("198.19.7.0/24"), QStringLiteral("10.180.0.99") }));
}

// The plan is made once and printed; just before sending, the kluster is read again: another writer has
// changed the router between (the second read of it meets the simulator's concurrent-write), so the same
// choice gives another plan. Nothing is sent, the new plan is printed, exit 2; run again, it is sent.
void TestCliLive::planChangedBeforeSendingIsPrintedNotSent()
{
    QCOMPARE(m_fixture
                 ->request("POST", m_fixture->sim.adminUrl() + QStringLiteral("/settings"),
                     R"({"extraRouteAtomic": false})")
                 .status,
        204);
    const World &world = m_fixture->sim.world();
    const auto router
        = [&world] { return world.routers.at(world.routerIndex(world.klusters.at(1).routerId)); };
    const qint64 revision = router().revision;
    const int records = int(audit().size());
    QCOMPARE(m_fixture
                 ->request("POST", m_fixture->sim.adminUrl() + QStringLiteral("/faults"),
                     R"({"kind": "concurrent-write", "service": "network", "method": "GET",
                         "path": "^/v2.0/routers/", "after": 1, "count": 1})")
                 .status,
        201);
    const QStringList args = { QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("legacy"), QStringLiteral("--all-routes"),
        QStringLiteral("--yes") };
    Run r = cli(args);
    QVERIFY2(r.exitCode == 2, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains(QStringLiteral("Not sent: the plan changed since the kluster was read")),
        qPrintable(r.out));
    QVERIFY2(r.out.contains(QStringLiteral("Nothing was sent.")), qPrintable(r.out));
    // The plan printed twice: as read first, and as it is now (the other writer's revision in its guard).
    QCOMPARE(r.out.count(QStringLiteral("One change of the router for 5 findings")), 2);
    QVERIFY2(
        r.out.contains(QStringLiteral("[If-Match: revision_number=%1]").arg(revision)), qPrintable(r.out));
    QVERIFY2(r.out.contains(QStringLiteral("[If-Match: revision_number=%1]").arg(revision + 1)),
        qPrintable(r.out));
    QVERIFY(!r.out.contains(QStringLiteral("Sending:")));
    QVERIFY2(r.err.contains(QStringLiteral("the plan changed before it was sent")), qPrintable(r.err));
    QCOMPARE(int(audit().size()), records); // nothing written ahead: nothing was about to be sent
    QCOMPARE(router().revision, revision + 1); // only the other writer's change
    // Run again: the plan as it is now is sent, and the other writer's route kept.
    r = cli(args);
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    QCOMPARE(int(audit().size()), records + 1);
    bool kept = false;
    for (const SimRoute &route : router().routes)
        kept = kept || route.destination.startsWith(QLatin1String("198.51.100."));
    QVERIFY(kept);
}

// Kubernikus answers the first read and fails the one just before sending: the plan cannot be checked, so
// nothing is sent and the command fails (3), saying why.
void TestCliLive::klusterUnreadableBeforeSendingSendsNothing()
{
    const int records = int(audit().size());
    QCOMPARE(m_fixture
                 ->request("POST", m_fixture->sim.adminUrl() + QStringLiteral("/faults"),
                     R"({"kind": "status", "status": 503, "service": "kubernikus", "method": "GET",
                         "path": "^/api/v1/clusters/legacy$", "after": 1})")
                 .status,
        201);
    const Run r = cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("legacy"), QStringLiteral("--all-routes"),
        QStringLiteral("--yes") });
    QVERIFY2(r.exitCode == 3, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains(QStringLiteral("nothing was sent: the kluster could not be read again")),
        qPrintable(r.out));
    QVERIFY(!r.out.contains(QStringLiteral("Sending:")));
    QCOMPARE(int(audit().size()), records);
}

void TestCliLive::portPairAddedKeepingAConcurrentWritersPair()
{
    // The cloud provider's update of one of demo's ports is lost (the simulator's admin API), and someone
    // changes that port between our read and our write.
    const Reply caused
        = m_fixture->request("POST", m_fixture->sim.adminUrl() + QStringLiteral("/klusters/demo/cause"),
            R"({"rule": "port-address-pair-missing"})");
    QVERIFY2(caused.status == 200, caused.body.constData());
    QString finding;
    for (const QString &id : findingIds(QStringLiteral("demo"))) {
        if (id.startsWith(QLatin1String("port-address-pair-missing:")))
            finding = id;
    }
    QVERIFY(!finding.isEmpty());
    QCOMPARE(m_fixture
                 ->request("POST", m_fixture->sim.adminUrl() + QStringLiteral("/faults"),
                     R"({"kind": "concurrent-write", "service": "network", "method": "PUT", "count": 1})")
                 .status,
        201);
    const QStringList args = { QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--finding"), finding,
        QStringLiteral("--yes") };
    Run r = cli(args);
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.out.contains(QStringLiteral("-> 412")), qPrintable(r.out));
    QVERIFY(r.out.contains(QStringLiteral("[If-Match: revision_number=")));
    QVERIFY2(r.err.contains(QStringLiteral("the port changed"))
            && r.err.contains(QStringLiteral("nothing was overwritten")),
        qPrintable(r.err));
    QVERIFY(findingIds(QStringLiteral("demo")).contains(finding));
    // Confirmed again, on the port as it is now: the other writer's pair is kept.
    r = cli(args);
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    QVERIFY(r.out.contains(QStringLiteral("Result: fixed")));
    const QString node = finding.section(QLatin1Char(':'), 1);
    const World &world = m_fixture->sim.world();
    const SimPort &port
        = world.ports.at(world.portIndex(world.servers.at(world.serverIndexByName(node)).portId));
    QCOMPARE(port.allowedAddressPairs.size(), 2);
    QVERIFY(port.allowedAddressPairs.first().startsWith(QLatin1String("198.51.100.")));
    QVERIFY(!findingIds(QStringLiteral("demo")).contains(finding));
}

void TestCliLive::zoneDisruptionRefusesDeletionUnlessOverridden()
{
    // edge's zone eu-de-1b is down; the instance there that never registered is one of the outage's members.
    const QString finding = QStringLiteral("instance-unregistered:kks-edge-pool-b7t8u");
    QVERIFY(findingIds(QStringLiteral("edge")).contains(finding));
    const QStringList base = { QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("edge"), QStringLiteral("--finding"), finding,
        QStringLiteral("--yes") };
    Run r = cli(base);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("ZoneDisruption")) && r.err.contains(QStringLiteral("eu-de-1b")),
        qPrintable(r.err));
    QVERIFY(findingIds(QStringLiteral("edge")).contains(finding));
    // The budget itself allows it: the zone is what refuses.
    QVERIFY2(!r.err.contains(QStringLiteral("TooManyUnhealthy")), qPrintable(r.err));
    r = cli(base + QStringList { QStringLiteral("--override") });
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    QVERIFY(audit().last().value(QStringLiteral("override")).toBool());
    QVERIFY(!findingIds(QStringLiteral("edge")).contains(finding));
}

void TestCliLive::everyIncidentRuleCausedLive_data()
{
    QTest::addColumn<QString>("rule");
    for (const char *rule : { "recycled-pod-cidr", "zone-outage", "security-group-detached",
             "pod-network-closed", "router-full", "port-address-pair-missing" })
        QTest::newRow(rule) << QString::fromLatin1(rule);
}

// The simulator's admin API causes each fault on demo, which has none of these incidents: a check over real
// HTTP then names it (an incident, or the finding for the port).
void TestCliLive::everyIncidentRuleCausedLive()
{
    QFETCH(QString, rule);
    auto check = [this] {
        const Run r = cli({ QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("sim"),
            QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--format"),
            QStringLiteral("json") });
        const QJsonObject report = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QStringList ids;
        for (const char *list : { "incidents", "findings" }) {
            for (const QJsonValue &v : report.value(QLatin1String(list)).toArray())
                ids << v.toObject().value(QStringLiteral("id")).toString();
        }
        return ids;
    };
    const auto named = [&rule](const QStringList &ids) {
        return std::any_of(ids.cbegin(), ids.cend(),
            [&rule](const QString &id) { return id.startsWith(rule + QLatin1Char(':')); });
    };
    QVERIFY(!named(check()));
    const Reply caused
        = m_fixture->request("POST", m_fixture->sim.adminUrl() + QStringLiteral("/klusters/demo/cause"),
            QJsonDocument(QJsonObject { { QStringLiteral("rule"), rule } }).toJson());
    QVERIFY2(caused.status == 200, caused.body.constData());
    const QStringList after = check();
    QVERIFY2(named(after), qPrintable(after.join(QLatin1Char('\n'))));
}

void TestCliLive::authenticationFailureExits3()
{
    QFile secure(m_cli->home.filePath(QStringLiteral("config/openstack/secure.yaml")));
    QVERIFY(secure.open(QIODevice::WriteOnly | QIODevice::Truncate));
    secure.write("clouds:\n  sim:\n    auth:\n      password: wrong\n");
    secure.close();
    const Run r = cli({ QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("demo") });
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains(QStringLiteral("authentication failed")), qPrintable(r.err));
    QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
}

void TestCliLive::noSecretInAnyFile()
{
    // Everything the program writes: snapshot, audit log, and whatever else lands in HOME.
    cli({ QStringLiteral("snapshot"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--out"),
        m_cli->home.filePath(QStringLiteral("snap")) });
    cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--finding"),
        QStringLiteral("security-group-rule-missing:tcp"), QStringLiteral("--yes") });
    QVERIFY(!audit().isEmpty());
    int files = 0;
    QDirIterator it(m_cli->home.path(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        if (path.endsWith(QLatin1String("secure.yaml")))
            continue; // the user's own file, read in place
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY2(!bytes.contains(Password), qPrintable(path));
        QVERIFY2(!bytes.contains("gAAAAA"), qPrintable(path)); // Keystone tokens
        QVERIFY2(!bytes.contains("PRIVATE KEY"), qPrintable(path));
        QVERIFY2(!bytes.contains("client-key-data"), qPrintable(path));
        ++files;
    }
    QVERIFY(files >= 8);
}

void TestCliLive::deadlineEndsACheck()
{
    // A server that trickles one byte a second keeps each request alive; the command's deadline ends it.
    QCOMPARE(m_fixture
                 ->request("POST", m_fixture->sim.adminUrl() + QStringLiteral("/faults"),
                     R"({"kind": "trickle", "latencyMs": 1000, "service": "compute"})")
                 .status,
        201);
    QElapsedTimer clock;
    clock.start();
    const Run r = cli({ QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--deadline"),
        QStringLiteral("3s") });
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(
        r.err.contains(QStringLiteral("gave up: not finished within 3 s (--deadline)")), qPrintable(r.err));
    QVERIFY(clock.elapsed() < 30000);
    const Run bad = cli({ QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--deadline"),
        QStringLiteral("soon") });
    QCOMPARE(bad.exitCode, 3);
    QVERIFY(bad.err.contains(QStringLiteral("--deadline")));
}

void TestCliLive::deadlineDuringARequestIsNoRequestNotSent()
{
    // Nova takes 5 s to answer the DELETE; the command's deadline comes first. The request was sent: the
    // cloud may well have carried it out, and the audit says so (it once said "requests sent so far: 0").
    QCOMPARE(m_fixture
                 ->request("POST", m_fixture->sim.adminUrl() + QStringLiteral("/faults"),
                     R"({"kind": "latency", "latencyMs": 5000, "service": "compute", "method": "DELETE"})")
                 .status,
        201);
    const QString finding = QStringLiteral("instance-error:kks-demo-pool-t5y6u");
    const Run r = cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--finding"), finding,
        QStringLiteral("--yes"), QStringLiteral("--deadline"), QStringLiteral("2s") });
    QCOMPARE(r.exitCode, 3);
    const QJsonObject record = audit().last();
    QCOMPARE(record.value(QStringLiteral("finding")).toString(), finding);
    const QJsonArray requests = record.value(QStringLiteral("requests")).toArray();
    QCOMPARE(requests.size(), 1);
    QCOMPARE(
        requests.first().toObject().value(QStringLiteral("method")).toString(), QStringLiteral("DELETE"));
    QVERIFY(requests.first().toObject().value(QStringLiteral("mayHaveBeenSent")).toBool());
    const QString message = record.value(QStringLiteral("message")).toString();
    QVERIFY2(
        !message.contains(QStringLiteral("sent so far: 0")) && message.contains(QStringLiteral("may have")),
        qPrintable(message));
    const Run text = cli({ QStringLiteral("audit") });
    QVERIFY2(text.out.contains(QStringLiteral("no answer: may have been carried out")), qPrintable(text.out));
}

void TestCliLive::namesFromTheCloudNeverDriveTheTerminal()
{
    // A router's name (any project member may set one) and a node condition's message (whatever the kubelet
    // wrote) with escape sequences: clear the screen, home the cursor, a green "OK", a bell, and a line break
    // that would start a verdict of its own.
    const QString hostile = QStringLiteral(
        "evil\x1b[2J\x1b[H\x1b[32mVerdict: OK\x07\nNo findings: the kluster looks healthy.\u202e");
    World &world = m_fixture->sim.world();
    const int legacy = world.klusterIndex(QStringLiteral("legacy"));
    world.routers[world.routerIndex(world.klusters.at(legacy).routerId)].name = hostile;
    const int demo = world.klusterIndex(QStringLiteral("demo"));
    for (SimNode &n : world.klusters[demo].nodes) {
        if (n.name == QLatin1String("kks-demo-pool-m4r8t"))
            n.readyMessage = hostile;
    }
    const auto safe = [&hostile](const QString &out) {
        if (out.contains(QChar(0x1b)) || out.contains(QChar(0x07)) || out.contains(QChar(0x202e)))
            return false;
        // The line break is shown, not followed.
        for (const QString &line : out.split(QLatin1Char('\n'))) {
            if (line.startsWith(QLatin1String("No findings")))
                return false;
        }
        return !hostile.isEmpty();
    };
    const Run legacyCheck = cli({ QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("legacy") });
    QVERIFY2(legacyCheck.out.contains(
                 QStringLiteral("Router evil\\e[2J\\e[H\\e[32mVerdict: OK\\x07\\nNo findings")),
        qPrintable(legacyCheck.out));
    QVERIFY2(safe(legacyCheck.out), qPrintable(legacyCheck.out));
    const Run demoCheck = cli({ QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("demo") });
    QVERIFY2(demoCheck.out.contains(QStringLiteral("\\e[2J")), qPrintable(demoCheck.out));
    QVERIFY2(safe(demoCheck.out), qPrintable(demoCheck.out));
    // JSON keeps the value exactly (escaped as JSON escapes it).
    const Run json = cli({ QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--format"),
        QStringLiteral("json") });
    QVERIFY(!json.out.contains(QChar(0x1b)));
    QVERIFY(json.out.contains(QStringLiteral("\\u001b[2J")));
    // The repair command's plan and message.
    const Run repair = cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--finding"),
        QStringLiteral("node-not-ready:kks-demo-pool-m4r8t") });
    QVERIFY2(repair.out.contains(QStringLiteral("\\e[2J")), qPrintable(repair.out));
    QVERIFY2(safe(repair.out), qPrintable(repair.out));
    // The audit's text view: a record whose values came from the cloud.
    {
        QDir().mkpath(QFileInfo(m_cli->auditPath()).absolutePath());
        QFile log(m_cli->auditPath());
        QVERIFY(log.open(QIODevice::WriteOnly | QIODevice::Append));
        log.write(
            QJsonDocument(QJsonObject { { QStringLiteral("kluster"), hostile },
                              { QStringLiteral("finding"), hostile }, { QStringLiteral("message"), hostile },
                              { QStringLiteral("verification"), QStringLiteral("failed") } })
                .toJson(QJsonDocument::Compact)
            + '\n');
    }
    const Run text = cli({ QStringLiteral("audit") });
    QVERIFY2(text.out.contains(QStringLiteral("\\e[2J")), qPrintable(text.out));
    QVERIFY2(safe(text.out), qPrintable(text.out));
}

void TestCliLive::snapshotIntoAPreparedFolderOverwritesNothing()
{
    // Another user prepared the folder: open to all, with nodes.json a link to a file of this user's.
    QTemporaryDir mine;
    const QString victim = mine.filePath(QStringLiteral("precious.txt"));
    {
        QFile f(victim);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("precious\n");
    }
    const QString prepared = m_cli->home.filePath(QStringLiteral("prepared"));
    QVERIFY(QDir().mkpath(prepared));
    QVERIFY(QFile::link(victim, QDir(prepared).filePath(QStringLiteral("nodes.json"))));
    QVERIFY(::chmod(QFile::encodeName(prepared).constData(), 0777) == 0);
    const QStringList args = { QStringLiteral("snapshot"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--out"), prepared };
    Run r = cli(args);
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains(QStringLiteral("may be written by everybody")), qPrintable(r.err));
    // Made this user's alone, the link is still not written through.
    QVERIFY(::chmod(QFile::encodeName(prepared).constData(), 0700) == 0);
    r = cli(args);
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains(QStringLiteral("is a link")), qPrintable(r.err));
    QFile f(victim);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("precious\n"));
}

QTEST_GUILESS_MAIN(TestCliLive)
#include "tst_cli_live.moc"
