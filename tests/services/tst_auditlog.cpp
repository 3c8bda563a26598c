#include "services/auditlog.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTest>

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
    QVERIFY(AuditLog::append(QJsonObject { { QStringLiteral("finding"), QStringLiteral("old") } }, &error));
    const QString id
        = AuditLog::begin(QJsonObject { { QStringLiteral("finding"), QStringLiteral("route:a") } }, &error);
    QVERIFY2(!id.isEmpty(), qPrintable(error));
    QVERIFY(reader.update(&error));
    QList<QJsonObject> records = reader.records();
    QCOMPARE(records, AuditLog::read(&error));
    QCOMPARE(records.size(), 2);
    QCOMPARE(records.at(1).value(QStringLiteral("verification")).toString(), QStringLiteral("in progress"));

    // Its finish completes the same record; a second repair is appended.
    QVERIFY(AuditLog::finish(
        id, QJsonObject { { QStringLiteral("verification"), QStringLiteral("fixed") } }, &error));
    QVERIFY(
        AuditLog::append(QJsonObject { { QStringLiteral("finding"), QStringLiteral("route:b") } }, &error));
    QVERIFY(reader.update(&error));
    records = reader.records();
    QCOMPARE(records, AuditLog::read(&error));
    QCOMPARE(records.size(), 3);
    QCOMPARE(records.at(1).value(QStringLiteral("verification")).toString(), QStringLiteral("fixed"));
    QVERIFY(records.at(1).contains(QStringLiteral("finishedAt")));
    QVERIFY(!records.at(1).contains(QStringLiteral("message")));
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
    QCOMPARE(reader.records().at(1).value(QStringLiteral("finding")).toString(), QStringLiteral("two"));
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
    QCOMPARE(reader.records().at(1).value(QStringLiteral("finding")).toString(), QStringLiteral("two"));
}

void TestAuditLog::shorterLogIsReadAgain()
{
    QString error;
    for (int i = 0; i < 3; ++i)
        QVERIFY(AuditLog::append(QJsonObject { { QStringLiteral("finding"), QString::number(i) } }, &error));
    AuditLog::Reader reader;
    QVERIFY(reader.update(&error));
    QCOMPARE(reader.records().size(), 3);

    // Rotated: a new, shorter log.
    QVERIFY(QFile::remove(AuditLog::path()));
    QVERIFY(AuditLog::append(QJsonObject { { QStringLiteral("finding"), QStringLiteral("new") } }, &error));
    QVERIFY(reader.update(&error));
    QCOMPARE(reader.records().size(), 1);
    QCOMPARE(reader.records().at(0).value(QStringLiteral("finding")).toString(), QStringLiteral("new"));

    // Removed: nothing.
    QVERIFY(QFile::remove(AuditLog::path()));
    QVERIFY(reader.update(&error));
    QVERIFY(reader.records().isEmpty());
}

QTEST_GUILESS_MAIN(TestAuditLog)
#include "tst_auditlog.moc"
