#include "core/diagnosis.h"
#include "tests/common/findingassert.h"
#include "tests/common/worldbuilder.h"

#include <QJsonArray>
#include <QTest>

// security-group-missing and security-group-rule-missing: what satisfies a
// required rule and what only looks like it does.
class TestSecurityFindings : public QObject
{
    Q_OBJECT
private slots:
    void goodRulesSatisfy();
    void rules_data();
    void rules();
    void portRangeIsCalledOut();
    void verdictsAreKeptInTheFacts();
    void groupMissing();
    void groupAmbiguous();
    void repairCreatesTheRule();
    void defaultGroupName();
    // port-address-pair-missing (diagnosis.md §2): the node's own port and its allowed address pairs.
    void portPairs_data();
    void portPairs();
    void noPortFindingWithoutItsEvidence_data();
    void noPortFindingWithoutItsEvidence();
    void portRepairKeepsEveryPair();
    void portRepairUnguardedWithoutRevisionIfMatch();
};

// Two healthy members whose ports the test changes.
static WorldBuilder portWorld()
{
    WorldBuilder w;
    w.withPorts();
    w.healthyMember(
        QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.11"), QStringLiteral("100.100.1.0/24"));
    w.healthyMember(
        QStringLiteral("kks-demo-pool-bbbbb"), QStringLiteral("10.0.0.12"), QStringLiteral("100.100.2.0/24"));
    return w;
}

static QJsonObject pair(const QString &ip, const QString &mac = QString())
{
    QJsonObject p { { QStringLiteral("ip_address"), ip } };
    if (!mac.isEmpty())
        p.insert(QStringLiteral("mac_address"), mac);
    return p;
}

// A world whose kluster group has only the rules given by the test.
static WorldBuilder bareWorld()
{
    WorldBuilder w;
    w.clearGroups();
    w.group(QStringLiteral("kks-sg"));
    return w;
}

static QStringList missingProtocols(const Diagnosis &d)
{
    QStringList p;
    for (const Finding &f : d.findings) {
        if (f.kind == FindingKind::SecurityGroupRuleMissing)
            p << f.subject;
    }
    return p;
}

void TestSecurityFindings::goodRulesSatisfy()
{
    WorldBuilder w;
    QVERIFY(Diagnosis::run(w.state()).findings.isEmpty());
}

void TestSecurityFindings::rules_data()
{
    QTest::addColumn<QJsonValue>("protocol");
    QTest::addColumn<QJsonValue>("remote");
    QTest::addColumn<QJsonValue>("portMin");
    QTest::addColumn<QJsonValue>("portMax");
    QTest::addColumn<QString>("direction");
    QTest::addColumn<QString>("ethertype");
    QTest::addColumn<QStringList>("missing");
    const QJsonValue null;
    const QString in = QStringLiteral("ingress");
    const QString v4 = QStringLiteral("IPv4");
    const QStringList all = { QStringLiteral("icmp"), QStringLiteral("tcp"), QStringLiteral("udp") };
    QTest::newRow("null protocol, pod CIDR: all")
        << null << QJsonValue(QStringLiteral("100.100.0.0/16")) << null << null << in << v4 << QStringList();
    QTest::newRow("null protocol, 0.0.0.0/0: all")
        << null << QJsonValue(QStringLiteral("0.0.0.0/0")) << null << null << in << v4 << QStringList();
    QTest::newRow("null protocol, no remote: all")
        << null << null << null << null << in << v4 << QStringList();
    QTest::newRow("tcp from a containing /8")
        << QJsonValue(QStringLiteral("tcp")) << QJsonValue(QStringLiteral("100.0.0.0/8")) << null << null
        << in << v4 << QStringList { QStringLiteral("icmp"), QStringLiteral("udp") };
    QTest::newRow("tcp by number 6") << QJsonValue(QStringLiteral("6"))
                                     << QJsonValue(QStringLiteral("0.0.0.0/0")) << null << null << in << v4
                                     << QStringList { QStringLiteral("icmp"), QStringLiteral("udp") };
    QTest::newRow("tcp with a port range")
        << QJsonValue(QStringLiteral("tcp")) << QJsonValue(QStringLiteral("0.0.0.0/0")) << QJsonValue(1)
        << QJsonValue(65535) << in << v4 << all;
    QTest::newRow("tcp 80 only") << QJsonValue(QStringLiteral("tcp"))
                                 << QJsonValue(QStringLiteral("100.100.0.0/16")) << QJsonValue(80)
                                 << QJsonValue(80) << in << v4 << all;
    QTest::newRow("icmp type 8 only")
        << QJsonValue(QStringLiteral("icmp")) << QJsonValue(QStringLiteral("100.100.0.0/16")) << QJsonValue(8)
        << null << in << v4 << all;
    QTest::newRow("narrower remote") << null << QJsonValue(QStringLiteral("100.100.1.0/24")) << null << null
                                     << in << v4 << all;
    QTest::newRow("partly overlapping remote")
        << null << QJsonValue(QStringLiteral("100.100.128.0/17")) << null << null << in << v4 << all;
    QTest::newRow("egress") << null << QJsonValue(QStringLiteral("0.0.0.0/0")) << null << null
                            << QStringLiteral("egress") << v4 << all;
    QTest::newRow("IPv6") << null << QJsonValue(QStringLiteral("::/0")) << null << null << in
                          << QStringLiteral("IPv6") << all;
    // An empty protocol is not "any" (only null is): it hides no missing rule.
    QTest::newRow("empty protocol string") << QJsonValue(QString()) << QJsonValue(QStringLiteral("0.0.0.0/0"))
                                           << null << null << in << v4 << all;
    QTest::newRow("udp only") << QJsonValue(QStringLiteral("udp"))
                              << QJsonValue(QStringLiteral("100.100.0.0/16")) << null << null << in << v4
                              << QStringList { QStringLiteral("icmp"), QStringLiteral("tcp") };
}

void TestSecurityFindings::rules()
{
    QFETCH(QJsonValue, protocol);
    QFETCH(QJsonValue, remote);
    QFETCH(QJsonValue, portMin);
    QFETCH(QJsonValue, portMax);
    QFETCH(QString, direction);
    QFETCH(QString, ethertype);
    QFETCH(QStringList, missing);
    WorldBuilder w = bareWorld();
    w.rule(0, protocol, remote, portMin, portMax, direction, ethertype);
    const Diagnosis d = Diagnosis::run(w.state());
    QCOMPARE(missingProtocols(d), missing);
    for (const Finding &f : d.findings)
        QCOMPARE(f.severity, Severity::Critical);
}

void TestSecurityFindings::portRangeIsCalledOut()
{
    WorldBuilder w = bareWorld();
    w.rule(0, QStringLiteral("tcp"), QStringLiteral("100.100.0.0/16"), 10250, 10250);
    const Diagnosis d = Diagnosis::run(w.state());
    const Finding *f = d.find(QStringLiteral("security-group-rule-missing:tcp"));
    QVERIFY(f);
    QVERIFY2(f->message().contains(QStringLiteral("opens only ports 10250-10250")), qPrintable(f->message()));
    const QJsonArray near = f->evidence().value(QStringLiteral("rulesThatDoNotSatisfy")).toArray();
    QCOMPARE(near.size(), 1);
    QCOMPARE(near.first().toObject().value(QStringLiteral("port_range_min")).toInt(), 10250);
}

void TestSecurityFindings::verdictsAreKeptInTheFacts()
{
    // What the rule decided is kept at detection; the words are made from it.
    WorldBuilder w = bareWorld(); // its rule 0 is an egress rule
    w.rule(0, QStringLiteral("tcp"), QStringLiteral("100.100.0.0/16"), 10250, 10250);
    w.rule(0, QStringLiteral("tcp"), QStringLiteral("100.100.1.0/24"));
    w.rule(0, QStringLiteral("udp"), QStringLiteral("100.100.1.0/24"));
    const Diagnosis d = Diagnosis::run(w.state());

    const Finding *tcp = d.find(QStringLiteral("security-group-rule-missing:tcp"));
    QVERIFY(tcp);
    const QList<RuleVerdict> &tcpRules = tcp->facts.rulesFallingShort;
    QCOMPARE(tcpRules.size(), 2);
    QCOMPARE(tcpRules.at(0).rule, 1);
    QVERIFY(tcpRules.at(0).somePorts && !tcpRules.at(0).narrowRemote && !tcpRules.at(0).groupRemote);
    QCOMPARE(tcpRules.at(1).rule, 2);
    QVERIFY(tcpRules.at(1).narrowRemote && !tcpRules.at(1).somePorts);
    const QString kubernikusAccepts = QStringLiteral("Kubernikus' own check accepts such a rule");
    QVERIFY2(tcp->message().contains(kubernikusAccepts), qPrintable(tcp->message()));

    // A narrower remote alone is no rule Kubernikus' check accepts.
    const Finding *udp = d.find(QStringLiteral("security-group-rule-missing:udp"));
    QVERIFY(udp);
    QCOMPARE(udp->facts.rulesFallingShort.size(), 1);
    QVERIFY(udp->facts.rulesFallingShort.first().narrowRemote);
    const QString narrow
        = QStringLiteral("it allows only 100.100.1.0/24, not the whole pod network 100.100.0.0/16");
    QVERIFY2(udp->message().contains(narrow), qPrintable(udp->message()));
    QVERIFY2(!udp->message().contains(kubernikusAccepts), qPrintable(udp->message()));
    const QJsonArray near = udp->evidence().value(QStringLiteral("rulesThatDoNotSatisfy")).toArray();
    QCOMPARE(near.first().toObject().value(QStringLiteral("why")).toString(), narrow);

    // No rule about ICMP at all: nothing falls short, nothing to explain.
    const Finding *icmp = d.find(QStringLiteral("security-group-rule-missing:icmp"));
    QVERIFY(icmp);
    QVERIFY(icmp->facts.rulesFallingShort.isEmpty());
    QVERIFY(!icmp->message().contains(QStringLiteral("does not count")));
}

void TestSecurityFindings::groupMissing()
{
    WorldBuilder w;
    w.clearGroups();
    w.group(QStringLiteral("default"), true);
    w.pool(QStringLiteral("pool"), 1);
    w.server(QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), 60, QStringLiteral("ACTIVE"),
        { QStringLiteral("default") });
    w.node(
        QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), QStringLiteral("100.100.4.0/24"));
    w.route(QStringLiteral("100.100.4.0/24"), QStringLiteral("10.0.0.4"));
    const Diagnosis d = Diagnosis::run(w.state());
    // One finding stands for the group: no rule or membership findings.
    QCOMPARE(findingIds(d), QStringList { QStringLiteral("security-group-missing:kks-sg") });
    QCOMPARE(d.findings.first().severity, Severity::Critical);
    QVERIFY(!d.findings.first().repair());
}

