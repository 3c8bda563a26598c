#include "core/exportedfleet.h"
#include "models/filtermodel.h"
#include "models/fleettiles.h"
#include "models/klustergroups.h"
#include "models/klustersmodel.h"
#include "tests/common/worldbuilder.h"

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QSignalSpy>
#include <QTest>
#include <algorithm>
#include <climits>

// The sidebar's model: klusters across connections, worst severity, staleness.
class TestKlustersModel : public QObject
{
    Q_OBJECT
private slots:
    void lifecycle();
    void incompleteKeepsItsRank();
    void failedConnectionHasARow();
    void groupedByConnection();
    void groupSumsFollowEveryChange();
    void groupChangeSaidOncePerTurn();
    void fleetTilesGroupFilterAndCount();
    void oneRankingAndOneVocabulary();
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
    // The worst column names the worst cause, why the kluster ranks where it does.
    QCOMPARE(model.data(model.index(row, KlustersModel::WorstColumn)).toString(),
        QStringLiteral("node never registered"));
    QCOMPARE(ConsoleRole::severityOf(model.index(row, 0)), Severity::Critical);
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
    WorldBuilder broken; // two instances past their token's expiry, not yet flight's deletion (45 min)
    broken.server(QStringLiteral("kks-demo-pool-x7k2p"), QStringLiteral("10.0.0.5"), 40);
    broken.server(QStringLiteral("kks-demo-pool-y7k2p"), QStringLiteral("10.0.0.6"), 40);
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
    QCOMPARE(model.index(row, KlustersModel::KlusterColumn).data().toString(), QStringLiteral("k1"));
    QCOMPARE(model.index(row, KlustersModel::WorstColumn).data().toString(),
        QStringLiteral("node never registered")); // the rank it keeps: its last complete one
    QVERIFY(model.index(row, 0).data(KlustersModel::AlarmRole).toBool());
    QVERIFY(model.index(row, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("HTTP 503")));
    // It keeps its rank above the healthy kluster, and its worst severity.
    QCOMPARE(
        model.index(row, KlustersModel::CriticalColumn).data(KlustersModel::SortRole).toLongLong(), rank);
    QCOMPARE(ConsoleRole::severityOf(model.index(row, 0)), std::optional(Severity::Critical));
    // A kluster not read yet (a fleet still loading) ranks below every one that was, the healthy included.
    model.setKluster(QStringLiteral("prod"), QStringLiteral("k3"));
    const qint64 pending
        = model
              .index(model.rowOf(QStringLiteral("prod"), QStringLiteral("k3")), KlustersModel::CriticalColumn)
              .data(KlustersModel::SortRole)
              .toLongLong();
    QVERIFY(pending
        < model
              .index(model.rowOf(QStringLiteral("prod"), QStringLiteral("k2")), KlustersModel::CriticalColumn)
              .data(KlustersModel::SortRole)
              .toLongLong());
    QVERIFY(pending < rank);
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

// The Fleet view's tiles: grouped by connection and region, by state or not at all, worst first within each
// group, filtered with the kluster list's fields, counted.
void TestKlustersModel::fleetTilesGroupFilterAndCount()
{
    KlustersModel model;
    const QDateTime at = WorldBuilder::defaultCapturedAt();
    WorldBuilder broken; // two instances past their token's expiry, not yet flight's deletion (45 min)
    broken.server(QStringLiteral("kks-demo-pool-x7k2p"), QStringLiteral("10.0.0.5"), 40);
    model.setKluster(QStringLiteral("prod"), QStringLiteral("healthy"));
    model.setKluster(QStringLiteral("prod"), QStringLiteral("broken"));
    model.setKluster(QStringLiteral("lab"), QStringLiteral("gone"));
    model.setKluster(QStringLiteral("lab"), QStringLiteral("waiting"));
    model.setDiagnosis(QStringLiteral("prod"), QStringLiteral("healthy"),
        Diagnosis::run(WorldBuilder().state()), at, QString(), QStringLiteral("eu-de-1"));
    model.setDiagnosis(QStringLiteral("prod"), QStringLiteral("broken"), Diagnosis::run(broken.state()), at,
        QString(), QStringLiteral("eu-de-1"));
    model.setError(QStringLiteral("lab"), QStringLiteral("gone"), QStringLiteral("kluster API: no answer"));
    const QDateTime now = at.addSecs(90);
    const auto keys = [](const QList<FleetTile> &tiles) {
        QStringList k;
        for (const FleetTile &t : tiles)
            k << t.group + QLatin1Char('|') + t.key.toString();
        return k;
    };

    const QList<FleetTile> byConnection = fleetTiles(model, FleetGrouping::ConnectionRegion, now);
    QCOMPARE(keys(byConnection),
        QStringList(
            { QStringLiteral("prod · eu-de-1|prod/broken"), QStringLiteral("prod · eu-de-1|prod/healthy"),
                QStringLiteral("lab|lab/gone"), QStringLiteral("lab|lab/waiting") }));
    QCOMPARE(byConnection.at(0).counts, QStringLiteral("1 critical · 0 warning"));
    QCOMPARE(byConnection.at(0).reason, QStringLiteral("node never registered"));
    QVERIFY(byConnection.at(0).causes);
    QCOMPARE(byConnection.at(0).age, QStringLiteral("data 1 min old"));
    QCOMPARE(byConnection.at(2).counts, QStringLiteral("UNREACHABLE"));
    QVERIFY(byConnection.at(2).doubtful);
    QCOMPARE(byConnection.at(2).error, QStringLiteral("kluster API: no answer"));
    QVERIFY(byConnection.at(3).doubtful); // not checked yet

    QCOMPARE(keys(fleetTiles(model, FleetGrouping::State, now)),
        QStringList({ QStringLiteral("Critical|prod/broken"), QStringLiteral("Unreachable|lab/gone"),
            QStringLiteral("Healthy|prod/healthy"), QStringLiteral("Not checked yet|lab/waiting") }));
    const QList<FleetTile> none = fleetTiles(model, FleetGrouping::None, now);
    // What cannot be read ranks as a cause that takes the whole kluster down: above one node's.
    QCOMPARE(none.first().key.toString(), QStringLiteral("lab/gone"));
    QCOMPARE(none.at(1).key.toString(), QStringLiteral("prod/broken"));
    // Nothing is known of a kluster not read yet: below the healthy ones, in the one ranking.
    QCOMPARE(none.last().key.toString(), QStringLiteral("lab/waiting"));

    const FleetSummary all = fleetSummary(none);
    QCOMPARE(all.klusters, 4);
    QCOMPARE(all.critical, 2); // an unreachable kluster counts as critical
    QCOMPARE(all.healthy, 1);
    QCOMPARE(all.doubtful, 2);
    QCOMPARE(all.text(), QStringLiteral("4 klusters · 2 critical · 1 healthy · 2 with data in doubt"));

    // The kluster list's field syntax.
    FilterModel filter;
    filter.setKnownFields(KlustersModel::filterFields());
    filter.setSourceModel(&model);
    filter.setText(QStringLiteral("region:eu-de sev:crit"));
    QCOMPARE(
        keys(fleetTiles(filter, FleetGrouping::None, now)), QStringList({ QStringLiteral("|prod/broken") }));
    filter.setText(QStringLiteral("-connection:prod"));
    QCOMPARE(fleetTiles(filter, FleetGrouping::None, now).size(), 2);

    // Tiles up to a hundred klusters, a heat map beyond, unless chosen.
    QVERIFY(!FleetLayouts::heatMap(FleetLayout::Auto, FleetLayouts::AutoHeatMapAbove));
    QVERIFY(FleetLayouts::heatMap(FleetLayout::Auto, FleetLayouts::AutoHeatMapAbove + 1));
    QVERIFY(!FleetLayouts::heatMap(FleetLayout::Tiles, 1000));
    QVERIFY(FleetLayouts::heatMap(FleetLayout::HeatMap, 1));
    for (const FleetGroupings::Info &g : FleetGroupings::all())
        QCOMPARE(FleetGroupings::fromName(FleetGroupings::name(g.grouping)), g.grouping);
    for (const FleetLayouts::Info &l : FleetLayouts::all())
        QCOMPARE(FleetLayouts::fromName(FleetLayouts::name(l.layout)), l.layout);
}

// KlusterStanding counts causes and says them in one set of words; KlusterRanking orders klusters one way,
// and its sort key sorts as its comparison does.
void TestKlustersModel::oneRankingAndOneVocabulary()
{
    KlusterStanding none;
    QCOMPARE(none.headline(), QStringLiteral("healthy"));
    QCOMPARE(none.breakdown(), QString());
    KlusterStanding s;
    s.critical = 2;
    s.warning = 1;
    s.incidents = 2;
    s.members = 9;
    s.lone = 1;
    QCOMPARE(s.headline(), QStringLiteral("2 critical · 1 warning"));
    QCOMPARE(s.headline(true), QStringLiteral("≥ 2 critical · ≥ 1 warning"));
    QCOMPARE(s.text(), QStringLiteral("2 critical · 1 warning — 2 incidents (9 findings) · 1 other finding"));
    s.incidents = 0;
    s.members = 0;
    s.lone = 3;
    QCOMPARE(s.text(), QStringLiteral("2 critical · 1 warning"));
    QCOMPARE(s.breakdown(), QStringLiteral("3 findings"));

    // A world whose instance never registered: one critical cause, named.
    WorldBuilder w;
    w.server(QStringLiteral("kks-demo-pool-x7k2p"), QStringLiteral("10.0.0.5"), 60);
    const KlusterStanding one = KlusterStanding::of(Diagnosis::run(w.state()));
    QCOMPARE(one.critical, 1);
    QCOMPARE(one.reason, QStringLiteral("node never registered"));
    QCOMPARE(one.worstCause, QStringLiteral("instance-unregistered:kks-demo-pool-x7k2p"));

    // An incident ranks in its own severity's band: a zone outage of warnings is a critical cause of a node.
    Finding notReady;
    notReady.kind = FindingKind::NodeNotReady;
    notReady.subject = QStringLiteral("n1");
    notReady.severity = Severity::Warning;
    Finding other = notReady;
    other.subject = QStringLiteral("n2");
    Finding orphan;
    orphan.kind = FindingKind::RouteOrphaned;
    orphan.subject = QStringLiteral("10.0.0.0/24 via 10.1.1.1");
    orphan.severity = Severity::Warning;
    Incident outage;
    outage.rule = IncidentRule::ZoneOutage;
    outage.key = QStringLiteral("zone-a");
    outage.severity = Severity::Critical;
    outage.members = { notReady.id(), other.id() };
    Diagnosis zone;
    zone.findings = { notReady, other, orphan };
    zone.incidents = { outage };
    const KlusterStanding down = KlusterStanding::of(zone);
    QCOMPARE(down.critical, 1);
    QCOMPARE(down.warning, 1);
    QCOMPARE(down.worst, Severity::Critical);
    QCOMPARE(down.worstRank, int(Severity::Critical) * 3 + int(Impact::Node));
    QCOMPARE(down.worstCause, QStringLiteral("zone-outage:zone-a"));
    QCOMPARE(down.reason, QStringLiteral("zone outage"));
    QCOMPARE(
        down.text(), QStringLiteral("1 critical · 1 warning — 1 incident (2 findings) · 1 other finding"));
    // Incomplete data ranks as the graver of its two standings, whole (its words agree with its counts).
    KlusterStanding lesser;
    lesser.worst = Severity::Warning;
    lesser.worstRank = 5;
    lesser.warning = 4;
    lesser.lone = 4;
    QCOMPARE(KlusterStanding::graver(lesser, down), down);
    QCOMPARE(KlusterStanding::graver(down, lesser), down);

    const auto kluster = [](const char *name, Reading reading, std::optional<Severity> worst, int rank,
                             int critical, int warning) {
        RankedKluster k;
        k.key = { QStringLiteral("c"), QString::fromLatin1(name) };
        k.reading = reading;
        k.standing.worst = worst;
        k.standing.worstRank = rank;
        k.standing.critical = critical;
        k.standing.warning = warning;
        k.standing.reason = QStringLiteral("cause of ") + QString::fromLatin1(name);
        return k;
    };
    // Written in the order expected.
    const QList<RankedKluster> expected {
        kluster("wide", Reading::Fresh, Severity::Critical, 0, 1, 0), // the whole kluster down
        kluster("gone", Reading::Unreadable, std::nullopt, INT_MAX, 0, 0), // nothing known: as bad
        kluster("nodes-many", Reading::Fresh, Severity::Critical, 1, 5, 0), // nodes: more critical first
        kluster("nodes-stale", Reading::Stale, Severity::Critical, 1, 2, 1), // in doubt first at the same
        kluster("nodes", Reading::Fresh, Severity::Critical, 1, 2, 1),
        kluster("slot", Reading::Fresh, Severity::Warning, 5, 0, 3),
        kluster("a-healthy", Reading::Fresh, std::nullopt, INT_MAX, 0, 0),
        kluster("b-healthy", Reading::Fresh, std::nullopt, INT_MAX, 0, 0),
        kluster("waiting", Reading::NotRead, std::nullopt, INT_MAX, 0, 0), // not read: last
    };
    QList<RankedKluster> shuffled = expected;
    std::reverse(shuffled.begin(), shuffled.end());
    std::swap(shuffled[1], shuffled[5]);
    QList<RankedKluster> byCompare = shuffled;
    std::sort(byCompare.begin(), byCompare.end(), KlusterRanking::before);
    QList<RankedKluster> byKey = shuffled;
    std::sort(byKey.begin(), byKey.end(), [](const RankedKluster &a, const RankedKluster &b) {
        return KlusterRanking::sortKey(a) < KlusterRanking::sortKey(b);
    });
    for (qsizetype i = 0; i < expected.size(); ++i) {
        QCOMPARE(byCompare.at(i).key.kluster, expected.at(i).key.kluster);
        QCOMPARE(byKey.at(i).key.kluster, expected.at(i).key.kluster);
    }
    QCOMPARE(KlusterRanking::reason(expected.at(0)), QStringLiteral("cause of wide"));
    QCOMPARE(KlusterRanking::reason(expected.at(1)), QStringLiteral("could not be read"));
    QCOMPARE(KlusterRanking::reason(expected.at(6)), QStringLiteral("healthy"));
    QCOMPARE(KlusterRanking::reason(expected.at(8)), QStringLiteral("not checked yet"));
}

QTEST_GUILESS_MAIN(TestKlustersModel)
// A group's sums are kept up to date as its klusters change (a changed kluster's part taken out and put in):
// after every one of a few hundred random changes, what a group says is what groups made afresh say.
void TestKlustersModel::groupSumsFollowEveryChange()
{
    KlustersModel model;
    KlusterGroups kept;
    kept.setSourceModel(&model);
    QAbstractItemModelTester tester(&kept, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QStringList names;
    for (int i = 0; i < 40; ++i)
        names << QStringLiteral("k%1").arg(i, 2, 10, QLatin1Char('0'));
    model.setKlusters(QStringLiteral("team"), names);
    model.setKlusters(QStringLiteral("lab"), { QStringLiteral("x"), QStringLiteral("y") });
    const QStringList regions { QStringLiteral("eu-1"), QStringLiteral("eu-2"), QStringLiteral("na-1") };
    const QStringList causes { QStringLiteral("pod network closed"), QStringLiteral("node not Ready"),
        QStringLiteral("route stale") };
    const QDateTime start = QDateTime(QDate(2026, 11, 30), QTime(12, 0), Qt::UTC);
    const int roles[] = { Qt::DisplayRole, KlustersModel::RegionRole, KlustersModel::SeverityRole,
        KlustersModel::CriticalCountRole, KlustersModel::WarningCountRole, KlustersModel::FetchedAtRole,
        KlustersModel::RankRole, KlustersModel::ReasonRole };
    quint32 seed = 45;
    const auto next = [&seed](int n) {
        seed = seed * 1664525u + 1013904223u;
        return int((seed >> 8) % quint32(n));
    };
    for (int step = 0; step < 400; ++step) {
        const QString connection = next(8) == 0 ? QStringLiteral("lab") : QStringLiteral("team");
        const QString kluster = connection == QLatin1String("lab")
            ? (next(2) ? QStringLiteral("x") : QStringLiteral("y"))
            : names.at(next(int(names.size())));
        if (next(10) == 0) {
            model.setError(connection, kluster, QStringLiteral("unreachable"));
        } else {
            ExportedFleet::Kluster k;
            k.name = kluster;
            k.exporter = QStringLiteral("e:9473");
            k.present = next(6) != 0;
            k.up = true;
            k.reading = k.present ? Reading::Fresh : Reading::Stale;
            k.readAt = start.addSecs(next(3600));
            k.phase = QStringLiteral("Running");
            k.target.insert(QStringLiteral("region"), regions.at(next(3)));
            const int gravity = next(3);
            k.standing.critical = gravity == 0 ? 1 + next(4) : 0;
            k.standing.warning = gravity <= 1 ? next(3) : 0;
            if (k.standing.critical > 0 || k.standing.warning > 0) {
                k.standing.worst = k.standing.critical > 0 ? Severity::Critical : Severity::Warning;
                k.standing.worstRank = next(9);
                k.standing.reason = causes.at(next(3));
            }
            model.setExported(connection, kluster, k);
        }
        KlusterGroups fresh;
        fresh.setSourceModel(&model);
        QCOMPARE(kept.rowCount(), fresh.rowCount());
        for (int g = 0; g < fresh.rowCount(); ++g) {
            for (int column = 0; column < fresh.columnCount(); ++column) {
                for (const int role : roles)
                    QVERIFY2(kept.index(g, column).data(role) == fresh.index(g, column).data(role),
                        qPrintable(QStringLiteral("step %1, group %2, column %3, role %4: %5, not %6")
                                       .arg(step)
                                       .arg(g)
                                       .arg(column)
                                       .arg(role)
                                       .arg(kept.index(g, column).data(role).toString(),
                                           fresh.index(g, column).data(role).toString())));
            }
        }
    }
}

// A turn's changes of a group's klusters say the group changed once, after them, with one call posted (a
// round's result a kluster, ten thousand in a group: not ten thousand calls).
void TestKlustersModel::groupChangeSaidOncePerTurn()
{
    KlustersModel model;
    KlusterGroups groups;
    groups.setSourceModel(&model);
    QStringList names;
    for (int i = 0; i < 50; ++i)
        names << QStringLiteral("k%1").arg(i);
    model.setKlusters(QStringLiteral("team"), names);
    QCoreApplication::sendPostedEvents();
    struct Calls : QObject
    {
        int posted = 0;
        bool eventFilter(QObject *, QEvent *event) override
        {
            posted += event->type() == QEvent::MetaCall ? 1 : 0;
            return false;
        }
    } calls;
    groups.installEventFilter(&calls);
    QSignalSpy changed(&groups, &QAbstractItemModel::dataChanged);
    for (const QString &k : std::as_const(names))
        model.setError(QStringLiteral("team"), k, QStringLiteral("unreachable"));
    const auto headings = [&changed] {
        return std::count_if(changed.cbegin(), changed.cend(), [](const QList<QVariant> &args) {
            return !args.first().value<QModelIndex>().parent().isValid();
        });
    };
    QCOMPARE(headings(), 0); // not yet
    QCoreApplication::sendPostedEvents();
    QCOMPARE(calls.posted, 1);
    QCOMPARE(headings(), 1);
    QCOMPARE(groups.index(0, 0).data(KlustersModel::KeyRole).toString(), QStringLiteral("team"));
}

void TestKlustersModel::groupedByConnection()
{
    KlustersModel model;
    KlusterGroups groups;
    groups.setSourceModel(&model);
    FilterModel filter;
    filter.setKnownFields(KlustersModel::filterFields());
    filter.setHeadings();
    filter.setSourceModel(&groups);
    filter.sort(KlustersModel::CriticalColumn, Qt::DescendingOrder);
    QAbstractItemModelTester groupsTester(&groups, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester filterTester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const auto label = [](const QAbstractItemModel &m, int g) { return m.index(g, 0).data().toString(); };
    const auto kluster = [](const QAbstractItemModel &m, int g, int row) {
        return m.index(row, 0, m.index(g, 0)).data(KlustersModel::KlusterRole).toString();
    };

    model.setKluster(QStringLiteral("prod"), QStringLiteral("a"));
    model.setKluster(QStringLiteral("lab"), QStringLiteral("b"));
    model.setKluster(QStringLiteral("prod"), QStringLiteral("c"));
    QCOMPARE(groups.rowCount(), 2);
    QCOMPARE(label(groups, 0), QStringLiteral("prod (2)"));
    QCOMPARE(groups.rowCount(groups.index(0, 0)), 2);
    QCOMPARE(kluster(groups, 0, 1), QStringLiteral("c"));
    QVERIFY(!groups.index(0, 0).data(KlustersModel::ConnectionRole).isValid()); // a heading, no kluster
    QVERIFY(!(groups.flags(groups.index(0, 0)) & Qt::ItemIsSelectable));
    QCOMPARE(groups.mapToSource(groups.index(1, 0, groups.index(0, 0))),
        model.index(model.rowOf(QStringLiteral("prod"), QStringLiteral("c")), 0));

    // Diagnosed: the group sums its klusters, names its region, and sorts by its worst kluster.
    WorldBuilder broken; // two instances past their token's expiry, not yet flight's deletion (45 min)
    broken.server(QStringLiteral("kks-demo-pool-x7k2p"), QStringLiteral("10.0.0.5"), 40);
    broken.server(QStringLiteral("kks-demo-pool-x7k2q"), QStringLiteral("10.0.0.6"), 40);
    const QDateTime at = WorldBuilder::defaultCapturedAt();
    const Diagnosis two = Diagnosis::run(broken.state());
    const int critical = two.count(Severity::Critical);
    QVERIFY(critical >= 2);
    model.setDiagnosis(
        QStringLiteral("lab"), QStringLiteral("b"), two, at, QString(), QStringLiteral("eu-1"));
    const Diagnosis healthy = Diagnosis::run(WorldBuilder().state());
    model.setDiagnosis(
        QStringLiteral("prod"), QStringLiteral("a"), healthy, at, QString(), QStringLiteral("eu-2"));
    model.setDiagnosis(
        QStringLiteral("prod"), QStringLiteral("c"), healthy, at, QString(), QStringLiteral("eu-2"));
    QCOMPARE(label(groups, 1), QStringLiteral("lab · eu-1 (1)"));
    QCOMPARE(groups.index(1, KlustersModel::CriticalColumn).data().toInt(), critical);
    QCOMPARE(ConsoleRole::severityOf(groups.index(1, 0)), std::optional(Severity::Critical));
    QCOMPARE(label(filter, 0), QStringLiteral("lab · eu-1 (1)")); // the worst group first
    QCOMPARE(kluster(filter, 0, 0), QStringLiteral("b"));

    // A change inside a group reorders its klusters, worst first.
    model.setDiagnosis(
        QStringLiteral("prod"), QStringLiteral("c"), two, at, QString(), QStringLiteral("eu-2"));
    model.setDiagnosis(
        QStringLiteral("lab"), QStringLiteral("b"), healthy, at, QString(), QStringLiteral("eu-1"));
    // (The groups' sums are said changed once per turn of the event loop.)
    QTRY_COMPARE(label(filter, 0), QStringLiteral("prod · eu-2 (2)"));
    QCOMPARE(kluster(filter, 0, 0), QStringLiteral("c"));
    QCOMPARE(filter.index(0, KlustersModel::CriticalColumn).data().toInt(), critical);

    // The filter: a group stays when one of its klusters matches, with only those klusters.
    filter.setText(QStringLiteral("region:eu-2"));
    QCOMPARE(filter.rowCount(), 1);
    QCOMPARE(filter.rowCount(filter.index(0, 0)), 2);
    filter.setText(QStringLiteral("kluster:a"));
    QCOMPARE(filter.rowCount(), 1);
    QCOMPARE(filter.rowCount(filter.index(0, 0)), 1);
    QCOMPARE(kluster(filter, 0, 0), QStringLiteral("a"));
    filter.setText(
        QStringLiteral("severity:critical")); // the group's worst is critical: its other rows hidden
    QCOMPARE(filter.rowCount(), 1);
    QCOMPARE(filter.rowCount(filter.index(0, 0)), 1);
    QCOMPARE(kluster(filter, 0, 0), QStringLiteral("c"));
    filter.setText(QString());

    // Removals: a kluster, then a whole connection with its group.
    model.removeKluster(QStringLiteral("prod"), QStringLiteral("a"));
    QCOMPARE(groups.rowCount(groups.index(0, 0)), 1);
    QCOMPARE(kluster(groups, 0, 0), QStringLiteral("c"));
    model.removeConnection(QStringLiteral("prod"));
    QCOMPARE(groups.rowCount(), 1);
    QCOMPARE(kluster(groups, 0, 0), QStringLiteral("b"));
    QCOMPARE(groups.mapFromSource(model.index(0, 0)), groups.index(0, 0, groups.index(0, 0)));
    // A connection that lists nothing: its own row, in its own group.
    model.setConnectionError(QStringLiteral("dev"), QStringLiteral("401: the password was refused"));
    QCOMPARE(groups.rowCount(), 2);
    QCOMPARE(groups.index(0, 0, groups.index(1, 0)).data(KlustersModel::KeyRole).toString(),
        QStringLiteral("dev/"));
}

#include "tst_klustersmodel.moc"
