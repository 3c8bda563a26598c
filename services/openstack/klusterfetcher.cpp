#include "services/openstack/klusterfetcher.h"

#include "core/apiparser.h"
#include "core/json/jsonreader.h"
#include "core/permission.h"
#include "core/routerdevice.h"
#include "services/kubernetes/kubernetesclient.h"
#include "services/openstack/pagedlist.h"
#include "services/openstack/servercache.h"

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
    // What is shared with other klusters goes on for them; this refresh stops waiting for it.
    const Error cancelled = Error::of(Error::Kind::Cancelled, tr("refresh cancelled"));
    if (std::exchange(m_serversPending, false)) {
        fail(m_result.state.serversSource, Source::Servers, cancelled);
        partDone();
    }
    if (std::exchange(m_groupsPending, false)) {
        fail(m_result.state.securityGroupsSource, Source::SecurityGroups, cancelled);
        partDone();
    }
    if (std::exchange(m_extensionsPending, false)) {
        SourceStatus extensions;
        fail(extensions, Source::Extensions, cancelled, QStringLiteral("no extraroute-atomic"));
        partDone();
    }
}

SharedList *KlusterFetcher::sharedSecurityGroups(KeystoneSession *session, QObject *parent)
{
    return new SharedList(session, QStringLiteral("network"), QStringLiteral("/v2.0/security-groups"),
        QStringLiteral("security_groups"), parent);
}

SharedList *KlusterFetcher::sharedExtensions(KeystoneSession *session, QObject *parent)
{
    return new SharedList(session, QStringLiteral("network"), QStringLiteral("/v2.0/extensions"),
        QStringLiteral("extensions"), parent);
}

void KlusterFetcher::fail(SourceStatus &status, Source source, const Error &error, const QString &assumed)
{
    status.known = false;
    status.error = error.toString();
    m_result.errors << SourceError { source, error, assumed };
}

bool KlusterFetcher::settle(
    SourceStatus &status, Source source, const KeptBody &body, const Error &error, const QString &assumed)
{
    if (error.isError()) {
        fail(status, source, error, assumed);
        return false;
    }
    status.known = true;
    m_result.bodies.insert(source, body);
    return true;
}

void KlusterFetcher::partDone()
{
    if (--m_outstanding > 0 || m_done)
        return;
    m_done = true;
    if (m_gone) {
        // What a kluster has only while it exists (its router, its nodes, its devices, its events) is not
        // a failure of this refresh: said as gone.
        static const QList<Source> notThere { Source::Kluster, Source::Router, Source::Nodes,
            Source::RouterDevice, Source::KubernikusEvents };
        m_result.errors.removeIf(
            [](const SourceError &e) { return e.source && notThere.contains(*e.source); });
        KlusterState &s = m_result.state;
        for (SourceStatus *status : { &s.routerSource, &s.nodesSource, &s.routerDeviceSource })
            *status = SourceStatus { false, QStringLiteral("the kluster is gone"), QString() };
    }
    m_result.requests = int(m_session->client()->requestsSent() - m_requestsAtStart);
    m_result.bytesReceived = m_session->client()->bytesReceived() - m_bytesAtStart;
    m_result.state.noteIncompleteServers();
    // Who read it (diagnosis.md §8): each plan is judged with it, and a snapshot keeps it as token.json.
    if (std::shared_ptr<const Credentials> credentials = m_session->credentials()) {
        if (!m_kubernetesVerdicts
                 .isEmpty()) { // this kluster's API server's answers beside the session's token
            auto withKubernetes = std::make_shared<Credentials>(*credentials);
            withKubernetes->kubernetes = m_kubernetesVerdicts;
            credentials = std::move(withKubernetes);
        }
        m_result.bodies.insert(Source::Token,
            KeptBody(QJsonDocument(credentials->toTokenJson()).toJson(QJsonDocument::Indented)));
        m_result.state.credentials = std::move(credentials);
        m_result.state.tokenSource.known = true;
    }
    // Ages are measured against the cloud's clock where it differs from this machine's by more than the
    // Date header's resolution: its timestamps (created, lastTransitionTime) are on that clock.
    if (const qint64 offset = m_session->client()->serverClockOffsetMs(); qAbs(offset) > 5000)
        m_result.state.capturedAt = m_result.state.capturedAt.addSecs(qRound64(double(offset) / 1000));
    emit finished(m_result);
}

