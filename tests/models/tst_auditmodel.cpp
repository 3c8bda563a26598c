#include "models/auditmodel.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

// The audit view's model: records appended, never reshuffled.
class TestAuditModel : public QObject
{
    Q_OBJECT
private slots:
    void appendsAndReplaces();
    void interruptedAndCompletedInPlace();
};

static AuditRecord record(const QString &finding)
{
    return AuditRecord::fromJson(
        QJsonObject { { QStringLiteral("time"), QStringLiteral("2026-11-21T10:00:00.000Z") },
            { QStringLiteral("user"), QStringLiteral("demo") },
            { QStringLiteral("project"), QStringLiteral("p") },
            { QStringLiteral("cloud"), QStringLiteral("sim") },
            { QStringLiteral("kluster"), QStringLiteral("legacy") }, { QStringLiteral("finding"), finding },
            { QStringLiteral("repair"), QStringLiteral("Remove from router r") },
            { QStringLiteral("requests"),
                QJsonArray { QJsonObject { { QStringLiteral("method"), QStringLiteral("PUT") },
                    { QStringLiteral("service"), QStringLiteral("network") },
                    { QStringLiteral("path"), QStringLiteral("/v2.0/routers/r/remove_extraroutes") },
                    { QStringLiteral("status"), 200 },
                    { QStringLiteral("outcome"), QStringLiteral("done") } } } },
            { QStringLiteral("verification"), QStringLiteral("fixed") } });
}

void TestAuditModel::appendsAndReplaces()
{
    AuditModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRecords({ record(QStringLiteral("a")), record(QStringLiteral("b")) });
    QCOMPARE(model.rowCount(), 2);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    model.setRecords(
        { record(QStringLiteral("a")), record(QStringLiteral("b")), record(QStringLiteral("c")) });
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(reset.count(), 0);
    QCOMPARE(model.data(model.index(2, AuditModel::FindingColumn)).toString(), QStringLiteral("c"));
    QCOMPARE(model.data(model.index(2, AuditModel::WhoColumn)).toString(), QStringLiteral("demo@p (sim)"));
    QVERIFY(model.data(model.index(2, AuditModel::RepairColumn), Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("-> 200 done")));
    model.setRecords({ record(QStringLiteral("z")) });
    QCOMPARE(reset.count(), 1);
    QCOMPARE(model.rowCount(), 1);
}

void TestAuditModel::interruptedAndCompletedInPlace()
{
    AuditModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QJsonObject started { { QStringLiteral("id"), QStringLiteral("a") },
        { QStringLiteral("time"), QStringLiteral("2026-11-22T10:00:00Z") },
        { QStringLiteral("finding"), QStringLiteral("instance-error:x") },
        { QStringLiteral("verification"), QStringLiteral("interrupted") },
        { QStringLiteral("interrupted"), true } };
    model.setRecords({ AuditRecord::fromJson(started) });
    QCOMPARE(model.index(0, AuditModel::ResultColumn).data().toString(),
        QStringLiteral("interrupted — check the cloud"));
    QCOMPARE(ConsoleRole::severityOf(model.index(0, 0)), std::optional(Severity::Critical));
    // The same repair, in progress then finished: the row changes in place, no reset.
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QJsonObject finished = started;
    finished.insert(QStringLiteral("verification"), QStringLiteral("fixed"));
    finished.remove(QStringLiteral("interrupted"));
    model.setRecords({ AuditRecord::fromJson(finished) });
    QCOMPARE(reset.size(), 0);
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.index(0, AuditModel::ResultColumn).data().toString(), QStringLiteral("fixed"));
    QCOMPARE(ConsoleRole::severityOf(model.index(0, 0)), std::nullopt);
}

QTEST_GUILESS_MAIN(TestAuditModel)
#include "tst_auditmodel.moc"
