#include "core/apiparser.h"
#include "core/checkreport.h"
#include "core/diagnosis.h"
#include "services/connection.h"
#include "services/http/endpointhealth.h"
#include "services/kubernetes/watchbudget.h"
#include "services/openstack/klusterfetcher.h"
#include "services/openstack/servercache.h"
#include "tests/simulator/simcloud.h"
#include "tests/simulator/simfixture.h"

#include <QDir>
#include <QJsonArray>
#include <QScopeGuard>
#include <QThread>

// The project's servers kept between refreshes and brought up to date with
// what changed (Nova's changes-since, Neutron's changed_since on ports), and
// shared by the klusters of one project: against the simulated cloud, the
// list brought up to date is the list a whole fetch gives, and the whole list
// is fetched again whenever the kept one cannot be trusted.
class TestServerCache : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void firstListIsWhole();
    void changesGiveTheWholeList();
    void reportIsTheSameAsAfterAWholeFetch();
    void securityGroupChangeSeenThroughThePort();
    void portsComeWithEveryList();
    void failedFetchKeepsTheListAndAsksAgainFromTheSameMoment();
    void badAnswersKeepTheList_data();
    void badAnswersKeepTheList();
    void wholeListAgainWhenItMust();
    void requestsShareOneFetch();
    void klustersOfAProjectShareWhatTheProjectHas();
    void refreshesOfAConnectionWaitTheirTurn();
    void aRoundsKlustersShareOneFetchOfTheProject();
    void cancelledRefreshStopsWaiting();
    void clockSteppedBackListsEverything();
    void fleetBeyondTheWatchBoundIsFreshAndCheap();
    void tooManyRequestsSlowTheWholeConnection();
    void healthyKlustersAreListedAtASlowerPace();

private:
    static CloudConfig cloud(const SimFixture &f) { return simCloud(f.sim); }
    static std::shared_ptr<const ServerList> get(ServerCache &cache, const QDateTime &notBefore = QDateTime())
    {
        std::shared_ptr<const ServerList> got;
        QObject context;
        cache.request(notBefore.isValid() ? notBefore : QDateTime::currentDateTimeUtc(), &context,
            [&got](const std::shared_ptr<const ServerList> &l) { got = l; });
        if (!QTest::qWaitFor([&got] { return got != nullptr; }, 60000))
            qFatal("no server list");
        return got;
    }
    // The servers as a whole fetch lists them now, by id.
    static QHash<QString, QJsonObject> recordsOf(const ServerList &list)
    {
        QHash<QString, QJsonObject> records;
        const QJsonArray servers
            = QJsonDocument::fromJson(list.body.bytes()).object().value(QStringLiteral("servers")).toArray();
        for (const QJsonValue v : servers)
            records.insert(v.toObject().value(QStringLiteral("id")).toString(), v.toObject());
        return records;
    }
    static QStringList idsOf(const ServerList &list)
    {
        QStringList ids;
        for (const Instance &i : list.instances)
            ids << i.id;
        return ids;
    }
    // A new whole list, from a cache that keeps nothing yet.
    std::shared_ptr<const ServerList> whole(KeystoneSession &session)
    {
        ServerCache fresh(&session);
        return get(fresh);
    }
    static int serverOf(World &w, const QString &kluster, int nth = 0)
    {
        for (int i = 0; i < w.servers.size(); ++i) {
            if (w.servers.at(i).kluster == kluster && nth-- == 0)
                return i;
        }
        qFatal("no server of %s", qPrintable(kluster));
    }
    // A round of a connection: its klusters listed, then each refreshed; their results.
    static QList<RefreshResult> refreshRound(Connection &connection)
    {
        QStringList listed;
        bool done = false;
        const auto l = QObject::connect(
            &connection, &Connection::klustersListed, [&](const QStringList &names, const Error &e) {
                if (e.isError())
                    qFatal("listing failed: %s", qPrintable(e.toString()));
                listed = names;
                done = true;
            });
        connection.listKlusters();
        if (!QTest::qWaitFor([&done] { return done; }, 60000))
            qFatal("no listing");
        QObject::disconnect(l);
        QList<RefreshResult> results;
        const auto r = QObject::connect(
            &connection, &Connection::refreshed, [&results](const RefreshResult &x) { results << x; });
        for (const QString &k : std::as_const(listed))
            connection.refresh(k);
        if (!QTest::qWaitFor([&] { return results.size() == listed.size(); }, 120000))
            qFatal("refreshes did not end");
        QObject::disconnect(r);
        return results;
    }
    HttpClient m_client;
};

void TestServerCache::init()
{
    // A simulator of an earlier test may have listened on the same port: its failures are not this one's.
    EndpointHealth::shared().reset();
    qRegisterMetaType<ApiResponse>();
}