// nodes.json of a list read in chunks: the first chunk's kind and versions with every chunk's items (what
// only a chunk's metadata says, continue and remainingItemCount, left out).
static QByteArray mergedNodeList(const ApiParser::NodeListMeta &first, const QByteArrayList &items)
{
    QJsonObject list { { QStringLiteral("metadata"),
        QJsonObject { { QStringLiteral("resourceVersion"), first.resourceVersion } } } };
    if (!first.kind.isEmpty())
        list.insert(QStringLiteral("kind"), first.kind);
    if (!first.apiVersion.isEmpty())
        list.insert(QStringLiteral("apiVersion"), first.apiVersion);
    QByteArray bytes = QJsonDocument(list).toJson(QJsonDocument::Compact);
    bytes.chop(1); // the closing brace: the items follow
    return bytes + ",\"items\":[" + items.join(',') + "]}";
}

void KlusterFetcher::fetchNodes(KubernetesClient *client)
{
    client->setCloseAfterEach(true); // one list a refresh: no connection kept open per kluster
    // Each chunk is read as it comes, from its bytes; with several, each node's record is kept too, for
    // nodes.json.
    struct Walk
    {
        QList<Node> nodes;
        int chunks = 0;
        QByteArray firstBody;
        ApiParser::NodeListMeta first;
        QByteArrayList records;
        bool recording = false;
    };
    auto walk = std::make_shared<Walk>();
    auto step = std::make_shared<std::function<void(const QString &)>>();
    const std::weak_ptr<std::function<void(const QString &)>> self = step; // as in fetchPages
    *step = [this, client, walk, self](const QString &cont) {
        const auto step = self.lock();
        QString path = QStringLiteral("/api/v1/nodes?limit=500");
        if (m_nodesFromCache && cont.isEmpty())
            path += QStringLiteral("&resourceVersion=0");
        if (!cont.isEmpty())
            path += QStringLiteral("&continue=") + QString::fromLatin1(QUrl::toPercentEncoding(cont));
        HttpCall *call = client->send("GET", path);
        m_calls.append(call);
        connect(call, &HttpCall::finished, this, [this, walk, step, cont](const ApiResponse &r) {
            Error error = r.error;
            ApiParser::NodeListMeta meta;
            if (!error.isError()) {
                error = parseAnswer(r.error, [&walk, &r, &meta] {
                    if (walk->chunks == 1
                        && !walk->recording) { // a second chunk: the first one's records too
                        walk->recording = true;
                        ApiParser::parseNodes(
                            Sources::name(Source::Nodes), walk->firstBody, nullptr, &walk->records);
                    }
                    walk->nodes += ApiParser::parseNodes(Sources::name(Source::Nodes), r.body, &meta,
                        walk->recording ? &walk->records : nullptr);
                });
                if (error.isError()) {
                    // No JSON object at all: said as for any answer (with the first line of an HTML page).
                    Error notJson;
                    r.json(&notJson);
                    if (notJson.isError())
                        error = notJson;
                }
            }
            if (error.isError()) {
                fail(m_result.state.nodesSource, Source::Nodes, error);
                partDone();
                return;
            }
            if (walk->chunks++ == 0) {
                walk->first = meta;
                walk->firstBody = r.body;
            }
            const QString &next = meta.continueToken;
            if (!next.isEmpty()) {
                // Bounded like Nova's and Neutron's pages: a server that keeps handing out continue
                // tokens (or the same one again) ends the list with an error, never a walk without end.
                if (next == cont || walk->chunks >= 10000) {
                    Error endless;
                    endless.kind = Error::Kind::Malformed;
                    endless.service = QStringLiteral("kubernetes");
                    endless.method = QStringLiteral("GET");
                    endless.path = QStringLiteral("/api/v1/nodes");
                    endless.detail = next == cont
                        ? QStringLiteral(
                            "the server answered the same continue token again: the list does not end")
                        : QStringLiteral("more than 10,000 chunks of nodes: the list is not complete");
                    fail(m_result.state.nodesSource, Source::Nodes, endless);
                    partDone();
                    return;
                }
                (*step)(next);
                return;
            }
            KlusterState &s = m_result.state;
            s.nodes = std::move(walk->nodes);
            const QByteArray bytes = walk->chunks == 1 ? r.body : mergedNodeList(walk->first, walk->records);
            if (settle(s.nodesSource, Source::Nodes, bytes, Error()))
                m_result.nodesResourceVersion = walk->first.resourceVersion;
            partDone();
        });
    };
    (*step)(QString());
}

