#include "services/local/snapshotreader.h"
#include "tests/common/worldbuilder.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <sys/stat.h>

// Reading snapshot folders: every required file, real-shaped bodies, and a
// clear error naming the file for everything that is not right.
class TestSnapshotReader : public QObject
{
    Q_OBJECT
private slots:
    void readsWrittenWorld();
    void readsEveryExample();
    void extensionsOptional();
    void debrisFilesRead();
    void missingFolder();
    void missingRequiredFile_data();
    void missingRequiredFile();
    void truncatedFile();
    void htmlInsteadOfJson();
    void wrongTypes();
    void badCapturedAt();
    void routerOfAnotherKluster();
    void unknownFilesIgnored();
    void onlyRegularFilesAreRead_data();
    void onlyRegularFilesAreRead();
    void fileLargerThanTheLimit();

private:
    QString writeWorld(const WorldBuilder &w);
    static QString errorOf(const QString &dir);
    QTemporaryDir m_tmp;
    int m_count = 0;
};

QString TestSnapshotReader::writeWorld(const WorldBuilder &w)
{
    const QString dir = m_tmp.filePath(QStringLiteral("snap%1").arg(++m_count));
    if (!w.writeSnapshot(dir))
        qFatal("cannot write a snapshot to %s", qPrintable(dir));
    return dir;
}

QString TestSnapshotReader::errorOf(const QString &dir)
{
    try {
        SnapshotReader::read(dir);
    } catch (const ParseError &e) {
        return e.toString();
    }
    return QString();
}

[[nodiscard]] static bool overwrite(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

void TestSnapshotReader::readsWrittenWorld()
{
    WorldBuilder w;
    w.maxRoutes(31);
    w.healthyMember(
        QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), QStringLiteral("100.100.4.0/24"));
    const KlusterState s = SnapshotReader::read(writeWorld(w));
    QCOMPARE(s.kluster.name, QStringLiteral("demo"));
    QCOMPARE(s.capturedAt, WorldBuilder::defaultCapturedAt());
    QCOMPARE(*s.maxRoutes, 31);
    QCOMPARE(s.instances.size(), 1);
    QCOMPARE(s.nodes.size(), 1);
    QCOMPARE(s.router.routes.size(), 1);
    QVERIFY(s.hasAtomicExtraRoutes());
    QVERIFY(s.nodesSource.known && s.serversSource.known && s.routerSource.known);
}

void TestSnapshotReader::readsEveryExample()
{
    const QDir examples(QStringLiteral(FLIGHTDECK_SOURCE_DIR "/examples"));
    const QStringList dirs = examples.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QVERIFY(dirs.size() >= 6);
    for (const QString &d : dirs) {
        const QString error = errorOf(examples.filePath(d));
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }
}

void TestSnapshotReader::extensionsOptional()
{
    const QString dir = writeWorld(WorldBuilder());
    QVERIFY(QFile::remove(QDir(dir).filePath(QStringLiteral("extensions.json"))));
    const KlusterState s = SnapshotReader::read(dir);
    QVERIFY(!s.extensionsKnown);
    QVERIFY(!s.hasAtomicExtraRoutes()); // absent: assume no extraroute-atomic
}

