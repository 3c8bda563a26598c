// The console with credentials that may not do everything (diagnosis.md §8), by keyboard: the header says
// who reads and with which roles; as `reader`, Ctrl+R on a finding opens the guide for someone who may, never
// a confirmation doomed to a 403; Copy as Markdown holds the commands and records the hand-off; once a
// member has repaired it from the command line, Verify records "repaired by someone else, verified".
#include "core/permission.h"
#include "services/history/historystore.h"
#include "services/http/endpointhealth.h"
#include "services/repair/auditlog.h"
#include "simulator/kubeevents.h"
#include "tests/simulator/simfixture.h"
#include "tests/views/consolefixture.h"
#include "views/findingspage.h"
#include "views/guidedrepairdialog.h"
#include "views/mainwindow.h"

#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

using ConsoleTest::press;
using ConsoleTest::waitSettled;

class TestConsolePermissions : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void readerGetsTheGuideByKeyboard();
    void memberGetsTheConfirmationWithEachStepMarked();

private:
    bool start(const QString &user);
    int cliAs(const QString &user, const QStringList &args, QString *out);

    std::unique_ptr<SimFixture> m_fixture;
    std::unique_ptr<MainWindow> m_window;
    QDialog *m_dialog = nullptr;
};

void TestConsolePermissions::init()
{
    EndpointHealth::shared().reset();
    QFile::remove(AuditLog::path());
    QSettings().clear();
    for (const char *suffix : { "", "-wal", "-shm" })
        QFile::remove(HistoryStore::defaultPath() + QLatin1String(suffix));
    m_fixture = std::make_unique<SimFixture>();
    m_dialog = nullptr;
}

void TestConsolePermissions::cleanup()
{
    m_window.reset();
    m_fixture.reset();
}

bool TestConsolePermissions::start(const QString &user)
{
    m_window = std::make_unique<MainWindow>();
    connect(m_window.get(), &MainWindow::repairDialogOpened, this, [this](QDialog *d) { m_dialog = d; });
    ConnectionSpec spec = ConsoleTest::simSpec(m_fixture->sim);
    spec.config->username = user;
    m_window->addConnection(spec, false);
    m_window->show();
    return ConsoleTest::activate(m_window.get()) && waitSettled(*m_window)
        && m_window->currentKey().toString() == QStringLiteral("sim/demo");
}

// flightdeck-cli as `user` of the simulated cloud (the OS_* variables, a home of its own); its exit status.
int TestConsolePermissions::cliAs(const QString &user, const QStringList &args, QString *out)
{
    QTemporaryDir home;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString &key : env.keys()) {
        if (key.startsWith(QLatin1String("OS_")) || key.startsWith(QLatin1String("XDG_")))
            env.remove(key);
    }
    env.insert(QStringLiteral("HOME"), home.path());
    env.insert(QStringLiteral("OS_AUTH_URL"), m_fixture->sim.authUrl());
    env.insert(QStringLiteral("OS_USERNAME"), user);
    env.insert(QStringLiteral("OS_PASSWORD"), QStringLiteral("flightdeck-demo"));
    env.insert(QStringLiteral("OS_PROJECT_NAME"), QStringLiteral("flightdeck-demo"));
    env.insert(QStringLiteral("OS_USER_DOMAIN_NAME"), QStringLiteral("Default"));
    env.insert(QStringLiteral("OS_PROJECT_DOMAIN_NAME"), QStringLiteral("Default"));
    QProcess p;
    p.setProcessEnvironment(env);
    QSignalSpy finished(&p, &QProcess::finished);
    p.start(QStringLiteral(FLIGHTDECK_CLI), args);
    if (!finished.wait(120000)) { // the simulated cloud answers from this event loop meanwhile
        p.kill();
        p.waitForFinished(5000);
        return -1;
    }
    *out = QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
    return p.exitCode();
}