void KlusterFetcher::start()
{
    m_requestsAtStart = m_session->client()->requestsSent();
    m_bytesAtStart = m_session->client()->bytesReceived();
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

    // kluster -> router; servers; security groups; extensions; nodes (unless watched); Kubernikus' events
    // (when asked for).
    const bool reviewing = m_accessReviews;
    m_outstanding = (m_nodesWatched ? 4 : 5) + (m_kubernikusEvents ? 1 : 0) + (reviewing ? 1 : 0);
    if (m_kubernikusEvents)
        fetchKubernikusEvents();
    const auto klusterRead = [this](const ApiResponse &r) {
        KlusterState &s = m_result.state;
        const Error error = r.read([&s](const QJsonObject &body) {
            s.kluster = ApiParser::parseKluster(Sources::name(Source::Kluster), body);
        });
        if (error.isError() && r.status == 404) {
            noteGone();
            partDone();
            return;
        }
        if (!settle(s.klusterSource, Source::Kluster, r.body, error)) {
            fail(s.routerSource, Source::Router, error);
            partDone();
            return;
        }
        if (s.kluster.phase == QLatin1String("Terminating") || m_debrisAlways)
            fetchDebris();
        HttpCall *routerCall = m_session->send(
            QStringLiteral("network"), "GET", QStringLiteral("/v2.0/routers/") + s.kluster.routerId);
        m_calls.append(routerCall);
        connect(routerCall, &HttpCall::finished, this, [this](const ApiResponse &rr) {
            KlusterState &st = m_result.state;
            const Error error = rr.read([&st](const QJsonObject &body) {
                st.router = ApiParser::parseRouter(Sources::name(Source::Router), body);
            });
            settle(st.routerSource, Source::Router, rr.body, error);
            m_routerSettled = true;
            fetchDevice();
            partDone();
        });
    };
    const QString klusterPath = QStringLiteral("/api/v1/clusters/") + m_kluster;
    if (!m_listedKluster.isEmpty()) {
        // As the listing this refresh was asked from gave it: one request fewer per kluster.
        ApiResponse listed;
        listed.status = 200;
        listed.body = std::exchange(m_listedKluster, {});
        listed.error.service = QStringLiteral("kubernikus");
        listed.error.method = QStringLiteral("GET");
        listed.error.path = klusterPath;
        klusterRead(listed);
    } else {
        HttpCall *klusterCall = m_session->send(QStringLiteral("kubernikus"), "GET", klusterPath);
        m_calls.append(klusterCall);
        connect(klusterCall, &HttpCall::finished, this, klusterRead);
    }

    if (!m_notBefore.isValid())
        m_notBefore = QDateTime::currentDateTimeUtc();
    if (!m_serverCache)
        m_serverCache = new ServerCache(m_session, this); // this refresh alone: listed whole
    m_serversPending = true;
    m_serverCache->request(m_notBefore, this, [this](const std::shared_ptr<const ServerList> &list) {
        if (!std::exchange(m_serversPending, false))
            return; // cancelled meanwhile
        KlusterState &s = m_result.state;
        if (settle(s.serversSource, Source::Servers, list->body, list->error)) {
            s.instances = list->instances;
            // Optional: without them, no port-address-pair-missing is diagnosed.
            if (settle(s.portsSource, Source::Ports, list->portsBody, list->portsError,
                    QStringLiteral("no allowed address pairs checked")))
                s.ports = list->ports;
            s.projectIndex = list->index; // used while it indexes these very lists
        }
        m_result.serversIncremental = list->incremental;
        m_result.serversWhyWhole = list->whyWhole;
        m_result.serversReceived = list->received;
        partDone();
    });
    if (!m_securityGroups)
        m_securityGroups = sharedSecurityGroups(m_session, this);
    m_groupsPending = true;
    m_securityGroups->request(m_notBefore, this, [this](const std::shared_ptr<const SharedPage> &page) {
        if (!std::exchange(m_groupsPending, false))
            return; // cancelled meanwhile
        KlusterState &s = m_result.state;
        const Error error = parseAnswer(page->error, [&s, &page] {
            // Parsed once for the project: every kluster's state shares the list.
            s.securityGroups = page->parsed<QList<SecurityGroup>>([&page] {
                return ApiParser::parseSecurityGroups(Sources::name(Source::SecurityGroups), page->object);
            });
        });
        settle(s.securityGroupsSource, Source::SecurityGroups, page->kept(), error);
        partDone();
    });
    if (!m_extensions)
        m_extensions = sharedExtensions(m_session, this);
    m_extensionsPending = true;
    m_extensions->request(m_notBefore, this, [this](const std::shared_ptr<const SharedPage> &page) {
        if (!std::exchange(m_extensionsPending, false))
            return;
        KlusterState &s = m_result.state;
        SourceStatus extensions; // optional: without it, no extraroute-atomic is assumed
        const Error error = parseAnswer(page->error, [&s, &page] {
            s.extensions = page->parsed<QStringList>([&page] {
                return ApiParser::parseExtensions(Sources::name(Source::Extensions), page->object);
            });
        });
        s.extensionsKnown = settle(
            extensions, Source::Extensions, page->kept(), error, QStringLiteral("no extraroute-atomic"));
        m_extensionsSettled = true;
        fetchDevice();
        partDone();
    });

    if (m_nodesWatched) {
        // The nodes are the caller's, from their watch; the reviews are asked with the credentials given,
        // else with those Kubernikus hands out.
        if (reviewing && m_kubeTarget) {
            reviewAccess(new KubernetesClient(m_session->client(), *m_kubeTarget, this));
        } else if (reviewing) {
            m_calls.append(requestCredentials(
                m_session, m_kluster, this, [this](const std::optional<KubeTarget> &target, const Error &) {
                    if (!target) {
                        partDone(); // nothing to ask with: the writes stay unknown
                        return;
                    }
                    m_kubeTarget = target;
                    reviewAccess(new KubernetesClient(m_session->client(), *target, this));
                }));
        }
    } else if (m_kubeTarget) {
        auto *client = new KubernetesClient(m_session->client(), *m_kubeTarget, this);
        if (reviewing)
            reviewAccess(client);
        fetchNodes(client);
    } else {
        m_calls.append(requestCredentials(m_session, m_kluster, this,
            [this, reviewing](const std::optional<KubeTarget> &target, const Error &e) {
                if (!target) {
                    fail(m_result.state.nodesSource, Source::Nodes, e);
                    if (reviewing)
                        partDone(); // nothing to ask: unknown
                    partDone();
                    return;
                }
                m_kubeTarget = target; // kept for whoever goes on from this fetch (the nodes' watch)
                auto *client = new KubernetesClient(m_session->client(), *target, this);
                if (reviewing)
                    reviewAccess(client);
                fetchNodes(client);
            }));
    }
}

