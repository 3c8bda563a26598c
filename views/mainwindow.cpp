#include "views/mainwindow.h"

#include "core/klusterindex.h"
#include "core/printable.h"
#include "models/auditmodel.h"
#include "models/filtermodel.h"
#include "models/klustergroups.h"
#include "models/klustersmodel.h"
#include "models/klusterstore.h"
#include "services/auditlog.h"
#include "services/exports.h"
#include "services/secretstore.h"
#include "services/settings.h"
#include "services/snapshotwriter.h"
#include "views/changespage.h"
#include "views/connectionsdialog.h"
#include "views/fleetview.h"
#include "views/helpdialogs.h"
#include "views/icons.h"
#include "views/messagebanner.h"
#include "views/notifier.h"
#include "views/overviewpage.h"
#include "views/repairdialog.h"
#include "views/repairtext.h"
#include "views/severitydecorator.h"
#include "views/severitystyle.h"
#include "views/tablepage.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QFileDialog>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QIcon>
#include <QJsonArray>
#include <QJsonObject>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTextBrowser>
#include <QThread>
#include <QThreadPool>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <climits>
#include <tuple>

#ifdef Q_OS_LINUX
#include <cerrno>
#include <sys/resource.h>
#endif
#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace {

// The kluster of a sidebar row (a connection's own row: its kluster is empty).
KlusterKey keyAt(const QModelIndex &row)
{
    return { row.data(KlustersModel::ConnectionRole).toString(),
        row.data(KlustersModel::KlusterRole).toString() };
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

// The first line of an error, short enough for one line of the banner.
QString shortError(const QString &error)
{
    QString line = error.section(QLatin1Char('\n'), 0, 0);
    if (line.size() > 180)
        line = line.left(177) + QStringLiteral("…");
    return line;
}

// Which sources could not be read ("servers", "nodes", …), for one short line.
QString failedSources(const QList<SourceError> &errors)
{
    QStringList named;
    for (const SourceError &e : errors) {
        if (!e.source.isEmpty() && !named.contains(e.source))
            named << e.source;
    }
    return named.isEmpty() ? QObject::tr("a source")
                           : QObject::tr("the %1").arg(named.join(QStringLiteral(", ")));
}

// Lowers the calling thread's scheduling priority a little (Linux: a thread's own nice value).
void yieldToTheWindow()
{
#ifdef Q_OS_LINUX
    errno = 0;
    const int now = getpriority(PRIO_PROCESS, 0);
    if (errno == 0)
        (void)setpriority(PRIO_PROCESS, 0, qMin(19, now + 5)); // 0: this thread, on Linux
#endif
}

const char *const TabNames[]
    = { QT_TRANSLATE_NOOP("MainWindow", "Overview"), QT_TRANSLATE_NOOP("MainWindow", "Findings"),
          QT_TRANSLATE_NOOP("MainWindow", "Nodes"), QT_TRANSLATE_NOOP("MainWindow", "Routes"),
          QT_TRANSLATE_NOOP("MainWindow", "Security group"), QT_TRANSLATE_NOOP("MainWindow", "Audit log"),
          QT_TRANSLATE_NOOP("MainWindow", "Fleet"), QT_TRANSLATE_NOOP("MainWindow", "Changes") };

enum RouteScope
{
    KlusterRoutes,
    ProblemRoutes,
    AllRoutes
};

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_network(new QThread(this))
    , m_historyThread(new QThread(this))
    , m_history(new HistoryRecorder())
    , m_changes(new ChangesPage(this))
    , m_workers(new QThreadPool(this))
    , m_store(new KlusterStore(this))
    , m_klusters(new KlustersModel(this))
    , m_findings(new FindingsModel(this))
    , m_nodes(new NodesModel(this))
    , m_routes(new RoutesModel(this))
    , m_security(new SecurityModel(this))
    , m_audit(new AuditModel(this))
    , m_sidebarPanel(new QWidget(this))
    , m_sidebarFilter(new QLineEdit(this))
    , m_sidebar(new QTreeView(this))
    , m_split(new QSplitter(this))
    , m_banner(new MessageBanner(this))
    , m_header(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_overview(new OverviewPage(this))
    , m_findingsPage(new TablePage(tr("Findings"), m_findings, FindingsModel::filterFields(), this))
    , m_nodesPage(new TablePage(tr("Nodes"), m_nodes, NodesModel::filterFields(), this))
    , m_routesPage(new TablePage(tr("Routes"), m_routes, RoutesModel::filterFields(), this))
    , m_securityPage(new TablePage(tr("Security group"), m_security, SecurityModel::filterFields(), this))
    , m_auditPage(new TablePage(tr("Audit log"), m_audit, AuditModel::filterFields(), this))
    , m_fleet(new FleetView(this))
    , m_severity(new QComboBox(this))
    , m_routeScope(new QComboBox(this))
    , m_intervalButton(new QToolButton(this))
    , m_intervalMenu(new QMenu(tr("A&uto-refresh"), this))
    , m_intervalGroup(new QActionGroup(this))
    , m_autoRefresh(new QTimer(this))
    , m_ageTicker(new QTimer(this))
    , m_notifier(new Notifier(this))
{
    setObjectName(QStringLiteral("MainWindow"));
    setWindowTitle(tr("Flightdeck"));
    setWindowIcon(applicationIcon());
    m_network->setObjectName(QStringLiteral("flightdeck-network"));
    // Our own pool for preparing rows and freeing old data: Qt's global pool
    // also draws the window (the raster engine fills in parallel and waits for
    // it), so work queued there would stall painting.
    m_workers->setMaxThreadCount(1);
    // The icons loaded now, not in the first paint of the data.
    for (Severity severity : { Severity::Critical, Severity::Warning, Severity::Info })
        SeverityStyle::icon(severity).pixmap(16);
    // The window's thread first: the network, parsing and row-making threads yield to it when the cores are
    // busy (on a 2-core laptop, a 5,000-node refresh would otherwise take the window's turn).
    connect(
        m_network, &QThread::started, m_network, [] { yieldToTheWindow(); }, Qt::DirectConnection);
    m_workers->setExpiryTimeout(-1);
    (void)QtConcurrent::run(m_workers, [] { yieldToTheWindow(); });
    m_network->start();
    m_historyThread->setObjectName(QStringLiteral("flightdeck-history"));
    m_history->moveToThread(m_historyThread);
    connect(m_historyThread, &QThread::finished, m_history, &QObject::deleteLater);
    m_historyThread->start(QThread::LowPriority);
    QMetaObject::invokeMethod(m_history,
        [h = m_history, days = Settings::historyDays().value(), mb = Settings::historyMegabytes().value()] {
            h->open(days, mb);
        });
    connect(m_history, &HistoryRecorder::findingsHistory, this, [this](const FindingsHistory &h) {
        m_findingsHistory.insert(h.console, h);
        if (h.console == m_current.toString()) {
            m_findings->setHistory(h.findings, h.at);
            requestTrend();
            requestChanges();
        }
    });
    connect(m_history, &HistoryRecorder::trendLoaded, this, [this](const HistoryTrend &trend) {
        if (trend.console == m_current.toString())
            m_overview->showTrend(trend);
    });
    connect(m_history, &HistoryRecorder::changesLoaded, this, [this](const HistoryChanges &changes) {
        if (changes.console == m_current.toString())
            m_changes->showChanges(changes);
    });
    connect(m_changes, &ChangesPage::compareRequested, this, [this](qint64 before, qint64 after) {
        m_changesBefore = before;
        m_changesAfter = after;
        requestChanges();
    });
    connect(m_history, &HistoryRecorder::problem, this, [this](const QString &message) {
        qWarning().noquote() << message;
        statusBar()->showMessage(message, 30000);
    });

    buildSidebar();
    buildPages();

    // The sidebar follows the store.
    connect(m_store, &KlusterStore::klusterAdded, m_klusters,
        [this](const KlusterKey &key) { m_klusters->setKluster(key.connection, key.kluster); });
    connect(m_store, &KlusterStore::klusterGone, m_klusters, [this](const KlusterKey &key) {
        m_klusters->setError(key.connection, key.kluster, tr("Kubernikus no longer lists this kluster"));
    });
    connect(m_store, &KlusterStore::klusterFetched, m_klusters, [this](const KlusterKey &key) {
        const KlusterData *d = kluster(key);
        m_klusters->setDiagnosis(key.connection, key.kluster, *d->diagnosis, d->fetchedAt,
            SourceError::joined(d->incomplete), d->fetch ? d->fetch->state.region : QString());
    });
    connect(m_store, &KlusterStore::klusterFailed, m_klusters, [this](const KlusterKey &key) {
        m_klusters->setError(key.connection, key.kluster, SourceError::joined(kluster(key)->error));
    });
    // A connection that lists nothing still has a row, with its error, until it is removed.
    connect(m_store, &KlusterStore::listingErrorChanged, m_klusters, [this](const QString &connection) {
        m_klusters->setConnectionError(connection, m_store->listingError(connection).toString());
    });
    connect(m_store, &KlusterStore::connectionRemoved, m_klusters, &KlustersModel::removeConnection);

    // The banner: what failed, inline, never a modal box.
    m_header->setObjectName(QStringLiteral("header"));
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_header->setMinimumWidth(100);
    // Always two lines high: new data never shifts (and re-lays out) the views below.
    m_header->setFixedHeight(2 * m_header->fontMetrics().lineSpacing() + 6);

    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->setSpacing(2);
    rightLayout->addWidget(m_banner);
    rightLayout->addWidget(m_header);
    rightLayout->addWidget(m_tabs, 1);
    m_split->setObjectName(QStringLiteral("split"));
    m_split->addWidget(m_sidebarPanel);
    m_split->addWidget(right);
    m_split->setStretchFactor(1, 1);
    m_split->setCollapsible(1, false);
    m_split->setSizes({ 290, 1150 });
    setCentralWidget(m_split);

    buildActions();
    connect(m_banner, &MessageBanner::retryRequested, this, &MainWindow::refreshAll); // every kluster again

    connect(m_autoRefresh, &QTimer::timeout, this, &MainWindow::refreshAll);
    m_ageTicker->start(5000);
    connect(m_ageTicker, &QTimer::timeout, this, &MainWindow::updateCaptions);
    connect(m_notifier, &Notifier::activated, this, [this](const KlusterKey &key, const QString &finding) {
        showNormal();
        raise();
        activateWindow();
        if (finding.isEmpty())
            selectKluster(key);
        else
            showFinding(key, finding);
    });
    connect(m_notifier, &Notifier::showWindowRequested, this, [this] {
        showNormal();
        raise();
        activateWindow();
    });

    placeOnScreen();
    m_split->restoreState(Settings::splitState().value());
    m_wantedKey = KlusterKey::fromString(Settings::lastKluster().value());
    m_tabs->setCurrentIndex(Settings::tab().value());
    for (TablePage *p : { m_findingsPage, m_nodesPage, m_routesPage, m_securityPage, m_auditPage })
        p->restoreHeader();
    m_notifier->setNotificationsEnabled(Settings::desktopNotifications().value());
    m_notifyAction->setChecked(m_notifier->notificationsEnabled());
    m_trayAction->setChecked(Settings::trayIcon().value());
    setAutoRefreshMinutes(Settings::refreshMinutes().value());
    reloadAudit();
    updateLiveActions();
    showCurrent();
    m_sidebar->setFocus(Qt::OtherFocusReason); // arrows choose a kluster, Enter goes into its views
}

QIcon MainWindow::applicationIcon()
{
    QIcon icon = QIcon::fromTheme(QStringLiteral("flightdeck"));
    if (!icon.isNull())
        return icon;
    Q_INIT_RESOURCE(flightdeck);
    for (int size : { 16, 22, 24, 32, 48, 64, 128, 256 })
        icon.addFile(QStringLiteral(":/flightdeck/icons/hicolor/%1x%1/apps/flightdeck.png").arg(size),
            QSize(size, size));
    return icon;
}

MainWindow::~MainWindow()
{
    qDeleteAll(m_connections); // their workers are deleted on the network thread
    m_connections.clear();
    m_network->quit();
    m_network->wait(); // at exit only: the workers' last deletions
    m_historyThread->quit();
    m_historyThread->wait(); // at exit only: the last record written whole
    m_workers->waitForDone();
}

void MainWindow::placeOnScreen()
{
    // Inside the screen it opens on, whatever was saved: a laptop's 1280×720 gets a window that fits.
    const QRect available = screen() ? screen()->availableGeometry() : QRect(0, 0, 1440, 900);
    resize(qMin(1440, available.width() * 92 / 100), qMin(900, available.height() * 92 / 100));
    const QByteArray geometry = Settings::windowGeometry().value();
    if (!geometry.isEmpty())
        restoreGeometry(geometry);
    if (!isMaximized() && !isFullScreen()) {
        const QSize size = frameGeometry().size().boundedTo(available.size());
        resize(size - (frameGeometry().size() - this->size()).expandedTo(QSize(0, 0)));
        QRect frame = frameGeometry();
        if (!available.contains(frame)) {
            frame.moveLeft(qBound(
                available.left(), frame.left(), qMax(available.left(), available.right() - frame.width())));
            frame.moveTop(qBound(
                available.top(), frame.top(), qMax(available.top(), available.bottom() - frame.height())));
            move(frame.topLeft());
        }
    }
    restoreState(Settings::windowState().value());
}

void MainWindow::buildSidebar()
{
    // The klusters under their connection and region, worst first at both levels; its own filter (same
    // syntax as the tables').
    auto *groups = new KlusterGroups(this);
    groups->setSourceModel(m_klusters);
    auto *decorator = new SeverityDecorator(this);
    decorator->setAlarmRole(KlustersModel::AlarmRole);
    decorator->setBoldHeadings(true);
    decorator->setSourceModel(groups);
    auto *filter = new FilterModel(this);
    filter->setKnownFields(KlustersModel::filterFields());
    filter->setHeadings();
    filter->setSourceModel(decorator);
    m_sidebar->setModel(filter);
    m_sidebar->setObjectName(QStringLiteral("Klusters"));
    m_sidebar->setAccessibleName(tr("Klusters"));
    m_sidebar->setRootIsDecorated(true);
    m_sidebar->setIndentation(12);
    m_sidebar->setTextElideMode(Qt::ElideMiddle); // a long heading keeps its count, a long name its end
    // Groups open, unless the engineer closed them; a group the filter brings back opens as it was.
    const auto expandGroups = [this](int first, int last) {
        QAbstractItemModel *model = m_sidebar->model();
        for (int row = first; row <= last && row < model->rowCount(); ++row) {
            const QModelIndex group = model->index(row, 0);
            if (!m_collapsedGroups.contains(group.data(KlustersModel::KeyRole).toString()))
                m_sidebar->expand(group);
        }
    };
    connect(filter, &QAbstractItemModel::rowsInserted, this,
        [expandGroups](const QModelIndex &parent, int first, int last) {
            if (!parent.isValid())
                expandGroups(first, last);
        });
    const auto expandAll = [this, expandGroups] { expandGroups(0, m_sidebar->model()->rowCount() - 1); };
    connect(filter, &QAbstractItemModel::modelReset, this, expandAll);
    connect(filter, &QAbstractItemModel::layoutChanged, this, expandAll);
    connect(m_sidebar, &QTreeView::collapsed, this, [this](const QModelIndex &group) {
        m_collapsedGroups.insert(group.data(KlustersModel::KeyRole).toString());
    });
    connect(m_sidebar, &QTreeView::expanded, this, [this](const QModelIndex &group) {
        m_collapsedGroups.remove(group.data(KlustersModel::KeyRole).toString());
    });
    m_sidebar->setUniformRowHeights(true);
    m_sidebar->setAllColumnsShowFocus(true);
    m_sidebar->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_sidebar->setSelectionMode(QAbstractItemView::SingleSelection);
    m_sidebar->setSortingEnabled(true);
    m_sidebar->sortByColumn(KlustersModel::CriticalColumn, Qt::DescendingOrder); // the worst on top
    m_sidebar->setColumnHidden(KlustersModel::WorstColumn, true);
    m_sidebar->setColumnHidden(KlustersModel::FetchedColumn, true);
    m_sidebar->header()->setStretchLastSection(false);
    m_sidebar->header()->setSectionResizeMode(KlustersModel::KlusterColumn, QHeaderView::Stretch);
    m_sidebar->header()->setMinimumSectionSize(30);
    m_sidebar->setColumnWidth(KlustersModel::ConnectionColumn, 80);
    m_sidebar->setColumnWidth(KlustersModel::CriticalColumn, 64);
    m_sidebar->setColumnWidth(KlustersModel::WarningColumn, 68);
    m_sidebar->setColumnHidden(KlustersModel::ConnectionColumn, true); // the groups say it
    m_sidebar->setMinimumWidth(150);
    m_sidebar->installEventFilter(this);
    m_sidebarFilter->setPlaceholderText(tr("Filter klusters (Ctrl+K)"));
    m_sidebarFilter->setToolTip(
        tr("Words match kluster, connection and region names; fields: %1; -word excludes")
            .arg(KlustersModel::filterFields().join(QStringLiteral(", "))));
    m_sidebarFilter->setAccessibleName(tr("Filter klusters"));
    m_sidebarFilter->setClearButtonEnabled(true);
    m_sidebarFilter->installEventFilter(this);
    connect(m_sidebarFilter, &QLineEdit::textChanged, filter, &FilterModel::setText);
    connect(m_sidebarFilter, &QLineEdit::textChanged, this, [this] {
        // The kluster shown stays marked in the list whenever the filter lets it through.
        if (!m_current.isNull() && !m_sidebar->selectionModel()->hasSelection())
            selectKluster(m_current);
    });
    connect(m_sidebarFilter, &QLineEdit::returnPressed, this, [this] {
        const QModelIndex first = firstSidebarKluster();
        if (!first.isValid())
            return;
        m_sidebar->setFocus(Qt::OtherFocusReason);
        m_sidebar->selectionModel()->setCurrentIndex(
            first, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    });
    auto *layout = new QVBoxLayout(m_sidebarPanel);
    layout->setContentsMargins(4, 4, 0, 4);
    layout->setSpacing(4);
    layout->addWidget(m_sidebarFilter);
    layout->addWidget(m_sidebar, 1);
    m_sidebarPanel->setMinimumWidth(150);

    connect(m_sidebar->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex &current) {
            const KlusterKey key = keyAt(current);
            if (key.isNull() || key == m_current)
                return;
            m_current = key;
            m_findingsPage->view()->clearSelection(); // ids mean nothing in another kluster
            m_header->setText(tr("<b>%1</b><br>preparing the views…").arg(key.toString().toHtmlEscaped()));
            if (!key.kluster.isEmpty())
                Settings::lastKluster().setValue(key.toString());
            showCurrent();
        });
}

void MainWindow::buildPages()
{
    m_tabs->setObjectName(QStringLiteral("views"));
    m_tabs->setUsesScrollButtons(true);
    m_tabs->setDocumentMode(true);
    auto *overviewScroll = new QScrollArea(this);
    overviewScroll->setWidget(m_overview);
    overviewScroll->setWidgetResizable(true);
    overviewScroll->setFrameShape(QFrame::NoFrame);
    // No mnemonics on the tabs: Ctrl+1…7 reach them, and Alt+letter stays the menus'.
    m_tabs->addTab(overviewScroll, tr("Overview"));
    connect(m_overview, &OverviewPage::trendRangeChanged, this, &MainWindow::requestTrend);
    m_tabs->addTab(m_findingsPage, tr("Findings"));
    m_tabs->addTab(m_nodesPage, tr("Nodes"));
    m_tabs->addTab(m_routesPage, tr("Routes"));
    m_tabs->addTab(m_securityPage, tr("Security group"));
    m_tabs->addTab(m_auditPage, tr("Audit log"));
    // Every kluster of every connection at a glance; a tile opens its kluster.
    auto *fleetScroll = new QScrollArea(this);
    fleetScroll->setWidget(m_fleet);
    fleetScroll->setWidgetResizable(true);
    fleetScroll->setFrameShape(QFrame::NoFrame);
    m_tabs->addTab(fleetScroll, tr("Fleet"));
    m_tabs->addTab(m_changes, tr("Changes"));
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] { requestChanges(); });
    m_fleet->setModel(m_klusters);
    m_fleet->setRegionOf([this](const KlusterKey &key) {
        const KlusterData *d = kluster(key);
        return d && d->fetch ? d->fetch->state.region : QString();
    });
    connect(m_fleet, &FleetView::klusterActivated, this, [this](const KlusterKey &key) {
        if (selectKluster(key))
            setTab(OverviewTab);
    });
    m_tabs->setAccessibleName(tr("Views of the selected kluster"));
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int i) {
        Settings::tab().setValue(i);
        updateRepairAction();
    });

    // Findings: what is wrong, worst first; the message has the rest of the width, and the detail pane the
    // whole story.
    m_severity->addItems({ tr("All severities"), tr("Critical only"), tr("Critical and warning") });
    m_severity->setAccessibleName(tr("Show severities"));
    m_severity->setToolTip(tr("Which severities the table shows"));
    connect(m_severity, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_findingsPage->filter()->setMinimumSeverity(i == 0 ? std::nullopt
                : i == 1                                    ? std::optional(Severity::Critical)
                                                            : std::optional(Severity::Warning));
    });
    m_findingsPage->addToolWidget(m_severity);
    QTreeView *findings = m_findingsPage->view();
    findings->sortByColumn(FindingsModel::SeverityColumn, Qt::AscendingOrder);
    findings->setColumnWidth(FindingsModel::SeverityColumn, 90);
    findings->setColumnWidth(FindingsModel::KindColumn, 200);
    findings->setColumnWidth(FindingsModel::SubjectColumn, 190);
    findings->setColumnWidth(FindingsModel::RepairColumn, 64);
    findings->header()->moveSection(findings->header()->visualIndex(FindingsModel::RepairColumn),
        findings->header()->visualIndex(FindingsModel::MessageColumn));

    QTreeView *nodes = m_nodesPage->view();
    nodes->sortByColumn(NodesModel::NameColumn, Qt::AscendingOrder);
    nodes->setColumnWidth(NodesModel::NameColumn, 190);
    nodes->setColumnWidth(NodesModel::FindingsColumn, 190);
    nodes->setColumnWidth(NodesModel::StatusColumn, 90);
    nodes->setColumnWidth(NodesModel::RegisteredColumn, 80);
    nodes->setColumnWidth(NodesModel::ReadyColumn, 64);
    nodes->setColumnWidth(NodesModel::SecurityGroupColumn, 66);
    nodes->setColumnWidth(NodesModel::AddressColumn, 100);
    nodes->setColumnWidth(NodesModel::PodCidrColumn, 120);
    nodes->setColumnWidth(NodesModel::PoolColumn, 70);

    // Routes: grouped by destination; a scope from this kluster's to every route on the router.
    m_routeScope->addItem(tr("This kluster's routes"), KlusterRoutes);
    m_routeScope->addItem(tr("Problems only"), ProblemRoutes);
    m_routeScope->addItem(tr("All routes on the router"), AllRoutes);
    m_routeScope->setAccessibleName(tr("Which routes to show"));
    m_routeScope->setToolTip(
        tr("This kluster's routes (and those it lacks), only the ones with a problem, or every route on "
           "the shared router (other klusters' and operators' too)"));
    connect(m_routeScope, &QComboBox::currentIndexChanged, this, [this] {
        const int scope = m_routeScope->currentData().toInt();
        m_routesPage->filter()->setPredicate([scope](const QModelIndex &row) {
            if (scope == AllRoutes)
                return true;
            if (scope == ProblemRoutes)
                return row.data(RoutesModel::ProblemRole).toBool();
            return !row.data(RoutesModel::ForeignRole).toBool();
        });
        Settings::routeScope().setValue(scope);
        updateCaptions();
    });
    m_routesPage->addToolWidget(m_routeScope);
    QTreeView *routes = m_routesPage->view();
    routes->setRootIsDecorated(true);
    routes->setItemsExpandable(true);
    m_routesPage->filter()->setGrouped(RoutesModel::PositionColumn);
    routes->sortByColumn(RoutesModel::DestinationColumn, Qt::AscendingOrder);
    routes->setColumnWidth(RoutesModel::DestinationColumn, 160);
    routes->setColumnWidth(RoutesModel::NexthopColumn, 125);
    routes->setColumnWidth(RoutesModel::OwnerColumn, 230);
    routes->setColumnWidth(RoutesModel::RolesColumn, 230);
    // Groups open as they appear: a duplicate's routes are the point. Only groups are expanded (an expanded
    // row is a persistent index the proxy keeps up to date: thousands of them would cost every update).
    const auto expandGroups = [routes](const QModelIndex &parent, int first, int last) {
        QAbstractItemModel *m = routes->model();
        if (parent.isValid()) {
            routes->expand(parent); // a destination that became a group
            return;
        }
        for (int row = first; row <= last; ++row) {
            const QModelIndex i = m->index(row, 0);
            if (m->hasChildren(i))
                routes->expand(i);
        }
    };
    connect(m_routesPage->filter(), &QAbstractItemModel::rowsInserted, routes, expandGroups);
    connect(m_routesPage->filter(), &QAbstractItemModel::modelReset, routes,
        [routes, expandGroups] { expandGroups(QModelIndex(), 0, routes->model()->rowCount() - 1); });
    m_routeScope->setCurrentIndex(qMax(0, m_routeScope->findData(Settings::routeScope().value())));
    emit m_routeScope->currentIndexChanged(m_routeScope->currentIndex());

    QTreeView *security = m_securityPage->view();
    security->setColumnWidth(SecurityModel::WhatColumn, 90);
    security->setColumnWidth(SecurityModel::SubjectColumn, 220);
    security->setColumnWidth(SecurityModel::StatusColumn, 120);

    QTreeView *audit = m_auditPage->view();
    audit->sortByColumn(AuditModel::TimeColumn, Qt::DescendingOrder);
    audit->setColumnWidth(AuditModel::TimeColumn, 165);
    audit->setColumnWidth(AuditModel::WhoColumn, 150);
    audit->setColumnWidth(AuditModel::KlusterColumn, 80);
    audit->setColumnWidth(AuditModel::FindingColumn, 230);
    audit->setColumnWidth(AuditModel::RepairColumn, 200);
    // The result is what matters most after the finding: next to it.
    audit->header()->moveSection(audit->header()->visualIndex(AuditModel::ResultColumn),
        audit->header()->visualIndex(AuditModel::RepairColumn));
    m_auditPage->setCaption(
        tr("Every repair sent from this machine (console and command line), newest first: %1")
            .arg(AuditLog::path()));
    m_auditPage->setRepairable(0, true);

    for (Tab tab : { FindingsTab, NodesTab, RoutesTab, SecurityTab, AuditTab }) {
        TablePage *p = page(tab);
        // Names and words from the cloud (a router's name, a condition's message) with every control
        // character shown as an escape: what is copied from the details never drives a terminal.
        p->setDetailsProvider(
            [this, tab](const QModelIndexList &rows) { return printableLines(detailsHtml(tab, rows)); });
        connect(p, &TablePage::selectionChanged, this, [this, p] {
            if (p == m_findingsPage)
                syncSelection();
            updateRepairAction();
        });
        if (tab != AuditTab) {
            connect(p, &TablePage::repairRequested, this, [this] { openRepair(repairTargets()); });
            connect(p, &TablePage::rowActivated, this, [this, p] {
                if (m_tabs->currentWidget() == p && !repairTargets().isEmpty())
                    openRepair(repairTargets());
            });
        }
    }
}

