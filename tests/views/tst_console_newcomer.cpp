// The console as a newcomer meets it: an empty home (no settings, no
// kubeconfig, no clouds.yaml, no keychain, no D-Bus), set up before the
// application starts. The first launch opens "Add connection" by itself; the
// cloud is typed in, tested and added; a kluster is reached. Every menu and
// every dialog opens once. A connection that cannot sign in stays in the
// sidebar with its error, and can be tested, edited and removed.

#include "models/klustersmodel.h"
#include "services/http/endpointhealth.h"
#include "services/settings.h"
#include "tests/simulator/simfixture.h"
#include "tests/views/consolefixture.h"
#include "views/connectiondialog.h"
#include "views/connectionsdialog.h"
#include "views/messagebanner.h"
#include "views/overviewpage.h"
#include "views/tablepage.h"

#include <QApplication>
#include <QChartView>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPainter>
#include <QProcessEnvironment>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocumentFragment>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QTreeWidget>

using ConsoleTest::waitSettled;

class TestConsoleNewcomer : public QObject
{
    Q_OBJECT

public:
    explicit TestConsoleNewcomer(const QString &home)
        : m_home(home)
    { }

private slots:
    void initTestCase();
    void init();
    void firstLaunchOffersTheDemo(); // first: it saves nothing, and needs the empty desktop too
    void firstLaunchAddsACloudByHand();
    void everyMenuAndDialogOpens();
    void aConnectionThatFailsCanBeFixedAndRemoved();
    void cleanupTestCase();

private:
    // Waits for the next dialog the window opens, of type D.
    template<typename D> QPointer<D> nextDialog(MainWindow &window, const std::function<void()> &action);
    [[nodiscard]] bool fillIn(ConnectionDialog *dialog, const QString &name, const QString &password);

    QString m_home;
    std::unique_ptr<SimFixture> m_fixture;
};

void TestConsoleNewcomer::initTestCase()
{
    QVERIFY2(QDir(m_home).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).size() <= 1, qPrintable(m_home));
    QVERIFY(!QFile::exists(QDir(m_home).filePath(QStringLiteral(".kube/config"))));
    QVERIFY(qEnvironmentVariableIsEmpty("KUBECONFIG"));
    m_fixture = std::make_unique<SimFixture>();
}

void TestConsoleNewcomer::cleanupTestCase()
{
    m_fixture.reset();
}

template<typename D>
QPointer<D> TestConsoleNewcomer::nextDialog(MainWindow &window, const std::function<void()> &action)
{
    QPointer<D> found;
    const QMetaObject::Connection c = connect(&window, &MainWindow::dialogOpened, this, [&found](QDialog *d) {
        if (auto *typed = qobject_cast<D *>(d))
            found = typed;
    });
    action();
    for (int i = 0; i < 200 && !found; ++i)
        QTest::qWait(20);
    disconnect(c);
    return found;
}

void TestConsoleNewcomer::init()
{
    // A simulator of an earlier test may have listened on the same port: its failures are not this one's.
    EndpointHealth::shared().reset();
}

bool TestConsoleNewcomer::fillIn(ConnectionDialog *dialog, const QString &name, const QString &password)
{
    // Typed, as a person would: the only cloud offered on an empty desktop is "another cloud".
    auto *cloud = dialog->findChild<QComboBox *>();
    if (!cloud || cloud->currentData().toString() != QString() || !dialog->authUrlBox()->isVisible())
        return false;
    dialog->nameBox()->clear();
    QTest::keyClicks(dialog->nameBox(), name);
    QTest::keyClicks(dialog->authUrlBox(), m_fixture->sim.authUrl());
    QTest::keyClicks(dialog->userBox(), QStringLiteral("demo"));
    QTest::keyClicks(dialog->projectBox(), QStringLiteral("flightdeck-demo"));
    QTest::keyClicks(dialog->secretBox(), password);
    return true;
}

