#include "mainwindow.h"

#include "auditlog.h"
#include "auditmodel.h"
#include "checkreport.h"
#include "connectiondialog.h"
#include "filtermodel.h"
#include "findingspage.h"
#include "findingsmodel.h"
#include "incidentreport.h"
#include "klusterindex.h"
#include "klustersmodel.h"
#include "nodesmodel.h"
#include "overviewpage.h"
#include "repairdialog.h"
#include "routesmodel.h"
#include "secretstore.h"
#include "securitymodel.h"
#include "severitydecorator.h"
#include "snapshotwriter.h"
#include "tablepage.h"

#include <QAction>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QThread>
#include <QThreadPool>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

namespace {

QString keyOf(const QString &connection, const QString &kluster)
{
    return connection + QLatin1Char('/') + kluster;
}

QString clock(const QDateTime &t)
{
    return t.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"));
}

QString ago(const QDateTime &t)
{
    const qint64 s = qMax<qint64>(0, t.secsTo(QDateTime::currentDateTimeUtc()));
    return s < 60 ? QObject::tr("%1 s ago").arg(s) : QObject::tr("%1 ago").arg(formatDuration(s));
}

bool writeFile(const QString &path, const QByteArray &data, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(data) != data.size() || !f.flush()) {
        *error = QObject::tr("%1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_network(new QThread(this))
    , m_workers(new QThreadPool(this))
    , m_klusters(new KlustersModel(this))
    , m_findings(new FindingsModel(this))
    , m_nodes(new NodesModel(this))
    , m_routes(new RoutesModel(this))
    , m_security(new SecurityModel(this))
    , m_audit(new AuditModel(this))
    , m_sidebar(new QTableView(this))
    , m_banner(new QLabel(this))
    , m_header(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_overview(new OverviewPage(this))
    , m_findingsPage(new FindingsPage(m_findings, this))
    , m_nodesPage(new TablePage(tr("Nodes"), m_nodes, NodesModel::SortRole, NodesModel::SeverityRole, -1, this))
    , m_routesPage(new TablePage(tr("Routes"), m_routes, RoutesModel::SortRole, RoutesModel::SeverityRole, -1, this))
    , m_securityPage(new TablePage(tr("Security group"), m_security, SecurityModel::SortRole, -1, SecurityModel::ProblemRole, this))
    , m_auditPage(new TablePage(tr("Audit log"), m_audit, AuditModel::SortRole, -1, -1, this))
    , m_interval(new QComboBox(this))
    , m_autoRefresh(new QTimer(this))
    , m_ageTicker(new QTimer(this))
{
    setObjectName(QStringLiteral("MainWindow"));
    setWindowTitle(tr("Flightdeck"));
    m_network->setObjectName(QStringLiteral("flightdeck-network"));
    // Our own pool for preparing rows and freeing old data: Qt's global pool
    // also draws the window (the raster engine fills in parallel and waits for
    // it), so work queued there would stall painting.
    m_workers->setMaxThreadCount(1);
    for (int severity : {0, 1, 2})  // load the icons now, not in the first paint of the data
        SeverityDecorator::icon(severity).pixmap(16);
    m_network->start();

    // The sidebar: klusters across connections, worst first.
    auto *sidebarFilter = new FilterModel(KlustersModel::SortRole, -1, this);
    auto *sidebarDecorator = new SeverityDecorator(KlustersModel::SeverityRole, -1, this);
    sidebarDecorator->setSourceModel(m_klusters);
    sidebarFilter->setSourceModel(sidebarDecorator);
    m_sidebar->setModel(sidebarFilter);
    m_sidebar->setObjectName(QStringLiteral("Klusters"));
    m_sidebar->setAccessibleName(tr("Klusters"));
    m_sidebar->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_sidebar->setSelectionMode(QAbstractItemView::SingleSelection);
    m_sidebar->setSortingEnabled(true);
    m_sidebar->sortByColumn(KlustersModel::CriticalColumn, Qt::DescendingOrder);  // the worst on top
    m_sidebar->verticalHeader()->hide();
    m_sidebar->setColumnHidden(KlustersModel::WorstColumn, true);
    m_sidebar->setColumnHidden(KlustersModel::FetchedColumn, true);
    m_sidebar->horizontalHeader()->setSectionResizeMode(KlustersModel::KlusterColumn, QHeaderView::Stretch);
    m_sidebar->setColumnWidth(KlustersModel::ConnectionColumn, 80);
    m_sidebar->setColumnWidth(KlustersModel::CriticalColumn, 70);
    m_sidebar->setColumnWidth(KlustersModel::WarningColumn, 64);
    m_sidebar->setMinimumWidth(330);
    connect(m_sidebar->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &current) {
        const QString key = current.data(KlustersModel::KeyRole).toString();
        if (key.isEmpty() || key == m_current)
            return;
        m_current = key;
        m_findingsPage->table()->view()->clearSelection();  // ids mean nothing in another kluster
        m_header->setText(tr("<b>%1</b><br>preparing the views…").arg(key.toHtmlEscaped()));
        QSettings().setValue(QStringLiteral("console/lastKluster"), key);
        showCurrent();
    });

    // The banner: the last refresh's error, inline, never a modal box.
    m_banner->setObjectName(QStringLiteral("banner"));
    m_banner->setAccessibleName(tr("Refresh error"));
    m_banner->setWordWrap(true);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner->setMargin(8);
    m_banner->hide();
    m_header->setObjectName(QStringLiteral("header"));
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Always two lines high: new data never shifts (and re-lays out) the views below.
    m_header->setFixedHeight(2 * m_header->fontMetrics().lineSpacing() + 6);

    m_tabs->addTab(m_overview, tr("&Overview"));
    m_tabs->addTab(m_findingsPage, tr("&Findings"));
    m_tabs->addTab(m_nodesPage, tr("&Nodes"));
    m_tabs->addTab(m_routesPage, tr("R&outes"));
    m_tabs->addTab(m_securityPage, tr("&Security group"));
    m_tabs->addTab(m_auditPage, tr("&Audit log"));
    m_tabs->setAccessibleName(tr("Views of the selected kluster"));
    connect(m_tabs, &QTabWidget::currentChanged, this, [](int i) { QSettings().setValue(QStringLiteral("console/tab"), i); });

    m_nodesPage->view()->sortByColumn(NodesModel::NameColumn, Qt::AscendingOrder);
    m_nodesPage->view()->setColumnWidth(NodesModel::NameColumn, 230);
    m_nodesPage->view()->setColumnWidth(NodesModel::PoolColumn, 80);
    m_nodesPage->view()->setColumnWidth(NodesModel::AgeColumn, 80);
    m_nodesPage->view()->setColumnWidth(NodesModel::PodCidrColumn, 130);
    m_nodesPage->view()->setColumnWidth(NodesModel::SecurityGroupColumn, 110);
    m_nodesPage->view()->setColumnWidth(NodesModel::RegisteredColumn, 90);
    m_nodesPage->view()->setColumnWidth(NodesModel::ReadyColumn, 80);
    m_routesPage->view()->sortByColumn(RoutesModel::DestinationColumn, Qt::AscendingOrder);
    m_routesPage->view()->setColumnWidth(RoutesModel::DestinationColumn, 170);
    m_routesPage->view()->setColumnWidth(RoutesModel::NexthopColumn, 130);
    m_routesPage->view()->setColumnWidth(RoutesModel::RolesColumn, 190);
    m_routesPage->view()->setColumnWidth(RoutesModel::OwnerColumn, 330);
    m_securityPage->view()->setColumnWidth(SecurityModel::WhatColumn, 130);
    m_securityPage->view()->setColumnWidth(SecurityModel::SubjectColumn, 230);
    m_securityPage->view()->setColumnWidth(SecurityModel::StatusColumn, 160);
    m_auditPage->view()->sortByColumn(AuditModel::TimeColumn, Qt::DescendingOrder);
    m_auditPage->view()->setColumnWidth(AuditModel::TimeColumn, 170);
    m_auditPage->view()->setColumnWidth(AuditModel::FindingColumn, 300);
    m_auditPage->view()->setColumnWidth(AuditModel::RepairColumn, 300);
    m_auditPage->setCaption(tr("Every repair sent from this machine (console and command line), newest first: %1").arg(AuditLog::path()));

    connect(m_findingsPage, &FindingsPage::repairRequested, this, &MainWindow::openRepair);
    connect(m_findingsPage, &FindingsPage::selectionChanged, this, &MainWindow::syncSelection);
    connect(m_findingsPage, &FindingsPage::selectionChanged, this, &MainWindow::updateRepairAction);

    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(m_banner);
    rightLayout->addWidget(m_header);
    rightLayout->addWidget(m_tabs, 1);
    auto *split = new QSplitter(this);
    split->setObjectName(QStringLiteral("split"));
    split->addWidget(m_sidebar);
    split->addWidget(right);
    split->setStretchFactor(1, 1);
    split->setSizes({350, 1090});
    setCentralWidget(split);

    buildActions();

    connect(m_autoRefresh, &QTimer::timeout, this, &MainWindow::refreshAll);
    m_ageTicker->start(15000);
    connect(m_ageTicker, &QTimer::timeout, this, &MainWindow::updateCaptions);

    QSettings settings;
    resize(1440, 900);
    restoreGeometry(settings.value(QStringLiteral("console/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("console/state")).toByteArray());
    split->restoreState(settings.value(QStringLiteral("console/split")).toByteArray());
    m_wantedKey = settings.value(QStringLiteral("console/lastKluster")).toString();
    m_tabs->setCurrentIndex(settings.value(QStringLiteral("console/tab"), 0).toInt());
    const int minutes = settings.value(QStringLiteral("refresh/intervalMinutes"), 5).toInt();
    m_interval->setCurrentIndex(qMax(0, m_interval->findData(minutes)));
    setAutoRefreshMinutes(minutes);
    reloadAudit();
    showCurrent();
}

MainWindow::~MainWindow()
{
    qDeleteAll(m_connections);  // their workers are deleted on the network thread
    m_connections.clear();
    m_network->quit();
    m_network->wait();  // at exit only: the workers' last deletions
    m_workers->waitForDone();
}

void MainWindow::buildActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QMenu *view = menuBar()->addMenu(tr("&View"));
    QMenu *kluster = menuBar()->addMenu(tr("&Kluster"));
    QToolBar *bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);

    QAction *add = file->addAction(tr("&Add connection…"), this, &MainWindow::addConnectionInteractively);
    add->setShortcut(QKeySequence(tr("Ctrl+Shift+N")));
    file->addAction(tr("&Open snapshot…"), QKeySequence::Open, this, &MainWindow::openSnapshotInteractively);
    file->addAction(tr("&Remove the selected kluster's connection"), this, &MainWindow::removeCurrentConnection);
    file->addSeparator();
    file->addAction(tr("Save kluster as &snapshot…"), QKeySequence(tr("Ctrl+Shift+S")), this, &MainWindow::exportSnapshot);
    file->addAction(tr("&Export report (HTML, CSV, JSON)…"), QKeySequence(tr("Ctrl+E")), this, &MainWindow::exportReport);
    file->addAction(tr("Export the audit &log…"), this, &MainWindow::exportAudit);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    m_refreshAction = new QAction(style()->standardIcon(QStyle::SP_BrowserReload), tr("&Refresh"), this);
    m_refreshAction->setShortcuts({QKeySequence::Refresh, QKeySequence(tr("Ctrl+Shift+R"))});
    m_refreshAction->setToolTip(tr("Fetch every kluster again (F5)"));
    connect(m_refreshAction, &QAction::triggered, this, &MainWindow::refreshAll);
    m_cancelAction = new QAction(style()->standardIcon(QStyle::SP_BrowserStop), tr("&Cancel refresh"), this);
    m_cancelAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
    m_cancelAction->setToolTip(tr("Cancel the refreshes in flight; the data shown stays (Ctrl+.)"));
    m_cancelAction->setEnabled(false);
    connect(m_cancelAction, &QAction::triggered, this, &MainWindow::cancelRefreshes);
    m_repairAction = new QAction(style()->standardIcon(QStyle::SP_DialogApplyButton), tr("Re&pair…"), this);
    m_repairAction->setShortcut(QKeySequence(tr("Ctrl+R")));
    m_repairAction->setToolTip(tr("Preview and send the repair of the selected findings (Ctrl+R)"));
    connect(m_repairAction, &QAction::triggered, this, [this] {
        setTab(FindingsTab);
        openRepair(m_findingsPage->repairableSelection());
    });
    m_findAction = new QAction(tr("&Find…"), this);
    m_findAction->setShortcut(QKeySequence::Find);
    connect(m_findAction, &QAction::triggered, this, [this] {
        if (auto *page = qobject_cast<TablePage *>(m_tabs->currentWidget()))
            page->filterBox()->setFocus(Qt::ShortcutFocusReason);
        else {
            setTab(FindingsTab);
            m_findingsPage->table()->filterBox()->setFocus(Qt::ShortcutFocusReason);
        }
    });
    m_nextAction = new QAction(style()->standardIcon(QStyle::SP_ArrowDown), tr("&Next finding"), this);
    m_nextAction->setShortcut(QKeySequence(Qt::Key_F8));
    connect(m_nextAction, &QAction::triggered, this, [this] {
        setTab(FindingsTab);
        m_findingsPage->step(1);
    });
    m_previousAction = new QAction(style()->standardIcon(QStyle::SP_ArrowUp), tr("&Previous finding"), this);
    m_previousAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F8));
    connect(m_previousAction, &QAction::triggered, this, [this] {
        setTab(FindingsTab);
        m_findingsPage->step(-1);
    });
    kluster->addActions({m_refreshAction, m_cancelAction});
    kluster->addSeparator();
    kluster->addActions({m_nextAction, m_previousAction, m_repairAction, m_findAction});
    bar->addActions({m_refreshAction, m_cancelAction});
    bar->addSeparator();
    bar->addActions({m_previousAction, m_nextAction, m_repairAction});
    bar->addSeparator();
    auto *label = new QLabel(tr(" Auto-refresh: "), this);
    bar->addWidget(label);
    m_interval->addItem(tr("off"), 0);
    for (int m : {1, 2, 5, 10, 15, 30})
        m_interval->addItem(tr("every %1 min").arg(m), m);
    m_interval->setAccessibleName(tr("Auto-refresh interval"));
    label->setBuddy(m_interval);
    bar->addWidget(m_interval);
    connect(m_interval, &QComboBox::activated, this, [this] {
        const int minutes = m_interval->currentData().toInt();
        QSettings().setValue(QStringLiteral("refresh/intervalMinutes"), minutes);
        setAutoRefreshMinutes(minutes);
    });

    const QStringList names{tr("Overview"), tr("Findings"), tr("Nodes"), tr("Routes"), tr("Security group"), tr("Audit log")};
    for (int i = 0; i < names.size(); ++i) {
        QAction *a = view->addAction(names.at(i), this, [this, i] { m_tabs->setCurrentIndex(i); });
        a->setShortcut(QKeySequence(QStringLiteral("Ctrl+%1").arg(i + 1)));
    }
    menuBar()->addMenu(tr("&Help"))->addAction(tr("&About Flightdeck"), this, [this] {
        statusBar()->showMessage(tr("Flightdeck %1: the operations console for Kubernikus klusters.").arg(QApplication::applicationVersion()), 10000);
    });
}

void MainWindow::updateRepairAction()
{
    const bool any = m_shownKey == m_current && !m_findingsPage->repairableSelection().isEmpty();
    m_repairAction->setEnabled(any);
    m_repairAction->setToolTip(any ? tr("Preview and send the repair of the selected findings (Ctrl+R)")
                                   : tr("Select findings with a repair in the Findings view first (Ctrl+R)"));
}

void MainWindow::setForceReadOnly(bool readOnly)
{
    m_forceReadOnly = readOnly;
    if (readOnly)
        setWindowTitle(windowTitle() + tr(" (read-only)"));
}

void MainWindow::setAutoRefreshMinutes(int minutes)
{
    if (minutes <= 0) {
        m_autoRefresh->stop();
        return;
    }
    m_autoRefresh->start(minutes * 60 * 1000);
}

void MainWindow::setTab(Tab tab)
{
    m_tabs->setCurrentIndex(int(tab));
}

void MainWindow::showStartupMessage(const QString &message)
{
    m_startupMessage = message;
    updateBanner();
}

Connection *MainWindow::addConnection(const ConnectionSpec &given, bool remember)
{
    ConnectionSpec spec = given;
    spec.readOnly = spec.readOnly || m_forceReadOnly;
    auto *connection = new Connection(spec, m_network, this);
    m_connections << connection;
    if (remember) {
        m_remembered << given;
        saveConnections();
    }
    m_listing.insert(connection);
    connect(connection, &Connection::klustersListed, this, [this, connection](const QStringList &klusters, const QString &error) {
        m_listing.remove(connection);
        const QString name = connection->name();
        if (!error.isEmpty()) {
            KlusterData &d = m_data[keyOf(name, QString())];
            d.error = tr("Connection %1: the klusters could not be listed: %2").arg(name, error);
            d.errorAt = QDateTime::currentDateTimeUtc();
        } else {
            m_data.remove(keyOf(name, QString()));
        }
        QStringList toRefresh = klusters;
        if (!error.isEmpty()) {  // the list failed: the klusters known so far are still tried, each on its own
            for (int row = 0; row < m_klusters->rowCount(); ++row) {
                if (m_klusters->index(row, KlustersModel::ConnectionColumn).data().toString() == name)
                    toRefresh << m_klusters->index(row, KlustersModel::KlusterColumn).data(KlustersModel::SortRole).toString();
            }
        }
        for (const QString &k : std::as_const(toRefresh)) {
            m_klusters->setKluster(name, k);
            connection->refresh(k);
        }
        if (error.isEmpty()) {  // klusters that are gone stay visible, said to be gone
            for (int row = 0; row < m_klusters->rowCount(); ++row) {
                const QString k = m_klusters->index(row, KlustersModel::KlusterColumn).data(KlustersModel::SortRole).toString();
                if (m_klusters->index(row, KlustersModel::ConnectionColumn).data().toString() == name && !klusters.contains(k))
                    m_klusters->setError(name, k, tr("Kubernikus no longer lists this kluster"));
            }
        }
        m_cancelAction->setEnabled(pendingRefreshes() > 0);
        updateBanner();
        m_settleWanted = true;
        settleIfIdle();
    });
    connect(connection, &Connection::refreshed, this, &MainWindow::onRefreshed);
    connection->listKlusters();
    m_cancelAction->setEnabled(true);
    return connection;
}

void MainWindow::restoreConnections()
{
    for (const ConnectionSpec &spec : ConnectionSettings::load()) {
        m_remembered << spec;
        addConnection(spec, false);
    }
}

void MainWindow::saveConnections()
{
    ConnectionSettings::save(m_remembered);
}

int MainWindow::pendingRefreshes() const
{
    int n = int(m_listing.size());
    for (int row = 0; row < m_klusters->rowCount(); ++row) {
        const QModelIndex i = m_klusters->index(row, 0);
        for (Connection *c : m_connections) {
            if (c->name() == m_klusters->index(row, KlustersModel::ConnectionColumn).data().toString()
                && c->isRefreshing(i.data(KlustersModel::SortRole).toString()))
                ++n;
        }
    }
    return n;
}

void MainWindow::refreshAll()
{
    // Listing first: klusters made since appear, gone ones are marked; every listed kluster is then refreshed.
    for (Connection *c : std::as_const(m_connections)) {
        if (m_listing.contains(c))
            continue;
        m_listing.insert(c);
        c->listKlusters();
    }
    m_cancelAction->setEnabled(pendingRefreshes() > 0);
    statusBar()->showMessage(tr("Refreshing…"));
    reloadAudit();
}

void MainWindow::cancelRefreshes()
{
    for (Connection *c : std::as_const(m_connections)) {
        for (int row = 0; row < m_klusters->rowCount(); ++row) {
            if (m_klusters->index(row, KlustersModel::ConnectionColumn).data().toString() == c->name())
                c->cancelRefresh(m_klusters->index(row, KlustersModel::KlusterColumn).data(KlustersModel::SortRole).toString());
        }
    }
}

void MainWindow::onRefreshed(const RefreshResult &result)
{


    const QString key = keyOf(result.connection, result.kluster);
    KlusterData &d = m_data[key];
    if (result.fetch) {
        if (d.fetch)
            m_retired << d.fetch << d.diagnosis;
        d.fetch = result.fetch;
        d.diagnosis = result.diagnosis;
        d.fetchedAt = result.fetchedAt;
        d.elapsedMs = result.elapsedMs;
        d.error = result.error;  // a source that failed: the rest is fresh
        d.errorAt = result.error.isEmpty() ? QDateTime() : result.fetchedAt;
        m_klusters->setDiagnosis(result.connection, result.kluster, *result.diagnosis, result.fetchedAt);
        if (!result.error.isEmpty())
            m_klusters->setError(result.connection, result.kluster, result.error);
    } else {
        d.error = result.error;
        d.errorAt = QDateTime::currentDateTimeUtc();
        m_klusters->setError(result.connection, result.kluster, result.error);
    }
    if (key == m_wantedKey)
        selectKluster(key);  // the selection of the last run
    if (key == m_current) {
        if (result.fetch)
            showCurrent();
        else
            updateBanner(), updateCaptions();
    }
    const int pending = pendingRefreshes();
    m_cancelAction->setEnabled(pending > 0);
    if (pending == 0) {
        if (m_current.isEmpty() && m_sidebar->model()->rowCount() > 0)  // the worst kluster first
            selectKluster(m_sidebar->model()->index(0, 0).data(KlustersModel::KeyRole).toString());
        int failed = 0;
        for (int row = 0; row < m_klusters->rowCount(); ++row)
            failed += m_klusters->index(row, 0).data(KlustersModel::ErrorRole).toString().isEmpty() ? 0 : 1;
        statusBar()->showMessage(failed == 0 ? tr("Refreshed %1 kluster(s) at %2").arg(m_klusters->rowCount()).arg(clock(QDateTime::currentDateTimeUtc()))
                                             : tr("Refreshed at %1: %2 of %3 kluster(s) could not be read (marked in the sidebar)")
                                                   .arg(clock(QDateTime::currentDateTimeUtc())).arg(failed).arg(m_klusters->rowCount()));
        m_settleWanted = true;
        settleIfIdle();
    }
    if (key != m_current)
        retire();  // no view shows it
    emit klusterUpdated(key);
}

void MainWindow::retire()
{
    if (m_retired.isEmpty())
        return;
    // Freeing a large kluster's state (thousands of instances, nodes and their
    // findings) takes milliseconds: done on a worker thread, once no view uses it.
    (void)QtConcurrent::run(m_workers, [retired = std::exchange(m_retired, {})]() mutable { retired.clear(); });
}

const MainWindow::KlusterData *MainWindow::kluster(const QString &key) const
{
    const auto it = m_data.constFind(key);
    return it == m_data.cend() ? nullptr : &it.value();
}

bool MainWindow::selectKluster(const QString &key)
{
    auto *proxy = static_cast<QSortFilterProxyModel *>(m_sidebar->model());
    for (int row = 0; row < proxy->rowCount(); ++row) {
        const QModelIndex i = proxy->index(row, 0);
        if (i.data(KlustersModel::KeyRole).toString() == key) {
            m_sidebar->selectionModel()->setCurrentIndex(i, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            if (key == m_wantedKey)
                m_wantedKey.clear();
            return true;
        }
    }
    return false;
}

Connection *MainWindow::connectionOf(const QString &key) const
{
    const QString name = key.section(QLatin1Char('/'), 0, 0);
    for (Connection *c : m_connections) {
        if (c->name() == name)
            return c;
    }
    return nullptr;
}

QHash<QString, QString> MainWindow::foreignOwners(const KlusterState &mine, const QList<std::shared_ptr<const KlusterFetch>> &others)
{
    QHash<QString, QString> owners;
    for (const auto &fetch : others) {
        const KlusterState &other = fetch->state;
        if (other.router.id.isEmpty() || other.router.id != mine.router.id)
            continue;
        const KlusterIndex index(other);
        for (int i : index.klusterInstances()) {
            for (const auto &a : other.instances.at(i).addresses)
                owners.insert(a.address, tr("kluster %1 (instance %2)").arg(other.kluster.name, other.instances.at(i).name));
        }
    }
    return owners;
}

void MainWindow::showCurrent()
{
    Connection *connection = connectionOf(m_current);
    const bool readOnly = !connection || connection->isReadOnly();
    m_findingsPage->setReadOnly(readOnly);
    m_repairAction->setVisible(!readOnly);
    setWindowTitle((m_current.isEmpty() ? tr("Flightdeck") : tr("%1 — Flightdeck").arg(m_current)) + (m_forceReadOnly ? tr(" (read-only)") : QString()));
    const KlusterData *d = kluster(m_current);
    if (!d || !d->fetch) {
        const QString name = m_current.section(QLatin1Char('/'), 1);
        m_overview->clear(name.isEmpty() ? tr("Select a kluster in the sidebar.") : tr("%1: fetching…").arg(name));
        m_findings->setDiagnosis(Diagnosis());
        m_nodes->setState(KlusterState(), Diagnosis());
        m_routes->setState(KlusterState());
        m_security->setState(KlusterState(), Diagnosis());
        updateCaptions();
        updateBanner();
        m_shownKey = m_current;
        updateRepairAction();
        emit viewsShown(m_current);
        settleIfIdle();
    } else {
        // The rows are made on a worker thread; only their (incremental) application runs here.
        const int generation = ++m_showGeneration;
        const QString key = m_current;
        const auto fetch = d->fetch;
        const auto diagnosis = d->diagnosis;
        QList<std::shared_ptr<const KlusterFetch>> others;
        const QString prefix = key.section(QLatin1Char('/'), 0, 0) + QLatin1Char('/');
        for (auto it = m_data.cbegin(); it != m_data.cend(); ++it) {
            if (it.key() != key && it.key().startsWith(prefix) && it.value().fetch)
                others << it.value().fetch;
        }
        ++m_preparing;
        auto *watcher = new QFutureWatcher<PreparedViews>(this);
        connect(watcher, &QFutureWatcher<PreparedViews>::finished, this, [this, watcher, generation] {
            watcher->deleteLater();
            applyPrepared(std::make_shared<const PreparedViews>(watcher->result()), generation);
        });
        watcher->setFuture(QtConcurrent::run(m_workers, [fetch, diagnosis, others] {
            PreparedViews v;
            v.findings = FindingsModel::prepare(*diagnosis);
            v.nodes = NodesModel::prepare(fetch->state, *diagnosis);
            v.routes = RoutesModel::prepare(fetch->state, foreignOwners(fetch->state, others));
            v.security = SecurityModel::prepare(fetch->state, *diagnosis);
            return v;
        }));
        return;
    }
}

void MainWindow::applyPrepared(const std::shared_ptr<const PreparedViews> &views, int generation)
{
    // One model per turn of the event loop: each step is short, and the
    // window keeps answering between them.
    using Step = std::function<void()>;
    const auto steps = std::make_shared<QList<Step>>(QList<Step>{
        [this, views] { m_findings->apply(views->findings); },
        [this, views] { m_nodes->apply(views->nodes); },
        [this, views] { m_routes->apply(views->routes); },
        [this, views] { m_security->apply(views->security); },
        [this] {
            const KlusterData *d = kluster(m_current);
            int foreign = 0;
            for (int row = 0; row < m_routes->rowCount(); ++row) {
                const int roles = m_routes->index(row, 0).data(RoutesModel::RolesRole).toInt();
                foreign += (roles & RouteAudit::Foreign) && !(roles & RouteAudit::Missing) ? 1 : 0;
            }
            m_overview->show(d->fetch->state.kluster.name, *d->diagnosis, *m_nodes, m_routes->routeCount(), foreign, m_routes->limit(), QString());
            m_findingsPage->updateDetails();
            updateCaptions();
            updateBanner();
            retire();
            m_shownKey = m_current;
            updateRepairAction();
            emit viewsShown(m_current);
        }});
    m_steps = *steps;
    m_stepsGeneration = generation;
    runNextStep();
}

void MainWindow::runNextStep()
{
    const KlusterData *d = kluster(m_current);
    if (m_stepsGeneration != m_showGeneration || !d || !d->fetch || m_steps.isEmpty()) {
        m_steps.clear();
        --m_preparing;
        settleIfIdle();
        return;
    }
    const std::function<void()> step = m_steps.takeFirst();
    step();
    QMetaObject::invokeMethod(this, &MainWindow::runNextStep, Qt::QueuedConnection);
}

void MainWindow::settleIfIdle()
{
    if (m_settleWanted && m_preparing == 0 && pendingRefreshes() == 0) {
        m_settleWanted = false;
        emit refreshesSettled();
    }
}

void MainWindow::updateCaptions()
{
    const KlusterData *d = kluster(m_current);
    Connection *connection = connectionOf(m_current);
    if (!d || !d->fetch) {
        m_header->setText(m_current.isEmpty() ? QString() : tr("No data yet for %1.").arg(m_current));
        return;
    }
    const bool snapshot = connection && connection->spec().isSnapshot();
    const bool stale = !d->error.isEmpty() && d->errorAt > d->fetchedAt;
    QString when = snapshot ? tr("Snapshot captured %1 (%2), opened offline, read-only").arg(clock(d->fetchedAt), ago(d->fetchedAt))
                            : tr("Fetched %1 (%2) in %3 ms, %4 requests").arg(clock(d->fetchedAt), ago(d->fetchedAt)).arg(d->elapsedMs).arg(d->fetch->requests);
    if (stale)
        when = tr("STALE: ") + when + tr(" — the last refresh failed");
    const KlusterState &s = d->fetch->state;
    const QString where = tr("Kluster %1 · cloud %2 · router %3").arg(s.kluster.name, connection ? connection->name() : QString(), s.router.name);
    m_header->setText(QStringLiteral("<b>%1</b><br>%2%3")
                          .arg(where.toHtmlEscaped(), stale ? QStringLiteral("<b>") + when.toHtmlEscaped() + QStringLiteral("</b>") : when.toHtmlEscaped(),
                               connection && connection->isReadOnly() ? tr(" · <i>read-only: repairs hidden</i>") : QString()));
    const QString caption = (stale ? tr("STALE — ") : QString()) + (snapshot ? tr("Captured %1") : tr("Fetched %1")).arg(clock(d->fetchedAt));
    m_findingsPage->table()->setCaption(tr("%1 · %2 critical, %3 warning").arg(caption).arg(d->diagnosis->count(Severity::Critical)).arg(d->diagnosis->count(Severity::Warning)));
    m_nodesPage->setCaption(tr("%1 · instances and nodes joined by name; marked rows have a finding (hover for which)").arg(caption));
    m_routesPage->setCaption(tr("%1 · router %2: %3 of %4 routes used · grouped by destination; the first route of a destination wins")
                                 .arg(caption, s.router.name)
                                 .arg(m_routes->routeCount())
                                 .arg(m_routes->limit() > 0 ? QString::number(m_routes->limit()) : tr("?")));
    m_securityPage->setCaption(tr("%1 · %2").arg(caption, m_security->groupSummary()));
}

void MainWindow::updateBanner()
{
    QStringList errors;
    for (auto it = m_data.cbegin(); it != m_data.cend(); ++it) {
        if (it.key().endsWith(QLatin1Char('/')) && !it.value().error.isEmpty())
            errors << it.value().error;
    }
    const KlusterData *d = kluster(m_current);
    bool stale = false;
    if (d && !d->error.isEmpty()) {
        stale = !d->fetch || d->errorAt > d->fetchedAt;
        if (!d->fetch)
            errors << tr("Refresh of %1 failed at %2: %3").arg(m_current, clock(d->errorAt), d->error);
        else if (stale)
            errors << tr("Refresh of %1 failed at %2: %3. Still showing the data fetched at %4 (stale). Press F5 to try again.")
                          .arg(m_current, clock(d->errorAt), d->error, clock(d->fetchedAt));
        else
            errors << tr("Some of %1 could not be read: %2. What depends on it is not diagnosed.").arg(m_current, d->error);
    }
    if (errors.isEmpty() && !m_startupMessage.isEmpty() && m_current.isEmpty())
        errors << m_startupMessage;
    m_banner->setVisible(!errors.isEmpty());
    m_banner->setText(errors.join(QLatin1Char('\n')));
    const bool listingFailed = std::any_of(m_data.keyBegin(), m_data.keyEnd(), [this](const QString &k) {
        return k.endsWith(QLatin1Char('/')) && !m_data.value(k).error.isEmpty();
    });
    const bool serious = stale || (d && !d->fetch && !d->error.isEmpty()) || listingFailed;
    m_banner->setStyleSheet(serious ? QStringLiteral("QLabel { background: #c62828; color: white; }")
                                    : QStringLiteral("QLabel { background: #f9a825; color: black; }"));
}

QString MainWindow::bannerText() const
{
    return m_banner->text();
}

bool MainWindow::isBannerVisible() const
{
    return !m_banner->isHidden();
}

void MainWindow::syncSelection(const QStringList &findingIds)
{
    const KlusterData *d = kluster(m_current);
    if (!d || !d->diagnosis)
        return;
    QStringList names, routes, security;
    for (const QString &id : findingIds) {
        const Finding *f = d->diagnosis->find(id);
        if (!f)
            continue;
        const AffectedObjects a = f->affected();
        names << a.instances << a.nodes;
        QList<Route> touched = a.routes;
        if (const std::optional<RepairPlan> plan = f->repair())
            touched << plan->routes;  // a missing route is on no router yet, but has its row
        for (const Route &r : std::as_const(touched))
            routes << r.destination + QStringLiteral(" via ") + r.nexthop;
        for (const QString &i : a.instances)
            security << QStringLiteral("instance:") + i;
        if (!f->facts.protocol.isEmpty())
            security << QStringLiteral("rule:") + f->facts.protocol;
    }
    const int n = m_nodesPage->selectSourceRows(NodesModel::NameRole, names);
    const int r = m_routesPage->selectSourceRows(RoutesModel::KeyRole, routes);
    const int s = m_securityPage->selectSourceRows(SecurityModel::KeyRole, security);
    m_tabs->setTabText(NodesTab, n ? tr("&Nodes (%1)").arg(n) : tr("&Nodes"));
    m_tabs->setTabText(RoutesTab, r ? tr("R&outes (%1)").arg(r) : tr("R&outes"));
    m_tabs->setTabText(SecurityTab, s ? tr("&Security group (%1)").arg(s) : tr("&Security group"));
}

void MainWindow::openRepair(const QStringList &findingIds)
{
    Connection *connection = connectionOf(m_current);
    const KlusterData *d = kluster(m_current);
    if (!connection || connection->isReadOnly() || !d || !d->fetch || findingIds.isEmpty() || m_shownKey != m_current)
        return;  // nothing to repair, or the views do not show this kluster yet
    auto *dialog = new RepairDialog(connection, m_current.section(QLatin1Char('/'), 1), d->fetch, d->diagnosis, findingIds, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const QString key = m_current;
    if (!d->error.isEmpty() && d->errorAt > d->fetchedAt)
        dialog->setStale(tr("the last refresh failed at %1").arg(clock(d->errorAt)));
    connect(this, &MainWindow::klusterUpdated, dialog, [this, dialog, key](const QString &updated) {
        const KlusterData *now = kluster(updated);
        if (updated != key || !now)
            return;
        if (now->diagnosis && now->fetchedAt > now->errorAt)
            dialog->dataRefreshed(*now->diagnosis);
        else if (!now->error.isEmpty())
            dialog->setStale(now->error);
    });
    connect(dialog, &RepairDialog::repairsFinished, this, [this, key, connection = QPointer<Connection>(connection)](int fixed, int total) {
        reloadAudit();
        if (connection)
            connection->refresh(key.section(QLatin1Char('/'), 1));
        m_cancelAction->setEnabled(true);
        statusBar()->showMessage(tr("Repair: %1 of %2 fixed and verified; refreshing %3").arg(fixed).arg(total).arg(key), 10000);
    });
    dialog->open();
    emit repairDialogOpened(dialog);
}

void MainWindow::reloadAudit()
{
    QString error;
    m_audit->setRecords(AuditLog::read(&error));
    if (!error.isEmpty())
        statusBar()->showMessage(tr("The audit log could not be read: %1").arg(error), 10000);
}

void MainWindow::exportSnapshot()
{
    const KlusterData *d = kluster(m_current);
    if (!d || !d->fetch) {
        statusBar()->showMessage(tr("No kluster data to save yet."), 8000);
        return;
    }
    auto *dialog = new QFileDialog(this, tr("Save %1 as a snapshot folder").arg(m_current));
    dialog->setFileMode(QFileDialog::Directory);
    dialog->setOption(QFileDialog::ShowDirsOnly);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const auto fetch = d->fetch;
    connect(dialog, &QFileDialog::fileSelected, this, [this, fetch](const QString &dir) {
        QString error;
        if (SnapshotWriter::write(dir, *fetch, &error))
            statusBar()->showMessage(tr("Snapshot written to %1").arg(dir), 10000);
        else
            statusBar()->showMessage(tr("The snapshot could not be written completely: %1").arg(error), 15000);
    });
    dialog->open();
}

void MainWindow::exportReport()
{
    const KlusterData *d = kluster(m_current);
    if (!d || !d->fetch) {
        statusBar()->showMessage(tr("No kluster data to report yet."), 8000);
        return;
    }
    auto *dialog = new QFileDialog(this, tr("Export the report of %1").arg(m_current));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setNameFilters({tr("HTML report (*.html)"), tr("Findings as CSV (*.csv)"), tr("Check report as JSON (*.json)")});
    dialog->selectFile(d->fetch->state.kluster.name + QStringLiteral("-report.html"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const auto fetch = d->fetch;
    const auto diagnosis = d->diagnosis;
    connect(dialog, &QFileDialog::fileSelected, this, [this, fetch, diagnosis, dialog](const QString &path) {
        const QString filter = dialog->selectedNameFilter();
        QByteArray data;
        if (path.endsWith(QLatin1String(".csv")) || (filter.contains(QLatin1String("CSV")) && !path.endsWith(QLatin1String(".html"))))
            data = IncidentReport::findingsCsv(*diagnosis);
        else if (path.endsWith(QLatin1String(".json")) || (filter.contains(QLatin1String("JSON")) && !path.endsWith(QLatin1String(".html"))))
            data = CheckReport::toJson(fetch->state, *diagnosis);
        else
            data = IncidentReport::toHtml(fetch->state, *diagnosis);
        QString error;
        statusBar()->showMessage(writeFile(path, data, &error) ? tr("Report written to %1").arg(path) : tr("The report could not be written: %1").arg(error), 10000);
    });
    dialog->open();
}

void MainWindow::exportAudit()
{
    auto *dialog = new QFileDialog(this, tr("Export the audit log"));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setNameFilters({tr("JSON Lines (*.jsonl)"), tr("CSV (*.csv)")});
    dialog->selectFile(QStringLiteral("flightdeck-audit.jsonl"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        // The rows as filtered in the view.
        QByteArray data;
        const bool csv = path.endsWith(QLatin1String(".csv"));
        QAbstractItemModel *view = m_auditPage->view()->model();
        if (csv) {
            for (int c = 0; c < view->columnCount(); ++c)
                data += (c ? "," : "") + IncidentReport::csvField(view->headerData(c, Qt::Horizontal).toString());
            data += "\r\n";
        }
        for (int row = 0; row < view->rowCount(); ++row) {
            if (csv) {
                for (int c = 0; c < view->columnCount(); ++c)
                    data += (c ? "," : "") + IncidentReport::csvField(view->index(row, c).data().toString());
                data += "\r\n";
            } else {
                data += QJsonDocument(view->index(row, 0).data(AuditModel::RecordRole).toJsonObject()).toJson(QJsonDocument::Compact) + '\n';
            }
        }
        QString error;
        statusBar()->showMessage(writeFile(path, data, &error) ? tr("Audit log exported to %1").arg(path) : tr("Not exported: %1").arg(error), 10000);
    });
    dialog->open();
}

void MainWindow::addConnectionInteractively()
{
    QStringList taken;
    for (Connection *c : std::as_const(m_connections))
        taken << c->name();
    auto *dialog = new ConnectionDialog(taken, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const ConnectionSpec spec = dialog->spec();
        const QString secret = dialog->secret();
        ConnectionSpec remembered = spec;
        if (remembered.config) {  // what is remembered never holds the secret
            remembered.config->password.clear();
            remembered.config->applicationCredentialSecret.clear();
        }
        m_remembered << remembered;
        saveConnections();
        addConnection(spec, false);
        if (!secret.isEmpty() && spec.config) {
            auto *store = new SecretStore(this);
            SecretCall *call = store->write(spec.config->secretKey(), secret);
            connect(call, &SecretCall::finished, this, [this, store](const SecretResult &r) {
                store->deleteLater();
                statusBar()->showMessage(r.inMemoryOnly ? tr("No keychain is available: the secret is kept for this session only")
                                         : r.ok     ? tr("The secret is stored in the keychain")
                                                    : tr("The secret could not be stored in the keychain: %1").arg(r.error),
                                         15000);
            });
        }
    });
    dialog->open();
}

void MainWindow::openSnapshotInteractively()
{
    auto *dialog = new QFileDialog(this, tr("Open a snapshot folder (read-only)"));
    dialog->setFileMode(QFileDialog::Directory);
    dialog->setOption(QFileDialog::ShowDirsOnly);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &dir) {
        ConnectionSpec spec;
        spec.name = tr("snapshot %1").arg(QFileInfo(dir).fileName());
        spec.snapshotPath = dir;
        spec.readOnly = true;
        addConnection(spec, false);
    });
    dialog->open();
}

void MainWindow::removeCurrentConnection()
{
    Connection *connection = connectionOf(m_current);
    if (!connection)
        return;
    const QString name = connection->name();
    m_connections.removeAll(connection);
    m_listing.remove(connection);
    m_remembered.erase(std::remove_if(m_remembered.begin(), m_remembered.end(), [&](const ConnectionSpec &s) { return s.name == name; }),
                       m_remembered.end());
    saveConnections();
    for (auto it = m_data.begin(); it != m_data.end();)
        it = it.key().startsWith(name + QLatin1Char('/')) ? m_data.erase(it) : std::next(it);
    m_current.clear();
    m_klusters->removeConnection(name);
    delete connection;
    showCurrent();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("console/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("console/state"), saveState());
    settings.setValue(QStringLiteral("console/split"), static_cast<QSplitter *>(centralWidget())->saveState());
    QMainWindow::closeEvent(event);
}
