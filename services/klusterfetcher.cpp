#include "services/klusterfetcher.h"

#include "core/apiparser.h"
#include "core/jsonreader.h"
#include "services/kubernetesclient.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QUrlQuery>

KlusterFetcher::KlusterFetcher(KeystoneSession *session, const QString &kluster, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_kluster(kluster)
{ }

KlusterFetcher::~KlusterFetcher() = default;

void KlusterFetcher::cancel()
{
    for (const QPointer<HttpCall> &c : std::as_const(m_calls)) {
        if (c)
            c->cancel();
    }
}

void KlusterFetcher::fail(
    SourceStatus &source, const QString &name, const Error &error, const QString &assumed)
{
    source.known = false;
    source.error = error.toString();
    m_result.errors << SourceError { name, error, assumed };
}

bool KlusterFetcher::settle(SourceStatus &source, const QString &name, const QString &file,
    const QByteArray &body, const Error &error, const QString &assumed)
{
    if (error.isError()) {
        fail(source, name, error, assumed);
        return false;
    }
    source.known = true;
    m_result.bodies.insert(file, body);
    return true;
}

void KlusterFetcher::partDone()
{
    if (--m_outstanding > 0 || m_done)
        return;
    m_done = true;
    m_result.requests = int(m_session->client()->requestsSent() - m_requestsAtStart);
    m_result.state.noteIncompleteServers();
    emit finished(m_result);
}

// Follows Nova's `servers_links` and Neutron's `<collection>_links` to the
// end; the merged body holds every item, as a snapshot file does.
void KlusterFetcher::fetchPages(const QString &service, const QString &path, const QString &collection,
    const std::function<void(const QByteArray &, const QJsonObject &, const Error &)> &done)
{
    auto items = std::make_shared<QJsonArray>();
    auto firstBody = std::make_shared<QByteArray>();
    auto firstObject = std::make_shared<QJsonObject>();
    auto seen = std::make_shared<int>(0);
    auto step = std::make_shared<std::function<void(HttpCall *)>>();
    // The function knows itself only weakly: the pending call's connection holds it, so
    // it ends with that call, finished or abandoned (a deadline, a closed window).
    const std::weak_ptr<std::function<void(HttpCall *)>> self = step;
    *step = [this, service, collection, items, firstBody, firstObject, seen, self, done](HttpCall *call) {
        const auto step = self.lock();
        m_calls.append(call);
        connect(call, &HttpCall::finished, this,
            [this, service, collection, items, firstBody, firstObject, seen, step, done](
                const ApiResponse &r) {
                if (r.error.isError()) {
                    done(QByteArray(), QJsonObject(), r.error);
                    return;
                }
                Error error;
                const QJsonObject body = r.json(&error);
                if (error.isError() || !body.value(collection).isArray()) {
                    if (!error.isError()) {
                        error.kind = Error::Kind::Malformed;
                        error.service = service;
                        error.detail = QStringLiteral("no \"%1\" list in the answer").arg(collection);
                    }
                    done(QByteArray(), QJsonObject(), error);
                    return;
                }
                const QJsonArray page = body.value(collection).toArray();
                if (*seen == 0) {
                    *firstBody = r.body;
                    *firstObject = body;
                }
                for (const QJsonValue v : page)
                    items->append(v);
                QString next;
                for (const QJsonValue l : body.value(collection + QStringLiteral("_links")).toArray()) {
                    if (l.toObject().value(QStringLiteral("rel")).toString() == QLatin1String("next"))
                        next = l.toObject().value(QStringLiteral("href")).toString();
                }
                if (!next.isEmpty() && !page.isEmpty()) {
                    if (++*seen >= 10000) {
                        Error tooMany;
                        tooMany.kind = Error::Kind::Malformed;
                        tooMany.service = service;
                        tooMany.detail
                            = QStringLiteral("more than 10,000 pages of %1: the list is not complete")
                                  .arg(collection);
                        done(QByteArray(), QJsonObject(), tooMany);
                        return;
                    }
                    // The token goes only to the catalog's endpoint: a link's scheme,
                    // host and port (an http:// link behind a TLS proxy, say) are not trusted.
                    QUrl url(next);
                    const QUrl base(m_session->endpoint(service));
                    url.setScheme(base.scheme());
                    url.setHost(base.host());
                    url.setPort(base.port());
                    (*step)(m_session->sendUrl(service, "GET", url));
                    return;
                }
                Error answered; // what a refusal of the merged list names
                answered.service = service;
                if (*seen == 0) {
                    done(*firstBody, *firstObject, answered); // one page: the body as it came
                    return;
                }
                const QJsonObject merged { { collection, *items } };
                done(QJsonDocument(merged).toJson(QJsonDocument::Compact), merged, answered);
            });
    };
    (*step)(m_session->send(service, "GET", path));
}

void KlusterFetcher::fetchNodes(KubernetesClient *client)
{
    auto items = std::make_shared<QJsonArray>();
    auto first = std::make_shared<QJsonObject>();
    auto chunks = std::make_shared<int>(0);
    auto step = std::make_shared<std::function<void(const QString &)>>();
    const std::weak_ptr<std::function<void(const QString &)>> self = step; // as in fetchPages
    *step = [this, client, items, first, chunks, self](const QString &cont) {
        const auto step = self.lock();
        QString path = QStringLiteral("/api/v1/nodes?limit=500");
        if (!cont.isEmpty())
            path += QStringLiteral("&continue=") + QString::fromLatin1(QUrl::toPercentEncoding(cont));
        HttpCall *call = client->send("GET", path);
        m_calls.append(call);
        connect(
            call, &HttpCall::finished, this, [this, items, first, chunks, step, cont](const ApiResponse &r) {
                Error error = r.error;
                QJsonObject body;
                if (!error.isError()) {
                    body = r.json(&error);
                }
                if (!error.isError() && !body.value(QStringLiteral("items")).isArray()
                    && !body.value(QStringLiteral("items")).isNull()) {
                    error.kind = Error::Kind::Malformed;
                    error.service = QStringLiteral("kubernetes");
                    error.detail = QStringLiteral("not a NodeList");
                }
                if (error.isError()) {
                    fail(m_result.state.nodesSource, QStringLiteral("nodes"), error);
                    partDone();
                    return;
                }
                if (first->isEmpty())
                    *first = body;
                for (const QJsonValue v : body.value(QStringLiteral("items")).toArray())
                    items->append(v);
                const QString next = body.value(QStringLiteral("metadata"))
                                         .toObject()
                                         .value(QStringLiteral("continue"))
                                         .toString();
                if (!next.isEmpty()) {
                    // Bounded like Nova's and Neutron's pages: a server that keeps handing out continue
                    // tokens (or the same one again) ends the list with an error, never a walk without end.
                    if (next == cont || ++*chunks >= 10000) {
                        Error endless;
                        endless.kind = Error::Kind::Malformed;
                        endless.service = QStringLiteral("kubernetes");
                        endless.method = QStringLiteral("GET");
                        endless.path = QStringLiteral("/api/v1/nodes");
                        endless.detail = next == cont
                            ? QStringLiteral(
                                "the server answered the same continue token again: the list does not end")
                            : QStringLiteral("more than 10,000 chunks of nodes: the list is not complete");
                        fail(m_result.state.nodesSource, QStringLiteral("nodes"), endless);
                        partDone();
                        return;
                    }
                    (*step)(next);
                    return;
                }
                QJsonObject merged = *first;
                QByteArray bytes = r.body;
                if (items->size() != body.value(QStringLiteral("items")).toArray().size()) { // several chunks
                    QJsonObject meta = merged.value(QStringLiteral("metadata")).toObject();
                    meta.remove(QStringLiteral("continue"));
                    meta.remove(QStringLiteral("remainingItemCount"));
                    merged.insert(QStringLiteral("metadata"), meta);
                    merged.insert(QStringLiteral("items"), *items);
                    bytes = QJsonDocument(merged).toJson(QJsonDocument::Compact);
                }
                KlusterState &s = m_result.state;
                Error answered;
                answered.service = QStringLiteral("kubernetes");
                const Error read = parseAnswer(answered,
                    [&s, &merged] { s.nodes = ApiParser::parseNodes(QStringLiteral("nodes"), merged); });
                settle(s.nodesSource, QStringLiteral("nodes"), QStringLiteral("nodes.json"), bytes, read);
                partDone();
            });
    };
    (*step)(QString());
}

void KlusterFetcher::start()
{
    m_requestsAtStart = m_session->client()->requestsSent();
    KlusterState &s = m_result.state;
    s.capturedAt = QDateTime::currentDateTimeUtc();
    s.capturedAt.setTime(
        QTime(s.capturedAt.time().hour(), s.capturedAt.time().minute(), s.capturedAt.time().second()));
    s.cloud = m_session->config().name;
    s.region = m_session->config().regionName;
    s.tool = QStringLiteral("flightdeck/" FLIGHTDECK_VERSION);
    s.maxRoutes = m_routeLimit;
    s.klusterSource.error = s.serversSource.error = s.routerSource.error = s.securityGroupsSource.error
        = s.nodesSource.error = QStringLiteral("not fetched");

    // kluster -> router; servers; security groups; extensions; nodes.
    m_outstanding = 5;
    HttpCall *klusterCall = m_session->send(
        QStringLiteral("kubernikus"), "GET", QStringLiteral("/api/v1/clusters/") + m_kluster);
    m_calls.append(klusterCall);
    connect(klusterCall, &HttpCall::finished, this, [this](const ApiResponse &r) {
        KlusterState &s = m_result.state;
        const Error error = r.read([&s](const QJsonObject &body) {
            s.kluster = ApiParser::parseKluster(QStringLiteral("kluster"), body);
        });
        if (!settle(
                s.klusterSource, QStringLiteral("kluster"), QStringLiteral("kluster.json"), r.body, error)) {
            fail(s.routerSource, QStringLiteral("router"), error);
            partDone();
            return;
        }
        HttpCall *routerCall = m_session->send(
            QStringLiteral("network"), "GET", QStringLiteral("/v2.0/routers/") + s.kluster.routerId);
        m_calls.append(routerCall);
        connect(routerCall, &HttpCall::finished, this, [this](const ApiResponse &rr) {
            KlusterState &st = m_result.state;
            const Error error = rr.read([&st](const QJsonObject &body) {
                st.router = ApiParser::parseRouter(QStringLiteral("router"), body);
            });
            settle(st.routerSource, QStringLiteral("router"), QStringLiteral("router.json"), rr.body, error);
            partDone();
        });
    });

    fetchPages(QStringLiteral("compute"), QStringLiteral("/servers/detail"), QStringLiteral("servers"),
        [this](const QByteArray &merged, const QJsonObject &object, const Error &answer) {
            KlusterState &s = m_result.state;
            const Error error = parseAnswer(answer,
                [&s, &object] { s.instances = ApiParser::parseServers(QStringLiteral("servers"), object); });
            settle(s.serversSource, QStringLiteral("servers"), QStringLiteral("servers.json"), merged, error);
            partDone();
        });
    fetchPages(QStringLiteral("network"), QStringLiteral("/v2.0/security-groups"),
        QStringLiteral("security_groups"),
        [this](const QByteArray &merged, const QJsonObject &object, const Error &answer) {
            KlusterState &s = m_result.state;
            const Error error = parseAnswer(answer, [&s, &object] {
                s.securityGroups = ApiParser::parseSecurityGroups(QStringLiteral("security groups"), object);
            });
            settle(s.securityGroupsSource, QStringLiteral("security groups"),
                QStringLiteral("security-groups.json"), merged, error);
            partDone();
        });
    HttpCall *extensionsCall
        = m_session->send(QStringLiteral("network"), "GET", QStringLiteral("/v2.0/extensions"));
    m_calls.append(extensionsCall);
    connect(extensionsCall, &HttpCall::finished, this, [this](const ApiResponse &r) {
        KlusterState &s = m_result.state;
        SourceStatus extensions; // optional: without it, no extraroute-atomic is assumed
        const Error error = r.read([&s](const QJsonObject &body) {
            s.extensions = ApiParser::parseExtensions(QStringLiteral("extensions"), body);
        });
        s.extensionsKnown = settle(extensions, QStringLiteral("extensions"),
            QStringLiteral("extensions.json"), r.body, error, QStringLiteral("no extraroute-atomic"));
        partDone();
    });

    if (m_kubeTarget) {
        fetchNodes(new KubernetesClient(m_session->client(), *m_kubeTarget, this));
    } else {
        m_calls.append(requestCredentials(
            m_session, m_kluster, this, [this](const std::optional<KubeTarget> &target, const Error &e) {
                if (!target) {
                    fail(m_result.state.nodesSource, QStringLiteral("nodes"), e);
                    partDone();
                    return;
                }
                fetchNodes(new KubernetesClient(m_session->client(), *target, this));
            }));
    }
}

HttpCall *KlusterFetcher::requestCredentials(KeystoneSession *session, const QString &kluster,
    QObject *context, const std::function<void(const std::optional<KubeTarget> &, const Error &)> &done)
{
    HttpCall *credentials = session->send(
        QStringLiteral("kubernikus"), "GET", QStringLiteral("/api/v1/clusters/%1/credentials").arg(kluster));
    connect(credentials, &HttpCall::finished, context, [done](const ApiResponse &r) {
        Error e = r.error;
        std::optional<KubeTarget> target;
        if (!e.isError()) {
            const QString yaml = r.json(&e).value(QStringLiteral("kubeconfig")).toString();
            QString problem;
            const std::optional<Kubeconfig> config = e.isError()
                ? std::nullopt
                : Kubeconfig::fromYaml(yaml.toUtf8(), QStringLiteral("the Kubernikus credentials"), &problem);
            if (config)
                target = config->target(QString(), &problem);
            if (!e.isError() && !target) {
                e.kind = Error::Kind::Config;
                e.service = QStringLiteral("kubernikus");
                e.detail = problem;
            }
        }
        done(target, e);
    });
    return credentials;
}
