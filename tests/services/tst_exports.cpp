#include "core/checkreport.h"
#include "core/incidentreport.h"
#include "services/exports.h"
#include "tests/common/worldbuilder.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

// The console's exports: each file written whole or not at all, an error that names it.
class TestExports : public QObject
{
    Q_OBJECT
private slots:
    void replacesTheFileWhole();
    void failureNamesTheFileAndLeavesNothing();
    void csvQuotesWhatItMust();
    void jsonLinesOneRecordALine();
    void reportInEachFormat();

private:
    static QByteArray contents(const QString &path);
    QTemporaryDir m_tmp;
};

QByteArray TestExports::contents(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void TestExports::replacesTheFileWhole()
{
    const QString path = m_tmp.filePath("report.html");
    QString error;
    QVERIFY2(Exports::writeFile(path, QByteArray(10000, 'a'), &error), qPrintable(error));
    QVERIFY2(Exports::writeFile(path, "short", &error), qPrintable(error));
    QCOMPARE(contents(path), QByteArray("short")); // nothing of the longer one left
    QCOMPARE(QDir(m_tmp.path()).entryList(QDir::Files), QStringList { "report.html" }); // no temporary left
}

void TestExports::failureNamesTheFileAndLeavesNothing()
{
    const QString path = m_tmp.filePath("no such folder/report.csv");
    QString error;
    QVERIFY(!Exports::writeCsv(path, { "a" }, { { "1" } }, &error));
    QVERIFY2(error.startsWith(path + QStringLiteral(": ")), qPrintable(error));
    QVERIFY(error.size() > path.size() + 2); // and why
    QVERIFY(!QFile::exists(path));
}

void TestExports::csvQuotesWhatItMust()
{
    const QString path = m_tmp.filePath("audit.csv");
    QString error;
    const QList<QStringList> rows { { "2026-11-21 10:00", "route-duplicate:198.19.1.0/24" },
        { "later", "said \"no\", twice\nthen yes" } };
    QVERIFY2(Exports::writeCsv(path, { "Time", "Finding" }, rows, &error), qPrintable(error));
    QCOMPARE(contents(path),
        QByteArray("Time,Finding\r\n"
                   "2026-11-21 10:00,route-duplicate:198.19.1.0/24\r\n"
                   "later,\"said \"\"no\"\", twice\nthen yes\"\r\n"));
}

void TestExports::jsonLinesOneRecordALine()
{
    const QString path = m_tmp.filePath("audit.jsonl");
    const QList<QJsonObject> records { { { "finding", "a" }, { "status", 200 } }, { { "finding", "b\nc" } } };
    QString error;
    QVERIFY2(Exports::writeJsonLines(path, records, &error), qPrintable(error));
    const QList<QByteArray> lines = contents(path).split('\n');
    QCOMPARE(lines.size(), 3);
    QVERIFY(lines.last().isEmpty()); // each line ends with a newline
    QCOMPARE(QJsonDocument::fromJson(lines.at(0)).object(), records.at(0));
    QCOMPARE(QJsonDocument::fromJson(lines.at(1)).object(), records.at(1));

    QVERIFY2(Exports::writeJsonLines(path, {}, &error), qPrintable(error));
    QCOMPARE(contents(path), QByteArray()); // nothing shown, nothing exported
}

void TestExports::reportInEachFormat()
{
    WorldBuilder w;
    w.healthyMember("kks-demo-pool-aaaaa", "10.0.0.4", "100.100.4.0/24");
    w.route("100.100.4.0/24", "10.0.0.98"); // a duplicate: something to report
    const KlusterState state = w.state();
    const Diagnosis diagnosis = Diagnosis::run(state);
    QVERIFY(!diagnosis.findings.isEmpty());
    const QList<QPair<Exports::ReportFormat, QByteArray>> formats {
        { Exports::ReportFormat::Html, IncidentReport::toHtml(state, diagnosis) },
        { Exports::ReportFormat::FindingsCsv, IncidentReport::findingsCsv(diagnosis) },
        { Exports::ReportFormat::CheckJson, CheckReport::toJson(state, diagnosis) },
    };
    for (const auto &[format, expected] : formats) {
        const QString path = m_tmp.filePath(QStringLiteral("report-%1").arg(int(format)));
        QString error;
        QVERIFY2(Exports::writeReport(path, format, state, diagnosis, &error), qPrintable(error));
        QCOMPARE(contents(path), expected);
    }
}

QTEST_GUILESS_MAIN(TestExports)
#include "tst_exports.moc"
