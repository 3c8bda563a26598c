// The worker of a connection, on its network thread: sessions, listings, refreshes (their node watches in
// WatchedKlusters); its repairs and their record are in connectionworkerrepairs.cpp.
#include "services/connectionworker.h"

#include "core/debris.h"
#include "core/klusterindex.h"
#include "core/permission.h"
#include "core/repairgate.h"
#include "services/http/endpointhealth.h"
#include "services/local/kubeconfig.h"
#include "services/local/policyfile.h"
#include "services/local/secretstore.h"
#include "services/local/snapshotreader.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QThread>
#include <QUrl>
#include <algorithm>
#include <utility>

namespace {

// A healthy kluster nobody looks at, not watched: its nodes are listed this often, and at once when one of
// its instances changed (the project's servers, fetched every refresh, say so); in between its last list
// stands, with its age.
constexpr int SlowNodeListSeconds = 10 * 60;

constexpr int TurnedAwayAtMost = 8; // a refresh the cloud turns away goes back in line this often (minutes,
                                    // as the pauses grow), then fails
constexpr int PauseAtLeastMs = 1000;

// Whether the nodes' source failed because the kluster's API refused the credentials.
bool nodesRefused(const KlusterFetch &fetch)
{
    return std::any_of(fetch.errors.cbegin(), fetch.errors.cend(), [](const SourceError &e) {
        return e.source == Source::Nodes
            && (e.error.kind == Error::Kind::Auth || e.error.status == 401 || e.error.status == 403);
    });
}

// A refresh that failed as a whole, before any source of the kluster was read.
QList<SourceError> failedAsAWhole(const Error &error)
{
    return { SourceError { std::nullopt, error, QString() } };
}

// The snapshot folders under `path`: itself, or its subfolders (as
// `flightdeck-sim --dump-snapshot` writes them), by kluster name.
QHash<QString, QString> snapshotFolders(const QString &path)
{
    QHash<QString, QString> folders;
    const auto klusterName = [](const QString &dir) {
        Error error;
        const std::optional<QByteArray> bytes
            = SnapshotReader::readBody(QDir(dir).filePath(Sources::file(Source::Kluster)), &error);
        if (!bytes)
            return QString();
        const QString name
            = QJsonDocument::fromJson(*bytes).object().value(QStringLiteral("name")).toString();
        return name.isEmpty() ? QFileInfo(dir).fileName() : name;
    };
    if (QFileInfo::exists(QDir(path).filePath(Sources::file(Source::Kluster)))) {
        folders.insert(klusterName(path), path);
        return folders;
    }
    const QStringList subdirs = QDir(path).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    for (const QString &sub : subdirs) {
        const QString dir = QDir(path).filePath(sub);
        if (QFileInfo::exists(QDir(dir).filePath(Sources::file(Source::Kluster))))
            folders.insert(klusterName(dir), dir);
    }
    return folders;
}

} // namespace

ConnectionWorker::ConnectionWorker(const ConnectionSpec &spec)
    : m_spec(spec)
    , m_queue(new RefreshQueue(
          spec.refreshConcurrency.value_or(8),
          [this](const QString &kluster, const QDateTime &askedAt) { startRefresh(kluster, askedAt); }, this))
    , m_watches(new WatchedKlusters(
          spec,
          [this](const QString &kluster) -> NodeWatch::Targets {
              return [this, kluster](QObject *context, auto done) {
                  // First what the refresh listed the nodes with; after a refusal, fresh credentials.
                  if (m_kubeTargets.contains(kluster)) {
                      done(m_kubeTargets.take(kluster), Error());
                      return;
                  }
                  if (m_kubeTarget) {
                      done(m_kubeTarget, Error());
                      return;
                  }
                  if (!m_session) {
                      done(std::nullopt, Error::of(Error::Kind::Config, tr("not signed in")));
                      return;
                  }
                  KlusterFetcher::requestCredentials(m_session.get(), kluster, context, done);
              };
          },
          this))
{
    connect(m_watches, &WatchedKlusters::nodesChanged, this, &ConnectionWorker::nodesChanged);
    connect(m_watches, &WatchedKlusters::statusChanged, this, &ConnectionWorker::watchStatusChanged);
    connect(m_watches, &WatchedKlusters::relistWanted, this, &ConnectionWorker::relistWanted);
}

