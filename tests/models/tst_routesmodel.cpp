#include "models/filtermodel.h"
#include "models/routesmodel.h"
#include "tests/common/modeltext.h"
#include "tests/common/worldbuilder.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

// The route audit as a tree: destinations with several routes are groups
// whose routes are their children in router order; roles, owners, findings,
// missing routes; updated in place; filtered and scoped like the console does.
class TestRoutesModel : public QObject
{
    Q_OBJECT
private slots:
    void groupsRolesAndOwners();
    void incrementalRefresh();
    void filterAndScope();
    void slicedLoadShowsWhatOneLoadShows();
    void unknownSourcesMakeNothingUp_data();
    void unknownSourcesMakeNothingUp();
    void devicesBesideNeutron();
};

// 198.19.1.0/24 twice (an orphan first, then the node's), a missing route, a foreign one, optionally an
// orphan.
static WorldBuilder world(bool orphan, bool duplicate = true)
{
    WorldBuilder w(QStringLiteral("legacy"), QStringLiteral("198.19.0.0/16"));
    w.pool(QStringLiteral("pool"), 2);
    if (duplicate)
        w.route(QStringLiteral("198.19.1.0/24"), QStringLiteral("10.180.0.3"));
    w.healthyMember(QStringLiteral("kks-legacy-pool-aaaaa"), QStringLiteral("10.180.0.5"),
        QStringLiteral("198.19.1.0/24"));
    w.server(QStringLiteral("kks-legacy-pool-bbbbb"), QStringLiteral("10.180.0.6"), 60 * 24);
    w.node(QStringLiteral("kks-legacy-pool-bbbbb"), QStringLiteral("10.180.0.6"),
        QStringLiteral("198.19.2.0/24"));
    w.route(QStringLiteral("10.0.0.0/8"), QStringLiteral("10.180.0.77"));
    if (orphan)
        w.route(QStringLiteral("198.19.9.0/24"), QStringLiteral("10.180.0.99"));
    return w;
}

static void setWorld(RoutesModel &model, const WorldBuilder &w)
{
    const KlusterState state = w.state();
    model.setState(
        state, Diagnosis::run(state), { { QStringLiteral("10.180.0.77"), QStringLiteral("kluster red") } });
}

