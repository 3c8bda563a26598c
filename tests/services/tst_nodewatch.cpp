#include "core/checkreport.h"
#include "core/diagnosis.h"
#include "core/json/jsonreader.h"
#include "services/http/endpointhealth.h"
#include "services/kubernetes/nodewatch.h"
#include "services/openstack/klusterfetcher.h"
#include "tests/simulator/simcloud.h"
#include "tests/simulator/simfixture.h"

// A kluster's nodes watched from the version of a list (the console's live nodes), against the simulated API
// server over real HTTPS: the list brought up to date with the events equals a new list (and gives the same
// check report); the watch goes on through a server that closes it, a dropped connection, a replaced
// credential and error answers (an HTML page from a proxy, 5xx, 429), and asks for a new list when its
// version is gone (410).
class TestNodeWatch : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void eventsGiveWhatAListGives();
    void goneAsksForAList();
    void aKlusterFirstListedLateIsWatchedFromItsList();
    void closedAndDroppedWatchesGoOn();
    void refusedCredentialIsAskedForAgain();
    void errorAnswersAreNamedAndWaitedOut();
    void malformedEventIsNamed();

private:
    static CloudConfig cloud(const SimFixture &f) { return simCloud(f.sim); }
    KlusterFetch fetch(KeystoneSession &session)
    {
        KlusterFetcher fetcher(&session, QStringLiteral("demo"));
        fetcher.setNodesFromCache(true);
        std::optional<KlusterFetch> got;
        connect(&fetcher, &KlusterFetcher::finished, this, [&got](const KlusterFetch &f) { got = f; });
        fetcher.start();
        if (!QTest::qWaitFor([&got] { return got.has_value(); }, 60000))
            qFatal("no fetch");
        return *got;
    }
    // The kluster's API server with its current bearer token.
    static KubeTarget bearerTarget(SimFixture &f)
    {
        KubeTarget t;
        t.server = f.sim.kubernetesUrl(QStringLiteral("demo"));
        t.caPem = f.sim.caCertificatePem();
        t.token = f.sim.world().klusters.at(f.sim.world().klusterIndex(QStringLiteral("demo"))).bearerToken;
        t.source = QStringLiteral("test");
        return t;
    }
    static NodeWatchPolicy quick()
    {
        NodeWatchPolicy p;
        p.coalesceMs = 50;
        p.minBackoffMs = 100;
        p.maxBackoffMs = 400;
        p.inactivityMs = 5000;
        return p;
    }
    static QStringList namesOf(const QList<Node> &nodes)
    {
        QStringList names;
        for (const Node &n : nodes)
            names << n.name + QLatin1Char('=')
                    + (n.condition(QStringLiteral("Ready")) ? n.condition(QStringLiteral("Ready"))->status
                                                            : QString());
        return names;
    }
    static SimNode &nodeOf(SimFixture &f, int nth)
    {
        SimKluster &k = f.sim.world().klusters[f.sim.world().klusterIndex(QStringLiteral("demo"))];
        return k.nodes[nth];
    }
    HttpClient m_client;
};

void TestNodeWatch::init()
{
    // A simulator of an earlier test may have listened on the same port: its failures are not this one's.
    EndpointHealth::shared().reset();
    qRegisterMetaType<ApiResponse>();
}

