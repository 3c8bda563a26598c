// HistoryStore's acknowledgements: who is handling which finding, until when (its own file: historystore.cpp
// keeps the refreshes).
#include "services/history/historysql.h"
#include "services/history/historystore.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

using HistorySql::fromMs;

namespace {

const QString Columns = QStringLiteral("finding, by, note, at, until, severity, fingerprint");

Acknowledgement fromRow(const QSqlQuery &q)
{
    Acknowledgement a;
    a.finding = q.value(0).toString();
    a.by = q.value(1).toString();
    a.note = q.value(2).toString();
    a.at = fromMs(q.value(3));
    a.until = fromMs(q.value(4));
    a.severity = severityFromName(q.value(5).toString()).value_or(Severity::Warning);
    a.fingerprint = q.value(6).toByteArray();
    return a;
}

} // namespace

bool HistoryStore::endAcknowledgement(qint64 kluster, const QString &finding, qint64 at, const QString &how)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE acknowledgements SET ended_at = ?, ended = ? WHERE kluster = ? AND "
                             "finding = ? AND ended_at IS NULL AND until > ?"));
    q.addBindValue(at);
    q.addBindValue(how);
    q.addBindValue(kluster);
    q.addBindValue(finding);
    q.addBindValue(at);
    return q.exec() || failed(QStringLiteral("cannot end the acknowledgement"), q.lastError());
}

bool HistoryStore::acknowledge(const QString &kluster, const Acknowledgement &a)
{
    if (!m_open || m_readOnly)
        return fail(QStringLiteral("acknowledge"), QStringLiteral("not open"));
    const qint64 at = now().toMSecsSinceEpoch();
    const qint64 id = klusterId(kluster, true, at);
    if (id == 0 || !exec(QStringLiteral("BEGIN IMMEDIATE")))
        return false;
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("INSERT INTO acknowledgements (kluster, %1) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
                  .arg(Columns));
    q.addBindValue(id);
    q.addBindValue(a.finding);
    q.addBindValue(a.by);
    q.addBindValue(a.note);
    q.addBindValue(a.at.toMSecsSinceEpoch());
    q.addBindValue(a.until.toMSecsSinceEpoch());
    q.addBindValue(severityName(a.severity));
    q.addBindValue(a.fingerprint);
    if (!endAcknowledgement(id, a.finding, at, QStringLiteral("replaced")) || !q.exec()) {
        const QString error = q.lastError().isValid() ? explain(q.lastError()) : m_error;
        exec(QStringLiteral("ROLLBACK"));
        return fail(QStringLiteral("cannot acknowledge"), error);
    }
    return commit();
}

bool HistoryStore::unacknowledge(const QString &kluster, const QString &finding)
{
    if (!m_open || m_readOnly)
        return fail(QStringLiteral("unacknowledge"), QStringLiteral("not open"));
    const qint64 id = klusterId(kluster, false, 0);
    return id == 0 || endAcknowledgement(id, finding, now().toMSecsSinceEpoch(), QStringLiteral("withdrawn"));
}

QHash<QString, Acknowledgement> HistoryStore::acknowledgements(const QString &kluster, const QDateTime &at)
{
    QHash<QString, Acknowledgement> result;
    const qint64 id = m_open ? klusterId(kluster, false, 0) : 0;
    if (id == 0)
        return result;
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT %1 FROM acknowledgements WHERE kluster = ? AND ended_at IS NULL AND "
                             "until > ? ORDER BY at")
                  .arg(Columns));
    q.addBindValue(id);
    q.addBindValue(at.toMSecsSinceEpoch());
    if (q.exec()) {
        while (q.next()) {
            Acknowledgement a = fromRow(q);
            result.insert(a.finding, a);
        }
    }
    return result;
}

QList<QPair<Acknowledgement, QString>> HistoryStore::acknowledgementHistory(
    const QString &kluster, const QString &finding)
{
    QList<QPair<Acknowledgement, QString>> result;
    const qint64 id = m_open ? klusterId(kluster, false, 0) : 0;
    if (id == 0)
        return result;
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT %1, ended FROM acknowledgements WHERE kluster = ? AND finding = ? "
                             "ORDER BY at")
                  .arg(Columns));
    q.addBindValue(id);
    q.addBindValue(finding);
    const QDateTime at = now();
    if (q.exec()) {
        while (q.next()) {
            const Acknowledgement a = fromRow(q);
            QString how = q.value(7).toString();
            if (how.isEmpty() && a.until <= at)
                how = QStringLiteral("expired");
            result.append({ a, how });
        }
    }
    return result;
}
