#include "core/diagnosis.h"
#include "views/cachedtextdelegate.h"
#include "views/chartstyle.h"
#include "views/overviewpage.h"
#include "views/severitystyle.h"

#include <QApplication>
#include <QFrame>
#include <QLabel>
#include <QPalette>
#include <QSet>
#include <QStandardItemModel>
#include <QTest>
#include <QTreeView>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

// The one look of severities: a colour, a tint, a wash, an icon and a word for each, and for none; the
// Overview's incident rows, tinted with it; the charts' count axes; and the lists' cells, their text laid out
// once.
class TestSeverityStyle : public QObject
{
    Q_OBJECT
private slots:
    void eachSeverityHasItsOwnLook();
    void onlyProblemsAreTinted();
    void washReadsOnLightAndDark();
    void incidentRowsForTheWorstTheRestCounted();
    void countAxesNeverRepeatALabel();
    void cachedTextPaintsAsQtDoes();
};

static const QList<std::optional<Severity>> All { Severity::Critical, Severity::Warning, Severity::Info,
    std::nullopt };

void TestSeverityStyle::eachSeverityHasItsOwnLook()
{
    QSet<QRgb> colours;
    QSet<QString> words;
    for (const std::optional<Severity> &s : All) {
        colours.insert(SeverityStyle::colour(s).rgb());
        words.insert(SeverityStyle::word(s));
        QVERIFY(!SeverityStyle::icon(s).isNull());
        QVERIFY(!SeverityStyle::statusIcon(s).isNull());
    }
    QCOMPARE(colours.size(), All.size());
    QCOMPARE(words,
        (QSet<QString> { QStringLiteral("critical"), QStringLiteral("warning"), QStringLiteral("info"),
            QStringLiteral("healthy") }));
    QCOMPARE(SeverityStyle::word(Severity::Warning), severityName(Severity::Warning)); // the report's word
}

void TestSeverityStyle::onlyProblemsAreTinted()
{
    for (Severity s : { Severity::Critical, Severity::Warning }) {
        const QColor tint = SeverityStyle::tint(s);
        QVERIFY(tint.isValid() && tint.alpha() < 255); // over the row, light or dark
        QCOMPARE(tint.rgb() & 0xffffff, SeverityStyle::colour(s).rgb() & 0xffffff);
    }
    QVERIFY(!SeverityStyle::tint(Severity::Info).isValid());
    QVERIFY(!SeverityStyle::tint(std::nullopt).isValid());
}

void TestSeverityStyle::washReadsOnLightAndDark()
{
    QPalette light;
    light.setColor(QPalette::Window, QColor(239, 239, 239));
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(35, 38, 41));
    for (const std::optional<Severity> &s : All) {
        const QColor onLight = SeverityStyle::wash(s, light);
        const QColor onDark = SeverityStyle::wash(s, dark);
        QVERIFY2(onLight.lightness() > 170, qPrintable(onLight.name()));
        QVERIFY2(onDark.lightness() < 100, qPrintable(onDark.name()));
        QVERIFY(onLight != light.color(QPalette::Window)); // tinted, not the window itself
    }
}

