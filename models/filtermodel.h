#pragma once

#include <QSortFilterProxyModel>

// The filter box and sorting of the console's tables: sorts by the source's
// SortRole (raw values, never formatted text), filters on every column's text
// (case-insensitive, all words must match), and optionally hides rows below a
// severity. Used over every item model of the console.
class FilterModel : public QSortFilterProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FilterModel)

public:
    // `sortRole`: the source's raw-value role; `severityRole`: its int(Severity) role, or -1.
    explicit FilterModel(int sortRole, int severityRole = -1, QObject *parent = nullptr);

    void setText(const QString &text);
    // Show only rows whose severity is at most `rank` (0 critical, 1 warning, 2 info); -1 shows all.
    void setMaximumSeverity(int rank);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    int m_severityRole;
    QStringList m_words;
    int m_maximumSeverity = -1;
};