void TestRoutesModel::groupsRolesAndOwners()
{
    RoutesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    setWorld(model, world(true));
    QCOMPARE(model.rowCount(), 4); // 3 destinations on the router + 1 missing
    QCOMPARE(model.routeCount(), 4);
    QCOMPARE(model.foreignCount(), 1);
    const auto cell = [&model](const QString &key, int column) {
        const QModelIndex i = model.indexOf(key);
        return i.siblingAtColumn(column).data().toString();
    };

    // The duplicate destination is a group of its two routes, in router order.
    const QModelIndex group = model.indexOf(QStringLiteral("198.19.1.0/24"));
    QVERIFY(group.isValid());
    QVERIFY(group.data(RoutesModel::GroupRole).toBool());
    QCOMPARE(model.rowCount(group), 2);
    QCOMPARE(cell(QStringLiteral("198.19.1.0/24"), RoutesModel::NexthopColumn), QStringLiteral("2 routes"));
    QVERIFY2(cell(QStringLiteral("198.19.1.0/24"), RoutesModel::RolesColumn)
                 .contains(QStringLiteral("the orphaned one wins")),
        qPrintable(cell(QStringLiteral("198.19.1.0/24"), RoutesModel::RolesColumn)));
    QCOMPARE(model.index(0, 0, group).data(RoutesModel::KeyRole).toString(),
        QStringLiteral("198.19.1.0/24 via 10.180.0.3"));
    QCOMPARE(model.parent(model.index(1, 0, group)), group);
    QCOMPARE(ConsoleRole::severityOf(group), std::optional(Severity::Critical));

    const QString wrong = QStringLiteral("198.19.1.0/24 via 10.180.0.3");
    const QString right = QStringLiteral("198.19.1.0/24 via 10.180.0.5");
    QCOMPARE(cell(wrong, RoutesModel::RolesColumn), QStringLiteral("effective, duplicate, orphaned"));
    QCOMPARE(cell(wrong, RoutesModel::OwnerColumn), QStringLiteral("nobody"));
    QCOMPARE(cell(right, RoutesModel::OwnerColumn), QStringLiteral("node kks-legacy-pool-aaaaa"));
    // Both belong to the duplicate finding; only the wrong one is marked.
    QCOMPARE(model.indexOf(wrong).data(RoutesModel::FindingsRole).toStringList(),
        QStringList { QStringLiteral("route-duplicate:198.19.1.0/24") });
    QCOMPARE(model.indexOf(right).data(RoutesModel::FindingsRole).toStringList(),
        QStringList { QStringLiteral("route-duplicate:198.19.1.0/24") });
    QCOMPARE(ConsoleRole::severityOf(model.indexOf(wrong)), std::optional(Severity::Critical));
    QCOMPARE(ConsoleRole::severityOf(model.indexOf(right)), std::nullopt);

    // A destination with one route is one row, keyed by its route.
    QCOMPARE(cell(QStringLiteral("10.0.0.0/8 via 10.180.0.77"), RoutesModel::OwnerColumn),
        QStringLiteral("kluster red"));
    QCOMPARE(cell(QStringLiteral("10.0.0.0/8 via 10.180.0.77"), RoutesModel::RolesColumn),
        QStringLiteral("foreign"));
    QVERIFY(
        model.indexOf(QStringLiteral("10.0.0.0/8 via 10.180.0.77")).data(RoutesModel::ForeignRole).toBool());
    QCOMPARE(cell(QStringLiteral("198.19.2.0/24 via 10.180.0.6"), RoutesModel::RolesColumn),
        QStringLiteral("missing"));
    QCOMPARE(cell(QStringLiteral("198.19.2.0/24 via 10.180.0.6"), RoutesModel::PositionColumn),
        QStringLiteral("(not on the router)"));
    QCOMPARE(model.indexOf(QStringLiteral("198.19.2.0/24 via 10.180.0.6"))
                 .data(RoutesModel::FindingsRole)
                 .toStringList(),
        QStringList { QStringLiteral("route-missing:kks-legacy-pool-bbbbb") });
    QVERIFY(model.indexOf(QStringLiteral("198.19.9.0/24 via 10.180.0.99"))
                .data(RoutesModel::ProblemRole)
                .toBool());
    QCOMPARE(ConsoleRole::severityOf(model.indexOf(QStringLiteral("198.19.9.0/24 via 10.180.0.99"))),
        std::optional(Severity::Warning));
}

void TestRoutesModel::incrementalRefresh()
{
    RoutesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    setWorld(model, world(true));
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    const QPersistentModelIndex foreign = model.indexOf(QStringLiteral("10.0.0.0/8 via 10.180.0.77"));
    setWorld(model, world(false)); // the orphan was removed
    QCOMPARE(reset.count(), 0);
    QCOMPARE(removed.count(), 1);
    QCOMPARE(model.rowCount(), 3);
    QVERIFY(foreign.isValid());
    QCOMPARE(foreign.data(RoutesModel::KeyRole).toString(), QStringLiteral("10.0.0.0/8 via 10.180.0.77"));

    // The duplicate repaired: its group keeps its place, its routes go, and it is the one route now.
    const QPersistentModelIndex group = model.indexOf(QStringLiteral("198.19.1.0/24"));
    setWorld(model, world(false, false));
    QCOMPARE(reset.count(), 0);
    QVERIFY(group.isValid());
    QCOMPARE(model.rowCount(group), 0);
    QCOMPARE(group.data(RoutesModel::KeyRole).toString(), QStringLiteral("198.19.1.0/24 via 10.180.0.5"));
    QCOMPARE(ConsoleRole::severityOf(group), std::nullopt);
    // And back.
    setWorld(model, world(true));
    QCOMPARE(model.rowCount(group), 2);
    QCOMPARE(model.rowCount(), 4);
}

