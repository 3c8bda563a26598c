// The Kubernikus API: the project's klusters and their credentials.

#include "simulator/apirender.h"
#include "simulator/simulator.h"

#include <QJsonArray>
#include <QJsonDocument>

HttpResponse Simulator::kubernikus(const HttpRequest &request, const SimToken &token)
{
    const QString service = QStringLiteral("kubernikus");
    auto json = [](int status, const QJsonValue &v) {
        return HttpResponse::json(status,
            v.isArray() ? QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact)
                        : QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    };
    if (request.path == QLatin1String("/info"))
        return json(
            200, QJsonObject { { QStringLiteral("version"), QStringLiteral("v1.0.0+flightdeck-sim") } });
    if (request.path == QLatin1String("/api") || request.path == QLatin1String("/api/"))
        return json(200, QJsonObject { { QStringLiteral("versions"), QJsonArray { QStringLiteral("v1") } } });
    const QStringList parts = request.path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    if (parts.size() < 3 || parts.at(0) != QLatin1String("api") || parts.at(1) != QLatin1String("v1")
        || parts.at(2) != QLatin1String("clusters") || request.method != "GET")
        return errorFor(service, 404, QString(), QStringLiteral("path %1 was not found").arg(request.path));
    if (parts.size() == 3) {
        QJsonArray list;
        const ApiRender::RunningServers running = ApiRender::runningServers(m_world);
        for (const SimKluster &k : m_world.klusters) {
            if (k.projectId == token.projectId || m_world.externalIdentity)
                list.append(ApiRender::kluster(m_world, k, running));
        }
        return json(200, list);
    }
    const int k = m_world.klusterIndex(parts.at(3));
    if (k < 0 || (m_world.klusters.at(k).projectId != token.projectId && !m_world.externalIdentity))
        return errorFor(service, 404, QString(), QStringLiteral("Kluster %1 not found").arg(parts.at(3)));
    if (parts.size() == 4)
        return json(200, ApiRender::kluster(m_world, m_world.klusters.at(k)));
    if (parts.size() == 5 && parts.at(4) == QLatin1String("events"))
        return json(200, ApiRender::kubernikusEvents(m_world.klusters.at(k)));
    if (parts.size() == 5 && parts.at(4) == QLatin1String("credentials"))
        return json(200,
            QJsonObject { { QStringLiteral("kubeconfig"), QString::fromUtf8(kubeconfig(parts.at(3))) } });
    return errorFor(service, 404, QString(), QStringLiteral("path %1 was not found").arg(request.path));
}