void TestSecurityFindings::groupAmbiguous()
{
    WorldBuilder w;
    w.group(QStringLiteral("kks-sg"));
    const Diagnosis d = Diagnosis::run(w.state());
    QCOMPARE(findingIds(d), QStringList { QStringLiteral("security-group-missing:kks-sg") });
    QVERIFY(d.findings.first().message().contains(QStringLiteral("ambiguous")));
    QCOMPARE(d.findings.first().evidence().value(QStringLiteral("matchingGroupIds")).toArray().size(), 2);
}

void TestSecurityFindings::repairCreatesTheRule()
{
    WorldBuilder w = bareWorld();
    const KlusterState s = w.state();
    const Diagnosis d = Diagnosis::run(s);
    const Finding *f = d.find(QStringLiteral("security-group-rule-missing:udp"));
    QVERIFY(f && f->repair());
    const PlannedRequest r = f->repair()->requests.first();
    QCOMPARE(r.service, QStringLiteral("network"));
    QCOMPARE(r.method, QStringLiteral("POST"));
    QCOMPARE(r.path, QStringLiteral("/v2.0/security-group-rules"));
    const QJsonObject rule = r.body.toObject().value(QStringLiteral("security_group_rule")).toObject();
    QCOMPARE(rule.value(QStringLiteral("security_group_id")).toString(), s.securityGroups.first().id);
    QCOMPARE(rule.value(QStringLiteral("direction")).toString(), QStringLiteral("ingress"));
    QCOMPARE(rule.value(QStringLiteral("ethertype")).toString(), QStringLiteral("IPv4"));
    QCOMPARE(rule.value(QStringLiteral("protocol")).toString(), QStringLiteral("udp"));
    QCOMPARE(rule.value(QStringLiteral("remote_ip_prefix")).toString(), QStringLiteral("100.100.0.0/16"));
    QCOMPARE(rule.size(), 5);
}