void TestServerCache::firstListIsWhole()
{
    SimFixture f;
    KeystoneSession session(&m_client, cloud(f));
    ServerCache cache(&session);
    const auto list = get(cache);
    QVERIFY2(!list->error.isError(), qPrintable(list->error.toString()));
    QVERIFY(!list->incremental);
    QCOMPARE(list->whyWhole, QStringLiteral("the first list"));
    QCOMPARE(list->instances.size(), f.sim.world().servers.size());
    QCOMPARE(list->received, int(f.sim.world().servers.size()));
    QCOMPARE(recordsOf(*list).size(), f.sim.world().servers.size());
}

void TestServerCache::changesGiveTheWholeList()
{
    SimFixture f;
    World &w = f.sim.world();
    w.replaceDeletedInstances = false; // nothing changes but what this test changes
    KeystoneSession session(&m_client, cloud(f));
    ServerCache cache(&session);
    const auto first = get(cache);
    QVERIFY(!first->error.isError());

    // Unchanged: nothing comes back but what changed within the overlap.
    const auto same = get(cache);
    QVERIFY2(!same->error.isError(), qPrintable(same->error.toString()));
    QVERIFY(same->incremental);
    QCOMPARE(idsOf(*same), idsOf(*first));
    QCOMPARE(recordsOf(*same), recordsOf(*first));

    // A server deleted, one stopped, one new.
    const int gone = serverOf(w, QStringLiteral("demo"), 0);
    const QString goneId = w.servers.at(gone).id;
    QVERIFY(!w.deleteServer(gone));
    SimServer &stopped = w.servers[serverOf(w, QStringLiteral("demo"), 1)];
    stopped.status = QStringLiteral("SHUTOFF");
    stopped.vmState = QStringLiteral("stopped");
    stopped.updated = w.now();
    const QString stoppedId = stopped.id;
    const QString newId = w.addServer(w.servers.first().projectId, QStringLiteral("bastion-2"),
                               w.networks.first().id, QString(), { QStringLiteral("default") }, w.now())
                              .id;

    const auto changed = get(cache);
    QVERIFY2(!changed->error.isError(), qPrintable(changed->error.toString()));
    QVERIFY(changed->incremental);
    QVERIFY(!idsOf(*changed).contains(goneId));
    QVERIFY(idsOf(*changed).contains(newId));
    QVERIFY(changed->received < 10); // the changes, not the whole list
    const auto again = whole(session);
    QCOMPARE(idsOf(*changed), idsOf(*again)); // Nova's order too: newest first
    QCOMPARE(recordsOf(*changed), recordsOf(*again));
    for (const Instance &i : changed->instances) {
        if (i.id == stoppedId)
            QCOMPARE(i.status, QStringLiteral("SHUTOFF"));
    }
}

void TestServerCache::reportIsTheSameAsAfterAWholeFetch()
{
    SimFixture f;
    World &w = f.sim.world();
    w.replaceDeletedInstances = false;
    KeystoneSession session(&m_client, cloud(f));
    ServerCache cache(&session);
    const auto fetch = [&session](ServerCache *shared) {
        KlusterFetcher fetcher(&session, QStringLiteral("demo"));
        if (shared)
            fetcher.setServerCache(shared, QDateTime::currentDateTimeUtc());
        KlusterFetch result;
        bool done = false;
        QObject::connect(&fetcher, &KlusterFetcher::finished, [&](const KlusterFetch &r) {
            result = r;
            done = true;
        });
        fetcher.start();
        if (!QTest::qWaitFor([&done] { return done; }, 60000))
            qFatal("no fetch");
        return result;
    };
    QVERIFY(fetch(&cache).errors.isEmpty());
    QVERIFY(!w.deleteServer(serverOf(w, QStringLiteral("demo"), 2))); // a node's instance: now unregistered
    SimServer &broken = w.servers[serverOf(w, QStringLiteral("demo"), 0)];
    broken.status = QStringLiteral("ERROR");
    broken.vmState = QStringLiteral("error");
    broken.faultMessage = QStringLiteral("No valid host was found.");
    broken.updated = w.now();
    QVERIFY(!w.removeSecurityGroup(serverOf(w, QStringLiteral("demo"), 1), QStringLiteral("kks-demo")));
    // The deleted instance's node stays for the comparison: the simulator removes it a second after its
    // instance (as Kubernetes does), and on a loaded machine that second ended between the two fetches.
    w.pending.removeIf([](const World::Pending &p) { return p.kind == World::Pending::Kind::RemoveNode; });

    KlusterFetch incremental = fetch(&cache);
    QVERIFY2(incremental.errors.isEmpty(), qPrintable(SourceError::joined(incremental.errors)));
    QVERIFY(incremental.serversIncremental);
    KlusterFetch full = fetch(nullptr);
    QVERIFY(!full.serversIncremental);
    incremental.state.capturedAt = full.state.capturedAt;
    const Diagnosis a = Diagnosis::run(incremental.state);
    const Diagnosis b = Diagnosis::run(full.state);
    const auto ids = [](const Diagnosis &d) {
        QStringList out;
        for (const Finding &f : d.findings)
            out << f.id();
        return out;
    };
    QCOMPARE(ids(a), ids(b)); // the readable difference first
    QCOMPARE(CheckReport::toJson(incremental.state, a), CheckReport::toJson(full.state, b));
    QVERIFY(a.findings.size() >= 3);
}

