#include "models/routesmodel.h"

#include "core/cidr.h"
#include "core/klusterindex.h"
#include "core/knowledge.h"
#include "core/routereport.h"

#include <QMap>
#include <QSet>
#include <algorithm>
#include <climits>

struct RoutesModel::Node
{
    QString destination;
    KeyedRows<Row> routes { [](const Row &r) { return r.key; },
        [](const Row &a, const Row &b) { return a == b; } };
};

namespace {

bool isProblem(RouteAudit::Roles roles)
{
    // A wrong route, or a needed one that is absent; the correct route of a duplicate set is fine.
    return bool(roles & (RouteAudit::Stale | RouteAudit::Orphaned | RouteAudit::Missing))
        || ((roles & RouteAudit::Duplicate) && !(roles & RouteAudit::Correct));
}

std::optional<Severity> severityOfRoles(RouteAudit::Roles roles)
{
    if (!isProblem(roles))
        return std::nullopt;
    // An orphaned route alone holds a slot (a warning); a route that takes or lacks a node's traffic is
    // critical.
    const bool critical = (roles & (RouteAudit::Stale | RouteAudit::Missing))
        || ((roles & RouteAudit::Duplicate) && !(roles & RouteAudit::Correct));
    return critical ? Severity::Critical : Severity::Warning;
}

bool hasDeviceProblem(const QList<DeviceCell> &cells)
{
    return std::any_of(cells.cbegin(), cells.cend(), [](const DeviceCell &c) { return c.isProblem(); });
}

// A route only a device holds: on no router of Neutron's and needed by no node.
bool onDeviceOnly(int position, RouteAudit::Roles roles)
{
    return position < 0 && !(roles & RouteAudit::Missing);
}

QString destinationKey(const RouteAudit::Entry &e)
{
    return e.destination.isValid() ? e.destination.toString() : e.route.destination;
}

} // namespace

RoutesModel::RoutesModel(QObject *parent)
    : QAbstractItemModel(parent)
    , m_groups([](const Row &r) { return r.destination; }, [](const Row &a, const Row &b) { return a == b; })
{ }

QStringList RoutesModel::filterFields()
{
    return { QStringLiteral("destination"), QStringLiteral("nexthop"), QStringLiteral("node"),
        QStringLiteral("owner"), QStringLiteral("role"), QStringLiteral("kind"), QStringLiteral("id"),
        QStringLiteral("severity") };
}

