// The console's Prometheus connection against the real Prometheus (Debian's 2.42): three `flightdeck-cli
// serve` exporters of the simulated cloud (two shards, 0/2 and 1/2, and an unsharded twin of both: an HA pair
// for every kluster) scraped every second; the console (its session and models, no window) lists the demo's
// klusters once each, with the counts and worst cause the exporters give; stopping the twin and one shard
// leaves that shard's klusters stale, said so, and the other's fresh.
#include "console/connectionregistry.h"
#include "console/consolesession.h"
#include "console/consoletext.h"
#include "console/exportedreports.h"
#include "console/klusterstore.h"
#include "console/refreshcoordinator.h"
#include "core/shard.h"
#include "models/consolemodels.h"
#include "models/klustersmodel.h"
#include "services/connection.h"
#include "services/http/endpointhealth.h"
#include "services/settings.h"
#include "tests/app/clifixture.h"
#include "tests/common/realprometheus.h"
#include "tests/simulator/simcloud.h"
#include "views/connectiondialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <csignal>

static QStringList words(std::initializer_list<const char *> list)
{
    QStringList out;
    for (const char *w : list)
        out << QString::fromUtf8(w);
    return out;
}

class TestConsolePrometheus : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void klustersOnceWithTheirCounts();
    void anExportersReportReadOnly();
    void addedByKeyboardInTheConnectionDialog();
    void anHtmlErrorPageIsSaidAndListsNothing();
    void aStoppedShardIsStaleAndSaysSo();

private:
    // Starts `serve` with `extra`; its base URL once its first round is done (empty: it did not come).
    QString startServe(QProcess &serve, const QStringList &extra);
    // The console's rows, once its Prometheus connection has listed `count` klusters and every refresh is
    // back.
    [[nodiscard]] static bool waitListed(ConsoleSession &session, int count);
    // The kluster's report as the console reads it from its exporter, once the answer is in (null: none).
    [[nodiscard]] static const ExportedReports::Entry *readReport(
        ConsoleSession &session, const QString &kluster);
    // The value of flightdeck_causes for a kluster and severity in an exposition.
    static int causes(const QByteArray &metrics, const QString &kluster, const char *severity);
    ConnectionSpec spec() const
    {
        ConnectionSpec s;
        s.name = QStringLiteral("team");
        s.prometheus.url = QUrl(m_prometheus.url);
        s.readOnly = true;
        s.watchNodes = false;
        return s;
    }

    std::unique_ptr<CliFixture> m_cli;
    QProcess m_shard0;
    QProcess m_shard1;
    QProcess m_twin;
    QString m_twinUrl;
    QStringList m_shard0Klusters;
    RealPrometheus m_prometheus;
};

QString TestConsolePrometheus::startServe(QProcess &serve, const QStringList &extra)
{
    m_cli->start(serve,
        QStringList { QStringLiteral("serve"), QStringLiteral("--cloud"), QStringLiteral("sim"),
            QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"), QStringLiteral("--refresh"),
            QStringLiteral("5m") }
            + extra);
    QString log;
    QElapsedTimer waited;
    waited.start();
    while (waited.elapsed() < 90000 && !log.contains(QStringLiteral("first round done"))) {
        QTest::qWait(50);
        log += QString::fromUtf8(serve.readAllStandardError());
        if (serve.state() == QProcess::NotRunning)
            break;
    }
    static const QRegularExpression serving(QStringLiteral("serving http://([0-9.:]+)/metrics"));
    return log.contains(QStringLiteral("first round done")) ? serving.match(log).captured(1) : QString();
}

bool TestConsolePrometheus::waitListed(ConsoleSession &session, int count)
{
    QElapsedTimer waited;
    waited.start();
    while (waited.elapsed() < 60000) {
        if (session.store()->klusters(QStringLiteral("team")).size() == count
            && session.store()->pending() == 0 && session.refreshes()->isSettled())
            return true;
        QTest::qWait(100);
    }
    return false;
}

const ExportedReports::Entry *TestConsolePrometheus::readReport(
    ConsoleSession &session, const QString &kluster)
{
    const KlusterKey key { QStringLiteral("team"), kluster };
    const KlusterData *d = session.store()->data(key);
    if (!d || !d->exported)
        return nullptr;
    (void)session.exportedReports()->want(key, d->fetchedAt);
    QElapsedTimer waited;
    waited.start();
    while (session.exportedReports()->entry(key)->pending && waited.elapsed() < 30000)
        QTest::qWait(20); // (looked up again: the store's table may have moved its entries meanwhile)
    const ExportedReports::Entry *e = session.exportedReports()->entry(key);
    return e->pending ? nullptr : e;
}