void TestServerCache::securityGroupChangeSeenThroughThePort()
{
    SimFixture f;
    World &w = f.sim.world();
    KeystoneSession session(&m_client, cloud(f));
    ServerCache cache(&session);
    QVERIFY(!get(cache)->error.isError());
    const int i = serverOf(w, QStringLiteral("demo"), 1);
    const QString id = w.servers.at(i).id;
    const QDateTime before = w.servers.at(i).updated;
    QVERIFY(!w.removeSecurityGroup(i, QStringLiteral("kks-demo")));
    QCOMPARE(w.servers.at(i).updated, before); // Nova's record does not change: only the port

    const auto list = get(cache);
    QVERIFY2(!list->error.isError(), qPrintable(list->error.toString()));
    QVERIFY(list->incremental);
    bool seen = false;
    for (const Instance &s : list->instances) {
        if (s.id == id) {
            seen = true;
            QVERIFY2(!s.securityGroups.contains(QStringLiteral("kks-demo")),
                qPrintable(s.securityGroups.join(',')));
        }
    }
    QVERIFY(seen);
    QCOMPARE(recordsOf(*list), recordsOf(*whole(session)));
}

// The ports come with the servers, whole or incremental: a pair dropped since the last list is in the next,
// the snapshot's ports.json with it.
void TestServerCache::portsComeWithEveryList()
{
    SimFixture f;
    World &w = f.sim.world();
    KeystoneSession session(&m_client, cloud(f));
    ServerCache cache(&session);
    const auto first = get(cache);
    QVERIFY(!first->error.isError() && !first->portsError.isError());
    const int i = serverOf(w, QStringLiteral("demo"), 0);
    const QString portId = w.servers.at(i).portId;
    auto pairsOf = [&portId](const ServerList &list) {
        for (const Port &p : list.ports) {
            if (p.id == portId) {
                QStringList pairs;
                for (const AddressPair &a : p.allowedAddressPairs)
                    pairs << a.ipAddress;
                return pairs;
            }
        }
        return QStringList { QStringLiteral("(no such port)") };
    };
    const QStringList before = pairsOf(*first);
    QCOMPARE(before.size(), 1);
    QVERIFY(first->portsBody.bytes().contains(portId.toUtf8()));
    QVERIFY(w.setPortPair(portId, before.first(), false));

    const auto list = get(cache);
    QVERIFY(list->incremental);
    QVERIFY(!list->portsError.isError());
    QCOMPARE(pairsOf(*list), QStringList());
    const QList<Port> read = ApiParser::parsePorts(
        QStringLiteral("ports.json"), QJsonDocument::fromJson(list->portsBody.bytes()).object());
    QCOMPARE(read.size(), list->ports.size());
}

void TestServerCache::failedFetchKeepsTheListAndAsksAgainFromTheSameMoment()
{
    SimFixture f;
    World &w = f.sim.world();
    w.replaceDeletedInstances = false;
    KeystoneSession session(&m_client, cloud(f));
    ServerCache cache(&session);
    const auto first = get(cache);
    QVERIFY(!first->error.isError());

    FaultRule outage;
    outage.id = QStringLiteral("outage");
    outage.service = QStringLiteral("compute");
    outage.status = 500;
    f.sim.faults().add(outage);
    const QString goneId = w.servers.at(serverOf(w, QStringLiteral("demo"))).id;
    QVERIFY(!w.deleteServer(serverOf(w, QStringLiteral("demo")))); // while Nova cannot be asked
    const auto failed = get(cache);
    QVERIFY(failed->error.isError());
    QCOMPARE(failed->error.status, 500);
    QVERIFY(failed->instances.isEmpty());

    f.sim.faults().clear();
    // Far later than the overlap: what changed during the outage must still come.
    w.advance(300);
    const auto after = get(cache);
    QVERIFY2(!after->error.isError(), qPrintable(after->error.toString()));
    QVERIFY(after->incremental);
    QVERIFY(!idsOf(*after).contains(goneId));
    QCOMPARE(recordsOf(*after), recordsOf(*whole(session)));
}

