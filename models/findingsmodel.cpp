#include "findingsmodel.h"

#include <QSet>

FindingsModel::FindingsModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void FindingsModel::reindex()
{
    m_rowById.clear();
    m_rowById.reserve(m_rows.size());
    for (int i = 0; i < m_rows.size(); ++i)
        m_rowById.insert(m_rows.at(i).finding.id(), i);
}

void FindingsModel::setDiagnosis(const Diagnosis &diagnosis)
{
    QHash<QString, const Finding *> incoming;
    incoming.reserve(diagnosis.findings.size());
    for (const Finding &f : diagnosis.findings)
        incoming.insert(f.id(), &f);

    // Remove the rows of findings that are gone, in contiguous runs from the end.
    for (int i = int(m_rows.size()) - 1; i >= 0;) {
        if (incoming.contains(m_rows.at(i).finding.id())) {
            --i;
            continue;
        }
        int first = i;
        while (first > 0 && !incoming.contains(m_rows.at(first - 1).finding.id()))
            --first;
        beginRemoveRows(QModelIndex(), first, i);
        m_rows.remove(first, i - first + 1);
        endRemoveRows();
        i = first - 1;
    }
    reindex();

    // Update the rows that stay; signal only the ones that changed, in runs.
    int runStart = -1;
    auto flush = [this, &runStart](int end) {
        if (runStart >= 0)
            emit dataChanged(index(runStart, 0), index(end, ColumnCount - 1));
        runStart = -1;
    };
    for (int i = 0; i < m_rows.size(); ++i) {
        Row &row = m_rows[i];
        const Finding &next = *incoming.value(row.finding.id());
        const QString message = next.message();
        const bool hasRepair = next.repair().has_value();
        const bool changed = message != row.message || next.severity != row.finding.severity || hasRepair != row.hasRepair;
        row.finding = next;
        if (changed) {
            row.message = message;
            row.hasRepair = hasRepair;
            if (runStart < 0)
                runStart = i;
        } else {
            flush(i - 1);
        }
    }
    flush(int(m_rows.size()) - 1);

    // Append the new ones in one batch.
    QList<Row> added;
    for (const Finding &f : diagnosis.findings) {
        if (!m_rowById.contains(f.id()))
            added.append(Row{f, f.message(), f.repair().has_value()});
    }
    if (!added.isEmpty()) {
        beginInsertRows(QModelIndex(), int(m_rows.size()), int(m_rows.size() + added.size() - 1));
        m_rows.append(added);
        reindex();
        endInsertRows();
    }
}

const Finding *FindingsModel::findingAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? &m_rows.at(row).finding : nullptr;
}

int FindingsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int FindingsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FindingsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return QVariant();
    const Row &row = m_rows.at(index.row());
    const Finding &f = row.finding;
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        switch (index.column()) {
        case SeverityColumn:
            return severityName(f.severity);
        case KindColumn:
            return f.kind;
        case SubjectColumn:
            return f.subject;
        case MessageColumn:
            return row.message;
        case RepairColumn:
            return row.hasRepair ? tr("Repair…") : QString();
        }
        break;
    case SortRole:
        switch (index.column()) {
        case SeverityColumn:
            return int(f.severity);
        case KindColumn:
            return f.kind;
        case SubjectColumn:
            return f.subject;
        case MessageColumn:
            return row.message;
        case RepairColumn:
            return row.hasRepair;
        }
        break;
    case IdRole:
        return f.id();
    case SeverityRole:
        return int(f.severity);
    case HasRepairRole:
        return row.hasRepair;
    default:
        break;
    }
    return QVariant();
}

QVariant FindingsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case SeverityColumn:
        return tr("Severity");
    case KindColumn:
        return tr("Kind");
    case SubjectColumn:
        return tr("Subject");
    case MessageColumn:
        return tr("What is wrong");
    case RepairColumn:
        return tr("Repair");
    }
    return QVariant();
}

QHash<int, QByteArray> FindingsModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractTableModel::roleNames();
    names.insert(SortRole, "sort");
    names.insert(IdRole, "findingId");
    names.insert(SeverityRole, "severity");
    names.insert(HasRepairRole, "hasRepair");
    return names;
}