// What a terminated kluster leaves behind (snapshot-format.md: volumes.json, loadbalancers.json, optional):
// read when there, a known absence when not, and a body that is none refused naming the file.
void TestSnapshotReader::debrisFilesRead()
{
    const QString dir = writeWorld(WorldBuilder());
    KlusterState s = SnapshotReader::read(dir);
    QVERIFY(!s.volumesSource.known && !s.loadBalancersSource.known);
    QVERIFY(overwrite(QDir(dir).filePath(QStringLiteral("volumes.json")),
        R"({"volumes": [{"id": "v1", "status": "available", "attachments": [],
            "metadata": {"cinder.csi.openstack.org/cluster": "gone-p1"}, "created_at": "2026-11-28T06:25:15.288987"}]})"));
    QVERIFY(overwrite(QDir(dir).filePath(QStringLiteral("loadbalancers.json")),
        R"({"loadbalancers": [{"id": "lb1", "name": "kube_service_gone_shop_web", "provisioning_status": "ERROR"}],
            "loadbalancers_links": []})"));
    s = SnapshotReader::read(dir);
    QVERIFY(s.volumesSource.known && s.loadBalancersSource.known);
    QCOMPARE(s.volumes.size(), 1);
    QCOMPARE(s.volumes.first().cluster, QStringLiteral("gone-p1"));
    QCOMPARE(s.loadBalancers.size(), 1);
    QCOMPARE(Debris::serviceOf(s.loadBalancers.first())->kluster, QStringLiteral("gone"));
    const QString path = QDir(dir).filePath(QStringLiteral("volumes.json"));
    QVERIFY(overwrite(path, R"({"volumes": [{"id": "v1"}]})"));
    QCOMPARE(errorOf(dir), path + QStringLiteral(": $.volumes[0].status: required field is missing"));
}

void TestSnapshotReader::missingFolder()
{
    QCOMPARE(errorOf(m_tmp.filePath(QStringLiteral("nope"))),
        m_tmp.filePath(QStringLiteral("nope")) + QStringLiteral(": no such snapshot folder"));
}

void TestSnapshotReader::missingRequiredFile_data()
{
    QTest::addColumn<QString>("file");
    for (const QString &f : SnapshotReader::requiredFiles())
        QTest::newRow(qPrintable(f)) << f;
}

void TestSnapshotReader::missingRequiredFile()
{
    QFETCH(QString, file);
    const QString dir = writeWorld(WorldBuilder());
    QVERIFY(QFile::remove(QDir(dir).filePath(file)));
    QCOMPARE(errorOf(dir), QDir(dir).filePath(file) + QStringLiteral(": required file is missing"));
}

