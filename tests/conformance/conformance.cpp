#include "tests/conformance/conformance.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>
#include <QUrl>

namespace Conformance {

QString Observation::toString() const
{
    return QStringLiteral("%1: %2 %3 %4")
        .arg(check)
        .arg(status)
        .arg(type.isEmpty() ? QStringLiteral("-") : type, facts);
}

QJsonObject Reply::json() const
{
    return QJsonDocument::fromJson(body).object();
}

Reply request(QNetworkAccessManager &nam, const QByteArray &method, const QString &url,
    const QByteArray &body, const QList<QPair<QByteArray, QByteArray>> &headers, int timeoutMs)
{
    QNetworkRequest req { QUrl(url) };
    req.setTransferTimeout(timeoutMs);
    req.setRawHeader("Accept", "application/json");
    if (!body.isEmpty())
        req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    for (const auto &h : headers)
        req.setRawHeader(h.first, h.second);
    QNetworkReply *reply = nam.sendCustomRequest(req, method, body);
    QSignalSpy finished(reply, &QNetworkReply::finished);
    if (!reply->isFinished() && !finished.wait(120000))
        reply->abort(); // no answer in two minutes: reported as a network error below
    Reply r;
    r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    r.body = reply->readAll();
    for (const auto &pair : reply->rawHeaderPairs())
        r.headers.insert(pair.first.toLower(), pair.second);
    if (r.status == 0)
        r.networkError = reply->errorString();
    reply->deleteLater();
    return r;
}

Session login(QNetworkAccessManager &nam, const QString &authUrl, const QString &user,
    const QString &password, const QString &project)
{
    const QJsonObject auth { { QStringLiteral("auth"),
        QJsonObject {
            { QStringLiteral("identity"),
                QJsonObject { { QStringLiteral("methods"), QJsonArray { QStringLiteral("password") } },
                    { QStringLiteral("password"),
                        QJsonObject { { QStringLiteral("user"),
                            QJsonObject { { QStringLiteral("name"), user },
                                { QStringLiteral("domain"),
                                    QJsonObject { { QStringLiteral("name"), QStringLiteral("Default") } } },
                                { QStringLiteral("password"), password } } } } } } },
            { QStringLiteral("scope"),
                QJsonObject { { QStringLiteral("project"),
                    QJsonObject { { QStringLiteral("name"), project },
                        { QStringLiteral("domain"),
                            QJsonObject {
                                { QStringLiteral("name"), QStringLiteral("Default") } } } } } } } } } };
    const Reply r = request(nam, "POST", authUrl + QStringLiteral("/auth/tokens"),
        QJsonDocument(auth).toJson(QJsonDocument::Compact));
    Session s;
    if (r.status != 201) {
        s.error = QStringLiteral("login as %1: HTTP %2 %3 %4")
                      .arg(user)
                      .arg(r.status)
                      .arg(r.networkError, QString::fromUtf8(r.body.left(300)));
        return s;
    }
    s.token = QString::fromUtf8(r.headers.value("x-subject-token"));
    const QJsonObject token = r.json().value(QStringLiteral("token")).toObject();
    s.projectId = token.value(QStringLiteral("project")).toObject().value(QStringLiteral("id")).toString();
    s.userId = token.value(QStringLiteral("user")).toObject().value(QStringLiteral("id")).toString();
    for (const QJsonValue &service : token.value(QStringLiteral("catalog")).toArray()) {
        for (const QJsonValue &e : service.toObject().value(QStringLiteral("endpoints")).toArray()) {
            if (e.toObject().value(QStringLiteral("interface")).toString() == QLatin1String("public"))
                s.endpoints.insert(service.toObject().value(QStringLiteral("type")).toString(),
                    e.toObject().value(QStringLiteral("url")).toString());
        }
    }
    return s;
}

namespace {

// The error type of a body in the service's own shape.
QString errorType(const QJsonObject &body)
{
    if (body.contains(QStringLiteral("NeutronError")))
        return body.value(QStringLiteral("NeutronError")).toObject().value(QStringLiteral("type")).toString();
    if (body.contains(QStringLiteral("error"))) // Keystone
        return body.value(QStringLiteral("error")).toObject().value(QStringLiteral("title")).toString();
    if (body.size() == 1 && body.begin().value().isObject()
        && body.begin().value().toObject().contains(QStringLiteral("code")))
        return body.begin().key(); // a Nova fault: {"badRequest": {"code": 400, "message": ...}}
    return QString();
}

QString errorMessage(const QJsonObject &body)
{
    if (body.contains(QStringLiteral("NeutronError")))
        return body.value(QStringLiteral("NeutronError"))
            .toObject()
            .value(QStringLiteral("message"))
            .toString();
    if (body.contains(QStringLiteral("error")))
        return body.value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString();
    if (body.size() == 1 && body.begin().value().isObject())
        return body.begin().value().toObject().value(QStringLiteral("message")).toString();
    return QString();
}

QJsonArray routesJson(const QList<QPair<QString, QString>> &routes)
{
    QJsonArray a;
    for (const auto &r : routes)
        a.append(QJsonObject {
            { QStringLiteral("destination"), r.first }, { QStringLiteral("nexthop"), r.second } });
    return a;
}

QByteArray routerBody(const QList<QPair<QString, QString>> &routes)
{
    return QJsonDocument(QJsonObject { { QStringLiteral("router"),
                             QJsonObject { { QStringLiteral("routes"), routesJson(routes) } } } })
        .toJson(QJsonDocument::Compact);
}

} // namespace

QList<Observation> run(const Target &t, QString *error)
{
    QNetworkAccessManager nam;
    QList<Observation> out;
    const auto observe = [&out](const QString &check, const Reply &r, const QString &facts = QString()) {
        const QJsonObject body = r.json();
        Observation o;
        o.check = check;
        o.status = r.status;
        o.type = r.status >= 400 ? errorType(body) : QString();
        o.facts = facts;
        o.message = r.status >= 400 ? errorMessage(body) : QString();
        out << o;
        return o;
    };

    // Keystone.
    const Reply wrong = request(nam, "POST", t.authUrl + QStringLiteral("/auth/tokens"),
        QStringLiteral(R"({"auth": {"identity": {"methods": ["password"], "password": {"user": {"name": "%1",
            "domain": {"name": "Default"}, "password": "not-the-password"}}}}})")
            .arg(t.user)
            .toUtf8());
    observe(QStringLiteral("keystone: wrong password"), wrong);
    const Session s = login(nam, t.authUrl, t.user, t.password, t.project);
    if (!s.error.isEmpty()) {
        *error = s.error;
        return out;
    }
    Observation token;
    token.check = QStringLiteral("keystone: password token");
    token.status = 201;
    QStringList types = s.endpoints.keys();
    types.removeAll(QStringLiteral("kubernikus"));
    types.removeAll(QStringLiteral("placement"));
    types.removeAll(QStringLiteral("image"));
    types.sort();
    token.facts = QStringLiteral("token %1, catalog %2")
                      .arg(s.token.isEmpty() ? QStringLiteral("missing") : QStringLiteral("present"),
                          types.join(QLatin1Char(',')));
    out << token;

    const QList<QPair<QByteArray, QByteArray>> auth { { "X-Auth-Token", s.token.toUtf8() } };
    const QString neutron
        = s.endpoints.value(QStringLiteral("network"))
              .chopped(s.endpoints.value(QStringLiteral("network")).endsWith(QLatin1Char('/')) ? 1 : 0);
    const QString nova = s.endpoints.value(QStringLiteral("compute"));
    const QString router = neutron + QStringLiteral("/v2.0/routers/") + t.routerId;
    const auto currentRoutes = [&](qint64 *revision = nullptr) {
        const QJsonObject r
            = request(nam, "GET", router, {}, auth).json().value(QStringLiteral("router")).toObject();
        if (revision)
            *revision = r.value(QStringLiteral("revision_number")).toInteger();
        QList<QPair<QString, QString>> routes;
        for (const QJsonValue &v : r.value(QStringLiteral("routes")).toArray())
            routes << qMakePair(v.toObject().value(QStringLiteral("destination")).toString(),
                v.toObject().value(QStringLiteral("nexthop")).toString());
        return routes;
    };
    const QList<QPair<QString, QString>> original = currentRoutes();

    // Neutron routes.
    observe(QStringLiteral("neutron: unknown router"),
        request(nam, "GET", neutron + QStringLiteral("/v2.0/routers/00000000-0000-4000-8000-000000000000"),
            {}, auth));
    QList<QPair<QString, QString>> twoNexthops = original;
    twoNexthops << qMakePair(QStringLiteral("100.127.1.0/24"), t.nexthopA)
                << qMakePair(QStringLiteral("100.127.1.0/24"), t.nexthopB);
    Reply r = request(nam, "PUT", router, routerBody(twoNexthops), auth);
    observe(QStringLiteral("neutron: one destination, two nexthops"), r,
        QStringLiteral("%1 routes")
            .arg(r.json()
                     .value(QStringLiteral("router"))
                     .toObject()
                     .value(QStringLiteral("routes"))
                     .toArray()
                     .size()
                - original.size()));
    QList<QPair<QString, QString>> unordered = original;
    unordered << qMakePair(QStringLiteral("100.127.9.0/24"), t.nexthopA)
              << qMakePair(QStringLiteral("100.127.1.0/24"), t.nexthopB)
              << qMakePair(QStringLiteral("100.127.1.0/24"), t.nexthopA);
    r = request(nam, "PUT", router, routerBody(unordered), auth);
    {
        QList<QPair<QString, QString>> back;
        for (const QJsonValue &v :
            r.json().value(QStringLiteral("router")).toObject().value(QStringLiteral("routes")).toArray())
            back << qMakePair(v.toObject().value(QStringLiteral("destination")).toString(),
                v.toObject().value(QStringLiteral("nexthop")).toString());
        QList<QPair<QString, QString>> sorted = unordered;
        std::sort(sorted.begin(), sorted.end());
        observe(QStringLiteral("neutron: the order of the routes it answers"), r,
            back == unordered    ? QStringLiteral("as given")
                : back == sorted ? QStringLiteral("by destination, then nexthop, as text")
                                 : QStringLiteral("another order"));
    }
    QList<QPair<QString, QString>> samePair = original;
    samePair << qMakePair(QStringLiteral("100.127.2.0/24"), t.nexthopA)
             << qMakePair(QStringLiteral("100.127.2.0/24"), t.nexthopA);
    observe(QStringLiteral("neutron: the same route twice in one update"),
        request(nam, "PUT", router, routerBody(samePair), auth));
    QList<QPair<QString, QString>> outside = original;
    outside << qMakePair(QStringLiteral("100.127.3.0/24"), t.outsideNexthop);
    observe(QStringLiteral("neutron: nexthop outside the router's subnets"),
        request(nam, "PUT", router, routerBody(outside), auth));
    QList<QPair<QString, QString>> hostBits = original;
    hostBits << qMakePair(QStringLiteral("100.127.4.5/24"), t.nexthopA);
    observe(QStringLiteral("neutron: destination with host bits"),
        request(nam, "PUT", router, routerBody(hostBits), auth));
    const int before = int(currentRoutes().size());
    r = request(nam, "PUT", router + QStringLiteral("/add_extraroutes"),
        routerBody({ qMakePair(QStringLiteral("100.127.1.0/24"), t.nexthopA) }), auth);
    observe(QStringLiteral("neutron: add_extraroutes of a present route"), r,
        QStringLiteral("%1 more").arg(r.json()
                                          .value(QStringLiteral("router"))
                                          .toObject()
                                          .value(QStringLiteral("routes"))
                                          .toArray()
                                          .size()
            - before));
    r = request(nam, "PUT", router + QStringLiteral("/remove_extraroutes"),
        routerBody({ qMakePair(QStringLiteral("100.127.99.0/24"), t.nexthopA) }), auth);
    observe(QStringLiteral("neutron: remove_extraroutes of an absent route"), r,
        QStringLiteral("%1 fewer")
            .arg(before
                - r.json()
                      .value(QStringLiteral("router"))
                      .toObject()
                      .value(QStringLiteral("routes"))
                      .toArray()
                      .size()));
    qint64 revision = 0;
    const QList<QPair<QString, QString>> now = currentRoutes(&revision);
    observe(QStringLiteral("neutron: If-Match with a stale revision"),
        request(nam, "PUT", router, routerBody(original),
            auth
                + QList<QPair<QByteArray, QByteArray>> {
                    { "If-Match", "revision_number=" + QByteArray::number(revision - 1) } }));
    r = request(nam, "PUT", router, routerBody(original),
        auth
            + QList<QPair<QByteArray, QByteArray>> {
                { "If-Match", "revision_number=" + QByteArray::number(revision) } });
    observe(QStringLiteral("neutron: If-Match with the current revision"), r);
    QList<QPair<QString, QString>> full = original;
    for (int i = 0; full.size() < 30; ++i)
        full << qMakePair(QStringLiteral("100.126.%1.0/24").arg(i), t.nexthopA);
    observe(QStringLiteral("neutron: 30 routes"), request(nam, "PUT", router, routerBody(full), auth));
    observe(QStringLiteral("neutron: the 31st route by add_extraroutes"),
        request(nam, "PUT", router + QStringLiteral("/add_extraroutes"),
            routerBody({ qMakePair(QStringLiteral("100.125.0.0/24"), t.nexthopA) }), auth));
    QList<QPair<QString, QString>> over = full;
    over << qMakePair(QStringLiteral("100.125.1.0/24"), t.nexthopA);
    observe(QStringLiteral("neutron: the 31st route by a full update"),
        request(nam, "PUT", router, routerBody(over), auth));
    request(nam, "PUT", router, routerBody(original), auth); // as it was

    // Neutron security group rules.
    const QByteArray rule = QJsonDocument(
        QJsonObject { { QStringLiteral("security_group_rule"),
            QJsonObject { { QStringLiteral("security_group_id"), t.securityGroupId },
                { QStringLiteral("direction"), QStringLiteral("ingress") },
                { QStringLiteral("ethertype"), QStringLiteral("IPv4") },
                { QStringLiteral("protocol"), QStringLiteral("udp") },
                { QStringLiteral("remote_ip_prefix"), QStringLiteral("100.124.0.0/16") } } } })
                                .toJson(QJsonDocument::Compact);
    r = request(nam, "POST", neutron + QStringLiteral("/v2.0/security-group-rules"), rule, auth);
    const QString ruleId = r.json()
                               .value(QStringLiteral("security_group_rule"))
                               .toObject()
                               .value(QStringLiteral("id"))
                               .toString();
    observe(QStringLiteral("neutron: create a rule"), r,
        r.json().value(QStringLiteral("security_group_rule"))
                .toObject()
                .value(QStringLiteral("port_range_min"))
                .isNull()
            ? QStringLiteral("no port range")
            : QStringLiteral("a port range"));
    observe(QStringLiteral("neutron: the same rule again"),
        request(nam, "POST", neutron + QStringLiteral("/v2.0/security-group-rules"), rule, auth));
    if (!ruleId.isEmpty())
        observe(QStringLiteral("neutron: delete the rule"),
            request(
                nam, "DELETE", neutron + QStringLiteral("/v2.0/security-group-rules/") + ruleId, {}, auth));

    // Nova.
    const QList<QPair<QByteArray, QByteArray>> novaHeaders
        = auth + QList<QPair<QByteArray, QByteArray>> { { "OpenStack-API-Version", "compute 2.79" } };
    r = request(nam, "GET", nova + QStringLiteral("/servers/detail?limit=1"), {}, novaHeaders);
    const QJsonArray links = r.json().value(QStringLiteral("servers_links")).toArray();
    observe(QStringLiteral("nova: a page of servers"), r,
        QStringLiteral("%1 server, next link %2")
            .arg(r.json().value(QStringLiteral("servers")).toArray().size())
            .arg(!links.isEmpty()
                        && links.first().toObject().value(QStringLiteral("rel")).toString()
                            == QLatin1String("next")
                    ? QStringLiteral("present")
                    : QStringLiteral("absent")));
    const QString action = nova + QStringLiteral("/servers/") + t.serverId + QStringLiteral("/action");
    observe(QStringLiteral("nova: addSecurityGroup of a group the server has"),
        request(nam, "POST", action,
            QStringLiteral(R"({"addSecurityGroup": {"name": "%1"}})").arg(t.serverGroup).toUtf8(),
            novaHeaders));
    observe(QStringLiteral("nova: addSecurityGroup of an unknown group"),
        request(nam, "POST", action,
            QByteArrayLiteral(R"({"addSecurityGroup": {"name": "no-such-group-4711"}})"), novaHeaders));

    // A server's boot evidence (diagnosis.md §7): its console's tail and its actions.
    r = request(
        nam, "POST", action, QByteArrayLiteral(R"({"os-getConsoleOutput": {"length": 2}})"), novaHeaders);
    {
        const QJsonValue output = r.json().value(QStringLiteral("output"));
        observe(QStringLiteral("nova: the console's last 2 lines"), r,
            !output.isString() ? QStringLiteral("no output")
                : output.toString().split(QLatin1Char('\n')).size() <= 2
                ? QStringLiteral("a text of at most 2 lines")
                : QStringLiteral("more than 2 lines"));
    }
    observe(QStringLiteral("nova: a console length that is no number"),
        request(nam, "POST", action, QByteArrayLiteral(R"({"os-getConsoleOutput": {"length": "fifty"}})"),
            novaHeaders));
    r = request(nam, "GET",
        nova + QStringLiteral("/servers/") + t.serverId + QStringLiteral("/os-instance-actions"), {},
        novaHeaders);
    {
        const QJsonArray actions = r.json().value(QStringLiteral("instanceActions")).toArray();
        const QJsonObject oldest = actions.isEmpty() ? QJsonObject() : actions.last().toObject();
        const QString start = oldest.value(QStringLiteral("start_time")).toString();
        observe(QStringLiteral("nova: a server's actions"), r,
            QStringLiteral("oldest %1, its start_time %2")
                .arg(oldest.value(QStringLiteral("action")).toString(),
                    QRegularExpression(QStringLiteral("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}$"))
                            .match(start)
                            .hasMatch()
                        ? QStringLiteral("with microseconds and no zone")
                        : QStringLiteral("\"%1\"").arg(start)));
    }

    // What an incremental refresh relies on: a security group removed from a server changes its port
    // (Neutron's changed_since finds it), not Nova's record of the server (changes-since does not).
    const auto serverRecord = [&] {
        return request(nam, "GET", nova + QStringLiteral("/servers/") + t.serverId, {}, novaHeaders)
            .json()
            .value(QStringLiteral("server"))
            .toObject();
    };
    const auto iso = [](const QDateTime &d) {
        return QString::fromLatin1(
            QUrl::toPercentEncoding(d.toUTC().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss'Z'"))));
    };
    const QJsonObject recordBefore = serverRecord();
    QTest::qWait(1100); // a changed `updated` would differ by a second at least
    r = request(nam, "POST", action,
        QStringLiteral(R"({"removeSecurityGroup": {"name": "%1"}})").arg(t.serverGroup).toUtf8(),
        novaHeaders);
    // Nova's own clock: just after the server's last change.
    QDateTime afterLastChange
        = QDateTime::fromString(recordBefore.value(QStringLiteral("updated")).toString(), Qt::ISODate)
              .addSecs(1);
    observe(QStringLiteral("nova: removeSecurityGroup"), r,
        serverRecord().value(QStringLiteral("updated")) == recordBefore.value(QStringLiteral("updated"))
            ? QStringLiteral("the server's updated is as it was")
            : QStringLiteral("the server's updated changed"));
    const QString since = iso(afterLastChange);
    r = request(nam, "GET", nova + QStringLiteral("/servers/detail?changes-since=") + since, {}, novaHeaders);
    bool serverListed = false;
    for (const QJsonValue v : r.json().value(QStringLiteral("servers")).toArray())
        serverListed = serverListed || v.toObject().value(QStringLiteral("id")).toString() == t.serverId;
    observe(QStringLiteral("nova: changes-since after a security group was removed"), r,
        serverListed ? QStringLiteral("the server listed") : QStringLiteral("the server not listed"));
    r = request(nam, "GET",
        neutron + QStringLiteral("/v2.0/ports?changed_since=%1&fields=id&fields=device_id").arg(since), {},
        auth);
    bool portListed = false;
    for (const QJsonValue v : r.json().value(QStringLiteral("ports")).toArray())
        portListed = portListed || v.toObject().value(QStringLiteral("device_id")).toString() == t.serverId;
    observe(QStringLiteral("neutron: ports changed_since after a security group was removed"), r,
        QStringLiteral("%1, fields %2")
            .arg(portListed ? QStringLiteral("its port listed") : QStringLiteral("its port not listed"),
                r.json()
                    .value(QStringLiteral("ports"))
                    .toArray()
                    .first()
                    .toObject()
                    .keys()
                    .join(QLatin1Char(','))));
    request(nam, "POST", action,
        QStringLiteral(R"({"addSecurityGroup": {"name": "%1"}})").arg(t.serverGroup).toUtf8(), novaHeaders);
    observe(QStringLiteral("neutron: ports changed_since that is not a date"),
        request(nam, "GET", neutron + QStringLiteral("/v2.0/ports?changed_since=yesterday"), {}, auth));
    observe(QStringLiteral("nova: changes-since that is not a date"),
        request(
            nam, "GET", nova + QStringLiteral("/servers/detail?changes-since=yesterday"), {}, novaHeaders));
    r = request(nam, "GET",
        nova + QStringLiteral("/servers/detail?changes-since=")
            + iso(QDateTime::currentDateTimeUtc().addSecs(3600)),
        {}, novaHeaders);
    observe(QStringLiteral("nova: changes-since an hour ahead"), r,
        QStringLiteral("%1 servers").arg(r.json().value(QStringLiteral("servers")).toArray().size()));

    observe(QStringLiteral("nova: delete a server"),
        request(nam, "DELETE", nova + QStringLiteral("/servers/") + t.serverToDelete, {}, novaHeaders));
    Reply gone;
    for (int i = 0; i < 60; ++i) { // Nova deletes asynchronously
        gone = request(nam, "GET", nova + QStringLiteral("/servers/") + t.serverToDelete, {}, novaHeaders);
        if (gone.status == 404)
            break;
        QTest::qWait(250);
    }
    observe(QStringLiteral("nova: the deleted server"), gone);
    r = request(nam, "GET", nova + QStringLiteral("/servers/detail?changes-since=") + since, {}, novaHeaders);
    QString deletedAs = QStringLiteral("not listed");
    for (const QJsonValue v : r.json().value(QStringLiteral("servers")).toArray()) {
        const QJsonObject server = v.toObject();
        if (server.value(QStringLiteral("id")).toString() == t.serverToDelete)
            deletedAs = QStringLiteral("listed as %1, vm_state %2")
                            .arg(server.value(QStringLiteral("status")).toString(),
                                server.value(QStringLiteral("OS-EXT-STS:vm_state")).toString());
    }
    observe(QStringLiteral("nova: changes-since after the delete"), r,
        QStringLiteral("the deleted server ") + deletedAs);
    observe(QStringLiteral("nova: delete it again"),
        request(nam, "DELETE", nova + QStringLiteral("/servers/") + t.serverToDelete, {}, novaHeaders));
    return out;
}

} // namespace Conformance
