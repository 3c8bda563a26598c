#pragma once

#include "core/acknowledgement.h"
#include "core/finding.h"
#include "core/findinghistory.h"
#include "core/routehistory.h"
#include "services/history/historyintervals.h"

#include <QByteArray>
#include <QDateTime>
#include <QHash>
#include <QList>
#include <QSqlDatabase>
#include <QString>
#include <QVariantMap>
#include <functional>
#include <optional>
#include <utility>

class QSqlQuery;

struct KlusterState;
struct Diagnosis;

// One point of the trends: a refresh's instant and numbers.
struct HistorySample
{
    QDateTime at; // the refresh's instant (the state's capturedAt)
    bool ok = true; // false: the refresh failed; only `error` and `durationMs` are known
    qint64 durationMs = 0;
    int routes = -1;
    int maxRoutes = -1; // -1: unknown
    int instancesActive = 0;
    int instancesError = 0;
    int instancesOther = 0;
    qint64 nodesReady = 0;
    qint64 nodesExpected = 0;
    int critical = 0;
    int warning = 0;
    int info = 0;
    QString error;
    // Every source was read. An incomplete refresh's numbers are lower bounds: the trends mark it, never draw
    // it as a value.
    bool complete = true;
};

// An incident (diagnosis.md §5) as one refresh saw it.
struct HistoryIncident
{
    QString id; // Incident::id(): "<rule>:<key>"
    QString title;
    Severity severity = Severity::Critical;
    int members = 0; // how many findings it groups
};

// What one refresh of a kluster leaves in the history: its sample, its findings (by id and severity), its
// incidents, and the digest of its state (core/statediff.h) to tell it from another moment. Nothing secret:
// ids, names, counts.
struct HistoryRecord : HistorySample
{
    QString kluster; // HistoryStore::klusterKey()
    // `complete` (every source was read): a finding that is not in `findings` is resolved. An incomplete
    // refresh only extends what it sees and closes nothing (missing evidence decides nothing).
    QList<QPair<QString, Severity>> findings; // id, severity
    // Opened, kept open and resolved like the findings (by the same rules: an incomplete refresh resolves
    // none).
    QList<HistoryIncident> incidents;
    QByteArray digest; // StateDigest::toJson(); empty: not kept
    // False: what the diagnosis does not show was not compared (a Terminating kluster is its one finding), so
    // nothing is resolved, though every source was read.
    bool resolves = true;

    static HistoryRecord of(const KlusterState &state, const Diagnosis &diagnosis, qint64 durationMs);
    static HistoryRecord failure(
        const QString &kluster, const QDateTime &at, const QString &error, qint64 durationMs);
};

// One interval of a finding: from first seen to resolved (open: resolvedAt invalid).
struct FindingInterval
{
    QString finding;
    Severity severity = Severity::Warning; // the latest; a name no version wrote reads as a warning
    QDateTime firstSeen;
    QDateTime lastSeen;
    QDateTime resolvedAt;
    bool beforeHistory = false;
};

// One interval of an incident: from first seen to resolved (open: resolvedAt invalid), with its latest
// title, severity and number of members.
struct IncidentInterval
{
    QString incident; // its id, "<rule>:<key>"
    QString title;
    Severity severity = Severity::Critical;
    int members = 0;
    QDateTime firstSeen;
    QDateTime lastSeen;
    QDateTime resolvedAt;
    // Seen on the first refresh that recorded incidents (the kluster's first, or the first after a history
    // of an older Flightdeck was migrated): it began earlier.
    bool beforeHistory = false;
};

// A stored moment of a kluster: its digest's id, instant and findings' counts.
struct HistoryMoment
{
    qint64 id = 0;
    QDateTime at;
    int critical = 0;
    int warning = 0;
    bool complete = true; // every source was read
    bool healthy() const { return complete && critical == 0 && warning == 0; }
};

