#include "models/fleettiles.h"

#include "core/diagnosis.h"
#include "models/consolerole.h"
#include "models/klustersmodel.h"

#include <QAbstractItemModel>
#include <QCoreApplication>
#include <QHash>
#include <QLocale>
#include <algorithm>

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("FleetTiles", text);
}

// The tile's counts: causes, not symptoms (an incident once, then the findings in none), or what the state
// says instead.
QString countsOf(const QAbstractItemModel &m, int row, KlustersModel::State state)
{
    const QModelIndex first = m.index(row, 0);
    switch (state) {
    case KlustersModel::State::Pending:
        return tr("not checked yet");
    case KlustersModel::State::Unreachable:
        return tr("UNREACHABLE");
    case KlustersModel::State::ConnectionFailed:
        return tr("CONNECTION FAILED");
    default:
        break;
    }
    // The worst cause, then the counts in the one vocabulary (KlusterStanding) the list's columns show.
    const int critical = qMax(0, first.data(KlustersModel::CriticalCountRole).toInt());
    const int warning = qMax(0, first.data(KlustersModel::WarningCountRole).toInt());
    KlusterStanding standing;
    standing.critical = critical;
    standing.warning = warning;
    QString counts = critical + warning == 0 ? first.data(KlustersModel::ReasonRole).toString()
                                             : standing.headline(state == KlustersModel::State::Incomplete);
    if (state == KlustersModel::State::Stale)
        counts.prepend(tr("STALE · "));
    else if (state == KlustersModel::State::Incomplete)
        counts.prepend(tr("INCOMPLETE · "));
    return counts;
}

// The state a tile is grouped under, in the order shown.
std::pair<int, QString> stateGroup(std::optional<Severity> severity, KlustersModel::State state)
{
    if (state == KlustersModel::State::Unreachable || state == KlustersModel::State::ConnectionFailed)
        return { 1, tr("Unreachable") };
    if (state == KlustersModel::State::Pending)
        return { 4, tr("Not checked yet") }; // below healthy, as in the one ranking: nothing is known
    if (severity == Severity::Critical)
        return { 0, tr("Critical") };
    if (severity == Severity::Warning)
        return { 2, tr("Warning") };
    return { 3, tr("Healthy") };
}

// A name table's entry for a value, or for a name; none when it has none.
template<typename Info, typename Value>
const Info *entryOf(const QList<Info> &table, Value Info::*field, Value value)
{
    for (const Info &i : table) {
        if (i.*field == value)
            return &i;
    }
    return nullptr;
}

template<typename Info> const Info *entryNamed(const QList<Info> &table, const QString &name)
{
    for (const Info &i : table) {
        if (name == QLatin1String(i.name))
            return &i;
    }
    return nullptr;
}

} // namespace

const QList<FleetGroupings::Info> &FleetGroupings::all()
{
    static const QList<Info> groupings {
        { FleetGrouping::ConnectionRegion, "connection",
            QT_TRANSLATE_NOOP("FleetTiles", "Connection and region") },
        { FleetGrouping::State, "state", QT_TRANSLATE_NOOP("FleetTiles", "State") },
        { FleetGrouping::None, "none", QT_TRANSLATE_NOOP("FleetTiles", "No groups") },
    };
    return groupings;
}

QString FleetGroupings::name(FleetGrouping grouping)
{
    const Info *i = entryOf(all(), &Info::grouping, grouping);
    return i ? QString::fromLatin1(i->name) : QString();
}

QString FleetGroupings::title(FleetGrouping grouping)
{
    const Info *i = entryOf(all(), &Info::grouping, grouping);
    return i ? tr(i->title) : QString();
}

std::optional<FleetGrouping> FleetGroupings::fromName(const QString &name)
{
    const Info *i = entryNamed(all(), name);
    return i ? std::optional(i->grouping) : std::nullopt;
}

const QList<FleetLayouts::Info> &FleetLayouts::all()
{
    static const QList<Info> layouts {
        { FleetLayout::Auto, "auto", QT_TRANSLATE_NOOP("FleetTiles", "Automatic") },
        { FleetLayout::Tiles, "tiles", QT_TRANSLATE_NOOP("FleetTiles", "Tiles") },
        { FleetLayout::HeatMap, "heatmap", QT_TRANSLATE_NOOP("FleetTiles", "Heat map") },
    };
    return layouts;
}

QString FleetLayouts::name(FleetLayout layout)
{
    const Info *i = entryOf(all(), &Info::layout, layout);
    return i ? QString::fromLatin1(i->name) : QString();
}

std::optional<FleetLayout> FleetLayouts::fromName(const QString &name)
{
    const Info *i = entryNamed(all(), name);
    return i ? std::optional(i->layout) : std::nullopt;
}

bool FleetLayouts::heatMap(FleetLayout layout, int klusters)
{
    return layout == FleetLayout::HeatMap || (layout == FleetLayout::Auto && klusters > AutoHeatMapAbove);
}

