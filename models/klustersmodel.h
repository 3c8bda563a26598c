#pragma once

#include "core/diagnosis.h"
#include "core/exportedfleet.h"
#include "core/klusterkey.h"
#include "core/klusterstanding.h"
#include "models/consolerole.h"
#include "models/keyedrows.h"

#include <QDateTime>
#include <QHash>
#include <QSet>
#include <QVariantMap>
#include <climits>

// The sidebar: every kluster across connections with its worst severity, its
// counts, when it was fetched, and what is not right with the data shown:
// *stale* (the last refresh failed; the data is the last good one),
// *incomplete* (fresh, but a source could not be read: the counts are lower
// bounds, "≥ 3"), *unreachable* (never read). A connection that lists no
// kluster (its sign-in failed, say) has a row of its own, with its error,
// until it lists klusters or is removed. Worst on top ranks an incomplete
// kluster by the worse of its last complete result and the current one, so
// that missing data never makes a kluster look healthier.
class KlustersModel : public KeyedTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(KlustersModel)

public:
    enum Column
    {
        KlusterColumn,
        ConnectionColumn,
        WorstColumn, // the worst cause ("pod network closed"): sorted ascending, the worst first
        CriticalColumn,
        WarningColumn,
        AlertsColumn, // alerts firing in the connection's Alertmanager (shown once one is set)
        FetchedColumn,
        ColumnCount
    };
    enum Role
    {
        SortRole = ConsoleRole::Sort,
        KeyRole = ConsoleRole::Key, // "<connection>/<kluster>"; a connection's own row: "<connection>/"
        SeverityRole = ConsoleRole::Severity, // the worst cause's (ranked); critical when unreadable
        FilterRole = ConsoleRole::Filter, // kluster, connection, severity, state
        ErrorRole
        = ConsoleRole::FirstModelRole, // what is wrong with the data shown (failed refresh, unread source)
        FetchedAtRole, // QDateTime of the data shown
        StateRole, // int(State)
        ConnectionRole, // the connection's name
        KlusterRole, // the kluster's name; empty on a connection's own row
        AlarmRole, // bool: the data itself is in doubt (incomplete, stale, unreachable, failed)
        RegionRole, // the region the kluster's connection reads (clouds.yaml's region_name); may be empty
        // Counted as causes, not symptoms: an incident once, whatever its findings, and the findings in none.
        CriticalCountRole, // int: critical incidents and findings in none in the data shown; -1: not
                           // diagnosed
        WarningCountRole, // int: the same, warnings; -1 when not diagnosed
        RankRole, // QString: KlusterRanking::sortKey, ascending worst first (the list's, the Fleet's order)
        ReasonRole, // QString: KlusterRanking::reason, why it ranks where it does ("pod network closed")
        StandingRole, // QString: KlusterStanding::text(), its counts in words
        PhaseRole, // QString: the kluster's lifecycle phase where it is not Running ("Terminating"); else
                   // empty
        TerminatingRole, // qint64: how long it has been Terminating (seconds; -1: not, or not known)
    };
    enum class State
    {
        Pending,
        Fresh,
        Incomplete,
        Stale,
        Unreachable,
        ConnectionFailed
    };

    explicit KlustersModel(QObject *parent = nullptr);

    static QStringList filterFields();
    static QString keyOf(const QString &connection, const QString &kluster)
    {
        return KlusterKey { connection, kluster }.toString();
    }

    // A kluster seen (no diagnosis yet).
    void setKluster(const QString &connection, const QString &kluster);
    // Klusters seen, added at once (a listing's): one insertion for all of them.
    void setKlusters(const QString &connection, const QStringList &klusters);
    // A refresh came back with data. `incomplete`: what could not be read (empty when everything was).
    void setDiagnosis(const QString &connection, const QString &kluster, const Diagnosis &diagnosis,
        const QDateTime &fetchedAt, const QString &incomplete = QString(), const QString &region = QString());
    // A Prometheus connection's kluster, as its exporter gave it: its standing and phase, read at its readAt;
    // stale where the exporter's check failed or the exporter is no longer scraped (said as the error).
    void setExported(
        const QString &connection, const QString &kluster, const ExportedFleet::Kluster &exported);
    // A refresh failed: the diagnosis shown stays the last good one.
    void setError(const QString &connection, const QString &kluster, const QString &error);
    // The connection itself failed (no kluster could be listed), or recovered (`error` empty).
    void setConnectionError(const QString &connection, const QString &error);
    void removeConnection(const QString &connection);
    // The alerts firing for each kluster of the connection (its Alertmanager's, unsilenced); `configured`
    // false: it names none.
    void setAlertCounts(const QString &connection, const QHash<QString, int> &byKluster, bool configured);
    bool alertsConfigured() const { return !m_alertConnections.isEmpty(); }
    // The protected klusters (keyOf each): marked "(protected)" after their name.
    void setProtected(const QSet<QString> &keys);
    void removeKluster(const QString &connection, const QString &kluster);
    int rowOf(const QString &connection, const QString &kluster) const
    {
        return m_rows.rowOf(keyOf(connection, kluster));
    }

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    struct Row
    {
        QString connection;
        QString kluster; // empty: the connection's own row
        QString region; // known once the kluster was fetched
        bool diagnosed = false;
        KlusterStanding shown; // of the data shown
        KlusterStanding complete; // of the last complete data (none yet: all zero)
        bool hasComplete = false;
        QDateTime fetchedAt;
        QString error; // the last refresh failed
        QString incomplete; // the data shown lacks a source
        QString phase; // status.phase where it is not Running (empty: Running, or none said)
        qint64 terminatingFor = -1;
        QString key() const { return keyOf(connection, kluster); }
        State state() const;
        // What it is ranked by: for incomplete data, never better than its last complete standing.
        KlusterStanding standing() const;
        RankedKluster ranked() const;
        friend bool operator==(const Row &a, const Row &b)
        {
            return a.key() == b.key() && a.region == b.region && a.diagnosed == b.diagnosed
                && a.shown == b.shown && a.complete == b.complete && a.fetchedAt == b.fetchedAt
                && a.error == b.error && a.incomplete == b.incomplete;
        }
    };

private:
    void apply(const QList<Row> &next);

    KeyedRows<Row> m_rows;
    QHash<QString, int> m_alertCounts; // by key
    QSet<QString> m_alertConnections; // the connections with an Alertmanager
    QSet<QString> m_protected;

signals:
    void alertsConfiguredChanged(bool configured);
};
