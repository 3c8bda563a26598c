#include "views/chartstyle.h"

#include <QAbstractAxis>
#include <QChart>
#include <QLegend>
#include <QPalette>
#include <QValueAxis>
#include <cmath>

QChart *ChartStyle::newChart(const QString &title, const QPalette &palette)
{
    auto *chart = new QChart;
    chart->setTitle(title);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setBackgroundBrush(palette.base());
    chart->setTitleBrush(palette.text());
    chart->legend()->setLabelBrush(palette.text());
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    return chart;
}

void ChartStyle::styleAxis(QAbstractAxis *axis, const QPalette &palette)
{
    axis->setLabelsBrush(palette.text());
    axis->setGridLineColor(palette.mid().color());
    axis->setLinePenColor(palette.mid().color());
}

void ChartStyle::integerAxis(QValueAxis *axis, double top, int maxTicks)
{
    const qint64 most = qMax<qint64>(1, qint64(std::ceil(qMax(0.0, top))));
    const int intervalsAllowed = qMax(1, maxTicks - 1);
    qint64 step = 1;
    const auto intervals = [&most](qint64 s) { return (most + s - 1) / s; };
    for (qint64 magnitude = 1; intervals(step) > intervalsAllowed; magnitude *= 10) {
        for (const qint64 m : { 1, 2, 5 }) {
            step = m * magnitude;
            if (intervals(step) <= intervalsAllowed)
                break;
        }
    }
    const qint64 n = intervals(step);
    axis->setProperty("integerTop", double(most));
    axis->setRange(0, double(n * step));
    axis->setTickCount(int(n) + 1);
    axis->setLabelFormat(QStringLiteral("%d"));
}

bool ChartStyle::fitIntegerAxis(QValueAxis *axis, int maxTicks)
{
    const QVariant top = axis->property("integerTop");
    if (!top.isValid())
        return false;
    integerAxis(axis, top.toDouble(), maxTicks);
    return true;
}
