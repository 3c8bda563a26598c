#include "models/nodesmodel.h"

#include "core/klusterindex.h"
#include "core/knowledge.h"

#include <QSet>
#include <algorithm>

static QString yesNo(int v)
{
    return v < 0 ? QObject::tr("?") : v ? QObject::tr("yes") : QObject::tr("no");
}

NodesModel::NodesModel(QObject *parent)
    : KeyedTableModel(parent)
    , m_rows([](const Row &r) { return r.name; }, [](const Row &a, const Row &b) { return a == b; })
{ }

NodesModel::Prepared NodesModel::prepare(const KlusterState &state, const Diagnosis &diagnosis)
{
    Prepared p;
    const KlusterIndex join(state);
    const Knowledge known(state);
    const bool nodesKnown = known.known(Source::Nodes);
    const bool serversKnown = known.known(Source::Servers);
    QHash<QString, QPair<std::optional<Severity>, QStringList>> worst; // name -> (severity, finding ids)
    for (const Finding &f : diagnosis.findings) {
        const AffectedObjects a = f.affected();
        QStringList names = a.instances + a.nodes;
        names.removeDuplicates();
        for (const QString &n : std::as_const(names)) {
            auto &entry = worst[n];
            entry.first = ConsoleRole::worse(entry.first, f.severity);
            entry.second << f.id();
        }
    }
    QList<Row> next;
    QSet<QString> seen;
    for (int i : join.klusterInstances()) {
        const Instance &instance = state.instances.at(i);
        Row r;
        r.name = instance.name;
        r.pool = join.poolOf(instance.name);
        r.status = instance.status;
        r.ageSeconds = instance.created.isValid() ? instance.created.secsTo(state.capturedAt) : -1;
        r.address = instance.fixedAddress();
        r.hasGroup = state.securityGroupsSource.known
            ? (instance.securityGroups.contains(state.kluster.securityGroupName) ? 1 : 0)
            : -1;
        if (!nodesKnown)
            r.registered = -1; // not "no": the node list could not be read
        const int n = nodesKnown ? join.nodeOfInstance(i) : -1;
        if (n >= 0) {
            const Node &node = state.nodes.at(n);
            r.registered = 1;
            r.podCidr = node.podCidrText;
            const NodeCondition *ready = node.condition(QStringLiteral("Ready"));
            r.ready = ready ? ready->status : QString();
        }
        const auto w = worst.value(r.name);
        r.severity = w.first;
        r.findings = w.second;
        seen.insert(r.name);
        next.append(r);
    }
    for (const Node &node : state.nodes) {
        if (seen.contains(node.name))
            continue;
        Row r;
        r.name = node.name;
        // Without the servers, whether it has an instance cannot be told.
        r.status = serversKnown ? tr("(no instance)") : tr("(unknown)");
        r.pool = join.poolOf(node.name); // a Kubernikus node's name says its pool, instance or not
        r.ageSeconds = node.created.isValid() ? node.created.secsTo(state.capturedAt) : -1;
        r.address = node.internalIp;
        r.podCidr = node.podCidrText;
        r.registered = 1;
        const NodeCondition *ready = node.condition(QStringLiteral("Ready"));
        r.ready = ready ? ready->status : QString();
        const auto w = worst.value(r.name);
        r.severity = w.first;
        r.findings = w.second;
        next.append(r);
    }
    // By name: the same order whatever order the lists came in (a whole list, or one kept up to date by a
    // watch and changes-since, new ones last), so that a refresh moves no row.
    std::sort(next.begin(), next.end(), [](const Row &a, const Row &b) { return a.name < b.name; });
    p.rows = std::move(next);
    return p;
}

QStringList NodesModel::filterFields()
{
    return { QStringLiteral("node"), QStringLiteral("pool"), QStringLiteral("status"), QStringLiteral("ip"),
        QStringLiteral("cidr"), QStringLiteral("ready"), QStringLiteral("kind"), QStringLiteral("id"),
        QStringLiteral("severity") };
}

void NodesModel::apply(const Prepared &prepared)
{
    applyRows(m_rows, prepared);
}

void NodesModel::setState(const KlusterState &state, const Diagnosis &diagnosis)
{
    apply(prepare(state, diagnosis));
}

int NodesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int NodesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant NodesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return QVariant();
    const Row &r = m_rows.at(index.row());
    if (role == NameRole)
        return r.name;
    if (role == SeverityRole)
        return ConsoleRole::severityData(r.severity);
    if (role == FindingsRole)
        return r.findings;
    if (role == FilterRole) {
        // Made when filtering, not kept per row: thousands of rows stay light.
        QStringList kinds;
        for (const QString &id : r.findings)
            kinds << id.section(QLatin1Char(':'), 0, 0);
        kinds.removeDuplicates();
        const auto list = [](const QString &v) { return v.isEmpty() ? QStringList() : QStringList { v }; };
        return QVariantMap { { QStringLiteral("node"), QStringList { r.name } },
            { QStringLiteral("pool"), list(r.pool) }, { QStringLiteral("status"), list(r.status) },
            { QStringLiteral("ip"), list(r.address) }, { QStringLiteral("cidr"), list(r.podCidr) },
            { QStringLiteral("ready"), list(r.ready) }, { QStringLiteral("kind"), kinds },
            { QStringLiteral("id"), r.findings },
            { QStringLiteral("severity"), ConsoleRole::severityField(r.severity) } };
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case NameColumn:
            return r.name;
        case PoolColumn:
            return r.pool;
        case StatusColumn:
            return r.status;
        case AgeColumn:
            return r.ageSeconds < 0 ? QString() : formatDuration(r.ageSeconds);
        case AddressColumn:
            return r.address;
        case PodCidrColumn:
            return r.podCidr;
        case SecurityGroupColumn:
            return yesNo(r.hasGroup);
        case RegisteredColumn:
            return yesNo(r.registered);
        case ReadyColumn:
            return r.ready.isEmpty() ? (r.registered > 0 ? tr("(none)")
                           : r.registered < 0            ? tr("?")
                                                         : QString())
                                     : r.ready;
        case FindingsColumn: {
            QStringList kinds;
            for (const QString &id : r.findings)
                kinds << id.section(QLatin1Char(':'), 0, 0);
            return kinds.join(QStringLiteral(", "));
        }
        }
    }
    if (role == SortRole) {
        switch (index.column()) {
        case AgeColumn:
            return r.ageSeconds;
        case SecurityGroupColumn:
            return r.hasGroup;
        case RegisteredColumn:
            return r.registered;
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::ToolTipRole && !r.findings.isEmpty())
        return r.findings.join(QLatin1Char('\n'));
    return QVariant();
}

QVariant NodesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case NameColumn:
        return tr("Name");
    case PoolColumn:
        return tr("Pool");
    case StatusColumn:
        return tr("Nova status");
    case AgeColumn:
        return tr("Age");
    case AddressColumn:
        return tr("IP");
    case PodCidrColumn:
        return tr("Pod CIDR");
    case SecurityGroupColumn:
        return tr("In group");
    case RegisteredColumn:
        return tr("Registered");
    case ReadyColumn:
        return tr("Ready");
    case FindingsColumn:
        return tr("Findings");
    }
    return QVariant();
}
