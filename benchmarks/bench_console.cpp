// The console with one large kluster from the simulated cloud (5,000 nodes;
// 20,000), with a fleet (100 klusters of 20 nodes in one project; 100 of 50 over three
// connections, each its own simulated region; 1,000 of 20), and with a region's worth (1,000
// klusters of mixed sizes over 3 regions × 50 projects), and with a fleet from a scenario file
// (Scenario/klusters:1000: 1,000 of 20 in one project): the longest gap between two
// ticks of the GUI thread's event loop while klusters are fetched, diagnosed
// and shown (target: no stall above 50 ms), the wall time, and the process's
// resident memory. The simulated clouds run in their own processes, as real
// clouds would; the window is rendered offscreen.
//
//   QT_QPA_PLATFORM=offscreen build/benchmarks/bench_console
//
// Resident memory is the process's: run one case per process
// (--benchmark_filter=nodes:5000, nodes:20000, Fleet.*connections:1, ...).

#include "benchmarks/fleetscenario.h"
#include "benchmarks/simprocess.h"
#include "benchmarks/stallmeter.h"
#include "console/connectionregistry.h"
#include "console/consolesession.h"
#include "console/klusterstore.h"
#include "models/consolemodels.h"
#include "models/klustersmodel.h"
#include "services/connection.h"
#include "services/http/endpointslots.h"
#include "tests/common/processmemory.h"
#include "views/findingspage.h"
#include "views/mainwindow.h"
#include "views/overviewpage.h"
#include "views/tablepage.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeView>
#include <benchmark/benchmark.h>
#include <memory>
#include <sys/resource.h>
#include <vector>

