#include "views/klusterviews.h"

#include "console/alertwatch.h"
#include "console/bootevidencestore.h"
#include "console/connectionregistry.h"
#include "console/consolesession.h"
#include "console/exportedreports.h"
#include "console/historyclient.h"
#include "console/klustertimeline.h"
#include "console/rowcopies.h"
#include "console/teamrepairs.h"
#include "core/printable.h"
#include "models/consolemodels.h"
#include "models/findingsmodel.h"
#include "models/klustersmodel.h"
#include "models/nodesmodel.h"
#include "models/routesmodel.h"
#include "models/securitymodel.h"
#include "services/settings.h"
#include "views/auditpage.h"
#include "views/changespage.h"
#include "views/command.h"
#include "views/findingspage.h"
#include "views/fleetpage.h"
#include "views/nodespage.h"
#include "views/overviewpage.h"
#include "views/repairtext.h"
#include "views/routespage.h"
#include "views/securitypage.h"
#include "views/severitystyle.h"
#include "views/silencealertdialog.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QScrollArea>
#include <QTabBar>
#include <QTabWidget>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>

KlusterViews::KlusterViews(ConsoleModels *models, QWidget *parent)
    : QWidget(parent)
    , m_session(models->session())
    , m_models(models)
    , m_header(new QLabel(this))
    , m_tabs(new QTabWidget(this))
{
    // Each view's page, as its tab describes it (views/tabs.cpp).
    for (const TabInfo &t : Tabs::all()) {
        QWidget *page = t.page(*models, this);
        m_pages << page;
        if (t.rows)
            m_klusterPages << static_cast<KlusterTablePage *>(page);
    }
    m_overview = static_cast<OverviewPage *>(m_pages.at(int(Tab::Overview)));
    m_findingsPage = static_cast<FindingsPage *>(m_pages.at(int(Tab::Findings)));
    m_routesPage = static_cast<RoutesPage *>(m_pages.at(int(Tab::Routes)));
    m_auditPage = static_cast<AuditPage *>(m_pages.at(int(Tab::Audit)));
    m_fleet = static_cast<FleetPage *>(m_pages.at(int(Tab::Fleet)));
    m_changes = static_cast<ChangesPage *>(m_pages.at(int(Tab::Changes)));
    // Always two lines high: new data never shifts (and re-lays out) the views below.
    m_header->setObjectName(QStringLiteral("header"));
    m_header->setWordWrap(true);
    m_header->setTextFormat(Qt::RichText); // ConsoleText's header: its names escaped
    // Its links by mouse only: the header is no tab stop (the keyboard reaches the same kluster in the list).
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
    // Its one kind of link: a kluster read through Prometheus opened live in its cloud's connection.
    connect(m_header, &QLabel::linkActivated, this,
        [this](const QString &key) { emit klusterActivated(KlusterKey::fromString(key)); });
    m_header->setMinimumWidth(100);
    // Two lines at least (no jump as the text changes), more when a narrow window wraps them: never a line
    // slid under the tabs.
    m_header->setMinimumHeight(2 * m_header->fontMetrics().lineSpacing() + 6);
    m_header->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
    m_tabs->setObjectName(QStringLiteral("views"));
    m_tabs->setUsesScrollButtons(true);
    m_tabs->setDocumentMode(true);
    m_tabs->setAccessibleName(tr("Views of the selected kluster"));
    const auto scrolled = [this](QWidget *w) {
        auto *scroll = new QScrollArea(this);
        scroll->setWidget(w);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setFocusPolicy(Qt::NoFocus); // Tab goes to what it holds, not to an invisible stop
        // Its scroll bar always there: a page that grows past the window by a line (a refresh's words) keeps
        // its width, instead of every chart and line of it laid out again at another.
        scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
        return scroll;
    };
    // No mnemonics on the tabs: their shortcuts (Tabs::shortcut) reach them, and Alt+letter stays the menus'.
    for (const TabInfo &t : Tabs::all()) {
        QWidget *w = m_pages.at(int(t.tab));
        m_tabs->addTab(t.scrolled ? scrolled(w) : w, Tabs::title(t.tab));
    }
    // The tab bar's scroll arrows are the mouse's: Tab skips them (the arrows on the bar move between tabs).
    for (QToolButton *arrow : m_tabs->tabBar()->findChildren<QToolButton *>())
        arrow->setFocusPolicy(Qt::NoFocus);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_header);
    layout->addWidget(m_tabs, 1);

    HistoryClient *history = m_session->history();
    connect(history, &HistoryClient::findingsSinceChanged, this, [this](const KlusterKey &key) {
        if (key == m_session->current()) {
            requestTrend();
            requestChanges();
            showIncidents(); // since when
        }
    });
    connect(history, &HistoryClient::trendLoaded, this, [this](const HistoryTrend &trend) {
        if (trend.key == m_session->current())
            m_overview->showTrend(trend);
    });
    connect(history, &HistoryClient::changesLoaded, this, [this](const HistoryChanges &changes) {
        if (changes.key != m_session->current())
            return;
        const KlusterData *d = m_session->store()->data(changes.key);
        const bool shown = d && d->diagnosis && !d->isStale();
        m_changes->showChanges(changes, shown ? d->diagnosis->count(Severity::Critical) : -1,
            shown ? d->diagnosis->count(Severity::Warning) : -1);
    });
    connect(m_overview, &OverviewPage::trendRangeChanged, this, &KlusterViews::requestTrend);
    connect(m_session->alerts(), &AlertWatch::changed, this, [this](const QString &connection) {
        if (connection == m_session->current().connection)
            showAlerts();
    });
    connect(m_session->team(), &TeamRepairs::changed, this, [this](const KlusterKey &key) {
        if (key == m_session->current())
            showAlerts();
    });
    // A finding opened alone shows its server's boot evidence, read from Nova once per refresh.
    m_findingsPage->setFindingExtras([this](const Finding &f) {
        const std::optional<BootEvidences::Server> server = BootEvidences::serverOf(f);
        const KlusterKey key = m_session->current();
        const KlusterData *d = m_session->store()->data(key);
        if (!server || !d)
            return QString();
        const BootEvidenceStore::Entry &e = m_session->bootEvidence()->want(key, *server, d->fetchedAt);
        return RepairText::bootEvidenceHtml(e.evidence, e.pending);
    });
    connect(m_session->exportedReports(), &ExportedReports::changed, this, [this](const KlusterKey &key) {
        if (key == m_session->current())
            updateCaptions();
    });
    connect(m_session->bootEvidence(), &BootEvidenceStore::changed, this, [this](const KlusterKey &key) {
        if (key == m_session->current())
            m_findingsPage->updateDetails();
    });
    connect(m_overview, &OverviewPage::alertSilenceRequested, this, &KlusterViews::silenceAlert);
    connect(m_overview, &OverviewPage::incidentShowRequested, this, [this](const QString &id) {
        setTab(Tab::Findings);
        m_findingsPage->selectFindings({ id });
        m_findingsPage->view()->setFocus(Qt::OtherFocusReason);
    });
    connect(m_changes, &ChangesPage::compareRequested, this, [this](qint64 before, qint64 after) {
        m_changesBefore = before;
        m_changesAfter = after;
        requestChanges();
    });
    connect(m_fleet, &FleetPage::klusterActivated, this, &KlusterViews::klusterActivated);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int i) {
        requestChanges();
        Settings::tab().setValue(i);
        emit selectionChanged(); // what the commands act on is the new view's
    });
    for (TablePage *p : m_klusterPages) {
        connect(p, &TablePage::selectionChanged, this, [this, p] {
            if (p == m_findingsPage)
                syncSelection();
            emit selectionChanged();
        });
    }
    connect(m_auditPage, &TablePage::selectionChanged, this, &KlusterViews::selectionChanged);
}