void TestConsoleNewcomer::firstLaunchAddsACloudByHand()
{
    MainWindow window;
    QPointer<ConnectionDialog> dialog = nextDialog<ConnectionDialog>(window, [&window] {
        window.startFromSettings(false); // what `flightdeck` does without options
        window.show();
    });
    QVERIFY2(dialog, "the first launch does not offer to add a connection");
    QVERIFY(dialog->isVisible());
    QVERIFY(window.isBannerVisible());
    QCOMPARE(window.banner()->type(), MessageBanner::Type::Information);
    // An empty desktop is no error: no complaint about a kubeconfig that nobody has.
    QVERIFY2(!dialog->messageLabel()->text().contains(QStringLiteral("kubeconfig")),
        qPrintable(dialog->messageLabel()->text()));

    const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR");
    if (!shots.isEmpty()) {
        window.resize(1280, 720);
        QTest::qWait(50);
        QPixmap shot = window.grab();
        QPainter painter(&shot);
        painter.drawPixmap(
            (shot.width() - dialog->width()) / 2, (shot.height() - dialog->height()) / 2, dialog->grab());
        painter.end();
        QVERIFY(shot.save(shots + QStringLiteral("/first-launch.png")));
    }
    // A wrong password and Enter: it is tested first, and what the server said is shown; nothing is saved.
    QVERIFY(fillIn(dialog, QStringLiteral("sim"), QStringLiteral("wrong")));
    QSignalSpy tested(dialog.data(), &ConnectionDialog::tested);
    QTest::keyClick(dialog->secretBox(), Qt::Key_Return);
    QVERIFY(tested.wait(30000));
    QCOMPARE(tested.first().at(0).toBool(), false);
    QVERIFY2(tested.first().at(1).toString().contains(QStringLiteral("401")),
        qPrintable(tested.first().at(1).toString()));
    QVERIFY(dialog && dialog->isVisible());
    QVERIFY(Settings::connections().isEmpty());
    QVERIFY2(dialog->messageLabel()->text().contains(QStringLiteral("Not saved")),
        qPrintable(dialog->messageLabel()->text()));
    // Enter again tests again (keeping it as it is takes the button "Add anyway" itself).
    QCOMPARE(dialog->saveButton()->text(), QStringLiteral("&Add anyway"));
    QVERIFY(!dialog->saveButton()->isDefault());
    tested.clear();
    QTest::keyClick(dialog->secretBox(), Qt::Key_Return);
    QVERIFY(tested.wait(30000));
    QVERIFY(dialog && dialog->isVisible());
    QVERIFY(Settings::connections().isEmpty());

    // A policy file that is not there: said before anything is tried, naming it.
    QLineEdit *policy = nullptr;
    for (QLineEdit *box : dialog->findChildren<QLineEdit *>()) {
        if (box->accessibleName() == QLatin1String("Policy files"))
            policy = box;
    }
    QVERIFY(policy);
    QTest::keyClicks(policy, QStringLiteral("network=/nonexistent/neutron-policy.yaml"));
    QTest::mouseClick(dialog->testButton(), Qt::LeftButton);
    QVERIFY2(dialog->messageLabel()->text().contains(
                 QStringLiteral("Policy file /nonexistent/neutron-policy.yaml")),
        qPrintable(dialog->messageLabel()->text()));
    policy->clear();

    // The right one: tested, then added with Enter.
    dialog->secretBox()->clear();
    QTest::keyClicks(dialog->secretBox(), QStringLiteral("flightdeck-demo"));
    tested.clear();
    QTest::mouseClick(dialog->testButton(), Qt::LeftButton);
    QVERIFY(tested.wait(30000));
    QVERIFY2(tested.first().at(0).toBool(), qPrintable(tested.first().at(1).toString()));
    QVERIFY2(tested.first().at(1).toString().contains(QStringLiteral("demo")),
        qPrintable(tested.first().at(1).toString()));
    // Who signed in, with which roles (diagnosis.md §8): what the repairs offered are judged for.
    QVERIFY2(tested.first().at(1).toString().contains(QStringLiteral(
                 "Signed in as demo · member, reader, load-balancer_member · project flightdeck-demo")),
        qPrintable(tested.first().at(1).toString()));
    QSignalSpy accepted(dialog.data(), &QDialog::accepted);
    QTest::keyClick(dialog->secretBox(), Qt::Key_Return);
    QVERIFY2(accepted.size() == 1, qPrintable(dialog->messageLabel()->text()));
    QTRY_VERIFY(!dialog);

    // The worst kluster is reached.
    QVERIFY(waitSettled(window));
    QTRY_COMPARE_WITH_TIMEOUT(window.currentKey().toString(), QStringLiteral("sim/demo"), 10000);
    QVERIFY(window.findingsPage()->view()->model()->rowCount() > 0);
    // No keychain here: said plainly, and until dismissed, that the password will not be there next time.
    QTRY_VERIFY(window.isBannerVisible());
    QCOMPARE(window.banner()->type(), MessageBanner::Type::Warning);
    QVERIFY2(
        window.bannerText().contains(QStringLiteral("this session only")), qPrintable(window.bannerText()));
    // Remembered, without its secret (no keychain here: the secret lived for that run only).
    const QList<ConnectionSpec> remembered = Settings::connections();
    QCOMPARE(remembered.size(), 1);
    QCOMPARE(remembered.first().name, QStringLiteral("sim"));
    QSettings().sync();
    QFile settings(QSettings().fileName());
    QVERIFY(settings.open(QIODevice::ReadOnly));
    const QByteArray stored = settings.readAll();
    QVERIFY2(!stored.contains("password=") && !stored.toLower().contains("secret="), stored.constData());
    window.close();
}