ConnectionWorker::~ConnectionWorker()
{
    for (const QPointer<KlusterFetcher> &f : std::as_const(m_fetchers)) {
        if (f)
            f->cancel();
    }
    qDeleteAll(findChildren<KlusterFetcher *>(Qt::FindDirectChildrenOnly));
    qDeleteAll(findChildren<RepairExecutor *>(Qt::FindDirectChildrenOnly));
    m_watches->stopAll(); // before the client their streams use
    m_servers.reset();
    m_securityGroups.reset();
    m_extensions.reset();
    m_volumes.reset();
    m_loadBalancers.reset();
    m_session.reset();
    m_client.reset();
}

void ConnectionWorker::withSession(std::function<void(const Error &error)> then)
{
    if (m_session) {
        then(Error());
        return;
    }
    m_waiting.append(std::move(then));
    if (m_preparing)
        return;
    m_preparing = true;
    const auto ready = [this](const Error &error) {
        m_preparing = false;
        const auto waiting = std::exchange(m_waiting, {});
        for (const auto &w : waiting)
            w(error);
    };
    QString error;
    std::optional<CloudConfig> config = m_spec.config;
    if (!config)
        config = CloudConfigLoader::load(m_spec.cloud, &error);
    if (!config) {
        ready(Error::of(Error::Kind::Config, error));
        return;
    }
    if (!PolicyFiles::profile(m_spec.policyFiles, &config->policy, &error)) {
        ready(Error::of(Error::Kind::Config, QStringLiteral("policy file %1").arg(error)));
        return;
    }
    const auto open = [this, ready](const CloudConfig &c) {
        m_client = std::make_unique<HttpClient>();
        m_watches->setClient(m_client.get());
        m_session = std::make_unique<KeystoneSession>(m_client.get(), c);
        m_servers = std::make_unique<ServerCache>(m_session.get());
        m_securityGroups.reset(KlusterFetcher::sharedSecurityGroups(m_session.get(), nullptr));
        m_extensions.reset(KlusterFetcher::sharedExtensions(m_session.get(), nullptr));
        m_volumes.reset(KlusterFetcher::sharedVolumes(m_session.get(), nullptr));
        m_loadBalancers.reset(KlusterFetcher::sharedLoadBalancers(m_session.get(), nullptr));
        ready(Error());
    };
    const QString secret
        = config->isApplicationCredential() ? config->applicationCredentialSecret : config->password;
    if (!secret.isEmpty()) {
        open(*config);
        return;
    }
    // The keychain is read on the GUI thread (QtKeychain has one job queue for the process); the answer comes
    // back here.
    m_secretRead = [config, open, ready](const SecretResult &r) {
        if (!r.found) {
            const QString what
                = config->isApplicationCredential() ? tr("application credential secret") : tr("password");
            const QString where = r.error.isEmpty() ? tr("not in the keychain") : r.error;
            const QString missing = tr("no %1 for cloud \"%2\": put it in secure.yaml, or enter it in File → "
                                       "Connections… → Edit to keep it in the keychain (%3)")
                                        .arg(what, config->name, where);
            ready(Error::of(Error::Kind::Config, missing));
            return;
        }
        CloudConfig c = *config;
        (c.isApplicationCredential() ? c.applicationCredentialSecret : c.password) = r.secret;
        open(c);
    };
    emit secretWanted(config->secretKey());
}

void ConnectionWorker::secretRead(const SecretResult &result)
{
    if (const auto read = std::exchange(m_secretRead, {}))
        read(result);
}

