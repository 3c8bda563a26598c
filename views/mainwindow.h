#pragma once

#include "console/connectionregistry.h"
#include "console/consolesession.h"
#include "console/historyclient.h"
#include "console/klusterstore.h"
#include "console/refreshcoordinator.h"
#include "views/klustersidebar.h"
#include "views/klusterviews.h"
#include "views/messagebanner.h"
#include "views/repaircommand.h"
#include "views/routespage.h"
#include "views/tabs.h"
#include "views/windowcommands.h"
#include "views/windownotices.h"

#include <QMainWindow>
#include <QStatusBar>

class AuditPage;
class AutoRefreshMenu;
class ChangesPage;
class ConsoleModels;
class AcknowledgeCommand;
class CopyLinkCommand;
class CopyMarkdownCommand;
class ProtectKlusterCommand;
class Command;
class ConnectionCommands;
class FindingsPage;
class HistoryRecorder;
class Notifier;
class OverviewPage;
class QComboBox;
class QLabel;
class QLineEdit;
class QSplitter;
class QTimer;
class QTreeView;
class TablePage;
struct CommandContext;
struct RefreshSummary;

// The console's window: it arranges the kluster sidebar, the banner and the views of the kluster shown
// (KlusterViews), builds the menus and the toolbar from the commands' and its own actions, and keeps its
// geometry. What it shows comes from the session below it (ConsoleSession: the connections, the refreshes,
// the history, the views' rows made off this thread) and what it says, from ConsoleText. Repairs, exports and
// connections are commands.
class MainWindow : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    // The window of `session` (the application's, app/gui/consoleapp.h), which outlives it.
    explicit MainWindow(ConsoleSession *session, QWidget *parent = nullptr);
    // With a session of its own (tests that drive widgets, a window alone).
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // The application's icon: the desktop theme's when installed, else the one built in.
    static QIcon applicationIcon();
    ConsoleSession *session() const { return m_session; }
    ConsoleModels *models() const { return m_models; }

    // Adds a connection and lists its klusters; `remember`: keep it between runs.
    Connection *addConnection(const ConnectionSpec &spec, bool remember)
    {
        return m_session->registry()->add(spec, remember);
    }
    QList<Connection *> connections() const { return m_session->registry()->connections(); }
    // How `flightdeck` starts without options: the remembered connections, or on a fresh desktop the
    // first-run message and the Add connection dialog.
    void startFromSettings(bool demoAvailable);
    // Shown (with "Add connection…" and, when `demoAvailable`, "Open the demo cloud") until a connection is
    // added.
    void showStartupMessage(const QString &message, bool demoAvailable = false);
    // What is under way before the first connection (the demo cloud starting): the views say it.
    void setStarting(const QString &what);
    // Every connection read-only, whatever it says (`flightdeck --read-only`); before adding connections.
    void setForceReadOnly(bool readOnly);

    const KlusterData *kluster(const KlusterKey &key) const { return m_session->store()->data(key); }
    KlusterKey currentKey() const { return m_session->current(); }
    // `reveal`: asked for from elsewhere (a notification, the fleet): a filter that hides it gives way.
    bool selectKluster(const KlusterKey &key, bool reveal = false);
    // Selects the kluster and, once its views show it, the finding (in every view).
    void showFinding(const KlusterKey &key, const QString &findingId);
    // Opens a flightdeck:// link (core/flightdecklink.h): its kluster, and its finding or incident selected
    // once shown; the window raised. False, said in the status bar and `error`, when it cannot.
    bool openLink(const QString &link, QString *error = nullptr);
    void setTab(Tab tab) { m_views->setTab(tab); }
    Tab currentTab() const { return m_views->currentTab(); }

    // The views, for tests and --screenshot.
    TablePage *page(Tab tab) const
    {
        return m_views->page(tab);
    } // a kluster's table, or the audit log's; null for the others
    FindingsPage *findingsPage() const { return m_views->findingsPage(); }
    TablePage *nodesPage() const { return page(Tab::Nodes); }
    RoutesPage *routesPage() const { return m_views->routesPage(); }
    TablePage *securityPage() const { return page(Tab::Security); }
    AuditPage *auditPage() const { return m_views->auditPage(); }
    OverviewPage *overviewPage() const { return m_views->overviewPage(); }
    QLabel *viewsHeader() const; // the heading over the views (where, how old, or why not)
    ChangesPage *changesPage() const { return m_views->changesPage(); }
    QTreeView *sidebar() const { return m_sidebar->view(); }
    QLineEdit *sidebarFilter() const { return m_sidebar->filterBox(); }
    QLabel *sidebarNoMatch() const { return m_sidebar->noMatch(); }
    QComboBox *routeScope() const { return m_views->routesPage()->scopeChoice(); }
    MessageBanner *banner() const { return m_notices->banner(); }
    QString bannerText() const { return banner()->text(); }
    bool isBannerVisible() const { return banner()->isShown(); }
    WindowCommands *commands() const { return m_commands; }
    QAction *action(CommandId id) const { return m_commands->action(id); }
    QAction *repairAction() const { return action(CommandId::Repair); }
    QAction *repairRoutesAction() const { return action(CommandId::RepairRoutes); }
    AcknowledgeCommand *acknowledgeCommand() const { return m_commands->acknowledge(); }
    AcknowledgeCommand *withdrawCommand() const { return m_commands->withdraw(); }
    CopyLinkCommand *copyLinkCommand() const { return m_commands->copyLink(); }
    CopyMarkdownCommand *copyMarkdownCommand() const { return m_commands->copyMarkdown(); }
    ProtectKlusterCommand *protectCommand() const { return m_commands->protect(); }
    QAction *refreshAction() const { return action(CommandId::Refresh); }
    Notifier *notifier() const { return m_notices->notifier(); }
    HistoryRecorder *historyRecorder() const
    {
        return m_session->history()->recorder();
    } // lives on a thread of its own
    QStringList repairTargets() const; // the findings Repair acts on now
    QStringList routeRepairTargets() const; // every route finding of the router with a repair

    int pendingRefreshes() const { return m_session->refreshes()->pending(); }
    bool isSettled() const
    {
        return m_session->refreshes()->isSettled();
    } // nothing asked for is still under way
    void refreshAll();
    void cancelRefreshes() { m_session->refreshes()->cancelAll(); }
    void setAutoRefreshMinutes(int minutes); // 0: off
    void setAutoRefreshMilliseconds(int milliseconds)
    {
        m_session->refreshes()->setAutoRefreshMilliseconds(milliseconds);
    } // the soak test's pace; people choose minutes
    void showShortcuts();
    void openPalette(); // ":": a kluster, a view or an action by a few letters
    void showAbout();

