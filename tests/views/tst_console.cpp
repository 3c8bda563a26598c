// The console against the simulated cloud, over real HTTP, under the
// offscreen platform: every finding kind shown in the findings view and in
// the right rows of the others, a repair driven through its dialog, a failed
// refresh, read-only connections and snapshots opened offline.

#include "auditlog.h"
#include "findingsmodel.h"
#include "findingspage.h"
#include "mainwindow.h"
#include "nodesmodel.h"
#include "repairdialog.h"
#include "routesmodel.h"
#include "securitymodel.h"
#include "simfixture.h"
#include "tablepage.h"

#include <QAction>
#include <QCheckBox>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

class TestConsole : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void demoShowsEveryFindingKind();
    void findingSelectsItsRows();
    void repairThroughTheDialog();
    void multiSelectRepairObeysTheBudget();
    void dialogRefusesWhatARefreshChanged();
    void refreshKeepsSelection();
    void refreshFailureKeepsTheData();
    void partialFailureIsNamed();
    void malformedKlusterListKeepsTheData();
    void readOnlyHidesRepairs();
    void snapshotOpensOffline();
    void connectionsAreRememberedWithoutSecrets();

private:
    ConnectionSpec simSpec(bool readOnly = false) const;
    void waitSettled(MainWindow &window);
    QStringList kindsShown(MainWindow &window) const;
    bool select(MainWindow &window, const QString &key);

    std::unique_ptr<SimFixture> m_fixture;
};

void TestConsole::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void TestConsole::init()
{
    QFile::remove(AuditLog::path());
    QSettings().clear();
    m_fixture = std::make_unique<SimFixture>();
}

void TestConsole::cleanup()
{
    m_fixture.reset();
}

ConnectionSpec TestConsole::simSpec(bool readOnly) const
{
    CloudConfig cloud;
    cloud.name = QStringLiteral("sim");
    cloud.authUrl = m_fixture->sim.authUrl();
    cloud.username = QStringLiteral("demo");
    cloud.password = QStringLiteral("flightdeck-demo");
    cloud.userDomainName = QStringLiteral("Default");
    cloud.projectName = QStringLiteral("flightdeck-demo");
    cloud.projectDomainName = QStringLiteral("Default");
    ConnectionSpec spec;
    spec.name = QStringLiteral("sim");
    spec.config = cloud;
    spec.readOnly = readOnly;
    return spec;
}

void TestConsole::waitSettled(MainWindow &window)
{
    QSignalSpy settled(&window, &MainWindow::refreshesSettled);
    QVERIFY2(settled.wait(60000), "the refreshes did not come back");
    QCOMPARE(window.pendingRefreshes(), 0);
}

// Selects a kluster and waits until its views show it (their rows are made on a worker thread).
bool TestConsole::select(MainWindow &window, const QString &key)
{
    if (window.currentKey() == key)
        return true;  // shown already
    QSignalSpy shown(&window, &MainWindow::viewsShown);
    if (!window.selectKluster(key))
        return false;
    while (shown.isEmpty() || shown.last().first().toString() != key) {
        if (!shown.wait(10000))
            return false;
    }
    return window.currentKey() == key;
}

QStringList TestConsole::kindsShown(MainWindow &window) const
{
    QStringList kinds;
    QAbstractItemModel *view = window.findingsPage()->table()->view()->model();
    for (int row = 0; row < view->rowCount(); ++row)
        kinds << view->index(row, FindingsModel::KindColumn).data().toString();
    return kinds;
}

void TestConsole::demoShowsEveryFindingKind()
{
    MainWindow window;
    window.addConnection(simSpec(), false);
    window.show();
    waitSettled(window);
    QCOMPARE(window.sidebar()->model()->rowCount(), 3);
    // The worst kluster is selected first.
    QCOMPARE(window.currentKey(), QStringLiteral("sim/demo"));

    QSet<QString> all;
    for (const QString &k : {QStringLiteral("demo"), QStringLiteral("legacy"), QStringLiteral("blue")}) {
        QVERIFY(select(window, QStringLiteral("sim/") + k));
        QCOMPARE(window.currentKey(), QStringLiteral("sim/") + k);
        const QStringList kinds = kindsShown(window);
        QVERIFY2(!kinds.isEmpty(), qPrintable(k));
        for (const QString &kind : kinds)
            all.insert(kind);
        // Each view says when its data was fetched.
        QVERIFY2(window.nodesPage()->caption().startsWith(QStringLiteral("Fetched ")), qPrintable(window.nodesPage()->caption()));
    }
    const QStringList expected{QStringLiteral("instance-unregistered"), QStringLiteral("instance-error"),
                               QStringLiteral("instance-missing-security-group"), QStringLiteral("security-group-missing"),
                               QStringLiteral("security-group-rule-missing"), QStringLiteral("route-duplicate"),
                               QStringLiteral("route-orphaned"), QStringLiteral("route-stale"), QStringLiteral("route-missing"),
                               QStringLiteral("route-limit"), QStringLiteral("node-not-ready"), QStringLiteral("node-network-unavailable")};
    for (const QString &kind : expected)
        QVERIFY2(all.contains(kind), qPrintable(kind + QStringLiteral(" is not shown")));
    QVERIFY(!window.isBannerVisible());
}

