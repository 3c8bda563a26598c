#include "services/local/localfile.h"
#include "services/repair/auditlog.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

// The audit log read as it grows: a reader that parses only what was appended gives, after every
// append, exactly what a whole read gives.
class TestAuditLog : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void growingLogReadsLikeAWholeRead();
    void cutOffLineIsReadWhenWhole();
    void shorterLogIsReadAgain();
    void overlongLineIsNamedAndSkipped();
    void tornLineIsEndedBeforeTheNextRecord();
    void failedAppendIsRolledBack();
    void laterProcessWithTheSameIdIsNotInProgress();
    void linkIsNotFollowed();
    void sharedFolderIsRefused();

private:
    static void appendRaw(const QByteArray &bytes);
};

void TestAuditLog::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void TestAuditLog::init()
{
    QFile::remove(AuditLog::path());
}

static AuditRecord forFinding(const QString &finding)
{
    AuditRecord r;
    r.findings = QStringList { finding };
    return r;
}

void TestAuditLog::appendRaw(const QByteArray &bytes)
{
    QVERIFY(QDir().mkpath(QFileInfo(AuditLog::path()).absolutePath()));
    QFile f(AuditLog::path());
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Append));
    QCOMPARE(f.write(bytes), bytes.size());
}

void TestAuditLog::growingLogReadsLikeAWholeRead()
{
    AuditLog::Reader reader;
    QString error;
    QVERIFY(reader.update(&error));
    QVERIFY(reader.records().isEmpty());

    // An old record without an id, then a repair started: in progress while this process runs.
    QVERIFY(AuditLog::append(forFinding(QStringLiteral("old")), &error));
    const QString id = AuditLog::begin(forFinding(QStringLiteral("route:a")), &error);
    QVERIFY2(!id.isEmpty(), qPrintable(error));
    QVERIFY(reader.update(&error));
    QList<AuditRecord> records = reader.records();
    QCOMPARE(records, AuditLog::read(&error));
    QCOMPARE(records.size(), 2);
    QCOMPARE(records.at(1).verification, RepairResult::InProgress);

    // Its finish completes the same record; a second repair is appended.
    QVERIFY(AuditLog::finish(id, {}, RepairResult::Fixed, QString(), &error));
    QVERIFY(AuditLog::append(forFinding(QStringLiteral("route:b")), &error));
    QVERIFY(reader.update(&error));
    records = reader.records();
    QCOMPARE(records, AuditLog::read(&error));
    QCOMPARE(records.size(), 3);
    QCOMPARE(records.at(1).verification, RepairResult::Fixed);
    QVERIFY(records.at(1).finishedAt.isValid());
    QVERIFY(records.at(1).message.isEmpty());
    QVERIFY2(error.isEmpty(), qPrintable(error));

    // Nothing new: the same records again.
    QVERIFY(reader.update(&error));
    QCOMPARE(reader.records(), records);
}

void TestAuditLog::cutOffLineIsReadWhenWhole()
{
    appendRaw(R"({"finding":"one"})"
              "\n"
              R"({"finding":"tw)");
    AuditLog::Reader reader;
    QString error;
    QVERIFY(reader.update(&error));
    QVERIFY2(error.contains(QStringLiteral(":2: not a whole JSON record")), qPrintable(error));
    QCOMPARE(reader.records().size(), 1);

    appendRaw(R"(o"})"
              "\n");
    error.clear();
    QVERIFY(reader.update(&error));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(reader.records().size(), 2);
    QCOMPARE(reader.records().at(1).finding(), QStringLiteral("two"));
    QCOMPARE(reader.records(), AuditLog::read(&error));

    // A malformed whole line is named and skipped; what follows is read.
    appendRaw("not json\n{\"finding\":\"three\"}\n");
    QVERIFY(reader.update(&error));
    QVERIFY2(error.contains(QStringLiteral(":3: not a JSON record")), qPrintable(error));
    QCOMPARE(reader.records().size(), 3);
}

void TestAuditLog::overlongLineIsNamedAndSkipped()
{
    // A line past 16 MiB (no record of ours) is named with its size and read past whole; the records on
    // both sides of it are read.
    appendRaw(R"({"finding":"one"})"
              "\n");
    appendRaw(QByteArray("{\"x\":\"") + QByteArray((16 << 20) + 100, 'a') + "\"}\n");
    appendRaw(R"({"finding":"two"})"
              "\n");
    AuditLog::Reader reader;
    QString error;
    QVERIFY(reader.update(&error));
    QVERIFY2(error.contains(QStringLiteral(":2: a line of 16777325 bytes, not a record")), qPrintable(error));
    QCOMPARE(reader.records().size(), 2);
    QCOMPARE(reader.records().at(1).finding(), QStringLiteral("two"));
}

