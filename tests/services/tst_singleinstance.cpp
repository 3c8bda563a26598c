// The link socket (`flightdeck LINK`): a line longer than a link is refused whole, never cut and opened; a
// file that is no socket at its place is left as it is, and said; a folder that is not this user's alone is
// refused before anything listens in it or is handed a link.

#include "services/local/singleinstance.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLocalSocket>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <sys/stat.h>
#include <unistd.h>

class TestSingleInstance : public QObject
{
    Q_OBJECT

private slots:
    void cleanup() { qunsetenv("FLIGHTDECK_INSTANCE"); }
    void longLineRefusedWhole();
    void fileAtItsPlaceLeftAlone();
    void folderNotThisUsersRefused();
};

namespace {

// Sends `bytes` on a local socket to `name`, and the line answered (the server runs in this thread).
QByteArray ask(const QString &name, const QByteArray &bytes)
{
    QLocalSocket socket;
    socket.connectToServer(name);
    QElapsedTimer timer;
    timer.start();
    while (socket.state() != QLocalSocket::ConnectedState && timer.elapsed() < 5000)
        QTest::qWait(10);
    socket.write(bytes);
    QByteArray got;
    while (!got.endsWith('\n') && timer.elapsed() < 5000) {
        QTest::qWait(10);
        got += socket.readAll();
    }
    return got;
}

} // namespace

void TestSingleInstance::longLineRefusedWhole()
{
    QTemporaryDir dir;
    const QString name = dir.filePath(QStringLiteral("console.sock"));
    qputenv("FLIGHTDECK_INSTANCE", name.toUtf8());
    QStringList opened;
    SingleInstance instance;
    QString error;
    QVERIFY2(instance.listen(
                 [&opened](const QString &link) {
                     opened << link;
                     return QString();
                 },
                 &error),
        qPrintable(error));
    const QByteArray longLink = "flightdeck://sim/demo/" + QByteArray(9000, 'a');
    QCOMPARE(ask(name, longLink + '\n'), QByteArray("error: the link is longer than 8191 bytes\n"));
    QVERIFY(opened.isEmpty()); // nothing cut short was opened
    QCOMPARE(ask(name, "flightdeck://sim/demo\n"), QByteArray("ok\n"));
    QCOMPARE(opened, QStringList { QStringLiteral("flightdeck://sim/demo") });
    // The sender refuses it before connecting.
    QString why;
    QCOMPARE(SingleInstance::handOver(QString::fromLatin1(longLink), 1000, &why),
        SingleInstance::HandOver::Refused);
    QVERIFY2(why.contains(QStringLiteral("longer than")), qPrintable(why));
}

void TestSingleInstance::fileAtItsPlaceLeftAlone()
{
    QTemporaryDir dir;
    const QString name = dir.filePath(QStringLiteral("console.sock"));
    qputenv("FLIGHTDECK_INSTANCE", name.toUtf8());
    QFile file(name);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("someone's file\n");
    file.close();
    SingleInstance instance;
    QString error;
    QVERIFY(!instance.listen([](const QString &) { return QString(); }, &error));
    QVERIFY2(error.contains(QStringLiteral("is not a socket")), qPrintable(error));
    QCOMPARE(instance.problemText(), error);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("someone's file\n"));
}

void TestSingleInstance::folderNotThisUsersRefused()
{
    QTemporaryDir dir;
    // Written by others: refused for listening and for handing over.
    const QString shared = dir.filePath(QStringLiteral("shared"));
    QVERIFY(QDir().mkdir(shared));
    QVERIFY(::chmod(QFile::encodeName(shared).constData(), 01777) == 0);
    qputenv("FLIGHTDECK_INSTANCE", QDir(shared).filePath(QStringLiteral("console.sock")).toUtf8());
    SingleInstance instance;
    QString error;
    QVERIFY(!instance.listen([](const QString &) { return QString(); }, &error));
    QVERIFY2(error.contains(QStringLiteral("is refused")), qPrintable(error));
    QString why;
    QCOMPARE(SingleInstance::handOver(QStringLiteral("flightdeck://sim/demo"), 1000, &why),
        SingleInstance::HandOver::NoConsole);
    QVERIFY2(why.contains(QStringLiteral("is refused")), qPrintable(why));
    // Without XDG_RUNTIME_DIR the fallback folder is made this user's; one another user made first is
    // refused (as root, a folder given to nobody stands for it).
    if (::getuid() == 0) {
        const QString foreign = dir.filePath(QStringLiteral("foreign"));
        QVERIFY(QDir().mkdir(foreign));
        QVERIFY(::chown(QFile::encodeName(foreign).constData(), 65534, 65534) == 0);
        QVERIFY(::chmod(QFile::encodeName(foreign).constData(), 0700) == 0);
        QVERIFY(!SingleInstance::checkFolder(QDir(foreign).filePath(QStringLiteral("console.sock")), &why));
        QVERIFY2(why.contains(QStringLiteral("is refused")), qPrintable(why));
    }
}

QTEST_GUILESS_MAIN(TestSingleInstance)
#include "tst_singleinstance.moc"
