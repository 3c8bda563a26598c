// The console beside Kubernikus' own automation (diagnosis.md §7), against the simulated cloud over real
// HTTP: a finding flight repairs says when in its details, a stalled flight is an incident, a repair that
// would race it asks for the override; a Terminating kluster is one finding, grey in the Fleet, its phase
// beside its name.

#include "console/handoff.h"
#include "console/klusterstore.h"
#include "core/diagnosiscontext.h"
#include "core/finding.h"
#include "models/klustersmodel.h"
#include "services/history/historystore.h"
#include "services/http/endpointhealth.h"
#include "services/repair/auditlog.h"
#include "tests/simulator/simfixture.h"
#include "tests/views/consolefixture.h"
#include "views/fleetview.h"
#include "views/mainwindow.h"
#include "views/overviewpage.h"
#include "views/repairdialog.h"
#include "views/tabs.h"

#include <QAction>
#include <QCheckBox>
#include <QJsonDocument>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QTextBrowser>

class TestConsoleLifecycle : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void stalledFlightInTheDetails();
    void terminatingIsGreyAndNamed();
    void bootEvidenceAndTheTimeline();
    void goneKlustersDebrisDeletedByItsName();

private:
    ConnectionSpec automated() const
    {
        ConnectionSpec spec = ConsoleTest::simSpec(m_fixture->sim);
        spec.options.automation = true; // these tests are about it
        return spec;
    }
    int admin(const QString &path, const QByteArray &body)
    {
        return m_fixture->request("POST", m_fixture->sim.adminUrl() + path, body, {}, false).status;
    }

    std::unique_ptr<SimFixture> m_fixture;
};

void TestConsoleLifecycle::init()
{
    EndpointHealth::shared().reset();
    QFile::remove(AuditLog::path());
    QSettings().clear();
    for (const char *suffix : { "", "-wal", "-shm" }) // no history of an earlier run
        QFile::remove(HistoryStore::defaultPath() + QLatin1String(suffix));
    m_fixture = std::make_unique<SimFixture>();
}

void TestConsoleLifecycle::cleanup()
{
    m_fixture.reset();
}

