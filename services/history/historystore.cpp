// HistoryStore: what one refresh leaves in the history (its sample, the findings' intervals, its state's
// digest), recorded in one short transaction. The file's life is in historyfile.cpp, the queries in
// historyqueries.cpp, incidents and acknowledgements in their own files.
#include "services/history/historystore.h"

#include "core/diagnosis.h"
#include "core/klusterphase.h"
#include "core/statedigest.h"
#include "services/history/historyintervals.h"
#include "services/history/historysql.h"

#include <QCryptographicHash>
#include <QDir>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QVariant>
#include <atomic>

using HistorySql::ms;

namespace {

// A stored severity; a name no version of this program wrote reads as a warning.
Severity severityOf(const QVariant &stored)
{
    return severityFromName(stored.toString()).value_or(Severity::Warning);
}

// The findings' intervals: each keeps its latest severity.
const HistoryIntervals::Table<Severity> &findingIntervals()
{
    static const HistoryIntervals::Table<Severity> table { QStringLiteral("intervals"),
        QStringLiteral("finding"), QStringLiteral("a finding"), { QStringLiteral("severity") },
        [](QSqlQuery &q, Severity s) { q.addBindValue(severityName(s)); },
        [](const QSqlQuery &q, int first) { return severityOf(q.value(first)); } };
    return table;
}

} // namespace

HistoryRecord HistoryRecord::of(const KlusterState &state, const Diagnosis &diagnosis, qint64 durationMs)
{
    HistoryRecord r;
    r.kluster = HistoryStore::klusterKey(state.cloud, state.region, state.kluster.name);
    r.at = state.capturedAt;
    r.durationMs = durationMs;
    r.complete = state.klusterSource.known && state.serversSource.known
        && state.serversSource.incomplete.isEmpty() && state.routerSource.known
        && state.securityGroupsSource.known && state.nodesSource.known;
    // A Terminating kluster's diagnosis is its one finding: what it no longer shows was not compared, so it
    // is not resolved (its numbers are read whole all the same: the trends show the teardown).
    r.resolves = KlusterPhases::parse(diagnosis.phase) != KlusterPhase::Terminating;
    if (state.routerSource.known)
        r.routes = int(state.router.routes.size());
    r.maxRoutes = state.maxRoutes.value_or(-1);
    r.nodesReady = diagnosis.budget.ready;
    r.nodesExpected = diagnosis.budget.expected;
    r.critical = diagnosis.count(Severity::Critical);
    r.warning = diagnosis.count(Severity::Warning);
    r.info = diagnosis.count(Severity::Info);
    // Kept without its instant (the row has it): an unchanged kluster then gives the same bytes, and is not
    // kept again.
    StateDigest digest = StateDigest::of(state, diagnosis);
    digest.capturedAt = QDateTime::fromMSecsSinceEpoch(0, Qt::UTC);
    // A kluster gone keeps no moment: its newest one is when it was last seen (readLastSeen).
    if (!state.kluster.gone)
        r.digest = digest.toJson();
    r.findings.reserve(digest.findings.size());
    for (auto it = digest.findings.cbegin(); it != digest.findings.cend(); ++it)
        r.findings.append({ it.key(), it.value() });
    r.incidents.reserve(diagnosis.incidents.size());
    for (const Incident &incident : diagnosis.incidents)
        r.incidents.append(
            { incident.id(), incident.title, incident.severity, int(incident.members.size()) });
    for (const InstanceDigest &instance : std::as_const(digest.instances)) { // the kluster's instances
        if (instance.status == QLatin1String("ACTIVE"))
            ++r.instancesActive;
        else if (instance.status == QLatin1String("ERROR"))
            ++r.instancesError;
        else
            ++r.instancesOther;
    }
    return r;
}

HistoryRecord HistoryRecord::failure(
    const QString &kluster, const QDateTime &at, const QString &error, qint64 durationMs)
{
    HistoryRecord r;
    r.kluster = kluster;
    r.at = at;
    r.ok = false;
    r.complete = false;
    r.error = error;
    r.durationMs = durationMs;
    return r;
}

