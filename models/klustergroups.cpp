#include "models/klustergroups.h"

#include "models/klustersmodel.h"

#include <QTimer>
#include <algorithm>

KlusterGroups::KlusterGroups(QObject *parent)
    : QAbstractProxyModel(parent)
{ }

KlusterGroups::~KlusterGroups() = default;

void KlusterGroups::setSourceModel(QAbstractItemModel *source)
{
    beginResetModel();
    for (const QMetaObject::Connection &c : std::as_const(m_connections))
        disconnect(c);
    m_connections.clear();
    QAbstractProxyModel::setSourceModel(source);
    if (source) {
        m_connections << connect(
            source, &QAbstractItemModel::rowsAboutToBeRemoved, this, &KlusterGroups::sourceAboutToRemove);
        m_connections << connect(
            source, &QAbstractItemModel::rowsRemoved, this, &KlusterGroups::sourceRemoved);
        m_connections << connect(
            source, &QAbstractItemModel::rowsInserted, this, &KlusterGroups::sourceInserted);
        m_connections << connect(
            source, &QAbstractItemModel::dataChanged, this, &KlusterGroups::sourceChanged);
        // Anything else the source does at once (a reset, a new order) is taken whole.
        const auto begin = [this] { beginResetModel(); };
        const auto end = [this] {
            rebuild();
            endResetModel();
        };
        m_connections << connect(source, &QAbstractItemModel::modelAboutToBeReset, this, begin);
        m_connections << connect(source, &QAbstractItemModel::modelReset, this, end);
        m_connections << connect(source, &QAbstractItemModel::layoutAboutToBeChanged, this, begin);
        m_connections << connect(source, &QAbstractItemModel::layoutChanged, this, end);
        m_connections << connect(source, &QAbstractItemModel::rowsAboutToBeMoved, this, begin);
        m_connections << connect(source, &QAbstractItemModel::rowsMoved, this, end);
        m_connections << connect(
            source, &QAbstractItemModel::headerDataChanged, this, &QAbstractItemModel::headerDataChanged);
    }
    rebuild();
    endResetModel();
}

QString KlusterGroups::groupOf(int sourceRow) const
{
    return sourceModel()->index(sourceRow, 0).data(KlustersModel::ConnectionRole).toString();
}

int KlusterGroups::groupRow(quintptr id) const
{
    for (int g = 0; g < m_groups.size(); ++g) {
        if (m_groups.at(g).id == id)
            return g;
    }
    return -1;
}

int KlusterGroups::groupRowOf(const QString &connection) const
{
    for (int g = 0; g < m_groups.size(); ++g) {
        if (m_groups.at(g).connection == connection)
            return g;
    }
    return -1;
}

void KlusterGroups::rebuild()
{
    m_groups.clear();
    if (!sourceModel())
        return;
    for (int r = 0; r < sourceModel()->rowCount(); ++r) {
        const QString connection = groupOf(r);
        int g = groupRowOf(connection);
        if (g < 0) {
            m_groups.append(Group { connection, m_nextId++, {}, {}, {}, {} });
            g = int(m_groups.size()) - 1;
        }
        m_groups[g].rows.append(r);
    }
}

void KlusterGroups::addRow(int sourceRow)
{
    const QString connection = groupOf(sourceRow);
    const int g = groupRowOf(connection);
    if (g < 0) {
        const int at = int(m_groups.size());
        beginInsertRows(QModelIndex(), at, at);
        m_groups.append(Group { connection, m_nextId++, { sourceRow }, {}, {}, {} });
        endInsertRows();
        return;
    }
    QList<int> &rows = m_groups[g].rows;
    const int at = int(std::lower_bound(rows.begin(), rows.end(), sourceRow) - rows.begin());
    beginInsertRows(index(g, 0), at, at);
    rows.insert(at, sourceRow);
    if (m_groups[g].parts.size() == rows.size() - 1)
        m_groups[g].parts.insert(at, std::nullopt);
    m_groups[g].forget();
    endInsertRows();
    emit dataChanged(index(g, 0), index(g, columnCount() - 1)); // its sums
}

