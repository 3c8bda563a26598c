#pragma once

// What the benchmarks of the window use to find its stalls: the longest gap between two ticks of the GUI
// thread's event loop with what the thread did meanwhile (StallMeter), and, when asked for by the
// environment, the events it handled in its longest gaps (FLIGHTDECK_BENCH_EVENTS, through TimedApplication)
// and samples of its stacks while it stalls (FLIGHTDECK_BENCH_STACKS=<file>; benchmarks/symbolize-stalls
// <file> groups them by the project's frames). For finding where a stall comes from, not part of any figure.

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QHash>
#include <QPair>
#include <QString>
#include <QThread>
#include <QTimer>
#include <atomic>
#include <cstdio>
#include <execinfo.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <thread>
#include <time.h>

// With FLIGHTDECK_BENCH_EVENTS set, the events the window's thread handled in its longest gaps, by receiver
// and type, with the time each took: printed to standard error when a gap is the longest yet.
struct EventLedger
{
    static EventLedger &shared()
    {
        static EventLedger ledger;
        return ledger;
    }
    bool on = qEnvironmentVariableIsSet("FLIGHTDECK_BENCH_EVENTS");
    QHash<QString, QPair<double, int>> current; // "class type" → ms, count
    int depth = 0;
};

// With FLIGHTDECK_BENCH_STACKS=<file>, the window's thread's stacks sampled while it has not ticked for 10 ms
// (every 3 ms, by a signal from a watchdog thread), written to <file> for each gap over 30 ms: one line per
// sample, "gap-ms address ..." (hexadecimal), with the process's mappings in <file>.maps to resolve them.
class StallSampler
{
public:
    static StallSampler &shared()
    {
        static StallSampler sampler;
        return sampler;
    }
    bool on() const { return !m_path.isEmpty(); }
    void ticked(qint64 gapNs)
    {
        if (!on())
            return;
        const int taken = qMin(m_taken.exchange(0), int(Capacity));
        if (gapNs > 30000000) {
            // The frames as they are (no dladdr here: resolving them took longer than most gaps, and made
            // gaps of its own); the mappings beside them, for benchmarks/symbolize-stalls to resolve.
            QFile out(m_path);
            if (out.open(QIODevice::Append | QIODevice::Text)) {
                QByteArray lines;
                for (int i = 0; i < taken; ++i) {
                    lines += QByteArray::number(double(gapNs) / 1e6, 'f', 1);
                    for (int f = 0; f < m_samples[i].depth; ++f)
                        lines += ' '
                            + QByteArray::number(quintptr(m_samples[i].frames[f]) - (f > 0 ? 1 : 0), 16);
                    lines += '\n';
                }
                out.write(lines);
            }
            if (now() - m_mapsWritten > 2000000000) // libraries loaded since; at most every 2 s
                writeMaps();
        }
        m_lastTick.store(now());
    }
    ~StallSampler()
    {
        if (on())
            writeMaps();
    }

private:
    // This process's mappings beside the samples: the addresses are this run's alone (address-space
    // randomisation), so the samples file is started anew with each run.
    void writeMaps()
    {
        QFile maps(QStringLiteral("/proc/self/maps"));
        QFile copy(m_path + QStringLiteral(".maps"));
        if (maps.open(QIODevice::ReadOnly) && copy.open(QIODevice::WriteOnly | QIODevice::Truncate))
            copy.write(maps.readAll());
        m_mapsWritten = now();
    }
    enum
    {
        Capacity = 256,
        Depth = 48
    };
    struct Sample
    {
        void *frames[Depth];
        int depth = 0;
    };
    static qint64 now()
    {
        timespec t {};
        clock_gettime(CLOCK_MONOTONIC, &t);
        return qint64(t.tv_sec) * 1000000000 + t.tv_nsec;
    }
    StallSampler()
        : m_path(qEnvironmentVariable("FLIGHTDECK_BENCH_STACKS"))
    {
        if (!on())
            return;
        QFile(m_path).remove();
        m_window = pthread_self();
        m_lastTick.store(now());
        void *warm[4];
        backtrace(warm, 4); // loads the unwinder outside the handler
        struct sigaction action
        {
        };
        action.sa_handler = [](int) {
            StallSampler &s = shared();
            const int i = s.m_taken.fetch_add(1);
            if (i < Capacity)
                s.m_samples[i].depth = backtrace(s.m_samples[i].frames, Depth);
        };
        action.sa_flags = SA_RESTART;
        sigaction(SIGPROF, &action, nullptr);
        std::thread([this] {
            for (;;) {
                std::this_thread::sleep_for(std::chrono::milliseconds(3));
                if (now() - m_lastTick.load() > 10000000)
                    pthread_kill(m_window, SIGPROF);
            }
        }).detach();
    }
    QString m_path;
    pthread_t m_window {};
    std::atomic<qint64> m_lastTick { 0 };
    std::atomic<int> m_taken { 0 };
    qint64 m_mapsWritten = 0;
    Sample m_samples[Capacity];
};