QString HistoryStore::defaultPath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation))
        .filePath(QStringLiteral("flightdeck/history.sqlite"));
}

QString HistoryStore::klusterKey(const QString &cloud, const QString &region, const QString &kluster)
{
    return QStringLiteral("%1/%2/%3").arg(cloud, region, kluster);
}

QDateTime HistoryStore::localInstant(const QDateTime &cloudInstant, qint64 serverClockOffsetMs)
{
    // The same rule KlusterFetcher applies the other way: within 5 s, the clocks agree.
    return qAbs(serverClockOffsetMs) > 5000
        ? cloudInstant.addSecs(-qRound64(double(serverClockOffsetMs) / 1000))
        : cloudInstant;
}

QDateTime HistoryStore::now() const
{
    return m_clock ? m_clock() : QDateTime::currentDateTimeUtc();
}

HistoryStore::HistoryStore(QString path)
    : m_path(std::move(path))
{
    static std::atomic<int> counter { 0 };
    m_connection = QStringLiteral("flightdeck-history-%1").arg(++counter);
}

HistoryStore::~HistoryStore()
{
    if (m_db.isValid()) {
        m_db.close();
        m_db = QSqlDatabase();
        QSqlDatabase::removeDatabase(m_connection);
    }
}

bool HistoryStore::fail(const QString &what, const QString &why)
{
    m_error = QStringLiteral("history %1: %2: %3").arg(m_path, what, why);
    return false;
}

bool HistoryStore::exec(const QString &sql)
{
    QSqlQuery q(m_db);
    if (q.exec(sql))
        return true;
    return fail(sql.section(QLatin1Char(' '), 0, 2), explain(q.lastError()));
}

QString HistoryStore::takeNotice()
{
    return std::exchange(m_notice, QString());
}

void HistoryStore::setRetention(int days, int maxMegabytes)
{
    m_retentionDays = qMax(1, days);
    m_maxMegabytes = qMax(1, maxMegabytes);
}

qint64 HistoryStore::klusterId(const QString &kluster, bool create, qint64 at)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT id FROM klusters WHERE key = ?"));
    q.addBindValue(kluster);
    if (q.exec() && q.next())
        return q.value(0).toLongLong();
    if (!create)
        return 0;
    q.prepare(QStringLiteral("INSERT INTO klusters (key, first_recorded) VALUES (?, ?)"));
    q.addBindValue(kluster);
    q.addBindValue(at);
    if (!q.exec()) {
        fail(QStringLiteral("cannot add the kluster"), explain(q.lastError()));
        return 0;
    }
    return q.lastInsertId().toLongLong();
}

