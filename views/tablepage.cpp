#include "views/tablepage.h"

#include "models/consolerole.h"
#include "models/filtermodel.h"
#include "services/settings.h"
#include "views/cachedtextdelegate.h"
#include "views/plaintooltips.h"
#include "views/severitydecorator.h"

#include <QAction>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSet>
#include <QSplitter>
#include <QTextBrowser>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>

TablePage::TablePage(
    const QString &name, QAbstractItemModel *model, const QStringList &filterFields, QWidget *parent)
    : QWidget(parent)
    , m_name(name)
    , m_source(model)
    , m_decorator(new SeverityDecorator(this))
    , m_filter(new FilterModel(this))
    , m_caption(new QLabel(this))
    , m_tools(new QHBoxLayout)
    , m_filterBox(new QLineEdit(this))
    , m_filterProblem(new QLabel(this))
    , m_view(new QTreeView(this))
    , m_details(new QTextBrowser(this))
    , m_repair(new QPushButton(tr("Repair…"), this))
    , m_split(new QSplitter(Qt::Vertical, this))
{
    m_decorator->setSourceModel(model);
    m_filter->setKnownFields(filterFields);
    m_filter->setSourceModel(m_decorator);
    m_view->setModel(m_filter);
    PlainToolTips::install(m_view);
    m_view->setItemDelegate(new CachedTextDelegate(m_view)); // each cell's text laid out once, not per paint
    m_view->setSortingEnabled(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setUniformRowHeights(true);
    m_view->setAllColumnsShowFocus(true);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideRight);
    m_view->setRootIsDecorated(false);
    m_view->setExpandsOnDoubleClick(false);
    m_view->header()->setStretchLastSection(true);
    m_view->header()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->header()->setSectionsMovable(true);
    m_view->header()->setFirstSectionMovable(false);
    m_view->setAccessibleName(name);
    m_view->setObjectName(name);
    m_view->installEventFilter(this);
    // Which columns to show: the header's context menu.
    m_view->header()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view->header(), &QWidget::customContextMenuRequested, this, [this](const QPoint &at) {
        QMenu menu;
        for (int c = 1; c < m_filter->columnCount(); ++c) {
            QAction *a = menu.addAction(m_filter->headerData(c, Qt::Horizontal).toString());
            a->setCheckable(true);
            a->setChecked(!m_view->isColumnHidden(c));
            connect(a, &QAction::toggled, this, [this, c](bool on) { m_view->setColumnHidden(c, !on); });
        }
        menu.exec(m_view->header()->mapToGlobal(at));
    });

    m_caption->setTextFormat(Qt::PlainText);
    m_caption->setWordWrap(true);
    m_caption->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_filterBox->setPlaceholderText(filterFields.isEmpty()
            ? tr("Filter %1").arg(name.toLower())
            : tr("Filter: words, or %1:…, -word to exclude (Ctrl+F)")
                  .arg(filterFields.mid(0, 3).join(QStringLiteral(":…, "))));
    m_filterBox->setToolTip(
        tr("Every term must match. Free words match names and ids; field:value matches one field (%1); "
           "-term excludes; \"double quotes\" keep spaces. Enter goes to the first match.")
            .arg(filterFields.join(QStringLiteral(", "))));
    m_filterBox->setClearButtonEnabled(true);
    m_filterBox->setAccessibleName(tr("Filter %1").arg(name.toLower()));
    m_filterBox->installEventFilter(this);
    m_filterProblem->setVisible(false);
    m_filterProblem->setWordWrap(true);
    connect(m_filterBox, &QLineEdit::textChanged, m_filter, &FilterModel::setText);
    const auto sayWhy = [this] {
        // An unknown field, or a filter that matches nothing: said below the box, never an unexplained empty
        // table.
        QString problem = m_filter->query().error();
        if (problem.isEmpty() && !m_filter->query().isEmpty() && m_filter->rowCount() == 0
            && m_source->rowCount() > 0)
            problem = tr("No row matches the filter (Escape clears it).");
        m_filterProblem->setText(problem);
        m_filterProblem->setVisible(!problem.isEmpty() && !m_view->isHidden());
    };
    connect(m_filter, &FilterModel::queryChanged, this, sayWhy);
    connect(m_filter, &QAbstractItemModel::rowsInserted, this, sayWhy);
    connect(m_filter, &QAbstractItemModel::rowsRemoved, this, sayWhy);
    connect(m_filterBox, &QLineEdit::returnPressed, this, &TablePage::focusFirstMatch);

    m_details->setAccessibleName(tr("Details of the selected %1").arg(name.toLower()));
    m_details->setOpenLinks(false);
    m_details->setMinimumHeight(60);
    m_repair->setAccessibleName(tr("Repair the selected findings"));
    m_repair->setToolTip(
        tr("Preview, confirm and send the repair of the findings of the selected rows (Ctrl+R)"));
    m_repair->setEnabled(false);
    connect(m_repair, &QPushButton::clicked, this, &TablePage::repairRequested);

    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        updateDetails();
        emit selectionChanged();
    });
    connect(m_view, &QAbstractItemView::doubleClicked, this, [this] { emit rowActivated(); });

    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->setSpacing(4);
    m_tools->addWidget(m_filterBox, 1);
    topLayout->addWidget(m_caption);
    topLayout->addLayout(m_tools);
    topLayout->addWidget(m_filterProblem);
    topLayout->addWidget(m_view, 1);

    auto *bottom = new QWidget(this);
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->setSpacing(2);
    auto *bar = new QHBoxLayout;
    bar->addStretch(1);
    bar->addWidget(m_repair);
    bottomLayout->addLayout(bar);
    bottomLayout->addWidget(m_details, 1);

    m_split->addWidget(top);
    m_split->addWidget(bottom);
    m_split->setStretchFactor(0, 3);
    m_split->setStretchFactor(1, 2);
    m_split->setChildrenCollapsible(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_split);
}

