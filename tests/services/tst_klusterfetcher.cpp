#include "core/apiparser.h"
#include "core/diagnosis.h"
#include "core/permission.h"
#include "services/http/endpointhealth.h"
#include "services/local/snapshotreader.h"
#include "services/local/snapshotwriter.h"
#include "services/openstack/klusterfetcher.h"
#include "tests/simulator/simcloud.h"
#include "tests/simulator/simfixture.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>

// Fetching a kluster from the simulated cloud: every source, concurrently,
// pages and chunks followed to the end; a failed source says so.
class TestKlusterFetcher : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void fetchesEverySource();
    void snapshotRoundTrip();
    void paginationAcrossPages();
    void failedNodeListIsNotZeroNodes();
    void badAccessReviewLeavesTheWriteUnknown_data();
    void badAccessReviewLeavesTheWriteUnknown();
    void watchedKlusterIsReviewedToo();
    void endlessNodeListEnds();
    void unreadableExtensionsAreSaid();
    void kubeconfigWithExecPlugin();
    void concurrentRequests();
    void routerDevicesReadByAnAdminAndRefusedOnce();
    void routerDevicesBadAnswerIsNamed();

private:
    static CloudConfig cloud(const SimFixture &f, const QString &user = QStringLiteral("demo"),
        const QString &password = QStringLiteral("flightdeck-demo"),
        const QString &project = QStringLiteral("flightdeck-demo"))
    {
        CloudConfig c;
        c.name = QStringLiteral("sim");
        c.authUrl = f.sim.authUrl();
        c.username = user;
        c.password = password;
        c.userDomainName = QStringLiteral("Default");
        c.projectName = project;
        c.projectDomainName = QStringLiteral("Default");
        return c;
    }
    KlusterFetch fetch(KeystoneSession &session, const QString &kluster,
        const std::optional<KubeTarget> &target = std::nullopt, bool nodesFromCache = false)
    {
        KlusterFetcher fetcher(&session, kluster);
        fetcher.setNodesFromCache(nodesFromCache);
        if (target)
            fetcher.setKubeTarget(*target);
        QSignalSpy spy(&fetcher, &KlusterFetcher::finished);
        fetcher.start();
        if (!spy.wait(60000))
            qFatal("no fetch");
        return spy.first().first().value<KlusterFetch>();
    }
    std::unique_ptr<SimFixture> m_fixture;
    HttpClient m_client;
};

Q_DECLARE_METATYPE(KlusterFetch)

static QStringList findingIdsOf(const Diagnosis &d)
{
    QStringList ids;
    for (const Finding &x : d.findings)
        ids << x.id();
    return ids;
}

void TestKlusterFetcher::init()
{
    // A simulator of an earlier test may have listened on the same port: its failures are not this one's.
    EndpointHealth::shared().reset();
    qRegisterMetaType<ApiResponse>();
    qRegisterMetaType<KlusterFetch>();
}

void TestKlusterFetcher::fetchesEverySource()
{
    SimFixture f;
    KeystoneSession session(&m_client, cloud(f));
    const KlusterFetch r = fetch(session, QStringLiteral("legacy"));
    QVERIFY2(r.errors.isEmpty(), qPrintable(SourceError::joined(r.errors)));
    const KlusterState &s = r.state;
    QVERIFY(s.klusterSource.known && s.serversSource.known && s.routerSource.known
        && s.securityGroupsSource.known && s.nodesSource.known);
    QCOMPARE(s.kluster.name, QStringLiteral("legacy"));
    QCOMPARE(s.instances.size(), f.sim.world().servers.size());
    QCOMPARE(s.nodes.size(), 5);
    QVERIFY(s.hasAtomicExtraRoutes());
    QVERIFY(qAbs(s.capturedAt.secsTo(QDateTime::currentDateTimeUtc())) < 60);
    const Diagnosis d = Diagnosis::run(s);
    QVERIFY(d.find(QStringLiteral("route-duplicate:198.19.1.0/24")));
    QVERIFY(d.find(QStringLiteral("route-stale:198.19.2.0/24 via 10.180.0.5")));
}