// The first launch of `flightdeck` (the demo available): the Add connection dialog that opens over the window
// offers the demo itself (it covered the banner that did), and the File menu — so the palette — knows it.
void TestConsoleNewcomer::firstLaunchOffersTheDemo()
{
    MainWindow window;
    QSignalSpy demo(&window, &MainWindow::demoRequested);
    QPointer<ConnectionDialog> dialog = nextDialog<ConnectionDialog>(window, [&window] {
        window.startFromSettings(true);
        window.show();
    });
    QVERIFY(dialog);
    QPushButton *tryDemo = nullptr;
    for (QPushButton *b : dialog->findChildren<QPushButton *>()) {
        if (b->text().remove(QLatin1Char('&')) == QLatin1String("Try the demo cloud"))
            tryDemo = b;
    }
    QVERIFY2(tryDemo, "the first launch's dialog does not offer the demo");
    QTest::mouseClick(tryDemo, Qt::LeftButton);
    QCOMPARE(demo.size(), 1);
    QTRY_VERIFY(!dialog || !dialog->isVisible());
    bool inFileMenu = false;
    for (QAction *menu : window.menuBar()->actions()) {
        if (menu->text().remove(QLatin1Char('&')) != QLatin1String("File"))
            continue;
        for (QAction *a : menu->menu()->actions())
            inFileMenu
                = inFileMenu || a->text().remove(QLatin1Char('&')) == QLatin1String("Open the demo cloud");
    }
    QVERIFY(inFileMenu);
    // No connection, nothing read: no finding to step to, and Previous/Next say so by being disabled.
    int steps = 0;
    for (QAction *a : window.findChildren<QAction *>()) {
        const QString name = a->text().remove(QLatin1Char('&'));
        if (name == QLatin1String("Next finding") || name == QLatin1String("Previous finding")) {
            ++steps;
            QVERIFY2(!a->isEnabled(), qPrintable(name));
        }
    }
    QCOMPARE(steps, 2);
    // The demo starting (a region takes a while): said as such, never as an empty setup.
    QVERIFY(window.overviewPage()->title().startsWith(QStringLiteral("No connection yet")));
    window.setStarting(QStringLiteral("Starting the built-in simulated cloud…"));
    QCOMPARE(window.overviewPage()->title(), QStringLiteral("Starting the built-in simulated cloud…"));
}

