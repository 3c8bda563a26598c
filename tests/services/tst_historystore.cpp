#include "core/diagnosis.h"
#include "services/history/historystore.h"
#include "services/local/snapshotreader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QScopeGuard>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <sys/mount.h>

// The history store on a real SQLite file: intervals across refreshes, retention, migrations, files that
// cannot be used, and writers in several processes at once.
class TestHistoryStore : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void acknowledgementsAreKeptAndEnd();
    void freshFileIsWalAtTheSchemaVersion();
    void intervalsOpenAndCloseAcrossRefreshes();
    void incompleteRefreshResolvesNothing();
    void failedRefreshIsASampleOnly();
    void severityChangeKeepsTheInterval();
    void findingThatKeepsComingBackIsFlapping();
    void statesKeepTheNewestAndTheLastHealthy();
    void retentionPrunesByAge();
    void retentionPrunesBySize();
    void migratesFromVersionOne();
    void incidentsOpenAndCloseLikeFindings();
    void incidentThatKeepsComingBackIsFlapping();
    void incidentsOfADiagnosisAreRecorded();
    void terminatingKlusterResolvesNothing();
    void migratesFromVersionFive();
    void notADatabaseIsMovedAside();
    void corruptDatabaseIsMovedAside();
    void newerSchemaIsMovedAside();
    void lockedDatabaseIsMovedAside();
    void busyDatabaseIsWaitedForNotMovedAside();
    void negativeSchemaVersionIsMovedAside();
    void olderRefreshIsASampleOnly();
    void unwritableFolderIsAnError();
    void concurrentWritersFromTheCommandLine();
    void futureRecordIsASampleThatPrunesNothing();
    void clockSteppedBackStillResolves();
    void processesMoveAsideOnlyTheFileFoundUnusable();
    void fullDiskIsNamed();
    void readOnlyFileSystemIsNamed();
    void linkIsNotFollowed();

private:
    QString path() const { return m_dir->filePath(QStringLiteral("history.sqlite")); }
    // A refresh at `at`; this machine's clock (m_now) follows the refreshes the test makes.
    HistoryRecord refresh(
        const QDateTime &at, const QStringList &findings, Severity severity = Severity::Warning);
    void clocked(HistoryStore &store)
    {
        store.setClock([this] { return m_now; });
    }
    // An incident of `members` findings, as a refresh sees it.
    static HistoryIncident incident(const QString &id, int members = 2)
    {
        return { id, QStringLiteral("%1: %2 findings").arg(id).arg(members), Severity::Critical, members };
    }
    static QStringList movedAside(const QString &folder);
    static int count(const QString &file, const QString &sql);
    static QString text(const QString &file, const QString &sql);

    std::unique_ptr<QTemporaryDir> m_dir;
    const QDateTime m_t0 = QDateTime(QDate(2026, 11, 1), QTime(10, 0), Qt::UTC);
    const QString m_key = QStringLiteral("sim/RegionOne/demo");
    QDateTime m_now;
};

HistoryRecord TestHistoryStore::refresh(const QDateTime &at, const QStringList &findings, Severity severity)
{
    HistoryRecord r;
    r.kluster = QStringLiteral("sim/RegionOne/demo");
    r.at = at;
    m_now = qMax(m_now, at);
    r.durationMs = 120;
    r.routes = 10;
    r.maxRoutes = 30;
    r.instancesActive = 5;
    r.nodesReady = 4;
    r.nodesExpected = 5;
    for (const QString &f : findings)
        r.findings.append({ f, severity });
    r.warning = int(findings.size());
    r.digest = "{\"findings\":\"" + findings.join(QLatin1Char(',')).toUtf8() + "\"}";
    return r;
}

// An acknowledgement lists while it holds; a second replaces the first; withdrawn or run out, it lists no
// more; every one stays in the history with how it ended, until the retention prunes it.
void TestHistoryStore::acknowledgementsAreKeptAndEnd()
{
    HistoryStore store(path());
    clocked(store);
    QVERIFY(store.open());
    QVERIFY(store.record(
        refresh(m_t0, { QStringLiteral("route-missing:a"), QStringLiteral("route-missing:b") })));
    Acknowledgement a;
    a.finding = QStringLiteral("route-missing:a");
    a.by = QStringLiteral("alice");
    a.note = QStringLiteral("on it");
    a.at = m_t0;
    a.until = m_t0.addSecs(3600);
    a.severity = Severity::Critical;
    a.fingerprint = "f1";
    QVERIFY(store.acknowledge(m_key, a));
    QHash<QString, Acknowledgement> open = store.acknowledgements(m_key, m_t0.addSecs(60));
    QCOMPARE(open.size(), 1);
    QCOMPARE(open.value(a.finding).by, QStringLiteral("alice"));
    QCOMPARE(open.value(a.finding).note, QStringLiteral("on it"));
    QCOMPARE(open.value(a.finding).until, a.until);
    QCOMPARE(open.value(a.finding).severity, Severity::Critical);
    QCOMPARE(open.value(a.finding).fingerprint, QByteArray("f1"));
    // Bob takes it over: one open, Alice's replaced.
    m_now = m_t0.addSecs(120);
    Acknowledgement b = a;
    b.by = QStringLiteral("bob");
    b.at = m_now;
    b.until = m_now.addSecs(4 * 3600);
    QVERIFY(store.acknowledge(m_key, b));
    open = store.acknowledgements(m_key, m_now);
    QCOMPARE(open.size(), 1);
    QCOMPARE(open.value(a.finding).by, QStringLiteral("bob"));
    // The other finding, for half an hour: past it, only Bob's lists.
    Acknowledgement c = a;
    c.finding = QStringLiteral("route-missing:b");
    c.at = m_now;
    c.until = m_now.addSecs(1800);
    QVERIFY(store.acknowledge(m_key, c));
    QCOMPARE(store.acknowledgements(m_key, m_now.addSecs(60)).size(), 2);
    QCOMPARE(store.acknowledgements(m_key, m_now.addSecs(1801)).keys(), QStringList { a.finding });
    // Withdrawn: none of a.
    m_now = m_now.addSecs(1900);
    QVERIFY(store.unacknowledge(m_key, a.finding));
    QVERIFY(store.acknowledgements(m_key, m_now).isEmpty());
    const auto kept = store.acknowledgementHistory(m_key, a.finding);
    QCOMPARE(kept.size(), 2);
    QCOMPARE(kept.at(0).first.by, QStringLiteral("alice"));
    QCOMPARE(kept.at(0).second, QStringLiteral("replaced"));
    QCOMPARE(kept.at(1).second, QStringLiteral("withdrawn"));
    QCOMPARE(store.acknowledgementHistory(m_key, c.finding).value(0).second, QStringLiteral("expired"));
    // Another kluster has none; a kluster never recorded is no error.
    QVERIFY(store.acknowledgements(QStringLiteral("sim/RegionOne/other"), m_now).isEmpty());
    // Past the retention, pruned.
    QVERIFY(store.prune(m_now.addDays(HistoryStore::DefaultRetentionDays + 1)));
    QVERIFY(store.acknowledgementHistory(m_key, a.finding).isEmpty());
}

QStringList TestHistoryStore::movedAside(const QString &folder)
{
    QStringList files = QDir(folder).entryList({ QStringLiteral("history.sqlite.unusable-*") }, QDir::Files);
    files.removeIf([](const QString &f) {
        return f.endsWith(QLatin1String("-wal")) || f.endsWith(QLatin1String("-shm"));
    });
    return files;
}

