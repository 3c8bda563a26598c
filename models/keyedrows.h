#pragma once

#include <QAbstractTableModel>
#include <QHash>
#include <QList>
#include <QPair>
#include <QString>
#include <algorithm>
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
    int rowOf(const QString &key) const
    {
        if (!m_merging)
            return m_index.value(key, -1);
        // While rows are removed and inserted in turn (mergeInOrder), a view may ask between the steps: the
        // rows merged so far are in m_merged, the ones after them have moved by the same number of rows.
        if (const auto it = m_merged.constFind(key); it != m_merged.cend())
            return it.value();
        const int before = m_index.value(key, -1);
        return before < 0 ? -1 : before + m_mergeShift;
    }

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
            adopt(next, s);
            return;
        }
        QHash<QString, int> incoming;
        incoming.reserve(next.size());
        for (int i = 0; i < next.size(); ++i)
            incoming.insert(m_keyOf(next.at(i)), i);
        if (mergeInOrder(next, incoming, s)) {
            adopt(next, s);
            return;
        }
        // The rows that stay are in another order: the gone ones removed, the others updated where they are,
        // and the new ones appended.
        if (std::any_of(m_rows.cbegin(), m_rows.cend(),
                [this, &incoming](const Row &r) { return !incoming.contains(m_keyOf(r)); })) {
            beginMerge(int(m_rows.size()));
            for (int i = 0; i < m_rows.size();) {
                removeRun(i, keptFrom(i, incoming), s);
                if (i < m_rows.size()) {
                    m_merged.insert(m_keyOf(m_rows.at(i)), i);
                    ++i;
                }
            }
            endMerge();
        }
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
    // A refresh where no row came or went (most of them): the new list is taken whole (shared, not copied),
    // and only the rows that look different are said to have changed (once they hold the new data).
    void adopt(const QList<Row> &next, const Signals &s)
    {
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
    }

    // Rows came or went, and the ones that stay are in the same order in `next` (both lists in the order
    // the rows are made in): the gone ones are removed and the new ones inserted where `next` has them, so
    // that the rows held have `next`'s keys in its order (and adopt() can take it). False, with nothing
    // done, when the rows that stay are in another order, or when the changes are scattered in more than a
    // few runs (each run is signalled on its own, and each signal costs a sorting proxy above a pass over
    // its rows).
    bool mergeInOrder(const QList<Row> &next, const QHash<QString, int> &incoming, const Signals &s)
    {
        constexpr int MaxRuns = 16;
        int last = -1;
        int runs = 0;
        bool inGone = false;
        for (const Row &r : std::as_const(m_rows)) {
            const auto it = incoming.constFind(m_keyOf(r));
            if (it == incoming.cend()) {
                runs += inGone ? 0 : 1;
                inGone = true;
                continue;
            }
            inGone = false;
            if (it.value() <= last)
                return false;
            runs += it.value() == last + 1 ? 0 : 1; // new rows before this one
            last = it.value();
        }
        runs += last + 1 < next.size() ? 1 : 0; // new rows after the last
        if (runs > MaxRuns)
            return false;
        beginMerge(int(next.size()));
        int i = 0; // in the rows held, as they change
        int j = 0; // in next
        while (j < next.size()) {
            removeRun(i, keptFrom(i, incoming), s);
            const int target = i < m_rows.size() ? incoming.value(m_keyOf(m_rows.at(i))) : int(next.size());
            if (target > j) { // next's rows [j, target) are new: inserted before row i
                const int count = target - j;
                s.beginInsert(i, i + count - 1);
                m_rows.insert(i, count, Row());
                for (int k = 0; k < count; ++k) {
                    m_rows[i + k] = next.at(j + k);
                    m_merged.insert(m_keyOf(next.at(j + k)), i + k);
                }
                m_mergeShift += count;
                s.endInsert();
                i += count;
                j = target;
            }
            if (i < m_rows.size() && j < next.size()) { // the same row in both: it stays
                m_merged.insert(m_keyOf(m_rows.at(i)), i);
                ++i;
                ++j;
            }
        }
        removeRun(i, int(m_rows.size()), s);
        endMerge();
        return true;
    }

    // Rows removed and inserted one run after another: rowOf() answers right between the runs (a view asks,
    // for the parents of the rows it maps), without an index made again after each run.
    void beginMerge(int rows)
    {
        m_merging = true;
        m_merged.clear();
        m_merged.reserve(rows);
        m_mergeShift = 0;
    }
    void endMerge()
    {
        m_index = std::exchange(m_merged, {});
        m_merging = false;
    }
    // The first row at or after `from` that `incoming` keeps (the row count when none is).
    int keptFrom(int from, const QHash<QString, int> &incoming) const
    {
        while (from < m_rows.size() && !incoming.contains(m_keyOf(m_rows.at(from))))
            ++from;
        return from;
    }
    // Removes rows [from, to), not merged yet.
    void removeRun(int from, int to, const Signals &s)
    {
        if (to <= from)
            return;
        s.beginRemove(from, to - 1); // still where they were, and found there
        for (int k = from; k < to; ++k) {
            m_index.remove(m_keyOf(m_rows.at(k)));
            m_retired.append(std::move(m_rows[k]));
        }
        m_rows.remove(from, to - from);
        m_mergeShift -= to - from;
        s.endRemove();
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

    KeyOf m_keyOf;
    Same m_same;
    QList<Row> m_rows;
    QList<Row> m_retired;
    QHash<QString, int> m_index;
    // While rows are merged: where the ones merged so far are, and how far the others have moved.
    bool m_merging = false;
    QHash<QString, int> m_merged;
    int m_mergeShift = 0;
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
