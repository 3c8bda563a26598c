#pragma once

// The simulated cloud in its own process for a benchmark, as a real cloud
// would be: its work does not count against the client's wall time. Driven
// with nested event loops: benchmark drivers, not product code.

#include "services/cloudconfig.h"
#include "services/klusterfetcher.h"

#include <QEventLoop>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>

class SimProcess
{
public:
    // One kluster "scale" of `nodes`; or, with `klusters`, a fleet of them (scale-000, …) of `nodes` each;
    // `region` names the catalog's region (empty: the simulator's own).
    explicit SimProcess(int nodes, int klusters = 0, const QString &region = QString())
    {
        m_process.setProgram(QStringLiteral(FLIGHTDECK_SIM));
        QStringList arguments = klusters > 0
            ? QStringList { QStringLiteral("--klusters"), QString::number(klusters),
                  QStringLiteral("--nodes-per-kluster"), QString::number(nodes), QStringLiteral("--json") }
            : QStringList { QStringLiteral("--nodes"), QString::number(nodes), QStringLiteral("--json") };
        if (!region.isEmpty())
            arguments << QStringLiteral("--region") << region;
        m_process.setArguments(arguments);
        m_process.start();
        m_process.waitForReadyRead(120000);
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
    CloudConfig cloud() const
    {
        CloudConfig c;
        c.name = QStringLiteral("scale");
        c.regionName = endpoints.value(QStringLiteral("region")).toString();
        c.authUrl = endpoints.value(QStringLiteral("authUrl")).toString();
        c.username = QStringLiteral("scale");
        c.password = QStringLiteral("scale-password");
        c.userDomainName = QStringLiteral("Default");
        c.projectName = QStringLiteral("scale");
        c.projectDomainName = QStringLiteral("Default");
        return c;
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
