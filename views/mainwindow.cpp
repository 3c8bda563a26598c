#include "views/mainwindow.h"

#include "console/consoletext.h"
#include "console/historyclient.h"
#include "console/refreshcoordinator.h"
#include "models/consolemodels.h"
#include "models/klustersmodel.h"
#include "models/viewpreparer.h"
#include "services/settings.h"
#include "views/acknowledgecommand.h"
#include "views/auditpage.h"
#include "views/autorefreshmenu.h"
#include "views/commandpalette.h"
#include "views/connectioncommands.h"
#include "views/findingspage.h"
#include "views/helpdialogs.h"
#include "views/icons.h"
#include "views/klustersidebar.h"
#include "views/klusterviews.h"
#include "views/messagebanner.h"
#include "views/notifier.h"
#include "views/overviewpage.h"
#include "views/repaircommand.h"
#include "views/routespage.h"
#include "views/severitystyle.h"
#include "views/teamcommands.h"
#include "views/windownotices.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDialog>
#include <QLineEdit>
#include <QMenuBar>
#include <QScreen>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

MainWindow::MainWindow(QWidget *parent)
    : MainWindow(nullptr, parent)
{ }

MainWindow::MainWindow(ConsoleSession *session, QWidget *parent)
    : QMainWindow(parent)
    , m_session(session ? session : new ConsoleSession(this))
    , m_models(new ConsoleModels(m_session, this))
    , m_sidebar(new KlusterSidebar(m_models->klusters(), this))
    , m_views(new KlusterViews(m_models, this))
    , m_split(new QSplitter(this))
    , m_autoRefresh(new AutoRefreshMenu(this))
    , m_notices(new WindowNotices(m_models, this))
    , m_connectionCommands(new ConnectionCommands(m_session->registry(), this, this))
{
    setObjectName(QStringLiteral("MainWindow"));
    setWindowTitle(tr("Flightdeck"));
    setWindowIcon(applicationIcon());
    // The icons loaded now, not in the first paint of the data.
    for (Severity severity : { Severity::Critical, Severity::Warning, Severity::Info })
        SeverityStyle::icon(severity).pixmap(16);
    // The banner (what failed, inline, never a modal box) over the views of the kluster shown.
    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->setSpacing(2);
    rightLayout->addWidget(banner());
    rightLayout->addWidget(m_views, 1);
    m_split->setObjectName(QStringLiteral("split"));
    m_split->addWidget(m_sidebar);
    m_split->addWidget(right);
    m_split->setStretchFactor(1, 1);
    m_split->setCollapsible(1, false);
    m_split->setSizes({ 330, 1110 }); // the kluster list: its names, counts and worst causes
    setCentralWidget(m_split);
    buildCommands();
    followSession();
    connect(banner(), &MessageBanner::retryRequested, this, &MainWindow::refreshAll); // every kluster again
    auto *ageTicker = new QTimer(this);
    connect(ageTicker, &QTimer::timeout, m_views, &KlusterViews::updateCaptions);
    ageTicker->start(5000);

    placeOnScreen();
    m_split->restoreState(Settings::splitState().value());
    m_wantedKey = KlusterKey::fromString(Settings::lastKluster().value());
    m_views->tabs()->setCurrentIndex(Settings::tab().value());
    m_views->restoreHeaders();
    setAutoRefreshMinutes(Settings::refreshMinutes().value());
    reloadAudit();
    updateLiveActions();
    showCurrent();
    sidebar()->setFocus(Qt::OtherFocusReason); // arrows choose a kluster, Enter goes into its views
}

// A session of its own (its first child) goes first: its connections, then the history's last record. The
// application's session outlives the window (app/gui/consoleapp.h).
MainWindow::~MainWindow() = default;

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