Tab KlusterViews::currentTab() const
{
    return Tab(m_tabs->currentIndex());
}

void KlusterViews::setTab(Tab tab)
{
    m_tabs->setCurrentIndex(int(tab));
}

TablePage *KlusterViews::page(Tab tab) const
{
    return qobject_cast<TablePage *>(m_pages.at(int(tab))); // a kluster's table, or the audit log
}

QStringList KlusterViews::selectedFindings() const
{
    TablePage *p = page(currentTab());
    return p && p != m_auditPage ? p->selectedFindings() : QStringList();
}

QStringList KlusterViews::selectedIncidents() const
{
    return currentTab() == Tab::Findings ? m_findingsPage->selectedIncidents() : QStringList();
}

void KlusterViews::preparing(const KlusterKey &key)
{
    m_findingsPage->view()->clearSelection(); // ids mean nothing in another kluster
    m_header->setText(tr("<b>%1</b><br>preparing the views…").arg(OutsideText::html(key.toString())));
}

void KlusterViews::setStarting(const QString &what)
{
    m_starting = what;
    showCurrent();
}

void KlusterViews::showCurrent()
{
    const KlusterKey current = m_session->current();
    requestTrend();
    if (!m_session->isCurrentShown())
        m_changesBefore = m_changesAfter = 0; // another kluster's moments
    requestChanges();
    const Connection *connection = m_session->registry()->connection(current.connection);
    m_findingsPage->view()->setColumnHidden(
        FindingsModel::RepairColumn, !connection || connection->isReadOnly());
    const KlusterData *d = m_session->store()->data(current);
    if (!d || !d->exported) // another kluster's report never stays under this one's header
        m_findingsPage->setExportedReport(QString());
    if (d && d->fetch)
        return; // the overview shows it once its rows are in
    QString message = m_session->registry()->isEmpty()
        ? (m_starting.isEmpty() ? tr("No connection yet: add one with File → Add connection… (Ctrl+Shift+N).")
                                : m_starting)
        : m_models->klusters()->rowCount() == 0 ? tr("Listing the klusters…")
                                                : tr("Select a kluster in the sidebar (Ctrl+K).");
    const Error listingError = m_session->store()->listingError(current.connection);
    if (!current.isNull() && current.kluster.isEmpty())
        message = listingError.isError()
            ? tr("Connection %1 lists no kluster: its klusters could not be listed (the message above says "
                 "why). Fix it in File → Connections… (Ctrl+Shift+N adds another), then Refresh (F5).")
                  .arg(current.connection)
            : tr("Connection %1 lists no kluster: it has none.").arg(current.connection);
    else if (d && d->exported)
        message = d->exported->standing.worst
            ? tr("%1: %2 — %3 (as its exporter read it; the header says where to read it whole)")
                  .arg(current.kluster, d->exported->standing.headline(), d->exported->standing.reason)
            : tr("%1: %2 (as its exporter read it)").arg(current.kluster, d->exported->standing.headline());
    else if (d && !d->error.isEmpty())
        message = tr("%1 could not be read: %2")
                      .arg(current.kluster, ConsoleText::shortError(SourceError::joined(d->error)));
    else if (!current.kluster.isEmpty())
        message = tr("%1: fetching…").arg(current.kluster);
    m_overview->clear(message);
}

