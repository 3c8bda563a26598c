#pragma once

#include "simulator/certificateauthority.h"
#include "simulator/faults.h"
#include "simulator/httpserver.h"
#include "simulator/kubeevents.h"
#include "simulator/nodewatches.h"
#include "simulator/world.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QString>
#include <functional>
#include <memory>
#include <optional>

class QTimer;

// The built-in simulated cloud: Keystone v3, Nova v2.1, Neutron v2.0, a
// minimal Glance, Cinder v3's volumes, Octavia v2's load balancers, the
// Kubernikus API and one Kubernetes API server (TLS) per kluster, all on
// 127.0.0.1, over one stateful World; plus an admin API for fault injection
// and for acting as the cloud's own controllers.
class Simulator : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Simulator)

public:
    struct Ports
    {
        quint16 keystone = 0; // 0: chosen by the OS
        quint16 compute = 0;
        quint16 network = 0;
        quint16 image = 0;
        quint16 kubernikus = 0;
        quint16 admin = 0;
        quint16 volume = 0; // Cinder
        quint16 loadBalancer = 0; // Octavia
    };

    explicit Simulator(QObject *parent = nullptr);
    ~Simulator() override;

    World &world() { return m_world; }
    const World &world() const { return m_world; }
    FaultInjector &faults() { return m_faults; }
    NodeWatches &watches() { return *m_watches; }
    KubeEvents &events() { return *m_events; }

    // Starts every server; the world (scenario) must be loaded first.
    bool start(const Ports &ports, QString *error);
    // How the world is made again by the admin API's POST /reset (the scenario it was loaded from).
    using WorldLoader = std::function<bool(World &, FaultInjector &, QString *)>;
    void setWorldLoader(WorldLoader loader) { m_loader = std::move(loader); }
    bool isRunning() const { return m_running; }

    QString authUrl() const; // http://127.0.0.1:<port>/v3
    // The URL of a catalog type: identity, compute, network, image, kubernikus, volumev3 (".../v3": the
    // catalog's adds "/<project id>"), load-balancer.
    QString endpoint(const QString &type) const;
    QString adminUrl() const;
    QString kubernetesUrl(const QString &kluster) const;
    QByteArray caCertificatePem() const;
    // A kubeconfig for a kluster: its API server, the CA, and a client certificate it accepts.
    QByteArray kubeconfig(const QString &kluster) const;
    // Everything a client needs to find the cloud, as JSON (no secrets but the scenario's own).
    QJsonObject describe() const;

    qint64 requestCount(const QString &service) const;
    qint64 bytesSent(const QString &service) const; // the answers' bytes (HttpServer::bytesSent)
    // The most of the service's requests answered late (a latency fault) that waited at once.
    int maxInFlight(const QString &service) const;
    // Time spent producing answers (not sending them), for benchmarks.
    qint64 handlingNanoseconds() const { return m_handlingNs; }

    // Writes each kluster (or only `kluster`) as a snapshot folder DIR/<kluster>/.
    bool dumpSnapshots(const QString &directory, const QString &kluster, QString *error);

signals:
    void requestHandled(const QString &service, const QString &method, const QString &path, int status);

private:
    HttpResponse dispatch(const QString &service, const HttpRequest &request);
    HttpResponse handle(const QString &service, const HttpRequest &request);

    HttpResponse keystone(const HttpRequest &request);
    QJsonObject renderToken(const SimToken &token, const QString &method, bool withCatalog) const;
    HttpResponse nova(const HttpRequest &request, const SimToken &token);
    HttpResponse novaDiscovery(const HttpRequest &request);
    HttpResponse neutron(const HttpRequest &request, const SimToken &token);
    // The ASR1k driver's /v2.0/asr1k/routers/{id} (simulator/asr1kapi.cpp).
    HttpResponse asr1kRouters(const HttpRequest &request, const SimToken &token, const QString &id);
    HttpResponse glance(const HttpRequest &request, const SimToken *token);
    // Cinder's volumes (simulator/cinderapi.cpp) and Octavia's load balancers (simulator/octaviaapi.cpp);
    // their version documents need no token.
    HttpResponse cinderDiscovery(const HttpRequest &request);
    HttpResponse cinder(const HttpRequest &request, const SimToken &token);
    HttpResponse octaviaDiscovery(const HttpRequest &request);
    HttpResponse octavia(const HttpRequest &request, const SimToken &token);
    HttpResponse kubernikus(const HttpRequest &request, const SimToken &token);
    HttpResponse kubernetes(const QString &kluster, const HttpRequest &request);
    HttpResponse admin(const HttpRequest &request);

    // A 401 or 403 where the token's access rules or roles do not let `request` through
    // (simulator/policy.cpp).
    std::optional<HttpResponse> policyRefusal(
        const QString &service, const HttpRequest &request, const SimToken &token) const;
    void applyConcurrentWrite(const HttpRequest &request);
    HttpResponse errorFor(
        const QString &service, int status, const QString &type, const QString &message) const;

    World m_world;
    FaultInjector m_faults;
    std::unique_ptr<CertificateAuthority> m_ca;
    CertificateAuthority::Issued m_clientCertificate;
    QHash<QString, HttpServer *> m_servers; // by service
    QHash<QString, HttpServer *> m_kubernetesServers; // by kluster
    QTimer *m_ticker = nullptr;
    NodeWatches *m_watches;
    KubeEvents *m_events;
    bool m_running = false;
    qint64 m_handlingNs = 0;
    WorldLoader m_loader;
};
