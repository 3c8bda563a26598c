// The console against the simulated cloud, over real HTTP, under the
// offscreen platform: every finding kind shown in the findings view and in
// the right rows of the others, a repair driven through its dialog, a failed
// refresh, read-only connections and snapshots opened offline.

#include "console/alertwatch.h"
#include "console/teamrepairs.h"
#include "core/finding.h"
#include "core/findingtraits.h"
#include "core/knowledge.h"
#include "models/auditmodel.h"
#include "models/consolemodels.h"
#include "models/findingsmodel.h"
#include "models/klustersmodel.h"
#include "models/nodesmodel.h"
#include "models/routesmodel.h"
#include "models/securitymodel.h"
#include "services/history/historystore.h"
#include "services/http/endpointhealth.h"
#include "services/local/singleinstance.h"
#include "services/repair/auditlog.h"
#include "services/settings.h"
#include "tests/common/modeltext.h"
#include "tests/common/realalertmanager.h"
#include "tests/simulator/simfixture.h"
#include "tests/views/consolefixture.h"
#include "views/fleetview.h"
#include "views/mainwindow.h"
#include "views/messagebanner.h"
#include "views/notifier.h"
#include "views/overviewpage.h"
#include "views/repairdialog.h"
#include "views/repairsilencebox.h"
#include "views/silencealertdialog.h"
#include "views/tablepage.h"
#include "views/teamcommands.h"

#include <QAccessible>
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QClipboard>
#include <QDir>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QToolButton>
#include <QTreeView>

using ConsoleTest::select;
using ConsoleTest::waitSettled;

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
    void deviceTeardownAsksForTheRoutersName();
    void recycledCidrFromTheHistoryForAReader();
    void nudgeOnceTheSyncIsRefused();
    void routeRepairsAsOneChange();
    void ghostNodeDeletedByName();
    void multiSelectRepairObeysTheBudget();
    void zoneOutageRefusesTheDeletionInTheDialog();
    void dialogRefusesWhatARefreshChanged();
    void nodeLostBetweenConfirmAndSendSendsNothing();
    void concurrentWriteBeforeSendingShowsTheNewPlan();
    void refreshKeepsSelection();
    void nodeChangeShownLive();
    void fleetOpensAKluster();
    void sidebarGroupsByConnection();
    void refreshFailureKeepsTheData();
    void partialFailureIsNamed();
    void malformedKlusterListKeepsTheData();
    void readOnlyHidesRepairs();
    void snapshotOpensOffline();
    void connectionsAreRememberedWithoutSecrets();
    void repairActsOnTheCurrentView();
    void routeGroupShowsTheRoutersOrder();
    void partialDataKeepsRankAndSaysIncomplete();
    void unreadSourceMakesNothingUp_data();
    void unreadSourceMakesNothingUp();
    void cancelIsNoFailure();
    void deadEndpointIsOneBannerLine();
    void failedRepairIsShownAsFailed();
    void snapshotsOfferNoRefresh();
    void findingIsSelectedOnceItsKlusterIsShown();
    void newCriticalFindingNotifiesWhileWatching();
    void namesAndMnemonics();
    void fitsALaptop();
    void teammatesRepairWarnedProtectedLinked();
    void alertsSilencedWhileRepairing();

private:
    ConnectionSpec simSpec(bool readOnly = false) const
    {
        return ConsoleTest::simSpec(m_fixture->sim, readOnly);
    }
    // As the demo signs in: its admin (the router devices' view is a cloud admin's), the ACTIVE devices named
    // as the team running the cloud knows them.
    ConnectionSpec adminSpec() const
    {
        ConnectionSpec spec = simSpec();
        spec.config->username = QStringLiteral("admin");
        for (const QJsonValue d :
            m_fixture->sim.describe().value(QStringLiteral("routerDevices")).toArray()) {
            if (d[QStringLiteral("role")].toString() == QLatin1String("ACTIVE"))
                spec.options.activeDevices << d[QStringLiteral("host")].toString();
        }
        return spec;
    }
    QStringList kindsShown(MainWindow &window) const;

    std::unique_ptr<SimFixture> m_fixture;
};

void TestConsole::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void TestConsole::init()
{
    // A simulator of an earlier test may have listened on the same port: its failures are not this one's.
    EndpointHealth::shared().reset();
    QFile::remove(AuditLog::path());
    QSettings().clear();
    // No history of an earlier run: since-whens (how long a kluster has been Terminating) start now.
    for (const char *suffix : { "", "-wal", "-shm" })
        QFile::remove(HistoryStore::defaultPath() + QLatin1String(suffix));
    m_fixture = std::make_unique<SimFixture>();
}

void TestConsole::cleanup()
{
    m_fixture.reset();
}

QStringList TestConsole::kindsShown(MainWindow &window) const
{
    QStringList kinds;
    QAbstractItemModel *view = window.findingsPage()->view()->model();
    for (int row = 0; row < view->rowCount(); ++row)
        kinds << view->index(row, FindingsModel::KindColumn).data().toString();
    return kinds;
}

void TestConsole::demoShowsEveryFindingKind()
{
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, adminSpec()));
    // Every kluster of the demo world, worst first by impact: a critical finding of the whole kluster (a
    // missing group or rule: demo, edge, blue, by their critical causes; blue's router devices' kept routes
    // are one cause, its recycled pod CIDR) above legacy's node-wide ones; gone, being torn down, held in
    // Terminating by a volume stuck deleting (critical; its load balancer stuck a warning, its own finding
    // info); green's node being serviced a warning; retired, which Kubernikus no longer has, last: what it
    // left behind (two volumes and a load balancer orphaned, a volume and a load balancer stuck) warnings
    // only, each of one slot, so below green's node-wide warning for all their number.
    QCOMPARE(ConsoleTest::sidebarColumn(window.sidebar(), 0, KlustersModel::KeyRole),
        QStringList({ QStringLiteral("sim/demo"), QStringLiteral("sim/edge"), QStringLiteral("sim/blue"),
            QStringLiteral("sim/legacy"), QStringLiteral("sim/gone"), QStringLiteral("sim/green"),
            QStringLiteral("sim/retired") }));
    // The worst kluster is selected first.
    QCOMPARE(window.currentKey().toString(), QStringLiteral("sim/demo"));

    QSet<QString> all;
    for (const QString &k :
        { QStringLiteral("demo"), QStringLiteral("edge"), QStringLiteral("legacy"), QStringLiteral("blue"),
            QStringLiteral("green"), QStringLiteral("gone"), QStringLiteral("retired") }) {
        QVERIFY(select(window, { QStringLiteral("sim"), k }));
        QCOMPARE(window.currentKey().toString(), QStringLiteral("sim/") + k);
        const QStringList kinds = kindsShown(window);
        QVERIFY2(!kinds.isEmpty(), qPrintable(k));
        for (const QString &kind : kinds)
            all.insert(kind);
        // Each view says when its data was fetched.
        QVERIFY2(window.nodesPage()->caption().startsWith(QStringLiteral("Fetched ")),
            qPrintable(window.nodesPage()->caption()));
    }
    const QStringList expected { QStringLiteral("instance-unregistered"), QStringLiteral("instance-error"),
        QStringLiteral("instance-missing-security-group"), QStringLiteral("security-group-missing"),
        QStringLiteral("security-group-rule-missing"), QStringLiteral("route-duplicate"),
        QStringLiteral("route-orphaned"), QStringLiteral("route-stale"), QStringLiteral("route-missing"),
        QStringLiteral("route-limit"), QStringLiteral("node-not-ready"),
        QStringLiteral("node-network-unavailable"), QStringLiteral("route-unassigned"),
        QStringLiteral("node-without-instance"), QStringLiteral("instance-stopped"),
        QStringLiteral("port-address-pair-missing"), QStringLiteral("device-route-stale"),
        QStringLiteral("device-route-missing"), QStringLiteral("route-recycled"),
        QStringLiteral("kluster-terminating"), QStringLiteral("volume-orphaned"),
        QStringLiteral("volume-stuck"), QStringLiteral("loadbalancer-orphaned"),
        QStringLiteral("loadbalancer-stuck") };
    // route-recycled is derived from the local history alone, and the demo's first refresh has none (nothing
    // is made up for it): recycledCidrFromTheHistoryForAReader shows it from two refreshes apart.
    const QStringList fromTheHistory { QStringLiteral("route-recycled") };
    // The list is every kind there is: a new kind must be shown by the demo world too.
    for (int k = 0; k < FindingKindCount; ++k) {
        const QString name = findingKindName(FindingKind(k));
        QVERIFY2(expected.contains(name), qPrintable(name));
    }
    QCOMPARE(expected.size(), FindingKindCount);
    for (const QString &kind : expected)
        QVERIFY2(all.contains(kind) || fromTheHistory.contains(kind),
            qPrintable(kind + QStringLiteral(" is not shown")));
    QVERIFY(!window.isBannerVisible());
}

void TestConsole::findingSelectsItsRows()
{
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, simSpec()));
    const auto selectedNames = [](TablePage *page, int role) {
        QStringList names;
        for (const QModelIndex &i : page->view()->selectionModel()->selectedRows())
            names << i.data(role).toString();
        return names;
    };

    // Demo: an instance in ERROR marks its row in the nodes view, with an icon.
    QVERIFY(window.findingsPage()->selectKeys({ QStringLiteral("instance-error:kks-demo-pool-t5y6u") }));
    QCOMPARE(selectedNames(window.nodesPage(), NodesModel::NameRole),
        QStringList { QStringLiteral("kks-demo-pool-t5y6u") });
    const QModelIndex errorRow = window.nodesPage()->view()->selectionModel()->selectedRows().first();
    QVERIFY(!errorRow.data(Qt::DecorationRole).value<QIcon>().isNull());
    QCOMPARE(errorRow.siblingAtColumn(NodesModel::StatusColumn).data().toString(), QStringLiteral("ERROR"));

    // The missing group: the instance's row in the nodes and security views.
    QVERIFY(window.findingsPage()->selectKeys(
        { QStringLiteral("instance-missing-security-group:demo-pool-r3s4d") }));
    QCOMPARE(selectedNames(window.nodesPage(), NodesModel::NameRole),
        QStringList { QStringLiteral("demo-pool-r3s4d") });
    QCOMPARE(selectedNames(window.securityPage(), SecurityModel::KeyRole),
        QStringList { QStringLiteral("instance:demo-pool-r3s4d") });

    // The missing rule: its protocol's row in the security view.
    QVERIFY(window.findingsPage()->selectKeys({ QStringLiteral("security-group-rule-missing:tcp") }));
    QCOMPARE(selectedNames(window.securityPage(), SecurityModel::KeyRole),
        QStringList { QStringLiteral("rule:tcp") });

    // A missing route: its (absent) route's row in the routes view, marked.
    QVERIFY(window.findingsPage()->selectKeys({ QStringLiteral("route-missing:kks-demo-pool-q9w3e") }));
    const QStringList routes = selectedNames(window.routesPage(), RoutesModel::KeyRole);
    QCOMPARE(routes, QStringList { QStringLiteral("100.100.25.0/24 via 10.180.0.25") });
    QVERIFY(window.routesPage()
                ->view()
                ->selectionModel()
                ->selectedRows()
                .first()
                .data(RoutesModel::ProblemRole)
                .toBool());

    // Legacy: the duplicate routes of a recycled pod CIDR are all selected.
    QVERIFY(select(window, { QStringLiteral("sim"), QStringLiteral("legacy") }));
    QString duplicate;
    for (const QString &kind : kindsShown(window)) {
        if (kind == QLatin1String("route-duplicate"))
            duplicate = kind;
    }
    QVERIFY(!duplicate.isEmpty());
    window.setTab(Tab::Findings);
    QAbstractItemModel *findings = window.findingsPage()->view()->model();
    QString duplicateId;
    for (int row = 0; row < findings->rowCount(); ++row) {
        if (findings->index(row, FindingsModel::KindColumn).data().toString()
            == QLatin1String("route-duplicate"))
            duplicateId = findings->index(row, 0).data(FindingsModel::IdRole).toString();
    }
    QVERIFY(window.findingsPage()->selectKeys({ duplicateId }));
    QVERIFY2(selectedNames(window.routesPage(), RoutesModel::KeyRole).size() >= 2,
        qPrintable(selectedNames(window.routesPage(), RoutesModel::KeyRole).join(QLatin1Char(','))));
}

