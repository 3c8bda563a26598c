#include "core/diagnosis.h"
#include "core/findingtraits.h"
#include "core/knowledge.h"
#include "tests/common/worldbuilder.h"

#include <QSet>
#include <QTest>

// The table of finding kinds: each kind's name as the reports spell it, its
// family, and its severity rule on what detection decided.
class TestFindingTraits : public QObject
{
    Q_OBJECT
private slots:
    void namesAndFamilies_data();
    void namesAndFamilies();
    void everyKindHasItsOwnName();
    void severityRules();
    void reportOrderIsByName();
    void sourcesDecideWhatIsJudged();
    void impactAndCountFromTheTable();
};

void TestFindingTraits::namesAndFamilies_data()
{
    QTest::addColumn<FindingKind>("kind");
    QTest::addColumn<QString>("name");
    QTest::addColumn<FindingFamily>("family");
    QTest::addColumn<bool>("hasRepair");
    using K = FindingKind;
    using F = FindingFamily;
    QTest::newRow("instance-unregistered")
        << K::InstanceUnregistered << QStringLiteral("instance-unregistered") << F::Instance << true;
    QTest::newRow("instance-error") << K::InstanceError << QStringLiteral("instance-error") << F::Instance
                                    << true;
    QTest::newRow("instance-stopped")
        << K::InstanceStopped << QStringLiteral("instance-stopped") << F::Instance << true;
    QTest::newRow("instance-missing-security-group")
        << K::InstanceMissingSecurityGroup << QStringLiteral("instance-missing-security-group") << F::Instance
        << true;
    QTest::newRow("security-group-missing")
        << K::SecurityGroupMissing << QStringLiteral("security-group-missing") << F::Security << false;
    QTest::newRow("security-group-rule-missing")
        << K::SecurityGroupRuleMissing << QStringLiteral("security-group-rule-missing") << F::Security
        << true;
    QTest::newRow("route-duplicate") << K::RouteDuplicate << QStringLiteral("route-duplicate") << F::Route
                                     << true;
    QTest::newRow("route-orphaned") << K::RouteOrphaned << QStringLiteral("route-orphaned") << F::Route
                                    << true;
    QTest::newRow("route-stale") << K::RouteStale << QStringLiteral("route-stale") << F::Route << true;
    QTest::newRow("route-missing") << K::RouteMissing << QStringLiteral("route-missing") << F::Route << true;
    QTest::newRow("route-limit") << K::RouteLimit << QStringLiteral("route-limit") << F::Route << false;
    QTest::newRow("node-not-ready") << K::NodeNotReady << QStringLiteral("node-not-ready") << F::Node
                                    << false;
    QTest::newRow("node-network-unavailable")
        << K::NodeNetworkUnavailable << QStringLiteral("node-network-unavailable") << F::Node << false;
}

void TestFindingTraits::namesAndFamilies()
{
    QFETCH(FindingKind, kind);
    QFETCH(QString, name);
    QFETCH(FindingFamily, family);
    QFETCH(bool, hasRepair);
    QCOMPARE(findingKindName(kind), name);
    QCOMPARE(findingFamily(kind), family);
    QCOMPARE(findingTraits(kind).kind, kind);
    QCOMPARE(findingTraits(kind).repair != nullptr, hasRepair);
    QCOMPARE(Finding::idOf(kind, QStringLiteral("x")), name + QStringLiteral(":x"));
}

void TestFindingTraits::everyKindHasItsOwnName()
{
    QSet<QString> names;
    for (int k = 0; k < FindingKindCount; ++k)
        names.insert(findingKindName(FindingKind(k)));
    QCOMPARE(names.size(), FindingKindCount);
}

void TestFindingTraits::severityRules()
{
    FindingFacts facts;
    QCOMPARE(findingTraits(FindingKind::InstanceUnregistered).severity(facts), Severity::Warning);
    QCOMPARE(findingTraits(FindingKind::RouteLimit).severity(facts), Severity::Warning);
    QCOMPARE(findingTraits(FindingKind::RouteOrphaned).severity(facts), Severity::Warning);
    QCOMPARE(findingTraits(FindingKind::NodeNotReady).severity(facts), Severity::Warning);
    QCOMPARE(findingTraits(FindingKind::RouteStale).severity(facts), Severity::Critical);
    facts.tokenExpired = true;
    QCOMPARE(findingTraits(FindingKind::InstanceUnregistered).severity(facts), Severity::Critical);
    facts.routesOverflow = true;
    QCOMPARE(findingTraits(FindingKind::RouteLimit).severity(facts), Severity::Critical);
    QCOMPARE(findingTraits(FindingKind::RouteOrphaned).severity(facts),
        Severity::Warning); // fixed, whatever the facts
    QCOMPARE(findingTraits(FindingKind::RouteUnassigned).severity(facts), Severity::Warning);
    // A lost node (routes lead to it) is critical without token expiry; a routed ghost is critical.
    FindingFacts routed;
    QCOMPARE(findingTraits(FindingKind::NodeWithoutInstance).severity(routed), Severity::Warning);
    routed.routed = true;
    QCOMPARE(findingTraits(FindingKind::InstanceUnregistered).severity(routed), Severity::Critical);
    QCOMPARE(findingTraits(FindingKind::NodeWithoutInstance).severity(routed), Severity::Critical);
}

