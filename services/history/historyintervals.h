#pragma once

// The history's intervals, written once for every subject kept as one (the findings' `intervals`, the
// incidents' `incident_intervals`): a subject seen opens an interval (first and last seen now, before the
// history began when the kluster's history of it does), an open one seen again keeps its latest words (a
// severity; an incident's title, severity and number of members), and a complete refresh that no longer sees
// it resolves it (resolved now, last seen on the refresh before). An incomplete refresh resolves nothing.
// Inside services/history/ only.
#include <QHash>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>
#include <QStringList>
#include <QVariant>
#include <functional>
#include <utility>

namespace HistoryIntervals {

// One subject's table. `Words`: what an open interval keeps up to date (compared with !=).
template<typename Words> struct Table
{
    QString table; // "intervals"
    QString subject; // its column: "finding"
    QString noun; // in errors: "a finding"
    QStringList words; // the columns of Words, in order
    std::function<void(QSqlQuery &, const Words &)> bind; // Words' values, in `words`' order
    std::function<Words(const QSqlQuery &, int first)> read; // from the columns from `first` on
};

template<typename Words> struct Open
{
    qint64 id;
    Words words;
};

template<typename Words> using OpenSet = QHash<QString, Open<Words>>;

// What a refresh records: when, whether it saw every source, when it saw its kluster's findings the time
// before (resolved intervals were last seen then), and whether its subjects began before the history did.
struct Moment
{
    qint64 at = 0;
    qint64 lastSeenBefore = 0;
    bool complete = true;
    bool beganBefore = false;
};

struct Failure
{
    QString what; // "cannot record a finding"
    QSqlError error;
};

// The kluster's open intervals.
template<typename Words>
bool readOpen(QSqlDatabase &db, const Table<Words> &t, qint64 kluster, OpenSet<Words> &open, Failure *failure)
{
    QSqlQuery q(db);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT id, %1, %2 FROM %3 WHERE kluster = ? AND resolved_at IS NULL")
                  .arg(t.subject, t.words.join(QStringLiteral(", ")), t.table));
    q.addBindValue(kluster);
    if (!q.exec()) {
        *failure = { QStringLiteral("cannot read the open %1s").arg(t.subject), q.lastError() };
        return false;
    }
    while (q.next())
        open.insert(q.value(1).toString(), { q.value(0).toLongLong(), t.read(q, 2) });
    return true;
}

// Records what a refresh saw (`seen`: subject and its words, each once) against the open intervals, and
// leaves `open` as the table's open intervals now.
template<typename Words, typename Seen>
bool record(QSqlDatabase &db, const Table<Words> &t, qint64 kluster, const Seen &seen, OpenSet<Words> &open,
    const Moment &m, Failure *failure)
{
    QSqlQuery insert(db);
    insert.prepare(QStringLiteral("INSERT INTO %1 (kluster, %2, %3, first_seen, last_seen, before_history) "
                                  "VALUES (?, ?, %4?, ?, ?)")
                       .arg(t.table, t.subject, t.words.join(QStringLiteral(", ")),
                           QStringLiteral("?, ").repeated(int(t.words.size()))));
    QStringList assignments;
    for (const QString &column : t.words)
        assignments << column + QStringLiteral(" = ?");
    QSqlQuery update(db);
    update.prepare(
        QStringLiteral("UPDATE %1 SET %2 WHERE id = ?").arg(t.table, assignments.join(QStringLiteral(", "))));
    QSet<QString> ids;
    ids.reserve(int(seen.size()));
    OpenSet<Words> opened;
    for (const auto &[id, words] : seen) {
        ids.insert(id);
        const auto it = open.find(id);
        if (it == open.end()) {
            insert.addBindValue(kluster);
            insert.addBindValue(id);
            t.bind(insert, words);
            insert.addBindValue(m.at);
            insert.addBindValue(m.at);
            insert.addBindValue(m.beganBefore ? 1 : 0);
            if (!insert.exec()) {
                *failure = { QStringLiteral("cannot record %1").arg(t.noun), insert.lastError() };
                return false;
            }
            opened.insert(id, { insert.lastInsertId().toLongLong(), words });
        } else if (it->words != words) {
            t.bind(update, words);
            update.addBindValue(it->id);
            if (!update.exec()) {
                *failure = { QStringLiteral("cannot record %1").arg(t.noun), update.lastError() };
                return false;
            }
            it->words = words;
        }
    }
    if (m.complete && ids.size() < open.size() + opened.size()) {
        QSqlQuery resolve(db);
        resolve.prepare(
            QStringLiteral("UPDATE %1 SET resolved_at = MAX(first_seen, ?), last_seen = MAX(first_seen, ?) "
                           "WHERE id = ?")
                .arg(t.table));
        for (auto it = open.begin(); it != open.end();) {
            if (ids.contains(it.key())) {
                ++it;
                continue;
            }
            resolve.addBindValue(m.at);
            resolve.addBindValue(m.lastSeenBefore);
            resolve.addBindValue(it->id);
            if (!resolve.exec()) {
                *failure = { QStringLiteral("cannot resolve %1").arg(t.noun), resolve.lastError() };
                return false;
            }
            it = open.erase(it);
        }
    }
    open.insert(opened);
    return true;
}

} // namespace HistoryIntervals
