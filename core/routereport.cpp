#include "core/routereport.h"

#include "core/cidr.h"
#include "core/deviceroutes.h"
#include "core/diagnosis.h"
#include "core/klusterindex.h"
#include "core/knowledge.h"
#include "core/routeaudit.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

namespace RouteReport {

QHash<QString, QList<const Finding *>> findingsByRoute(const Diagnosis &diagnosis)
{
    QHash<QString, QList<const Finding *>> of;
    for (const Finding &f : diagnosis.findings) {
        if (f.kind == FindingKind::RouteLimit)
            continue; // about the router as a whole
        QList<Route> routes = f.affected().routes;
        if (findingFamily(f.kind) == FindingFamily::Route) {
            if (const std::optional<RepairPlan> plan = f.repair())
                routes << plan->routes;
        }
        QSet<QString> seen;
        for (const Route &r : std::as_const(routes)) {
            const QString key = r.destination + QStringLiteral(" via ") + r.nexthop;
            if (!seen.contains(key)) {
                seen.insert(key);
                of[key] << &f;
            }
        }
    }
    return of;
}

namespace {

// One route of the report.
struct Line
{
    Route route;
    int neutron = -1; // in Neutron's order; -1: not in Neutron
    QStringList roles;
    QString owner;
    QList<DeviceCell> devices;
    QStringList findings;
};

struct Table
{
    QString why; // no route can be shown: why
    QString rolesWhy; // roles and owners cannot be told: why
    QList<Line> lines;
};

Table tableOf(const KlusterState &state, const Diagnosis &diagnosis, const DeviceColumns &columns)
{
    Table t;
    const Knowledge known(state);
    if (!known.routes()) {
        t.why = known.unknown(Source::Router);
        return t;
    }
    const bool rolesKnown = known.routeRoles();
    if (!rolesKnown)
        t.rolesWhy = known.unknown(known.firstUnknownOfRoutes());
    const KlusterIndex join(state);
    const RouteAudit audit(join);
    const QHash<QString, QList<const Finding *>> findings = findingsByRoute(diagnosis);
    const auto line = [&](const Route &route, int neutron, RouteAudit::Roles roles, const QString &node,
                          const QString &instance) {
        Line l;
        l.route = route;
        l.neutron = neutron;
        l.roles = RouteAudit::roleNames(rolesKnown
                ? roles
                : roles & (RouteAudit::Effective | RouteAudit::Duplicate | RouteAudit::Foreign));
        l.owner = !node.isEmpty() ? QStringLiteral("node ") + node
            : !instance.isEmpty() ? QStringLiteral("instance ") + instance
                                  : QString();
        for (int c = 0; c < columns.count(); ++c)
            l.devices << columns.cell(c, route);
        for (const Finding *f : findings.value(route.destination + QStringLiteral(" via ") + route.nexthop))
            l.findings << f->id();
        return l;
    };
    for (const RouteAudit::Entry &e : audit.entries()) {
        if (e.position < 0 && !rolesKnown)
            continue; // a missing route is one a node needs: not known without the nodes and servers
        t.lines << line(e.route, e.position, e.roles, e.nexthopNode, e.nexthopInstance);
    }
    QSet<QString> audited; // a route a node needs and Neutron lacks is its line already, whoever holds it
    for (const RouteAudit::Entry &e : audit.entries())
        audited.insert(canonicalRoute(e.route));
    for (const Route &r : columns.onlyOnDevices()) {
        if (audited.contains(canonicalRoute(r)))
            continue;
        const QString hop = canonicalAddress(r.nexthop);
        const int node = join.nodeByAddress(hop);
        const int instance = join.instanceByAddress(hop);
        t.lines << line(r, -1, {}, node >= 0 ? state.nodes.at(node).name : QString(),
            instance >= 0 ? state.instances.at(instance).name : QString());
    }
    return t;
}

QString routerName(const KlusterState &state)
{
    return state.router.name.isEmpty() ? state.router.id : state.router.name;
}

} // namespace

QByteArray toJson(const KlusterState &state, const Diagnosis &diagnosis)
{
    const DeviceColumns columns(state, diagnosis.routerDevices);
    const Table t = tableOf(state, diagnosis, columns);
    QJsonArray devices;
    for (int c = 0; c < columns.count(); ++c) {
        const RouterDevice *d = columns.device(c);
        devices.append(QJsonObject { { QStringLiteral("host"), d ? QJsonValue(d->host) : QJsonValue() },
            { QStringLiteral("role"),
                d && d->role != DeviceRole::Unknown ? QJsonValue(deviceRoleName(d->role)) : QJsonValue() },
            { QStringLiteral("header"), columns.header(c) } });
    }
    QJsonArray routes;
    for (const Line &l : t.lines) {
        QJsonArray cells;
        for (int c = 0; c < l.devices.size(); ++c) {
            const RouterDevice *d = columns.device(c);
            const DeviceCell &cell = l.devices.at(c);
            cells.append(QJsonObject { { QStringLiteral("host"), d ? QJsonValue(d->host) : QJsonValue() },
                { QStringLiteral("state"), cell.name() },
                { QStringLiteral("position"),
                    cell.position >= 0 ? QJsonValue(cell.position + 1) : QJsonValue() } });
        }
        routes.append(QJsonObject { { QStringLiteral("destination"), l.route.destination },
            { QStringLiteral("nexthop"), l.route.nexthop },
            { QStringLiteral("neutron"), l.neutron >= 0 ? QJsonValue(l.neutron + 1) : QJsonValue() },
            { QStringLiteral("roles"), QJsonArray::fromStringList(l.roles) },
            { QStringLiteral("owner"), l.owner.isEmpty() ? QJsonValue() : QJsonValue(l.owner) },
            { QStringLiteral("devices"), cells },
            { QStringLiteral("findings"), QJsonArray::fromStringList(l.findings) } });
    }
    const QJsonObject root {
        { QStringLiteral("kluster"), state.kluster.name },
        { QStringLiteral("router"),
            QJsonObject { { QStringLiteral("id"), state.router.id },
                { QStringLiteral("name"), state.router.name },
                { QStringLiteral("routes"), int(state.router.routes.size()) },
                { QStringLiteral("limit"),
                    diagnosis.routeLimit > 0 ? QJsonValue(diagnosis.routeLimit) : QJsonValue() },
                { QStringLiteral("unknown"), t.why.isEmpty() ? QJsonValue() : QJsonValue(t.why) },
                { QStringLiteral("rolesUnknown"),
                    t.rolesWhy.isEmpty() ? QJsonValue() : QJsonValue(t.rolesWhy) } } },
        { QStringLiteral("devices"),
            QJsonObject { { QStringLiteral("read"), columns.isRead() },
                { QStringLiteral("why"), columns.why().isEmpty() ? QJsonValue() : QJsonValue(columns.why()) },
                { QStringLiteral("notes"), QJsonArray::fromStringList(columns.notes()) },
                { QStringLiteral("columns"), devices } } },
        { QStringLiteral("routes"), routes },
    };
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

QByteArray toText(const KlusterState &state, const Diagnosis &diagnosis)
{
    const DeviceColumns columns(state, diagnosis.routerDevices);
    const Table t = tableOf(state, diagnosis, columns);
    QString out = QStringLiteral("Kluster %1 · router %2").arg(state.kluster.name, routerName(state));
    if (!t.why.isEmpty())
        return (out + QStringLiteral(": no route is shown: ") + t.why + QLatin1Char('\n')).toUtf8();
    out += QStringLiteral(": %1 of %2 routes\n")
               .arg(state.router.routes.size())
               .arg(diagnosis.routeLimit > 0 ? QString::number(diagnosis.routeLimit) : QStringLiteral("?"));
    if (columns.isRead())
        out += columns.count() > 0 && columns.device(0)
            ? QStringLiteral(
                "Beside Neutron (the intent): what each device of the router's pair holds (the truth; "
                "its first route for a destination carries the traffic).\n")
            : QStringLiteral(
                "The router's devices hold what Neutron does (the driver names no difference).\n");
    else if (!columns.why().isEmpty())
        out += QStringLiteral("The router's devices: %1\n").arg(columns.why());
    for (const QString &note : columns.notes())
        out += QStringLiteral("Note: %1\n").arg(note);
    if (!t.rolesWhy.isEmpty())
        out += QStringLiteral("Roles and owners %1\n").arg(t.rolesWhy);

    QList<QStringList> rows;
    QStringList head { QStringLiteral(""), QStringLiteral("DESTINATION"), QStringLiteral("NEXTHOP"),
        QStringLiteral("NEUTRON") };
    for (int c = 0; c < columns.count(); ++c)
        head << columns.header(c).toUpper();
    head << QStringLiteral("ROLE") << QStringLiteral("NEXTHOP IS") << QStringLiteral("FINDINGS");
    rows << head;
    for (const Line &l : t.lines) {
        const bool differs = std::any_of(
            l.devices.cbegin(), l.devices.cend(), [](const DeviceCell &c) { return c.isProblem(); });
        QStringList row { !l.findings.isEmpty() ? QStringLiteral("!")
                : differs                       ? QStringLiteral("~")
                                                : QString(),
            l.route.destination, l.route.nexthop,
            l.neutron >= 0 ? QStringLiteral("#%1").arg(l.neutron + 1)
                           : (l.roles.contains(QStringLiteral("missing")) ? QStringLiteral("missing")
                                                                          : QStringLiteral("-")) };
        for (const DeviceCell &c : l.devices)
            row << (c.text().isEmpty() ? QStringLiteral("-") : c.text());
        row << (l.roles.isEmpty() ? (l.neutron < 0 ? QStringLiteral("on a device only") : QStringLiteral("-"))
                                  : l.roles.join(QLatin1Char(',')))
            << (l.owner.isEmpty() ? QStringLiteral("-") : l.owner)
            << (l.findings.isEmpty() ? QStringLiteral("-") : l.findings.join(QLatin1Char(' ')));
        rows << row;
    }
    QList<int> widths(head.size(), 0);
    for (const QStringList &row : std::as_const(rows)) {
        for (int i = 0; i < row.size() - 1; ++i)
            widths[i] = std::max(widths[i], int(row.at(i).size()));
    }
    for (const QStringList &row : std::as_const(rows)) {
        QString text;
        for (int i = 0; i < row.size(); ++i)
            text += i + 1 < row.size() ? row.at(i).leftJustified(widths.at(i)) + QStringLiteral("  ")
                                       : row.at(i);
        out += text.trimmed().isEmpty() ? QString() : text + QLatin1Char('\n');
    }
    if (t.lines.isEmpty())
        out += QStringLiteral("(no route)\n");
    return out.toUtf8();
}

} // namespace RouteReport
