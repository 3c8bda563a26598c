#include "views/chartstyle.h"

#include <QAbstractAxis>
#include <QChart>
#include <QLegend>
#include <QPalette>

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
