#pragma once

#include "diagnosis.h"
#include "keyedrows.h"
#include "klusterstate.h"


// Instances and nodes joined in one table: one row per kluster instance (and
// per node without an instance), with the worst finding about it. Updated
// incrementally by name. Raw values in SortRole; words in DisplayRole.
class NodesModel : public KeyedTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NodesModel)

public:
    enum Column {
        NameColumn, PoolColumn, StatusColumn, AgeColumn, AddressColumn, PodCidrColumn,
        SecurityGroupColumn, RegisteredColumn, ReadyColumn, FindingsColumn, ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1,
        NameRole,
        SeverityRole,   // int(Severity) of the worst finding about the row; -1 when none
        FindingsRole,   // QStringList of the ids of the findings about the row
    };

    explicit NodesModel(QObject *parent = nullptr);

    void setState(const KlusterState &state, const Diagnosis &diagnosis);
    int rowOf(const QString &name) const { return m_rows.rowOf(name); }

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    struct Row
    {
        QString name;
        QString pool;
        QString status;        // Nova status; "(no instance)" for a node alone
        qint64 ageSeconds = -1;
        QString address;
        QString podCidr;
        int hasGroup = -1;     // 1 yes, 0 no, -1 unknown
        bool registered = false;
        QString ready;         // True, False, Unknown, or empty
        int severity = -1;
        QStringList findings;
        friend bool operator==(const Row &a, const Row &b)
        {
            return a.name == b.name && a.pool == b.pool && a.status == b.status && a.ageSeconds / 60 == b.ageSeconds / 60
                && a.address == b.address && a.podCidr == b.podCidr && a.hasGroup == b.hasGroup && a.registered == b.registered
                && a.ready == b.ready && a.severity == b.severity && a.findings == b.findings;
        }
    };

    // The rows for a state, made anywhere (a worker thread: nothing here touches the model),
    // then applied on the model's thread: the expensive part never runs on the GUI thread.
    struct Prepared
    {
        QList<Row> rows;
    };
    static Prepared prepare(const KlusterState &state, const Diagnosis &diagnosis);
    void apply(const Prepared &prepared);

private:
    KeyedRows<Row> m_rows;
};
