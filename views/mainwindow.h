#pragma once

#include "models/findingsmodel.h"
#include "models/klusterstore.h"
#include "models/nodesmodel.h"
#include "models/routesmodel.h"
#include "models/securitymodel.h"
#include "services/auditlog.h"
#include "services/connection.h"
#include "services/historyrecorder.h"
#include "views/connectiondialog.h"

#include <QHash>
#include <QMainWindow>
#include <QSet>
#include <memory>

class AuditModel;
class KlustersModel;
class MessageBanner;
class Notifier;
class OverviewPage;
class QAction;
class QActionGroup;
class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QSplitter;
class QTabWidget;
class FleetView;
class QThread;
class QThreadPool;
class QTimer;
class QToolButton;
class QTreeView;
class TablePage;

// The console: a sidebar of klusters across connections (worst on top, with
// counts; connections that fail are listed with their error), and for the
// selected kluster the overview, findings, nodes, routes, security group and
// audit log views; refresh (F5, and on an interval) that never freezes the
// window, keeps the last good data when it fails and says so in a banner;
// guided repairs from whatever view is open; connections to manage; exports;
// desktop notifications and a tray icon while it watches.
class ChangesPage;

class MainWindow : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    enum Tab
    {
        OverviewTab,
        FindingsTab,
        NodesTab,
        RoutesTab,
        SecurityTab,
        AuditTab,
        FleetTab,
        ChangesTab
    };

    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // The application's icon: the desktop theme's when installed, else the one built in.
    static QIcon applicationIcon();

    // Adds a connection and lists its klusters; `remember`: keep it between runs.
    Connection *addConnection(const ConnectionSpec &spec, bool remember);
    QList<Connection *> connections() const { return m_connections; }
    Connection *connection(const QString &name) const;
    bool isRemembered(const QString &name) const;
    // How the connection stands, in words ("3 klusters", "signing in…", "failed: …").
    QString connectionStatus(const QString &name) const;
    void restoreConnections();
    // How `flightdeck` starts without options: the remembered connections, or on a fresh desktop the
    // first-run message and the Add connection dialog.
    void startFromSettings(bool demoAvailable);
    // Shown (with "Add connection…" and, when `demoAvailable`, "Open the demo cloud") until a connection is
    // added.
    void showStartupMessage(const QString &message, bool demoAvailable = false);

    // The data shown for one kluster.
    const KlusterData *kluster(const KlusterKey &key) const { return m_store->data(key); }
    KlusterKey currentKey() const { return m_current; }
    bool selectKluster(const KlusterKey &key);
    // The first kluster of the sidebar's first group (the worst, sorted worst first); invalid when none.
    QModelIndex firstSidebarKluster() const;
    // Selects the kluster and, once its views show it, the finding (in every view).
    void showFinding(const KlusterKey &key, const QString &findingId);
    void setTab(Tab tab);
    Tab currentTab() const;

    // For tests and --screenshot: the views.
    TablePage *findingsPage() const { return m_findingsPage; }
    HistoryRecorder *historyRecorder() const { return m_history; } // lives on a thread of its own
    TablePage *nodesPage() const { return m_nodesPage; }
    TablePage *routesPage() const { return m_routesPage; }
    TablePage *securityPage() const { return m_securityPage; }
    TablePage *auditPage() const { return m_auditPage; }
    TablePage *page(Tab tab) const;
    OverviewPage *overviewPage() const { return m_overview; }
    ChangesPage *changesPage() const { return m_changes; }
    QTreeView *sidebar() const { return m_sidebar; }
    QLineEdit *sidebarFilter() const { return m_sidebarFilter; }
    QComboBox *routeScope() const { return m_routeScope; }
    MessageBanner *banner() const { return m_banner; }
    QString bannerText() const;
    bool isBannerVisible() const;
    QAction *repairAction() const { return m_repairAction; }
    QAction *repairRoutesAction() const { return m_repairRoutesAction; }
    QAction *refreshAction() const { return m_refreshAction; }
    Notifier *notifier() const { return m_notifier; }
    int pendingRefreshes() const { return m_store->pending(); }
    bool isSettled() const
    {
        return m_preparing == 0 && pendingRefreshes() == 0;
    } // nothing asked for is still under way
    // The findings Repair acts on now: those of the current view's selection that can be repaired.
    QStringList repairTargets() const;
    QStringList routeRepairTargets() const; // every route finding of the router with a repair

    void refreshAll();
    void addConnectionInteractively(QWidget *parent = nullptr);
    void editConnectionInteractively(const QString &name, QWidget *parent = nullptr);
    void openConnectionsManager();
    // Removes the connection, its klusters and (when `forgetSecret`) its keychain entry.
    void removeConnection(const QString &name, bool forgetSecret = true);
    // Signs in with `spec` and lists its klusters, off the GUI thread; `done` is called on `context`'s
    // thread.
    void testConnection(const ConnectionSpec &spec, QObject *context, const ConnectionDialog::TestDone &done);
    void cancelRefreshes();
    void setAutoRefreshMinutes(int minutes); // 0: off
    // A refresh every `milliseconds` (the soak test's pace; people choose minutes).
    void setAutoRefreshMilliseconds(int milliseconds);
    int autoRefreshMinutes() const { return m_autoRefreshMinutes; }
    // Every connection read-only, whatever it says (`flightdeck --read-only`); before adding connections.
    void setForceReadOnly(bool readOnly);
    void showShortcuts();
    void showAbout();