int TestConsolePrometheus::causes(const QByteArray &metrics, const QString &kluster, const char *severity)
{
    const QRegularExpression line(
        QStringLiteral(
            "^flightdeck_causes\\{kluster_name=\"%1\",project_id=\"[^\"]*\",severity=\"%2\"\\} (\\d+)$")
            .arg(QRegularExpression::escape(kluster), QLatin1String(severity)),
        QRegularExpression::MultilineOption);
    const QRegularExpressionMatch m = line.match(QString::fromUtf8(metrics));
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

void TestConsolePrometheus::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    QVERIFY2(!RealPrometheus::binary().isEmpty(), "prometheus is not installed (scripts/setup installs it)");
    m_cli = std::make_unique<CliFixture>();
    const QString a = startServe(m_shard0, { QStringLiteral("--shard"), QStringLiteral("0/2") });
    const QString b = startServe(m_shard1, { QStringLiteral("--shard"), QStringLiteral("1/2") });
    m_twinUrl = startServe(m_twin, {});
    QVERIFY2(!a.isEmpty() && !b.isEmpty() && !m_twinUrl.isEmpty(), "serve did not start");
    QVERIFY(m_prometheus.start({ a, b, m_twinUrl }));
    // Every exporter scraped at least once.
    QTRY_VERIFY_WITH_TIMEOUT(
        m_cli->sim
            .request(
                "GET", m_prometheus.url + QStringLiteral("/api/v1/query?query=count(flightdeck_build_info)"))
            .body.contains("\"3\""),
        30000);
    for (const QString &k : words({ "blue", "demo", "edge", "gone", "green", "legacy", "retired" })) {
        // Which shard serves it: the one exporter of the two whose exposition has it.
        const QByteArray metrics = m_cli->sim.request("GET", QStringLiteral("http://%1/metrics").arg(a)).body;
        if (metrics.contains(QStringLiteral("flightdeck_up{kluster_name=\"%1\"").arg(k).toUtf8()))
            m_shard0Klusters << k;
    }
    QVERIFY2(
        !m_shard0Klusters.isEmpty() && m_shard0Klusters.size() < 7, qPrintable(m_shard0Klusters.join(',')));
}

void TestConsolePrometheus::cleanupTestCase()
{
    for (QProcess *p : { &m_shard0, &m_shard1, &m_twin }) {
        if (p->state() != QProcess::NotRunning) {
            ::kill(pid_t(p->processId()), SIGTERM);
            p->waitForFinished(15000);
        }
    }
    m_prometheus.stop();
    m_cli.reset();
}

void TestConsolePrometheus::klustersOnceWithTheirCounts()
{
    EndpointHealth::shared().reset();
    ConsoleSession session;
    ConsoleModels models(&session);
    session.registry()->add(spec(), false);
    QVERIFY(waitListed(session, 7));
    QVERIFY(session.registry()->connection(QStringLiteral("team"))->isReadOnly());

    QStringList names = session.store()->klusters(QStringLiteral("team"));
    names.sort();
    QCOMPARE(names, words({ "blue", "demo", "edge", "gone", "green", "legacy", "retired" }));
    // The counts the exporters give, in the kluster list (as the Fleet and the sidebar read them).
    const QByteArray metrics
        = m_cli->sim.request("GET", QStringLiteral("http://%1/metrics").arg(m_twinUrl)).body;
    const KlustersModel *list = models.klusters();
    for (const QString &k : std::as_const(names)) {
        const int row = list->rowOf(QStringLiteral("team"), k);
        QVERIFY2(row >= 0, qPrintable(k));
        const QModelIndex index = list->index(row, 0);
        QCOMPARE(list->data(index, KlustersModel::CriticalCountRole).toInt(), causes(metrics, k, "critical"));
        QCOMPARE(list->data(index, KlustersModel::WarningCountRole).toInt(), causes(metrics, k, "warning"));
        QCOMPARE(list->data(index, KlustersModel::StateRole).toInt(), int(KlustersModel::State::Fresh));
        const KlusterData *d = session.store()->data({ QStringLiteral("team"), k });
        QVERIFY(d && d->exported && !d->fetch);
        QCOMPARE(d->exported->exporters, 2); // its shard's exporter and the twin: shown once
        if (d->exported->standing.worst)
            QVERIFY2(!list->data(index, KlustersModel::ReasonRole).toString().isEmpty(), qPrintable(k));
    }
    // legacy's worst cause, as the one ranking names it, and its header says where it came from.
    const int legacy = list->rowOf(QStringLiteral("team"), QStringLiteral("legacy"));
    QCOMPARE(list->data(list->index(legacy, 0), KlustersModel::ReasonRole).toString(),
        QStringLiteral("pod CIDR recycled"));
    session.setCurrent({ QStringLiteral("team"), QStringLiteral("legacy") });
    const ConsoleText::Captions captions
        = ConsoleText::captions(session.captionFacts(QStringLiteral("#c00")));
    QVERIFY2(captions.header.contains(QStringLiteral("read-only, from Prometheus ") + m_prometheus.url),
        qPrintable(captions.header));
    QVERIFY2(captions.header.contains(QStringLiteral("pod CIDR recycled")), qPrintable(captions.header));
    QVERIFY2(!captions.header.contains(QStringLiteral("STALE")), qPrintable(captions.header));
    QVERIFY2(captions.header.contains(QStringLiteral("/klusters/legacy?project_id=")),
        qPrintable(captions.header));

    // With a connection to its cloud too: the header opens it there, live.
    ConnectionSpec cloud;
    cloud.name = QStringLiteral("sim");
    cloud.config = simCloud(m_cli->sim.sim, QString::fromLatin1(CliFixture::Password));
    cloud.watchNodes = false;
    session.registry()->add(cloud, false);
    QTRY_VERIFY_WITH_TIMEOUT(session.store()->data({ QStringLiteral("sim"), QStringLiteral("legacy") })
            && session.store()->data({ QStringLiteral("sim"), QStringLiteral("legacy") })->fetch,
        60000);
    QCOMPARE(session.liveTwin({ QStringLiteral("team"), QStringLiteral("legacy") }),
        (KlusterKey { QStringLiteral("sim"), QStringLiteral("legacy") }));
    const QString live = ConsoleText::captions(session.captionFacts(QStringLiteral("#c00"))).header;
    QVERIFY2(live.contains(QStringLiteral("<a href=\"sim/legacy\">open sim/legacy</a>")), qPrintable(live));
}