void TestAuditLog::shorterLogIsReadAgain()
{
    QString error;
    for (int i = 0; i < 3; ++i)
        QVERIFY(AuditLog::append(forFinding(QString::number(i)), &error));
    AuditLog::Reader reader;
    QVERIFY(reader.update(&error));
    QCOMPARE(reader.records().size(), 3);

    // Rotated: a new, shorter log.
    QVERIFY(QFile::remove(AuditLog::path()));
    QVERIFY(AuditLog::append(forFinding(QStringLiteral("new")), &error));
    QVERIFY(reader.update(&error));
    QCOMPARE(reader.records().size(), 1);
    QCOMPARE(reader.records().at(0).finding(), QStringLiteral("new"));

    // Removed: nothing.
    QVERIFY(QFile::remove(AuditLog::path()));
    QVERIFY(reader.update(&error));
    QVERIFY(reader.records().isEmpty());
}

void TestAuditLog::tornLineIsEndedBeforeTheNextRecord()
{
    // A crash left half a record; the next repair's record must not be glued onto it.
    QString error;
    QVERIFY(AuditLog::append(forFinding(QStringLiteral("one")), &error));
    appendRaw(R"({"finding":"tw)");
    const QString id = AuditLog::begin(forFinding(QStringLiteral("three")), &error);
    QVERIFY2(!id.isEmpty(), qPrintable(error));
    const QList<AuditRecord> records = AuditLog::read(&error);
    QVERIFY2(error.contains(QStringLiteral(":2: not a JSON record")), qPrintable(error));
    QCOMPARE(records.size(), 2);
    QCOMPARE(records.at(1).id, id);
    QCOMPARE(records.at(1).verification, RepairResult::InProgress);
}

