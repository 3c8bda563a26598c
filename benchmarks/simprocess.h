#pragma once

// The simulated cloud in its own process for a benchmark, as a real cloud
// would be: its work does not count against the client's wall time. Driven
// with nested event loops: benchmark drivers, not product code.

#include "services/local/cloudconfig.h"
#include "services/openstack/klusterfetcher.h"

#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <unistd.h>

class SimProcess
{
public:
    // What to start: one kluster "scale" of `nodes`; or, with `klusters`, a fleet of them (scale-000, …) of
    // `nodes` each, over `projects` projects (scale-p00, …), of a real region's sizes with `mixedSizes`;
    // `region` names the catalog's region (empty: the simulator's own). With `scenario`, the world of that
    // scenario file instead (`flightdeck-sim --scenario FILE`; the others but `region` unused).
    struct Shape
    {
        int nodes = 20;
        int klusters = 0;
        QString region;
        int projects = 1;
        bool mixedSizes = false;
        QString scenario;
    };
    explicit SimProcess(int nodes, int klusters = 0, const QString &region = QString())
        : SimProcess(Shape { nodes, klusters, region, 1, false, QString() })
    { }
    explicit SimProcess(const Shape &shape)
    {
        m_process.setProgram(QStringLiteral(FLIGHTDECK_SIM));
        QStringList arguments = shape.klusters > 0
            ? QStringList { QStringLiteral("--klusters"), QString::number(shape.klusters),
                  QStringLiteral("--nodes-per-kluster"), QString::number(shape.nodes),
                  QStringLiteral("--json") }
            : QStringList { QStringLiteral("--nodes"), QString::number(shape.nodes),
                  QStringLiteral("--json") };
        if (!shape.scenario.isEmpty())
            arguments = { QStringLiteral("--scenario"), shape.scenario, QStringLiteral("--json") };
        if (!shape.region.isEmpty())
            arguments << QStringLiteral("--region") << shape.region;
        if (shape.projects > 1)
            arguments << QStringLiteral("--projects") << QString::number(shape.projects);
        if (shape.mixedSizes)
            arguments << QStringLiteral("--mixed-sizes");
        // FLIGHTDECK_BENCH_SIM_LOG=<file>: the simulator's access log (every request answered, timed) there.
        const QString accessLog = qEnvironmentVariable("FLIGHTDECK_BENCH_SIM_LOG");
        if (!accessLog.isEmpty()) {
            arguments << QStringLiteral("--access-log");
            m_process.setStandardErrorFile(accessLog);
        }
        m_process.setArguments(arguments);
        // FLIGHTDECK_BENCH_SIM_NICE=<n>: the simulators at that niceness, so that the console's threads get
        // the cores first, as on a desktop whose clouds are elsewhere (the window's stalls measured without
        // the clouds' own work on its cores; the default shares them equally).
        if (const int niceness = qEnvironmentVariableIntValue("FLIGHTDECK_BENCH_SIM_NICE"); niceness > 0)
            m_process.setChildProcessModifier([niceness] { (void)nice(niceness); });
        m_process.start();
        // The line of endpoints (a thousand klusters' make it long) may come in several reads.
        while (!m_process.canReadLine() && m_process.waitForReadyRead(120000)) { }
        endpoints = QJsonDocument::fromJson(m_process.readLine()).object();
    }
    ~SimProcess()
    {
        m_process.terminate();
        m_process.waitForFinished(5000);
    }
    SimProcess(const SimProcess &) = delete;
    SimProcess &operator=(const SimProcess &) = delete;

    // An admin request (docs/simulator.md); returns the answer's body.
    QByteArray admin(const QByteArray &method, const QString &path, const QByteArray &body = QByteArray())
    {
        QNetworkAccessManager nam;
        QNetworkRequest request { QUrl(endpoints.value(QStringLiteral("admin")).toString() + path) };
        if (!body.isEmpty())
            request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        QNetworkReply *reply = nam.sendCustomRequest(request, method, body);
        QEventLoop loop;
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        loop.exec();
        const QByteArray answer = reply->readAll();
        reply->deleteLater();
        return answer;
    }
    // Every request answered `ms` late (0: faults cleared).
    void setLatency(int ms)
    {
        admin("DELETE", QStringLiteral("/faults"));
        if (ms > 0)
            admin("POST", QStringLiteral("/faults"),
                QByteArray(R"({"kind": "latency", "latencyMs": )") + QByteArray::number(ms) + "}");
    }
    // The connection to project `project` ("scale", or "scale-p00", … of a fleet over several projects).
    // A scenario's project names its user and password (benchmarks/fleetscenario.h: "fleet",
    // "fleet-password").
    CloudConfig cloud(const QString &project = QStringLiteral("scale"), const QString &user = QString(),
        const QString &password = QStringLiteral("scale-password")) const
    {
        CloudConfig c;
        c.name = project;
        c.regionName = endpoints.value(QStringLiteral("region")).toString();
        c.authUrl = endpoints.value(QStringLiteral("authUrl")).toString();
        c.username = user.isEmpty() ? project : user;
        c.password = password;
        c.userDomainName = QStringLiteral("Default");
        c.projectName = project;
        c.projectDomainName = QStringLiteral("Default");
        return c;
    }
    // The requests every service was sent so far, and the bytes of their answers.
    std::pair<qint64, qint64> served()
    {
        const QJsonObject world = QJsonDocument::fromJson(admin("GET", QStringLiteral("/world"))).object();
        qint64 requests = 0, bytes = 0;
        for (const QJsonValue v : world.value(QStringLiteral("requests")).toObject())
            requests += v.toInteger();
        for (const QJsonValue v : world.value(QStringLiteral("bytesSent")).toObject())
            bytes += v.toInteger();
        return { requests, bytes };
    }

    // The CPU time the simulator's process has used so far, in seconds (its /proc/<pid>/stat: user and
    // system).
    double cpuSeconds() const
    {
        QFile stat(QStringLiteral("/proc/%1/stat").arg(m_process.processId()));
        if (!stat.open(QIODevice::ReadOnly))
            return 0;
        const QByteArray line = stat.readAll();
        // After the command's name in parentheses: state is field 3, utime 14, stime 15.
        const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
        if (fields.size() < 13)
            return 0;
        return double(fields.at(11).toLongLong() + fields.at(12).toLongLong()) / double(sysconf(_SC_CLK_TCK));
    }

    QJsonObject endpoints;

private:
    QProcess m_process;
};

// Starts `fetcher` and returns what it fetched, once it has.
inline KlusterFetch fetchToTheEnd(KlusterFetcher &fetcher)
{
    QEventLoop loop;
    KlusterFetch result;
    QObject::connect(&fetcher, &KlusterFetcher::finished, &loop, [&](const KlusterFetch &f) {
        result = f;
        loop.quit();
    });
    fetcher.start();
    loop.exec();
    return result;
}