void KlusterViews::shown(const KlusterKey &key)
{
    const KlusterData *d = m_session->store()->data(key);
    const Connection *connection = m_session->registry()->connection(key.connection);
    const bool withPlan = connection && !connection->isReadOnly();
    if (d && d->fetch)
        m_overview->show(d->fetch->state.kluster.name, *d->diagnosis, *m_models->nodes(),
            m_models->routes()->routeCount(), m_models->routes()->foreignCount(), m_models->routes()->limit(),
            SourceError::joined(d->incomplete), Knowledge(d->fetch->state));
    // Each kluster its own filters (ConsoleSession keeps them).
    if (key != m_filtersOf) {
        QStringList texts;
        for (TablePage *p : std::as_const(m_klusterPages))
            texts << p->filterBox()->text();
        m_session->keepViewFilters(m_filtersOf, texts);
        const QStringList restored = m_session->viewFilters(key);
        for (qsizetype i = 0; i < m_klusterPages.size(); ++i)
            m_klusterPages.at(i)->filterBox()->setText(restored.value(i));
        m_filtersOf = key;
    }
    for (TablePage *p : m_klusterPages)
        static_cast<KlusterTablePage *>(p)->setShown(d && d->fetch ? d->diagnosis : nullptr, withPlan);
    showIncidents();
    showAlerts();
    updateCaptions();
}

void KlusterViews::showAlerts()
{
    const KlusterKey key = m_session->current();
    const KlusterData *d = m_session->store()->data(key);
    if (!d || !d->fetch || !d->diagnosis || !m_session->isCurrentShown()) {
        m_overview->showAlerts({});
        m_overview->showTimeline({}, {});
        return;
    }
    const QDateTime now = QDateTime::currentDateTimeUtc();
    // Beside them: the kluster's timeline, who repaired it lately (its Events) and what Kubernikus recorded.
    const TeamRepairs::Seen *seen = m_session->team()->seen(key);
    const KlusterTimeline::Lines timeline = KlusterTimeline::lines(
        m_session->team()->recent(key, now), seen ? seen->error : QString(), &d->fetch->state, now);
    m_overview->showTimeline(timeline.lines, timeline.problems);
    m_overview->showAlerts(ConsoleText::alertsText(m_session->alerts()->alertsOf(key, *d), *d->diagnosis,
        m_session->alerts()->readAt(key.connection), now));
}