// blue's router's devices kept a deleted route: its repair tears the router's configuration on the devices
// down and syncs it, which cuts every kluster on it off until the sync ends: the dialog names them and asks
// for the router's name typed; sent, it is verified by reading the devices again.
void TestConsole::deviceTeardownAsksForTheRoutersName()
{
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, adminSpec()));
    QVERIFY(select(window, { QStringLiteral("sim"), QStringLiteral("blue") }));
    const QString id = QStringLiteral("device-route-stale:100.102.12.0/24 via 10.181.0.99 on 10.44.1.35");
    window.setTab(Tab::Routes);
    QVERIFY(window.routesPage()->selectKeys({ QStringLiteral("100.102.12.0/24 via 10.181.0.99") }));
    QPointer<RepairDialog> dialog;
    connect(&window, &MainWindow::repairDialogOpened, this,
        [&dialog](QDialog *d) { dialog = qobject_cast<RepairDialog *>(d); });
    window.repairAction()->trigger();
    QVERIFY(dialog);
    QVERIFY2(dialog->sendable().contains(id), qPrintable(dialog->sendable().join(QLatin1Char(' '))));
    const QString said = dialog->typeToConfirmText();
    QVERIFY2(said.contains(QStringLiteral("blue-router")) && said.contains(QStringLiteral("kluster blue (")),
        qPrintable(said));
    // Both devices' kept route: one teardown and one sync.
    QCOMPARE(dialog->confirmButton()->text().remove(QLatin1Char('&')),
        QStringLiteral("Tear down and sync router blue-router (2 findings)"));
    QVERIFY(!dialog->confirmButton()->isEnabled());
    QTest::keyClicks(dialog->confirmationBox(), QStringLiteral("blue"));
    QVERIFY(!dialog->confirmButton()->isEnabled());
    QTest::keyClicks(dialog->confirmationBox(), QStringLiteral("-router"));
    QVERIFY(dialog->confirmButton()->isEnabled());
    const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR"); // scripts/screenshots
    if (!shots.isEmpty())
        QVERIFY(dialog->grab().save(shots + QStringLiteral("/repair-teardown.png")));
    QSignalSpy finished(dialog.data(), &RepairDialog::repairsFinished);
    QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
    QVERIFY2(finished.wait(60000), "the repair did not finish");
    QVERIFY2(dialog->resultsText().contains(QStringLiteral("fixed (verified)")),
        qPrintable(dialog->resultsText()));
}

// A reader cannot see the router's devices; the console's own history can: node N's pod CIDR routed to
// another member (a recycled CIDR), then Neutron put right; the next refresh shows route-recycled (a warning)
// with the earlier nexthop, and the finding's detail says why the devices were not read.
void TestConsole::recycledCidrFromTheHistoryForAReader()
{
    ConnectionSpec spec = simSpec();
    spec.config->username = QStringLiteral("reader");
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, spec));
    HistoryClient *history = window.session()->history();
    const KlusterKey demo { QStringLiteral("sim"), QStringLiteral("demo") };
    QSignalSpy since(history, &HistoryClient::findingsSinceChanged);
    const auto recorded = [&] { // the history told of a record of demo since the spy was last cleared
        for (int i = 0; i < 10; ++i) {
            for (const QList<QVariant> &s : std::as_const(since)) {
                if (s.constFirst().value<KlusterKey>() == demo)
                    return true;
            }
            if (!since.wait(20000))
                return false;
        }
        return false;
    };
    QVERIFY(history->findingsSince(demo) || recorded());
    const QString problem = QString::fromUtf8(
        m_fixture
            ->request("POST", m_fixture->sim.adminUrl() + QStringLiteral("/klusters/demo/cause"),
                QByteArrayLiteral(R"({"rule": "recycled-pod-cidr"})"), {}, false)
            .body);
    const QString did
        = QJsonDocument::fromJson(problem.toUtf8()).object().value(QStringLiteral("caused")).toString();
    const QString cidr = did.section(QLatin1Char(' '), 0, 0);
    const QString earlier = did.section(QLatin1Char(' '), -1);
    const QString node
        = did.section(QStringLiteral("(node "), 1).section(QStringLiteral("'s pod CIDR"), 0, 0);
    QVERIFY2(!cidr.isEmpty() && !node.isEmpty(), qPrintable(problem));
    QTest::qWait(1100); // the cloud's clock says seconds: the next refresh is a later moment
    since.clear();
    window.refreshAll();
    QVERIFY(ConsoleTest::waitSettled(window));
    QVERIFY(recorded());

    // Neutron put right by a member: the earlier route removed, the node's own added.
    QString nodeIp;
    const World &w = m_fixture->sim.world();
    for (const SimNode &n : w.klusters.at(w.klusterIndex(QStringLiteral("demo"))).nodes) {
        if (n.name == node)
            nodeIp = n.internalIp;
    }
    const QString base = m_fixture->sim.endpoint(QStringLiteral("network")) + QStringLiteral("/v2.0/routers/")
        + w.klusters.at(w.klusterIndex(QStringLiteral("demo"))).routerId;
    const Reply token = m_fixture->request("POST", m_fixture->sim.authUrl() + QStringLiteral("/auth/tokens"),
        SimFixture::passwordAuth(QStringLiteral("demo"), QStringLiteral("flightdeck-demo")), {}, false);
    const QList<QPair<QByteArray, QByteArray>> member { { "X-Auth-Token",
        token.headers.value("x-subject-token") } };
    const QString body
        = QStringLiteral(R"({"router": {"routes": [{"destination": "%1", "nexthop": "%2"}]}})");
    QCOMPARE(m_fixture
                 ->request("PUT", base + QStringLiteral("/remove_extraroutes"),
                     body.arg(cidr, earlier).toUtf8(), member)
                 .status,
        200);
    QCOMPARE(m_fixture
                 ->request("PUT", base + QStringLiteral("/add_extraroutes"), body.arg(cidr, nodeIp).toUtf8(),
                     member)
                 .status,
        200);
    QTest::qWait(1100);
    window.refreshAll();
    QVERIFY(ConsoleTest::waitSettled(window));
    QVERIFY(select(window, { QStringLiteral("sim"), QStringLiteral("demo") }));
    const QString id = QStringLiteral("route-recycled:") + cidr;
    QTRY_VERIFY_WITH_TIMEOUT(window.findingsPage()->selectKeys({ id }), 10000);
    const Finding *f = nullptr;
    for (const Finding &each : window.kluster(demo)->diagnosis->findings) {
        if (each.id() == id)
            f = &each;
    }
    QVERIFY(f);
    QCOMPARE(f->severity, Severity::Warning);
    QVERIFY2(f->message().contains(QStringLiteral("was routed to %1 until").arg(earlier))
            && f->message().contains(QStringLiteral("could not be read")),
        qPrintable(f->message()));
    QVERIFY(!window.repairAction()->isEnabled()); // no repair from these credentials
    const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR"); // scripts/screenshots
    if (!shots.isEmpty()) {
        window.resize(1024, 640);
        QVERIFY(ConsoleTest::activate(&window));
        QTest::keyClick(&window, Qt::Key_2, Qt::ControlModifier); // the Findings view
        window.showFinding(demo, id); // the finding selected, its detail below
        QTest::qWait(200);
        QVERIFY(window.grab().save(shots + QStringLiteral("/route-recycled.png")));
    }
}

// The driver's sync refused by the cloud's policy (403): the result says so, and the connection remembers it:
// after a refresh, the same finding's repair is the nudge (the route removed in Neutron and added again),
// sent through the same dialog and verified on the devices.
void TestConsole::nudgeOnceTheSyncIsRefused()
{
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, adminSpec()));
    const KlusterKey blue { QStringLiteral("sim"), QStringLiteral("blue") };
    QVERIFY(select(window, blue));
    QString id;
    for (const Finding &f : window.kluster(blue)->diagnosis->findings) {
        if (f.kind == FindingKind::DeviceRouteMissing && f.severity == Severity::Critical)
            id = f.id(); // the ACTIVE's gap
    }
    QVERIFY(!id.isEmpty());
    FaultRule policy;
    policy.service = QStringLiteral("network");
    policy.method = QStringLiteral("PUT");
    policy.path = QRegularExpression(QStringLiteral("^/v2.0/asr1k/"));
    policy.status = 403;
    m_fixture->sim.faults().add(policy);

    QPointer<RepairDialog> dialog;
    connect(&window, &MainWindow::repairDialogOpened, this,
        [&dialog](QDialog *d) { dialog = qobject_cast<RepairDialog *>(d); });
    const auto repair = [&](const QString &plan) {
        window.setTab(Tab::Findings);
        if (!window.findingsPage()->selectKeys({ id }))
            return QStringLiteral("not shown");
        window.repairAction()->trigger();
        if (!dialog || !dialog->isVisible())
            return QStringLiteral("no dialog");
        const QString requests = QString::fromUtf8(QJsonDocument(dialog->plannedRequests()).toJson());
        if (!requests.contains(plan))
            return QStringLiteral("plan: ") + requests;
        const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR"); // scripts/screenshots
        if (!shots.isEmpty() && plan.contains(QLatin1String("extraroutes")))
            dialog->grab().save(shots + QStringLiteral("/repair-nudge.png"));
        QSignalSpy finished(dialog.data(), &RepairDialog::repairsFinished);
        QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
        if (!finished.wait(60000))
            return QStringLiteral("the repair did not finish");
        const QString results = dialog->resultsText();
        dialog->close();
        return results;
    };
    QString said = repair(QStringLiteral("/v2.0/asr1k/routers/"));
    QVERIFY2(said.contains(QStringLiteral("403"))
            && said.contains(QStringLiteral("removing it in Neutron and adding it again")),
        qPrintable(said));
    window.refreshAll();
    QVERIFY(ConsoleTest::waitSettled(window));
    said = repair(QStringLiteral("/remove_extraroutes"));
    QVERIFY2(said.contains(QStringLiteral("fixed (verified)")), qPrintable(said));
    QCOMPARE(m_fixture->sim.faults().rules().constFirst().hits, 1); // the nudge sent nothing of the driver's
    m_fixture->sim.faults().clear();
}