void TestKlusterFetcher::snapshotRoundTrip()
{
    SimFixture f;
    KeystoneSession session(&m_client, cloud(f));
    const KlusterFetch r = fetch(session, QStringLiteral("demo"));
    QTemporaryDir dir;
    QString error;
    QVERIFY2(SnapshotWriter::write(dir.path(), r, &error), qPrintable(error));
    const KlusterState back = SnapshotReader::read(dir.path());
    QStringList live;
    for (const Finding &x : Diagnosis::run(r.state).findings)
        live << x.id();
    QStringList again;
    for (const Finding &x : Diagnosis::run(back).findings)
        again << x.id();
    QCOMPARE(again, live);
    // No secret in the snapshot.
    for (const QString &name : QDir(dir.path()).entryList(QDir::Files)) {
        QFile file(QDir(dir.path()).filePath(name));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        QVERIFY2(!bytes.contains("flightdeck-demo-secret") && !bytes.contains("\"password\"")
                && !bytes.contains("PRIVATE KEY") && !bytes.contains("gAAAAA"),
            qPrintable(name));
    }
}

void TestKlusterFetcher::paginationAcrossPages()
{
    Simulator sim;
    Scenario::generate(sim.world(), 2500);
    QString error;
    QVERIFY(sim.start(Simulator::Ports(), &error));
    KeystoneSession session(&m_client, scaleCloud(sim));
    const KlusterFetch r = fetch(session, QStringLiteral("scale"));
    QVERIFY2(r.errors.isEmpty(), qPrintable(SourceError::joined(r.errors)));
    QCOMPARE(r.state.instances.size(), 2500); // three Nova pages of up to 1,000
    QCOMPARE(r.state.nodes.size(), sim.world().klusters.first().nodes.size()); // chunks of 500
    QVERIFY(sim.requestCount(QStringLiteral("compute")) >= 3);
    // The bodies a snapshot holds are the pages and chunks merged: they read back to the same servers and
    // nodes, and the node list keeps its version but no chunk's continue token.
    const QByteArray nodesJson = r.body(Source::Nodes);
    QCOMPARE(ApiParser::parseNodes(QStringLiteral("nodes.json"), nodesJson).size(), r.state.nodes.size());
    QCOMPARE(ApiParser::parseServers(QStringLiteral("servers.json"), r.body(Source::Servers)).size(), 2500);
    ApiParser::NodeListMeta meta;
    ApiParser::parseNodes(QStringLiteral("nodes.json"), nodesJson, &meta);
    QCOMPARE(meta.kind, QStringLiteral("NodeList"));
    QVERIFY(meta.continueToken.isEmpty());
    QCOMPARE(meta.resourceVersion, r.nodesResourceVersion);
    QVERIFY(!meta.resourceVersion.isEmpty());

    // The console's lists: any version will do, from the API server's watch cache, which ignores limit.
    const qint64 before = sim.requestCount(QStringLiteral("kubernetes"));
    const KlusterFetch cached = fetch(session, QStringLiteral("scale"), std::nullopt, true);
    QVERIFY2(cached.errors.isEmpty(), qPrintable(SourceError::joined(cached.errors)));
    QCOMPARE(cached.state.nodes.size(), r.state.nodes.size());
    QCOMPARE(sim.requestCount(QStringLiteral("kubernetes")) - before, 1);
}

void TestKlusterFetcher::failedNodeListIsNotZeroNodes()
{
    SimFixture f;
    QCOMPARE(f.request("POST", f.sim.adminUrl() + QStringLiteral("/faults"),
                  R"({"kind": "status", "status": 500, "service": "kubernetes", "path": "^/api/v1/nodes"})")
                 .status,
        201);
    KeystoneSession session(&m_client, cloud(f));
    const KlusterFetch r = fetch(session, QStringLiteral("demo"));
    QVERIFY(!r.state.nodesSource.known);
    QVERIFY2(r.state.nodesSource.error.contains(QStringLiteral("HTTP 500")),
        qPrintable(r.state.nodesSource.error));
    QVERIFY(r.state.serversSource.known && r.state.routerSource.known);
    const Diagnosis d = Diagnosis::run(r.state);
    QCOMPARE(d.budget.reason, Refusal::NoEvidence);
    QVERIFY(findingIdsOf(d).filter(QStringLiteral("instance-unregistered")).isEmpty());
    QVERIFY(!d.notDiagnosed.isEmpty());
}

// The Kubernetes write an access review is asked about: a node's deletion.
static PlannedRequest deleteNodeRequest()
{
    PlannedRequest r;
    r.service = QStringLiteral("kubernetes");
    r.method = QStringLiteral("DELETE");
    r.path = QStringLiteral("/api/v1/nodes/kks-demo-pool-g4h0s");
    return r;
}

