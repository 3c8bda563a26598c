#include "views/overviewpage.h"

#include "core/diagnosis.h"
#include "models/nodesmodel.h"
#include "services/historyrecorder.h"
#include "views/alertspanel.h"
#include "views/chartstyle.h"
#include "views/incidentrows.h"
#include "views/severitystyle.h"
#include "views/teamrepairspanel.h"
#include "views/trendchart.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QMap>
#include <QPieSeries>
#include <QResizeEvent>
#include <QStackedBarSeries>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>

namespace {

// The width under which a chart's labels are made small and its axes sparse.
constexpr int NarrowChart = 330;
// The least height of a chart; it is taller on a wider page (OverviewPage::resizeEvent).
constexpr int MinChartHeight = 180;

QChartView *makeChartView(const QString &name, QWidget *parent)
{
    auto *view = new QChartView(parent);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumWidth(200);
    view->setFixedHeight(MinChartHeight);
    view->setAccessibleName(name);
    view->setObjectName(name);
    // A picture, not a control: no Tab stop that shows nothing (its tooltip is the mouse's).
    view->setFocusPolicy(Qt::NoFocus);
    return view;
}

// The view's chart replaced by `chart`, the old one freed.
void replaceChart(QChartView *view, QChart *chart)
{
    QChart *old = view->chart();
    view->setChart(chart);
    delete old;
}

} // namespace

// Three charts a row where each gets its width; two on a laptop's narrower page, so that every chart keeps
// its legend whole instead of three that lose theirs.
void OverviewPage::arrangeCharts(int columns)
{
    if (columns == m_chartColumns)
        return;
    m_chartColumns = columns;
    const std::pair<QGridLayout *, QList<QChartView *>> grids[]
        = { { m_stateCharts, { m_routes, m_instances, m_findings } },
              { m_trendCharts, { m_trendRoutes, m_trendNodes, m_trendFindings } } };
    for (const auto &[grid, charts] : grids) {
        for (QChartView *chart : charts)
            grid->removeWidget(chart);
        for (int i = 0; i < charts.size(); ++i)
            grid->addWidget(charts.at(i), i / columns, i % columns);
        for (int c = 0; c < 3; ++c)
            grid->setColumnStretch(c, c < columns ? 1 : 0);
    }
}

void OverviewPage::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    // The page grows and shrinks in height with its words (an incident more, a line that wraps): the charts
    // keep their size then, and are fitted again only to another width.
    const int width = event->size().width();
    if (width == event->oldSize().width())
        return;
    const int columns = width >= 3 * 280 + 40 ? 3 : 2;
    arrangeCharts(columns);
    // Their height follows their width alone, never the words above them: a refresh that adds a line there
    // moves the charts down instead of making all six again at another height.
    const int chartHeight = std::clamp(width / columns * 3 / 5, MinChartHeight, 2 * MinChartHeight);
    for (QChartView *v : { m_routes, m_instances, m_findings, m_trendRoutes, m_trendNodes, m_trendFindings })
        v->setFixedHeight(chartHeight);
    fitCharts();
}

void OverviewPage::fitCharts()
{
    for (QChartView *v : { m_routes, m_instances, m_findings, m_trendRoutes, m_trendNodes, m_trendFindings })
        ChartStyle::fitToWidth(v, font(), v->width() < NarrowChart);
}

