#include "console/alertwatch.h"
#include "console/connectionregistry.h"
#include "console/consolesession.h"
#include "console/klusterstore.h"
#include "console/pacedwork.h"
#include "console/refreshcoordinator.h"
#include "console/teamrepairs.h"
#include "core/exportedfleet.h"
#include "models/consolemodels.h"
#include "models/findingsmodel.h"
#include "models/klustersmodel.h"
#include "models/nodesmodel.h"
#include "services/connection.h"
#include "services/http/endpointhealth.h"
#include "services/repair/auditlog.h"
#include "services/settings.h"
#include "tests/common/realalertmanager.h"
#include "tests/simulator/simcloud.h"
#include "tests/simulator/simfixture.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

// The console without a window, against the simulated cloud over real HTTP: the connection registry (a typed
// status, never prose), the refresh coordinator (rounds, cancel, settled, counts from the store), the
// connections remembered between runs, and the session's views made off the window's thread.
class TestConsoleSession : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void addedConnectionIsListedAndRefreshed();
    void failedListingIsATypedStatus();
    void cancelKeepsTheData();
    void removedConnectionLeavesNothing();
    void rememberedWithoutTheSecret();
    void testSignsInWithoutAConnection();
    void currentKlustersRowsAreMadeOffTheThread();
    void pacedWorkYieldsBetweenTurnsInOrder();
    void aListingOfThousandsGoesInASliceATurn();
    void refreshAskedWhileItsLastResultWaits();
    void alertsBesideTheFindings();
    void teamRepairsKeptWhenEventsCannotBeRead();
    void stopBeforeTheRepairStartsSendsNothing();

private:
    ConnectionSpec simSpec(const QString &password = QStringLiteral("flightdeck-demo")) const
    {
        ConnectionSpec spec;
        spec.name = QStringLiteral("sim");
        spec.config = simCloud(m_fixture->sim, password);
        spec.watchNodes = false;
        spec.options.automation = false; // the simulated cloud runs no Kubernikus controller
        return spec;
    }
    // Every refresh asked for is back and the views show it.
    [[nodiscard]] static bool waitSettled(ConsoleSession &session)
    {
        if (session.refreshes()->isSettled() && session.store()->pending() == 0
            && !session.store()->klusters(QStringLiteral("sim")).isEmpty())
            return true;
        QSignalSpy settled(session.refreshes(), &RefreshCoordinator::settled);
        return settled.wait(60000) && session.refreshes()->pending() == 0;
    }

    std::unique_ptr<SimFixture> m_fixture;
};

void TestConsoleSession::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void TestConsoleSession::init()
{
    EndpointHealth::shared().reset(); // a simulator of an earlier test may have had this port
    QSettings().clear();
    m_fixture = std::make_unique<SimFixture>();
}

void TestConsoleSession::cleanup()
{
    m_fixture.reset();
}