// May these credentials make Flightdeck's Kubernetes writes? The API server's own answer
// (authorization.k8s.io/v1 SelfSubjectAccessReview; docs/wire-formats.md), one review per write; a review
// that fails leaves the write unknown.
void KlusterFetcher::reviewAccess(KubernetesClient *client)
{
    struct Ask
    {
        const char *action; // as Credentials::kubernetesAction names it
        const char *verb;
        const char *group;
        const char *resource;
    };
    static const Ask asks[] = { { "delete nodes", "delete", "", "nodes" },
        { "create events", "create", "events.k8s.io", "events" } };
    auto pending = std::make_shared<int>(int(std::size(asks)));
    for (const Ask &ask : asks) {
        const QJsonObject review { { QStringLiteral("apiVersion"),
                                       QStringLiteral("authorization.k8s.io/v1") },
            { QStringLiteral("kind"), QStringLiteral("SelfSubjectAccessReview") },
            { QStringLiteral("spec"),
                QJsonObject { { QStringLiteral("resourceAttributes"),
                    QJsonObject { { QStringLiteral("verb"), QLatin1String(ask.verb) },
                        { QStringLiteral("group"), QLatin1String(ask.group) },
                        { QStringLiteral("resource"), QLatin1String(ask.resource) } } } } } };
        HttpCall *call
            = client->send("POST", QStringLiteral("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"),
                QJsonDocument(review).toJson(QJsonDocument::Compact));
        m_calls.append(call);
        const QString action = QLatin1String(ask.action);
        connect(call, &HttpCall::finished, this, [this, pending, action](const ApiResponse &r) {
            const QJsonObject status
                = QJsonDocument::fromJson(r.body).object().value(QStringLiteral("status")).toObject();
            if (r.error.isError() || !status.value(QStringLiteral("allowed")).isBool()) {
                // Not judged: offered with why it is not known.
                m_kubernetesVerdicts.insert(action,
                    PermissionVerdict { Permission::Unknown,
                        QStringLiteral(
                            "the kluster's API server did not say whether these credentials may %1: %2")
                            .arg(action,
                                r.error.isError()
                                    ? r.error.toString()
                                    : QStringLiteral("its SelfSubjectAccessReview answer has no "
                                                     "status.allowed")) });
            } else {
                const bool allowed = status.value(QStringLiteral("allowed")).toBool();
                const QString reason = status.value(QStringLiteral("reason")).toString().left(300);
                m_kubernetesVerdicts.insert(action,
                    allowed
                        ? PermissionVerdict { Permission::Allowed, QString() }
                        : PermissionVerdict { Permission::Denied,
                            QStringLiteral("the kluster's API server says these credentials may not %1%2")
                                .arg(action,
                                    reason.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(reason)) });
            }
            if (--*pending == 0)
                partDone();
        });
    }
}