void TestConsole::repairThroughTheDialog()
{
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, simSpec()));
    const QString id = QStringLiteral("instance-error:kks-demo-pool-t5y6u");
    QVERIFY(window.findingsPage()->selectKeys({ id }));
    QVERIFY(window.repairAction()->isVisible());

    QPointer<RepairDialog> dialog;
    connect(&window, &MainWindow::repairDialogOpened, this,
        [&dialog](QDialog *d) { dialog = qobject_cast<RepairDialog *>(d); });
    window.setTab(Tab::Findings);
    window.repairAction()->trigger();
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    QCOMPARE(dialog->sendable(), QStringList { id });
    // Cancel is the default; the deletion needs its name typed.
    QVERIFY(!dialog->confirmButton()->isEnabled());
    QCOMPARE(dialog->confirmButton()->text().remove(QLatin1Char('&')),
        QStringLiteral("Delete instance kks-demo-pool-t5y6u"));
    QCOMPARE(dialog->focusWidget(), dialog->confirmationBox()); // the name is typed straight away
    QVERIFY(!dialog->confirmButton()->isDefault());
    QTest::keyClicks(dialog->confirmationBox(), QStringLiteral("kks-demo-pool-t5y6"));
    QVERIFY(!dialog->confirmButton()->isEnabled());
    QTest::keyClick(dialog->confirmationBox(), Qt::Key_U);
    QVERIFY(dialog->confirmButton()->isEnabled());
    // Enter in the name box neither sends nor cancels: it says how to confirm.
    QTest::keyClick(dialog->confirmationBox(), Qt::Key_Return);
    QVERIFY(dialog->isVisible());
    QVERIFY(!dialog->isRunning());
    QVERIFY2(dialog->statusText().contains(QStringLiteral("Delete instance kks-demo-pool-t5y6u")),
        qPrintable(dialog->statusText()));
    const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR"); // scripts/screenshots
    if (!shots.isEmpty()) {
        QVERIFY(dialog->grab().save(shots + QStringLiteral("/repair-dialog.png")));
        // The confirm button, reached with Tab, shows that it has the focus.
        QVERIFY(ConsoleTest::activate(dialog));
        for (int i = 0; i < 8 && QApplication::focusWidget() != dialog->confirmButton(); ++i)
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), dialog->confirmButton());
        QVERIFY(dialog->grab().save(shots + QStringLiteral("/repair-dialog-focus.png")));
    }

    QSignalSpy finished(dialog.data(), &RepairDialog::repairsFinished);
    QSignalSpy updated(&window, &MainWindow::klusterUpdated);
    QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
    QVERIFY(dialog->isRunning());
    QVERIFY2(finished.wait(60000), "the repair did not finish");
    QCOMPARE(finished.first().at(0).toInt(), 1);
    QVERIFY2(dialog->resultsText().contains(QStringLiteral("fixed (verified)")),
        qPrintable(dialog->resultsText()));
    if (!shots.isEmpty())
        QVERIFY(dialog->grab().save(shots + QStringLiteral("/repair-done.png")));

    // The audit log has it, and the audit view shows it.
    QString error;
    const QList<AuditRecord> records = AuditLog::read(&error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(records.size(), 1);
    QCOMPARE(records.first().finding(), id);
    QCOMPARE(window.auditPage()->view()->model()->rowCount(), 1);
    if (!shots.isEmpty()) {
        window.setTab(Tab::Audit);
        QVERIFY(window.auditPage()->selectKeys(
                    ConsoleTest::column(window.auditPage()->view()->model(), 0, AuditModel::KeyRole))
            == 1);
        for (const QSize size : { QSize(1024, 640), QSize(1440, 900) }) {
            window.resize(size);
            QDir().mkpath(QStringLiteral("%1/%2x%3").arg(shots).arg(size.width()).arg(size.height()));
            QTest::qWait(50);
            QVERIFY(window.grab().save(
                QStringLiteral("%1/%2x%3/audit.png").arg(shots).arg(size.width()).arg(size.height())));
        }
    }

    // The views are refreshed: the finding is gone from the findings view.
    QTRY_VERIFY_WITH_TIMEOUT(!updated.isEmpty(), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(
        !window.kluster({ QStringLiteral("sim"), QStringLiteral("demo") })->diagnosis->find(id), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(
        window.findingsPage()->selectKeys({ id }) == 0, 10000); // the views follow their data
    dialog->reject();
    QVERIFY(!dialog || !dialog->isVisible());
}

void TestConsole::routeRepairsAsOneChange()
{
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, simSpec()));
    QVERIFY(select(window, { QStringLiteral("sim"), QStringLiteral("legacy") }));
    window.setTab(Tab::Routes);
    QVERIFY(window.repairRoutesAction()->isEnabled());
    QVERIFY2(window.repairRoutesAction()->text().contains(QStringLiteral("5 route findings")),
        qPrintable(window.repairRoutesAction()->text()));
    QPointer<RepairDialog> dialog;
    connect(&window, &MainWindow::repairDialogOpened, this,
        [&dialog](QDialog *d) { dialog = qobject_cast<RepairDialog *>(d); });
    window.repairRoutesAction()->trigger();
    QVERIFY(dialog);
    QCOMPARE(dialog->sendable().size(), 5);
    // One change: one remove_extraroutes with every wrong route, then one add_extraroutes.
    const QJsonArray requests = dialog->plannedRequests();
    QCOMPARE(requests.size(), 2);
    QVERIFY(requests.at(0)
                .toObject()
                .value(QStringLiteral("path"))
                .toString()
                .endsWith(QStringLiteral("/remove_extraroutes")));
    QVERIFY(requests.at(1)
                .toObject()
                .value(QStringLiteral("path"))
                .toString()
                .endsWith(QStringLiteral("/add_extraroutes")));
    QCOMPARE(dialog->confirmButton()->text().remove(QLatin1Char('&')),
        QStringLiteral("Change the router (5 findings)"));
    QVERIFY(dialog->confirmationBox()->isHidden()); // nothing is deleted
    if (const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR"); !shots.isEmpty())
        QVERIFY(dialog->grab().save(shots + QStringLiteral("/repair-routes.png")));
    QSignalSpy finished(dialog.data(), &RepairDialog::repairsFinished);
    QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
    QVERIFY2(finished.wait(60000), "the repair did not finish");
    QCOMPARE(finished.first().at(0).toInt(), 5);
    QCOMPARE(finished.first().at(1).toInt(), 5);
    QString error;
    const QList<AuditRecord> records = AuditLog::read(&error);
    QCOMPARE(records.size(), 1); // one change, one record
    QCOMPARE(records.first().findings.size(), 5);
    if (const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR"); !shots.isEmpty())
        QVERIFY(dialog->grab().save(shots + QStringLiteral("/repair-routes-done.png")));
    dialog->reject();
}

void TestConsole::ghostNodeDeletedByName()
{
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, simSpec()));
    const QString id = QStringLiteral("node-without-instance:kks-demo-pool-g4h0s");
    QVERIFY(window.findingsPage()->selectKeys({ id }));
    window.setTab(Tab::Findings);
    QPointer<RepairDialog> dialog;
    connect(&window, &MainWindow::repairDialogOpened, this,
        [&dialog](QDialog *d) { dialog = qobject_cast<RepairDialog *>(d); });
    window.repairAction()->trigger();
    QVERIFY(dialog);
    QCOMPARE(dialog->confirmButton()->text().remove(QLatin1Char('&')),
        QStringLiteral("Delete node kks-demo-pool-g4h0s"));
    QVERIFY(!dialog->confirmButton()->isEnabled());
    QTest::keyClicks(dialog->confirmationBox(), QStringLiteral("kks-demo-pool-g4h0s"));
    QVERIFY(dialog->confirmButton()->isEnabled());
    QCOMPARE(dialog->plannedRequests().first().toObject().value(QStringLiteral("service")).toString(),
        QStringLiteral("kubernetes"));
    if (const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR"); !shots.isEmpty())
        QVERIFY(dialog->grab().save(shots + QStringLiteral("/repair-ghost.png")));
    QSignalSpy finished(dialog.data(), &RepairDialog::repairsFinished);
    QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
    QVERIFY2(finished.wait(60000), "the repair did not finish");
    QVERIFY2(dialog->resultsText().contains(QStringLiteral("fixed (verified)")),
        qPrintable(dialog->resultsText()));
    dialog->reject();
}

void TestConsole::multiSelectRepairObeysTheBudget()
{
    // At most one unhealthy node: the demo kluster (3 of 8 unhealthy) is past its budget.
    ConnectionSpec spec = simSpec();
    spec.options.maxUnhealthy = *MaxUnhealthy::parse(QStringLiteral("1"));
    MainWindow window;
    window.addConnection(spec, false);
    window.show();
    QVERIFY(waitSettled(window));
    QPointer<RepairDialog> dialog;
    connect(&window, &MainWindow::repairDialogOpened, this,
        [&dialog](QDialog *d) { dialog = qobject_cast<RepairDialog *>(d); });

    // Two deletions and a rule: the deletions are refused as a bulk delete, the rule may go.
    const QString error = QStringLiteral("instance-error:kks-demo-pool-t5y6u");
    const QString unregistered = QStringLiteral("instance-unregistered:kks-demo-pool-z8b1n");
    const QString rule = QStringLiteral("security-group-rule-missing:tcp");
    QTreeView *view = window.findingsPage()->view();
    view->clearSelection();
    for (const QString &id : { error, unregistered, rule }) {
        for (int row = 0; row < view->model()->rowCount(); ++row) {
            if (view->model()->index(row, 0).data(FindingsModel::IdRole).toString() == id)
                view->selectionModel()->select(
                    view->model()->index(row, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        }
    }
    window.setTab(Tab::Findings);
    QCOMPARE(window.repairTargets().size(), 3);
    window.repairAction()->trigger();
    QVERIFY(dialog);
    QCOMPARE(dialog->sendable(), QStringList { rule });
    QVERIFY(dialog->overrideBox()->isHidden());
    QVERIFY(dialog->confirmationBox()->isHidden()); // nothing is deleted
    QVERIFY(dialog->confirmButton()->isEnabled());
    dialog->reject();
    QTRY_VERIFY(!dialog);

    // One deletion: only with the explicit override, and its name typed.
    QVERIFY(window.findingsPage()->selectKeys({ error }));
    window.setTab(Tab::Findings);
    window.repairAction()->trigger();
    QVERIFY(dialog);
    QCOMPARE(dialog->sendable(), QStringList { error });
    QVERIFY(!dialog->overrideBox()->isHidden());
    QTest::keyClicks(dialog->confirmationBox(), QStringLiteral("kks-demo-pool-t5y6u"));
    QVERIFY(!dialog->confirmButton()->isEnabled());
    dialog->overrideBox()->setChecked(true);
    QVERIFY(dialog->confirmButton()->isEnabled());
    dialog->reject();
}

// edge's zone eu-de-1b is down: the instance there that never registered is not deleted (ZoneDisruption,
// although the budget allows it), but for one alone with the override, which says why.
void TestConsole::zoneOutageRefusesTheDeletionInTheDialog()
{
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, simSpec()));
    QVERIFY(select(window, { QStringLiteral("sim"), QStringLiteral("edge") }));
    QPointer<RepairDialog> dialog;
    connect(&window, &MainWindow::repairDialogOpened, this,
        [&dialog](QDialog *d) { dialog = qobject_cast<RepairDialog *>(d); });
    const QString id = QStringLiteral("instance-unregistered:kks-edge-pool-b7t8u");
    QVERIFY(window.findingsPage()->selectKeys({ id }));
    window.setTab(Tab::Findings);
    window.repairAction()->trigger();
    QVERIFY(dialog);
    QString verdict;
    for (const QLabel *l : dialog->findChildren<QLabel *>()) {
        if (l->accessibleName() == QLatin1String("Remediation budget verdict"))
            verdict = l->text();
    }
    QVERIFY2(
        verdict.contains(QStringLiteral("ZoneDisruption")) && verdict.contains(QStringLiteral("eu-de-1b")),
        qPrintable(verdict));
    QVERIFY(!dialog->overrideBox()->isHidden());
    QVERIFY(dialog->overrideBox()->text().contains(QStringLiteral("zone is down")));
    QTest::keyClicks(dialog->confirmationBox(), QStringLiteral("kks-edge-pool-b7t8u"));
    QVERIFY(!dialog->confirmButton()->isEnabled()); // refused until overridden
    dialog->overrideBox()->setChecked(true);
    QVERIFY(dialog->confirmButton()->isEnabled());
    dialog->reject();
}

void TestConsole::dialogRefusesWhatARefreshChanged()
{
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, simSpec()));
    QPointer<RepairDialog> dialog;
    connect(&window, &MainWindow::repairDialogOpened, this,
        [&dialog](QDialog *d) { dialog = qobject_cast<RepairDialog *>(d); });
    QVERIFY(window.findingsPage()->selectKeys({ QStringLiteral("route-missing:kks-demo-pool-q9w3e") }));
    window.setTab(Tab::Findings);
    window.repairAction()->trigger();
    QVERIFY(dialog);
    QVERIFY(dialog->confirmButton()->isEnabled());
    // Meanwhile somebody adds the route; the next refresh no longer has the finding.
    for (SimRouter &r : m_fixture->sim.world().routers) {
        if (r.name == QLatin1String("kks-router")) {
            r.routes.append(SimRoute { QStringLiteral("100.100.25.0/24"), QStringLiteral("10.180.0.25") });
            ++r.revision;
        }
    }
    window.refreshAll();
    QVERIFY(waitSettled(window));
    QVERIFY(!dialog->confirmButton()->isEnabled());
    dialog->reject();
}

// A node lost between the confirmation and the send: the session reads the kluster again just before the
// first request, the plan made from it no longer has the finding, and nothing is sent; the dialog shows the
// new plan (nothing to send) instead of a result.
void TestConsole::nodeLostBetweenConfirmAndSendSendsNothing()
{
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, simSpec()));
    const QString node = QStringLiteral("kks-demo-pool-g4h0s");
    const QString id = QStringLiteral("node-without-instance:") + node;
    window.setTab(Tab::Nodes); // watched live: the console hears of the node's deletion as it would
    QTRY_VERIFY_WITH_TIMEOUT(window.nodesPage()->caption().contains(QStringLiteral("nodes live")), 10000);
    QVERIFY(window.findingsPage()->selectKeys({ id }));
    window.setTab(Tab::Findings);
    QPointer<RepairDialog> dialog;
    connect(&window, &MainWindow::repairDialogOpened, this,
        [&dialog](QDialog *d) { dialog = qobject_cast<RepairDialog *>(d); });
    window.repairAction()->trigger();
    QVERIFY(dialog);
    QTest::keyClicks(dialog->confirmationBox(), node);
    QVERIFY(dialog->confirmButton()->isEnabled());
    // The node object goes (another operator, Kubernikus' own controller) after the plan was read.
    World &world = m_fixture->sim.world();
    SimKluster &demo = world.klusters.first();
    const int index = world.nodeIndex(demo, node);
    QVERIFY(index >= 0);
    demo.nodes.removeAt(index);
    ++world.resourceVersionCounter;
    QSignalSpy replanned(dialog.data(), &RepairDialog::replanned);
    QSignalSpy finished(dialog.data(), &RepairDialog::repairsFinished);
    QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
    QVERIFY(dialog->isRunning());
    m_fixture->sim.watches().observe(); // the console's watch of the nodes hears of it only now
    QVERIFY2(replanned.wait(60000), qPrintable(dialog->statusText()));
    QVERIFY(finished.isEmpty());
    QVERIFY(!dialog->isRunning());
    QVERIFY2(
        dialog->statusText().contains(QStringLiteral("Nothing was sent")), qPrintable(dialog->statusText()));
    QVERIFY2(dialog->statusText().remove(QChar(0x200B)).contains(id + QStringLiteral(" is gone")),
        qPrintable(dialog->statusText()));
    QVERIFY(dialog->sendable().isEmpty());
    QVERIFY(!dialog->confirmButton()->isEnabled());
    QString error;
    QVERIFY(AuditLog::read(&error).isEmpty()); // nothing was about to be sent: no record written ahead
    if (const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR"); !shots.isEmpty()) {
        QTest::qWait(50); // laid out as shown
        QVERIFY(dialog->grab().save(shots + QStringLiteral("/repair-replanned.png")));
    }
    dialog->reject();
}