void TestConsole::findingSelectsItsRows()
{
    MainWindow window;
    window.addConnection(simSpec(), false);
    window.show();
    waitSettled(window);
    const auto selectedNames = [](TablePage *page, int role) {
        QStringList names;
        for (const QModelIndex &i : page->view()->selectionModel()->selectedRows())
            names << i.data(role).toString();
        return names;
    };

    // Demo: an instance in ERROR marks its row in the nodes view, with an icon.
    QVERIFY(window.findingsPage()->selectId(QStringLiteral("instance-error:kks-demo-pool-t5y6u")));
    QCOMPARE(selectedNames(window.nodesPage(), NodesModel::NameRole), QStringList{QStringLiteral("kks-demo-pool-t5y6u")});
    const QModelIndex errorRow = window.nodesPage()->view()->selectionModel()->selectedRows().first();
    QVERIFY(!errorRow.data(Qt::DecorationRole).value<QIcon>().isNull());
    QCOMPARE(errorRow.siblingAtColumn(NodesModel::StatusColumn).data().toString(), QStringLiteral("ERROR"));

    // The missing group: the instance's row in the nodes and security views.
    QVERIFY(window.findingsPage()->selectId(QStringLiteral("instance-missing-security-group:demo-pool-r3s4d")));
    QCOMPARE(selectedNames(window.nodesPage(), NodesModel::NameRole), QStringList{QStringLiteral("demo-pool-r3s4d")});
    QCOMPARE(selectedNames(window.securityPage(), SecurityModel::KeyRole), QStringList{QStringLiteral("instance:demo-pool-r3s4d")});

    // The missing rule: its protocol's row in the security view.
    QVERIFY(window.findingsPage()->selectId(QStringLiteral("security-group-rule-missing:tcp")));
    QCOMPARE(selectedNames(window.securityPage(), SecurityModel::KeyRole), QStringList{QStringLiteral("rule:tcp")});

    // A missing route: its (absent) route's row in the routes view, marked.
    QVERIFY(window.findingsPage()->selectId(QStringLiteral("route-missing:kks-demo-pool-q9w3e")));
    const QStringList routes = selectedNames(window.routesPage(), RoutesModel::KeyRole);
    QCOMPARE(routes, QStringList{QStringLiteral("100.100.25.0/24 via 10.180.0.25")});
    QVERIFY(window.routesPage()->view()->selectionModel()->selectedRows().first().data(RoutesModel::ProblemRole).toBool());

    // Legacy: the duplicate routes of a recycled pod CIDR are all selected.
    QVERIFY(select(window, QStringLiteral("sim/legacy")));
    QString duplicate;
    for (const QString &kind : kindsShown(window)) {
        if (kind == QLatin1String("route-duplicate"))
            duplicate = kind;
    }
    QVERIFY(!duplicate.isEmpty());
    window.setTab(MainWindow::FindingsTab);
    QAbstractItemModel *findings = window.findingsPage()->table()->view()->model();
    QString duplicateId;
    for (int row = 0; row < findings->rowCount(); ++row) {
        if (findings->index(row, FindingsModel::KindColumn).data().toString() == QLatin1String("route-duplicate"))
            duplicateId = findings->index(row, 0).data(FindingsModel::IdRole).toString();
    }
    QVERIFY(window.findingsPage()->selectId(duplicateId));
    QVERIFY2(selectedNames(window.routesPage(), RoutesModel::KeyRole).size() >= 2,
             qPrintable(selectedNames(window.routesPage(), RoutesModel::KeyRole).join(QLatin1Char(','))));
}