signals:
    // Every refresh asked for has come back (success or not), and the views show it.
    void refreshesSettled();
    // The views show the data of kluster `key` (after a selection or a refresh).
    void viewsShown(const KlusterKey &key);
    void klusterUpdated(const KlusterKey &key);
    void repairDialogOpened(QDialog *dialog);
    void dialogOpened(QDialog *dialog); // any dialog of the console, when opened
    void connectionsChanged();
    void demoRequested(); // "Open the demo cloud" in the first-run banner

protected:
    void closeEvent(QCloseEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void buildPages();
    void buildSidebar();
    void buildActions();
    void placeOnScreen();
    void onRefreshed(const RefreshResult &result);
    void onNodesChanged(const RefreshResult &result);
    void onListed(Connection *connection, const QStringList &klusters, const Error &error);
    void showCurrent();
    void requestTrend(); // the Overview's trends of the kluster shown, from the history
    void requestChanges(); // the Changes view's comparison, when it is shown
    void updateBanner();
    void updateCaptions();
    void updateLiveActions();
    void updateTray();
    void notifyChanges(const KlusterKey &key, const KlusterData &before, const KlusterData &after);
    void syncSelection();
    void openRepair(const QStringList &findingIds);
    void updateRepairAction();
    void stepFinding(int delta);
    void focusFilter();
    void reloadAudit();
    void exportSnapshot();
    void exportReport();
    void exportAudit();
    void openSnapshotInteractively();
    void openDialog(QDialog *dialog);
    Connection *connectionOf(const KlusterKey &key) const { return connection(key.connection); }
    QString detailsHtml(Tab tab, const QModelIndexList &rows) const;
    // nexthop address -> "kluster <name> (instance <name>)" for the other klusters on `mine`'s router.
    static QHash<QString, QString> foreignOwners(
        const KlusterState &mine, const QList<std::shared_ptr<const KlusterFetch>> &others);
    struct PreparedViews
    {
        FindingsModel::Prepared findings;
        NodesModel::Prepared nodes;
        RoutesModel::Prepared routes;
        SecurityModel::Prepared security;
    };
    void applyPrepared(const std::shared_ptr<const PreparedViews> &views, int generation);
    void runNextStep();
    void nextStepSoon();
    void dropSteps(); // the steps left, and what they apply handed over to be freed
    void settleIfIdle();
    void retire();
    void saveConnections();
    void remember(const ConnectionSpec &spec); // between runs, without its secret
    void storeSecret(const ConnectionSpec &spec, const QString &secret); // in the keychain (none: nothing)
    void applyWantedFinding();

    QThread *m_network;
    // The local history (SQLite) is written and read on a thread of its own.
    QThread *m_historyThread;
    HistoryRecorder *m_history;
    QHash<QString, FindingsHistory> m_findingsHistory; // by console kluster, as of its last recorded refresh
    ChangesPage *m_changes;
    qint64 m_changesBefore = 0; // the moments compared (0: the default)
    qint64 m_changesAfter = 0;
    QThreadPool *m_workers;
    QList<Connection *> m_connections;
    QList<ConnectionSpec> m_remembered;
    KlusterStore *m_store;
    KlusterKey m_current;
    KlusterKey m_wantedKey; // the selection to restore once its kluster is listed
    QSet<QString> m_collapsedGroups; // the sidebar's groups (connections) the engineer closed
    QString m_wantedFinding; // the finding to select once m_wantedKey's views show it
    QString m_startupMessage;
    QString m_notice; // a warning that stays until dismissed (a secret kept for this session only)
    bool m_demoAvailable = false;

    KlustersModel *m_klusters;
    FindingsModel *m_findings;
    NodesModel *m_nodes;
    RoutesModel *m_routes;
    SecurityModel *m_security;
    AuditModel *m_audit;
    AuditLog::Reader m_auditReader; // the log read so far: a reload parses only what was appended

    QWidget *m_sidebarPanel;
    QLineEdit *m_sidebarFilter;
    QTreeView *m_sidebar;
    QSplitter *m_split;
    MessageBanner *m_banner;
    QLabel *m_header;
    QTabWidget *m_tabs;
    OverviewPage *m_overview;
    TablePage *m_findingsPage;
    TablePage *m_nodesPage;
    TablePage *m_routesPage;
    TablePage *m_securityPage;
    TablePage *m_auditPage;
    FleetView *m_fleet;
    QComboBox *m_severity;
    QComboBox *m_routeScope;
    QToolButton *m_intervalButton;
    QMenu *m_intervalMenu;
    QActionGroup *m_intervalGroup;
    QTimer *m_autoRefresh;
    QTimer *m_ageTicker;
    Notifier *m_notifier;
    int m_autoRefreshMinutes = 0;

    QAction *m_refreshAction = nullptr;
    QAction *m_cancelAction = nullptr;
    QAction *m_repairAction = nullptr;
    QAction *m_repairRoutesAction = nullptr;
    QAction *m_findAction = nullptr;
    QAction *m_nextAction = nullptr;
    QAction *m_previousAction = nullptr;
    QAction *m_sidebarAction = nullptr;
    QAction *m_addAction = nullptr;
    QAction *m_demoAction = nullptr;
    QAction *m_manageAction = nullptr;
    QAction *m_notifyAction = nullptr;
    QAction *m_trayAction = nullptr;
    QStringList m_cancelled; // klusters whose refresh was cancelled, since the last settle
    KlusterKey m_shownKey; // the kluster the views show (m_current, once its rows are applied)
    bool m_forceReadOnly = false;
    int m_showGeneration = 0;
    int m_preparing = 0;
    bool m_settleWanted = false;
    QList<std::function<void()>> m_steps; // the model updates still to apply, one per event-loop turn
    int m_stepsGeneration = 0;
    std::shared_ptr<const PreparedViews> m_stepsViews; // what the steps apply
};
