#include "models/nodesmodel.h"
#include "tests/common/worldbuilder.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

// Instances and nodes joined: a correct Qt model, updated incrementally.
class TestNodesModel : public QObject
{
    Q_OBJECT
private slots:
    void joinedRows();
    void incrementalRefresh();
};

static WorldBuilder world(int members, bool breakOne)
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), members + 1);
    for (int i = 0; i < members; ++i)
        w.healthyMember(QStringLiteral("kks-demo-pool-m%1aaa").arg(i),
            QStringLiteral("10.0.0.%1").arg(10 + i), QStringLiteral("100.100.%1.0/24").arg(i));
    w.server(
        QStringLiteral("kks-demo-pool-zzzzz"), QStringLiteral("10.0.0.99"), 45, QStringLiteral("ACTIVE"), {});
    if (breakOne)
        w.setCondition(0, QStringLiteral("Ready"), QStringLiteral("False"));
    return w;
}

void TestNodesModel::joinedRows()
{
    NodesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const KlusterState s = world(3, true).state();
    model.setState(s, Diagnosis::run(s));
    QCOMPARE(model.rowCount(), 4);
    const int z = model.rowOf(QStringLiteral("kks-demo-pool-zzzzz"));
    QCOMPARE(model.data(model.index(z, NodesModel::RegisteredColumn)).toString(), QStringLiteral("no"));
    QCOMPARE(model.data(model.index(z, NodesModel::SecurityGroupColumn)).toString(), QStringLiteral("no"));
    QCOMPARE(ConsoleRole::severityOf(model.index(z, 0)), std::optional(Severity::Critical));
    QVERIFY(model.data(model.index(z, 0), NodesModel::FindingsRole)
                .toStringList()
                .contains(QStringLiteral("instance-unregistered:kks-demo-pool-zzzzz")));
    const int m0 = model.rowOf(QStringLiteral("kks-demo-pool-m0aaa"));
    QCOMPARE(model.data(model.index(m0, NodesModel::ReadyColumn)).toString(), QStringLiteral("False"));
    QCOMPARE(
        model.data(model.index(m0, NodesModel::PodCidrColumn)).toString(), QStringLiteral("100.100.0.0/24"));
    QCOMPARE(
        model.data(model.index(m0, NodesModel::AgeColumn), NodesModel::SortRole).toLongLong(), 24 * 3600);
    QCOMPARE(ConsoleRole::severityOf(model.index(m0, 0)), std::optional(Severity::Warning));
}

void TestNodesModel::incrementalRefresh()
{
    NodesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const KlusterState before = world(50, false).state();
    model.setState(before, Diagnosis::run(before));
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    const KlusterState after = world(50, true).state(); // one node turns NotReady
    model.setState(after, Diagnosis::run(after));
    QCOMPARE(reset.count(), 0);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.first().at(0).toModelIndex().row(), model.rowOf(QStringLiteral("kks-demo-pool-m0aaa")));
    QCOMPARE(changed.first().at(1).toModelIndex().row(), model.rowOf(QStringLiteral("kks-demo-pool-m0aaa")));
}

QTEST_GUILESS_MAIN(TestNodesModel)
#include "tst_nodesmodel.moc"