bool HistoryStore::record(const HistoryRecord &r)
{
    if (!m_open)
        return fail(QStringLiteral("record"), QStringLiteral("not open"));
    const qint64 at = ms(r.at);
    // This machine's clock decides: a record far from it (a snapshot of another day, a cloud whose clock is
    // off) is a sample only, and the retention runs on it, never on a record's instant.
    const qint64 nowMs = ms(now());
    const bool nearNow = qAbs(at - nowMs) <= qint64(MaxSkewSeconds) * 1000;
    QSqlQuery q(m_db);
    if (!q.exec(QStringLiteral("BEGIN IMMEDIATE")))
        return fail(QStringLiteral("cannot record"), explain(q.lastError()));
    const auto rollback = [this] {
        const QString error = m_error;
        exec(QStringLiteral("ROLLBACK"));
        m_error = error;
        return false;
    };
    // Did this kluster have a completed refresh before this one? If not, what it shows began earlier.
    qint64 kluster = klusterId(r.kluster, false, nowMs);
    if (kluster == 0 && (kluster = klusterId(r.kluster, true, nowMs)) == 0)
        return rollback(); // klusterId's error
    q.prepare(QStringLiteral("SELECT last_seen FROM klusters WHERE id = ?"));
    q.addBindValue(kluster);
    if (!q.exec() || !q.next()) {
        failed(QStringLiteral("cannot read"), q.lastError());
        return rollback();
    }
    const QVariant lastSeen = q.value(0); // null: no refresh saw its findings yet
    // Last seen in the future of this clock: written while a clock ran ahead (or by an earlier Flightdeck on
    // the cloud's). The record now is the newest all the same, or nothing would be kept until that time.
    const bool lastSeenAhead
        = !lastSeen.isNull() && lastSeen.toLongLong() > nowMs + qint64(MaxSkewSeconds) * 1000;
    q.finish();

    if (!recordSample(kluster, r, at, nowMs))
        return rollback();
    // A refresh older than the last one that saw the findings (another writer's, a snapshot of the past), or
    // far from this machine's clock, is a sample only: it cannot reopen or resolve what later refreshes saw.
    const bool findings
        = r.ok && nearNow && (lastSeen.isNull() || at > lastSeen.toLongLong() || lastSeenAhead);
    if (findings
        && (!recordIncidents(kluster, r, at, lastSeen, lastSeenAhead)
            || !recordFindings(kluster, r, at, lastSeen, lastSeenAhead)
            || (!r.digest.isEmpty() && !recordState(kluster, r, at))))
        return rollback();
    if (!commit())
        return false;
    if (findings)
        m_openCache[kluster].valid = true; // what this transaction wrote is what the cache holds
    if (nowMs - m_lastPrune > 3600 * 1000 || nowMs < m_lastPrune) {
        m_lastPrune = nowMs;
        prune(QDateTime::fromMSecsSinceEpoch(nowMs, Qt::UTC)); // recorded all the same; a prune that failed
                                                               // is tried again in an hour
    }
    return true;
}

bool HistoryStore::recordSample(qint64 kluster, const HistoryRecord &r, qint64 at, qint64 recordedAt)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral(
        "INSERT INTO samples (kluster, at, ok, duration_ms, routes, max_routes, "
        "instances_active, instances_error, instances_other, nodes_ready, nodes_expected, "
        "critical, warning, info, error, recorded_at, complete) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
    const auto orNull = [](qint64 v) { return v < 0 ? QVariant() : QVariant(v); };
    for (const QVariant &v :
        { QVariant(kluster), QVariant(at), QVariant(r.ok ? 1 : 0), QVariant(r.durationMs),
            r.ok ? orNull(r.routes) : QVariant(), r.ok ? orNull(r.maxRoutes) : QVariant(),
            r.ok ? QVariant(r.instancesActive) : QVariant(), r.ok ? QVariant(r.instancesError) : QVariant(),
            r.ok ? QVariant(r.instancesOther) : QVariant(), r.ok ? QVariant(r.nodesReady) : QVariant(),
            r.ok ? QVariant(r.nodesExpected) : QVariant(), r.ok ? QVariant(r.critical) : QVariant(),
            r.ok ? QVariant(r.warning) : QVariant(), r.ok ? QVariant(r.info) : QVariant(),
            r.error.isEmpty() ? QVariant() : QVariant(r.error.left(2000)), QVariant(recordedAt),
            r.ok ? QVariant(r.complete ? 1 : 0) : QVariant() })
        q.addBindValue(v);
    return q.exec() || failed(QStringLiteral("cannot record the refresh"), q.lastError());
}

