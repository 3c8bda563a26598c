#include "models/findingstreemodel.h"

#include <QLocale>
#include <QSet>
#include <algorithm>

struct FindingsTreeModel::Group
{
    QString incident;
    KeyedRows<QString> members { [](const QString &id) { return id; },
        [](const QString &a, const QString &b) { return a == b; } };
};

FindingsTreeModel::FindingsTreeModel(FindingsModel *findings, QObject *parent)
    : QAbstractItemModel(parent)
    , m_findings(findings)
    , m_top([](const Top &t) { return t.key; },
          [](const Top &a, const Top &b) { return a.incident == b.incident && a.row == b.row; })
{
    connect(findings, &FindingsModel::applied, this, &FindingsTreeModel::rebuild);
    connect(findings, &QAbstractItemModel::modelReset, this, &FindingsTreeModel::rebuild);
    connect(findings, &QAbstractItemModel::dataChanged, this, &FindingsTreeModel::forward);
    connect(findings, &FindingsModel::historyChanged, this, &FindingsTreeModel::incidentsChanged);
    rebuild();
}

FindingsTreeModel::~FindingsTreeModel() = default;

QString FindingsTreeModel::memberCount(int members)
{
    return ConsoleRole::counted(members, tr("finding"), tr("findings"));
}

void FindingsTreeModel::rebuild()
{
    // The incidents first, then the findings in none, each in the flat model's order.
    QList<Top> next;
    QHash<QString, QString> incidentOf;
    QSet<QString> incidents;
    for (const FindingsModel::IncidentRow &i : m_findings->incidents()) {
        next.append({ i.id, true, i });
        incidents.insert(i.id);
        for (const QString &id : i.members)
            incidentOf.insert(id, i.id);
    }
    const int rows = m_findings->rowCount();
    for (int r = 0; r < rows; ++r) {
        const QString id = m_findings->findingAt(r)->id();
        if (!incidentOf.contains(id))
            next.append({ id, false, {} });
    }
    // A new incident comes with its members: made before its row is inserted, without signals (nobody sees
    // them yet).
    const KeyedRows<QString>::Signals quiet { [](int, int) {}, [](int, int) {}, [] {}, [] {},
        [](int, int) {} };
    QSet<QString> added;
    for (const FindingsModel::IncidentRow &i : m_findings->incidents()) {
        if (m_groups.contains(i.id))
            continue;
        auto group = std::make_shared<Group>();
        group->incident = i.id;
        group->members.apply(i.members, quiet);
        m_groups.insert(i.id, group);
        added.insert(i.id);
    }
    m_top.apply(next,
        { [this](int a, int b) { beginRemoveRows(QModelIndex(), a, b); },
            [this](int a, int b) { beginInsertRows(QModelIndex(), a, b); }, [this] { endRemoveRows(); },
            [this] { endInsertRows(); },
            [this](
                int a, int b) { emit dataChanged(index(a, 0), index(b, FindingsModel::ColumnCount - 1)); } });
    for (auto it = m_groups.begin(); it != m_groups.end();) {
        if (!incidents.contains(it.key()))
            it = m_groups.erase(it);
        else
            ++it;
    }
    // The members of the incidents that stayed.
    for (const FindingsModel::IncidentRow &i : m_findings->incidents()) {
        if (added.contains(i.id))
            continue;
        const QModelIndex parent = index(m_top.rowOf(i.id), 0);
        m_groups.value(i.id)->members.apply(i.members,
            { [this, parent](int a, int b) { beginRemoveRows(parent, a, b); },
                [this, parent](int a, int b) { beginInsertRows(parent, a, b); }, [this] { endRemoveRows(); },
                [this] { endInsertRows(); },
                [this, parent](int a, int b) {
                    emit dataChanged(index(a, 0, parent), index(b, FindingsModel::ColumnCount - 1, parent));
                } });
    }
    m_incidentOf = incidentOf;
    m_top.takeRetired();
    for (const auto &g : std::as_const(m_groups))
        g->members.takeRetired();
}