void TestNodeWatch::eventsGiveWhatAListGives()
{
    SimFixture f;
    World &w = f.sim.world();
    w.replaceDeletedInstances = false;
    KeystoneSession session(&m_client, cloud(f));
    KlusterFetch kept = fetch(session);
    QVERIFY(!kept.nodesResourceVersion.isEmpty());
    const int listed = int(kept.state.nodes.size());

    NodeWatch watch(
        &m_client,
        [&session](QObject *context, auto done) {
            KlusterFetcher::requestCredentials(&session, QStringLiteral("demo"), context, done);
        },
        quick());
    int batches = 0;
    connect(&watch, &NodeWatch::changed, this,
        [&kept, &batches](const QList<NodeWatchEvent> &events, const QString &version) {
            applyNodeEvents(kept, events, version);
            ++batches;
        });
    watch.start(kept.nodesResourceVersion);
    QVERIFY(QTest::qWaitFor([&f] { return f.sim.watches().openWatches() == 1; }, 10000));

    // A node turns NotReady, one is deleted, one joins, one is cordoned through the API.
    w.churn(QStringLiteral("demo"), 0, 1);
    SimKluster &k = w.klusters[w.klusterIndex(QStringLiteral("demo"))];
    const QString gone = k.nodes.last().name;
    k.nodes.removeLast();
    ++w.resourceVersionCounter;
    SimNode joined = k.nodes.first();
    joined.name = QStringLiteral("aaa-joined");
    joined.uid = w.newUuid();
    joined.resourceVersion = ++w.resourceVersionCounter;
    k.nodes.append(joined);
    f.sim.watches().observe();
    const QString cordoned = nodeOf(f, 1).name;
    const Reply patched = f.request("PATCH",
        f.sim.kubernetesUrl(QStringLiteral("demo")) + QStringLiteral("/api/v1/nodes/") + cordoned,
        R"({"spec":{"unschedulable":true}})",
        { { "Content-Type", "application/merge-patch+json" },
            { "Authorization", "Bearer " + k.bearerToken.toUtf8() } },
        false, f.kubernetesTls(false));
    QCOMPARE(patched.status, 200);

    QVERIFY(QTest::qWaitFor(
        [&kept, &gone, &cordoned] {
            bool sawCordon = false;
            bool sawGone = false;
            bool sawJoined = false;
            for (const Node &n : kept.state.nodes) {
                sawCordon = sawCordon || (n.name == cordoned && n.unschedulable);
                sawGone = sawGone || n.name == gone;
                sawJoined = sawJoined || n.name == QLatin1String("aaa-joined");
            }
            return sawCordon && !sawGone && sawJoined;
        },
        10000));
    QVERIFY(batches >= 1);
    QVERIFY2(watch.isConnected(), qPrintable(watch.problem().toString()));
    QCOMPARE(kept.state.nodes.size(), listed);

    // The same as a new list: the nodes, in order, the body's items, and the check report.
    const KlusterFetch relisted = fetch(session);
    QCOMPARE(namesOf(kept.state.nodes), namesOf(relisted.state.nodes));
    const auto itemsOf = [](const KlusterFetch &x) {
        return QJsonDocument::fromJson(x.body(Source::Nodes))
            .object()
            .value(QStringLiteral("items"))
            .toArray();
    };
    QCOMPARE(itemsOf(kept).size(), itemsOf(relisted).size());
    for (int i = 0; i < itemsOf(kept).size(); ++i) {
        QCOMPARE(itemsOf(kept).at(i)[QStringLiteral("metadata")][QStringLiteral("resourceVersion")],
            itemsOf(relisted).at(i)[QStringLiteral("metadata")][QStringLiteral("resourceVersion")]);
    }
    kept.state.capturedAt = relisted.state.capturedAt;
    const Diagnosis a = Diagnosis::run(kept.state, DiagnosisOptions());
    const Diagnosis b = Diagnosis::run(relisted.state, DiagnosisOptions());
    // The report but for how each optional source was read (a device refused by the first read is said as
    // "refused earlier in this session" by the next).
    const auto report = [](const KlusterState &state, const Diagnosis &d) {
        QJsonObject o = QJsonDocument::fromJson(CheckReport::toJson(state, d)).object();
        o.remove(QStringLiteral("sources"));
        return o;
    };
    QCOMPARE(report(kept.state, a), report(relisted.state, b));
}

