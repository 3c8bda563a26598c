#include "core/cidr.h"

#include <QHostAddress>
#include <QRandomGenerator>
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
    void sameAsQHostAddress();
    void stricterThanQHostAddress();
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
    QTest::newRow("same") << "198.19.0.0/16"
                          << "198.19.0.0/16" << true;
    QTest::newRow("subnet") << "198.19.0.0/16"
                            << "198.19.1.0/24" << true;
    QTest::newRow("host") << "198.19.0.0/16"
                          << "198.19.255.255/32" << true;
    QTest::newRow("outside") << "198.19.0.0/16"
                             << "198.20.1.0/24" << false;
    QTest::newRow("partial overlap: larger") << "198.19.0.0/16"
                                             << "198.18.0.0/15" << false;
    QTest::newRow("everything contains all") << "0.0.0.0/0"
                                             << "100.100.0.0/16" << true;
    QTest::newRow("family mismatch") << "0.0.0.0/0"
                                     << "fd00::/64" << false;
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
    QVERIFY(c.contains(IpAddress::parse(QStringLiteral("10.180.0.5"))));
    QVERIFY(!c.contains(IpAddress::parse(QStringLiteral("10.180.1.5"))));
    QVERIFY(!Cidr().contains(IpAddress::parse(QStringLiteral("10.180.0.5"))));
}

void TestCidr::hashAndEquality()
{
    QCOMPARE(Cidr::parse(QStringLiteral("10.0.0.0/8")), Cidr::parse(QStringLiteral("10.1.2.3/8")));
    QVERIFY(Cidr::parse(QStringLiteral("10.0.0.0/8")) != Cidr::parse(QStringLiteral("10.0.0.0/9")));
    QCOMPARE(
        qHash(Cidr::parse(QStringLiteral("10.0.0.0/8"))), qHash(Cidr::parse(QStringLiteral("10.1.2.3/8"))));
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

// The core parses addresses itself (Qt Core only); Qt Network's QHostAddress is the reference.
void TestCidr::sameAsQHostAddress()
{
    QRandomGenerator random(20261122);
    for (int i = 0; i < 20000; ++i) {
        QString text;
        if (i % 2 == 0) {
            text = QStringLiteral("%1.%2.%3.%4")
                       .arg(random.bounded(256))
                       .arg(random.bounded(256))
                       .arg(random.bounded(256))
                       .arg(random.bounded(256));
        } else {
            // Groups of which some are zero, in runs, so that "::" shows up anywhere.
            QStringList groups;
            for (int g = 0; g < 8; ++g)
                groups << QString::number(random.bounded(3) == 0 ? 0 : random.bounded(65536), 16);
            text = groups.join(QLatin1Char(':'));
        }
        const QHostAddress reference(text);
        const IpAddress ours = IpAddress::parse(text);
        QVERIFY2(!reference.isNull() && !ours.isNull(), qPrintable(text));
        QCOMPARE(ours.toString(), reference.toString());
        QCOMPARE(ours.isIPv4(), reference.protocol() == QAbstractSocket::IPv4Protocol);
        // Reparsing the canonical text gives the same address.
        QCOMPARE(IpAddress::parse(ours.toString()), ours);
        // A network of a random length: the same network as QHostAddress::parseSubnet.
        const int length = random.bounded(ours.bitCount() + 1);
        const QString subnet = text + QLatin1Char('/') + QString::number(length);
        const QPair<QHostAddress, int> ref = QHostAddress::parseSubnet(subnet);
        const Cidr cidr = Cidr::parse(subnet);
        QCOMPARE(cidr.toString(), ref.first.toString() + QLatin1Char('/') + QString::number(ref.second));
        QCOMPARE(cidr.contains(ours), reference.isInSubnet(ref.first, ref.second));
    }
    for (const char *text : { "::", "::1", "1::", "fe80::1", "2001:db8::8:800:200c:417a", "::ffff:10.0.0.1",
             "64:ff9b::10.1.2.3", "2001:db8:0:0:1:0:0:1", "2001:0db8::0001", "FD00::A", "0:0:0:0:0:0:0:0" }) {
        const QString t = QString::fromLatin1(text);
        QVERIFY2(!IpAddress::parse(t).isNull(), text);
        QCOMPARE(IpAddress::parse(t).toString(), QHostAddress(t).toString());
    }
    for (const char *text :
        { "", "1.2.3.4.5", "256.1.1.1", "1.2.3.-4", "1..2.3", "1:2:3:4:5:6:7:8:9", "1::2::3", ":1::", "1:::2",
            "12345::", "g::", "::1.2.3", "1.2.3.4/", "::ffff:1.2.3.256", " ", "1:2:3:4:5:6:7:" }) {
        const QString t = QString::fromLatin1(text);
        QVERIFY2(IpAddress::parse(t).isNull(), text);
        QVERIFY2(QHostAddress(t).isNull(), text);
    }
}

// Where QHostAddress is lenient, the core is strict: the clouds print canonical addresses, and an
// address written another way is refused rather than guessed ("010.0.0.1" is 8.0.0.1 to QHostAddress,
// 10.0.0.1 to a person).
void TestCidr::stricterThanQHostAddress()
{
    for (const char *text :
        { "010.0.0.1", "0x0a.0.0.1", "1.2.3.04", "1.2.3", "fe80::1%eth0", "1:2:3:4:5:6:7:8::" }) {
        const QString t = QString::fromLatin1(text);
        QVERIFY2(IpAddress::parse(t).isNull(), text);
        QVERIFY2(
            !QHostAddress(t).isNull(), text); // still lenient there: else this case belongs with the others
    }
    QVERIFY(!Cidr::parse(QStringLiteral("10.0.0.0/+8")).isValid());
    QVERIFY(!Cidr::parse(QStringLiteral("10.0.0.0/08x")).isValid());
    QVERIFY(!Cidr::parse(QStringLiteral("fd00::/129")).isValid());
}

QTEST_GUILESS_MAIN(TestCidr)
#include "tst_cidr.moc"
