// Parse and diagnose klusters of 1,000, 5,000 and 20,000 nodes, timed apart; the parse also as it was
// before the large bodies were read with simdjson (BM_ParseQt).
//
//   build/benchmarks/bench_diagnosis
//
// Each kluster has as many instances as nodes (real-shaped Nova and
// Kubernetes bodies, with the bulk real ones carry), a pod CIDR per node, and
// a router with a few hundred routes: correct ones, duplicates for recycled
// CIDRs and orphans; plus a sprinkling of unregistered, failed, ungrouped and
// NotReady instances, ghost nodes (no instance) and lost nodes (an instance
// without node that the router still routes a pod CIDR to).

#include "core/apiparser.h"
#include "core/diagnosis.h"
#include "tests/common/worldbuilder.h"

#include <QJsonDocument>
#include <QMap>
#include <benchmark/benchmark.h>

namespace {

struct Bodies
{
    QByteArray kluster, servers, router, groups, nodes, extensions;
    QDateTime capturedAt;
};

QString suffix(int i)
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    QString s(5, QLatin1Char('a'));
    for (int k = 4; k >= 0; --k) {
        s[k] = QLatin1Char(alphabet[i % 36]);
        i /= 36;
    }
    return s;
}

QString nodeIp(int i)
{
    return QStringLiteral("172.16.%1.%2").arg(i / 250).arg(i % 250 + 2);
}

QString podCidr(int i)
{
    return QStringLiteral("10.%1.%2.0/24").arg(i / 256).arg(i % 256);
}

Bodies generate(int nodes)
{
    WorldBuilder w(QStringLiteral("bench"), QStringLiteral("10.0.0.0/8"));
    w.realisticBulk(true).pool(QStringLiteral("pool"), nodes).maxRoutes(512);
    const int routed = 250; // a few hundred routes in all
    for (int i = 0; i < nodes; ++i) {
        const QString name = QStringLiteral("kks-bench-pool-") + suffix(i);
        const QString ip = nodeIp(i);
        const int mod = i % 200;
        if (mod == 7) { // unregistered for an hour
            w.server(name, ip, 60);
            continue;
        }
        if (mod == 11) { // in ERROR
            w.server(name, ip, 600, QStringLiteral("ERROR"));
            continue;
        }
        if (mod == 19) { // a ghost: its instance is gone, its node and route stay
            w.ghostNode(name, ip, podCidr(i));
            w.route(podCidr(i), ip);
            continue;
        }
        if (mod == 23) { // a lost node: its node is gone, its route stays
            w.server(name, ip, 60 * 24 * 3);
            w.route(podCidr(i), ip);
            continue;
        }
        w.server(name, ip, 60 * 24 * 3, QStringLiteral("ACTIVE"),
            mod == 13 ? QStringList() : QStringList { QStringLiteral("kks-sg") });
        const int node
            = w.node(name, ip, podCidr(i), mod == 17 ? QStringLiteral("False") : QStringLiteral("True"));
        if (mod == 17)
            w.setCondition(node, QStringLiteral("Ready"), QStringLiteral("False"),
                QStringLiteral("KubeletNotReady"), 42);
        if (i < routed)
            w.route(podCidr(i), ip);
    }
    for (int k = 0; k < 25; ++k) // a recycled CIDR's old route, after the correct one
        w.route(podCidr(k * 3), QStringLiteral("172.31.0.%1").arg(k + 2));
    for (int k = 0; k < 25; ++k) // orphans of deleted nodes
        w.route(QStringLiteral("10.250.%1.0/24").arg(k), QStringLiteral("172.31.1.%1").arg(k + 2));
    Bodies b;
    b.kluster = QJsonDocument(w.klusterJson()).toJson(QJsonDocument::Compact);
    b.servers = QJsonDocument(w.serversJson()).toJson(QJsonDocument::Compact);
    b.router = QJsonDocument(w.routerJson()).toJson(QJsonDocument::Compact);
    b.groups = QJsonDocument(w.securityGroupsJson()).toJson(QJsonDocument::Compact);
    b.nodes = QJsonDocument(w.nodesJson()).toJson(QJsonDocument::Compact);
    b.extensions = QJsonDocument(w.extensionsJson()).toJson(QJsonDocument::Compact);
    b.capturedAt = WorldBuilder::defaultCapturedAt();
    return b;
}

const Bodies &bodies(int nodes)
{
    static QMap<int, Bodies> cache;
    auto it = cache.find(nodes);
    if (it == cache.end())
        it = cache.insert(nodes, generate(nodes));
    return it.value();
}