void MainWindow::followSession()
{
    connect(m_session->history(), &HistoryClient::problem, this, [this](const QString &message) {
        qWarning().noquote() << message;
        status(message, 30000);
    });
    // An acknowledgement kept (or a first record, which makes them possible): the commands follow.
    connect(m_session->history(), &HistoryClient::findingsSinceChanged, this, [this](const KlusterKey &key) {
        if (key == currentKey())
            updateActions();
    });
    ConnectionRegistry *registry = m_session->registry();
    connect(registry, &ConnectionRegistry::added, this, [this] {
        action(CommandId::CancelRefresh)->setEnabled(true);
        updateLiveActions();
    });
    connect(registry, &ConnectionRegistry::removed, this, &MainWindow::onConnectionRemoved);
    connect(registry, &ConnectionRegistry::secretStored, this, [this](const QString &name) {
        status(tr("The secret of %1 is stored in the keychain").arg(name), 15000);
    });
    RefreshCoordinator *refreshes = m_session->refreshes();
    connect(refreshes, &RefreshCoordinator::refreshStarted, this, [this] {
        action(CommandId::CancelRefresh)->setEnabled(pendingRefreshes() > 0);
        status(tr("Refreshing…"));
    });
    connect(refreshes, &RefreshCoordinator::listed, this, &MainWindow::onListed);
    connect(refreshes, &RefreshCoordinator::refreshed, this, &MainWindow::onRefreshed);
    connect(refreshes, &RefreshCoordinator::nodesChanged, this,
        [this](const KlusterKey &key, const KlusterData &before) {
            onRefreshed(
                key, before, false); // a node changed between refreshes (its watch): as a refresh shows it
        });
    connect(refreshes, &RefreshCoordinator::watchStatusChanged, this, [this](const KlusterKey &key) {
        if (key == currentKey())
            m_views->updateCaptions();
    });
    connect(refreshes, &RefreshCoordinator::roundDone, this, &MainWindow::onRoundDone);
    connect(refreshes, &RefreshCoordinator::cancelled, this, [this](const QList<KlusterKey> &keys) {
        // A cancel is no failure: the data shown stays what it was, and says its age.
        QStringList names;
        for (const KlusterKey &k : keys)
            names << k.kluster;
        status(tr("Refresh cancelled for %1; the data shown stays as it was.")
                   .arg(names.join(QStringLiteral(", "))),
            10000);
    });
    connect(refreshes, &RefreshCoordinator::settled, this, &MainWindow::refreshesSettled);
    connect(m_session, &ConsoleSession::shown, this, &MainWindow::onShown);
    connect(m_sidebar, &KlusterSidebar::currentChanged, this, [this](const KlusterKey &key) {
        if (key == currentKey())
            return;
        m_views->preparing(key);
        m_session->setCurrent(key);
        showCurrent();
    });
    connect(m_sidebar, &KlusterSidebar::enterRequested, m_views, &KlusterViews::focusCurrent);
    connect(m_sidebar, &KlusterSidebar::filterChanged, this, [this] {
        // The kluster shown stays marked in the list whenever the filter lets it through.
        if (!currentKey().isNull() && !sidebar()->selectionModel()->hasSelection())
            selectKluster(currentKey());
    });
    connect(m_views, &KlusterViews::selectionChanged, this, &MainWindow::updateActions);
    connect(m_views, &KlusterViews::klusterActivated, this, [this](const KlusterKey &key) {
        if (selectKluster(key, true))
            setTab(Tab::Overview);
    });
    const auto raiseWindow = [this] {
        showNormal();
        raise();
        activateWindow();
    };
    connect(notifier(), &Notifier::activated, this,
        [this, raiseWindow](const KlusterKey &key, const QString &finding) {
            raiseWindow();
            if (finding.isEmpty())
                selectKluster(key, true);
            else
                showFinding(key, finding);
        });
    connect(notifier(), &Notifier::showWindowRequested, this, raiseWindow);
    connect(notifier(), &Notifier::acknowledgeRequested, this,
        [this](const KlusterKey &key, const QString &finding) {
            m_commands->acknowledge()->acknowledge(key, { finding }, 3600, tr("from the notification"));
        });
}

