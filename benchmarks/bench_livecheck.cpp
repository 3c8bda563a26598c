// A live check of a 1,000-node kluster on the simulated cloud with 20 ms of
// latency on every request: the wall time, the requests it took, and how far
// that is from the minimum its requests need; and, on the same world, the
// engineer's status quo: `openstack server list`, `router show`,
// `security group list` and `kubectl get nodes`, one after another.
//
//   build/benchmarks/bench_livecheck

#include "core/diagnosis.h"
#include "services/klusterfetcher.h"

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

// The simulated cloud in its own process, as a real cloud would be: its
// work does not count against the client's wall time.
struct World
{
    QProcess process;
    QJsonObject endpoints;
    QString kubeconfig;
    World()
    {
        process.setProgram(QStringLiteral(FLIGHTDECK_SIM));
        process.setArguments({ QStringLiteral("--nodes"), QString::number(Nodes), QStringLiteral("--json") });
        process.start();
        process.waitForReadyRead(60000);
        endpoints = QJsonDocument::fromJson(process.readLine()).object();
        QNetworkAccessManager nam;
        QEventLoop loop;
        QNetworkReply *config
            = nam.get(QNetworkRequest(QUrl(endpoints.value(QStringLiteral("admin")).toString()
                + QStringLiteral("/klusters/scale/kubeconfig"))));
        QObject::connect(config, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        loop.exec();
        kubeconfig = QString::fromUtf8(config->readAll());
    }
    void setLatency(int ms)
    {
        QNetworkAccessManager nam;
        QEventLoop loop;
        const QString faults
            = endpoints.value(QStringLiteral("admin")).toString() + QStringLiteral("/faults");
        QNetworkReply *cleared = nam.deleteResource(QNetworkRequest(QUrl(faults)));
        QObject::connect(cleared, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        loop.exec();
        if (ms <= 0)
            return;
        QNetworkRequest request { QUrl(faults) };
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        QNetworkReply *reply = nam.post(
            request, QByteArray(R"({"kind": "latency", "latencyMs": )") + QByteArray::number(ms) + "}");
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        loop.exec();
    }
    ~World()
    {
        process.terminate();
        process.waitForFinished(5000);
    }
    CloudConfig cloud() const
    {
        CloudConfig c;
        c.name = QStringLiteral("scale");
        c.authUrl = endpoints.value(QStringLiteral("authUrl")).toString();
        c.username = QStringLiteral("scale");
        c.password = QStringLiteral("scale-password");
        c.userDomainName = QStringLiteral("Default");
        c.projectName = QStringLiteral("scale");
        c.projectDomainName = QStringLiteral("Default");
        return c;
    }
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
        QEventLoop loop; // a benchmark driver, not product code
        KlusterFetch result;
        QObject::connect(&fetcher, &KlusterFetcher::finished, &loop, [&](const KlusterFetch &f) {
            result = f;
            loop.quit();
        });
        fetcher.start();
        loop.exec();
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
