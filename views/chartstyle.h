#pragma once

#include <QColor>

class QAbstractAxis;
class QChart;
class QPalette;
class QString;
class QValueAxis;

// The look the Overview's charts share: the window's palette (light or dark), no animation, the legend below.
namespace ChartStyle {

QChart *newChart(const QString &title, const QPalette &palette);
void styleAxis(QAbstractAxis *axis, const QPalette &palette);
// An axis of counts from 0 to at least `top`: whole-number ticks a step of 1, 2 or 5 (times a power of ten)
// apart, at most `maxTicks` of them, so that no label repeats or rounds ("0 0 1"). The Overview fits it again
// to its width (fitIntegerAxis).
void integerAxis(QValueAxis *axis, double top, int maxTicks = 5);
// The same axis fitted again to at most `maxTicks` ticks; false when it is not an integer axis.
bool fitIntegerAxis(QValueAxis *axis, int maxTicks);

inline const QColor Neutral { 120, 140, 160 }; // what is neither good nor bad: free slots, booting instances

} // namespace ChartStyle