RoutesModel::Prepared RoutesModel::prepare(
    const KlusterState &state, const Diagnosis &diagnosis, const QHash<QString, QString> &foreignOwners)
{
    Prepared p;
    // Nothing is made up: without the router there is no route to show (none missing either), and without
    // the servers or the nodes no route's role or owner can be told (diagnosis.md: missing evidence decides
    // nothing).
    const Knowledge known(state);
    if (!known.routes())
        return p;
    const bool rolesKnown = known.routeRoles();
    const QString unknownWhy = rolesKnown ? QString() : known.unknown(known.firstUnknownOfRoutes());
    const KlusterIndex join(state);
    const RouteAudit audit(join);
    p.routeCount = audit.routeCount();
    p.foreignCount = audit.foreignCount();
    // The limit the diagnosis judged by (0: not known), decided in one place for every view and command.
    p.limit = diagnosis.routeLimit;
    p.routerName = state.router.name;
    p.routerId = state.router.id;
    // The devices as the diagnosis judged them (their roles); a state shown without one: as read.
    const DeviceColumns devices(state,
        diagnosis.routerDevices.devices.size() == state.routerDevices.devices.size() ? diagnosis.routerDevices
                                                                                     : state.routerDevices);
    for (int c = 0; c < std::min(devices.count(), DeviceColumnCount); ++c)
        p.deviceHeaders << devices.header(c);
    p.devicesWhy = devices.isRead() ? QString() : devices.why();
    const auto cellsOf = [&](const Route &route) {
        QList<DeviceCell> cells;
        for (int c = 0; c < p.deviceHeaders.size(); ++c)
            cells << devices.cell(c, route);
        return cells;
    };

    // The findings about each route (a missing route is on no router yet, but its repair names it).
    const QHash<QString, QList<const Finding *>> findingsOf = RouteReport::findingsByRoute(diagnosis);

    QMap<QString, int> order; // destination -> group, in first-seen order
    QList<QList<Row>> routesOf;
    // The routes only a device holds (Neutron deleted them, the device missed it) join their destination.
    QList<RouteAudit::Entry> entries = audit.entries();
    QSet<QString> audited; // a route a node needs and Neutron lacks is its row already, whoever holds it
    for (const RouteAudit::Entry &e : entries)
        audited.insert(canonicalRoute(e.route));
    for (const Route &route : devices.onlyOnDevices()) {
        if (audited.contains(canonicalRoute(route)))
            continue;
        RouteAudit::Entry e;
        e.route = route;
        e.destination = Cidr::parse(route.destination);
        const int node = e.destination.isValid() ? join.nodeByPodCidr(e.destination) : -1;
        if (node >= 0)
            e.destinationNode = state.nodes.at(node).name;
        const int hopNode = join.nodeByAddress(canonicalAddress(route.nexthop));
        if (hopNode >= 0)
            e.nexthopNode = state.nodes.at(hopNode).name;
        const int instance = join.instanceByAddress(canonicalAddress(route.nexthop));
        if (instance >= 0)
            e.nexthopInstance = state.instances.at(instance).name;
        entries << e;
    }
    for (const RouteAudit::Entry &e : std::as_const(entries)) {
        const bool deviceOnly = onDeviceOnly(e.position, e.roles);
        if (!rolesKnown && e.position < 0 && !deviceOnly)
            continue; // a missing route is one a node needs: not known without the nodes and servers
        Row r;
        r.destination = e.route.destination;
        r.nexthop = e.route.nexthop;
        r.key = r.destination + QStringLiteral(" via ") + r.nexthop;
        r.roles = int(e.roles);
        r.position = e.position;
        r.destinationNode = e.destinationNode;
        r.devices = cellsOf(e.route);
        const QString foreignOwner = foreignOwners.value(canonicalAddress(e.route.nexthop));
        if (!e.nexthopNode.isEmpty())
            r.owner = tr("node %1").arg(e.nexthopNode);
        else if (!foreignOwner.isEmpty())
            r.owner = foreignOwner; // another kluster on the shared router
        else if (!e.nexthopInstance.isEmpty())
            r.owner = tr("instance %1").arg(e.nexthopInstance);
        else if (!known.known(Source::Servers))
            r.owner = tr("unknown"); // no instance is known to have it, nor known not to
        else
            r.owner = known.known(Source::Nodes) ? tr("nobody") : tr("no instance (nodes unknown)");
        if (e.destination.isValid() && e.destination.isIPv4())
            r.destinationOrder
                = (quint64(e.destination.network().toIPv4()) << 8) | quint64(e.destination.prefixLength());
        // Marked by its own problem only: the correct route of a duplicate set belongs to the finding, but is
        // fine.
        std::optional<Severity> severity = rolesKnown ? severityOfRoles(e.roles) : std::nullopt;
        if (!rolesKnown) {
            // What the router alone says (its order, its duplicates, what lies outside the pod network).
            r.roles = int(e.roles & (RouteAudit::Effective | RouteAudit::Duplicate | RouteAudit::Foreign));
            r.unknown = unknownWhy;
        }
        for (const Finding *f : findingsOf.value(r.key)) {
            r.findings << f->id();
            if (severity || !rolesKnown || hasDeviceProblem(r.devices))
                severity = ConsoleRole::worse(severity, f->severity);
        }
        r.severity = severity;
        r.names = QStringList { e.nexthopNode, e.nexthopInstance, e.destinationNode };
        r.names.removeAll(QString());
        r.names.removeDuplicates();
        const QString dest = destinationKey(e);
        auto it = order.find(dest);
        if (it == order.end()) {
            it = order.insert(dest, int(routesOf.size()));
            routesOf.append(QList<Row>());
        }
        routesOf[it.value()].append(r);
    }

    p.groups.reserve(routesOf.size());
    for (auto it = order.cbegin(); it != order.cend(); ++it) {
        QList<Row> &routes = routesOf[it.value()];
        // Router order first, the missing routes (not on the router) last.
        std::stable_sort(routes.begin(), routes.end(), [](const Row &a, const Row &b) {
            return (a.position < 0 ? INT_MAX : a.position) < (b.position < 0 ? INT_MAX : b.position);
        });
        Group g;
        if (routes.size() == 1) {
            g.row = routes.first();
            g.row.destination = it.key();
            p.groups.append(g);
            continue;
        }
        Row &sum = g.row;
        sum.group = true;
        sum.key = it.key();
        sum.destination = it.key();
        sum.destinationOrder = routes.first().destinationOrder;
        sum.destinationNode = routes.first().destinationNode;
        sum.position = routes.first().position;
        QMap<QString, int> counts;
        QString winner;
        for (const Row &r : std::as_const(routes)) {
            sum.roles |= r.roles;
            if (!r.unknown.isEmpty())
                sum.unknown = r.unknown;
            sum.severity = ConsoleRole::worse(sum.severity, r.severity);
            for (const QString &id : r.findings) {
                if (!sum.findings.contains(id))
                    sum.findings << id;
            }
            const RouteAudit::Roles roles = RouteAudit::Roles::fromInt(r.roles);
            if (onDeviceOnly(r.position, roles))
                counts[tr("on a device only")] += 1;
            else if (roles & RouteAudit::Correct)
                counts[tr("correct")] += 1;
            else if (roles & RouteAudit::Missing)
                counts[tr("missing")] += 1;
            else if (roles & RouteAudit::Stale)
                counts[tr("stale")] += 1;
            else if (roles & RouteAudit::Orphaned)
                counts[tr("orphaned")] += 1;
            else if (roles & RouteAudit::Foreign)
                counts[tr("foreign")] += 1;
            else
                counts[r.unknown.isEmpty() ? tr("undecided") : tr("unknown")] += 1;
            if ((roles & RouteAudit::Effective) && !(roles & RouteAudit::Correct))
                winner = RouteAudit::roleNames(roles & (RouteAudit::Stale | RouteAudit::Orphaned))
                             .join(QLatin1Char('/'));
        }
        const int missing = int(std::count_if(routes.cbegin(), routes.cend(),
            [](const Row &r) { return RouteAudit::Roles::fromInt(r.roles) & RouteAudit::Missing; }));
        sum.nexthop = missing == 0 ? tr("%1 routes").arg(routes.size())
                                   : tr("%1 routes, %2 missing").arg(routes.size()).arg(missing);
        // Each device's first route to the destination: the one that carries its traffic there.
        for (int c = 0; c < p.deviceHeaders.size(); ++c) {
            const Row *first = nullptr;
            bool lacks = false;
            for (const Row &r : std::as_const(routes)) {
                const DeviceCell &cell = r.devices.at(c);
                lacks = lacks || cell.state == DeviceCell::Lacks;
                if (cell.position >= 0 && (!first || cell.position < first->devices.at(c).position))
                    first = &r;
            }
            sum.devices << (first ? first->devices.at(c)
                                  : DeviceCell { lacks ? DeviceCell::Lacks : DeviceCell::Absent, -1 });
            sum.deviceFirst << (first ? first->nexthop : QString());
        }
        QStringList parts;
        for (auto c = counts.cbegin(); c != counts.cend(); ++c)
            parts << QStringLiteral("%1 %2").arg(c.value()).arg(c.key());
        sum.owner = !sum.destinationNode.isEmpty() ? tr("pod CIDR of node %1").arg(sum.destinationNode)
            : known.known(Source::Nodes)           ? tr("no node has this pod CIDR")
                                                   : tr("whose pod CIDR: unknown (nodes not read)");
        QString summary = parts.join(QStringLiteral(", "));
        if (!winner.isEmpty())
            summary += tr("; the %1 one wins").arg(winner);
        sum.summary = summary;
        g.routes = routes;
        p.groups.append(g);
    }
    // What apply() needs at once, made here and not on the GUI thread: the groups' rows, and each row's
    // group.
    p.rows.reserve(p.groups.size());
    p.groupOf.reserve(p.groups.size());
    for (const Group &g : std::as_const(p.groups)) {
        p.rows.append(g.row);
        p.groupOf.insert(g.row.key, g.row.destination);
        for (const Row &r : g.routes)
            p.groupOf.insert(r.key, g.row.destination);
    }
    return p;
}