void TestSecurityFindings::defaultGroupName()
{
    // Without spec.openstack.securityGroupName the group is "default".
    WorldBuilder w;
    w.securityGroupName(QString());
    w.clearGroups();
    w.group(QStringLiteral("default"), true);
    QVERIFY(Diagnosis::run(w.state()).findings.isEmpty());
}

QTEST_GUILESS_MAIN(TestSecurityFindings)
#include "tst_securityfindings.moc"

void TestSecurityFindings::portPairs_data()
{
    QTest::addColumn<QJsonArray>("pairs");
    QTest::addColumn<QJsonValue>("portSecurity");
    QTest::addColumn<bool>("missing");
    const QJsonValue on = true;
    QTest::newRow("the pod CIDR itself")
        << QJsonArray { pair(QStringLiteral("100.100.1.0/24")) } << on << false;
    QTest::newRow("a CIDR containing it")
        << QJsonArray { pair(QStringLiteral("100.100.0.0/16")) } << on << false;
    QTest::newRow("everything") << QJsonArray { pair(QStringLiteral("0.0.0.0/0")) } << on << false;
    QTest::newRow("among others") << QJsonArray { pair(QStringLiteral("10.9.9.9")),
        pair(QStringLiteral("100.100.1.0/24")) }
                                  << on << false;
    QTest::newRow("no pairs") << QJsonArray() << on << true;
    QTest::newRow("another node's CIDR")
        << QJsonArray { pair(QStringLiteral("100.100.2.0/24")) } << on << true;
    QTest::newRow("a narrower CIDR") << QJsonArray { pair(QStringLiteral("100.100.1.0/25")) } << on << true;
    QTest::newRow("one address of it") << QJsonArray { pair(QStringLiteral("100.100.1.1")) } << on << true;
    QTest::newRow("port security off") << QJsonArray() << QJsonValue(false) << false;
    QTest::newRow("port security not listed") << QJsonArray() << QJsonValue() << false;
}

