#include "routesmodel.h"

#include "klusterindex.h"

RoutesModel::RoutesModel(QObject *parent)
    : KeyedTableModel(parent)
    , m_rows([](const Row &r) { return r.key; }, [](const Row &a, const Row &b) { return a == b; })
{
}

RoutesModel::Prepared RoutesModel::prepare(const KlusterState &state, const QHash<QString, QString> &foreignOwners)
{
    Prepared p;
    const KlusterIndex join(state);
    const RouteAudit audit(join);
    p.routeCount = audit.routeCount();
    p.limit = state.maxRoutes.value_or(30);
    QList<Row> next;
    next.reserve(audit.entries().size());
    for (const RouteAudit::Entry &e : audit.entries()) {
        Row r;
        r.destination = e.route.destination;
        r.nexthop = e.route.nexthop;
        r.key = r.destination + QStringLiteral(" via ") + r.nexthop;
        r.roles = int(e.roles);
        r.position = e.position;
        if (!e.nexthopNode.isEmpty())
            r.owner = tr("node %1").arg(e.nexthopNode);
        else if (foreignOwners.contains(canonicalAddress(e.route.nexthop)))
            r.owner = foreignOwners.value(canonicalAddress(e.route.nexthop));  // another kluster on the shared router
        else if (!e.nexthopInstance.isEmpty())
            r.owner = tr("instance %1").arg(e.nexthopInstance);
        else
            r.owner = tr("nobody");
        if (e.destination.isValid() && e.destination.isIPv4())
            r.destinationOrder = (quint64(e.destination.network().toIPv4Address()) << 8) | quint64(e.destination.prefixLength());
        next.append(r);
    }
    p.rows = std::move(next);
    return p;
}

void RoutesModel::apply(const Prepared &prepared)
{
    m_routeCount = prepared.routeCount;
    m_limit = prepared.limit;
    applyRows(m_rows, prepared.rows);
}

void RoutesModel::setState(const KlusterState &state, const QHash<QString, QString> &foreignOwners)
{
    apply(prepare(state, foreignOwners));
}

int RoutesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.rows().size());
}

int RoutesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RoutesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return QVariant();
    const Row &r = m_rows.rows().at(index.row());
    const RouteAudit::Roles roles = RouteAudit::Roles::fromInt(r.roles);
    switch (role) {
    case RolesRole:
        return r.roles;
    case KeyRole:
        return r.key;
    case ProblemRole:
        // A wrong route, or a needed one that is absent; the correct route of a duplicate set is fine.
        return bool(roles & (RouteAudit::Stale | RouteAudit::Orphaned | RouteAudit::Missing))
            || ((roles & RouteAudit::Duplicate) && !(roles & RouteAudit::Correct));
    case SeverityRole: {
        if (!data(index, ProblemRole).toBool())
            return -1;
        const bool critical = (roles & (RouteAudit::Stale | RouteAudit::Missing)) || ((roles & RouteAudit::Duplicate) && !(roles & RouteAudit::Correct));
        return critical ? 0 : 1;
    }
    case Qt::DisplayRole:
        switch (index.column()) {
        case DestinationColumn: return r.destination;
        case NexthopColumn: return r.nexthop;
        case RolesColumn: return RouteAudit::roleNames(roles).join(QStringLiteral(", "));
        case OwnerColumn: return r.owner;
        case PositionColumn: return r.position < 0 ? tr("(not on the router)") : QString::number(r.position + 1);
        }
        break;
    case SortRole:
        switch (index.column()) {
        case DestinationColumn: return r.destinationOrder;
        case PositionColumn: return r.position;
        default: return data(index, Qt::DisplayRole);
        }
    default:
        break;
    }
    return QVariant();
}

QVariant RoutesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case DestinationColumn: return tr("Destination");
    case NexthopColumn: return tr("Nexthop");
    case RolesColumn: return tr("Role");
    case OwnerColumn: return tr("Nexthop belongs to");
    case PositionColumn: return tr("Router order");
    }
    return QVariant();
}
