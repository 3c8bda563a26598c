#pragma once

#include "core/auditrecord.h"
#include "models/consolerole.h"

#include <QAbstractTableModel>
#include <QList>

// The audit log of repairs (JSON Lines records, newest last) as a table for
// the console's audit view: when, who, kluster, finding, repair, result.
// Records are only ever appended; `setRecords` adds the new ones.
class AuditModel : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AuditModel)

public:
    enum Column
    {
        TimeColumn,
        WhoColumn,
        KlusterColumn,
        FindingColumn,
        RepairColumn,
        ResultColumn,
        OpenForColumn, // from the finding's first sighting (the history's) to the repair's end
        ColumnCount
    };
    enum Role
    {
        SortRole = ConsoleRole::Sort,
        KeyRole = ConsoleRole::Key, // "<time> <finding>"
        SeverityRole = ConsoleRole::Severity, // a repair that did not fix: warning; failed: critical
        FilterRole = ConsoleRole::Filter, // kluster, id, kind, who, cloud, result
        RecordRole = ConsoleRole::FirstModelRole, // the AuditRecord
    };
    static QStringList filterFields();

    explicit AuditModel(QObject *parent = nullptr);

    // The whole log as read now: records beyond the ones shown are appended;
    // a shorter log (rotated or cleared) replaces them.
    void setRecords(const QList<AuditRecord> &records);

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<AuditRecord> m_records;
};
