#pragma once

#include <QAbstractTableModel>
#include <QHash>
#include <QList>
#include <QPair>
#include <QString>
#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

// Applies a new list of keyed rows to a flat Qt model incrementally: rows
// whose key is gone are removed and new ones inserted where the new list has
// them (in runs), and dataChanged is sent only where `same` says a row looks
// different (in runs). When the rows that stay keep their order (a Plan, made
// here or off the GUI thread), the new list is then taken whole; otherwise the
// rows that stay take the new data in place and new ones are appended. No
// model reset, so selection and scroll position survive a refresh.
template<typename Row> class KeyedRows
{
public:
    using KeyOf = std::function<QString(const Row &)>;
    using Same = std::function<bool(const Row &, const Row &)>;

    KeyedRows(KeyOf keyOf, Same same)
        : m_keyOf(std::move(keyOf))
        , m_same(std::move(same))
    { }

    // The rows held, once no update is under way (the models' own functions; a view asks at() and size()).
    const QList<Row> &rows() const
    {
        Q_ASSERT(m_merging != Merge::InOrder);
        return m_rows;
    }
    // The rows as a view sees them, also between the steps of an update (see mergeInOrder).
    int size() const
    {
        return m_merging == Merge::InOrder ? m_done + int(m_rows.size()) - m_oldFrom : int(m_rows.size());
    }
    const Row &at(int row) const
    {
        if (m_merging == Merge::InOrder)
            return row < m_done ? m_next.at(row) : m_rows.at(m_oldFrom + row - m_done);
        return m_rows.at(row);
    }
    // The rows the updates replaced or removed: freeing thousands of them is left to the caller (a worker
    // thread).
    QList<Row> takeRetired() { return std::exchange(m_retired, {}); }
    int rowOf(const QString &key) const
    {
        switch (m_merging) {
        case Merge::None:
            return m_index.value(key, -1);
        case Merge::InOrder: {
            // The first m_done rows are the new list's first ones; after them come the old rows not yet
            // looked at, from m_oldFrom on.
            if (const auto it = m_incoming->constFind(key); it != m_incoming->cend() && it.value() < m_done)
                return it.value();
            const int before = m_index.value(key, -1);
            return before < m_oldFrom ? -1 : m_done + before - m_oldFrom;
        }
        case Merge::Scattered:
            break;
        }
        // While rows are removed run after run, a view may ask between the runs: the rows merged so far are
        // in m_merged, the ones after them have moved by the same number of rows.
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

    // How `old` becomes `next` when the rows that stay keep their order: the runs of rows removed, inserted
    // and kept, the rows kept that look different, and where each of next's rows is. Made off the GUI thread
    // for the rows a model holds (snapshot()); apply() follows it if the model still holds those rows.
    struct Plan
    {
        enum Kind
        {
            Remove,
            Insert,
            Keep
        };
        QList<QPair<Kind, int>> steps;
        QList<QPair<int, int>> changed; // first and last row, in next
        QHash<QString, int> index; // of next's rows (unless the keys are the same: the index held stays)
        bool sameKeys = false;
        quint64 generation = 0; // of the rows it was made for
    };
    struct Snapshot
    {
        QList<Row> rows;
        quint64 generation = 0;
        KeyOf keyOf;
        Same same;
    };
    Snapshot snapshot() const { return { m_rows, m_generation, m_keyOf, m_same }; }
    static std::optional<Plan> plan(const Snapshot &held, const QList<Row> &next)
    {
        std::optional<Plan> p = makePlan(held.rows, next, held.keyOf, held.same);
        if (p)
            p->generation = held.generation;
        return p;
    }

    // The rows are taken from a plan (if it was made for them) or looked at here.
    void apply(const QList<Row> &next, const Signals &s, const std::optional<Plan> &plan)
    {
        if (plan && plan->generation == m_generation && m_merging == Merge::None) {
            run(*plan, next, s);
            return;
        }
        apply(next, s);
    }

    void apply(const QList<Row> &next, const Signals &s)
    {
        if (next.isEmpty() && m_rows.isEmpty())
            return;
        if (mergeInOrder(next, s))
            return;
        ++m_generation;
        QHash<QString, int> incoming;
        incoming.reserve(next.size());
        for (int i = 0; i < next.size(); ++i)
            incoming.insert(m_keyOf(next.at(i)), i);
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
        ++m_generation;
        s.beginInsert(int(m_rows.size()), int(m_rows.size() + added.size() - 1));
        m_rows.append(added);
        s.endInsert();
    }

    // One row held takes new data with the same key (no update under way): said to have changed if it looks
    // different. A row's change costs that row, not the table's.
    void replace(int row, const Row &r, const Signals &s)
    {
        Q_ASSERT(m_merging == Merge::None && m_keyOf(m_rows.at(row)) == m_keyOf(r));
        if (m_same(m_rows.at(row), r))
            return;
        ++m_generation;
        m_rows[row] = r;
        s.changed(row, row);
    }

private:
    // Rows came or went (or none did), and the ones that stay are in the same order in `next` (both lists in
    // the order the rows are made in): the gone ones are removed and the new ones inserted where `next` has
    // them, then `next` is taken whole (shared, not copied) and the rows that look different are said to
    // have changed. Nothing is copied or moved meanwhile: between the runs a view sees the rows through at(),
    // the first m_done of `next` and then the old ones not yet looked at.
    bool mergeInOrder(const QList<Row> &next, const Signals &s)
    {
        std::optional<Plan> plan = makePlan(m_rows, next, m_keyOf, m_same);
        if (!plan)
            return false;
        run(*plan, next, s);
        return true;
    }

    static std::optional<Plan> makePlan(
        const QList<Row> &old, const QList<Row> &next, const KeyOf &keyOf, const Same &same)
    {
        constexpr int MaxRuns = 256; // each run is signalled on its own
        Plan p;
        int changedFrom = -1;
        const auto looked = [&](int row, bool differs) { // a row kept, at `row` in next
            if (differs && changedFrom < 0)
                changedFrom = row;
            if (!differs && changedFrom >= 0) {
                p.changed.append({ changedFrom, row - 1 });
                changedFrom = -1;
            }
        };
        const auto endChanged = [&](int row) {
            if (changedFrom >= 0)
                p.changed.append({ changedFrom, row - 1 });
            changedFrom = -1;
        };
        bool sameKeys = old.size() == next.size();
        for (qsizetype i = 0; sameKeys && i < next.size(); ++i)
            sameKeys = keyOf(old.at(i)) == keyOf(next.at(i));
        if (sameKeys) { // most refreshes: no row came or went
            p.sameKeys = true;
            if (!next.isEmpty())
                p.steps.append({ Plan::Keep, int(next.size()) });
            for (int i = 0; i < next.size(); ++i)
                looked(i, !same(old.at(i), next.at(i)));
            endChanged(int(next.size()));
            return p;
        }
        p.index.reserve(next.size());
        for (int i = 0; i < next.size(); ++i)
            p.index.insert(keyOf(next.at(i)), i);
        int last = -1;
        int runs = 0;
        bool inGone = false;
        for (const Row &r : old) {
            const auto it = p.index.constFind(keyOf(r));
            if (it == p.index.cend()) {
                runs += inGone ? 0 : 1;
                inGone = true;
                continue;
            }
            inGone = false;
            if (it.value() <= last)
                return std::nullopt; // in another order
            runs += it.value() == last + 1 ? 0 : 1; // new rows before this one
            last = it.value();
        }
        runs += last + 1 < next.size() ? 1 : 0; // new rows after the last
        if (runs > MaxRuns)
            return std::nullopt;
        const auto step = [&p](typename Plan::Kind kind, int count) {
            if (!p.steps.isEmpty() && p.steps.last().first == kind)
                p.steps.last().second += count;
            else
                p.steps.append({ kind, count });
        };
        int o = 0; // in old
        int d = 0; // in next
        while (o < old.size() || d < next.size()) {
            int gone = o;
            while (gone < old.size() && !p.index.contains(keyOf(old.at(gone))))
                ++gone;
            if (gone > o) {
                step(Plan::Remove, gone - o);
                o = gone;
            }
            const int target = o < old.size() ? p.index.value(keyOf(old.at(o))) : int(next.size());
            if (target > d) { // next's rows [d, target) are new
                endChanged(d);
                step(Plan::Insert, target - d);
                d = target;
            }
            if (o < old.size() && d < next.size()) { // the same row in both: it stays
                looked(d, !same(old.at(o), next.at(d)));
                step(Plan::Keep, 1);
                ++o;
                ++d;
            }
        }
        endChanged(d);
        return p;
    }

    void run(const Plan &plan, const QList<Row> &next, const Signals &s)
    {
        m_merging = Merge::InOrder;
        m_next = next;
        m_incoming = &plan.index;
        m_done = 0;
        m_oldFrom = 0;
        for (const auto &[kind, count] : plan.steps) {
            switch (kind) {
            case Plan::Remove:
                s.beginRemove(m_done, m_done + count - 1);
                m_oldFrom += count;
                s.endRemove();
                break;
            case Plan::Insert:
                s.beginInsert(m_done, m_done + count - 1);
                m_done += count;
                s.endInsert();
                break;
            case Plan::Keep:
                m_done += count;
                m_oldFrom += count;
                break;
            }
        }
        QList<Row> replaced = std::exchange(m_rows, next);
        if (m_retired.isEmpty())
            m_retired = std::move(replaced);
        else
            m_retired.append(std::move(replaced));
        if (!plan.sameKeys)
            m_index = plan.index;
        ++m_generation;
        m_next = QList<Row>();
        m_incoming = nullptr;
        m_merging = Merge::None;
        for (const auto &[first, last] : plan.changed)
            s.changed(first, last);
    }

    // Rows removed and inserted one run after another: rowOf() answers right between the runs (a view asks,
    // for the parents of the rows it maps), without an index made again after each run.
    void beginMerge(int rows)
    {
        m_merging = Merge::Scattered;
        m_merged.clear();
        m_merged.reserve(rows);
        m_mergeShift = 0;
    }
    void endMerge()
    {
        m_index = std::exchange(m_merged, {});
        m_merging = Merge::None;
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

    KeyOf m_keyOf;
    Same m_same;
    QList<Row> m_rows;
    QList<Row> m_retired;
    QHash<QString, int> m_index;
    enum class Merge
    {
        None,
        InOrder, // mergeInOrder: m_next, m_incoming, m_done and m_oldFrom say where each row is
        Scattered // m_merged and m_mergeShift do
    } m_merging
        = Merge::None;
    QList<Row> m_next;
    const QHash<QString, int> *m_incoming = nullptr;
    int m_done = 0;
    int m_oldFrom = 0;
    QHash<QString, int> m_merged;
    int m_mergeShift = 0;
    quint64 m_generation = 0; // changes with every update: a plan is made for one
};

// A model's rows made anywhere (a worker thread), applied on the model's thread: the rows, how the rows a
// model held become these (a plan made beside them: the model follows it if it still holds those rows), and
// for a large first load, slices applied a turn of the event loop each (the first in place of what the
// model held, the next ones appended: nothing else changes).
template<typename Row> struct PreparedRows
{
    QList<Row> rows;
    bool appended = false;
    std::optional<typename KeyedRows<Row>::Plan> plan;

    int size() const { return int(rows.size()); }
    // Rows [from, from + n) alone.
    PreparedRows slice(int from, int n) const { return sliceOf(*this, from, n); }
    // The same of a type made from this one, with whatever else it carries (a summary, groups) kept.
    template<typename Prepared> static Prepared sliceOf(const Prepared &whole, int from, int n)
    {
        Prepared p = whole;
        p.plan.reset();
        p.rows = whole.rows.mid(from, n);
        p.appended = from > 0;
        return p;
    }
    // The plan from what a model holds (its snapshot()), made here.
    void planFrom(const typename KeyedRows<Row>::Snapshot &held) { plan = KeyedRows<Row>::plan(held, rows); }
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

    // Prepared rows (or a slice of them).
    template<typename Row> void applyRows(KeyedRows<Row> &rows, const PreparedRows<Row> &prepared)
    {
        applyRows(rows, prepared.rows, prepared.appended, prepared.plan);
    }
    // `next` in place of the rows held, or (`appended`) after them.
    template<typename Row>
    void applyRows(KeyedRows<Row> &rows, const QList<Row> &next, bool appended = false,
        const std::optional<typename KeyedRows<Row>::Plan> &plan = std::nullopt)
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
        rows.apply(next, notify, plan);
        QList<Row> old = rows.takeRetired();
        if (!old.isEmpty())
            m_retired.append(std::make_shared<const QList<Row>>(std::move(old)));
    }

    // One row's new data (the same key), in place: a change of one kluster costs one row.
    template<typename Row> void replaceRow(KeyedRows<Row> &rows, int row, const Row &next)
    {
        typename KeyedRows<Row>::Signals notify;
        notify.changed = [this](int a, int b) { emit dataChanged(index(a, 0), index(b, columnCount() - 1)); };
        rows.replace(row, next, notify);
    }

private:
    RetiredRows m_retired;
};