// Another writer changes the router between the confirmation and the send (the simulator's concurrent-write,
// met by the session's read of the router just before sending): the guarded full route list would now be
// another request. Nothing is sent, the new plan is shown, and confirming it sends exactly it.
void TestConsole::concurrentWriteBeforeSendingShowsTheNewPlan()
{
    World &world = m_fixture->sim.world();
    world.extraRouteAtomic = false;
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, simSpec()));
    QVERIFY(select(window, { QStringLiteral("sim"), QStringLiteral("legacy") }));
    window.setTab(Tab::Routes);
    QPointer<RepairDialog> dialog;
    connect(&window, &MainWindow::repairDialogOpened, this,
        [&dialog](QDialog *d) { dialog = qobject_cast<RepairDialog *>(d); });
    window.repairRoutesAction()->trigger();
    QVERIFY(dialog);
    QCOMPARE(dialog->sendable().size(), 5);
    const QString routerId = world.klusters.at(1).routerId;
    const qint64 revision = world.routers.at(world.routerIndex(routerId)).revision;
    const auto guard = [&dialog] {
        return dialog->plannedRequests()
            .first()
            .toObject()
            .value(QStringLiteral("headers"))
            .toObject()
            .value(QStringLiteral("If-Match"))
            .toString();
    };
    QCOMPARE(guard(), QStringLiteral("revision_number=%1").arg(revision));
    FaultRule write;
    write.kind = FaultRule::Kind::ConcurrentWrite;
    write.service = QStringLiteral("network");
    write.method = QStringLiteral("GET");
    write.path = QRegularExpression(QStringLiteral("^/v2.0/routers/%1$").arg(routerId));
    write.remaining = 1;
    m_fixture->sim.faults().add(write);
    QSignalSpy replanned(dialog.data(), &RepairDialog::replanned);
    QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
    QVERIFY2(replanned.wait(60000), qPrintable(dialog->statusText()));
    QVERIFY2(
        dialog->statusText().contains(QStringLiteral("Nothing was sent")), qPrintable(dialog->statusText()));
    QCOMPARE(
        guard(), QStringLiteral("revision_number=%1").arg(revision + 1)); // the new plan is the one shown
    QString error;
    QVERIFY(AuditLog::read(&error).isEmpty());
    QCOMPARE(world.routers.at(world.routerIndex(routerId)).revision, revision + 1); // the other writer's only
    // Confirmed again: the new plan is sent, and the other writer's route survives it.
    QVERIFY(dialog->confirmButton()->isEnabled());
    QSignalSpy finished(dialog.data(), &RepairDialog::repairsFinished);
    QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
    QVERIFY2(finished.wait(60000), "the repair did not finish");
    QCOMPARE(finished.first().at(0).toInt(), 5);
    QCOMPARE(AuditLog::read(&error).size(), 1);
    bool kept = false;
    for (const SimRoute &route : world.routers.at(world.routerIndex(routerId)).routes)
        kept = kept || route.destination.startsWith(QLatin1String("198.51.100."));
    QVERIFY(kept);
    dialog->reject();
}

void TestConsole::refreshKeepsSelection()
{
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, simSpec()));
    window.setTab(Tab::Nodes);
    QTreeView *nodes = window.nodesPage()->view();
    QVERIFY(window.nodesPage()->selectKeys({ QStringLiteral("kks-demo-pool-p8l2n") }) == 1);
    QSignalSpy reset(nodes->model(), &QAbstractItemModel::modelReset);
    QSignalSpy removed(nodes->model(), &QAbstractItemModel::rowsRemoved);
    for (int i = 0; i < 2; ++i) {
        window.refreshAll();
        QVERIFY(waitSettled(window));
    }
    QCOMPARE(reset.size(), 0);
    QCOMPARE(removed.size(), 0);
    const QModelIndexList selected = nodes->selectionModel()->selectedRows();
    QCOMPARE(selected.size(), 1);
    QCOMPARE(selected.first().data(NodesModel::NameRole).toString(), QStringLiteral("kks-demo-pool-p8l2n"));
}

void TestConsole::nodeChangeShownLive()
{
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, simSpec()));
    window.setTab(Tab::Nodes);
    const KlusterKey demo { QStringLiteral("sim"), QStringLiteral("demo") };
    // Between refreshes the nodes are watched, and the caption says so.
    QTRY_VERIFY_WITH_TIMEOUT(window.nodesPage()->caption().contains(QStringLiteral("nodes live")), 10000);
    QVERIFY2(window.nodesPage()->caption().startsWith(QStringLiteral("Fetched ")),
        qPrintable(window.nodesPage()->caption()));
    const QDateTime fetched = window.kluster(demo)->fetchedAt;
    QAbstractItemModel *nodes = window.nodesPage()->view()->model();
    const auto readyOf = [nodes](const QString &name) {
        for (int row = 0; row < nodes->rowCount(); ++row) {
            if (nodes->index(row, 0).data(NodesModel::NameRole).toString() == name)
                return nodes->index(row, NodesModel::ReadyColumn).data().toString();
        }
        return QString();
    };
    const QString name = QStringLiteral("kks-demo-pool-p8l2n");
    QVERIFY(window.nodesPage()->selectKeys({ name }) == 1);
    const QString before = readyOf(name);
    QSignalSpy reset(nodes, &QAbstractItemModel::modelReset);

    // The node stops being Ready at the API server: shown in place, with no refresh, the selection kept.
    World &w = m_fixture->sim.world();
    SimKluster &k = w.klusters[w.klusterIndex(QStringLiteral("demo"))];
    SimNode &node = k.nodes[w.nodeIndex(k, name)];
    QCOMPARE(node.ready, QStringLiteral("True"));
    node.ready = QStringLiteral("False");
    node.readyReason = QStringLiteral("KubeletNotReady");
    node.readyMessage = QStringLiteral("container runtime is down");
    node.transition = w.now();
    node.resourceVersion = ++w.resourceVersionCounter;
    m_fixture->sim.watches().observe();
    QTRY_VERIFY_WITH_TIMEOUT(readyOf(name) != before, 5000);
    QVERIFY2(
        readyOf(name).contains(QStringLiteral("NotReady")) || readyOf(name).contains(QStringLiteral("False")),
        qPrintable(readyOf(name)));
    QCOMPARE(window.kluster(demo)->fetchedAt, fetched);
    QCOMPARE(reset.size(), 0);
    QCOMPARE(window.nodesPage()->selectedKeys(), QStringList { name });
    QVERIFY(window.kluster(demo)->fetch->state.nodes.size() > 0);
    QVERIFY2(window.nodesPage()->caption().contains(QStringLiteral("nodes live")),
        qPrintable(window.nodesPage()->caption()));
    if (const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR"); !shots.isEmpty()) {
        window.resize(1440, 900);
        QTest::qWait(50);
        QVERIFY(window.grab().save(shots + QStringLiteral("/nodes-live.png")));
    }

    // A refresh while the watch is connected does not list the nodes again; what the watch brought stays.
    // (The kluster's Events are read after its refresh: who repaired it lately; only node lists count here.)
    QSignalSpy handled(&m_fixture->sim, &Simulator::requestHandled);
    window.refreshAll();
    QVERIFY(waitSettled(window));
    QVERIFY(window.kluster(demo)->fetchedAt > fetched);
    for (const QList<QVariant> &request : std::as_const(handled)) {
        if (request.at(0).toString() == QLatin1String("kubernetes"))
            QVERIFY2(!request.at(2).toString().startsWith(QLatin1String("/api/v1/nodes")),
                qPrintable(request.at(2).toString()));
    }
    QVERIFY(readyOf(name).contains(QStringLiteral("False")));
    const QDateTime refreshed = window.kluster(demo)->fetchedAt;

    // The API server forgets the version watched from (410): the console lists the nodes again, and watches
    // on.
    const Reply gone = m_fixture->request(
        "POST", m_fixture->sim.adminUrl() + QStringLiteral("/klusters/demo/watches"), R"({"end": "gone"})");
    QCOMPARE(gone.json().value(QStringLiteral("ended")).toInt(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(window.kluster(demo)->fetchedAt > refreshed, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(m_fixture->sim.watches().openWatches() >= 3, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(window.nodesPage()->caption().contains(QStringLiteral("nodes live")), 10000);
}

void TestConsole::fleetOpensAKluster()
{
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, simSpec()));
    window.setTab(Tab::Fleet);
    auto *fleet = window.findChild<FleetView *>();
    QVERIFY(fleet);
    // Every kluster, worst first: in the list's order (one ranking).
    QCOMPARE(fleet->tileCount(), 7);
    QStringList tiles;
    for (int i = 0; i < fleet->tileCount(); ++i)
        tiles << fleet->tileKey(i).toString();
    QCOMPARE(tiles, ConsoleTest::sidebarColumn(window.sidebar(), 0, KlustersModel::KeyRole));
    QCOMPARE(tiles,
        QStringList({ QStringLiteral("sim/demo"), QStringLiteral("sim/edge"), QStringLiteral("sim/blue"),
            QStringLiteral("sim/legacy"), QStringLiteral("sim/gone"), QStringLiteral("sim/green"),
            QStringLiteral("sim/retired") }));
    if (const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR"); !shots.isEmpty()) {
        window.resize(1440, 900);
        QTest::qWait(50);
        QVERIFY(window.grab().save(shots + QStringLiteral("/fleet.png")));
    }
    // By keyboard: to the second tile, and Enter opens it on its overview.
    fleet->setFocus();
    QTest::keyClick(fleet, Qt::Key_Right);
    QCOMPARE(fleet->currentTile(), 1);
    const KlusterKey second = fleet->tileKey(1);
    QTest::keyClick(fleet, Qt::Key_Return);
    QTRY_COMPARE(window.currentKey(), second);
    QCOMPARE(window.currentTab(), Tab::Overview);
    // A click opens one too.
    window.setTab(Tab::Fleet);
    QTest::qWait(20);
    QTest::mouseClick(fleet, Qt::LeftButton, {}, QPoint(20, 40));
    QTRY_COMPARE(window.currentKey(), fleet->tileKey(0));
}

void TestConsole::sidebarGroupsByConnection()
{
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, simSpec()));
    ConnectionSpec second = simSpec();
    second.name = QStringLiteral("lab");
    second.config->regionName = QStringLiteral("RegionOne");
    QVERIFY(ConsoleTest::open(window, second));
    QTreeView *sidebar = window.sidebar();
    QAbstractItemModel *model = sidebar->model();
    // A heading per connection, with its region and count, open; its klusters under it, worst first.
    QCOMPARE(model->rowCount(), 2);
    QStringList headings { model->index(0, 0).data().toString(), model->index(1, 0).data().toString() };
    headings.sort();
    QCOMPARE(headings, QStringList({ QStringLiteral("lab · RegionOne (7)"), QStringLiteral("sim (7)") }));
    QVERIFY(sidebar->isExpanded(model->index(0, 0)) && sidebar->isExpanded(model->index(1, 0)));
    QCOMPARE(ConsoleTest::sidebarRows(sidebar).size(), 14);
    QCOMPARE(model->index(0, 0, model->index(0, 0)).data(KlustersModel::KlusterRole).toString(),
        QStringLiteral("demo"));
    // Causes, not symptoms: an incident counts once, and each critical finding in none.
    const auto critical = [&window](const QString &kluster) {
        return KlusterStanding::of(*window.kluster({ QStringLiteral("sim"), kluster })->diagnosis).critical;
    };
    QCOMPARE(model->index(0, KlustersModel::CriticalColumn).data().toInt(),
        critical(QStringLiteral("demo")) + critical(QStringLiteral("edge"))
            + critical(QStringLiteral("legacy")) + critical(QStringLiteral("blue"))
            + critical(QStringLiteral("green")) + critical(QStringLiteral("gone"))
            + critical(QStringLiteral("retired")));
    if (const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR"); !shots.isEmpty()) {
        window.resize(1440, 900);
        QTest::qWait(50);
        QVERIFY(window.grab().save(shots + QStringLiteral("/sidebar-groups.png")));
    }

    // By keyboard: Enter on a heading closes it (and opens it again); a kluster chosen elsewhere opens its
    // group.
    QVERIFY(ConsoleTest::activate(&window));
    const QModelIndex lab
        = model->index(0, 0).data(KlustersModel::KeyRole).toString() == QStringLiteral("lab")
        ? model->index(0, 0)
        : model->index(1, 0);
    sidebar->setFocus();
    sidebar->setCurrentIndex(lab);
    QTest::keyClick(sidebar, Qt::Key_Return);
    QVERIFY(!sidebar->isExpanded(lab));
    QVERIFY(ConsoleTest::select(window, { QStringLiteral("lab"), QStringLiteral("blue") }));
    QVERIFY(sidebar->isExpanded(lab));
    QCOMPARE(sidebar->currentIndex().data(KlustersModel::KeyRole).toString(), QStringLiteral("lab/blue"));
    // A heading never replaces the kluster shown.
    sidebar->setCurrentIndex(lab);
    QCOMPARE(window.currentKey().toString(), QStringLiteral("lab/blue"));

    // The filter keeps the headings of what matches, and only what matches.
    window.sidebarFilter()->setText(QStringLiteral("kluster:legacy"));
    QCOMPARE(model->rowCount(), 2);
    QStringList matches = ConsoleTest::sidebarColumn(sidebar, 0, KlustersModel::KeyRole);
    matches.sort();
    QCOMPARE(matches, QStringList({ QStringLiteral("lab/legacy"), QStringLiteral("sim/legacy") }));
    window.sidebarFilter()->setText(QStringLiteral("connection:lab"));
    QCOMPARE(model->rowCount(), 1);
    QCOMPARE(ConsoleTest::sidebarRows(sidebar).size(), 7);
    window.sidebarFilter()->clear();
    QCOMPARE(ConsoleTest::sidebarRows(sidebar).size(), 14);
}

