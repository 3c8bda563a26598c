#include "views/klustersidebar.h"

#include "models/filtermodel.h"
#include "models/klustergroups.h"
#include "models/klustersmodel.h"
#include "views/cachedtextdelegate.h"
#include "views/plaintooltips.h"
#include "views/severitydecorator.h"

#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

KlusterKey KlusterSidebar::keyAt(const QModelIndex &row)
{
    return { row.data(KlustersModel::ConnectionRole).toString(),
        row.data(KlustersModel::KlusterRole).toString() };
}

KlusterSidebar::KlusterSidebar(KlustersModel *klusters, QWidget *parent)
    : QWidget(parent)
    , m_filter(new QLineEdit(this))
    , m_noMatch(new QLabel(this))
    , m_view(new QTreeView(this))
{
    // The klusters under their connection and region, worst first at both levels; its own filter (same
    // syntax as the tables').
    auto *groups = new KlusterGroups(this);
    groups->setSourceModel(klusters);
    auto *decorator = new SeverityDecorator(this);
    decorator->setAlarmRole(KlustersModel::AlarmRole);
    decorator->setBoldHeadings(true);
    decorator->setSourceModel(groups);
    auto *filter = new FilterModel(this);
    filter->setKnownFields(KlustersModel::filterFields());
    filter->setHeadings();
    filter->setSourceModel(decorator);
    m_view->setModel(filter);
    PlainToolTips::install(m_view);
    m_view->setItemDelegate(new CachedTextDelegate(m_view)); // each cell's text laid out once, not per paint
    m_view->setObjectName(QStringLiteral("Klusters"));
    m_view->setAccessibleName(tr("Klusters"));
    m_view->setRootIsDecorated(true);
    m_view->setIndentation(12);
    // A name keeps its start, and a state after it ("legacy (incomplete)") is cut before the name is; the
    // whole text is in the tooltip.
    m_view->setTextElideMode(Qt::ElideRight);
    // Groups open, unless the engineer closed them; a group the filter brings back opens as it was.
    connect(filter, &QAbstractItemModel::rowsInserted, this,
        [this](const QModelIndex &parent, int first, int last) {
            if (!parent.isValid())
                expandGroups(first, last);
        });
    // A burst of changes (a thousand klusters' results, one after the other) paints the list at most ten
    // times a second: Qt repaints the whole list for a change of any row (visible or not, several columns at
    // once), and each kluster's first result moves its row; painted for every result, that was a third of the
    // window's time in a first load. The first change paints at once, the next within 100 ms wait for the
    // timer, which paints them together. What the list holds is never held back: only its painting.
    auto *paintPace = new QTimer(this);
    paintPace->setSingleShot(true);
    paintPace->setInterval(100);
    connect(paintPace, &QTimer::timeout, this, [this, paintPace] {
        if (m_view->viewport()->updatesEnabled())
            return;
        m_view->viewport()->setUpdatesEnabled(true); // paints it whole
        paintPace->start(); // and holds the changes of the next 100 ms
    });
    const auto paced = [this, paintPace] {
        if (paintPace->isActive())
            m_view->viewport()->setUpdatesEnabled(false);
        else
            paintPace->start();
    };
    connect(filter, &QAbstractItemModel::dataChanged, this, paced);
    connect(filter, &QAbstractItemModel::layoutChanged, this, paced);
    // What the engineer does is painted at once: a scroll, another current row.
    const auto now = [this] { m_view->viewport()->setUpdatesEnabled(true); };
    connect(m_view->verticalScrollBar(), &QScrollBar::valueChanged, this, now);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, now);
    const auto expandAll = [this] { expandGroups(0, m_view->model()->rowCount() - 1); };
    connect(filter, &QAbstractItemModel::modelReset, this, expandAll);
    connect(filter, &QAbstractItemModel::layoutChanged, this, expandAll);
    connect(m_view, &QTreeView::collapsed, this, [this](const QModelIndex &group) {
        m_collapsed.insert(group.data(KlustersModel::KeyRole).toString());
    });
    connect(m_view, &QTreeView::expanded, this, [this](const QModelIndex &group) {
        m_collapsed.remove(group.data(KlustersModel::KeyRole).toString());
    });
    m_view->setUniformRowHeights(true);
    m_view->setAllColumnsShowFocus(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setSortingEnabled(true);
    // The one ranking, worst on top; the column shows each kluster's worst cause, why it ranks there.
    m_view->sortByColumn(KlustersModel::WorstColumn, Qt::AscendingOrder);
    m_view->setColumnHidden(KlustersModel::FetchedColumn, true);
    // The alerts' count once a connection names an Alertmanager.
    m_view->setColumnHidden(KlustersModel::AlertsColumn, true);
    m_view->setColumnWidth(KlustersModel::AlertsColumn, 52);
    connect(klusters, &KlustersModel::alertsConfiguredChanged, this,
        [this](bool configured) { m_view->setColumnHidden(KlustersModel::AlertsColumn, !configured); });
    // The name, the counts, then the worst cause taking the rest of the width (elided last: its tooltip says
    // it whole, and the header above it says the list is sorted by it).
    QHeaderView *header = m_view->header();
    header->moveSection(header->visualIndex(KlustersModel::WorstColumn), header->count() - 1);
    header->setStretchLastSection(false);
    header->setSectionResizeMode(KlustersModel::KlusterColumn, QHeaderView::Interactive);
    header->setSectionResizeMode(KlustersModel::WorstColumn, QHeaderView::Stretch);
    header->setMinimumSectionSize(30);
    m_view->setColumnWidth(KlustersModel::KlusterColumn, 100);
    m_view->setColumnWidth(KlustersModel::ConnectionColumn, 80);
    m_view->setColumnWidth(KlustersModel::CriticalColumn, 44);
    m_view->setColumnWidth(KlustersModel::WarningColumn, 46);
    m_view->setColumnHidden(KlustersModel::ConnectionColumn, true); // the groups say it
    m_view->setMinimumWidth(150);
    m_view->installEventFilter(this);
    m_filter->setPlaceholderText(tr("Filter klusters (Ctrl+K)"));
    m_filter->setToolTip(tr("Words match kluster, connection and region names; fields: %1; -word excludes")
                             .arg(KlustersModel::filterFields().join(QStringLiteral(", "))));
    m_filter->setAccessibleName(tr("Filter klusters"));
    m_filter->setClearButtonEnabled(true);
    m_filter->installEventFilter(this);
    connect(m_filter, &QLineEdit::textChanged, filter, &FilterModel::setText);
    connect(m_filter, &QLineEdit::textChanged, this, &KlusterSidebar::filterChanged);
    connect(m_filter, &QLineEdit::returnPressed, this, [this] {
        const QModelIndex first = firstKluster();
        if (!first.isValid())
            return;
        m_view->setFocus(Qt::OtherFocusReason);
        m_view->selectionModel()->setCurrentIndex(
            first, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    });
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 0, 4);
    layout->setSpacing(4);
    layout->addWidget(m_filter);
    layout->addWidget(m_noMatch);
    layout->addWidget(m_view, 1);
    // A filter that leaves no kluster says so, and how to get them back: never an unexplained empty list.
    m_noMatch->setTextFormat(Qt::PlainText); // it repeats what was typed
    m_noMatch->setWordWrap(true);
    m_noMatch->setVisible(false);
    const auto sayWhy = [this, filter] {
        const bool none = !m_filter->text().isEmpty() && filter->rowCount() == 0;
        m_noMatch->setText(none
                ? tr("No kluster matches “%1” (Escape clears the filter).").arg(m_filter->text())
                : QString());
        m_noMatch->setVisible(none);
    };
    connect(m_filter, &QLineEdit::textChanged, this, sayWhy);
    connect(filter, &QAbstractItemModel::rowsInserted, this, sayWhy);
    connect(filter, &QAbstractItemModel::rowsRemoved, this, sayWhy);
    connect(filter, &QAbstractItemModel::modelReset, this, sayWhy);
    setMinimumWidth(150);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex &current) {
            const KlusterKey key = keyAt(current);
            if (!key.isNull())
                emit currentChanged(key);
        });
}