void KlusterViews::showIncidents()
{
    const KlusterData *d = m_session->store()->data(m_session->current());
    const Connection *connection = m_session->registry()->connection(m_session->current().connection);
    if (!d || !d->fetch || !d->diagnosis || !m_session->isCurrentShown())
        return;
    const FindingsSince *since = m_session->history()->findingsSince(m_session->current());
    m_overview->showIncidents(*d->diagnosis, since ? since->findings : QHash<QString, FindingHistory>(),
        since ? since->at : QDateTime(), connection && !connection->isReadOnly());
}

void KlusterViews::updateCaptions()
{
    ConsoleText::CaptionFacts facts = m_session->captionFacts(SeverityStyle::alarmText(palette()).name());
    if (facts.data && facts.data->exported) // read through Prometheus: its exporter's report, once a round
        facts.exportedReport = &m_session->exportedReports()->want(facts.key, facts.data->fetchedAt);
    facts.routes = m_models->routes()->routeCount();
    facts.foreignRoutes = m_models->routes()->foreignCount();
    facts.routeLimit = m_models->routes()->limit();
    facts.securitySummary = m_models->security()->groupSummary();
    const ConsoleText::Captions c = ConsoleText::captions(facts);
    if (m_session->current().isNull())
        m_header->clear();
    else if (!c.header.isEmpty())
        m_header->setText(c.header);
    for (const TabInfo &t : Tabs::all()) {
        if (t.caption)
            page(t.tab)->setCaption(c.*t.caption);
    }
    m_findingsPage->setExportedReport(c.exportedReport);
}

void KlusterViews::requestTrend()
{
    if (!m_session->current().kluster.isEmpty()) // else the Overview says to select one
        m_session->history()->loadTrend(m_session->current(), m_overview->trendHours());
}

void KlusterViews::requestChanges()
{
    if (m_tabs->currentWidget() != m_changes)
        return; // asked for when it is shown
    if (m_session->current().kluster.isEmpty())
        m_changes->clear(tr("Select a kluster in the sidebar."));
    else
        m_session->history()->loadChanges(m_session->current(), m_changesBefore, m_changesAfter);
}

void KlusterViews::syncSelection()
{
    // The findings selected in the Findings view select the rows they are about in the other views.
    const KlusterData *d = m_session->store()->data(m_session->current());
    if (!d || !d->diagnosis)
        return;
    const QStringList ids = m_findingsPage->selectedFindings(); // an incident's: its findings
    for (const TabInfo &t : Tabs::all()) {
        if (!t.rows || t.tab == Tab::Findings)
            continue;
        const int n = page(t.tab)->selectKeys(ids, ConsoleRole::Findings);
        m_tabs->setTabText(int(t.tab), n ? tr("%1 (%2)").arg(Tabs::title(t.tab)).arg(n) : Tabs::title(t.tab));
    }
}

void KlusterViews::stepFinding(int delta)
{
    TablePage *p = page(currentTab());
    if (!p || p == m_auditPage) {
        setTab(Tab::Findings);
        p = m_findingsPage;
    }
    p->step(delta, p != m_findingsPage);
    p->view()->setFocus(Qt::ShortcutFocusReason);
}

void KlusterViews::focusFilter()
{
    if (currentTab() == Tab::Fleet) {
        m_fleet->focusFilter();
        return;
    }
    TablePage *p = page(currentTab());
    if (!p) {
        setTab(Tab::Findings);
        p = m_findingsPage;
    }
    p->filterBox()->setFocus(Qt::ShortcutFocusReason);
    p->filterBox()->selectAll();
}

void KlusterViews::focusCurrent()
{
    if (QWidget *w = m_tabs->currentWidget())
        (page(currentTab()) ? static_cast<QWidget *>(page(currentTab())->view()) : w)
            ->setFocus(Qt::OtherFocusReason);
}