// Whole-number ticks a round step apart, covering the data, never more than asked: no "0 0 1", no "0 2 5".
void TestSeverityStyle::countAxesNeverRepeatALabel()
{
    for (const int maxTicks : { 3, 5 }) {
        for (double top = 0; top <= 1200; top += top < 40 ? 0.5 : 7) {
            QValueAxis axis;
            ChartStyle::integerAxis(&axis, top, maxTicks);
            const int ticks = axis.tickCount();
            QVERIFY2(
                ticks >= 2 && ticks <= maxTicks, qPrintable(QStringLiteral("%1: %2").arg(top).arg(ticks)));
            QCOMPARE(axis.min(), 0.0);
            QVERIFY(axis.max() >= top);
            const double step = axis.max() / (ticks - 1);
            QCOMPARE(step, std::round(step)); // every label a whole number, each its own
            const double leading = step / std::pow(10.0, std::floor(std::log10(step)));
            QVERIFY2(
                qFuzzyCompare(leading, 1.0) || qFuzzyCompare(leading, 2.0) || qFuzzyCompare(leading, 5.0),
                qPrintable(QString::number(step)));
            QVERIFY(axis.max() - step < qMax(1.0, top)); // no empty interval on top
        }
    }
    // Fitted again to a narrower chart, from the data it was made for.
    QValueAxis axis;
    ChartStyle::integerAxis(&axis, 12, 5);
    QCOMPARE(axis.max(), 15.0); // 0 5 10 15
    QCOMPARE(axis.tickCount(), 4);
    QVERIFY(ChartStyle::fitIntegerAxis(&axis, 3)); // 0 10 20
    QCOMPARE(axis.tickCount(), 3);
    QCOMPARE(axis.max(), 20.0);
    QValueAxis plain;
    QVERIFY(!ChartStyle::fitIntegerAxis(&plain, 3));
}

void TestSeverityStyle::cachedTextPaintsAsQtDoes()
{
    // A list as the sidebar shows one: a bold heading, counts aligned right, a cause too long for its column,
    // a severity's icon and colour, a selected row. Painted by Qt's delegate and by the cached one, the
    // pixels are the same; painted again, nothing is laid out again.
    QStandardItemModel model(0, 3);
    const QIcon icon = SeverityStyle::icon(Severity::Critical);
    const QList<QStringList> rows { { QStringLiteral("demo · flightdeck-demo"), QStringLiteral("21"),
                                        QStringLiteral("pod-network rule missing") },
        { QStringLiteral("edge"), QStringLiteral("5"),
            QStringLiteral("security group missing from an instance of a node pool") },
        { QStringLiteral("retired-kluster-with-a-long-name"), QStringLiteral("1234567890"),
            QStringLiteral("load balancer left behind") },
        { QStringLiteral("green  "), QString(), QStringLiteral("node not Ready") } };
    for (int r = 0; r < rows.size(); ++r) {
        QList<QStandardItem *> items;
        for (const QString &text : rows.at(r))
            items << new QStandardItem(text);
        items.at(0)->setIcon(icon);
        items.at(1)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        if (r == 0) {
            QFont bold;
            bold.setBold(true);
            for (QStandardItem *item : items)
                item->setFont(bold);
        }
        items.at(2)->setForeground(SeverityStyle::colour(Severity::Critical));
        items.at(2)->setBackground(SeverityStyle::tint(Severity::Warning));
        model.appendRow(items);
    }
    QTreeView plain, cached;
    auto *delegate = new CachedTextDelegate(&cached);
    cached.setItemDelegate(delegate);
    for (QTreeView *view : { &plain, &cached }) {
        view->setModel(&model);
        view->setRootIsDecorated(false);
        view->setUniformRowHeights(true);
        view->setSelectionBehavior(QAbstractItemView::SelectRows);
        view->setAllColumnsShowFocus(true);
        view->resize(330, 160);
        view->setColumnWidth(0, 120);
        view->setColumnWidth(1, 36);
        view->setCurrentIndex(model.index(1, 0));
    }
    const auto same = [&] {
        const QImage a = plain.viewport()->grab().toImage();
        const QImage b = cached.viewport()->grab().toImage();
        QCOMPARE(b.size(), a.size());
        QCOMPARE(b, a);
    };
    same();
    const qsizetype kept = delegate->cached();
    QCOMPARE(
        kept, qsizetype(10)); // every cell with text once, but the name with trailing spaces (Qt paints it)
    same();
    QCOMPARE(delegate->cached(), kept);
    // A narrower column elides again, and is still painted as Qt paints it.
    for (QTreeView *view : { &plain, &cached })
        view->setColumnWidth(0, 70);
    same();
    QVERIFY(delegate->cached() > kept);
}

QTEST_MAIN(TestSeverityStyle)
#include "tst_severitystyle.moc"