void TestNodeWatch::goneAsksForAList()
{
    SimFixture f;
    KeystoneSession session(&m_client, cloud(f));
    const KlusterFetch kept = fetch(session);
    NodeWatch watch(
        &m_client, [&f](QObject *, auto done) { done(bearerTarget(f), Error()); }, quick());
    QString why;
    connect(&watch, &NodeWatch::relistNeeded, this, [&why](const QString &w) { why = w; });
    watch.start(kept.nodesResourceVersion);
    QVERIFY(QTest::qWaitFor([&f] { return f.sim.watches().openWatches() == 1; }, 10000));

    // Compacted while watched: the ERROR event with its 410, and the watch stops.
    const Reply ended = f.request(
        "POST", f.sim.adminUrl() + QStringLiteral("/klusters/demo/watches"), R"({"end": "gone"})");
    QCOMPARE(ended.json().value(QStringLiteral("ended")).toInt(), 1);
    QVERIFY(QTest::qWaitFor([&why] { return !why.isEmpty(); }, 10000));
    QVERIFY2(why.contains(QStringLiteral("410")), qPrintable(why));
    QVERIFY(!watch.isRunning());

    // From the old version again: 410 at once. From a new list's: watched.
    why.clear();
    watch.start(kept.nodesResourceVersion);
    QVERIFY(QTest::qWaitFor([&why] { return !why.isEmpty(); }, 10000));
    QVERIFY(!watch.isRunning());
    const KlusterFetch relisted = fetch(session);
    why.clear();
    watch.start(relisted.nodesResourceVersion);
    QVERIFY(QTest::qWaitFor([&f] { return f.sim.watches().openWatches() == 1; }, 10000));
    QTest::qWait(200);
    QVERIFY(watch.isRunning());
    QVERIFY(why.isEmpty());
}

void TestNodeWatch::aKlusterFirstListedLateIsWatchedFromItsList()
{
    // The simulator keeps a kluster's history from when it is first listed: the world changed before that
    // (and after the list, elsewhere) must not make a watch from the list's version "too old".
    SimFixture f;
    World &w = f.sim.world();
    for (int i = 0; i < 3; ++i)
        w.churn(QStringLiteral("demo"), 0, 1);
    f.sim.watches().observe();
    KeystoneSession session(&m_client, cloud(f));
    KlusterFetch kept = fetch(session);
    QVERIFY(!kept.nodesResourceVersion.isEmpty());
    ++w.resourceVersionCounter; // a change elsewhere in the world
    f.sim.watches().observe();

    NodeWatch watch(
        &m_client, [&f](QObject *, auto done) { done(bearerTarget(f), Error()); }, quick());
    QString why;
    connect(&watch, &NodeWatch::relistNeeded, this, [&why](const QString &w) { why = w; });
    int events = 0;
    connect(&watch, &NodeWatch::changed, this,
        [&events](const QList<NodeWatchEvent> &changed, const QString &) { events += int(changed.size()); });
    watch.start(kept.nodesResourceVersion);
    QVERIFY(QTest::qWaitFor([&f] { return f.sim.watches().openWatches() == 1; }, 10000));
    w.churn(QStringLiteral("demo"), 0, 1);
    f.sim.watches().observe();
    QVERIFY(QTest::qWaitFor([&events] { return events > 0; }, 10000));
    QVERIFY2(why.isEmpty(), qPrintable(why));
    QVERIFY(watch.isRunning());
}

