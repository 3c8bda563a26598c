// HistoryStore's queries: what the views and the command line read back (open findings, intervals, the
// trends' samples, repairs, stored moments and their digests).
#include "core/statedigest.h"
#include "services/history/historysql.h"
#include "services/history/historystore.h"
#include "services/local/inputlimits.h"

#include <QFileInfo>
#include <QSqlQuery>

using HistorySql::fromMs;
using HistorySql::ms;
using HistorySql::sqlError;

namespace {

// A stored severity; a name no version of this program wrote reads as a warning.
Severity severityOf(const QVariant &stored)
{
    return severityFromName(stored.toString()).value_or(Severity::Warning);
}

} // namespace

QHash<QString, FindingHistory> HistoryStore::openFindings(const QString &kluster, const QDateTime &now)
{
    QHash<QString, FindingHistory> result;
    const qint64 id = m_open ? klusterId(kluster, false, 0) : 0;
    if (id == 0)
        return result;
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(
        QStringLiteral("SELECT finding, first_seen, before_history FROM intervals WHERE kluster = ? AND "
                       "resolved_at IS NULL"));
    q.addBindValue(id);
    if (!q.exec()) {
        fail(QStringLiteral("cannot read"), sqlError(q.lastError()));
        return result;
    }
    while (q.next()) {
        FindingHistory h;
        h.firstSeen = fromMs(q.value(1));
        h.beforeHistory = q.value(2).toInt() != 0;
        result.insert(q.value(0).toString(), h);
    }
    q.prepare(
        QStringLiteral("SELECT finding, COUNT(*) FROM intervals WHERE kluster = ? AND (resolved_at IS NULL "
                       "OR resolved_at >= ?) GROUP BY finding HAVING COUNT(*) > 1"));
    q.addBindValue(id);
    q.addBindValue(ms(now) - 24 * 3600 * 1000);
    if (q.exec()) {
        while (q.next()) {
            const auto it = result.find(q.value(0).toString());
            if (it != result.end())
                it->intervalsLastDay = q.value(1).toInt();
        }
    }
    return result;
}

namespace {

// An open interval was last seen on its kluster's last refresh that saw the findings.
const QString LastSeen = QStringLiteral("CASE WHEN resolved_at IS NULL THEN (SELECT last_seen FROM klusters "
                                        "WHERE klusters.id = intervals.kluster) "
                                        "ELSE last_seen END");

FindingInterval intervalOf(const QSqlQuery &q)
{
    FindingInterval i;
    i.finding = q.value(0).toString();
    i.severity = severityOf(q.value(1));
    i.firstSeen = fromMs(q.value(2));
    i.lastSeen = fromMs(q.value(3));
    i.resolvedAt = fromMs(q.value(4));
    i.beforeHistory = q.value(5).toInt() != 0;
    return i;
}

} // namespace

void HistoryStore::eachRow(const QString &kluster, const QString &select, const QVariantMap &values,
    const std::function<void(const QSqlQuery &)> &row)
{
    const qint64 id = m_open ? klusterId(kluster, false, 0) : 0;
    if (id == 0)
        return;
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(select);
    q.bindValue(QStringLiteral(":k"), id);
    for (auto it = values.cbegin(); it != values.cend(); ++it)
        q.bindValue(it.key(), it.value());
    if (q.exec()) {
        while (q.next())
            row(q);
    }
}

QList<FindingInterval> HistoryStore::intervalsWhere(
    const QString &kluster, const QString &condition, const QVariantMap &values)
{
    QList<FindingInterval> result;
    eachRow(kluster,
        QStringLiteral("SELECT finding, severity, first_seen, ") + LastSeen
            + QStringLiteral(
                ", resolved_at, before_history FROM intervals WHERE kluster = :k AND (%1) ORDER BY "
                "first_seen, id")
                  .arg(condition),
        values, [&result](const QSqlQuery &q) { result.append(intervalOf(q)); });
    return result;
}

QList<FindingInterval> HistoryStore::intervals(const QString &kluster, const QString &finding)
{
    return intervalsWhere(
        kluster, QStringLiteral("finding = :finding"), { { QStringLiteral(":finding"), finding } });
}

