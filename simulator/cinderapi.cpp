// Cinder v3: version discovery and the project's volumes (list with limit and marker, show, delete), as
// openstack/cinder 21.3.1 answers them (docs/wire-formats.md, "What a terminated kluster leaves behind").

#include "simulator/apirender.h"
#include "simulator/simulator.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace {

constexpr int MinMicroversion = 3000;
constexpr int MaxMicroversion = 3070; // 3.70, as Cinder in Debian 12 (Zed)
constexpr int MaxLimit = 1000; // osapi_max_limit

QByteArray toJson(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QString versionText(int mv)
{
    return QStringLiteral("%1.%2").arg(mv / 1000).arg(mv % 1000);
}

// The requested microversion as major*1000+minor (none: 3.0); -1 when it is not a version at all, -2 when it
// is one Cinder does not support.
int microversion(const HttpRequest &request)
{
    QByteArray value = request.header("openstack-api-version").trimmed();
    if (!value.toLower().startsWith("volume "))
        return MinMicroversion;
    value = value.mid(7).trimmed();
    if (value == "latest")
        return MaxMicroversion;
    const QList<QByteArray> parts = value.split('.');
    bool ok1 = false;
    bool ok2 = false;
    const int major = parts.value(0).toInt(&ok1);
    const int minor = parts.value(1).toInt(&ok2);
    if (parts.size() != 2 || !ok1 || !ok2)
        return -1;
    const int mv = major * 1000 + minor;
    return (mv < MinMicroversion || mv > MaxMicroversion) ? -2 : mv;
}

} // namespace

HttpResponse Simulator::cinderDiscovery(const HttpRequest &request)
{
    const QString url = endpoint(QStringLiteral("volumev3"));
    const QJsonObject v3 { { QStringLiteral("id"), QStringLiteral("v3.0") },
        { QStringLiteral("status"), QStringLiteral("CURRENT") },
        { QStringLiteral("version"), versionText(MaxMicroversion) },
        { QStringLiteral("min_version"), versionText(MinMicroversion) },
        { QStringLiteral("updated"), QStringLiteral("2023-08-31T00:00:00Z") },
        { QStringLiteral("links"),
            QJsonArray { QJsonObject { { QStringLiteral("rel"), QStringLiteral("self") },
                { QStringLiteral("href"), QString(url + QLatin1Char('/')) } } } },
        { QStringLiteral("media-types"),
            QJsonArray { QJsonObject { { QStringLiteral("base"), QStringLiteral("application/json") },
                { QStringLiteral("type"),
                    QStringLiteral("application/vnd.openstack.volume+json;version=3") } } } } };
    if (request.path == QLatin1String("/"))
        return HttpResponse::json(
            300, toJson(QJsonObject { { QStringLiteral("versions"), QJsonArray { v3 } } }));
    return HttpResponse::json(200, toJson(QJsonObject { { QStringLiteral("versions"), QJsonArray { v3 } } }));
}

