#pragma once

#include "keyedrows.h"
#include "klusterstate.h"
#include "routeaudit.h"

#include <QHash>

// The visual route audit: every route on the kluster's router (and the routes
// nodes need and lack) with its roles and the owner of its nexthop, in
// router order; grouped by destination through SortRole of the destination
// column. Updated incrementally by (destination, nexthop).
class RoutesModel : public KeyedTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RoutesModel)

public:
    enum Column { DestinationColumn, NexthopColumn, RolesColumn, OwnerColumn, PositionColumn, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole + 1,
        RolesRole,        // int(RouteAudit::Roles)
        KeyRole,          // "<destination> via <nexthop>"
        ProblemRole,      // bool: duplicate, stale, orphaned or missing
        SeverityRole,     // int(Severity) of the row's problem: orphaned alone is a warning; -1 when none
    };

    explicit RoutesModel(QObject *parent = nullptr);

    // `foreignOwners`: nexthop address -> "kluster <name>" for klusters sharing the router.
    void setState(const KlusterState &state, const QHash<QString, QString> &foreignOwners = {});
    int rowOf(const QString &key) const { return m_rows.rowOf(key); }
    int routeCount() const { return m_routeCount; }
    int limit() const { return m_limit; }

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    struct Row
    {
        QString key;
        QString destination;
        QString nexthop;
        int roles = 0;
        QString owner;
        int position = -1;
        quint64 destinationOrder = 0;  // the destination's network address and length, for grouping
        friend bool operator==(const Row &a, const Row &b)
        {
            return a.key == b.key && a.roles == b.roles && a.owner == b.owner && a.position == b.position;
        }
    };

    // The rows for a state, made anywhere (a worker thread: nothing here touches the model),
    // then applied on the model's thread: the expensive part never runs on the GUI thread.
    struct Prepared
    {
        QList<Row> rows;
        int routeCount;
        int limit;
    };
    static Prepared prepare(const KlusterState &state, const QHash<QString, QString> &foreignOwners);
    void apply(const Prepared &prepared);

private:
    KeyedRows<Row> m_rows;
    int m_routeCount = 0;
    int m_limit = 0;
};
