#pragma once

#include "core/klusterfetch.h"
#include "core/klusterstate.h"
#include "services/httpclient.h"
#include "services/keystonesession.h"
#include "services/kubeconfig.h"

#include <QHash>
#include <QObject>
#include <memory>
#include <optional>

class KubernetesClient;

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
    void setRouteLimit(std::optional<int> limit) { m_routeLimit = limit; }

    void start();
    void cancel();

    // The kluster's Kubernetes API as Kubernikus hands it out (`GET /api/v1/clusters/{name}/credentials`):
    // `done` gets the target, or why not, in `context`. Returns the call (to abort it with the context).
    static HttpCall *requestCredentials(KeystoneSession *session, const QString &kluster, QObject *context,
        const std::function<void(const std::optional<KubeTarget> &, const Error &)> &done);

signals:
    void finished(const KlusterFetch &result);

private:
    // `done` gets the merged body and object, or why not; read, the error is empty but names the service.
    void fetchPages(const QString &service, const QString &path, const QString &collection,
        const std::function<void(const QByteArray &merged, const QJsonObject &object, const Error &)> &done);
    void fetchNodes(KubernetesClient *client);
    void partDone();
    // Settles one source with what reading it gave: known, its body kept as the snapshot's `file`; or
    // failed with why. Returns whether it was read.
    bool settle(SourceStatus &source, const QString &name, const QString &file, const QByteArray &body,
        const Error &error, const QString &assumed = QString());
    void fail(
        SourceStatus &source, const QString &name, const Error &error, const QString &assumed = QString());

    KeystoneSession *m_session;
    QString m_kluster;
    std::optional<KubeTarget> m_kubeTarget;
    std::optional<int> m_routeLimit;
    KlusterFetch m_result;
    int m_outstanding = 0;
    bool m_done = false;
    QList<QPointer<HttpCall>> m_calls;
    qint64 m_requestsAtStart = 0;
};