int TestHistoryStore::count(const QString &file, const QString &sql)
{
    bool ok = false;
    const int n = text(file, sql).toInt(&ok);
    return ok ? n : -1;
}

QString TestHistoryStore::text(const QString &file, const QString &sql)
{
    QString n = QStringLiteral("(no answer)");
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("count"));
        db.setDatabaseName(file);
        if (db.open()) {
            QSqlQuery q(db);
            if (q.exec(sql) && q.next())
                n = q.value(0).toString();
        }
    }
    QSqlDatabase::removeDatabase(QStringLiteral("count"));
    return n;
}

void TestHistoryStore::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_now = m_t0;
}

void TestHistoryStore::freshFileIsWalAtTheSchemaVersion()
{
    HistoryStore store(path());
    clocked(store);
    QVERIFY2(store.open(), qPrintable(store.error()));
    QVERIFY(store.takeNotice().isEmpty());
    QCOMPARE(count(path(), QStringLiteral("PRAGMA user_version")), HistoryStore::SchemaVersion);
    QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("mode")).setDatabaseName(path());
    {
        QSqlDatabase db = QSqlDatabase::database(QStringLiteral("mode"));
        QSqlQuery q(db);
        QVERIFY(q.exec(QStringLiteral("PRAGMA journal_mode")) && q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("wal"));
    }
    QSqlDatabase::removeDatabase(QStringLiteral("mode"));
    QCOMPARE(QFileInfo(path()).permissions() & (QFileDevice::ReadOther | QFileDevice::ReadGroup),
        QFileDevice::Permissions());
}