// Opening a kluster with no connection to its cloud: its exporter's report, found through Prometheus'
// targets, read once a round, shown read-only with the findings the exporter itself serves.
void TestConsolePrometheus::anExportersReportReadOnly()
{
    EndpointHealth::shared().reset();
    ConsoleSession session;
    ConsoleModels models(&session);
    session.registry()->add(spec(), false);
    QVERIFY(waitListed(session, 7));
    const KlusterKey legacy { QStringLiteral("team"), QStringLiteral("legacy") };
    session.setCurrent(legacy);
    QSignalSpy changed(session.exportedReports(), &ExportedReports::changed);
    const ExportedReports::Entry *e = readReport(session, legacy.kluster);
    QVERIFY(e);
    QVERIFY2(!e->error.isError(), qPrintable(e->error.toString()));
    QVERIFY(e->report);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(e->report->kluster, legacy.kluster);
    // The findings the exporter serves, each one, in its order.
    const KlusterData *d = session.store()->data(legacy);
    QVERIFY2(e->url.contains(QStringLiteral("/klusters/legacy?project_id=") + d->exported->projectId),
        qPrintable(e->url));
    const auto served = m_cli->sim.request("GET", e->url);
    QCOMPARE(served.status, 200);
    const QJsonArray findings
        = QJsonDocument::fromJson(served.body).object().value(QStringLiteral("findings")).toArray();
    QVERIFY(!findings.isEmpty());
    QCOMPARE(e->report->findings.size(), findings.size());
    for (qsizetype i = 0; i < findings.size(); ++i)
        QCOMPARE(
            e->report->findings.at(i).id, findings.at(i).toObject().value(QStringLiteral("id")).toString());
    const QJsonObject summary
        = QJsonDocument::fromJson(served.body).object().value(QStringLiteral("summary")).toObject();
    QCOMPARE(e->report->critical, summary.value(QStringLiteral("critical")).toInt());
    QCOMPARE(e->report->warning, summary.value(QStringLiteral("warning")).toInt());
    QVERIFY(!e->report->incidents.isEmpty()); // legacy's recycled pod CIDR
    // Said read-only, where it came from, with every finding (and its plan, never sent from here).
    ConsoleText::CaptionFacts facts = session.captionFacts(QStringLiteral("#c00"));
    facts.exportedReport = e;
    const ConsoleText::Captions c = ConsoleText::captions(facts);
    QString shown = c.exportedReport;
    shown.remove(QChar(0x200B)); // the break opportunities in long words
    QVERIFY2(c.exportedReport.contains(QStringLiteral("read-only")), qPrintable(c.exportedReport));
    QVERIFY2(shown.contains(e->report->findings.first().id.toHtmlEscaped()), qPrintable(c.exportedReport));
    QVERIFY2(shown.contains(QStringLiteral("recycled-pod-cidr")), qPrintable(c.exportedReport));
    QVERIFY2(!c.exportedReport.contains(QStringLiteral("STALE")), qPrintable(c.exportedReport));
    QVERIFY2(c.findings.contains(QStringLiteral("below is its exporter's report, read-only")),
        qPrintable(c.findings));
    // Asked again for the same round: nothing sent, nothing changed.
    QVERIFY(!session.exportedReports()->want(legacy, d->fetchedAt).pending);
    QTest::qWait(100);
    QCOMPARE(changed.count(), 1);
}