OverviewPage::OverviewPage(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_incidents(new IncidentRows(this))
    , m_alerts(new AlertsPanel(this))
    , m_team(new TeamRepairsPanel(this))
    , m_summary(new QLabel(this))
    , m_caption(new QLabel(this))
    , m_routes(makeChartView(tr("Routes against the router's limit"), this))
    , m_instances(makeChartView(tr("Instances by state and registration"), this))
    , m_findings(makeChartView(tr("Findings by severity"), this))
    , m_trendRange(new QComboBox(this))
    , m_trendCaption(new QLabel(this))
    , m_trendRoutes(makeChartView(tr("Routes over time"), this))
    , m_trendNodes(makeChartView(tr("Ready nodes over time"), this))
    , m_trendFindings(makeChartView(tr("Findings over time"), this))
{
    QFont big = m_title->font();
    big.setPointSizeF(big.pointSizeF() * 1.5);
    big.setBold(true);
    m_title->setFont(big);
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_caption->setWordWrap(true);
    m_caption->setTextFormat(Qt::PlainText);
    m_title->setWordWrap(true);
    m_title->setTextFormat(Qt::PlainText); // it names the kluster
    m_trendCaption->setTextFormat(Qt::PlainText);
    auto *layout = new QGridLayout(this);
    m_stateCharts = new QGridLayout;
    m_trendCharts = new QGridLayout;
    connect(m_incidents, &IncidentRows::repairRequested, this, &OverviewPage::incidentRepairRequested);
    connect(m_incidents, &IncidentRows::showRequested, this, &OverviewPage::incidentShowRequested);
    layout->addWidget(m_title, 0, 0, 1, 3);
    layout->addWidget(m_caption, 1, 0, 1, 3);
    auto *top = new QVBoxLayout;
    top->setSpacing(6);
    top->addWidget(m_incidents);
    top->addWidget(m_alerts);
    connect(m_alerts, &AlertsPanel::silenceRequested, this, &OverviewPage::alertSilenceRequested);
    m_team->setObjectName(QStringLiteral("teamRepairs"));
    m_team->setAccessibleName(tr("Recent repairs of this kluster"));
    top->addWidget(m_team);
    layout->addLayout(top, 2, 0, 1, 3);
    layout->addWidget(m_summary, 3, 0, 1, 3);
    layout->addLayout(m_stateCharts, 4, 0, 1, 3);
    auto *trendBar = new QHBoxLayout;
    auto *trendLabel = new QLabel(tr("&Trends over the"), this);
    trendLabel->setTextFormat(Qt::PlainText);
    trendLabel->setBuddy(m_trendRange);
    m_trendRange->addItem(tr("last 6 hours"), 6);
    m_trendRange->addItem(tr("last day"), 24);
    m_trendRange->addItem(tr("last week"), 24 * 7);
    m_trendRange->setCurrentIndex(1);
    m_trendRange->setAccessibleName(tr("Trend range"));
    m_trendCaption->setWordWrap(true);
    trendBar->addWidget(trendLabel);
    trendBar->addWidget(m_trendRange);
    trendBar->addWidget(m_trendCaption, 1);
    layout->addLayout(trendBar, 5, 0, 1, 3);
    m_dataWidgets = { m_routes, m_instances, m_findings, trendLabel, m_trendRange, m_trendRoutes,
        m_trendNodes, m_trendFindings };
    layout->setRowStretch(7, 1); // the room left below the charts (or the words, without them)
    layout->addLayout(m_trendCharts, 6, 0, 1, 3);
    arrangeCharts(3);
    connect(m_trendRange, &QComboBox::currentIndexChanged, this,
        [this] { emit trendRangeChanged(trendHours()); });
    clear(tr("Select a kluster in the sidebar."));
}

QString OverviewPage::title() const
{
    return m_title->text();
}

void OverviewPage::clear(const QString &message)
{
    m_hasData = false;
    m_title->setText(message);
    for (QWidget *w : std::as_const(m_dataWidgets))
        w->setVisible(false); // nothing to draw: no empty frames that read as an empty router
    m_summary->clear();
    m_caption->clear();
    showIncidents({}, {}, {}, false);
    showAlerts({});
    m_trendCaption->clear();
    m_chartDraws.clear(); // not drawn after all
    m_chartsToFit.clear();
    m_drawn.clear();
    for (QChartView *v :
        { m_routes, m_instances, m_findings, m_trendRoutes, m_trendNodes, m_trendFindings }) {
        replaceChart(v, ChartStyle::newChart(v->accessibleName(), palette()));
    }
}

bool OverviewPage::alreadyDrawn(QChartView *view, const QString &what)
{
    const QString drawn = what + u'|' + QString::number(palette().cacheKey());
    QString &was = m_drawn[view];
    if (was == drawn)
        return true;
    was = drawn;
    return false;
}

void OverviewPage::showIncidents(const Diagnosis &diagnosis, const QHash<QString, FindingHistory> &since,
    const QDateTime &at, bool withRepair)
{
    m_incidents->setIncidents(diagnosis, since, at, withRepair);
}

QStringList OverviewPage::incidentLines() const
{
    return m_incidents->lines();
}

void OverviewPage::show(const QString &kluster, const Diagnosis &diagnosis, const NodesModel &nodes,
    int routes, int foreign, int limit, const QString &incomplete, const Knowledge &known)
{
    m_hasData = true;
    const int critical = diagnosis.count(Severity::Critical);
    const int warning = diagnosis.count(Severity::Warning);
    const int info = diagnosis.count(Severity::Info);
    // Its words are the console's (ConsoleText::overviewText): missing data never reads as health.
    const ConsoleText::OverviewText text = ConsoleText::overviewText(kluster, diagnosis, incomplete);
    m_title->setText(text.title);
    QPalette captionPalette = m_caption->palette();
    captionPalette.setColor(QPalette::WindowText, SeverityStyle::alarmText(palette()));
    m_caption->setPalette(incomplete.isEmpty() ? palette() : captionPalette);
    m_caption->setText(text.caption);
    m_summary->setText(text.lines.join(QStringLiteral("<br>")));

    const QPalette pal = palette();
    // Routes against the limit.
    const bool routesKnown = known.routes();
    const QString routerUnknown = known.unknown(Source::Router);
    if (!alreadyDrawn(m_routes,
            QStringList { kluster, QString::number(int(routesKnown)), QString::number(routes),
                QString::number(foreign), QString::number(limit), routerUnknown }
                .join(u'|')))
        queueChart(m_routes, [this, pal, kluster, routesKnown, routerUnknown, routes, foreign, limit] {
            QChart *chart = !routesKnown ? ChartStyle::newChart(tr("Routes: unknown (router not read)"), pal)
                : limit > 0 ? ChartStyle::newChart(tr("Routes: %1 of %2").arg(routes).arg(limit), pal)
                            : ChartStyle::newChart(tr("Routes: %1 (limit unknown)").arg(routes), pal);
            if (!routesKnown) {
                // Nothing on the router is known: no donut, not an empty router.
                chart->setTitleBrush(SeverityStyle::alarmText(pal));
                chart->setToolTip(routerUnknown);
            } else {
                auto *series = new QPieSeries;
                series->setHoleSize(0.45);
                const double share = limit > 0 ? double(routes) / limit : 0;
                const QColor used = SeverityStyle::colour(share >= 1.0 ? std::optional(Severity::Critical)
                        : share >= 0.8                                 ? std::optional(Severity::Warning)
                                                                       : std::nullopt);
                series->append(tr("%1's %2").arg(kluster).arg(routes - foreign), routes - foreign)
                    ->setColor(used);
                if (foreign > 0)
                    series->append(tr("others' %1").arg(foreign), foreign)->setColor(used.darker(140));
                if (limit > routes)
                    series->append(tr("free %1").arg(limit - routes), limit - routes)
                        ->setColor(ChartStyle::Neutral.lighter(150));
                chart->addSeries(series);
            }
            replaceChart(m_routes, chart);
            return true;
        });
    // Instances by state and registration.
    {
        const bool serversKnown = known.known(Source::Servers);
        const bool nodesKnown = known.known(Source::Nodes);
        QMap<QString, QList<int>> byStatus; // status -> registered, young unregistered, old unregistered
        for (int row = 0; row < nodes.rowCount(); ++row) {
            const QString status = nodes.index(row, NodesModel::StatusColumn).data().toString();
            if (status.startsWith(QLatin1Char('(')))
                continue; // a node without an instance
            const bool registered
                = nodes.index(row, NodesModel::RegisteredColumn).data(NodesModel::SortRole).toBool();
            const qint64 age
                = nodes.index(row, NodesModel::AgeColumn).data(NodesModel::SortRole).toLongLong();
            QList<int> &counts = byStatus[status];
            counts.resize(3);
            // Without the nodes, registration is unknown: one neutral bar, never red "unregistered".
            counts[!nodesKnown ? 1 : registered ? 0 : (age >= 0 && age < 600) ? 1 : 2] += 1;
        }
        QString drawn = QStringLiteral("%1 %2").arg(serversKnown).arg(nodesKnown);
        for (auto it = byStatus.cbegin(); it != byStatus.cend(); ++it)
            drawn += QStringLiteral("|%1 %2 %3 %4")
                         .arg(it.key())
                         .arg(it.value().value(0))
                         .arg(it.value().value(1))
                         .arg(it.value().value(2));
        if (!alreadyDrawn(m_instances, drawn))
            queueChart(m_instances, [this, pal, serversKnown, nodesKnown, byStatus] {
                QChart *chart = ChartStyle::newChart(!serversKnown
                        ? tr("Instances: unknown, the servers could not be read")
                        : !nodesKnown
                        ? tr("Instances by Nova state; registration unknown, the nodes could not be read")
                        : tr("Instances: state, registration"),
                    pal);
                if (!serversKnown || !nodesKnown)
                    chart->setTitleBrush(SeverityStyle::alarmText(pal));
                auto *series = new QStackedBarSeries;
                const QStringList labels { tr("registered"),
                    nodesKnown ? tr("booting") : tr("registration unknown"), tr("unregistered") };
                const QList<QColor> colours { SeverityStyle::colour(std::nullopt), ChartStyle::Neutral,
                    SeverityStyle::colour(Severity::Critical) };
                int most = 1;
                for (int i = 0; i < 3; ++i) {
                    auto *set = new QBarSet(labels.at(i));
                    set->setColor(colours.at(i));
                    for (const QList<int> &counts : std::as_const(byStatus))
                        *set << counts.value(i);
                    series->append(set);
                }
                for (const QList<int> &counts : std::as_const(byStatus))
                    most = qMax(most, counts.value(0) + counts.value(1) + counts.value(2));
                chart->addSeries(series);
                auto *x = new QBarCategoryAxis;
                x->append(byStatus.keys());
                auto *y = new QValueAxis;
                ChartStyle::integerAxis(y, most);
                ChartStyle::styleAxis(x, pal);
                ChartStyle::styleAxis(y, pal);
                chart->addAxis(x, Qt::AlignBottom);
                chart->addAxis(y, Qt::AlignLeft);
                series->attachAxis(x);
                series->attachAxis(y);
                replaceChart(m_instances, chart);
                return true;
            });
    }
    // Findings by severity.
    if (!alreadyDrawn(m_findings, QStringLiteral("%1 %2 %3").arg(critical).arg(warning).arg(info)))
        queueChart(m_findings, [this, pal, critical, warning, info] {
            QChart *chart = ChartStyle::newChart(tr("Findings by severity"), pal);
            auto *series = new QHorizontalStackedBarSeries;
            const QList<QPair<Severity, int>> parts { { Severity::Critical, critical },
                { Severity::Warning, warning }, { Severity::Info, info } };
            for (const auto &p : parts) {
                auto *set
                    = new QBarSet(QStringLiteral("%1 %2").arg(p.second).arg(SeverityStyle::word(p.first)));
                set->setColor(SeverityStyle::colour(p.first));
                *set << p.second;
                series->append(set);
            }
            chart->addSeries(series);
            auto *y = new QBarCategoryAxis;
            y->append(tr("findings"));
            auto *x = new QValueAxis;
            ChartStyle::integerAxis(x, critical + warning + info);
            ChartStyle::styleAxis(x, pal);
            ChartStyle::styleAxis(y, pal);
            chart->addAxis(y, Qt::AlignLeft);
            chart->addAxis(x, Qt::AlignBottom);
            series->attachAxis(x);
            series->attachAxis(y);
            replaceChart(m_findings, chart);
            return true;
        });
    // The charts still to draw are shown as they are drawn (a chart view's first show is milliseconds of its
    // own); the others, and the trends' range, at once.
    for (QWidget *w : std::as_const(m_dataWidgets)) {
        if (std::none_of(
                m_chartDraws.cbegin(), m_chartDraws.cend(), [w](const ChartDraw &d) { return d.view == w; }))
            w->setVisible(true);
    }
}

int OverviewPage::trendHours() const
{
    return m_trendRange->currentData().toInt();
}

QChartView *OverviewPage::trendChart(int which) const
{
    return which == 0 ? m_trendRoutes : which == 1 ? m_trendNodes : m_trendFindings;
}

void OverviewPage::showTrend(const HistoryTrend &trend)
{
    int failures = 0;
    int incomplete = 0;
    for (const HistorySample &s : trend.samples) {
        failures += s.ok ? 0 : 1;
        incomplete += s.ok && !s.complete ? 1 : 0;
    }
    m_trendCaption->setText(trend.samples.isEmpty()
            ? tr(
                "No refresh of this kluster is recorded in this range yet: the history records every refresh "
                "from now on.")
            : tr("%n refresh(es) recorded", nullptr, int(trend.samples.size()))
                + (failures > 0 ? tr(", %n failed (red marks)", nullptr, failures) : QString())
                + (incomplete > 0
                        ? tr(", %n incomplete (amber marks; not drawn as values)", nullptr, incomplete)
                        : QString())
                + (trend.repairs.isEmpty()
                        ? QString()
                        : tr(", %n repair(s) (green marks)", nullptr, int(trend.repairs.size())))
                + QStringLiteral("."));

    // A newer trend takes the place of one whose charts still wait.
    const auto shown = std::make_shared<const HistoryTrend>(trend);
    const QColor line = SeverityStyle::colour(std::nullopt).darker(130);
    for (int which = 0; which < TrendCharts; ++which) {
        QChartView *view = trendChart(which);
        queueChart(view, [this, view, which, line, shown] {
            const auto [title, lines] = [&]() -> std::pair<QString, QList<TrendChart::Line>> {
                switch (which) {
                case 0:
                    return { tr("Routes against the limit"),
                        { { tr("routes"), line, [](const HistorySample &s) { return double(s.routes); } },
                            { tr("limit"), ChartStyle::Neutral,
                                [](const HistorySample &s) { return double(s.maxRoutes); } } } };
                case 1:
                    return { tr("Ready nodes against expected"),
                        { { tr("Ready"), line, [](const HistorySample &s) { return double(s.nodesReady); } },
                            { tr("expected"), ChartStyle::Neutral,
                                [](const HistorySample &s) { return double(s.nodesExpected); } } } };
                default:
                    return { tr("Findings by severity"),
                        { { tr("critical"), SeverityStyle::colour(Severity::Critical),
                              [](const HistorySample &s) { return double(s.critical); } },
                            { tr("warning"), SeverityStyle::colour(Severity::Warning),
                                [](const HistorySample &s) { return double(s.warning); } } } };
                }
            }();
            return TrendChart::draw(
                view, title, lines, *shown, palette(), view->width() < NarrowChart, m_drawn[view]);
        });
    }
}

void OverviewPage::queueChart(QChartView *view, std::function<bool()> draw)
{
    const auto queued = std::find_if(
        m_chartDraws.begin(), m_chartDraws.end(), [view](const ChartDraw &d) { return d.view == view; });
    if (queued != m_chartDraws.end()) {
        if (!queued->draw && !m_chartsToFit.contains(view))
            m_chartsToFit.append(view); // its fit waited: still owed after the draw that takes its place
        queued->draw = std::move(draw);
    } else
        m_chartDraws.append({ view, std::move(draw) });
    if (!m_chartPosted)
        drawNextChartSoon();
}

void OverviewPage::drawNextChartSoon()
{
    // A timer, not a posted call: Qt runs the posted events (paints, results) before the timers once a timer
    // has fired, so a chain of posted calls holds every timer of the window back until it ends. A chart a
    // timer lets the others run between two charts.
    m_chartPosted = true;
    QTimer::singleShot(1, Qt::PreciseTimer, this, &OverviewPage::drawNextChart);
}

void OverviewPage::drawNextChart()
{
    m_chartPosted = false;
    if (m_chartDraws.isEmpty())
        return; // cleared meanwhile
    const ChartDraw next = m_chartDraws.takeFirst();
    if (!next.draw)
        ChartStyle::fitToWidth(next.view, font(), next.view->width() < NarrowChart);
    else if (next.draw() && !m_chartsToFit.contains(next.view))
        m_chartsToFit.append(next.view);
    next.view->setVisible(m_hasData); // show() leaves a view with a step to come to that step
    if (m_chartDraws.isEmpty() && !m_chartsToFit.isEmpty()) {
        // The views just shown have no size from the layout yet: given theirs first, else a chart would be
        // fitted to a hidden view's width and stay so. Then each chart made anew is fitted in a turn of its
        // own (its legend's and axes' fonts set: each lays the chart out again), not all six in one.
        if (layout())
            layout()->activate();
        for (QChartView *view : std::exchange(m_chartsToFit, {}))
            m_chartDraws.append(ChartDraw { view, {} });
    }
    if (!m_chartDraws.isEmpty())
        drawNextChartSoon();
}

void OverviewPage::showAlerts(const ConsoleText::AlertsText &alerts)
{
    m_alerts->showAlerts(alerts);
}

QString OverviewPage::alertsShown() const
{
    return m_alerts->shown();
}

void OverviewPage::showTimeline(const QStringList &lines, const QStringList &problems)
{
    m_team->showRepairs(lines, problems);
}

QString OverviewPage::teamRepairsShown() const
{
    return m_team->isHidden() ? QString() : m_team->shown();
}