// The local history of every kluster: one SQLite file beside the audit log
// (<data>/flightdeck/history.sqlite), shared by the console and the command
// line, written in WAL mode with short transactions so both can write at
// once. A finding is stored as intervals (first seen, last seen, resolved at),
// not a row per refresh, and so is an incident (historyincidents.cpp); the numbers of each refresh are one
// small row; the last few states' digests are kept to diff. Old rows are pruned by age and, past the size
// bound, oldest first.
//
// A file that is locked past the busy timeout, corrupt, or written by a newer
// schema is never overwritten: it is moved aside (renamed, with its -wal and
// -shm) and a fresh one started; notice() says so. Several processes may find
// it so at once: under a lock beside it, only the file found unusable (the same
// device and inode) is moved, never the fresh one another made meanwhile.
//
// Time is this machine's: every record's instant is on its clock (a live
// refresh's is brought from the cloud's, localInstant()), the retention runs on
// it, and a record far from it (a snapshot of another day, a cloud whose clock
// is off) is a sample only, which neither opens, resolves nor prunes anything.
// Of one kluster's records, the newest by that clock is the one that counts; a
// kluster last seen in the future (a clock that stepped back since) takes the
// next record as newest. The folder must be this user's alone
// (LocalFile::isPrivateFolder) and the file no link.
//
// One HistoryStore is used on one thread (Qt SQL connections are per thread);
// the console keeps its own on a worker thread.
class HistoryStore
{
public:
    static constexpr int SchemaVersion = 6;
    static constexpr int KeptStates = 12; // digests kept per kluster, besides the last healthy one
    static constexpr int DefaultRetentionDays = 30;
    static constexpr int DefaultMaxMegabytes = 200;

    // A record whose instant is further than this from this machine's clock (a snapshot of another day, a
    // cloud whose clock is off) is kept as a sample only: it opens, resolves and prunes nothing.
    static constexpr int MaxSkewSeconds = 600;

    static QString defaultPath();
    // "<cloud>/<region>/<kluster>": the same kluster from the console and the command line.
    static QString klusterKey(const QString &cloud, const QString &region, const QString &kluster);
    // An instant of the cloud's clock (a live refresh's capturedAt, which is on the cloud's clock where it is
    // off by more than the Date header's resolution: KlusterFetcher) on this machine's, as the history keeps
    // every time.
    static QDateTime localInstant(const QDateTime &cloudInstant, qint64 serverClockOffsetMs);

    explicit HistoryStore(QString path = defaultPath());
    ~HistoryStore();
    HistoryStore(const HistoryStore &) = delete;
    HistoryStore &operator=(const HistoryStore &) = delete;

    // Opens (creating or migrating) the file; false with error() when no history can be kept at all.
    bool open();
    bool isOpen() const { return m_open; }
    QString path() const { return m_path; }
    QString error() const { return m_error; }
    // What happened to an unusable file (moved aside, and why); empty when nothing did. Taken once.
    QString takeNotice();

    void setRetention(int days, int maxMegabytes);
    // How long to wait for another writer before the file counts as locked (5 s; before open()).
    void setBusyTimeout(int ms) { m_busyTimeoutMs = ms; }
    // Opens for reading only (before open()): no migration, no check, nothing moved aside, a file that is
    // not there or not at this version is just no history. For a quick look from a busy thread.
    void setReadOnly(bool readOnly) { m_readOnly = readOnly; }
    // This machine's clock, which the retention and the order of records run on (tests set their own).
    void setClock(std::function<QDateTime()> clock) { m_clock = std::move(clock); }

    // Records one refresh in one transaction; false with error().
    bool record(const HistoryRecord &record);
    // A repair of a finding, marked on the trends now. Recorded once, by the repair's executor (the
    // console's and the command line's alike).
    bool recordRepair(const QString &kluster, const QString &finding, const QString &outcome);