class TimedApplication : public QApplication
{
public:
    using QApplication::QApplication;
    bool notify(QObject *receiver, QEvent *event) override
    {
        EventLedger &ledger = EventLedger::shared();
        if (!ledger.on || ledger.depth > 0 || QThread::currentThread() != thread()) // every thread comes here
            return QApplication::notify(receiver, event);
        ++ledger.depth;
        QElapsedTimer t;
        t.start();
        const int type = event->type();
        const QString name = QString::fromLatin1(receiver->metaObject()->className()) + u' '
            + QString::number(type) + u' ' + receiver->objectName()
            + (receiver->parent()
                    ? u" in " + QString::fromLatin1(receiver->parent()->metaObject()->className())
                    : QString());
        const bool result = QApplication::notify(receiver, event);
        --ledger.depth;
        auto &entry = ledger.current[name];
        entry.first += double(t.nsecsElapsed()) / 1e6;
        ++entry.second;
        return result;
    }
};

// Measures the longest gap between ticks of the event loop it runs in, and what the thread did meanwhile: the
// CPU time it used (its own work) and how often it was switched out, waiting (voluntary: a lock, a wait) or
// made to give its core to another thread (involuntary).
class StallMeter : public QObject
{
public:
    struct Gap
    {
        double ms = 0;
        double cpuMs = 0;
        long waited = 0;
        long preempted = 0;
    };

    StallMeter()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(1);
        QObject::connect(&m_timer, &QTimer::timeout, this, [this] { tick(); });
    }
    void start()
    {
        m_clock.start();
        m_last = sample();
        m_longest = Gap();
        m_timer.start();
    }
    double stop()
    {
        m_timer.stop();
        tick();
        return m_longest.ms;
    }
    const Gap &longest() const { return m_longest; }

private:
    struct Sample
    {
        qint64 wallNs = 0;
        qint64 cpuNs = 0;
        long voluntary = 0;
        long involuntary = 0;
    };
    Sample sample() const
    {
        Sample s;
        s.wallNs = m_clock.nsecsElapsed();
        timespec cpu {};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
        s.cpuNs = qint64(cpu.tv_sec) * 1000000000 + cpu.tv_nsec;
        rusage usage {};
        getrusage(RUSAGE_THREAD, &usage);
        s.voluntary = usage.ru_nvcsw;
        s.involuntary = usage.ru_nivcsw;
        return s;
    }
    void tick()
    {
        const Sample now = sample();
        const double ms = double(now.wallNs - m_last.wallNs) / 1e6;
        StallSampler::shared().ticked(now.wallNs - m_last.wallNs);
        if (ms > m_longest.ms) {
            m_longest = { ms, double(now.cpuNs - m_last.cpuNs) / 1e6, now.voluntary - m_last.voluntary,
                now.involuntary - m_last.involuntary };
            EventLedger &ledger = EventLedger::shared();
            if (ledger.on && ms > 20) {
                fprintf(stderr, "gap %.1f ms (cpu %.1f ms, %ld waits, %ld preempted):\n", ms, m_longest.cpuMs,
                    m_longest.waited, m_longest.preempted);
                for (auto it = ledger.current.cbegin(); it != ledger.current.cend(); ++it)
                    if (it.value().first > 1)
                        fprintf(stderr, "  %7.1f ms %5d× %s\n", it.value().first, it.value().second,
                            qPrintable(it.key()));
            }
        }
        EventLedger::shared().current.clear();
        m_last = now;
    }

    QTimer m_timer;
    QElapsedTimer m_clock;
    Sample m_last;
    Gap m_longest;
};
