// HistoryStore's file and its life (the history's one SQLite file): opened, checked, migrated from every
// older schema, moved aside when it is locked, corrupt or newer, pruned by age and size. The records and
// the queries are in historystore.cpp and historyqueries.cpp.
#include "services/history/historysql.h"
#include "services/history/historystore.h"
#include "services/local/localfile.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QScopeGuard>
#include <QSqlQuery>
#include <QThread>
#include <cerrno>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

using HistorySql::isLocked;
using HistorySql::ms;
using HistorySql::sqlError;

namespace {

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

} // namespace

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
