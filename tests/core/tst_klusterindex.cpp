#include "core/klusterindex.h"
#include "tests/common/worldbuilder.h"

#include <QTest>

// The join of instances and nodes.
class TestKlusterIndex : public QObject
{
    Q_OBJECT
private slots:
    void membershipByName();
    void joinByNameAndOwners();
    void poolNamesWithPrefixesOfOthers();
};

void TestKlusterIndex::membershipByName()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 2);
    w.pool(QStringLiteral("gpu"), 1);
    w.server(QStringLiteral("kks-demo-pool-a1b2c"), QString(), 1);
    w.server(QStringLiteral("demo-gpu-a1b2c"), QString(), 1);
    w.server(QStringLiteral("kks-demo-other-a1b2c"), QString(), 1);
    w.server(QStringLiteral("kks-demox-pool-a1b2c"), QString(), 1);
    const KlusterState s = w.state();
    const KlusterIndex index(s);
    QCOMPARE(index.klusterInstances(), (QList<int> { 0, 1 }));
    QCOMPARE(index.poolOf(QStringLiteral("kks-demo-pool-a1b2c")), QStringLiteral("pool"));
    QCOMPARE(index.poolOf(QStringLiteral("demo-gpu-a1b2c")), QStringLiteral("gpu"));
    QVERIFY(index.poolOf(QStringLiteral("kks-demo-pool-a1b2")).isEmpty());
}

void TestKlusterIndex::joinByNameAndOwners()
{
    WorldBuilder w;
    w.healthyMember(
        QStringLiteral("kks-demo-pool-a1b2c"), QStringLiteral("10.0.0.5"), QStringLiteral("100.100.5.0/24"));
    w.server(QStringLiteral("kks-demo-pool-zzzzz"), QStringLiteral("10.0.0.6"), 1);
    const KlusterState s = w.state();
    const KlusterIndex index(s);
    QCOMPARE(index.nodeOfInstance(0), 0);
    QCOMPARE(index.nodeOfInstance(1), -1);
    QCOMPARE(index.instanceByAddress(QStringLiteral("10.0.0.6")), 1);
    QCOMPARE(index.nodeByAddress(QStringLiteral("10.0.0.5")), 0);
    QCOMPARE(index.nodeByPodCidr(Cidr::parse(QStringLiteral("100.100.5.0/24"))), 0);
    QCOMPARE(index.nodeByPodCidr(Cidr::parse(QStringLiteral("100.100.6.0/24"))), -1);
    QVERIFY(!index.providerIdDisagrees(0, 0));
}

void TestKlusterIndex::poolNamesWithPrefixesOfOthers()
{
    // Kluster "a" with pool "b-c" and kluster "a-b" with pool "c" would both claim
    // "kks-a-b-c-xxxxx"; a kluster only claims names of its own pools.
    WorldBuilder w(QStringLiteral("a"));
    w.pool(QStringLiteral("c"), 1);
    w.server(QStringLiteral("kks-a-b-c-x1y2z"), QString(), 1);
    const KlusterState s = w.state();
    QVERIFY(KlusterIndex(s).klusterInstances().isEmpty());
}

QTEST_GUILESS_MAIN(TestKlusterIndex)
#include "tst_klusterindex.moc"
