#include "core/diagnosis.h"
#include "core/findingtraits.h"
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
    for (int k = 0; k <= int(FindingKind::NodeWithoutInstance); ++k)
        names.insert(findingKindName(FindingKind(k)));
    QCOMPARE(names.size(), int(FindingKind::NodeWithoutInstance) + 1);
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

QTEST_GUILESS_MAIN(TestFindingTraits)
#include "tst_findingtraits.moc"