// The kluster's API server's SelfSubjectAccessReview answered badly: the write it was asked about stays
// unknown (offered with a note, never allowed), the reason names what failed, and the rest of the refresh is
// as good as ever.
void TestKlusterFetcher::badAccessReviewLeavesTheWriteUnknown_data()
{
    QTest::addColumn<QByteArray>("fault");
    QTest::addColumn<QString>("said");
    const QByteArray path = R"("service": "kubernetes", "path": "selfsubjectaccessreviews$")";
    QTest::newRow("500") << R"({"kind": "status", "status": 500, )" + path + "}" << QStringLiteral("500");
    QTest::newRow("403") << R"({"kind": "status", "status": 403, )" + path + "}" << QStringLiteral("403");
    QTest::newRow("HTML page") << R"({"kind": "html", )" + path + "}" << QStringLiteral("502");
    QTest::newRow("not JSON") << R"({"kind": "malformed", )" + path + "}" << QStringLiteral("status.allowed");
    QTest::newRow("truncated") << R"({"kind": "truncated", )" + path + "}" << QStringLiteral("did not say");
    QTest::newRow("no answer") << R"({"kind": "drop", )" + path + "}" << QStringLiteral("did not say");
}

void TestKlusterFetcher::badAccessReviewLeavesTheWriteUnknown()
{
    QFETCH(QByteArray, fault);
    QFETCH(QString, said);
    SimFixture f;
    QCOMPARE(f.request("POST", f.sim.adminUrl() + QStringLiteral("/faults"), fault).status, 201);
    KeystoneSession session(&m_client, cloud(f));
    KlusterFetcher fetcher(&session, QStringLiteral("demo"));
    fetcher.setAccessReviews(true);
    QSignalSpy spy(&fetcher, &KlusterFetcher::finished);
    fetcher.start();
    QVERIFY(spy.wait(60000));
    const KlusterFetch r = spy.first().first().value<KlusterFetch>();
    QVERIFY2(r.state.nodesSource.known && r.state.serversSource.known && r.state.routerSource.known,
        qPrintable(SourceError::joined(r.errors)));
    QVERIFY(r.state.credentials);
    const PermissionVerdict v = r.state.credentials->judge(deleteNodeRequest());
    QCOMPARE(v.permission, Permission::Unknown);
    QVERIFY2(v.reason.contains(QStringLiteral("did not say whether these credentials may delete nodes"))
            && v.reason.contains(said),
        qPrintable(v.reason));
}

// A kluster whose nodes come from its watch (no node list, no credentials kept) is still asked whether its
// Kubernetes writes may be made, with the credentials Kubernikus hands out.
void TestKlusterFetcher::watchedKlusterIsReviewedToo()
{
    SimFixture f;
    KeystoneSession session(&m_client, cloud(f));
    KlusterFetcher fetcher(&session, QStringLiteral("demo"));
    fetcher.setNodesWatched(true);
    fetcher.setAccessReviews(true);
    QSignalSpy spy(&fetcher, &KlusterFetcher::finished);
    fetcher.start();
    QVERIFY(spy.wait(60000));
    const KlusterFetch r = spy.first().first().value<KlusterFetch>();
    QVERIFY(r.state.credentials);
    const PermissionVerdict v = r.state.credentials->judge(deleteNodeRequest());
    QCOMPARE(v.permission, Permission::Allowed);
    QVERIFY(fetcher.kubeTarget().has_value()); // kept for whoever goes on from this fetch
}

void TestKlusterFetcher::endlessNodeListEnds()
{
    // The defect: a server that always answers with a continue token held the fetch for good.
    SimFixture f;
    QCOMPARE(f.request("POST", f.sim.adminUrl() + QStringLiteral("/faults"),
                  R"({"kind": "endless-continue", "service": "kubernetes", "path": "^/api/v1/nodes"})")
                 .status,
        201);
    KeystoneSession session(&m_client, cloud(f));
    const KlusterFetch r = fetch(session, QStringLiteral("demo"));
    QVERIFY(!r.state.nodesSource.known);
    QVERIFY2(r.state.nodesSource.error.contains(QStringLiteral("same continue token")),
        qPrintable(r.state.nodesSource.error));
    QVERIFY(r.state.serversSource.known);
}