void TestConsoleNewcomer::everyMenuAndDialogOpens()
{
    MainWindow window;
    window.startFromSettings(false);
    window.show();
    QVERIFY(ConsoleTest::activate(&window));
    QVERIFY(waitSettled(window));

    // Every menu, and every submenu, opens.
    QList<QMenu *> menus;
    for (QAction *top : window.menuBar()->actions())
        menus << top->menu();
    for (int i = 0; i < menus.size(); ++i) {
        for (QAction *a : menus.at(i)->actions()) {
            if (a->menu())
                menus << a->menu();
        }
    }
    QVERIFY(menus.size() >= 5);
    for (QMenu *menu : std::as_const(menus)) {
        menu->popup(window.mapToGlobal(QPoint(20, 20)));
        QTRY_VERIFY(menu->isVisible());
        QVERIFY(!menu->actions().isEmpty());
        menu->hide();
    }

    // Help → About Flightdeck shows the application's icon and its version.
    QPointer<QDialog> about = nextDialog<QDialog>(window, [&window] { window.showAbout(); });
    QVERIFY(about);
    QCOMPARE(about->objectName(), QStringLiteral("AboutDialog"));
    bool showsIcon = false, saysVersion = false;
    for (const QLabel *label : about->findChildren<QLabel *>()) {
        showsIcon = showsIcon || !label->pixmap().isNull();
        saysVersion = saysVersion || label->text().contains(QStringLiteral("Flightdeck " FLIGHTDECK_VERSION));
    }
    QVERIFY(showsIcon);
    QVERIFY(saysVersion);
    if (const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR"); !shots.isEmpty()) {
        QTest::qWait(50);
        QVERIFY(about->grab().save(shots + QStringLiteral("/about.png")));
    }
    about->reject();

    // Every action of every menu, once (but Quit): each dialog opens and closes again.
    QSet<QString> dialogs;
    connect(&window, &MainWindow::dialogOpened, this, [&dialogs](QDialog *d) {
        dialogs.insert(
            d->objectName().isEmpty() ? QString::fromLatin1(d->metaObject()->className()) : d->objectName());
        QTimer::singleShot(0, d, &QDialog::reject);
    });
    for (QMenu *menu : std::as_const(menus)) {
        for (QAction *a : menu->actions()) {
            if (a->menu() || a->isSeparator() || !a->isEnabled() || a->text() == QStringLiteral("&Quit"))
                continue;
            a->trigger();
            QTest::qWait(30);
            QVERIFY2(window.isVisible(), qPrintable(a->text()));
        }
    }
    for (const QString &expected : { QStringLiteral("ConnectionDialog"), QStringLiteral("ConnectionsDialog"),
             QStringLiteral("QFileDialog"), QStringLiteral("ShortcutsDialog"), QStringLiteral("AboutDialog"),
             QStringLiteral("commandPalette") })
        QVERIFY2(dialogs.contains(expected),
            qPrintable(QStringList(dialogs.cbegin(), dialogs.cend()).join(QLatin1Char(','))));
    window.close();
}