TablePage *MainWindow::page(Tab tab) const
{
    switch (tab) {
    case FindingsTab:
        return m_findingsPage;
    case NodesTab:
        return m_nodesPage;
    case RoutesTab:
        return m_routesPage;
    case SecurityTab:
        return m_securityPage;
    case AuditTab:
        return m_auditPage;
    case OverviewTab:
    case FleetTab:
    case ChangesTab:
        break; // not a table
    }
    return nullptr;
}

MainWindow::Tab MainWindow::currentTab() const
{
    return Tab(m_tabs->currentIndex());
}

void MainWindow::buildActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QMenu *view = menuBar()->addMenu(tr("&View"));
    QMenu *kluster = menuBar()->addMenu(tr("&Kluster"));
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QToolBar *bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);

    m_addAction = file->addAction(tr("&Add connection…"), this, [this] { addConnectionInteractively(); });
    m_addAction->setShortcut(QKeySequence(tr("Ctrl+Shift+N")));
    m_manageAction = file->addAction(tr("&Connections…"), this, &MainWindow::openConnectionsManager);
    m_manageAction->setShortcut(QKeySequence(tr("Ctrl+Shift+M")));
    m_manageAction->setToolTip(tr("List, add, edit, test and remove connections"));
    m_demoAction = new QAction(tr("Open the &demo cloud"), this);
    connect(m_demoAction, &QAction::triggered, this, &MainWindow::demoRequested);
    file->addAction(
        tr("&Open snapshot…"), QKeySequence(tr("Ctrl+O")), this, &MainWindow::openSnapshotInteractively);
    file->addSeparator();
    file->addAction(tr("Save kluster as &snapshot…"), QKeySequence(tr("Ctrl+Shift+S")), this,
        &MainWindow::exportSnapshot);
    file->addAction(
        tr("&Export report (HTML, CSV, JSON)…"), QKeySequence(tr("Ctrl+E")), this, &MainWindow::exportReport);
    file->addAction(tr("Export the audit &log…"), this, &MainWindow::exportAudit);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence(tr("Ctrl+Q")), this, &QWidget::close);

    m_refreshAction = new QAction(Icons::named(QStringLiteral("action-refresh")), tr("&Refresh"), this);
    m_refreshAction->setShortcuts({ QKeySequence(Qt::Key_F5), QKeySequence(tr("Ctrl+Shift+R")) });
    m_refreshAction->setToolTip(tr("Fetch every kluster again (F5)"));
    connect(m_refreshAction, &QAction::triggered, this, &MainWindow::refreshAll);
    m_cancelAction = new QAction(Icons::named(QStringLiteral("action-stop")), tr("&Cancel refresh"), this);
    m_cancelAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
    m_cancelAction->setToolTip(tr("Cancel the refreshes in flight; the data shown stays (Ctrl+.)"));
    m_cancelAction->setEnabled(false);
    connect(m_cancelAction, &QAction::triggered, this, &MainWindow::cancelRefreshes);
    m_repairAction = new QAction(Icons::named(QStringLiteral("action-repair")), tr("Re&pair…"), this);
    m_repairAction->setShortcut(QKeySequence(tr("Ctrl+R")));
    connect(m_repairAction, &QAction::triggered, this, [this] { openRepair(repairTargets()); });
    m_repairRoutesAction = new QAction(tr("Repair &all route findings of this router…"), this);
    m_repairRoutesAction->setShortcut(QKeySequence(tr("Ctrl+Alt+R")));
    m_repairRoutesAction->setToolTip(
        tr("Preview and send every route repair of the kluster's router as one change (Ctrl+Alt+R)"));
    connect(m_repairRoutesAction, &QAction::triggered, this, [this] { openRepair(routeRepairTargets()); });
    m_findAction = new QAction(tr("&Filter the view…"), this);
    m_findAction->setShortcut(QKeySequence(tr("Ctrl+F")));
    connect(m_findAction, &QAction::triggered, this, &MainWindow::focusFilter);
    m_nextAction = new QAction(Icons::named(QStringLiteral("action-next")), tr("&Next finding"), this);
    m_nextAction->setShortcut(QKeySequence(Qt::Key_F8));
    m_nextAction->setToolTip(tr("Select the next row with a finding in this view (F8)"));
    connect(m_nextAction, &QAction::triggered, this, [this] { stepFinding(1); });
    m_previousAction
        = new QAction(Icons::named(QStringLiteral("action-previous")), tr("Pre&vious finding"), this);
    m_previousAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F8));
    m_previousAction->setToolTip(tr("Select the previous row with a finding in this view (Shift+F8)"));
    connect(m_previousAction, &QAction::triggered, this, [this] { stepFinding(-1); });
    auto *focusKlusters = new QAction(tr("Go to the &kluster list"), this);
    focusKlusters->setShortcut(QKeySequence(tr("Ctrl+K")));
    connect(focusKlusters, &QAction::triggered, this, [this] {
        m_sidebarPanel->setVisible(true);
        m_sidebarAction->setChecked(true);
        m_sidebar->setFocus(Qt::ShortcutFocusReason);
        if (!m_sidebar->currentIndex().isValid() && firstSidebarKluster().isValid())
            m_sidebar->setCurrentIndex(firstSidebarKluster());
    });
    kluster->addActions({ m_refreshAction, m_cancelAction });
    kluster->addMenu(m_intervalMenu);
    kluster->addSeparator();
    kluster->addActions({ m_nextAction, m_previousAction, m_repairAction, m_repairRoutesAction, m_findAction,
        focusKlusters });
    addAction(focusKlusters);
    bar->addActions({ m_refreshAction, m_cancelAction });
    bar->addSeparator();
    bar->addActions({ m_previousAction, m_nextAction, m_repairAction });
    bar->addSeparator();

    // Auto-refresh: a menu of intervals, on the toolbar and in the Kluster menu.
    for (int m : { 0, 1, 2, 5, 10, 15, 30 }) {
        QAction *a = m_intervalMenu->addAction(m == 0 ? tr("Off") : tr("Every %1 min").arg(m));
        a->setCheckable(true);
        a->setData(m);
        m_intervalGroup->addAction(a);
    }
    connect(m_intervalGroup, &QActionGroup::triggered, this, [this](QAction *a) {
        Settings::refreshMinutes().setValue(a->data().toInt());
        setAutoRefreshMinutes(a->data().toInt());
    });
    m_intervalButton->setMenu(m_intervalMenu);
    m_intervalButton->setPopupMode(QToolButton::InstantPopup);
    m_intervalButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_intervalButton->setAccessibleName(tr("Auto-refresh interval"));
    m_intervalButton->setObjectName(QStringLiteral("autoRefresh"));
    bar->addWidget(m_intervalButton);

    m_sidebarAction = view->addAction(tr("&Kluster list"));
    m_sidebarAction->setCheckable(true);
    m_sidebarAction->setChecked(true);
    m_sidebarAction->setShortcut(QKeySequence(Qt::Key_F9));
    connect(m_sidebarAction, &QAction::toggled, this, [this](bool on) {
        m_sidebarPanel->setVisible(on);
        if (!on && m_sidebar->hasFocus())
            m_tabs->currentWidget()->setFocus();
    });
    view->addSeparator();
    for (int i = 0; i < int(std::size(TabNames)); ++i) {
        QAction *a = view->addAction(tr(TabNames[i]), this, [this, i] { m_tabs->setCurrentIndex(i); });
        a->setShortcut(QKeySequence(QStringLiteral("Ctrl+%1").arg(i + 1)));
    }
    view->addSeparator();
    m_notifyAction = view->addAction(tr("Desktop &notifications while watching"));
    m_notifyAction->setCheckable(true);
    m_notifyAction->setToolTip(
        tr("With auto-refresh on and the window in the background: a new critical finding or an "
           "unreachable kluster is announced on the desktop"));
    connect(m_notifyAction, &QAction::toggled, this, [this](bool on) {
        m_notifier->setNotificationsEnabled(on);
        Settings::desktopNotifications().setValue(on);
    });
    m_trayAction = view->addAction(tr("&Tray icon"));
    m_trayAction->setCheckable(true);
    connect(m_trayAction, &QAction::toggled, this, [this](bool on) {
        m_notifier->setTrayEnabled(on);
        Settings::trayIcon().setValue(on);
        updateTray();
    });

    QAction *shortcuts = help->addAction(tr("&Keyboard shortcuts"), this, &MainWindow::showShortcuts);
    shortcuts->setShortcuts({ QKeySequence(Qt::Key_F1), QKeySequence(Qt::Key_Question) });
    help->addAction(tr("&About Flightdeck"), this, &MainWindow::showAbout);

    // The rows' context menus: what the person can do with what they point at.
    for (Tab tab : { FindingsTab, NodesTab, RoutesTab, SecurityTab }) {
        QTreeView *v = page(tab)->view();
        v->setContextMenuPolicy(Qt::ActionsContextMenu);
        v->addAction(m_repairAction);
        auto *show = new QAction(tr("Show in Findings"), v);
        connect(show, &QAction::triggered, this, [this, tab] {
            const QStringList ids = page(tab)->selectedFindings();
            setTab(FindingsTab);
            m_findingsPage->selectKeys(ids);
        });
        if (tab != FindingsTab)
            v->addAction(show);
        if (tab == FindingsTab || tab == RoutesTab)
            v->addAction(m_repairRoutesAction);
    }
}

