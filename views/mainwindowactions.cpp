// The window's commands, menus and toolbar (MainWindow's second file): each command made over the session and
// the window's context, and arranged in the File, View, Kluster and Help menus, the toolbar, the rows'
// context menus and the command palette.
#include "console/consoletext.h"
#include "console/historyclient.h"
#include "console/refreshcoordinator.h"
#include "console/viewpreparer.h"
#include "models/klustersmodel.h"
#include "services/settings.h"
#include "views/acknowledgecommand.h"
#include "views/auditpage.h"
#include "views/autorefreshmenu.h"
#include "views/commandpalette.h"
#include "views/connectioncommands.h"
#include "views/exportcommands.h"
#include "views/findingspage.h"
#include "views/helpdialogs.h"
#include "views/icons.h"
#include "views/klustersidebar.h"
#include "views/klusterviews.h"
#include "views/mainwindow.h"
#include "views/messagebanner.h"
#include "views/notifier.h"
#include "views/overviewpage.h"
#include "views/repaircommand.h"
#include "views/routespage.h"
#include "views/severitystyle.h"
#include "views/teamcommands.h"

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

void MainWindow::addCommand(Command *command)
{
    m_commands << command;
    connect(command, &Command::dialogOpened, this, &MainWindow::dialogOpened);
    connect(command, &Command::message, this, &MainWindow::status);
}