// File → Add connection, by keyboard: the Prometheus chosen as the source hides a cloud's rows and forces
// read-only; Enter tests it (the klusters listed) and adds it, remembered without a secret.
void TestConsolePrometheus::addedByKeyboardInTheConnectionDialog()
{
    EndpointHealth::shared().reset();
    ConsoleSession session;
    ConsoleModels models(&session);
    ConnectionDialog dialog({});
    dialog.setTester([&session](const ConnectionSpec &s, QObject *context, ConnectionDialog::TestDone done) {
        session.registry()->test(s, context, done);
    });
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    dialog.sourceBox()->setFocus();
    QTest::keyClick(dialog.sourceBox(), Qt::Key_End); // the last source: the team's Prometheus
    QVERIFY(dialog.isPrometheus());
    QVERIFY(dialog.prometheusBox()->isVisible());
    QVERIFY(!dialog.secretBox()->isVisible());
    QVERIFY(!dialog.authUrlBox()->isVisible());
    QCOMPARE(dialog.nameBox()->text(), QStringLiteral("prometheus"));
    const QList<QCheckBox *> boxes = dialog.findChildren<QCheckBox *>();
    QVERIFY(std::any_of(boxes.cbegin(), boxes.cend(), [](const QCheckBox *b) {
        return b->text().contains(QStringLiteral("Read-only")) && b->isChecked() && !b->isEnabled();
    }));
    // A URL that is none: said before anything is tried.
    QTest::keyClicks(dialog.prometheusBox(), QStringLiteral("prometheus:9090"));
    QTest::keyClick(dialog.prometheusBox(), Qt::Key_Return);
    QVERIFY2(dialog.messageLabel()->text().startsWith(QStringLiteral("Prometheus URL:")),
        qPrintable(dialog.messageLabel()->text()));
    dialog.prometheusBox()->clear();
    QTest::keyClicks(dialog.prometheusBox(), m_prometheus.url);
    QSignalSpy tested(&dialog, &ConnectionDialog::tested);
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    QTest::keyClick(dialog.prometheusBox(), Qt::Key_Return);
    QVERIFY(tested.wait(30000));
    QVERIFY2(tested.first().at(0).toBool(), qPrintable(tested.first().at(1).toString()));
    QVERIFY2(tested.first().at(1).toString().startsWith(QStringLiteral("Prometheus answered; 7 kluster(s)")),
        qPrintable(tested.first().at(1).toString()));
    const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR");
    if (!shots.isEmpty())
        QVERIFY(dialog.grab().save(shots + QStringLiteral("/connection-prometheus.png")));
    QTRY_COMPARE(accepted.size(), 1);
    const ConnectionSpec entered = dialog.spec();
    QVERIFY(entered.isPrometheus());
    QVERIFY(entered.readOnly);
    QVERIFY(!entered.config);
    session.registry()->addEntered(entered, dialog.secret());
    QTRY_COMPARE_WITH_TIMEOUT(session.store()->klusters(QStringLiteral("prometheus")).size(), 7, 30000);
    // Remembered: where the Prometheus is, read back as a Prometheus connection.
    const QList<ConnectionSpec> remembered = Settings::connections();
    QCOMPARE(remembered.size(), 1);
    QVERIFY(remembered.first().isPrometheus());
    QCOMPARE(remembered.first().prometheus.displayUrl(), m_prometheus.url);
    session.registry()->remove(QStringLiteral("prometheus"));
}