void ConnectionWorker::listKlusters()
{
    if (m_spec.isSnapshot()) {
        QStringList names = snapshotFolders(m_spec.snapshotPath).keys();
        names.sort();
        const QString none = tr("%1 holds no snapshot folder (no kluster.json)").arg(m_spec.snapshotPath);
        emit klustersListed(names, names.isEmpty() ? Error::of(Error::Kind::Io, none) : Error());
        return;
    }
    const int generation = ++m_listGeneration;
    m_listing = true;
    const auto listed = [this, generation](const QStringList &names, const Error &error) {
        if (generation != m_listGeneration)
            return; // cancelled, or asked for again meanwhile
        m_listing = false;
        if (const std::shared_ptr<const Credentials> who = m_session ? m_session->credentials() : nullptr)
            emit identityRead(who->identity.summary());
        if (error.isError()) { // nothing let go: the klusters known stay, their data stale
            emit klustersListed(names, error);
            return;
        }
        const QStringList mine = settleListing(names);
        if (m_spec.shard)
            emit shardListed(int(mine.size()), int(names.size()));
        emit klustersListed(mine, error);
    };
    withSession([this, listed](const Error &error) {
        if (error.isError()) {
            listed({}, error);
            return;
        }
        m_listCall = m_session->send(QStringLiteral("kubernikus"), "GET", QStringLiteral("/api/v1/clusters"));
        connect(m_listCall, &HttpCall::finished, this, [this, listed](const ApiResponse &r) {
            if (r.error.isError()) {
                listed({}, r.error);
                return;
            }
            const QJsonDocument doc = QJsonDocument::fromJson(r.body);
            if (!doc.isArray()) {
                const QString notAList = tr("kubernikus GET /api/v1/clusters: HTTP %1: expected a JSON list "
                                            "of klusters")
                                             .arg(r.status);
                listed({}, Error::of(Error::Kind::Malformed, notAList));
                return;
            }
            QStringList names;
            m_listed.clear();
            for (const QJsonValue v : doc.array()) {
                const QJsonObject kluster = v.toObject();
                const QString name = kluster.value(QStringLiteral("name")).toString();
                names << name;
                if (!name.isEmpty()) // what the refreshes this listing asks for read
                    m_listed.insert(name, QJsonDocument(kluster).toJson(QJsonDocument::Compact));
            }
            names.removeAll(QString());
            names.sort();
            // The klusters gone that left volumes behind, listed after the others (optional: without Cinder,
            // or when its volumes cannot be read, the listing is Kubernikus' alone).
            if (m_session->endpoint(QStringLiteral("volumev3")).isEmpty() || !m_volumes) {
                listed(names, Error());
                return;
            }
            m_volumes->request(QDateTime::currentDateTimeUtc(), this,
                [this, listed, names](const std::shared_ptr<const SharedPage> &page) {
                    QStringList all = names;
                    if (!page->error.isError()) {
                        try {
                            const QList<Volume> volumes = page->parsed<QList<Volume>>([&page] {
                                return Debris::parseVolumes(Sources::name(Source::Volumes), page->object);
                            });
                            all += Debris::goneKlusters(volumes, names, m_session->projectId());
                        } catch (const ParseError &) {
                            // Said where a gone or Terminating kluster's volumes are judged.
                        }
                    }
                    listed(all, Error());
                });
        });
    });
}