void KlusterSidebar::expandGroups(int first, int last)
{
    QAbstractItemModel *model = m_view->model();
    for (int row = first; row <= last && row < model->rowCount(); ++row) {
        const QModelIndex group = model->index(row, 0);
        if (!m_collapsed.contains(group.data(KlustersModel::KeyRole).toString()))
            m_view->expand(group);
    }
}

bool KlusterSidebar::select(const KlusterKey &key)
{
    QAbstractItemModel *proxy = m_view->model();
    for (int g = 0; g < proxy->rowCount(); ++g) {
        const QModelIndex group = proxy->index(g, 0);
        for (int row = 0; row < proxy->rowCount(group); ++row) {
            const QModelIndex i = proxy->index(row, 0, group);
            if (keyAt(i) != key)
                continue;
            m_view->expand(group); // a kluster chosen elsewhere (the fleet, a notification) is seen
            m_view->selectionModel()->setCurrentIndex(
                i, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            return true;
        }
    }
    return false;
}

bool KlusterSidebar::reveal(const KlusterKey &key)
{
    if (select(key))
        return true;
    // Asked for elsewhere (a notification, the fleet) but hidden by the filter: the filter gives way, rather
    // than another kluster staying shown in its place.
    if (m_filter->text().isEmpty())
        return false;
    m_filter->clear();
    return select(key);
}

QModelIndex KlusterSidebar::firstKluster() const
{
    // The first kluster in the list's order: the worst of all when sorted worst first.
    QAbstractItemModel *proxy = m_view->model();
    for (int g = 0; g < proxy->rowCount(); ++g) {
        const QModelIndex group = proxy->index(g, 0);
        if (proxy->rowCount(group) > 0)
            return proxy->index(0, 0, group);
    }
    return QModelIndex();
}

void KlusterSidebar::focusList(Qt::FocusReason reason)
{
    m_view->setFocus(reason);
    if (!m_view->currentIndex().isValid() && firstKluster().isValid())
        m_view->setCurrentIndex(firstKluster());
}

bool KlusterSidebar::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::KeyPress)
        return QWidget::eventFilter(watched, event);
    const auto *key = static_cast<QKeyEvent *>(event);
    if (watched == m_view) {
        // Escape and Backspace act on the filter from the list too: it is the list's filter.
        if (key->key() == Qt::Key_Escape && !m_filter->text().isEmpty()) {
            m_filter->clear();
            return true;
        }
        if (key->key() == Qt::Key_Backspace && !m_filter->text().isEmpty()) {
            m_filter->setFocus(Qt::OtherFocusReason);
            m_filter->end(false);
            m_filter->backspace();
            return true;
        }
        // A k9s reflex, "/", asks for the filter: it goes there empty-handed, not typed into it (":" is the
        // window's command palette).
        if (key->text() == QLatin1String("/")) {
            m_filter->setFocus(Qt::ShortcutFocusReason);
            m_filter->selectAll();
            return true;
        }
        // The kluster list filters as you type.
        const QString text = key->text();
        if (!text.isEmpty() && text.at(0).isPrint() && !text.at(0).isSpace()
            && !(key->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))) {
            m_filter->setFocus(Qt::OtherFocusReason);
            m_filter->setText(text); // typing from the list starts a new filter
            return true;
        }
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter)
            && KlusterGroups::isGroup(m_view->currentIndex())) {
            // A group opens or closes.
            const QModelIndex group = m_view->currentIndex().siblingAtColumn(0);
            m_view->setExpanded(group, !m_view->isExpanded(group));
            return true;
        }
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            emit enterRequested();
            return true;
        }
    } else if (watched == m_filter) {
        if (key->key() == Qt::Key_Down) {
            m_view->setFocus(Qt::OtherFocusReason);
            if (firstKluster().isValid() && !m_view->currentIndex().isValid())
                m_view->setCurrentIndex(firstKluster());
            return true;
        }
        if (key->key() == Qt::Key_Escape && !m_filter->text().isEmpty()) {
            m_filter->clear();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}
