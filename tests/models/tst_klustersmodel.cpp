#include "models/klustersmodel.h"
#include "tests/common/worldbuilder.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

// The sidebar's model: klusters across connections, worst severity, staleness.
class TestKlustersModel : public QObject
{
    Q_OBJECT
private slots:
    void lifecycle();
    void incompleteKeepsItsRank();
    void failedConnectionHasARow();
};

void TestKlustersModel::lifecycle()
{
    KlustersModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setKluster(QStringLiteral("prod"), QStringLiteral("k1"));
    model.setKluster(QStringLiteral("prod"), QStringLiteral("k2"));
    model.setKluster(QStringLiteral("lab"), QStringLiteral("k1"));
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(
        model.data(model.index(0, KlustersModel::WorstColumn)).toString(), QStringLiteral("not checked yet"));

    WorldBuilder w;
    w.server(QStringLiteral("kks-demo-pool-x7k2p"), QStringLiteral("10.0.0.5"), 60);
    const QDateTime at = WorldBuilder::defaultCapturedAt();
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.setDiagnosis(QStringLiteral("prod"), QStringLiteral("k2"), Diagnosis::run(w.state()), at);
    QCOMPARE(changed.count(), 1);
    const int row = model.rowOf(QStringLiteral("prod"), QStringLiteral("k2"));
    QCOMPARE(model.data(model.index(row, KlustersModel::WorstColumn)).toString(), QStringLiteral("critical"));
    QCOMPARE(model.data(model.index(row, KlustersModel::CriticalColumn)).toInt(), 1);
    QCOMPARE(model.data(model.index(row, 0), KlustersModel::FetchedAtRole).toDateTime(), at);

    // A failed refresh keeps the last diagnosis and says so.
    model.setError(QStringLiteral("prod"), QStringLiteral("k2"),
        QStringLiteral("compute: GET /servers/detail: HTTP 503"));
    QCOMPARE(model.data(model.index(row, KlustersModel::CriticalColumn)).toInt(), 1);
    QVERIFY(model.data(model.index(row, 0), Qt::ToolTipRole).toString().contains(QStringLiteral("HTTP 503")));

    model.setDiagnosis(
        QStringLiteral("prod"), QStringLiteral("k1"), Diagnosis::run(WorldBuilder().state()), at);
    QCOMPARE(model
                 .data(model.index(
                     model.rowOf(QStringLiteral("prod"), QStringLiteral("k1")), KlustersModel::WorstColumn))
                 .toString(),
        QStringLiteral("healthy"));
    model.removeConnection(QStringLiteral("prod"));
    QCOMPARE(model.rowCount(), 1);
}

void TestKlustersModel::incompleteKeepsItsRank()
{
    KlustersModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    WorldBuilder broken;
    broken.server(QStringLiteral("kks-demo-pool-x7k2p"), QStringLiteral("10.0.0.5"), 60);
    broken.server(QStringLiteral("kks-demo-pool-y7k2p"), QStringLiteral("10.0.0.6"), 60);
    const QDateTime at = WorldBuilder::defaultCapturedAt();
    const Diagnosis complete = Diagnosis::run(broken.state());
    QCOMPARE(complete.count(Severity::Critical), 2);
    model.setDiagnosis(QStringLiteral("prod"), QStringLiteral("k1"), complete, at);
    model.setDiagnosis(
        QStringLiteral("prod"), QStringLiteral("k2"), Diagnosis::run(WorldBuilder().state()), at);
    const int row = model.rowOf(QStringLiteral("prod"), QStringLiteral("k1"));
    const qint64 rank
        = model.index(row, KlustersModel::CriticalColumn).data(KlustersModel::SortRole).toLongLong();

    // Nova fails: the next diagnosis sees nothing wrong with the instances it could not read.
    model.setDiagnosis(QStringLiteral("prod"), QStringLiteral("k1"), Diagnosis::run(WorldBuilder().state()),
        at.addSecs(60), QStringLiteral("compute GET /servers/detail: HTTP 503"));
    QCOMPARE(KlustersModel::State(model.index(row, 0).data(KlustersModel::StateRole).toInt()),
        KlustersModel::State::Incomplete);
    QCOMPARE(model.index(row, KlustersModel::CriticalColumn).data().toString(), QStringLiteral("≥ 0"));
    QCOMPARE(
        model.index(row, KlustersModel::KlusterColumn).data().toString(), QStringLiteral("k1 (incomplete)"));
    QVERIFY(model.index(row, 0).data(KlustersModel::AlarmRole).toBool());
    QVERIFY(model.index(row, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("HTTP 503")));
    // It keeps its rank above the healthy kluster, and its worst severity.
    QCOMPARE(
        model.index(row, KlustersModel::CriticalColumn).data(KlustersModel::SortRole).toLongLong(), rank);
    QCOMPARE(ConsoleRole::severityOf(model.index(row, 0)), std::optional(Severity::Critical));
    // Complete again: the counts are what they are.
    model.setDiagnosis(QStringLiteral("prod"), QStringLiteral("k1"), Diagnosis::run(WorldBuilder().state()),
        at.addSecs(120));
    QCOMPARE(model.index(row, KlustersModel::CriticalColumn).data().toInt(), 0);
    QVERIFY(!model.index(row, 0).data(KlustersModel::AlarmRole).toBool());
}

void TestKlustersModel::failedConnectionHasARow()
{
    KlustersModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setConnectionError(QStringLiteral("prod"),
        QStringLiteral("keystone: HTTP 401: The request you have made requires authentication."));
    QCOMPARE(model.rowCount(), 1);
    const QModelIndex row = model.index(0, 0);
    QCOMPARE(row.data(KlustersModel::KeyRole).toString(), QStringLiteral("prod/"));
    QCOMPARE(KlustersModel::State(row.data(KlustersModel::StateRole).toInt()),
        KlustersModel::State::ConnectionFailed);
    QCOMPARE(ConsoleRole::severityOf(row), std::optional(Severity::Critical));
    QVERIFY(row.data(Qt::ToolTipRole).toString().contains(QStringLiteral("HTTP 401")));
    // Once it lists a kluster, the kluster stands for it.
    model.setKluster(QStringLiteral("prod"), QStringLiteral("k1"));
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.index(0, 0).data(KlustersModel::KlusterRole).toString(), QStringLiteral("k1"));
    model.setConnectionError(QStringLiteral("prod"), QStringLiteral("again"));
    QCOMPARE(model.rowCount(), 1); // its klusters carry on, each with its own state
    model.removeConnection(QStringLiteral("prod"));
    QCOMPARE(model.rowCount(), 0);
}

QTEST_GUILESS_MAIN(TestKlustersModel)
#include "tst_klustersmodel.moc"