void TestConsoleNewcomer::aConnectionThatFailsCanBeFixedAndRemoved()
{
    // The remembered connection's secret lived in the last run's memory only: it cannot sign in now.
    MainWindow window;
    window.startFromSettings(false);
    window.show();
    QVERIFY(ConsoleTest::activate(&window));
    QVERIFY(waitSettled(window));
    const auto klusters = [&window] { return ConsoleTest::sidebarRows(window.sidebar()); };
    QTRY_COMPARE(klusters().size(), 1);
    QCOMPARE(klusters().first().data(KlustersModel::KeyRole).toString(), QStringLiteral("sim/"));
    QVERIFY2(klusters().first().data(Qt::ToolTipRole).toString().contains(QStringLiteral("password")),
        qPrintable(klusters().first().data(Qt::ToolTipRole).toString()));
    QVERIFY(window.isBannerVisible());
    QCOMPARE(window.banner()->type(), MessageBanner::Type::Error);
    QVERIFY2(window.bannerText().contains(QStringLiteral("password")), qPrintable(window.bannerText()));
    // Trying again cannot bring a secret back: no Retry, but the way to enter it.
    QVERIFY(window.banner()->retryButton()->isHidden());
    // Said once in full (the banner); the heading over the views says its gist on one line, and the overview
    // what to do, without empty charts.
    window.resize(1024, 640); // a laptop's
    QVERIFY(window.selectKluster({ QStringLiteral("sim"), QString() }));
    QTest::qWait(50);
    const QString header = window.viewsHeader()->text();
    QVERIFY2(
        header.contains(QStringLiteral("the message above")) && !header.contains(QStringLiteral("keychain")),
        qPrintable(header));
    QVERIFY(QFontMetrics(window.viewsHeader()->font())
                .horizontalAdvance(
                    QTextDocumentFragment::fromHtml(header).toPlainText().section(QLatin1Char('\n'), 1, 1))
        < window.viewsHeader()->width());
    const QString overview = window.overviewPage()->title();
    QVERIFY2(!overview.contains(QStringLiteral("keychain")), qPrintable(overview));
    QVERIFY(!window.overviewPage()->trendChart(0)->isVisible());

    // File → Connections… (Ctrl+Shift+M): it is listed with its error; Test says why.
    QPointer<ConnectionsDialog> manager = nextDialog<ConnectionsDialog>(
        window, [&window] { QTest::keyClick(&window, Qt::Key_M, Qt::ControlModifier | Qt::ShiftModifier); });
    QVERIFY(manager);
    QVERIFY(manager->selectConnection(QStringLiteral("sim")));
    QVERIFY2(manager->list()->currentItem()->text(2).startsWith(QStringLiteral("failed")),
        qPrintable(manager->list()->currentItem()->text(2)));
    QSignalSpy tested(manager.data(), &ConnectionsDialog::tested);
    QTest::mouseClick(manager->testButton(), Qt::LeftButton);
    QVERIFY(tested.wait(30000));
    QCOMPARE(tested.first().at(1).toBool(), false);
    if (const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR"); !shots.isEmpty()) {
        window.resize(1280, 720);
        QTest::qWait(50);
        QPixmap shot = window.grab();
        QPainter painter(&shot);
        painter.drawPixmap(
            (shot.width() - manager->width()) / 2, (shot.height() - manager->height()) / 2, manager->grab());
        painter.end();
        QVERIFY(shot.save(shots + QStringLiteral("/connections.png")));
    }

    // Edit: the password typed again, and it works.
    QPointer<ConnectionDialog> edit = nextDialog<ConnectionDialog>(
        window, [&manager] { QTest::mouseClick(manager->editButton(), Qt::LeftButton); });
    QVERIFY(edit);
    QVERIFY(edit->isEdit());
    QVERIFY(edit->nameBox()->isReadOnly());
    QCOMPARE(edit->authUrlBox()->text(), m_fixture->sim.authUrl());
    QTest::keyClicks(edit->secretBox(), QStringLiteral("flightdeck-demo"));
    // Alt+S saves (tested first: it signs in), from the box being typed in.
    QCOMPARE(edit->saveButton()->text(), QStringLiteral("&Save"));
    QVERIFY(ConsoleTest::activate(edit));
    QTest::keyClick(edit->secretBox(), Qt::Key_S, Qt::AltModifier);
    QTRY_VERIFY_WITH_TIMEOUT(!edit, 30000);
    QVERIFY(waitSettled(window));
    QTRY_COMPARE(klusters().size(), 7);
    QStringList keys = ConsoleTest::sidebarColumn(window.sidebar(), 0, KlustersModel::KeyRole);
    keys.sort();
    QCOMPARE(keys,
        QStringList({ QStringLiteral("sim/blue"), QStringLiteral("sim/demo"), QStringLiteral("sim/edge"),
            QStringLiteral("sim/gone"), QStringLiteral("sim/green"), QStringLiteral("sim/legacy"),
            QStringLiteral("sim/retired") }));
    QCOMPARE(Settings::connections().size(), 1);
    QTRY_VERIFY(window.bannerText().contains(QStringLiteral("this session only"))); // no keychain here

    // Remove, confirmed: gone from the sidebar and from the settings.
    QVERIFY(manager->selectConnection(QStringLiteral("sim")));
    QPointer<QDialog> confirm;
    connect(manager.data(), &ConnectionsDialog::removeConfirmationOpened, this,
        [&confirm](QDialog *box) { confirm = box; });
    QTest::mouseClick(manager->removeButton(), Qt::LeftButton);
    QVERIFY(confirm);
    QCOMPARE(klusters().size(), 7); // nothing before the confirmation
    auto *box = qobject_cast<QMessageBox *>(confirm.data());
    QVERIFY(box);
    QCOMPARE(box->defaultButton(), box->button(QMessageBox::Cancel));
    QAbstractButton *remove = nullptr;
    for (QAbstractButton *b : box->buttons()) {
        if (b->text() == QStringLiteral("Remove sim"))
            remove = b;
    }
    QVERIFY(remove);
    QTest::mouseClick(remove, Qt::LeftButton);
    QTRY_COMPARE(klusters().size(), 0);
    QCOMPARE(window.sidebar()->model()->rowCount(), 0); // its heading too
    QVERIFY(window.connections().isEmpty());
    QVERIFY(Settings::connections().isEmpty());
    QCOMPARE(manager->list()->topLevelItemCount(), 0);
    // Nothing is said any more of the connection removed (its secret "kept for this session only").
    QVERIFY2(!window.isBannerVisible() || !window.bannerText().contains(QStringLiteral("sim")),
        qPrintable(window.bannerText()));
    manager->reject();
}

