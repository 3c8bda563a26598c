// HistoryStore's incidents (diagnosis.md §5): each an interval from first seen to resolved, as the findings'
// (its own file: historystore.cpp keeps the refreshes and the findings).
#include "services/history/historysql.h"
#include "services/history/historystore.h"

#include <QSet>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

using HistorySql::fromMs;

namespace {

// A stored severity; a name no version of this program wrote reads as critical (as every rule's incident is).
Severity severityOf(const QVariant &stored)
{
    return severityFromName(stored.toString()).value_or(Severity::Critical);
}

constexpr int MaxTitle = 2000; // a title is one line; a kluster's names cannot make it grow the file

// What an open incident keeps up to date: its latest words (a zone outage's count of nodes grows, its
// interval stays one).
struct IncidentWords
{
    QString title;
    Severity severity;
    int members;
    bool operator!=(const IncidentWords &o) const
    {
        return title != o.title || severity != o.severity || members != o.members;
    }
};

const HistoryIntervals::Table<IncidentWords> &incidentTable()
{
    static const HistoryIntervals::Table<IncidentWords> table { QStringLiteral("incident_intervals"),
        QStringLiteral("incident"), QStringLiteral("an incident"),
        { QStringLiteral("title"), QStringLiteral("severity"), QStringLiteral("members") },
        [](QSqlQuery &q, const IncidentWords &w) {
            q.addBindValue(w.title);
            q.addBindValue(severityName(w.severity));
            q.addBindValue(w.members);
        },
        [](const QSqlQuery &q, int first) {
            return IncidentWords { q.value(first).toString(), severityOf(q.value(first + 1)),
                q.value(first + 2).toInt() };
        } };
    return table;
}

// An open interval was last seen on its kluster's last refresh that saw the findings.
const QString Columns = QStringLiteral(
    "incident, title, severity, members, first_seen, CASE WHEN resolved_at IS NULL THEN (SELECT last_seen "
    "FROM klusters WHERE klusters.id = incident_intervals.kluster) ELSE last_seen END, resolved_at, "
    "before_history");

IncidentInterval intervalOf(const QSqlQuery &q)
{
    IncidentInterval i;
    i.incident = q.value(0).toString();
    i.title = q.value(1).toString();
    i.severity = severityOf(q.value(2));
    i.members = q.value(3).toInt();
    i.firstSeen = fromMs(q.value(4));
    i.lastSeen = fromMs(q.value(5));
    i.resolvedAt = fromMs(q.value(6));
    i.beforeHistory = q.value(7).toInt() != 0;
    return i;
}

} // namespace

bool HistoryStore::recordIncidents(
    qint64 kluster, const HistoryRecord &r, qint64 at, const QVariant &lastSeen, bool lastSeenAhead)
{
    // Since when this kluster's incidents are recorded: before that (its first refresh, or a history an
    // older version kept), what a refresh sees began earlier.
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT incidents_from FROM klusters WHERE id = ?"));
    q.addBindValue(kluster);
    if (!q.exec() || !q.next())
        return failed(QStringLiteral("cannot read the incidents"), q.lastError());
    const bool first = q.value(0).isNull();
    q.finish();

    HistoryIntervals::OpenSet<IncidentWords> open; // a few per kluster: read in each record, no cache
    HistoryIntervals::Failure failure;
    if (!HistoryIntervals::readOpen(m_db, incidentTable(), kluster, open, &failure))
        return failed(failure.what, failure.error);
    QList<std::pair<QString, IncidentWords>> seen;
    for (const HistoryIncident &incident : r.incidents)
        seen.append({ incident.id, { incident.title.left(MaxTitle), incident.severity, incident.members } });
    // An incomplete refresh resolves nothing (no incident is derived from a source that failed: it may be
    // open all the same), and its sighting is no start of the incidents' history.
    const HistoryIntervals::Moment moment { at,
        lastSeen.isNull() || lastSeenAhead ? at : lastSeen.toLongLong(), r.complete && r.resolves, first };
    if (!HistoryIntervals::record(m_db, incidentTable(), kluster, seen, open, moment, &failure))
        return failed(failure.what, failure.error);
    if (!r.complete || !r.resolves)
        return true;
    if (first) {
        q.prepare(QStringLiteral("UPDATE klusters SET incidents_from = ? WHERE id = ?"));
        q.addBindValue(at);
        q.addBindValue(kluster);
        if (!q.exec())
            return failed(QStringLiteral("cannot record the incidents"), q.lastError());
    }
    return true;
}

QHash<QString, IncidentHistory> HistoryStore::openIncidents(const QString &kluster, const QDateTime &now)
{
    QHash<QString, IncidentHistory> result;
    const qint64 id = m_open ? klusterId(kluster, false, 0) : 0;
    if (id == 0)
        return result;
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT incident, first_seen, before_history FROM incident_intervals WHERE "
                             "kluster = ? AND resolved_at IS NULL"));
    q.addBindValue(id);
    if (!q.exec()) {
        failed(QStringLiteral("cannot read"), q.lastError());
        return result;
    }
    while (q.next()) {
        IncidentHistory h;
        h.firstSeen = fromMs(q.value(1));
        h.beforeHistory = q.value(2).toInt() != 0;
        result.insert(q.value(0).toString(), h);
    }
    q.prepare(
        QStringLiteral("SELECT incident, COUNT(*) FROM incident_intervals WHERE kluster = ? AND "
                       "(resolved_at IS NULL OR resolved_at >= ?) GROUP BY incident HAVING COUNT(*) > 1"));
    q.addBindValue(id);
    q.addBindValue(now.toMSecsSinceEpoch() - 24LL * 3600 * 1000);
    if (q.exec()) {
        while (q.next()) {
            const auto it = result.find(q.value(0).toString());
            if (it != result.end())
                it->intervalsLastDay = q.value(1).toInt();
        }
    }
    return result;
}

QList<IncidentInterval> HistoryStore::incidentIntervalsWhere(
    const QString &kluster, const QString &condition, const QVariantMap &values)
{
    QList<IncidentInterval> result;
    eachRow(kluster,
        QStringLiteral(
            "SELECT %1 FROM incident_intervals WHERE kluster = :k AND (%2) ORDER BY first_seen, id")
            .arg(Columns, condition),
        values, [&result](const QSqlQuery &q) { result.append(intervalOf(q)); });
    return result;
}

QList<IncidentInterval> HistoryStore::incidentIntervals(const QString &kluster, const QString &incident)
{
    return incidentIntervalsWhere(
        kluster, QStringLiteral("incident = :incident"), { { QStringLiteral(":incident"), incident } });
}

QList<IncidentInterval> HistoryStore::incidentIntervals(const QString &kluster)
{
    return incidentIntervalsWhere(kluster, QStringLiteral("1"), {});
}

QList<IncidentInterval> HistoryStore::incidentIntervalsBetween(
    const QString &kluster, const QDateTime &from, const QDateTime &to)
{
    return incidentIntervalsWhere(kluster,
        QStringLiteral("first_seen BETWEEN :f AND :t OR resolved_at BETWEEN :f AND :t"),
        { { QStringLiteral(":f"), from.toMSecsSinceEpoch() },
            { QStringLiteral(":t"), to.toMSecsSinceEpoch() } });
}
