#include "views/chartstyle.h"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QDateTimeAxis>
#include <QFontMetrics>
#include <QLegend>
#include <QLegendMarker>
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

void ChartStyle::fitToWidth(QChartView *view, const QFont &font, bool narrow)
{
    QChart *chart = view->chart();
    if (!chart)
        return;
    QFont small = font;
    if (narrow)
        small.setPointSizeF(qMax(6.5, small.pointSizeF() * 0.8));
    chart->legend()->setFont(small);
    chart->setMargins(narrow ? QMargins(0, 2, 0, 2) : QMargins(4, 4, 4, 4));
    const QFontMetrics metrics(small);
    int across = 0;
    int widest = 0;
    QStringList entries;
    for (QLegendMarker *marker : chart->legend()->markers()) {
        // The marker, its gap and the gap to the next entry, as Qt Charts lays them out.
        const int w = metrics.horizontalAdvance(marker->label()) + metrics.height() + 24;
        across += w;
        widest = qMax(widest, w);
        entries << marker->label();
    }
    const int room = view->width() - 24;
    const bool below = across <= room;
    const bool right = !below && room - widest >= 170;
    chart->legend()->setAlignment(right ? Qt::AlignRight : Qt::AlignBottom);
    chart->legend()->setVisible(below || right);
    view->setToolTip(chart->legend()->isVisible() ? QString() : entries.join(QStringLiteral(" · ")));
    for (QAbstractAxis *axis : chart->axes()) {
        axis->setLabelsFont(small);
        if (auto *time = qobject_cast<QDateTimeAxis *>(axis))
            time->setTickCount(narrow || right ? 3 : 5);
        else if (auto *value = qobject_cast<QValueAxis *>(axis))
            fitIntegerAxis(value, narrow ? 3 : 5);
    }
}