void TestServerCache::badAnswersKeepTheList_data()
{
    QTest::addColumn<QString>("service");
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("said");
    QTest::newRow("the ports list is a proxy's HTML page")
        << "network"
        << "/v2.0/ports$" << int(FaultRule::Kind::Html) << "HTTP 502";
    QTest::newRow("the changes are not JSON")
        << "compute"
        << "/servers/detail$" << int(FaultRule::Kind::Malformed) << "compute";
    QTest::newRow("the changes are cut off")
        << "compute"
        << "/servers/detail$" << int(FaultRule::Kind::Truncated) << "compute";
    QTest::newRow("the ports list is a 403") << "network"
                                             << "/v2.0/ports$" << int(FaultRule::Kind::Status) << "HTTP 403";
}

void TestServerCache::badAnswersKeepTheList()
{
    QFETCH(QString, service);
    QFETCH(QString, path);
    QFETCH(int, kind);
    QFETCH(QString, said);
    SimFixture f;
    World &w = f.sim.world();
    w.replaceDeletedInstances = false;
    KeystoneSession session(&m_client, cloud(f));
    ServerCache cache(&session);
    QVERIFY(!get(cache)->error.isError());
    FaultRule bad;
    bad.service = service;
    bad.path = QRegularExpression(path);
    bad.kind = FaultRule::Kind(kind);
    bad.status = bad.kind == FaultRule::Kind::Html ? 502 : 403;
    bad.remaining = 1;
    f.sim.faults().add(bad);
    const QString goneId = w.servers.at(serverOf(w, QStringLiteral("demo"))).id;
    QVERIFY(!w.deleteServer(serverOf(w, QStringLiteral("demo"))));
    const auto failed = get(cache);
    QVERIFY(failed->error.isError());
    QVERIFY2(failed->error.toString().contains(said), qPrintable(failed->error.toString()));
    // The kept list was not lost: the next refresh brings it up to date, deletion included.
    const auto after = get(cache);
    QVERIFY2(!after->error.isError(), qPrintable(after->error.toString()));
    QVERIFY(after->incremental);
    QVERIFY(!idsOf(*after).contains(goneId));
    QCOMPARE(recordsOf(*after), recordsOf(*whole(session)));
}

void TestServerCache::wholeListAgainWhenItMust()
{
    SimFixture f;
    KeystoneSession session(&m_client, cloud(f));
    ServerCache cache(&session);
    ServerCachePolicy policy;
    policy.wholeEvery = 3;
    cache.setPolicy(policy);
    QCOMPARE(get(cache)->whyWhole, QStringLiteral("the first list"));
    QVERIFY(get(cache)->incremental);
    QVERIFY(get(cache)->incremental);
    const auto third = get(cache);
    QVERIFY(!third->incremental);
    QCOMPARE(third->whyWhole, QStringLiteral("every 3th refresh lists everything"));

    // Longer since the last fetch than Nova surely keeps deleted servers.
    policy.maxGapSeconds = 0;
    cache.setPolicy(policy);
    const auto late = get(cache);
    QVERIFY(!late->incremental);
    QVERIFY2(late->whyWhole.contains(QStringLiteral("Nova may have archived")), qPrintable(late->whyWhole));

    // A changes-since Nova refuses: the whole list, at once.
    policy = ServerCachePolicy();
    cache.setPolicy(policy);
    FaultRule refused;
    refused.service = QStringLiteral("compute");
    refused.path = QRegularExpression(QStringLiteral("/servers/detail$"));
    refused.status = 400;
    refused.remaining = 1; // the changes-since; the whole list after it is answered
    f.sim.faults().add(refused);
    const auto fallback = get(cache);
    QVERIFY2(!fallback->error.isError(), qPrintable(fallback->error.toString()));
    QVERIFY(!fallback->incremental);
    QVERIFY2(fallback->whyWhole.contains(QStringLiteral("HTTP 400")), qPrintable(fallback->whyWhole));

    // Too many servers whose ports changed: the whole list.
    policy.maxChangedPorts = 1;
    cache.setPolicy(policy);
    World &w = f.sim.world();
    QVERIFY(!w.removeSecurityGroup(serverOf(w, QStringLiteral("demo"), 0), QStringLiteral("kks-demo")));
    QVERIFY(!w.removeSecurityGroup(serverOf(w, QStringLiteral("demo"), 1), QStringLiteral("kks-demo")));
    const auto many = get(cache);
    QVERIFY(!many->incremental);
    QCOMPARE(many->whyWhole, QStringLiteral("2 servers' ports changed"));

    // Switched off.
    policy.incremental = false;
    cache.setPolicy(policy);
    QCOMPARE(get(cache)->whyWhole, QStringLiteral("incremental refresh is off"));
}

