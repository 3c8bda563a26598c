// The simulated cloud at scale: how long a generated world takes to start,
// and how fast it serves a full `GET /servers/detail` walk, split into the
// time the server spends answering and the rest (transfer and the client);
// how long a fleet written as a scenario file takes to load.
//
//   build/benchmarks/bench_simulator
//   FLIGHTDECK_BENCH_LARGE=1 build/benchmarks/bench_simulator --benchmark_filter=ScenarioLoad   # also 5,000
//   build/benchmarks/bench_simulator --write-fleet-scenario KLUSTERS NODES FILE   # the file, for --scenario

#include "benchmarks/fleetscenario.h"
#include "simulator/scenario.h"
#include "simulator/simulator.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTemporaryDir>
#include <QTextStream>
#include <benchmark/benchmark.h>
#include <cstdlib>
#include <memory>

namespace {

// Waits for a reply in a local event loop: a benchmark driver, not product code.
QByteArray fetch(QNetworkAccessManager &nam, const QNetworkRequest &request, const QByteArray &method = "GET",
    const QByteArray &body = QByteArray(), QByteArray *token = nullptr)
{
    QNetworkReply *reply = nam.sendCustomRequest(request, method, body);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    if (token)
        *token = reply->rawHeader("X-Subject-Token");
    const QByteArray data = reply->readAll();
    reply->deleteLater();
    return data;
}

void BM_GenerateAndStart(benchmark::State &state)
{
    for (auto _ : state) {
        Simulator sim;
        Scenario::generate(sim.world(), int(state.range(0)));
        QString error;
        if (!sim.start(Simulator::Ports(), &error))
            state.SkipWithError(qPrintable(error));
        benchmark::DoNotOptimize(sim.world().servers.size());
    }
}

void BM_ServersDetailWalk(benchmark::State &state)
{
    Simulator sim;
    Scenario::generate(sim.world(), int(state.range(0)));
    QString error;
    sim.start(Simulator::Ports(), &error);
    QNetworkAccessManager nam;
    QNetworkRequest auth(QUrl(sim.authUrl() + QStringLiteral("/auth/tokens")));
    auth.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    QByteArray token;
    fetch(nam, auth, "POST",
        R"({"auth": {"identity": {"methods": ["password"], "password": {"user": {"name": "scale", "domain": {"name": "Default"},
             "password": "scale-password"}}}, "scope": {"project": {"name": "scale", "domain": {"name": "Default"}}}}})",
        &token);
    qint64 pages = 0;
    qint64 servers = 0;
    const qint64 handlingBefore = sim.handlingNanoseconds();
    for (auto _ : state) {
        QString url = sim.endpoint(QStringLiteral("compute")) + QStringLiteral("/servers/detail");
        while (!url.isEmpty()) {
            QNetworkRequest request { QUrl(url) };
            request.setRawHeader("X-Auth-Token", token);
            const QJsonObject body = QJsonDocument::fromJson(fetch(nam, request)).object();
            servers += body.value(QStringLiteral("servers")).toArray().size();
            ++pages;
            url.clear();
            for (const QJsonValue &l : body.value(QStringLiteral("servers_links")).toArray())
                url = l.toObject().value(QStringLiteral("href")).toString();
        }
    }
    state.counters["pages"] = benchmark::Counter(double(pages), benchmark::Counter::kAvgIterations);
    state.counters["servers"] = benchmark::Counter(double(servers), benchmark::Counter::kAvgIterations);
    state.counters["serverMs"] = benchmark::Counter(
        double(sim.handlingNanoseconds() - handlingBefore) / 1e6, benchmark::Counter::kAvgIterations);
}

// A fleet of klusters of 20 nodes (benchmarks/fleetscenario.h) loaded from its file as
// `flightdeck-sim --scenario FILE` loads it (Scenario::loadFile), into a new world each time.
void BM_ScenarioLoad(benchmark::State &state)
{
    const QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("fleet.json"));
    QString error;
    if (!FleetScenario::write(path, int(state.range(0)), 20, &error)) {
        state.SkipWithError(qPrintable(error));
        return;
    }
    qsizetype servers = 0;
    for (auto _ : state) {
        state.PauseTiming();
        auto world = std::make_unique<World>();
        FaultInjector faults;
        state.ResumeTiming();
        if (!Scenario::loadFile(path, *world, faults, &error)) {
            state.SkipWithError(qPrintable(error));
            return;
        }
        servers = world->servers.size();
        state.PauseTiming();
        world.reset();
        state.ResumeTiming();
    }
    state.counters["servers"] = double(servers);
}

// 125 to 1,000 klusters; 5,000 too with FLIGHTDECK_BENCH_LARGE=1.
void fleetSizes(benchmark::internal::Benchmark *b)
{
    for (const int klusters : { 125, 250, 500, 1000 })
        b->Arg(klusters);
    if (qEnvironmentVariableIntValue("FLIGHTDECK_BENCH_LARGE") == 1)
        b->Arg(5000);
}

// `--write-fleet-scenario KLUSTERS NODES FILE`: writes the fleet's scenario file and exits.
int writeFleetScenario(const QStringList &args)
{
    bool klustersOk = false;
    bool nodesOk = false;
    const int klusters = args.value(0).toInt(&klustersOk);
    const int nodes = args.value(1).toInt(&nodesOk);
    QTextStream err(stderr);
    if (args.size() != 3 || !klustersOk || !nodesOk || klusters < 1 || klusters > 5000 || nodes < 1
        || nodes > 200) {
        err << "usage: bench_simulator --write-fleet-scenario KLUSTERS(1-5000) NODES(1-200) FILE\n";
        return 2;
    }
    QString error;
    if (!FleetScenario::write(args.at(2), klusters, nodes, &error)) {
        err << error << "\n";
        return 1;
    }
    return 0;
}

} // namespace

BENCHMARK(BM_GenerateAndStart)->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ServersDetailWalk)->Arg(1000)->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ScenarioLoad)->Apply(fleetSizes)->Unit(benchmark::kMillisecond);

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.value(1) == QLatin1String("--write-fleet-scenario"))
        return writeFleetScenario(args.mid(2));
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