void TestRoutesModel::filterAndScope()
{
    RoutesModel model;
    setWorld(model, world(true));
    FilterModel filter;
    filter.setKnownFields(RoutesModel::filterFields());
    filter.setGrouped(RoutesModel::PositionColumn);
    filter.setSourceModel(&model);
    QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(filter.rowCount(), 4);

    // A route inside a group brings its group, with every route of it (the right one beside the wrong one).
    filter.setText(QStringLiteral("nexthop:10.180.0.3"));
    QCOMPARE(filter.rowCount(), 1);
    QCOMPARE(filter.rowCount(filter.index(0, 0)), 2);
    filter.setText(QStringLiteral("-role:foreign"));
    QCOMPARE(filter.rowCount(), 3);
    filter.setText(QStringLiteral("kind:route-missing"));
    QCOMPARE(filter.rowCount(), 1);
    filter.setText(QString());

    // Problems only, as the view's scope.
    filter.setPredicate([](const QModelIndex &row) { return row.data(RoutesModel::ProblemRole).toBool(); });
    QCOMPARE(filter.rowCount(), 3); // the duplicate, the missing, the orphan
    // Sorting sorts groups; a group's routes keep the router's order either way.
    filter.sort(RoutesModel::DestinationColumn, Qt::DescendingOrder);
    const QModelIndex group = filter.index(filter.rowCount() - 1, 0);
    QCOMPARE(group.data(RoutesModel::KeyRole).toString(), QStringLiteral("198.19.1.0/24"));
    QCOMPARE(filter.index(0, 0, group).data(RoutesModel::KeyRole).toString(),
        QStringLiteral("198.19.1.0/24 via 10.180.0.3"));
    filter.sort(RoutesModel::DestinationColumn, Qt::AscendingOrder);
    QCOMPARE(filter.index(0, 0, filter.index(0, 0)).data(RoutesModel::KeyRole).toString(),
        QStringLiteral("198.19.1.0/24 via 10.180.0.3"));
}

void TestRoutesModel::slicedLoadShowsWhatOneLoadShows()
{
    // 2,500 destinations (some with two routes, some orphaned, some missing): the console's first load of a
    // large kluster applies them a thousand at a time, the first slice in place of what was shown.
    const auto large = [](bool changed, bool moved = false) {
        WorldBuilder w(QStringLiteral("legacy"), QStringLiteral("198.19.0.0/16"));
        w.pool(QStringLiteral("pool"), 2600);
        for (int i = 0; i < 2500; ++i) {
            const QString ip = QStringLiteral("10.180.%1.%2").arg(i / 200).arg(10 + i % 200);
            const QString cidr = QStringLiteral("198.19.%1.%2/28").arg(i / 16).arg((i % 16) * 16);
            const QString name = QStringLiteral("kks-legacy-pool-%1").arg(i, 5, 10, QLatin1Char('0'));
            if (moved && ((i >= 500 && i < 510) || i == 1203 || i == 2498))
                continue; // gone
            if (i % 97 == 0) { // missing its route
                w.server(name, ip, 60 * 24);
                w.node(name, ip, cidr);
                continue;
            }
            w.healthyMember(name, ip, cidr);
            if (i % 41 == 0 || (changed && i % 43 == 0))
                w.route(cidr, QStringLiteral("10.181.0.%1").arg(i % 250)); // a second route: a group
        }
        for (int i = 0; i < 30; ++i) // orphans
            w.route(QStringLiteral("198.19.250.%1/32").arg(i), QStringLiteral("10.182.0.%1").arg(i));
        for (int i = 0; moved && i < 5; ++i) // new ones
            w.route(QStringLiteral("198.19.200.%1/32").arg(i), QStringLiteral("10.183.0.%1").arg(i));
        const KlusterState state = w.state();
        return RoutesModel::prepare(state, Diagnosis::run(state), {});
    };
    const RoutesModel::Prepared first = large(false);
    QVERIFY(first.size() > 2500);

    RoutesModel whole;
    whole.apply(first);
    RoutesModel sliced;
    QAbstractItemModelTester tester(&sliced, QAbstractItemModelTester::FailureReportingMode::QtTest);
    setWorld(sliced, world(true)); // what another kluster showed
    for (int from = 0; from < first.size(); from += 1000)
        sliced.apply(first.slice(from, 1000));
    QCOMPARE(sliced.rowCount(), whole.rowCount());
    QCOMPARE(modelText(sliced), modelText(whole));
    const QString late = first.groups.constLast().row.key; // in the last slice
    QVERIFY(sliced.indexOf(late).isValid());
    QCOMPARE(sliced.indexOf(late).data().toString(), whole.indexOf(late).data().toString());

    // A refresh after it changes rows in place, as after a load in one piece.
    const RoutesModel::Prepared next = large(true);
    whole.apply(next);
    sliced.apply(next);
    QCOMPARE(modelText(sliced), modelText(whole));

    // Destinations gone and new in a few places: removed and inserted where they belong, the tree and a
    // filter above it consistent at every step.
    FilterModel filter;
    filter.setSourceModel(&sliced);
    QAbstractItemModelTester filterTester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy removed(&sliced, &QAbstractItemModel::rowsRemoved);
    QSignalSpy inserted(&sliced, &QAbstractItemModel::rowsInserted);
    const RoutesModel::Prepared moved = large(true, true);
    whole.apply(moved);
    sliced.apply(moved);
    QVERIFY(!removed.isEmpty() && !inserted.isEmpty());
    QCOMPARE(modelText(sliced), modelText(whole));
    QCOMPARE(modelText(filter), modelText(whole));
    for (int row = 0; row < moved.groups.size(); ++row) { // in the order they are made in, and found there
        const QString key = moved.groups.at(row).row.key;
        QCOMPARE(sliced.index(row, 0).data(RoutesModel::KeyRole).toString(), key);
        QCOMPARE(sliced.indexOf(key).row(), row);
    }
    // And back.
    whole.apply(next);
    sliced.apply(next);
    QCOMPARE(modelText(sliced), modelText(whole));
}

