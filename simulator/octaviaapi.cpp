// Octavia v2: version discovery and the project's load balancers (list with limit and marker, show,
// delete), as openstack/octavia 11.0.0 answers them (docs/wire-formats.md, "What a terminated kluster leaves
// behind"). Its load balancers have no listeners or pools here: a deletion without `cascade` is one with it.

#include "simulator/apirender.h"
#include "simulator/simulator.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace {

constexpr int PageSize = 1000; // [api_settings] pagination_max_limit

QByteArray toJson(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

} // namespace

HttpResponse Simulator::octaviaDiscovery(const HttpRequest &)
{
    const QString url = endpoint(QStringLiteral("load-balancer"));
    auto version = [&url](const char *id, const char *status, const char *updated) {
        return QJsonObject { { QStringLiteral("id"), QString::fromLatin1(id) },
            { QStringLiteral("status"), QString::fromLatin1(status) },
            { QStringLiteral("updated"), QString::fromLatin1(updated) },
            { QStringLiteral("links"),
                QJsonArray { QJsonObject { { QStringLiteral("href"), QString(url + QStringLiteral("/v2")) },
                    { QStringLiteral("rel"), QStringLiteral("self") } } } } };
    };
    return HttpResponse::json(200,
        toJson(QJsonObject { { QStringLiteral("versions"),
            QJsonArray { version("v2.0", "SUPPORTED", "2016-12-11T00:00:00Z"),
                version("v2.26", "CURRENT", "2022-08-29T00:00:00Z") } } }));
}

HttpResponse Simulator::octavia(const HttpRequest &request, const SimToken &token)
{
    const QString service = QStringLiteral("load-balancer");
    const QStringList parts = request.path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    // /v2/lbaas/loadbalancers[/<id>] (or /v2.0/…)
    if ((parts.value(0) != QLatin1String("v2") && parts.value(0) != QLatin1String("v2.0"))
        || parts.value(1) != QLatin1String("lbaas") || parts.value(2) != QLatin1String("loadbalancers")
        || parts.size() > 4)
        return errorFor(service, 404, QString(), QStringLiteral("The resource could not be found."));
    const QString method = QString::fromLatin1(request.method);
    auto find = [this, &token](const QString &id) {
        const int i = m_world.loadBalancerIndex(id);
        return i >= 0 && m_world.loadBalancers.at(i).projectId == token.projectId ? i : -1;
    };

    if (parts.size() == 3 && method == QLatin1String("GET")) {
        // octavia/api/common/pagination.py: a limit below 1 is none; at most the page size.
        int limit = PageSize;
        if (request.query.hasQueryItem(QStringLiteral("limit"))) {
            const QString given = request.queryValue(QStringLiteral("limit"));
            bool ok = false;
            const int n = given.toInt(&ok);
            if (!ok && given != QLatin1String("infinite"))
                return errorFor(service, 400, QString(),
                    QStringLiteral("Supplied pagination limit '%1' is not valid.").arg(given));
            limit = ok && n >= 1 ? qMin(n, PageSize) : -1;
        }
        QList<const SimLoadBalancer *> list = ApiRender::projectLoadBalancers(m_world, token.projectId);
        for (const char *key : { "name", "provisioning_status", "operating_status" }) {
            if (!request.query.hasQueryItem(QLatin1String(key)))
                continue;
            const QString wanted = request.queryValue(QLatin1String(key));
            list.removeIf([&](const SimLoadBalancer *lb) {
                return (qstrcmp(key, "name") == 0                      ? lb->name
                               : qstrcmp(key, "operating_status") == 0 ? lb->operatingStatus
                                                                       : lb->provisioningStatus)
                    != wanted;
            });
        }
        const QString marker = request.queryValue(QStringLiteral("marker"));
        if (!marker.isEmpty()) {
            // The marker is any load balancer's id; the page holds what follows it in the order.
            const int m = m_world.loadBalancerIndex(marker);
            if (m < 0)
                return errorFor(service, 400, QString(),
                    QStringLiteral("Supplied pagination marker '%1' is not valid.").arg(marker));
            const SimLoadBalancer &last = m_world.loadBalancers.at(m);
            list.removeIf([&last](const SimLoadBalancer *lb) {
                return lb->created != last.created ? lb->created <= last.created : lb->id <= last.id;
            });
        }
        const QList<const SimLoadBalancer *> page = limit < 0 ? list : list.mid(0, limit);
        QJsonArray loadBalancers;
        for (const SimLoadBalancer *lb : page)
            loadBalancers.append(ApiRender::loadBalancer(*lb));
        // A previous link after a marker, a next link whenever the page is full.
        QJsonArray links;
        const QString here = endpoint(service) + request.path + QStringLiteral("?limit=")
            + (limit < 0 ? QStringLiteral("None") : QString::number(limit));
        if (!page.isEmpty() && !marker.isEmpty())
            links.append(QJsonObject { { QStringLiteral("rel"), QStringLiteral("previous") },
                { QStringLiteral("href"),
                    QString(here + QStringLiteral("&marker=") + page.first()->id
                        + QStringLiteral("&page_reverse=True")) } });
        if (!page.isEmpty() && limit >= 0 && page.size() >= limit)
            links.append(QJsonObject { { QStringLiteral("rel"), QStringLiteral("next") },
                { QStringLiteral("href"), QString(here + QStringLiteral("&marker=") + page.last()->id) } });
        return HttpResponse::json(200,
            toJson(QJsonObject { { QStringLiteral("loadbalancers"), loadBalancers },
                { QStringLiteral("loadbalancers_links"), links } }));
    }
    if (parts.size() == 4 && (method == QLatin1String("GET") || method == QLatin1String("DELETE"))) {
        const int i = find(parts.at(3));
        if (i < 0)
            return errorFor(
                service, 404, QString(), QStringLiteral("Load Balancer %1 not found.").arg(parts.at(3)));
        if (method == QLatin1String("GET"))
            return HttpResponse::json(200,
                toJson(QJsonObject { { QStringLiteral("loadbalancer"),
                    ApiRender::loadBalancer(m_world.loadBalancers.at(i)) } }));
        if (const std::optional<SimError> e = m_world.deleteLoadBalancer(i))
            return errorFor(service, e->status, QString(), e->message);
        return HttpResponse::empty(204);
    }
    return errorFor(
        service, 405, QString(), QStringLiteral("The method is not allowed for the requested URL."));
}