void TestHistoryStore::intervalsOpenAndCloseAcrossRefreshes()
{
    HistoryStore store(path());
    clocked(store);
    QVERIFY2(store.open(), qPrintable(store.error()));
    const QDateTime t1 = m_t0.addSecs(300), t2 = m_t0.addSecs(600), t3 = m_t0.addSecs(900);
    QVERIFY2(
        store.record(refresh(m_t0, { QStringLiteral("a"), QStringLiteral("b") })), qPrintable(store.error()));
    QVERIFY(store.record(refresh(t1, { QStringLiteral("a") })));
    QVERIFY(store.record(refresh(t2, { QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c") })));
    QVERIFY(store.record(refresh(t3, { QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c") })));

    const QHash<QString, FindingHistory> open = store.openFindings(m_key, t3);
    QCOMPARE(open.size(), 3);
    // Seen on the first refresh ever recorded: it began before the history did.
    QCOMPARE(open.value(QStringLiteral("a")).firstSeen, m_t0);
    QVERIFY(open.value(QStringLiteral("a")).beforeHistory);
    // Came back: a new interval, from when it came back.
    QCOMPARE(open.value(QStringLiteral("b")).firstSeen, t2);
    QVERIFY(!open.value(QStringLiteral("b")).beforeHistory);
    QCOMPARE(open.value(QStringLiteral("b")).intervalsLastDay, 2);
    QVERIFY(!open.value(QStringLiteral("b")).flapping());
    QCOMPARE(open.value(QStringLiteral("c")).firstSeen, t2);

    const QList<FindingInterval> b = store.intervals(m_key, QStringLiteral("b"));
    QCOMPARE(b.size(), 2);
    QCOMPARE(b[0].firstSeen, m_t0);
    QCOMPARE(b[0].lastSeen, m_t0);
    QCOMPARE(b[0].resolvedAt, t1);
    QCOMPARE(b[1].firstSeen, t2);
    QCOMPARE(b[1].lastSeen, t3);
    QVERIFY(!b[1].resolvedAt.isValid());
    // One interval per stretch, not a row per refresh.
    QCOMPARE(count(path(), QStringLiteral("SELECT COUNT(*) FROM intervals")), 4);
    QCOMPARE(count(path(), QStringLiteral("SELECT COUNT(*) FROM samples")), 4);
    QCOMPARE(store.samples(m_key, m_t0, t3).size(), 4);
    QCOMPARE(store.intervalsBetween(m_key, t1, t1).size(), 1); // b resolved at t1

    // Another kluster's history is its own.
    HistoryRecord other = refresh(t3, { QStringLiteral("a") });
    other.kluster = QStringLiteral("sim/RegionOne/legacy");
    QVERIFY(store.record(other));
    QVERIFY(store.openFindings(other.kluster, t3).value(QStringLiteral("a")).beforeHistory);
    QCOMPARE(store.openFindings(m_key, t3).value(QStringLiteral("a")).firstSeen, m_t0);
    QCOMPARE(store.klusters(), QStringList({ m_key, other.kluster }));
}

void TestHistoryStore::incompleteRefreshResolvesNothing()
{
    HistoryStore store(path());
    clocked(store);
    QVERIFY(store.open());
    QVERIFY(store.record(refresh(m_t0, { QStringLiteral("a"), QStringLiteral("b") })));
    HistoryRecord partial = refresh(m_t0.addSecs(300), { QStringLiteral("a") });
    partial.complete = false; // e.g. the server list failed: b's evidence is missing, not gone
    QVERIFY(store.record(partial));
    const QHash<QString, FindingHistory> open = store.openFindings(m_key, m_t0.addSecs(300));
    QCOMPARE(open.size(), 2);
    // Nor is it a sighting of what it could not see: b was last seen on the complete refresh.
    QCOMPARE(store.intervals(m_key, QStringLiteral("b")).constFirst().lastSeen, m_t0);
    // A healthy-looking incomplete state is no "last healthy" one.
    HistoryRecord empty = refresh(m_t0.addSecs(600), {});
    empty.complete = false;
    QVERIFY(store.record(empty));
    QVERIFY(!store.lastHealthy(m_key, m_t0.addDays(1)));
    // Its sample says so: the trends mark it and draw no value from it.
    const QList<HistorySample> samples = store.samples(m_key, m_t0, m_t0.addSecs(600));
    QCOMPARE(samples.size(), 3);
    QVERIFY(samples.at(0).complete);
    QVERIFY(!samples.at(1).complete);
    QVERIFY(!samples.at(2).complete);
}

void TestHistoryStore::failedRefreshIsASampleOnly()
{
    HistoryStore store(path());
    clocked(store);
    QVERIFY(store.open());
    QVERIFY(store.record(HistoryRecord::failure(m_key, m_t0, QStringLiteral("compute: 503"), 30000)));
    QVERIFY(store.record(refresh(m_t0.addSecs(300), { QStringLiteral("a") })));
    // The failed refresh was no look at the kluster: what the first good one sees began before history.
    QVERIFY(store.openFindings(m_key, m_t0.addSecs(300)).value(QStringLiteral("a")).beforeHistory);
    QVERIFY(store.record(HistoryRecord::failure(m_key, m_t0.addSecs(600), QStringLiteral("timeout"), 30000)));
    QCOMPARE(store.openFindings(m_key, m_t0.addSecs(600)).size(), 1);
    const QList<HistorySample> samples = store.samples(m_key, m_t0, m_t0.addSecs(600));
    QCOMPARE(samples.size(), 3);
    QVERIFY(!samples[0].ok);
    QCOMPARE(samples[0].error, QStringLiteral("compute: 503"));
    QCOMPARE(samples[0].routes, -1);
    QVERIFY(samples[1].ok);
    QCOMPARE(samples[1].routes, 10);
    QCOMPARE(samples[1].nodesExpected, 5);
}

void TestHistoryStore::severityChangeKeepsTheInterval()
{
    HistoryStore store(path());
    clocked(store);
    QVERIFY(store.open());
    QVERIFY(store.record(refresh(m_t0, { QStringLiteral("a") })));
    QVERIFY(store.record(refresh(m_t0.addSecs(300), { QStringLiteral("a") }, Severity::Critical)));
    const QList<FindingInterval> a = store.intervals(m_key, QStringLiteral("a"));
    QCOMPARE(a.size(), 1);
    QCOMPARE(a[0].severity, Severity::Critical);
    QCOMPARE(a[0].firstSeen, m_t0);
}

void TestHistoryStore::findingThatKeepsComingBackIsFlapping()
{
    HistoryStore store(path());
    clocked(store);
    QVERIFY(store.open());
    QDateTime t = m_t0;
    for (int i = 0; i < 3; ++i) {
        QVERIFY(store.record(refresh(t, { QStringLiteral("a"), QStringLiteral("x") })));
        t = t.addSecs(600);
        QVERIFY(store.record(refresh(t, { QStringLiteral("x") })));
        t = t.addSecs(600);
    }
    QVERIFY(store.record(refresh(t, { QStringLiteral("a"), QStringLiteral("x") })));
    FindingHistory a = store.openFindings(m_key, t).value(QStringLiteral("a"));
    QCOMPARE(a.intervalsLastDay, 4);
    QVERIFY(a.flapping());
    QVERIFY(!store.openFindings(m_key, t).value(QStringLiteral("x")).flapping());
    // A day later without a return, the old intervals no longer count.
    a = store.openFindings(m_key, t.addDays(2)).value(QStringLiteral("a"));
    QCOMPARE(a.intervalsLastDay, 1);
    QVERIFY(!a.flapping());
}

void TestHistoryStore::statesKeepTheNewestAndTheLastHealthy()
{
    HistoryStore store(path());
    clocked(store);
    QVERIFY(store.open());
    QVERIFY(store.record(refresh(m_t0, {}))); // healthy
    for (int i = 1; i <= 20; ++i)
        QVERIFY(store.record(refresh(m_t0.addSecs(300 * i), { QStringLiteral("f%1").arg(i) })));
    // An unchanged state is not kept again.
    QVERIFY(store.record(refresh(m_t0.addSecs(300 * 21), { QStringLiteral("f20") })));
    const QList<HistoryMoment> moments = store.moments(m_key);
    QCOMPARE(moments.size(), HistoryStore::KeptStates + 1);
    QCOMPARE(moments.constFirst().at, m_t0.addSecs(300 * 20));
    QCOMPARE(moments.constLast().at, m_t0);
    const std::optional<HistoryMoment> healthy = store.lastHealthy(m_key, m_t0.addSecs(300 * 21));
    QVERIFY(healthy);
    QCOMPARE(healthy->at, m_t0);
    QCOMPARE(store.digest(healthy->id), QByteArray("{\"findings\":\"\"}"));
    QCOMPARE(store.digest(moments.constFirst().id), QByteArray("{\"findings\":\"f20\"}"));
}

void TestHistoryStore::retentionPrunesByAge()
{
    HistoryStore store(path());
    clocked(store);
    QVERIFY(store.open());
    store.setRetention(1, HistoryStore::DefaultMaxMegabytes);
    QVERIFY(store.record(refresh(m_t0, { QStringLiteral("a"), QStringLiteral("b") })));
    QVERIFY(store.record(refresh(m_t0.addSecs(300), { QStringLiteral("a") })));
    QVERIFY(store.recordRepair(m_key, QStringLiteral("b"), QStringLiteral("fixed")));
    const QDateTime later = m_t0.addDays(3);
    QVERIFY(store.record(refresh(later, { QStringLiteral("a") }))); // prunes: the last prune was 3 days ago
    QCOMPARE(store.samples(m_key, m_t0, later).size(), 1);
    QCOMPARE(store.repairs(m_key, m_t0, later).size(), 0);
    QCOMPARE(store.intervals(m_key, QStringLiteral("b")).size(), 0); // resolved long ago
    // Still open: since when stays known, however old.
    QCOMPARE(store.openFindings(m_key, later).value(QStringLiteral("a")).firstSeen, m_t0);
}

void TestHistoryStore::retentionPrunesBySize()
{
    HistoryStore store(path());
    clocked(store);
    QVERIFY(store.open());
    store.setRetention(365, 100);
    // A large error text per sample fills the file quickly.
    for (int i = 0; i < 1500; ++i) {
        m_now = m_t0.addSecs(60 * i);
        HistoryRecord r
            = HistoryRecord::failure(m_key, m_t0.addSecs(60 * i), QString(1900, QLatin1Char('x')), 1);
        QVERIFY(store.record(r));
    }
    QVERIFY(store.usedBytes() > 1024 * 1024);
    store.setRetention(365, 1);
    QVERIFY(store.prune(m_t0.addSecs(60 * 1500)));
    QVERIFY2(store.usedBytes() <= 1024 * 1024, qPrintable(QString::number(store.usedBytes())));
    // The space comes back to the file system, and not all of it went: only the oldest.
    QVERIFY2(QFileInfo(path()).size() <= 1024 * 1024 + 64 * 1024,
        qPrintable(QString::number(QFileInfo(path()).size())));
    QVERIFY(store.samples(m_key, m_t0, m_t0.addDays(2)).size() > 100);
    const QList<HistorySample> left = store.samples(m_key, m_t0, m_t0.addDays(2));
    QVERIFY(!left.isEmpty());
    QCOMPARE(left.constLast().at, m_t0.addSecs(60 * 1499)); // the oldest went first
}

void TestHistoryStore::migratesFromVersionOne()
{
    // A file as the first schema wrote it, with a finding open and a sample.
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("v1"));
        db.setDatabaseName(path());
        QVERIFY(db.open());
        QSqlQuery q(db);
        for (const char *sql :
            { "CREATE TABLE klusters (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, first_recorded "
              "INTEGER "
              "NOT NULL, last_seen INTEGER)",
                "CREATE TABLE intervals (id INTEGER PRIMARY KEY, kluster INTEGER NOT NULL REFERENCES "
                "klusters(id), "
                "finding TEXT NOT NULL, severity TEXT NOT NULL, first_seen INTEGER NOT NULL, last_seen "
                "INTEGER NOT "
                "NULL, resolved_at INTEGER, before_history INTEGER NOT NULL DEFAULT 0)",
                "CREATE INDEX intervals_open ON intervals (kluster, resolved_at)",
                "CREATE INDEX intervals_finding ON intervals (kluster, finding, first_seen)",
                "CREATE TABLE samples (kluster INTEGER NOT NULL REFERENCES klusters(id), at INTEGER NOT "
                "NULL, ok "
                "INTEGER NOT NULL, duration_ms INTEGER NOT NULL, routes INTEGER, max_routes INTEGER, "
                "instances_active INTEGER, instances_error INTEGER, instances_other INTEGER, nodes_ready "
                "INTEGER, "
                "nodes_expected INTEGER, critical INTEGER, warning INTEGER, info INTEGER, error TEXT)",
                "CREATE INDEX samples_at ON samples (kluster, at)",
                "CREATE TABLE repairs (kluster INTEGER NOT NULL REFERENCES klusters(id), at INTEGER NOT "
                "NULL, "
                "finding TEXT NOT NULL, outcome TEXT NOT NULL)",
                "CREATE INDEX repairs_at ON repairs (kluster, at)",
                "INSERT INTO klusters VALUES (1, 'sim/RegionOne/demo', 1793527200000, 1793527200000)",
                "INSERT INTO intervals VALUES (1, 1, 'a', 'warning', 1793527200000, 1793527200000, NULL, 1)",
                "INSERT INTO samples VALUES (1, 1793527200000, 1, 100, 10, 30, 5, 0, 0, 4, 5, 0, 1, 0, NULL)",
                "PRAGMA user_version = 1" })
            QVERIFY2(q.exec(QString::fromLatin1(sql)), sql);
    }
    QSqlDatabase::removeDatabase(QStringLiteral("v1"));

    HistoryStore store(path());

    clocked(store);
    QVERIFY2(store.open(), qPrintable(store.error()));
    QVERIFY(store.takeNotice().isEmpty());
    QCOMPARE(count(path(), QStringLiteral("PRAGMA user_version")), HistoryStore::SchemaVersion);
    QCOMPARE(store.openFindings(m_key, m_t0).value(QStringLiteral("a")).firstSeen, m_t0);
    QVERIFY(store.record(refresh(m_t0.addSecs(300), { QStringLiteral("a") })));
    const QList<HistorySample> samples = store.samples(m_key, m_t0, m_t0.addSecs(300));
    QCOMPARE(samples.size(), 2);
    QVERIFY(samples.first().complete); // a sample of a version that did not say: complete
    QCOMPARE(store.moments(m_key).size(), 1);
    QCOMPARE(store.intervals(m_key, QStringLiteral("a")).size(), 1);
}

// An incident is kept as intervals, as a finding is: opened, kept open while seen (its latest title, severity
// and member count), resolved by a complete refresh that no longer sees it (never by an incomplete one),
// opened again as a new interval; resolved ones pruned with the retention.
void TestHistoryStore::incidentsOpenAndCloseLikeFindings()
{
    HistoryStore store(path());
    clocked(store);
    QVERIFY2(store.open(), qPrintable(store.error()));
    const QString zone = QStringLiteral("zone-outage:eu-de-1b");
    const QString cidr = QStringLiteral("recycled-pod-cidr:100.100.4.0/24");
    const QDateTime t1 = m_t0.addSecs(300), t2 = m_t0.addSecs(600), t3 = m_t0.addSecs(900),
                    t4 = m_t0.addSecs(1200);
    HistoryRecord r = refresh(m_t0, { QStringLiteral("a") });
    r.incidents = { incident(zone, 3) };
    QVERIFY2(store.record(r), qPrintable(store.error()));
    r = refresh(t1, { QStringLiteral("a") });
    r.incidents = { incident(zone, 5), incident(cidr) };
    QVERIFY(store.record(r));

    QHash<QString, IncidentHistory> open = store.openIncidents(m_key, t1);
    QCOMPARE(open.size(), 2);
    // On the kluster's first refresh: it began before the history did.
    QCOMPARE(open.value(zone).firstSeen, m_t0);
    QVERIFY(open.value(zone).beforeHistory);
    QCOMPARE(open.value(cidr).firstSeen, t1);
    QVERIFY(!open.value(cidr).beforeHistory);
    // One interval while it lasts, with its latest words.
    QList<IncidentInterval> zoneIntervals = store.incidentIntervals(m_key, zone);
    QCOMPARE(zoneIntervals.size(), 1);
    QCOMPARE(zoneIntervals[0].members, 5);
    QCOMPARE(zoneIntervals[0].title, incident(zone, 5).title);
    QCOMPARE(zoneIntervals[0].severity, Severity::Critical);
    QCOMPARE(zoneIntervals[0].lastSeen, t1);
    QVERIFY(!zoneIntervals[0].resolvedAt.isValid());

    // An incomplete refresh without them resolves neither (no incident comes from a partial source).
    r = refresh(t2, { QStringLiteral("a") });
    r.complete = false;
    QVERIFY(store.record(r));
    QCOMPARE(store.openIncidents(m_key, t2).size(), 2);

    // A complete one without the zone's resolves it (last seen on the refresh before), and the CIDR's stays.
    r = refresh(t3, { QStringLiteral("a") });
    r.incidents = { incident(cidr) };
    QVERIFY(store.record(r));
    open = store.openIncidents(m_key, t3);
    QCOMPARE(open.keys(), QStringList { cidr });
    zoneIntervals = store.incidentIntervals(m_key, zone);
    QCOMPARE(zoneIntervals.size(), 1);
    QCOMPARE(zoneIntervals[0].resolvedAt, t3);
    QCOMPARE(zoneIntervals[0].lastSeen, t1);
    QCOMPARE(store.incidentIntervalsBetween(m_key, t3, t3).size(), 1); // the zone's, resolved at t3
    QCOMPARE(store.incidentIntervalsBetween(m_key, t1, t1).size(), 1); // the CIDR's, opened at t1

    // Back: a new interval, from when it came back; the findings' history is untouched by all this.
    r = refresh(t4, { QStringLiteral("a") });
    r.incidents = { incident(cidr), incident(zone, 4) };
    QVERIFY(store.record(r));
    zoneIntervals = store.incidentIntervals(m_key, zone);
    QCOMPARE(zoneIntervals.size(), 2);
    QCOMPARE(zoneIntervals[1].firstSeen, t4);
    QVERIFY(!zoneIntervals[1].beforeHistory);
    QCOMPARE(store.openIncidents(m_key, t4).value(zone).intervalsLastDay, 2);
    QCOMPARE(store.openIncidents(m_key, t4).value(cidr).firstSeen, t1);
    QCOMPARE(store.incidentIntervals(m_key).size(), 3);
    QCOMPARE(store.intervals(m_key, QStringLiteral("a")).size(), 1);
    QCOMPARE(count(path(), QStringLiteral("SELECT COUNT(*) FROM incident_intervals")), 3);

    // Another kluster's incidents are its own.
    HistoryRecord other = refresh(t4, {});
    other.kluster = QStringLiteral("sim/RegionOne/legacy");
    QVERIFY(store.record(other));
    QVERIFY(store.openIncidents(other.kluster, t4).isEmpty());
    QVERIFY(store.incidentIntervals(other.kluster, zone).isEmpty());

    // The retention prunes the resolved interval, never an open one however old.
    store.setRetention(1, HistoryStore::DefaultMaxMegabytes);
    const QDateTime later = t4.addDays(3);
    r = refresh(later, {});
    r.incidents = { incident(cidr) };
    QVERIFY(store.record(r)); // prunes: the last prune was 3 days ago
    // The zone's first interval (resolved at t3) went; its second, resolved just now, stays.
    zoneIntervals = store.incidentIntervals(m_key, zone);
    QCOMPARE(zoneIntervals.size(), 1);
    QCOMPARE(zoneIntervals[0].firstSeen, t4);
    QCOMPARE(zoneIntervals[0].resolvedAt, later);
    QCOMPARE(store.openIncidents(m_key, later).value(cidr).firstSeen, t1);
}

void TestHistoryStore::incidentThatKeepsComingBackIsFlapping()
{
    HistoryStore store(path());
    clocked(store);
    QVERIFY(store.open());
    const QString group = QStringLiteral("security-group-detached:kks-demo");
    const QString closed = QStringLiteral("pod-network-closed:kks-demo");
    QDateTime t = m_t0;
    for (int i = 0; i < 3; ++i) {
        HistoryRecord r = refresh(t, {});
        r.incidents = { incident(group), incident(closed) };
        QVERIFY(store.record(r));
        t = t.addSecs(600);
        r = refresh(t, {});
        r.incidents = { incident(closed) };
        QVERIFY(store.record(r));
        t = t.addSecs(600);
    }
    HistoryRecord r = refresh(t, {});
    r.incidents = { incident(group), incident(closed) };
    QVERIFY(store.record(r));
    IncidentHistory h = store.openIncidents(m_key, t).value(group);
    QCOMPARE(h.intervalsLastDay, 4);
    QVERIFY(h.flapping());
    QVERIFY(!store.openIncidents(m_key, t).value(closed).flapping());
    // A day later without a return, the old intervals no longer count.
    h = store.openIncidents(m_key, t.addDays(2)).value(group);
    QCOMPARE(h.intervalsLastDay, 1);
    QVERIFY(!h.flapping());
}

// A Terminating kluster is diagnosed as its one finding: what it no longer shows was not compared, and stays
// open in the history (its record is incomplete), while kluster-terminating itself opens.
void TestHistoryStore::terminatingKlusterResolvesNothing()
{
    KlusterState state
        = SnapshotReader::read(QStringLiteral(FLIGHTDECK_SOURCE_DIR "/examples/broken-routes"));
    HistoryRecord running = HistoryRecord::of(state, Diagnosis::run(state), 10);
    QVERIFY(running.complete);
    QVERIFY(running.findings.size() > 1);
    state.kluster.phase = QStringLiteral("Terminating");
    const Diagnosis terminating = Diagnosis::run(state);
    HistoryRecord r = HistoryRecord::of(state, terminating, 10);
    QVERIFY(r.complete); // every source read: its numbers are whole
    QVERIFY(!r.resolves);
    QCOMPARE(r.findings.size(), 1);
    QVERIFY(r.findings.first().first.startsWith(QStringLiteral("kluster-terminating:")));
    // Recorded after a Running refresh: the route findings stay open, kluster-terminating opens.
    HistoryStore store(path());
    clocked(store);
    QVERIFY(store.open());
    running.at = m_now;
    QVERIFY2(store.record(running), qPrintable(store.error()));
    r.at = m_now.addSecs(300);
    QVERIFY2(store.record(r), qPrintable(store.error()));
    const QHash<QString, FindingHistory> open = store.openFindings(running.kluster, m_now.addSecs(300));
    QVERIFY2(open.size() == running.findings.size() + 1, qPrintable(QString::number(open.size())));
}

// What a diagnosis' incidents leave in the record: their ids, titles, severities and member counts.
void TestHistoryStore::incidentsOfADiagnosisAreRecorded()
{
    const KlusterState state
        = SnapshotReader::read(QStringLiteral(FLIGHTDECK_SOURCE_DIR "/examples/broken-routes"));
    const Diagnosis diagnosis = Diagnosis::run(state);
    QVERIFY(!diagnosis.incidents.isEmpty());
    HistoryRecord r = HistoryRecord::of(state, diagnosis, 10);
    QCOMPARE(r.incidents.size(), diagnosis.incidents.size());
    for (int i = 0; i < r.incidents.size(); ++i) {
        const Incident &incident = diagnosis.incidents.at(i);
        QCOMPARE(r.incidents.at(i).id, incident.id());
        QCOMPARE(r.incidents.at(i).title, incident.title);
        QCOMPARE(r.incidents.at(i).severity, incident.severity);
        QCOMPARE(r.incidents.at(i).members, int(incident.members.size()));
    }
    r.at = m_now;
    HistoryStore store(path());
    clocked(store);
    QVERIFY(store.open());
    QVERIFY(store.record(r));
    const QList<IncidentInterval> kept
        = store.incidentIntervals(r.kluster, diagnosis.incidents.constFirst().id());
    QCOMPARE(kept.size(), 1);
    QCOMPARE(kept[0].title, diagnosis.incidents.constFirst().title);
}

// A file as schema 5 left it (acknowledgements, no incidents), with a finding open: it is migrated in place,
// its findings read as before, and the incidents its first refresh after sees began earlier.
void TestHistoryStore::migratesFromVersionFive()
{
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("v5"));
        db.setDatabaseName(path());
        QVERIFY(db.open());
        QSqlQuery q(db);
        for (const char *sql :
            { "PRAGMA auto_vacuum = FULL",
                "CREATE TABLE klusters (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, first_recorded "
                "INTEGER NOT NULL, last_seen INTEGER)",
                "CREATE TABLE intervals (id INTEGER PRIMARY KEY, kluster INTEGER NOT NULL REFERENCES "
                "klusters(id), finding TEXT NOT NULL, severity TEXT NOT NULL, first_seen INTEGER NOT NULL, "
                "last_seen INTEGER NOT NULL, resolved_at INTEGER, before_history INTEGER NOT NULL DEFAULT 0)",
                "CREATE INDEX intervals_open ON intervals (kluster, resolved_at)",
                "CREATE INDEX intervals_finding ON intervals (kluster, finding, first_seen)",
                "CREATE TABLE samples (kluster INTEGER NOT NULL REFERENCES klusters(id), at INTEGER NOT "
                "NULL, "
                "ok INTEGER NOT NULL, duration_ms INTEGER NOT NULL, routes INTEGER, max_routes INTEGER, "
                "instances_active INTEGER, instances_error INTEGER, instances_other INTEGER, nodes_ready "
                "INTEGER, nodes_expected INTEGER, critical INTEGER, warning INTEGER, info INTEGER, error "
                "TEXT, "
                "recorded_at INTEGER, complete INTEGER)",
                "CREATE INDEX samples_at ON samples (kluster, at)",
                "CREATE INDEX samples_recorded ON samples (recorded_at)",
                "CREATE TABLE repairs (kluster INTEGER NOT NULL REFERENCES klusters(id), at INTEGER NOT "
                "NULL, "
                "finding TEXT NOT NULL, outcome TEXT NOT NULL)",
                "CREATE INDEX repairs_at ON repairs (kluster, at)",
                "CREATE TABLE states (id INTEGER PRIMARY KEY, kluster INTEGER NOT NULL REFERENCES "
                "klusters(id), at INTEGER NOT NULL, critical INTEGER NOT NULL, warning INTEGER NOT NULL, "
                "complete INTEGER NOT NULL, digest BLOB NOT NULL, digest_sha1 BLOB NOT NULL)",
                "CREATE INDEX states_at ON states (kluster, at)",
                "CREATE TABLE acknowledgements (id INTEGER PRIMARY KEY, kluster INTEGER NOT NULL REFERENCES "
                "klusters(id), finding TEXT NOT NULL, by TEXT NOT NULL, note TEXT NOT NULL, at INTEGER NOT "
                "NULL, until INTEGER NOT NULL, severity TEXT NOT NULL, fingerprint BLOB NOT NULL, ended_at "
                "INTEGER, ended TEXT)",
                "CREATE INDEX acknowledgements_finding ON acknowledgements (kluster, finding)",
                // 10:00 on 2026-11-01: a kluster seen since, finding a open from the start, acknowledged.
                "INSERT INTO klusters VALUES (1, 'sim/RegionOne/demo', 1793527200000, 1793527200000)",
                "INSERT INTO intervals VALUES (1, 1, 'a', 'critical', 1793527200000, 1793527200000, NULL, 1)",
                "INSERT INTO samples VALUES (1, 1793527200000, 1, 100, 10, 30, 5, 0, 0, 4, 5, 1, 0, 0, NULL, "
                "1793527200000, 1)",
                "INSERT INTO acknowledgements VALUES (1, 1, 'a', 'alice', 'on it', 1793527200000, "
                "1793534400000, 'critical', x'00', NULL, NULL)",
                "PRAGMA user_version = 5" })
            QVERIFY2(q.exec(QString::fromLatin1(sql)), sql);
    }
    QSqlDatabase::removeDatabase(QStringLiteral("v5"));
    QCOMPARE(m_now.toMSecsSinceEpoch(), Q_INT64_C(1793527200000)); // the instant the file was written at

    HistoryStore store(path());
    clocked(store);
    QVERIFY2(store.open(), qPrintable(store.error()));
    QVERIFY(store.takeNotice().isEmpty()); // migrated, not moved aside
    QCOMPARE(count(path(), QStringLiteral("PRAGMA user_version")), HistoryStore::SchemaVersion);
    // What schema 5 kept reads as it did.
    QCOMPARE(store.openFindings(m_key, m_t0).value(QStringLiteral("a")).firstSeen, m_t0);
    QCOMPARE(store.acknowledgements(m_key, m_t0).value(QStringLiteral("a")).by, QStringLiteral("alice"));
    QVERIFY(store.openIncidents(m_key, m_t0).isEmpty());

    // The first refresh after: its incident began before incidents were recorded, although the kluster's
    // history is older; finding a goes on in its interval.
    const QString cidr = QStringLiteral("recycled-pod-cidr:100.100.4.0/24");
    const QString group = QStringLiteral("security-group-detached:kks-demo");
    HistoryRecord r = refresh(m_t0.addSecs(300), { QStringLiteral("a"), QStringLiteral("b") });
    r.incidents = { incident(cidr) };
    QVERIFY2(store.record(r), qPrintable(store.error()));
    QVERIFY(store.openIncidents(m_key, r.at).value(cidr).beforeHistory);
    QVERIFY(!store.openFindings(m_key, r.at).value(QStringLiteral("b")).beforeHistory);
    QCOMPARE(store.intervals(m_key, QStringLiteral("a")).size(), 1);
    // One that opens later is seen opening.
    r = refresh(m_t0.addSecs(600), { QStringLiteral("a"), QStringLiteral("b") });
    r.incidents = { incident(cidr), incident(group) };
    QVERIFY(store.record(r));
    const QHash<QString, IncidentHistory> open = store.openIncidents(m_key, r.at);
    QVERIFY(open.value(cidr).beforeHistory);
    QCOMPARE(open.value(cidr).firstSeen, m_t0.addSecs(300));
    QVERIFY(!open.value(group).beforeHistory);
    QCOMPARE(open.value(group).firstSeen, m_t0.addSecs(600));
}

void TestHistoryStore::notADatabaseIsMovedAside()
{
    {
        QFile f(path());
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray("this is not a database, but somebody's notes\n").repeated(200));
    }
    HistoryStore store(path());
    clocked(store);
    QVERIFY2(store.open(), qPrintable(store.error()));
    const QString notice = store.takeNotice();
    const QStringList aside = movedAside(m_dir->path());
    QCOMPARE(aside.size(), 1);
    QVERIFY2(notice.contains(QStringLiteral("is not readable")), qPrintable(notice));
    QVERIFY2(notice.contains(aside.constFirst()), qPrintable(notice));
    QFile kept(m_dir->filePath(aside.constFirst()));
    QVERIFY(kept.open(QIODevice::ReadOnly));
    QVERIFY(kept.readAll().startsWith("this is not a database")); // nothing lost
    QVERIFY(store.record(refresh(m_t0, { QStringLiteral("a") })));
}

void TestHistoryStore::corruptDatabaseIsMovedAside()
{
    {
        HistoryStore store(path());
        clocked(store);
        QVERIFY(store.open());
        for (int i = 0; i < 300; ++i)
            QVERIFY(store.record(refresh(m_t0.addSecs(300 * i), { QStringLiteral("f%1").arg(i % 50) })));
    }
    QVERIFY(!QFileInfo::exists(path() + QStringLiteral("-wal"))
        || QFileInfo(path() + QStringLiteral("-wal")).size() == 0);
    {
        // Pages past the first overwritten: the header reads, the tables do not.
        QFile f(path());
        QVERIFY(f.open(QIODevice::ReadWrite));
        QVERIFY(f.size() > 8 * 4096);
        f.seek(2 * 4096);
        f.write(QByteArray(5 * 4096, '\xa5'));
    }
    HistoryStore store(path());
    clocked(store);
    QVERIFY2(store.open(), qPrintable(store.error()));
    const QString notice = store.takeNotice();
    QVERIFY2(notice.contains(QStringLiteral("corrupt")) || notice.contains(QStringLiteral("not readable")),
        qPrintable(notice));
    QVERIFY2(!notice.contains(QLatin1Char('\n')), qPrintable(notice)); // one line, however many problems
    QCOMPARE(movedAside(m_dir->path()).size(), 1);
    QVERIFY(store.record(refresh(m_t0, { QStringLiteral("a") })));
    QCOMPARE(store.samples(m_key, m_t0, m_t0.addDays(10)).size(), 1);
}

void TestHistoryStore::newerSchemaIsMovedAside()
{
    {
        HistoryStore store(path());
        clocked(store);
        QVERIFY(store.open());
        QVERIFY(store.record(refresh(m_t0, { QStringLiteral("a") })));
    }
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("newer"));
        db.setDatabaseName(path());
        QVERIFY(db.open());
        QVERIFY(QSqlQuery(db).exec(QStringLiteral("PRAGMA user_version = 9")));
    }
    QSqlDatabase::removeDatabase(QStringLiteral("newer"));
    HistoryStore store(path());
    clocked(store);
    QVERIFY2(store.open(), qPrintable(store.error()));
    const QString notice = store.takeNotice();
    QVERIFY2(
        notice.contains(QStringLiteral("newer Flightdeck")) && notice.contains(QStringLiteral("version 9")),
        qPrintable(notice));
    const QStringList aside = movedAside(m_dir->path());
    QCOMPARE(aside.size(), 1);
    QCOMPARE(count(m_dir->filePath(aside.constFirst()), QStringLiteral("PRAGMA user_version")), 9);
    QCOMPARE(store.samples(m_key, m_t0, m_t0).size(), 0);
}

void TestHistoryStore::lockedDatabaseIsMovedAside()
{
    // A program of its own (a rollback journal, not WAL) holds a write lock: not even the header can be read.
    QSqlDatabase holder = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("holder"));
    holder.setDatabaseName(path());
    QVERIFY(holder.open());
    {
        QSqlQuery q(holder);
        QVERIFY(q.exec(QStringLiteral("PRAGMA journal_mode = DELETE")));
        QVERIFY(q.exec(QStringLiteral("CREATE TABLE theirs (x)")));
        QVERIFY(q.exec(QStringLiteral("BEGIN EXCLUSIVE")));
        QVERIFY(q.exec(QStringLiteral("INSERT INTO theirs VALUES (1)")));
    }
    {
        HistoryStore store(path());
        clocked(store);
        store.setBusyTimeout(200);
        QVERIFY2(store.open(), qPrintable(store.error()));
        const QString notice = store.takeNotice();
        QVERIFY2(notice.contains(QStringLiteral("locked")), qPrintable(notice));
        QCOMPARE(movedAside(m_dir->path()).size(), 1);
        QVERIFY(store.record(refresh(m_t0, { QStringLiteral("a") })));
    }
    QSqlQuery(holder).exec(QStringLiteral("ROLLBACK"));
    holder.close();
    holder = QSqlDatabase();
    QSqlDatabase::removeDatabase(QStringLiteral("holder"));
}

