#include "core/klusterkey.h"
#include "core/shard.h"

#include <QTest>

// A kluster of a connection, as a value: compared, hashed, written and read back as settings hold it; the
// shard of `serve --shard I/N` its identity falls in.
class TestKlusterKey : public QObject
{
    Q_OBJECT
private slots:
    void equalAndHashed();
    void readBackAsStored();
    void everyKeyInExactlyOneShard();
    void shardHashIsPinned();
    void shardParsed();
};

void TestKlusterKey::equalAndHashed()
{
    const KlusterKey demo { "sim", "demo" };
    QCOMPARE(demo.toString(), QStringLiteral("sim/demo"));
    QVERIFY(demo == (KlusterKey { "sim", "demo" }));
    QVERIFY(demo != (KlusterKey { "sim", "legacy" }));
    QVERIFY(demo != (KlusterKey { "lab", "demo" }));
    QCOMPARE(qHash(demo), qHash(KlusterKey { "sim", "demo" }));
    QVERIFY(KlusterKey().isNull());
    QVERIFY(!(KlusterKey { "sim", QString() }).isNull()); // the connection's own row
}

void TestKlusterKey::readBackAsStored()
{
    // The kluster after the last '/', whatever the connection's name holds.
    const KlusterKey demo { "sim", "demo" };
    QCOMPARE(KlusterKey::fromString(demo.toString()), demo);
    QCOMPARE(KlusterKey::fromString(QStringLiteral("sim/")), (KlusterKey { "sim", QString() }));
    QCOMPARE(KlusterKey::fromString(QStringLiteral("lab/2/demo")), (KlusterKey { "lab/2", "demo" }));
    QVERIFY(KlusterKey::fromString(QString()).isNull());
    QVERIFY(KlusterKey::fromString(QStringLiteral("demo")).isNull());
}

// N exporters started with 0/N … N-1/N: each of 1,000 klusters served by exactly one, and each exporter
// given more than half its share.
void TestKlusterKey::everyKeyInExactlyOneShard()
{
    QStringList keys;
    for (int i = 0; i < 1000; ++i)
        keys << Shard::key(QStringLiteral("eu-de-%1").arg(i % 3 + 1),
            QStringLiteral("%1").arg(i % 17 * 7919, 32, 16, QLatin1Char('0')),
            QStringLiteral("kluster-%1").arg(i, 3, 10, QLatin1Char('0')));
    for (int count = 1; count <= 7; ++count) {
        QList<int> served(count, 0);
        for (const QString &key : std::as_const(keys)) {
            int in = 0;
            for (int index = 0; index < count; ++index) {
                if ((Shard { index, count }).contains(key)) {
                    ++in;
                    ++served[index];
                }
            }
            QVERIFY2(
                in == 1, qPrintable(QStringLiteral("%1 in %2 of %3 shards").arg(key).arg(in).arg(count)));
        }
        for (int index = 0; index < count; ++index)
            QVERIFY2(served.at(index) > 1000 / count / 2,
                qPrintable(
                    QStringLiteral("shard %1/%2: %3 of 1000").arg(index).arg(count).arg(served.at(index))));
    }
}

// The hash is part of the contract between exporters of different versions and machines: a change of it
// moves klusters between shards, and must be a deliberate one (SHA-1's first 8 bytes, big-endian).
void TestKlusterKey::shardHashIsPinned()
{
    QCOMPARE(Shard::key(QStringLiteral("RegionOne"), QStringLiteral("p0a1"), QStringLiteral("prod-eu")),
        QStringLiteral("RegionOne/p0a1/prod-eu"));
    QCOMPARE(Shard::hash(QStringLiteral("RegionOne/p0a1/prod-eu")), Q_UINT64_C(13230737382998701737));
    QCOMPARE(Shard::hash(QStringLiteral("eu-de-1/0123456789abcdef0123456789abcdef/kluster-042")),
        Q_UINT64_C(17248184432213591902));
    QCOMPARE(Shard::hash(QStringLiteral("qa-de-1/ab/grün")), Q_UINT64_C(11765116981120635384)); // UTF-8
    QCOMPARE(Shard::hash(QString()), Q_UINT64_C(15724779818122431245));
    QCOMPARE(Shard::of(QStringLiteral("RegionOne/p0a1/prod-eu"), 7), 3);
    QCOMPARE(Shard::of(QStringLiteral("RegionOne/p0a1/prod-eu"), 5), 2);
    QCOMPARE(Shard::of(QStringLiteral("RegionOne//demo"), 7), 5);
    QCOMPARE(Shard::of(QStringLiteral("RegionOne//demo"), 1), 0);
    QVERIFY((Shard { 3, 7 }).contains(QStringLiteral("RegionOne/p0a1/prod-eu")));
    QVERIFY(!(Shard { 2, 7 }).contains(QStringLiteral("RegionOne/p0a1/prod-eu")));
}

void TestKlusterKey::shardParsed()
{
    QString error;
    QCOMPARE(Shard::parse(QStringLiteral("0/1"), &error), (Shard { 0, 1 }));
    QCOMPARE(Shard::parse(QStringLiteral("2/3"), &error), (Shard { 2, 3 }));
    QCOMPARE(Shard::parse(QStringLiteral(" 6/7 "), &error), (Shard { 6, 7 }));
    QVERIFY(Shard::parse(QStringLiteral("0/1"), &error)->isWhole());
    QCOMPARE(Shard::parse(QStringLiteral("1/2"), &error)->toString(), QStringLiteral("1/2"));
    for (const char *bad : { "3/3", "0/0", "-1/2", "x", "1", "1/", "/2", "1/2/3", "+1/2", "1/+2", "1 /2",
             "0x1/2", "1/99999", "" }) {
        error.clear();
        QVERIFY2(!Shard::parse(QString::fromLatin1(bad), &error), bad);
        QVERIFY2(
            error.contains(QStringLiteral("is not a shard I/N")) && !error.contains(QLatin1Char('\n')), bad);
    }
    // What was given is shown escaped, cut short.
    Shard::parse(QStringLiteral("\x1b[2J") + QString(100, QLatin1Char('9')), &error);
    QVERIFY(!error.contains(QLatin1Char('\x1b')) && error.size() < 200);
}

QTEST_GUILESS_MAIN(TestKlusterKey)
#include "tst_klusterkey.moc"