void TestServerCache::requestsShareOneFetch()
{
    SimFixture f;
    KeystoneSession session(&m_client, cloud(f));
    ServerCache cache(&session);
    QVERIFY(!get(cache)->error.isError());
    const qint64 before = f.sim.requestCount(QStringLiteral("compute"));
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QList<std::shared_ptr<const ServerList>> got;
    QObject context;
    for (int i = 0; i < 20; ++i) // twenty klusters of one project refreshed at once
        cache.request(now, &context, [&got](const std::shared_ptr<const ServerList> &l) { got << l; });
    QVERIFY(QTest::qWaitFor([&got] { return got.size() == 20; }, 60000));
    QCOMPARE(f.sim.requestCount(QStringLiteral("compute")) - before, 1); // one changes-since
    for (const auto &l : got)
        QCOMPARE(l.get(), got.first().get());
    // Asked for with what is at least as new: no request at all.
    QCOMPARE(get(cache, now).get(), got.first().get());
    QCOMPARE(f.sim.requestCount(QStringLiteral("compute")) - before, 1);
    // Asked for after that fetch began: a new one.
    QTest::qWait(20);
    QVERIFY(get(cache).get() != got.first().get());
    QCOMPARE(f.sim.requestCount(QStringLiteral("compute")) - before, 2);
}

void TestServerCache::klustersOfAProjectShareWhatTheProjectHas()
{
    SimFixture f;
    f.sim.world().asr1k = false; // the router devices' view, an admin's, is no project list: not counted here
    KeystoneSession session(&m_client, cloud(f));
    QStringList klusters;
    for (const SimKluster &k : f.sim.world().klusters) {
        if (k.projectId == f.sim.world().projects.first().id)
            klusters << k.name;
    }
    QVERIFY(klusters.size() >= 2);
    ServerCache servers(&session);
    std::unique_ptr<SharedList> groups(KlusterFetcher::sharedSecurityGroups(&session, nullptr));
    std::unique_ptr<SharedList> extensions(KlusterFetcher::sharedExtensions(&session, nullptr));
    QVERIFY(!get(servers)->error.isError()); // authenticated, and the first list kept
    const qint64 compute = f.sim.requestCount(QStringLiteral("compute"));
    const qint64 network = f.sim.requestCount(QStringLiteral("network"));
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QList<std::shared_ptr<KlusterFetcher>> fetchers;
    int done = 0;
    for (const QString &k : std::as_const(klusters)) { // refreshed together, as "Refresh all" does
        auto fetcher = std::make_shared<KlusterFetcher>(&session, k);
        fetcher->setServerCache(&servers, now);
        fetcher->setSharedLists(groups.get(), extensions.get());
        connect(fetcher.get(), &KlusterFetcher::finished, this, [&done](const KlusterFetch &r) {
            QVERIFY2(r.errors.isEmpty(), qPrintable(SourceError::joined(r.errors)));
            QVERIFY(
                r.state.serversSource.known && r.state.securityGroupsSource.known && r.state.extensionsKnown);
            ++done;
        });
        fetcher->start();
        fetchers << fetcher;
    }
    QVERIFY(QTest::qWaitFor([&] { return done == klusters.size(); }, 60000));
    QCOMPARE(f.sim.requestCount(QStringLiteral("compute")) - compute, 1); // one changes-since for all
    // One list of ports, one of security groups, one of extensions; a router each.
    QCOMPARE(f.sim.requestCount(QStringLiteral("network")) - network, 3 + klusters.size());
}

namespace {

// A connection to a generated fleet of `sim` (project "scale"), refreshing `concurrency` klusters at once.
ConnectionSpec fleetSpec(const Simulator &sim, int concurrency)
{
    ConnectionSpec spec;
    spec.name = QStringLiteral("fleet");
    spec.config = scaleCloud(sim, spec.name);
    spec.refreshConcurrency = concurrency;
    return spec;
}

int openFiles()
{
    return int(
        QDir(QStringLiteral("/proc/self/fd")).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).size());
}

} // namespace

