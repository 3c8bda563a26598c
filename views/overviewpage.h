#pragma once

#include "console/consoletext.h"
#include "core/findinghistory.h"
#include "core/knowledge.h"

#include <QHash>
#include <QWidget>
#include <functional>

class AlertsPanel;
class IncidentRows;
class TeamRepairsPanel;
class NodesModel;
class QChart;
class QChartView;
class QComboBox;
class QGridLayout;
class QLabel;
struct Diagnosis;
struct HistoryTrend;

// The kluster at a glance: its incidents first (each cause with its severity, how many findings, since when,
// and its one repair or why it has none), the verdict in words, what could not be judged,
// and three small charts: the router's routes against its limit, the
// instances by Nova state and registration age, and the findings by severity;
// below them, the trends from the local history over the last hours, day or
// week (routes against the limit, Ready nodes against expected, findings by
// severity), with repairs and failed refreshes marked.
class OverviewPage : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(OverviewPage)

public:
    explicit OverviewPage(QWidget *parent = nullptr);

    // `routes`/`limit`: the router's count and limit (limit 0: unknown).
    // `foreign`: how many of the router's routes are not the kluster's (other klusters', other uses).
    // `incomplete`: what could not be read (the counts are then lower bounds); empty when everything was.
    // `serversKnown`: the instances could be read (else their chart says so instead of showing none).
    // `known`: what the sources let be said; a chart that rests on a source not read says so, drawn empty.
    void show(const QString &kluster, const Diagnosis &diagnosis, const NodesModel &nodes, int routes,
        int foreign, int limit, const QString &incomplete, const Knowledge &known);
    void clear(const QString &message);
    // The kluster's incidents, leading the page: since when from `since` (the history, when it has them: else
    // no time), at `at`; `withRepair`: repairs are offered (a writable connection).
    void showIncidents(const Diagnosis &diagnosis, const QHash<QString, FindingHistory> &since,
        const QDateTime &at, bool withRepair);
    QStringList incidentLines() const; // each incident's words as shown (tests)
    // The kluster's alerts (ConsoleText::alertsText), below its incidents; hidden without an Alertmanager.
    void showAlerts(const ConsoleText::AlertsText &alerts);
    QString alertsShown() const; // the words shown (tests)
    // Who repaired the kluster lately (its Events): one line per repair, newest first; hidden when none.
    // The kluster's timeline (console/klustertimeline.h): its repairs and Kubernikus' events, and what was
    // not read.
    void showTimeline(const QStringList &lines, const QStringList &problems);
    QString teamRepairsShown() const; // the words shown (tests); empty while hidden
    // The trends of the kluster shown (from the history recorder): its caption at once, its three charts
    // drawn after it (drawNextChart()).
    void showTrend(const HistoryTrend &trend);
    int trendHours() const; // the range chosen: 6, 24 or 168
    QChartView *trendChart(int which) const; // 0 routes, 1 nodes, 2 findings (tests, screenshots)
    bool chartsPending() const { return !m_chartDraws.isEmpty(); } // charts still to draw or fit (tests)
    QString title() const; // the line at the top: the kluster's verdict, or why there is none

signals:
    void trendRangeChanged(int hours);
    void incidentRepairRequested(const QString &incidentId); // an incident's Repair button
    void incidentShowRequested(const QString &incidentId); // its "Findings" button
    void alertSilenceRequested(const QString &fingerprint); // an alert's "Silence…"

protected:
    void resizeEvent(QResizeEvent *event) override;
    void arrangeCharts(int columns); // the six charts, `columns` a row

private:
    // Charts fit their width: on a laptop (a chart narrower than about 330 px) smaller labels and fewer
    // ticks, the legend's words kept whole, never "de…" or "…" on an axis.
    void fitCharts();
    // Whether `view` already shows what `what` describes (the same inputs, the same palette); remembered
    // otherwise. A refresh that changed nothing redraws no chart.
    bool alreadyDrawn(QChartView *view, const QString &what);
    // The charts are drawn one a turn of the event loop (show(), showTrend()): each chart's scene is made,
    // updated and painted in a turn of its own, beside the refreshes' results; six at once held the window
    // 40–60 ms at region size. `draw` makes the view's chart again, saying whether it did; queued for a view
    // whose draw still waits, it takes that one's place.
    void queueChart(QChartView *view, std::function<bool()> draw);
    void drawNextChart();
    void drawNextChartSoon();
    static constexpr int TrendCharts = 3; // routes, nodes, findings (trendChart())
    struct ChartDraw
    {
        QChartView *view;
        std::function<bool()> draw; // empty: the step fits the view's chart made anew to its width
    };

    QLabel *m_title;
    IncidentRows *m_incidents;
    QGridLayout *m_stateCharts = nullptr; // the state now: routes, instances, findings
    QGridLayout *m_trendCharts = nullptr; // the trends of the same
    int m_chartColumns = 0;
    AlertsPanel *m_alerts;
    TeamRepairsPanel *m_team;
    QLabel *m_summary;
    QLabel *m_caption;
    QChartView *m_routes;
    QChartView *m_instances;
    QChartView *m_findings;
    QComboBox *m_trendRange;
    QLabel *m_trendCaption;
    QChartView *m_trendRoutes;
    QChartView *m_trendNodes;
    QChartView *m_trendFindings;
    QList<QWidget *> m_dataWidgets; // the charts and the trends' range: hidden while there is no data
    QHash<QChartView *, QString>
        m_drawn; // what each chart shows, or will once drawn (alreadyDrawn; a trend's series, TrendChart)
    QList<ChartDraw> m_chartDraws; // the charts still to draw, in order
    bool m_chartPosted = false; // a call to drawNextChart() is on its way (drawNextChartSoon())
    bool m_hasData = false; // a kluster is shown (show()), not cleared: its charts are shown as drawn
    QList<QChartView *> m_chartsToFit; // made again: fitted, one a turn, once every chart is drawn
};
