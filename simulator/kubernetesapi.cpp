// A Kubernetes API server per kluster, over TLS: discovery, nodes as a
// NodeList or the Table kubectl asks for (chunked with limit/continue),
// get, patch (cordon) and delete; Events (simulator/kubeevents.h); bearer tokens and client
// certificates.

#include "simulator/apirender.h"
#include "simulator/jsonbytes.h"
#include "simulator/kubeevents.h"
#include "simulator/simulator.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace {

QByteArray toJson(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

bool wantsTable(const HttpRequest &request)
{
    return request.header("accept").contains("as=Table");
}

} // namespace

HttpResponse Simulator::kubernetes(const QString &klusterName, const HttpRequest &request)
{
    const QString service = QStringLiteral("kubernetes");
    const int k = m_world.klusterIndex(klusterName);
    if (k < 0)
        return errorFor(service, 503, QString(), QStringLiteral("the kluster is gone"));
    SimKluster &kluster = m_world.klusters[k];

    // Authentication: a bearer token of the kluster, or a client certificate of our CA.
    const QByteArray authorization = request.header("authorization");
    const bool bearer = authorization.startsWith("Bearer ") && !kluster.bearerToken.isEmpty()
        && authorization.mid(7).trimmed() == kluster.bearerToken.toUtf8();
    if (!bearer && !request.peerVerified)
        return errorFor(service, 401, QStringLiteral("Unauthorized"), QStringLiteral("Unauthorized"));

    const QString path = request.path;
    const QString method = QString::fromLatin1(request.method);
    if (method == QLatin1String("GET") && path == QLatin1String("/version")) {
        return HttpResponse::json(200,
            toJson(QJsonObject { { QStringLiteral("major"), QStringLiteral("1") },
                { QStringLiteral("minor"), QStringLiteral("30") },
                { QStringLiteral("gitVersion"), QStringLiteral("v1.30.6") },
                { QStringLiteral("gitCommit"), QStringLiteral("00f20d443ba0cd2b4f4a1b9a44bbd0d6a3e5c9a1") },
                { QStringLiteral("gitTreeState"), QStringLiteral("clean") },
                { QStringLiteral("buildDate"), QStringLiteral("2024-10-22T20:28:14Z") },
                { QStringLiteral("goVersion"), QStringLiteral("go1.22.8") },
                { QStringLiteral("compiler"), QStringLiteral("gc") },
                { QStringLiteral("platform"), QStringLiteral("linux/amd64") } }));
    }
    if (method == QLatin1String("GET") && path == QLatin1String("/api")) {
        const QString host = QString::fromUtf8(request.header("host"));
        return HttpResponse::json(200,
            toJson(QJsonObject { { QStringLiteral("kind"), QStringLiteral("APIVersions") },
                { QStringLiteral("versions"), QJsonArray { QStringLiteral("v1") } },
                { QStringLiteral("serverAddressByClientCIDRs"),
                    QJsonArray { QJsonObject { { QStringLiteral("clientCIDR"), QStringLiteral("0.0.0.0/0") },
                        { QStringLiteral("serverAddress"), host } } } } }));
    }
    if (method == QLatin1String("GET") && path == QLatin1String("/apis")) {
        return HttpResponse::json(200,
            toJson(QJsonObject { { QStringLiteral("kind"), QStringLiteral("APIGroupList") },
                { QStringLiteral("apiVersion"), QStringLiteral("v1") },
                { QStringLiteral("groups"), QJsonArray { KubeEvents::groupEntry() } } }));
    }
    if (method == QLatin1String("GET") && path == QLatin1String("/api/v1")) {
        return HttpResponse::json(200,
            toJson(QJsonObject { { QStringLiteral("kind"), QStringLiteral("APIResourceList") },
                { QStringLiteral("groupVersion"), QStringLiteral("v1") },
                { QStringLiteral("resources"),
                    QJsonArray { QJsonObject { { QStringLiteral("name"), QStringLiteral("nodes") },
                                     { QStringLiteral("singularName"), QStringLiteral("node") },
                                     { QStringLiteral("namespaced"), false },
                                     { QStringLiteral("kind"), QStringLiteral("Node") },
                                     { QStringLiteral("verbs"),
                                         QJsonArray { QStringLiteral("create"), QStringLiteral("delete"),
                                             QStringLiteral("deletecollection"), QStringLiteral("get"),
                                             QStringLiteral("list"), QStringLiteral("patch"),
                                             QStringLiteral("update"), QStringLiteral("watch") } },
                                     { QStringLiteral("shortNames"), QJsonArray { QStringLiteral("no") } } },
                        KubeEvents::coreResource() } } }));
    }
    // RBAC (kubernetes/api authorization/v1): what the kluster's user may not do is refused, and a review
    // of it says so.
    if (method == QLatin1String("POST")
        && path == QLatin1String("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews")) {
        QJsonObject review = QJsonDocument::fromJson(request.body).object();
        const QJsonObject attributes = review.value(QStringLiteral("spec"))
                                           .toObject()
                                           .value(QStringLiteral("resourceAttributes"))
                                           .toObject();
        const QString action = attributes.value(QStringLiteral("verb")).toString() + QLatin1Char(' ')
            + attributes.value(QStringLiteral("resource")).toString();
        const bool allowed = !kluster.rbacDenied.contains(action);
        QJsonObject status { { QStringLiteral("allowed"), allowed } };
        if (allowed)
            status.insert(QStringLiteral("reason"),
                QStringLiteral("RBAC: allowed by ClusterRoleBinding \"kubernikus-admin\" of ClusterRole "
                               "\"cluster-admin\" to User \"kubernikus-%1\"")
                    .arg(kluster.name));
        review.insert(QStringLiteral("status"), status);
        review.insert(QStringLiteral("metadata"),
            QJsonObject { { QStringLiteral("creationTimestamp"), QJsonValue() } });
        return HttpResponse::json(201, toJson(review));
    }
    const auto forbidden = [&](const QString &verb, const QString &resource, const QString &name) {
        return errorFor(service, 403, QStringLiteral("Forbidden"),
            QStringLiteral("%1%2 is forbidden: User \"kubernikus-%3\" cannot %4 resource \"%1\" in API group "
                           "\"%5\" at the cluster scope")
                .arg(resource, name.isEmpty() ? QString() : QStringLiteral(" \"%1\"").arg(name), kluster.name,
                    verb, resource == QLatin1String("events") ? QStringLiteral("events.k8s.io") : QString()));
    };
    if (method == QLatin1String("POST") && path.endsWith(QLatin1String("/events"))
        && kluster.rbacDenied.contains(QStringLiteral("create events")))
        return forbidden(QStringLiteral("create"), QStringLiteral("events"), QString());
    if (method == QLatin1String("DELETE") && path.startsWith(QLatin1String("/api/v1/nodes/"))
        && kluster.rbacDenied.contains(QStringLiteral("delete nodes")))
        return forbidden(QStringLiteral("delete"), QStringLiteral("nodes"), path.mid(14));
    if (std::optional<HttpResponse> events = m_events->handle(kluster.name, request))
        return *events;

    const QDateTime now = m_world.now();
    if (path.startsWith(QLatin1String("/api/v1/nodes")))
        m_watches->track(kluster); // every version its answers give can be watched from
    if (path == QLatin1String("/api/v1/nodes") && method == QLatin1String("GET")) {
        if (request.queryValue(QStringLiteral("watch")) == QLatin1String("true")
            || request.queryValue(QStringLiteral("watch")) == QLatin1String("1")) {
            return m_watches->watch(kluster, request);
        }
        QList<const SimNode *> nodes;
        const QString fieldSelector = request.queryValue(QStringLiteral("fieldSelector"));
        QString onlyName;
        if (fieldSelector.startsWith(QLatin1String("metadata.name=")))
            onlyName = fieldSelector.mid(14);
        for (const SimNode &n : kluster.nodes) {
            if (onlyName.isEmpty() || n.name == onlyName)
                nodes.append(&n);
        }
        std::sort(
            nodes.begin(), nodes.end(), [](const SimNode *a, const SimNode *b) { return a->name < b->name; });
        const QString resourceVersion = QString::number(m_world.resourceVersionCounter);
        int start = 0;
        const QString cont = request.queryValue(QStringLiteral("continue"));
        if (!cont.isEmpty()) {
            const QJsonObject token = QJsonDocument::fromJson(
                QByteArray::fromBase64(cont.toLatin1(), QByteArray::Base64UrlEncoding))
                                          .object();
            if (!token.contains(QStringLiteral("start")))
                return errorFor(
                    service, 400, QStringLiteral("BadRequest"), QStringLiteral("continue key is not valid"));
            start = token.value(QStringLiteral("start")).toInt();
        }
        // resourceVersion=0: any version will do, served from the watch cache, which ignores `limit`.
        const bool fromCache = request.queryValue(QStringLiteral("resourceVersion")) == QLatin1String("0");
        const int limit = fromCache ? 0 : request.queryValue(QStringLiteral("limit")).toInt();
        const int end = limit > 0 ? qMin(int(nodes.size()), start + limit) : int(nodes.size());
        QString next;
        if (end < nodes.size()) {
            next = QString::fromLatin1(
                QJsonDocument(
                    QJsonObject { { QStringLiteral("v"), QStringLiteral("meta.k8s.io/v1") },
                        { QStringLiteral("rv"), resourceVersion.toInt() }, { QStringLiteral("start"), end } })
                    .toJson(QJsonDocument::Compact)
                    .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
        }
        const QList<const SimNode *> page = nodes.mid(start, end - start);
        if (wantsTable(request)) {
            HttpResponse r = HttpResponse::json(
                200, toJson(ApiRender::nodeTable(kluster, page, now, resourceVersion, next)));
            return r;
        }
        // Written as bytes: a thousand klusters' lists are the first load's hot path.
        JsonBytes list;
        list.raw("{");
        list.key("kind").raw("\"NodeList\"");
        list.key("apiVersion").raw("\"v1\"");
        list.key("metadata").raw("{");
        list.key("resourceVersion").str(resourceVersion);
        if (!next.isEmpty()) {
            list.key("continue").str(next);
            list.key("remainingItemCount").num(int(nodes.size()) - end);
        }
        list.raw("}");
        QByteArray out = list.take();
        out += ",\"items\":[";
        for (qsizetype i = 0; i < page.size(); ++i) {
            if (i > 0)
                out += ',';
            out += ApiRender::nodeJson(kluster, *page.at(i), now);
        }
        out += "]}";
        return HttpResponse::json(200, out);
    }

    if (path.startsWith(QLatin1String("/api/v1/nodes/"))) {
        const QString name = path.mid(14);
        const int n = m_world.nodeIndex(kluster, name);
        if (n < 0) {
            HttpResponse r = errorFor(
                service, 404, QStringLiteral("NotFound"), QStringLiteral("nodes \"%1\" not found").arg(name));
            QJsonObject status = QJsonDocument::fromJson(r.body).object();
            status.insert(QStringLiteral("details"),
                QJsonObject {
                    { QStringLiteral("name"), name }, { QStringLiteral("kind"), QStringLiteral("nodes") } });
            r.body = toJson(status);
            return r;
        }
        SimNode &node = kluster.nodes[n];
        if (method == QLatin1String("GET")) {
            if (wantsTable(request))
                return HttpResponse::json(200,
                    toJson(ApiRender::nodeTable(
                        kluster, { &node }, now, QString::number(node.resourceVersion), QString())));
            QJsonObject o = ApiRender::node(kluster, node, now);
            o.insert(QStringLiteral("kind"), QStringLiteral("Node"));
            o.insert(QStringLiteral("apiVersion"), QStringLiteral("v1"));
            return HttpResponse::json(200, toJson(o));
        }
        if (method == QLatin1String("PATCH")) {
            const QByteArray type = request.header("content-type").split(';').first().trimmed();
            QJsonParseError error;
            const QJsonDocument doc = QJsonDocument::fromJson(request.body, &error);
            if (error.error != QJsonParseError::NoError)
                return errorFor(service, 400, QStringLiteral("BadRequest"),
                    QStringLiteral("the body of the request was in an unknown format"));
            std::optional<bool> unschedulable;
            bool touched = false;
            if (type == "application/merge-patch+json" || type == "application/strategic-merge-patch+json") {
                const QJsonObject spec = doc.object().value(QStringLiteral("spec")).toObject();
                if (spec.contains(QStringLiteral("unschedulable"))) {
                    touched = true;
                    const QJsonValue v = spec.value(QStringLiteral("unschedulable"));
                    unschedulable = v.isBool() ? v.toBool() : false;
                }
            } else if (type == "application/json-patch+json") {
                for (const QJsonValue op : doc.array()) {
                    const QJsonObject o = op.toObject();
                    if (o.value(QStringLiteral("path")).toString() != QLatin1String("/spec/unschedulable"))
                        continue;
                    touched = true;
                    unschedulable = o.value(QStringLiteral("op")).toString() == QLatin1String("remove")
                        ? false
                        : o.value(QStringLiteral("value")).toBool();
                }
            } else {
                return errorFor(service, 415, QStringLiteral("UnsupportedMediaType"),
                    QStringLiteral(
                        "the body of the request was in an unknown format - accepted media types include: "
                        "application/json-patch+json, application/merge-patch+json, "
                        "application/apply-patch+yaml, application/strategic-merge-patch+json"));
            }
            if (touched) {
                node.unschedulable = unschedulable.value_or(false);
                node.resourceVersion = ++m_world.resourceVersionCounter;
            }
            QJsonObject o = ApiRender::node(kluster, node, now);
            o.insert(QStringLiteral("kind"), QStringLiteral("Node"));
            o.insert(QStringLiteral("apiVersion"), QStringLiteral("v1"));
            return HttpResponse::json(200, toJson(o));
        }
        if (method == QLatin1String("DELETE")) {
            const QString uid = node.uid;
            kluster.nodes.removeAt(n);
            ++m_world.resourceVersionCounter;
            return HttpResponse::json(200,
                toJson(QJsonObject { { QStringLiteral("kind"), QStringLiteral("Status") },
                    { QStringLiteral("apiVersion"), QStringLiteral("v1") },
                    { QStringLiteral("metadata"), QJsonObject() },
                    { QStringLiteral("status"), QStringLiteral("Success") },
                    { QStringLiteral("details"),
                        QJsonObject { { QStringLiteral("name"), name },
                            { QStringLiteral("kind"), QStringLiteral("nodes") },
                            { QStringLiteral("uid"), uid } } } }));
        }
        return errorFor(service, 405, QStringLiteral("MethodNotAllowed"),
            QStringLiteral("the server does not allow this method on the requested resource"));
    }
    return errorFor(service, 404, QStringLiteral("NotFound"),
        QStringLiteral("the server could not find the requested resource"));
}