void TestServerCache::refreshesOfAConnectionWaitTheirTurn()
{
    qRegisterMetaType<RefreshResult>();
    const auto run = [](int concurrency, int *maxInFlight, bool cancelOne) {
        Simulator sim;
        Scenario::generate(sim.world(), 10, 6); // a fleet of 6 klusters in one project
        QString error;
        if (!sim.start(Simulator::Ports(), &error))
            qFatal("simulator: %s", qPrintable(error));
        FaultRule slow;
        slow.service = QStringLiteral("kubernikus");
        slow.kind = FaultRule::Kind::Latency;
        slow.latencyMs = 150;
        sim.faults().add(slow);
        QThread worker;
        worker.start();
        const ConnectionSpec spec = fleetSpec(sim, concurrency);
        QList<RefreshResult> results;
        {
            Connection connection(spec, &worker);
            QObject::connect(
                &connection, &Connection::refreshed, [&results](const RefreshResult &r) { results << r; });
            for (const SimKluster &k : sim.world().klusters)
                connection.refresh(k.name);
            if (cancelOne)
                connection.cancelRefresh(sim.world().klusters.last().name); // still waiting for its turn
            if (!QTest::qWaitFor([&results] { return results.size() == 6; }, 60000))
                qFatal("refreshes did not end");
        }
        worker.quit();
        worker.wait();
        *maxInFlight = sim.maxInFlight(QStringLiteral("kubernikus"));
        return results;
    };
    int bounded = 0;
    const QList<RefreshResult> one = run(1, &bounded, true);
    int cancelled = 0;
    for (const RefreshResult &r : one) {
        if (r.cancelled) {
            ++cancelled;
            QCOMPARE(r.key.kluster, QStringLiteral("scale-005"));
        } else {
            QVERIFY2(r.errors.isEmpty() && r.fetch, qPrintable(SourceError::joined(r.errors)));
        }
    }
    QCOMPARE(cancelled, 1);
    // One kluster at a time asks Kubernikus for two things at once (the kluster and its credentials).
    QVERIFY2(bounded <= 2, qPrintable(QString::number(bounded)));
    int unbounded = 0;
    for (const RefreshResult &r : run(0, &unbounded, false))
        QVERIFY2(r.errors.isEmpty() && r.fetch, qPrintable(SourceError::joined(r.errors)));
    QVERIFY2(unbounded > 2, qPrintable(QString::number(unbounded)));
}

void TestServerCache::aRoundsKlustersShareOneFetchOfTheProject()
{
    // A round's klusters are asked at one moment: the first one's fetch of the project's servers serves the
    // others waiting their turn (one at a time here), however soon it began after they were asked.
    qRegisterMetaType<RefreshResult>();
    Simulator sim;
    Scenario::generate(sim.world(), 10, 6); // a fleet of 6 klusters in one project
    QString error;
    QVERIFY2(sim.start(Simulator::Ports(), &error), qPrintable(error));
    QThread worker;
    worker.start();
    const auto stop = qScopeGuard([&worker] {
        worker.quit();
        worker.wait();
    });
    {
        Connection connection(fleetSpec(sim, 1), &worker);
        int results = 0;
        connect(&connection, &Connection::refreshed, this, [&results](const RefreshResult &r) {
            QVERIFY2(r.errors.isEmpty() && r.fetch, qPrintable(SourceError::joined(r.errors)));
            ++results;
        });
        connection.refresh(sim.world().klusters.first().name); // the session and the first list
        QVERIFY(QTest::qWaitFor([&results] { return results == 1; }, 60000));
        const qint64 compute = sim.requestCount(QStringLiteral("compute"));
        QStringList round;
        for (const SimKluster &k : sim.world().klusters)
            round << k.name;
        // The window busy with each refresh said started (its rows, its counts): the worker runs ahead.
        const QMetaObject::Connection busy = connect(&connection, &Connection::refreshesStarted, this,
            [](const QStringList &klusters) { QThread::msleep(30 * klusters.size()); });
        connection.refresh(round);
        disconnect(busy);
        QVERIFY(QTest::qWaitFor([&results] { return results == 7; }, 60000));
        QCOMPARE(sim.requestCount(QStringLiteral("compute")) - compute, 1); // one changes-since for all six
    }
}

void TestServerCache::cancelledRefreshStopsWaiting()
{
    SimFixture f;
    KeystoneSession session(&m_client, cloud(f));
    ServerCache cache(&session);
    FaultRule slow;
    slow.service = QStringLiteral("compute");
    slow.kind = FaultRule::Kind::Latency;
    slow.latencyMs = 3000;
    f.sim.faults().add(slow);
    KlusterFetcher fetcher(&session, QStringLiteral("demo"));
    fetcher.setServerCache(&cache, QDateTime::currentDateTimeUtc());
    KlusterFetch result;
    bool done = false;
    connect(&fetcher, &KlusterFetcher::finished, [&](const KlusterFetch &r) {
        result = r;
        done = true;
    });
    fetcher.start();
    QTest::qWait(300);
    bool sharedArrived = false;
    QObject other; // another kluster of the project, waiting for the same list
    cache.request(QDateTime::currentDateTimeUtc().addSecs(-5), &other,
        [&sharedArrived](const std::shared_ptr<const ServerList> &) { sharedArrived = true; });
    fetcher.cancel();
    QVERIFY(QTest::qWaitFor([&done] { return done; }, 10000));
    QVERIFY(!sharedArrived); // this refresh was not held until the shared list came
    QVERIFY(QTest::qWaitFor([&sharedArrived] { return sharedArrived; }, 30000));
    QVERIFY(!result.state.serversSource.known);
}