void TestConsole::refreshFailureKeepsTheData()
{
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, simSpec()));
    const int findings = window.findingsPage()->view()->model()->rowCount();
    QVERIFY(findings > 0);
    const QDateTime fetched = window.kluster({ QStringLiteral("sim"), QStringLiteral("demo") })->fetchedAt;

    FaultRule rule;
    rule.id = QStringLiteral("down");
    rule.service = QStringLiteral("kubernikus");
    rule.kind = FaultRule::Kind::Status;
    rule.status = 500;
    m_fixture->sim.faults().add(rule);
    window.refreshAll();
    QVERIFY(waitSettled(window));

    QVERIFY(window.isBannerVisible());
    QVERIFY2(window.bannerText().contains(QStringLiteral("500")), qPrintable(window.bannerText()));
    QVERIFY2(window.bannerText().contains(QStringLiteral("stale")), qPrintable(window.bannerText()));
    // The last good data stays, and says how old it is.
    QCOMPARE(window.findingsPage()->view()->model()->rowCount(), findings);
    QCOMPARE(window.kluster({ QStringLiteral("sim"), QStringLiteral("demo") })->fetchedAt, fetched);
    QVERIFY2(window.nodesPage()->caption().startsWith(QStringLiteral("STALE")),
        qPrintable(window.nodesPage()->caption()));

    // It recovers on the next refresh that reaches Kubernikus. The list and each of the four klusters failed,
    // five answers in a row: its breaker gives it a first pause (nothing probed it meanwhile, so not a longer
    // one), and a refresh within that pause would be held, not sent.
    m_fixture->sim.faults().clear();
    QTest::qWait(EndpointHealth::shared().policy().firstPauseMs + 100);
    window.refreshAll();
    QVERIFY(waitSettled(window));
    QVERIFY2(!window.isBannerVisible(), qPrintable(window.bannerText()));
    QVERIFY(window.kluster({ QStringLiteral("sim"), QStringLiteral("demo") })->fetchedAt > fetched);
}

void TestConsole::partialFailureIsNamed()
{
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, simSpec()));
    FaultRule rule = ConsoleTest::fault(QStringLiteral("network"), FaultRule::Kind::Html, 502);
    m_fixture->sim.faults().add(rule);
    window.refreshAll();
    QVERIFY(waitSettled(window));
    QVERIFY(window.isBannerVisible());
    QVERIFY2(window.bannerText().contains(QStringLiteral("502")), qPrintable(window.bannerText()));
    QVERIFY2(window.bannerText().contains(QStringLiteral("network")), qPrintable(window.bannerText()));
}

void TestConsole::malformedKlusterListKeepsTheData()
{
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, simSpec()));
    const int findings = window.findingsPage()->view()->model()->rowCount();
    for (const FaultRule::Kind kind :
        { FaultRule::Kind::Malformed, FaultRule::Kind::Truncated, FaultRule::Kind::Html }) {
        m_fixture->sim.faults().clear();
        FaultRule rule;
        rule.service = QStringLiteral("kubernikus");
        rule.path = QRegularExpression(QStringLiteral("^/api/v1/clusters$"));
        rule.kind = kind;
        rule.status = 502;
        m_fixture->sim.faults().add(rule);
        window.refreshAll();
        QVERIFY(waitSettled(window));
        QVERIFY(window.isBannerVisible());
        QVERIFY2(window.bannerText().contains(QStringLiteral("could not be listed"))
                && window.bannerText().contains(QStringLiteral("/api/v1/clusters")),
            qPrintable(window.bannerText()));
        // The klusters stay, and are refreshed each on its own.
        QCOMPARE(ConsoleTest::sidebarRows(window.sidebar()).size(), 7);
        QCOMPARE(window.findingsPage()->view()->model()->rowCount(), findings);
    }
}

void TestConsole::readOnlyHidesRepairs()
{
    MainWindow window;
    window.addConnection(simSpec(true), false);
    window.show();
    QVERIFY(waitSettled(window));
    QVERIFY(window.findingsPage()->selectKeys({ QStringLiteral("instance-error:kks-demo-pool-t5y6u") }));
    QVERIFY(!window.repairAction()->isVisible());
    QVERIFY(window.findingsPage()->repairButton()->isHidden());
    QVERIFY(window.findingsPage()->view()->isColumnHidden(FindingsModel::RepairColumn));
    QSignalSpy opened(&window, &MainWindow::repairDialogOpened);
    window.setTab(Tab::Findings);
    window.repairAction()->trigger();
    QCOMPARE(opened.size(), 0);
    // Nothing was sent.
    const auto &servers = m_fixture->sim.world().servers;
    QVERIFY(std::any_of(servers.cbegin(), servers.cend(),
        [](const SimServer &s) { return s.name == QLatin1String("kks-demo-pool-t5y6u"); }));
}

void TestConsole::snapshotOpensOffline()
{
    QTemporaryDir dir;
    QString error;
    QVERIFY2(m_fixture->sim.dumpSnapshots(dir.path(), QString(), &error), qPrintable(error));
    m_fixture.reset(); // offline: no cloud at all

    MainWindow window;
    ConnectionSpec spec;
    spec.name = QStringLiteral("snapshot");
    spec.snapshotPath = dir.path();
    window.addConnection(spec, false);
    window.show();
    QVERIFY(waitSettled(window));
    QCOMPARE(ConsoleTest::sidebarRows(window.sidebar()).size(), 6);
    QVERIFY(select(window, { QStringLiteral("snapshot"), QStringLiteral("demo") }));
    QVERIFY(kindsShown(window).contains(QStringLiteral("instance-error")));
    // The ports are in the snapshot too: edge's missing address pair is found offline.
    QVERIFY(select(window, { QStringLiteral("snapshot"), QStringLiteral("edge") }));
    QVERIFY(kindsShown(window).contains(QStringLiteral("port-address-pair-missing")));
    QVERIFY(select(window, { QStringLiteral("snapshot"), QStringLiteral("demo") }));
    QVERIFY(!window.repairAction()->isVisible());
    QVERIFY(window.findingsPage()->repairButton()->isHidden());
    QVERIFY(!window.isBannerVisible());
}

void TestConsole::connectionsAreRememberedWithoutSecrets()
{
    {
        MainWindow window;
        window.addConnection(simSpec(true), true);
        QVERIFY(waitSettled(window));
    }
    QSettings().sync();
    QFile file(QSettings().fileName());
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray stored = file.readAll();
    QVERIFY(stored.contains(m_fixture->sim.authUrl().toUtf8()));
    QVERIFY2(!stored.contains("\\password=") && !stored.toLower().contains("secret="), stored.constData());

    // The next run restores it (the secret would come from the keychain).
    const QList<ConnectionSpec> remembered = Settings::connections();
    QCOMPARE(remembered.size(), 1);
    QCOMPARE(remembered.first().name, QStringLiteral("sim"));
    QVERIFY(remembered.first().readOnly);
    QVERIFY(remembered.first().config);
    QCOMPARE(remembered.first().config->username, QStringLiteral("demo"));
    QVERIFY(remembered.first().config->password.isEmpty());
}

void TestConsole::repairActsOnTheCurrentView()
{
    // The defect: on the Routes tab, with a missing route selected, Ctrl+R offered the instance
    // deletion still selected on the hidden Findings tab.
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, simSpec()));
    QPointer<RepairDialog> dialog;
    connect(&window, &MainWindow::repairDialogOpened, this,
        [&dialog](QDialog *d) { dialog = qobject_cast<RepairDialog *>(d); });
    window.setTab(Tab::Findings);
    QVERIFY(window.findingsPage()->selectKeys({ QStringLiteral("instance-error:kks-demo-pool-t5y6u") }));
    window.setTab(Tab::Routes);
    QCOMPARE(window.routesPage()->selectKeys({ QStringLiteral("100.100.25.0/24 via 10.180.0.25") }), 1);
    QCOMPARE(window.repairTargets(), QStringList { QStringLiteral("route-missing:kks-demo-pool-q9w3e") });
    window.repairAction()->trigger();
    QVERIFY(dialog);
    QCOMPARE(dialog->sendable(), QStringList { QStringLiteral("route-missing:kks-demo-pool-q9w3e") });
    dialog->reject();
    QTRY_VERIFY(!dialog);
    // The Nodes view: the row's findings; the Overview and the audit log: nothing to repair.
    window.setTab(Tab::Nodes);
    QCOMPARE(window.nodesPage()->selectKeys({ QStringLiteral("kks-demo-pool-q9w3e") }), 1);
    QCOMPARE(window.repairTargets(),
        QStringList {
            QStringLiteral("route-missing:kks-demo-pool-q9w3e") }); // node-network-unavailable has none
    window.setTab(Tab::Overview);
    QVERIFY(window.repairTargets().isEmpty());
    QVERIFY(!window.repairAction()->isEnabled());
}

void TestConsole::routeGroupShowsTheRoutersOrder()
{
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, simSpec()));
    QVERIFY(select(window, { QStringLiteral("sim"), QStringLiteral("legacy") }));
    window.setTab(Tab::Routes);
    // A stale route on the router, and the right one missing: the stale one carries the traffic, the missing
    // one is last.
    QCOMPARE(window.routesPage()->selectKeys({ QStringLiteral("198.19.2.0/24") }), 1);
    const QString text = window.routesPage()->details()->toPlainText();
    const qsizetype stale = text.indexOf(QStringLiteral("via 10.180.0.5 "));
    const qsizetype carries = text.indexOf(QStringLiteral("← carries the traffic"));
    const qsizetype missing = text.indexOf(QStringLiteral("via 10.180.0.33"));
    QVERIFY2(stale >= 0 && carries > stale && missing > carries, qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("route-stale:")));
    QVERIFY(text.contains(QStringLiteral("route-missing:")));
    // Both its findings are what Repair acts on.
    QCOMPARE(window.repairTargets().size(), 2);
}

