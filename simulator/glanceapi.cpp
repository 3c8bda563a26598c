// A minimal Glance: what `openstack server list` asks of the image service.

#include "simulator/simulator.h"

#include <QJsonArray>
#include <QJsonDocument>

HttpResponse Simulator::glance(const HttpRequest &request, const SimToken *token)
{
    const QString url = endpoint(QStringLiteral("image"));
    auto version = [&url](const char *id, const char *status) {
        return QJsonObject { { QStringLiteral("id"), QString::fromLatin1(id) },
            { QStringLiteral("status"), QString::fromLatin1(status) },
            { QStringLiteral("links"),
                QJsonArray { QJsonObject { { QStringLiteral("rel"), QStringLiteral("self") },
                    { QStringLiteral("href"), QString(url + QStringLiteral("/v2/")) } } } } };
    };
    if (request.path == QLatin1String("/") || request.path == QLatin1String("/versions")) {
        const QJsonObject body { { QStringLiteral("versions"),
            QJsonArray { version("v2.16", "CURRENT"), version("v2.0", "SUPPORTED") } } };
        return HttpResponse::json(request.path == QLatin1String("/") ? 300 : 200,
            QJsonDocument(body).toJson(QJsonDocument::Compact));
    }
    if (!token)
        return errorFor(QStringLiteral("image"), 401, QString(),
            QStringLiteral("The request you have made requires authentication."));
    if (request.path == QLatin1String("/v2/images")
        || request.path == QLatin1String("/v2/images/3f2a8d1c-7b6e-4c5d-9e0f-1a2b3c4d5e6f")) {
        const QJsonObject image { { QStringLiteral("id"),
                                      QStringLiteral("3f2a8d1c-7b6e-4c5d-9e0f-1a2b3c4d5e6f") },
            { QStringLiteral("name"), QStringLiteral("flatcar-stable-amd64") },
            { QStringLiteral("status"), QStringLiteral("active") },
            { QStringLiteral("visibility"), QStringLiteral("public") },
            { QStringLiteral("disk_format"), QStringLiteral("qcow2") },
            { QStringLiteral("container_format"), QStringLiteral("bare") },
            { QStringLiteral("size"), 524288000 }, { QStringLiteral("min_disk"), 0 },
            { QStringLiteral("min_ram"), 0 }, { QStringLiteral("protected"), false },
            { QStringLiteral("tags"), QJsonArray() },
            { QStringLiteral("created_at"), QStringLiteral("2026-01-05T09:00:00Z") },
            { QStringLiteral("updated_at"), QStringLiteral("2026-01-05T09:00:00Z") },
            { QStringLiteral("self"), QStringLiteral("/v2/images/3f2a8d1c-7b6e-4c5d-9e0f-1a2b3c4d5e6f") },
            { QStringLiteral("file"),
                QStringLiteral("/v2/images/3f2a8d1c-7b6e-4c5d-9e0f-1a2b3c4d5e6f/file") },
            { QStringLiteral("schema"), QStringLiteral("/v2/schemas/image") } };
        if (request.path.endsWith(QLatin1String("/images")))
            return HttpResponse::json(200,
                QJsonDocument(QJsonObject { { QStringLiteral("images"), QJsonArray { image } },
                                  { QStringLiteral("first"), QStringLiteral("/v2/images") },
                                  { QStringLiteral("schema"), QStringLiteral("/v2/schemas/images") } })
                    .toJson(QJsonDocument::Compact));
        return HttpResponse::json(200, QJsonDocument(image).toJson(QJsonDocument::Compact));
    }
    HttpResponse r;
    r.status = 404;
    r.body = "404 Not Found\n\nThe resource could not be found.\n\n   ";
    r.header("Content-Type", "text/plain; charset=UTF-8");
    return r;
}