void TestConsoleSession::addedConnectionIsListedAndRefreshed()
{
    ConsoleSession session;
    QSignalSpy rounds(session.refreshes(), &RefreshCoordinator::roundDone);
    QSignalSpy refreshed(session.refreshes(), &RefreshCoordinator::refreshed);
    QSignalSpy changed(session.registry(), &ConnectionRegistry::changed);
    QSignalSpy standing(session.registry(), &ConnectionRegistry::statusChanged);
    session.registry()->add(simSpec(), false);
    QCOMPARE(session.registry()->status(QStringLiteral("sim")).state, ConnectionStatus::State::Listing);
    QVERIFY(waitSettled(session));

    const QStringList klusters = session.store()->klusters(QStringLiteral("sim"));
    QStringList names = klusters;
    names.sort();
    QCOMPARE(names,
        QStringList(
            { QStringLiteral("blue"), QStringLiteral("demo"), QStringLiteral("edge"), QStringLiteral("gone"),
                QStringLiteral("green"), QStringLiteral("legacy"), QStringLiteral("retired") }));
    for (const QString &k : klusters) {
        const KlusterData *d = session.store()->data({ QStringLiteral("sim"), k });
        QVERIFY2(d && d->fetch && d->diagnosis && !d->isStale(), qPrintable(k));
    }
    QCOMPARE(refreshed.size(), 7); // the demo world's klusters, retired (gone, its volumes left) among them
    QVERIFY(!refreshed.first().at(2).toBool()); // not cancelled
    const ConnectionStatus status = session.registry()->status(QStringLiteral("sim"));
    QCOMPARE(status.state, ConnectionStatus::State::Listed);
    QCOMPARE(status.klusters, 7);
    QCOMPARE(status.stale, 0);
    QCOMPARE(status.toText(), QStringLiteral("7 klusters"));
    // The connections changed once (one added); how it stands, after its listing and each kluster's refresh
    // (what a list of connections follows, not the sidebar's marks).
    QCOMPARE(changed.size(), 1);
    QVERIFY2(standing.size() >= 8, qPrintable(QString::number(standing.size())));
    // The round's counts come from the store.
    QVERIFY(!rounds.isEmpty());
    const RefreshSummary summary = rounds.last().first().value<RefreshSummary>();
    QCOMPARE(summary.klusters, 7);
    QCOMPARE(summary.failed, 0);
    QVERIFY(!summary.snapshots);
    QVERIFY(session.registry()->anyLive());
}

void TestConsoleSession::failedListingIsATypedStatus()
{
    ConsoleSession session;
    QSignalSpy listed(session.refreshes(), &RefreshCoordinator::listed);
    session.registry()->add(simSpec(QStringLiteral("wrong")), false);
    QVERIFY(listed.wait(30000));
    const ConnectionStatus status = session.registry()->status(QStringLiteral("sim"));
    QCOMPARE(status.state, ConnectionStatus::State::Failed);
    QVERIFY(status.error.isError());
    QCOMPARE(status.error.kind, Error::Kind::Auth);
    QVERIFY2(status.toText().startsWith(QStringLiteral("failed: ")), qPrintable(status.toText()));
    const ConsoleText::Banner banner = session.banner(QString(), QString());
    QCOMPARE(banner.kind, ConsoleText::Banner::Kind::Failures);
    QVERIFY(banner.listingFailed);
    QVERIFY(!banner.retry); // a wrong password does not pass by trying again
    QCOMPARE(session.registry()->status(QStringLiteral("nonesuch")).state, ConnectionStatus::State::Unknown);
}

void TestConsoleSession::cancelKeepsTheData()
{
    ConsoleSession session;
    session.registry()->add(simSpec(), false);
    QVERIFY(waitSettled(session));
    const KlusterKey demo { QStringLiteral("sim"), QStringLiteral("demo") };
    const auto before = session.store()->data(demo)->fetch;
    // Every answer held back: the round is under way when it is cancelled.
    FaultRule slow;
    slow.kind = FaultRule::Kind::Latency;
    slow.latencyMs = 20000;
    m_fixture->sim.faults().add(slow);
    QSignalSpy cancelled(session.refreshes(), &RefreshCoordinator::cancelled);
    QSignalSpy settled(session.refreshes(), &RefreshCoordinator::settled);
    session.refreshes()->refreshAll();
    QVERIFY(session.refreshes()->pending() > 0);
    session.refreshes()->cancelAll();
    QVERIFY(settled.wait(30000));
    QCOMPARE(session.refreshes()->pending(), 0);
    // A cancel is no failure: the data stays as it was, not stale.
    const KlusterData *d = session.store()->data(demo);
    QVERIFY(d && !d->isStale());
    QCOMPARE(d->fetch, before);
}