QStringList ConnectionWorker::settleListing(const QStringList &names)
{
    QStringList mine = names;
    if (m_spec.shard && !m_spec.shard->isWhole()) {
        // By the kluster's identity (core/shard.h): the same shard whichever replica, machine or cloud name
        // reads it.
        const QString region = m_spec.config ? m_spec.config->regionName : QString();
        const QString project = m_session ? m_session->projectId() : QString();
        const Shard shard = *m_spec.shard;
        mine.removeIf([&](const QString &k) { return !shard.contains(Shard::key(region, project, k)); });
    }
    // A kluster no longer listed (deleted, or left nothing behind), or not this shard's: what is kept of it
    // goes, so that a cloud whose klusters come and go does not grow this process.
    const QSet<QString> kept(mine.cbegin(), mine.cend());
    m_listed.removeIf(
        [&kept](const std::pair<const QString &, QByteArray &> &e) { return !kept.contains(e.first); });
    const auto known = [&] {
        QSet<QString> all;
        for (const auto *table : { &m_kubeTargets, &m_credentials })
            for (auto it = table->cbegin(); it != table->cend(); ++it)
                all.insert(it.key());
        for (auto it = m_turnedAway.cbegin(); it != m_turnedAway.cend(); ++it)
            all.insert(it.key());
        all.unite(m_listNodesNext);
        all.unite(m_watches->klusters());
        return all;
    }();
    for (const QString &k : known) {
        if (kept.contains(k) || m_fetchers.value(k))
            continue; // listed, or a refresh of it under way (what it keeps goes at the next listing)
        m_kubeTargets.remove(k);
        m_credentials.remove(k);
        m_turnedAway.remove(k);
        m_listNodesNext.remove(k);
        m_watches->forget(k);
        m_routeHistories.forget(k);
    }
    return mine;
}

void ConnectionWorker::cancelListing()
{
    if (!m_listing)
        return;
    m_listing = false;
    ++m_listGeneration; // its answer, when it comes, is dropped
    if (m_listCall)
        m_listCall->cancel();
    emit klustersListed({}, Error::of(Error::Kind::Cancelled, tr("listing cancelled")));
}

void ConnectionWorker::refresh(const QString &kluster, bool urgent, const QDateTime &askedAt)
{
    if (m_spec.isSnapshot()) {
        refreshSnapshot(kluster);
        return;
    }
    m_queue->ask(kluster, askedAt.isValid() ? askedAt : QDateTime::currentDateTimeUtc(), urgent);
}

void ConnectionWorker::refresh(const QStringList &klusters, const QDateTime &askedAt)
{
    for (const QString &k : klusters)
        refresh(k, false, askedAt);
}

void ConnectionWorker::finishRefresh(const RefreshResult &result)
{
    emit refreshed(result);
    m_queue->finished();
}

bool ConnectionWorker::requeueTurnedAway(const RefreshResult &result, const QDateTime &askedAt)
{
    // Only what the project's klusters share (Keystone, Nova, Neutron, Kubernikus) slows the connection: a
    // kluster's own API turning it away is that kluster's.
    qint64 pauseMs = -1;
    for (const SourceError &e : result.errors) {
        const bool shared = e.error.service != QLatin1String("kubernetes");
        const bool turnedAway = e.error.kind == Error::Kind::Held || e.error.status == 429;
        if (!shared || !turnedAway || !m_session)
            continue;
        // Held for failing (down, refusing, 5xx): the refresh fails as it is; held after a 429: it waits.
        const QString endpoint = EndpointHealth::endpointOf(QUrl(m_session->endpoint(e.error.service)));
        const qint64 asked = EndpointHealth::shared().pauseLeftMs(endpoint);
        if (e.error.kind == Error::Kind::Held && asked <= 0)
            continue;
        pauseMs = qMax(pauseMs, qMax<qint64>(PauseAtLeastMs, asked));
    }
    const QString &kluster = result.key.kluster;
    if (pauseMs < 0) {
        m_turnedAway.remove(kluster);
        return false;
    }
    if (++m_turnedAway[kluster] > TurnedAwayAtMost) {
        m_turnedAway.remove(kluster);
        return false; // said as it is: the cloud keeps turning it away
    }
    m_queue->again(kluster, askedAt, pauseMs);
    return true;
}