int main(int argc, char *argv[])
{
    // An empty home, made before anything reads the environment.
    QTemporaryDir home;
    if (!home.isValid())
        return 1;
    const QByteArray h = home.path().toUtf8();
    qputenv("HOME", h);
    qputenv("XDG_CONFIG_HOME", h + "/.config");
    qputenv("XDG_DATA_HOME", h + "/.local/share");
    qputenv("XDG_CACHE_HOME", h + "/.cache");
    qputenv("XDG_STATE_HOME", h + "/.local/state");
    QDir(home.path()).mkpath(QStringLiteral("run"));
    QFile::setPermissions(home.path() + QStringLiteral("/run"),
        QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    qputenv("XDG_RUNTIME_DIR", h + "/run");
    qputenv("DBUS_SESSION_BUS_ADDRESS",
        "unix:path=" + h + "/run/no-bus"); // no session bus: no keychain, no notification server
    for (const QString &name : QProcessEnvironment::systemEnvironment().keys()) {
        if (name.startsWith(QStringLiteral("OS_")) || name == QStringLiteral("KUBECONFIG"))
            qunsetenv(name.toLocal8Bit().constData());
    }
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("flightdeck"));
    QApplication::setApplicationName(QStringLiteral("flightdeck"));
    // As app/gui/main.cpp does: the About dialog shows both.
    QApplication::setApplicationVersion(QStringLiteral(FLIGHTDECK_VERSION));
    QApplication::setWindowIcon(MainWindow::applicationIcon());
    TestConsoleNewcomer test(home.path());
    return QTest::qExec(&test, argc, argv);
}

#include "tst_console_newcomer.moc"