namespace {

// The window, shown and past its own start-up (fonts, styles, the first paint: not the data's work).
struct ShownWindow
{
    MainWindow window;
    StallMeter meter;
    QEventLoop loop;
    ShownWindow()
    {
        window.resize(1440, 900);
        window.show();
        QTimer::singleShot(500, &loop, &QEventLoop::quit);
        loop.exec();
    }
};

void BM_ConsoleRefresh(benchmark::State &state)
{
    SimProcess cloud(int(state.range(0)));
    if (cloud.endpoints.isEmpty()) {
        state.SkipWithError("the simulated cloud did not start");
        return;
    }
    ShownWindow shown;
    MainWindow &window = shown.window;
    StallMeter &meter = shown.meter;
    QEventLoop &loop = shown.loop;
    QObject::connect(&window, &MainWindow::refreshesSettled, &loop, &QEventLoop::quit);
    ConnectionSpec spec;
    spec.name = QStringLiteral("bench");
    spec.config = cloud.cloud();

    // The first load: list, fetch, diagnose, fill every model.
    meter.start();
    QElapsedTimer wall;
    wall.start();
    window.addConnection(spec, false);
    loop.exec();
    const double firstStall = meter.stop();
    const double firstWall = double(wall.elapsed());
    if (!window.kluster(window.currentKey()) || !window.kluster(window.currentKey())->fetch) {
        state.SkipWithError(qPrintable(QStringLiteral("no data: ") + window.bannerText()));
        return;
    }
    // With `replaced`, that many members (spread over the node list) are replaced before each refresh, as a
    // finished rolling upgrade leaves them: nodes and servers gone and new ones in their places, which the
    // node watch brings and the refresh confirms.
    const int replaced = int(state.range(1));
    double longest = 0;
    for (auto _ : state) {
        meter.start(); // the watch's events may come while the simulator answers: their stalls count
        if (replaced > 0)
            cloud.admin("POST", QStringLiteral("/klusters/scale/churn"),
                QStringLiteral(R"({"replace": %1})").arg(replaced).toUtf8());
        wall.restart(); // the simulator's own time does not
        window.refreshAll();
        loop.exec();
        const double stall = meter.stop();
        longest = qMax(longest, stall);
        state.SetIterationTime(double(wall.nsecsElapsed()) / 1e9);
    }
    state.counters["first_load_ms"] = firstWall;
    state.counters["first_load_longest_stall_ms"] = firstStall;
    state.counters["refresh_longest_stall_ms"] = longest;
    state.counters["rss_mb"] = processMegabytes("VmRSS:");
    state.counters["peak_rss_mb"] = processMegabytes("VmHWM:");
    state.counters["rows"] = double(window.nodesPage()->view()->model()->rowCount());
    state.counters["incidents"] = double(window.overviewPage()->incidentLines().size());
}
BENCHMARK(BM_ConsoleRefresh)
    ->ArgNames({ "nodes", "replaced" })
    ->ArgsProduct({ { 5000, 20000 }, { 0, 20 } })
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(5);

// The klusters the window has data for (fetched at or after `since`, when given). Counted in the store first,
// and only when that has them all in the sidebar, row by row through its proxies: a walk over the sidebar's
// thousand rows every 100 ms was a second of the window's CPU time in the measure itself.
int klustersShown(const MainWindow &window, const QDateTime &since = QDateTime(), int wanted = 0)
{
    if (wanted > 0) {
        const KlusterStore *store = window.session()->store();
        int fetched = 0;
        for (const Connection *c : window.session()->registry()->connections()) {
            for (const QString &kluster : store->klusters(c->name())) {
                const KlusterData *d = store->data({ c->name(), kluster });
                fetched += d && d->fetch && (!since.isValid() || d->fetchedAt >= since) ? 1 : 0;
            }
        }
        if (fetched < wanted)
            return fetched;
    }
    const QAbstractItemModel *sidebar = window.sidebar()->model();
    int shown = 0;
    for (int g = 0; g < sidebar->rowCount(); ++g) {
        const QModelIndex group = sidebar->index(g, 0);
        for (int row = 0; row < sidebar->rowCount(group); ++row) {
            const QModelIndex k = sidebar->index(row, 0, group);
            const KlusterData *d = window.kluster({ k.data(KlustersModel::ConnectionRole).toString(),
                k.data(KlustersModel::KlusterRole).toString() });
            shown += d && d->fetch && (!since.isValid() || d->fetchedAt >= since) ? 1 : 0;
        }
    }
    return shown;
}

// The CPU time this process (the console: the simulators run in their own) has used, in seconds.
double cpuSeconds()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

// A fleet over simulated regions (each its own process), each region's klusters over `projects` projects (a
// connection each, as clouds.yaml has one cloud entry per project): the first load until every kluster is
// shown, then a refresh of everything with nothing changed (its requests and the bytes of their answers, as
// the simulators count them), with the GUI thread's longest gap, the CPU time and the resident memory. With
// `scenario`, one simulator loads that file (benchmarks/fleetscenario.h: project and user "fleet") and the
// window is given its one connection.
void runFleet(benchmark::State &state, int klusters, int nodes, int regions, int projects, bool mixedSizes,
    const QString &scenario = QString(), int concurrency = 0)
{
    std::vector<std::unique_ptr<SimProcess>> clouds;
    for (int c = 0; c < regions; ++c) {
        SimProcess::Shape shape;
        shape.nodes = nodes;
        shape.klusters = klusters / regions + (c < klusters % regions ? 1 : 0);
        shape.region = QStringLiteral("region-%1").arg(c + 1);
        shape.projects = projects;
        shape.mixedSizes = mixedSizes;
        shape.scenario = scenario;
        clouds.push_back(std::make_unique<SimProcess>(shape));
        if (clouds.back()->endpoints.isEmpty()) {
            state.SkipWithError("a simulated cloud did not start");
            return;
        }
    }
    ShownWindow shown;
    MainWindow &window = shown.window;
    StallMeter &meter = shown.meter;
    QEventLoop &loop = shown.loop;
    const double baseMb = processMegabytes("VmRSS:");

    QTimer poll;
    poll.setObjectName(QStringLiteral("bench-poll"));
    poll.setInterval(100); // walking a thousand rows costs the GUI thread too
    // With FLIGHTDECK_BENCH_PROGRESS set, how many klusters were shown when, on standard error.
    const bool progress = qEnvironmentVariableIsSet("FLIGHTDECK_BENCH_PROGRESS");
    QElapsedTimer sinceGiven;
    qint64 lastSecond = -1;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        const int n = klustersShown(window, QDateTime(), klusters);
        if (progress && sinceGiven.elapsed() / 1000 != std::exchange(lastSecond, sinceGiven.elapsed() / 1000))
            fprintf(stderr, "%.1f s: %d shown, console cpu %.1f s\n", double(sinceGiven.elapsed()) / 1000, n,
                cpuSeconds());
        if (n >= klusters)
            loop.quit();
    });
    double longestFirst = 0, firstMs = 0, longestRefresh = 0, firstCpuS = 0;
    StallMeter::Gap firstGap;
    double firstSimCpuS = 0;
    const auto simulatorsCpu = [&clouds] {
        double s = 0;
        for (const auto &cloud : clouds)
            s += cloud->cpuSeconds();
        return s;
    };
    for (auto _ : state) {
        const double cpuBefore = cpuSeconds();
        const double simCpuBefore = simulatorsCpu();
        meter.start();
        QElapsedTimer wall;
        wall.start();
        sinceGiven.start();
        for (int c = 0; c < regions; ++c) {
            for (int p = 0; p < projects; ++p) {
                const QString project = projects > 1
                    ? QStringLiteral("scale-p%1").arg(p, 2, 10, QLatin1Char('0'))
                    : QStringLiteral("scale");
                ConnectionSpec spec;
                spec.name = projects > 1 ? QStringLiteral("region-%1 %2").arg(c + 1).arg(project)
                                         : QStringLiteral("region-%1").arg(c + 1);
                spec.config = clouds.at(c)->cloud(project);
                // Klusters of the connection refreshed at once; else the console's setting.
                if (concurrency > 0)
                    spec.refreshConcurrency = concurrency;
                if (!scenario.isEmpty()) {
                    spec.name = QStringLiteral("fleet");
                    spec.config = clouds.at(c)->cloud(spec.name, spec.name, QStringLiteral("fleet-password"));
                }
                if (mixedSizes) {
                    // A real region's Neutron allows what its klusters' routes need (max_routes raised):
                    // upstream's 30 would make every kluster above 24 nodes a finding.
                    spec.options.routeLimit = 1000;
                    spec.options.routeLimitExplicit = true;
                }
                window.addConnection(spec, false);
            }
        }
        poll.start();
        QTimer::singleShot(180000, &loop, &QEventLoop::quit);
        loop.exec();
        poll.stop();
        firstMs = double(wall.elapsed());
        longestFirst = meter.stop();
        firstGap = meter.longest();
        firstCpuS = cpuSeconds() - cpuBefore;
        firstSimCpuS = simulatorsCpu() - simCpuBefore;
        state.SetIterationTime(firstMs / 1000);
    }
    if (klustersShown(window) < klusters) {
        state.SkipWithError(qPrintable(QStringLiteral("%1 of %2 klusters shown: %3")
                                           .arg(klustersShown(window))
                                           .arg(klusters)
                                           .arg(window.bannerText())));
        return;
    }
    const double firstPeakMb = processMegabytes("VmHWM:");
    // A refresh of everything, once the first load has settled; nothing changed in the clouds meanwhile.
    // The next round comes minutes later, when the node watches the first load started are connected: here 15
    // s.
    QTimer::singleShot(15000, &loop, &QEventLoop::quit);
    loop.exec();
    qint64 requestsBefore = 0, bytesBefore = 0;
    for (const auto &cloud : clouds) {
        const auto [r, b] = cloud->served();
        requestsBefore += r;
        bytesBefore += b;
    }
    // Until every kluster was fetched again (a round settles connection by connection: no refresh pending
    // for a moment is not the end of it).
    const QDateTime refreshBegan = QDateTime::currentDateTimeUtc().addSecs(-1);
    QObject::disconnect(&poll, nullptr, nullptr, nullptr);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (klustersShown(window, refreshBegan, klusters) >= klusters)
            loop.quit();
    });
    const double refreshCpuBefore = cpuSeconds();
    meter.start();
    QElapsedTimer wall;
    wall.start();
    window.refreshAll();
    poll.start();
    QTimer::singleShot(180000, &loop, &QEventLoop::quit);
    loop.exec();
    poll.stop();
    longestRefresh = meter.stop();
    const double refreshMs = double(wall.elapsed());
    const double refreshCpuS = cpuSeconds() - refreshCpuBefore;
    const int refreshed = klustersShown(window, refreshBegan);
    qint64 requests = -requestsBefore, bytes = -bytesBefore;
    for (const auto &cloud : clouds) {
        const auto [r, b] = cloud->served();
        requests += r;
        bytes += b;
    }
    state.counters["first_load_ms"] = firstMs;
    state.counters["first_load_longest_stall_ms"] = longestFirst;
    // The console's CPU time (all its threads) in the first load and the refresh, and per kluster.
    state.counters["first_load_cpu_s"] = firstCpuS;
    state.counters["first_load_cpu_ms_per_kluster"] = firstCpuS * 1000 / klusters;
    state.counters["refresh_cpu_s"] = refreshCpuS;
    state.counters["first_load_simulators_cpu_s"] = firstSimCpuS; // the clouds' own, on the same cores
    state.counters["refresh_ms"] = refreshMs;
    state.counters["refresh_longest_stall_ms"] = longestRefresh;
    // What the window's thread did in those two gaps: its own work (CPU time), switched out waiting
    // (voluntary) or for another thread (involuntary).
    state.counters["first_load_stall_cpu_ms"] = firstGap.cpuMs;
    state.counters["first_load_stall_waited"] = double(firstGap.waited);
    state.counters["first_load_stall_preempted"] = double(firstGap.preempted);
    state.counters["refresh_stall_cpu_ms"] = meter.longest().cpuMs;
    state.counters["refresh_stall_waited"] = double(meter.longest().waited);
    state.counters["refresh_stall_preempted"] = double(meter.longest().preempted);
    state.counters["refresh_MB"] = double(bytes) / 1e6;
    state.counters["refresh_requests_per_kluster"] = double(requests) / klusters;
    state.counters["refreshed"] = refreshed;
    state.counters["start_rss_mb"] = baseMb;
    state.counters["first_load_peak_rss_mb"] = firstPeakMb;
    state.counters["rss_mb"] = processMegabytes("VmRSS:");
    state.counters["peak_rss_mb"] = processMegabytes("VmHWM:");
    // The bound on requests in flight per endpoint: how many waited their turn, the most at once to one.
    state.counters["requests_waited"] = double(EndpointSlots::shared().waitedCount());
    state.counters["most_in_flight_per_endpoint"] = EndpointSlots::shared().mostInFlight();
}