// "Copy" in a row's context menu: its names, addresses, ids and the command that shows it; Ctrl+C copies the
// selected rows as text (tab-separated, with the header line).
void KlusterViews::addCopyActions(TablePage *page, RowCopies::RowKind kind)
{
    QTreeView *v = page->view();
    auto *copy = new QAction(tr("Copy"), v);
    auto *menu = new QMenu(v);
    copy->setMenu(menu);
    connect(menu, &QMenu::aboutToShow, this, [this, v, menu, kind] {
        menu->clear();
        const KlusterData *d = m_session->store()->data(m_session->current());
        const QString key = v->currentIndex().siblingAtColumn(0).data(ConsoleRole::Key).toString();
        if (!d || !d->fetch || !d->diagnosis || key.isEmpty()) {
            menu->addAction(tr("(no row)"))->setEnabled(false);
            return;
        }
        for (const RowCopies::Copyable &c : RowCopies::of(kind, key, d->fetch->state, *d->diagnosis)) {
            const QString text = c.text;
            connect(menu->addAction(c.label), &QAction::triggered, this,
                [text] { QGuiApplication::clipboard()->setText(text); });
        }
    });
    v->addAction(copy);
    auto *rows = new QAction(tr("Copy the selected rows"), v);
    rows->setShortcut(QKeySequence::Copy);
    rows->setShortcutContext(Qt::WidgetShortcut);
    connect(rows, &QAction::triggered, this, [v] {
        const QAbstractItemModel *m = v->model();
        QStringList header;
        for (int c = 0; c < m->columnCount(); ++c) {
            if (!v->isColumnHidden(c))
                header << m->headerData(c, Qt::Horizontal).toString();
        }
        QModelIndexList selected = v->selectionModel()->selectedRows();
        if (selected.isEmpty() && v->currentIndex().isValid())
            selected << v->currentIndex().siblingAtColumn(0);
        std::sort(selected.begin(), selected.end(), [v](const QModelIndex &a, const QModelIndex &b) {
            return v->visualRect(a).top() < v->visualRect(b).top();
        });
        QList<QStringList> lines;
        for (const QModelIndex &row : std::as_const(selected)) {
            QStringList cells;
            for (int c = 0; c < m->columnCount(); ++c) {
                if (!v->isColumnHidden(c))
                    cells << row.siblingAtColumn(c).data().toString();
            }
            lines << cells;
        }
        QGuiApplication::clipboard()->setText(RowCopies::rowsText(header, lines));
    });
    v->addAction(rows);
}

void KlusterViews::setRowActions(QAction *repair, QAction *repairRoutes, const QList<QAction *> &acknowledge)
{
    for (TablePage *p : m_klusterPages) {
        QTreeView *v = p->view();
        v->setContextMenuPolicy(Qt::ActionsContextMenu);
        v->addAction(repair);
        if (p != m_findingsPage) {
            auto *show = new QAction(tr("Show in Findings"), v);
            connect(show, &QAction::triggered, this, [this, p] {
                const QStringList ids = p->selectedFindings();
                setTab(Tab::Findings);
                m_findingsPage->selectKeys(ids);
            });
            v->addAction(show);
        }
        if (p == m_findingsPage || p == m_routesPage)
            v->addAction(repairRoutes);
        if (p == m_findingsPage)
            v->addActions(acknowledge);
        addCopyActions(p, *Tabs::info(Tab(m_pages.indexOf(p))).rows);
        connect(p, &TablePage::repairRequested, repair, &QAction::trigger);
        connect(p, &TablePage::rowActivated, this, [this, p, repair] {
            if (m_tabs->currentWidget() == p && repair->isEnabled())
                repair->trigger();
        });
    }
}

void KlusterViews::restoreHeaders()
{
    for (TablePage *p : m_klusterPages + QList<TablePage *> { m_auditPage })
        p->restoreHeader();
}

void KlusterViews::saveHeaders() const
{
    for (TablePage *p : m_klusterPages + QList<TablePage *> { m_auditPage })
        p->saveHeader();
}

void KlusterViews::silenceAlert(const QString &fingerprint)
{
    const KlusterKey key = m_session->current();
    const KlusterData *d = m_session->store()->data(key);
    AlertmanagerClient *client = m_session->alerts()->client(key.connection);
    if (!d || !d->diagnosis || !client)
        return;
    for (const Alert &a : m_session->alerts()->alertsOf(key, *d).alerts) {
        if (a.fingerprint != fingerprint)
            continue;
        auto *dialog = new SilenceAlertDialog(client, m_session->silenceContext(key), a, window());
        // The Overview shows it silenced once the Alertmanager is read again.
        connect(dialog, &SilenceAlertDialog::silenced, m_session->alerts(),
            [alerts = m_session->alerts(), connection = key.connection] { alerts->refresh(connection); });
        presentDialog(dialog);
        return;
    }
}