void TestConsoleSession::removedConnectionLeavesNothing()
{
    ConsoleSession session;
    session.registry()->add(simSpec(), false);
    QVERIFY(waitSettled(session));
    QSignalSpy removed(session.registry(), &ConnectionRegistry::removed);
    session.registry()->remove(QStringLiteral("sim"), false);
    QCOMPARE(removed.size(), 1);
    QVERIFY(session.registry()->isEmpty());
    QVERIFY(session.store()->klusters(QStringLiteral("sim")).isEmpty());
    QVERIFY(!session.store()->data({ QStringLiteral("sim"), QStringLiteral("demo") }));
    QCOMPARE(session.registry()->status(QStringLiteral("sim")).state, ConnectionStatus::State::Unknown);
}

void TestConsoleSession::rememberedWithoutTheSecret()
{
    {
        ConsoleSession session;
        session.registry()->add(simSpec(), true);
        QVERIFY(session.registry()->isRemembered(QStringLiteral("sim")));
        QVERIFY(session.registry()->namesTaken().contains(QStringLiteral("sim")));
    }
    // The settings hold where the cloud is and who signs in, never the password.
    QSettings settings;
    const QStringList keys = settings.allKeys();
    QVERIFY(keys.contains(QStringLiteral("connections/1/authUrl")));
    for (const QString &key : keys) {
        QVERIFY2(!key.contains(QStringLiteral("password"), Qt::CaseInsensitive)
                && !key.contains(QStringLiteral("secret"), Qt::CaseInsensitive),
            qPrintable(key));
    }
    // The next run has it again.
    ConsoleSession next;
    next.registry()->restore();
    QVERIFY(next.registry()->connection(QStringLiteral("sim")));
    QCOMPARE(next.registry()->editableSpec(QStringLiteral("sim")).config->authUrl, m_fixture->sim.authUrl());
    QVERIFY(next.registry()->editableSpec(QStringLiteral("sim")).config->password.isEmpty());
}

void TestConsoleSession::testSignsInWithoutAConnection()
{
    ConsoleSession session;
    bool done = false;
    bool ok = false;
    QString what;
    session.registry()->test(simSpec(), this, [&](bool good, const QString &text) {
        done = true;
        ok = good;
        what = text;
    });
    QTRY_VERIFY_WITH_TIMEOUT(done, 30000);
    QVERIFY2(ok, qPrintable(what));
    QVERIFY2(what.contains(QStringLiteral("7 kluster(s): blue, demo, edge, gone, green, legacy, retired")),
        qPrintable(what));
    QVERIFY(session.registry()->isEmpty()); // a test adds no connection

    done = false;
    session.registry()->test(simSpec(QStringLiteral("wrong")), this, [&](bool good, const QString &text) {
        done = true;
        ok = good;
        what = text;
    });
    QTRY_VERIFY_WITH_TIMEOUT(done, 30000);
    QVERIFY(!ok);
    QVERIFY2(what.contains(QStringLiteral("401")), qPrintable(what));
}

void TestConsoleSession::currentKlustersRowsAreMadeOffTheThread()
{
    ConsoleSession session;
    ConsoleModels models(&session); // the views' models, without a window
    session.registry()->add(simSpec(), false);
    QVERIFY(waitSettled(session));
    const KlusterKey demo { QStringLiteral("sim"), QStringLiteral("demo") };
    QSignalSpy shown(&session, &ConsoleSession::shown);
    session.setCurrent(demo);
    session.showCurrent();
    QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() && shown.last().first().value<KlusterKey>() == demo, 30000);
    QVERIFY(session.isCurrentShown());
    const KlusterData *d = session.store()->data(demo);
    QCOMPARE(models.findings()->rowCount(), int(d->diagnosis->findings.size()));
    QVERIFY(models.nodes()->rowCount() > 0);
    // What the captions say of it comes from the session, with no widget.
    const ConsoleText::Captions captions
        = ConsoleText::captions(session.captionFacts(QStringLiteral("#c62828")));
    QVERIFY2(
        captions.header.contains(QStringLiteral("Kluster demo · cloud sim")), qPrintable(captions.header));
    QVERIFY2(captions.findings.contains(QStringLiteral("critical")), qPrintable(captions.findings));
}

