// The console with one large kluster from the simulated cloud (5,000 nodes;
// 20,000), and with a fleet (100 klusters of 20 nodes in one project; 100 of 50 over three
// connections, each its own simulated region): the longest gap between two
// ticks of the GUI thread's event loop while klusters are fetched, diagnosed
// and shown (target: no stall above 50 ms), the wall time, and the process's
// resident memory. The simulated clouds run in their own processes, as real
// clouds would; the window is rendered offscreen.
//
//   QT_QPA_PLATFORM=offscreen build/benchmarks/bench_console
//
// Resident memory is the process's: run one case per process
// (--benchmark_filter=nodes:5000, nodes:20000, Fleet.*connections:1, ...).

#include "benchmarks/simprocess.h"
#include "models/klustersmodel.h"
#include "tests/common/processmemory.h"
#include "views/findingspage.h"
#include "views/mainwindow.h"
#include "views/tablepage.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QStandardPaths>
#include <QTimer>
#include <QTreeView>
#include <benchmark/benchmark.h>
#include <memory>
#include <vector>

namespace {

// Measures the longest gap between ticks of the event loop it runs in.
class StallMeter : public QObject
{
public:
    StallMeter()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(1);
        QObject::connect(&m_timer, &QTimer::timeout, this, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            m_longest = qMax(m_longest, now - m_last);
            m_last = now;
        });
    }
    void start()
    {
        m_clock.start();
        m_last = 0;
        m_longest = 0;
        m_timer.start();
    }
    double stop()
    {
        m_timer.stop();
        const qint64 now = m_clock.nsecsElapsed();
        return double(qMax(m_longest, now - m_last)) / 1e6;
    }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    qint64 m_longest = 0;
};

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
}
BENCHMARK(BM_ConsoleRefresh)
    ->ArgNames({ "nodes", "replaced" })
    ->ArgsProduct({ { 5000, 20000 }, { 0, 20 } })
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(5);

// The klusters the window has data for.
int klustersShown(const MainWindow &window)
{
    const QAbstractItemModel *sidebar = window.sidebar()->model();
    int shown = 0;
    for (int g = 0; g < sidebar->rowCount(); ++g) {
        const QModelIndex group = sidebar->index(g, 0);
        for (int row = 0; row < sidebar->rowCount(group); ++row) {
            const QModelIndex k = sidebar->index(row, 0, group);
            const KlusterData *d = window.kluster({ k.data(KlustersModel::ConnectionRole).toString(),
                k.data(KlustersModel::KlusterRole).toString() });
            shown += d && d->fetch ? 1 : 0;
        }
    }
    return shown;
}

// Arguments: klusters in all, nodes per kluster, connections (one simulated region each).
void BM_ConsoleFleet(benchmark::State &state)
{
    const int klusters = int(state.range(0));
    const int nodes = int(state.range(1));
    const int connections = int(state.range(2));
    std::vector<std::unique_ptr<SimProcess>> clouds;
    for (int c = 0; c < connections; ++c) {
        const int here = klusters / connections + (c < klusters % connections ? 1 : 0);
        clouds.push_back(std::make_unique<SimProcess>(nodes, here, QStringLiteral("region-%1").arg(c + 1)));
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
    poll.setInterval(5);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (klustersShown(window) >= klusters)
            loop.quit();
    });
    double longestFirst = 0, firstMs = 0, longestRefresh = 0;
    for (auto _ : state) {
        meter.start();
        QElapsedTimer wall;
        wall.start();
        for (int c = 0; c < connections; ++c) {
            ConnectionSpec spec;
            spec.name = QStringLiteral("region-%1").arg(c + 1);
            spec.config = clouds.at(c)->cloud();
            window.addConnection(spec, false);
        }
        poll.start();
        QTimer::singleShot(120000, &loop, &QEventLoop::quit);
        loop.exec();
        poll.stop();
        firstMs = double(wall.elapsed());
        longestFirst = meter.stop();
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
    // A refresh of everything, once the first load has settled.
    QObject::connect(&window, &MainWindow::refreshesSettled, &loop, &QEventLoop::quit);
    QTimer::singleShot(2000, &loop, &QEventLoop::quit);
    loop.exec();
    meter.start();
    QElapsedTimer wall;
    wall.start();
    window.refreshAll();
    QTimer::singleShot(120000, &loop, &QEventLoop::quit);
    loop.exec();
    longestRefresh = meter.stop();
    state.counters["first_load_ms"] = firstMs;
    state.counters["first_load_longest_stall_ms"] = longestFirst;
    state.counters["refresh_ms"] = double(wall.elapsed());
    state.counters["refresh_longest_stall_ms"] = longestRefresh;
    state.counters["start_rss_mb"] = baseMb;
    state.counters["first_load_peak_rss_mb"] = firstPeakMb;
    state.counters["rss_mb"] = processMegabytes("VmRSS:");
    state.counters["peak_rss_mb"] = processMegabytes("VmHWM:");
}
BENCHMARK(BM_ConsoleFleet)
    ->ArgNames({ "klusters", "nodes", "connections" })
    ->Args({ 100, 20, 1 })
    ->Args({ 100, 50, 3 })
    ->Args({ 1000, 20, 1 })
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