void TestHistoryStore::busyDatabaseIsWaitedForNotMovedAside()
{
    HistoryStore store(path());
    clocked(store);
    store.setBusyTimeout(200);
    QVERIFY(store.open());
    QVERIFY(store.record(refresh(m_t0, { QStringLiteral("a") })));
    // Another writer (the CLI, say) holds the history longer than this one waits: this record fails, named,
    // and nothing is moved aside.
    QSqlDatabase writer = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("writer"));
    writer.setDatabaseName(path());
    QVERIFY(writer.open());
    QVERIFY(QSqlQuery(writer).exec(QStringLiteral("BEGIN IMMEDIATE")));
    HistoryStore second(path());
    clocked(second);
    second.setBusyTimeout(200);
    QVERIFY2(second.open(), qPrintable(second.error())); // reading is not blocked in WAL mode
    QVERIFY(!store.record(refresh(m_t0.addSecs(300), { QStringLiteral("a") })));
    QVERIFY2(store.error().contains(QStringLiteral("locked")), qPrintable(store.error()));
    QSqlQuery(writer).exec(QStringLiteral("ROLLBACK"));
    writer.close();
    writer = QSqlDatabase();
    QSqlDatabase::removeDatabase(QStringLiteral("writer"));
    QVERIFY(movedAside(m_dir->path()).isEmpty());
    QVERIFY2(store.record(refresh(m_t0.addSecs(600), { QStringLiteral("a") })), qPrintable(store.error()));
    QCOMPARE(store.samples(m_key, m_t0, m_t0.addSecs(600)).size(), 2);
}