signals:
    // Every refresh asked for has come back (success or not), and the views show it.
    void refreshesSettled();
    // The views show the data of kluster `key` (after a selection or a refresh).
    void viewsShown(const KlusterKey &key);
    void klusterUpdated(const KlusterKey &key);
    void repairDialogOpened(QDialog *dialog);
    void dialogOpened(QDialog *dialog); // any dialog of the console, when opened
    void demoRequested(); // "Open the demo cloud" in the first-run banner

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void followSession();
    void buildCommands();
    void placeOnScreen();
    CommandContext commandContext() const;
    void onListed(const QString &connection);
    void onRefreshed(const KlusterKey &key, const KlusterData &before, bool cancelled);
    void onRoundDone(const RefreshSummary &summary);
    void onConnectionRemoved(const QString &name);
    void showCurrent();
    void onShown(const KlusterKey &key);
    void updateActions();
    void updateLiveActions();
    void reloadAudit();
    void applyWantedFinding();
    void status(const QString &text, int milliseconds = 0) { statusBar()->showMessage(text, milliseconds); }

    ConsoleSession *m_session;
    ConsoleModels *m_models; // what the views show, over the session
    KlusterSidebar *m_sidebar;
    KlusterViews *m_views;
    QSplitter *m_split;
    AutoRefreshMenu *m_autoRefresh;
    WindowNotices *m_notices; // the banner, the tray, the desktop's notifications
    ConnectionCommands *m_connectionCommands;
    WindowCommands *m_commands = nullptr; // every command, placed in the menus and toolbar

    KlusterKey m_wantedKey; // the selection to restore once its kluster is listed
    QString m_wantedFinding; // the finding to select once m_wantedKey's views show it
    bool m_forceReadOnly = false;
};
