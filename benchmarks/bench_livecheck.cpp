// A live check of a 1,000-node kluster on the simulated cloud with 20 ms of
// latency on every request: the wall time, the requests it took, and how far
// that is from the minimum its requests need; and, on the same world, the
// engineer's status quo: `openstack server list`, `router show`,
// `security group list` and `kubectl get nodes`, one after another.
//
//   build/benchmarks/bench_livecheck

#include "benchmarks/simprocess.h"
#include "core/diagnosis.h"
#include "services/openstack/klusterfetcher.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <benchmark/benchmark.h>

namespace {

constexpr int Nodes = 1000;
constexpr int LatencyMs = 20;

struct World : SimProcess
{
    QString kubeconfig;
    World()
        : SimProcess(Nodes)
        , kubeconfig(QString::fromUtf8(admin("GET", QStringLiteral("/klusters/scale/kubeconfig"))))
    { }
};

World &world()
{
    static World w;
    return w;
}

void BM_LiveCheck(benchmark::State &state)
{
    World &w = world();
    const int latency = int(state.range(0));
    w.setLatency(latency);
    int requests = 0;
    for (auto _ : state) {
        HttpClient client;
        KeystoneSession session(&client, w.cloud());
        KlusterFetcher fetcher(&session, QStringLiteral("scale"));
        const KlusterFetch result = fetchToTheEnd(fetcher);
        const Diagnosis d = Diagnosis::run(result.state);
        benchmark::DoNotOptimize(d.findings.size());
        requests = int(client.requestsSent());
        if (!result.errors.isEmpty())
            state.SkipWithError(qPrintable(SourceError::joined(result.errors)));
    }
    // Round trips on the longest chain of dependent requests: authenticate,
    // then the Kubernikus credentials, then two chunks of 500 nodes.
    state.counters["requests"] = requests;
    state.counters["minRoundTrips"] = 4;
    state.counters["latencyMs"] = latency;
}

int run(const QString &program, const QStringList &args, const QProcessEnvironment &env)
{
    QProcess p;
    p.setProcessEnvironment(env);
    QEventLoop loop;
    QObject::connect(&p, &QProcess::finished, &loop, &QEventLoop::quit);
    QObject::connect(&p, &QProcess::errorOccurred, &loop, &QEventLoop::quit);
    p.start(program, args);
    loop.exec();
    return p.exitCode();
}

void BM_OpenstackAndKubectl(benchmark::State &state)
{
    const QString openstack = QStandardPaths::findExecutable(QStringLiteral("openstack"));
    const QString kubectl = QStandardPaths::findExecutable(QStringLiteral("kubectl"));
    if (openstack.isEmpty() || kubectl.isEmpty()) {
        state.SkipWithError("openstack or kubectl is not installed");
        return;
    }
    World &w = world();
    w.setLatency(LatencyMs);
    QTemporaryDir home;
    QFile config(home.filePath(QStringLiteral("kubeconfig")));
    config.open(QIODevice::WriteOnly);
    config.write(w.kubeconfig.toUtf8());
    config.close();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), home.path());
    env.insert(QStringLiteral("KUBECACHEDIR"), home.filePath(QStringLiteral("cache")));
    env.insert(QStringLiteral("OS_AUTH_URL"), w.cloud().authUrl);
    env.insert(QStringLiteral("OS_IDENTITY_API_VERSION"), QStringLiteral("3"));
    env.insert(QStringLiteral("OS_USERNAME"), QStringLiteral("scale"));
    env.insert(QStringLiteral("OS_PASSWORD"), QStringLiteral("scale-password"));
    env.insert(QStringLiteral("OS_PROJECT_NAME"), QStringLiteral("scale"));
    env.insert(QStringLiteral("OS_USER_DOMAIN_NAME"), QStringLiteral("Default"));
    env.insert(QStringLiteral("OS_PROJECT_DOMAIN_NAME"), QStringLiteral("Default"));
    for (auto _ : state) {
        int failures = 0;
        failures += run(openstack,
                        { QStringLiteral("server"), QStringLiteral("list"), QStringLiteral("-f"),
                            QStringLiteral("value") },
                        env)
            != 0;
        failures
            += run(openstack,
                   { QStringLiteral("router"), QStringLiteral("show"), QStringLiteral("kks-scale-router"),
                       QStringLiteral("-f"), QStringLiteral("value") },
                   env)
            != 0;
        failures += run(openstack,
                        { QStringLiteral("security"), QStringLiteral("group"), QStringLiteral("list"),
                            QStringLiteral("-f"), QStringLiteral("value") },
                        env)
            != 0;
        failures += run(kubectl,
                        { QStringLiteral("--kubeconfig"), config.fileName(), QStringLiteral("get"),
                            QStringLiteral("nodes"), QStringLiteral("-o"), QStringLiteral("wide") },
                        env)
            != 0;
        if (failures)
            state.SkipWithError("a client command failed");
    }
}

} // namespace

BENCHMARK(BM_LiveCheck)->Arg(0)->Arg(LatencyMs)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(BM_OpenstackAndKubectl)->Unit(benchmark::kMillisecond)->Iterations(2);

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