void MainWindow::updateRepairAction()
{
    const QStringList targets = repairTargets();
    Connection *connection = connectionOf(m_current);
    const bool readOnly = !connection || connection->isReadOnly();
    m_repairAction->setEnabled(!targets.isEmpty());
    const qsizetype routeTargets = routeRepairTargets().size();
    m_repairRoutesAction->setEnabled(routeTargets > 0);
    m_repairRoutesAction->setText(routeTargets > 0
            ? tr("Repair &all %1 route findings of this router…").arg(routeTargets)
            : tr("Repair &all route findings of this router…"));
    m_repairAction->setText(
        targets.size() > 1 ? tr("Re&pair %1 findings…").arg(targets.size()) : tr("Re&pair…"));
    m_repairAction->setToolTip(!targets.isEmpty()
            ? tr("Preview and send the repair of the selected rows' findings (Ctrl+R)")
            : tr("Select a row with a finding that has a repair (Ctrl+R)"));
    for (Tab tab : { FindingsTab, NodesTab, RoutesTab, SecurityTab }) {
        TablePage *p = page(tab);
        int count = 0;
        if (const KlusterData *d = kluster(m_current); d && d->diagnosis) {
            for (const QString &id : p->selectedFindings()) {
                const Finding *f = d->diagnosis->find(id);
                count += f && f->repair() ? 1 : 0;
            }
        }
        p->setRepairable(m_shownKey == m_current ? count : 0, readOnly);
    }
}

