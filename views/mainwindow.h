#pragma once

#include "connection.h"
#include "findingsmodel.h"
#include "nodesmodel.h"
#include "routesmodel.h"
#include "securitymodel.h"

#include <QDateTime>
#include <QHash>
#include <QMainWindow>

#include <memory>

class AuditModel;
class FindingsPage;
class KlustersModel;
class OverviewPage;
class QAction;
class QComboBox;
class QLabel;
class QTabWidget;
class QTableView;
class QThread;
class QThreadPool;
class QTimer;
class QToolButton;
class TablePage;

// The console: a sidebar of klusters across connections (worst severity and
// counts), and for the selected one the overview, findings, nodes, routes,
// security group and audit log views; refresh (F5, and on an interval) that
// never freezes the window, keeps the last good data when it fails and says
// so in a banner; guided repairs; exports.
class MainWindow : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    enum Tab { OverviewTab, FindingsTab, NodesTab, RoutesTab, SecurityTab, AuditTab };

    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Adds a connection and lists its klusters; `remember`: keep it between runs.
    Connection *addConnection(const ConnectionSpec &spec, bool remember);
    QList<Connection *> connections() const { return m_connections; }
    void restoreConnections();
    void showStartupMessage(const QString &message);  // shown until a kluster is selected

    // The data shown for one kluster ("<connection>/<kluster>").
    struct KlusterData
    {
        std::shared_ptr<const KlusterFetch> fetch;
        std::shared_ptr<const Diagnosis> diagnosis;
        QDateTime fetchedAt;
        QString error;          // the last refresh failed (fetch is then the last good one), or partly failed
        QDateTime errorAt;
        qint64 elapsedMs = 0;
    };
    const KlusterData *kluster(const QString &key) const;
    QString currentKey() const { return m_current; }
    bool selectKluster(const QString &key);
    void setTab(Tab tab);

    // For tests and --screenshot: the views.
    FindingsPage *findingsPage() const { return m_findingsPage; }
    TablePage *nodesPage() const { return m_nodesPage; }
    TablePage *routesPage() const { return m_routesPage; }
    TablePage *securityPage() const { return m_securityPage; }
    TablePage *auditPage() const { return m_auditPage; }
    OverviewPage *overviewPage() const { return m_overview; }
    QTableView *sidebar() const { return m_sidebar; }
    QString bannerText() const;
    bool isBannerVisible() const;
    QAction *repairAction() const { return m_repairAction; }
    int pendingRefreshes() const;

    void refreshAll();
    void addConnectionInteractively();  // the Add connection dialog, non-modal to the event loop
    void cancelRefreshes();
    void setAutoRefreshMinutes(int minutes);  // 0: off
    // Every connection read-only, whatever it says (`flightdeck --read-only`); before adding connections.
    void setForceReadOnly(bool readOnly);

signals:
    // Every refresh asked for has come back (success or not), and the views show it.
    void refreshesSettled();
    // The views show the data of kluster `key` (after a selection or a refresh).
    void viewsShown(const QString &key);
    void klusterUpdated(const QString &key);
    void repairDialogOpened(QDialog *dialog);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void buildActions();
    void onRefreshed(const RefreshResult &result);
    void showCurrent();
    void updateBanner();
    void updateCaptions();
    void syncSelection(const QStringList &findingIds);
    void openRepair(const QStringList &findingIds);
    void updateRepairAction();
    void reloadAudit();
    void exportSnapshot();
    void exportReport();
    void exportAudit();
    void openSnapshotInteractively();
    void removeCurrentConnection();
    Connection *connectionOf(const QString &key) const;
    // nexthop address -> "kluster <name> (instance <name>)" for the other klusters on `mine`'s router.
    static QHash<QString, QString> foreignOwners(const KlusterState &mine, const QList<std::shared_ptr<const KlusterFetch>> &others);
    struct PreparedViews
    {
        FindingsModel::Prepared findings;
        NodesModel::Prepared nodes;
        RoutesModel::Prepared routes;
        SecurityModel::Prepared security;
    };
    void applyPrepared(const std::shared_ptr<const PreparedViews> &views, int generation);
    void runNextStep();
    void settleIfIdle();
    void retire();
    void saveConnections();

    QThread *m_network;
    QThreadPool *m_workers;
    QList<Connection *> m_connections;
    QList<ConnectionSpec> m_remembered;
    QHash<QString, KlusterData> m_data;
    QString m_current;
    QString m_wantedKey;  // the selection to restore once its kluster is listed
    QString m_startupMessage;

    KlustersModel *m_klusters;
    FindingsModel *m_findings;
    NodesModel *m_nodes;
    RoutesModel *m_routes;
    SecurityModel *m_security;
    AuditModel *m_audit;

    QTableView *m_sidebar;
    QLabel *m_banner;
    QLabel *m_header;
    QTabWidget *m_tabs;
    OverviewPage *m_overview;
    FindingsPage *m_findingsPage;
    TablePage *m_nodesPage;
    TablePage *m_routesPage;
    TablePage *m_securityPage;
    TablePage *m_auditPage;
    QComboBox *m_interval;
    QTimer *m_autoRefresh;
    QTimer *m_ageTicker;

    QAction *m_refreshAction = nullptr;
    QAction *m_cancelAction = nullptr;
    QAction *m_repairAction = nullptr;
    QAction *m_findAction = nullptr;
    QAction *m_nextAction = nullptr;
    QAction *m_previousAction = nullptr;
    QSet<Connection *> m_listing;  // connections whose kluster list is being fetched
    QString m_shownKey;            // the kluster the views show (m_current, once its rows are applied)
    bool m_forceReadOnly = false;
    int m_showGeneration = 0;
    int m_preparing = 0;
    bool m_settleWanted = false;
    QList<std::function<void()>> m_steps;  // the model updates still to apply, one per event-loop turn
    int m_stepsGeneration = 0;
    QList<std::shared_ptr<const void>> m_retired;  // replaced data, freed off the GUI thread
};