void KlusterGroups::removeRow(int sourceRow)
{
    for (int g = 0; g < m_groups.size(); ++g) {
        QList<int> &rows = m_groups[g].rows;
        const auto it = std::lower_bound(rows.begin(), rows.end(), sourceRow);
        if (it == rows.end() || *it != sourceRow)
            continue;
        if (rows.size() == 1) { // the group goes with its last kluster
            beginRemoveRows(QModelIndex(), g, g);
            m_groups.removeAt(g);
            endRemoveRows();
            return;
        }
        const int at = int(it - rows.begin());
        beginRemoveRows(index(g, 0), at, at);
        rows.removeAt(at);
        if (m_groups[g].parts.size() == rows.size() + 1)
            m_groups[g].parts.removeAt(at);
        m_groups[g].forget();
        endRemoveRows();
        emit dataChanged(index(g, 0), index(g, columnCount() - 1));
        return;
    }
}

void KlusterGroups::sourceAboutToRemove(const QModelIndex &parent, int first, int last)
{
    if (parent.isValid())
        return;
    // While the source still has them: every other row keeps its number until sourceRemoved.
    for (int r = last; r >= first; --r)
        removeRow(r);
}

void KlusterGroups::sourceRemoved(const QModelIndex &parent, int first, int last)
{
    if (parent.isValid())
        return;
    shiftRows(last + 1, -(last - first + 1));
}

void KlusterGroups::shiftRows(int from, int by)
{
    for (Group &g : m_groups) {
        for (int &r : g.rows) {
            if (r >= from)
                r += by;
        }
    }
}

void KlusterGroups::sourceInserted(const QModelIndex &parent, int first, int last)
{
    if (parent.isValid())
        return;
    shiftRows(first, last - first + 1);
    // A run of new rows of one existing group, in one insertion (a listing of a thousand klusters is one
    // run): its sums said changed once, not once per row.
    int r = first;
    while (r <= last) {
        const QString connection = groupOf(r);
        const int g = groupRowOf(connection);
        int end = r;
        while (g >= 0 && end < last && groupOf(end + 1) == connection)
            ++end;
        if (g < 0 || end == r) {
            addRow(r++);
            continue;
        }
        QList<int> &rows = m_groups[g].rows;
        const int at = int(std::lower_bound(rows.begin(), rows.end(), r) - rows.begin());
        const int count = end - r + 1;
        beginInsertRows(index(g, 0), at, at + count - 1);
        const bool partsKept = m_groups[g].parts.size() == rows.size();
        for (int i = 0; i < count; ++i) {
            rows.insert(at + i, r + i);
            if (partsKept)
                m_groups[g].parts.insert(at + i, std::nullopt);
        }
        m_groups[g].forget();
        endInsertRows();
        emit dataChanged(index(g, 0), index(g, columnCount() - 1)); // its sums
        r = end + 1;
    }
}

void KlusterGroups::sourceChanged(
    const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles)
{
    if (!topLeft.isValid() || topLeft.parent().isValid())
        return;
    QList<quintptr> groupsChanged; // by id: a kluster moved to another group may take a group's row away
    for (int r = topLeft.row(); r <= bottomRight.row(); ++r) {
        const QModelIndex at = mapFromSource(sourceModel()->index(r, 0));
        if (!at.isValid())
            continue;
        if (m_groups.at(at.parent().row()).connection != groupOf(r)) { // moved to another group
            removeRow(r);
            addRow(r);
            continue;
        }
        m_groups.at(at.parent().row()).changed(at.row());
        emit dataChanged(
            at.siblingAtColumn(topLeft.column()), at.siblingAtColumn(bottomRight.column()), roles);
        if (const quintptr id = m_groups.at(at.parent().row()).id; !groupsChanged.contains(id))
            groupsChanged.append(id);
    }
    for (const quintptr id : std::as_const(groupsChanged))
        groupChangedLater(id); // its klusters' parts were taken out of its sums above
}