void FindingsTreeModel::forward(
    const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles)
{
    if (!topLeft.isValid() || !bottomRight.isValid())
        return;
    const int first = topLeft.row();
    const int last = bottomRight.row();
    if (last - first > 64) {
        // A column of every row (the history's Since): the same column of every row here.
        if (m_top.size() > 0)
            emit dataChanged(
                index(0, topLeft.column()), index(m_top.size() - 1, bottomRight.column()), roles);
        for (int t = 0; t < m_top.size(); ++t) {
            if (!m_top.at(t).incident)
                continue;
            const QModelIndex parent = index(t, 0);
            const int n = rowCount(parent);
            if (n > 0)
                emit dataChanged(
                    index(0, topLeft.column(), parent), index(n - 1, bottomRight.column(), parent), roles);
        }
        return;
    }
    for (int r = first; r <= last; ++r) {
        const Finding *f = m_findings->findingAt(r);
        if (!f)
            continue;
        const QModelIndex left = indexOf(f->id(), topLeft.column());
        if (left.isValid())
            emit dataChanged(left, left.siblingAtColumn(bottomRight.column()), roles);
    }
    incidentsChanged(); // what they sum up of their members (since when, acknowledged)
}

void FindingsTreeModel::incidentsChanged()
{
    for (int t = 0; t < m_top.size(); ++t) {
        if (m_top.at(t).incident)
            emit dataChanged(index(t, 0), index(t, FindingsModel::ColumnCount - 1));
    }
}

QModelIndex FindingsTreeModel::indexOf(const QString &key, int column) const
{
    const auto incident = m_incidentOf.constFind(key);
    if (incident == m_incidentOf.cend()) {
        const int row = m_top.rowOf(key);
        return row < 0 ? QModelIndex() : index(row, column);
    }
    const int top = m_top.rowOf(incident.value());
    const auto group = m_groups.value(incident.value());
    if (top < 0 || !group)
        return QModelIndex();
    const int row = group->members.rowOf(key);
    return row < 0 ? QModelIndex() : index(row, column, index(top, 0));
}

QModelIndex FindingsTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || column >= FindingsModel::ColumnCount)
        return QModelIndex();
    if (!parent.isValid())
        return row < m_top.size() ? createIndex(row, column, nullptr) : QModelIndex();
    if (parent.internalPointer() || parent.row() >= m_top.size())
        return QModelIndex(); // members have no rows below them
    const Top &top = m_top.at(parent.row());
    const auto group = top.incident ? m_groups.value(top.key) : nullptr;
    if (!group || row >= group->members.size())
        return QModelIndex();
    return createIndex(row, column, group.get());
}

QModelIndex FindingsTreeModel::parent(const QModelIndex &child) const
{
    const auto *group = child.isValid() ? static_cast<const Group *>(child.internalPointer()) : nullptr;
    if (!group)
        return QModelIndex();
    return createIndex(m_top.rowOf(group->incident), 0, nullptr);
}

int FindingsTreeModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return m_top.size();
    if (parent.internalPointer() || parent.column() != 0 || parent.row() >= m_top.size())
        return 0;
    const Top &top = m_top.at(parent.row());
    const auto group = top.incident ? m_groups.value(top.key) : nullptr;
    return group ? group->members.size() : 0;
}

int FindingsTreeModel::columnCount(const QModelIndex &) const
{
    return FindingsModel::ColumnCount;
}

QVariant FindingsTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return m_findings->headerData(section, orientation, role);
}

QHash<int, QByteArray> FindingsTreeModel::roleNames() const
{
    return m_findings->roleNames();
}

const FindingHistory *FindingsTreeModel::oldest(const FindingsModel::IncidentRow &incident) const
{
    const FindingHistory *oldest = nullptr;
    for (const QString &id : incident.members) {
        const FindingHistory *h = m_findings->history(id);
        if (h
            && (!oldest || h->firstSeen < oldest->firstSeen || (h->beforeHistory && !oldest->beforeHistory)))
            oldest = h;
    }
    return oldest;
}

// The lowest (or highest) of the members' values of `column` in `role` (their sort values).
QVariant FindingsTreeModel::memberValue(
    const FindingsModel::IncidentRow &incident, int column, int role, bool lowest) const
{
    QVariant best;
    for (const QString &id : incident.members) {
        const int row = m_findings->rowOf(id);
        if (row < 0)
            continue;
        const QVariant v = m_findings->index(row, column).data(role);
        const QPartialOrdering order = QVariant::compare(v, best);
        if (!best.isValid()
            || (lowest ? order == QPartialOrdering::Less : order == QPartialOrdering::Greater))
            best = v;
    }
    return best;
}