QList<FindingInterval> HistoryStore::intervalsBetween(
    const QString &kluster, const QDateTime &from, const QDateTime &to)
{
    return intervalsWhere(kluster,
        QStringLiteral("first_seen BETWEEN :f AND :t OR resolved_at BETWEEN :f AND :t"),
        { { QStringLiteral(":f"), ms(from) }, { QStringLiteral(":t"), ms(to) } });
}

QList<HistorySample> HistoryStore::samples(const QString &kluster, const QDateTime &from, const QDateTime &to)
{
    QList<HistorySample> result;
    const qint64 id = m_open ? klusterId(kluster, false, 0) : 0;
    if (id == 0)
        return result;
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral(
        "SELECT at, ok, duration_ms, routes, max_routes, instances_active, instances_error, "
        "instances_other, nodes_ready, nodes_expected, critical, warning, info, error, complete FROM "
        "samples WHERE kluster = ? AND at BETWEEN ? AND ? ORDER BY at"));
    q.addBindValue(id);
    q.addBindValue(ms(from));
    q.addBindValue(ms(to));
    if (!q.exec()) {
        fail(QStringLiteral("cannot read"), sqlError(q.lastError()));
        return result;
    }
    const auto orMinus = [](const QVariant &v) { return v.isNull() ? -1 : v.toInt(); };
    while (q.next()) {
        HistorySample s;
        s.at = fromMs(q.value(0));
        s.ok = q.value(1).toInt() != 0;
        s.durationMs = q.value(2).toLongLong();
        s.routes = orMinus(q.value(3));
        s.maxRoutes = orMinus(q.value(4));
        s.instancesActive = q.value(5).toInt();
        s.instancesError = q.value(6).toInt();
        s.instancesOther = q.value(7).toInt();
        s.nodesReady = q.value(8).toLongLong();
        s.nodesExpected = q.value(9).toLongLong();
        s.critical = q.value(10).toInt();
        s.warning = q.value(11).toInt();
        s.info = q.value(12).toInt();
        s.error = q.value(13).toString();
        s.complete = q.value(14).isNull() || q.value(14).toInt() != 0;
        result.append(s);
    }
    return result;
}

QList<HistoryStore::Repair> HistoryStore::repairs(
    const QString &kluster, const QDateTime &from, const QDateTime &to)
{
    QList<Repair> result;
    const qint64 id = m_open ? klusterId(kluster, false, 0) : 0;
    if (id == 0)
        return result;
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral(
        "SELECT at, finding, outcome FROM repairs WHERE kluster = ? AND at BETWEEN ? AND ? ORDER BY at"));
    q.addBindValue(id);
    q.addBindValue(ms(from));
    q.addBindValue(ms(to));
    if (q.exec()) {
        while (q.next())
            result.append({ fromMs(q.value(0)), q.value(1).toString(), q.value(2).toString() });
    }
    return result;
}

QList<HistoryMoment> HistoryStore::moments(const QString &kluster)
{
    QList<HistoryMoment> result;
    const qint64 id = m_open ? klusterId(kluster, false, 0) : 0;
    if (id == 0)
        return result;
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral(
        "SELECT id, at, critical, warning, complete FROM states WHERE kluster = ? ORDER BY id DESC"));
    q.addBindValue(id);
    if (q.exec()) {
        while (q.next())
            result.append({ q.value(0).toLongLong(), fromMs(q.value(1)), q.value(2).toInt(),
                q.value(3).toInt(), q.value(4).toInt() != 0 });
    }
    return result;
}

QByteArray HistoryStore::digest(qint64 momentId)
{
    if (!m_open)
        return {};
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT digest FROM states WHERE id = ?"));
    q.addBindValue(momentId);
    if (!q.exec() || !q.next())
        return {};
    return unpackDigest(q.value(0).toByteArray());
}