void KlusterGroups::groupChangedLater(quintptr id)
{
    // Its sums are made again when asked; that they changed is said once per turn of the event loop: a round
    // of ten thousand klusters changes each once, and whoever listens (a sort, a filter) asks for the sums of
    // all its klusters each time it is told.
    const bool posted = !m_changedGroups.isEmpty(); // the call that says them is on its way
    m_changedGroups.insert(id);
    if (posted)
        return;
    QMetaObject::invokeMethod(
        this,
        [this] {
            const QSet<quintptr> ids = std::exchange(m_changedGroups, {});
            for (const quintptr id : ids) {
                if (const int g = groupRow(id); g >= 0)
                    emit dataChanged(index(g, 0), index(g, columnCount() - 1));
            }
        },
        Qt::QueuedConnection);
}

QModelIndex KlusterGroups::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || column >= columnCount())
        return QModelIndex();
    if (!parent.isValid())
        return row < m_groups.size() ? createIndex(row, column, quintptr(0)) : QModelIndex();
    if (!isGroup(parent) || parent.model() != this || parent.column() != 0 || parent.row() >= m_groups.size())
        return QModelIndex(); // only a group's first column has children
    const Group &g = m_groups.at(parent.row());
    return row < g.rows.size() ? createIndex(row, column, g.id) : QModelIndex();
}

QModelIndex KlusterGroups::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return QModelIndex();
    const int g = groupRow(child.internalId());
    return g < 0 ? QModelIndex() : createIndex(g, 0, quintptr(0));
}

int KlusterGroups::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_groups.size());
    if (parent.model() != this || parent.internalId() != 0 || parent.column() != 0
        || parent.row() >= m_groups.size())
        return 0;
    return int(m_groups.at(parent.row()).rows.size());
}

int KlusterGroups::columnCount(const QModelIndex &) const
{
    return sourceModel() ? sourceModel()->columnCount() : 0;
}

bool KlusterGroups::hasChildren(const QModelIndex &parent) const
{
    return rowCount(parent) > 0;
}

QModelIndex KlusterGroups::sibling(int row, int column, const QModelIndex &index) const
{
    return this->index(row, column, parent(index));
}

QModelIndex KlusterGroups::mapToSource(const QModelIndex &proxyIndex) const
{
    if (!proxyIndex.isValid() || proxyIndex.internalId() == 0 || !sourceModel())
        return QModelIndex();
    const int g = groupRow(proxyIndex.internalId());
    if (g < 0 || proxyIndex.row() >= m_groups.at(g).rows.size())
        return QModelIndex();
    return sourceModel()->index(m_groups.at(g).rows.at(proxyIndex.row()), proxyIndex.column());
}

QModelIndex KlusterGroups::mapFromSource(const QModelIndex &sourceIndex) const
{
    if (!sourceIndex.isValid() || sourceIndex.parent().isValid())
        return QModelIndex();
    for (const Group &g : m_groups) {
        const auto it = std::lower_bound(g.rows.begin(), g.rows.end(), sourceIndex.row());
        if (it != g.rows.end() && *it == sourceIndex.row())
            return createIndex(int(it - g.rows.begin()), sourceIndex.column(), g.id);
    }
    return QModelIndex();
}

QVariant KlusterGroups::headerData(int section, Qt::Orientation orientation, int role) const
{
    return sourceModel() ? sourceModel()->headerData(section, orientation, role) : QVariant();
}

Qt::ItemFlags KlusterGroups::flags(const QModelIndex &index) const
{
    if (isGroup(index))
        return Qt::ItemIsEnabled; // a heading: the current row may rest on it, nothing is opened
    return QAbstractProxyModel::flags(index);
}

QVariant KlusterGroups::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.model() != this)
        return QVariant();
    if (isGroup(index)) {
        if (index.row() >= m_groups.size())
            return QVariant();
        const Group &group = m_groups.at(index.row());
        const quint64 key = (quint64(quint32(index.column())) << 32) | quint32(role);
        if (const auto it = group.answers.constFind(key); it != group.answers.cend())
            return it.value();
        QVariant answer = groupData(group, index.column(), role);
        group.answers.insert(key, answer);
        return answer;
    }
    return QAbstractProxyModel::data(index, role);
}