void TestConsole::repairThroughTheDialog()
{
    MainWindow window;
    window.addConnection(simSpec(), false);
    window.show();
    waitSettled(window);
    const QString id = QStringLiteral("instance-error:kks-demo-pool-t5y6u");
    QVERIFY(window.findingsPage()->selectId(id));
    QVERIFY(window.repairAction()->isVisible());

    QPointer<RepairDialog> dialog;
    connect(&window, &MainWindow::repairDialogOpened, this, [&dialog](QDialog *d) { dialog = qobject_cast<RepairDialog *>(d); });
    window.repairAction()->trigger();
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    QCOMPARE(dialog->sendable(), QStringList{id});
    // Cancel is the default; the deletion needs its name typed.
    QVERIFY(!dialog->confirmButton()->isEnabled());
    QCOMPARE(dialog->confirmButton()->text(), QStringLiteral("Delete instance kks-demo-pool-t5y6u"));
    QTest::keyClicks(dialog->confirmationBox(), QStringLiteral("kks-demo-pool-t5y6"));
    QVERIFY(!dialog->confirmButton()->isEnabled());
    QTest::keyClick(dialog->confirmationBox(), Qt::Key_U);
    QVERIFY(dialog->confirmButton()->isEnabled());
    const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR");  // scripts/screenshots
    if (!shots.isEmpty())
        QVERIFY(dialog->grab().save(shots + QStringLiteral("/repair-dialog.png")));

    QSignalSpy finished(dialog.data(), &RepairDialog::repairsFinished);
    QSignalSpy updated(&window, &MainWindow::klusterUpdated);
    QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
    QVERIFY(dialog->isRunning());
    QVERIFY2(finished.wait(60000), "the repair did not finish");
    QCOMPARE(finished.first().at(0).toInt(), 1);
    QVERIFY2(dialog->resultsText().contains(QStringLiteral("fixed (verified)")), qPrintable(dialog->resultsText()));
    if (!shots.isEmpty())
        QVERIFY(dialog->grab().save(shots + QStringLiteral("/repair-done.png")));

    // The audit log has it, and the audit view shows it.
    QString error;
    const QList<QJsonObject> records = AuditLog::read(&error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(records.size(), 1);
    QCOMPARE(records.first().value(QStringLiteral("finding")).toString(), id);
    QCOMPARE(window.auditPage()->view()->model()->rowCount(), 1);
    if (!shots.isEmpty()) {
        window.resize(1440, 900);
        window.setTab(MainWindow::AuditTab);
        QVERIFY(window.grab().save(shots + QStringLiteral("/audit.png")));
    }

    // The views are refreshed: the finding is gone from the findings view.
    QTRY_VERIFY_WITH_TIMEOUT(!updated.isEmpty(), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!window.kluster(QStringLiteral("sim/demo"))->diagnosis->find(id), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!window.findingsPage()->selectId(id), 10000);  // the views follow their data
    dialog->reject();
    QVERIFY(!dialog || !dialog->isVisible());
}

void TestConsole::multiSelectRepairObeysTheBudget()
{
    // At most one unhealthy node: the demo kluster (3 of 8 unhealthy) is past its budget.
    ConnectionSpec spec = simSpec();
    spec.options.maxUnhealthy = *MaxUnhealthy::parse(QStringLiteral("1"));
    MainWindow window;
    window.addConnection(spec, false);
    window.show();
    waitSettled(window);
    QPointer<RepairDialog> dialog;
    connect(&window, &MainWindow::repairDialogOpened, this, [&dialog](QDialog *d) { dialog = qobject_cast<RepairDialog *>(d); });

    // Two deletions and a rule: the deletions are refused as a bulk delete, the rule may go.
    const QString error = QStringLiteral("instance-error:kks-demo-pool-t5y6u");
    const QString unregistered = QStringLiteral("instance-unregistered:kks-demo-pool-z8b1n");
    const QString rule = QStringLiteral("security-group-rule-missing:tcp");
    QTableView *view = window.findingsPage()->table()->view();
    view->clearSelection();
    for (const QString &id : {error, unregistered, rule}) {
        for (int row = 0; row < view->model()->rowCount(); ++row) {
            if (view->model()->index(row, 0).data(FindingsModel::IdRole).toString() == id)
                view->selectionModel()->select(view->model()->index(row, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        }
    }
    QCOMPARE(window.findingsPage()->repairableSelection().size(), 3);
    window.repairAction()->trigger();
    QVERIFY(dialog);
    QCOMPARE(dialog->sendable(), QStringList{rule});
    QVERIFY(dialog->overrideBox()->isHidden());
    QVERIFY(dialog->confirmationBox()->isHidden());  // nothing is deleted
    QVERIFY(dialog->confirmButton()->isEnabled());
    dialog->reject();
    QTRY_VERIFY(!dialog);

    // One deletion: only with the explicit override, and its name typed.
    QVERIFY(window.findingsPage()->selectId(error));
    window.repairAction()->trigger();
    QVERIFY(dialog);
    QCOMPARE(dialog->sendable(), QStringList{error});
    QVERIFY(!dialog->overrideBox()->isHidden());
    QTest::keyClicks(dialog->confirmationBox(), QStringLiteral("kks-demo-pool-t5y6u"));
    QVERIFY(!dialog->confirmButton()->isEnabled());
    dialog->overrideBox()->setChecked(true);
    QVERIFY(dialog->confirmButton()->isEnabled());
    dialog->reject();
}

void TestConsole::dialogRefusesWhatARefreshChanged()
{
    MainWindow window;
    window.addConnection(simSpec(), false);
    window.show();
    waitSettled(window);
    QPointer<RepairDialog> dialog;
    connect(&window, &MainWindow::repairDialogOpened, this, [&dialog](QDialog *d) { dialog = qobject_cast<RepairDialog *>(d); });
    QVERIFY(window.findingsPage()->selectId(QStringLiteral("route-missing:kks-demo-pool-q9w3e")));
    window.repairAction()->trigger();
    QVERIFY(dialog);
    QVERIFY(dialog->confirmButton()->isEnabled());
    // Meanwhile somebody adds the route; the next refresh no longer has the finding.
    for (SimRouter &r : m_fixture->sim.world().routers) {
        if (r.name == QLatin1String("kks-router")) {
            r.routes.append(SimRoute{QStringLiteral("100.100.25.0/24"), QStringLiteral("10.180.0.25")});
            ++r.revision;
        }
    }
    window.refreshAll();
    waitSettled(window);
    QVERIFY(!dialog->confirmButton()->isEnabled());
    dialog->reject();
}

void TestConsole::refreshKeepsSelection()
{
    MainWindow window;
    window.addConnection(simSpec(), false);
    window.show();
    waitSettled(window);
    window.setTab(MainWindow::NodesTab);
    QTableView *nodes = window.nodesPage()->view();
    QVERIFY(window.nodesPage()->selectSourceRows(NodesModel::NameRole, {QStringLiteral("kks-demo-pool-p8l2n")}) == 1);
    QSignalSpy reset(nodes->model(), &QAbstractItemModel::modelReset);
    QSignalSpy removed(nodes->model(), &QAbstractItemModel::rowsRemoved);
    for (int i = 0; i < 2; ++i) {
        window.refreshAll();
        waitSettled(window);
    }
    QCOMPARE(reset.size(), 0);
    QCOMPARE(removed.size(), 0);
    const QModelIndexList selected = nodes->selectionModel()->selectedRows();
    QCOMPARE(selected.size(), 1);
    QCOMPARE(selected.first().data(NodesModel::NameRole).toString(), QStringLiteral("kks-demo-pool-p8l2n"));
}

void TestConsole::refreshFailureKeepsTheData()
{
    MainWindow window;
    window.addConnection(simSpec(), false);
    window.show();
    waitSettled(window);
    const int findings = window.findingsPage()->table()->view()->model()->rowCount();
    QVERIFY(findings > 0);
    const QDateTime fetched = window.kluster(QStringLiteral("sim/demo"))->fetchedAt;

    FaultRule rule;
    rule.id = QStringLiteral("down");
    rule.service = QStringLiteral("kubernikus");
    rule.kind = FaultRule::Kind::Status;
    rule.status = 500;
    m_fixture->sim.faults().add(rule);
    window.refreshAll();
    waitSettled(window);

    QVERIFY(window.isBannerVisible());
    QVERIFY2(window.bannerText().contains(QStringLiteral("500")), qPrintable(window.bannerText()));
    QVERIFY2(window.bannerText().contains(QStringLiteral("stale")), qPrintable(window.bannerText()));
    // The last good data stays, and says how old it is.
    QCOMPARE(window.findingsPage()->table()->view()->model()->rowCount(), findings);
    QCOMPARE(window.kluster(QStringLiteral("sim/demo"))->fetchedAt, fetched);
    QVERIFY2(window.nodesPage()->caption().startsWith(QStringLiteral("STALE")), qPrintable(window.nodesPage()->caption()));

    // It recovers on the next refresh.
    m_fixture->sim.faults().clear();
    window.refreshAll();
    waitSettled(window);
    QVERIFY(!window.isBannerVisible());
    QVERIFY(window.kluster(QStringLiteral("sim/demo"))->fetchedAt > fetched);
}

void TestConsole::partialFailureIsNamed()
{
    MainWindow window;
    window.addConnection(simSpec(), false);
    window.show();
    waitSettled(window);
    FaultRule rule;
    rule.service = QStringLiteral("network");
    rule.kind = FaultRule::Kind::Html;
    rule.status = 502;
    m_fixture->sim.faults().add(rule);
    window.refreshAll();
    waitSettled(window);
    QVERIFY(window.isBannerVisible());
    QVERIFY2(window.bannerText().contains(QStringLiteral("502")), qPrintable(window.bannerText()));
    QVERIFY2(window.bannerText().contains(QStringLiteral("network")), qPrintable(window.bannerText()));
}

void TestConsole::malformedKlusterListKeepsTheData()
{
    MainWindow window;
    window.addConnection(simSpec(), false);
    window.show();
    waitSettled(window);
    const int findings = window.findingsPage()->table()->view()->model()->rowCount();
    for (const FaultRule::Kind kind : {FaultRule::Kind::Malformed, FaultRule::Kind::Truncated, FaultRule::Kind::Html}) {
        m_fixture->sim.faults().clear();
        FaultRule rule;
        rule.service = QStringLiteral("kubernikus");
        rule.path = QRegularExpression(QStringLiteral("^/api/v1/clusters$"));
        rule.kind = kind;
        rule.status = 502;
        m_fixture->sim.faults().add(rule);
        window.refreshAll();
        waitSettled(window);
        QVERIFY(window.isBannerVisible());
        QVERIFY2(window.bannerText().contains(QStringLiteral("could not be listed")) && window.bannerText().contains(QStringLiteral("/api/v1/clusters")),
                 qPrintable(window.bannerText()));
        // The klusters stay, and are refreshed each on its own.
        QCOMPARE(window.sidebar()->model()->rowCount(), 3);
        QCOMPARE(window.findingsPage()->table()->view()->model()->rowCount(), findings);
    }
}

void TestConsole::readOnlyHidesRepairs()
{
    MainWindow window;
    window.addConnection(simSpec(true), false);
    window.show();
    waitSettled(window);
    QVERIFY(window.findingsPage()->selectId(QStringLiteral("instance-error:kks-demo-pool-t5y6u")));
    QVERIFY(!window.repairAction()->isVisible());
    QVERIFY(window.findingsPage()->repairButton()->isHidden());
    QVERIFY(window.findingsPage()->table()->view()->isColumnHidden(FindingsModel::RepairColumn));
    QSignalSpy opened(&window, &MainWindow::repairDialogOpened);
    window.repairAction()->trigger();
    QCOMPARE(opened.size(), 0);
    // Nothing was sent.
    const auto &servers = m_fixture->sim.world().servers;
    QVERIFY(std::any_of(servers.cbegin(), servers.cend(), [](const SimServer &s) { return s.name == QLatin1String("kks-demo-pool-t5y6u"); }));
}

void TestConsole::snapshotOpensOffline()
{
    QTemporaryDir dir;
    QString error;
    QVERIFY2(m_fixture->sim.dumpSnapshots(dir.path(), QString(), &error), qPrintable(error));
    m_fixture.reset();  // offline: no cloud at all

    MainWindow window;
    ConnectionSpec spec;
    spec.name = QStringLiteral("snapshot");
    spec.snapshotPath = dir.path();
    window.addConnection(spec, false);
    window.show();
    waitSettled(window);
    QCOMPARE(window.sidebar()->model()->rowCount(), 3);
    QVERIFY(select(window, QStringLiteral("snapshot/demo")));
    QVERIFY(kindsShown(window).contains(QStringLiteral("instance-error")));
    QVERIFY(!window.repairAction()->isVisible());
    QVERIFY(window.findingsPage()->repairButton()->isHidden());
    QVERIFY(!window.isBannerVisible());
}

void TestConsole::connectionsAreRememberedWithoutSecrets()
{
    {
        MainWindow window;
        window.addConnection(simSpec(true), true);
        waitSettled(window);
    }
    QSettings().sync();
    QFile file(QSettings().fileName());
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray stored = file.readAll();
    QVERIFY(stored.contains(m_fixture->sim.authUrl().toUtf8()));
    QVERIFY2(!stored.contains("\\password=") && !stored.toLower().contains("secret="), stored.constData());

    // The next run restores it (the secret would come from the keychain).
    const QList<ConnectionSpec> remembered = ConnectionSettings::load();
    QCOMPARE(remembered.size(), 1);
    QCOMPARE(remembered.first().name, QStringLiteral("sim"));
    QVERIFY(remembered.first().readOnly);
    QVERIFY(remembered.first().config);
    QCOMPARE(remembered.first().config->username, QStringLiteral("demo"));
    QVERIFY(remembered.first().config->password.isEmpty());
}

QTEST_MAIN(TestConsole)
#include "tst_console.moc"
