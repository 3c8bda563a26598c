#pragma once

#include "core/repairgate.h"
#include "services/connection.h"
#include "services/http/httpclient.h"
#include "services/local/secretstore.h"
#include "services/openstack/keystonesession.h"
#include "services/openstack/servercache.h"
#include "services/refreshqueue.h"
#include "services/repair/auditlog.h"
#include "services/repair/repairsession.h"
#include "services/routehistories.h"
#include "services/watchedklusters.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <functional>
#include <memory>

// The part of a Connection that lives on the worker thread: the HTTP client,
// the Keystone session, the fetchers and the repairs. Its functions are only
// ever called on that thread (Connection posts them there); its signals reach
// the Connection queued.
class ConnectionWorker : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectionWorker)

public:
    explicit ConnectionWorker(const ConnectionSpec &spec);
    ~ConnectionWorker() override;

    // The project's klusters, and those Kubernikus no longer lists that left volumes behind (diagnosis.md
    // §9).
    void listKlusters();
    // Stops waiting for a listing under way: said at once as a cancelled listing; its answer is dropped.
    void cancelListing();
    // `askedAt`: when the console asked (its data is to be no older); invalid: now. A round's klusters are
    // asked at one moment, so that the first one's fetch of what they share serves them all.
    void refresh(const QString &kluster, bool urgent = false, const QDateTime &askedAt = QDateTime());
    void refresh(const QStringList &klusters, const QDateTime &askedAt);
    void cancelRefresh(const QString &kluster);
    void setShown(const QString &kluster);
    void setKeptHistory(const QString &kluster, const KeptHistory &history);
    // Sends the plan confirmed (core/repairproposal.h), once the kluster read again gives the same plan.
    void repair(const std::shared_ptr<const RepairProposal> &confirmed, bool override);
    void cancelRepair(); // before the next step
    // The kluster's repair Events (core/repairevent.h), what teammates' consoles and commands wrote:
    // repairEventsRead() with them, or why they could not be read.
    void readRepairEvents(const QString &kluster);
    // Writes one repair Event to the kluster (a handed-over repair verified): repairEventWritten() says how.
    void writeRepairEvent(const QString &kluster, RepairEvent event);
    // A server's boot evidence from Nova (bootEvidenceRead() with it, each part read or why not).
    void readBootEvidence(const QString &kluster, const BootEvidences::Server &server);
    void setEventInstance(const QString &instance) { m_eventInstance = instance; }
    void secretRead(const SecretResult &result); // the answer to secretWanted()

signals:
    void klustersListed(const QStringList &klusters, const Error &error);
    void shardListed(int inShard, int listed); // Connection::shardListed
    // Who the token is, with which roles and scope (TokenIdentity::summary), once signed in: before
    // klustersListed.
    void identityRead(const QString &summary);
    void refreshed(const RefreshResult &result);
    void nodesChanged(const RefreshResult &result);
    void watchStatusChanged(const QString &kluster, const NodeWatchStatus &status);
    void relistWanted(const QString &kluster); // the node watch cannot go on: refresh the kluster
    void repairProgress(const QString &findingId, const QString &message);
    void repairStepFinished(const QString &findingId, const RepairExecutor::Outcome &outcome);
    void repairFinished();
    // The plan confirmed no longer holds (the kluster read just before sending gives another): nothing was
    // sent; `fresh` is the plan to show and confirm again.
    void repairReplanned(const std::shared_ptr<const RepairProposal> &fresh, const QStringList &differences);
    void repairEventsRead(const QString &kluster, const QList<RepairEvent> &events, const Error &error);
    void repairEventWritten(const QString &kluster, const QString &outcome); // "RepairVerified written"
    void bootEvidenceRead(const QString &kluster, const BootEvidence &evidence);
    // The session needs the secret stored under `key` in the keychain: answer with secretRead().
    void secretWanted(const QString &key);

private:
    // Calls `then` with a session (or the reason there is none), once the
    // cloud is loaded and its secret read from the keychain if needed.
    void withSession(std::function<void(const Error &error)> then);
    // Calls `then` with where the kluster's Kubernetes API is reached and with what (or why it is not known).
    void withKubeTarget(const QString &kluster,
        const std::function<void(const std::optional<KubeTarget> &, const Error &)> &then);
    void refreshSnapshot(const QString &kluster);
    // After a listing: this shard's klusters of `names` (all of them without a shard), and what is kept of a
    // kluster no longer among them (its node watch and the data it applies to, its credentials) let go.
    QStringList settleListing(const QStringList &names);
    // Refreshes `kluster` with data fetched no earlier than `askedAt`.
    void startRefresh(const QString &kluster, const QDateTime &askedAt);
    // Emits refreshed(), and lets the next refresh in line go.
    void finishRefresh(const RefreshResult &result);
    // A refresh the cloud turned away (429, or held by the endpoint's backoff): back in line, first, and the
    // whole connection pauses for as long as the cloud asked. False when it has been turned away too often.
    bool requeueTurnedAway(const RefreshResult &result, const QDateTime &askedAt);

    ConnectionSpec m_spec;
    std::unique_ptr<HttpClient> m_client;
    std::unique_ptr<KeystoneSession> m_session;
    // What the project's klusters share: its servers (kept between refreshes), security groups, extensions.
    std::unique_ptr<ServerCache> m_servers;
    std::unique_ptr<SharedList> m_securityGroups;
    std::unique_ptr<SharedList> m_extensions;
    std::unique_ptr<SharedList> m_volumes; // read for the listing (klusters gone) and Terminating klusters
    std::unique_ptr<SharedList> m_loadBalancers;
    bool m_preparing = false;
    int m_listGeneration = 0; // of the listing under way (an answer of an earlier one is dropped)
    bool m_listing = false;
    QPointer<HttpCall> m_listCall;
    QList<std::function<void(const Error &)>> m_waiting;
    QHash<QString, QPointer<KlusterFetcher>> m_fetchers;
    // Refreshes in line (ConnectionSpec::refreshConcurrency at once; a session being opened counts).
    RefreshQueue *m_queue;
    QPointer<RepairSession> m_repair; // the run under way
    bool m_cancelPending = false; // Stop asked for before the run's session existed
    std::optional<KubeTarget> m_kubeTarget;
    std::function<void(const SecretResult &)> m_secretRead;
    // The nodes watched, and the data they are applied to (each kluster's last refresh, with the changes).
    WatchedKlusters *m_watches;
    QHash<QString, KubeTarget> m_kubeTargets; // what each kluster's last refresh listed its nodes with
    // The credentials each kluster's nodes were last listed with, for the next refresh (one request fewer);
    // dropped when the kluster's API refuses them.
    QHash<QString, KubeTarget> m_credentials;
    // Each kluster as the last listing gave it (compact JSON): the refresh that listing asked for reads it
    // instead of asking again.
    QHash<QString, QByteArray> m_listed;
    QSet<QString> m_listNodesNext; // klusters whose nodes the next refresh lists, whatever their pace
    RouteHistories m_routeHistories;
    QHash<QString, int> m_turnedAway; // refreshes of a kluster turned away in a row
    QString m_eventInstance; // who this console's repairs are written as (RepairEvent::instance)
    QSet<QString> m_readingEvents; // klusters whose Events are being read
    AuditLog::Reader m_auditLog; // which repairs this machine made: read as it grows, on this thread
};
