#include "services/historystore.h"

#include "core/diagnosis.h"
#include "core/statedigest.h"
#include "services/inputlimits.h"
#include "services/localfile.h"

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QScopeGuard>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QThread>
#include <QVariant>
#include <atomic>
#include <cerrno>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

namespace {

qint64 ms(const QDateTime &t)
{
    return t.toMSecsSinceEpoch();
}

QDateTime fromMs(const QVariant &v)
{
    return v.isNull() ? QDateTime() : QDateTime::fromMSecsSinceEpoch(v.toLongLong(), Qt::UTC);
}

// Each schema version's statements, applied in order from the file's user_version. Never edit a
// released step: add one.
const QList<QStringList> &migrations()
{
    static const QList<QStringList> steps = {
        // 1: klusters, finding intervals, the numbers of each refresh, repairs.
        // klusters.last_seen: the last refresh that saw its findings (an open interval's last sighting).
        { QStringLiteral("CREATE TABLE klusters (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, "
                         "first_recorded INTEGER NOT NULL, last_seen INTEGER)"),
            QStringLiteral("CREATE TABLE intervals (id INTEGER PRIMARY KEY, kluster INTEGER NOT NULL "
                           "REFERENCES klusters(id), finding TEXT NOT NULL, severity TEXT NOT NULL, "
                           "first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL, resolved_at INTEGER, "
                           "before_history INTEGER NOT NULL DEFAULT 0)"),
            QStringLiteral("CREATE INDEX intervals_open ON intervals (kluster, resolved_at)"),
            QStringLiteral("CREATE INDEX intervals_finding ON intervals (kluster, finding, first_seen)"),
            QStringLiteral("CREATE TABLE samples (kluster INTEGER NOT NULL REFERENCES klusters(id), "
                           "at INTEGER NOT NULL, ok INTEGER NOT NULL, duration_ms INTEGER NOT NULL, "
                           "routes INTEGER, max_routes INTEGER, instances_active INTEGER, "
                           "instances_error INTEGER, instances_other INTEGER, nodes_ready INTEGER, "
                           "nodes_expected INTEGER, critical INTEGER, warning INTEGER, info INTEGER, "
                           "error TEXT)"),
            QStringLiteral("CREATE INDEX samples_at ON samples (kluster, at)"),
            QStringLiteral("CREATE TABLE repairs (kluster INTEGER NOT NULL REFERENCES klusters(id), "
                           "at INTEGER NOT NULL, finding TEXT NOT NULL, outcome TEXT NOT NULL)"),
            QStringLiteral("CREATE INDEX repairs_at ON repairs (kluster, at)") },
        // 2: the last few states of each kluster, to tell two moments apart.
        { QStringLiteral("CREATE TABLE states (id INTEGER PRIMARY KEY, kluster INTEGER NOT NULL "
                         "REFERENCES klusters(id), at INTEGER NOT NULL, critical INTEGER NOT NULL, "
                         "warning INTEGER NOT NULL, complete INTEGER NOT NULL, digest BLOB NOT NULL, "
                         "digest_sha1 BLOB NOT "
                         "NULL)"),
            QStringLiteral("CREATE INDEX states_at ON states (kluster, at)") },
        // 3: when each sample was recorded, on this machine's clock: the retention runs on it, whatever the
        // instant of a sample (a snapshot of another day, a cloud whose clock is off).
        { QStringLiteral("ALTER TABLE samples ADD COLUMN recorded_at INTEGER"),
            QStringLiteral("UPDATE samples SET recorded_at = at"),
            QStringLiteral("CREATE INDEX samples_recorded ON samples (recorded_at)") },
        // 4: whether every source of a sample was read (NULL in older samples: taken as complete).
        { QStringLiteral("ALTER TABLE samples ADD COLUMN complete INTEGER") },
        // 5: acknowledgements: who is handling a finding, until when, and what it was then. Kept when they
        // end (ended_at, and how: "withdrawn", "replaced").
        { QStringLiteral("CREATE TABLE acknowledgements (id INTEGER PRIMARY KEY, kluster INTEGER NOT NULL "
                         "REFERENCES klusters(id), finding TEXT NOT NULL, by TEXT NOT NULL, note TEXT NOT "
                         "NULL, at INTEGER NOT NULL, until INTEGER NOT NULL, severity TEXT NOT NULL, "
                         "fingerprint BLOB NOT NULL, ended_at INTEGER, ended TEXT)"),
            QStringLiteral("CREATE INDEX acknowledgements_finding ON acknowledgements (kluster, finding)") },
        // 6: incidents (diagnosis.md §5) as intervals, like the findings, with their latest title, severity
        // and number of members. klusters.incidents_from: the first refresh that recorded them (NULL until
        // one has: what it sees began before, also in a history an older version kept).
        { QStringLiteral("CREATE TABLE incident_intervals (id INTEGER PRIMARY KEY, kluster INTEGER NOT NULL "
                         "REFERENCES klusters(id), incident TEXT NOT NULL, title TEXT NOT NULL, severity "
                         "TEXT NOT NULL, members INTEGER NOT NULL, first_seen INTEGER NOT NULL, last_seen "
                         "INTEGER NOT NULL, resolved_at INTEGER, before_history INTEGER NOT NULL DEFAULT 0)"),
            QStringLiteral(
                "CREATE INDEX incident_intervals_open ON incident_intervals (kluster, resolved_at)"),
            QStringLiteral("CREATE INDEX incident_intervals_incident ON incident_intervals (kluster, "
                           "incident, first_seen)"),
            QStringLiteral("ALTER TABLE klusters ADD COLUMN incidents_from INTEGER") },
    };
    return steps;
}

QString sqlError(const QSqlError &e)
{
    QString text = e.databaseText().isEmpty() ? e.text() : e.databaseText();
    return text.isEmpty() ? QStringLiteral("unknown error") : text;
}

// A device and inode: which file a name held when it was looked at.
std::optional<std::pair<quint64, quint64>> fileId(const QString &path)
{
    struct stat st
    {
    };
    if (::lstat(QFile::encodeName(path).constData(), &st) != 0)
        return std::nullopt;
    return std::make_pair(quint64(st.st_dev), quint64(st.st_ino));
}

// PRAGMA quick_check's rows (one problem each, up to 100), as one line: how many, and the first.
QString corruption(QSqlQuery &q)
{
    QStringList problems;
    do
        problems << q.value(0).toString();
    while (q.next());
    if (problems.size() == 1)
        return problems.constFirst().simplified();
    return QStringLiteral("%1%2 problems; the first: %3")
        .arg(problems.size() >= 100 ? QStringLiteral("at least ") : QString())
        .arg(problems.size())
        .arg(problems.constFirst().simplified());
}

bool isLocked(const QSqlError &e)
{
    // SQLITE_BUSY (5) and SQLITE_LOCKED (6)
    return e.nativeErrorCode() == QLatin1String("5") || e.nativeErrorCode() == QLatin1String("6")
        || e.databaseText().contains(QLatin1String("locked"));
}

// A stored severity; a name no version of this program wrote reads as a warning.
Severity severityOf(const QVariant &stored)
{
    return severityFromName(stored.toString()).value_or(Severity::Warning);
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

QString HistoryStore::explain(const QSqlError &e) const
{
    // SQLite says "disk I/O error" for a full disk and "unable to open database file" for a read-only file
    // system: the file system says which.
    QString words = sqlError(e);
    const QString folder = QFileInfo(m_path).absolutePath();
    struct statvfs fs
    {
    };
    if (::statvfs(QFile::encodeName(folder).constData(), &fs) == 0) {
        if (fs.f_flag & ST_RDONLY)
            return QStringLiteral("%1: the file system is read-only (%2)")
                .arg(words, LocalFile::reason(EROFS));
        if (fs.f_bavail == 0 && ::geteuid() != 0)
            return QStringLiteral("%1: the disk is full (%2)").arg(words, LocalFile::reason(ENOSPC));
        if (fs.f_bfree == 0)
            return QStringLiteral("%1: the disk is full (%2)").arg(words, LocalFile::reason(ENOSPC));
    }
    if (::access(QFile::encodeName(folder).constData(), W_OK) != 0)
        return QStringLiteral("%1: %2 may not be written (%3)").arg(words, folder, LocalFile::reason(errno));
    return words;
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

bool HistoryStore::open()
{
    m_open = false;
    m_unusable = false;
    if (m_readOnly && !QFileInfo::exists(m_path))
        return fail(QStringLiteral("open"), QStringLiteral("no history yet"));
    // A folder of this user's alone, a file that is no link: nobody else can plant one there.
    QString why;
    const QString folder = QFileInfo(m_path).absolutePath();
    if (!(m_readOnly ? LocalFile::isPrivateFolder(folder, &why) : LocalFile::makePrivateFolder(folder, &why)))
        return fail(QStringLiteral("open"), why);
    if (QFileInfo(m_path).isSymLink())
        return fail(QStringLiteral("open"), QStringLiteral("it is a link: not followed"));
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE")))
        return fail(QStringLiteral("open"),
            QStringLiteral("Qt's SQLite driver is not installed (Debian package libqt6sql6-sqlite)"));
    if (!m_db.isValid()) {
        m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
        m_db.setDatabaseName(m_path);
        m_db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1%2")
                                   .arg(m_busyTimeoutMs)
                                   .arg(m_readOnly ? QStringLiteral(";QSQLITE_OPEN_READONLY") : QString()));
    }
    // Opening (making, migrating, moving aside) one process at a time: eight flightdeck-cli making a new
    // history at once lost records (a journal mode changed under another writer's feet), and several
    // moving an unusable one aside moved each other's fresh one. Recording is concurrent as ever.
    int lock = -1;
    if (!m_readOnly) {
        lock = LocalFile::openPrivate(m_path + QStringLiteral(".lock"), O_RDWR | O_CREAT, &why);
        if (lock < 0)
            return fail(QStringLiteral("open"), why);
        QElapsedTimer waited;
        waited.start();
        while (::flock(lock, LOCK_EX | LOCK_NB) != 0) {
            if (waited.elapsed() > 2LL * m_busyTimeoutMs + 5000) {
                ::close(lock);
                return fail(QStringLiteral("is busy"), QStringLiteral("another Flightdeck is opening it"));
            }
            QThread::msleep(10);
        }
    }
    const auto unlock = qScopeGuard([lock] {
        if (lock >= 0)
            ::close(lock);
    });
    if (openFile())
        return m_open = true;
    // Only a file that is definitely unusable (no database, corrupt, a schema this version does not know, or
    // held so long that not even its header can be read) is moved aside, once; a busy moment, a full disk or
    // a read-only folder is an error, and the file stays as it is.
    if (m_readOnly || !m_unusable || !QFileInfo::exists(m_path))
        return false;
    if (!moveAside(m_error))
        return false;
    m_error.clear();
    return m_open = openFile();
}

bool HistoryStore::unusable(const QString &what, const QString &why)
{
    m_unusable = true;
    // The file this connection read, if the path still holds the one it held when it was opened: another
    // process may have moved that aside and started a fresh one meanwhile, which is not the unusable one.
    const auto now = fileId(m_path);
    m_unusableFile = now == m_openedFile ? now : std::nullopt;
    m_db.close();
    return fail(what, why);
}

bool HistoryStore::openFile()
{
    m_error.clear();
    m_openCache.clear();
    m_openedFile = fileId(m_path);
    if (!m_db.open())
        return fail(QStringLiteral("cannot be opened"), explain(m_db.lastError()));
    QSqlQuery q(m_db);
    // Reading the header first tells a file that is no database from a locked one.
    if (!q.exec(QStringLiteral("PRAGMA user_version")) || !q.next()) {
        const QSqlError e = q.lastError();
        const bool notADatabase = e.nativeErrorCode() == QLatin1String("26")
            || e.nativeErrorCode() == QLatin1String("11")
            || e.databaseText().contains(QLatin1String("not a database"))
            || e.databaseText().contains(QLatin1String("malformed"));
        if (isLocked(e))
            return unusable(QStringLiteral("is locked by another program"), sqlError(e));
        if (notADatabase)
            return unusable(QStringLiteral("is not readable"), sqlError(e));
        m_db.close();
        return fail(QStringLiteral("cannot be read"), explain(e));
    }
    const int version = q.value(0).toInt();
    q.finish();
    if (!m_readOnly) {
        // This user's file, readable by nobody else; never opened here besides SQLite (a descriptor closed
        // would drop SQLite's locks on it).
        QString why;
        if (!LocalFile::checkPrivateFile(m_path, &why)) {
            m_db.close();
            return fail(QStringLiteral("open"), why);
        }
    }
    if (version > SchemaVersion || version < 0)
        return unusable(QStringLiteral("was written by a newer Flightdeck"),
            QStringLiteral("schema version %1, this one knows 0 to %2").arg(version).arg(SchemaVersion));
    if (m_readOnly)
        return version == SchemaVersion
            || (m_db.close(), fail(QStringLiteral("open"), QStringLiteral("not migrated yet")));
    if (version > 0) {
        if (!q.exec(QStringLiteral("PRAGMA quick_check")) || !q.next()) {
            const QSqlError e = q.lastError();
            if (isLocked(e)) {
                m_db.close();
                return fail(QStringLiteral("is busy"), sqlError(e));
            }
            return unusable(QStringLiteral("is corrupt"), sqlError(e));
        }
        if (q.value(0).toString() != QLatin1String("ok"))
            return unusable(QStringLiteral("is corrupt"), corruption(q));
        q.finish();
    } else if (!exec(QStringLiteral("PRAGMA auto_vacuum = FULL"))) { // pages freed go back at each commit
        m_db.close();
        return false;
    }
    if (!q.exec(QStringLiteral("PRAGMA journal_mode = WAL"))) {
        const QSqlError e = q.lastError();
        m_db.close();
        return fail(isLocked(e) ? QStringLiteral("is busy") : QStringLiteral("is not writable"), explain(e));
    }
    q.finish();
    exec(QStringLiteral("PRAGMA synchronous = NORMAL"));
    exec(QStringLiteral("PRAGMA foreign_keys = ON"));
    exec(
        QStringLiteral("PRAGMA journal_size_limit = 4194304")); // the journal shrinks back after a checkpoint
    if (version < SchemaVersion && !migrate()) {
        const QString error = m_error;
        m_db.close();
        m_error = error;
        return false;
    }
    return true;
}

bool HistoryStore::migrate()
{
    QSqlQuery q(m_db);
    if (!q.exec(QStringLiteral("BEGIN IMMEDIATE")))
        return fail(isLocked(q.lastError()) ? QStringLiteral("is busy") : QStringLiteral("cannot be written"),
            explain(q.lastError()));
    // Read again inside the transaction: another process may have migrated it meanwhile.
    if (!q.exec(QStringLiteral("PRAGMA user_version")) || !q.next()) {
        exec(QStringLiteral("ROLLBACK"));
        return fail(QStringLiteral("is not readable"), sqlError(q.lastError()));
    }
    const int version = q.value(0).toInt();
    q.finish();
    if (version > SchemaVersion || version < 0) {
        exec(QStringLiteral("ROLLBACK"));
        return fail(QStringLiteral("was written by a newer Flightdeck meanwhile"),
            QStringLiteral("schema version %1").arg(version));
    }
    for (int step = version; step < SchemaVersion; ++step) {
        for (const QString &sql : migrations().at(step)) {
            if (!exec(sql)) {
                const QString error = m_error;
                exec(QStringLiteral("ROLLBACK"));
                m_error = QStringLiteral("%1 (migrating from schema version %2 to %3)")
                              .arg(error)
                              .arg(step)
                              .arg(step + 1);
                return false;
            }
        }
    }
    if (version < SchemaVersion && !exec(QStringLiteral("PRAGMA user_version = %1").arg(SchemaVersion))) {
        exec(QStringLiteral("ROLLBACK"));
        return false;
    }
    return commit();
}

bool HistoryStore::commit()
{
    if (exec(QStringLiteral("COMMIT")))
        return true;
    const QString error = m_error;
    exec(QStringLiteral("ROLLBACK"));
    m_error = error;
    return false;
}

bool HistoryStore::moveAside(const QString &why)
{
    m_db.close();
    // Under open()'s lock, and only the file this one found unusable: several processes meeting it at once
    // would otherwise move each other's fresh file aside, and the records written into it with it.
    if (!m_unusableFile || fileId(m_path) != m_unusableFile) {
        // Moved already by another process, which started a fresh one: that is the one to use.
        m_notice
            = QStringLiteral("%1. Another Flightdeck moved it aside meanwhile and started a new history.")
                  .arg(why);
        return true;
    }
    const QString aside
        = QStringLiteral("%1.unusable-%2")
              .arg(m_path, QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss")));
    QString target = aside;
    for (int n = 2; QFileInfo::exists(target); ++n)
        target = QStringLiteral("%1-%2").arg(aside).arg(n);
    // Its journal first (a journal left beside a fresh file would be read into it), then the file.
    for (const char *suffix : { "-wal", "-shm" }) {
        const QString side = m_path + QLatin1String(suffix);
        if (QFileInfo::exists(side) && !QFile::rename(side, target + QLatin1String(suffix))
            && !QFile::remove(side))
            return fail(QStringLiteral("cannot be moved aside"), QStringLiteral("%1 stays").arg(side));
    }
    if (!QFile::rename(m_path, target))
        return fail(QStringLiteral("cannot be moved aside"), why);
    m_notice = QStringLiteral("%1. It was moved to %2 and a new history started.").arg(why, target);
    return true;
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
        q.setForwardOnly(true);
        q.prepare(QStringLiteral(
            "SELECT id, finding, severity FROM intervals WHERE kluster = ? AND resolved_at IS NULL"));
        q.addBindValue(kluster);
        if (!q.exec())
            return failed(QStringLiteral("cannot read the open findings"), q.lastError());
        while (q.next())
            cache.open.insert(q.value(1).toString(), { q.value(0).toLongLong(), severityOf(q.value(2)) });
        q.finish();
    }
    cache.valid = false; // until this transaction commits
    QHash<QString, OpenIntervals::Open> &open = cache.open;

    QSqlQuery insert(m_db);
    insert.prepare(QStringLiteral("INSERT INTO intervals (kluster, finding, severity, first_seen, last_seen, "
                                  "before_history) VALUES (?, ?, ?, ?, ?, ?)"));
    QSqlQuery severity(m_db);
    severity.prepare(QStringLiteral("UPDATE intervals SET severity = ? WHERE id = ?"));
    QSet<QString> seen;
    seen.reserve(r.findings.size());
    QHash<QString, OpenIntervals::Open> opened;
    for (const auto &[id, sev] : r.findings) {
        seen.insert(id);
        const auto it = open.find(id);
        if (it == open.end()) {
            insert.addBindValue(kluster);
            insert.addBindValue(id);
            insert.addBindValue(severityName(sev));
            insert.addBindValue(at);
            insert.addBindValue(at);
            insert.addBindValue(lastSeen.isNull() ? 1 : 0); // the kluster's first: it began before
            if (!insert.exec())
                return failed(QStringLiteral("cannot record a finding"), insert.lastError());
            opened.insert(id, { insert.lastInsertId().toLongLong(), sev });
        } else if (it->severity != sev) {
            severity.addBindValue(severityName(sev));
            severity.addBindValue(it->id);
            if (!severity.exec())
                return failed(QStringLiteral("cannot record a finding"), severity.lastError());
            it->severity = sev;
        }
    }
    if (r.complete && seen.size() < open.size() + opened.size()) {
        // Resolved now; last seen on the refresh before.
        QSqlQuery resolve(m_db);
        resolve.prepare(QStringLiteral("UPDATE intervals SET resolved_at = MAX(first_seen, ?), last_seen = "
                                       "MAX(first_seen, ?) WHERE id = ?"));
        for (auto it = open.begin(); it != open.end();) {
            if (seen.contains(it.key())) {
                ++it;
                continue;
            }
            resolve.addBindValue(at);
            resolve.addBindValue(lastSeen.isNull() || lastSeenAhead ? at : lastSeen.toLongLong());
            resolve.addBindValue(it->id);
            if (!resolve.exec())
                return failed(QStringLiteral("cannot resolve a finding"), resolve.lastError());
            it = open.erase(it);
        }
    }
    open.insert(opened);

    // Seen now: every interval still open, when the refresh was complete (an incomplete one resolves
    // nothing, and is no sighting of what it could not see).
    if (r.complete) {
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

qint64 HistoryStore::fileBytes() const
{
    qint64 bytes = 0;
    for (const char *suffix : { "", "-wal" })
        bytes += QFileInfo(m_path + QLatin1String(suffix)).size();
    return bytes;
}

qint64 HistoryStore::usedBytes()
{
    // The pages in use: what the file shrinks to once its free pages are given back and the journal is
    // folded in.
    QSqlQuery q(m_db);
    qint64 pages = 0, free = 0, size = 4096;
    if (q.exec(QStringLiteral("PRAGMA page_count")) && q.next())
        pages = q.value(0).toLongLong();
    if (q.exec(QStringLiteral("PRAGMA freelist_count")) && q.next())
        free = q.value(0).toLongLong();
    if (q.exec(QStringLiteral("PRAGMA page_size")) && q.next())
        size = q.value(0).toLongLong();
    return (pages - free) * size;
}

void HistoryStore::giveBackSpace()
{
    // The file is auto_vacuum = FULL: what a delete frees leaves the file at the next checkpoint. Folded in
    // without waiting for readers (PASSIVE): what cannot be folded now is folded the next time.
    exec(QStringLiteral("PRAGMA wal_checkpoint(PASSIVE)"));
}

bool HistoryStore::prune(const QDateTime &now)
{
    if (!m_open || m_readOnly)
        return false;
    // By age: samples, repairs and resolved intervals (of findings and incidents) older than the retention,
    // and the states of klusters not seen since.
    qint64 cutoff = ms(now) - qint64(m_retentionDays) * 24 * 3600 * 1000;
    const auto pruneBefore = [this](qint64 before) {
        QSqlQuery q(m_db);
        if (!q.exec(QStringLiteral("BEGIN IMMEDIATE")))
            return fail(QStringLiteral("cannot prune"), explain(q.lastError()));
        for (const QString &sql : { QStringLiteral("DELETE FROM samples WHERE COALESCE(recorded_at, at) < ?"),
                 QStringLiteral("DELETE FROM repairs WHERE at < ?"),
                 QStringLiteral("DELETE FROM acknowledgements WHERE until < ?"),
                 QStringLiteral("DELETE FROM intervals WHERE resolved_at IS NOT NULL AND resolved_at < ?"),
                 QStringLiteral(
                     "DELETE FROM incident_intervals WHERE resolved_at IS NOT NULL AND resolved_at < ?"),
                 QStringLiteral("DELETE FROM states WHERE kluster IN (SELECT id FROM klusters WHERE "
                                "COALESCE(last_seen, first_recorded) < ?)") }) {
            q.prepare(sql);
            q.addBindValue(before);
            if (!q.exec()) {
                fail(QStringLiteral("cannot prune"), explain(q.lastError()));
                const QString error = m_error;
                exec(QStringLiteral("ROLLBACK"));
                m_error = error;
                return false;
            }
        }
        return commit();
    };
    if (!pruneBefore(cutoff))
        return false;
    // By size: the oldest tenth of what is left, until what is in use fits.
    const qint64 bound = qint64(m_maxMegabytes) * 1024 * 1024;
    for (int round = 0; round < 20 && usedBytes() > bound; ++round) {
        QSqlQuery q(m_db);
        if (!q.exec(QStringLiteral("SELECT MIN(COALESCE(recorded_at, at)) FROM samples")) || !q.next()
            || q.value(0).isNull())
            break;
        const qint64 oldest = q.value(0).toLongLong();
        q.finish();
        cutoff = oldest + (ms(now) - oldest) / 10;
        if (!pruneBefore(cutoff))
            return false;
    }
    giveBackSpace();
    return true;
}
