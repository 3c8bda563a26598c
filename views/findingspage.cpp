#include "findingspage.h"

#include "filtermodel.h"
#include "findingsmodel.h"
#include "repairtext.h"
#include "tablepage.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

FindingsPage::FindingsPage(FindingsModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_table(new TablePage(tr("Findings"), model, FindingsModel::SortRole, FindingsModel::SeverityRole, -1, this))
    , m_severity(new QComboBox(this))
    , m_details(new QTextBrowser(this))
    , m_repair(new QPushButton(tr("&Repair…"), this))
{
    m_severity->addItems({tr("All severities"), tr("Critical only"), tr("Critical and warning")});
    m_severity->setAccessibleName(tr("Show severities"));
    connect(m_severity, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_table->filter()->setMaximumSeverity(i == 0 ? -1 : i == 1 ? 0 : 1);
    });
    m_table->view()->sortByColumn(FindingsModel::SeverityColumn, Qt::AscendingOrder);
    m_table->view()->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->view()->setColumnWidth(FindingsModel::SeverityColumn, 95);
    m_table->view()->setColumnWidth(FindingsModel::KindColumn, 215);
    m_table->view()->setColumnWidth(FindingsModel::SubjectColumn, 220);
    m_table->view()->setColumnWidth(FindingsModel::MessageColumn, 520);
    m_table->view()->setColumnWidth(FindingsModel::RepairColumn, 80);
    // The repair's column before the message, which takes the rest of the width.
    m_table->view()->horizontalHeader()->moveSection(FindingsModel::RepairColumn, FindingsModel::MessageColumn);
    m_details->setAccessibleName(tr("Finding details"));
    m_details->setOpenLinks(false);
    m_repair->setAccessibleName(tr("Repair the selected findings"));
    m_repair->setToolTip(tr("Preview, confirm and send the repair of the selected findings (Ctrl+R)"));
    m_repair->setEnabled(false);

    connect(m_table->view()->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        updateDetails();
        emit selectionChanged(selectedIds());
    });
    connect(m_table->view(), &QAbstractItemView::doubleClicked, this, [this] {
        if (!m_readOnly && !repairableSelection().isEmpty())
            emit repairRequested(repairableSelection());
    });
    connect(m_repair, &QPushButton::clicked, this, [this] {
        if (!repairableSelection().isEmpty())
            emit repairRequested(repairableSelection());
    });

    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    auto *bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Show:"), this));
    bar->addWidget(m_severity);
    bar->addStretch(1);
    bar->addWidget(m_repair);
    topLayout->addLayout(bar);
    topLayout->addWidget(m_table, 1);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(m_details);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
    updateDetails();
}

void FindingsPage::setReadOnly(bool readOnly)
{
    m_readOnly = readOnly;
    m_repair->setVisible(!readOnly);
    m_table->view()->setColumnHidden(FindingsModel::RepairColumn, readOnly);
    updateDetails();
}

QStringList FindingsPage::selectedIds() const
{
    QStringList ids;
    QModelIndexList rows = m_table->view()->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    for (const QModelIndex &i : std::as_const(rows))
        ids << i.data(FindingsModel::IdRole).toString();
    return ids;
}

QStringList FindingsPage::repairableSelection() const
{
    QStringList ids;
    for (const QString &id : selectedIds()) {
        const int row = m_model->rowOf(id);
        if (row >= 0 && m_model->index(row, 0).data(FindingsModel::HasRepairRole).toBool())
            ids << id;
    }
    return ids;
}

bool FindingsPage::selectId(const QString &id)
{
    if (m_table->selectSourceRows(FindingsModel::IdRole, {id}) == 0)
        return false;
    updateDetails();
    emit selectionChanged(selectedIds());
    return true;
}

void FindingsPage::step(int step)
{
    QTableView *view = m_table->view();
    const int rows = view->model()->rowCount();
    if (rows == 0)
        return;
    const int current = view->currentIndex().isValid() ? view->currentIndex().row() : (step > 0 ? -1 : 0);
    const int next = ((current + step) % rows + rows) % rows;
    view->selectRow(next);
    view->scrollTo(view->model()->index(next, 0));
}

void FindingsPage::updateDetails()
{
    const QStringList ids = selectedIds();
    const QStringList repairable = repairableSelection();
    m_repair->setEnabled(!m_readOnly && !repairable.isEmpty());
    m_repair->setText(repairable.size() > 1 ? tr("&Repair %1 findings…").arg(repairable.size()) : tr("&Repair…"));
    if (ids.isEmpty()) {
        m_details->setHtml(tr("<p>Select a finding to see its evidence and its repair. "
                              "F8 and Shift+F8 step through the findings; Ctrl+R repairs the selected ones.</p>"));
        return;
    }
    QString html;
    for (const QString &id : ids.mid(0, 5)) {
        const Finding *f = m_model->findingAt(m_model->rowOf(id));
        if (f)
            html += RepairText::findingHtml(*f, !m_readOnly);
    }
    if (ids.size() > 5)
        html += tr("<p>… and %1 more selected.</p>").arg(ids.size() - 5);
    if (m_readOnly)
        html += tr("<p><i>This connection is read-only: repairs are hidden.</i></p>");
    m_details->setHtml(html);
}