void KlusterGroups::Group::Sums::add(const Part &p, int sign, bool withRegion)
{
    if (withRegion && !p.region.isEmpty()) {
        int &n = regionCounts[p.region];
        n += sign;
        if (n <= 0)
            regionCounts.remove(p.region);
    }
    bySeverity[p.severity ? int(*p.severity) : 3] += sign;
    if (p.critical >= 0) {
        diagnosed += sign;
        critical += sign * p.critical;
        warning += sign * p.warning;
    }
    inDoubt += p.inDoubt ? sign : 0;
    incomplete += p.incomplete ? sign : 0;
    if (sign > 0) {
        if (!p.rank.isEmpty() && (worstRank.isEmpty() || p.rank < worstRank)) {
            worstRank = p.rank;
            worstReason = p.reason;
        }
        if (p.fetched.isValid() && (!oldest.isValid() || p.fetched < oldest))
            oldest = p.fetched;
    }
}

const KlusterGroups::Group::Sums &KlusterGroups::sumsOf(const Group &group) const
{
    if (group.parts.size() != group.rows.size()) {
        group.parts = QList<std::optional<Group::Part>>(group.rows.size());
        group.sums.reset();
    }
    const auto partAt = [&](qsizetype i) -> const Group::Part & {
        std::optional<Group::Part> &p = group.parts[i];
        if (!p)
            p = partOf(group.rows.at(i));
        return *p;
    };
    if (!group.sums) {
        group.sums = Group::Sums {}; // (emplace(): clang deems it not constructible)
        // The regions counted by runs: a group's klusters come a region after another.
        QString run;
        int inRun = 0;
        for (qsizetype i = 0; i < group.rows.size(); ++i) {
            const Group::Part &p = partAt(i);
            group.sums->add(p, 1, false);
            if (p.region == run) {
                ++inRun;
                continue;
            }
            if (inRun > 0 && !run.isEmpty())
                group.sums->regionCounts[run] += inRun;
            run = p.region;
            inRun = 1;
        }
        if (inRun > 0 && !run.isEmpty())
            group.sums->regionCounts[run] += inRun;
    } else if (!group.sums->pending.isEmpty() || group.sums->extremesStale) {
        Group::Sums &s = *group.sums;
        for (const qsizetype at : std::exchange(s.pending, {})) {
            if (at < group.parts.size())
                s.add(partAt(at), 1);
        }
        if (s.extremesStale) { // the walk over the kept parts alone (nothing asked of the model)
            s.worstRank.clear();
            s.worstReason.clear();
            s.oldest = QDateTime();
            for (qsizetype i = 0; i < group.rows.size(); ++i) {
                const Group::Part &p = partAt(i);
                if (!p.rank.isEmpty() && (s.worstRank.isEmpty() || p.rank < s.worstRank)) {
                    s.worstRank = p.rank;
                    s.worstReason = p.reason;
                }
                if (p.fetched.isValid() && (!s.oldest.isValid() || p.fetched < s.oldest))
                    s.oldest = p.fetched;
            }
            s.extremesStale = false;
        }
    }
    Group::Sums &s = *group.sums;
    s.worst.reset();
    for (int level = 0; level < 3; ++level) {
        if (s.bySeverity[level] > 0) {
            s.worst = Severity(level);
            break;
        }
    }
    const bool sameRegions = s.regions.size() == s.regionCounts.size()
        && std::all_of(s.regions.cbegin(), s.regions.cend(),
            [&s](const QString &r) { return s.regionCounts.contains(r); });
    if (!sameRegions) {
        s.regions = s.regionCounts.keys();
        s.regions.sort();
    }
    return s;
}

KlusterGroups::Group::Part KlusterGroups::partOf(int sourceRow) const
{
    const QModelIndex k = sourceModel()->index(sourceRow, 0);
    Group::Part p;
    p.region = k.data(KlustersModel::RegionRole).toString();
    p.rank = k.data(KlustersModel::RankRole).toString();
    p.reason = k.data(KlustersModel::ReasonRole).toString();
    p.severity = ConsoleRole::severityOf(k);
    p.critical = k.data(KlustersModel::CriticalCountRole).toInt();
    if (p.critical >= 0)
        p.warning = k.data(KlustersModel::WarningCountRole).toInt();
    p.inDoubt = k.data(KlustersModel::AlarmRole).toBool();
    p.incomplete
        = KlustersModel::State(k.data(KlustersModel::StateRole).toInt()) == KlustersModel::State::Incomplete;
    p.fetched = k.data(KlustersModel::FetchedAtRole).toDateTime();
    return p;
}