// How the two large bodies (servers, nodes) are read: from their bytes with simdjson, as the product reads
// them, or through Qt's QJsonDocument, as it did before.
enum class Large
{
    Bytes,
    Qt
};

KlusterState parse(const Bodies &b, Large large = Large::Bytes)
{
    KlusterState s;
    s.capturedAt = b.capturedAt;
    s.kluster = ApiParser::parseKluster(
        QStringLiteral("kluster.json"), parseJsonObject(QStringLiteral("kluster.json"), b.kluster));
    s.instances = large == Large::Bytes ? ApiParser::parseServers(QStringLiteral("servers.json"), b.servers)
                                        : ApiParser::parseServers(QStringLiteral("servers.json"),
                                            parseJsonObject(QStringLiteral("servers.json"), b.servers));
    s.router = ApiParser::parseRouter(
        QStringLiteral("router.json"), parseJsonObject(QStringLiteral("router.json"), b.router));
    s.securityGroups = ApiParser::parseSecurityGroups(QStringLiteral("security-groups.json"),
        parseJsonObject(QStringLiteral("security-groups.json"), b.groups));
    s.nodes = large == Large::Bytes ? ApiParser::parseNodes(QStringLiteral("nodes.json"), b.nodes)
                                    : ApiParser::parseNodes(QStringLiteral("nodes.json"),
                                        parseJsonObject(QStringLiteral("nodes.json"), b.nodes));
    s.extensions = ApiParser::parseExtensions(
        QStringLiteral("extensions.json"), parseJsonObject(QStringLiteral("extensions.json"), b.extensions));
    s.maxRoutes = 512;
    s.klusterSource.known = s.serversSource.known = s.routerSource.known = true;
    s.securityGroupsSource.known = s.nodesSource.known = true;
    return s;
}

void setCounters(benchmark::State &state, const Bodies &b, const Diagnosis *d)
{
    state.counters["bodyMB"] = double(b.servers.size() + b.nodes.size() + b.router.size()) / 1e6;
    if (d)
        state.counters["findings"] = double(d->findings.size());
}

void BM_Parse(benchmark::State &state)
{
    const Bodies &b = bodies(int(state.range(0)));
    for (auto _ : state) {
        KlusterState s = parse(b);
        benchmark::DoNotOptimize(s);
    }
    setCounters(state, b, nullptr);
}

// The same through Qt's JSON tree, for comparison.
void BM_ParseQt(benchmark::State &state)
{
    const Bodies &b = bodies(int(state.range(0)));
    for (auto _ : state) {
        KlusterState s = parse(b, Large::Qt);
        benchmark::DoNotOptimize(s);
    }
    setCounters(state, b, nullptr);
}

// The node list alone, read whole or a batch of items at a time (ApiParser::NodeListBatches): the time,
// and the buffers the parser keeps afterwards.
void BM_ParseNodes(benchmark::State &state)
{
    const Bodies &b = bodies(int(state.range(0)));
    const bool batched = state.range(1) != 0;
    const ApiParser::NodeListBatches batches
        = batched ? ApiParser::NodeListBatches { 0 } : ApiParser::NodeListBatches { b.nodes.size() };
    for (auto _ : state) {
        QList<Node> nodes
            = ApiParser::parseNodes(QStringLiteral("nodes.json"), b.nodes, nullptr, nullptr, batches);
        benchmark::DoNotOptimize(nodes);
    }
    state.counters["nodesMB"] = double(b.nodes.size()) / 1e6;
}

void BM_Diagnose(benchmark::State &state)
{
    const Bodies &b = bodies(int(state.range(0)));
    const KlusterState s = parse(b);
    Diagnosis last;
    for (auto _ : state) {
        Diagnosis d = Diagnosis::run(s);
        benchmark::DoNotOptimize(d);
        last = std::move(d);
    }
    setCounters(state, b, &last);
}

void BM_ParseAndDiagnose(benchmark::State &state)
{
    const Bodies &b = bodies(int(state.range(0)));
    for (auto _ : state) {
        const KlusterState s = parse(b);
        Diagnosis d = Diagnosis::run(s);
        benchmark::DoNotOptimize(d);
    }
    setCounters(state, b, nullptr);
}

} // namespace

BENCHMARK(BM_Parse)->Arg(1000)->Arg(5000)->Arg(20000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseQt)->Arg(1000)->Arg(5000)->Arg(20000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseNodes)
    ->ArgNames({ "nodes", "batched" })
    ->ArgsProduct({ { 5000, 20000 }, { 0, 1 } })
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Diagnose)->Arg(1000)->Arg(5000)->Arg(20000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseAndDiagnose)->Arg(1000)->Arg(5000)->Arg(20000)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
