#pragma once

#include <QAbstractTableModel>
#include <QHash>
#include <QList>
#include <QPair>
#include <QString>
#include <functional>
#include <memory>
#include <utility>

// Applies a new list of keyed rows to a flat Qt model incrementally: rows
// whose key is gone are removed (in contiguous runs), rows that stay take the
// new data in place, with dataChanged only where `same` says they look
// different (in runs), and new rows are appended in one batch. No model reset, so
// selection and scroll position survive a refresh.
template<typename Row> class KeyedRows
{
public:
    using KeyOf = std::function<QString(const Row &)>;
    using Same = std::function<bool(const Row &, const Row &)>;

    KeyedRows(KeyOf keyOf, Same same)
        : m_keyOf(std::move(keyOf))
        , m_same(std::move(same))
    { }

    const QList<Row> &rows() const { return m_rows; }
    // The rows the updates replaced or removed: freeing thousands of them is left to the caller (a worker
    // thread).
    QList<Row> takeRetired() { return std::exchange(m_retired, {}); }
    int rowOf(const QString &key) const { return m_index.value(key, -1); }

    // The model calls its protected begin/end functions through these.
    struct Signals
    {
        std::function<void(int, int)> beginRemove, beginInsert;
        std::function<void()> endRemove, endInsert;
        std::function<void(int, int)> changed; // first and last row
    };

    void apply(const QList<Row> &next, const Signals &s)
    {
        if (next.isEmpty() && m_rows.isEmpty())
            return;
        if (sameKeysInOrder(next)) {
            // A refresh where no row came or went (most of them): the new list is taken whole (shared, not
            // copied), and only the rows that look different are said to have changed (once they hold the
            // new data).
            QList<QPair<int, int>> runs;
            int runStart = -1;
            for (int i = 0; i <= m_rows.size(); ++i) {
                if (i < m_rows.size() && !m_same(m_rows.at(i), next.at(i))) {
                    if (runStart < 0)
                        runStart = i;
                    continue;
                }
                if (runStart >= 0)
                    runs.append({ runStart, i - 1 });
                runStart = -1;
            }
            QList<Row> old = std::exchange(m_rows, next);
            if (m_retired.isEmpty())
                m_retired = std::move(old);
            else
                m_retired.append(std::move(old));
            for (const auto &[first, last] : std::as_const(runs))
                s.changed(first, last);
            return;
        }
        QHash<QString, int> incoming;
        incoming.reserve(next.size());
        for (int i = 0; i < next.size(); ++i)
            incoming.insert(m_keyOf(next.at(i)), i);
        bool removed = false;
        for (int i = int(m_rows.size()) - 1; i >= 0;) {
            if (incoming.contains(m_keyOf(m_rows.at(i)))) {
                --i;
                continue;
            }
            int first = i;
            while (first > 0 && !incoming.contains(m_keyOf(m_rows.at(first - 1))))
                --first;
            s.beginRemove(first, i);
            for (int k = first; k <= i; ++k)
                m_retired.append(std::move(m_rows[k]));
            m_rows.remove(first, i - first + 1);
            s.endRemove();
            removed = true;
            i = first - 1;
        }
        if (removed)
            reindex();
        m_retired.reserve(m_retired.size() + m_rows.size());
        int runStart = -1;
        for (int i = 0; i < m_rows.size(); ++i) {
            const Row &fresh = next.at(incoming.value(m_keyOf(m_rows.at(i))));
            const bool same = m_same(m_rows.at(i), fresh);
            m_retired.append(
                std::exchange(m_rows[i], fresh)); // always the newest data, even when it shows the same
            if (same) {
                if (runStart >= 0)
                    s.changed(runStart, i - 1);
                runStart = -1;
                continue;
            }
            if (runStart < 0)
                runStart = i;
        }
        if (runStart >= 0)
            s.changed(runStart, int(m_rows.size()) - 1);
        append(next, s); // the new ones
    }

    // Whether `next` holds the rows held, by key, in the same order.
    bool sameKeysInOrder(const QList<Row> &next) const
    {
        if (next.size() != m_rows.size())
            return false;
        for (int i = 0; i < next.size(); ++i) {
            if (m_keyOf(next.at(i)) != m_keyOf(m_rows.at(i)))
                return false;
        }
        return true;
    }

    // Rows after the ones held, as the next slice of a first load: only keys not held yet are appended, and
    // nothing else is looked at (a slice costs its own rows, not the table's).
    void append(const QList<Row> &more, const Signals &s)
    {
        QList<Row> added;
        added.reserve(more.size());
        for (const Row &r : more) {
            const QString key = m_keyOf(r);
            if (!m_index.contains(key)) {
                m_index.insert(key, int(m_rows.size() + added.size()));
                added.append(r);
            }
        }
        if (added.isEmpty())
            return;
        s.beginInsert(int(m_rows.size()), int(m_rows.size() + added.size() - 1));
        m_rows.append(added);
        s.endInsert();
    }

private:
    void reindex()
    {
        m_index.clear();
        m_index.reserve(m_rows.size());
        for (int i = 0; i < m_rows.size(); ++i)
            m_index.insert(m_keyOf(m_rows.at(i)), i);
    }

    KeyOf m_keyOf;
    Same m_same;
    QList<Row> m_rows;
    QList<Row> m_retired;
    QHash<QString, int> m_index;
};

// What a model's updates replaced, type-erased: handed to a worker thread to be freed.
using RetiredRows = QList<std::shared_ptr<const void>>;

// A flat table model whose rows come from KeyedRows: applyRows() wires the
// incremental update to the model's own begin/end notifications, so every
// console table refreshes the same way.
class KeyedTableModel : public QAbstractTableModel
{
public:
    // The rows the last updates replaced, to be freed where it costs the window nothing.
    RetiredRows takeRetired() { return std::exchange(m_retired, {}); }

protected:
    using QAbstractTableModel::QAbstractTableModel;

    // `next` in place of the rows held, or (`appended`) after them.
    template<typename Row> void applyRows(KeyedRows<Row> &rows, const QList<Row> &next, bool appended = false)
    {
        const typename KeyedRows<Row>::Signals notify { [this](int a, int b) {
                                                           beginRemoveRows(QModelIndex(), a, b);
                                                       },
            [this](int a, int b) { beginInsertRows(QModelIndex(), a, b); }, [this] { endRemoveRows(); },
            [this] { endInsertRows(); },
            [this](int a, int b) { emit dataChanged(index(a, 0), index(b, columnCount() - 1)); } };
        if (appended) {
            rows.append(next, notify);
            return;
        }
        rows.apply(next, notify);
        QList<Row> old = rows.takeRetired();
        if (!old.isEmpty())
            m_retired.append(std::make_shared<const QList<Row>>(std::move(old)));
    }

private:
    RetiredRows m_retired;
};
