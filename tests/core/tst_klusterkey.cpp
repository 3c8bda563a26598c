#include "core/klusterkey.h"

#include <QTest>

// A kluster of a connection, as a value: compared, hashed, written and read back as settings hold it.
class TestKlusterKey : public QObject
{
    Q_OBJECT
private slots:
    void equalAndHashed();
    void readBackAsStored();
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

QTEST_GUILESS_MAIN(TestKlusterKey)
#include "tst_klusterkey.moc"