QStringList MainWindow::routeRepairTargets() const
{
    Connection *connection = connectionOf(m_current);
    const KlusterData *d = kluster(m_current);
    if (!connection || connection->isReadOnly() || !d || !d->diagnosis || m_shownKey != m_current)
        return {};
    QStringList ids;
    for (const Finding &f : d->diagnosis->findings) {
        if (findingFamily(f.kind) == FindingFamily::Route && f.kind != FindingKind::RouteLimit && f.repair())
            ids << f.id();
    }
    return ids;
}

QStringList MainWindow::repairTargets() const
{
    Connection *connection = connectionOf(m_current);
    const KlusterData *d = kluster(m_current);
    TablePage *p = page(currentTab());
    if (!connection || connection->isReadOnly() || !d || !d->diagnosis || !p || p == m_auditPage
        || m_shownKey != m_current)
        return {};
    QStringList ids;
    for (const QString &id : p->selectedFindings()) {
        const Finding *f = d->diagnosis->find(id);
        if (f && f->repair())
            ids << id;
    }
    return ids;
}

void MainWindow::stepFinding(int delta)
{
    TablePage *p = page(currentTab());
    if (!p || p == m_auditPage) {
        setTab(FindingsTab);
        p = m_findingsPage;
    }
    // NOLINTNEXTLINE(clang-analyzer-core.CallAndMessage): the pages are made in the constructor, never null
    p->step(delta, p != m_findingsPage);
    p->view()->setFocus(Qt::ShortcutFocusReason);
}