void TestRoutesModel::unknownSourcesMakeNothingUp_data()
{
    QTest::addColumn<QString>("source"); // the one that could not be read
    QTest::newRow("router") << "router";
    QTest::newRow("servers") << "servers";
    QTest::newRow("nodes") << "nodes";
}

// A source that could not be read makes what rests on it unknown, never a made-up state: without the router
// no route (and none "missing"); without the servers or the nodes no route's role or owner, and no missing
// route.
void TestRoutesModel::unknownSourcesMakeNothingUp()
{
    QFETCH(QString, source);
    RoutesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    KlusterState state = world(true).state();
    SourceStatus failed;
    failed.error = QStringLiteral("network: GET /v2.0/routers: connection closed");
    if (source == QLatin1String("router")) {
        state.routerSource = failed;
        state.router = Router();
    } else if (source == QLatin1String("servers")) {
        state.serversSource = failed;
        state.instances.clear();
    } else {
        state.nodesSource = failed;
        state.nodes.clear();
    }
    model.setState(state, Diagnosis::run(state), {});
    if (source == QLatin1String("router")) {
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.routeCount(), 0);
        return;
    }
    QCOMPARE(model.rowCount(), 3); // the router's 3 destinations; no missing one
    const QString text = modelText(model).join(QLatin1Char('\n'));
    QVERIFY2(!text.contains(QStringLiteral("missing")), qPrintable(text));
    QVERIFY2(!text.contains(QStringLiteral("orphaned")), qPrintable(text));
    QVERIFY2(!text.contains(QStringLiteral("nobody")), qPrintable(text));
    QVERIFY2(!text.contains(QStringLiteral("(not on the router)")), qPrintable(text));
    const QModelIndex orphan = model.indexOf(QStringLiteral("198.19.9.0/24 via 10.180.0.99"));
    QVERIFY(orphan.isValid());
    QVERIFY2(orphan.siblingAtColumn(RoutesModel::RolesColumn)
                 .data()
                 .toString()
                 .contains(QStringLiteral("unknown: the %1 could not be read").arg(source)),
        qPrintable(orphan.siblingAtColumn(RoutesModel::RolesColumn).data().toString()));
    QCOMPARE(orphan.siblingAtColumn(RoutesModel::OwnerColumn).data().toString(),
        source == QLatin1String("servers") ? QStringLiteral("unknown")
                                           : QStringLiteral("no instance (nodes unknown)"));
    QVERIFY2(!text.contains(QStringLiteral("no node has")), qPrintable(text));
}

