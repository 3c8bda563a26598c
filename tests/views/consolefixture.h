#pragma once

// What the console's tests share: a connection to the simulated cloud, and
// waits that return whether they came true (check them at the call site).

#include "models/auditmodel.h"
#include "models/findingsmodel.h"
#include "models/klustersmodel.h"
#include "models/nodesmodel.h"
#include "models/routesmodel.h"
#include "models/securitymodel.h"
#include "services/connection.h"
#include "services/historyrecorder.h"
#include "services/repair/auditlog.h"
#include "simulator/simulator.h"
#include "tests/simulator/simcloud.h"
#include "views/auditpage.h"
#include "views/findingspage.h"
#include "views/mainwindow.h"
#include "views/routespage.h"

#include <QAbstractItemModel>
#include <QApplication>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

namespace ConsoleTest {

inline ConnectionSpec simSpec(
    const Simulator &sim, bool readOnly = false, const QString &password = QStringLiteral("flightdeck-demo"))
{
    ConnectionSpec spec;
    spec.name = QStringLiteral("sim");
    spec.config = simCloud(sim, password);
    spec.readOnly = readOnly;
    // The simulated cloud runs Kubernikus' controllers only where a test switches them on.
    spec.options.automation = false;
    return spec;
}

// Every refresh asked for has come back and the views show it.
[[nodiscard]] inline bool waitSettled(MainWindow &window, int timeoutMs = 60000)
{
    if (window.isSettled())
        return true; // came back already
    QSignalSpy settled(&window, &MainWindow::refreshesSettled);
    return settled.wait(timeoutMs) && window.pendingRefreshes() == 0;
}

// The window on `spec`, shown, every first refresh back.
[[nodiscard]] inline bool open(MainWindow &window, const ConnectionSpec &spec)
{
    window.addConnection(spec, false);
    window.show();
    return waitSettled(window);
}

// A fault of the simulated cloud: `kind` on every request to `service`.
inline FaultRule fault(const QString &service, FaultRule::Kind kind, int status = 503)
{
    FaultRule rule;
    rule.service = service;
    rule.kind = kind;
    rule.status = status;
    return rule;
}

// Selects a kluster and waits until its views show it (their rows are made on a worker thread).
[[nodiscard]] inline bool select(MainWindow &window, const KlusterKey &key)
{
    if (window.currentKey() == key)
        return true; // shown already
    QSignalSpy shown(&window, &MainWindow::viewsShown);
    if (!window.selectKluster(key))
        return false;
    while (shown.isEmpty() || shown.last().first().value<KlusterKey>() != key) {
        if (!shown.wait(10000))
            return false;
    }
    return window.currentKey() == key;
}

// Gives `window` the keyboard (a window manager would) and waits until it has it.
[[nodiscard]] inline bool activate(QWidget *window)
{
    window->activateWindow();
    for (int i = 0; i < 100 && QApplication::activeWindow() != window; ++i)
        QTest::qWait(20);
    return QApplication::activeWindow() == window;
}

// A key pressed wherever the focus is now (else on the active window), as a person at the keyboard would.
inline void press(int key, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
{
    QWidget *target
        = QApplication::focusWidget() ? QApplication::focusWidget() : QApplication::activeWindow();
    QTest::keyClick(target, Qt::Key(key), modifiers);
}

// The klusters in the sidebar (the rows under its connections' headings), top to bottom, in `column`.
inline QList<QModelIndex> sidebarRows(const QTreeView *sidebar, int column = 0)
{
    const QAbstractItemModel *model = sidebar->model();
    QList<QModelIndex> rows;
    for (int g = 0; g < model->rowCount(); ++g) {
        const QModelIndex group = model->index(g, 0);
        for (int row = 0; row < model->rowCount(group); ++row)
            rows << model->index(row, column, group);
    }
    return rows;
}

// The values of a role in every kluster row of the sidebar, top to bottom.
inline QStringList sidebarColumn(const QTreeView *sidebar, int column, int role = Qt::DisplayRole)
{
    QStringList values;
    for (const QModelIndex &row : sidebarRows(sidebar, column))
        values << row.data(role).toString();
    return values;
}

// The values of `column` (or a role) in every row of `model`, top to bottom.
inline QStringList column(const QAbstractItemModel *model, int column, int role = Qt::DisplayRole)
{
    QStringList values;
    for (int row = 0; row < model->rowCount(); ++row)
        values << model->index(row, column).data(role).toString();
    return values;
}

} // namespace ConsoleTest
