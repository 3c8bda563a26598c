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

    struct Open
    {
        qint64 id;
        QString title;
        Severity severity;
        int members;
    };
    QHash<QString, Open> open; // a few per kluster: read in each record, no cache
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT id, incident, title, severity, members FROM incident_intervals WHERE "
                             "kluster = ? AND resolved_at IS NULL"));
    q.addBindValue(kluster);
    if (!q.exec())
        return failed(QStringLiteral("cannot read the open incidents"), q.lastError());
    while (q.next())
        open.insert(q.value(1).toString(),
            { q.value(0).toLongLong(), q.value(2).toString(), severityOf(q.value(3)), q.value(4).toInt() });
    q.finish();

    QSqlQuery insert(m_db);
    insert.prepare(
        QStringLiteral("INSERT INTO incident_intervals (kluster, incident, title, severity, members, "
                       "first_seen, last_seen, before_history) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"));
    QSqlQuery update(m_db);
    update.prepare(
        QStringLiteral("UPDATE incident_intervals SET title = ?, severity = ?, members = ? WHERE id = ?"));
    QSet<QString> seen;
    for (const HistoryIncident &incident : r.incidents) {
        seen.insert(incident.id);
        const QString title = incident.title.left(MaxTitle);
        const auto it = open.constFind(incident.id);
        if (it == open.cend()) {
            for (const QVariant &v : { QVariant(kluster), QVariant(incident.id), QVariant(title),
                     QVariant(severityName(incident.severity)), QVariant(incident.members), QVariant(at),
                     QVariant(at), QVariant(first ? 1 : 0) })
                insert.addBindValue(v);
            if (!insert.exec())
                return failed(QStringLiteral("cannot record an incident"), insert.lastError());
        } else if (it->title != title || it->severity != incident.severity
            || it->members != incident.members) {
            // The latest words: a zone outage's count of nodes grows, its interval stays one.
            for (const QVariant &v : { QVariant(title), QVariant(severityName(incident.severity)),
                     QVariant(incident.members), QVariant(it->id) })
                update.addBindValue(v);
            if (!update.exec())
                return failed(QStringLiteral("cannot record an incident"), update.lastError());
        }
    }
    // An incomplete refresh resolves nothing (no incident is derived from a source that failed: it may be
    // open all the same), and its sighting is no start of the incidents' history.
    if (!r.complete)
        return true;
    QSqlQuery resolve(m_db);
    resolve.prepare(
        QStringLiteral("UPDATE incident_intervals SET resolved_at = MAX(first_seen, ?), last_seen = "
                       "MAX(first_seen, ?) WHERE id = ?"));
    for (auto it = open.cbegin(); it != open.cend(); ++it) {
        if (seen.contains(it.key()))
            continue;
        // Resolved now; last seen on the refresh before.
        resolve.addBindValue(at);
        resolve.addBindValue(lastSeen.isNull() || lastSeenAhead ? at : lastSeen.toLongLong());
        resolve.addBindValue(it->id);
        if (!resolve.exec())
            return failed(QStringLiteral("cannot resolve an incident"), resolve.lastError());
    }
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
