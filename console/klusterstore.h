#pragma once

#include "core/diagnosis.h"
#include "core/exportedfleet.h"
#include "core/klusterfetch.h"
#include "core/klusterkey.h"
#include "core/nodewatchevent.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QStringList>
#include <memory>
#include <utility>

// What the console knows of one kluster: the last data read, and how its last refresh went.
struct KlusterData
{
    std::shared_ptr<const KlusterFetch> fetch;
    std::shared_ptr<const Diagnosis> diagnosis;
    QDateTime fetchedAt;
    QList<SourceError> error; // the last refresh failed: `fetch` is the last good data, stale (or none)
    QDateTime errorAt;
    QList<SourceError> incomplete; // the data shown is new but lacks the sources that could not be read
    qint64 elapsedMs = 0;
    NodeWatchStatus watch; // the nodes' watch: connected, last heard, or why not
    // A Prometheus connection's kluster: what its exporter gave (no fetch, no diagnosis).
    std::shared_ptr<const ExportedFleet::Kluster> exported;
    bool isStale() const { return !error.isEmpty(); }
    // The last refresh failed, or left sources unread: what the banner names.
    bool failedInPart() const { return isStale() || !incomplete.isEmpty(); }
};

// The console's state, without a widget: the klusters of each connection (in
// the order they were first listed), their data, the listings and refreshes
// under way, why a connection's klusters could not be listed, and the data
// replaced while a view may still show it (the retire pool, freed by whoever
// knows that no view does). Fed by the connections' results; its signals
// feed the views.
class KlusterStore : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(KlusterStore)

public:
    using Retired = QList<std::shared_ptr<const void>>;

    explicit KlusterStore(QObject *parent = nullptr);

    // Listing a connection's klusters.
    void setListing(const QString &connection);
    bool isListing(const QString &connection) const { return m_listing.contains(connection); }
    // The listing came back: `klusters`, or `error` (the klusters known so far stay). New klusters are added
    // (klustersAdded, once for the listing); when it succeeded, those it no longer lists are said to be gone
    // (klusterGone).
    void setListed(const QString &connection, const QStringList &klusters, const Error &error);
    // The listing was cancelled: the klusters known and how the last listing went stay as they were.
    void setListingCancelled(const QString &connection) { m_listing.remove(connection); }
    Error listingError(const QString &connection) const { return m_listingErrors.value(connection); }
    bool hasListingErrors() const { return !m_listingErrors.isEmpty(); }
    // The connection's klusters, listed now or before.
    QStringList klusters(const QString &connection) const { return m_klusters.value(connection); }
    // Forgets one kluster (one no longer listed, where nothing shows it gone: the fleet commands): its place
    // among the connection's klusters and its data (retired). A refresh of it under way stays counted.
    void forget(const KlusterKey &key);
    // Forgets the connection: its klusters, their data (retired), its listing and refreshes.
    void removeConnection(const QString &connection);

    // Refreshes under way, and with the listings, everything asked for that has not come back.
    void setRefreshing(const KlusterKey &key, bool refreshing);
    int pending() const { return int(m_listing.size() + m_refreshing.size()); }

    // A refresh read the kluster; `incomplete`: the sources it could not read (the rest is fresh). The data
    // replaced is retired.
    void setFetched(const KlusterKey &key, const std::shared_ptr<const KlusterFetch> &fetch,
        const std::shared_ptr<const Diagnosis> &diagnosis, const QDateTime &fetchedAt, qint64 elapsedMs,
        const QList<SourceError> &incomplete);
    // The nodes' watch brought changes: `fetch` (the last refresh's with them) replaces the data shown; when
    // it was fetched and what failed then stay as they were. Ignored while a refresh failed (stale data
    // stays what it was).
    void setNodesChanged(const KlusterKey &key, const std::shared_ptr<const KlusterFetch> &fetch,
        const std::shared_ptr<const Diagnosis> &diagnosis);
    void setWatchStatus(const KlusterKey &key, const NodeWatchStatus &status);
    // A Prometheus connection's round gave the kluster (klusterFetched): what its exporter read at
    // `fetchedAt`, stale or not as the exporter's reading says.
    void setExported(const KlusterKey &key, const std::shared_ptr<const ExportedFleet::Kluster> &exported,
        const QDateTime &fetchedAt);
    // A refresh failed: the last good data stays, stale.
    void setFailed(const KlusterKey &key, const QList<SourceError> &error, const QDateTime &at);
    const KlusterData *data(const KlusterKey &key) const;
    // Kubernikus listed it before, and no longer does.
    bool isGone(const KlusterKey &key) const { return m_gone.contains(key); }
    // The klusters known (a connection that lists none and failed counts as one) and those whose last
    // refresh failed or that are gone: what a round of refreshes came to.
    struct Counts
    {
        int klusters = 0;
        int failed = 0;
    };
    Counts counts() const;
    // The data of the connection's other klusters, in their order.
    QList<std::shared_ptr<const KlusterFetch>> otherFetches(const KlusterKey &key) const;

    // Data a view may still show, kept alive until takeRetired() hands it over to be freed.
    void retire(const Retired &data) { m_retired << data; }
    Retired takeRetired() { return std::exchange(m_retired, {}); }

signals:
    // The klusters a listing added, in its order, once for the listing: what a view follows to add a thousand
    // rows at once rather than one by one.
    void klustersAdded(const QString &connection, const QStringList &klusters);
    void klusterGone(const KlusterKey &key); // listed before, no longer
    void klusterFetched(const KlusterKey &key);
    void klusterFailed(const KlusterKey &key);
    void listingErrorChanged(const QString &connection); // set, changed or cleared
    void connectionRemoved(const QString &connection);

private:
    void retire(const KlusterData &data);

    QHash<QString, QStringList> m_klusters;
    QHash<KlusterKey, KlusterData> m_data;
    QSet<QString> m_listing;
    QHash<QString, Error> m_listingErrors;
    QSet<KlusterKey> m_refreshing;
    QSet<KlusterKey> m_gone;
    Retired m_retired;
};
