#include "models/viewpreparer.h"

#include "console/klusterstore.h"
#include "console/lowpriority.h"

#include <QFutureWatcher>
#include <QThreadPool>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#ifdef __GLIBC__
#include <malloc.h>
#endif

ViewPreparer::ViewPreparer(KlusterStore *store, QList<KlusterTable *> tables, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_tables(std::move(tables))
    , m_workers(new QThreadPool(this))
{
    // One thread, of our own: Qt's global pool also draws the window (the raster engine fills in parallel
    // and waits for it), so work queued there would stall painting.
    m_workers->setMaxThreadCount(1);
    m_workers->setExpiryTimeout(-1);
    // The window's thread first: the row-making thread yields to it when the cores are busy.
    (void)QtConcurrent::run(m_workers, [] { Threads::yieldToTheWindow(); });
}

ViewPreparer::~ViewPreparer()
{
    m_workers->waitForDone();
}

void ViewPreparer::show(const KlusterKey &key)
{
    m_wanted = key;
    const KlusterData *d = m_store->data(key);
    if (!d || !d->fetch) {
        for (KlusterTable *table : std::as_const(m_tables))
            table->clear();
        m_shownKey = key;
        emit shown(key);
        if (!isBusy())
            emit idle();
        return;
    }
    // The rows are made on a worker thread; only their (incremental) application runs here.
    const int generation = ++m_generation;
    const auto fetch = d->fetch;
    const auto diagnosis = d->diagnosis;
    const QList<std::shared_ptr<const KlusterFetch>> others = m_store->otherFetches(key);
    ++m_preparing;
    auto *watcher = new QFutureWatcher<Prepared>(this);
    connect(watcher, &QFutureWatcher<Prepared>::finished, this, [this, watcher, key, generation] {
        watcher->deleteLater();
        apply(key, std::make_shared<const Prepared>(watcher->result()), generation);
    });
    // A refresh of the kluster shown: how each table's rows change is worked out there too, against the rows
    // it holds now (a table that changed meanwhile works it out itself).
    QList<KlusterTable::Prepare> jobs;
    for (const KlusterTable *table : std::as_const(m_tables))
        jobs << table->preparer(m_shownKey == key);
    watcher->setFuture(QtConcurrent::run(m_workers, [fetch, diagnosis, others, jobs] {
        const TableInput in { fetch->state, *diagnosis, others };
        Prepared v;
        for (const KlusterTable::Prepare &job : jobs)
            v << job(in);
        return v;
    }));
}

void ViewPreparer::apply(const KlusterKey &key, const std::shared_ptr<const Prepared> &views, int generation)
{
    // One model (or a slice of one) per turn of the event loop: each step is short, and the window keeps
    // answering between them.
    dropSteps();
    m_stepsViews = views; // the steps share its rows: freed off this thread once they are done
    // Another kluster's rows (or the first): each table takes the first slice in place of what it held, then
    // the others a slice per turn, so that thousands of rows never arrive in one go. A refresh of the kluster
    // shown changes rows in place, in one step.
    const bool fresh = m_shownKey != key;
    constexpr int Slice = 1000;
    for (qsizetype t = 0; t < m_tables.size(); ++t) {
        KlusterTable *table = m_tables.at(t);
        const PreparedTable *prepared = views->at(t).get(); // alive with m_stepsViews, as long as the steps
        // The rows a step replaces are freed on the worker pool, not here.
        if (!fresh || prepared->size() <= Slice) {
            m_steps << [this, table, prepared] {
                table->apply(*prepared);
                m_store->retire(table->takeRetired());
            };
            continue;
        }
        // Each slice made when its turn comes (a copy of its own rows alone), the first in place of what the
        // table held, the others appended: no step costs more than its slice.
        for (int from = 0; from < prepared->size(); from += Slice) {
            m_steps << [this, table, prepared, from] {
                table->apply(*prepared, from, Slice);
                m_store->retire(table->takeRetired());
            };
        }
    }
    m_steps << [this, key] {
        dropSteps();
        retire();
        m_shownKey = key;
        emit shown(key);
    };
    m_stepsGeneration = generation;
    nextStepSoon();
}

void ViewPreparer::runNextStep()
{
    const KlusterData *d = m_store->data(m_wanted);
    if (m_stepsGeneration != m_generation || !d || !d->fetch || m_steps.isEmpty()) {
        dropSteps();
        retire();
        --m_preparing;
        if (!isBusy())
            emit idle();
        return;
    }
    const std::function<void()> step = m_steps.takeFirst();
    step();
    nextStepSoon();
}

void ViewPreparer::dropSteps()
{
    m_steps.clear();
    if (m_stepsViews) // thousands of rows: freed with the other retired data, on a worker thread
        m_store->retire({ std::exchange(m_stepsViews, nullptr) });
}

void ViewPreparer::nextStepSoon()
{
    // A timer, not a posted call (which a zero timeout would be): the event loop takes input, paints and runs
    // the other timers before the next step.
    QTimer::singleShot(1, Qt::PreciseTimer, this, &ViewPreparer::runNextStep);
}

void ViewPreparer::retire()
{
    KlusterStore::Retired retired = m_store->takeRetired();
    if (retired.isEmpty())
        return;
    // Freeing a large kluster's state (thousands of instances, nodes and their findings) takes milliseconds:
    // done on a worker thread, once no view uses it.
    (void)QtConcurrent::run(m_workers, [retired = std::move(retired)]() mutable {
        retired.clear();
#ifdef __GLIBC__
        // Hand the freed pages back: a console that refreshes for days keeps its resident size flat instead
        // of holding every peak in fragmented heaps.
        malloc_trim(0);
#endif
    });
}