void TestConsoleLifecycle::stalledFlightInTheDetails()
{
    const QByteArray did
        = m_fixture
              ->request("POST", m_fixture->sim.adminUrl() + QStringLiteral("/klusters/demo/cause"),
                  QByteArrayLiteral(R"({"rule": "flight-stalled"})"), {}, false)
              .body;
    const QString caused = QJsonDocument::fromJson(did).object().value(QStringLiteral("caused")).toString();
    const QString stalled = caused.section(QStringLiteral("; "), 1).section(QStringLiteral(", "), 0, 0);
    QVERIFY2(stalled.startsWith(QStringLiteral("kks-demo-")), did.constData());
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, automated()));
    const KlusterKey demo { QStringLiteral("sim"), QStringLiteral("demo") };
    QVERIFY(ConsoleTest::select(window, demo));
    const std::shared_ptr<const Diagnosis> d = window.kluster(demo)->diagnosis;
    const QString id = QStringLiteral("instance-unregistered:") + stalled;
    const Incident *incident = d->incidentOf(id);
    QVERIFY2(incident, qPrintable([&] {
        QStringList out { id };
        for (const Incident &i : d->incidents)
            out << i.id() + QStringLiteral(": ") + i.members.join(QLatin1Char(','));
        for (const Finding &f : d->findings)
            out << f.id()
                    + (f.automation()
                            ? QStringLiteral(" ") + f.automation()->line(f.context->state.capturedAt)
                            : QString());
        for (const Incident &i : d->incidents)
            out << i.id() + QStringLiteral(": ") + i.members.join(QLatin1Char(','));
        return out.join(QLatin1Char('\n'));
    }()));
    QCOMPARE(incident->id(), QStringLiteral("automation-stalled:flight"));
    // Its hand-off names whom to hand it to: the actor's owners.
    Handoff::Facts facts;
    facts.key = demo;
    facts.data = window.kluster(demo);
    facts.incident = incident->id();
    facts.now = QDateTime::currentDateTimeUtc();
    const QString handoff = Handoff::markdown(facts);
    QVERIFY2(
        handoff.contains(QStringLiteral("**Hand it to** the Kubernikus operators")), qPrintable(handoff));
    window.setTab(Tab::Findings);
    QTRY_VERIFY_WITH_TIMEOUT(window.findingsPage()->selectKeys({ id }), 10000);
    auto *details = window.findingsPage()->findChild<QTextBrowser *>();
    QVERIFY(details);
    QTRY_VERIFY_WITH_TIMEOUT(
        details->toPlainText().contains(QStringLiteral("Automation overdue: flight should "
                                                       "have deleted the instance by")),
        5000);
    const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR"); // scripts/screenshots
    if (!shots.isEmpty()) {
        window.resize(1024, 640);
        QVERIFY(ConsoleTest::activate(&window));
        window.showFinding(demo, id);
        QTest::qWait(200);
        QVERIFY(window.grab().save(shots + QStringLiteral("/automation-stalled.png")));
    }

    // A finding flight is due to repair, not overdue: the repair asks for the override, and says why.
    World &w = m_fixture->sim.world();
    SimKluster &k = w.klusters[w.klusterIndex(QStringLiteral("demo"))];
    SimServer &s = w.addServer(k.projectId, QStringLiteral("kks-demo-pool-young"),
        w.networks.at(w.networkIndex(k.networkId)).id, QString(), { k.securityGroupName },
        w.now().addSecs(-20 * 60));
    s.kluster = k.name;
    s.pool = k.pools.first().name;
    s.updated = w.now(); // new to Nova's changes-since now
    window.refreshAll();
    QVERIFY(ConsoleTest::waitSettled(window));
    const QString young = QStringLiteral("instance-unregistered:kks-demo-pool-young");
    QVERIFY2(window.kluster(demo)->diagnosis->find(young), qPrintable([&] {
        QStringList out;
        for (const Finding &f : window.kluster(demo)->diagnosis->findings)
            out << f.id();
        return out.join(QLatin1Char(' '));
    }()));
    QTRY_VERIFY_WITH_TIMEOUT(window.findingsPage()->selectKeys({ young }), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(
        details->toPlainText().contains(QStringLiteral("Automation: flight deletes the instance at")), 5000);
    QSignalSpy opened(&window, &MainWindow::repairDialogOpened);
    window.repairAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!opened.isEmpty(), 10000);
    auto *dialog = opened.first().first().value<RepairDialog *>();
    QVERIFY(dialog);
    auto *override = dialog->findChild<QCheckBox *>();
    QVERIFY(override);
    QTRY_VERIFY_WITH_TIMEOUT(override->isVisible(), 5000);
    QVERIFY2(
        override->text().contains(QStringLiteral("Kubernikus' automation")), qPrintable(override->text()));
    if (!shots.isEmpty()) {
        QTest::qWait(100);
        QVERIFY(dialog->grab().save(shots + QStringLiteral("/repair-automation-pending.png")));
    }
    dialog->reject();
}

void TestConsoleLifecycle::terminatingIsGreyAndNamed()
{
    QCOMPARE(admin(QStringLiteral("/klusters/legacy/phase"), R"({"phase": "Terminating"})"), 204);
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, automated()));
    const KlusterKey legacy { QStringLiteral("sim"), QStringLiteral("legacy") };
    QVERIFY(ConsoleTest::select(window, legacy));
    const std::shared_ptr<const Diagnosis> d = window.kluster(legacy)->diagnosis;
    QCOMPARE(d->findings.size(), 1);
    QCOMPARE(d->findings.first().id(), QStringLiteral("kluster-terminating:legacy"));
    // Its phase beside its name in the list.
    const QStringList names = ConsoleTest::sidebarColumn(window.sidebar(), 0, Qt::DisplayRole);
    QVERIFY2(
        names.contains(QStringLiteral("legacy · Terminating")), qPrintable(names.join(QLatin1Char(','))));
    // Grey in the Fleet, with what it is; never a colour of alarm.
    window.setTab(Tab::Fleet);
    auto *fleet = window.findChild<FleetView *>();
    QVERIFY(fleet);
    const FleetTile *tile = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (int i = 0; i < fleet->tileCount(); ++i) {
                if (fleet->tileKey(i) == legacy)
                    tile = fleet->tile(i);
            }
            return tile != nullptr;
        }(),
        5000);
    QVERIFY(tile->retiring);
    QVERIFY(!tile->severity);
    QCOMPARE(tile->reason, QStringLiteral("kluster being torn down")); // as the list and check --all say
    QVERIFY2(tile->counts.startsWith(QStringLiteral("Terminating")), qPrintable(tile->counts));
    if (const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR"); !shots.isEmpty()) {
        window.resize(1440, 900);
        QTest::qWait(100);
        QVERIFY(window.grab().save(shots + QStringLiteral("/fleet-terminating.png")));
    }
}