// A real Alertmanager (Debian's prometheus-alertmanager, installed by scripts/setup) on a free port of
// 127.0.0.1 with alerts for two klusters: each kluster gets its own, matched to its findings, counted in the
// sidebar; the settings keep where the Alertmanager is; one that cannot be reached is one line and the
// findings stand.
void TestConsoleSession::alertsBesideTheFindings()
{
    RealAlertmanager alertmanager;
    QVERIFY2(alertmanager.start(), "prometheus-alertmanager is not installed (scripts/setup installs it)");
    const QString url = alertmanager.url;
    QTRY_VERIFY_WITH_TIMEOUT(
        m_fixture->request("GET", url + QStringLiteral("/-/ready")).status == 200, 30000);
    const QString now = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    const Reply posted = m_fixture->request("POST", url + QStringLiteral("/api/v2/alerts"),
        QStringLiteral(R"([{"labels": {"alertname": "FlightdeckCriticalFinding", "kluster_name": "demo",
            "kind": "instance-unregistered", "severity": "critical"}, "startsAt": "%1"},
          {"labels": {"alertname": "KubeAPIErrorsHigh", "kluster_name": "demo"}, "startsAt": "%1"},
          {"labels": {"alertname": "FlightdeckCriticalFinding", "kluster_name": "blue",
            "kind": "instance-stopped", "severity": "critical"}, "startsAt": "%1"}])")
            .arg(now)
            .toUtf8());
    QCOMPARE(posted.status, 200);

    ConsoleSession session;
    ConsoleModels models(&session);
    ConnectionSpec spec = simSpec();
    spec.alertmanager.url = QUrl(url);
    QSignalSpy alertsChanged(session.alerts(), &AlertWatch::changed);
    session.registry()->add(spec, true);
    QVERIFY(waitSettled(session));
    const KlusterKey demo { QStringLiteral("sim"), QStringLiteral("demo") };
    const KlusterKey blue { QStringLiteral("sim"), QStringLiteral("blue") };
    QTRY_VERIFY_WITH_TIMEOUT(session.alerts()->readAt(QStringLiteral("sim")).isValid(), 30000);
    const KlusterAlerts demoAlerts = session.alerts()->alertsOf(demo, *session.store()->data(demo));
    QVERIFY(demoAlerts.configured && demoAlerts.known);
    QCOMPARE(demoAlerts.alerts.size(), 2);
    for (const Alert &a : demoAlerts.alerts)
        QCOMPARE(a.labels.value(QStringLiteral("kluster_name")), QStringLiteral("demo"));
    const Alert &critical = demoAlerts.alerts.at(0).name() == QLatin1String("FlightdeckCriticalFinding")
        ? demoAlerts.alerts.at(0)
        : demoAlerts.alerts.at(1);
    QVERIFY(!critical.findings.isEmpty());
    for (const QString &id : critical.findings)
        QVERIFY2(id.startsWith(QStringLiteral("instance-unregistered:")), qPrintable(id));
    QCOMPARE(Alerts::unexplainedCount(demoAlerts.alerts), 1);
    const KlusterAlerts blueAlerts = session.alerts()->alertsOf(blue, *session.store()->data(blue));
    QCOMPARE(blueAlerts.alerts.size(), 1);
    QVERIFY(blueAlerts.alerts.first().findings.first().startsWith(QStringLiteral("instance-stopped:")));
    // The sidebar's count, once a connection names an Alertmanager.
    KlustersModel *model = models.klusters();
    QVERIFY(model->alertsConfigured());
    QTRY_COMPARE(
        model->index(model->rowOf(QStringLiteral("sim"), QStringLiteral("demo")), KlustersModel::AlertsColumn)
            .data()
            .toString(),
        QStringLiteral("2"));
    QCOMPARE(
        model->index(model->rowOf(QStringLiteral("sim"), QStringLiteral("edge")), KlustersModel::AlertsColumn)
            .data()
            .toString(),
        QString());
    // What the Overview says of them.
    const ConsoleText::AlertsText text
        = ConsoleText::alertsText(demoAlerts, *session.store()->data(demo)->diagnosis,
            session.alerts()->readAt(QStringLiteral("sim")), QDateTime::currentDateTimeUtc());
    QCOMPARE(text.heading, QStringLiteral("Alerts: 2 in Alertmanager, 1 that no finding explains"));
    QCOMPARE(text.rows.size(), 2);
    QVERIFY(text.gap.contains(QStringLiteral("no alert covers")));
    // Remembered: where the Alertmanager is, never a secret.
    QCOMPARE(QSettings().value(QStringLiteral("connections/1/alertmanagerUrl")).toString(), url);

    // One that cannot be reached: one line, the last alerts kept, the findings as they were.
    const int findings = int(session.store()->data(demo)->diagnosis->findings.size());
    alertmanager.stop();
    session.alerts()->refresh(QStringLiteral("sim"));
    QTRY_VERIFY_WITH_TIMEOUT(!session.alerts()->error(QStringLiteral("sim")).isEmpty(), 30000);
    QVERIFY2(session.alerts()->error(QStringLiteral("sim")).startsWith(QStringLiteral("Alertmanager ") + url),
        qPrintable(session.alerts()->error(QStringLiteral("sim"))));
    QVERIFY(!session.alerts()->error(QStringLiteral("sim")).contains(QLatin1Char('\n')));
    const KlusterAlerts stale = session.alerts()->alertsOf(demo, *session.store()->data(demo));
    QCOMPARE(stale.alerts.size(), 2);
    QVERIFY(ConsoleText::alertsText(stale, *session.store()->data(demo)->diagnosis,
        session.alerts()->readAt(QStringLiteral("sim")), QDateTime::currentDateTimeUtc())
                .problem.startsWith(QStringLiteral("The last read failed")));
    QCOMPARE(int(session.store()->data(demo)->diagnosis->findings.size()), findings);
    QVERIFY(!alertsChanged.isEmpty());
}

