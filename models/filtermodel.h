#pragma once

#include "core/finding.h"
#include "models/filterquery.h"

#include <QSortFilterProxyModel>
#include <functional>
#include <optional>

// The filter box and sorting of the console's tables (flat or grouped):
// sorts by ConsoleRole::Sort (raw values, never formatted text), rows of
// equal value by their key so that the order never changes between runs;
// filters with FilterQuery over the rows' ConsoleRole::Filter fields (the
// text of every column for models without them); optionally hides rows below
// a severity, or by a predicate of the view (a scope). In a grouped model a
// group is shown when it or one of its rows matches, with all its rows;
// rows inside a group keep the order of ConsoleRole::Sort of column
// `childOrderColumn` whatever the sort (a router's order, for routes).
class FilterModel : public QSortFilterProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FilterModel)

public:
    explicit FilterModel(QObject *parent = nullptr);

    void setKnownFields(const QStringList &fields) { m_fields = fields; }
    QStringList knownFields() const { return m_fields; }
    void setText(const QString &text);
    const FilterQuery &query() const { return m_query; }
    // Show only rows at least as severe as `least` (warning: critical and warning rows); none shows all.
    void setMinimumSeverity(std::optional<Severity> least);
    // An extra condition on source rows (top level only), e.g. the route view's scope; empty: none.
    void setPredicate(std::function<bool(const QModelIndex &source)> predicate);
    // For a grouped model: a group is shown when it or one of its rows matches, with all its rows, and
    // its rows keep the order of `childOrderColumn`'s sort value.
    void setGrouped(int childOrderColumn);
    // For a model whose top-level rows are headings (the sidebar's connections): a heading is shown when
    // one of its rows matches, with only the rows that match; both levels sort by the chosen column.
    void setHeadings();
    // For a tree of groups among single rows (the findings grouped by incident), on or off: every row is
    // filtered as in a flat table, so grouping hides no row the flat table shows; a group is shown when one
    // of its rows is, or when the filter names the group itself (then with all its rows). The groups come
    // first whichever way the column sorts; rows sort by it within their group.
    void setGroupsFirst(bool on);
    bool groupsFirst() const { return m_groupsFirst; }

signals:
    void queryChanged();

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    bool filtering() const; // a query, a least severity or a predicate
    void refilterRows();

    QStringList m_fields;
    FilterQuery m_query;
    std::optional<Severity> m_minimumSeverity;
    int m_childOrderColumn = -1;
    bool m_headings = false;
    bool m_groupsFirst = false;
    std::function<bool(const QModelIndex &)> m_predicate;
};
