#include "services/history/historystore.h"
#include "services/http/endpointhealth.h"
#include "services/repair/auditlog.h"
#include "tests/simulator/simfixture.h"
#include "tests/views/consolefixture.h"
#include "views/changespage.h"
#include "views/overviewpage.h"
#include "views/tablepage.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFile>
#include <QLineSeries>
#include <QLocale>
#include <QSettings>
#include <QStandardPaths>
#include <QTreeWidget>
#include <atomic>
#include <memory>

using ConsoleTest::press;

// The console's history against the simulated cloud, its clock moved forward through the simulator: since
// when each finding is open, the trends on the Overview, and what changed between two moments.
class TestConsoleHistory : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void initTestCase();
    void sinceTrendsAndChangesAcrossHours();
    void changesSayTheirClockAndWhenTheViewsAreNewer();

private:
    static QString sinceOf(MainWindow &window, const QString &id);
};

void TestConsoleHistory::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QFile::remove(AuditLog::path());
    for (const char *suffix : { "", "-wal", "-shm" })
        QFile::remove(HistoryStore::defaultPath() + QLatin1String(suffix));
    QSettings().clear();
}

// A cloud four hours ahead: the Changes view says its moments on this machine's clock (as its lists and the
// header do), not the cloud's; and when the nodes' watch has changed the findings since the newest moment,
// it says the Findings view is newer, with the numbers it shows.
void TestConsoleHistory::changesSayTheirClockAndWhenTheViewsAreNewer()
{
    const QDateTime local(QDate(2026, 11, 26), QTime(12, 8), Qt::UTC);
    HistoryChanges c;
    c.moments = { { 2, local, 11, 3, true }, { 1, local.addSecs(-3600), 12, 3, true } };
    c.before = 1;
    c.after = 2;
    c.beforeDigest = StateDigest();
    c.beforeDigest->capturedAt = local.addSecs(-3600 + 4 * 3600); // the cloud's clock
    c.afterDigest = StateDigest();
    c.afterDigest->capturedAt = local.addSecs(4 * 3600);
    ChangesPage page;
    page.showChanges(c, 10, 3);
    const QString caption = page.caption();
    const QString localTo = QLocale().toString(local.toLocalTime(), QLocale::ShortFormat);
    const QString cloudTo = QLocale().toString(c.afterDigest->capturedAt.toLocalTime(), QLocale::ShortFormat);
    QVERIFY2(caption.contains(localTo) && !caption.contains(cloudTo), qPrintable(caption));
    QVERIFY2(caption.contains(QStringLiteral("10 critical, 3 warning now")), qPrintable(caption));
    // The same numbers: nothing to say.
    page.showChanges(c, 11, 3);
    QVERIFY2(!page.caption().contains(QStringLiteral("now")), qPrintable(page.caption()));
}

QString TestConsoleHistory::sinceOf(MainWindow &window, const QString &id)
{
    const QAbstractItemModel *m = window.findingsPage()->view()->model();
    for (int row = 0; row < m->rowCount(); ++row) {
        if (m->index(row, 0).data(FindingsModel::IdRole).toString() == id)
            return m->index(row, FindingsModel::SinceColumn).data().toString();
    }
    return QStringLiteral("(no row %1)").arg(id);
}

