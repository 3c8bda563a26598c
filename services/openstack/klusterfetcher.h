#pragma once

#include "core/klusterfetch.h"
#include "core/klusterstate.h"
#include "core/permissionverdict.h"
#include "services/http/httpclient.h"
#include "services/local/kubeconfig.h"
#include "services/openstack/keystonesession.h"
#include "services/openstack/pagedlist.h"
#include "services/openstack/servercache.h"

#include <QHash>
#include <QObject>
#include <memory>
#include <optional>

class KubernetesClient;
class ServerCache;

// Fetches a kluster concurrently: the kluster (Kubernikus), the project's
// servers (all pages), the router, the security groups, the Neutron
// extensions, and the nodes (all chunks) from the kluster's API server (a
// kubeconfig context given, or the credentials Kubernikus hands out). A source
// that fails is reported with its error, never read as empty.
class KlusterFetcher : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(KlusterFetcher)

public:
    KlusterFetcher(KeystoneSession *session, const QString &kluster, QObject *parent = nullptr);
    ~KlusterFetcher() override;

    // Nodes from this kubeconfig target instead of the Kubernikus credentials.
    void setKubeTarget(const KubeTarget &target) { m_kubeTarget = target; }
    // The API server the nodes were listed from (given, or handed out by Kubernikus), once known.
    const std::optional<KubeTarget> &kubeTarget() const { return m_kubeTarget; }
    void setRouteLimit(std::optional<int> limit) { m_routeLimit = limit; }
    // Nodes as the API server's watch cache has them (`resourceVersion=0`): cheaper for it, as fresh as a
    // console's periodic refresh needs. Off: the latest, from etcd (the command line).
    void setNodesFromCache(bool fromCache) { m_nodesFromCache = fromCache; }
    // The nodes are kept up to date by a watch: not listed (nodesSource stays "not fetched"); the caller puts
    // the watched ones in.
    void setNodesWatched(bool watched) { m_nodesWatched = watched; }
    // Reads what Kubernikus recorded about the kluster too (its timeline; optional, one request more): for
    // `check`, a snapshot, and the kluster a person looks at, not for every kluster of a round.
    void setKubernikusEvents(bool read) { m_kubernikusEvents = read; }
    // Asks the kluster's API server whether these credentials may make Flightdeck's Kubernetes writes
    // (SelfSubjectAccessReview: delete nodes, create events; diagnosis.md §8): two requests more, for
    // `check`, `repair` and the kluster a person looks at.
    void setAccessReviews(bool review) { m_accessReviews = review; }
    // The project's servers from `cache` (shared with the project's other klusters, kept between refreshes),
    // fetched no earlier than `notBefore`; without one, they are listed whole.
    void setServerCache(ServerCache *cache, const QDateTime &notBefore)
    {
        m_serverCache = cache;
        m_notBefore = notBefore;
    }
    // The project's security groups and Neutron's extensions from these, shared with its other klusters;
    // without them, fetched for this refresh alone.
    // The kluster as a listing just gave it (compact JSON): read instead of asking for it again.
    void setListedKluster(const QByteArray &body) { m_listedKluster = body; }
    void setSharedLists(SharedList *securityGroups, SharedList *extensions)
    {
        m_securityGroups = securityGroups;
        m_extensions = extensions;
    }
    // The project's Cinder volumes and Octavia load balancers (diagnosis.md §9), shared with its other
    // klusters; read only for a kluster that is Terminating or gone.
    void setDebrisLists(SharedList *volumes, SharedList *loadBalancers)
    {
        m_volumes = volumes;
        m_loadBalancers = loadBalancers;
    }
    // Reads the project's volumes and load balancers whatever the kluster's phase (a repair asked for one of
    // them by id: why it is not offered is said from them).
    void setDebrisAlways(bool read) { m_debrisAlways = read; }
    // What the project's klusters share: the servers kept between refreshes, the security groups, the
    // extensions, the volumes and load balancers. Made by the caller once per project and handed to each
    // fetcher.
    static SharedList *sharedSecurityGroups(KeystoneSession *session, QObject *parent);
    static SharedList *sharedExtensions(KeystoneSession *session, QObject *parent);
    static SharedList *sharedVolumes(KeystoneSession *session, QObject *parent);
    static SharedList *sharedLoadBalancers(KeystoneSession *session, QObject *parent);

    void start();
    void cancel();

    // The kluster's Kubernetes API as Kubernikus hands it out (`GET /api/v1/clusters/{name}/credentials`):
    // `done` gets the target, or why not, in `context`. Returns the call (to abort it with the context).
    static HttpCall *requestCredentials(KeystoneSession *session, const QString &kluster, QObject *context,
        const std::function<void(const std::optional<KubeTarget> &, const Error &)> &done);

signals:
    void finished(const KlusterFetch &result);

private:
    void fetchNodes(KubernetesClient *client);
    void partDone();
    void fetchDevice();
    void fetchKubernikusEvents();
    // What the kluster left behind: its project's volumes and load balancers, where the catalog has them.
    void fetchDebris();
    // Kubernikus answered 404: the kluster is gone; what it left behind is what is diagnosed.
    void noteGone();
    void reviewAccess(KubernetesClient *client);
    // Settles one source with what reading it gave: known, its body kept; or failed with why. Returns
    // whether it was read.
    bool settle(SourceStatus &status, Source source, const KeptBody &body, const Error &error,
        const QString &assumed = QString());
    bool settle(SourceStatus &status, Source source, const QByteArray &body, const Error &error,
        const QString &assumed = QString())
    {
        return settle(status, source, KeptBody(body), error, assumed);
    }
    void fail(SourceStatus &status, Source source, const Error &error, const QString &assumed = QString());

    KeystoneSession *m_session;
    bool m_accessReviews = false;
    QHash<QString, PermissionVerdict> m_kubernetesVerdicts; // "delete nodes" → what the API server said
    QString m_kluster;
    std::optional<KubeTarget> m_kubeTarget;
    std::optional<int> m_routeLimit;
    QPointer<ServerCache> m_serverCache;
    QDateTime m_notBefore;
    QPointer<SharedList> m_securityGroups;
    QByteArray m_listedKluster;
    QPointer<SharedList> m_extensions;
    QPointer<SharedList> m_volumes;
    QPointer<SharedList> m_loadBalancers;
    bool m_gone = false;
    bool m_debrisAlways = false;
    // Waiting for what is shared: a cancel stops waiting (the fetch goes on for the others).
    bool m_nodesFromCache = false;
    bool m_nodesWatched = false;
    bool m_kubernikusEvents = false;
    bool m_serversPending = false;
    bool m_groupsPending = false;
    bool m_extensionsPending = false;
    bool m_routerSettled = false; // the router's and the extensions' answers are in: the devices may follow
    bool m_extensionsSettled = false;
    KlusterFetch m_result;
    int m_outstanding = 0;
    bool m_done = false;
    QList<QPointer<HttpCall>> m_calls;
    qint64 m_requestsAtStart = 0;
    qint64 m_bytesAtStart = 0;
};