// What Kubernikus recorded about the kluster (optional: the timeline's; nothing is diagnosed from it). A
// failure is said where the timeline is shown, never a failure of the refresh: a Kubernikus without the
// endpoint, or one that refuses it, leaves every finding as it is.
void KlusterFetcher::fetchKubernikusEvents()
{
    KlusterState &s = m_result.state;
    s.kubernikusEventsSource.error = QStringLiteral("not fetched");
    HttpCall *call = m_session->send(
        QStringLiteral("kubernikus"), "GET", QStringLiteral("/api/v1/clusters/%1/events").arg(m_kluster));
    m_calls.append(call);
    connect(call, &HttpCall::finished, this, [this](const ApiResponse &r) {
        KlusterState &st = m_result.state;
        QList<KubernikusEvent> events;
        const Error error = parseAnswer(r.error, [&events, &r] {
            events = KubernikusEvents::parse(Sources::name(Source::KubernikusEvents), r.body);
        });
        if (error.isError()) {
            st.kubernikusEventsSource.known = false;
            st.kubernikusEventsSource.error = error.toString();
        } else {
            st.kubernikusEventsSource = SourceStatus { true, QString(), QString() };
            st.kubernikusEvents = std::move(events);
            m_result.bodies.insert(Source::KubernikusEvents, KeptBody(r.body));
        }
        partDone();
    });
}

// The router's devices as the ASR driver sees them (docs/wire-formats.md), once the router and the extensions
// are in, where the cloud lists asr1k_operations: read against the router's routes. Its API is a cloud
// admin's: a 401 (or another policy engine's 403) is the device not readable with these credentials, said as
// such, never "no drift".
void KlusterFetcher::fetchDevice()
{
    KlusterState &s = m_result.state;
    if (!m_routerSettled || !m_extensionsSettled || !s.routerSource.known || !s.extensionsKnown
        || !s.hasExtension("asr1k_operations"))
        return;
    // What the driver cannot tell these credentials, or of this router, every refresh the same: said where
    // the devices are judged (not diagnosed, and why), not a failure of the refresh.
    const auto unjudged = [](KlusterState &st, const QString &why) {
        st.routerDevices = RouterDevices();
        st.routerDeviceSource.known = false;
        st.routerDeviceSource.error = why;
    };
    const auto notReadable = [unjudged](KlusterState &st, const QString &why) {
        unjudged(st,
            QStringLiteral(
                "not readable with these credentials: the ASR driver's API is a cloud admin's (%1)")
                .arg(why));
    };
    if (m_session->isRefused(QStringLiteral("asr1k"))) {
        notReadable(s, QStringLiteral("refused earlier in this session"));
        return;
    }
    ++m_outstanding;
    HttpCall *call = m_session->send(
        QStringLiteral("network"), "GET", QStringLiteral("/v2.0/asr1k/routers/") + s.router.id);
    m_calls.append(call);
    connect(call, &HttpCall::finished, this, [this, unjudged, notReadable](const ApiResponse &r) {
        KlusterState &st = m_result.state;
        Error error = r.read([&st](const QJsonObject &body) {
            st.routerDevices = RouterDeviceReader::read(Sources::name(Source::RouterDevice), body, st.router);
        });
        if (error.isError() && r.status == 500
            && error.serverMessage.contains(QLatin1String("No agent can be determined"))) {
            // A router no single ASR agent hosts: the driver has no device to compare.
            unjudged(st,
                QStringLiteral(
                    "the router is not on an ASR device pair (the driver: \"No agent can be determined\")"));
        } else if (error.isError() && (r.status == 401 || r.status == 403)) {
            m_session->noteRefused(QStringLiteral("asr1k"));
            // The server's words up to their first sentence's end (a policy engine's page says more).
            QString words = error.serverMessage.section(QStringLiteral(". "), 0, 0).simplified();
            if (words.size() > 100)
                words = words.left(99) + QChar(0x2026);
            notReadable(st,
                QStringLiteral("HTTP %1: %2")
                    .arg(r.status)
                    .arg(words.isEmpty() ? QStringLiteral("HTTPUnauthorized") : words));
        } else if (!settle(st.routerDeviceSource, Source::RouterDevice, r.body, error,
                       QStringLiteral("no route on the router's devices checked"))) {
            st.routerDevices = RouterDevices();
        }
        partDone();
    });
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