void TablePage::setTableShown(bool shown)
{
    if (m_view->isHidden() != shown)
        return;
    if (!shown)
        m_sizesWithTable = m_split->sizes();
    m_view->setHidden(!shown);
    // What the filter finds wrong is said with the table it filters (its text is kept meanwhile).
    m_filterProblem->setVisible(shown && !m_filterProblem->text().isEmpty());
    for (int i = 0; i < m_tools->count(); ++i) {
        if (QWidget *w = m_tools->itemAt(i)->widget())
            w->setHidden(!shown);
    }
    if (shown && !m_sizesWithTable.isEmpty())
        m_split->setSizes(m_sizesWithTable);
    else if (!shown)
        m_split->setSizes({ m_caption->sizeHint().height(), std::max(height(), 400) });
}

void TablePage::addToolWidget(QWidget *widget)
{
    m_tools->addWidget(widget);
}

void TablePage::setCaption(const QString &text)
{
    m_caption->setText(text);
}

QString TablePage::caption() const
{
    return m_caption->text();
}

void TablePage::setDetailsProvider(std::function<QString(const QModelIndexList &)> provider)
{
    m_detailsProvider = std::move(provider);
    updateDetails();
}

void TablePage::updateDetails()
{
    if (!m_detailsProvider)
        return;
    const QString html = m_detailsProvider(selectedSourceRows());
    if (m_details->toHtml() != html)
        m_details->setHtml(html);
}

void TablePage::setRepairable(int count, bool readOnly, const QString &text)
{
    m_repair->setVisible(!readOnly);
    m_repair->setEnabled(count > 0);
    m_repair->setText(!text.isEmpty() ? text
            : count > 1               ? tr("Repair %1 findings…").arg(count)
                                      : tr("Repair…"));
}

void TablePage::setModel(QAbstractItemModel *model)
{
    if (model == m_source)
        return;
    m_source = model;
    m_decorator->setSourceModel(model);
}

QModelIndex TablePage::toSource(const QModelIndex &proxy) const
{
    return m_decorator->mapToSource(m_filter->mapToSource(proxy));
}

QModelIndexList TablePage::selectedSourceRows() const
{
    QModelIndexList rows = m_view->selectionModel()->selectedRows();
    // View order: top to bottom as shown (a group before its routes).
    const auto position = [](const QModelIndex &i) {
        return i.parent().isValid() ? std::make_pair(i.parent().row(), i.row()) : std::make_pair(i.row(), -1);
    };
    std::sort(rows.begin(), rows.end(),
        [&](const QModelIndex &a, const QModelIndex &b) { return position(a) < position(b); });
    QModelIndexList out;
    out.reserve(rows.size());
    for (const QModelIndex &i : std::as_const(rows))
        out << toSource(i);
    return out;
}

QStringList TablePage::selectedKeys() const
{
    QStringList keys;
    for (const QModelIndex &i : selectedSourceRows())
        keys << i.data(ConsoleRole::Key).toString();
    return keys;
}

QStringList TablePage::selectedFindings() const
{
    QStringList ids;
    for (const QModelIndex &i : selectedSourceRows()) {
        for (const QString &id : i.data(ConsoleRole::Findings).toStringList()) {
            if (!ids.contains(id))
                ids << id;
        }
    }
    return ids;
}