void TestAuditLog::failedAppendIsRolledBack()
{
    // The data folder on a file system of 64 KiB, nearly full: an append that does not fit leaves nothing of
    // itself, and says why.
    QTemporaryDir home;
    const QByteArray oldHome = qgetenv("HOME");
    qputenv("HOME", QFile::encodeName(home.path()));
    const QString folder = QFileInfo(AuditLog::path()).absolutePath();
    QVERIFY(QDir().mkpath(folder));
    if (::mount("tmpfs", QFile::encodeName(folder).constData(), "tmpfs", 0, "size=64k,mode=0700") != 0) {
        qputenv("HOME", oldHome);
        QSKIP("no tmpfs can be mounted here (it takes root): the full disk is not tried");
    }
    const auto unmount = qScopeGuard([&] {
        ::umount2(QFile::encodeName(folder).constData(), MNT_DETACH);
        qputenv("HOME", oldHome);
    });
    QString error;
    QVERIFY2(AuditLog::append(forFinding(QStringLiteral("one")), &error), qPrintable(error));
    const qint64 before = QFileInfo(AuditLog::path()).size();
    // Fill the rest but for a few bytes.
    {
        QFile filler(QDir(folder).filePath(QStringLiteral("filler")));
        QVERIFY(filler.open(QIODevice::WriteOnly));
        while (filler.write(QByteArray(512, 'x')) == 512 && filler.flush()) { }
    }
    const QString id = AuditLog::begin(
        AuditRecord::fromJson(QJsonObject { { QStringLiteral("finding"), QStringLiteral("two") },
            { QStringLiteral("repair"), QString(4096, QLatin1Char('p')) } }),
        &error);
    QVERIFY(id.isEmpty());
    QVERIFY2(error.contains(QStringLiteral("No space left on device (ENOSPC)")), qPrintable(error));
    QCOMPARE(QFileInfo(AuditLog::path()).size(), before);
    // Room again: the next record is whole, and so is the log.
    QVERIFY(QFile::remove(QDir(folder).filePath(QStringLiteral("filler"))));
    error.clear();
    QVERIFY2(AuditLog::append(forFinding(QStringLiteral("three")), &error), qPrintable(error));
    const QList<AuditRecord> records = AuditLog::read(&error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(records.size(), 2);
    QCOMPARE(records.at(1).finding(), QStringLiteral("three"));
}

void TestAuditLog::laterProcessWithTheSameIdIsNotInProgress()
{
    // A started record of this very process id, but of a process that began at another moment (the id was
    // given again after it died): interrupted, not "in progress".
    QString error;
    const QString mine = AuditLog::begin(forFinding(QStringLiteral("mine")), &error);
    QVERIFY(!mine.isEmpty());
    QList<AuditRecord> records = AuditLog::read(&error);
    QVERIFY(records.at(0).process);
    const AuditProcess process = *records.at(0).process;
    QVERIFY(!process.started.isEmpty());
    QVERIFY(!process.boot.isEmpty());
    const auto startedBy = [&](const QString &id, const AuditProcess &p) {
        AuditRecord r;
        r.id = id;
        r.phase = AuditRecord::Phase::Started;
        r.findings = QStringList { id };
        r.process = p;
        QVERIFY(AuditLog::append(r, &error));
    };
    AuditProcess earlier = process;
    earlier.started = QString::number(process.started.toLongLong() - 100);
    startedBy(QStringLiteral("earlier"), earlier);
    AuditProcess otherBoot = process;
    otherBoot.boot = QStringLiteral("00000000-0000-0000-0000-000000000000");
    startedBy(QStringLiteral("before-a-reboot"), otherBoot);
    AuditProcess old = process; // written before process start times were recorded: the id alone
    old.started.clear();
    old.boot.clear();
    startedBy(QStringLiteral("old"), old);
    records = AuditLog::read(&error);
    QCOMPARE(records.size(), 4);
    QCOMPARE(records.at(0).verification, RepairResult::InProgress);
    QCOMPARE(records.at(1).verification, RepairResult::Interrupted);
    QCOMPARE(records.at(2).verification, RepairResult::Interrupted);
    QCOMPARE(records.at(3).verification, RepairResult::InProgress);
}

void TestAuditLog::linkIsNotFollowed()
{
    // Somebody planted a link where the log goes, to a file of theirs: a repair must not append to it (nor
    // change its mode).
    QTemporaryDir elsewhere;
    const QString victim = elsewhere.filePath(QStringLiteral("theirs.txt"));
    {
        QFile f(victim);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("their notes\n");
    }
    QVERIFY(QFile::setPermissions(
        victim, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadOther));
    QVERIFY(QDir().mkpath(QFileInfo(AuditLog::path()).absolutePath()));
    QVERIFY(QFile::link(victim, AuditLog::path()));
    QString error;
    QVERIFY(!AuditLog::append(forFinding(QStringLiteral("x")), &error));
    QVERIFY2(error.contains(QStringLiteral("is a link")), qPrintable(error));
    QFile f(victim);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("their notes\n"));
    QVERIFY(QFileInfo(victim).permissions() & QFileDevice::ReadOther);
    error.clear();
    QVERIFY(AuditLog::read(&error).isEmpty());
    QVERIFY2(error.contains(QStringLiteral("is a link")), qPrintable(error));
    QVERIFY(QFile::remove(AuditLog::path()));
}

void TestAuditLog::sharedFolderIsRefused()
{
    const QString folder = QFileInfo(AuditLog::path()).absolutePath();
    QVERIFY(QDir().mkpath(folder));
    const QByteArray name = QFile::encodeName(folder);
    const auto restore = qScopeGuard([&] {
        ::chmod(name.constData(), 0700);
        if (::geteuid() == 0)
            (void)::chown(name.constData(), ::geteuid(), ::getegid());
    });
    QString error;
    QVERIFY(::chmod(name.constData(), 0777) == 0);
    QVERIFY(!AuditLog::append(forFinding(QStringLiteral("x")), &error));
    QVERIFY2(error.contains(QStringLiteral("may be written by everybody")), qPrintable(error));
    QVERIFY(!QFileInfo::exists(AuditLog::path()));
    QVERIFY(::chmod(name.constData(), 0700) == 0);
    if (::geteuid() == 0) { // a folder of another user's (only root can give one away)
        QVERIFY(::chown(name.constData(), 65534, 65534) == 0);
        error.clear();
        QVERIFY(!AuditLog::append(forFinding(QStringLiteral("x")), &error));
        QVERIFY2(error.contains(QStringLiteral("belongs to another user")), qPrintable(error));
    }
}

QTEST_GUILESS_MAIN(TestAuditLog)
#include "tst_auditlog.moc"
