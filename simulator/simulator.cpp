#include "simulator/simulator.h"

#include "simulator/apirender.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTimer>

namespace {

QByteArray toJson(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

const char htmlPage[] = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 "
                        "Bad Gateway</h1></center>\r\n"
                        "<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";

} // namespace

Simulator::Simulator(QObject *parent)
    : QObject(parent)
    , m_watches(new NodeWatches(&m_world, this))
    , m_events(new KubeEvents(&m_world, this))
{ }

Simulator::~Simulator() = default;

bool Simulator::start(const Ports &ports, QString *error)
{
    try {
        m_ca = std::make_unique<CertificateAuthority>();
        m_clientCertificate
            = m_ca->issueClient(QStringLiteral("kubernikus:admin"), QStringLiteral("system:masters"));
    } catch (const std::exception &e) {
        *error = QString::fromUtf8(e.what());
        return false;
    }
    const QList<QPair<QString, quint16>> services = { { QStringLiteral("keystone"), ports.keystone },
        { QStringLiteral("compute"), ports.compute }, { QStringLiteral("network"), ports.network },
        { QStringLiteral("image"), ports.image }, { QStringLiteral("kubernikus"), ports.kubernikus },
        { QStringLiteral("admin"), ports.admin }, { QStringLiteral("volumev3"), ports.volume },
        { QStringLiteral("load-balancer"), ports.loadBalancer } };
    for (const auto &s : services) {
        const QString service = s.first;
        auto *server = new HttpServer(
            service, [this, service](const HttpRequest &r) { return dispatch(service, r); }, this);
        if (!server->listen(QHostAddress::LocalHost, s.second)) {
            *error = QStringLiteral("%1: cannot listen on 127.0.0.1:%2: %3")
                         .arg(service)
                         .arg(s.second)
                         .arg(server->errorString());
            return false;
        }
        m_servers.insert(service, server);
    }
    for (const SimKluster &k : std::as_const(m_world.klusters)) {
        const CertificateAuthority::Issued cert
            = m_ca->issueServer(QStringLiteral("kube-apiserver-") + k.name);
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.setLocalCertificate(cert.certificate());
        tls.setPrivateKey(cert.key());
        tls.setCaCertificates({ m_ca->certificate() });
        tls.setPeerVerifyMode(QSslSocket::QueryPeer);
        const QString name = k.name;
        const QString service = QStringLiteral("kubernetes");
        auto *server = new HttpServer(
            QStringLiteral("kubernetes:") + name,
            [this, name](const HttpRequest &r) { return dispatch(QStringLiteral("kubernetes:") + name, r); },
            this);
        if (!server->listen(QHostAddress::LocalHost, 0, tls)) {
            *error = QStringLiteral("kubernetes API of %1: %2").arg(name, server->errorString());
            return false;
        }
        m_kubernetesServers.insert(name, server);
    }
    m_ticker = new QTimer(this);
    m_ticker->setInterval(250);
    connect(m_ticker, &QTimer::timeout, this, [this] {
        if (m_world.tick())
            m_watches->observe();
    });
    m_ticker->start();
    m_running = true;
    return true;
}

QString Simulator::authUrl() const
{
    return endpoint(QStringLiteral("identity"));
}

QString Simulator::endpoint(const QString &type) const
{
    auto base = [this](const QString &service) {
        const HttpServer *s = m_servers.value(service);
        return s ? s->baseUrl() : QString();
    };
    if (type == QLatin1String("identity"))
        return base(QStringLiteral("keystone")) + QStringLiteral("/v3");
    if (type == QLatin1String("compute"))
        return base(QStringLiteral("compute")) + QStringLiteral("/v2.1");
    if (type == QLatin1String("network"))
        return base(QStringLiteral("network"));
    if (type == QLatin1String("image"))
        return base(QStringLiteral("image"));
    if (type == QLatin1String("kubernikus"))
        return base(QStringLiteral("kubernikus"));
    if (type == QLatin1String("volumev3"))
        return base(QStringLiteral("volumev3")) + QStringLiteral("/v3");
    if (type == QLatin1String("load-balancer"))
        return base(QStringLiteral("load-balancer"));
    return QString();
}

QString Simulator::adminUrl() const
{
    const HttpServer *s = m_servers.value(QStringLiteral("admin"));
    return s ? s->baseUrl() : QString();
}

QString Simulator::kubernetesUrl(const QString &kluster) const
{
    const HttpServer *s = m_kubernetesServers.value(kluster);
    return s ? QStringLiteral("https://127.0.0.1:%1").arg(s->port()) : QString();
}

QByteArray Simulator::caCertificatePem() const
{
    return m_ca ? m_ca->certificatePem() : QByteArray();
}

QByteArray Simulator::kubeconfig(const QString &kluster) const
{
    const QString user = QStringLiteral("kubernikus-") + kluster;
    QByteArray y;
    y += "apiVersion: v1\nkind: Config\n";
    y += "clusters:\n- name: " + kluster.toUtf8() + "\n  cluster:\n";
    y += "    server: " + kubernetesUrl(kluster).toUtf8() + "\n";
    y += "    certificate-authority-data: " + caCertificatePem().toBase64() + "\n";
    y += "contexts:\n- name: " + kluster.toUtf8() + "\n  context:\n    cluster: " + kluster.toUtf8()
        + "\n    user: " + user.toUtf8() + "\n";
    y += "current-context: " + kluster.toUtf8() + "\n";
    y += "users:\n- name: " + user.toUtf8() + "\n  user:\n";
    y += "    client-certificate-data: " + m_clientCertificate.certificatePem.toBase64() + "\n";
    y += "    client-key-data: " + m_clientCertificate.keyPem.toBase64() + "\n";
    return y;
}

QJsonObject Simulator::describe() const
{
    QJsonObject k8s;
    for (auto it = m_kubernetesServers.cbegin(); it != m_kubernetesServers.cend(); ++it)
        k8s.insert(it.key(), kubernetesUrl(it.key()));
    QJsonArray users;
    for (const SimUser &u : m_world.users) {
        const int p = m_world.projectIndex(u.projectId);
        users.append(
            QJsonObject { { QStringLiteral("name"), u.name }, { QStringLiteral("password"), u.password },
                { QStringLiteral("project"), p >= 0 ? m_world.projects.at(p).name : QString() },
                { QStringLiteral("domain"), QStringLiteral("Default") },
                { QStringLiteral("roles"), QJsonArray::fromStringList(u.roles) } });
    }
    QJsonArray credentials;
    for (const SimApplicationCredential &c : m_world.applicationCredentials) {
        const int u = m_world.userIndex(c.userId);
        QJsonArray rules;
        for (const SimAccessRule &r : c.accessRules)
            rules.append(QJsonObject { { QStringLiteral("service"), r.service },
                { QStringLiteral("method"), r.method }, { QStringLiteral("path"), r.path } });
        QJsonObject credential { { QStringLiteral("id"), c.id }, { QStringLiteral("name"), c.name },
            { QStringLiteral("secret"), c.secret },
            { QStringLiteral("user"), u >= 0 ? m_world.users.at(u).name : QString() },
            { QStringLiteral("roles"),
                QJsonArray::fromStringList(u >= 0 ? m_world.users.at(u).roles : QStringList()) } };
        if (!c.accessRules.isEmpty())
            credential.insert(QStringLiteral("accessRules"), rules);
        credentials.append(credential);
    }
    // Each router's ASR pair (with the driver): which device is the ACTIVE, as the team running it knows.
    QJsonArray devices;
    for (const SimRouter &r : m_world.routers) {
        for (const SimDevice &d : r.devices)
            devices.append(
                QJsonObject { { QStringLiteral("router"), r.name }, { QStringLiteral("host"), d.host },
                    { QStringLiteral("role"),
                        d.active ? QStringLiteral("ACTIVE") : QStringLiteral("STANDBY") } });
    }
    return QJsonObject { { QStringLiteral("authUrl"), authUrl() },
        { QStringLiteral("region"), m_world.region },
        { QStringLiteral("compute"), endpoint(QStringLiteral("compute")) },
        { QStringLiteral("network"), endpoint(QStringLiteral("network")) },
        { QStringLiteral("image"), endpoint(QStringLiteral("image")) },
        { QStringLiteral("kubernikus"), endpoint(QStringLiteral("kubernikus")) },
        { QStringLiteral("volumev3"), endpoint(QStringLiteral("volumev3")) },
        { QStringLiteral("load-balancer"), endpoint(QStringLiteral("load-balancer")) },
        { QStringLiteral("admin"), adminUrl() }, { QStringLiteral("kubernetes"), k8s },
        { QStringLiteral("users"), users }, { QStringLiteral("applicationCredentials"), credentials },
        { QStringLiteral("routerDevices"), devices } };
}

qint64 Simulator::requestCount(const QString &service) const
{
    if (const HttpServer *s = m_servers.value(service))
        return s->requestCount();
    qint64 n = 0;
    if (service == QLatin1String("kubernetes")) {
        for (const HttpServer *s : m_kubernetesServers)
            n += s->requestCount();
    }
    return n;
}

qint64 Simulator::bytesSent(const QString &service) const
{
    if (const HttpServer *s = m_servers.value(service))
        return s->bytesSent();
    qint64 n = 0;
    if (service == QLatin1String("kubernetes")) {
        for (const HttpServer *s : m_kubernetesServers)
            n += s->bytesSent();
    }
    return n;
}

int Simulator::maxInFlight(const QString &service) const
{
    const HttpServer *s = m_servers.value(service);
    return s ? s->maxInFlight() : 0;
}

HttpResponse Simulator::errorFor(
    const QString &service, int status, const QString &type, const QString &message) const
{
    static const QHash<int, QString> titles = { { 400, QStringLiteral("Bad Request") },
        { 401, QStringLiteral("Unauthorized") }, { 403, QStringLiteral("Forbidden") },
        { 404, QStringLiteral("Not Found") }, { 409, QStringLiteral("Conflict") },
        { 412, QStringLiteral("Precondition Failed") }, { 429, QStringLiteral("Too Many Requests") },
        { 500, QStringLiteral("Internal Server Error") }, { 503, QStringLiteral("Service Unavailable") } };
    if (service == QLatin1String("keystone")
        || (status == 401 && !service.startsWith(QLatin1String("kubernetes")))) {
        HttpResponse r = HttpResponse::json(status,
            toJson(QJsonObject { { QStringLiteral("error"),
                QJsonObject { { QStringLiteral("code"), status },
                    { QStringLiteral("title"), titles.value(status, QStringLiteral("Error")) },
                    { QStringLiteral("message"), message } } } }));
        if (status == 401)
            r.header("WWW-Authenticate", "Keystone uri=\"" + authUrl().toUtf8() + "\"");
        return r;
    }
    if (service == QLatin1String("compute")) {
        QString fault = type;
        if (fault.isEmpty()) {
            fault = status == 404                  ? QStringLiteral("itemNotFound")
                : status == 409                    ? QStringLiteral("conflictingRequest")
                : status == 403                    ? QStringLiteral("forbidden")
                : (status == 413 || status == 429) ? QStringLiteral("overLimit")
                : status >= 500                    ? QStringLiteral("computeFault")
                                                   : QStringLiteral("badRequest");
        }
        return HttpResponse::json(status,
            toJson(QJsonObject { { fault,
                QJsonObject {
                    { QStringLiteral("code"), status }, { QStringLiteral("message"), message } } } }));
    }
    if (service == QLatin1String("network")) {
        return HttpResponse::json(status,
            toJson(QJsonObject { { QStringLiteral("NeutronError"),
                QJsonObject { { QStringLiteral("type"), type.isEmpty() ? QStringLiteral("HTTPError") : type },
                    { QStringLiteral("message"), message }, { QStringLiteral("detail"), QString() } } } }));
    }
    if (service == QLatin1String("volumev3")) {
        // cinder/api/openstack/wsgi.py's Fault: its name by status, "computeFault" for the rest.
        static const QHash<int, QString> names
            = { { 400, QStringLiteral("badRequest") }, { 401, QStringLiteral("unauthorized") },
                  { 403, QStringLiteral("forbidden") }, { 404, QStringLiteral("itemNotFound") },
                  { 405, QStringLiteral("badMethod") }, { 409, QStringLiteral("conflictingRequest") },
                  { 413, QStringLiteral("overLimit") }, { 415, QStringLiteral("badMediaType") },
                  { 501, QStringLiteral("notImplemented") }, { 503, QStringLiteral("serviceUnavailable") } };
        return HttpResponse::json(status,
            toJson(
                QJsonObject { { type.isEmpty() ? names.value(status, QStringLiteral("computeFault")) : type,
                    QJsonObject {
                        { QStringLiteral("code"), status }, { QStringLiteral("message"), message } } } }));
    }
    if (service == QLatin1String("load-balancer")) {
        // WSME's error body, as Octavia's API answers.
        return HttpResponse::json(status,
            toJson(QJsonObject { { QStringLiteral("faultcode"),
                                     status < 500 ? QStringLiteral("Client") : QStringLiteral("Server") },
                { QStringLiteral("faultstring"), message }, { QStringLiteral("debuginfo"), QJsonValue() } }));
    }
    if (service.startsWith(QLatin1String("kubernetes"))) {
        static const QHash<int, QString> reasons = { { 400, QStringLiteral("BadRequest") },
            { 401, QStringLiteral("Unauthorized") }, { 403, QStringLiteral("Forbidden") },
            { 404, QStringLiteral("NotFound") }, { 405, QStringLiteral("MethodNotAllowed") },
            { 406, QStringLiteral("NotAcceptable") }, { 409, QStringLiteral("Conflict") },
            { 410, QStringLiteral("Expired") }, { 415, QStringLiteral("UnsupportedMediaType") },
            { 422, QStringLiteral("Invalid") }, { 429, QStringLiteral("TooManyRequests") },
            { 500, QStringLiteral("InternalError") }, { 503, QStringLiteral("ServiceUnavailable") } };
        return HttpResponse::json(status,
            toJson(QJsonObject { { QStringLiteral("kind"), QStringLiteral("Status") },
                { QStringLiteral("apiVersion"), QStringLiteral("v1") },
                { QStringLiteral("metadata"), QJsonObject() },
                { QStringLiteral("status"), QStringLiteral("Failure") },
                { QStringLiteral("message"), message },
                { QStringLiteral("reason"),
                    type.isEmpty() ? reasons.value(status, QStringLiteral("Unknown")) : type },
                { QStringLiteral("code"), status } }));
    }
    return HttpResponse::json(status,
        toJson(QJsonObject { { QStringLiteral("code"), status }, { QStringLiteral("message"), message } }));
}

void Simulator::applyConcurrentWrite(const HttpRequest &request)
{
    // Another writer (a route controller, a colleague) changes the router the
    // request is about: one more route, and a new revision; or the port: one more allowed address pair.
    const QStringList parts = request.path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    if (parts.size() >= 3 && parts.at(1) == QLatin1String("ports")) {
        const int p = m_world.portIndex(parts.at(2));
        if (p < 0)
            return;
        SimPort &port = m_world.ports[p];
        const QString pair = QStringLiteral("198.51.100.%1").arg(port.revision % 250 + 1);
        if (!port.allowedAddressPairs.contains(pair))
            port.allowedAddressPairs.append(pair);
        ++port.revision;
        port.updated = m_world.now();
        return;
    }
    const int r = parts.size() >= 3 && parts.at(1) == QLatin1String("routers")
        ? m_world.routerIndex(parts.at(2))
        : -1;
    if (r < 0)
        return;
    SimRouter &router = m_world.routers[r];
    QString nexthop;
    for (const SimNetwork &n : m_world.networks) {
        if (router.interfaceSubnetIds.contains(n.subnetId)) {
            const QPair<QHostAddress, int> subnet = QHostAddress::parseSubnet(n.cidr);
            nexthop = QHostAddress(subnet.first.toIPv4Address() + 250).toString();
            break;
        }
    }
    const SimRoute route { QStringLiteral("198.51.100.%1/32").arg(router.revision % 250 + 1), nexthop };
    if (!nexthop.isEmpty() && !router.routes.contains(route))
        router.routes.append(route);
    ++router.revision;
    router.updated = m_world.now();
}

namespace {
const char *const EndlessToken = "c2ltdWxhdGVkLWVuZGxlc3M"; // the continue token of a list without end
} // namespace

HttpResponse Simulator::dispatch(const QString &service, const HttpRequest &request)
{
    m_world.tick();
    // A kluster's API server is "kubernetes:<kluster>": a rule for "kubernetes" matches every kluster's.
    const QString faultService
        = service.startsWith(QLatin1String("kubernetes")) ? QStringLiteral("kubernetes") : service;
    const QList<FaultRule> applied
        = service == QLatin1String("admin") ? QList<FaultRule>() : m_faults.take(service, request);
    int delay = 0;
    HttpResponse response;
    bool answered = false;
    for (const FaultRule &f : applied) {
        switch (f.kind) {
        case FaultRule::Kind::Latency:
            delay += f.latencyMs;
            break;
        case FaultRule::Kind::ExpireTokens:
            m_world.expireAllTokens();
            break;
        case FaultRule::Kind::ConcurrentWrite:
            applyConcurrentWrite(request);
            break;
        case FaultRule::Kind::Drop:
            if (!answered) {
                response = HttpResponse();
                response.delivery = HttpResponse::Delivery::Dropped;
                answered = true;
            }
            break;
        case FaultRule::Kind::Status:
            if (!answered) {
                const QString message = f.status == 429
                    ? QStringLiteral("Too many requests, please try again later.")
                    : QStringLiteral(
                        "The server is currently unavailable. Please try again at a later time.");
                if (faultService == QLatin1String("kubernetes") && f.status == 429) {
                    // kube-apiserver's max-in-flight answer is plain text, not a Status.
                    response = HttpResponse();
                    response.status = 429;
                    response.body = message.toUtf8() + '\n';
                    response.header("Content-Type", "text/plain; charset=utf-8");
                } else {
                    response = errorFor(faultService, f.status, QString(), message);
                }
                if (!f.retryAfter.isEmpty())
                    response.header("Retry-After", f.retryAfter.toUtf8());
                answered = true;
            }
            break;
        case FaultRule::Kind::Html:
            if (!answered) {
                response = HttpResponse();
                response.status = f.status;
                response.body = htmlPage;
                response.header("Content-Type", "text/html");
                answered = true;
            }
            break;
        case FaultRule::Kind::EndlessContinue:
            if (!answered && request.queryValue(QStringLiteral("continue")) == QLatin1String(EndlessToken)) {
                // The next "chunk" of a list without end: nothing in it, and more to come.
                response = HttpResponse::json(200,
                    QByteArray("{\"kind\":\"NodeList\",\"apiVersion\":\"v1\",\"metadata\":{\"continue\":\"")
                        + EndlessToken + "\"},\"items\":[]}");
                answered = true;
            }
            break;
        case FaultRule::Kind::Malformed:
        case FaultRule::Kind::Truncated:
        case FaultRule::Kind::Trickle:
            break;
        }
    }
    if (!answered) {
        QElapsedTimer timer;
        timer.start();
        response = handle(service, request);
        m_handlingNs += timer.nsecsElapsed();
    }
    for (const FaultRule &f : applied) {
        if (f.kind == FaultRule::Kind::Malformed && !answered) {
            response.status = 200;
            response.body = "{\"data\": [{\"id\": \"7a1e\", \"name\": }, <not json>";
            response.headers.clear();
            response.header("Content-Type", "application/json");
        }
        if (f.kind == FaultRule::Kind::Truncated && !answered)
            response.delivery = HttpResponse::Delivery::Truncated;
        if (f.kind == FaultRule::Kind::Trickle && !answered) {
            response.delivery = HttpResponse::Delivery::Trickle;
            response.trickleMs = qMax(1, f.latencyMs);
        }
        if (f.kind == FaultRule::Kind::EndlessContinue && !answered && response.status == 200) {
            // A list that always has more: the same continue token, every time.
            QJsonObject body = QJsonDocument::fromJson(response.body).object();
            if (body.contains(QStringLiteral("items"))) {
                QJsonObject meta = body.value(QStringLiteral("metadata")).toObject();
                meta.insert(QStringLiteral("continue"), QString::fromLatin1(EndlessToken));
                body.insert(QStringLiteral("metadata"), meta);
                response.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
            }
        }
    }
    response.delayMs = delay;
    if (response.headerValue("Date").isEmpty()) {
        // The world's clock, which the admin API may have moved: what `updated` and `changes-since` are read
        // in.
        response.header("Date", httpDate(m_world.now()));
    }
    m_watches->observe(); // what the request changed reaches the node watches
    emit requestHandled(service, QString::fromLatin1(request.method), request.path, response.status);
    return response;
}

HttpResponse Simulator::handle(const QString &service, const HttpRequest &request)
{
    if (service == QLatin1String("admin"))
        return admin(request);
    if (service == QLatin1String("keystone"))
        return keystone(request);
    if (service.startsWith(QLatin1String("kubernetes:")))
        return kubernetes(service.mid(11), request);

    const SimToken *token = m_world.validToken(QString::fromUtf8(request.header("x-auth-token")));
    if (service == QLatin1String("image"))
        return glance(request, token);
    if (service == QLatin1String("compute")) {
        const QString p = request.path;
        if (p == QLatin1String("/") || p == QLatin1String("/v2.1") || p == QLatin1String("/v2.1/")
            || p == QLatin1String("/v2") || p == QLatin1String("/v2/"))
            return novaDiscovery(request);
    }
    if (service == QLatin1String("network") && request.path == QLatin1String("/"))
        return neutron(request, SimToken());
    if (service == QLatin1String("volumev3")
        && (request.path == QLatin1String("/") || request.path == QLatin1String("/v3")
            || request.path == QLatin1String("/v3/")))
        return cinderDiscovery(request);
    if (service == QLatin1String("load-balancer") && request.path == QLatin1String("/"))
        return octaviaDiscovery(request);
    if (service == QLatin1String("kubernikus")
        && (request.path == QLatin1String("/info") || request.path == QLatin1String("/api")
            || request.path == QLatin1String("/api/")))
        return kubernikus(request, SimToken());
    if (!token && service == QLatin1String("kubernikus") && m_world.externalIdentity
        && !request.header("x-auth-token").isEmpty())
        return kubernikus(request, SimToken()); // Keystone is a real one: its tokens are its to check
    if (!token) {
        return errorFor(
            service, 401, QString(), QStringLiteral("The request you have made requires authentication."));
    }
    if (std::optional<HttpResponse> refused = policyRefusal(service, request, *token))
        return *refused;
    if (service == QLatin1String("compute"))
        return nova(request, *token);
    if (service == QLatin1String("network"))
        return neutron(request, *token);
    if (service == QLatin1String("kubernikus"))
        return kubernikus(request, *token);
    if (service == QLatin1String("volumev3"))
        return cinder(request, *token);
    if (service == QLatin1String("load-balancer"))
        return octavia(request, *token);
    return errorFor(service, 404, QString(), QStringLiteral("Not found"));
}