void TestSecurityFindings::portPairs()
{
    QFETCH(QJsonArray, pairs);
    QFETCH(QJsonValue, portSecurity);
    QFETCH(bool, missing);
    WorldBuilder w = portWorld();
    w.port(QStringLiteral("kks-demo-pool-aaaaa"), pairs, portSecurity);
    const Diagnosis d = Diagnosis::run(w.state());
    const QString id = QStringLiteral("port-address-pair-missing:kks-demo-pool-aaaaa");
    QCOMPARE(findingIds(d), missing ? QStringList { id } : QStringList());
    if (!missing)
        return;
    const Finding *f = d.find(id);
    QCOMPARE(f->severity, Severity::Critical);
    QVERIFY2(f->message().contains(QStringLiteral("spoofed")), qPrintable(f->message()));
    QVERIFY(f->message().contains(QStringLiteral("100.100.1.0/24")));
    QCOMPARE(f->evidence().value(QStringLiteral("portId")).toString(),
        w.portId(QStringLiteral("kks-demo-pool-aaaaa")));
    QCOMPARE(f->affected().nodes, QStringList { QStringLiteral("kks-demo-pool-aaaaa") });
    QCOMPARE(f->affected().instances, QStringList { QStringLiteral("kks-demo-pool-aaaaa") });
}

void TestSecurityFindings::noPortFindingWithoutItsEvidence_data()
{
    QTest::addColumn<QString>("what");
    QTest::newRow("no allowed-address-pairs extension") << QStringLiteral("extension");
    QTest::newRow("extensions unknown") << QStringLiteral("extensions");
    QTest::newRow("no port list") << QStringLiteral("ports");
    QTest::newRow("the port list failed") << QStringLiteral("failed");
    QTest::newRow("the port holds another address") << QStringLiteral("address");
    QTest::newRow("the nodes unknown") << QStringLiteral("nodes");
}

