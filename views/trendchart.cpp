#include "views/trendchart.h"

#include "services/historyrecorder.h"
#include "views/chartstyle.h"
#include "views/severitystyle.h"

#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QDateTimeAxis>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

bool TrendChart::draw(QChartView *view, const QString &title, const QList<Line> &lines,
    const HistoryTrend &trend, const QPalette &palette, bool narrow, QString &shape)
{
    QList<qint64> failedAt, incompleteAt, repairedAt;
    for (const HistorySample &s : trend.samples) {
        if (!s.ok)
            failedAt << s.at.toMSecsSinceEpoch();
        else if (!s.complete)
            incompleteAt << s.at.toMSecsSinceEpoch();
    }
    for (const HistoryStore::Repair &r : trend.repairs)
        repairedAt << r.at.toMSecsSinceEpoch();
    const QString format
        = trend.from.secsTo(trend.to) > 2 * 86400 ? QStringLiteral("ddd HH:mm") : QStringLiteral("HH:mm");
    // Each line's stretches of complete refreshes: a failed or incomplete refresh is no value, the line
    // breaks there (one series per stretch, named once in the legend), and a mark at the bottom says why.
    double top = 1;
    QList<QList<QList<QPointF>>> stretchesOf;
    QString drawn = format + u'|' + QString::number(palette.cacheKey());
    for (const Line &line : lines) {
        QList<QList<QPointF>> stretches(1);
        for (const HistorySample &s : trend.samples) {
            const double v = s.ok && s.complete ? line.value(s) : -1;
            if (v < 0) {
                if (!stretches.last().isEmpty())
                    stretches.append(QList<QPointF>());
                continue;
            }
            stretches.last().append({ double(s.at.toMSecsSinceEpoch()), v });
            top = qMax(top, v);
        }
        if (stretches.size() > 1 && stretches.last().isEmpty())
            stretches.removeLast();
        drawn += QStringLiteral(" %1").arg(stretches.size());
        stretchesOf.append(stretches);
    }
    drawn += QStringLiteral(" %1%2%3")
                 .arg(!failedAt.isEmpty())
                 .arg(!incompleteAt.isEmpty())
                 .arg(!repairedAt.isEmpty());
    const auto points = [](const QList<qint64> &at, double level) {
        QList<QPointF> p;
        p.reserve(at.size());
        for (const qint64 t : at)
            p.append({ double(t), level });
        return p;
    };
    const bool same = drawn == shape && view->chart();
    shape = drawn;
    if (same) {
        // The same series as drawn (a refresh more, the range moved on): their points and the axes
        // changed in place, no chart made again.
        QChart *chart = view->chart();
        auto *x = qobject_cast<QDateTimeAxis *>(chart->axes(Qt::Horizontal).value(0));
        auto *y = qobject_cast<QValueAxis *>(chart->axes(Qt::Vertical).value(0));
        const QList<QAbstractSeries *> series = chart->series();
        if (x && y) {
            x->setRange(trend.from.toLocalTime(), trend.to.toLocalTime());
            ChartStyle::integerAxis(y, top * 1.15, narrow ? 3 : 5); // as the Overview fits it
            int at = 0;
            for (const QList<QList<QPointF>> &stretches : std::as_const(stretchesOf)) {
                for (const QList<QPointF> &stretch : stretches) {
                    if (auto *line = qobject_cast<QXYSeries *>(series.value(at++))) {
                        line->replace(stretch);
                        line->setPointsVisible(stretch.size() < 100);
                    }
                }
            }
            const std::pair<const QList<qint64> *, double> markSeries[]
                = { { &failedAt, 0.0 }, { &incompleteAt, 0.0 }, { &repairedAt, y->max() } };
            for (const auto &[when, level] : markSeries) {
                if (when->isEmpty())
                    continue;
                if (auto *marks = qobject_cast<QXYSeries *>(series.value(at++)))
                    marks->replace(points(*when, level));
            }
            return false;
        }
    }
    QChart *chart = ChartStyle::newChart(title, palette);
    auto *x = new QDateTimeAxis;
    x->setFormat(format);
    x->setRange(trend.from.toLocalTime(), trend.to.toLocalTime());
    x->setTickCount(5);
    auto *y = new QValueAxis;
    ChartStyle::styleAxis(x, palette);
    ChartStyle::styleAxis(y, palette);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (int l = 0; l < lines.size(); ++l) {
        const QList<QList<QPointF>> &stretches = stretchesOf.at(l);
        for (int i = 0; i < stretches.size(); ++i) {
            auto *series = new QLineSeries;
            series->setName(lines.at(l).name);
            series->setColor(lines.at(l).colour);
            series->replace(stretches.at(i));
            series->setPointsVisible(stretches.at(i).size() < 100); // a few refreshes still show
            chart->addSeries(series);
            series->attachAxis(x);
            series->attachAxis(y);
            if (i > 0) {
                for (QLegendMarker *m : chart->legend()->markers(series))
                    m->setVisible(false);
            }
        }
    }
    ChartStyle::integerAxis(y, top * 1.15);
    const auto marks = [&](const QString &name, const QColor &colour, QScatterSeries::MarkerShape shape,
                           const QList<qint64> &at, double level) {
        if (at.isEmpty())
            return;
        auto *series = new QScatterSeries;
        series->setName(name);
        series->setColor(colour);
        series->setBorderColor(colour);
        series->setMarkerShape(shape);
        series->setMarkerSize(9);
        series->replace(points(at, level));
        chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
    };
    marks(QCoreApplication::translate("OverviewPage", "refresh failed"),
        SeverityStyle::colour(Severity::Critical), QScatterSeries::MarkerShapeRectangle, failedAt, 0);
    marks(QCoreApplication::translate("OverviewPage", "incomplete"), SeverityStyle::colour(Severity::Warning),
        QScatterSeries::MarkerShapeTriangle, incompleteAt, 0);
    marks(QCoreApplication::translate("OverviewPage", "repair"), SeverityStyle::colour(std::nullopt),
        QScatterSeries::MarkerShapeCircle, repairedAt, y->max());
    QChart *old = view->chart();
    view->setChart(chart);
    delete old;
    return true;
}