bool HistoryStore::recordFindings(
    qint64 kluster, const HistoryRecord &r, qint64 at, const QVariant &lastSeen, bool lastSeenAhead)
{
    // The open intervals: kept from the last record while no other connection wrote (data_version), read
    // again inside the transaction otherwise.
    QSqlQuery q(m_db);
    if (!q.exec(QStringLiteral("PRAGMA data_version")) || !q.next())
        return failed(QStringLiteral("cannot read"), q.lastError());
    const qint64 dataVersion = q.value(0).toLongLong();
    q.finish();
    OpenIntervals &cache = m_openCache[kluster];
    if (!cache.valid || cache.dataVersion != dataVersion) {
        cache.open.clear();
        HistoryIntervals::Failure failure;
        if (!HistoryIntervals::readOpen(m_db, findingIntervals(), kluster, cache.open, &failure))
            return failed(failure.what, failure.error);
    }
    cache.valid = false; // until this transaction commits
    const HistoryIntervals::Moment moment { at,
        lastSeen.isNull() || lastSeenAhead ? at : lastSeen.toLongLong(), r.complete && r.resolves,
        lastSeen.isNull() }; // the kluster's first: what it sees began before
    HistoryIntervals::Failure failure;
    if (!HistoryIntervals::record(
            m_db, findingIntervals(), kluster, r.findings, cache.open, moment, &failure))
        return failed(failure.what, failure.error);

    // Seen now: every interval still open, when the refresh was complete (an incomplete one resolves
    // nothing, and is no sighting of what it could not see).
    if (r.complete && r.resolves) {
        q.prepare(QStringLiteral("UPDATE klusters SET last_seen = ? WHERE id = ?"));
        q.addBindValue(at);
        q.addBindValue(kluster);
        if (!q.exec())
            return failed(QStringLiteral("cannot record the findings"), q.lastError());
    }
    cache.dataVersion = dataVersion;
    return true;
}

bool HistoryStore::recordState(qint64 kluster, const HistoryRecord &r, qint64 at)
{
    // A state is kept when it differs from the newest one kept (told by its hash: an unchanged kluster costs
    // no compression).
    const QByteArray sha1 = QCryptographicHash::hash(r.digest, QCryptographicHash::Sha1);
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT digest_sha1 FROM states WHERE kluster = ? ORDER BY id DESC LIMIT 1"));
    q.addBindValue(kluster);
    if (!q.exec())
        return failed(QStringLiteral("cannot read the states"), q.lastError());
    const bool same = q.next() && q.value(0).toByteArray() == sha1;
    q.finish();
    if (same)
        return true;
    q.prepare(QStringLiteral("INSERT INTO states (kluster, at, critical, warning, complete, digest, "
                             "digest_sha1) VALUES (?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(kluster);
    q.addBindValue(at);
    q.addBindValue(r.critical);
    q.addBindValue(r.warning);
    q.addBindValue(r.complete ? 1 : 0);
    q.addBindValue(qCompress(r.digest, 1));
    q.addBindValue(sha1);
    if (!q.exec())
        return failed(QStringLiteral("cannot record the state"), q.lastError());
    // The newest few, and the newest healthy one, stay (newest as recorded: in the order of this machine's
    // clock, whatever the instants say after a clock stepped back).
    q.prepare(
        QStringLiteral("DELETE FROM states WHERE kluster = :k AND id NOT IN (SELECT id FROM states WHERE "
                       "kluster = :k ORDER BY id DESC LIMIT :n) AND id IS NOT (SELECT id FROM states "
                       "WHERE kluster = :k AND critical = 0 AND warning = 0 AND complete = 1 ORDER BY "
                       "id DESC LIMIT 1)"));
    q.bindValue(QStringLiteral(":k"), kluster);
    q.bindValue(QStringLiteral(":n"), KeptStates);
    return q.exec() || failed(QStringLiteral("cannot prune the states"), q.lastError());
}

bool HistoryStore::recordRepair(const QString &kluster, const QString &finding, const QString &outcome)
{
    if (!m_open)
        return fail(QStringLiteral("record"), QStringLiteral("not open"));
    const QDateTime at = now(); // this machine's clock, as every time the history keeps
    const qint64 id = klusterId(kluster, true, ms(at));
    if (id == 0)
        return false;
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("INSERT INTO repairs (kluster, at, finding, outcome) VALUES (?, ?, ?, ?)"));
    q.addBindValue(id);
    q.addBindValue(ms(at));
    q.addBindValue(finding);
    q.addBindValue(outcome);
    return q.exec() || fail(QStringLiteral("cannot record the repair"), explain(q.lastError()));
}
