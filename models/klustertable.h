#pragma once

#include "core/diagnosis.h"
#include "core/klusterfetch.h"
#include "core/klusterstate.h"
#include "models/keyedrows.h"

#include <QAbstractItemModel>
#include <QList>
#include <functional>
#include <memory>
#include <optional>

// What a view's table of a kluster is made from: the kluster as read, its diagnosis, and the other klusters
// read (the routes name the owners of their nexthops on a shared router).
struct TableInput
{
    const KlusterState &state;
    const Diagnosis &diagnosis;
    const QList<std::shared_ptr<const KlusterFetch>> &others;
};

// A kluster's rows made for one table, anywhere (a worker thread), whatever the table's rows are.
class PreparedTable
{
public:
    PreparedTable() = default;
    virtual ~PreparedTable() = default;
    PreparedTable(const PreparedTable &) = default;
    PreparedTable &operator=(const PreparedTable &) = default;
    virtual int size() const = 0;
};

// One view's table of the kluster shown, as the ViewPreparer sees it: the item model, how its rows are made
// off the window's thread, and how they are put in. A table is a model under models/ with `prepare(const
// TableInput &)`, `apply(const Prepared &)`, `snapshot()` and `takeRetired()` (KlusterTableOf makes one of
// it); ConsoleModels lists them, the preparer iterates them, and the view container shows each on the page
// its tab describes (views/tabs.cpp).
class KlusterTable
{
public:
    KlusterTable() = default;
    virtual ~KlusterTable() = default;
    Q_DISABLE_COPY_MOVE(KlusterTable)

    using Prepare = std::function<std::shared_ptr<const PreparedTable>(const TableInput &)>;

    virtual QAbstractItemModel *model() const = 0;
    // On the window's thread: a job that makes a kluster's rows wherever it runs. `againstHeld`: a refresh of
    // the kluster shown, planned against the rows the table holds now (a table that changed meanwhile plans
    // again itself).
    virtual Prepare preparer(bool againstHeld) const = 0;
    // On the window's thread: the rows `prepared` in place of those held; or only [from, from + count) of
    // them (a large first load, a slice a turn: the first in place of what was held, the next appended).
    virtual void apply(const PreparedTable &prepared) = 0;
    virtual void apply(const PreparedTable &prepared, int from, int count) = 0;
    virtual void clear() = 0; // no kluster: no row
    virtual RetiredRows takeRetired() = 0; // what the updates replaced, to be freed off the window's thread
};

template<typename Model> class KlusterTableOf final : public KlusterTable
{
public:
    explicit KlusterTableOf(Model *model)
        : m_model(model)
    { }

    QAbstractItemModel *model() const override { return m_model; }
    Prepare preparer(bool againstHeld) const override
    {
        std::optional<decltype(m_model->snapshot())> held;
        if (againstHeld)
            held = m_model->snapshot();
        return [held = std::move(held)](const TableInput &in) -> std::shared_ptr<const PreparedTable> {
            auto rows = std::make_shared<Rows>(Model::prepare(in));
            if (held)
                rows->prepared.planFrom(*held);
            return rows;
        };
    }
    void apply(const PreparedTable &prepared) override { m_model->apply(rowsOf(prepared)); }
    void apply(const PreparedTable &prepared, int from, int count) override
    {
        m_model->apply(rowsOf(prepared).slice(from, count));
    }
    void clear() override
    {
        const KlusterState state;
        const Diagnosis diagnosis;
        const QList<std::shared_ptr<const KlusterFetch>> others;
        m_model->apply(Model::prepare(TableInput { state, diagnosis, others }));
    }
    RetiredRows takeRetired() override { return m_model->takeRetired(); }

private:
    struct Rows final : PreparedTable
    {
        explicit Rows(typename Model::Prepared p)
            : prepared(std::move(p))
        { }
        int size() const override { return prepared.size(); }
        typename Model::Prepared prepared;
    };
    static const typename Model::Prepared &rowsOf(const PreparedTable &p)
    {
        return static_cast<const Rows &>(p).prepared;
    }

    Model *m_model;
};
