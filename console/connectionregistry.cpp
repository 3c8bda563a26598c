#include "console/connectionregistry.h"

#include "console/klusterstore.h"
#include "console/lowpriority.h"
#include "services/http/endpointslots.h"
#include "services/local/cloudconfig.h"
#include "services/local/secretstore.h"
#include "services/settings.h"

#include <QThread>
#include <QTimer>
#include <algorithm>

QString ConnectionStatus::toText() const
{
    switch (state) {
    case State::Unknown:
        return QString();
    case State::Listing:
        return QObject::tr("listing klusters…");
    case State::Failed:
        return QObject::tr("failed: %1").arg(error.toString());
    case State::Listed:
        break;
    }
    QString text = klusters == 1 ? QObject::tr("1 kluster") : QObject::tr("%1 klusters").arg(klusters);
    if (stale > 0)
        text += QObject::tr(", %1 could not be refreshed").arg(stale);
    return text;
}

ConnectionRegistry::ConnectionRegistry(KlusterStore *store, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_network(new QThread(this))
{
    m_network->setObjectName(QStringLiteral("flightdeck-network"));
    // The window's thread first: the network and parsing thread yields to it when the cores are busy (on a
    // 2-core laptop, a 5,000-node refresh would otherwise take the window's turn).
    connect(
        m_network, &QThread::started, m_network,
        [this] {
            Threads::yieldToTheWindow();
            // Qt starts a thread of its own for each connection's downloads: lowered too, as they come.
            auto *lower = new QTimer;
            lower->setInterval(2000);
            connect(lower, &QTimer::timeout, lower, [] { Threads::yieldHttpThreadsToTheWindow(); });
            connect(
                m_network, &QThread::finished, m_network, [lower] { delete lower; }, Qt::DirectConnection);
            lower->start();
        },
        Qt::DirectConnection);
    m_network->start();
    EndpointSlots::shared().setLimit(Settings::requestsPerEndpoint().value());
}

ConnectionRegistry::~ConnectionRegistry()
{
    qDeleteAll(m_connections); // their workers are deleted on the network thread
    m_connections.clear();
    m_network->quit();
    m_network->wait(); // at exit only: the workers' last deletions
}

Connection *ConnectionRegistry::add(const ConnectionSpec &given, bool remember)
{
    ConnectionSpec spec = given;
    spec.readOnly = spec.readOnly || m_forceReadOnly;
    if (!spec.refreshConcurrency) // the fleet commands give their own (--concurrency)
        spec.refreshConcurrency = qMax(0, Settings::refreshConcurrency().value());
    auto *connection = new Connection(spec, m_network, this);
    m_connections << connection;
    if (remember) {
        m_remembered << given;
        save();
    }
    emit added(connection);
    emit changed();
    return connection;
}

Connection *ConnectionRegistry::addEntered(const ConnectionSpec &spec, const QString &secret)
{
    remember(spec);
    Connection *connection = add(spec, false);
    storeSecret(spec, secret);
    return connection;
}

Connection *ConnectionRegistry::replace(
    const QString &name, const ConnectionSpec &edited, const QString &secret)
{
    Connection *old = connection(name);
    ConnectionSpec spec = edited;
    if (old && secret.isEmpty() && spec.config && old->spec().config && spec.cloud.isEmpty()) {
        // The secret stays where it was: the keychain (read again by the new connection), or this run's
        // memory.
        const CloudConfig &was = *old->spec().config;
        (spec.config->isApplicationCredential() ? spec.config->applicationCredentialSecret
                                                : spec.config->password)
            = was.isApplicationCredential() ? was.applicationCredentialSecret : was.password;
    }
    const bool wasRemembered = isRemembered(name);
    remove(name, false);
    if (wasRemembered)
        remember(spec);
    Connection *connection = add(spec, false);
    storeSecret(spec, secret);
    return connection;
}

void ConnectionRegistry::remove(const QString &name, bool forgetSecret)
{
    Connection *c = connection(name);
    if (!c)
        return;
    const ConnectionSpec spec = c->spec();
    m_connections.removeAll(c);
    m_remembered.erase(std::remove_if(m_remembered.begin(), m_remembered.end(),
                           [&](const ConnectionSpec &s) { return s.name == name; }),
        m_remembered.end());
    save();
    m_store->removeConnection(name);
    delete c;
    if (forgetSecret && !spec.isSnapshot()) {
        // The keychain entry goes with it (a clouds.yaml cloud's files stay as they are).
        QString error;
        std::optional<CloudConfig> config = spec.config;
        if (!config && !spec.cloud.isEmpty())
            config = CloudConfigLoader::load(spec.cloud, &error);
        if (config) {
            auto *store = new SecretStore(this);
            connect(store->remove(config->secretKey()), &SecretCall::finished, store, &QObject::deleteLater);
        }
    }
    emit removed(name);
    emit changed();
}

void ConnectionRegistry::restore()
{
    for (const ConnectionSpec &spec : Settings::connections()) {
        m_remembered << spec;
        add(spec, false);
    }
}

void ConnectionRegistry::test(const ConnectionSpec &given, QObject *context, const TestDone &done)
{
    // A connection of its own, on the network thread, gone once it has answered.
    ConnectionSpec spec = given;
    spec.name = tr("test of %1").arg(given.name);
    auto *probe = new Connection(spec, m_network, this);
    // Who signed in, with which roles: what the repairs offered will be judged for (diagnosis.md §8).
    auto who = std::make_shared<QString>();
    connect(probe, &Connection::identityRead, context, [who](const QString &summary) { *who = summary; });
    connect(probe, &Connection::klustersListed, context,
        [probe, done, who](const QStringList &klusters, const Error &error) {
            probe->deleteLater();
            const QString as = who->isEmpty() ? QString() : tr(" as %1").arg(*who);
            if (!error.isError() && probe->spec().isPrometheus())
                done(true,
                    klusters.isEmpty() ? tr("Prometheus answered; its exporters give no kluster.")
                                       : tr("Prometheus answered; %1 kluster(s): %2")
                                             .arg(klusters.size())
                                             .arg(klusters.join(QStringLiteral(", "))));
            else if (error.isError())
                done(false, error.toString());
            else
                done(true,
                    klusters.isEmpty()
                        ? tr("Signed in%1; Kubernikus lists no kluster in this project.").arg(as)
                        : tr("Signed in%1; %2 kluster(s): %3")
                              .arg(as)
                              .arg(klusters.size())
                              .arg(klusters.join(QStringLiteral(", "))));
        });
    connect(context, &QObject::destroyed, probe, &QObject::deleteLater);
    probe->listKlusters();
}

Connection *ConnectionRegistry::connection(const QString &name) const
{
    const auto it = std::find_if(
        m_connections.cbegin(), m_connections.cend(), [&name](Connection *c) { return c->name() == name; });
    return it == m_connections.cend() ? nullptr : *it;
}

bool ConnectionRegistry::isRemembered(const QString &name) const
{
    return std::any_of(
        m_remembered.cbegin(), m_remembered.cend(), [&](const ConnectionSpec &s) { return s.name == name; });
}

ConnectionSpec ConnectionRegistry::editableSpec(const QString &name) const
{
    for (const ConnectionSpec &s : m_remembered) {
        if (s.name == name)
            return s; // as remembered (without the --read-only of this run)
    }
    const Connection *c = connection(name);
    return c ? c->spec() : ConnectionSpec();
}

QStringList ConnectionRegistry::namesTaken() const
{
    QStringList taken;
    for (const Connection *c : m_connections)
        taken << c->name();
    for (const ConnectionSpec &s : m_remembered)
        taken << s.name;
    return taken;
}

ConnectionStatus ConnectionRegistry::status(const QString &name) const
{
    ConnectionStatus s;
    if (!connection(name))
        return s;
    if (m_store->isListing(name)) {
        s.state = ConnectionStatus::State::Listing;
        return s;
    }
    if (const Error error = m_store->listingError(name); error.isError()) {
        s.state = ConnectionStatus::State::Failed;
        s.error = error;
        return s;
    }
    s.state = ConnectionStatus::State::Listed;
    const QStringList klusters = m_store->klusters(name);
    s.klusters = int(klusters.size());
    for (const QString &k : klusters) {
        const KlusterData *d = m_store->data({ name, k });
        s.stale += d && d->isStale() ? 1 : 0;
    }
    return s;
}

bool ConnectionRegistry::anyLive() const
{
    return std::any_of(m_connections.cbegin(), m_connections.cend(),
        [](const Connection *c) { return !c->spec().isSnapshot(); });
}

void ConnectionRegistry::remember(const ConnectionSpec &spec)
{
    ConnectionSpec remembered = spec;
    if (remembered.config) { // what is remembered never holds the secret
        remembered.config->password.clear();
        remembered.config->applicationCredentialSecret.clear();
    }
    m_remembered << remembered;
    save();
}

void ConnectionRegistry::save()
{
    Settings::setConnections(m_remembered);
}

void ConnectionRegistry::storeSecret(const ConnectionSpec &spec, const QString &secret)
{
    if (spec.prometheus.needsSecret() && !spec.prometheus.secret.isEmpty()) {
        // The Prometheus' password or token: in the keychain (the connection holds it for this session).
        auto *store = new SecretStore(this);
        const QString name = spec.name;
        connect(store->write(PrometheusClient::secretKey(spec.prometheus), spec.prometheus.secret),
            &SecretCall::finished, this, [this, store, name](const SecretResult &r) {
                store->deleteLater();
                if (r.ok && !r.inMemoryOnly)
                    emit secretStored(name);
                else
                    emit secretNotKept(name,
                        tr("The Prometheus secret of %1 is kept for this session only (%2).")
                            .arg(name, r.inMemoryOnly ? tr("no keychain is available") : r.error));
            });
    }
    if (spec.alertmanager.needsSecret() && !spec.alertmanager.secret.isEmpty()) {
        // The Alertmanager's password or token: in the keychain, as the cloud's (the connection holds it for
        // this session either way).
        auto *store = new SecretStore(this);
        const QString name = spec.name;
        connect(store->write(spec.alertmanager.secretKey(), spec.alertmanager.secret), &SecretCall::finished,
            this, [this, store, name](const SecretResult &r) {
                store->deleteLater();
                if (!r.ok || r.inMemoryOnly)
                    emit secretNotKept(name,
                        tr("The Alertmanager secret of %1 is kept for this session only (%2).")
                            .arg(name, r.inMemoryOnly ? tr("no keychain is available") : r.error));
            });
    }
    if (secret.isEmpty() || !spec.config)
        return;
    auto *store = new SecretStore(this);
    const QString name = spec.name;
    connect(store->write(spec.config->secretKey(), secret), &SecretCall::finished, this,
        [this, store, name](const SecretResult &r) {
            store->deleteLater();
            if (r.ok && !r.inMemoryOnly) {
                emit secretStored(name);
                return;
            }
            // Not kept: the connection works now, and will not sign in next time.
            emit secretNotKept(name,
                tr("The secret of %1 is kept for this session only (%2). Next time, enter it again in "
                   "File → Connections… → Edit, or put it in secure.yaml.")
                    .arg(name, r.inMemoryOnly ? tr("no keychain is available") : r.error));
        });
}