void ConnectionWorker::startRefresh(const QString &kluster, const QDateTime &started)
{
    auto timer = std::make_shared<QElapsedTimer>();
    timer->start();
    // `started`, when it was asked for: the data is at least this old; what the project's klusters share may
    // come from a fetch that began since.
    withSession([this, kluster, timer, started](const Error &error) {
        RefreshResult result;
        result.key.connection = m_spec.name;
        result.key.kluster = kluster;
        if (error.isError()) {
            result.errors = failedAsAWhole(error);
            finishRefresh(result);
            return;
        }
        auto *fetcher = new KlusterFetcher(m_session.get(), kluster, this);
        if (!m_spec.kubeContext.isEmpty()) {
            QString kubeError;
            const std::optional<Kubeconfig> kubeconfig = Kubeconfig::load({}, &kubeError);
            const std::optional<KubeTarget> target
                = kubeconfig ? kubeconfig->target(m_spec.kubeContext, &kubeError) : std::nullopt;
            if (!target) {
                delete fetcher;
                const QString why = tr("kubeconfig context %1: %2").arg(m_spec.kubeContext, kubeError);
                result.errors = failedAsAWhole(Error::of(Error::Kind::Config, why));
                finishRefresh(result);
                return;
            }
            fetcher->setKubeTarget(*target);
            m_kubeTarget = target;
        }
        const bool cachedCredentials = m_spec.kubeContext.isEmpty() && m_credentials.contains(kluster);
        if (cachedCredentials)
            fetcher->setKubeTarget(m_credentials.value(kluster));
        if (const QByteArray listed = m_listed.take(kluster); !listed.isEmpty())
            fetcher->setListedKluster(listed);
        if (m_spec.options.routeLimitExplicit)
            fetcher->setRouteLimit(m_spec.options.routeLimit);
        fetcher->setServerCache(m_servers.get(), started);
        fetcher->setSharedLists(m_securityGroups.get(), m_extensions.get());
        fetcher->setDebrisLists(m_volumes.get(), m_loadBalancers.get());
        fetcher->setNodesFromCache(true);
        // While the nodes' watch is connected they are not listed again, but for every tenth refresh (a
        // safety net, as for the servers).
        const bool watched = m_watches->coversNextRefresh(kluster);
        // A healthy kluster nobody looks at: its last node list stands while young enough (checked against
        // its instances once the refresh is in).
        const RefreshResult *last = m_watches->latest(kluster);
        const QDateTime listedAt = !last || !last->fetch ? QDateTime()
            : last->fetch->nodesListedAt.isValid()       ? last->fetch->nodesListedAt
                                                         : last->fetchedAt;
        const bool reused = !watched && !m_listNodesNext.remove(kluster) && last && last->fetch
            && last->diagnosis && last->errors.isEmpty() && last->fetch->state.nodesSource.known
            && !m_watches->wants(kluster, last->diagnosis.get()) && listedAt.isValid()
            && listedAt.secsTo(started) < SlowNodeListSeconds;
        fetcher->setNodesWatched(watched || reused);
        fetcher->setKubernikusEvents(m_watches->isShown(kluster)); // its timeline, for the one looked at
        fetcher->setAccessReviews(m_watches->isShown(kluster)); // may its Kubernetes writes be made
        m_fetchers.insert(kluster, fetcher);
        connect(fetcher, &KlusterFetcher::finished, this,
            [this, fetcher, kluster, result, timer, started, watched, reused, listedAt, cachedCredentials](
                const KlusterFetch &fetched) mutable {
                fetcher->deleteLater();
                const bool cancelled = m_fetchers.value(kluster) != fetcher;
                m_fetchers.remove(kluster);
                if (!cancelled && cachedCredentials && nodesRefused(fetched)) {
                    // The credentials kept from the last refresh are no longer good: again, with new ones.
                    m_credentials.remove(kluster);
                    startRefresh(kluster, started); // in the place it has in line
                    return;
                }
                KlusterFetch fetch = fetched;
                const RefreshResult *kept = m_watches->latest(kluster);
                const std::shared_ptr<const KlusterFetch> latest = kept ? kept->fetch : nullptr;
                if (reused && latest && !cancelled
                    && KlusterMembers::digest(fetched.state) != KlusterMembers::digest(latest->state)) {
                    // One of its instances changed: its nodes listed after all, now.
                    m_listNodesNext.insert(kluster);
                    startRefresh(kluster, started);
                    return;
                }
                if ((watched || reused) && latest) {
                    // The nodes as their watch has them now (changes during the refresh included).
                    fetch.state.nodes = latest->state.nodes;
                    fetch.state.nodesSource = latest->state.nodesSource;
                    fetch.bodies.insert(Source::Nodes, latest->bodies.value(Source::Nodes));
                    fetch.nodesResourceVersion = latest->nodesResourceVersion;
                    fetch.nodesWatched = latest->nodesWatched;
                    if (reused)
                        fetch.nodesListedAt = listedAt;
                }
                result.fetchedAt = started;
                result.elapsedMs = timer->elapsed();
                if (cancelled) {
                    result.cancelled = true;
                    result.errors
                        = failedAsAWhole(Error::of(Error::Kind::Cancelled, tr("refresh cancelled")));
                } else if (!fetch.state.klusterSource.known) {
                    // Nothing to diagnose without the kluster itself: keep the last data.
                    result.errors = fetch.errors;
                } else {
                    auto f = std::make_shared<KlusterFetch>(fetch);
                    m_routeHistories.apply(kluster, f->state);
                    result.diagnosis
                        = std::make_shared<const Diagnosis>(Diagnosis::run(f->state, m_spec.options));
                    result.fetch = std::move(f);
                    result.errors = fetch.errors;
                    if (fetcher->kubeTarget()) {
                        m_kubeTargets.insert(kluster, *fetcher->kubeTarget());
                        if (!nodesRefused(*result.fetch))
                            m_credentials.insert(kluster, *fetcher->kubeTarget());
                    }
                    m_watches->follow(kluster, result, !watched);
                }
                if (!cancelled && requeueTurnedAway(result, started))
                    return;
                finishRefresh(result);
            });
        fetcher->start();
    });
}

