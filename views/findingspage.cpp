#include "views/findingspage.h"

#include "core/diagnosis.h"
#include "core/printable.h"
#include "models/filtermodel.h"
#include "models/findingsmodel.h"
#include "models/findingstreemodel.h"
#include "services/settings.h"
#include "views/helpdialogs.h"
#include "views/repairtext.h"
#include "views/severitydecorator.h"

#include <QAction>
#include <QComboBox>
#include <QDialog>
#include <QHeaderView>
#include <QStyle>
#include <QTextBrowser>
#include <QTreeView>

FindingsPage::FindingsPage(FindingsModel *model, QWidget *parent)
    : KlusterTablePage(tr("Findings"), model, FindingsModel::filterFields(), parent)
    , m_severity(new QComboBox(this))
    , m_model(model)
    , m_tree(new FindingsTreeModel(model, this))
    , m_groupAction(new QAction(tr("Group findings by &incident"), this))
{
    m_severity->addItems({ tr("All severities"), tr("Critical only"), tr("Critical and warning") });
    m_severity->setAccessibleName(tr("Show severities"));
    m_severity->setToolTip(tr("Which severities the table shows"));
    connect(m_severity, &QComboBox::currentIndexChanged, this, [this](int i) {
        filter()->setMinimumSeverity(i == 0 ? std::nullopt
                : i == 1                    ? std::optional(Severity::Critical)
                                            : std::optional(Severity::Warning));
    });
    addToolWidget(m_severity);
    QTreeView *findings = view();
    findings->sortByColumn(FindingsModel::SeverityColumn, Qt::AscendingOrder);
    findings->setColumnWidth(FindingsModel::SeverityColumn, 90);
    findings->setColumnWidth(FindingsModel::KindColumn, 175);
    findings->setColumnWidth(FindingsModel::SubjectColumn, 150);
    findings->setColumnWidth(FindingsModel::SinceColumn, 115); // "over 1 h 15 min" whole
    findings->setColumnWidth(FindingsModel::RepairColumn, 64);
    findings->setColumnWidth(FindingsModel::AcknowledgedColumn, 150);
    findings->header()->moveSection(findings->header()->visualIndex(FindingsModel::RepairColumn),
        findings->header()->visualIndex(FindingsModel::MessageColumn));
    findings->header()->moveSection(findings->header()->visualIndex(FindingsModel::AcknowledgedColumn),
        findings->header()->visualIndex(FindingsModel::MessageColumn));
    decorator()->setQuietRole(FindingsModel::AcknowledgedRole);
    decorator()->setBoldRole(FindingsModel::IncidentRowRole);
    // Shown while someone handles a finding: on a laptop, the message keeps the width otherwise.
    findings->setColumnHidden(FindingsModel::AcknowledgedColumn, !model->anyAcknowledged());
    connect(model, &FindingsModel::acknowledgedChanged, this,
        [findings](bool any) { findings->setColumnHidden(FindingsModel::AcknowledgedColumn, !any); });

    // The runbook of what is selected: from the link in its details, or Ctrl+B.
    connect(details(), &QTextBrowser::anchorClicked, this, [this](const QUrl &url) {
        if (url.scheme() == QLatin1String("runbook"))
            openRunbook(url.path());
    });
    auto *runbook = new QAction(tr("Open the &runbook of the selected finding"), this);
    runbook->setShortcut(QKeySequence(tr("Ctrl+B")));
    runbook->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(runbook, &QAction::triggered, this, [this] {
        const QModelIndexList rows = selectedSourceRows();
        if (rows.isEmpty() || !diagnosis())
            return;
        const QString id = rows.first().data(ConsoleRole::Key).toString();
        if (rows.first().data(FindingsModel::IncidentRowRole).toBool()) {
            for (const Incident &i : diagnosis()->incidents) {
                if (i.id() == id)
                    openRunbook(incidentRuleName(i.rule));
            }
        } else if (const Finding *f = diagnosis()->find(id))
            openRunbook(findingKindName(f->kind));
    });
    addAction(runbook);

    // Grouped by incident: the incidents open (their findings are what they are made of: never hidden).
    m_groupAction->setCheckable(true);
    m_groupAction->setShortcut(QKeySequence(tr("Ctrl+G")));
    m_groupAction->setToolTip(
        tr("Findings: the incidents first, each with the findings it explains beneath it, then the findings "
           "in none (Ctrl+G)"));
    connect(m_groupAction, &QAction::toggled, this, [this](bool on) {
        Settings::findingsByIncident().setValue(on);
        setGrouped(on);
    });
    connect(
        filter(), &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex &parent, int a, int b) {
            if (!parent.isValid())
                expandIncidents(a, b);
        });
    const auto expandAll = [this] { expandIncidents(0, filter()->rowCount() - 1); };
    connect(filter(), &QAbstractItemModel::modelReset, this, expandAll);
    connect(filter(), &QAbstractItemModel::layoutChanged, this, expandAll);
    m_groupAction->setChecked(Settings::findingsByIncident().value());
}