void TestKlusterFetcher::unreadableExtensionsAreSaid()
{
    // The defect: an extensions answer that was JSON but no extension list was dropped without a word.
    SimFixture f;
    const QByteArray fault
        = R"({"kind": "status", "status": 200, "service": "network", "path": "^/v2.0/extensions"})";
    QCOMPARE(f.request("POST", f.sim.adminUrl() + QStringLiteral("/faults"), fault).status, 201);
    KeystoneSession session(&m_client, cloud(f));
    const KlusterFetch r = fetch(session, QStringLiteral("demo"));
    QVERIFY(!r.state.extensionsKnown);
    QVERIFY(!r.bodies.contains(Source::Extensions));
    QCOMPARE(r.errors.size(), 1);
    QVERIFY(r.errors.first().source == Source::Extensions);
    QCOMPARE(r.errors.first().error.kind, Error::Kind::Malformed);
    QVERIFY(!r.errors.first().error.retryCanHelp());
    const QString line = r.errors.first().toString();
    QVERIFY2(line.startsWith(
                 QStringLiteral("extensions: network: GET /v2.0/extensions: HTTP 200 with a malformed body: "
                                "extensions: $: this is an API error response"))
            && line.endsWith(QStringLiteral(" (assuming no extraroute-atomic)")),
        qPrintable(line));
    QVERIFY(r.state.klusterSource.known && r.state.serversSource.known && r.state.nodesSource.known);
}