HttpResponse Simulator::cinder(const HttpRequest &request, const SimToken &token)
{
    const QString service = QStringLiteral("volumev3");
    const int mv = microversion(request);
    if (mv == -1)
        return errorFor(service, 400, QString(),
            QStringLiteral("API Version String %1 is of invalid format. Must be of format MajorNum.MinorNum.")
                .arg(QString::fromUtf8(request.header("openstack-api-version").mid(7).trimmed())));
    if (mv == -2)
        return errorFor(service, 406, QString(),
            QStringLiteral("Version %1 is not supported by the API. Minimum is %2 and maximum is %3.")
                .arg(QString::fromUtf8(request.header("openstack-api-version").mid(7).trimmed()),
                    versionText(MinMicroversion), versionText(MaxMicroversion)));
    auto reply = [mv](int status, const QByteArray &body) {
        HttpResponse r = status == 202 ? HttpResponse::empty(202) : HttpResponse::json(status, body);
        r.header("OpenStack-API-Version", "volume " + versionText(mv).toUtf8());
        r.header("Vary", "OpenStack-API-Version");
        return r;
    };
    auto fault = [this, &reply, &service](int status, const QString &message) {
        HttpResponse r = errorFor(service, status, QString(), message);
        return reply(status, r.body);
    };
    QStringList parts = request.path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    if (parts.value(0) != QLatin1String("v3"))
        return fault(404, QStringLiteral("The resource could not be found."));
    parts.removeFirst();
    // The project in the URL (optional since 3.67): what the links then name too.
    QString url = endpoint(service);
    if (!parts.isEmpty() && parts.first() != QLatin1String("volumes")) {
        if (parts.first() != token.projectId)
            return fault(400, QStringLiteral("Malformed request url"));
        url += QLatin1Char('/') + parts.takeFirst();
    }
    if (parts.value(0) != QLatin1String("volumes"))
        return fault(404, QStringLiteral("The resource could not be found."));
    const QString method = QString::fromLatin1(request.method);
    auto find = [this, &token](const QString &id) {
        const int v = m_world.volumeIndex(id);
        return v >= 0 && m_world.volumes.at(v).projectId == token.projectId ? v : -1;
    };

    if (method == QLatin1String("GET")
        && (parts.size() == 1 || (parts.size() == 2 && parts.at(1) == QLatin1String("detail")))) {
        bool ok = true;
        int limit = MaxLimit;
        if (request.query.hasQueryItem(QStringLiteral("limit"))) {
            limit = request.queryValue(QStringLiteral("limit")).toInt(&ok);
            if (!ok)
                return fault(400, QStringLiteral("limit param must be an integer"));
            if (limit < 0)
                return fault(400, QStringLiteral("limit param must be positive"));
            limit = qMin(limit, MaxLimit);
        }
        QList<const SimVolume *> list = ApiRender::projectVolumes(m_world, token.projectId);
        // Exact filters, as Cinder's on these keys.
        for (const char *key : { "status", "name" }) {
            const QString wanted = request.queryValue(QLatin1String(key));
            if (!request.query.hasQueryItem(QLatin1String(key)))
                continue;
            list.removeIf([&](const SimVolume *v) {
                return (qstrcmp(key, "status") == 0 ? v->status : v->name) != wanted;
            });
        }
        if (request.query.hasQueryItem(QStringLiteral("marker"))) {
            // The marker is looked up as a volume of the project (VolumeNotFound when it is none); the page
            // holds what follows it in the order.
            const QString marker = request.queryValue(QStringLiteral("marker"));
            const int m = find(marker);
            if (m < 0)
                return fault(404, QStringLiteral("Volume %1 could not be found.").arg(marker));
            const SimVolume &last = m_world.volumes.at(m);
            list.removeIf([&last](const SimVolume *v) {
                return v->created != last.created ? v->created >= last.created : v->id >= last.id;
            });
        }
        const QList<const SimVolume *> page = list.mid(0, limit);
        const bool detail = parts.size() == 2;
        QJsonArray volumes;
        for (const SimVolume *v : page) {
            if (detail) {
                volumes.append(ApiRender::volume(*v, mv, url));
            } else {
                const QJsonObject full = ApiRender::volume(*v, mv, url);
                volumes.append(QJsonObject { { QStringLiteral("id"), v->id },
                    { QStringLiteral("name"), full.value(QStringLiteral("name")) },
                    { QStringLiteral("links"), full.value(QStringLiteral("links")) } });
            }
        }
        QJsonObject body { { QStringLiteral("volumes"), volumes } };
        // cinder/api/common.py: a next link whenever the page is full, the request's parameters kept and
        // the marker last.
        if (!page.isEmpty() && page.size() >= limit) {
            QUrlQuery next = request.query;
            next.removeAllQueryItems(QStringLiteral("marker"));
            next.addQueryItem(QStringLiteral("marker"), page.last()->id);
            body.insert(QStringLiteral("volumes_links"),
                QJsonArray { QJsonObject { { QStringLiteral("rel"), QStringLiteral("next") },
                    { QStringLiteral("href"),
                        QString(url + QStringLiteral("/volumes")
                            + (detail ? QStringLiteral("/detail") : QString()) + QLatin1Char('?')
                            + next.toString(QUrl::FullyEncoded)) } } });
        }
        return reply(200, toJson(body));
    }
    if (parts.size() == 2 && (method == QLatin1String("GET") || method == QLatin1String("DELETE"))) {
        const int v = find(parts.at(1));
        if (v < 0)
            return fault(404, QStringLiteral("Volume %1 could not be found.").arg(parts.at(1)));
        if (method == QLatin1String("GET"))
            return reply(200,
                toJson(QJsonObject {
                    { QStringLiteral("volume"), ApiRender::volume(m_world.volumes.at(v), mv, url) } }));
        if (const std::optional<SimError> e = m_world.deleteVolume(v))
            return fault(e->status, e->message);
        return reply(202, QByteArray());
    }
    if (parts.size() == 3 && parts.at(2) == QLatin1String("action") && method == QLatin1String("POST")) {
        // An admin's action (cinder/api/contrib/admin_actions.py): os-reset_status sets the status as given.
        const QJsonObject body = QJsonDocument::fromJson(request.body).object();
        const QJsonObject reset = body.value(QStringLiteral("os-reset_status")).toObject();
        if (!body.contains(QStringLiteral("os-reset_status")))
            return fault(400,
                QStringLiteral("There is no such action: %1")
                    .arg(body.isEmpty() ? QStringLiteral("None") : body.keys().constFirst()));
        const int u = m_world.userIndex(token.userId);
        if (u < 0 || !m_world.users.at(u).roles.contains(QStringLiteral("admin")))
            return reply(403,
                errorFor(service, 403, QStringLiteral("forbidden"),
                    QStringLiteral(
                        "Policy doesn't allow volume_extension:volume_admin_actions:reset_status to "
                        "be performed."))
                    .body);
        const int v = find(parts.at(1));
        if (v < 0)
            return fault(404, QStringLiteral("Volume %1 could not be found.").arg(parts.at(1)));
        const QString status = reset.value(QStringLiteral("status")).toString();
        static const QStringList valid { QStringLiteral("available"), QStringLiteral("error"),
            QStringLiteral("in-use"), QStringLiteral("error_deleting"), QStringLiteral("deleting") };
        if (!valid.contains(status))
            return fault(400, QStringLiteral("Must specify a valid status"));
        m_world.volumes[v].status = status;
        m_world.volumes[v].updated = m_world.now();
        return reply(202, QByteArray());
    }
    return fault(405, QStringLiteral("The method is not allowed for the requested URL."));
}