// Where the router's devices were read: a column each (the ACTIVE first), a route's place on each device or
// that it lacks it, the route only a device holds as a row of its destination with its finding, the group's
// device cell the route that wins there; in place when the devices come back in step.
void TestRoutesModel::devicesBesideNeutron()
{
    RoutesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy headers(&model, &QAbstractItemModel::headerDataChanged);
    KlusterState state = world(false, false).state();
    const Route kept { QStringLiteral("198.19.1.0/24"), QStringLiteral("10.180.0.3") };
    const Route nodes { QStringLiteral("198.19.1.0/24"), QStringLiteral("10.180.0.5") };
    const Route foreign { QStringLiteral("10.0.0.0/8"), QStringLiteral("10.180.0.77") };
    RouterDevice standby { QStringLiteral("10.44.0.36"), DeviceRole::Unknown, { foreign }, -1, QString() };
    RouterDevice active { QStringLiteral("10.44.0.35"), DeviceRole::Unknown, { foreign, kept, nodes }, -1,
        QString() };
    state.routerDevices.devices = { standby, active };
    state.routerDevices.inStep = false;
    state.routerDeviceSource.known = true;
    DiagnosisOptions options;
    options.activeDevices = { QStringLiteral("10.44.0.35") };
    model.setState(state, Diagnosis::run(state, options));
    QCOMPARE(model.deviceHeaders(),
        QStringList({ QStringLiteral("ACTIVE 10.44.0.35"), QStringLiteral("STANDBY 10.44.0.36") }));
    QCOMPARE(headers.size(), 1);
    const auto cell = [&model](const QString &key, int column) {
        return model.indexOf(key).siblingAtColumn(column).data().toString();
    };
    const QString keptKey = QStringLiteral("198.19.1.0/24 via 10.180.0.3");
    const QString nodesKey = QStringLiteral("198.19.1.0/24 via 10.180.0.5");
    QCOMPARE(cell(nodesKey, RoutesModel::FirstDeviceColumn), QStringLiteral("#3"));
    QCOMPARE(cell(nodesKey, RoutesModel::SecondDeviceColumn), QStringLiteral("missing"));
    QVERIFY(model.indexOf(nodesKey).data(RoutesModel::DeviceProblemRole).toBool());
    QCOMPARE(
        model.indexOf(nodesKey).data(ConsoleRole::Severity).toInt(), int(Severity::Warning)); // STANDBY's
    // The deleted route the ACTIVE kept: in Neutron nowhere, second on the device, before the node's.
    QCOMPARE(cell(keptKey, RoutesModel::PositionColumn), QStringLiteral("not in Neutron"));
    QCOMPARE(cell(keptKey, RoutesModel::FirstDeviceColumn), QStringLiteral("#2, not in Neutron"));
    QCOMPARE(cell(keptKey, RoutesModel::SecondDeviceColumn), QString());
    QCOMPARE(model.indexOf(keptKey).data(ConsoleRole::Severity).toInt(), int(Severity::Critical));
    QVERIFY(model.indexOf(keptKey).data(RoutesModel::ProblemRole).toBool());
    QVERIFY(model.indexOf(keptKey)
                .data(ConsoleRole::Findings)
                .toStringList()
                .contains(QStringLiteral("device-route-stale:198.19.1.0/24 via 10.180.0.3 on 10.44.0.35")));
    // Their destination: the kept one carries its traffic on the ACTIVE.
    const QModelIndex group = model.indexOf(QStringLiteral("198.19.1.0/24"));
    QVERIFY(group.data(RoutesModel::GroupRole).toBool());
    QCOMPARE(group.siblingAtColumn(RoutesModel::FirstDeviceColumn).data().toString(),
        QStringLiteral("via 10.180.0.3, not in Neutron"));
    QCOMPARE(
        group.siblingAtColumn(RoutesModel::SecondDeviceColumn).data().toString(), QStringLiteral("missing"));
    QCOMPARE(cell(QStringLiteral("10.0.0.0/8 via 10.180.0.77"), RoutesModel::SecondDeviceColumn),
        QStringLiteral("#1"));

    // In step again: one column, as Neutron; the device's route is gone, updated in place.
    state.routerDevices = RouterDevices();
    model.setState(state, Diagnosis::run(state, options));
    QCOMPARE(model.deviceHeaders(), QStringList { QStringLiteral("Devices (in step)") });
    QVERIFY(!model.indexOf(keptKey).isValid());
    QCOMPARE(cell(nodesKey, RoutesModel::FirstDeviceColumn), QStringLiteral("as Neutron"));
    QVERIFY(!model.indexOf(nodesKey).data(RoutesModel::ProblemRole).toBool());
    // Not read: no column.
    state.routerDeviceSource.known = false;
    state.routerDeviceSource.error = QStringLiteral("not readable with these credentials");
    model.setState(state, Diagnosis::run(state, options));
    QVERIFY(model.deviceHeaders().isEmpty());
    QCOMPARE(model.devicesWhy(), QStringLiteral("not readable with these credentials"));
}

QTEST_GUILESS_MAIN(TestRoutesModel)
#include "tst_routesmodel.moc"