void TestKlusterFetcher::kubeconfigWithExecPlugin()
{
    SimFixture f;
    QTemporaryDir dir;
    const QString script = QStringLiteral(FLIGHTDECK_SOURCE_DIR "/tests/data/kube/exec-credential.sh");
    const QByteArray config = QByteArray("apiVersion: v1\nkind: Config\ncurrent-context: demo\n"
                                         "clusters:\n- name: demo\n  cluster:\n    server: ")
        + f.sim.kubernetesUrl(QStringLiteral("demo")).toUtf8()
        + "\n    certificate-authority-data: " + f.sim.caCertificatePem().toBase64()
        + "\ncontexts:\n- name: demo\n  context: {cluster: demo, user: plugin}\nusers:\n- name: plugin\n  "
          "user:\n    exec:\n"
          "      apiVersion: client.authentication.k8s.io/v1\n      command: "
        + script.toUtf8() + "\n      env:\n      - name: EXEC_TOKEN\n        value: "
        + f.sim.world().klusters.first().bearerToken.toUtf8() + "\n      interactiveMode: Never\n";
    QFile file(dir.filePath(QStringLiteral("kubeconfig")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(config);
    file.close();
    QString error;
    const auto kube = Kubeconfig::load({ file.fileName() }, &error);
    QVERIFY2(kube, qPrintable(error));
    KeystoneSession session(&m_client, cloud(f));
    const KlusterFetch r = fetch(session, QStringLiteral("demo"), kube->target(QString(), &error));
    QVERIFY2(r.state.nodesSource.known, qPrintable(SourceError::joined(r.errors)));
    QCOMPARE(r.state.nodes.size(), f.sim.world().klusters.first().nodes.size());
}

void TestKlusterFetcher::concurrentRequests()
{
    SimFixture f;
    QCOMPARE(f.request("POST", f.sim.adminUrl() + QStringLiteral("/faults"),
                  R"({"kind": "latency", "latencyMs": 400})")
                 .status,
        201);
    KeystoneSession session(&m_client, cloud(f));
    QVERIFY(QSignalSpy(session.authenticate(), &HttpCall::finished).wait(10000));
    QElapsedTimer timer;
    timer.start();
    const KlusterFetch r = fetch(session, QStringLiteral("demo"));
    QVERIFY(r.errors.isEmpty());
    // kluster, then router; servers, groups, extensions, credentials, then nodes: in
    // parallel that is three round trips, not seven.
    QVERIFY2(timer.elapsed() < 7 * 400, qPrintable(QString::number(timer.elapsed())));
}

// The ASR driver's device API where the cloud lists it: an admin's refresh reads it (a snapshot keeps it as
// router-device.json and reads it back the same); a member's is refused once (401), said as not readable with
// these credentials, no failure of the refresh, and not asked again by the same session.
void TestKlusterFetcher::routerDevicesReadByAnAdminAndRefusedOnce()
{
    SimFixture f;
    World &w = f.sim.world();
    w.asr1k = true;
    w.addDevicePairs();
    w.users.append(SimUser { w.newHexId(), QStringLiteral("ops-admin"), QStringLiteral("admin-pass"),
        w.projects.first().id, { QStringLiteral("admin"), QStringLiteral("member") } });
    const QString router = w.klusters.at(w.klusterIndex(QStringLiteral("demo"))).routerId;
    w.routers[w.routerIndex(router)].devices[1].lacking.append(
        w.routers[w.routerIndex(router)].routes.first());

    KeystoneSession admin(&m_client, cloud(f, QStringLiteral("ops-admin"), QStringLiteral("admin-pass")));
    const KlusterFetch read = fetch(admin, QStringLiteral("demo"));
    QVERIFY2(read.errors.isEmpty(), qPrintable(SourceError::joined(read.errors)));
    QVERIFY(read.state.routerDeviceSource.known);
    QCOMPARE(read.state.routerDevices.devices.size(), 2);
    QVERIFY(read.bodies.contains(Source::RouterDevice));
    const QStringList missing
        = findingIdsOf(Diagnosis::run(read.state)).filter(QStringLiteral("device-route-missing:"));
    QVERIFY2(missing.size() <= 1,
        qPrintable(missing.join(QLatin1Char(' ')))); // the route may be another kluster's
    QTemporaryDir dir;
    QString error;
    QVERIFY2(SnapshotWriter::write(dir.path(), read, &error), qPrintable(error));
    QVERIFY(QFile::exists(dir.filePath(QStringLiteral("router-device.json"))));
    const KlusterState back = SnapshotReader::read(dir.path());
    QVERIFY(back.routerDeviceSource.known);
    QCOMPARE(findingIdsOf(Diagnosis::run(back)), findingIdsOf(Diagnosis::run(read.state)));

    KeystoneSession member(&m_client, cloud(f));
    for (int i = 0; i < 2; ++i) {
        const qsizetype tokens = w.tokens.size();
        const KlusterFetch refused = fetch(member, QStringLiteral("demo"));
        QVERIFY2(refused.errors.isEmpty(), qPrintable(SourceError::joined(refused.errors)));
        QVERIFY(!refused.state.routerDeviceSource.known);
        QVERIFY2(refused.state.routerDeviceSource.error.contains(
                     QStringLiteral("not readable with these credentials")),
            qPrintable(refused.state.routerDeviceSource.error));
        QVERIFY(!refused.bodies.contains(Source::RouterDevice));
        if (i == 1) { // not asked again: no second sign-in for it
            QVERIFY(refused.state.routerDeviceSource.error.contains(QStringLiteral("refused earlier")));
            QCOMPARE(w.tokens.size(), tokens);
        }
    }
}

// The device API answering an HTML page, a truncated body or a 503: the source is named as failed with why,
// nothing is judged on the devices, and every other source of the refresh stands.
void TestKlusterFetcher::routerDevicesBadAnswerIsNamed()
{
    for (const QByteArray &kind : { QByteArray(R"("kind": "html")"), QByteArray(R"("kind": "truncated")"),
             QByteArray(R"("kind": "status", "status": 503)") }) {
        SimFixture f;
        World &w = f.sim.world();
        w.asr1k = true;
        w.addDevicePairs();
        w.users.append(SimUser { w.newHexId(), QStringLiteral("ops-admin"), QStringLiteral("admin-pass"),
            w.projects.first().id, { QStringLiteral("admin") } });
        const QByteArray fault = "{" + kind + R"(, "service": "network", "path": "^/v2.0/asr1k"})";
        QCOMPARE(f.request("POST", f.sim.adminUrl() + QStringLiteral("/faults"), fault).status, 201);
        KeystoneSession admin(&m_client, cloud(f, QStringLiteral("ops-admin"), QStringLiteral("admin-pass")));
        const KlusterFetch r = fetch(admin, QStringLiteral("demo"));
        QCOMPARE(r.errors.size(), 1);
        QVERIFY(r.errors.first().source == Source::RouterDevice);
        QVERIFY2(!r.errors.first().error.toString().isEmpty(), kind.constData());
        const KlusterState &s = r.state;
        QVERIFY(!s.routerDeviceSource.known && !s.routerDeviceSource.error.isEmpty());
        QVERIFY(s.routerDevices.devices.isEmpty());
        QVERIFY(
            s.klusterSource.known && s.serversSource.known && s.routerSource.known && s.nodesSource.known);
        const Diagnosis d = Diagnosis::run(s);
        QVERIFY(findingIdsOf(d).filter(QStringLiteral("device-route")).isEmpty());
        QVERIFY2(
            d.notDiagnosed.join(QLatin1Char(' ')).contains(QStringLiteral("router device could not be read")),
            qPrintable(d.notDiagnosed.join(QLatin1Char(' '))));
    }
}

QTEST_GUILESS_MAIN(TestKlusterFetcher)
#include "tst_klusterfetcher.moc"