// Stop pressed as the repair is asked for (the dialog's Stop while its silences are made, or before the
// session is signed in): the cancel is kept for the run, which ends each step cancelled; nothing is sent.
void TestConsoleSession::stopBeforeTheRepairStartsSendsNothing()
{
    ConsoleSession session;
    session.registry()->add(simSpec(), false);
    QVERIFY(waitSettled(session));
    const KlusterKey demo { QStringLiteral("sim"), QStringLiteral("demo") };
    Connection *connection = session.registry()->connection(demo.connection);
    const KlusterData *shown = session.store()->data(demo);
    const QString id = QStringLiteral("security-group-rule-missing:tcp");
    QString error;
    const qsizetype records = AuditLog::read(&error).size();
    QSignalSpy finished(connection, &Connection::repairFinished);
    QSignalSpy steps(connection, &Connection::repairStepFinished);
    connection->repair(std::make_shared<const RepairProposal>(demo.kluster, shown->fetch, shown->diagnosis,
                           RepairChoice { { id }, {}, false, false }),
        false);
    connection->cancelRepair();
    QVERIFY(finished.wait(60000));
    QCOMPARE(steps.size(), 1);
    const auto outcome = steps.first().at(1).value<RepairExecutor::Outcome>();
    QCOMPARE(outcome.result, RepairExecutor::Outcome::Result::Refused);
    QVERIFY2(outcome.message.contains(QStringLiteral("cancelled")), qPrintable(outcome.message));
    QVERIFY(outcome.requests.isEmpty());
    QCOMPARE(AuditLog::read(&error).size(), records); // nothing was about to be sent
}

