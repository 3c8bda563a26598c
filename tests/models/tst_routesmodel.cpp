#include "routesmodel.h"
#include "worldbuilder.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

// The route audit as a model: roles, owners, missing routes, incremental.
class TestRoutesModel : public QObject
{
    Q_OBJECT
private slots:
    void rolesAndOwners();
    void incrementalRefresh();
};

static WorldBuilder world(bool orphan)
{
    WorldBuilder w(QStringLiteral("legacy"), QStringLiteral("198.19.0.0/16"));
    w.pool(QStringLiteral("pool"), 2);
    w.route(QStringLiteral("198.19.1.0/24"), QStringLiteral("10.180.0.3"));
    w.healthyMember(QStringLiteral("kks-legacy-pool-aaaaa"), QStringLiteral("10.180.0.5"), QStringLiteral("198.19.1.0/24"));
    w.server(QStringLiteral("kks-legacy-pool-bbbbb"), QStringLiteral("10.180.0.6"), 60 * 24);
    w.node(QStringLiteral("kks-legacy-pool-bbbbb"), QStringLiteral("10.180.0.6"), QStringLiteral("198.19.2.0/24"));
    w.route(QStringLiteral("10.0.0.0/8"), QStringLiteral("10.180.0.77"));
    if (orphan)
        w.route(QStringLiteral("198.19.9.0/24"), QStringLiteral("10.180.0.99"));
    return w;
}

void TestRoutesModel::rolesAndOwners()
{
    RoutesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setState(world(true).state(), {{QStringLiteral("10.180.0.77"), QStringLiteral("kluster red")}});
    QCOMPARE(model.rowCount(), 5);  // 4 on the router + 1 missing
    QCOMPARE(model.routeCount(), 4);
    auto cell = [&model](const QString &key, int column) { return model.data(model.index(model.rowOf(key), column)).toString(); };
    QCOMPARE(cell(QStringLiteral("198.19.1.0/24 via 10.180.0.3"), RoutesModel::RolesColumn), QStringLiteral("effective, duplicate, orphaned"));
    QCOMPARE(cell(QStringLiteral("198.19.1.0/24 via 10.180.0.3"), RoutesModel::OwnerColumn), QStringLiteral("nobody"));
    QCOMPARE(cell(QStringLiteral("198.19.1.0/24 via 10.180.0.5"), RoutesModel::OwnerColumn), QStringLiteral("node kks-legacy-pool-aaaaa"));
    QCOMPARE(cell(QStringLiteral("10.0.0.0/8 via 10.180.0.77"), RoutesModel::OwnerColumn), QStringLiteral("kluster red"));
    QCOMPARE(cell(QStringLiteral("10.0.0.0/8 via 10.180.0.77"), RoutesModel::RolesColumn), QStringLiteral("foreign"));
    QCOMPARE(cell(QStringLiteral("198.19.2.0/24 via 10.180.0.6"), RoutesModel::RolesColumn), QStringLiteral("missing"));
    QCOMPARE(cell(QStringLiteral("198.19.2.0/24 via 10.180.0.6"), RoutesModel::PositionColumn), QStringLiteral("(not on the router)"));
    QVERIFY(model.data(model.index(model.rowOf(QStringLiteral("198.19.9.0/24 via 10.180.0.99")), 0), RoutesModel::ProblemRole).toBool());
}

void TestRoutesModel::incrementalRefresh()
{
    RoutesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setState(world(true).state());
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    model.setState(world(false).state());  // the orphan was removed
    QCOMPARE(reset.count(), 0);
    QCOMPARE(removed.count(), 1);
    QCOMPARE(model.rowCount(), 4);
}

QTEST_GUILESS_MAIN(TestRoutesModel)
#include "tst_routesmodel.moc"