void TestConsole::partialDataKeepsRankAndSaysIncomplete()
{
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, simSpec()));
    QTreeView *sidebar = window.sidebar();
    QCOMPARE(
        ConsoleTest::sidebarColumn(sidebar, 0, KlustersModel::KeyRole).first(), QStringLiteral("sim/demo"));
    QCOMPARE(ConsoleTest::sidebarRows(sidebar, KlustersModel::CriticalColumn).first().data().toInt(), 8);

    // Nova answers 503: the instances cannot be read.
    FaultRule rule;
    rule.service = QStringLiteral("compute");
    rule.path = QRegularExpression(QStringLiteral("/servers"));
    rule.kind = FaultRule::Kind::Status;
    rule.status = 503;
    rule.retryAfter = QStringLiteral("0");
    m_fixture->sim.faults().add(rule);
    window.refreshAll();
    QVERIFY(waitSettled(window));

    // demo keeps its place above legacy; its counts are lower bounds, it says incomplete, in red, and the
    // banner is an error.
    const QStringList order = ConsoleTest::sidebarColumn(sidebar, 0, KlustersModel::KeyRole);
    QVERIFY2(order.indexOf(QStringLiteral("sim/demo")) < order.indexOf(QStringLiteral("sim/legacy")),
        qPrintable(order.join(QLatin1Char(','))));
    const QModelIndex row = ConsoleTest::sidebarRows(sidebar).at(order.indexOf(QStringLiteral("sim/demo")));
    const QString critical = row.siblingAtColumn(KlustersModel::CriticalColumn).data().toString();
    QVERIFY2(critical.startsWith(QStringLiteral("≥ ")), qPrintable(critical));
    QCOMPARE(row.siblingAtColumn(KlustersModel::KlusterColumn).data().toString(), QStringLiteral("demo"));
    QVERIFY(!row.siblingAtColumn(KlustersModel::WorstColumn).data().toString().isEmpty());
    QVERIFY(row.data(Qt::ForegroundRole).isValid());
    // The connection's heading sums it up, its counts lower bounds too.
    QVERIFY2(row.parent()
                 .siblingAtColumn(KlustersModel::CriticalColumn)
                 .data()
                 .toString()
                 .startsWith(QStringLiteral("≥ ")),
        qPrintable(row.parent().siblingAtColumn(KlustersModel::CriticalColumn).data().toString()));
    QVERIFY(window.isBannerVisible());
    QCOMPARE(window.banner()->type(), MessageBanner::Type::Error);
    QVERIFY2(window.bannerText().contains(QStringLiteral("incomplete"))
            && window.bannerText().contains(QStringLiteral("503")),
        qPrintable(window.bannerText()));
    QVERIFY(!window.bannerText().contains(QStringLiteral("stale")));
    QVERIFY(!window.banner()->retryButton()->isHidden()); // a 503 may pass
    if (const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR"); !shots.isEmpty()) {
        window.resize(1440, 900);
        window.setTab(Tab::Overview);
        QTest::qWait(50);
        QVERIFY(window.grab().save(shots + QStringLiteral("/incomplete.png")));
    }
    QVERIFY2(window.findingsPage()->caption().startsWith(QStringLiteral("INCOMPLETE")),
        qPrintable(window.findingsPage()->caption()));
    QVERIFY2(window.findingsPage()->caption().contains(QStringLiteral("≥ ")),
        qPrintable(window.findingsPage()->caption()));

    // Nova back: complete again. Its breaker's pause is over, as it is once time has passed (on a busy
    // machine the 503s above may have doubled it past the next refresh, which would then be held, as it
    // should).
    m_fixture->sim.faults().clear();
    EndpointHealth::shared().reset();
    window.refreshAll();
    QVERIFY(waitSettled(window));
    QCOMPARE(ConsoleTest::sidebarColumn(sidebar, KlustersModel::KlusterColumn)
                 .at(ConsoleTest::sidebarColumn(sidebar, 0, KlustersModel::KeyRole)
                         .indexOf(QStringLiteral("sim/demo"))),
        QStringLiteral("demo"));
    QVERIFY(!window.isBannerVisible());
}

void TestConsole::unreadSourceMakesNothingUp_data()
{
    QTest::addColumn<QString>("service");
    QTest::addColumn<FaultRule::Kind>("kind");
    const QList<QPair<const char *, FaultRule::Kind>> faults { { "drop", FaultRule::Kind::Drop },
        { "503", FaultRule::Kind::Status }, { "HTML", FaultRule::Kind::Html },
        { "truncated", FaultRule::Kind::Truncated } };
    for (const char *service : { "keystone", "compute", "network", "kubernetes", "kubernikus" }) {
        for (const auto &fault : faults)
            QTest::addRow("%s %s", service, fault.first) << QString::fromLatin1(service) << fault.second;
    }
}

// The fault matrix: whatever source fails and however, each view of the console shows what rests on it as
// unknown (or the last good data, marked stale), never a made-up role, count or state.
void TestConsole::unreadSourceMakesNothingUp()
{
    QFETCH(QString, service);
    QFETCH(FaultRule::Kind, kind);
    FaultRule rule;
    rule.service = service;
    rule.kind = kind;
    rule.status = 503;
    rule.retryAfter = QStringLiteral("0");
    // A node watch once open stays current whatever a new request meets: the Kubernetes API fails from the
    // start, the others after a first good load.
    const bool fromTheStart = service == QLatin1String("kubernetes");
    if (fromTheStart)
        m_fixture->sim.faults().add(rule);
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, simSpec()));
    const KlusterKey legacy { QStringLiteral("sim"), QStringLiteral("legacy") };
    QVERIFY(select(window, legacy));
    if (!fromTheStart)
        m_fixture->sim.faults().add(rule);
    window.refreshAll();
    QVERIFY(waitSettled(window));
    QVERIFY(select(window, legacy));
    const KlusterData *d = window.kluster(legacy);
    QVERIFY(d && d->fetch);
    const Knowledge known(d->fetch->state);
    const QString routes = modelText(*window.routesPage()->view()->model()).join(QLatin1Char('\n'));
    const QString nodes = modelText(*window.nodesPage()->view()->model()).join(QLatin1Char('\n'));
    QTRY_VERIFY(!window.overviewPage()->chartsPending()); // drawn one a turn
    QStringList charts;
    for (const QChartView *v : window.overviewPage()->findChildren<QChartView *>())
        charts << v->chart()->title();
    const QString context
        = QStringLiteral("%1\n--- routes:\n%2\n--- nodes:\n%3\n--- charts: %4")
              .arg(window.routesPage()->caption(), routes, nodes, charts.join(QLatin1String(" | ")));
    if (d->isStale()) {
        // The last good data, said to be stale on every page.
        for (const TablePage *page : { static_cast<const TablePage *>(window.findingsPage()),
                 static_cast<const TablePage *>(window.nodesPage()),
                 static_cast<const TablePage *>(window.routesPage()) })
            QVERIFY2(page->caption().startsWith(QStringLiteral("STALE")), qPrintable(page->caption()));
        return;
    }
    // The worst of them, as the engineer sees them.
    const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR");
    const QHash<QString, QPair<Tab, QString>> shotOf {
        { QStringLiteral("network drop"), { Tab::Routes, QStringLiteral("unknown-router") } },
        { QStringLiteral("compute 503"), { Tab::Nodes, QStringLiteral("unknown-servers") } },
        { QStringLiteral("kubernetes 503"), { Tab::Routes, QStringLiteral("unknown-nodes") } },
        { QStringLiteral("network HTML"), { Tab::Overview, QStringLiteral("unknown-router-overview") } }
    };
    if (const auto shot = shotOf.value(QString::fromLatin1(QTest::currentDataTag()));
        !shots.isEmpty() && !shot.second.isEmpty()) {
        window.resize(1440, 900);
        window.setTab(shot.first);
        QTest::qWait(50);
        QVERIFY(window.grab().save(shots + QLatin1Char('/') + shot.second + QStringLiteral(".png")));
    }
    // The fault took: the source it hits is not known.
    if (service == QLatin1String("network"))
        QVERIFY2(!known.routes(), qPrintable(context));
    if (service == QLatin1String("compute"))
        QVERIFY2(!known.known(Source::Servers), qPrintable(context));
    if (service == QLatin1String("kubernetes"))
        QVERIFY2(!known.known(Source::Nodes), qPrintable(context));
    if (!known.routes()) {
        QCOMPARE(window.routesPage()->view()->model()->rowCount(), 0);
        QVERIFY2(
            window.routesPage()->caption().contains(QStringLiteral("unknown: the router could not be read")),
            qPrintable(context));
        QVERIFY2(charts.contains(QStringLiteral("Routes: unknown (router not read)")), qPrintable(context));
    } else if (!known.routeRoles()) {
        for (const char *madeUp :
            { "missing", "orphaned", "stale", "correct", "nobody", "(not on the router)" })
            QVERIFY2(
                !routes.contains(QLatin1String(madeUp)), qPrintable(madeUp + QStringLiteral(": ") + context));
        QVERIFY2(routes.contains(QStringLiteral("role unknown")), qPrintable(context));
    }
    if (!known.known(Source::Servers)) {
        QVERIFY2(!nodes.contains(QStringLiteral("(no instance)")), qPrintable(context));
        QVERIFY2(charts.contains(QStringLiteral("Instances: unknown, the servers could not be read")),
            qPrintable(context));
    }
    if (!known.known(Source::Nodes)) {
        QVERIFY2(!nodes.contains(QStringLiteral("(none)")), qPrintable(context));
        QVERIFY2(!charts.contains(QStringLiteral("Instances: state, registration")), qPrintable(context));
    }
    // Some source failed here (or the data is stale): it is said.
    if (!known.complete(Source::Servers) || !known.routes() || !known.known(Source::Nodes)
        || !known.known(Source::SecurityGroups))
        QVERIFY2(
            window.routesPage()->caption().startsWith(QStringLiteral("INCOMPLETE")), qPrintable(context));
}

void TestConsole::cancelIsNoFailure()
{
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, simSpec()));
    FaultRule slow;
    slow.service = QStringLiteral("network");
    slow.kind = FaultRule::Kind::Latency;
    slow.latencyMs = 3000;
    m_fixture->sim.faults().add(slow);
    QVERIFY(ConsoleTest::activate(&window));
    window.refreshAll();
    QTRY_VERIFY_WITH_TIMEOUT(window.connections().first()->isRefreshing(QStringLiteral("demo")), 10000);
    QTest::keyClick(&window, Qt::Key_Period, Qt::ControlModifier); // Ctrl+.
    QVERIFY(waitSettled(window));
    QVERIFY2(!window.isBannerVisible(), qPrintable(window.bannerText()));
    for (const QModelIndex &row : ConsoleTest::sidebarRows(window.sidebar()))
        QVERIFY2(!row.data(KlustersModel::AlarmRole).toBool(), qPrintable(row.data().toString()));
    QVERIFY(!window.kluster({ QStringLiteral("sim"), QStringLiteral("demo") })->isStale());
}

void TestConsole::deadEndpointIsOneBannerLine()
{
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, simSpec()));
    m_fixture.reset(); // the cloud is gone: every request is refused
    window.refreshAll();
    QVERIFY(waitSettled(window));
    QVERIFY(window.isBannerVisible());
    const QString text = window.bannerText();
    QCOMPARE(text.count(QLatin1Char('\n')), 0); // one line for the connection
    if (const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR"); !shots.isEmpty()) {
        window.resize(1440, 900);
        QTest::qWait(50);
        QVERIFY(window.grab().save(shots + QStringLiteral("/unreachable.png")));
    }
    QVERIFY2(text.startsWith(QStringLiteral("sim: ")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("refused"), Qt::CaseInsensitive), qPrintable(text));
    // A refused connection may come back: the banner offers Retry, and it fetches again.
    QCOMPARE(window.banner()->type(), MessageBanner::Type::Error);
    QVERIFY(!window.banner()->retryButton()->isHidden());
    QTest::mouseClick(window.banner()->retryButton(), Qt::LeftButton);
    QVERIFY(window.pendingRefreshes() > 0);
    QVERIFY(waitSettled(window));
    // The details name every kluster that failed; the data shown is kept, stale.
    for (const QString &k : { QStringLiteral("demo"), QStringLiteral("legacy"), QStringLiteral("blue") })
        QVERIFY2(window.banner()->details().contains(QStringLiteral("sim/") + k),
            qPrintable(window.banner()->details()));
    QVERIFY(window.kluster({ QStringLiteral("sim"), QStringLiteral("demo") })->isStale());
    QVERIFY(window.kluster({ QStringLiteral("sim"), QStringLiteral("demo") })->fetch);
}

void TestConsole::failedRepairIsShownAsFailed()
{
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, simSpec()));
    FaultRule rule;
    rule.service = QStringLiteral("network");
    rule.method = QStringLiteral("PUT");
    rule.kind = FaultRule::Kind::Status;
    rule.status = 500;
    m_fixture->sim.faults().add(rule);
    QPointer<RepairDialog> dialog;
    connect(&window, &MainWindow::repairDialogOpened, this,
        [&dialog](QDialog *d) { dialog = qobject_cast<RepairDialog *>(d); });
    window.setTab(Tab::Findings);
    QVERIFY(window.findingsPage()->selectKeys({ QStringLiteral("route-missing:kks-demo-pool-q9w3e") }));
    window.repairAction()->trigger();
    QVERIFY(dialog);
    QSignalSpy finished(dialog.data(), &RepairDialog::repairsFinished);
    QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
    QVERIFY(finished.wait(60000));
    QCOMPARE(finished.first().at(0).toInt(), 0);
    QVERIFY2(dialog->statusText().contains(QStringLiteral("Failed")), qPrintable(dialog->statusText()));
    QVERIFY(dialog->windowTitle().startsWith(QStringLiteral("Repair failed")));
    QVERIFY(dialog->findChild<QProgressBar *>()->isHidden()); // no blue 100 % bar for a failure
    QVERIFY2(dialog->resultsText().contains(QStringLiteral("500")), qPrintable(dialog->resultsText()));
    if (const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR"); !shots.isEmpty())
        QVERIFY(dialog->grab().save(shots + QStringLiteral("/repair-failed.png")));
    dialog->reject();
}

void TestConsole::snapshotsOfferNoRefresh()
{
    QTemporaryDir dir;
    QString error;
    QVERIFY2(m_fixture->sim.dumpSnapshots(dir.path(), QString(), &error), qPrintable(error));
    MainWindow window;
    ConnectionSpec spec;
    spec.name = QStringLiteral("snapshot");
    spec.snapshotPath = dir.path();
    window.addConnection(spec, false);
    QVERIFY(waitSettled(window));
    QVERIFY(!window.refreshAction()->isEnabled());
    QVERIFY(!window.findChild<QToolButton *>(QStringLiteral("autoRefresh"))->isEnabled());
    QVERIFY(window.notifier()->tray() == nullptr); // nothing to watch
}

