// A console's refresh of a 5,000-node kluster on the simulated cloud (its own
// process): the wall time, the bytes received and the requests of a refresh
// that lists every server again, of one that asks only for what changed when
// nothing did, and of one after 20 servers and 20 nodes changed. The session
// and the kept server list live on between refreshes, as in the console.
//
//   build/benchmarks/bench_refresh

#include "benchmarks/simprocess.h"
#include "services/klusterfetcher.h"

#include <QCoreApplication>
#include <QElapsedTimer>
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
        if (keep)
            fetcher.setServerCache(&servers, QDateTime::currentDateTimeUtc());
        QEventLoop loop; // a benchmark driver, not product code
        KlusterFetch result;
        QObject::connect(&fetcher, &KlusterFetcher::finished, &loop, [&](const KlusterFetch &f) {
            result = f;
            loop.quit();
        });
        fetcher.start();
        loop.exec();
        return result;
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

} // namespace

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
