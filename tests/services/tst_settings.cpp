#include "services/settings.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTest>

// The console's settings: named keys with their defaults, stored where earlier releases stored them.
class TestSettings : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void defaults();
    void existingSettingsLoad();
    void storedUnderTheirKeys();
    void connectionsWithoutSecrets();
};

void TestSettings::initTestCase()
{
    QCoreApplication::setOrganizationName("flightdeck");
    QCoreApplication::setApplicationName("flightdeck");
    QStandardPaths::setTestModeEnabled(true);
}

void TestSettings::init()
{
    QSettings().clear();
}

void TestSettings::defaults()
{
    QCOMPARE(Settings::refreshMinutes().value(), 5);
    QCOMPARE(Settings::desktopNotifications().value(), true);
    QCOMPARE(Settings::trayIcon().value(), true);
    QCOMPARE(Settings::tab().value(), 0);
    QCOMPARE(Settings::routeScope().value(), 0);
    QVERIFY(Settings::lastKluster().value().isEmpty());
    QVERIFY(Settings::windowGeometry().value().isEmpty());
    QVERIFY(Settings::viewHeader("Findings").value().isEmpty());
    QVERIFY(Settings::connections().isEmpty());
}

void TestSettings::existingSettingsLoad()
{
    // A settings file as an earlier release left it.
    QFile file(Settings::fileName());
    QVERIFY(QDir().mkpath(QFileInfo(file).absolutePath()));
    QVERIFY2(file.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(file.errorString()));
    file.write("[console]\nlastKluster=sim/legacy\ntab=2\n"
               "[notifications]\ndesktop=false\ntray=false\n"
               "[refresh]\nintervalMinutes=15\n"
               "[routes]\nscope=1\n"
               "[connections]\n1\\name=prod\n1\\cloud=prod-cloud\n1\\readOnly=true\nsize=1\n");
    file.close();
    QCOMPARE(Settings::lastKluster().value(), QStringLiteral("sim/legacy"));
    QCOMPARE(Settings::tab().value(), 2);
    QCOMPARE(Settings::desktopNotifications().value(), false);
    QCOMPARE(Settings::trayIcon().value(), false);
    QCOMPARE(Settings::refreshMinutes().value(), 15);
    QCOMPARE(Settings::routeScope().value(), 1);
    const QList<ConnectionSpec> connections = Settings::connections();
    QCOMPARE(connections.size(), 1);
    QCOMPARE(connections.first().name, QStringLiteral("prod"));
    QCOMPARE(connections.first().cloud, QStringLiteral("prod-cloud"));
    QVERIFY(connections.first().readOnly);
}

void TestSettings::storedUnderTheirKeys()
{
    Settings::windowGeometry().setValue("geometry");
    Settings::windowState().setValue("state");
    Settings::splitState().setValue("split");
    Settings::viewHeader("Nodes").setValue("header");
    Settings::lastKluster().setValue("sim/demo");
    Settings::refreshMinutes().setValue(0); // off
    Settings::trayIcon().setValue(false);
    QSettings settings;
    QCOMPARE(settings.value("console/geometry").toByteArray(), QByteArray("geometry"));
    QCOMPARE(settings.value("console/state").toByteArray(), QByteArray("state"));
    QCOMPARE(settings.value("console/split").toByteArray(), QByteArray("split"));
    QCOMPARE(settings.value("views/Nodes/header").toByteArray(), QByteArray("header"));
    QCOMPARE(settings.value("console/lastKluster").toString(), QStringLiteral("sim/demo"));
    QCOMPARE(settings.value("refresh/intervalMinutes").toInt(), 0);
    QCOMPARE(Settings::refreshMinutes().value(), 0); // a value set wins over the default
    QCOMPARE(settings.value("notifications/tray").toBool(), false);
}

void TestSettings::connectionsWithoutSecrets()
{
    CloudConfig cloud;
    cloud.authUrl = "https://keystone.example:5000/v3";
    cloud.username = "ops";
    cloud.password = "hunter2";
    cloud.projectName = "demo";
    ConnectionSpec byHand;
    byHand.name = "by hand";
    byHand.config = cloud;
    byHand.policyFiles = QStringList { QStringLiteral("network=/etc/neutron/policy.yaml"),
        QStringLiteral("/etc/flightdeck/policy.json") };
    ConnectionSpec snapshot;
    snapshot.name = "snapshot";
    snapshot.snapshotPath = "/srv/snapshots";
    snapshot.readOnly = true;
    Settings::setConnections({ byHand, snapshot });

    const QList<ConnectionSpec> loaded = Settings::connections();
    QCOMPARE(loaded.size(), 2);
    QCOMPARE(loaded.at(0).name, QStringLiteral("by hand"));
    QVERIFY(loaded.at(0).config);
    QCOMPARE(loaded.at(0).config->authUrl, cloud.authUrl);
    QCOMPARE(loaded.at(0).config->username, QStringLiteral("ops"));
    QVERIFY(loaded.at(0).config->password.isEmpty());
    QCOMPARE(loaded.at(0).policyFiles, byHand.policyFiles);
    QVERIFY(loaded.at(1).policyFiles.isEmpty());
    QCOMPARE(loaded.at(1).snapshotPath, QStringLiteral("/srv/snapshots"));
    QVERIFY(loaded.at(1).readOnly);
    QVERIFY(!loaded.at(1).config);
    QSettings().sync();
    QFile file(Settings::fileName());
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(!file.readAll().contains("hunter2"));

    Settings::setConnections({ snapshot }); // one fewer: the rest is gone
    QCOMPARE(Settings::connections().size(), 1);
}

QTEST_GUILESS_MAIN(TestSettings)
#include "tst_settings.moc"