void TestConsole::findingIsSelectedOnceItsKlusterIsShown()
{
    // --finding for a kluster other than the one shown first: selected once that kluster's rows are there.
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, simSpec()));
    QCOMPARE(window.currentKey().toString(), QStringLiteral("sim/demo"));
    QSignalSpy shown(&window, &MainWindow::viewsShown);
    window.showFinding(
        { QStringLiteral("sim"), QStringLiteral("legacy") }, QStringLiteral("route-duplicate:198.19.1.0/24"));
    QTRY_VERIFY_WITH_TIMEOUT(window.findingsPage()->selectedKeys()
            == QStringList { QStringLiteral("route-duplicate:198.19.1.0/24") },
        10000);
    QCOMPARE(window.currentKey().toString(), QStringLiteral("sim/legacy"));
    QVERIFY(window.routesPage()->view()->selectionModel()->hasSelection());
}

void TestConsole::newCriticalFindingNotifiesWhileWatching()
{
    MainWindow window;
    window.addConnection(simSpec(), false);
    // Not shown: the window is in the background, as when minimized.
    QVERIFY(waitSettled(window));
    QSignalSpy notified(window.notifier(), &Notifier::notified);
    // Without auto-refresh nobody is watching: no notification.
    window.setAutoRefreshMinutes(0);
    for (SimSecurityGroup &g : m_fixture->sim.world().securityGroups) {
        if (g.name == QLatin1String("kks-demo"))
            g.rules.erase(std::remove_if(g.rules.begin(), g.rules.end(),
                              [](const SimRule &r) { return r.protocol == QStringLiteral("udp"); }),
                g.rules.end());
    }
    window.refreshAll();
    QVERIFY(waitSettled(window));
    QCOMPARE(notified.size(), 0);
    // Watching.
    window.setAutoRefreshMinutes(1);
    for (SimSecurityGroup &g : m_fixture->sim.world().securityGroups) {
        if (g.name == QLatin1String("kks-demo"))
            g.rules.erase(std::remove_if(g.rules.begin(), g.rules.end(),
                              [](const SimRule &r) { return r.protocol == QStringLiteral("icmp"); }),
                g.rules.end());
    }
    window.refreshAll();
    QVERIFY(waitSettled(window));
    // The missing ICMP rule joins the pod network's incident (diagnosis.md §5), known since the UDP rule
    // went: one notification per incident, none per finding, and none for a finding of an incident known
    // before.
    QVERIFY(window.kluster({ QStringLiteral("sim"), QStringLiteral("demo") })
                ->diagnosis->incidentOf(QStringLiteral("security-group-rule-missing:icmp")));
    QCOMPARE(notified.size(), 0);
    // Nothing new: nothing told.
    window.refreshAll();
    QVERIFY(waitSettled(window));
    QCOMPARE(notified.size(), 0);
    // Clicked: the console opens on that kluster and finding.
    QVERIFY(select(window, { QStringLiteral("sim"), QStringLiteral("legacy") }));
    emit window.notifier()->activated({ QStringLiteral("sim"), QStringLiteral("demo") },
        QStringLiteral("security-group-rule-missing:icmp"));
    QTRY_VERIFY_WITH_TIMEOUT(window.findingsPage()->selectedKeys()
            == QStringList { QStringLiteral("security-group-rule-missing:icmp") },
        10000);
    QCOMPARE(window.currentKey().toString(), QStringLiteral("sim/demo"));
    QVERIFY(window.isVisible());
    window.hide(); // back in the background
    // A kluster that becomes unreachable is told too.
    m_fixture.reset();
    window.refreshAll();
    QVERIFY(waitSettled(window));
    QVERIFY(notified.size() >= 1);
    QVERIFY2(notified.last().at(0).toString().contains(QStringLiteral("unreachable")),
        qPrintable(notified.last().at(0).toString()));
    // Switched off: silent.
    window.setAutoRefreshMinutes(0);
}

void TestConsole::namesAndMnemonics()
{
    MainWindow window;
    window.show();
    QVERIFY(!window.windowIcon().isNull());
    QVERIFY(!window.windowIcon().pixmap(16, 16).isNull());
    // The auto-refresh control is named for what it is, not for its value.
    auto *interval = window.findChild<QToolButton *>(QStringLiteral("autoRefresh"));
    QVERIFY(interval);
    QAccessibleInterface *a = QAccessible::queryAccessibleInterface(interval);
    QVERIFY(a);
    QCOMPARE(a->text(QAccessible::Name), QStringLiteral("Auto-refresh interval"));
    // Alt+letter: every mnemonic of the menu bar and the tabs is unique (Alt+F is the File menu, not a tab).
    QStringList letters;
    const QRegularExpression mnemonic(QStringLiteral("&([^&])"));
    for (QAction *menu : window.menuBar()->actions()) {
        const QRegularExpressionMatch m = mnemonic.match(menu->text());
        if (m.hasMatch())
            letters << m.captured(1).toLower();
    }
    QCOMPARE(letters,
        (QStringList { QStringLiteral("f"), QStringLiteral("v"), QStringLiteral("k"), QStringLiteral("h") }));
    auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("views"));
    for (int i = 0; i < tabs->count(); ++i)
        QVERIFY2(!mnemonic.match(tabs->tabText(i)).hasMatch(), qPrintable(tabs->tabText(i)));
    // Each menu's own mnemonics are unique within it.
    for (QAction *top : window.menuBar()->actions()) {
        QStringList inMenu;
        for (QAction *a : top->menu()->actions()) {
            const QRegularExpressionMatch m = mnemonic.match(a->text());
            if (m.hasMatch()) {
                QVERIFY2(!inMenu.contains(m.captured(1).toLower()),
                    qPrintable(top->text() + QStringLiteral(": ") + a->text()));
                inMenu << m.captured(1).toLower();
            }
        }
    }
    // F1 shows every shortcut; About says the version.
    QPointer<QDialog> opened;
    connect(&window, &MainWindow::dialogOpened, this, [&opened](QDialog *d) { opened = d; });
    window.showShortcuts();
    QVERIFY(opened && opened->isVisible());
    QCOMPARE(opened->objectName(), QStringLiteral("ShortcutsDialog"));
    opened->reject();
    window.showAbout();
    QVERIFY(opened && opened->objectName() == QStringLiteral("AboutDialog"));
    bool saysVersion = false;
    for (QLabel *l : opened->findChildren<QLabel *>())
        saysVersion = saysVersion || l->text().contains(QCoreApplication::applicationVersion());
    QVERIFY(saysVersion);
    opened->reject();
}

void TestConsole::fitsALaptop()
{
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, simSpec()));
    // No view asks for more than a 1024-pixel-wide screen.
    QVERIFY2(window.minimumSizeHint().width() <= 1024,
        qPrintable(QString::number(window.minimumSizeHint().width())));
    auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("views"));
    for (int i = 0; i < tabs->count(); ++i)
        QVERIFY2(tabs->widget(i)->minimumSizeHint().width() <= 1024 - 160, qPrintable(tabs->tabText(i)));
    for (const QSize size : { QSize(1024, 640), QSize(960, 1040), QSize(1440, 900) }) {
        window.resize(size);
        QTRY_COMPARE(window.size(), size);
    }
    // The kluster list collapses with a key.
    QVERIFY(ConsoleTest::activate(&window));
    QVERIFY(window.sidebar()->isVisible());
    QTest::keyClick(&window, Qt::Key_F9);
    QVERIFY(!window.sidebar()->isVisible());
    QTest::keyClick(&window, Qt::Key_F9);
    QVERIFY(window.sidebar()->isVisible());

    // scripts/screenshots: every view at a laptop's size and a desktop's.
    const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR");
    if (shots.isEmpty())
        return;
    const QList<QPair<Tab, QString>> views { { Tab::Overview, QStringLiteral("overview") },
        { Tab::Findings, QStringLiteral("findings") }, { Tab::Nodes, QStringLiteral("nodes") },
        { Tab::Routes, QStringLiteral("routes") }, { Tab::Security, QStringLiteral("security") },
        { Tab::Audit, QStringLiteral("audit") }, { Tab::Fleet, QStringLiteral("fleet") },
        { Tab::Changes, QStringLiteral("changes") } };
    for (const QSize size : { QSize(1024, 640), QSize(1280, 720), QSize(1440, 900) }) {
        window.resize(size);
        QDir().mkpath(QStringLiteral("%1/%2x%3").arg(shots).arg(size.width()).arg(size.height()));
        for (const auto &[tab, name] : views) {
            const bool legacy = tab == Tab::Routes;
            QVERIFY(select(window,
                { QStringLiteral("sim"), legacy ? QStringLiteral("legacy") : QStringLiteral("demo") }));
            window.setTab(tab);
            if (tab == Tab::Routes)
                QVERIFY(window.routesPage()->selectKeys({ QStringLiteral("198.19.1.0/24") }) == 1);
            else if (tab == Tab::Findings || tab == Tab::Nodes || tab == Tab::Security)
                window.findingsPage()->selectKeys(
                    { tab == Tab::Security ? QStringLiteral("security-group-rule-missing:tcp")
                                           : QStringLiteral("instance-unregistered:kks-demo-pool-z8b1n") });
            QTest::qWait(50);
            QVERIFY(window.grab().save(
                QStringLiteral("%1/%2x%3/%4.png").arg(shots).arg(size.width()).arg(size.height()).arg(name)));
        }
    }
}