// A kluster Kubernikus no longer has is listed for what it left behind (diagnosis.md §9): its Overview says
// it is gone; its orphaned volume's repair asks for the kluster's name typed, deletes that volume alone, and
// is verified by reading the project's volumes again.
void TestConsoleLifecycle::goneKlustersDebrisDeletedByItsName()
{
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, ConsoleTest::simSpec(m_fixture->sim)));
    const KlusterKey retired { QStringLiteral("sim"), QStringLiteral("retired") };
    QVERIFY(ConsoleTest::select(window, retired));
    const std::shared_ptr<const Diagnosis> d = window.kluster(retired)->diagnosis;
    QCOMPARE(d->phase, QStringLiteral("Gone"));
    QString orphaned;
    for (const Finding &f : d->findings) {
        if (f.kind == FindingKind::VolumeOrphaned && orphaned.isEmpty())
            orphaned = f.id();
    }
    QVERIFY(!orphaned.isEmpty());
    const QStringList names = ConsoleTest::sidebarColumn(window.sidebar(), 0, Qt::DisplayRole);
    QVERIFY2(names.contains(QStringLiteral("retired · Gone")), qPrintable(names.join(QLatin1Char(','))));
    window.setTab(Tab::Findings);
    QVERIFY(window.findingsPage()->selectKeys({ orphaned }));
    const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR"); // scripts/screenshots
    if (!shots.isEmpty()) {
        window.resize(1440, 900);
        QTest::qWait(100);
        QVERIFY(window.grab().save(shots + QStringLiteral("/debris-gone-kluster.png")));
    }
    QPointer<RepairDialog> dialog;
    connect(&window, &MainWindow::repairDialogOpened, this,
        [&dialog](QDialog *dlg) { dialog = qobject_cast<RepairDialog *>(dlg); });
    window.repairAction()->trigger();
    QVERIFY(dialog);
    QVERIFY2(dialog->sendable().contains(orphaned), qPrintable(dialog->sendable().join(QLatin1Char(' '))));
    const QString said = dialog->typeToConfirmText();
    QVERIFY2(said.contains(QStringLiteral("kluster retired left behind")), qPrintable(said));
    QVERIFY(!dialog->confirmButton()->isEnabled());
    QTest::keyClicks(
        dialog->confirmationBox(), QStringLiteral("pv-")); // a volume's name is not the kluster's
    QVERIFY(!dialog->confirmButton()->isEnabled());
    dialog->confirmationBox()->clear();
    QTest::keyClicks(dialog->confirmationBox(), QStringLiteral("retired"));
    QVERIFY(dialog->confirmButton()->isEnabled());
    if (!shots.isEmpty())
        QVERIFY(dialog->grab().save(shots + QStringLiteral("/repair-debris.png")));
    const int volumesBefore = int(m_fixture->sim.world().volumes.size());
    QSignalSpy finished(dialog.data(), &RepairDialog::repairsFinished);
    QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
    QVERIFY2(finished.wait(60000), "the repair did not finish");
    QVERIFY2(dialog->resultsText().contains(QStringLiteral("fixed (verified)")),
        qPrintable(dialog->resultsText()));
    QCOMPARE(int(m_fixture->sim.world().volumes.size()), volumesBefore - 1);
    QVERIFY(m_fixture->sim.world().volumeIndex(orphaned.section(QLatin1Char(':'), 1)) < 0);
}

