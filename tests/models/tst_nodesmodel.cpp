#include "models/nodesmodel.h"
#include "tests/common/modeltext.h"
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
    void slicedLoadShowsWhatOneLoadShows();
    void unknownSourcesMakeNothingUp();
};

static WorldBuilder world(int members, bool breakOne)
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), members + 1);
    for (int i = 0; i < members; ++i) {
        // A /24 each while they fit, a /28 each beyond.
        const QString podCidr = members <= 250
            ? QStringLiteral("100.100.%1.0/24").arg(i)
            : QStringLiteral("100.100.%1.%2/28").arg(i / 16).arg(i % 16 * 16);
        w.healthyMember(QStringLiteral("kks-demo-pool-m%1aaa").arg(i),
            QStringLiteral("10.0.%1.%2").arg(i / 200).arg(10 + i % 200), podCidr);
    }
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

void TestNodesModel::slicedLoadShowsWhatOneLoadShows()
{
    // The console's first load of a large kluster applies its rows a thousand at a time, the first slice in
    // place of what was shown, the others appended.
    const KlusterState large = world(2500, true).state();
    const NodesModel::Prepared rows = NodesModel::prepare(large, Diagnosis::run(large));
    NodesModel whole;
    whole.apply(rows);
    NodesModel sliced;
    QAbstractItemModelTester tester(&sliced, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const KlusterState other = world(3, false).state();
    sliced.setState(other, Diagnosis::run(other));
    QSignalSpy inserted(&sliced, &QAbstractItemModel::rowsInserted);
    for (int from = 0; from < rows.size(); from += 1000)
        sliced.apply(rows.slice(from, 1000));
    QVERIFY(inserted.size() >= 3); // the first slice among the rows shown, the next ones appended
    QCOMPARE(modelText(sliced), modelText(whole));
    const QString last = QStringLiteral("kks-demo-pool-m2499aaa");
    QCOMPARE(sliced.rowOf(last), whole.rowOf(last));

    // A refresh where no node came or went: the rows that look different are said to have changed, no other.
    WorldBuilder changed = world(2500, true);
    changed.setCondition(1700, QStringLiteral("Ready"), QStringLiteral("Unknown"));
    const KlusterState again = changed.state();
    QSignalSpy changedRows(&sliced, &QAbstractItemModel::dataChanged);
    QSignalSpy removed(&sliced, &QAbstractItemModel::rowsRemoved);
    inserted.clear();
    sliced.setState(again, Diagnosis::run(again));
    whole.setState(again, Diagnosis::run(again));
    QCOMPARE(inserted.size() + removed.size(), 0);
    QCOMPARE(changedRows.size(), 1);
    const int row = sliced.rowOf(QStringLiteral("kks-demo-pool-m1700aaa"));
    QCOMPARE(changedRows.first().at(0).toModelIndex().row(), row);
    QCOMPARE(changedRows.first().at(1).toModelIndex().row(), row);
    QCOMPARE(sliced.data(sliced.index(row, NodesModel::ReadyColumn)).toString(), QStringLiteral("Unknown"));
    QCOMPARE(modelText(sliced), modelText(whole));

    // Then refreshed in place like any other.
    const KlusterState next = world(2400, false).state();
    whole.setState(next, Diagnosis::run(next));
    sliced.setState(next, Diagnosis::run(next));
    QCOMPARE(modelText(sliced), modelText(whole));
}

// Without the nodes, an instance's registration is unknown ("?"), not "no"; without the servers, a node's
// instance is unknown, not "(no instance)".
void TestNodesModel::unknownSourcesMakeNothingUp()
{
    NodesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    SourceStatus failed;
    failed.error = QStringLiteral("HTTP 503");
    KlusterState s = world(3, false).state();
    s.nodesSource = failed;
    s.nodes.clear();
    model.setState(s, Diagnosis::run(s));
    QCOMPARE(model.rowCount(), 4);
    for (int row = 0; row < model.rowCount(); ++row) {
        QCOMPARE(model.data(model.index(row, NodesModel::RegisteredColumn)).toString(), QStringLiteral("?"));
        QCOMPARE(model.data(model.index(row, NodesModel::ReadyColumn)).toString(), QStringLiteral("?"));
    }
    s = world(3, false).state();
    s.serversSource = failed;
    s.instances.clear();
    model.setState(s, Diagnosis::run(s));
    QCOMPARE(model.rowCount(), 3);
    const QString text = modelText(model).join(QLatin1Char('\n'));
    QVERIFY2(!text.contains(QStringLiteral("(no instance)")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("(unknown)")), qPrintable(text));
}

QTEST_GUILESS_MAIN(TestNodesModel)
#include "tst_nodesmodel.moc"
