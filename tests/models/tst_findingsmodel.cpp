#include "models/findingsmodel.h"
#include "tests/common/worldbuilder.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

// The findings table: a correct Qt model, updated incrementally by id.
class TestFindingsModel : public QObject
{
    Q_OBJECT
private slots:
    void modelTester();
    void refreshChangingThreeRowsChangesThreeRows();
    void sortRoleHoldsRawValues();
};

// A kluster with `broken` orphaned routes (one warning each).
static WorldBuilder world(int broken, int unregisteredMinutes = 15)
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 2);
    w.healthyMember(
        QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), QStringLiteral("100.100.4.0/24"));
    w.server(QStringLiteral("kks-demo-pool-bbbbb"), QStringLiteral("10.0.0.5"), unregisteredMinutes);
    for (int i = 0; i < broken; ++i)
        w.route(QStringLiteral("100.100.%1.0/24").arg(100 + i), QStringLiteral("10.0.0.99"));
    return w;
}

void TestFindingsModel::modelTester()
{
    FindingsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setDiagnosis(Diagnosis::run(world(5).state()));
    QCOMPARE(model.rowCount(), 6);
    model.setDiagnosis(Diagnosis::run(world(2).state()));
    QCOMPARE(model.rowCount(), 3);
    model.setDiagnosis(Diagnosis::run(world(8, 45).state()));
    QCOMPARE(model.rowCount(), 9);
    model.setDiagnosis(Diagnosis());
    QCOMPARE(model.rowCount(), 0);
}

void TestFindingsModel::refreshChangingThreeRowsChangesThreeRows()
{
    FindingsModel model;
    model.setDiagnosis(Diagnosis::run(world(10).state()));
    QCOMPARE(model.rowCount(), 11);
    const QPersistentModelIndex kept
        = model.index(model.rowOf(QStringLiteral("route-orphaned:100.100.100.0/24 via 10.0.0.99")), 0);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    // One orphan fixed, one new one, and the unregistered instance turns critical: three rows.
    WorldBuilder next = world(0, 45);
    for (int i = 1; i < 10; ++i)
        next.route(QStringLiteral("100.100.%1.0/24").arg(100 + i), QStringLiteral("10.0.0.99"));
    next.route(QStringLiteral("100.100.200.0/24"), QStringLiteral("10.0.0.99"));
    model.setDiagnosis(Diagnosis::run(next.state()));
    QCOMPARE(reset.count(), 0);
    QCOMPARE(removed.count(), 1);
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(changed.count(), 1);
    const QModelIndex topLeft = changed.first().at(0).toModelIndex();
    const QModelIndex bottomRight = changed.first().at(1).toModelIndex();
    QCOMPARE(topLeft.row(), bottomRight.row()); // exactly the one row that changed
    QCOMPARE(model.data(topLeft, FindingsModel::IdRole).toString(),
        QStringLiteral("instance-unregistered:kks-demo-pool-bbbbb"));
    QVERIFY(!kept.isValid()); // the fixed one is gone; the others keep their identity
    QCOMPARE(model.rowCount(), 11);
}

void TestFindingsModel::sortRoleHoldsRawValues()
{
    FindingsModel model;
    model.setDiagnosis(Diagnosis::run(world(1, 45).state()));
    const int row = model.rowOf(QStringLiteral("instance-unregistered:kks-demo-pool-bbbbb"));
    // The rank: critical, about one node (after critical findings about the whole kluster).
    QCOMPARE(model.data(model.index(row, FindingsModel::SeverityColumn), FindingsModel::SortRole).toInt(),
        int(Severity::Critical) * 3 + int(Impact::Node));
    QCOMPARE(
        model.data(model.index(row, FindingsModel::SeverityColumn)).toString(), QStringLiteral("critical"));
    QVERIFY(model.data(model.index(row, FindingsModel::MessageColumn))
                .toString()
                .contains(QStringLiteral("never registered")));
    QVERIFY(model.data(model.index(row, 0), FindingsModel::HasRepairRole).toBool());
}

QTEST_GUILESS_MAIN(TestFindingsModel)
#include "tst_findingsmodel.moc"