void TestHistoryStore::negativeSchemaVersionIsMovedAside()
{
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("negative"));
        db.setDatabaseName(path());
        QVERIFY(db.open());
        QVERIFY(QSqlQuery(db).exec(QStringLiteral("PRAGMA user_version = -3")));
    }
    QSqlDatabase::removeDatabase(QStringLiteral("negative"));
    HistoryStore store(path());
    clocked(store);
    QVERIFY2(store.open(), qPrintable(store.error()));
    QVERIFY(store.takeNotice().contains(QStringLiteral("version -3")));
    QCOMPARE(movedAside(m_dir->path()).size(), 1);
    QVERIFY(store.record(refresh(m_t0, { QStringLiteral("a") })));
}

void TestHistoryStore::olderRefreshIsASampleOnly()
{
    HistoryStore store(path());
    clocked(store);
    QVERIFY(store.open());
    QVERIFY(store.record(refresh(m_t0, { QStringLiteral("a") })));
    QVERIFY(store.record(refresh(m_t0.addSecs(600), { QStringLiteral("a") })));
    // A refresh of an earlier moment (another writer's, a snapshot of the past) arrives late.
    QVERIFY(store.record(refresh(m_t0.addSecs(300), { QStringLiteral("b") })));
    QCOMPARE(store.samples(m_key, m_t0, m_t0.addSecs(600)).size(), 3);
    QCOMPARE(store.intervals(m_key, QStringLiteral("a")).size(), 1);
    QVERIFY(!store.intervals(m_key, QStringLiteral("a")).constFirst().resolvedAt.isValid());
    QVERIFY(store.intervals(m_key, QStringLiteral("b")).isEmpty());
}

