#pragma once

#include "core/deviceroutes.h"
#include "core/diagnosis.h"
#include "core/klusterstate.h"
#include "core/routeaudit.h"
#include "models/consolerole.h"
#include "models/keyedrows.h"
#include "models/klustertable.h"

#include <QAbstractItemModel>
#include <QHash>
#include <QVariantMap>
#include <memory>

// The visual route audit: every route on the kluster's router, and the routes
// nodes need and lack, grouped by destination. A destination with one route
// is one row; a destination with several (duplicates, or a wrong route and
// the missing right one) is a group row that sums up its routes, with the
// routes as its children in router order. Each row carries its roles, the
// owner of its nexthop (a node, an instance, another kluster on the shared
// router, or nobody) and the findings about it. Beside Neutron's order, what
// each device of the router's HA pair holds (where the ASR driver's view was
// read): its place in the device's order, or that it lacks the route; the routes
// only a device holds are rows too. Updated in place by destination and by
// "<destination> via <nexthop>": no reset on refresh.
class RoutesModel : public QAbstractItemModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RoutesModel)

public:
    enum Column
    {
        DestinationColumn,
        NexthopColumn,
        OwnerColumn,
        RolesColumn,
        PositionColumn, // Neutron's order
        FirstDeviceColumn, // the ACTIVE device (or the first whose role is not known)
        SecondDeviceColumn, // the STANDBY
        ColumnCount
    };
    enum Role
    {
        SortRole = ConsoleRole::Sort,
        KeyRole = ConsoleRole::Key, // "<destination> via <nexthop>"; a group of several: its destination
        SeverityRole = ConsoleRole::Severity, // of the row's problem
        FindingsRole = ConsoleRole::Findings,
        FilterRole = ConsoleRole::Filter,
        RolesRole = ConsoleRole::FirstModelRole, // int(RouteAudit::Roles); a group: all its routes' roles
        ProblemRole, // bool: duplicate, stale, orphaned or missing
        ForeignRole, // bool: not the kluster's (another kluster's, an operator's)
        GroupRole, // bool: a group row of several routes
        PositionRole, // int: index in router order; -1 when not on the router
        DeviceProblemRole, // bool: a device lacks it, or holds it and Neutron does not
    };
    static constexpr int DeviceColumnCount = SecondDeviceColumn - FirstDeviceColumn + 1;

    explicit RoutesModel(QObject *parent = nullptr);

    static QStringList filterFields();

    // `foreignOwners`: nexthop address -> "kluster <name> (instance <name>)" for the other klusters on the
    // router.
    void setState(const KlusterState &state, const Diagnosis &diagnosis = Diagnosis(),
        const QHash<QString, QString> &foreignOwners = {});
    // The index of the row with `key` (a route, or a group's destination); invalid when none.
    QModelIndex indexOf(const QString &key) const;
    int routeCount() const { return m_routeCount; } // routes on the router
    int foreignCount() const { return m_foreignCount; } // of which not the kluster's
    int limit() const { return m_limit; }
    QString routerName() const { return m_routerName; }
    QString routerId() const { return m_routerId; }
    // The device columns' titles ("ACTIVE 10.44.1.35"); none where the devices' view was not read.
    QStringList deviceHeaders() const { return m_deviceHeaders; }
    // Why the devices' view is not shown (the source's error), empty where there is none to read.
    QString devicesWhy() const { return m_devicesWhy; }

    QModelIndex index(int row, int column, const QModelIndex &parent = QModelIndex()) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // One route (or, for a group, the sum of its routes).
    struct Row
    {
        QString key;
        QString destination;
        QString nexthop; // a group: "3 routes"
        int roles = 0;
        QString owner;
        QString destinationNode; // the node whose pod CIDR the destination is
        int position = -1;
        std::optional<Severity> severity;
        QStringList findings;
        QStringList names; // the nodes and instances it involves (nexthop's, destination's)
        QString summary; // a group: its routes' roles in words
        QString unknown; // why its role and owner cannot be told (a source not read); empty: they can
        QList<DeviceCell> devices; // per device column; a group: its first route on each device
        QStringList deviceFirst; // a group: per device column, the nexthop of its first route there
        quint64 destinationOrder = 0; // the destination's network address and length
        bool group = false;
        friend bool operator==(const Row &a, const Row &b)
        {
            return a.key == b.key && a.nexthop == b.nexthop && a.roles == b.roles && a.owner == b.owner
                && a.position == b.position && a.severity == b.severity && a.findings == b.findings
                && a.unknown == b.unknown && a.devices == b.devices && a.deviceFirst == b.deviceFirst;
        }
    };
    struct Group
    {
        Row row;
        QList<Row> routes; // empty for a destination with one route (the row is the route)
    };

    // The rows for a state, made anywhere (a worker thread: nothing here touches the model),
    // then applied on the model's thread: the expensive part never runs on the GUI thread.
    struct Prepared : PreparedRows<Row> // `rows`: each group's row, in the order of `groups`
    {
        QList<Group> groups;
        QHash<QString, QString> groupOf; // row key -> its group's (destination), every row
        int routeCount = 0;
        int foreignCount = 0;
        int limit = 0;
        QString routerName;
        QString routerId;
        QStringList deviceHeaders;
        QString devicesWhy;
        Prepared slice(int from, int n) const
        {
            Prepared p = sliceOf(*this, from, n);
            p.groups = groups.mid(from, n);
            return p;
        }
    };
    static Prepared prepare(
        const KlusterState &state, const Diagnosis &diagnosis, const QHash<QString, QString> &foreignOwners);
    // The kluster's rows, its nexthops' owners among the other klusters read.
    static Prepared prepare(const TableInput &in)
    {
        return prepare(in.state, in.diagnosis, foreignOwners(in.state, in.others));
    }
    // Nexthop address -> "kluster <name> (instance <name>)" for the other klusters on `mine`'s router.
    static QHash<QString, QString> foreignOwners(
        const KlusterState &mine, const QList<std::shared_ptr<const KlusterFetch>> &others);
    void apply(const Prepared &prepared);
    // What the model holds, for a plan made on another thread.
    KeyedRows<Row>::Snapshot snapshot() const { return m_groups.snapshot(); }
    // The rows the last updates replaced, to be freed where it costs the window nothing.
    RetiredRows takeRetired() { return std::exchange(m_retired, {}); }

private:
    struct Node; // a group's routes, at a stable address (the children's internal pointer)
    const Row *rowAt(const QModelIndex &index) const;
    bool addGroup(const Group &group); // false when it is there already
    static QVariantMap fieldsOf(const Row &r);
    KeyedRows<Row> m_groups;
    QHash<QString, std::shared_ptr<Node>> m_nodes; // by group key
    QHash<QString, QString> m_groupOf; // row key -> group key
    RetiredRows m_retired;
    int m_routeCount = 0;
    int m_foreignCount = 0;
    int m_limit = 0;
    QString m_routerName;
    QString m_routerId;
    QStringList m_deviceHeaders;
    QString m_devicesWhy;
};
