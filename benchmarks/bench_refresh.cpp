// A console's refresh of a 5,000-node kluster on the simulated cloud (its own
// process): the wall time, the bytes received and the requests of a refresh
// that lists every server again, of one that asks only for what changed when
// nothing did, and of one after 20 servers and 20 nodes changed. The session
// and the kept server list live on between refreshes, as in the console.
// And the first load of a fleet, 100 klusters of 20 nodes in one project, all
// at once: each kluster fetching its project's servers, groups and extensions
// for itself, or the project's klusters sharing one fetch of each.
//
// And the console's own path (a Connection, its worker thread, the nodes'
// watch): a refresh while the watch is live (the nodes are not listed), and
// how long a node's change at the API server takes to reach the console,
// diagnosed.
//
//   build/benchmarks/bench_refresh

#include "benchmarks/simprocess.h"
#include "services/connection.h"
#include "services/openstack/klusterfetcher.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QThread>
#include <benchmark/benchmark.h>

namespace {

constexpr int Nodes = 5000;

SimProcess &world()
{
    static SimProcess w(Nodes);
    return w;
}

struct Console
{
    HttpClient client;
    KeystoneSession session { &client, world().cloud() };
    ServerCache servers { &session };

    KlusterFetch refresh(bool keep)
    {
        KlusterFetcher fetcher(&session, QStringLiteral("scale"));
        if (keep) { // as the console does
            fetcher.setServerCache(&servers, QDateTime::currentDateTimeUtc());
            fetcher.setNodesFromCache(true);
        }
        return fetchToTheEnd(fetcher);
    }
};

// range(0): 0 lists every server again; 1 asks only for what changed. range(1): servers and nodes changed
// before each refresh (20 each, or none).
void BM_Refresh(benchmark::State &state)
{
    const bool keep = state.range(0) != 0;
    const int churn = int(state.range(1));
    Console console;
    console.refresh(keep); // the first refresh lists everything, in every mode
    qint64 bytes = 0;
    qint64 requests = 0;
    qint64 received = 0;
    for (auto _ : state) {
        state.PauseTiming();
        if (churn > 0) {
            world().admin("POST", QStringLiteral("/klusters/scale/churn"),
                QStringLiteral(R"({"servers": %1, "nodes": %1})").arg(churn).toUtf8());
        }
        const qint64 bytesBefore = console.client.bytesReceived();
        const qint64 requestsBefore = console.client.requestsSent();
        state.ResumeTiming();
        const KlusterFetch result = console.refresh(keep);
        state.PauseTiming();
        if (!result.errors.isEmpty())
            state.SkipWithError(qPrintable(SourceError::joined(result.errors)));
        if (keep && !result.serversIncremental)
            state.SkipWithError(qPrintable(QStringLiteral("listed whole: ") + result.serversWhyWhole));
        bytes += console.client.bytesReceived() - bytesBefore;
        requests += console.client.requestsSent() - requestsBefore;
        received += result.serversReceived;
        state.ResumeTiming();
    }
    const double n = double(state.iterations());
    state.counters["MB_received"] = double(bytes) / n / 1e6;
    state.counters["requests"] = double(requests) / n;
    state.counters["servers_received"] = double(received) / n;
}

SimProcess &fleet()
{
    static SimProcess w(20, 100);
    return w;
}

qint64 residentKiB()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong();
    }
    return 0;
}

// range(0): 1 shares what the project has, 0 does not.
void BM_FleetFirstLoad(benchmark::State &state)
{
    const bool share = state.range(0) != 0;
    SimProcess &w = fleet();
    QStringList klusters;
    for (int i = 0; i < 100; ++i)
        klusters << QStringLiteral("scale-%1").arg(i, 3, 10, QLatin1Char('0'));
    qint64 bytes = 0, requests = 0, grown = 0;
    for (auto _ : state) {
        state.PauseTiming();
        HttpClient client;
        KeystoneSession session(&client, w.cloud());
        ServerCache servers(&session);
        std::unique_ptr<SharedList> groups(KlusterFetcher::sharedSecurityGroups(&session, nullptr));
        std::unique_ptr<SharedList> extensions(KlusterFetcher::sharedExtensions(&session, nullptr));
        QList<KlusterFetch> results;
        std::vector<std::unique_ptr<KlusterFetcher>> fetchers;
        const qint64 before = residentKiB();
        state.ResumeTiming();
        QEventLoop loop; // a benchmark driver, not product code
        const QDateTime now = QDateTime::currentDateTimeUtc();
        for (const QString &k : std::as_const(klusters)) {
            fetchers.push_back(std::make_unique<KlusterFetcher>(&session, k));
            KlusterFetcher *f = fetchers.back().get();
            if (share) {
                f->setServerCache(&servers, now);
                f->setSharedLists(groups.get(), extensions.get());
            }
            f->setNodesFromCache(true);
            QObject::connect(f, &KlusterFetcher::finished, &loop, [&](const KlusterFetch &r) {
                results << r;
                if (results.size() == klusters.size())
                    loop.quit();
            });
            f->start();
        }
        loop.exec();
        state.PauseTiming();
        for (const KlusterFetch &r : std::as_const(results)) {
            if (!r.errors.isEmpty())
                state.SkipWithError(qPrintable(SourceError::joined(r.errors)));
        }
        grown = residentKiB() - before; // what the fetched states hold
        bytes = client.bytesReceived();
        requests = client.requestsSent();
        state.ResumeTiming();
    }
    state.counters["MB_received"] = double(bytes) / 1e6;
    state.counters["requests"] = double(requests);
    state.counters["MB_resident_grown"] = double(grown) / 1024.0;
}

