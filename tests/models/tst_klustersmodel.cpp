#include "klustersmodel.h"
#include "worldbuilder.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

// The sidebar's model: klusters across connections, worst severity, staleness.
class TestKlustersModel : public QObject
{
    Q_OBJECT
private slots:
    void lifecycle();
};

void TestKlustersModel::lifecycle()
{
    KlustersModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setKluster(QStringLiteral("prod"), QStringLiteral("k1"));
    model.setKluster(QStringLiteral("prod"), QStringLiteral("k2"));
    model.setKluster(QStringLiteral("lab"), QStringLiteral("k1"));
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.data(model.index(0, KlustersModel::WorstColumn)).toString(), QStringLiteral("not checked yet"));

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
    model.setError(QStringLiteral("prod"), QStringLiteral("k2"), QStringLiteral("compute: GET /servers/detail: HTTP 503"));
    QCOMPARE(model.data(model.index(row, KlustersModel::CriticalColumn)).toInt(), 1);
    QVERIFY(model.data(model.index(row, 0), Qt::ToolTipRole).toString().contains(QStringLiteral("HTTP 503")));

    model.setDiagnosis(QStringLiteral("prod"), QStringLiteral("k1"), Diagnosis::run(WorldBuilder().state()), at);
    QCOMPARE(model.data(model.index(model.rowOf(QStringLiteral("prod"), QStringLiteral("k1")), KlustersModel::WorstColumn)).toString(),
             QStringLiteral("healthy"));
    model.removeConnection(QStringLiteral("prod"));
    QCOMPARE(model.rowCount(), 1);
}

QTEST_GUILESS_MAIN(TestKlustersModel)
#include "tst_klustersmodel.moc"