void TestFindingTraits::reportOrderIsByName()
{
    // The enum's order is not the report's: within a severity, kinds sort by name.
    Finding a;
    a.kind = FindingKind::RouteMissing;
    a.severity = Severity::Critical;
    Finding b = a;
    b.kind = FindingKind::InstanceError;
    QVERIFY(findingLessThan(b, a));
    QVERIFY(!findingLessThan(a, b));
    b.kind = FindingKind::NodeNetworkUnavailable; // after route-missing in the enum, before it by name
    QVERIFY(findingLessThan(b, a));
    b.kind = a.kind;
    b.subject = QStringLiteral("b");
    a.subject = QStringLiteral("a");
    QVERIFY(findingLessThan(a, b));
    b.severity = Severity::Warning;
    QVERIFY(findingLessThan(a, b));
}

// Every kind declares the sources it judges from and a phrase; a source not known (or not whole, where the
// kind needs it whole) stops exactly the kinds that need it, and the diagnosis reports none of them.
void TestFindingTraits::sourcesDecideWhatIsJudged()
{
    QSet<QString> phrases;
    for (int k = 0; k < FindingKindCount; ++k) {
        const FindingTraits &t = findingTraits(FindingKind(k));
        QVERIFY2(t.needs != 0, t.name.data());
        QVERIFY2((t.whole & ~t.needs) == 0, t.name.data()); // needed whole: needed
        QVERIFY2(!QString(t.phrase).isEmpty(), t.name.data());
        phrases.insert(QString(t.phrase));
    }
    QCOMPARE(phrases.size(), FindingKindCount);
    QVERIFY(findingTraits(FindingKind::RouteMissing).needs & sourceBit(Source::Nodes));
    QVERIFY(findingTraits(FindingKind::NodeWithoutInstance).whole & sourceBit(Source::Servers));
    QCOMPARE(sourcesOf(sourceBit(Source::Router) | sourceBit(Source::Nodes)),
        QList<Source>({ Source::Router, Source::Nodes }));

    WorldBuilder w;
    w.server(QStringLiteral("kks-demo-pool-x7k2p"), QStringLiteral("10.0.0.5"), 60);
    for (const Source source : { Source::Servers, Source::Router, Source::SecurityGroups, Source::Nodes }) {
        KlusterState s = w.state();
        SourceStatus *status = source == Source::Servers ? &s.serversSource
            : source == Source::Router                   ? &s.routerSource
            : source == Source::SecurityGroups           ? &s.securityGroupsSource
                                                         : &s.nodesSource;
        status->known = false;
        status->error = QStringLiteral("HTTP 500");
        const Knowledge knowledge(s);
        const Diagnosis d = Diagnosis::run(s);
        for (int k = 0; k < FindingKindCount; ++k) {
            if (findingTraits(FindingKind(k)).needs & sourceBit(source))
                QVERIFY2(!knowledge.judges(FindingKind(k)), findingTraits(FindingKind(k)).name.data());
        }
        for (const Finding &f : d.findings)
            QVERIFY2(knowledge.judges(f.kind), qPrintable(f.id()));
        QVERIFY(!d.notDiagnosed.isEmpty());
    }
    // Whole: a node list cut short decides no instance-unregistered.
    KlusterState partial = w.state();
    partial.nodesSource.incomplete = QStringLiteral("the list was cut short");
    QVERIFY(!Knowledge(partial).judges(FindingKind::InstanceUnregistered));
    QVERIFY(Knowledge(partial).judges(FindingKind::NodeNotReady));
    const Diagnosis cut = Diagnosis::run(partial);
    QVERIFY(!cut.find(QStringLiteral("instance-unregistered:kks-demo-pool-x7k2p")));
    QVERIFY(Diagnosis::run(w.state()).find(QStringLiteral("instance-unregistered:kks-demo-pool-x7k2p")));
    QVERIFY2(cut.notDiagnosed.join(u'\n').contains(
                 QStringLiteral("instance-unregistered: the nodes came back incomplete")),
        qPrintable(cut.notDiagnosed.join(u'\n')));
}

// How much of the kluster a kind takes down is the table's, as every other trait; the kind count too.
void TestFindingTraits::impactAndCountFromTheTable()
{
    QCOMPARE(findingKinds().size(), FindingKindCount);
    for (int k = 0; k < FindingKindCount; ++k)
        QCOMPARE(findingKinds().at(k), FindingKind(k));
    const auto impact = [](FindingKind kind, Severity severity) {
        Finding f;
        f.kind = kind;
        f.severity = severity;
        return findingImpact(f);
    };
    QCOMPARE(impact(FindingKind::SecurityGroupRuleMissing, Severity::Critical), Impact::Kluster);
    QCOMPARE(impact(FindingKind::SecurityGroupMissing, Severity::Critical), Impact::Kluster);
    QCOMPARE(impact(FindingKind::RouteLimit, Severity::Critical), Impact::Kluster);
    QCOMPARE(impact(FindingKind::RouteLimit, Severity::Warning), Impact::Slot);
    QCOMPARE(impact(FindingKind::RouteOrphaned, Severity::Warning), Impact::Slot);
    QCOMPARE(impact(FindingKind::RouteUnassigned, Severity::Warning), Impact::Slot);
    QCOMPARE(impact(FindingKind::RouteDuplicate, Severity::Critical), Impact::Node);
    QCOMPARE(impact(FindingKind::NodeNotReady, Severity::Warning), Impact::Node);
    QCOMPARE(impact(FindingKind::InstanceUnregistered, Severity::Critical), Impact::Node);
}

QTEST_GUILESS_MAIN(TestFindingTraits)
#include "tst_findingtraits.moc"