QVariant FindingsTreeModel::incidentData(const FindingsModel::IncidentRow &i, int column, int role) const
{
    const int acknowledged = int(std::count_if(i.members.cbegin(), i.members.cend(),
        [this](const QString &id) { return m_findings->acknowledgement(id) != nullptr; }));
    switch (role) {
    case ConsoleRole::Key:
    case FindingsModel::IncidentRole:
        return i.id;
    case ConsoleRole::Findings:
        return i.members;
    case ConsoleRole::Severity:
        return ConsoleRole::severityData(i.severity);
    case ConsoleRole::Filter:
        // Its own names: a filter that names the incident shows it with all its members; one that names a
        // member shows the incident with that member.
        return QVariantMap { { QStringLiteral("id"), QStringList { i.id } },
            { QStringLiteral("kind"), QStringList { incidentRuleName(i.rule) } },
            { QStringLiteral("subject"), QStringList { i.key } },
            { QStringLiteral("severity"), QStringList { severityName(i.severity) } },
            { QStringLiteral("incident"), QStringList { i.id } },
            { QStringLiteral("repair"),
                i.repairTitle.isEmpty() ? QStringList() : QStringList { i.repairTitle } } };
    case FindingsModel::IncidentRowRole:
        return true;
    case FindingsModel::HasRepairRole:
        return !i.repairFindings.isEmpty();
    case FindingsModel::AcknowledgedRole:
        return acknowledged == i.members.size();
    case FindingsModel::FirstSeenRole: {
        const FindingHistory *h = oldest(i);
        return h ? QVariant(h->firstSeen) : QVariant();
    }
    case FindingsModel::FlappingRole:
        return false;
    case ConsoleRole::Sort:
        switch (column) {
        case FindingsModel::SeverityColumn:
        case FindingsModel::SinceColumn:
        case FindingsModel::AcknowledgedColumn:
            return memberValue(i, column, role, true); // the worst, the oldest, the first to run out
        case FindingsModel::KindColumn:
            return incidentRuleName(i.rule);
        case FindingsModel::SubjectColumn:
            return i.key;
        case FindingsModel::MessageColumn:
            return i.title;
        case FindingsModel::RepairColumn:
            return !i.repairFindings.isEmpty();
        default:
            break;
        }
        break;
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        switch (column) {
        case FindingsModel::SeverityColumn:
            return severityName(i.severity);
        case FindingsModel::KindColumn:
            return role == Qt::DisplayRole
                ? incidentRuleName(i.rule)
                : tr("An incident (%1): findings that share one cause, repaired as one")
                      .arg(incidentRuleName(i.rule));
        case FindingsModel::SubjectColumn:
            return i.key;
        case FindingsModel::SinceColumn: {
            const FindingHistory *h = oldest(i);
            if (!h)
                return role == Qt::ToolTipRole
                    ? tr("Not in the history yet: recorded from the next refresh on")
                    : QVariant();
            return role == Qt::DisplayRole
                ? FindingsModel::sinceText(*h, m_findings->historyAt())
                : tr("Its oldest finding was first seen %1.")
                      .arg(QLocale().toString(h->firstSeen.toLocalTime(), QLocale::LongFormat));
        }
        case FindingsModel::MessageColumn:
            if (role == Qt::DisplayRole)
                return tr("%1 · %2").arg(i.title, memberCount(int(i.members.size())));
            return tr("%1\n%2 below; %3")
                .arg(i.title, memberCount(int(i.members.size())),
                    i.repairTitle.isEmpty() ? FindingsModel::noRepairReason(i.rule)
                                            : tr("its one repair (Ctrl+R): %1").arg(i.repairTitle));
        case FindingsModel::RepairColumn:
            if (role == Qt::ToolTipRole)
                return i.repairTitle.isEmpty() ? FindingsModel::noRepairReason(i.rule) : i.repairTitle;
            return i.repairTitle.isEmpty() ? tr("none") : tr("Repair…");
        case FindingsModel::AcknowledgedColumn:
            if (acknowledged == 0)
                return QVariant();
            return tr("%1 of %2 acknowledged").arg(acknowledged).arg(i.members.size());
        default:
            break;
        }
        break;
    default:
        break;
    }
    return QVariant();
}

QVariant FindingsTreeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return QVariant();
    QString id;
    if (const auto *group = static_cast<const Group *>(index.internalPointer())) {
        if (index.row() >= group->members.size())
            return QVariant();
        id = group->members.at(index.row());
    } else {
        if (index.row() >= m_top.size())
            return QVariant();
        const Top &top = m_top.at(index.row());
        if (top.incident) {
            // The incident as the flat model has it now (the row kept may be of the update before).
            const FindingsModel::IncidentRow *now = m_findings->incident(top.key);
            return incidentData(now ? *now : top.row, index.column(), role);
        }
        id = top.key;
    }
    const int row = m_findings->rowOf(id);
    if (row < 0)
        return QVariant(); // gone from the flat model; gone from here too once its update is whole
    return m_findings->index(row, index.column()).data(role);
}
