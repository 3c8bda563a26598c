#pragma once

#include "core/klusterfetch.h"
#include "core/klusterkey.h"
#include "models/klustertable.h"

#include <QObject>
#include <functional>
#include <memory>

class KlusterStore;
class QThreadPool;

// Puts a kluster's data into the views' tables (KlusterTable: whichever ConsoleModels lists) without
// stalling the window: the rows are made on a worker thread (of a pool of its own: Qt's global pool also
// draws the window), and applied here a table, or a slice of a thousand rows, per turn of the event loop. A
// newer show() supersedes one under way (generations). The data replaced is freed on the worker pool, once no
// view shows it (retire()).
class ViewPreparer : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ViewPreparer)

public:
    ViewPreparer(KlusterStore *store, QList<KlusterTable *> tables, QObject *parent = nullptr);
    ~ViewPreparer() override; // waits for the pool's last job (at exit only)

    // Shows `key`'s data (none: the tables emptied at once); shown(key) once the models hold it.
    void show(const KlusterKey &key);
    KlusterKey shownKey() const { return m_shownKey; } // whose rows the models hold (after shown())
    bool isBusy() const { return m_preparing > 0; }
    // Frees, on the worker pool, the data the store retired and no view shows.
    void retire();

signals:
    void shown(const KlusterKey &key); // the models hold the kluster's rows
    void idle(); // nothing under way

private:
    using Prepared = QList<std::shared_ptr<const PreparedTable>>; // each table's rows, in the tables' order
    void apply(const KlusterKey &key, const std::shared_ptr<const Prepared> &prepared, int generation);
    void runNextStep();
    void nextStepSoon();
    void dropSteps(); // the steps left, and what they apply handed over to be freed

    KlusterStore *m_store;
    QList<KlusterTable *> m_tables;
    QThreadPool *m_workers;
    KlusterKey m_wanted; // the kluster asked for last
    KlusterKey m_shownKey;
    int m_generation = 0;
    int m_preparing = 0;
    QList<std::function<void()>> m_steps; // the model updates still to apply, one per event-loop turn
    int m_stepsGeneration = 0;
    std::shared_ptr<const Prepared> m_stepsViews; // what the steps apply
};
