#pragma once

#include <QColor>

class QAbstractAxis;
class QChart;
class QPalette;
class QString;

// The look the Overview's charts share: the window's palette (light or dark), no animation, the legend below.
namespace ChartStyle {

QChart *newChart(const QString &title, const QPalette &palette);
void styleAxis(QAbstractAxis *axis, const QPalette &palette);

inline const QColor Neutral { 120, 140, 160 }; // what is neither good nor bad: free slots, booting instances

} // namespace ChartStyle
