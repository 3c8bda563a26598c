// Nova v2.1: discovery, servers (pagination, microversions), actions,
// flavors and the legacy security group proxy the Debian client uses.

#include "simulator/apirender.h"
#include "simulator/simulator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <algorithm>
#include <cmath>
#include <optional>

namespace {

constexpr int MaxMicroversion = 2093; // 2.93, as Nova in Debian 12 (Zed)
constexpr int MaxLimit = 1000; // [api] max_limit

QByteArray toJson(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QString versionText(int mv)
{
    return QStringLiteral("%1.%2").arg(mv / 1000).arg(mv % 1000);
}

// The requested microversion as major*1000+minor; -1 when it is not supported.
int microversion(const HttpRequest &request)
{
    QByteArray value = request.header("openstack-api-version");
    if (value.toLower().startsWith("compute "))
        value = value.mid(8).trimmed();
    else
        value = request.header("x-openstack-nova-api-version").trimmed();
    if (value.isEmpty())
        return 2001;
    if (value == "latest")
        return MaxMicroversion;
    const QList<QByteArray> parts = value.split('.');
    bool ok1 = false;
    bool ok2 = false;
    const int major = parts.value(0).toInt(&ok1);
    const int minor = parts.value(1).toInt(&ok2);
    if (!ok1 || !ok2 || major != 2)
        return -1;
    const int mv = major * 1000 + minor;
    return (mv < 2001 || mv > MaxMicroversion) ? -1 : mv;
}

QJsonObject versionV21(const QString &computeUrl)
{
    return QJsonObject { { QStringLiteral("id"), QStringLiteral("v2.1") },
        { QStringLiteral("status"), QStringLiteral("CURRENT") },
        { QStringLiteral("version"), versionText(MaxMicroversion) },
        { QStringLiteral("min_version"), QStringLiteral("2.1") },
        { QStringLiteral("updated"), QStringLiteral("2013-07-23T11:33:21Z") },
        { QStringLiteral("links"),
            QJsonArray { QJsonObject { { QStringLiteral("rel"), QStringLiteral("self") },
                { QStringLiteral("href"), QString(computeUrl + QLatin1Char('/')) } } } },
        { QStringLiteral("media-types"),
            QJsonArray { QJsonObject { { QStringLiteral("base"), QStringLiteral("application/json") },
                { QStringLiteral("type"),
                    QStringLiteral("application/vnd.openstack.compute+json;version=2.1") } } } } };
}

void versionHeaders(HttpResponse &r, int mv)
{
    r.header("OpenStack-API-Version", "compute " + versionText(mv).toUtf8());
    r.header("X-OpenStack-Nova-API-Version", versionText(mv).toUtf8());
    r.header("Vary", "OpenStack-API-Version, X-OpenStack-Nova-API-Version");
}

} // namespace

HttpResponse Simulator::novaDiscovery(const HttpRequest &request)
{
    const QString url = endpoint(QStringLiteral("compute"));
    if (request.path == QLatin1String("/")) {
        QString root = url;
        root.chop(5);
        const QJsonObject v20 { { QStringLiteral("id"), QStringLiteral("v2.0") },
            { QStringLiteral("status"), QStringLiteral("DEPRECATED") },
            { QStringLiteral("version"), QString() }, { QStringLiteral("min_version"), QString() },
            { QStringLiteral("updated"), QStringLiteral("2025-07-04T12:00:00Z") },
            { QStringLiteral("links"),
                QJsonArray { QJsonObject { { QStringLiteral("rel"), QStringLiteral("self") },
                    { QStringLiteral("href"), QString(root + QStringLiteral("/v2/")) } } } } };
        return HttpResponse::json(
            200, toJson(QJsonObject { { QStringLiteral("versions"), QJsonArray { v20, versionV21(url) } } }));
    }
    if (request.path.startsWith(QLatin1String("/v2.1")))
        return HttpResponse::json(
            200, toJson(QJsonObject { { QStringLiteral("version"), versionV21(url) } }));
    return HttpResponse::json(
        300, toJson(QJsonObject { { QStringLiteral("choices"), QJsonArray { versionV21(url) } } }));
}

HttpResponse Simulator::nova(const HttpRequest &request, const SimToken &token)
{
    const QString service = QStringLiteral("compute");
    const int mv = microversion(request);
    if (mv < 0) {
        return errorFor(service, 406, QStringLiteral("notAcceptable"),
            QStringLiteral("Version %1 is not supported by the API. Minimum is 2.1 and maximum is %2.")
                .arg(QString::fromUtf8(request.header("x-openstack-nova-api-version")),
                    versionText(MaxMicroversion)));
    }
    const QString url = endpoint(service);
    QStringList parts = request.path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    if (parts.isEmpty() || parts.first() != QLatin1String("v2.1"))
        return errorFor(service, 404, QString(), QStringLiteral("The resource could not be found."));
    parts.removeFirst();
    if (!parts.isEmpty() && parts.first() == token.projectId) // the older /v2.1/{project_id}/... form
        parts.removeFirst();

    auto reply = [mv](int status, const QJsonObject &body) {
        HttpResponse r = HttpResponse::json(status, toJson(body));
        versionHeaders(r, mv);
        return r;
    };
    auto fault = [this, service, mv](int status, const QString &type, const QString &message) {
        HttpResponse r = errorFor(service, status, type, message);
        versionHeaders(r, mv);
        return r;
    };
    auto visible = [&token](const SimServer &s) { return s.projectId == token.projectId; };
    auto findServer = [this, &visible](const QString &id) {
        const int i = m_world.serverIndex(id);
        return (i >= 0 && visible(m_world.servers.at(i))) ? i : -1;
    };

    const QString method = QString::fromLatin1(request.method);
    if (parts.value(0) == QLatin1String("servers")) {
        if (method == QLatin1String("GET")
            && (parts.size() == 1 || (parts.size() == 2 && parts.at(1) == QLatin1String("detail")))) {
            const bool detail = parts.size() == 2;
            QList<const SimServer *> list;
            const QString nameFilter = request.queryValue(QStringLiteral("name"));
            const QRegularExpression nameRe(nameFilter);
            const QString statusFilter = request.queryValue(QStringLiteral("status"));
            // changes-since: the servers changed at or after the instant, and the deleted ones Nova still
            // keeps.
            std::optional<QDateTime> changesSince;
            if (request.query.hasQueryItem(QStringLiteral("changes-since"))) {
                const QString value = request.queryValue(QStringLiteral("changes-since"));
                QDateTime since = QDateTime::fromString(value, Qt::ISODateWithMs);
                if (!since.isValid()) {
                    return fault(400, QStringLiteral("badRequest"),
                        QStringLiteral(
                            "Invalid input for query parameters changes-since. Value: %1. '%1' is not "
                            "a 'date-time'")
                            .arg(value));
                }
                changesSince = since.toUTC();
            }
            QList<const SimServer *> candidates;
            candidates.reserve(m_world.servers.size());
            for (const SimServer &s : m_world.servers)
                candidates.append(&s);
            if (changesSince) {
                for (const SimServer &s : m_world.deletedServers)
                    candidates.append(&s);
            }
            for (const SimServer *candidate : std::as_const(candidates)) {
                const SimServer &s = *candidate;
                if (!visible(s))
                    continue;
                if (changesSince && s.updated < *changesSince)
                    continue;
                if (!nameFilter.isEmpty()) {
                    // Nova matches `name` as a regular expression.
                    const bool match
                        = nameRe.isValid() ? nameRe.match(s.name).hasMatch() : s.name.contains(nameFilter);
                    if (!match)
                        continue;
                }
                if (!statusFilter.isEmpty() && s.status.compare(statusFilter, Qt::CaseInsensitive) != 0)
                    continue;
                list.append(&s);
            }
            // Newest first, as Nova sorts by default (each instant read once: a page of a 20,000-server
            // project sorts them all).
            {
                QList<std::pair<qint64, const SimServer *>> keyed;
                keyed.reserve(list.size());
                for (const SimServer *server : std::as_const(list))
                    keyed.append({ server->created.toMSecsSinceEpoch(), server });
                std::stable_sort(keyed.begin(), keyed.end(), [](const auto &a, const auto &b) {
                    if (a.first != b.first)
                        return a.first > b.first;
                    return a.second->id > b.second->id;
                });
                for (qsizetype i = 0; i < keyed.size(); ++i)
                    list[i] = keyed.at(i).second;
            }
            int start = 0;
            const QString marker = request.queryValue(QStringLiteral("marker"));
            if (!marker.isEmpty()) {
                start = -1;
                for (int i = 0; i < list.size(); ++i) {
                    if (list.at(i)->id == marker)
                        start = i + 1;
                }
                if (start < 0)
                    return fault(400, QStringLiteral("badRequest"),
                        QStringLiteral("marker [%1] not found").arg(marker));
            }
            int limit = MaxLimit;
            if (request.query.hasQueryItem(QStringLiteral("limit"))) {
                bool ok = false;
                limit = request.queryValue(QStringLiteral("limit")).toInt(&ok);
                if (!ok || limit < 0)
                    return fault(400, QStringLiteral("badRequest"),
                        QStringLiteral("Invalid input for query parameters limit."));
                limit = qMin(limit, MaxLimit);
            }
            // Written as bytes: a page of a thousand servers is the hot path.
            QByteArray out = "{\"servers\":[";
            const int end = qMin(int(list.size()), start + limit);
            out.reserve(qMax(0, end - start) * (detail ? 1800 : 200) + 512);
            for (int i = start; i < end; ++i) {
                if (i > start)
                    out += ',';
                if (detail) {
                    out += ApiRender::serverJson(m_world, *list.at(i), mv, url);
                } else {
                    out += QJsonDocument(
                        QJsonObject { { QStringLiteral("id"), list.at(i)->id },
                            { QStringLiteral("name"), list.at(i)->name },
                            { QStringLiteral("links"),
                                QJsonArray { QJsonObject { { QStringLiteral("rel"), QStringLiteral("self") },
                                    { QStringLiteral("href"),
                                        QString(url + QStringLiteral("/servers/") + list.at(i)->id) } } } } })
                               .toJson(QJsonDocument::Compact);
                }
            }
            out += ']';
            const int returned = end - start;
            // A next link only when the page is full: min(limit, max_limit) items.
            if (returned > 0 && returned == limit) {
                QUrlQuery next;
                for (const auto &item : request.query.queryItems(QUrl::FullyDecoded)) {
                    if (item.first != QLatin1String("marker") && item.first != QLatin1String("limit"))
                        next.addQueryItem(item.first, item.second);
                }
                next.addQueryItem(QStringLiteral("limit"), QString::number(limit));
                next.addQueryItem(QStringLiteral("marker"), list.at(end - 1)->id);
                const QJsonArray links { QJsonObject { { QStringLiteral("rel"), QStringLiteral("next") },
                    { QStringLiteral("href"),
                        QString(url + QStringLiteral("/servers")
                            + (detail ? QStringLiteral("/detail") : QString()) + QLatin1Char('?')
                            + next.toString(QUrl::FullyEncoded)) } } };
                out += ",\"servers_links\":" + QJsonDocument(links).toJson(QJsonDocument::Compact);
            }
            out += '}';
            HttpResponse r = HttpResponse::json(200, out);
            versionHeaders(r, mv);
            return r;
        }
        if (parts.size() >= 2) {
            const int i = findServer(parts.at(1));
            if (i < 0) {
                return fault(404, QStringLiteral("itemNotFound"),
                    QStringLiteral("Instance %1 could not be found.").arg(parts.at(1)));
            }
            if (parts.size() == 2 && method == QLatin1String("GET"))
                return reply(200,
                    QJsonObject { { QStringLiteral("server"),
                        ApiRender::server(m_world, m_world.servers.at(i), mv, url) } });
            if (parts.size() == 3 && parts.at(2) == QLatin1String("os-instance-actions")
                && method == QLatin1String("GET"))
                return reply(200, ApiRender::instanceActions(m_world.servers.at(i)));
            if (parts.size() == 2 && method == QLatin1String("DELETE")) {
                m_world.deleteServer(i);
                HttpResponse r = HttpResponse::empty(204);
                versionHeaders(r, mv);
                return r;
            }
            if (parts.size() == 3 && parts.at(2) == QLatin1String("action")
                && method == QLatin1String("POST")) {
                const QJsonObject body = QJsonDocument::fromJson(request.body).object();
                std::optional<SimError> error;
                if (body.contains(QStringLiteral("addSecurityGroup"))) {
                    error = m_world.addSecurityGroup(i,
                        body.value(QStringLiteral("addSecurityGroup"))
                            .toObject()
                            .value(QStringLiteral("name"))
                            .toString());
                } else if (body.contains(QStringLiteral("removeSecurityGroup"))) {
                    error = m_world.removeSecurityGroup(i,
                        body.value(QStringLiteral("removeSecurityGroup"))
                            .toObject()
                            .value(QStringLiteral("name"))
                            .toString());
                } else if (const QString power = body.keys().value(0); body.size() == 1
                           && QStringList { QStringLiteral("os-stop"), QStringLiteral("os-start"),
                               QStringLiteral("suspend"), QStringLiteral("resume"), QStringLiteral("pause"),
                               QStringLiteral("unpause") }
                                  .contains(power)) {
                    error = m_world.powerAction(i, power);
                } else if (body.contains(QStringLiteral("os-getConsoleOutput"))) {
                    // Nova's schema: `length` an integer from -1, a string of digits, or null (absent: all).
                    const QJsonValue length = body.value(QStringLiteral("os-getConsoleOutput"))
                                                  .toObject()
                                                  .value(QStringLiteral("length"));
                    static const QRegularExpression digits(QStringLiteral("^-?[0-9]+$"));
                    const bool valid = length.isUndefined() || length.isNull()
                        || (length.isDouble() && length.toDouble() >= -1
                            && length.toDouble() == std::floor(length.toDouble()))
                        || (length.isString() && digits.match(length.toString()).hasMatch());
                    if (!valid || body.size() != 1)
                        return fault(400, QStringLiteral("badRequest"),
                            length.isString()
                                // As the real Nova words it (tests/integration: conformance).
                                ? QStringLiteral(
                                    "Invalid input for field/attribute length. Value: %1. '%1' does "
                                    "not match '^-?[0-9]+$'")
                                      .arg(length.toString())
                                : QStringLiteral("Invalid input for field/attribute length. Value: %1.")
                                      .arg(QString::fromUtf8(
                                          QJsonDocument(QJsonArray { length }).toJson(QJsonDocument::Compact))
                                               .mid(1)
                                               .chopped(1)));
                    const SimServer &s = m_world.servers.at(i);
                    // No host yet (building, or never scheduled): Nova's InstanceNotReady.
                    if (s.vmState == QLatin1String("building")
                        || s.faultMessage.contains(QLatin1String("No valid host")))
                        return fault(409, QStringLiteral("conflictingRequest"),
                            QStringLiteral("Instance %1 is not ready").arg(s.id));
                    std::optional<qint64> lines;
                    if (length.isDouble())
                        lines = qint64(length.toDouble());
                    else if (length.isString())
                        lines = length.toString().toLongLong();
                    return reply(200,
                        QJsonObject {
                            { QStringLiteral("output"), ApiRender::consoleOutput(m_world, s, lines) } });
                } else if (body.contains(QStringLiteral("reboot"))) {
                    const QString type = body.value(QStringLiteral("reboot"))
                                             .toObject()
                                             .value(QStringLiteral("type"))
                                             .toString();
                    SimServer &s = m_world.servers[i];
                    if (type != QLatin1String("SOFT") && type != QLatin1String("HARD"))
                        return fault(400, QStringLiteral("badRequest"),
                            QStringLiteral("Invalid input for field/attribute type. Value: %1.").arg(type));
                    if (s.vmState != QLatin1String("active")
                        && !(type == QLatin1String("HARD") && s.vmState == QLatin1String("error")))
                        return fault(409, QStringLiteral("conflictingRequest"),
                            QStringLiteral("Cannot 'reboot' instance %1 while it is in vm_state %2")
                                .arg(s.id, s.vmState));
                    s.updated = m_world.now();
                    s.recordAction(QStringLiteral("reboot"), s.updated);
                } else {
                    return fault(400, QStringLiteral("badRequest"),
                        QStringLiteral("There is no such action: %1").arg(body.keys().value(0)));
                }
                if (error)
                    return fault(error->status, error->type, error->message);
                HttpResponse r = HttpResponse::empty(202);
                versionHeaders(r, mv);
                return r;
            }
        }
        return fault(405, QStringLiteral("badRequest"),
            QStringLiteral("The method is not allowed for the requested URL."));
    }

    if (parts.value(0) == QLatin1String("flavors") && method == QLatin1String("GET")) {
        QJsonObject f { { QStringLiteral("id"), QStringLiteral("m1.small") },
            { QStringLiteral("name"), QStringLiteral("m1.small") }, { QStringLiteral("ram"), 4096 },
            { QStringLiteral("disk"), 40 }, { QStringLiteral("vcpus"), 2 },
            { QStringLiteral("swap"), QString() }, { QStringLiteral("rxtx_factor"), 1.0 },
            { QStringLiteral("OS-FLV-EXT-DATA:ephemeral"), 0 },
            { QStringLiteral("OS-FLV-DISABLED:disabled"), false },
            { QStringLiteral("os-flavor-access:is_public"), true },
            { QStringLiteral("links"), QJsonArray() } };
        if (parts.size() == 1 || parts.value(1) == QLatin1String("detail"))
            return reply(200, QJsonObject { { QStringLiteral("flavors"), QJsonArray { f } } });
        if (parts.value(1) == QLatin1String("m1.small"))
            return reply(200, QJsonObject { { QStringLiteral("flavor"), f } });
        return fault(404, QStringLiteral("itemNotFound"),
            QStringLiteral("Flavor %1 could not be found.").arg(parts.value(1)));
    }

    if (parts.value(0) == QLatin1String("os-security-groups") && method == QLatin1String("GET")) {
        auto legacy = [](const SimSecurityGroup &g) {
            QJsonArray rules;
            for (const SimRule &r : g.rules) {
                if (r.direction != QLatin1String("ingress"))
                    continue;
                rules.append(QJsonObject { { QStringLiteral("id"), r.id },
                    { QStringLiteral("parent_group_id"), g.id },
                    { QStringLiteral("ip_protocol"), r.protocol ? QJsonValue(*r.protocol) : QJsonValue() },
                    { QStringLiteral("from_port"),
                        r.portRangeMin ? QJsonValue(*r.portRangeMin) : QJsonValue() },
                    { QStringLiteral("to_port"),
                        r.portRangeMax ? QJsonValue(*r.portRangeMax) : QJsonValue() },
                    { QStringLiteral("ip_range"),
                        r.remoteIpPrefix ? QJsonObject { { QStringLiteral("cidr"), *r.remoteIpPrefix } }
                                         : QJsonObject() },
                    { QStringLiteral("group"), QJsonObject() } });
            }
            return QJsonObject { { QStringLiteral("id"), g.id }, { QStringLiteral("name"), g.name },
                { QStringLiteral("description"), g.description },
                { QStringLiteral("tenant_id"), g.projectId }, { QStringLiteral("rules"), rules } };
        };
        if (parts.size() == 1) {
            QJsonArray groups;
            for (const SimSecurityGroup &g : m_world.securityGroups) {
                if (g.projectId == token.projectId)
                    groups.append(legacy(g));
            }
            return reply(200, QJsonObject { { QStringLiteral("security_groups"), groups } });
        }
        const int g = m_world.groupIndex(parts.at(1));
        if (g < 0 || m_world.securityGroups.at(g).projectId != token.projectId)
            return fault(404, QStringLiteral("itemNotFound"),
                QStringLiteral("Security group %1 not found.").arg(parts.at(1)));
        return reply(
            200, QJsonObject { { QStringLiteral("security_group"), legacy(m_world.securityGroups.at(g)) } });
    }
    return fault(404, QStringLiteral("itemNotFound"), QStringLiteral("The resource could not be found."));
}