bool RoutesModel::addGroup(const Group &group)
{
    // A new group comes with its routes: made before it is inserted, without signals (nobody sees them yet).
    if (m_nodes.contains(group.row.destination))
        return false;
    auto node = std::make_shared<Node>();
    node->destination = group.row.destination;
    node->routes.apply(group.routes, { [](int, int) {}, [](int, int) {}, [] {}, [] {}, [](int, int) {} });
    m_nodes.insert(group.row.destination, node);
    return true;
}

void RoutesModel::apply(const Prepared &prepared)
{
    m_routeCount = prepared.routeCount;
    m_foreignCount = prepared.foreignCount;
    m_limit = prepared.limit;
    m_routerName = prepared.routerName;
    m_routerId = prepared.routerId;
    m_devicesWhy = prepared.devicesWhy;
    if (m_deviceHeaders != prepared.deviceHeaders) {
        m_deviceHeaders = prepared.deviceHeaders;
        emit headerDataChanged(Qt::Horizontal, FirstDeviceColumn, SecondDeviceColumn);
    }
    const KeyedRows<Row>::Signals groupSignals { [this](
                                                     int a, int b) { beginRemoveRows(QModelIndex(), a, b); },
        [this](int a, int b) { beginInsertRows(QModelIndex(), a, b); }, [this] { endRemoveRows(); },
        [this] { endInsertRows(); },
        [this](int a, int b) { emit dataChanged(index(a, 0), index(b, ColumnCount - 1)); } };

    if (prepared.appended) {
        // The next slice of a first load: new groups with their routes, after the ones shown (each row's
        // group came whole with the first slice).
        QList<Row> groups;
        groups.reserve(prepared.groups.size());
        for (const Group &g : prepared.groups) {
            if (addGroup(g))
                groups.append(g.row);
        }
        m_groups.append(groups, groupSignals);
        return;
    }

    QHash<QString, QString> oldGroupOf = std::exchange(m_groupOf, prepared.groupOf);
    QSet<QString> added;
    for (const Group &g : prepared.groups) {
        if (addGroup(g))
            added.insert(g.row.destination);
    }
    // The groups: gone ones removed, staying ones updated, new ones appended.
    m_groups.apply(prepared.rows, groupSignals, prepared.plan);
    QList<std::shared_ptr<Node>> goneNodes;
    for (auto it = m_nodes.begin(); it != m_nodes.end();) {
        if (m_groups.rowOf(it.key()) < 0) {
            goneNodes << it.value();
            it = m_nodes.erase(it);
        } else {
            ++it;
        }
    }
    // The routes of the groups that stayed (most destinations have one route, and no routes under them).
    for (const Group &g : prepared.groups) {
        const std::shared_ptr<Node> node = m_nodes.value(g.row.destination);
        if (!node || (g.routes.isEmpty() && node->routes.size() == 0) || added.contains(g.row.destination))
            continue;
        const QModelIndex parent = index(m_groups.rowOf(g.row.destination), 0);
        node->routes.apply(g.routes,
            { [this, parent](int a, int b) { beginRemoveRows(parent, a, b); },
                [this, parent](int a, int b) { beginInsertRows(parent, a, b); }, [this] { endRemoveRows(); },
                [this] { endInsertRows(); },
                [this, parent](int a, int b) {
                    emit dataChanged(index(a, 0, parent), index(b, ColumnCount - 1, parent));
                } });
    }
    // What was replaced goes to the caller's retirement, freed off this thread.
    auto retired = std::make_shared<QList<Row>>(m_groups.takeRetired());
    for (auto it = m_nodes.begin(); it != m_nodes.end(); ++it)
        retired->append(it.value()->routes.takeRetired());
    m_retired << std::shared_ptr<const void>(retired)
              << std::make_shared<const QList<std::shared_ptr<Node>>>(std::move(goneNodes))
              << std::make_shared<const QHash<QString, QString>>(std::move(oldGroupOf));
}