// A finding opened alone shows its server's boot evidence, read from Nova when the details open (the console
// log's tail, escaped; the actions), once per refresh; the Overview's timeline has what Kubernikus recorded
// beside the repairs.
void TestConsoleLifecycle::bootEvidenceAndTheTimeline()
{
    {
        World &w = m_fixture->sim.world();
        SimServer &s = w.servers[w.serverIndexByName(QStringLiteral("kks-demo-pool-z8b1n"))];
        s.consoleLog
            = QStringLiteral("ignition[640]: GET error: network is unreachable\n<b>not bold</b>\x7f\n");
    }
    MainWindow window;
    QVERIFY(ConsoleTest::open(window, ConsoleTest::simSpec(m_fixture->sim)));
    const KlusterKey demo { QStringLiteral("sim"), QStringLiteral("demo") };
    QVERIFY(ConsoleTest::select(window, demo));
    window.setTab(Tab::Findings);
    const QString id = QStringLiteral("instance-unregistered:kks-demo-pool-z8b1n");
    QTRY_VERIFY_WITH_TIMEOUT(window.findingsPage()->selectKeys({ id }), 10000);
    auto *details = window.findingsPage()->findChild<QTextBrowser *>();
    QVERIFY(details);
    QTRY_VERIFY_WITH_TIMEOUT(
        details->toPlainText().contains(QStringLiteral("Nova's actions on kks-demo-pool-z8b1n")), 10000);
    const QString text = details->toPlainText();
    QVERIFY2(text.contains(QStringLiteral("| ignition[640]: GET error: network is unreachable")),
        qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("| <b>not bold</b>\\x7f")), qPrintable(text)); // text, escaped
    QVERIFY(text.contains(QStringLiteral("  create")));
    QVERIFY2(details->toHtml().contains(QStringLiteral("&lt;b&gt;not bold&lt;/b&gt;")),
        qPrintable(details->toHtml()));
    // Read once for this refresh: showing the details again asks Nova nothing more.
    const qint64 asked = m_fixture->sim.requestCount(QStringLiteral("compute"));
    window.findingsPage()->view()->clearSelection();
    QVERIFY(window.findingsPage()->selectKeys({ id }));
    QTest::qWait(300);
    QVERIFY(details->toPlainText().contains(QStringLiteral("Nova's actions on kks-demo-pool-z8b1n")));
    QCOMPARE(m_fixture->sim.requestCount(QStringLiteral("compute")), asked);
    if (const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR"); !shots.isEmpty()) {
        window.resize(1280, 1100);
        QVERIFY(ConsoleTest::activate(&window));
        QTest::qWait(200);
        QVERIFY(window.grab().save(shots + QStringLiteral("/boot-evidence.png")));
    }

    // The timeline: what Kubernikus' servicing recorded on green, newest first.
    const KlusterKey green { QStringLiteral("sim"), QStringLiteral("green") };
    QVERIFY(ConsoleTest::select(window, green));
    window.setTab(Tab::Overview);
    // Kubernikus' events are read with the refreshes of the kluster looked at (F5 here), not with a round's.
    QVERIFY(!window.overviewPage()->teamRepairsShown().contains(QStringLiteral("SuccessfulDrainNode")));
    window.refreshAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(window.overviewPage()->teamRepairsShown().contains(
                                 QStringLiteral("SuccessfulDrainNode: Preparing upgrade for "
                                                "node: kks-green-pool-s3c4d")),
        10000);
    const QString timeline = window.overviewPage()->teamRepairsShown();
    QVERIFY2(timeline.indexOf(QStringLiteral("kks-green-pool-s3c4d"))
            < timeline.indexOf(QStringLiteral("SuccessfulRebootNode")),
        qPrintable(timeline));
    if (const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR"); !shots.isEmpty()) {
        window.resize(1280, 800);
        QTest::qWait(200);
        QVERIFY(window.grab().save(shots + QStringLiteral("/kluster-timeline.png")));
    }
}

QTEST_MAIN(TestConsoleLifecycle)
#include "tst_console_lifecycle.moc"