void TestServerCache::clockSteppedBackListsEverything()
{
    // Nova's clock steps back an hour (its Date says so): a server stopped after the step is stamped before
    // where the last fetch left off, and changes-since would not list it. The cache notices the step and
    // lists everything; the stopped server is shown as stopped on this very refresh.
    SimFixture f;
    World &w = f.sim.world();
    w.replaceDeletedInstances = false;
    KeystoneSession session(&m_client, cloud(f));
    ServerCache cache(&session);
    QVERIFY(!get(cache)->error.isError());
    QVERIFY(get(cache)->incremental);
    QCOMPARE(f.request("POST", f.sim.adminUrl() + QStringLiteral("/clock/advance"), R"({"seconds": -3600})")
                 .status,
        200);
    SimServer &stopped = w.servers[serverOf(w, QStringLiteral("demo"), 1)];
    stopped.status = QStringLiteral("SHUTOFF");
    stopped.vmState = QStringLiteral("stopped");
    stopped.updated = w.now();
    const QString stoppedId = stopped.id;
    const auto after = get(cache);
    QVERIFY2(!after->error.isError(), qPrintable(after->error.toString()));
    QVERIFY(!after->incremental);
    QVERIFY2(after->whyWhole.contains(QStringLiteral("clock stepped back")), qPrintable(after->whyWhole));
    bool seen = false;
    for (const Instance &i : after->instances) {
        if (i.id == stoppedId) {
            QCOMPARE(i.status, QStringLiteral("SHUTOFF"));
            seen = true;
        }
    }
    QVERIFY(seen);
    // And from there on, changes again.
    QVERIFY(get(cache)->incremental);
}

void TestServerCache::healthyKlustersAreListedAtASlowerPace()
{
    // Healthy klusters nobody looks at: a round lists none of their nodes again (their last list stands, with
    // its age), but the kluster one of whose instances changed has its nodes listed in the same round.
    qRegisterMetaType<RefreshResult>();
    EndpointHealth::shared().reset();
    Simulator sim;
    Scenario::generate(sim.world(), 5, 6);
    for (SimRouter &r : sim.world().routers) // no routes of deleted nodes: every kluster healthy
        r.routes.removeIf(
            [](const SimRoute &route) { return route.destination.startsWith(QLatin1String("10.255.")); });
    QString error;
    QVERIFY2(sim.start(Simulator::Ports(), &error), qPrintable(error));
    QThread worker;
    worker.start();
    {
        Connection connection(fleetSpec(sim, 8), &worker);
        const auto round = [&connection] {
            QHash<QString, RefreshResult> results;
            for (const RefreshResult &r : refreshRound(connection))
                results.insert(r.key.kluster, r);
            return results;
        };
        const QHash<QString, RefreshResult> first = round();
        QCOMPARE(first.size(), 6);
        for (const RefreshResult &r : first) {
            QVERIFY2(r.fetch && r.errors.isEmpty(), qPrintable(SourceError::joined(r.errors)));
            QCOMPARE(r.diagnosis->worst(), Severity::Info);
            QVERIFY(!r.fetch->nodesListedAt.isValid()); // listed now
        }
        qint64 nodeLists = sim.requestCount(QStringLiteral("kubernetes"));
        for (const RefreshResult &r : round()) {
            QVERIFY2(r.fetch && r.errors.isEmpty(), qPrintable(SourceError::joined(r.errors)));
            QCOMPARE(r.fetch->nodesListedAt, first.value(r.key.kluster).fetchedAt); // the first round's, said
            QCOMPARE(r.fetch->state.nodes.size(), 5);
        }
        QCOMPARE(sim.requestCount(QStringLiteral("kubernetes")) - nodeLists, 0);

        // An instance of scale-002 stops: its nodes are listed in the very round that sees it.
        SimServer &stopped = sim.world().servers[serverOf(sim.world(), QStringLiteral("scale-002"))];
        stopped.status = QStringLiteral("SHUTOFF");
        stopped.vmState = QStringLiteral("stopped");
        stopped.updated = sim.world().now();
        nodeLists = sim.requestCount(QStringLiteral("kubernetes"));
        const QHash<QString, RefreshResult> third = round();
        QCOMPARE(sim.requestCount(QStringLiteral("kubernetes")) - nodeLists, 1);
        QVERIFY(!third.value(QStringLiteral("scale-002")).fetch->nodesListedAt.isValid());
        QVERIFY(third.value(QStringLiteral("scale-001")).fetch->nodesListedAt.isValid());
    }
    worker.quit();
    worker.wait();
}

