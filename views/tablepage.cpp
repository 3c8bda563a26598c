#include "tablepage.h"

#include "filtermodel.h"
#include "severitydecorator.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QVBoxLayout>

TablePage::TablePage(const QString &name, QAbstractItemModel *model, int sortRole, int severityRole, int problemRole, QWidget *parent)
    : QWidget(parent)
    , m_source(model)
    , m_filter(new FilterModel(sortRole, severityRole, this))
    , m_caption(new QLabel(this))
    , m_filterBox(new QLineEdit(this))
    , m_view(new QTableView(this))
{
    auto *decorator = new SeverityDecorator(severityRole, problemRole, this);
    decorator->setSourceModel(model);
    m_filter->setSourceModel(decorator);
    m_view->setModel(m_filter);
    m_view->setSortingEnabled(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(false);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->setAccessibleName(name);
    m_view->setObjectName(name);

    m_caption->setTextFormat(Qt::PlainText);
    m_caption->setWordWrap(true);
    m_filterBox->setPlaceholderText(tr("Filter %1 (all words must match)").arg(name.toLower()));
    m_filterBox->setClearButtonEnabled(true);
    m_filterBox->setAccessibleName(tr("Filter %1").arg(name.toLower()));
    connect(m_filterBox, &QLineEdit::textChanged, m_filter, &FilterModel::setText);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_caption);
    layout->addWidget(m_filterBox);
    layout->addWidget(m_view, 1);
}

void TablePage::setCaption(const QString &text)
{
    m_caption->setText(text);
}

QString TablePage::caption() const
{
    return m_caption->text();
}

int TablePage::selectSourceRows(int role, const QStringList &keys)
{
    QItemSelection selection;
    QModelIndex first;
    for (int row = 0; row < m_filter->rowCount(); ++row) {
        const QModelIndex index = m_filter->index(row, 0);
        if (!keys.contains(index.data(role).toString()))
            continue;
        selection.select(index, index.siblingAtColumn(m_filter->columnCount() - 1));
        if (!first.isValid())
            first = index;
    }
    QItemSelectionModel *sm = m_view->selectionModel();
    const QSignalBlocker blocker(sm);
    sm->select(selection, QItemSelectionModel::ClearAndSelect);
    if (first.isValid()) {
        sm->setCurrentIndex(first, QItemSelectionModel::NoUpdate);
        m_view->scrollTo(first, QAbstractItemView::PositionAtCenter);
    }
    m_view->viewport()->update();
    return int(selection.indexes().size()) / qMax(1, m_filter->columnCount());
}