std::optional<RouteHistory> HistoryStore::routeHistory(const QString &kluster)
{
    QList<HistoryMoment> stored = moments(kluster); // newest first
    if (stored.isEmpty())
        return std::nullopt;
    // The newest few are the kluster's last changes, one after another; a last healthy state kept beyond them
    // may be days older, with changes pruned between: a route it held and the next one does not may have gone
    // at any time between the two, so it is left out.
    if (stored.size() > KeptStates)
        stored.resize(KeptStates);
    QHash<qint64, RouteHistory::Moment> &cache = m_routeMoments[kluster];
    QHash<qint64, RouteHistory::Moment> kept; // what the cache holds after this call: these moments only
    QList<RouteHistory::Moment> moments;
    for (auto m = stored.crbegin(); m != stored.crend(); ++m) { // as recorded: oldest first
        auto found = cache.constFind(m->id);
        RouteHistory::Moment moment;
        if (found != cache.cend()) {
            moment = *found;
        } else {
            QString error;
            const std::optional<StateDigest> d = StateDigest::fromJson(digest(m->id), &error);
            // Damaged: it says nothing (as a moment whose router was not read).
            moment = d
                ? RouteHistory::Moment { m->at, d->routes, !d->unknownSources.contains(Source::Router) }
                : RouteHistory::Moment { m->at, {}, false };
        }
        kept.insert(m->id, moment);
        moments.append(std::move(moment));
    }
    cache = std::move(kept);
    return RouteHistory::of(moments);
}

std::optional<RouteHistory> HistoryStore::readRouteHistory(const QString &kluster)
{
    if (!QFileInfo::exists(defaultPath()))
        return std::nullopt;
    HistoryStore store;
    store.setReadOnly(true);
    store.setBusyTimeout(100);
    return store.open() ? store.routeHistory(kluster) : std::nullopt;
}

QHash<QString, QDateTime> HistoryStore::readFindingsSince(const QString &kluster)
{
    QHash<QString, QDateTime> since;
    if (!QFileInfo::exists(defaultPath()))
        return since;
    HistoryStore store;
    store.setReadOnly(true);
    store.setBusyTimeout(100);
    if (!store.open())
        return since;
    // Only from a record of the last few minutes: a kluster last recorded days ago may have had its findings
    // resolved and opened again since, unseen; its old since-whens would call Kubernikus' automation overdue.
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QList<HistoryMoment> latest = store.moments(kluster);
    if (latest.isEmpty() || latest.constFirst().at.secsTo(now) > FreshRecordSeconds)
        return since;
    const QHash<QString, FindingHistory> open = store.openFindings(kluster, now);
    for (auto it = open.cbegin(); it != open.cend(); ++it)
        since.insert(it.key(), it->firstSeen);
    return since;
}

QDateTime HistoryStore::readLastSeen(const QString &kluster, const QString &name)
{
    if (!QFileInfo::exists(defaultPath()))
        return {};
    HistoryStore store;
    store.setReadOnly(true);
    store.setBusyTimeout(100);
    if (!store.open())
        return {};
    QDateTime last;
    const QString terminating = Finding::idOf(FindingKind::KlusterTerminating, name);
    for (const FindingInterval &i : store.intervals(kluster, terminating)) {
        if (!last.isValid() || i.lastSeen > last)
            last = i.lastSeen;
    }
    if (last.isValid())
        return last;
    const QList<HistoryMoment> moments = store.moments(kluster);
    return moments.isEmpty() ? QDateTime() : moments.constFirst().at;
}

QByteArray HistoryStore::unpackDigest(const QByteArray &stored)
{
    // qCompress' form: the size unpacked (4 bytes, big-endian), then zlib. A damaged file may claim
    // gigabytes: what a body may be is the most unpacked.
    if (stored.size() < 4)
        return {};
    const quint32 claimed = (quint32(uchar(stored[0])) << 24) | (quint32(uchar(stored[1])) << 16)
        | (quint32(uchar(stored[2])) << 8) | quint32(uchar(stored[3]));
    if (claimed > quint64(InputLimits::maxBodyBytes()))
        return {};
    return qUncompress(stored);
}

std::optional<HistoryMoment> HistoryStore::lastHealthy(const QString &kluster, const QDateTime &before)
{
    for (const HistoryMoment &m : moments(kluster)) {
        if (m.at < before && m.healthy())
            return m;
    }
    return std::nullopt;
}

QStringList HistoryStore::klusters()
{
    QStringList result;
    if (!m_open)
        return result;
    QSqlQuery q(m_db);
    if (q.exec(QStringLiteral("SELECT key FROM klusters ORDER BY key"))) {
        while (q.next())
            result.append(q.value(0).toString());
    }
    return result;
}