void TestSeverityStyle::incidentRowsForTheWorstTheRestCounted()
{
    // Nine incidents, the worst first (as the diagnosis orders them): six get a row of their own, tinted
    // with their severity; the rest are counted beneath, how many of them critical said.
    Diagnosis diagnosis;
    for (int i = 0; i < 9; ++i) {
        Incident incident;
        incident.rule = IncidentRule::RouterFull;
        incident.key = QStringLiteral("router-%1").arg(i);
        incident.severity = i < 7 ? Severity::Critical : Severity::Warning;
        incident.title = QStringLiteral("router %1 is full").arg(i);
        incident.members = { QStringLiteral("route-limit:router-%1").arg(i) };
        diagnosis.incidents << incident;
    }
    OverviewPage page;
    page.showIncidents(diagnosis, {}, QDateTime::currentDateTimeUtc(), false);
    const QStringList lines = page.incidentLines();
    QCOMPARE(lines.size(), 7);
    QVERIFY2(lines.first().startsWith(QStringLiteral("router 0 is full")), qPrintable(lines.first()));
    QVERIFY2(lines.last().startsWith(QStringLiteral("3 more incidents, 1 of them critical")),
        qPrintable(lines.last()));
    QList<QFrame *> rows;
    for (QFrame *f : page.findChildren<QFrame *>()) {
        if (f->frameShape() == QFrame::StyledPanel && f->autoFillBackground())
            rows << f;
    }
    QCOMPARE(rows.size(), 6);
    QVERIFY(std::none_of(rows.cbegin(), rows.cend(), [](const QFrame *f) { return f->isHidden(); }));
    QCOMPARE(rows.first()->palette().color(QPalette::Window), SeverityStyle::tint(Severity::Critical));

    // The same incidents again (a refresh that changed nothing): the rows stay, none made again.
    page.showIncidents(diagnosis, {}, QDateTime::currentDateTimeUtc(), false);
    QList<QFrame *> again;
    for (QFrame *f : page.findChildren<QFrame *>()) {
        if (f->frameShape() == QFrame::StyledPanel && f->autoFillBackground())
            again << f;
    }
    QCOMPARE(again, rows);

    // Their words changed (a refresh: another incident first, a warning now): the same rows say them, none
    // made again, tinted anew.
    diagnosis.incidents.first().title = QStringLiteral("router 0 is full again");
    diagnosis.incidents.first().severity = Severity::Warning;
    page.showIncidents(diagnosis, {}, QDateTime::currentDateTimeUtc(), false);
    QVERIFY2(page.incidentLines().first().startsWith(QStringLiteral("router 0 is full again")),
        qPrintable(page.incidentLines().first()));
    QList<QFrame *> changed;
    for (QFrame *f : page.findChildren<QFrame *>()) {
        if (f->frameShape() == QFrame::StyledPanel && f->autoFillBackground())
            changed << f;
    }
    QCOMPARE(changed, rows);
    QCOMPARE(rows.first()->palette().color(QPalette::Window), SeverityStyle::tint(Severity::Warning));
    QList<QLabel *> texts = rows.first()->findChildren<QLabel *>();
    QVERIFY(std::any_of(texts.cbegin(), texts.cend(),
        [](const QLabel *l) { return l->text().contains(QStringLiteral("router 0 is full again")); }));

    // Fewer: two rows shown, the others hidden, no count beneath.
    diagnosis.incidents.resize(2);
    page.showIncidents(diagnosis, {}, QDateTime::currentDateTimeUtc(), false);
    QCOMPARE(page.incidentLines().size(), 2);
    const auto shown
        = std::count_if(rows.cbegin(), rows.cend(), [](const QFrame *f) { return !f->isHidden(); });
    QCOMPARE(shown, 2);
    for (const QLabel *l : page.findChildren<QLabel *>())
        QVERIFY2(
            l->isHidden() || !l->text().contains(QStringLiteral("more incident")), qPrintable(l->text()));
}