QString FleetSummary::text() const
{
    const QLocale locale;
    QStringList parts { klusters == 1 ? tr("1 kluster") : tr("%1 klusters").arg(locale.toString(klusters)) };
    if (critical > 0)
        parts << tr("%1 critical").arg(locale.toString(critical));
    if (warning > 0)
        parts << tr("%1 warning").arg(locale.toString(warning));
    if (healthy > 0)
        parts << tr("%1 healthy").arg(locale.toString(healthy));
    if (retiring > 0)
        parts << tr("%1 being torn down").arg(locale.toString(retiring));
    if (doubtful > 0)
        parts << tr("%1 with data in doubt").arg(locale.toString(doubtful));
    return parts.join(QStringLiteral(" · "));
}

QList<FleetTile> fleetTiles(const QAbstractItemModel &m, FleetGrouping grouping, const QDateTime &now)
{
    QList<FleetTile> tiles;
    tiles.reserve(m.rowCount());
    QHash<QString, int> connections; // in the order first listed
    for (int row = 0; row < m.rowCount(); ++row) {
        const QModelIndex first = m.index(row, 0);
        FleetTile t;
        t.key = { first.data(KlustersModel::ConnectionRole).toString(),
            first.data(KlustersModel::KlusterRole).toString() };
        t.severity = ConsoleRole::severityOf(first);
        const auto state = KlustersModel::State(first.data(KlustersModel::StateRole).toInt());
        t.doubtful = first.data(KlustersModel::AlarmRole).toBool() || state == KlustersModel::State::Pending;
        t.title = t.key.kluster.isEmpty() ? tr("%1 (connection)").arg(t.key.connection) : t.key.kluster;
        t.counts = countsOf(m, row, state);
        t.error = first.data(KlustersModel::ErrorRole).toString();
        const QDateTime fetched = first.data(KlustersModel::FetchedAtRole).toDateTime();
        if (fetched.isValid()) {
            const qint64 s = qMax<qint64>(0, fetched.secsTo(now));
            t.age = s < 60 ? tr("data %1 s old").arg(s) : tr("data %1 old").arg(formatDuration(s));
        }
        // The alerts firing for it in its connection's Alertmanager, when there is one.
        if (const int alerts
            = m.index(row, KlustersModel::AlertsColumn).data(KlustersModel::SortRole).toInt();
            alerts > 0)
            t.age += (t.age.isEmpty() ? QString() : QStringLiteral(" · "))
                + ConsoleRole::counted(alerts, tr("alert firing"), tr("alerts firing"));
        t.standing = first.data(KlustersModel::StandingRole).toString();
        t.reason = first.data(KlustersModel::ReasonRole).toString();
        t.causes = first.data(KlustersModel::CriticalCountRole).toInt() > 0
            || first.data(KlustersModel::WarningCountRole).toInt() > 0;
        // A kluster being torn down: what it is, and for how long; grey, never red, unless what holds it is a
        // cause of its own (a volume stuck deleting): then its counts, as the list has them.
        if (first.data(KlustersModel::PhaseRole).toString() == QLatin1String("Terminating") && !t.causes) {
            t.retiring = true;
            t.severity = std::nullopt;
            const qint64 s = first.data(KlustersModel::TerminatingRole).toLongLong();
            t.counts = s < 0 ? tr("Terminating") : tr("Terminating for %1").arg(formatDuration(s));
            t.causes = true; // the reason ("kluster being torn down") first, then how long
        }
        // The one ranking (KlusterRanking), as the list has it.
        t.rank = first.data(KlustersModel::RankRole).toString();
        switch (grouping) {
        case FleetGrouping::ConnectionRegion: {
            const QString region = first.data(KlustersModel::RegionRole).toString();
            t.group = region.isEmpty() ? t.key.connection : tr("%1 · %2").arg(t.key.connection, region);
            const auto it = connections.constFind(t.key.connection);
            t.groupOrder = it != connections.cend()
                ? it.value()
                : *connections.insert(t.key.connection, int(connections.size()));
            break;
        }
        case FleetGrouping::State:
            std::tie(t.groupOrder, t.group) = stateGroup(t.severity, state);
            break;
        case FleetGrouping::None:
            break;
        }
        tiles << t;
    }
    std::stable_sort(tiles.begin(), tiles.end(), [](const FleetTile &a, const FleetTile &b) {
        if (a.groupOrder != b.groupOrder)
            return a.groupOrder < b.groupOrder;
        if (a.group != b.group)
            return a.group < b.group;
        if (a.rank != b.rank)
            return a.rank < b.rank;
        if (a.key.kluster != b.key.kluster)
            return a.key.kluster < b.key.kluster;
        return a.key.connection < b.key.connection;
    });
    return tiles;
}

FleetSummary fleetSummary(const QList<FleetTile> &tiles)
{
    FleetSummary s;
    for (const FleetTile &t : tiles) {
        if (t.key.kluster.isEmpty())
            continue; // a connection's own row
        ++s.klusters;
        if (t.severity == Severity::Critical)
            ++s.critical;
        else if (t.severity == Severity::Warning)
            ++s.warning;
        else if (t.retiring)
            ++s.retiring;
        else if (!t.doubtful)
            ++s.healthy;
        if (t.doubtful)
            ++s.doubtful;
    }
    return s;
}
