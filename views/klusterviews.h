#pragma once

#include "console/rowcopies.h"
#include "core/klusterkey.h"
#include "views/tabs.h"

#include <QWidget>

class AuditPage;
class ChangesPage;
class ConsoleModels;
class ConsoleSession;
class FindingsPage;
class FleetPage;
class OverviewPage;
class QLabel;
class QTabWidget;
class RoutesPage;
class TablePage;

// The views of the kluster shown (Dolphin's view container): the header over them (where, and how old or why
// stale), and a tab per view of the table in views/tabs.h: the overview with its trends, the findings, nodes,
// routes and security group tables, the audit log, the fleet, and what changed, each page made as its tab
// describes it (views/tabs.cpp). Each table page configures itself; this container shows the session's
// current kluster in all of them, keeps the selections in step (findings selected select the rows they are
// about), and steps and filters whichever table is open.
class KlusterViews : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(KlusterViews)

public:
    explicit KlusterViews(ConsoleModels *models, QWidget *parent = nullptr);

    Tab currentTab() const;
    void setTab(Tab tab);
    QTabWidget *tabs() const { return m_tabs; }
    TablePage *page(Tab tab) const; // a kluster's table, or the audit log's; null for the others
    const QList<TablePage *> &klusterPages() const
    {
        return m_klusterPages;
    } // findings, nodes, routes, security
    FindingsPage *findingsPage() const { return m_findingsPage; }
    RoutesPage *routesPage() const { return m_routesPage; }
    AuditPage *auditPage() const { return m_auditPage; }
    OverviewPage *overviewPage() const { return m_overview; }
    ChangesPage *changesPage() const { return m_changes; }
    FleetPage *fleetPage() const { return m_fleet; }
    QLabel *header() const { return m_header; }
    // The findings of the rows selected in the kluster table open (none for the other views).
    QStringList selectedFindings() const;
    QStringList selectedIncidents() const; // the incidents selected in the Findings view, when it is open

    // The session's current kluster chosen: its header says the views are being made, no finding is
    // selected (ids mean nothing in another kluster).
    void preparing(const KlusterKey &key);
    // The session's current kluster, in every view: its trends and changes asked for, the repair column
    // hidden on a read-only connection, and until its rows are in, what the overview can say.
    void showCurrent();
    // What is under way before any connection exists (the demo cloud starting): said instead of "No
    // connection yet", which would read as an empty setup. Empty: nothing.
    void setStarting(const QString &what);
    // Its rows are in (ConsoleSession::shown): the overview, the details, the captions.
    void shown(const KlusterKey &key);
    void updateCaptions();
    // The next (1) or previous (-1) row with a finding in the table open (the findings when none is).
    void stepFinding(int delta);
    void focusFilter(); // the open table's filter box (the findings' when none is open)
    void focusCurrent(); // the keyboard into the view open
    // The rows' context menus and the pages' Repair buttons: `repair` for the rows selected (also a double
    // click on a row with something to repair), `repairRoutes` for the router's route findings, and Show in
    // Findings.
    // `acknowledge`: the findings table's own (acknowledge, withdraw).
    void setRowActions(QAction *repair, QAction *repairRoutes, const QList<QAction *> &acknowledge);
    void restoreHeaders(); // column widths, order and sort, as the last run left them
    void saveHeaders() const;

signals:
    void selectionChanged(); // in any table
    void klusterActivated(const KlusterKey &key); // a tile of the fleet

private:
    void addCopyActions(TablePage *page, RowCopies::RowKind kind);
    void syncSelection();
    void requestTrend();
    void showIncidents(); // the Overview's, with since when from the history
    void showAlerts(); // the Overview's: the kluster's alerts, matched to its findings
    void silenceAlert(const QString &fingerprint); // an Overview alert's "Silence…": its dialog
    void requestChanges();

    ConsoleSession *m_session;
    ConsoleModels *m_models;
    QString m_starting; // setStarting
    QLabel *m_header;
    QTabWidget *m_tabs;
    QList<QWidget *> m_pages; // each tab's, in the tabs' order
    OverviewPage *m_overview;
    FindingsPage *m_findingsPage;
    RoutesPage *m_routesPage;
    AuditPage *m_auditPage;
    QList<TablePage *> m_klusterPages; // the kluster's tables, in the tabs' order
    FleetPage *m_fleet;
    ChangesPage *m_changes;
    qint64 m_changesBefore = 0; // the moments the Changes view compares (0: the default)
    qint64 m_changesAfter = 0;
    KlusterKey m_filtersOf; // whose filters the views' boxes hold (ConsoleSession::viewFilters)
};
