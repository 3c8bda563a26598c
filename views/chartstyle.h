#pragma once

#include <QColor>

class QAbstractAxis;
class QChart;
class QChartView;
class QFont;
class QPalette;
class QString;
class QValueAxis;

// The look the Overview's charts share: the window's palette (light or dark), no animation, the legend below.
namespace ChartStyle {

QChart *newChart(const QString &title, const QPalette &palette);
void styleAxis(QAbstractAxis *axis, const QPalette &palette);
// The chart fitted to its view's width: on a `narrow` one smaller labels, tighter margins and sparser axes;
// its legend below where it fits in one row, else at its side where the plot keeps room for its axis labels
// (then with fewer time ticks), else left out with its entries in the view's tooltip: the colours are never
// left unexplained, and no entry is elided.
void fitToWidth(QChartView *view, const QFont &font, bool narrow);
// An axis of counts from 0 to at least `top`: whole-number ticks a step of 1, 2 or 5 (times a power of ten)
// apart, at most `maxTicks` of them, so that no label repeats or rounds ("0 0 1"). The Overview fits it again
// to its width (fitIntegerAxis).
void integerAxis(QValueAxis *axis, double top, int maxTicks = 5);
// The same axis fitted again to at most `maxTicks` ticks; false when it is not an integer axis.
bool fitIntegerAxis(QValueAxis *axis, int maxTicks);

inline const QColor Neutral { 120, 140, 160 }; // what is neither good nor bad: free slots, booting instances

} // namespace ChartStyle
