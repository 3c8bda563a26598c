#include "models/filtermodel.h"
#include "models/findingsmodel.h"
#include "models/findingstreemodel.h"
#include "tests/common/worldbuilder.h"

#include <QAbstractItemModelTester>
#include <QSet>
#include <QTest>

// The findings grouped by incident (diagnosis.md §5): a correct Qt model over the flat one, the incidents
// first with their findings beneath them, every finding once, following the flat model's updates; and the
// filter over it, which hides no finding the flat table shows.
class TestFindingsTreeModel : public QObject
{
    Q_OBJECT
private slots:
    void modelTester();
    void incidentsFirstEveryFindingOnce();
    void filterAndSortKeepTheGroups();
};

namespace {

// A kluster whose node kks-demo-pool-ccccc's pod CIDR is routed to another address (a recycled CIDR: the
// stale route and the missing one, one incident), with `orphans` orphaned routes besides (in no incident).
WorldBuilder world(bool recycled, int orphans = 2)
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 3);
    w.healthyMember(
        QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), QStringLiteral("100.100.4.0/24"));
    if (recycled) {
        w.server(QStringLiteral("kks-demo-pool-ccccc"), QStringLiteral("10.0.0.6"), 60);
        w.node(QStringLiteral("kks-demo-pool-ccccc"), QStringLiteral("10.0.0.6"),
            QStringLiteral("100.100.6.0/24"));
        w.route(QStringLiteral("100.100.6.0/24"), QStringLiteral("10.0.0.4"));
    } else {
        w.healthyMember(QStringLiteral("kks-demo-pool-ccccc"), QStringLiteral("10.0.0.6"),
            QStringLiteral("100.100.6.0/24"));
    }
    for (int i = 0; i < orphans; ++i)
        w.route(QStringLiteral("100.100.%1.0/24").arg(100 + i), QStringLiteral("10.0.0.99"));
    return w;
}

QStringList rows(const QAbstractItemModel &m)
{
    QStringList out;
    for (int r = 0; r < m.rowCount(); ++r) {
        const QModelIndex top = m.index(r, 0);
        out << top.data(ConsoleRole::Key).toString();
        for (int c = 0; c < m.rowCount(top); ++c)
            out << QStringLiteral(">") + m.index(c, 0, top).data(ConsoleRole::Key).toString();
    }
    return out;
}

} // namespace

void TestFindingsTreeModel::modelTester()
{
    FindingsModel flat;
    FindingsTreeModel tree(&flat);
    QAbstractItemModelTester tester(&tree, QAbstractItemModelTester::FailureReportingMode::QtTest);
    flat.setDiagnosis(Diagnosis::run(world(true).state()));
    QCOMPARE(tree.rowCount(), flat.rowCount() - 1); // two findings under one incident
    flat.setDiagnosis(Diagnosis::run(world(false, 4).state()));
    QCOMPARE(tree.rowCount(), flat.rowCount());
    flat.setDiagnosis(Diagnosis::run(world(true, 1).state()));
    QCOMPARE(tree.rowCount(), flat.rowCount() - 1);
    flat.setDiagnosis(Diagnosis());
    QCOMPARE(tree.rowCount(), 0);
}

void TestFindingsTreeModel::incidentsFirstEveryFindingOnce()
{
    FindingsModel flat;
    FindingsTreeModel tree(&flat);
    const Diagnosis d = Diagnosis::run(world(true).state());
    QCOMPARE(d.incidents.size(), 1);
    const Incident &incident = d.incidents.first();
    flat.setDiagnosis(d);
    const QModelIndex top = tree.index(0, 0);
    QCOMPARE(top.data(ConsoleRole::Key).toString(), incident.id());
    QVERIFY(top.data(FindingsModel::IncidentRowRole).toBool());
    QCOMPARE(top.data(ConsoleRole::Findings).toStringList(), incident.members);
    QCOMPARE(tree.index(0, FindingsModel::KindColumn).data().toString(), QStringLiteral("recycled-pod-cidr"));
    QVERIFY(tree.index(0, FindingsModel::MessageColumn)
                .data()
                .toString()
                .endsWith(QStringLiteral("· 2 findings")));
    QCOMPARE(tree.index(0, FindingsModel::RepairColumn).data().toString(), QStringLiteral("Repair…"));
    QCOMPARE(tree.rowCount(top), incident.members.size());
    // Every finding once: beneath its incident, or after the incidents.
    QStringList all;
    for (const QString &r : rows(tree)) {
        if (r != incident.id())
            all << (r.startsWith(QLatin1Char('>')) ? r.mid(1) : r);
    }
    QCOMPARE(all.size(), flat.rowCount());
    QCOMPARE(QSet<QString>(all.cbegin(), all.cend()).size(), flat.rowCount());
    // A member answers as the flat table's row does.
    const QModelIndex member = tree.indexOf(incident.members.first(), FindingsModel::MessageColumn);
    QVERIFY(member.isValid() && member.parent() == top);
    QCOMPARE(
        member.data(), flat.index(flat.rowOf(incident.members.first()), FindingsModel::MessageColumn).data());
    // Repaired: the incident goes, its findings with it; an update, not a reset.
    QPersistentModelIndex lone
        = tree.indexOf(QStringLiteral("route-orphaned:100.100.100.0/24 via 10.0.0.99"));
    QVERIFY(lone.isValid());
    flat.setDiagnosis(Diagnosis::run(world(false).state()));
    QVERIFY(lone.isValid());
    QCOMPARE(tree.rowCount(), flat.rowCount());
    QVERIFY(!tree.indexOf(incident.id()).isValid());
}

void TestFindingsTreeModel::filterAndSortKeepTheGroups()
{
    FindingsModel flat;
    FindingsTreeModel tree(&flat);
    FilterModel filter;
    filter.setKnownFields(FindingsModel::filterFields());
    filter.setSourceModel(&tree);
    filter.setGroupsFirst(true);
    QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const Diagnosis d = Diagnosis::run(world(true).state());
    flat.setDiagnosis(d);
    const QString incident = d.incidents.first().id();
    // The incident first whichever way a column sorts; rows sort within it.
    for (const Qt::SortOrder order : { Qt::AscendingOrder, Qt::DescendingOrder }) {
        filter.sort(FindingsModel::SubjectColumn, order);
        QCOMPARE(filter.index(0, 0).data(ConsoleRole::Key).toString(), incident);
        const QModelIndex top = filter.index(0, 0);
        const QString a = filter.index(0, FindingsModel::SubjectColumn, top).data().toString();
        const QString b = filter.index(1, FindingsModel::SubjectColumn, top).data().toString();
        QVERIFY2(order == Qt::AscendingOrder ? a < b : a > b, qPrintable(a + QLatin1Char('|') + b));
    }
    // A filter that names a member: the incident over it, and no other member.
    filter.setText(QStringLiteral("kind:route-missing"));
    QCOMPARE(rows(filter), QStringList({ incident, QStringLiteral(">route-missing:kks-demo-pool-ccccc") }));
    // One that names the incident: it with all its findings.
    filter.setText(QStringLiteral("incident:recycled"));
    QCOMPARE(filter.rowCount(), 1);
    QCOMPARE(filter.rowCount(filter.index(0, 0)), 2);
    // Critical only, as the flat table: the incident with its two findings, not the orphaned routes.
    filter.setText(QString());
    filter.setMinimumSeverity(Severity::Critical);
    QCOMPARE(filter.rowCount(), 1);
    QCOMPARE(filter.rowCount(filter.index(0, 0)), 2);
}

QTEST_MAIN(TestFindingsTreeModel)
#include "tst_findingstreemodel.moc"