QHash<QString, QString> RoutesModel::foreignOwners(
    const KlusterState &mine, const QList<std::shared_ptr<const KlusterFetch>> &others)
{
    QHash<QString, QString> owners;
    for (const auto &fetch : others) {
        const KlusterState &other = fetch->state;
        if (other.router.id.isEmpty() || other.router.id != mine.router.id)
            continue;
        const KlusterIndex index(other);
        for (int i : index.klusterInstances()) {
            for (const auto &a : other.instances.at(i).addresses)
                owners.insert(a.address,
                    tr("kluster %1 (instance %2)").arg(other.kluster.name, other.instances.at(i).name));
        }
    }
    return owners;
}

void RoutesModel::setState(
    const KlusterState &state, const Diagnosis &diagnosis, const QHash<QString, QString> &foreignOwners)
{
    apply(prepare(state, diagnosis, foreignOwners));
}

QVariantMap RoutesModel::fieldsOf(const Row &r)
{
    QStringList kinds;
    for (const QString &id : r.findings)
        kinds << id.section(QLatin1Char(':'), 0, 0);
    return QVariantMap { { QStringLiteral("destination"), QStringList { r.destination } },
        { QStringLiteral("nexthop"), QStringList { r.nexthop } }, { QStringLiteral("node"), r.names },
        { QStringLiteral("owner"), QStringList { r.owner } },
        { QStringLiteral("role"), RouteAudit::roleNames(RouteAudit::Roles::fromInt(r.roles)) },
        { QStringLiteral("kind"), kinds }, { QStringLiteral("id"), r.findings },
        { QStringLiteral("severity"), ConsoleRole::severityField(r.severity) } };
}

