#pragma once

#include "core/diagnosis.h"
#include "core/klusterstate.h"
#include "models/consolerole.h"
#include "models/keyedrows.h"
#include "models/klustertable.h"

#include <QVariantMap>

// Instances and nodes joined in one table: one row per kluster instance (and
// per node without an instance), with the worst finding about it. Updated
// incrementally by name. Raw values in SortRole; words in DisplayRole.
class NodesModel : public KeyedTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NodesModel)

public:
    // What is wrong first: the columns an engineer scans stay visible in a narrow window.
    enum Column
    {
        NameColumn,
        FindingsColumn,
        StatusColumn,
        RegisteredColumn,
        ReadyColumn,
        SecurityGroupColumn,
        AddressColumn,
        PodCidrColumn,
        PoolColumn,
        AgeColumn,
        ColumnCount
    };
    enum Role
    {
        SortRole = ConsoleRole::Sort,
        NameRole = ConsoleRole::Key,
        SeverityRole = ConsoleRole::Severity, // of the worst finding about the row
        FindingsRole = ConsoleRole::Findings, // QStringList of the ids of the findings about the row
        FilterRole = ConsoleRole::Filter,
    };
    static QStringList filterFields();

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
        QString status; // Nova status; "(no instance)" for a node alone, "(unknown)" without the servers
        qint64 ageSeconds = -1;
        QString address;
        QString podCidr;
        int hasGroup = -1; // 1 yes, 0 no, -1 unknown
        int registered = 0; // 1 yes, 0 no, -1 unknown (the nodes could not be read)
        QString ready; // True, False, Unknown, or empty
        std::optional<Severity> severity; // of the worst finding about the row
        QStringList findings;
        friend bool operator==(const Row &a, const Row &b)
        {
            return a.name == b.name && a.pool == b.pool && a.status == b.status
                && a.ageSeconds / 60 == b.ageSeconds / 60 && a.address == b.address && a.podCidr == b.podCidr
                && a.hasGroup == b.hasGroup && a.registered == b.registered && a.ready == b.ready
                && a.severity == b.severity && a.findings == b.findings;
        }
    };

    // The rows for a state, made anywhere (a worker thread: nothing here touches the model),
    // then applied on the model's thread: the expensive part never runs on the GUI thread.
    using Prepared = PreparedRows<Row>;
    static Prepared prepare(const KlusterState &state, const Diagnosis &diagnosis);
    static Prepared prepare(const TableInput &in) { return prepare(in.state, in.diagnosis); }
    void apply(const Prepared &prepared);
    // What the model holds, for a plan made on another thread.
    KeyedRows<Row>::Snapshot snapshot() const { return m_rows.snapshot(); }

private:
    KeyedRows<Row> m_rows;
};