void MainWindow::buildCommands()
{
    m_commands = new WindowCommands(
        m_session, [this] { return commandContext(); }, m_views->auditPage()->view()->model(), this);
    connect(m_commands, &WindowCommands::dialogOpened, this, &MainWindow::dialogOpened);
    connect(m_commands, &WindowCommands::message, this, &MainWindow::status);
    connect(m_commands, &WindowCommands::repairDialogOpened, this, &MainWindow::repairDialogOpened);
    connect(m_connectionCommands, &ConnectionCommands::dialogOpened, this, &MainWindow::dialogOpened);
    connect(m_connectionCommands, &ConnectionCommands::message, this, &MainWindow::status);
    connect(m_connectionCommands, &ConnectionCommands::demoRequested, this, &MainWindow::demoRequested);
    // The Overview's Repair of an incident.
    connect(overviewPage(), &OverviewPage::incidentRepairRequested, m_commands->repair(),
        &RepairCommand::repairIncident);
    connect(m_commands, &WindowCommands::repairsFinished, this,
        [this](const KlusterKey &key, int fixed, int total) {
            reloadAudit();
            action(CommandId::CancelRefresh)->setEnabled(true);
            status(fixed == total
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
    m_commands->provide(CommandId::AddConnection, m_connectionCommands->addAction());
    m_commands->provide(CommandId::ManageConnections, m_connectionCommands->manageAction());
    m_commands->provide(CommandId::GroupFindings, findingsPage()->groupAction());
    m_commands->provide(CommandId::Notifications, notifier()->notificationsAction());
    m_commands->provide(CommandId::Tray, notifier()->trayAction());
    m_commands->provideAutoRefresh(m_autoRefresh->menu(), m_autoRefresh->button());
    m_commands->arrange();
    m_notices->setActions({ m_connectionCommands->addAction(), m_connectionCommands->manageAction(),
        action(CommandId::OpenDemo) });
    // What the window's own actions do.
    connect(m_commands, &WindowCommands::viewChosen, this, [this](int tab) { setTab(Tab(tab)); });
    connect(m_commands, &WindowCommands::triggered, this, [this](CommandId id) {
        switch (id) {
        case CommandId::OpenDemo:
            emit demoRequested();
            break;
        case CommandId::Quit:
            close();
            break;
        case CommandId::KlusterList: {
            const bool on = action(id)->isChecked();
            m_sidebar->setVisible(on);
            if (!on && sidebar()->hasFocus())
                m_views->tabs()->currentWidget()->setFocus();
            break;
        }
        case CommandId::GoTo:
            openPalette();
            break;
        case CommandId::Refresh:
            refreshAll();
            break;
        case CommandId::CancelRefresh:
            cancelRefreshes();
            break;
        case CommandId::NextFinding:
            m_views->stepFinding(1);
            break;
        case CommandId::PreviousFinding:
            m_views->stepFinding(-1);
            break;
        case CommandId::Filter:
            m_views->focusFilter();
            break;
        case CommandId::GoToKlusters:
            m_sidebar->setVisible(true);
            action(CommandId::KlusterList)->setChecked(true);
            m_sidebar->focusList(Qt::ShortcutFocusReason);
            break;
        case CommandId::Shortcuts:
            showShortcuts();
            break;
        case CommandId::About:
            showAbout();
            break;
        default:
            break; // the commands with a class run themselves
        }
    });
    connect(m_autoRefresh, &AutoRefreshMenu::chosen, this, [this](int minutes) {
        Settings::refreshMinutes().setValue(minutes);
        setAutoRefreshMinutes(minutes);
    });
    m_views->setRowActions(repairAction(), repairRoutesAction(),
        { m_commands->acknowledge()->action(), m_commands->withdraw()->action(), action(CommandId::CopyLink),
            action(CommandId::CopyMarkdown) });
}

CommandContext MainWindow::commandContext() const
{
    CommandContext c;
    c.key = currentKey();
    c.data = kluster(c.key);
    c.connection = m_session->registry()->connection(c.key.connection);
    c.shown = m_session->isCurrentShown();
    c.selectedFindings = m_views->selectedFindings();
    c.selectedIncidents = m_views->selectedIncidents();
    return c;
}

QStringList MainWindow::repairTargets() const
{
    return m_commands->repair()->targets();
}

QStringList MainWindow::routeRepairTargets() const
{
    return m_commands->repairRoutes()->targets();
}

QLabel *MainWindow::viewsHeader() const
{
    return m_views->header();
}

void MainWindow::openPalette()
{
    auto *palette = new CommandPalette(m_models->klusters(), menuBar(), this);
    connect(palette, &CommandPalette::klusterChosen, this, [this](const KlusterKey &key) {
        selectKluster(key, true);
        m_views->focusCurrent();
    });
    connect(palette, &CommandPalette::viewChosen, this, [this](Tab tab) {
        setTab(tab);
        m_views->focusCurrent();
    });
    presentDialog(palette);
    emit dialogOpened(palette);
}

void MainWindow::startFromSettings(bool demoAvailable)
{
    m_session->registry()->restore();
    if (!m_session->registry()->isEmpty())
        return;
    showStartupMessage(tr("No connection yet. Add one (File → Add connection…, Ctrl+Shift+N): the clouds of "
                          "clouds.yaml and OS_* are offered, or enter a cloud by hand. Or try the built-in "
                          "simulated cloud."),
        demoAvailable);
    QTimer::singleShot(0, this, [this, demoAvailable] { m_connectionCommands->add(nullptr, demoAvailable); });
}

void MainWindow::setStarting(const QString &what)
{
    m_views->setStarting(what);
}

void MainWindow::showStartupMessage(const QString &message, bool demoAvailable)
{
    m_notices->setStartupMessage(message, demoAvailable);
}

void MainWindow::setForceReadOnly(bool readOnly)
{
    m_forceReadOnly = readOnly;
    m_session->registry()->setForceReadOnly(readOnly);
    setWindowTitle(ConsoleText::windowTitle(currentKey(), m_forceReadOnly));
}

void MainWindow::refreshAll()
{
    m_session->refreshes()->refreshAll();
    reloadAudit();
}

void MainWindow::setAutoRefreshMinutes(int minutes)
{
    m_session->refreshes()->setAutoRefreshMinutes(minutes);
    m_autoRefresh->setMinutes(m_session->refreshes()->autoRefreshMinutes());
    updateLiveActions();
}

bool MainWindow::selectKluster(const KlusterKey &key, bool reveal)
{
    if (!(reveal ? m_sidebar->reveal(key) : m_sidebar->select(key)))
        return false;
    if (key == m_wantedKey)
        m_wantedKey = {};
    return true;
}

void MainWindow::showFinding(const KlusterKey &key, const QString &findingId)
{
    m_wantedFinding = findingId;
    if (currentKey() != key) {
        m_wantedKey = key;
        selectKluster(key, true);
    }
    applyWantedFinding();
}

bool MainWindow::openLink(const QString &text, QString *error)
{
    QString why;
    std::optional<KlusterKey> key;
    const std::optional<FlightdeckLink> link = FlightdeckLink::parse(text, &why);
    if (link)
        key = m_session->resolve(*link, &why);
    if (!key) {
        status(tr("Cannot open the link %1: %2").arg(text.left(200), why), 20000);
        if (error)
            *error = why;
        return false;
    }
    if (isMinimized())
        showNormal();
    raise();
    activateWindow();
    if (link->item.isEmpty()) {
        m_wantedKey = *key;
        selectKluster(*key, true);
        setTab(Tab::Overview);
    } else {
        showFinding(*key, link->item);
        setTab(Tab::Findings);
    }
    status(tr("Opened %1").arg(link->toString()), 6000);
    return true;
}

void MainWindow::applyWantedFinding()
{
    if (m_wantedFinding.isEmpty() || !m_session->isCurrentShown()
        || (!m_wantedKey.isNull() && m_wantedKey != currentKey()))
        return;
    if (findingsPage()->selectFindings({ m_wantedFinding }) > 0)
        m_wantedFinding.clear();
}

void MainWindow::onListed(const QString &name)
{
    const KlusterKey own { name, QString() }; // the connection's own row
    if (currentKey().isNull() && m_session->store()->klusters(name).isEmpty()
        && m_sidebar->firstKluster().isValid() && connections().size() == 1)
        selectKluster(own); // the failed connection's own row: its error is what there is to see
    action(CommandId::CancelRefresh)->setEnabled(pendingRefreshes() > 0);
    m_notices->updateBanner();
    if (currentKey() == own)
        showCurrent();
}

void MainWindow::onRefreshed(const KlusterKey &key, const KlusterData &before, bool cancelled)
{
    m_notices->refreshed(key, before, cancelled); // what changed, the banner, the tray
    if (key == m_wantedKey)
        selectKluster(key); // the selection of the last run
    if (key == currentKey()) {
        if (!cancelled && kluster(key) && !kluster(key)->isStale())
            showCurrent();
        else
            m_views->updateCaptions();
    }
    action(CommandId::CancelRefresh)->setEnabled(pendingRefreshes() > 0);
    if (key != currentKey())
        m_models->preparer()->retire(); // no view shows it
    emit klusterUpdated(key);
}

void MainWindow::onRoundDone(const RefreshSummary &summary)
{
    if (currentKey().isNull() && m_sidebar->firstKluster().isValid()) // the worst kluster first
        selectKluster(KlusterSidebar::keyAt(m_sidebar->firstKluster()));
    if (const QString text = ConsoleText::roundDone(summary, QDateTime::currentDateTimeUtc());
        !text.isEmpty())
        status(text);
}

void MainWindow::onConnectionRemoved(const QString &name)
{
    if (currentKey().connection == name)
        m_session->forgetCurrent();
    if (!m_sidebar->firstKluster().isValid())
        sidebarFilter()->clear(); // a filter that now matches nothing would hide the klusters left
    m_models->preparer()->retire();
    updateLiveActions();
    showCurrent();
    m_notices->connectionRemoved(name);
}

void MainWindow::showCurrent()
{
    setWindowTitle(ConsoleText::windowTitle(currentKey(), m_forceReadOnly));
    m_views->showCurrent();
    // The rows are made on a worker thread; only their (incremental) application runs here (onShown).
    m_session->showCurrent();
}

void MainWindow::onShown(const KlusterKey &key)
{
    if (key != currentKey())
        return;
    m_views->shown(key);
    m_notices->updateBanner();
    updateActions();
    applyWantedFinding();
    emit viewsShown(key);
}

void MainWindow::updateActions()
{
    const CommandContext c = commandContext();
    m_commands->update({ c, m_session->registry()->anyLive(), pendingRefreshes() > 0 });
    // Each page's Repair button: how many of its selected findings can be repaired.
    const bool readOnly = !c.connection || c.connection->isReadOnly();
    for (TablePage *p : m_views->klusterPages()) {
        const QStringList incidents
            = p == findingsPage() ? findingsPage()->selectedIncidents() : QStringList();
        const qsizetype count = c.data && c.data->diagnosis && c.shown
            ? RepairCommand::targetsOf(*c.data->diagnosis, p->selectedFindings(), incidents).size()
            : 0;
        p->setRepairable(int(count), readOnly, incidents.isEmpty() ? QString() : tr("Repair the incident…"));
    }
}

void MainWindow::updateLiveActions()
{
    // Snapshots are what they are: nothing to refresh.
    const bool live = m_session->registry()->anyLive();
    QAction *refresh = action(CommandId::Refresh);
    refresh->setEnabled(live);
    m_autoRefresh->setLive(live);
    m_session->refreshes()->connectionsChanged();
    refresh->setToolTip(live ? tr("Fetch every kluster again (F5)")
            : m_session->registry()->isEmpty()
            ? tr("Add a connection first (File → Add connection…)")
            : tr("Snapshots are opened offline: there is nothing to refresh"));
}

void MainWindow::reloadAudit()
{
    QString error;
    if (!auditPage()->reload(&error) || !error.isEmpty())
        status(tr("The audit log could not be read: %1").arg(error), 10000);
}

void MainWindow::showShortcuts()
{
    auto *dialog = HelpDialogs::shortcuts(this);
    dialog->open();
    emit dialogOpened(dialog);
}

void MainWindow::showAbout()
{
    auto *dialog = HelpDialogs::about(this);
    dialog->open();
    emit dialogOpened(dialog);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    Settings::windowGeometry().setValue(saveGeometry());
    Settings::windowState().setValue(saveState());
    Settings::splitState().setValue(m_split->saveState());
    m_views->saveHeaders();
    QMainWindow::closeEvent(event);
}