// Arguments: klusters in all, nodes per kluster, connections (one simulated region each, one project).
void BM_ConsoleFleet(benchmark::State &state)
{
    runFleet(state, int(state.range(0)), int(state.range(1)), int(state.range(2)), 1, false);
}
BENCHMARK(BM_ConsoleFleet)
    ->ArgNames({ "klusters", "nodes", "connections" })
    ->Args({ 100, 20, 1 })
    ->Args({ 100, 50, 3 })
    ->Args({ 1000, 20, 1 })
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

// Arguments: klusters in all, nodes per kluster: the fleet of benchmarks/fleetscenario.h (one project, each
// kluster its own network, router of 30 routes and TLS API server, every tenth with an instance in ERROR),
// written as a scenario file and loaded by one simulator (`flightdeck-sim --scenario FILE`), given to the
// window as one connection; measured from the connection given to every kluster shown (issue 45).
void BM_ConsoleScenario(benchmark::State &state)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("fleet.json"));
    QString error;
    if (!dir.isValid() || !FleetScenario::write(path, int(state.range(0)), int(state.range(1)), &error)) {
        state.SkipWithError(qPrintable(error));
        return;
    }
    runFleet(state, int(state.range(0)), int(state.range(1)), 1, 1, false, path, int(state.range(2)));
}
// The third argument: klusters refreshed at once (0: the console's setting, refresh/concurrency).
BENCHMARK(BM_ConsoleScenario)
    ->ArgNames({ "klusters", "nodes", "concurrency" })
    ->Args({ 100, 20, 0 })
    ->Args({ 1000, 20, 0 })
    ->Args({ 1000, 20, 8 })
    ->Args({ 1000, 20, 16 })
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