QModelIndex RoutesModel::indexOf(const QString &key) const
{
    const int group = m_groups.rowOf(m_groupOf.value(key));
    if (group < 0)
        return QModelIndex();
    const QModelIndex g = index(group, 0);
    if (g.data(KeyRole).toString() == key)
        return g;
    const auto node = m_nodes.value(m_groups.at(group).destination);
    const int row = node ? node->routes.rowOf(key) : -1;
    return row < 0 ? QModelIndex() : index(row, 0, g);
}

const RoutesModel::Row *RoutesModel::rowAt(const QModelIndex &index) const
{
    if (!index.isValid())
        return nullptr;
    if (const Node *node = static_cast<const Node *>(index.internalPointer()))
        return index.row() < node->routes.size() ? &node->routes.at(index.row()) : nullptr;
    return index.row() < m_groups.size() ? &m_groups.at(index.row()) : nullptr;
}

QModelIndex RoutesModel::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount)
        return QModelIndex();
    if (!parent.isValid())
        return row < m_groups.size() ? createIndex(row, column, nullptr) : QModelIndex();
    if (parent.internalPointer())
        return QModelIndex(); // routes have no children
    const auto node = m_nodes.value(m_groups.at(parent.row()).destination);
    if (!node || row >= node->routes.size())
        return QModelIndex();
    return createIndex(row, column, node.get());
}

QModelIndex RoutesModel::parent(const QModelIndex &child) const
{
    const Node *node = child.isValid() ? static_cast<const Node *>(child.internalPointer()) : nullptr;
    if (!node)
        return QModelIndex();
    return createIndex(m_groups.rowOf(node->destination), 0, nullptr);
}

int RoutesModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_groups.size());
    if (parent.internalPointer() || parent.column() != 0)
        return 0;
    const auto node = m_nodes.value(m_groups.at(parent.row()).destination);
    return node ? int(node->routes.size()) : 0;
}

int RoutesModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant RoutesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return QVariant();
    const Row *row = rowAt(index);
    if (!row)
        return QVariant();
    const Row &r = *row;
    const RouteAudit::Roles roles = RouteAudit::Roles::fromInt(r.roles);
    switch (role) {
    case RolesRole:
        return r.roles;
    case KeyRole:
        return r.key;
    case ProblemRole:
        return r.group || !r.unknown.isEmpty() || onDeviceOnly(r.position, roles)
            ? r.severity.has_value()
            : isProblem(roles) || hasDeviceProblem(r.devices);
    case DeviceProblemRole:
        return hasDeviceProblem(r.devices);
    case ForeignRole:
        return r.group ? roles == RouteAudit::Roles(RouteAudit::Foreign) : bool(roles & RouteAudit::Foreign);
    case GroupRole:
        return r.group;
    case PositionRole:
        return r.position;
    case SeverityRole:
        return ConsoleRole::severityData(r.severity);
    case FindingsRole:
        return r.findings;
    case FilterRole: {
        // Made when filtering, not kept per row. A group matches on what any of its routes has.
        if (!r.group)
            return fieldsOf(r);
        QVariantMap all;
        const auto node = m_nodes.value(r.destination);
        for (int i = 0; node && i < node->routes.size(); ++i) { // also while its routes are updated
            const QVariantMap f = fieldsOf(node->routes.at(i));
            for (auto it = f.cbegin(); it != f.cend(); ++it)
                all.insert(it.key(), all.value(it.key()).toStringList() + it.value().toStringList());
        }
        return all;
    }
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        switch (index.column()) {
        case DestinationColumn:
            return r.destination;
        case NexthopColumn:
            return r.nexthop;
        case RolesColumn:
            if (r.group)
                return r.summary;
            if (onDeviceOnly(r.position, roles))
                return tr("on a device only: Neutron no longer has it");
            if (!r.unknown.isEmpty()) {
                const QStringList names = RouteAudit::roleNames(roles);
                return names.isEmpty() ? tr("role %1").arg(r.unknown)
                                       : tr("%1; role %2").arg(names.join(QStringLiteral(", ")), r.unknown);
            }
            return RouteAudit::roleNames(roles).join(QStringLiteral(", "));
        case OwnerColumn:
            return r.owner;
        case PositionColumn:
            if (onDeviceOnly(r.position, roles))
                return tr("not in Neutron");
            if (r.position < 0)
                return tr("(not on the router)");
            return r.group ? tr("from %1").arg(r.position + 1) : QString::number(r.position + 1);
        case FirstDeviceColumn:
        case SecondDeviceColumn: {
            const int c = index.column() - FirstDeviceColumn;
            const DeviceCell cell = r.devices.value(c);
            if (r.group && cell.position >= 0) // the route that carries the destination's traffic there
                return cell.state == DeviceCell::Extra
                    ? tr("via %1, not in Neutron").arg(r.deviceFirst.value(c))
                    : tr("via %1").arg(r.deviceFirst.value(c));
            return cell.text();
        }
        }
        break;
    case SortRole:
        switch (index.column()) {
        case DestinationColumn:
            return r.destinationOrder;
        case PositionColumn:
            return r.position < 0 ? INT_MAX : r.position;
        case FirstDeviceColumn:
        case SecondDeviceColumn: {
            const DeviceCell cell = r.devices.value(index.column() - FirstDeviceColumn);
            return cell.position < 0 ? INT_MAX - int(cell.isProblem()) : cell.position;
        }
        default:
            return data(index, Qt::DisplayRole);
        }
    default:
        break;
    }
    return QVariant();
}

QVariant RoutesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole) {
        if (section == PositionColumn)
            return tr("Where the route is in Neutron's list of the router's routes (the intent)");
        if (section == FirstDeviceColumn || section == SecondDeviceColumn)
            return tr("Where the device holds the route in its own order (the truth: its first route for a "
                      "destination carries the traffic), as the ASR driver compares it with Neutron; "
                      "\"missing\": Neutron has it, the device does not");
    }
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractItemModel::headerData(section, orientation, role);
    switch (section) {
    case DestinationColumn:
        return tr("Destination");
    case NexthopColumn:
        return tr("Nexthop");
    case RolesColumn:
        return tr("Role");
    case OwnerColumn:
        return tr("Nexthop belongs to");
    case PositionColumn:
        return tr("Neutron");
    case FirstDeviceColumn:
    case SecondDeviceColumn:
        return m_deviceHeaders.value(section - FirstDeviceColumn);
    }
    return QVariant();
}