// The kluster's repair Events read back: a repair's two Events, then the API server refusing (403), a proxy's
// HTML page and a truncated answer: each is one line naming what failed, and the repairs read last stay.
void TestConsoleSession::teamRepairsKeptWhenEventsCannotBeRead()
{
    ConsoleSession session;
    session.registry()->add(simSpec(), false);
    QVERIFY(waitSettled(session));
    const KlusterKey demo { QStringLiteral("sim"), QStringLiteral("demo") };
    Connection *connection = session.registry()->connection(demo.connection);
    QSignalSpy repaired(connection, &Connection::repairFinished);
    const KlusterData *shown = session.store()->data(demo);
    connection->repair(
        std::make_shared<const RepairProposal>(demo.kluster, shown->fetch, shown->diagnosis,
            RepairChoice { { QStringLiteral("security-group-rule-missing:tcp") }, {}, false, false }),
        false);
    QVERIFY(repaired.wait(60000));
    QSignalSpy changed(session.team(), &TeamRepairs::changed);
    const auto readAgain = [&] {
        changed.clear();
        session.team()->read(demo);
        return changed.wait(15000);
    };
    QVERIFY(readAgain());
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QCOMPARE(session.team()->recent(demo, now).size(), 1);
    QCOMPARE(session.team()->recent(demo, now).first().phase, RepairEventPhase::Verified);
    QVERIFY(session.team()->seen(demo)->error.isEmpty());
    const QDateTime readAt = session.team()->seen(demo)->readAt;

    for (const FaultRule::Kind kind :
        { FaultRule::Kind::Status, FaultRule::Kind::Html, FaultRule::Kind::Truncated }) {
        FaultRule rule;
        rule.service = QStringLiteral("kubernetes");
        rule.path = QRegularExpression(QStringLiteral("^/apis/events\\.k8s\\.io/"));
        rule.kind = kind;
        rule.status = 403;
        m_fixture->sim.faults().clear();
        m_fixture->sim.faults().add(rule);
        QVERIFY(readAgain());
        const TeamRepairs::Seen *seen = session.team()->seen(demo);
        QVERIFY2(!seen->error.isEmpty(), qPrintable(FaultRule::kindName(kind)));
        if (kind == FaultRule::Kind::Status)
            QVERIFY2(seen->error.contains(QStringLiteral("403")), qPrintable(seen->error));
        QCOMPARE(seen->events.size(), 2); // the last good read stays
        QCOMPARE(seen->readAt, readAt);
    }
    m_fixture->sim.faults().clear();
    QVERIFY(readAgain());
    QVERIFY(session.team()->seen(demo)->error.isEmpty());
}

void TestConsoleSession::pacedWorkYieldsBetweenTurnsInOrder()
{
    // Fifty pieces of 3 ms each (busy, as the window's work is) within an 8 ms budget: a turn of the event
    // loop does some, never all, and the rest follow in order in later turns.
    PacedWork work(8);
    QList<int> done;
    for (int i = 0; i < 50; ++i) {
        work.post(i % 2 ? QStringLiteral("a") : QStringLiteral("b"), [&done, i] {
            QElapsedTimer busy;
            busy.start();
            while (busy.elapsed() < 3) { }
            done << i;
        });
    }
    QCOMPARE(work.waiting(), 50);
    QVERIFY(done.isEmpty()); // posted: nothing done before the loop turns
    QCoreApplication::sendPostedEvents(&work, QEvent::MetaCall);
    QVERIFY2(!done.isEmpty() && done.size() < 50, qPrintable(QString::number(done.size())));
    QTRY_COMPARE(done.size(), 50);
    for (int i = 0; i < 50; ++i)
        QCOMPARE(done.at(i), i);

    // A connection removed takes its waiting work with it; a piece posted while its turn is under way is done
    // in that turn or the next, and a turn that finds nothing left does nothing.
    done.clear();
    for (int i = 0; i < 6; ++i)
        work.post(i % 2 ? QStringLiteral("gone") : QStringLiteral("kept"), [&done, i] { done << i; });
    work.post(QStringLiteral("kept"), [&] { work.post(QStringLiteral("kept"), [&done] { done << 100; }); });
    work.drop(QStringLiteral("gone"));
    QCOMPARE(work.waiting(), 4);
    QTRY_COMPARE(done, QList<int>({ 0, 2, 4, 100 }));
    QCoreApplication::sendPostedEvents(&work, QEvent::MetaCall);
    QCOMPARE(work.waiting(), 0);
}

