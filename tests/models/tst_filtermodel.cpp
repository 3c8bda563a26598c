#include "filtermodel.h"
#include "findingsmodel.h"
#include "worldbuilder.h"

#include <QAbstractItemModelTester>
#include <QTest>

// Filtering and sorting the console's tables.
class TestFilterModel : public QObject
{
    Q_OBJECT
private slots:
    void filterAndSort();
};

void TestFilterModel::filterAndSort()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 2);
    w.server(QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), 45);  // critical
    w.server(QStringLiteral("kks-demo-pool-bbbbb"), QStringLiteral("10.0.0.5"), 15);  // warning
    w.route(QStringLiteral("100.100.9.0/24"), QStringLiteral("10.0.0.99"));           // warning
    FindingsModel findings;
    findings.setDiagnosis(Diagnosis::run(w.state()));
    FilterModel filter(FindingsModel::SortRole, FindingsModel::SeverityRole);
    filter.setSourceModel(&findings);
    QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(filter.rowCount(), 3);
    filter.setText(QStringLiteral("POOL-bbbbb unregistered"));
    QCOMPARE(filter.rowCount(), 1);
    filter.setText(QString());
    filter.setMaximumSeverity(int(Severity::Critical));
    QCOMPARE(filter.rowCount(), 1);
    filter.setMaximumSeverity(-1);
    filter.sort(FindingsModel::SeverityColumn, Qt::AscendingOrder);
    QCOMPARE(filter.index(0, FindingsModel::SeverityColumn).data().toString(), QStringLiteral("critical"));
    filter.sort(FindingsModel::SeverityColumn, Qt::DescendingOrder);
    QCOMPARE(filter.index(0, FindingsModel::SeverityColumn).data().toString(), QStringLiteral("warning"));
}

QTEST_GUILESS_MAIN(TestFilterModel)
#include "tst_filtermodel.moc"