// Arguments: klusters in all, regions (a simulator each), projects per region (a connection each); the
// klusters of a real region's sizes (most 3–30 nodes, a few up to 300) and faults in some.
void BM_ConsoleRegion(benchmark::State &state)
{
    runFleet(state, int(state.range(0)), 20, int(state.range(1)), int(state.range(2)), true);
}
BENCHMARK(BM_ConsoleRegion)
    ->ArgNames({ "klusters", "regions", "projects" })
    ->Args({ 1000, 3, 50 })
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

// The estate through the team's Prometheus (issue 45): with FLIGHTDECK_BENCH_PROMETHEUS=<url> (a Prometheus
// that scrapes `serve` exporters: benchmarks/prometheus-fleet starts them) and FLIGHTDECK_BENCH_KLUSTERS=<n>
// (how many klusters it holds), the window given one Prometheus connection: from then until every kluster is
// in the Fleet, its longest stall, CPU time and memory; then a second round (Refresh), and its stall.
void BM_ConsolePrometheus(benchmark::State &state)
{
    const QString url = qEnvironmentVariable("FLIGHTDECK_BENCH_PROMETHEUS");
    const int klusters = qEnvironmentVariableIntValue("FLIGHTDECK_BENCH_KLUSTERS");
    if (url.isEmpty() || klusters <= 0) {
        state.SkipWithError("set FLIGHTDECK_BENCH_PROMETHEUS and FLIGHTDECK_BENCH_KLUSTERS "
                            "(benchmarks/prometheus-fleet does)");
        return;
    }
    const double startMb = processMegabytes("VmRSS:");
    ShownWindow shown;
    MainWindow &window = shown.window;
    const auto listed = [&window] {
        const KlustersModel *list = window.models()->klusters();
        int n = 0;
        for (int row = 0; row < list->rowCount(); ++row)
            n += list->data(list->index(row, 0), KlustersModel::FetchedAtRole).toDateTime().isValid() ? 1 : 0;
        return n;
    };
    QTimer poll;
    poll.setInterval(100);
    QObject::connect(&poll, &QTimer::timeout, &shown.loop, [&] {
        if (listed() >= klusters)
            shown.loop.quit();
    });
    double firstMs = 0, longestFirst = 0, cpuFirst = 0;
    for (auto _ : state) {
        const double cpuBefore = cpuSeconds();
        shown.meter.start();
        QElapsedTimer wall;
        wall.start();
        ConnectionSpec spec;
        spec.name = QStringLiteral("team");
        spec.prometheus.url = QUrl(url);
        spec.readOnly = true;
        window.addConnection(spec, false);
        poll.start();
        QTimer::singleShot(120000, &shown.loop, &QEventLoop::quit);
        shown.loop.exec();
        poll.stop();
        firstMs = double(wall.elapsed());
        longestFirst = shown.meter.stop();
        cpuFirst = cpuSeconds() - cpuBefore;
        state.SetIterationTime(firstMs / 1000);
    }
    if (listed() < klusters) {
        state.SkipWithError(
            qPrintable(QStringLiteral("%1 of %2 klusters shown").arg(listed()).arg(klusters)));
        return;
    }
    const double firstPeakMb = processMegabytes("VmHWM:");
    // A second round: the three queries again, every row updated in place.
    shown.meter.start();
    QElapsedTimer again;
    again.start();
    QObject::connect(&window, &MainWindow::refreshesSettled, &shown.loop, &QEventLoop::quit);
    window.refreshAll();
    QTimer::singleShot(120000, &shown.loop, &QEventLoop::quit);
    shown.loop.exec();
    const double roundMs = double(again.elapsed());
    const double longestRound = shown.meter.stop();
    state.counters["klusters"] = klusters;
    state.counters["first_stall_ms"] = longestFirst;
    state.counters["first_cpu_s"] = cpuFirst;
    state.counters["round_ms"] = roundMs;
    state.counters["round_stall_ms"] = longestRound;
    state.counters["start_rss_mb"] = startMb;
    state.counters["first_load_peak_rss_mb"] = firstPeakMb;
    state.counters["rss_mb"] = processMegabytes("VmRSS:");
    state.counters["peak_rss_mb"] = processMegabytes("VmHWM:");
}
BENCHMARK(BM_ConsolePrometheus)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(1);

} // namespace

int main(int argc, char **argv)
{
    TimedApplication app(argc, argv);
    StallSampler::shared(); // on this, the window's thread (when asked for)
    QStandardPaths::setTestModeEnabled(true);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
