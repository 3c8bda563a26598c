#include "console/viewpreparer.h"

#include "console/klusterstore.h"
#include "console/lowpriority.h"
#include "core/klusterindex.h"

#include <QFutureWatcher>
#include <QThreadPool>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>
#include <tuple>

#ifdef __GLIBC__
#include <malloc.h>
#endif

ViewPreparer::ViewPreparer(KlusterStore *store, const Models &models, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_models(models)
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

QHash<QString, QString> ViewPreparer::foreignOwners(
    const KlusterState &mine, const QList<std::shared_ptr<const KlusterFetch>> &others)
{
    QHash<QString, QString> owners;
    for (const auto &fetch : others) {
        const KlusterState &other = fetch->state;
        if (other.router.id.isEmpty() || other.router.id != mine.router.id)
            continue;
        const KlusterIndex index(other);
        for (int i : index.klusterInstances()) {
            for (const auto &a : other.instances.at(i).addresses)
                owners.insert(a.address,
                    tr("kluster %1 (instance %2)").arg(other.kluster.name, other.instances.at(i).name));
        }
    }
    return owners;
}

void ViewPreparer::show(const KlusterKey &key)
{
    m_wanted = key;
    const KlusterData *d = m_store->data(key);
    if (!d || !d->fetch) {
        m_models.findings->setDiagnosis(Diagnosis());
        m_models.nodes->setState(KlusterState(), Diagnosis());
        m_models.routes->setState(KlusterState());
        m_models.security->setState(KlusterState(), Diagnosis());
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
    const bool sameKluster = m_shownKey == key;
    const auto held = sameKluster
        ? std::make_optional(std::make_tuple(m_models.findings->snapshot(), m_models.nodes->snapshot(),
            m_models.routes->snapshot(), m_models.security->snapshot()))
        : std::nullopt;
    watcher->setFuture(QtConcurrent::run(m_workers, [fetch, diagnosis, others, held] {
        Prepared v;
        v.findings = FindingsModel::prepare(*diagnosis);
        v.nodes = NodesModel::prepare(fetch->state, *diagnosis);
        v.routes = RoutesModel::prepare(fetch->state, *diagnosis, foreignOwners(fetch->state, others));
        v.security = SecurityModel::prepare(fetch->state, *diagnosis);
        if (held) {
            v.findings.planFrom(std::get<0>(*held));
            v.nodes.planFrom(std::get<1>(*held));
            v.routes.planFrom(std::get<2>(*held));
            v.security.planFrom(std::get<3>(*held));
        }
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
    const auto add = [this, fresh](auto *model, const auto &prepared) {
        constexpr int Slice = 1000;
        // The rows a step replaces are freed on the worker pool, not here.
        const auto apply = [this, model](const auto &part) {
            model->apply(part);
            m_store->retire(model->takeRetired());
        };
        if (!fresh || prepared.size() <= Slice) {
            m_steps << [apply, prepared] { apply(prepared); };
            return;
        }
        // Each slice made when its turn comes (a copy of its own rows alone), the first in place of what the
        // table held, the others appended: no step costs more than its slice.
        for (int from = 0; from < prepared.size(); from += Slice)
            m_steps << [apply, prepared, from] { apply(prepared.slice(from, Slice)); };
    };
    add(m_models.findings, views->findings);
    add(m_models.nodes, views->nodes);
    add(m_models.routes, views->routes);
    add(m_models.security, views->security);
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