void TestHistoryStore::unwritableFolderIsAnError()
{
    // Its folder cannot be made (a file stands where it would be): no history, and a clear error.
    const QString blocker = m_dir->filePath(QStringLiteral("flightdeck"));
    QFile f(blocker);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.close();
    HistoryStore store(blocker + QStringLiteral("/history.sqlite"));
    QVERIFY(!store.open());
    QVERIFY2(store.error().contains(QStringLiteral("cannot create the folder")), qPrintable(store.error()));
    QVERIFY(!store.record(refresh(m_t0, {})));
    QVERIFY(store.takeNotice().isEmpty());
}

void TestHistoryStore::concurrentWritersFromTheCommandLine()
{
    // Three flightdeck-cli check --record at once, four times each, while this process records too.
    const QString data = m_dir->filePath(QStringLiteral("data"));
    const QString file = data + QStringLiteral("/flightdeck/history.sqlite");
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), data);
    env.insert(QStringLiteral("HOME"), m_dir->path());
    const QString snapshot = QStringLiteral(FLIGHTDECK_SOURCE_DIR "/examples/broken-routes");
    constexpr int Processes = 3, Rounds = 4, Own = 40;
    // This process's refreshes in the last hour: the command line's records run on the machine's clock, and
    // their retention prunes what is older than 30 days (a fixed date here failed once it was that old).
    const QDateTime t0 = QDateTime::currentDateTimeUtc().addSecs(-3600);
    std::vector<std::unique_ptr<QProcess>> running;
    int started = 0, finished = 0;
    const auto startOne = [&] {
        auto p = std::make_unique<QProcess>();
        p->setProcessEnvironment(env);
        p->start(QStringLiteral(FLIGHTDECK_CLI),
            { QStringLiteral("check"), QStringLiteral("--snapshot"), snapshot, QStringLiteral("--record") });
        running.push_back(std::move(p));
        ++started;
    };
    for (int i = 0; i < Processes; ++i)
        startOne();
    HistoryStore store(file);
    clocked(store);
    QVERIFY2(store.open(), qPrintable(store.error()));
    int own = 0;
    while (finished < Processes * Rounds || own < Own) {
        if (own < Own) {
            QVERIFY2(store.record(refresh(t0.addSecs(60 * own), { QStringLiteral("a") })),
                qPrintable(store.error()));
            ++own;
        }
        for (size_t i = 0; i < running.size(); ++i) {
            std::unique_ptr<QProcess> &p = running[i];
            if (p && p->waitForFinished(own < Own ? 0 : 30000)) {
                QCOMPARE(p->exitCode(), 2); // broken-routes: critical findings
                const QByteArray said = p->readAllStandardError();
                QVERIFY2(!said.contains("history") && !said.contains("not recorded"), said.constData());
                p.reset();
                ++finished;
                if (started < Processes * Rounds)
                    startOne();
            }
        }
    }
    QVERIFY(store.takeNotice().isEmpty());
    QCOMPARE(text(file, QStringLiteral("PRAGMA integrity_check")), QStringLiteral("ok"));
    QCOMPARE(count(file, QStringLiteral("SELECT COUNT(*) FROM samples")), Processes * Rounds + Own);
    QCOMPARE(count(file, QStringLiteral("SELECT COUNT(*) FROM klusters")), 2);
    QCOMPARE(store.samples(m_key, t0, t0.addDays(1)).size(), Own);
    QVERIFY(movedAside(data + QStringLiteral("/flightdeck")).isEmpty());
}