void TestConsoleSession::refreshAskedWhileItsLastResultWaits()
{
    // A result waits its turn on the window's thread; a refresh of the same kluster asked for meanwhile is
    // under way, and the round is not settled until its own result is applied.
    ConsoleSession session;
    session.registry()->add(simSpec(), false);
    QVERIFY(waitSettled(session));
    Connection *connection = session.registry()->connection(QStringLiteral("sim"));
    QVERIFY(connection);
    const KlusterKey key { QStringLiteral("sim"), QStringLiteral("demo") };
    bool askedAgain = false;
    QObject::connect(connection, &Connection::refreshed, &session, [&](const RefreshResult &r) {
        if (r.key == key && !askedAgain) {
            askedAgain = true; // its result is posted, not applied yet
            session.refreshes()->refresh(key);
        }
    });
    QSignalSpy applied(session.refreshes(), &RefreshCoordinator::refreshed);
    session.refreshes()->refresh(key);
    QVERIFY(applied.wait(30000));
    QVERIFY(askedAgain);
    QCOMPARE(session.refreshes()->pending(), 1); // the second is still under way
    QVERIFY(!session.refreshes()->isSettled());
    QTRY_COMPARE_WITH_TIMEOUT(applied.size(), 2, 30000);
    QTRY_COMPARE(session.refreshes()->pending(), 0);
}

// A listing of 2,500 klusters goes into the kluster list 500 a turn of the event loop, from the turn after
// the listing's own, the window answering between slices; a kluster's data that came while it waited goes in
// with its slice; nothing is lost.
void TestConsoleSession::aListingOfThousandsGoesInASliceATurn()
{
    ConsoleSession session;
    ConsoleModels models(&session);
    ConnectionSpec spec;
    spec.name = QStringLiteral("team");
    spec.prometheus.url
        = QUrl(QStringLiteral("http://127.0.0.1:9")); // refused: its own listing fails at once
    spec.readOnly = true;
    session.registry()->add(spec, false);
    QTRY_VERIFY(!session.store()->isListing(QStringLiteral("team")));
    QStringList names;
    for (int i = 0; i < 2500; ++i)
        names << QStringLiteral("k%1").arg(i, 4, 10, QLatin1Char('0'));
    const auto rows = [&models] {
        int n = 0;
        for (int r = 0; r < models.klusters()->rowCount(); ++r)
            n += models.klusters()->index(r, 0).data(KlustersModel::KlusterRole).toString().isEmpty() ? 0 : 1;
        return n;
    };
    session.store()->setListed(QStringLiteral("team"), names, Error());
    QCOMPARE(rows(), 0); // the first slice in the next turn
    // The last kluster's data comes before its slice.
    auto exported = std::make_shared<ExportedFleet::Kluster>();
    exported->name = QStringLiteral("k2499");
    exported->present = exported->up = true;
    exported->reading = Reading::Fresh;
    exported->standing.worst = Severity::Critical;
    exported->standing.critical = 3;
    session.store()->setExported(
        { QStringLiteral("team"), QStringLiteral("k2499") }, exported, QDateTime::currentDateTimeUtc());
    QCOMPARE(
        models.klusters()->rowOf(QStringLiteral("team"), QStringLiteral("k2499")), -1); // waits its slice
    int turns = 0;
    while (rows() < 2500 && turns < 10) {
        QCoreApplication::sendPostedEvents(); // one pass over what is posted: one slice
        ++turns;
        QCOMPARE(rows(), qMin(2500, 500 * turns));
    }
    QCOMPARE(rows(), 2500);
    QCOMPARE(turns, 5);
    const int row = models.klusters()->rowOf(QStringLiteral("team"), QStringLiteral("k2499"));
    QCOMPARE(models.klusters()->index(row, 0).data(KlustersModel::CriticalCountRole).toInt(), 3);
}

QTEST_GUILESS_MAIN(TestConsoleSession)
#include "tst_consolesession.moc"