void ConnectionWorker::setShown(const QString &kluster)
{
    m_watches->setShown(kluster);
}

void ConnectionWorker::setKeptHistory(const QString &kluster, const KeptHistory &history)
{
    m_routeHistories.set(kluster, history);
}

void ConnectionWorker::cancelRefresh(const QString &kluster)
{
    if (m_queue->withdraw(kluster)) { // never started: cancelled as it waits
        RefreshResult result;
        result.key.connection = m_spec.name;
        result.key.kluster = kluster;
        result.cancelled = true;
        result.errors = failedAsAWhole(Error::of(Error::Kind::Cancelled, tr("refresh cancelled")));
        emit refreshed(result);
        return;
    }
    if (QPointer<KlusterFetcher> f = m_fetchers.take(kluster))
        f->cancel();
}

void ConnectionWorker::refreshSnapshot(const QString &kluster)
{
    RefreshResult result;
    result.key.connection = m_spec.name;
    result.key.kluster = kluster;
    const QString folder = snapshotFolders(m_spec.snapshotPath).value(kluster);
    if (folder.isEmpty()) {
        const QString none = tr("no snapshot of kluster %1 in %2").arg(kluster, m_spec.snapshotPath);
        result.errors = failedAsAWhole(Error::of(Error::Kind::Io, none));
        emit refreshed(result);
        return;
    }
    try {
        auto fetch = std::make_shared<KlusterFetch>();
        fetch->state = SnapshotReader::read(folder);
        for (Source source : Sources::all()) {
            Error error;
            if (const std::optional<QByteArray> bytes
                = SnapshotReader::readBody(QDir(folder).filePath(Sources::file(source)), &error))
                fetch->bodies.insert(source, KeptBody(*bytes));
        }
        result.fetchedAt = fetch->state.capturedAt;
        result.diagnosis = std::make_shared<const Diagnosis>(Diagnosis::run(fetch->state, m_spec.options));
        result.fetch = std::move(fetch);
    } catch (const ParseError &e) {
        result.errors = failedAsAWhole(e);
    }
    emit refreshed(result);
}