void TestNodeWatch::closedAndDroppedWatchesGoOn()
{
    SimFixture f;
    f.sim.watches().bookmarkMs = 100;
    KeystoneSession session(&m_client, cloud(f));
    const KlusterFetch kept = fetch(session);
    NodeWatch watch(
        &m_client, [&f](QObject *, auto done) { done(bearerTarget(f), Error()); }, quick());
    QStringList changedNodes;
    connect(&watch, &NodeWatch::changed, this, [&changedNodes](const QList<NodeWatchEvent> &events) {
        for (const NodeWatchEvent &e : events)
            changedNodes << e.node.name;
    });
    watch.start(kept.nodesResourceVersion);
    QVERIFY(QTest::qWaitFor([&watch] { return watch.isConnected(); }, 10000)); // a bookmark came
    const QDateTime heard = watch.lastHeard();
    QVERIFY(QTest::qWaitFor([&watch, &heard] { return watch.lastHeard() > heard; }, 10000));

    for (const char *end : { "close", "drop" }) {
        changedNodes.clear();
        const int reconnects = watch.reconnects();
        const Reply ended = f.request("POST", f.sim.adminUrl() + QStringLiteral("/klusters/demo/watches"),
            QByteArray(R"({"end": ")") + end + R"("})");
        QCOMPARE(ended.json().value(QStringLiteral("ended")).toInt(), 1);
        // A change made while no watch is open arrives once it is open again, from the version it had.
        SimNode &n = nodeOf(f, 2);
        n.unschedulable = !n.unschedulable;
        n.resourceVersion = ++f.sim.world().resourceVersionCounter;
        f.sim.watches().observe();
        QVERIFY2(QTest::qWaitFor([&changedNodes, &n] { return changedNodes.contains(n.name); }, 10000), end);
        QVERIFY(watch.reconnects() > reconnects);
        QVERIFY(watch.isRunning());
    }
}

void TestNodeWatch::refusedCredentialIsAskedForAgain()
{
    SimFixture f;
    HttpClient client; // its own connections: none made with the client certificate Kubernikus hands out
    int asked = 0;
    NodeWatch watch(
        &client,
        [&f, &asked](QObject *, auto done) {
            ++asked;
            done(bearerTarget(f), Error());
        },
        quick());
    QStringList changedNodes;
    connect(&watch, &NodeWatch::changed, this, [&changedNodes](const QList<NodeWatchEvent> &events) {
        for (const NodeWatchEvent &e : events)
            changedNodes << e.node.name;
    });
    watch.start(QString::number(f.sim.world().resourceVersionCounter));
    QVERIFY(QTest::qWaitFor([&f] { return f.sim.watches().openWatches() == 1; }, 10000));
    QCOMPARE(asked, 1);

    // The token is replaced (as an expired one is), and the server ends the watch: the next one is refused
    // with 401, and a fresh credential is asked for.
    QCOMPARE(f.request("POST", f.sim.adminUrl() + QStringLiteral("/klusters/demo/token")).status, 204);
    f.request("POST", f.sim.adminUrl() + QStringLiteral("/klusters/demo/watches"), R"({"end": "close"})");
    SimNode &n = nodeOf(f, 0);
    n.unschedulable = true;
    n.resourceVersion = ++f.sim.world().resourceVersionCounter;
    f.sim.watches().observe();
    QVERIFY(QTest::qWaitFor([&changedNodes, &n] { return changedNodes.contains(n.name); }, 10000));
    QCOMPARE(asked, 2);
    QVERIFY(watch.isConnected());
}

void TestNodeWatch::errorAnswersAreNamedAndWaitedOut()
{
    SimFixture f;
    f.sim.watches().bookmarkMs = 100;
    KeystoneSession session(&m_client, cloud(f));
    const KlusterFetch kept = fetch(session);
    HttpClient client; // no retries of its own: each error answer reaches the watch
    RetryPolicy once;
    once.maxAttempts = 1;
    client.setRetryPolicy(once);
    NodeWatch watch(
        &client, [&f](QObject *, auto done) { done(bearerTarget(f), Error()); }, quick());
    QStringList changedNodes;
    connect(&watch, &NodeWatch::changed, this, [&changedNodes](const QList<NodeWatchEvent> &events) {
        for (const NodeWatchEvent &e : events)
            changedNodes << e.node.name;
    });
    watch.start(kept.nodesResourceVersion);
    QVERIFY(QTest::qWaitFor([&watch] { return watch.isConnected(); }, 10000));

    struct Case
    {
        FaultRule::Kind kind;
        int status;
        const char *says; // in the problem shown
    };
    const QList<Case> cases { { FaultRule::Kind::Html, 502, "502" }, { FaultRule::Kind::Status, 503, "503" },
        { FaultRule::Kind::Status, 500, "500" }, { FaultRule::Kind::Status, 429, "Too many requests" } };
    for (const Case &c : cases) {
        const QByteArray tag = FaultRule::kindName(c.kind).toUtf8() + ' ' + QByteArray::number(c.status);
        // The next two watches are answered with the error; the open one is ended by the server.
        FaultRule rule;
        rule.service = QStringLiteral("kubernetes");
        rule.path = QRegularExpression(QStringLiteral("^/api/v1/nodes$"));
        rule.kind = c.kind;
        rule.status = c.status;
        rule.remaining = 2;
        f.sim.faults().add(rule);
        changedNodes.clear();
        f.request("POST", f.sim.adminUrl() + QStringLiteral("/klusters/demo/watches"), R"({"end": "close"})");
        QVERIFY2(QTest::qWaitFor([&watch] { return watch.problem().isError(); }, 10000), tag);
        QVERIFY2(!watch.isConnected(), tag);
        QVERIFY(watch.isRunning());
        const QString shown = watch.problem().toString();
        QVERIFY2(shown.contains(QLatin1String(c.says)) && shown.contains(QLatin1String("/api/v1/nodes")),
            qPrintable(tag + ": " + shown));
        QVERIFY2(!shown.contains(QLatin1String("<html")) && !shown.contains(QLatin1String("<!DOCTYPE")),
            qPrintable(shown)); // the page's first line of text, not its markup

        // Once the errors stop, the watch is back, from the version it had: nothing changed meanwhile is
        // lost.
        SimNode &n = nodeOf(f, 1);
        n.unschedulable = !n.unschedulable;
        n.resourceVersion = ++f.sim.world().resourceVersionCounter;
        f.sim.watches().observe();
        QVERIFY2(QTest::qWaitFor([&changedNodes, &n] { return changedNodes.contains(n.name); }, 10000), tag);
        QVERIFY2(QTest::qWaitFor([&watch] { return watch.isConnected(); }, 10000), tag);
        QVERIFY(!watch.problem().isError());
        f.sim.faults().clear();
    }

    // A server that asks for a pause (503 with Retry-After) gets it, though the watch's own backoff is
    // shorter.
    FaultRule busy;
    busy.service = QStringLiteral("kubernetes");
    busy.path = QRegularExpression(QStringLiteral("^/api/v1/nodes$"));
    busy.kind = FaultRule::Kind::Status;
    busy.status = 503;
    busy.retryAfter = QStringLiteral("3");
    f.sim.faults().add(busy);
    f.request("POST", f.sim.adminUrl() + QStringLiteral("/klusters/demo/watches"), R"({"end": "close"})");
    QVERIFY(QTest::qWaitFor([&watch] { return watch.problem().status == 503; }, 10000));
    const int hits = f.sim.faults().rules().constFirst().hits;
    QTest::qWait(1500); // the backoff alone (100 to 400 ms) would have asked again several times by now
    QCOMPARE(f.sim.faults().rules().constFirst().hits, hits);
    f.sim.faults().clear();
    QVERIFY(QTest::qWaitFor([&watch] { return watch.isConnected(); }, 10000));
}

void TestNodeWatch::malformedEventIsNamed()
{
    // A line that is not an event: named, and the watch goes on from the version it had.
    NodeWatchEvent::Type type = NodeWatchEvent::Type::Bookmark;
    const Error refused = parseAnswer(Error(), [&type] {
        type = NodeWatchEvent::parse(
            QStringLiteral("watch"), QJsonDocument::fromJson(R"({"type": "SHOUTED", "object": {}})").object())
                   .type;
    });
    QCOMPARE(refused.kind, Error::Kind::Malformed);
    QVERIFY2(refused.toString().contains(QStringLiteral("SHOUTED")), qPrintable(refused.toString()));
    const NodeWatchEvent gone = NodeWatchEvent::parse(QStringLiteral("watch"),
        QJsonDocument::fromJson(
            R"json({"type":"ERROR","object":{"kind":"Status","code":410,"message":"too old resource version: 1 (2)"}})json")
            .object());
    QCOMPARE(gone.type, NodeWatchEvent::Type::Error);
    QCOMPARE(gone.code, 410);
}

QTEST_MAIN(TestNodeWatch)
#include "tst_nodewatch.moc"