void TestConsoleHistory::sinceTrendsAndChangesAcrossHours()
{
    SimFixture fixture;
    MainWindow window;
    window.resize(1440, 900);
    window.show();
    QVERIFY(ConsoleTest::open(window, ConsoleTest::simSpec(fixture.sim)));
    const KlusterKey demo { QStringLiteral("sim"), QStringLiteral("demo") };
    QVERIFY(ConsoleTest::select(window, demo));
    window.setTab(Tab::Findings);

    // The first refresh Flightdeck records: everything it sees began before its history.
    const QString notReady = QStringLiteral("node-not-ready:kks-demo-pool-m4r8t");
    QTRY_VERIFY_WITH_TIMEOUT(sinceOf(window, notReady) == QStringLiteral("open when first recorded"), 10000);
    const QStringList first
        = ConsoleTest::column(window.findingsPage()->view()->model(), FindingsModel::SinceColumn);
    QVERIFY(!first.isEmpty());
    for (const QString &since : first)
        QVERIFY2(since == QStringLiteral("open when first recorded"), qPrintable(since));

    // An hour later a route is gone: a new finding, seen from this refresh on.
    // The simulator's clock, moved through its admin API as a person driving it would.
    // Time passes for the console as well: the history keeps this machine's clock, which the test moves
    // with the cloud's.
    auto passed = std::make_shared<std::atomic<qint64>>(0);
    QMetaObject::invokeMethod(
        window.historyRecorder(),
        [h = window.historyRecorder(), passed] {
            h->setClock([passed] { return QDateTime::currentDateTimeUtc().addSecs(passed->load()); });
        },
        Qt::BlockingQueuedConnection);
    const auto advance = [&fixture, passed](int seconds) {
        passed->fetch_add(seconds);
        return fixture
            .request("POST", fixture.sim.adminUrl() + QStringLiteral("/clock/advance"),
                QStringLiteral(R"({"seconds": %1})").arg(seconds).toUtf8())
            .status;
    };
    QCOMPARE(advance(3600), 200);
    World &world = fixture.sim.world();
    SimRouter &router = world.routers[0];
    const auto gone = std::find_if(router.routes.cbegin(), router.routes.cend(),
        [](const SimRoute &r) { return r.destination == QLatin1String("100.100.21.0/24"); });
    QVERIFY(gone != router.routes.cend());
    const QString nexthop = gone->nexthop;
    router.routes.erase(gone);
    ++router.revision;
    window.refreshAll();
    QVERIFY(ConsoleTest::waitSettled(window));
    const QAbstractItemModel *findings = window.findingsPage()->view()->model();
    QString missing;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (int row = 0; row < findings->rowCount(); ++row) {
                const QString id = findings->index(row, 0).data(FindingsModel::IdRole).toString();
                if (id.startsWith(QLatin1String("route-missing:"))
                    && findings->index(row, FindingsModel::SinceColumn)
                           .data()
                           .toString()
                           .startsWith(QLatin1String("new, ")))
                    missing = id;
            }
            return !missing.isEmpty();
        }(),
        10000);

    // Two hours on: the new one is two hours old, the old ones over three.
    QCOMPARE(advance(7200), 200);
    window.refreshAll();
    QVERIFY(ConsoleTest::waitSettled(window));
    QTRY_VERIFY_WITH_TIMEOUT(sinceOf(window, missing).startsWith(QLatin1String("2 h, since ")), 10000);
    QTRY_VERIFY2_WITH_TIMEOUT(sinceOf(window, notReady).startsWith(QLatin1String("over 3 h")),
        qPrintable(sinceOf(window, notReady)), 10000);
    QVERIFY2(
        !sinceOf(window, missing).startsWith(QLatin1String("over")), qPrintable(sinceOf(window, missing)));

    // The trends show the three refreshes.
    window.setTab(Tab::Overview);
    const auto points = [&](int chart) {
        const QList<QAbstractSeries *> series = window.overviewPage()->trendChart(chart)->chart()->series();
        const auto *line = series.isEmpty() ? nullptr : qobject_cast<QLineSeries *>(series.constFirst());
        return line ? int(line->count()) : -1;
    };
    // (Drawn one a turn: the caption at once, the charts after it.)
    QTRY_COMPARE_WITH_TIMEOUT(points(0), 3, 10000);
    QTRY_COMPARE(points(1), 3);
    QTRY_COMPARE(points(2), 3);
    // Every chart shown once the steps are done (drawn, then fitted to its width a turn each).
    QTRY_VERIFY(!window.overviewPage()->chartsPending());
    for (const QChartView *v : window.overviewPage()->findChildren<QChartView *>())
        QVERIFY2(v->isVisible(), qPrintable(v->accessibleName()));

    // By keyboard, as an engineer at 3 am: Alt+T to the range, Up to the last 6 hours.
    QVERIFY(ConsoleTest::activate(&window));
    QCOMPARE(window.overviewPage()->trendHours(), 24);
    press(Qt::Key_T, Qt::AltModifier);
    QVERIFY2(QApplication::focusWidget() && QApplication::focusWidget()->accessibleName() == "Trend range",
        "Alt+T did not reach the trend range");
    press(Qt::Key_Up);
    QCOMPARE(window.overviewPage()->trendHours(), 6);
    QTRY_COMPARE_WITH_TIMEOUT(points(0), 3, 10000);

    // Ctrl+8 from the Overview: what changed since the state before, the route and the finding it opened.
    press(Qt::Key_8, Qt::ControlModifier);
    QCOMPARE(window.currentTab(), Tab::Changes);
    QTreeWidget *changes = window.changesPage()->list();
    QTRY_VERIFY_WITH_TIMEOUT(changes->topLevelItemCount() > 0, 10000);
    const auto listed = [changes] {
        QStringList rows;
        for (int i = 0; i < changes->topLevelItemCount(); ++i) {
            const QTreeWidgetItem *item = changes->topLevelItem(i);
            rows << QStringLiteral("%1|%2|%3").arg(item->text(0), item->text(1), item->text(2));
        }
        return rows;
    };
    const QStringList rows = listed();
    // Alt+I to the later moment, Up to the earlier one: a moment against itself changes nothing; Alt+L
    // compares the default moments again.
    press(Qt::Key_I, Qt::AltModifier);
    QVERIFY2(QApplication::focusWidget() && QApplication::focusWidget()->accessibleName() == "Later moment",
        "Alt+I did not reach the later moment");
    QComboBox *before = nullptr;
    QComboBox *after = nullptr;
    for (QComboBox *combo : window.changesPage()->findChildren<QComboBox *>()) {
        if (combo->accessibleName() == QLatin1String("Earlier moment"))
            before = combo;
        else if (combo->accessibleName() == QLatin1String("Later moment"))
            after = combo;
    }
    QVERIFY(before && after && after->count() >= 2 && before->currentIndex() != after->currentIndex());
    const int steps = after->currentIndex() - before->currentIndex();
    for (int i = 0; i < qAbs(steps); ++i)
        press(steps > 0 ? Qt::Key_Up : Qt::Key_Down);
    QTRY_VERIFY2_WITH_TIMEOUT(
        changes->topLevelItemCount() == 0, qPrintable(listed().join(QLatin1Char('\n'))), 10000);
    QTRY_VERIFY2_WITH_TIMEOUT(window.changesPage()->caption().startsWith(QLatin1String("No change")),
        qPrintable(window.changesPage()->caption()), 10000);
    press(Qt::Key_L, Qt::AltModifier);
    QTRY_COMPARE_WITH_TIMEOUT(listed(), rows, 10000);
    QVERIFY2(rows.contains(QStringLiteral("− removed|route|100.100.21.0/24 via %1").arg(nexthop)),
        qPrintable(rows.join(QLatin1Char('\n'))));
    QVERIFY2(rows.contains(QStringLiteral("+ opened|finding|%1").arg(missing)),
        qPrintable(rows.join(QLatin1Char('\n'))));
    QVERIFY2(window.changesPage()->caption().contains(QLatin1String("change")),
        qPrintable(window.changesPage()->caption()));

    if (const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR"); !shots.isEmpty()) {
        QVERIFY(window.grab().save(shots + QStringLiteral("/history-changes.png")));
        window.setTab(Tab::Overview);
        QVERIFY(window.grab().save(shots + QStringLiteral("/history-trends.png")));
        window.setTab(Tab::Findings);
        QVERIFY(window.grab().save(shots + QStringLiteral("/history-since.png")));
    }
}

void TestConsoleHistory::init()
{
    // A simulator of an earlier test may have listened on the same port: its failures are not this one's.
    EndpointHealth::shared().reset();
}

QTEST_MAIN(TestConsoleHistory)
#include "tst_console_history.moc"