    // Acknowledgements (historyacknowledgements.cpp). acknowledge() ends the finding's earlier one
    // ("replaced"); unacknowledge() ends it ("withdrawn") at now. Both are kept until the retention prunes
    // them.
    bool acknowledge(const QString &kluster, const Acknowledgement &acknowledgement);
    bool unacknowledge(const QString &kluster, const QString &finding);
    // The kluster's acknowledgements not ended nor run out at `now`, by finding.
    QHash<QString, Acknowledgement> acknowledgements(const QString &kluster, const QDateTime &now);
    // Every acknowledgement of one finding, oldest first, with how it ended (empty: it has not; "expired"
    // when its time ran out).
    QList<QPair<Acknowledgement, QString>> acknowledgementHistory(
        const QString &kluster, const QString &finding);

    // The open findings of a kluster and since when, as of `now` (for flapping).
    QHash<QString, FindingHistory> openFindings(const QString &kluster, const QDateTime &now);
    // Every interval of one finding, oldest first.
    QList<FindingInterval> intervals(const QString &kluster, const QString &finding);
    // Intervals opened or resolved in [from, to].
    QList<FindingInterval> intervalsBetween(
        const QString &kluster, const QDateTime &from, const QDateTime &to);
    QList<HistorySample> samples(const QString &kluster, const QDateTime &from, const QDateTime &to);

    // Incidents (historyincidents.cpp), by their id: the kluster's open ones and since when, as of `now`
    // (flapping: reopened within a day as often as a flapping finding).
    QHash<QString, IncidentHistory> openIncidents(const QString &kluster, const QDateTime &now);
    // Every interval of one incident, oldest first.
    QList<IncidentInterval> incidentIntervals(const QString &kluster, const QString &incident);
    // Every interval of every incident the kluster's history keeps, oldest first.
    QList<IncidentInterval> incidentIntervals(const QString &kluster);
    // Incident intervals opened or resolved in [from, to].
    QList<IncidentInterval> incidentIntervalsBetween(
        const QString &kluster, const QDateTime &from, const QDateTime &to);

    struct Repair
    {
        QDateTime at;
        QString finding;
        QString outcome;
    };
    QList<Repair> repairs(const QString &kluster, const QDateTime &from, const QDateTime &to);
    // The stored moments, newest first, and one moment's digest.
    QList<HistoryMoment> moments(const QString &kluster);
    QByteArray digest(qint64 momentId);
    // The router's routes at the kept moments (diagnosis.md §6 route-recycled); none when the kluster has no
    // moment kept.
    std::optional<RouteHistory> routeHistory(const QString &kluster);
    // The same from the history at the default path, opened read-only for it, where one is kept (none is
    // made; a writer holding it is not waited for).
    static std::optional<RouteHistory> readRouteHistory(const QString &kluster);
    // Since when each finding open at the kluster's last record has been seen (this machine's clock), read
    // from the default history file read-only (empty where none is kept): when Kubernikus' automation is
    // due (diagnosis.md §7).
    static QHash<QString, QDateTime> readFindingsSince(const QString &kluster);
    // When a kluster that is gone was last seen (this machine's clock): the last sighting of it Terminating,
    // else its newest kept moment; invalid where the history never saw it.
    static QDateTime readLastSeen(const QString &kluster, const QString &name);
    // How recent the kluster's last record must be for readFindingsSince to trust it (two of flight's
    // periods).
    static constexpr qint64 FreshRecordSeconds = 10 * 60;
    // A digest as the file keeps it (compressed), unpacked; empty when it is damaged or claims more than a
    // body may be.
    static QByteArray unpackDigest(const QByteArray &stored);
    // The newest moment without a critical or warning finding before `before`, if one is kept.
    std::optional<HistoryMoment> lastHealthy(const QString &kluster, const QDateTime &before);
    QStringList klusters();