// A proxy in front of Prometheus that answers with its own HTML error page: the listing fails, saying which
// Prometheus, which query and what came back; nothing is listed, and the connection's status is typed Failed.
void TestConsolePrometheus::anHtmlErrorPageIsSaidAndListsNothing()
{
    QTcpServer proxy;
    QVERIFY(proxy.listen(QHostAddress::LocalHost));
    connect(&proxy, &QTcpServer::newConnection, &proxy, [&proxy] {
        while (QTcpSocket *socket = proxy.nextPendingConnection()) {
            connect(socket, &QTcpSocket::readyRead, socket, [socket] {
                socket->readAll();
                const QByteArray page
                    = "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>";
                socket->write("HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/html\r\nContent-Length: "
                    + QByteArray::number(page.size()) + "\r\nConnection: close\r\n\r\n" + page);
                socket->disconnectFromHost();
            });
        }
    });
    EndpointHealth::shared().reset();
    ConsoleSession session;
    ConsoleModels models(&session);
    ConnectionSpec s = spec();
    s.name = QStringLiteral("behind-a-proxy");
    s.prometheus.url = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(proxy.serverPort()));
    session.registry()->add(s, false);
    QTRY_COMPARE_WITH_TIMEOUT(
        session.registry()->status(s.name).state, ConnectionStatus::State::Failed, 60000);
    const QString error = session.registry()->status(s.name).error.toString();
    QVERIFY2(error.contains(QStringLiteral("Prometheus ") + s.prometheus.url.toString()), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("the query")), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("502")), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("an HTML page")), qPrintable(error));
    QVERIFY(session.store()->klusters(s.name).isEmpty());
}

void TestConsolePrometheus::aStoppedShardIsStaleAndSaysSo()
{
    EndpointHealth::shared().reset();
    ConsoleSession session;
    ConsoleModels models(&session);
    session.registry()->add(spec(), false);
    QVERIFY(waitListed(session, 7));
    const QString held = m_shard0Klusters.first();
    session.setCurrent({ QStringLiteral("team"), held });
    const ExportedReports::Entry *before = readReport(session, held);
    QVERIFY(before && before->report && !before->error.isError());
    // Shard 0 and the twin stop: shard 0's klusters have no exporter scraped now.
    for (QProcess *p : { &m_shard0, &m_twin }) {
        ::kill(pid_t(p->processId()), SIGTERM);
        QVERIFY(p->waitForFinished(15000));
    }
    QTRY_VERIFY_WITH_TIMEOUT(
        m_cli->sim.request("GET", m_prometheus.url + QStringLiteral("/api/v1/query?query=count(up==0)"))
            .body.contains("\"2\""),
        30000);
    session.refreshes()->refreshAll();
    QTRY_VERIFY_WITH_TIMEOUT(session.refreshes()->isSettled() && session.store()->pending() == 0, 30000);
    QTest::qWait(200); // the results applied a few per turn
    const KlustersModel *list = models.klusters();
    for (const QString &k : session.store()->klusters(QStringLiteral("team"))) {
        const int row = list->rowOf(QStringLiteral("team"), k);
        const QModelIndex index = list->index(row, 0);
        const bool stopped = m_shard0Klusters.contains(k);
        QCOMPARE(list->data(index, KlustersModel::StateRole).toInt(),
            int(stopped ? KlustersModel::State::Stale : KlustersModel::State::Fresh));
        const QString error = list->data(index, KlustersModel::ErrorRole).toString();
        QVERIFY2(
            stopped == error.contains(QStringLiteral("is not scraped now")), qPrintable(k + ": " + error));
    }
    ConsoleText::CaptionFacts facts = session.captionFacts(QStringLiteral("#c00"));
    // The report read before is kept, and said stale.
    facts.exportedReport = readReport(session, held);
    QVERIFY(facts.exportedReport && facts.exportedReport->report);
    const ConsoleText::Captions captions = ConsoleText::captions(facts);
    QVERIFY2(captions.header.contains(QStringLiteral("STALE: its exporter is not scraped now")),
        qPrintable(captions.header));
    QVERIFY2(captions.exportedReport.contains(QStringLiteral("STALE")), qPrintable(captions.exportedReport));
    // A console that had not read it: why it cannot be, naming the exporter's URL; no report made up.
    ConsoleSession fresh;
    fresh.registry()->add(spec(), false);
    QVERIFY(waitListed(fresh, 7));
    const ExportedReports::Entry *none = readReport(fresh, held);
    QVERIFY(none);
    QVERIFY(!none->report);
    QVERIFY2(none->error.toString().contains(QStringLiteral("/klusters/%1").arg(held)),
        qPrintable(none->error.toString()));
    fresh.setCurrent({ QStringLiteral("team"), held });
    ConsoleText::CaptionFacts freshFacts = fresh.captionFacts(QStringLiteral("#c00"));
    freshFacts.exportedReport = none;
    const QString said = ConsoleText::captions(freshFacts).exportedReport;
    QVERIFY2(said.contains(QStringLiteral("could not be read")), qPrintable(said));
}

QTEST_MAIN(TestConsolePrometheus)
#include "tst_console_prometheus.moc"