// Two consoles on one cloud: the first repairs, its Events tell the second, which shows who repaired what and
// warns before a repair of the same kluster; a protected kluster asks for its name; links open the exact
// finding (from this process and handed over by a second `flightdeck LINK`); "Copy as Markdown" hands it
// over.
void TestConsole::teammatesRepairWarnedProtectedLinked()
{
    const KlusterKey demo { QStringLiteral("sim"), QStringLiteral("demo") };
    MainWindow first;
    QVERIFY(ConsoleTest::open(first, simSpec()));
    MainWindow second;
    QVERIFY(ConsoleTest::open(second, simSpec()));
    QVERIFY(select(first, demo));
    QVERIFY(select(second, demo));

    // The first console repairs the missing tcp rule.
    const QString tcp = QStringLiteral("security-group-rule-missing:tcp");
    QPointer<RepairDialog> dialog;
    auto catchDialog = [&dialog](QDialog *d) { dialog = qobject_cast<RepairDialog *>(d); };
    connect(&first, &MainWindow::repairDialogOpened, this, catchDialog);
    first.setTab(Tab::Findings);
    QVERIFY(first.findingsPage()->selectKeys({ tcp }));
    first.repairAction()->trigger();
    QVERIFY(dialog);
    QVERIFY(dialog->teammatesText().isEmpty()); // nobody else repaired it
    QSignalSpy finished(dialog.data(), &RepairDialog::repairsFinished);
    QVERIFY(dialog->confirmButton()->isEnabled());
    QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
    QVERIFY2(finished.wait(60000), "the repair did not finish");
    dialog->reject();
    QCOMPARE(m_fixture->sim.events().events(demo.kluster).size(), 2);

    // The second console, refreshed, shows it on the Overview.
    second.setTab(Tab::Overview);
    second.refreshAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(second.overviewPage()->teamRepairsShown().contains(tcp), 30000);
    QVERIFY2(second.overviewPage()->teamRepairsShown().contains(QStringLiteral("user demo repaired")),
        qPrintable(second.overviewPage()->teamRepairsShown()));

    // Protected: marked in the kluster list, and the repair asks for the kluster's name.
    second.protectCommand()->update();
    QVERIFY(second.protectCommand()->action()->isEnabled());
    second.protectCommand()->action()->trigger();
    QVERIFY(second.session()->isProtected(demo));
    QVERIFY(Settings::protectedKlusters().value().contains(demo.toString()));
    const QModelIndex row = second.models()->klusters()->index(
        second.models()->klusters()->rowOf(demo.connection, demo.kluster), KlustersModel::KlusterColumn);
    QCOMPARE(row.data().toString(), QStringLiteral("demo (protected)"));
    const QString overviewShots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR");
    if (!overviewShots.isEmpty()) {
        // The Overview with who repaired the kluster lately, the kluster marked protected in the list.
        second.setTab(Tab::Overview);
        for (const QSize size : { QSize(1024, 640), QSize(1440, 900) }) {
            second.resize(size);
            QTest::qWait(100);
            QVERIFY(second.grab().save(QStringLiteral("%1/team-overview-%2x%3.png")
                                           .arg(overviewShots)
                                           .arg(size.width())
                                           .arg(size.height())));
        }
    }

    // The second console's repair of the same kluster: the teammate's repair warned of, the name asked for.
    connect(&second, &MainWindow::repairDialogOpened, this, catchDialog);
    const QString error = QStringLiteral("instance-error:kks-demo-pool-t5y6u");
    second.setTab(Tab::Findings);
    QVERIFY(second.findingsPage()->selectKeys({ error }));
    second.repairAction()->trigger();
    QVERIFY(dialog);
    QTRY_VERIFY_WITH_TIMEOUT(dialog->teammatesText().contains(tcp), 10000);
    QVERIFY2(dialog->teammatesText().contains(
                 QStringLiteral("A teammate repaired this kluster in the last 15 minutes")),
        qPrintable(dialog->teammatesText()));
    QCOMPARE(dialog->focusWidget(), dialog->confirmationBox());
    QTest::keyClicks(dialog->confirmationBox(), QStringLiteral("kks-demo-pool-t5y6u"));
    QVERIFY(!dialog->confirmButton()->isEnabled()); // the instance's name is not the kluster's
    dialog->confirmationBox()->clear();
    QTest::keyClicks(dialog->confirmationBox(), QStringLiteral("demo"));
    QVERIFY(dialog->confirmButton()->isEnabled());
    const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR");
    if (!shots.isEmpty())
        QVERIFY(dialog->grab().save(shots + QStringLiteral("/repair-teammate-protected.png")));
    dialog->reject();
    // The first console never warns of its own repair.
    first.session()->team()->read(demo);
    QTRY_VERIFY_WITH_TIMEOUT(
        !first.session()->team()->recent(demo, QDateTime::currentDateTimeUtc()).isEmpty(), 10000);
    QVERIFY(first.session()->team()->teammatesStarted(demo, QDateTime::currentDateTimeUtc()).isEmpty());

    // Copy link and Copy as Markdown, of the finding selected and of the kluster.
    second.copyLinkCommand()->update();
    QCOMPARE(second.copyLinkCommand()->link(),
        QStringLiteral("flightdeck://sim/demo/instance-error%3Akks-demo-pool-t5y6u"));
    second.copyLinkCommand()->action()->trigger();
    QCOMPARE(QApplication::clipboard()->text(), second.copyLinkCommand()->link());
    const QString markdown = second.copyMarkdownCommand()->markdown();
    QVERIFY2(markdown.startsWith(QStringLiteral("## Kluster `demo` (`sim`)")), qPrintable(markdown));
    for (const QString &part :
        { QStringLiteral("### What is wrong"), QStringLiteral("`instance-error:kks-demo-pool-t5y6u`"),
            QStringLiteral("### Repairs (last hour)"), tcp, QStringLiteral("### What is left"),
            QStringLiteral("flightdeck://sim/demo") })
        QVERIFY2(markdown.contains(part), qPrintable(part + QStringLiteral("\n") + markdown));

    // Links: a finding of another kluster opened in this console; one it cannot open is one clear line.
    QVERIFY(second.openLink(QStringLiteral("flightdeck://sim/legacy/route-duplicate%3A198.19.1.0%2F24")));
    QTRY_COMPARE_WITH_TIMEOUT(
        second.currentKey(), (KlusterKey { QStringLiteral("sim"), QStringLiteral("legacy") }), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(second.currentTab() == Tab::Findings
            && second.findingsPage()->selectedKeys().contains(
                QStringLiteral("route-duplicate:198.19.1.0/24")),
        10000);
    QString why;
    QVERIFY(!second.openLink(QStringLiteral("flightdeck://elsewhere/demo"), &why));
    QVERIFY2(why.contains(QStringLiteral("no connection reads cloud elsewhere")), qPrintable(why));
    QVERIFY(!second.openLink(QStringLiteral("flightdeck://sim"), &why));
    QVERIFY2(why.contains(QStringLiteral("flightdeck://<cloud>/<kluster>")), qPrintable(why));
    QVERIFY(!second.openLink(QStringLiteral("flightdeck://sim/nowhere"), &why));
    QVERIFY2(why.contains(QStringLiteral("lists no kluster nowhere")), qPrintable(why));

    // A second `flightdeck LINK` hands the link to the console running and ends.
    QTemporaryDir runtime;
    const QString socket = runtime.filePath(QStringLiteral("console.sock"));
    qputenv("FLIGHTDECK_INSTANCE", socket.toUtf8());
    SingleInstance instance;
    QString listenError;
    QVERIFY2(instance.listen(
                 [&second](const QString &l) {
                     QString why;
                     return second.openLink(l, &why) ? QString() : why;
                 },
                 &listenError),
        qPrintable(listenError));
    QProcess later;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("FLIGHTDECK_INSTANCE"), socket);
    // No display at all: handing a link over needs none (a terminal, SSH into the desktop's session).
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    later.setProcessEnvironment(env);
    QSignalSpy done(&later, &QProcess::finished);
    later.start(QStringLiteral(FLIGHTDECK_GUI),
        { QStringLiteral("flightdeck://sim/demo/instance-error%3Akks-demo-pool-t5y6u") });
    QVERIFY(done.wait(30000));
    QCOMPARE(later.exitCode(), 0);
    QVERIFY(later.readAllStandardOutput().contains("opened in the console running"));
    QTRY_COMPARE_WITH_TIMEOUT(second.currentKey(), demo, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(second.findingsPage()->selectedKeys().contains(error), 10000);
    // One the running console cannot open: it says why, and so does the command (exit status 2).
    later.start(QStringLiteral(FLIGHTDECK_GUI), { QStringLiteral("flightdeck://elsewhere/demo") });
    QVERIFY(done.wait(30000));
    QCOMPARE(later.exitCode(), 2);
    QVERIFY2(later.readAllStandardError().contains("no connection reads cloud elsewhere"), "no reason given");
    // A malformed one: one clear error, nothing handed over, no window.
    later.start(QStringLiteral(FLIGHTDECK_GUI), { QStringLiteral("flightdeck://sim/de%zz") });
    QVERIFY(done.wait(30000));
    QCOMPARE(later.exitCode(), 2);
    QVERIFY2(later.readAllStandardError().contains("broken %-escape"), "no clear error");
    qunsetenv("FLIGHTDECK_INSTANCE");
}

// A finding's alert firing in a real Alertmanager: the repair dialog lists the silence it would make; ticked,
// it is made before the repair (recorded in the audit log) and expired once the repair is verified.
void TestConsole::alertsSilencedWhileRepairing()
{
    RealAlertmanager alertmanager;
    QVERIFY2(alertmanager.start(), "prometheus-alertmanager is not installed (scripts/setup installs it)");
    QTRY_VERIFY_WITH_TIMEOUT(
        m_fixture->request("GET", alertmanager.url + QStringLiteral("/-/ready")).status == 200, 30000);
    const Reply posted = m_fixture->request("POST", alertmanager.url + QStringLiteral("/api/v2/alerts"),
        QStringLiteral(R"([{"labels": {"alertname": "FlightdeckCriticalFinding", "kluster_name": "demo",
            "kind": "security-group-rule-missing", "severity": "critical"}, "startsAt": "%1"}])")
            .arg(QDateTime::currentDateTimeUtc().toString(Qt::ISODate))
            .toUtf8());
    QCOMPARE(posted.status, 200);
    MainWindow window;
    ConnectionSpec spec = simSpec();
    spec.alertmanager.url = QUrl(alertmanager.url);
    QVERIFY(ConsoleTest::open(window, spec));
    QTRY_VERIFY_WITH_TIMEOUT(window.session()->alerts()->readAt(QStringLiteral("sim")).isValid(), 30000);
    QVERIFY(select(window, { QStringLiteral("sim"), QStringLiteral("demo") }));
    const QString tcp = QStringLiteral("security-group-rule-missing:tcp");
    window.setTab(Tab::Findings);
    QVERIFY(window.findingsPage()->selectKeys({ tcp }));
    QPointer<RepairDialog> dialog;
    connect(&window, &MainWindow::repairDialogOpened, this,
        [&dialog](QDialog *d) { dialog = qobject_cast<RepairDialog *>(d); });
    window.repairAction()->trigger();
    QVERIFY(dialog);
    QVERIFY(dialog->silences());
    QVERIFY(!dialog->silences()->checkBox()->isChecked()); // a change: asked for, never assumed
    QVERIFY2(
        dialog->silences()->plannedText().contains(QStringLiteral("alertname=\"FlightdeckCriticalFinding\"")),
        qPrintable(dialog->silences()->plannedText()));
    QVERIFY(dialog->silences()->plannedText().contains(tcp));
    // What else it would silence, asked of Alertmanager (nothing: the identifying labels it lacks are
    // pinned).
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->silences()->caughtText().startsWith(QStringLiteral("Asking")), 15000);
    QVERIFY2(dialog->silences()->caughtText().contains(QStringLiteral("no other alert")),
        qPrintable(dialog->silences()->caughtText()));
    QVERIFY(dialog->silences()->plannedText().contains(QStringLiteral("project_id=\"\"")));
    const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR");
    dialog->silences()->checkBox()->setChecked(true);
    if (!shots.isEmpty())
        QVERIFY(dialog->grab().save(shots + QStringLiteral("/repair-silence.png")));
    QSignalSpy finished(dialog.data(), &RepairDialog::repairsFinished);
    QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
    QVERIFY2(finished.wait(60000), "the repair did not finish");
    // Made, then expired once the repair was verified: Alertmanager says so.
    const auto silenceStates = [&] {
        QStringList states;
        const Reply r = m_fixture->request("GET", alertmanager.url + QStringLiteral("/api/v2/silences"));
        for (const QJsonValue v : QJsonDocument::fromJson(r.body).array())
            states << v.toObject()
                          .value(QStringLiteral("status"))
                          .toObject()
                          .value(QStringLiteral("state"))
                          .toString();
        return states;
    };
    QTRY_COMPARE_WITH_TIMEOUT(silenceStates(), QStringList { QStringLiteral("expired") }, 15000);
    QTRY_VERIFY_WITH_TIMEOUT(dialog->statusText().contains(QStringLiteral("expired")), 10000);
    // Each silence is its own record in the audit log, beside the repair's.
    QString error;
    int silences = 0;
    for (const AuditRecord &r : AuditLog::read(&error)) {
        for (const PlannedRequest &p : r.planned)
            silences += p.service == QLatin1String("alertmanager") ? 1 : 0;
    }
    QCOMPARE(silences, 2); // the POST, and the DELETE that expired it
    dialog->reject();

    // An alert no finding explains, silenced on its own from the Overview's "Silence…".
    const Reply other = m_fixture->request("POST", alertmanager.url + QStringLiteral("/api/v2/alerts"),
        QStringLiteral(
            R"([{"labels": {"alertname": "KubeAPIErrorsHigh", "kluster_name": "demo"}, "startsAt": "%1"}])")
            .arg(QDateTime::currentDateTimeUtc().toString(Qt::ISODate))
            .toUtf8());
    QCOMPARE(other.status, 200);
    window.session()->alerts()->refresh(QStringLiteral("sim"));
    window.setTab(Tab::Overview);
    QTRY_VERIFY_WITH_TIMEOUT(
        window.overviewPage()->alertsShown().contains(QStringLiteral("KubeAPIErrorsHigh")), 15000);
    const QRegularExpression link(QStringLiteral("href=\"(silence:[^\"]+)\""));
    QString fingerprint;
    const KlusterAlerts alerts
        = window.session()->alerts()->alertsOf({ QStringLiteral("sim"), QStringLiteral("demo") },
            *window.kluster({ QStringLiteral("sim"), QStringLiteral("demo") }));
    for (const Alert &a : alerts.alerts) {
        if (a.name() == QLatin1String("KubeAPIErrorsHigh"))
            fingerprint = a.fingerprint;
    }
    QVERIFY(!fingerprint.isEmpty());
    QVERIFY(window.overviewPage()->alertsShown().contains(QStringLiteral("silence:") + fingerprint));
    emit window.overviewPage()->alertSilenceRequested(fingerprint);
    SilenceAlertDialog *silence = nullptr;
    QTRY_VERIFY((silence = window.findChild<SilenceAlertDialog *>()) && silence->isVisible());
    QVERIFY(silence->findChild<QLabel *>() != nullptr);
    if (!shots.isEmpty())
        QVERIFY(silence->grab().save(shots + QStringLiteral("/silence-alert.png")));
    // Of this alert and no other: what it lacks is pinned, and Alertmanager is asked what else it would
    // catch before it can be confirmed.
    QVERIFY(!silence->silenceButton()->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(silence->silenceButton()->isEnabled(), 15000);
    QVERIFY2(
        silence->caughtText().contains(QStringLiteral("no other alert")), qPrintable(silence->caughtText()));
    silence->minutesBox()->setValue(30);
    QTest::mouseClick(silence->silenceButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(
        silence->statusText().startsWith(QStringLiteral("Silenced KubeAPIErrorsHigh")), 15000);
    QTRY_VERIFY_WITH_TIMEOUT(silenceStates().contains(QStringLiteral("active")), 15000);
    silence->reject();
}

QTEST_MAIN(TestConsole)
#include "tst_console.moc"
