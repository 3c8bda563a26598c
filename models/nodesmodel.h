#pragma once

#include "core/diagnosis.h"
#include "core/klusterstate.h"
#include "models/consolerole.h"
#include "models/keyedrows.h"

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
        QString status; // Nova status; "(no instance)" for a node alone
        qint64 ageSeconds = -1;
        QString address;
        QString podCidr;
        int hasGroup = -1; // 1 yes, 0 no, -1 unknown
        bool registered = false;
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
    struct Prepared
    {
        QList<Row> rows;
        // Rows [from, from + n) alone: a large first load is applied a slice per turn of the event loop, the
        // first slice in place of what the model held, the next ones appended (`appended`: nothing else
        // changes).
        bool appended = false;
        // How the rows a model held become these, made beside them (withPlan): the model follows it if it
        // still holds those rows.
        std::optional<KeyedRows<Row>::Plan> plan;
        int size() const { return int(rows.size()); }
        Prepared slice(int from, int n) const
        {
            Prepared p = *this;
            p.plan.reset();
            p.rows = rows.mid(from, n);
            p.appended = from > 0;
            return p;
        }
    };
    static Prepared prepare(const KlusterState &state, const Diagnosis &diagnosis);
    void apply(const Prepared &prepared);
    // What the model holds, for a plan made on another thread.
    KeyedRows<Row>::Snapshot snapshot() const { return m_rows.snapshot(); }
    static void withPlan(Prepared &prepared, const KeyedRows<Row>::Snapshot &held)
    {
        prepared.plan = KeyedRows<Row>::plan(held, prepared.rows);
    }

private:
    KeyedRows<Row> m_rows;
};
