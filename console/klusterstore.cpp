#include "console/klusterstore.h"

KlusterStore::KlusterStore(QObject *parent)
    : QObject(parent)
{ }

void KlusterStore::setListing(const QString &connection)
{
    m_listing.insert(connection);
}

void KlusterStore::setListed(const QString &connection, const QStringList &klusters, const Error &error)
{
    m_listing.remove(connection);
    if (error.toString() != m_listingErrors.value(connection).toString()) {
        if (!error.isError())
            m_listingErrors.remove(connection);
        else
            m_listingErrors.insert(connection, error);
        emit listingErrorChanged(connection);
    }
    QStringList &known = m_klusters[connection];
    // A round lists what the last one did, in its order: nothing added, nothing gone, nothing to hash (ten
    // thousand klusters of a Prometheus hashed three times held the window for 13 ms).
    if (!error.isError() && known == klusters) {
        if (!m_gone.isEmpty())
            m_gone.removeIf([&connection](const KlusterKey &key) { return key.connection == connection; });
        return;
    }
    // Looked up by hash: a listing of thousands compares each name once, not with every other.
    const QSet<QString> listed(klusters.cbegin(), klusters.cend());
    if (!m_gone.isEmpty()) {
        m_gone.removeIf([&connection, &listed](const KlusterKey &key) {
            return key.connection == connection && listed.contains(key.kluster);
        });
    }
    const bool first = known.isEmpty();
    QStringList added;
    if (first) { // nothing known: every name listed is new (each once)
        added = klusters;
        if (listed.size() != klusters.size())
            added.removeDuplicates();
        known = added;
    } else {
        QSet<QString> knownSet(known.cbegin(), known.cend());
        for (const QString &k : klusters) {
            if (!knownSet.contains(k)) {
                knownSet.insert(k);
                known << k;
                added << k;
            }
        }
    }
    if (!added.isEmpty())
        emit klustersAdded(connection, added);
    if (error.isError() || first)
        return;
    for (const QString &k : std::as_const(known)) {
        if (!listed.contains(k)) {
            m_gone.insert({ connection, k });
            emit klusterGone({ connection, k });
        }
    }
}

void KlusterStore::forget(const KlusterKey &key)
{
    if (const auto known = m_klusters.find(key.connection); known != m_klusters.end())
        known->removeAll(key.kluster);
    m_gone.remove(key);
    if (const auto it = m_data.find(key); it != m_data.end()) {
        retire(it.value());
        m_data.erase(it);
    }
}

void KlusterStore::removeConnection(const QString &connection)
{
    m_listing.remove(connection);
    m_listingErrors.remove(connection);
    m_klusters.remove(connection);
    m_refreshing.removeIf([&](const KlusterKey &key) { return key.connection == connection; });
    m_gone.removeIf([&](const KlusterKey &key) { return key.connection == connection; });
    for (auto it = m_data.begin(); it != m_data.end();) {
        if (it.key().connection == connection) {
            retire(it.value());
            it = m_data.erase(it);
        } else {
            ++it;
        }
    }
    emit connectionRemoved(connection);
}

void KlusterStore::setRefreshing(const KlusterKey &key, bool refreshing)
{
    if (refreshing)
        m_refreshing.insert(key);
    else
        m_refreshing.remove(key);
}

void KlusterStore::setFetched(const KlusterKey &key, const std::shared_ptr<const KlusterFetch> &fetch,
    const std::shared_ptr<const Diagnosis> &diagnosis, const QDateTime &fetchedAt, qint64 elapsedMs,
    const QList<SourceError> &incomplete)
{
    KlusterData &d = m_data[key];
    retire(d);
    d.fetch = fetch;
    d.diagnosis = diagnosis;
    d.fetchedAt = fetchedAt;
    d.elapsedMs = elapsedMs;
    d.error.clear();
    d.errorAt = QDateTime();
    d.incomplete = incomplete;
    emit klusterFetched(key);
}

void KlusterStore::setExported(const KlusterKey &key,
    const std::shared_ptr<const ExportedFleet::Kluster> &exported, const QDateTime &fetchedAt)
{
    KlusterData &d = m_data[key];
    d.exported = exported;
    d.fetchedAt = fetchedAt;
    d.error.clear();
    d.errorAt = QDateTime();
    d.incomplete.clear();
    emit klusterFetched(key);
}

void KlusterStore::setNodesChanged(const KlusterKey &key, const std::shared_ptr<const KlusterFetch> &fetch,
    const std::shared_ptr<const Diagnosis> &diagnosis)
{
    const auto it = m_data.find(key);
    if (it == m_data.end() || !it->fetch || it->isStale())
        return;
    retire(*it);
    it->fetch = fetch;
    it->diagnosis = diagnosis;
    emit klusterFetched(key);
}

void KlusterStore::setWatchStatus(const KlusterKey &key, const NodeWatchStatus &status)
{
    const auto it = m_data.find(key);
    if (it != m_data.end())
        it->watch = status;
}

void KlusterStore::setFailed(const KlusterKey &key, const QList<SourceError> &error, const QDateTime &at)
{
    KlusterData &d = m_data[key];
    d.error = error;
    d.errorAt = at;
    emit klusterFailed(key);
}

const KlusterData *KlusterStore::data(const KlusterKey &key) const
{
    const auto it = m_data.constFind(key);
    return it == m_data.cend() ? nullptr : &it.value();
}

KlusterStore::Counts KlusterStore::counts() const
{
    Counts c;
    for (auto it = m_klusters.cbegin(); it != m_klusters.cend(); ++it) {
        if (it->isEmpty()) {
            // A connection that lists nothing is one row of its own (its error, when it has one).
            c.klusters += m_listingErrors.contains(it.key()) ? 1 : 0;
            continue;
        }
        for (const QString &k : *it) {
            ++c.klusters;
            const KlusterData *d = data({ it.key(), k });
            if ((d && d->isStale()) || m_gone.contains({ it.key(), k }))
                ++c.failed;
        }
    }
    for (auto it = m_listingErrors.cbegin(); it != m_listingErrors.cend(); ++it) {
        if (!m_klusters.contains(it.key()))
            ++c.klusters;
    }
    return c;
}

QList<std::shared_ptr<const KlusterFetch>> KlusterStore::otherFetches(const KlusterKey &key) const
{
    QList<std::shared_ptr<const KlusterFetch>> fetches;
    for (const QString &k : m_klusters.value(key.connection)) {
        const KlusterData *d = data({ key.connection, k });
        if (k != key.kluster && d && d->fetch)
            fetches << d->fetch;
    }
    return fetches;
}

void KlusterStore::retire(const KlusterData &data)
{
    if (data.fetch)
        m_retired << data.fetch << data.diagnosis;
}