void TestServerCache::fleetBeyondTheWatchBoundIsFreshAndCheap()
{
    // More klusters than node watches allowed: every kluster still comes back fresh, round after round; the
    // watches stay within the bound, but the kluster shown always has one; a round asks Kubernikus only for
    // the list (each kluster as the list gave it, the credentials kept); and no connection stays open per
    // kluster (a descriptor each would run a desktop's 1,024 out at a region's size).
    qRegisterMetaType<RefreshResult>();
    qRegisterMetaType<NodeWatchStatus>();
    EndpointHealth::shared().reset();
    constexpr int Klusters = 48;
    constexpr int Bound = 3;
    Simulator sim;
    Scenario::generate(sim.world(), 8, Klusters); // each with an unregistered instance: in trouble
    QString error;
    QVERIFY2(sim.start(Simulator::Ports(), &error), qPrintable(error));
    WatchBudget &budget = WatchBudget::shared();
    const int limitBefore = budget.limit();
    budget.setLimit(Bound);
    QThread worker;
    worker.start();
    {
        Connection connection(fleetSpec(sim, 8), &worker);
        QHash<QString, NodeWatchStatus> watches;
        QObject::connect(&connection, &Connection::watchStatusChanged,
            [&watches](const QString &k, const NodeWatchStatus &s) { watches.insert(k, s); });
        const auto round = [&connection] { return refreshRound(connection); };
        const int filesBefore = openFiles();
        for (const RefreshResult &r : round()) {
            QVERIFY2(r.fetch && r.errors.isEmpty(), qPrintable(SourceError::joined(r.errors)));
            QVERIFY(r.diagnosis && !r.diagnosis->findings.isEmpty()); // in trouble: each wants a watch
        }
        QTest::qWait(200); // the watches' status
        const auto watching = [&watches] {
            int n = 0;
            for (const NodeWatchStatus &s : std::as_const(watches))
                n += s.watching ? 1 : 0;
            return n;
        };
        QCOMPARE(budget.inUse(), Bound);
        QCOMPARE(watching(), Bound);
        const qint64 kubernikus = sim.requestCount(QStringLiteral("kubernikus"));
        for (const RefreshResult &r : round())
            QVERIFY2(r.fetch && r.errors.isEmpty(), qPrintable(SourceError::joined(r.errors)));
        QCOMPARE(sim.requestCount(QStringLiteral("kubernikus")) - kubernikus, 1); // the list alone
        QVERIFY2(openFiles() - filesBefore < Klusters,
            qPrintable(QStringLiteral("%1 descriptors more").arg(openFiles() - filesBefore)));
        // The kluster shown is watched, whatever the bound.
        QString unwatched;
        for (const SimKluster &k : sim.world().klusters) {
            if (!watches.value(k.name).watching)
                unwatched = k.name;
        }
        QVERIFY(!unwatched.isEmpty());
        connection.setShown(unwatched);
        QVERIFY(QTest::qWaitFor([&] { return watches.value(unwatched).watching; }, 10000));
        QCOMPARE(budget.inUse(), Bound + 1);
    }
    worker.quit();
    worker.wait();
    QCOMPARE(budget.inUse(), 0); // every watch gave its place back
    budget.setLimit(limitBefore);
}

void TestServerCache::tooManyRequestsSlowTheWholeConnection()
{
    // Neutron turns the routers away for a while (429, Retry-After: 1): the connection waits as asked and
    // then goes on; no kluster fails for it.
    qRegisterMetaType<RefreshResult>();
    EndpointHealth::shared().reset();
    Simulator sim;
    Scenario::generate(sim.world(), 5, 12);
    QString error;
    QVERIFY2(sim.start(Simulator::Ports(), &error), qPrintable(error));
    FaultRule storm;
    storm.service = QStringLiteral("network");
    storm.path = QRegularExpression(QStringLiteral("^/v2.0/routers/"));
    storm.status = 429;
    storm.retryAfter = QStringLiteral("1");
    storm.remaining = 10;
    sim.faults().add(storm);
    QThread worker;
    worker.start();
    QList<RefreshResult> results;
    bool allBack = false;
    {
        Connection connection(fleetSpec(sim, 4), &worker);
        QObject::connect(
            &connection, &Connection::refreshed, [&results](const RefreshResult &r) { results << r; });
        for (const SimKluster &k : sim.world().klusters)
            connection.refresh(k.name);
        // The pauses the cloud asks for add up (the endpoint's rest doubles while it keeps refusing): on a
        // loaded machine under the sanitizers, a good minute.
        allBack = QTest::qWaitFor([&results] { return results.size() == 12; }, 240000);
    }
    worker.quit();
    worker.wait();
    QVERIFY(allBack);
    for (const RefreshResult &r : std::as_const(results))
        QVERIFY2(r.fetch && r.errors.isEmpty(),
            qPrintable(r.key.kluster + QStringLiteral(": ") + SourceError::joined(r.errors)));
    // Every refusal was met (twelve klusters, a router each, ten refused), and none failed a kluster.
    QCOMPARE(sim.faults().rules().value(0).remaining, 0);
    EndpointHealth::shared().reset();
}

QTEST_GUILESS_MAIN(TestServerCache)
#include "tst_servercache.moc"