void FindingsPage::expandIncidents(int first, int last)
{
    if (!m_grouped)
        return;
    for (int row = first; row <= last && row < filter()->rowCount(); ++row) {
        const QModelIndex i = filter()->index(row, 0);
        if (filter()->hasChildren(i))
            view()->expand(i);
    }
}

void FindingsPage::setGrouped(bool grouped)
{
    if (grouped == m_grouped)
        return;
    // What was selected stays selected: a finding is a row in both; an incident, its findings when flat.
    const QStringList keys = selectedKeys();
    m_grouped = grouped;
    m_groupAction->setChecked(grouped);
    filter()->setGroupsFirst(grouped);
    setModel(grouped ? static_cast<QAbstractItemModel *>(m_tree) : m_model);
    view()->setRootIsDecorated(grouped);
    // The incident's findings are indented: their severity keeps its word whole.
    view()->setIndentation(grouped ? 14 : view()->style()->pixelMetric(QStyle::PM_TreeViewIndentation));
    if (grouped && view()->columnWidth(FindingsModel::SeverityColumn) < 90 + 14)
        view()->setColumnWidth(FindingsModel::SeverityColumn, 90 + 14);
    expandIncidents(0, filter()->rowCount() - 1);
    if (!keys.isEmpty())
        selectFindings(keys);
}

QStringList FindingsPage::selectedIncidents() const
{
    QStringList ids;
    for (const QModelIndex &row : selectedSourceRows()) {
        if (row.data(FindingsModel::IncidentRowRole).toBool())
            ids << row.data(ConsoleRole::Key).toString();
    }
    return ids;
}

int FindingsPage::selectFindings(const QStringList &ids)
{
    if (m_grouped)
        return selectKeys(ids);
    QStringList findings;
    for (const QString &id : ids) {
        const FindingsModel::IncidentRow *incident = m_model->incident(id);
        findings << (incident ? incident->members : QStringList { id });
    }
    return selectKeys(findings);
}

void FindingsPage::setExportedReport(const QString &html)
{
    if (html == m_exportedReport)
        return; // the same words: the place read in it stays
    m_exportedReport = html;
    setTableShown(html.isEmpty());
    updateDetails();
}

QString FindingsPage::placeholder() const
{
    if (!m_exportedReport.isEmpty())
        return m_exportedReport;
    return tr(
        "<p>Select a finding to see its evidence and its repair. F8 and Shift+F8 step through the findings "
        "(grouped: the incidents and the findings in none); Ctrl+R repairs the selected ones (an incident: "
        "its "
        "one repair); Ctrl+G groups them by incident; Ctrl+Shift+A acknowledges them (you are handling them: "
        "they stop notifying and sink below the others of their severity).</p>");
}

QString FindingsPage::runbookLink(const QString &name)
{
    return tr(
        "<p><a href=\"runbook:%1\">Runbook: %1</a> (Ctrl+B): what it means, how to confirm it by hand with "
        "<tt>openstack</tt> and <tt>kubectl</tt>, what to do when the repair is refused.</p>")
        .arg(name.toHtmlEscaped());
}

void FindingsPage::openRunbook(const QString &name)
{
    if (QDialog *dialog = HelpDialogs::runbook(this, name))
        dialog->show();
}

QString FindingsPage::detailsHtml(const QModelIndexList &rows) const
{
    if (rows.isEmpty())
        return placeholder();
    if (!diagnosis())
        return QString();
    QString html;
    int shown = 0;
    for (const QModelIndex &row : rows) {
        if (shown == 5) {
            html += tr("<p>… and %1 more selected.</p>").arg(rows.size() - shown);
            break;
        }
        ++shown;
        const QString id = row.data(ConsoleRole::Key).toString();
        if (row.data(FindingsModel::IncidentRowRole).toBool()) {
            for (const Incident &i : diagnosis()->incidents) {
                if (i.id() == id)
                    html += RepairText::incidentHtml(i, *diagnosis(), withPlan())
                        + runbookLink(incidentRuleName(i.rule));
            }
            continue;
        }
        if (const Finding *f = diagnosis()->find(id)) {
            if (const Incident *i = diagnosis()->incidentOf(id))
                html += tr("<p><i>Part of the incident <b>%1</b>: %2</i></p>")
                            .arg(OutsideText::html(i->id()), OutsideText::html(i->title));
            // What the server itself shows, read for the one finding opened, never for a selection's every
            // one.
            const QString extras = rows.size() == 1 && m_extras ? m_extras(*f) : QString();
            html += RepairText::findingHtml(*f, withPlan(), extras) + runbookLink(findingKindName(f->kind));
            if (const Acknowledgement *a = m_model->acknowledgement(id))
                html
                    += tr("<p><i>Acknowledged %1 (Ctrl+Shift+U withdraws it). It notifies again and rises to "
                          "its rank when it changes or the time runs out.</i></p>")
                           .arg(a->text(FindingsModel::acknowledgementTime(
                                            a->until, QDateTime::currentDateTimeUtc()))
                                    .toHtmlEscaped());
        }
    }
    if (!withPlan())
        html += tr("<p><i>This connection is read-only: repairs are hidden.</i></p>");
    return html;
}
