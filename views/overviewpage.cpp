#include "views/overviewpage.h"

#include "core/diagnosis.h"
#include "core/printable.h"
#include "models/findingsmodel.h"
#include "models/findingstreemodel.h"
#include "models/nodesmodel.h"
#include "services/historyrecorder.h"
#include "views/alertspanel.h"
#include "views/chartstyle.h"
#include "views/severitystyle.h"
#include "views/teamrepairspanel.h"
#include "views/trendchart.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QMap>
#include <QPieSeries>
#include <QPushButton>
#include <QResizeEvent>
#include <QStackedBarSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>

namespace {

QChartView *makeChartView(const QString &name, QWidget *parent)
{
    auto *view = new QChartView(parent);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(200, 180);
    view->setAccessibleName(name);
    view->setObjectName(name);
    // A picture, not a control: no Tab stop that shows nothing (its tooltip is the mouse's).
    view->setFocusPolicy(Qt::NoFocus);
    return view;
}

// The incidents the Overview gives a row of their own, the worst first; the rest are counted.
constexpr int MostIncidentRows = 6;

// The width under which a chart's labels are made small and its axes sparse.
constexpr int NarrowChart = 330;

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
    arrangeCharts(event->size().width() >= 3 * 280 + 40 ? 3 : 2);
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
    , m_incidents(new QWidget(this))
    , m_incidentRows(new QVBoxLayout(m_incidents))
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
    m_incidents->setObjectName(QStringLiteral("incidents"));
    m_incidentRows->setContentsMargins(0, 0, 0, 0);
    m_incidentRows->setSpacing(4);
    m_incidents->setVisible(false);
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
    layout->setRowStretch(7, 1); // without charts, the words at the top
    layout->addLayout(m_trendCharts, 6, 0, 1, 3);
    arrangeCharts(3);
    layout->setRowStretch(4, 1);
    layout->setRowStretch(6, 1);
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
    m_title->setText(message);
    for (QWidget *w : std::as_const(m_dataWidgets))
        w->setVisible(false); // nothing to draw: no empty frames that read as an empty router
    m_summary->clear();
    m_caption->clear();
    showIncidents({}, {}, {}, false);
    showAlerts({});
    m_trendCaption->clear();
    m_trend.reset(); // its charts not drawn after all
    m_drawn.clear();
    for (QChartView *v :
        { m_routes, m_instances, m_findings, m_trendRoutes, m_trendNodes, m_trendFindings }) {
        QChart *old = v->chart();
        v->setChart(ChartStyle::newChart(v->accessibleName(), palette()));
        delete old;
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
    // The rows' words first: when they and the buttons are what is shown already, nothing is made again.
    struct Row
    {
        const Incident *incident;
        QString facts;
        std::optional<RepairPlan> plan;
        QString next;
    };
    QList<Row> rows;
    QStringList lines;
    QString shown = QString::number(palette().cacheKey()); // with each row's incident, for its buttons
    // The worst few, each a row with its buttons; the rest counted beneath them (27 rows of rich text were a
    // tenth of a second of the window's time, and no one reads them here: Findings groups them all).
    const qsizetype rowed = qMin<qsizetype>(diagnosis.incidents.size(), MostIncidentRows);
    for (qsizetype n = 0; n < rowed; ++n) {
        const Incident &i = diagnosis.incidents.at(n); // held by `diagnosis`: the rows point to it
        // Since when: the oldest of its findings the history has seen (nothing when it has seen none).
        const FindingHistory *oldest = nullptr;
        for (const QString &id : i.members) {
            const auto h = since.constFind(id);
            if (h != since.cend() && (!oldest || h->firstSeen < oldest->firstSeen))
                oldest = &h.value();
        }
        QString facts = QStringLiteral("%1 · %2").arg(
            severityName(i.severity), FindingsTreeModel::memberCount(int(i.members.size())));
        if (oldest) {
            // "open 2 h 10 min, since 14:05", "open over 3 h"; "new, 14:05" and "open when first recorded"
            // say it already.
            const QString since = FindingsModel::sinceText(*oldest, at);
            facts += QStringLiteral(" · ")
                + (oldest->firstSeen.secsTo(at) >= 60 && !oldest->flapping() ? tr("open %1").arg(since)
                                                                             : since);
        }
        const std::optional<RepairPlan> plan = withRepair ? i.repair() : std::nullopt;
        const QString next = !withRepair ? QString()
            : plan                       ? tr("Repair: %1").arg(plan->title)
                                         : FindingsModel::noRepairReason(i.rule);
        rows.append({ &i, facts, plan, next });
        lines << QStringLiteral("%1\n%2\n%3").arg(i.title, facts, next);
        shown += u'\x1e' + i.id() + u'\x1f' + lines.last();
    }
    const qsizetype more = diagnosis.incidents.size() - rowed;
    if (more > 0) {
        const auto critical = std::count_if(diagnosis.incidents.cbegin() + rowed, diagnosis.incidents.cend(),
            [](const Incident &i) { return i.severity == Severity::Critical; });
        const QString counted = more == 1 ? tr("1 more incident") : tr("%1 more incidents").arg(more);
        lines << (critical > 0
                ? tr("%1, %2 of them critical: Findings (Ctrl+2) groups every finding under its "
                     "incident.")
                      .arg(counted)
                      .arg(critical)
                : tr("%1: Findings (Ctrl+2) groups every finding under its incident.").arg(counted));
        shown += u'\x1e' + lines.last();
    }
    if (shown == m_incidentsShown) {
        m_incidents->setVisible(!diagnosis.incidents.isEmpty());
        return;
    }
    m_incidentsShown = shown;
    // The keyboard on a button of a row about to go (a repair just verified, a refresh): it stays on the
    // same button of the new rows, else the first, never thrown to the window's first widget.
    // (The window's own focus: a dialog over it may have the keyboard now; the window gets it back.)
    QWidget *focused = window()->focusWidget();
    const bool hadFocus = focused && m_incidents->isAncestorOf(focused);
    const QString focusedName = hadFocus ? focused->accessibleName() : QString();
    if (hadFocus)
        m_incidents->setFocus(Qt::OtherFocusReason); // held here while the rows are made again
    while (QLayoutItem *item = m_incidentRows->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_incidentLines = lines;
    for (const Row &r : std::as_const(rows)) {
        const Incident &i = *r.incident;
        const QString &facts = r.facts;
        const std::optional<RepairPlan> &plan = r.plan;
        const QString &next = r.next;
        auto *row = new QFrame(m_incidents);
        row->setFrameShape(QFrame::StyledPanel);
        row->setAutoFillBackground(true);
        QPalette tinted = row->palette();
        tinted.setColor(QPalette::Window, SeverityStyle::tint(i.severity));
        row->setPalette(tinted);
        auto *h = new QHBoxLayout(row);
        h->setContentsMargins(6, 4, 6, 4);
        auto *icon = new QLabel(row);
        icon->setPixmap(SeverityStyle::icon(i.severity).pixmap(22, 22));
        h->addWidget(icon, 0, Qt::AlignTop);
        auto *text = new QLabel(row);
        text->setTextFormat(Qt::RichText); // escaped below
        text->setWordWrap(true);
        text->setTextInteractionFlags(Qt::TextSelectableByMouse);
        text->setText(
            QStringLiteral("<b>%1</b><br>%2%3")
                .arg(OutsideText::html(i.title), OutsideText::html(facts, 600),
                    next.isEmpty() ? QString() : QStringLiteral("<br>") + OutsideText::html(next, 600)));
        h->addWidget(text, 1);
        const QString id = i.id();
        auto *show = new QPushButton(tr("Findings"), row);
        show->setToolTip(tr("Select its findings in the Findings view (grouped by incident: the incident, "
                            "its findings beneath it)"));
        show->setAccessibleName(tr("Show the findings of incident %1").arg(id));
        connect(show, &QPushButton::clicked, this, [this, id] { emit incidentShowRequested(id); });
        h->addWidget(show, 0, Qt::AlignVCenter);
        if (plan) {
            auto *repair = new QPushButton(tr("Repair…"), row);
            repair->setToolTip(tr("Preview its one repair; nothing is sent before you confirm"));
            repair->setAccessibleName(tr("Repair incident %1").arg(id));
            repair->setObjectName(QStringLiteral("repair ") + id);
            connect(repair, &QPushButton::clicked, this, [this, id] { emit incidentRepairRequested(id); });
            h->addWidget(repair, 0, Qt::AlignVCenter);
        }
        m_incidentRows->addWidget(row);
    }
    if (more > 0) {
        auto *rest = new QLabel(lines.last(), m_incidents);
        rest->setTextFormat(Qt::PlainText);
        rest->setWordWrap(true);
        m_incidentRows->addWidget(rest);
    }
    m_incidents->setVisible(!diagnosis.incidents.isEmpty());
    if (hadFocus) {
        const QList<QPushButton *> buttons = m_incidents->findChildren<QPushButton *>();
        QPushButton *again = buttons.isEmpty() ? nullptr : buttons.first();
        for (QPushButton *b : buttons) {
            if (b->accessibleName() == focusedName) {
                again = b;
                break;
            }
        }
        if (again)
            again->setFocus(Qt::OtherFocusReason);
        else if (window()->focusWidget() == m_incidents)
            focusNextChild(); // no incident left: the next stop after them (unless hiding them moved it
                              // there)
    }
}

QStringList OverviewPage::incidentLines() const
{
    return m_incidentLines;
}

void OverviewPage::show(const QString &kluster, const Diagnosis &diagnosis, const NodesModel &nodes,
    int routes, int foreign, int limit, const QString &incomplete, const Knowledge &known)
{
    for (QWidget *w : std::as_const(m_dataWidgets))
        w->setVisible(true);
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
    bool redrawn = false;
    // Routes against the limit.
    if (!alreadyDrawn(m_routes,
            QStringList { kluster, QString::number(int(known.routes())), QString::number(routes),
                QString::number(foreign), QString::number(limit), known.unknown(Source::Router) }
                .join(u'|'))) {
        redrawn = true;
        QChart *chart = !known.routes() ? ChartStyle::newChart(tr("Routes: unknown (router not read)"), pal)
            : limit > 0 ? ChartStyle::newChart(tr("Routes: %1 of %2").arg(routes).arg(limit), pal)
                        : ChartStyle::newChart(tr("Routes: %1 (limit unknown)").arg(routes), pal);
        if (!known.routes()) {
            // Nothing on the router is known: no donut, not an empty router.
            chart->setTitleBrush(SeverityStyle::alarmText(pal));
            chart->setToolTip(known.unknown(Source::Router));
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
        QChart *old = m_routes->chart();
        m_routes->setChart(chart);
        delete old;
    }
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
        if (!alreadyDrawn(m_instances, drawn)) {
            redrawn = true;
            QChart *chart
                = ChartStyle::newChart(!serversKnown ? tr("Instances: unknown, the servers could not be read")
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
            QChart *old = m_instances->chart();
            m_instances->setChart(chart);
            delete old;
        }
    }
    // Findings by severity.
    if (!alreadyDrawn(m_findings, QStringLiteral("%1 %2 %3").arg(critical).arg(warning).arg(info))) {
        redrawn = true;
        QChart *chart = ChartStyle::newChart(tr("Findings by severity"), pal);
        auto *series = new QHorizontalStackedBarSeries;
        const QList<QPair<Severity, int>> parts { { Severity::Critical, critical },
            { Severity::Warning, warning }, { Severity::Info, info } };
        for (const auto &p : parts) {
            auto *set = new QBarSet(QStringLiteral("%1 %2").arg(p.second).arg(SeverityStyle::word(p.first)));
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
        QChart *old = m_findings->chart();
        m_findings->setChart(chart);
        delete old;
    }
    if (redrawn)
        fitCharts();
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

    // Its charts one a turn: each chart's scene is updated and painted in the turn after it changed, and the
    // three at once held the window 40–60 ms beside a region's refresh. A newer trend starts them again.
    m_trend = std::make_shared<const HistoryTrend>(trend);
    m_trendNext = 0;
    postNextTrend();
}

void OverviewPage::postNextTrend()
{
    if (m_trendPosted)
        return;
    m_trendPosted = true;
    QMetaObject::invokeMethod(this, &OverviewPage::drawNextTrend, Qt::QueuedConnection);
}

void OverviewPage::drawNextTrend()
{
    m_trendPosted = false;
    if (!m_trend || m_trendNext >= TrendCharts)
        return; // cleared meanwhile, or drawn
    const int which = m_trendNext++;
    const QColor line = SeverityStyle::colour(std::nullopt).darker(130);
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
    QChartView *view = trendChart(which);
    m_trendRedrawn |= TrendChart::draw(
        view, title, lines, *m_trend, palette(), view->width() < NarrowChart, m_drawn[view]);
    if (m_trendNext < TrendCharts) {
        postNextTrend();
        return;
    }
    m_trend.reset();
    if (std::exchange(m_trendRedrawn, false))
        fitCharts();
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
