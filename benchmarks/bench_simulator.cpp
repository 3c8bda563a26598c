// The simulated cloud at scale: how long a generated world takes to start,
// and how fast it serves a full `GET /servers/detail` walk, split into the
// time the server spends answering and the rest (transfer and the client).
//
//   build/benchmarks/bench_simulator

#include "simulator/scenario.h"
#include "simulator/simulator.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <benchmark/benchmark.h>

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

} // namespace

BENCHMARK(BM_GenerateAndStart)->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ServersDetailWalk)->Arg(1000)->Arg(5000)->Unit(benchmark::kMillisecond);

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
