#include "filtermodel.h"

FilterModel::FilterModel(int sortRole, int severityRole, QObject *parent)
    : QSortFilterProxyModel(parent)
    , m_severityRole(severityRole)
{
    setSortRole(sortRole);
    setDynamicSortFilter(true);
}

void FilterModel::setText(const QString &text)
{
    m_words = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    invalidateFilter();
}

void FilterModel::setMaximumSeverity(int rank)
{
    m_maximumSeverity = rank;
    invalidateFilter();
}

bool FilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QAbstractItemModel *source = sourceModel();
    if (m_maximumSeverity >= 0 && m_severityRole >= 0) {
        const int severity = source->index(sourceRow, 0, sourceParent).data(m_severityRole).toInt();
        if (severity < 0 || severity > m_maximumSeverity)
            return false;
    }
    if (m_words.isEmpty())
        return true;
    QString text;
    for (int c = 0; c < source->columnCount(sourceParent); ++c)
        text += source->index(sourceRow, c, sourceParent).data(Qt::DisplayRole).toString() + QLatin1Char(' ');
    for (const QString &word : m_words) {
        if (!text.contains(word, Qt::CaseInsensitive))
            return false;
    }
    return true;
}