void TestHistoryStore::futureRecordIsASampleThatPrunesNothing()
{
    HistoryStore store(path());
    clocked(store);
    QVERIFY(store.open());
    for (int i = 0; i < 6; ++i)
        QVERIFY(store.record(refresh(m_t0.addSecs(60 * i), { QStringLiteral("a") })));
    // Another cloud's snapshot captured in 2031 (or a cloud whose clock runs 40 days ahead), recorded now.
    HistoryRecord future
        = refresh(QDateTime(QDate(2031, 3, 1), QTime(12, 0), Qt::UTC), { QStringLiteral("x") });
    m_now = m_t0.addSecs(400); // this machine's clock did not move
    future.kluster = QStringLiteral("other/RegionOne/far");
    QVERIFY(store.record(future));
    QVERIFY(store.prune(m_now));
    // Every kluster keeps its history: retention runs on this machine's clock, never on a record's.
    QCOMPARE(store.samples(m_key, m_t0, m_t0.addDays(1)).size(), 6);
    QCOMPARE(store.intervals(m_key, QStringLiteral("a")).size(), 1);
    // The far record is a sample only: nothing opened, no state kept.
    QCOMPARE(store.samples(future.kluster, future.at, future.at).size(), 1);
    QVERIFY(store.openFindings(future.kluster, future.at).isEmpty());
    QVERIFY(store.moments(future.kluster).isEmpty());
    // And a snapshot of last month, recorded today: a sample as well, which neither resolves nor reopens.
    HistoryRecord past = refresh(m_t0.addDays(-30), {});
    QVERIFY(store.record(past));
    QVERIFY(!store.intervals(m_key, QStringLiteral("a")).constFirst().resolvedAt.isValid());
}