void MainWindow::buildCommands()
{
    const auto context = [this] { return commandContext(); };
    for (const auto scope : { RepairCommand::Scope::Selected, RepairCommand::Scope::RouterRoutes }) {
        auto *r = new RepairCommand(scope, context, m_session, this, this);
        (scope == RepairCommand::Scope::Selected ? m_repair : m_repairRoutes) = r;
        addCommand(r);
        connect(r, &RepairCommand::repairDialogOpened, this, &MainWindow::repairDialogOpened);
        if (scope == RepairCommand::Scope::Selected) // the Overview's Repair of an incident
            connect(
                overviewPage(), &OverviewPage::incidentRepairRequested, r, &RepairCommand::repairIncident);
        connect(
            r, &RepairCommand::repairsFinished, this, [this](const KlusterKey &key, int fixed, int total) {
                reloadAudit();
                m_cancelAction->setEnabled(true);
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
    }
    m_openSnapshot = new OpenSnapshotCommand(m_session->registry(), this, this);
    m_saveSnapshot = new ExportSnapshotCommand(context, this, this);
    m_report = new ExportReportCommand(context, m_session->history(), this, this);
    m_exportAudit = new ExportAuditCommand(m_views->auditPage()->view()->model(), this, this);
    for (Command *c : { m_openSnapshot, m_saveSnapshot, m_report, m_exportAudit })
        addCommand(c);
    connect(m_connectionCommands, &ConnectionCommands::dialogOpened, this, &MainWindow::dialogOpened);
    connect(m_connectionCommands, &ConnectionCommands::message, this, &MainWindow::status);
    m_acknowledge = new AcknowledgeCommand(AcknowledgeCommand::Scope::Acknowledge, context,
        m_session->store(), m_session->history(), this, this);
    m_withdraw = new AcknowledgeCommand(
        AcknowledgeCommand::Scope::Withdraw, context, m_session->store(), m_session->history(), this, this);
    for (Command *c : { static_cast<Command *>(m_acknowledge), static_cast<Command *>(m_withdraw) })
        addCommand(c);
    m_copyLink = new CopyLinkCommand(context, m_session, this);
    m_copyMarkdown = new CopyMarkdownCommand(context, m_session, this);
    m_protect = new ProtectKlusterCommand(context, m_session, this);
    for (Command *c : std::initializer_list<Command *> { m_copyLink, m_copyMarkdown, m_protect })
        addCommand(c);
    m_views->setRowActions(m_repair->action(), m_repairRoutes->action(),
        { m_acknowledge->action(), m_withdraw->action(), m_copyLink->action(), m_copyMarkdown->action() });
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QMenu *view = menuBar()->addMenu(tr("&View"));
    QMenu *klusterMenu = menuBar()->addMenu(tr("&Kluster"));
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QToolBar *bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_demoAction = new QAction(tr("Open the &demo cloud"), this);
    m_demoAction->setStatusTip(
        tr("The built-in simulated cloud: every failure Flightdeck knows, to try it safely"));
    connect(m_demoAction, &QAction::triggered, this, &MainWindow::demoRequested);
    connect(m_connectionCommands, &ConnectionCommands::demoRequested, this, &MainWindow::demoRequested);
    file->addActions({ m_connectionCommands->addAction(), m_connectionCommands->manageAction(),
        m_openSnapshot->action(), m_demoAction });
    file->addSeparator();
    file->addActions({ m_saveSnapshot->action(), m_report->action(), m_exportAudit->action() });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence(tr("Ctrl+Q")), this, &QWidget::close);

    const auto action = [this](const QString &icon, const QString &text, const QKeySequence &key,
                            const QString &tip, const std::function<void()> &run) {
        auto *a = icon.isEmpty() ? new QAction(text, this) : new QAction(Icons::named(icon), text, this);
        a->setShortcut(key);
        a->setToolTip(tip);
        connect(a, &QAction::triggered, this, run);
        return a;
    };
    m_refreshAction = action(
        QStringLiteral("action-refresh"), tr("&Refresh"), Qt::Key_F5, QString(), [this] { refreshAll(); });
    m_refreshAction->setShortcuts({ QKeySequence(Qt::Key_F5), QKeySequence(tr("Ctrl+Shift+R")) });
    m_cancelAction = action(QStringLiteral("action-stop"), tr("&Cancel refresh"),
        QKeySequence(Qt::CTRL | Qt::Key_Period),
        tr("Cancel the refreshes in flight; the data shown stays (Ctrl+.)"), [this] { cancelRefreshes(); });
    m_cancelAction->setEnabled(false);
    QAction *find = action(QString(), tr("&Filter the view…"), QKeySequence(tr("Ctrl+F")), QString(),
        [this] { m_views->focusFilter(); });
    // "/" as in k9s, less and vim; a text box that has the focus types it instead.
    find->setShortcuts({ QKeySequence(tr("Ctrl+F")), QKeySequence(Qt::Key_Slash) });
    QAction *next = action(QStringLiteral("action-next"), tr("&Next finding"), Qt::Key_F8,
        tr("Select the next row with a finding in this view (F8)"), [this] { m_views->stepFinding(1); });
    QAction *previous = action(QStringLiteral("action-previous"), tr("Pre&vious finding"),
        QKeySequence(Qt::SHIFT | Qt::Key_F8),
        tr("Select the previous row with a finding in this view (Shift+F8)"),
        [this] { m_views->stepFinding(-1); });
    m_nextFinding = next;
    m_previousFinding = previous;
    next->setEnabled(false); // until a kluster with a finding is shown
    previous->setEnabled(false);
    QAction *sidebarAction = view->addAction(tr("&Kluster list"));
    QAction *focusKlusters = action(QString(), tr("Go to the &kluster list"), QKeySequence(tr("Ctrl+K")),
        QString(), [this, sidebarAction] {
            m_sidebar->setVisible(true);
            sidebarAction->setChecked(true);
            m_sidebar->focusList(Qt::ShortcutFocusReason);
        });
    klusterMenu->addActions({ m_refreshAction, m_cancelAction });
    klusterMenu->addMenu(m_autoRefresh->menu());
    klusterMenu->addSeparator();
    klusterMenu->addActions({ next, previous, m_repair->action(), m_repairRoutes->action(),
        m_acknowledge->action(), m_withdraw->action(), find, focusKlusters });
    klusterMenu->addSeparator();
    klusterMenu->addActions({ m_copyLink->action(), m_copyMarkdown->action(), m_protect->action() });
    addAction(focusKlusters);
    bar->addActions({ m_refreshAction, m_cancelAction });
    bar->addSeparator();
    bar->addActions({ previous, next, m_repair->action() });
    bar->addSeparator();
    // Auto-refresh: a menu of intervals, on the toolbar and in the Kluster menu.
    connect(m_autoRefresh, &AutoRefreshMenu::chosen, this, [this](int minutes) {
        Settings::refreshMinutes().setValue(minutes);
        setAutoRefreshMinutes(minutes);
    });
    bar->addWidget(m_autoRefresh->button());

    sidebarAction->setCheckable(true);
    sidebarAction->setChecked(true);
    sidebarAction->setShortcut(QKeySequence(Qt::Key_F9));
    connect(sidebarAction, &QAction::toggled, this, [this](bool on) {
        m_sidebar->setVisible(on);
        if (!on && sidebar()->hasFocus())
            m_views->tabs()->currentWidget()->setFocus();
    });
    // ":" as in k9s and vim, Ctrl+Shift+P as in an editor: any kluster, view or action by a few letters.
    QAction *palette = action(QString(), tr("&Go to…"), QKeySequence(Qt::Key_Colon),
        tr("A kluster, a view or an action, by a few of its letters (:)"), [this] { openPalette(); });
    palette->setShortcuts({ QKeySequence(Qt::Key_Colon), QKeySequence(tr("Ctrl+Shift+P")) });
    view->addAction(palette);
    view->addSeparator();
    for (const TabInfo &t : Tabs::all()) {
        QAction *a = view->addAction(Tabs::title(t.tab), this, [this, tab = t.tab] { setTab(tab); });
        a->setShortcut(Tabs::shortcut(t.tab));
    }
    view->addSeparator();
    view->addAction(findingsPage()->groupAction());
    view->addActions({ m_notifier->notificationsAction(), m_notifier->trayAction() });
    connect(m_notifier, &Notifier::trayWantedChanged, this, &MainWindow::updateTray);
    QAction *shortcuts = help->addAction(tr("&Keyboard shortcuts"), this, &MainWindow::showShortcuts);
    shortcuts->setShortcuts({ QKeySequence(Qt::Key_F1), QKeySequence(Qt::Key_Question) });
    help->addAction(tr("&About Flightdeck"), this, &MainWindow::showAbout);
}

QLabel *MainWindow::viewsHeader() const
{
    return m_views->header();
}

void MainWindow::openPalette()
{
    auto *palette = new CommandPalette(m_session->klusters(), menuBar(), this);
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
