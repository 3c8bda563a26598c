// Desktop notifications over a private D-Bus session (dbus-run-session):
// a notification server of the test's own answers org.freedesktop.Notifications
// as the desktop's does; the notifier sends it the kluster and finding, and a
// click (ActionInvoked) leads back to them. Without a server, it falls back.

#include "views/notifier.h"

#include <QAction>
#include <QApplication>
#include <QDBusAbstractAdaptor>
#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QSignalSpy>
#include <QTest>

// The freedesktop notification server's interface, the part the notifier uses.
class FakeNotifications : public QObject
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.Notifications")

public:
    struct Sent
    {
        QString app, summary, body;
        QStringList actions;
        QVariantMap hints;
    };
    QList<Sent> sent;

public slots:
    uint Notify(const QString &app, uint replaces, const QString &icon, const QString &summary,
        const QString &body, const QStringList &actions, const QVariantMap &hints, int timeout)
    {
        Q_UNUSED(replaces);
        Q_UNUSED(icon);
        Q_UNUSED(timeout);
        sent.append({ app, summary, body, actions, hints });
        return uint(41 + sent.size());
    }
    QStringList GetCapabilities() { return { QStringLiteral("actions"), QStringLiteral("body") }; }
};

class TestNotifier : public QObject
{
    Q_OBJECT

private slots:
    void sendsToTheDesktopAndLeadsBack();
    void silentWhenSwitchedOff();
};

void TestNotifier::sendsToTheDesktopAndLeadsBack()
{
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected())
        QFAIL("no D-Bus session: run under dbus-run-session");
    FakeNotifications server;
    QVERIFY(bus.registerObject(
        QStringLiteral("/org/freedesktop/Notifications"), &server, QDBusConnection::ExportAllSlots));
    QVERIFY(bus.registerService(QStringLiteral("org.freedesktop.Notifications")));

    Notifier notifier;
    QSignalSpy notified(&notifier, &Notifier::notified);
    notifier.notify(QStringLiteral("prod/k1: new critical finding"),
        QStringLiteral("route-duplicate:198.19.1.0/24\nThe first route wins"),
        KlusterKey { QStringLiteral("prod"), QStringLiteral("k1") },
        QStringLiteral("route-duplicate:198.19.1.0/24"), Severity::Critical);
    QCOMPARE(notifier.lastChannel(), QStringLiteral("dbus"));
    QTRY_COMPARE(server.sent.size(), 1);
    const FakeNotifications::Sent &n = server.sent.first();
    QCOMPARE(n.app, QStringLiteral("Flightdeck"));
    QCOMPARE(n.summary, QStringLiteral("prod/k1: new critical finding"));
    QVERIFY(n.body.startsWith(QStringLiteral("route-duplicate:198.19.1.0/24")));
    QVERIFY(n.actions.contains(QStringLiteral("default")));
    QCOMPARE(n.hints.value(QStringLiteral("urgency")).toInt(), 2); // critical
    QCOMPARE(notified.size(), 1);

    // The person clicks it: the server says ActionInvoked(id, "default").
    QSignalSpy activated(&notifier, &Notifier::activated);
    QTest::qWait(50); // the reply with the id has come back
    QDBusMessage click = QDBusMessage::createSignal(QStringLiteral("/org/freedesktop/Notifications"),
        QStringLiteral("org.freedesktop.Notifications"), QStringLiteral("ActionInvoked"));
    click << uint(42) << QStringLiteral("default");
    QVERIFY(bus.send(click));
    QVERIFY(activated.wait(5000));
    QCOMPARE(activated.first().at(0).value<KlusterKey>().toString(), QStringLiteral("prod/k1"));
    QCOMPARE(activated.first().at(1).toString(), QStringLiteral("route-duplicate:198.19.1.0/24"));

    // Its "Acknowledge for an hour" button: asks for exactly that finding; the tray's menu offers the same.
    QVERIFY(n.actions.contains(QStringLiteral("acknowledge")));
    QSignalSpy acknowledge(&notifier, &Notifier::acknowledgeRequested);
    QDBusMessage ack = QDBusMessage::createSignal(QStringLiteral("/org/freedesktop/Notifications"),
        QStringLiteral("org.freedesktop.Notifications"), QStringLiteral("ActionInvoked"));
    ack << uint(42) << QStringLiteral("acknowledge");
    QVERIFY(bus.send(ack));
    QVERIFY(acknowledge.wait(5000));
    QCOMPARE(acknowledge.first().at(1).toString(), QStringLiteral("route-duplicate:198.19.1.0/24"));
    QCOMPARE(activated.size(), 1); // not opened as well
    QVERIFY(notifier.acknowledgeLastAction()->isEnabled());
    QVERIFY(notifier.acknowledgeLastAction()->text().contains(QStringLiteral("prod/k1")));
    acknowledge.clear();
    notifier.acknowledgeLastAction()->trigger();
    QCOMPARE(acknowledge.size(), 1);
    QCOMPARE(acknowledge.first().at(0).value<KlusterKey>().toString(), QStringLiteral("prod/k1"));

    // Another program's notification clicked: nothing.
    activated.clear();
    QDBusMessage other = QDBusMessage::createSignal(QStringLiteral("/org/freedesktop/Notifications"),
        QStringLiteral("org.freedesktop.Notifications"), QStringLiteral("ActionInvoked"));
    other << uint(7) << QStringLiteral("default");
    QVERIFY(bus.send(other));
    QVERIFY(!activated.wait(300));

    bus.unregisterService(QStringLiteral("org.freedesktop.Notifications"));
    bus.unregisterObject(QStringLiteral("/org/freedesktop/Notifications"));
}

void TestNotifier::silentWhenSwitchedOff()
{
    Notifier notifier;
    notifier.setNotificationsEnabled(false);
    QSignalSpy notified(&notifier, &Notifier::notified);
    notifier.notify(QStringLiteral("t"), QStringLiteral("b"), KlusterKey { QStringLiteral("k"), QString() },
        QString(), Severity::Critical);
    QCOMPARE(notified.size(), 0);
    QCOMPARE(notifier.sentCount(), 0);
    // No server on the bus (and no tray offscreen): nowhere to go, and said so.
    notifier.setNotificationsEnabled(true);
    notifier.notify(QStringLiteral("t"), QStringLiteral("b"), KlusterKey { QStringLiteral("k"), QString() },
        QString(), Severity::Warning);
    QCOMPARE(notifier.lastChannel(), QStringLiteral("none"));
}

QTEST_MAIN(TestNotifier)
#include "tst_notifier.moc"