// The console's connection to the 5,000-node kluster, on its worker thread, with the nodes watched.
struct LiveConsole
{
    QThread thread;
    std::unique_ptr<Connection> connection;
    bool watchConnected = false;
    int changes = 0;
    QElapsedTimer clock;
    qint64 changeArrivedNs = 0;

    LiveConsole()
    {
        thread.start();
        ConnectionSpec spec;
        spec.name = QStringLiteral("scale");
        spec.config = world().cloud();
        connection = std::make_unique<Connection>(spec, &thread);
        clock.start();
        QObject::connect(connection.get(), &Connection::watchStatusChanged,
            [this](const QString &, const NodeWatchStatus &s) { watchConnected = s.connected; });
        QObject::connect(connection.get(), &Connection::nodesChanged, [this](const RefreshResult &) {
            ++changes;
            changeArrivedNs = clock.nsecsElapsed();
        });
    }
    ~LiveConsole()
    {
        connection.reset();
        thread.quit();
        thread.wait();
    }
    LiveConsole(const LiveConsole &) = delete;
    LiveConsole &operator=(const LiveConsole &) = delete;

    RefreshResult refresh()
    {
        QEventLoop loop; // a benchmark driver, not product code
        RefreshResult result;
        const auto c
            = QObject::connect(connection.get(), &Connection::refreshed, &loop, [&](const RefreshResult &r) {
                  result = r;
                  loop.quit();
              });
        connection->refresh(QStringLiteral("scale"));
        loop.exec();
        QObject::disconnect(c);
        return result;
    }
    bool waitFor(const std::function<bool()> &condition)
    {
        QElapsedTimer t;
        t.start();
        while (!condition() && t.elapsed() < 30000)
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
        return condition();
    }
};

// range(0): servers and nodes changed before each refresh (20 each, or none). The nodes' changes reach the
// console through the watch before the refresh begins; the refresh lists neither nodes nor unchanged servers.
void BM_WatchedRefresh(benchmark::State &state)
{
    const int churn = int(state.range(0));
    LiveConsole console;
    console.refresh(); // lists everything, and starts the watch
    if (!console.waitFor([&console] { return console.watchConnected; })) {
        state.SkipWithError("the node watch did not connect");
        return;
    }
    qint64 bytes = 0;
    qint64 requests = 0;
    for (auto _ : state) {
        state.PauseTiming();
        if (churn > 0) {
            const int before = console.changes;
            world().admin("POST", QStringLiteral("/klusters/scale/churn"),
                QStringLiteral(R"({"servers": %1, "nodes": %1})").arg(churn).toUtf8());
            console.waitFor([&console, before] { return console.changes > before; });
        }
        state.ResumeTiming();
        const RefreshResult result = console.refresh();
        state.PauseTiming();
        if (!result.fetch || !result.errors.isEmpty())
            state.SkipWithError(qPrintable(SourceError::joined(result.errors)));
        else {
            bytes += result.fetch->bytesReceived;
            requests += result.fetch->requests;
        }
        state.ResumeTiming();
    }
    const double n = double(state.iterations());
    state.counters["MB_received"] = double(bytes) / n / 1e6;
    state.counters["requests"] = double(requests) / n;
}

// From a node's change at the API server (the admin API's churn, answered) to the console's worker handing
// on the kluster's data with it, diagnosed again.
void BM_NodeChangeShown(benchmark::State &state)
{
    LiveConsole console;
    console.refresh();
    if (!console.waitFor([&console] { return console.watchConnected; })) {
        state.SkipWithError("the node watch did not connect");
        return;
    }
    for (auto _ : state) {
        const int before = console.changes;
        const qint64 start = console.clock.nsecsElapsed();
        world().admin("POST", QStringLiteral("/klusters/scale/churn"), R"({"nodes": 1})");
        if (!console.waitFor([&console, before] { return console.changes > before; })) {
            state.SkipWithError("the change did not arrive");
            return;
        }
        state.SetIterationTime(double(console.changeArrivedNs - start) / 1e9);
    }
}

} // namespace

BENCHMARK(BM_WatchedRefresh)
    ->ArgName("changed")
    ->Arg(0)
    ->Arg(20)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(5);
BENCHMARK(BM_NodeChangeShown)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(20);

BENCHMARK(BM_FleetFirstLoad)->ArgName("shared")->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->Iterations(1);

BENCHMARK(BM_Refresh)
    ->ArgNames({ "incremental", "changed" })
    ->Args({ 0, 0 })
    ->Args({ 1, 0 })
    ->Args({ 0, 20 })
    ->Args({ 1, 20 })
    ->Unit(benchmark::kMillisecond)
    ->Iterations(5);

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