void TestSecurityFindings::noPortFindingWithoutItsEvidence()
{
    QFETCH(QString, what);
    WorldBuilder w = portWorld();
    w.port(QStringLiteral("kks-demo-pool-aaaaa"), QJsonArray());
    KlusterState s = w.state();
    QCOMPARE(findingIds(Diagnosis::run(s), FindingKind::PortAddressPairMissing).size(), 1);
    if (what == QLatin1String("extension"))
        s.extensions.removeAll(QStringLiteral("allowed-address-pairs"));
    else if (what == QLatin1String("extensions"))
        s.extensionsKnown = false, s.extensions.clear();
    else if (what == QLatin1String("ports"))
        s.portsSource = SourceStatus(), s.ports.clear();
    else if (what == QLatin1String("failed"))
        s.portsSource = SourceStatus { false, QStringLiteral("network: HTTP 503"), QString() },
        s.ports.clear();
    else if (what == QLatin1String("address"))
        s.ports[0].fixedIps = QStringList { QStringLiteral("10.0.0.99") };
    else if (what == QLatin1String("nodes"))
        s.nodesSource = SourceStatus { false, QStringLiteral("kubernetes: HTTP 503"), QString() },
        s.nodes.clear();
    const Diagnosis d = Diagnosis::run(s);
    QCOMPARE(findingIds(d, FindingKind::PortAddressPairMissing), QStringList());
    if (what == QLatin1String("failed")) {
        QCOMPARE(d.notDiagnosed.size(), 1);
        QVERIFY2(
            d.notDiagnosed.first().contains(QStringLiteral("HTTP 503")), qPrintable(d.notDiagnosed.first()));
    }
}

void TestSecurityFindings::portRepairKeepsEveryPair()
{
    WorldBuilder w = portWorld();
    w.port(QStringLiteral("kks-demo-pool-aaaaa"),
        QJsonArray { pair(QStringLiteral("10.0.0.200"), QStringLiteral("fa:16:3e:aa:bb:cc")),
            pair(QStringLiteral("192.168.5.0/24")) });
    const KlusterState s = w.state();
    const Diagnosis d = Diagnosis::run(s);
    const Finding *f = d.find(QStringLiteral("port-address-pair-missing:kks-demo-pool-aaaaa"));
    QVERIFY(f);
    const std::optional<RepairPlan> plan = f->repair();
    QVERIFY(plan);
    QCOMPARE(plan->action, RepairPlan::Action::AddAddressPair);
    QCOMPARE(plan->nodeName, QStringLiteral("kks-demo-pool-aaaaa"));
    QCOMPARE(plan->requests.size(), 1);
    const PlannedRequest &r = plan->requests.first();
    QCOMPARE(r.service, QStringLiteral("network"));
    QCOMPARE(r.method, QStringLiteral("PUT"));
    QCOMPARE(r.path, QStringLiteral("/v2.0/ports/") + w.portId(QStringLiteral("kks-demo-pool-aaaaa")));
    qint64 revision = -1;
    for (const Port &p : s.ports) {
        if (p.id == w.portId(QStringLiteral("kks-demo-pool-aaaaa")))
            revision = p.revision;
    }
    QVERIFY(revision > 0);
    QCOMPARE(r.headers.value(QStringLiteral("If-Match")).toString(),
        QStringLiteral("revision_number=%1").arg(revision));
    const QJsonArray expected { pair(QStringLiteral("10.0.0.200"), QStringLiteral("fa:16:3e:aa:bb:cc")),
        pair(QStringLiteral("192.168.5.0/24")), pair(QStringLiteral("100.100.1.0/24")) };
    QCOMPARE(r.body.toObject(),
        (QJsonObject { { QStringLiteral("port"),
            QJsonObject { { QStringLiteral("allowed_address_pairs"), expected } } } }));
}

void TestSecurityFindings::portRepairUnguardedWithoutRevisionIfMatch()
{
    WorldBuilder w = portWorld();
    w.port(QStringLiteral("kks-demo-pool-bbbbb"), QJsonArray());
    KlusterState s = w.state();
    s.extensions.removeAll(QStringLiteral("revision-if-match"));
    const Diagnosis d = Diagnosis::run(s);
    const Finding *f = d.find(QStringLiteral("port-address-pair-missing:kks-demo-pool-bbbbb"));
    QVERIFY(f);
    QVERIFY(f->repair()->requests.first().headers.isEmpty());
}