void MainWindow::focusFilter()
{
    TablePage *p = page(currentTab());
    if (!p) {
        setTab(FindingsTab);
        p = m_findingsPage;
    }
    // NOLINTNEXTLINE(clang-analyzer-core.CallAndMessage): the pages are made in the constructor, never null
    p->filterBox()->setFocus(Qt::ShortcutFocusReason);
    p->filterBox()->selectAll();
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::KeyPress)
        return QMainWindow::eventFilter(watched, event);
    const auto *key = static_cast<QKeyEvent *>(event);
    if (watched == m_sidebar) {
        // The kluster list filters as you type.
        const QString text = key->text();
        if (!text.isEmpty() && text.at(0).isPrint() && !text.at(0).isSpace()
            && !(key->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))) {
            m_sidebarFilter->setFocus(Qt::OtherFocusReason);
            m_sidebarFilter->setText(text); // typing from the list starts a new filter
            return true;
        }
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter)
            && KlusterGroups::isGroup(m_sidebar->currentIndex())) {
            // A group opens or closes.
            const QModelIndex group = m_sidebar->currentIndex().siblingAtColumn(0);
            m_sidebar->setExpanded(group, !m_sidebar->isExpanded(group));
            return true;
        }
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            // Into the kluster's views.
            if (QWidget *w = m_tabs->currentWidget())
                (page(currentTab()) ? static_cast<QWidget *>(page(currentTab())->view()) : w)
                    ->setFocus(Qt::OtherFocusReason);
            return true;
        }
    } else if (watched == m_sidebarFilter) {
        if (key->key() == Qt::Key_Down) {
            m_sidebar->setFocus(Qt::OtherFocusReason);
            if (firstSidebarKluster().isValid() && !m_sidebar->currentIndex().isValid())
                m_sidebar->setCurrentIndex(firstSidebarKluster());
            return true;
        }
        if (key->key() == Qt::Key_Escape && !m_sidebarFilter->text().isEmpty()) {
            m_sidebarFilter->clear();
            return true;
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::setForceReadOnly(bool readOnly)
{
    m_forceReadOnly = readOnly;
    if (readOnly)
        setWindowTitle(windowTitle() + tr(" (read-only)"));
}

void MainWindow::setAutoRefreshMinutes(int minutes)
{
    m_autoRefreshMinutes = qMax(0, minutes);
    for (QAction *a : m_intervalGroup->actions())
        a->setChecked(a->data().toInt() == m_autoRefreshMinutes);
    // (The trailing spaces keep the menu's arrow clear of the text.)
    m_intervalButton->setText(m_autoRefreshMinutes > 0
            ? tr("Auto-refresh: every %1 min   ").arg(m_autoRefreshMinutes)
            : tr("Auto-refresh: off   "));
    m_intervalButton->setAccessibleDescription(m_intervalButton->text().trimmed());
    m_autoRefresh->stop();
    if (m_autoRefreshMinutes > 0)
        m_autoRefresh->start(m_autoRefreshMinutes * 60 * 1000);
    updateLiveActions();
}

void MainWindow::setAutoRefreshMilliseconds(int milliseconds)
{
    m_autoRefreshMinutes = 1; // watching, as far as notifications are concerned
    m_autoRefresh->start(qMax(100, milliseconds));
}

void MainWindow::updateLiveActions()
{
    // Snapshots are what they are: nothing to refresh.
    const bool live = std::any_of(
        m_connections.cbegin(), m_connections.cend(), [](Connection *c) { return !c->spec().isSnapshot(); });
    m_refreshAction->setEnabled(live);
    m_intervalButton->setEnabled(live);
    m_intervalMenu->setEnabled(live);
    if (!live && !m_connections.isEmpty())
        m_autoRefresh->stop();
    else if (m_autoRefreshMinutes > 0 && !m_autoRefresh->isActive())
        m_autoRefresh->start(m_autoRefreshMinutes * 60 * 1000);
    m_refreshAction->setToolTip(live  ? tr("Fetch every kluster again (F5)")
            : m_connections.isEmpty() ? tr("Add a connection first (File → Add connection…)")
                                      : tr("Snapshots are opened offline: there is nothing to refresh"));
}

void MainWindow::setTab(Tab tab)
{
    m_tabs->setCurrentIndex(int(tab));
}

void MainWindow::showStartupMessage(const QString &message, bool demoAvailable)
{
    m_startupMessage = message;
    m_demoAvailable = demoAvailable;
    updateBanner();
}

Connection *MainWindow::connection(const QString &name) const
{
    for (Connection *c : m_connections) {
        if (c->name() == name)
            return c;
    }
    return nullptr;
}

bool MainWindow::isRemembered(const QString &name) const
{
    return std::any_of(
        m_remembered.cbegin(), m_remembered.cend(), [&](const ConnectionSpec &s) { return s.name == name; });
}

QString MainWindow::connectionStatus(const QString &name) const
{
    Connection *c = connection(name);
    if (!c)
        return QString();
    if (m_store->isListing(name))
        return tr("listing klusters…");
    if (const Error error = m_store->listingError(name); error.isError())
        return tr("failed: %1").arg(error.toString());
    const QStringList klusters = m_store->klusters(name);
    int failed = 0;
    for (const QString &k : klusters)
        failed += kluster({ name, k }) && kluster({ name, k })->isStale() ? 1 : 0;
    QString status = klusters.size() == 1 ? tr("1 kluster") : tr("%1 klusters").arg(klusters.size());
    if (failed > 0)
        status += tr(", %1 could not be refreshed").arg(failed);
    return status;
}

Connection *MainWindow::addConnection(const ConnectionSpec &given, bool remember)
{
    ConnectionSpec spec = given;
    spec.readOnly = spec.readOnly || m_forceReadOnly;
    spec.refreshConcurrency = qMax(0, Settings::refreshConcurrency().value());
    auto *connection = new Connection(spec, m_network, this);
    m_connections << connection;
    if (remember) {
        m_remembered << given;
        saveConnections();
    }
    m_store->setListing(spec.name);
    connect(connection, &Connection::klustersListed, this,
        [this, connection](
            const QStringList &klusters, const Error &error) { onListed(connection, klusters, error); });
    connect(connection, &Connection::refreshStarted, m_store, [this, name = spec.name](const QString &k) {
        m_store->setRefreshing({ name, k }, true);
    });
    connect(connection, &Connection::refreshed, this, &MainWindow::onRefreshed);
    connect(connection, &Connection::nodesChanged, this, &MainWindow::onNodesChanged);
    connect(connection, &Connection::watchStatusChanged, this,
        [this, name = spec.name](const QString &k, const NodeWatchStatus &status) {
            const KlusterKey key { name, k };
            m_store->setWatchStatus(key, status);
            if (key == m_current)
                updateCaptions();
        });
    connection->listKlusters();
    m_cancelAction->setEnabled(true);
    m_startupMessage.clear();
    updateLiveActions();
    updateBanner();
    emit connectionsChanged();
    return connection;
}

void MainWindow::onListed(Connection *connection, const QStringList &klusters, const Error &error)
{
    const QString name = connection->name();
    // Klusters that are gone stay visible, said to be gone.
    m_store->setListed(name, klusters, error);
    QStringList toRefresh = klusters;
    if (error.isError()) // the list failed: the klusters known so far are still tried, each on its own
        toRefresh << m_store->klusters(name);
    toRefresh.removeDuplicates();
    for (const QString &k : std::as_const(toRefresh))
        connection->refresh(k);
    const KlusterKey own { name, QString() }; // the connection's own row
    if (m_current.isNull() && m_store->klusters(name).isEmpty() && firstSidebarKluster().isValid()
        && m_connections.size() == 1)
        selectKluster(own); // the failed connection's own row: its error is what there is to see
    m_cancelAction->setEnabled(pendingRefreshes() > 0);
    updateBanner();
    if (m_current == own)
        showCurrent();
    m_settleWanted = true;
    settleIfIdle();
    emit connectionsChanged();
}

void MainWindow::restoreConnections()
{
    for (const ConnectionSpec &spec : Settings::connections()) {
        m_remembered << spec;
        addConnection(spec, false);
    }
}

void MainWindow::startFromSettings(bool demoAvailable)
{
    restoreConnections();
    if (!m_connections.isEmpty())
        return;
    showStartupMessage(
        tr("No connection yet. Add one (File → Add connection…, Ctrl+Shift+N): the clouds of clouds.yaml and "
           "OS_* are offered, or enter a cloud by hand. Or try the built-in simulated cloud."),
        demoAvailable);
    QTimer::singleShot(0, this, [this] { addConnectionInteractively(); });
}

void MainWindow::saveConnections()
{
    Settings::setConnections(m_remembered);
}

void MainWindow::refreshAll()
{
    // Listing first: klusters made since appear, gone ones are marked; every listed kluster is then
    // refreshed.
    bool any = false;
    for (Connection *c : std::as_const(m_connections)) {
        if (c->spec().isSnapshot() || m_store->isListing(c->name()))
            continue;
        any = true;
        m_store->setListing(c->name());
        c->listKlusters();
    }
    m_cancelAction->setEnabled(pendingRefreshes() > 0);
    if (any)
        statusBar()->showMessage(tr("Refreshing…"));
    reloadAudit();
}

void MainWindow::cancelRefreshes()
{
    for (Connection *c : std::as_const(m_connections)) {
        for (const QString &k : m_store->klusters(c->name()))
            c->cancelRefresh(k);
    }
}

void MainWindow::onRefreshed(const RefreshResult &result)
{
    const KlusterKey key { result.connection, result.kluster };
    if (!connection(result.connection))
        return; // removed meanwhile
    m_store->setRefreshing(key, false);
    if (const ConnectionSpec &spec = connection(result.connection)->spec(); !spec.isSnapshot()) {
        // A failure has no state to name its cloud and region: the connection's own, when it holds them.
        const QString historyKey = spec.config
            ? HistoryStore::klusterKey(spec.config->name, spec.config->regionName, result.kluster)
            : QString();
        QMetaObject::invokeMethod(
            m_history, [h = m_history, result, historyKey] { h->record(result, historyKey); });
    }
    const KlusterData before = kluster(key) ? *kluster(key) : KlusterData();
    if (result.cancelled) {
        // A cancel is no failure: the data shown stays what it was, and says its age.
        m_cancelled << key.kluster;
        statusBar()->showMessage(tr("Refresh cancelled for %1; the data shown stays as it was.")
                                     .arg(m_cancelled.join(QStringLiteral(", "))),
            10000);
    } else if (result.fetch) {
        // A source that failed: the rest is fresh.
        m_store->setFetched(
            key, result.fetch, result.diagnosis, result.fetchedAt, result.elapsedMs, result.errors);
    } else {
        m_store->setFailed(key, result.errors, QDateTime::currentDateTimeUtc());
    }
    if (!result.cancelled)
        notifyChanges(key, before, *kluster(key));
    if (key == m_wantedKey)
        selectKluster(key); // the selection of the last run
    updateBanner(); // at once: what failed is said now, not once the rows are made
    if (key == m_current) {
        if (result.fetch)
            showCurrent();
        else
            updateCaptions();
    }
    const int pending = pendingRefreshes();
    m_cancelAction->setEnabled(pending > 0);
    if (pending == 0) {
        if (m_current.isNull() && firstSidebarKluster().isValid()) // the worst kluster first
            selectKluster(keyAt(firstSidebarKluster()));
        int failed = 0;
        for (int row = 0; row < m_klusters->rowCount(); ++row) {
            const auto state
                = KlustersModel::State(m_klusters->index(row, 0).data(KlustersModel::StateRole).toInt());
            failed
                += state == KlustersModel::State::Stale || state == KlustersModel::State::Unreachable ? 1 : 0;
        }
        m_cancelled.clear();
        const bool snapshots = std::all_of(m_connections.cbegin(), m_connections.cend(),
            [](Connection *c) { return c->spec().isSnapshot(); });
        if (snapshots)
            statusBar()->showMessage(tr("Opened %1 snapshot(s), offline").arg(m_klusters->rowCount()));
        else if (!result.cancelled) {
            statusBar()->showMessage(failed == 0
                    ? tr("Refreshed %1 kluster(s) at %2")
                          .arg(m_klusters->rowCount())
                          .arg(clock(QDateTime::currentDateTimeUtc()))
                    : tr("Refreshed at %1: %2 of %3 kluster(s) could not be read (marked in the sidebar)")
                          .arg(clock(QDateTime::currentDateTimeUtc()))
                          .arg(failed)
                          .arg(m_klusters->rowCount()));
        }
        m_settleWanted = true;
        settleIfIdle();
    }
    updateTray();
    if (key != m_current)
        retire(); // no view shows it
    emit klusterUpdated(key);
    emit connectionsChanged();
}

void MainWindow::onNodesChanged(const RefreshResult &result)
{
    // A node changed between refreshes (its watch): shown in place, as a refresh would show it.
    const KlusterKey key { result.connection, result.kluster };
    if (!connection(result.connection) || !kluster(key))
        return;
    const KlusterData before = *kluster(key);
    m_store->setNodesChanged(key, result.fetch, result.diagnosis);
    notifyChanges(key, before, *kluster(key));
    updateBanner();
    if (key == m_current)
        showCurrent();
    updateTray();
    if (key != m_current)
        retire();
    emit klusterUpdated(key);
}

void MainWindow::notifyChanges(const KlusterKey &key, const KlusterData &before, const KlusterData &after)
{
    // Only while watching: auto-refresh on, the window in the background, a live cloud, and something to
    // compare with.
    Connection *c = connectionOf(key);
    if (!c || c->spec().isSnapshot() || m_autoRefreshMinutes <= 0 || isActiveWindow()
        || (!before.fetch && before.error.isEmpty()))
        return;
    if (after.isStale() && !before.isStale()) {
        m_notifier->notify(tr("Kluster %1 is unreachable").arg(key.toString()),
            shortError(SourceError::joined(after.error)), key, QString(), Severity::Critical);
        return;
    }
    if (!after.diagnosis || after.isStale())
        return;
    QStringList fresh;
    for (const Finding &f : after.diagnosis->findings) {
        if (f.severity != Severity::Critical)
            continue;
        const Finding *old = before.diagnosis ? before.diagnosis->find(f.id()) : nullptr;
        if (!old || old->severity != Severity::Critical)
            fresh << f.id();
    }
    if (fresh.isEmpty())
        return;
    const Finding *first = after.diagnosis->find(fresh.first());
    const QString title = fresh.size() == 1
        ? tr("%1: new critical finding").arg(key.toString())
        : tr("%1: %2 new critical findings").arg(key.toString()).arg(fresh.size());
    QString body = fresh.first() + QStringLiteral("\n") + shortError(first->message());
    if (fresh.size() > 1)
        body += tr("\n…and %1 more").arg(fresh.size() - 1);
    m_notifier->notify(title, body, key, fresh.first(), Severity::Critical);
}

void MainWindow::updateTray()
{
    std::optional<Severity> worst;
    QStringList lines;
    for (int row = 0; row < m_klusters->rowCount(); ++row) {
        const QModelIndex i = m_klusters->index(row, 0);
        Connection *c = connection(i.data(KlustersModel::ConnectionRole).toString());
        if (!c || c->spec().isSnapshot())
            continue; // nothing to watch in a snapshot
        const std::optional<Severity> s = ConsoleRole::severityOf(i);
        worst = ConsoleRole::worse(worst, s);
        if (s == Severity::Critical || s == Severity::Warning)
            lines << QStringLiteral("%1: %2").arg(i.data(KlustersModel::KeyRole).toString(),
                i.siblingAtColumn(KlustersModel::WorstColumn).data().toString());
    }
    const bool anyLive = std::any_of(
        m_connections.cbegin(), m_connections.cend(), [](Connection *c) { return !c->spec().isSnapshot(); });
    if (!anyLive || !m_trayAction->isChecked()) {
        m_notifier->setTrayEnabled(false);
        return;
    }
    m_notifier->setTrayEnabled(true);
    m_notifier->setWorst(worst,
        lines.isEmpty() ? tr("Flightdeck: every kluster healthy")
                        : tr("Flightdeck\n") + lines.join(QLatin1Char('\n')));
}

void MainWindow::retire()
{
    KlusterStore::Retired retired = m_store->takeRetired();
    if (retired.isEmpty())
        return;
    // Freeing a large kluster's state (thousands of instances, nodes and their
    // findings) takes milliseconds: done on a worker thread, once no view uses it.
    (void)QtConcurrent::run(m_workers, [retired = std::move(retired)]() mutable {
        retired.clear();
#ifdef __GLIBC__
        // Hand the freed pages back: a console that refreshes for days keeps its resident size flat
        // instead of holding every peak in fragmented heaps.
        malloc_trim(0);
#endif
    });
}

bool MainWindow::selectKluster(const KlusterKey &key)
{
    QAbstractItemModel *proxy = m_sidebar->model();
    for (int g = 0; g < proxy->rowCount(); ++g) {
        const QModelIndex group = proxy->index(g, 0);
        for (int row = 0; row < proxy->rowCount(group); ++row) {
            const QModelIndex i = proxy->index(row, 0, group);
            if (keyAt(i) != key)
                continue;
            m_sidebar->expand(group); // a kluster chosen elsewhere (the fleet, a notification) is seen
            m_sidebar->selectionModel()->setCurrentIndex(
                i, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            if (key == m_wantedKey)
                m_wantedKey = {};
            return true;
        }
    }
    return false;
}

QModelIndex MainWindow::firstSidebarKluster() const
{
    // The first kluster in the list's order: the worst of all when sorted worst first.
    QAbstractItemModel *proxy = m_sidebar->model();
    for (int g = 0; g < proxy->rowCount(); ++g) {
        const QModelIndex group = proxy->index(g, 0);
        if (proxy->rowCount(group) > 0)
            return proxy->index(0, 0, group);
    }
    return QModelIndex();
}

void MainWindow::showFinding(const KlusterKey &key, const QString &findingId)
{
    m_wantedFinding = findingId;
    if (m_current != key) {
        m_wantedKey = key;
        selectKluster(key);
    }
    applyWantedFinding();
}

void MainWindow::applyWantedFinding()
{
    if (m_wantedFinding.isEmpty() || m_shownKey != m_current
        || (!m_wantedKey.isNull() && m_wantedKey != m_current))
        return;
    if (m_findingsPage->selectKeys({ m_wantedFinding }) > 0)
        m_wantedFinding.clear();
}

QHash<QString, QString> MainWindow::foreignOwners(
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

void MainWindow::requestTrend()
{
    if (m_current.kluster.isEmpty())
        return; // the Overview says to select one
    // Up to now, or to the last record (the history's clock).
    QDateTime to = QDateTime::currentDateTimeUtc();
    if (const auto h = m_findingsHistory.constFind(m_current.toString()); h != m_findingsHistory.cend())
        to = qMax(to, h->at);
    const QDateTime from = to.addSecs(-3600LL * m_overview->trendHours());
    QMetaObject::invokeMethod(m_history,
        [h = m_history, console = m_current.toString(), from, to] { h->loadTrend(console, from, to); });
}

void MainWindow::requestChanges()
{
    if (m_tabs->currentWidget() != m_changes)
        return; // asked for when it is shown
    if (m_current.kluster.isEmpty()) {
        m_changes->clear(tr("Select a kluster in the sidebar."));
        return;
    }
    QMetaObject::invokeMethod(m_history,
        [h = m_history, console = m_current.toString(), before = m_changesBefore, after = m_changesAfter] {
            h->loadChanges(console, before, after);
        });
}

void MainWindow::showCurrent()
{
    if (const auto h = m_findingsHistory.constFind(m_current.toString()); h != m_findingsHistory.cend())
        m_findings->setHistory(h->findings, h->at);
    else
        m_findings->setHistory({}, QDateTime());
    requestTrend();
    if (m_shownKey != m_current)
        m_changesBefore = m_changesAfter = 0; // another kluster's moments
    requestChanges();
    Connection *connection = connectionOf(m_current);
    const bool readOnly = !connection || connection->isReadOnly();
    m_repairAction->setVisible(
        !connection || !connection->isReadOnly()); // disabled when there is nothing to repair
    m_repairRoutesAction->setVisible(m_repairAction->isVisible());
    m_findingsPage->view()->setColumnHidden(FindingsModel::RepairColumn, readOnly);
    setWindowTitle((m_current.isNull() ? tr("Flightdeck") : tr("%1 — Flightdeck").arg(m_current.toString()))
        + (m_forceReadOnly ? tr(" (read-only)") : QString()));
    const KlusterData *d = kluster(m_current);
    if (!d || !d->fetch) {
        const QString name = m_current.kluster;
        const QString connectionName = m_current.connection;
        QString message = m_connections.isEmpty()
            ? tr("No connection yet: add one with File → Add connection… (Ctrl+Shift+N).")
            : m_klusters->rowCount() == 0 ? tr("Listing the klusters…")
                                          : tr("Select a kluster in the sidebar (Ctrl+K).");
        const Error listingError = m_store->listingError(connectionName);
        if (!m_current.isNull() && name.isEmpty())
            message = tr("Connection %1 lists no kluster: %2")
                          .arg(connectionName,
                              listingError.isError() ? listingError.toString() : tr("it has none"));
        else if (d && !d->error.isEmpty())
            message = tr("%1 could not be read: %2").arg(name, shortError(SourceError::joined(d->error)));
        else if (!name.isEmpty())
            message = tr("%1: fetching…").arg(name);
        m_overview->clear(message);
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
        return;
    }
    // The rows are made on a worker thread; only their (incremental) application runs here.
    const int generation = ++m_showGeneration;
    const auto fetch = d->fetch;
    const auto diagnosis = d->diagnosis;
    const QList<std::shared_ptr<const KlusterFetch>> others = m_store->otherFetches(m_current);
    ++m_preparing;
    auto *watcher = new QFutureWatcher<PreparedViews>(this);
    connect(watcher, &QFutureWatcher<PreparedViews>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        applyPrepared(std::make_shared<const PreparedViews>(watcher->result()), generation);
    });
    // A refresh of the kluster shown: how each table's rows change is worked out there too, against the rows
    // it holds now (a table that changed meanwhile works it out itself).
    const bool sameKluster = m_shownKey == m_current;
    const auto held = sameKluster ? std::make_optional(std::make_tuple(m_findings->snapshot(),
                          m_nodes->snapshot(), m_routes->snapshot(), m_security->snapshot()))
                                  : std::nullopt;
    watcher->setFuture(QtConcurrent::run(m_workers, [fetch, diagnosis, others, held] {
        PreparedViews v;
        v.findings = FindingsModel::prepare(*diagnosis);
        v.nodes = NodesModel::prepare(fetch->state, *diagnosis);
        v.routes = RoutesModel::prepare(fetch->state, *diagnosis, foreignOwners(fetch->state, others));
        v.security = SecurityModel::prepare(fetch->state, *diagnosis);
        if (held) {
            FindingsModel::withPlan(v.findings, std::get<0>(*held));
            NodesModel::withPlan(v.nodes, std::get<1>(*held));
            RoutesModel::withPlan(v.routes, std::get<2>(*held));
            SecurityModel::withPlan(v.security, std::get<3>(*held));
        }
        return v;
    }));
}

void MainWindow::applyPrepared(const std::shared_ptr<const PreparedViews> &views, int generation)
{
    // One model (or a slice of one) per turn of the event loop: each step is
    // short, and the window keeps answering between them.
    using Step = std::function<void()>;
    dropSteps();
    m_stepsViews = views; // the steps share its rows: freed off this thread once they are done
    // Another kluster's rows (or the first): each table takes the first slice in place of what it held, then
    // the others a slice per turn, so that thousands of rows never arrive in one go. A refresh of the kluster
    // shown changes rows in place, in one step.
    const bool fresh = m_shownKey != m_current;
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
    add(m_findings, views->findings);
    add(m_nodes, views->nodes);
    add(m_routes, views->routes);
    add(m_security, views->security);
    m_steps << Step { [this] {
        const KlusterData *d = kluster(m_current);
        m_overview->show(d->fetch->state.kluster.name, *d->diagnosis, *m_nodes, m_routes->routeCount(),
            m_routes->foreignCount(), m_routes->limit(), SourceError::joined(d->incomplete),
            d->fetch->state.serversSource.known);
        for (TablePage *p : { m_findingsPage, m_nodesPage, m_routesPage, m_securityPage })
            p->updateDetails();
        updateCaptions();
        updateBanner();
        dropSteps();
        retire();
        m_shownKey = m_current;
        updateRepairAction();
        applyWantedFinding();
        emit viewsShown(m_current);
    } };
    m_stepsGeneration = generation;
    nextStepSoon();
}

void MainWindow::runNextStep()
{
    const KlusterData *d = kluster(m_current);
    if (m_stepsGeneration != m_showGeneration || !d || !d->fetch || m_steps.isEmpty()) {
        dropSteps();
        retire();
        --m_preparing;
        settleIfIdle();
        return;
    }
    const std::function<void()> step = m_steps.takeFirst();
    step();
    nextStepSoon();
}

void MainWindow::dropSteps()
{
    m_steps.clear();
    if (m_stepsViews) // thousands of rows: freed with the other retired data, on a worker thread
        m_store->retire({ std::exchange(m_stepsViews, nullptr) });
}

void MainWindow::nextStepSoon()
{
    // A timer, not a posted call (which a zero timeout would be): the event loop takes input, paints and runs
    // the other timers before the next step.
    QTimer::singleShot(1, Qt::PreciseTimer, this, &MainWindow::runNextStep);
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
        const QString name = m_current.connection;
        if (m_current.isNull())
            m_header->clear();
        else if (m_current.kluster.isEmpty()) // a connection's own row
            m_header->setText(
                tr("<b>Connection %1</b>: its klusters could not be listed<br><b style=\"color:%2\">%3</b>")
                    .arg(name.toHtmlEscaped(), SeverityStyle::alarmText(palette()).name(),
                        shortError(m_store->listingError(name).toString()).toHtmlEscaped()));
        else
            m_header->setText(d && d->isStale()
                    ? tr("<b>%1</b><br>Could not be read: %2")
                          .arg(m_current.toString().toHtmlEscaped(),
                              shortError(SourceError::joined(d->error)).toHtmlEscaped())
                    : tr("<b>%1</b><br>No data yet.").arg(m_current.toString().toHtmlEscaped()));
        for (TablePage *p : { m_findingsPage, m_nodesPage, m_routesPage, m_securityPage })
            p->setCaption(QString());
        return;
    }
    const bool snapshot = connection && connection->spec().isSnapshot();
    QString when = snapshot ? tr("Snapshot captured %1 (%2), opened offline, read-only")
                                  .arg(clock(d->fetchedAt), ago(d->fetchedAt))
                            : tr("Fetched %1 (%2) in %3 ms, %4 requests")
                                  .arg(clock(d->fetchedAt), ago(d->fetchedAt))
                                  .arg(d->elapsedMs)
                                  .arg(d->fetch->requests);
    // The nodes, between refreshes: live from their watch, or why not.
    const NodeWatchStatus &watch = d->watch;
    if (!snapshot && watch.watching && !d->isStale()) {
        if (watch.connected)
            when += tr(" · nodes live (watch; last heard %1)").arg(clock(watch.lastHeard));
        else if (!watch.problem.isEmpty())
            when += tr(" · node watch reconnecting (nodes as of %1): %2")
                        .arg(watch.lastHeard.isValid() ? clock(watch.lastHeard) : clock(d->fetchedAt),
                            shortError(watch.problem));
    }
    QString alarm;
    const QString shortWhen
        = (snapshot ? tr("captured %1 (%2)") : tr("fetched %1 (%2)"))
              .arg(d->fetchedAt.toUTC().toString(QStringLiteral("HH:mm:ss 'UTC'")), ago(d->fetchedAt));
    if (d->isStale())
        alarm = tr("STALE: the last refresh failed at %1; this is older data,")
                    .arg(d->errorAt.toUTC().toString(QStringLiteral("HH:mm:ss 'UTC'")));
    else if (!d->incomplete.isEmpty())
        alarm = tr("INCOMPLETE: %1 could not be read; counts are lower bounds.")
                    .arg(failedSources(d->incomplete));
    const KlusterState &s = d->fetch->state;
    const QString router = s.router.name.isEmpty()
        ? s.router.id
        : tr("%1 (%2)").arg(s.router.name, s.router.id.left(8) + QStringLiteral("…"));
    const QString where = tr("Kluster %1 · cloud %2 · router %3")
                              .arg(s.kluster.name, connection ? connection->name() : QString(), router);
    const QString red = SeverityStyle::alarmText(palette()).name();
    m_header->setText(
        QStringLiteral("<b>%1</b>%4<br>%2%3")
            .arg(where.toHtmlEscaped(),
                alarm.isEmpty() ? when.toHtmlEscaped()
                                : QStringLiteral("<b style=\"color:%1\">%2</b> %3")
                                      .arg(red, alarm.toHtmlEscaped(), shortWhen.toHtmlEscaped()),
                QString(),
                connection && connection->isReadOnly() ? tr(" · <i>read-only: repairs hidden</i>")
                                                       : QString()));
    const QString state = d->isStale() ? tr("STALE — ")
        : !d->incomplete.isEmpty()     ? tr("INCOMPLETE — ")
                                       : QString();
    const QString caption = state + (snapshot ? tr("Captured %1") : tr("Fetched %1")).arg(clock(d->fetchedAt))
        + (!snapshot && watch.connected && !d->isStale() ? tr(", nodes live") : QString());
    const QString atLeast = d->incomplete.isEmpty() ? QString() : QStringLiteral("≥ ");
    m_findingsPage->setCaption(tr("%1 · %2%3 critical, %2%4 warning")
                                   .arg(caption, atLeast)
                                   .arg(d->diagnosis->count(Severity::Critical))
                                   .arg(d->diagnosis->count(Severity::Warning)));
    m_nodesPage->setCaption(
        tr("%1 · instances and nodes joined by name; marked rows have a finding").arg(caption));
    const int limit = m_routes->limit();
    m_routesPage->setCaption(tr(
        "%1 · router %2: %3 of %4 routes used (%5 other klusters' or operators') · grouped by destination; "
        "the first route of a destination wins")
                                 .arg(caption, router)
                                 .arg(m_routes->routeCount())
                                 .arg(limit > 0 ? QString::number(limit) : tr("?"))
                                 .arg(m_routes->foreignCount()));
    m_securityPage->setCaption(tr("%1 · %2").arg(caption, m_security->groupSummary()));
}

void MainWindow::updateBanner()
{
    // One line per connection, whatever failed in it; the whole story behind Details; Retry when it may help.
    QStringList lines, details;
    bool failures = false;
    bool retry = false;
    for (Connection *c : std::as_const(m_connections)) {
        const QString name = c->name();
        QStringList problems;
        QString first;
        if (const Error e = m_store->listingError(name); e.isError()) {
            problems << tr("its klusters could not be listed");
            first = e.toString();
            retry = retry || e.retryCanHelp();
            details << tr("%1: listing the klusters failed: %2").arg(name, first);
        }
        QStringList stale, incomplete;
        for (const QString &k : m_store->klusters(name)) {
            const KlusterData *d = kluster({ name, k });
            if (!d)
                continue;
            if (d->isStale()) {
                const QString error = SourceError::joined(d->error);
                stale << k;
                if (first.isEmpty())
                    first = error;
                retry = retry || SourceError::retryCanHelp(d->error);
                details << tr("%1/%2: refresh failed at %3: %4").arg(name, k, clock(d->errorAt), error)
                        + (d->fetch ? tr(" (showing the data fetched at %1, stale)").arg(clock(d->fetchedAt))
                                    : QString());
            } else if (!d->incomplete.isEmpty()) {
                const QString error = SourceError::joined(d->incomplete);
                incomplete << k;
                if (first.isEmpty())
                    first = error;
                retry = retry || SourceError::retryCanHelp(d->incomplete);
                details << tr("%1/%2: incomplete: %3").arg(name, k, error);
            }
        }
        if (!stale.isEmpty())
            problems << tr("%1 could not be refreshed (older data shown, stale)")
                            .arg(stale.join(QStringLiteral(", ")));
        if (!incomplete.isEmpty())
            problems
                << tr("%1 incomplete (counts are lower bounds)").arg(incomplete.join(QStringLiteral(", ")));
        if (problems.isEmpty())
            continue;
        failures = true;
        lines << tr("%1: %2 — %3").arg(name, problems.join(QStringLiteral("; ")), shortError(first));
    }
    if (failures) {
        QList<QAction *> actions;
        if (m_store->hasListingErrors())
            actions << m_manageAction;
        retry = retry && m_refreshAction->isEnabled(); // snapshots are never fetched again
        const QString text = lines.join(QLatin1Char('\n'));
        m_banner->setMessage(
            { MessageBanner::Type::Error, text, details.join(QLatin1Char('\n')), retry, actions });
    } else if (!m_notice.isEmpty()) {
        m_banner->setMessage(
            { MessageBanner::Type::Warning, m_notice, QString(), false, { m_manageAction } });
    } else if (!m_startupMessage.isEmpty() && m_connections.isEmpty()) {
        QList<QAction *> actions { m_addAction };
        if (m_demoAvailable)
            actions << m_demoAction;
        m_banner->setMessage(
            { MessageBanner::Type::Information, m_startupMessage, QString(), false, actions });
    } else {
        m_banner->clear();
    }
}

QString MainWindow::bannerText() const
{
    return m_banner->text();
}

bool MainWindow::isBannerVisible() const
{
    return m_banner->isShown();
}

void MainWindow::syncSelection()
{
    // The findings selected in the Findings view select the rows they are about in the other views.
    const KlusterData *d = kluster(m_current);
    if (!d || !d->diagnosis)
        return;
    const QStringList ids = m_findingsPage->selectedKeys();
    const int n = m_nodesPage->selectKeys(ids, ConsoleRole::Findings);
    const int r = m_routesPage->selectKeys(ids, ConsoleRole::Findings);
    const int s = m_securityPage->selectKeys(ids, ConsoleRole::Findings);
    m_tabs->setTabText(NodesTab, n ? tr("Nodes (%1)").arg(n) : tr("Nodes"));
    m_tabs->setTabText(RoutesTab, r ? tr("Routes (%1)").arg(r) : tr("Routes"));
    m_tabs->setTabText(SecurityTab, s ? tr("Security group (%1)").arg(s) : tr("Security group"));
}

void MainWindow::openRepair(const QStringList &findingIds)
{
    Connection *connection = connectionOf(m_current);
    const KlusterData *d = kluster(m_current);
    if (!connection || connection->isReadOnly() || !d || !d->fetch || findingIds.isEmpty()
        || m_shownKey != m_current)
        return; // nothing to repair, or the views do not show this kluster yet
    auto *dialog = new RepairDialog(connection, m_current.kluster, d->fetch, d->diagnosis, findingIds, this);
    QStringList since;
    const FindingsHistory history = m_findingsHistory.value(m_current.toString());
    for (const QString &id : findingIds) {
        if (const auto h = history.findings.constFind(id); h != history.findings.cend())
            since << tr("%1 (%2)").arg(id, FindingsModel::sinceText(*h, history.at));
    }
    dialog->setSince(since);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const KlusterKey key = m_current;
    if (d->isStale())
        dialog->setStale(tr("the last refresh failed at %1").arg(clock(d->errorAt)));
    connect(this, &MainWindow::klusterUpdated, dialog, [this, dialog, key](const KlusterKey &updated) {
        const KlusterData *now = kluster(updated);
        if (updated != key || !now)
            return;
        if (now->diagnosis && !now->isStale())
            dialog->dataRefreshed(*now->diagnosis);
        else if (now->isStale())
            dialog->setStale(SourceError::joined(now->error));
    });
    connect(dialog, &RepairDialog::repairsFinished, this,
        [this, key, connection = QPointer<Connection>(connection)](int fixed, int total) {
            reloadAudit();
            if (connection)
                connection->refresh(key.kluster);
            m_cancelAction->setEnabled(true);
            statusBar()->showMessage(fixed == total
                    ? tr("Repair: %1 of %2 fixed and verified; refreshing %3")
                          .arg(fixed)
                          .arg(total)
                          .arg(key.toString())
                    : tr("Repair: only %1 of %2 fixed; see the dialog and the audit log; refreshing %3")
                          .arg(fixed)
                          .arg(total)
                          .arg(key.toString()),
                15000);
        });
    openDialog(dialog);
    emit repairDialogOpened(dialog);
}

void MainWindow::openDialog(QDialog *dialog)
{
    dialog->open();
    dialog->raise();
    dialog->activateWindow(); // the keyboard goes to the dialog, whatever the window manager does
    emit dialogOpened(dialog);
}

QString MainWindow::detailsHtml(Tab tab, const QModelIndexList &rows) const
{
    const KlusterData *d = kluster(m_shownKey);
    Connection *connection = connectionOf(m_shownKey);
    const bool withPlan = connection && !connection->isReadOnly();
    if (rows.isEmpty()) {
        switch (tab) {
        case FindingsTab:
            return tr("<p>Select a finding to see its evidence and its repair. F8 and Shift+F8 step through "
                      "the findings; "
                      "Ctrl+R repairs the selected ones.</p>");
        case AuditTab:
            return tr("<p>Select a record to see each request it sent and its answer.</p>");
        default:
            return tr("<p>Select a row to see the findings about it, their evidence and repair. F8 and "
                      "Shift+F8 step "
                      "through the rows with a finding; Ctrl+R repairs them.</p>");
        }
    }
    QString html;
    if (tab == AuditTab) {
        for (const QModelIndex &row : rows.mid(0, 3)) {
            const QJsonObject r = row.data(AuditModel::RecordRole).toJsonObject();
            html += tr("<h3>%1 — %2</h3>")
                        .arg(r.value(QStringLiteral("finding")).toString().toHtmlEscaped(),
                            r.value(QStringLiteral("verification")).toString().toHtmlEscaped());
            html += tr("<p>%1 by %2@%3 (cloud %4), kluster %5: %6</p>")
                        .arg(r.value(QStringLiteral("time")).toString(),
                            r.value(QStringLiteral("user")).toString().toHtmlEscaped(),
                            r.value(QStringLiteral("project")).toString().toHtmlEscaped(),
                            r.value(QStringLiteral("cloud")).toString().toHtmlEscaped(),
                            r.value(QStringLiteral("kluster")).toString().toHtmlEscaped(),
                            r.value(QStringLiteral("repair")).toString().toHtmlEscaped());
            html += QStringLiteral("<p>%1</p><pre>")
                        .arg(r.value(QStringLiteral("message")).toString().toHtmlEscaped());
            if (!r.contains(QStringLiteral("requests"))) {
                // Interrupted (or in progress): what was about to be sent; whether it reached the cloud is
                // unknown.
                for (const QJsonValue v : r.value(QStringLiteral("planned")).toArray()) {
                    const QJsonObject q = v.toObject();
                    html += tr("%1 %2 %3 → unknown: check the cloud\n")
                                .arg(q.value(QStringLiteral("method")).toString(),
                                    q.value(QStringLiteral("service")).toString(),
                                    q.value(QStringLiteral("path")).toString().toHtmlEscaped());
                }
            }
            for (const QJsonValue v : r.value(QStringLiteral("requests")).toArray()) {
                const QJsonObject q = v.toObject();
                html += QStringLiteral("%1 %2 %3 → %4 %5\n")
                            .arg(q.value(QStringLiteral("method")).toString(),
                                q.value(QStringLiteral("service")).toString(),
                                q.value(QStringLiteral("path")).toString().toHtmlEscaped())
                            .arg(q.value(QStringLiteral("status")).toInt())
                            .arg(q.value(QStringLiteral("outcome")).toString().toHtmlEscaped());
            }
            html += QStringLiteral("</pre>");
        }
        return html;
    }
    if (!d || !d->diagnosis)
        return QString();
    const auto findingsOf = [&](const QModelIndex &row) {
        QString out;
        for (const QString &id : row.data(ConsoleRole::Findings).toStringList()) {
            if (const Finding *f = d->diagnosis->find(id))
                out += RepairText::findingHtml(*f, withPlan);
        }
        return out;
    };
    int shown = 0;
    QStringList seen;
    for (const QModelIndex &row : rows) {
        if (shown == 5) {
            html += tr("<p>… and %1 more selected.</p>").arg(rows.size() - shown);
            break;
        }
        ++shown;
        if (tab == FindingsTab) {
            if (const Finding *f = d->diagnosis->find(row.data(ConsoleRole::Key).toString()))
                html += RepairText::findingHtml(*f, withPlan);
            continue;
        }
        if (tab == RoutesTab && row.data(RoutesModel::GroupRole).toBool()) {
            // A destination with several routes: the router's order, the one that wins first.
            html += tr("<h3>%1: %2</h3>")
                        .arg(row.data(ConsoleRole::Key).toString().toHtmlEscaped(),
                            row.siblingAtColumn(RoutesModel::OwnerColumn).data().toString().toHtmlEscaped());
            html += tr("<p>The router's routes for this destination, in the order it uses them: the first "
                       "one carries the traffic.</p><ol>");
            const QAbstractItemModel *m = row.model();
            QList<QModelIndex> children;
            for (int i = 0; i < m->rowCount(row); ++i)
                children << m->index(i, 0, row);
            const auto order = [](const QModelIndex &i) {
                const int p = i.data(RoutesModel::PositionRole).toInt();
                return p < 0 ? INT_MAX : p; // the missing ones after those on the router
            };
            std::stable_sort(children.begin(), children.end(),
                [&](const QModelIndex &a, const QModelIndex &b) { return order(a) < order(b); });
            for (const QModelIndex &c : std::as_const(children)) {
                const int roles = c.data(RoutesModel::RolesRole).toInt();
                const bool wins = roles & RouteAudit::Effective;
                html += QStringLiteral("<li>%1via <b>%2</b> — %3; nexthop: %4%5</li>")
                            .arg(c.data(RoutesModel::PositionRole).toInt() < 0
                                    ? tr("(not on the router: needed) ")
                                    : QString(),
                                c.siblingAtColumn(RoutesModel::NexthopColumn)
                                    .data()
                                    .toString()
                                    .toHtmlEscaped(),
                                c.siblingAtColumn(RoutesModel::RolesColumn).data().toString().toHtmlEscaped(),
                                c.siblingAtColumn(RoutesModel::OwnerColumn).data().toString().toHtmlEscaped(),
                                wins ? tr(" <b>← carries the traffic</b>") : QString());
            }
            html += QStringLiteral("</ol>");
        } else {
            // The row's own facts, every column, then the findings about it.
            QStringList facts;
            const QAbstractItemModel *m = row.model();
            for (int c = 0; c < m->columnCount(row.parent()); ++c) {
                const QString v = row.siblingAtColumn(c).data().toString();
                if (!v.isEmpty())
                    facts << QStringLiteral("%1: <b>%2</b>")
                                 .arg(m->headerData(c, Qt::Horizontal).toString().toHtmlEscaped(),
                                     v.toHtmlEscaped());
            }
            html += QStringLiteral("<p>%1</p>").arg(facts.join(QStringLiteral(" · ")));
        }
        const QStringList ids = row.data(ConsoleRole::Findings).toStringList();
        bool any = false;
        for (const QString &id : ids)
            any = any || !seen.contains(id);
        if (ids.isEmpty())
            html += tr("<p><i>No finding about this row.</i></p>");
        else if (any)
            html += findingsOf(row);
        seen << ids;
    }
    if (!withPlan)
        html += tr("<p><i>This connection is read-only: repairs are hidden.</i></p>");
    return html;
}

void MainWindow::reloadAudit()
{
    QString error;
    m_auditReader.update(&error);
    m_audit->setRecords(m_auditReader.records());
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
    auto *dialog = new QFileDialog(
        this, tr("Save %1 as a snapshot folder (a new folder's name)").arg(m_current.toString()));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setFileMode(QFileDialog::AnyFile);
    dialog->selectFile(QStringLiteral("%1-%2").arg(
        d->fetch->state.kluster.name, d->fetchedAt.toUTC().toString(QStringLiteral("yyyyMMdd-HHmmss"))));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const auto fetch = d->fetch;
    connect(dialog, &QFileDialog::fileSelected, this, [this, fetch](const QString &dir) {
        QString error;
        if (SnapshotWriter::write(dir, *fetch, &error))
            statusBar()->showMessage(tr("Snapshot written to %1").arg(dir), 10000);
        else
            statusBar()->showMessage(
                tr("The snapshot could not be written completely: %1").arg(error), 15000);
    });
    openDialog(dialog);
}

void MainWindow::exportReport()
{
    const KlusterData *d = kluster(m_current);
    if (!d || !d->fetch) {
        statusBar()->showMessage(tr("No kluster data to report yet."), 8000);
        return;
    }
    auto *dialog = new QFileDialog(this, tr("Export the report of %1").arg(m_current.toString()));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setNameFilters(
        { tr("HTML report (*.html)"), tr("Findings as CSV (*.csv)"), tr("Check report as JSON (*.json)") });
    dialog->selectFile(d->fetch->state.kluster.name + QStringLiteral("-report.html"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const auto fetch = d->fetch;
    const auto diagnosis = d->diagnosis;
    connect(dialog, &QFileDialog::fileSelected, this, [this, fetch, diagnosis, dialog](const QString &path) {
        const QString filter = dialog->selectedNameFilter();
        Exports::ReportFormat format = Exports::ReportFormat::Html;
        if (path.endsWith(QLatin1String(".csv"))
            || (filter.contains(QLatin1String("CSV")) && !path.endsWith(QLatin1String(".html"))))
            format = Exports::ReportFormat::FindingsCsv;
        else if (path.endsWith(QLatin1String(".json"))
            || (filter.contains(QLatin1String("JSON")) && !path.endsWith(QLatin1String(".html"))))
            format = Exports::ReportFormat::CheckJson;
        const auto write = [this, path, format, fetch, diagnosis](const IncidentReport::History *history) {
            QString error;
            const bool written
                = Exports::writeReport(path, format, fetch->state, *diagnosis, &error, history);
            statusBar()->showMessage(written ? tr("Report written to %1").arg(path)
                                             : tr("The report could not be written: %1").arg(error),
                10000);
        };
        if (format != Exports::ReportFormat::Html) {
            write(nullptr);
            return;
        }
        // The HTML report adds the findings' timelines and what changed, read on the history's thread.
        QStringList ids;
        for (const Finding &f : diagnosis->findings)
            ids << f.id();
        QMetaObject::invokeMethod(
            m_history, [this, h = m_history, console = m_current.toString(), ids, write] {
                const IncidentReport::History history = h->reportHistory(console, ids);
                QMetaObject::invokeMethod(this, [history, write] { write(&history); });
            });
    });
    openDialog(dialog);
}

void MainWindow::exportAudit()
{
    auto *dialog = new QFileDialog(this, tr("Export the audit log"));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setNameFilters({ tr("JSON Lines (*.jsonl)"), tr("CSV (*.csv)") });
    dialog->selectFile(QStringLiteral("flightdeck-audit.jsonl"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        // The rows as filtered in the view: the records whole, or the columns shown as CSV.
        const QAbstractItemModel *view = m_auditPage->view()->model();
        QString error;
        bool written = false;
        if (path.endsWith(QLatin1String(".csv"))) {
            QStringList header;
            for (int c = 0; c < view->columnCount(); ++c)
                header << view->headerData(c, Qt::Horizontal).toString();
            QList<QStringList> rows;
            for (int row = 0; row < view->rowCount(); ++row) {
                QStringList cells;
                for (int c = 0; c < view->columnCount(); ++c)
                    cells << view->index(row, c).data().toString();
                rows << cells;
            }
            written = Exports::writeCsv(path, header, rows, &error);
        } else {
            QList<QJsonObject> records;
            for (int row = 0; row < view->rowCount(); ++row)
                records << view->index(row, 0).data(AuditModel::RecordRole).toJsonObject();
            written = Exports::writeJsonLines(path, records, &error);
        }
        statusBar()->showMessage(
            written ? tr("Audit log exported to %1").arg(path) : tr("Not exported: %1").arg(error), 10000);
    });
    openDialog(dialog);
}

void MainWindow::testConnection(
    const ConnectionSpec &given, QObject *context, const ConnectionDialog::TestDone &done)
{
    // A connection of its own, on the network thread, gone once it has answered.
    ConnectionSpec spec = given;
    spec.name = tr("test of %1").arg(given.name);
    auto *probe = new Connection(spec, m_network, this);
    connect(probe, &Connection::klustersListed, context,
        [probe, done](const QStringList &klusters, const Error &error) {
            probe->deleteLater();
            if (error.isError())
                done(false, error.toString());
            else
                done(true,
                    klusters.isEmpty() ? tr("Signed in; Kubernikus lists no kluster in this project.")
                                       : tr("Signed in; %1 kluster(s): %2")
                                             .arg(klusters.size())
                                             .arg(klusters.join(QStringLiteral(", "))));
        });
    connect(context, &QObject::destroyed, probe, &QObject::deleteLater);
    probe->listKlusters();
}

void MainWindow::addConnectionInteractively(QWidget *parent)
{
    QStringList taken;
    for (Connection *c : std::as_const(m_connections))
        taken << c->name();
    for (const ConnectionSpec &s : std::as_const(m_remembered))
        taken << s.name;
    auto *dialog = new ConnectionDialog(taken, std::nullopt, parent ? parent : this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setTester([this](const ConnectionSpec &spec, QObject *context,
                          const ConnectionDialog::TestDone &done) { testConnection(spec, context, done); });
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const ConnectionSpec spec = dialog->spec();
        remember(spec);
        addConnection(spec, false);
        storeSecret(spec, dialog->secret());
    });
    openDialog(dialog);
}

void MainWindow::remember(const ConnectionSpec &spec)
{
    ConnectionSpec remembered = spec;
    if (remembered.config) { // what is remembered never holds the secret
        remembered.config->password.clear();
        remembered.config->applicationCredentialSecret.clear();
    }
    m_remembered << remembered;
    saveConnections();
}

void MainWindow::storeSecret(const ConnectionSpec &spec, const QString &secret)
{
    if (secret.isEmpty() || !spec.config)
        return;
    auto *store = new SecretStore(this);
    const QString name = spec.name;
    connect(store->write(spec.config->secretKey(), secret), &SecretCall::finished, this,
        [this, store, name](const SecretResult &r) {
            store->deleteLater();
            if (r.ok && !r.inMemoryOnly) {
                statusBar()->showMessage(tr("The secret of %1 is stored in the keychain").arg(name), 15000);
                return;
            }
            // Not kept: the connection works now, and will not sign in next time. Said until dismissed, not
            // in passing.
            m_notice = tr("The secret of %1 is kept for this session only (%2). Next time, enter it again in "
                          "File → Connections… → Edit, "
                          "or put it in secure.yaml.")
                           .arg(name, r.inMemoryOnly ? tr("no keychain is available") : r.error);
            updateBanner();
        });
}

void MainWindow::editConnectionInteractively(const QString &name, QWidget *parent)
{
    Connection *c = connection(name);
    if (!c || c->spec().isSnapshot())
        return;
    ConnectionSpec current = c->spec();
    for (const ConnectionSpec &s : std::as_const(m_remembered)) {
        if (s.name == name)
            current = s; // as remembered (without the --read-only of this run)
    }
    auto *dialog = new ConnectionDialog({}, current, parent ? parent : this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setTester([this](const ConnectionSpec &spec, QObject *context,
                          const ConnectionDialog::TestDone &done) { testConnection(spec, context, done); });
    const bool wasRemembered = isRemembered(name);
    connect(dialog, &QDialog::accepted, this, [this, dialog, name, wasRemembered, old = c->spec()] {
        ConnectionSpec spec = dialog->spec();
        const QString secret = dialog->secret();
        if (secret.isEmpty() && spec.config && old.config && spec.cloud.isEmpty()) {
            // The secret stays where it was: the keychain (read again by the new connection), or this run's
            // memory.
            (spec.config->isApplicationCredential() ? spec.config->applicationCredentialSecret
                                                    : spec.config->password)
                = old.config->isApplicationCredential() ? old.config->applicationCredentialSecret
                                                        : old.config->password;
        }
        removeConnection(name, false);
        if (wasRemembered)
            remember(spec);
        addConnection(spec, false);
        storeSecret(spec, secret);
        statusBar()->showMessage(tr("Connection %1 saved; listing its klusters again").arg(name), 10000);
    });
    openDialog(dialog);
}

void MainWindow::openConnectionsManager()
{
    auto *dialog = new ConnectionsDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    openDialog(dialog);
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
    openDialog(dialog);
}

void MainWindow::removeConnection(const QString &name, bool forgetSecret)
{
    Connection *c = connection(name);
    if (!c)
        return;
    const ConnectionSpec spec = c->spec();
    m_connections.removeAll(c);
    m_remembered.erase(std::remove_if(m_remembered.begin(), m_remembered.end(),
                           [&](const ConnectionSpec &s) { return s.name == name; }),
        m_remembered.end());
    saveConnections();
    if (m_current.connection == name)
        m_current = {};
    m_store->removeConnection(name);
    delete c;
    if (!firstSidebarKluster().isValid())
        m_sidebarFilter->clear(); // a filter that now matches nothing would hide the klusters left
    if (forgetSecret && !spec.isSnapshot()) {
        // The keychain entry goes with it (a clouds.yaml cloud's files stay as they are).
        QString error;
        std::optional<CloudConfig> config = spec.config;
        if (!config && !spec.cloud.isEmpty())
            config = CloudConfigLoader::load(spec.cloud, &error);
        if (config) {
            auto *store = new SecretStore(this);
            connect(store->remove(config->secretKey()), &SecretCall::finished, store, &QObject::deleteLater);
        }
    }
    retire();
    updateLiveActions();
    updateTray();
    showCurrent();
    updateBanner();
    emit connectionsChanged();
}

void MainWindow::showShortcuts()
{
    auto *dialog = HelpDialogs::shortcuts(this);
    openDialog(dialog);
}

void MainWindow::showAbout()
{
    auto *dialog = HelpDialogs::about(this);
    openDialog(dialog);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    Settings::windowGeometry().setValue(saveGeometry());
    Settings::windowState().setValue(saveState());
    Settings::splitState().setValue(m_split->saveState());
    for (TablePage *p : { m_findingsPage, m_nodesPage, m_routesPage, m_securityPage, m_auditPage })
        p->saveHeader();
    QMainWindow::closeEvent(event);
}
