#include "models/filtermodel.h"

#include "models/consolerole.h"

FilterModel::FilterModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(ConsoleRole::Sort);
    setDynamicSortFilter(true);
}

void FilterModel::setGrouped(int childOrderColumn)
{
    m_childOrderColumn = childOrderColumn;
    setRecursiveFilteringEnabled(true);
    setAutoAcceptChildRows(true);
}

void FilterModel::setHeadings()
{
    m_headings = true;
    refilterRows();
}

bool FilterModel::filtering() const
{
    return !m_query.isEmpty() || m_minimumSeverity || m_predicate;
}

void FilterModel::refilterRows()
{
    // Headings: their rows' matches decide for them (recursive filtering) only while something filters.
    // Recursive, Qt looks at a row's heading again after every change of the row, and the tree view then
    // sizes the heading's row again (the first row of the view): a round of ten thousand klusters' results
    // sized the sidebar's first heading ten thousand times, a third of the window's time. With nothing
    // filtering every heading is shown (a group has a row from its start to its end).
    if (m_headings && isRecursiveFilteringEnabled() != filtering())
        setRecursiveFilteringEnabled(filtering()); // the rows filtered again
    else
        invalidateRowsFilter();
}

void FilterModel::setGroupsFirst(bool on)
{
    m_groupsFirst = on;
    setRecursiveFilteringEnabled(on);
    setAutoAcceptChildRows(on);
    invalidate();
}

void FilterModel::setText(const QString &text)
{
    m_query = FilterQuery::parse(text, m_fields);
    refilterRows();
    emit queryChanged();
}

void FilterModel::setMinimumSeverity(std::optional<Severity> least)
{
    m_minimumSeverity = least;
    refilterRows();
}

void FilterModel::setPredicate(std::function<bool(const QModelIndex &)> predicate)
{
    m_predicate = std::move(predicate);
    refilterRows();
}

bool FilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QAbstractItemModel *source = sourceModel();
    const QModelIndex row = source->index(sourceRow, 0, sourceParent);
    if (m_headings && !sourceParent.isValid())
        return !filtering(); // else shown for its rows that match (recursive filtering), never on its own
    if (m_groupsFirst && !sourceParent.isValid() && source->hasChildren(row)) {
        // A group: shown for its rows (recursive filtering), or with all of them when the filter names it.
        if (m_query.isEmpty() || (m_predicate && !m_predicate(row)))
            return false;
        const QVariant fields = row.data(ConsoleRole::Filter);
        return fields.isValid() && m_query.matches(fields.toMap());
    }
    if (m_groupsFirst) {
        // Any row, in a group or not, is filtered as in a flat table.
        if (m_minimumSeverity) {
            const std::optional<Severity> severity = ConsoleRole::severityOf(row);
            if (!severity || *severity > *m_minimumSeverity)
                return false;
        }
        if (m_query.isEmpty())
            return true;
        const QVariant fields = row.data(ConsoleRole::Filter);
        return !fields.isValid() || m_query.matches(fields.toMap());
    }
    if (!sourceParent.isValid()) {
        // Scope and severity decide for a whole group: its rows follow it (autoAcceptChildRows).
        if (m_predicate && !m_predicate(row))
            return false;
        if (m_minimumSeverity) {
            const std::optional<Severity> severity = ConsoleRole::severityOf(row);
            if (!severity || *severity > *m_minimumSeverity) // Critical is the lowest
                return false;
        }
    } else if (m_predicate || m_minimumSeverity) {
        return false; // a row inside a group is shown with its group, never on its own
    }
    if (m_query.isEmpty())
        return true;
    const QVariant fields = row.data(ConsoleRole::Filter);
    if (fields.isValid())
        return m_query.matches(fields.toMap());
    QString text;
    for (int c = 0; c < source->columnCount(sourceParent); ++c)
        text += source->index(sourceRow, c, sourceParent).data(Qt::DisplayRole).toString() + QLatin1Char(' ');
    return m_query.matchesText(text);
}

bool FilterModel::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    if (m_groupsFirst && !left.parent().isValid()) {
        // The groups before the single rows, whichever way the column sorts.
        const bool a = sourceModel()->hasChildren(left.siblingAtColumn(0));
        const bool b = sourceModel()->hasChildren(right.siblingAtColumn(0));
        if (a != b)
            return sortOrder() == Qt::AscendingOrder ? a : b;
    }
    if (left.parent().isValid() && m_childOrderColumn >= 0) {
        // Inside a group: always the group's own order, whichever way the groups are sorted.
        const QVariant a = left.siblingAtColumn(m_childOrderColumn).data(ConsoleRole::Sort);
        const QVariant b = right.siblingAtColumn(m_childOrderColumn).data(ConsoleRole::Sort);
        const bool less = QVariant::compare(a, b) == QPartialOrdering::Less;
        const bool greater = QVariant::compare(a, b) == QPartialOrdering::Greater;
        return sortOrder() == Qt::AscendingOrder ? less : greater;
    }
    const QVariant a = left.data(sortRole());
    const QVariant b = right.data(sortRole());
    const QPartialOrdering order = QVariant::compare(a, b);
    if (order == QPartialOrdering::Less)
        return true;
    if (order == QPartialOrdering::Greater)
        return false;
    // Equal (or not comparable): by key, so that equal rows never swap between runs.
    const QString ka = left.siblingAtColumn(0).data(ConsoleRole::Key).toString();
    const QString kb = right.siblingAtColumn(0).data(ConsoleRole::Key).toString();
    if (ka != kb)
        return sortOrder() == Qt::AscendingOrder ? ka < kb : ka > kb;
    return left.row() < right.row();
}