void TestHistoryStore::clockSteppedBackStillResolves()
{
    HistoryStore store(path());
    clocked(store);
    QVERIFY(store.open());
    // Recorded while the clock ran 40 days ahead (or by an earlier Flightdeck on a skewed cloud's clock).
    m_now = m_t0.addDays(40);
    QVERIFY(store.record(refresh(m_now, { QStringLiteral("a") })));
    // The clock steps back to the truth; the finding is repaired.
    m_now = m_t0;
    HistoryRecord repaired = refresh(m_t0, {});
    m_now = m_t0;
    QVERIFY(store.record(repaired));
    const QList<FindingInterval> a = store.intervals(m_key, QStringLiteral("a"));
    QCOMPARE(a.size(), 1);
    QVERIFY2(a.constFirst().resolvedAt.isValid(), "a repaired finding stayed open");
    QVERIFY(store.openFindings(m_key, m_t0).isEmpty());
    // The healthy state is kept, and is the newest moment.
    const QList<HistoryMoment> moments = store.moments(m_key);
    QCOMPARE(moments.size(), 2);
    QCOMPARE(moments.constFirst().at, m_t0);
    QVERIFY(moments.constFirst().healthy());
    // What follows on the true clock goes on as usual.
    QVERIFY(store.record(refresh(m_t0.addSecs(300), { QStringLiteral("b") })));
    QCOMPARE(store.openFindings(m_key, m_now).size(), 1);
}

void TestHistoryStore::processesMoveAsideOnlyTheFileFoundUnusable()
{
    // Several flightdeck-cli check --record meet an unusable history at once: one moves it aside, the others
    // use the fresh one it started. No record ends in a file nothing reads, none vanishes.
    const QString data = m_dir->filePath(QStringLiteral("data"));
    const QString folder = data + QStringLiteral("/flightdeck");
    const QString file = folder + QStringLiteral("/history.sqlite");
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), data);
    env.insert(QStringLiteral("HOME"), m_dir->path());
    const QString snapshot = QStringLiteral(FLIGHTDECK_SOURCE_DIR "/examples/broken-routes");
    constexpr int Rounds = 3, Processes = 8;
    for (int round = 0; round < Rounds; ++round) {
        QVERIFY(QDir().mkpath(folder));
        for (const QString &f : QDir(folder).entryList(QDir::Files))
            QVERIFY(QFile::remove(QDir(folder).filePath(f)));
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray("not a database\n").repeated(100));
        }
        std::vector<std::unique_ptr<QProcess>> running;
        for (int i = 0; i < Processes; ++i) {
            auto p = std::make_unique<QProcess>();
            p->setProcessEnvironment(env);
            p->start(QStringLiteral(FLIGHTDECK_CLI),
                { QStringLiteral("check"), QStringLiteral("--snapshot"), snapshot,
                    QStringLiteral("--record") });
            running.push_back(std::move(p));
        }
        int told = 0;
        for (auto &p : running) {
            QVERIFY(p->waitForFinished(60000));
            QCOMPARE(p->exitCode(), 2);
            const QByteArray err = p->readAllStandardError();
            QVERIFY2(!err.contains("not recorded"), err.constData());
            told += err.contains("moved") ? 1 : 0;
        }
        QCOMPARE(movedAside(folder).size(), 1); // the one unusable file, once
        QVERIFY(told >= 1);
        QCOMPARE(count(file, QStringLiteral("SELECT COUNT(*) FROM samples")), Processes);
    }
}

void TestHistoryStore::fullDiskIsNamed()
{
    // The history on a file system of 256 KiB that fills up: the error says the disk is full, not "disk I/O
    // error", and the file is not moved aside for it.
    const QString folder = m_dir->filePath(QStringLiteral("small"));
    QVERIFY(QDir().mkpath(folder));
    if (::mount("tmpfs", QFile::encodeName(folder).constData(), "tmpfs", 0, "size=256k,mode=0700") != 0)
        QSKIP("no tmpfs can be mounted here (it takes root): the full disk is not tried");
    const auto unmount = qScopeGuard([&] { ::umount2(QFile::encodeName(folder).constData(), MNT_DETACH); });
    QString error;
    {
        HistoryStore store(folder + QStringLiteral("/history.sqlite"));
        clocked(store);
        QVERIFY2(store.open(), qPrintable(store.error()));
        bool failed = false;
        for (int i = 0; i < 2000 && !failed; ++i) {
            HistoryRecord r = HistoryRecord::failure(m_key, m_now, QString(1900, QLatin1Char('x')), 1);
            failed = !store.record(r);
            error = store.error();
        }
        QVERIFY2(failed, "256 KiB never filled");
        QVERIFY2(error.contains(QStringLiteral("the disk is full")), qPrintable(error));
        QVERIFY(store.takeNotice().isEmpty());
    }
    QVERIFY(movedAside(folder).isEmpty());
}

void TestHistoryStore::readOnlyFileSystemIsNamed()
{
    const QString folder = m_dir->filePath(QStringLiteral("ro"));
    QVERIFY(QDir().mkpath(folder));
    const QByteArray name = QFile::encodeName(folder);
    if (::mount("tmpfs", name.constData(), "tmpfs", 0, "size=1m,mode=0700") != 0)
        QSKIP("no tmpfs can be mounted here (it takes root): the read-only file system is not tried");
    const auto unmount = qScopeGuard([&] { ::umount2(name.constData(), MNT_DETACH); });
    QVERIFY(::mount("tmpfs", name.constData(), "tmpfs", MS_REMOUNT | MS_RDONLY, "size=1m,mode=0700") == 0);
    HistoryStore store(folder + QStringLiteral("/history.sqlite"));
    clocked(store);
    QVERIFY(!store.open());
    QVERIFY2(store.error().contains(QStringLiteral("read-only"), Qt::CaseInsensitive)
            && store.error().contains(QStringLiteral("EROFS")),
        qPrintable(store.error()));
    QVERIFY(store.takeNotice().isEmpty());
}

void TestHistoryStore::linkIsNotFollowed()
{
    QTemporaryDir elsewhere;
    const QString theirs = elsewhere.filePath(QStringLiteral("theirs.sqlite"));
    {
        QFile f(theirs);
        QVERIFY(f.open(QIODevice::WriteOnly));
    }
    QVERIFY(QFile::link(theirs, path()));
    HistoryStore store(path());
    clocked(store);
    QVERIFY(!store.open());
    QVERIFY2(store.error().contains(QStringLiteral("link")), qPrintable(store.error()));
    QCOMPARE(QFileInfo(theirs).size(), 0);
    QVERIFY(movedAside(m_dir->path()).isEmpty());
}

QTEST_GUILESS_MAIN(TestHistoryStore)
#include "tst_historystore.moc"
