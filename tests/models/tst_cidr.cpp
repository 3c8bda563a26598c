#include "cidr.h"

#include <QTest>

class TestCidr : public QObject
{
    Q_OBJECT
private slots:
    void parse_data();
    void parse();
    void containsCidr_data();
    void containsCidr();
    void containsAddress();
    void hashAndEquality();
    void canonicalAddresses();
};

void TestCidr::parse_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<QString>("canonical");
    QTest::newRow("network") << "100.100.0.0/16" << true << "100.100.0.0/16";
    QTest::newRow("host bits cleared") << "192.168.9.5/24" << true << "192.168.9.0/24";
    QTest::newRow("whole internet") << "0.0.0.0/0" << true << "0.0.0.0/0";
    QTest::newRow("bare host") << "10.0.0.7" << true << "10.0.0.7/32";
    QTest::newRow("ipv6") << "fd00::/64" << true << "fd00::/64";
    QTest::newRow("spaces") << " 10.1.0.0/16 " << true << "10.1.0.0/16";
    QTest::newRow("garbage") << "not-a-cidr" << false << "";
    QTest::newRow("prefix too long") << "10.0.0.0/33" << false << "";
    QTest::newRow("empty") << "" << false << "";
}

void TestCidr::parse()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    QFETCH(QString, canonical);
    const Cidr c = Cidr::parse(text);
    QCOMPARE(c.isValid(), valid);
    QCOMPARE(c.toString(), canonical);
}

void TestCidr::containsCidr_data()
{
    QTest::addColumn<QString>("outer");
    QTest::addColumn<QString>("inner");
    QTest::addColumn<bool>("contains");
    QTest::newRow("same") << "198.19.0.0/16" << "198.19.0.0/16" << true;
    QTest::newRow("subnet") << "198.19.0.0/16" << "198.19.1.0/24" << true;
    QTest::newRow("host") << "198.19.0.0/16" << "198.19.255.255/32" << true;
    QTest::newRow("outside") << "198.19.0.0/16" << "198.20.1.0/24" << false;
    QTest::newRow("partial overlap: larger") << "198.19.0.0/16" << "198.18.0.0/15" << false;
    QTest::newRow("everything contains all") << "0.0.0.0/0" << "100.100.0.0/16" << true;
    QTest::newRow("family mismatch") << "0.0.0.0/0" << "fd00::/64" << false;
}

void TestCidr::containsCidr()
{
    QFETCH(QString, outer);
    QFETCH(QString, inner);
    QFETCH(bool, contains);
    QCOMPARE(Cidr::parse(outer).contains(Cidr::parse(inner)), contains);
}

void TestCidr::containsAddress()
{
    const Cidr c = Cidr::parse(QStringLiteral("10.180.0.0/24"));
    QVERIFY(c.contains(QHostAddress(QStringLiteral("10.180.0.5"))));
    QVERIFY(!c.contains(QHostAddress(QStringLiteral("10.180.1.5"))));
    QVERIFY(!Cidr().contains(QHostAddress(QStringLiteral("10.180.0.5"))));
}

void TestCidr::hashAndEquality()
{
    QCOMPARE(Cidr::parse(QStringLiteral("10.0.0.0/8")), Cidr::parse(QStringLiteral("10.1.2.3/8")));
    QVERIFY(Cidr::parse(QStringLiteral("10.0.0.0/8")) != Cidr::parse(QStringLiteral("10.0.0.0/9")));
    QCOMPARE(qHash(Cidr::parse(QStringLiteral("10.0.0.0/8"))), qHash(Cidr::parse(QStringLiteral("10.1.2.3/8"))));
}

void TestCidr::canonicalAddresses()
{
    QCOMPARE(canonicalAddress(QStringLiteral("10.0.0.5")), QStringLiteral("10.0.0.5"));
    QCOMPARE(canonicalAddress(QStringLiteral(" 10.0.0.5")), QStringLiteral("10.0.0.5"));
    QCOMPARE(canonicalAddress(QStringLiteral("FD00::1")), QStringLiteral("fd00::1"));
    QCOMPARE(canonicalAddress(QStringLiteral("10.0.0.1.5")), QString());
    QCOMPARE(canonicalAddress(QStringLiteral("256.0.0.1")), QString());
    QCOMPARE(canonicalAddress(QString()), QString());
}

QTEST_GUILESS_MAIN(TestCidr)
#include "tst_cidr.moc"
