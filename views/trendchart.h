#pragma once

#include <QColor>
#include <QList>
#include <QString>
#include <functional>

class QChartView;
class QPalette;
struct HistorySample;
struct HistoryTrend;

// One of the Overview's trends from the local history: lines over time, broken where a refresh failed or was
// incomplete (a mark at the bottom says which), a mark at the top for each repair.
namespace TrendChart {

struct Line
{
    QString name;
    QColor colour;
    std::function<double(const HistorySample &)> value; // < 0: no point
};

// Draws `trend` in `view`. A chart is made anew only when its series differ from those drawn (`shape`
// remembers them between calls: a failure that breaks a line, a first repair); a refresh more, or the range
// moved on, changes the points and the axes in place (making a chart costs the window's thread tens of
// milliseconds). `narrow`: the view is narrow (fewer ticks). Returns whether it was made anew (its fonts
// then to be fitted).
bool draw(QChartView *view, const QString &title, const QList<Line> &lines, const HistoryTrend &trend,
    const QPalette &palette, bool narrow, QString &shape);

} // namespace TrendChart