    // Prunes by age and size as of `now` on this machine's clock (record() does it at most once an hour).
    bool prune(const QDateTime &now);
    qint64 usedBytes(); // the pages in use
    qint64 fileBytes() const;

private:
    bool openFile();
    bool moveAside(const QString &why);
    QDateTime now() const;
    QString explain(
        const QSqlError &e) const; // SQLite's words, and the file system's reason where it has one
    bool unusable(const QString &what, const QString &why); // fails, and marks the file to be moved aside
    bool migrate();
    bool commit(); // COMMIT, or ROLLBACK when it fails
    void giveBackSpace(); // the space deletes freed returned to the file system
    bool exec(const QString &sql);
    bool fail(const QString &what, const QString &why);
    qint64 klusterId(const QString &kluster, bool create, qint64 at);
    // The parts of record(), a table each, inside its transaction; false (m_error set) to roll it back.
    bool failed(const QString &what, const QSqlError &error) { return fail(what, explain(error)); }
    bool recordSample(qint64 kluster, const HistoryRecord &r, qint64 at, qint64 recordedAt);
    // The findings' intervals opened, changed and resolved, and the kluster's last sighting. `lastSeen`:
    // the last refresh that saw its findings (null: none yet); `lastSeenAhead`: that one is in this clock's
    // future.
    bool recordFindings(
        qint64 kluster, const HistoryRecord &r, qint64 at, const QVariant &lastSeen, bool lastSeenAhead);
    // The incidents' intervals, as recordFindings() does the findings' (before it moves the last sighting).
    bool recordIncidents(
        qint64 kluster, const HistoryRecord &r, qint64 at, const QVariant &lastSeen, bool lastSeenAhead);
    bool recordState(qint64 kluster, const HistoryRecord &r, qint64 at);
    // Ends the finding's open acknowledgement (`how`) at `at`.
    bool endAcknowledgement(qint64 kluster, const QString &finding, qint64 at, const QString &how);
    // Runs `select` (which names the kluster as `:k`) for the kluster, binding `values`, and hands each row
    // to `row`; nothing when the kluster is not recorded or the query fails.
    void eachRow(const QString &kluster, const QString &select, const QVariantMap &values,
        const std::function<void(const QSqlQuery &)> &row);
    // The kluster's intervals that meet `condition` (SQL over the intervals table, with `values` bound by
    // name), oldest first.
    QList<FindingInterval> intervalsWhere(
        const QString &kluster, const QString &condition, const QVariantMap &values);
    QList<IncidentInterval> incidentIntervalsWhere(
        const QString &kluster, const QString &condition, const QVariantMap &values);

    QString m_path;
    QString m_connection;
    QSqlDatabase m_db;
    bool m_open = false;
    bool m_unusable = false;
    // The file found unusable (device, inode): only that one is moved aside, never a fresh one another
    // process has made at the path meanwhile.
    std::optional<std::pair<quint64, quint64>> m_unusableFile;
    std::optional<std::pair<quint64, quint64>> m_openedFile; // what the path held when it was last opened
    std::function<QDateTime()> m_clock;
    bool m_readOnly = false;
    QString m_error;
    QString m_notice;
    int m_retentionDays = DefaultRetentionDays;
    int m_maxMegabytes = DefaultMaxMegabytes;
    int m_busyTimeoutMs = 5000;
    // routeHistory(): each kluster's kept moments' routes, read once (a digest of thousands of nodes is
    // megabytes), by moment id; only the moments it last returned.
    QHash<QString, QHash<qint64, RouteHistory::Moment>> m_routeMoments;
    // The open intervals of each kluster as of this connection's last record, valid while no other
    // connection has written since (PRAGMA data_version).
    struct OpenIntervals
    {
        QHash<QString, HistoryIntervals::Open<Severity>> open; // historyintervals.h
        qint64 dataVersion = 0;
        bool valid = false;
    };
    QHash<qint64, OpenIntervals> m_openCache;
    qint64 m_lastPrune = 0; // ms since the epoch of the record that pruned last
};