int TablePage::selectKeys(const QStringList &keys, int role)
{
    const QSet<QString> wanted(keys.cbegin(), keys.cend());
    QItemSelection selection;
    QModelIndex first;
    int count = 0;
    const int lastColumn = m_filter->columnCount() - 1;
    std::function<void(const QModelIndex &)> visit = [&](const QModelIndex &parent) {
        for (int row = 0; row < m_filter->rowCount(parent); ++row) {
            const QModelIndex index = m_filter->index(row, 0, parent);
            if (wanted.contains(index.data(role).toString())) {
                selection.select(index, index.siblingAtColumn(lastColumn));
                ++count;
                if (parent.isValid())
                    m_view->expand(parent);
                if (!first.isValid())
                    first = index;
            }
            if (m_filter->hasChildren(index))
                visit(index);
        }
    };
    if (!wanted.isEmpty())
        visit(QModelIndex());
    QItemSelectionModel *sm = m_view->selectionModel();
    {
        const QSignalBlocker blocker(sm);
        sm->select(selection, QItemSelectionModel::ClearAndSelect);
        if (first.isValid())
            sm->setCurrentIndex(first, QItemSelectionModel::NoUpdate);
    }
    if (first.isValid())
        m_view->scrollTo(first, QAbstractItemView::PositionAtCenter);
    m_view->viewport()->update();
    updateDetails();
    emit selectionChanged();
    return count;
}

void TablePage::selectOnly(const QModelIndex &proxyRow)
{
    // Through the selection model, never QAbstractItemView::selectRow: that one reads the keyboard's
    // modifiers, so Shift+F8 would extend the selection instead of moving it.
    m_view->selectionModel()->setCurrentIndex(
        proxyRow, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(proxyRow);
}

bool TablePage::step(int delta, bool problemsOnly)
{
    const int rows = m_filter->rowCount();
    if (rows == 0)
        return false;
    QModelIndex current = m_view->currentIndex();
    while (current.isValid() && current.parent().isValid())
        current = current.parent(); // from a route inside a group: its group
    const bool currentSelected
        = current.isValid() && m_view->selectionModel()->isRowSelected(current.row(), current.parent());
    // A row that has the cursor but is not selected is where the walk starts, not a row to skip.
    int at = current.isValid() ? current.row() : (delta > 0 ? -1 : rows);
    if (current.isValid() && !currentSelected)
        at -= delta;
    for (int n = 0; n < rows; ++n) {
        at = ((at + delta) % rows + rows) % rows;
        const QModelIndex candidate = m_filter->index(at, 0);
        if (!problemsOnly || ConsoleRole::severityOf(candidate)) {
            selectOnly(candidate);
            return true;
        }
    }
    return false;
}

bool TablePage::focusFirstMatch()
{
    if (m_filter->rowCount() == 0)
        return false;
    m_view->setFocus(Qt::OtherFocusReason);
    selectOnly(m_filter->index(0, 0));
    return true;
}

bool TablePage::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_view && event->type() == QEvent::FocusIn) {
        const auto reason = static_cast<QFocusEvent *>(event)->reason();
        // Tabbing in: the row under the cursor (or the first) becomes the selection.
        if ((reason == Qt::TabFocusReason || reason == Qt::BacktabFocusReason
                || reason == Qt::ShortcutFocusReason)
            && !m_view->selectionModel()->hasSelection() && m_filter->rowCount() > 0) {
            const QModelIndex current = m_view->currentIndex();
            selectOnly(current.isValid() ? current.siblingAtColumn(0) : m_filter->index(0, 0));
        }
    } else if (watched == m_filterBox && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Down && key->modifiers() == Qt::NoModifier) {
            focusFirstMatch();
            return true;
        }
        if (key->key() == Qt::Key_Escape && !m_filterBox->text().isEmpty()) {
            m_filterBox->clear();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void TablePage::saveHeader() const
{
    Settings::viewHeader(m_view->objectName()).setValue(m_view->header()->saveState());
    Settings::viewColumns(m_view->objectName()).setValue(m_view->header()->count());
}

void TablePage::restoreHeader()
{
    const QByteArray state = Settings::viewHeader(m_view->objectName()).value();
    const int columns = Settings::viewColumns(m_view->objectName()).value();
    // A header saved with other columns (an older version's) would put them in the wrong places.
    if (!state.isEmpty() && columns == m_view->header()->count())
        m_view->header()->restoreState(state);
}