void TestSnapshotReader::truncatedFile()
{
    WorldBuilder w;
    w.healthyMember(
        QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), QStringLiteral("100.100.4.0/24"));
    const QString dir = writeWorld(w);
    const QString path = QDir(dir).filePath(QStringLiteral("servers.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    f.close();
    QVERIFY(overwrite(path, bytes.left(bytes.size() / 2)));
    const QString e = errorOf(dir);
    QVERIFY2(e.startsWith(path + QStringLiteral(": not valid JSON at byte")), qPrintable(e));
    QVERIFY2(e.contains(QStringLiteral("truncated")), qPrintable(e));
}

void TestSnapshotReader::htmlInsteadOfJson()
{
    const QString dir = writeWorld(WorldBuilder());
    const QString path = QDir(dir).filePath(QStringLiteral("nodes.json"));
    QVERIFY(
        overwrite(path, "<!DOCTYPE html><html><head><title>503 Service Unavailable</title></head></html>"));
    const QString e = errorOf(dir);
    QVERIFY2(e.startsWith(path + QStringLiteral(": not valid JSON")), qPrintable(e));
    QVERIFY2(e.contains(QStringLiteral("HTML")), qPrintable(e));
}

void TestSnapshotReader::wrongTypes()
{
    const QString dir = writeWorld(WorldBuilder());
    const QString path = QDir(dir).filePath(QStringLiteral("router.json"));
    QVERIFY(overwrite(
        path, R"({"router": {"id": "x", "routes": [{"destination": "10.0.0.0/8", "nexthop": 17}]}})"));
    QCOMPARE(
        errorOf(dir), path + QStringLiteral(": $.router.routes[0].nexthop: expected a string, got a number"));
}

void TestSnapshotReader::badCapturedAt()
{
    const QString dir = writeWorld(WorldBuilder());
    const QString path = QDir(dir).filePath(QStringLiteral("capture.json"));
    QVERIFY(overwrite(path, R"({"capturedAt": 1732183200})"));
    QCOMPARE(errorOf(dir), path + QStringLiteral(": $.capturedAt: expected a string, got a number"));
    QVERIFY(overwrite(path, R"({"tool": "x"})"));
    QCOMPARE(errorOf(dir), path + QStringLiteral(": $.capturedAt: required field is missing"));
    // Nothing is guessed: a date alone, or a time without a zone, is refused.
    QVERIFY(overwrite(path, R"({"capturedAt": "2026-11-21"})"));
    QVERIFY(errorOf(dir).contains(QStringLiteral("not an RFC 3339 date-time with a zone")));
    QVERIFY(overwrite(path, R"({"capturedAt": "2026-11-21T10:00:00"})"));
    QVERIFY(errorOf(dir).contains(QStringLiteral("not an RFC 3339 date-time with a zone")));
    // An error stays on one line, whatever the input holds.
    QVERIFY(overwrite(path, "{\"capturedAt\": \"2026\\nFAKE LINE\"}"));
    QVERIFY(!errorOf(dir).contains(QLatin1Char('\n')));
}

void TestSnapshotReader::routerOfAnotherKluster()
{
    const QString dir = writeWorld(WorldBuilder());
    const QString path = QDir(dir).filePath(QStringLiteral("router.json"));
    QVERIFY(overwrite(path, R"({"router": {"id": "someone-else", "routes": []}})"));
    const QString e = errorOf(dir);
    QVERIFY2(e.startsWith(path + QStringLiteral(": $.router.id: is \"someone-else\"")), qPrintable(e));
}

void TestSnapshotReader::unknownFilesIgnored()
{
    const QString dir = writeWorld(WorldBuilder());
    QVERIFY(overwrite(QDir(dir).filePath(QStringLiteral("notes.txt")), "written at 3 am"));
    QVERIFY(overwrite(QDir(dir).filePath(QStringLiteral("ports.json")), R"({"ports": []})"));
    QVERIFY(errorOf(dir).isEmpty());
}

void TestSnapshotReader::onlyRegularFilesAreRead_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("kind");
    QTest::newRow("servers.json -> /dev/zero") << QStringLiteral("servers.json") << QStringLiteral("zero");
    QTest::newRow("ports.json -> /dev/zero") << QStringLiteral("ports.json") << QStringLiteral("zero");
    QTest::newRow("extensions.json -> /dev/zero")
        << QStringLiteral("extensions.json") << QStringLiteral("zero");
    QTest::newRow("nodes.json a FIFO") << QStringLiteral("nodes.json") << QStringLiteral("fifo");
}

void TestSnapshotReader::onlyRegularFilesAreRead()
{
    // The defects: a link to /dev/zero grew memory until bad_alloc; a FIFO hung the check for good.
    QFETCH(QString, file);
    QFETCH(QString, kind);
    WorldBuilder w;
    const QString dir = writeWorld(w);
    const QString path = QDir(dir).filePath(file);
    QFile::remove(path);
    if (kind == QLatin1String("zero"))
        QVERIFY(QFile::link(QStringLiteral("/dev/zero"), path));
    else
        QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
    const QString error = errorOf(dir);
    QVERIFY2(error.startsWith(path + QStringLiteral(": not a regular file")), qPrintable(error));
}

void TestSnapshotReader::fileLargerThanTheLimit()
{
    WorldBuilder w;
    const QString dir = writeWorld(w);
    QFile servers(QDir(dir).filePath(QStringLiteral("servers.json")));
    QVERIFY(servers.open(QIODevice::WriteOnly));
    servers.write("{\"servers\": [");
    servers.write(QByteArray(2 * 1024 * 1024, ' '));
    servers.write("]}");
    servers.close();
    qputenv("FLIGHTDECK_MAX_BODY_MB", "1");
    const QString error = errorOf(dir);
    qunsetenv("FLIGHTDECK_MAX_BODY_MB");
    QVERIFY2(error.contains(QStringLiteral(
                 "larger than the 1 MiB a body may be (set FLIGHTDECK_MAX_BODY_MB to raise it)")),
        qPrintable(error));
    QVERIFY(errorOf(dir).isEmpty()); // within the default limit it reads
}

QTEST_GUILESS_MAIN(TestSnapshotReader)
#include "tst_snapshotreader.moc"