QVariant KlusterGroups::groupData(const Group &group, int column, int role) const
{
    // What the group's klusters say, summed up.
    const Group::Sums &sums = sumsOf(group);
    const QStringList &regions = sums.regions;
    const std::optional<Severity> worst = sums.worst;
    const int critical = sums.critical, warning = sums.warning, diagnosed = sums.diagnosed,
              inDoubt = sums.inDoubt, incomplete = sums.incomplete;
    const QDateTime &oldest = sums.oldest;
    // Made for the roles that show it only: a view asks for a dozen roles of the row after each change, and
    // a fleet's regions are many.
    const auto label = [&] {
        return regions.isEmpty() ? group.connection
                                 : tr("%1 · %2").arg(group.connection, regions.join(QStringLiteral(", ")));
    };
    const auto count = [&](int n) {
        if (diagnosed == 0)
            return QVariant(QStringLiteral("—"));
        return incomplete > 0 ? QVariant(QStringLiteral("≥ %1").arg(n)) : QVariant(n);
    };

    switch (role) {
    case KlustersModel::KeyRole:
        return group.connection; // a kluster's key always holds a '/'
    case KlustersModel::SeverityRole:
        return ConsoleRole::severityData(worst);
    case KlustersModel::RegionRole:
        return regions.join(QStringLiteral(", "));
    case KlustersModel::CriticalCountRole:
        return diagnosed ? critical : -1;
    case KlustersModel::WarningCountRole:
        return diagnosed ? warning : -1;
    case KlustersModel::FetchedAtRole:
        return oldest;
    case KlustersModel::FilterRole:
        return QVariantMap { { QStringLiteral("connection"), QStringList { group.connection } },
            { QStringLiteral("region"), regions },
            { QStringLiteral("severity"), ConsoleRole::severityField(worst) } };
    case Qt::ToolTipRole: {
        QString tip = regions.isEmpty()
            ? tr("Connection %1: %n kluster(s)", nullptr, int(group.rows.size())).arg(group.connection)
            : tr("Connection %1, region %2: %n kluster(s)", nullptr, int(group.rows.size()))
                  .arg(group.connection, regions.join(QStringLiteral(", ")));
        if (diagnosed > 0)
            tip += tr("\n%1 critical · %2 warning causes in all").arg(critical).arg(warning);
        if (inDoubt > 0)
            tip += tr(
                "\n%n kluster(s) with data in doubt (stale, unreachable or incomplete)", nullptr, inDoubt);
        return tip;
    }
    case Qt::DisplayRole:
        switch (column) {
        case KlustersModel::KlusterColumn:
            return tr("%1 (%2)").arg(label()).arg(group.rows.size());
        case KlustersModel::ConnectionColumn:
            return group.connection;
        case KlustersModel::WorstColumn:
            return sums.worstReason; // its worst kluster's: the first in the one ranking
        case KlustersModel::CriticalColumn:
            return count(critical);
        case KlustersModel::WarningColumn:
            return count(warning);
        case KlustersModel::FetchedColumn:
            return oldest.isValid() ? oldest.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"))
                                    : QString();
        default:
            return QVariant();
        }
    case KlustersModel::SortRole: {
        // By its worst kluster: the extreme of its klusters' own sort values.
        if (column == KlustersModel::KlusterColumn || group.rows.isEmpty())
            return label();
        if (column == KlustersModel::WorstColumn)
            return sums.worstRank; // kept with the sums: the list sorts by it on every change
        const bool lowestFirst
            = column == KlustersModel::WorstColumn || column == KlustersModel::FetchedColumn;
        QVariant best;
        for (int r : group.rows) {
            const QVariant v = sourceModel()->index(r, column).data(KlustersModel::SortRole);
            const QPartialOrdering order = QVariant::compare(v, best);
            if (!best.isValid()
                || (lowestFirst ? order == QPartialOrdering::Less : order == QPartialOrdering::Greater))
                best = v;
        }
        return best;
    }
    default:
        return QVariant();
    }
}
