#pragma once

#include "core/finding.h"
#include "core/klusterkey.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <optional>

class QAbstractItemModel;

// How the fleet's tiles are grouped.
enum class FleetGrouping
{
    ConnectionRegion, // by connection (in the order listed), then region
    State, // critical, warning, unreachable, not checked yet, healthy
    None, // one block, worst first
};

namespace FleetGroupings {
// Each grouping in the order offered, with its name ("connection", "state", "none": settings and the
// command line) and its title ("Connection and region").
struct Info
{
    FleetGrouping grouping;
    const char *name;
    const char *title;
};
const QList<Info> &all();
QString name(FleetGrouping grouping);
QString title(FleetGrouping grouping);
std::optional<FleetGrouping> fromName(const QString &name);
} // namespace FleetGroupings

// How the fleet's klusters are drawn: tiles that say what is wrong, or a heat map's small cells.
enum class FleetLayout
{
    Auto, // tiles up to AutoHeatMapAbove klusters, a heat map beyond
    Tiles,
    HeatMap,
};

namespace FleetLayouts {
constexpr int AutoHeatMapAbove = 100; // tiles of 190 px: about two screens
struct Info
{
    FleetLayout layout;
    const char *name; // "auto", "tiles", "heatmap"
    const char *title;
};
const QList<Info> &all();
QString name(FleetLayout layout);
std::optional<FleetLayout> fromName(const QString &name);
// Whether `klusters` tiles are drawn as a heat map.
bool heatMap(FleetLayout layout, int klusters);
} // namespace FleetLayouts

// One kluster of the fleet's overview, as a tile says it: what is wrong, how old the data is, whether the
// data itself is in doubt.
struct FleetTile
{
    KlusterKey key;
    QString group; // the heading it is shown under
    int groupOrder = 0; // groups sort by this, then by name
    QString title; // the kluster's name, or "<connection> (connection)"
    QString reason; // KlusterRanking::reason: its worst cause ("pod network closed"), "healthy", …
    bool causes = false; // it has critical or warning causes: the reason, then the counts
    QString counts; // "2 critical · 1 warning", "STALE · 1 critical · 0 warning", "UNREACHABLE", "healthy"
    QString standing; // KlusterStanding::text(): the counts with what they are made of, for the tooltip
    QString age; // "data 40 s old"; empty when never read
    QString error; // what is wrong with the data shown
    std::optional<Severity> severity;
    bool doubtful = false; // stale, unreachable, incomplete, not yet read: shown hatched
    // Kubernikus is tearing it down (phase Terminating): grey, with how long, never a colour of alarm.
    bool retiring = false;
    QString rank; // KlusterRanking::sortKey: ascending, the worst first
};

// What the fleet holds, counted for the line above the tiles.
struct FleetSummary
{
    int klusters = 0;
    int critical = 0; // klusters whose worst is critical
    int warning = 0;
    int healthy = 0;
    int retiring = 0; // Terminating: going away, neither failing nor healthy
    int doubtful = 0;
    // "1,000 klusters · 12 critical · 40 warning · 940 healthy · 8 data in doubt"
    QString text() const;
};

// The tiles of every row of `klusters` (a KlustersModel, or a filter over one), grouped by `grouping`
// and worst first within each group, then by name; the ages as of `now`.
QList<FleetTile> fleetTiles(const QAbstractItemModel &klusters, FleetGrouping grouping, const QDateTime &now);
FleetSummary fleetSummary(const QList<FleetTile> &tiles);
