// Parse and diagnose klusters of 1,000, 5,000 and 20,000 nodes, timed apart; the parse also as it was
// before the large bodies were read with simdjson (BM_ParseQt). And the local history of such a kluster
// (BM_History*): recording one refresh, a month of refreshes, a week's trend read back.
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
#include "core/checkreport.h"
#include "core/diagnosis.h"
#include "core/diagnosiscontext.h"
#include "core/repairgate.h"
#include "core/repairplanner.h"
#include "services/history/historystore.h"
#include "tests/common/worldbuilder.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QMap>
#include <QTemporaryDir>
#include <benchmark/benchmark.h>

namespace {

struct Bodies
{
    QByteArray kluster, servers, router, groups, nodes, extensions, ports;
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
    w.withPorts(); // every server's port, its node's pod CIDR allowed (but for one in 200)
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
        if (mod == 29) // the cloud provider's update of its port lost
            w.port(name, QJsonArray());
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
    b.ports = QJsonDocument(w.portsJson()).toJson(QJsonDocument::Compact);
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
    s.ports = ApiParser::parsePorts(
        QStringLiteral("ports.json"), parseJsonObject(QStringLiteral("ports.json"), b.ports));
    s.extensionsKnown = s.portsSource.known = true;
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

// diagnosis.md §5 alone: the incidents of a diagnosed kluster's findings (part of BM_Diagnose).
void BM_Incidents(benchmark::State &state)
{
    const Bodies &b = bodies(int(state.range(0)));
    const KlusterState s = parse(b);
    const Diagnosis d = Diagnosis::run(s);
    const DiagnosisContext &context = *d.findings.first().context;
    for (auto _ : state) {
        QList<Incident> incidents = Incidents::find(d.findings, context);
        benchmark::DoNotOptimize(incidents);
    }
    state.counters["findings"] = double(d.findings.size());
    state.counters["incidents"] = double(d.incidents.size());
}

// A router at its limit with every one of its routes wrong and 40 nodes without theirs (the router-full
// incident), with and without extraroute-atomic: what `check` does with it (diagnose, the incident's one
// change, both reports) and "repair all route findings" (the gate over every route finding). Without the
// atomic extension each finding's own plan is the router's whole list: combined from deltas, the work stays
// linear in the routes (routeEntries: the route entries written into request bodies per iteration).
KlusterState fullRouter(int routes, bool atomic)
{
    WorldBuilder w(QStringLiteral("bench"), QStringLiteral("10.0.0.0/8"));
    constexpr int missing = 40;
    w.pool(QStringLiteral("pool"), missing).maxRoutes(routes).atomicRoutes(atomic).routerRevision(3);
    for (int i = 0; i < routes; ++i)
        w.route(QStringLiteral("10.%1.%2.%3/32").arg(200 + i / 62500).arg(i / 250 % 250).arg(i % 250),
            QStringLiteral("172.31.%1.%2").arg(i / 250 % 250).arg(i % 250 + 1));
    for (int n = 0; n < missing; ++n) {
        const QString name = QStringLiteral("kks-bench-pool-m%1").arg(n, 4, 10, QLatin1Char('0'));
        const QString ip = QStringLiteral("172.16.0.%1").arg(n + 2);
        w.server(name, ip, 600);
        w.node(name, ip, QStringLiteral("10.1.%1.0/24").arg(n));
    }
    return w.state();
}

void BM_RouterFullCheck(benchmark::State &state)
{
    const KlusterState s = fullRouter(int(state.range(0)), state.range(1) != 0);
    qint64 entries = 0;
    for (auto _ : state) {
        const qint64 before = RepairPlanner::routeEntriesWritten();
        const Diagnosis d = Diagnosis::run(s);
        QByteArray json = CheckReport::toJson(s, d);
        QByteArray text = CheckReport::toText(s, d);
        benchmark::DoNotOptimize(json);
        benchmark::DoNotOptimize(text);
        entries = RepairPlanner::routeEntriesWritten() - before;
    }
    state.counters["routeEntries"] = double(entries);
}

void BM_RepairAllRoutes(benchmark::State &state)
{
    const KlusterState s = fullRouter(int(state.range(0)), state.range(1) != 0);
    const Diagnosis d = Diagnosis::run(s);
    qint64 entries = 0;
    for (auto _ : state) {
        const qint64 before = RepairPlanner::routeEntriesWritten();
        const RepairGate gate(RepairGate::routeFindings(d.findings), d.budget);
        QList<RepairGate::Step> steps = gate.steps();
        benchmark::DoNotOptimize(steps);
        entries = RepairPlanner::routeEntriesWritten() - before;
    }
    state.counters["routeEntries"] = double(entries);
    state.counters["findings"] = double(d.findings.size());
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

// One refresh of a 5,000-node kluster recorded, as the console's history thread does it: the record made from
// the state and diagnosis (numbers, findings, the state's digest) and written in one transaction. `changed`:
// every other refresh differs (a finding comes and goes, so an interval opens or closes and a state is kept);
// else every refresh is the same (intervals extended only). `findings`: the diagnosis cut to its first N (0:
// all 4,884 of this kluster), for a kluster in less trouble.
void BM_HistoryRecord(benchmark::State &state)
{
    const Bodies &b = bodies(int(state.range(0)));
    const bool changed = state.range(1) != 0;
    const KlusterState s = parse(b);
    Diagnosis whole = Diagnosis::run(s);
    if (state.range(2) > 0)
        whole.findings = whole.findings.mid(0, state.range(2));
    Diagnosis fewer = whole;
    fewer.findings.removeLast();
    QTemporaryDir dir;
    HistoryStore store(dir.filePath(QStringLiteral("history.sqlite")));
    if (!store.open()) {
        state.SkipWithError(qPrintable(store.error()));
        return;
    }
    KlusterState at = s;
    store.setClock([&at] { return at.capturedAt; }); // refreshes of every 5 minutes, as they come
    int i = 0;
    for (auto _ : state) {
        at.capturedAt = s.capturedAt.addSecs(300LL * ++i);
        const HistoryRecord r = HistoryRecord::of(at, changed && i % 2 ? fewer : whole, 1000);
        if (!store.record(r))
            state.SkipWithError(qPrintable(store.error()));
    }
    state.counters["findings"] = double(whole.findings.size());
    state.counters["digestKB"] = double(HistoryRecord::of(s, whole, 0).digest.size()) / 1e3;
}

// The record alone (numbers, findings, the state's digest), without writing it.
void BM_HistoryRecordMade(benchmark::State &state)
{
    const Bodies &b = bodies(int(state.range(0)));
    const KlusterState s = parse(b);
    const Diagnosis d = Diagnosis::run(s);
    for (auto _ : state) {
        HistoryRecord r = HistoryRecord::of(s, d, 1000);
        benchmark::DoNotOptimize(r);
    }
}

// A 5,000-node kluster refreshed every 5 minutes for 30 days (8,640 refreshes) recorded in one file: a few
// findings flap every hour, a node finding comes and goes every day, the state changes every hour and a
// refresh fails every 6 hours. The file's size after it, with the default retention (30 days); the time is
// the month's.
struct Month
{
    std::unique_ptr<QTemporaryDir> dir;
    std::unique_ptr<HistoryStore> store;
    QDateTime end;
    QString key;
    double seconds = 0;
};

const Month &month()
{
    static Month m = [] {
        Month month;
        const Bodies &b = bodies(5000);
        const KlusterState s = parse(b);
        const Diagnosis whole = Diagnosis::run(s);
        // Records made once: the month only varies which of them a refresh writes.
        QList<HistoryRecord> variants;
        for (int v = 0; v < 4; ++v) {
            Diagnosis d = whole;
            for (int k = 0; k < v; ++k)
                d.findings.removeAt(k * 7 % d.findings.size());
            variants << HistoryRecord::of(s, d, 1500);
        }
        month.dir = std::make_unique<QTemporaryDir>();
        month.store = std::make_unique<HistoryStore>(month.dir->filePath(QStringLiteral("history.sqlite")));
        if (!month.store->open())
            qFatal("history: %s", qPrintable(month.store->error()));
        month.key = variants.first().kluster;
        QDateTime now; // the store's clock: the month's
        month.store->setClock([&now] { return now; });
        QElapsedTimer timer;
        timer.start();
        constexpr int Refreshes = 30 * 24 * 12;
        for (int i = 0; i < Refreshes; ++i) {
            const QDateTime at = s.capturedAt.addSecs(300LL * i);
            HistoryRecord r = i % 72 == 71
                ? HistoryRecord::failure(month.key, at, QStringLiteral("compute: 503"), 30000)
                : variants.at((i / 12 + (i % 288 < 12 ? 3 : 0)) % 4);
            r.at = at;
            now = at; // the store's clock follows the month
            if (!month.store->record(r))
                qFatal("history: %s", qPrintable(month.store->error()));
            if (i % 2016 == 100)
                month.store->recordRepair(
                    month.key, QStringLiteral("route-missing:x"), QStringLiteral("fixed"));
        }
        month.seconds = double(timer.elapsed()) / 1000;
        month.end = s.capturedAt.addSecs(300LL * Refreshes);
        month.store->setClock({}); // `now` goes with this scope
        return month;
    }();
    return m;
}

void BM_HistoryMonth(benchmark::State &state)
{
    for (auto _ : state)
        state.SetIterationTime(month().seconds);
    state.counters["fileMB"] = double(month().store->fileBytes()) / 1e6;
    state.counters["refreshes"] = 30 * 24 * 12;
}

// The Overview's trend of the last week, read back from that month: 2,016 samples and the repairs.
void BM_HistoryWeekTrend(benchmark::State &state)
{
    const Month &m = month();
    const QDateTime from = m.end.addDays(-7);
    qsizetype samples = 0;
    for (auto _ : state) {
        const QList<HistorySample> week = m.store->samples(m.key, from, m.end);
        const auto repairs = m.store->repairs(m.key, from, m.end);
        samples = week.size();
        benchmark::DoNotOptimize(repairs);
    }
    state.counters["samples"] = double(samples);
}

} // namespace

BENCHMARK(BM_HistoryRecord)
    ->ArgNames({ "nodes", "changed", "findings" })
    ->ArgsProduct({ { 5000 }, { 0, 1 }, { 0, 200 } })
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HistoryRecordMade)->ArgName("nodes")->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HistoryMonth)->UseManualTime()->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK(BM_HistoryWeekTrend)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Parse)->Arg(1000)->Arg(5000)->Arg(20000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseQt)->Arg(1000)->Arg(5000)->Arg(20000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseNodes)
    ->ArgNames({ "nodes", "batched" })
    ->ArgsProduct({ { 5000, 20000 }, { 0, 1 } })
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Diagnose)->Arg(1000)->Arg(5000)->Arg(20000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Incidents)->Arg(1000)->Arg(5000)->Arg(20000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RouterFullCheck)
    ->ArgNames({ "routes", "atomic" })
    ->ArgsProduct({ { 5000, 20000 }, { 0, 1 } })
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RepairAllRoutes)
    ->ArgNames({ "routes", "atomic" })
    ->ArgsProduct({ { 5000, 20000 }, { 0, 1 } })
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseAndDiagnose)->Arg(1000)->Arg(5000)->Arg(20000)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