void TestConsolePermissions::readerGetsTheGuideByKeyboard()
{
    QVERIFY(start(QStringLiteral("reader")));
    // Who reads, with which roles, in the header.
    QTRY_VERIFY_WITH_TIMEOUT(m_window->viewsHeader()->text().contains(QStringLiteral(
                                 "as reader · reader, load-balancer_observer · project flightdeck-demo")),
        5000);
    const QString id = QStringLiteral("security-group-rule-missing:tcp");
    m_window->setTab(Tab::Findings);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->findingsPage()->selectKeys({ id }), 10000);
    // The action says what it will do and why.
    QTRY_COMPARE_WITH_TIMEOUT(
        m_window->repairAction()->text(), QStringLiteral("Guided manual re&pair…"), 5000);
    QVERIFY2(m_window->repairAction()->toolTip().contains(
                 QStringLiteral("create_security_group_rule needs the role member")),
        qPrintable(m_window->repairAction()->toolTip()));
    m_window->findingsPage()->view()->setFocus();
    press(Qt::Key_R, Qt::ControlModifier);
    QTRY_VERIFY_WITH_TIMEOUT(m_dialog != nullptr, 10000);
    auto *guide = qobject_cast<GuidedRepairDialog *>(m_dialog);
    QVERIFY2(guide, "Ctrl+R opened a confirmation, not the guide");
    QVERIFY(ConsoleTest::activate(guide));
    QVERIFY2(guide->guideText().contains(QStringLiteral("openstack security group rule create --ingress")),
        qPrintable(guide->guideText()));
    QVERIFY(guide->guideText().contains(QStringLiteral("create_security_group_rule needs the role member")));
    // Alt+M: Copy as Markdown, the commands in fenced blocks, and the hand-off recorded.
    QApplication::clipboard()->clear();
    press(Qt::Key_M, Qt::AltModifier); // a mnemonic clicks after its animation
    QTRY_VERIFY_WITH_TIMEOUT(!QApplication::clipboard()->text().isEmpty(), 5000);
    const QString markdown = QApplication::clipboard()->text();
    QVERIFY2(markdown.contains(QStringLiteral("```sh\nopenstack security group rule create --ingress")),
        qPrintable(markdown));
    QVERIFY(markdown.contains(QStringLiteral("curl -sS -X POST")));
    QVERIFY2(guide->statusText().contains(QStringLiteral("recorded in the audit log as")),
        qPrintable(guide->statusText()));
    if (const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR"); !shots.isEmpty()) {
        guide->resize(900, 620);
        QTest::qWait(100);
        QVERIFY(guide->grab().save(shots + QStringLiteral("/guided-manual-repair.png")));
    }
    // Not done yet: Verify (Alt+V) says so.
    press(Qt::Key_V, Qt::AltModifier);
    QTRY_VERIFY_WITH_TIMEOUT(
        guide->statusText().contains(QStringLiteral("Not yet: still open: ") + id), 30000);
    // A member repairs it from the command line; Verify records it done by someone else.
    QString out;
    const int status = cliAs(QStringLiteral("member"),
        { QStringLiteral("repair"), QStringLiteral("--kluster"), QStringLiteral("demo"),
            QStringLiteral("--finding"), id, QStringLiteral("--no-automation"), QStringLiteral("--yes") },
        &out);
    QVERIFY2(status == 0, qPrintable(out));
    press(Qt::Key_V, Qt::AltModifier);
    QTRY_VERIFY_WITH_TIMEOUT(
        guide->statusText().contains(QStringLiteral("Repaired by someone else, verified")), 30000);
    // Teammates read it where they read every repair: the kluster's Events.
    QTRY_VERIFY_WITH_TIMEOUT(
        guide->statusText().contains(QStringLiteral("The Kubernetes Event RepairVerified written.")), 30000);
    if (const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR"); !shots.isEmpty())
        QVERIFY(guide->grab().save(shots + QStringLiteral("/guided-manual-repair-verified.png")));
    const QList<QJsonObject> events = m_fixture->sim.events().events(QStringLiteral("demo"));
    QVERIFY(!events.isEmpty());
    QCOMPARE(events.constLast().value(QStringLiteral("reason")).toString(), QStringLiteral("RepairVerified"));
    QVERIFY2(events.constLast().value(QStringLiteral("note")).toString().contains(id),
        qPrintable(events.constLast().value(QStringLiteral("note")).toString()));
    QString error;
    const QList<AuditRecord> records = AuditLog::read(&error);
    QVERIFY2(!records.isEmpty(), qPrintable(error));
    QVERIFY(records.constLast().message.startsWith(QStringLiteral("repaired by someone else, verified")));
    QCOMPARE(records.constLast().user, QStringLiteral("reader"));
    QVERIFY(std::any_of(records.cbegin(), records.cend(), [](const AuditRecord &r) {
        return r.message.startsWith(QStringLiteral("handed over: NotPermitted"));
    }));
    press(Qt::Key_Escape);
    QTRY_VERIFY_WITH_TIMEOUT(!guide->isVisible(), 5000);
}

void TestConsolePermissions::memberGetsTheConfirmationWithEachStepMarked()
{
    QVERIFY(start(QStringLiteral("member")));
    const QString id = QStringLiteral("security-group-rule-missing:tcp");
    m_window->setTab(Tab::Findings);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->findingsPage()->selectKeys({ id }), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(m_window->repairAction()->text(), QStringLiteral("Re&pair…"), 5000);
    m_window->findingsPage()->view()->setFocus();
    press(Qt::Key_R, Qt::ControlModifier);
    QTRY_VERIFY_WITH_TIMEOUT(m_dialog != nullptr, 10000);
    QVERIFY(!qobject_cast<GuidedRepairDialog *>(m_dialog));
    auto *text = m_dialog->findChild<QTextBrowser *>();
    QVERIFY(text);
    QVERIFY2(text->toPlainText().contains(QStringLiteral("permitted for these credentials")),
        qPrintable(text->toPlainText()));
    if (const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR"); !shots.isEmpty()) {
        QTest::qWait(100);
        QVERIFY(m_dialog->grab().save(shots + QStringLiteral("/repair-permission-marked.png")));
    }
    m_dialog->reject();
    if (const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR"); !shots.isEmpty()) {
        m_window->resize(1280, 720);
        QTest::qWait(100);
        QVERIFY(m_window->grab().save(shots + QStringLiteral("/header-who-reads.png")));
    }
}

QTEST_MAIN(TestConsolePermissions)
#include "tst_console_permissions.moc"
