#include "core/apiparser.h"
#include "tests/common/referencetimestamp.h"
#include "tests/common/worldbuilder.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QTest>

// Parsing tells the truth: unknown fields are ignored, absent optional fields
// mean what the APIs mean by them, and a missing or mistyped required field
// is an error naming the file and the JSON path.
class TestApiParser : public QObject
{
    Q_OBJECT
private slots:
    void conditionSinceWhen();
    void serversUnknownFieldsIgnored();
    void serversWithoutSecurityGroupsKey();
    void serversAddressesFixedAndFloating();
    void serverErrorFault();
    void serverMissingIdNamesPath();
    void serverWrongTypeNamesPath();
    void nodesPodCidrFallback();
    void nodesPodCidrsWins();
    void nodesWithoutSpecOrStatus();
    void nodesItemsNull();
    void nodesWrongKind();
    void nodesBadPodCidr();
    void routerRoutesInOrder();
    void routerRoutesNullMeansNone();
    void routerRouteBadDestination();
    void securityGroupRuleShapes();
    void klusterDefaultsAndRequired();
    void klusterMissingClusterCidr();
    void extensions();
    void timestamps_data();
    void timestamps();
    void timestampsAsTheReference();
    void truncatedJson();
    void htmlPage();
    void emptyFile();
    void topLevelArray();
    void dualStackNodeTakesThePodCidrFamily();
    void kubectlListKind();
    void partialServerOfUnreachableCell();
    void apiErrorBodyIsNamed();
    void dateWithoutTimeRefused();
    void numbersOutOfRangeRefused_data();
    void numbersOutOfRangeRefused();
    void longValuesQuotedShort();
};

static QJsonObject json(const char *text)
{
    return QJsonDocument::fromJson(QByteArray(text)).object();
}

static QString errorOf(const std::function<void()> &fn)
{
    try {
        fn();
    } catch (const ParseError &e) {
        return e.toString();
    }
    return QString();
}

void TestApiParser::serversUnknownFieldsIgnored()
{
    const auto list = ApiParser::parseServers(QStringLiteral("servers.json"), json(R"({
        "servers": [{"id": "a", "name": "kks-demo-pool-abcde", "status": "ACTIVE", "created": "2026-11-21T09:00:00Z",
                     "addresses": {}, "security_groups": [{"name": "kks-sg"}], "some-new-field": {"x": [1, 2]},
                     "OS-EXT-STS:vm_state": "active", "OS-EXT-STS:task_state": null}],
        "servers_links": [{"rel": "next", "href": "http://nova/v2.1/servers/detail?marker=a"}]})"));
    QCOMPARE(list.size(), 1);
    QCOMPARE(list.first().name, QStringLiteral("kks-demo-pool-abcde"));
    QCOMPARE(list.first().securityGroups, QStringList { QStringLiteral("kks-sg") });
    QCOMPARE(list.first().vmState, QStringLiteral("active"));
    QVERIFY(list.first().taskState.isEmpty());
}

void TestApiParser::serversWithoutSecurityGroupsKey()
{
    const auto list = ApiParser::parseServers(QStringLiteral("servers.json"), json(R"({
        "servers": [{"id": "a", "name": "x", "status": "ACTIVE", "created": "2026-11-21T09:00:00Z"}]})"));
    QCOMPARE(list.size(), 1);
    QVERIFY(list.first().securityGroups.isEmpty());
    QVERIFY(list.first().addresses.isEmpty());
}

void TestApiParser::serversAddressesFixedAndFloating()
{
    const auto list = ApiParser::parseServers(QStringLiteral("servers.json"), json(R"({
        "servers": [{"id": "a", "name": "x", "status": "ACTIVE", "created": "2026-11-21T09:00:00Z",
          "addresses": {"net-a": [{"addr": "10.0.0.5", "version": 4, "OS-EXT-IPS:type": "fixed"},
                                  {"addr": "172.24.4.9", "version": 4, "OS-EXT-IPS:type": "floating"}],
                        "net-b": [{"addr": "10.1.0.5", "version": 4}]}}]})"));
    QCOMPARE(list.first().addresses.size(), 3);
    QCOMPARE(list.first().fixedAddress(), QStringLiteral("10.0.0.5"));
}

void TestApiParser::serverErrorFault()
{
    const auto list = ApiParser::parseServers(QStringLiteral("servers.json"), json(R"({
        "servers": [{"id": "a", "name": "x", "status": "ERROR", "created": "2026-11-21T09:00:00Z",
          "OS-EXT-STS:vm_state": "error", "fault": {"code": 500, "created": "2026-11-21T09:01:00Z",
          "message": "No valid host was found."}}]})"));
    QVERIFY(list.first().isError());
    QCOMPARE(list.first().faultMessage, QStringLiteral("No valid host was found."));
}

void TestApiParser::serverMissingIdNamesPath()
{
    const QString error = errorOf([] {
        ApiParser::parseServers(QStringLiteral("servers.json"), json(R"({"servers": [
            {"id": "a", "name": "x", "status": "ACTIVE", "created": "2026-11-21T09:00:00Z"},
            {"name": "y", "status": "ACTIVE", "created": "2026-11-21T09:00:00Z"}]})"));
    });
    QCOMPARE(error, QStringLiteral("servers.json: $.servers[1].id: required field is missing"));
}

void TestApiParser::serverWrongTypeNamesPath()
{
    QCOMPARE(errorOf([] {
        ApiParser::parseServers(QStringLiteral("servers.json"), json(R"({"servers": [
            {"id": "a", "name": "x", "status": "ACTIVE", "created": "2026-11-21T09:00:00Z", "addresses": []}]})"));
    }),
        QStringLiteral("servers.json: $.servers[0].addresses: expected an object, got an array"));
    QCOMPARE(
        errorOf([] { ApiParser::parseServers(QStringLiteral("servers.json"), json(R"({"servers": {}})")); }),
        QStringLiteral("servers.json: $.servers: expected an array, got an object"));
    QCOMPARE(errorOf([] {
        ApiParser::parseServers(QStringLiteral("servers.json"), json(R"({"servers": [
            {"id": "a", "name": 5, "status": "ACTIVE", "created": "2026-11-21T09:00:00Z"}]})"));
    }),
        QStringLiteral("servers.json: $.servers[0].name: expected a string, got a number"));
    QCOMPARE(errorOf([] {
        ApiParser::parseServers(QStringLiteral("servers.json"), json(R"({"servers": [
            {"id": "a", "name": "x", "status": "ACTIVE", "created": "yesterday"}]})"));
    }),
        QStringLiteral("servers.json: $.servers[0].created: not an RFC 3339 timestamp: \"yesterday\""));
    QCOMPARE(errorOf([] {
        ApiParser::parseServers(QStringLiteral("servers.json"), json(R"({"servers": [
            {"id": "a", "name": "x", "status": "ACTIVE", "created": "2026-11-21T09:00:00Z",
             "security_groups": [{"id": "no-name"}]}]})"));
    }),
        QStringLiteral("servers.json: $.servers[0].security_groups[0].name: required field is missing"));
}

void TestApiParser::nodesPodCidrFallback()
{
    const auto nodes
        = ApiParser::parseNodes(QStringLiteral("nodes.json"), json(R"({"kind": "NodeList", "items": [
        {"metadata": {"name": "n1", "creationTimestamp": "2026-11-21T09:00:00Z"},
         "spec": {"podCIDR": "100.100.1.0/24", "providerID": "openstack:///abc"},
         "status": {"addresses": [{"type": "Hostname", "address": "n1"}, {"type": "InternalIP", "address": "10.0.0.1"}],
                    "conditions": [{"type": "Ready", "status": "True"}]}}]})"));
    QCOMPARE(nodes.size(), 1);
    QCOMPARE(nodes.first().podCidrText, QStringLiteral("100.100.1.0/24"));
    QCOMPARE(nodes.first().internalIp, QStringLiteral("10.0.0.1"));
    QCOMPARE(nodes.first().providerInstanceId(), QStringLiteral("abc"));
    QVERIFY(nodes.first().isReady());
}

void TestApiParser::nodesPodCidrsWins()
{
    const auto nodes = ApiParser::parseNodes(QStringLiteral("nodes.json"), json(R"({"items": [
        {"metadata": {"name": "n1"}, "spec": {"podCIDR": "100.100.1.0/24", "podCIDRs": ["100.100.9.0/24", "fd00::/64"],
         "providerID": "openstack://region-1/def"}}]})"));
    QCOMPARE(nodes.first().podCidrText, QStringLiteral("100.100.9.0/24"));
    QCOMPARE(nodes.first().providerInstanceId(), QStringLiteral("def"));
}

void TestApiParser::nodesWithoutSpecOrStatus()
{
    const auto nodes = ApiParser::parseNodes(
        QStringLiteral("nodes.json"), json(R"({"items": [{"metadata": {"name": "n1"}}]})"));
    QCOMPARE(nodes.size(), 1);
    QVERIFY(nodes.first().podCidrText.isEmpty());
    QVERIFY(!nodes.first().podCidr.isValid());
    QVERIFY(!nodes.first().isReady());
}

void TestApiParser::nodesItemsNull()
{
    QVERIFY(
        ApiParser::parseNodes(QStringLiteral("nodes.json"), json(R"({"kind": "NodeList", "items": null})"))
            .isEmpty());
    QCOMPARE(
        errorOf([] { ApiParser::parseNodes(QStringLiteral("nodes.json"), json(R"({"kind": "NodeList"})")); }),
        QStringLiteral("nodes.json: $.items: required field is missing"));
}

void TestApiParser::nodesWrongKind()
{
    QCOMPARE(errorOf([] {
        ApiParser::parseNodes(QStringLiteral("nodes.json"), json(R"({"kind": "PodList", "items": []})"));
    }),
        QStringLiteral("nodes.json: $.kind: expected a NodeList, got \"PodList\""));
}

void TestApiParser::nodesBadPodCidr()
{
    QCOMPARE(errorOf([] {
        ApiParser::parseNodes(QStringLiteral("nodes.json"),
            json(R"({"items": [{"metadata": {"name": "n"}, "spec": {"podCIDR": "x"}}]})"));
    }),
        QStringLiteral("nodes.json: $.items[0].spec.podCIDR: not a CIDR: \"x\""));
    QCOMPARE(errorOf([] {
        ApiParser::parseNodes(QStringLiteral("nodes.json"),
            json(R"({"items": [{"metadata": {"name": "n"}, "spec": {"podCIDRs": [7]}}]})"));
    }),
        QStringLiteral("nodes.json: $.items[0].spec.podCIDRs[0]: expected a string, got a number"));
}

void TestApiParser::routerRoutesInOrder()
{
    const Router r = ApiParser::parseRouter(QStringLiteral("router.json"), json(R"({"router": {"id": "r1",
        "revision_number": 12, "routes": [{"destination": "198.19.1.0/24", "nexthop": "10.0.0.3"},
                                          {"destination": "198.19.1.0/24", "nexthop": "10.0.0.5"}]}})"));
    QCOMPARE(r.revisionNumber, 12);
    QCOMPARE(r.routes.size(), 2);
    QCOMPARE(r.routes.at(0).nexthop, QStringLiteral("10.0.0.3"));
    QCOMPARE(r.routes.at(1).nexthop, QStringLiteral("10.0.0.5"));
}

void TestApiParser::routerRoutesNullMeansNone()
{
    const Router r = ApiParser::parseRouter(
        QStringLiteral("router.json"), json(R"({"router": {"id": "r1", "routes": null}})"));
    QVERIFY(r.routes.isEmpty());
    QCOMPARE(r.revisionNumber, -1);
}

void TestApiParser::routerRouteBadDestination()
{
    QCOMPARE(errorOf([] {
        ApiParser::parseRouter(QStringLiteral("router.json"),
            json(R"({"router": {"id": "r1", "routes": [{"destination": "nope", "nexthop": "1.2.3.4"}]}})"));
    }),
        QStringLiteral("router.json: $.router.routes[0].destination: not a CIDR: \"nope\""));
    QCOMPARE(
        errorOf([] { ApiParser::parseRouter(QStringLiteral("router.json"), json(R"({"routers": []})")); }),
        QStringLiteral("router.json: $.router: required field is missing"));
}

void TestApiParser::securityGroupRuleShapes()
{
    const auto groups
        = ApiParser::parseSecurityGroups(QStringLiteral("security-groups.json"), json(R"({"security_groups": [
        {"id": "g1", "name": "kks-sg", "security_group_rules": [
          {"id": "r1", "direction": "ingress", "ethertype": "IPv4", "protocol": null, "port_range_min": null,
           "port_range_max": null, "remote_ip_prefix": "0.0.0.0/0", "remote_group_id": null},
          {"id": "r2", "direction": "ingress", "ethertype": "IPv4", "protocol": "6", "port_range_min": 80,
           "port_range_max": 80, "remote_ip_prefix": null, "remote_group_id": "g1"},
          {"id": "r3", "direction": "ingress", "ethertype": "IPv4", "protocol": 17}]},
        {"id": "g2", "name": "empty"}]})"));
    QCOMPARE(groups.size(), 2);
    const auto &rules = groups.first().rules;
    QVERIFY(!rules.at(0).protocol.has_value());
    QCOMPARE(*rules.at(0).remoteIpPrefix, QStringLiteral("0.0.0.0/0"));
    QCOMPARE(*rules.at(1).protocol, QStringLiteral("6"));
    QCOMPARE(*rules.at(1).portRangeMin, 80);
    QCOMPARE(*rules.at(1).remoteGroupId, QStringLiteral("g1"));
    QCOMPARE(*rules.at(2).protocol, QStringLiteral("17"));
    QVERIFY(groups.at(1).rules.isEmpty());
    QCOMPARE(errorOf([] {
        ApiParser::parseSecurityGroups(QStringLiteral("security-groups.json"), json(R"({"security_groups": [
            {"id": "g1", "name": "x", "security_group_rules": [{"direction": "ingress", "ethertype": "IPv4",
             "port_range_min": "80"}]}]})"));
    }),
        QStringLiteral("security-groups.json: $.security_groups[0].security_group_rules[0].port_range_min: "
                       "expected an integer, got a string"));
}

void TestApiParser::klusterDefaultsAndRequired()
{
    const Kluster k = ApiParser::parseKluster(QStringLiteral("kluster.json"), json(R"({"name": "demo",
        "spec": {"clusterCIDR": "198.19.0.0/16", "openstack": {"routerID": "r1"},
                 "nodePools": [{"name": "a", "size": 3, "flavor": "m1"}, {"name": "b", "flavor": "m1"}]},
        "status": {"phase": "Running"}})"));
    QCOMPARE(k.securityGroupName, QStringLiteral("default"));
    QCOMPARE(k.expectedNodes(), qint64(3));
    QCOMPARE(k.nodePools.size(), 2);
    QCOMPARE(k.clusterCidr.toString(), QStringLiteral("198.19.0.0/16"));
    QCOMPARE(k.phase, QStringLiteral("Running"));
}

void TestApiParser::klusterMissingClusterCidr()
{
    QCOMPARE(errorOf([] {
        ApiParser::parseKluster(QStringLiteral("kluster.json"),
            json(R"({"name": "demo", "spec": {"openstack": {"routerID": "r1"}}})"));
    }),
        QStringLiteral("kluster.json: $.spec.clusterCIDR: required field is missing"));
    QCOMPARE(errorOf([] {
        ApiParser::parseKluster(QStringLiteral("kluster.json"),
            json(R"({"name": "demo", "spec": {"clusterCIDR": "100.100.0.0/16", "openstack": {}}})"));
    }),
        QStringLiteral("kluster.json: $.spec.openstack.routerID: required field is missing"));
    QCOMPARE(errorOf([] {
        ApiParser::parseKluster(QStringLiteral("kluster.json"), json(R"({"name": "demo", "spec": {
            "clusterCIDR": "100.100.0.0/16", "openstack": {"routerID": "r"}, "nodePools": [{"size": 1}]}})"));
    }),
        QStringLiteral("kluster.json: $.spec.nodePools[0].name: required field is missing"));
}

void TestApiParser::extensions()
{
    const QStringList aliases
        = ApiParser::parseExtensions(QStringLiteral("extensions.json"), json(R"({"extensions": [
        {"alias": "extraroute", "name": "Extra Route"}, {"alias": "extraroute-atomic", "links": []}]})"));
    QCOMPARE(aliases, (QStringList { QStringLiteral("extraroute"), QStringLiteral("extraroute-atomic") }));
}

void TestApiParser::timestamps_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("utc");
    QTest::newRow("seconds Z") << "2026-11-21T10:00:00Z"
                               << "2026-11-21T10:00:00Z";
    QTest::newRow("microseconds") << "2015-11-07T02:58:43.578887Z"
                                  << "2015-11-07T02:58:43Z";
    QTest::newRow("offset") << "2026-11-21T12:00:00+02:00"
                            << "2026-11-21T10:00:00Z";
    QTest::newRow("no zone is UTC") << "2026-11-21T10:00:00"
                                    << "2026-11-21T10:00:00Z";
    QTest::newRow("invalid") << "21.11.2026"
                             << "";
}

void TestApiParser::timestamps()
{
    QFETCH(QString, text);
    QFETCH(QString, utc);
    QCOMPARE(ApiParser::formatTimestamp(ApiParser::parseTimestamp(text)), utc);
}

// The hand-written timestamp reading accepts and refuses what the pattern and Qt's ISO reading did, to the
// millisecond: every text made from real ones by replacing, removing or adding a character, cutting it
// short, and the edge cases of dates, times and offsets; in UTC and in a zone with daylight saving.
void TestApiParser::timestampsAsTheReference()
{
    QStringList texts
        = { QStringLiteral("2026-11-21T10:00:00Z"), QStringLiteral("2015-11-07T02:58:43.578887Z"),
              QStringLiteral("2026-11-21T12:00:00+02:00"), QStringLiteral("2026-11-21t10:00:00.5z"),
              QStringLiteral("2026-11-21T10:00:00"), QStringLiteral("2026-11-21T10:00:00.12-05:30"),
              QStringLiteral("2024-02-29T00:00:00Z"), QStringLiteral("2026-02-29T00:00:00Z"),
              QStringLiteral("2026-11-21T24:00:00Z"), QStringLiteral("2026-11-21T24:00:00.0001Z"),
              QStringLiteral("2026-11-21T24:00:01Z"), QStringLiteral("2026-11-21T23:59:60Z"),
              QStringLiteral("9999-12-31T23:59:59-23:59"), QStringLiteral("9999-12-31T24:00:00Z"),
              QStringLiteral("0001-01-01T00:00:00+01:00"), QStringLiteral("0000-01-01T00:00:00Z"),
              QStringLiteral("2026-03-29T02:30:00"), QStringLiteral("2026-03-29T02:30:00Z"),
              QStringLiteral("2026-10-25T02:30:00"), QStringLiteral("2026-11-21T10:00:00+24:00"),
              QStringLiteral("2026-11-21T10:00:00-00:60"), QStringLiteral("2026-13-01T10:00:00Z"),
              QStringLiteral("2026-11-00T10:00:00Z"), QStringLiteral("2026-11-21T10:00:00.Z"),
              QStringLiteral("2026-11-21T10:00:00.123456789012345678901234567890Z") };
    const QString alphabet = QStringLiteral("0159-:.TtZz+ \n\r,x\u00e9\u0663\U0001D7CE");
    const qsizetype real = texts.size();
    for (qsizetype k = 0; k < real; ++k) {
        const QString t = texts.at(k);
        for (qsizetype i = 0; i <= t.size(); ++i) {
            texts << t.left(i) << t.left(i) + QLatin1Char('\n') << t.left(i) + t.mid(i + 1);
            for (const QChar c : alphabet) {
                texts << t.left(i) + c + t.mid(i) << t.left(i) + c + t.mid(i + 1);
            }
        }
    }
    const QByteArray zone = qgetenv("TZ");
    for (const char *tz : { "UTC", "Europe/Berlin" }) {
        qputenv("TZ", tz);
        // A local time in the spring's gap is refused where the zone has one (Qt read it as local time).
        QCOMPARE(ApiParser::parseTimestamp(QStringLiteral("2026-03-29T02:30:00")).isValid(),
            qstrcmp(tz, "UTC") == 0
                || !QFileInfo::exists(QStringLiteral("/usr/share/zoneinfo/Europe/Berlin")));
        for (const QString &text : std::as_const(texts)) {
            for (const bool requireZone : { false, true }) {
                const QDateTime ours = ApiParser::parseTimestamp(text, requireZone);
                const QDateTime reference = referenceParseTimestamp(text, requireZone);
                const QString said = QStringLiteral("%1 (%2%3)")
                                         .arg(text, QLatin1String(tz),
                                             requireZone ? QStringLiteral(", zone required") : QString());
                QVERIFY2(ours.isValid() == reference.isValid(), qPrintable(said));
                if (ours.isValid()) {
                    QVERIFY2(ours == reference && ours.timeSpec() == reference.timeSpec(), qPrintable(said));
                }
            }
        }
    }
    if (zone.isNull())
        qunsetenv("TZ");
    else
        qputenv("TZ", zone);
}

void TestApiParser::truncatedJson()
{
    const QString e = errorOf(
        [] { parseJsonObject(QStringLiteral("servers.json"), QByteArray(R"({"servers": [{"id": "a")")); });
    QVERIFY2(e.startsWith(QStringLiteral("servers.json: not valid JSON at byte")), qPrintable(e));
    QVERIFY2(e.contains(QStringLiteral("truncated")), qPrintable(e));
}

void TestApiParser::htmlPage()
{
    const QString e = errorOf([] {
        parseJsonObject(
            QStringLiteral("nodes.json"), QByteArray("<html><body><h1>502 Bad Gateway</h1></body></html>"));
    });
    QVERIFY2(e.contains(QStringLiteral("HTML")), qPrintable(e));
}

void TestApiParser::emptyFile()
{
    QCOMPARE(errorOf([] { parseJsonObject(QStringLiteral("router.json"), QByteArray("\n")); }),
        QStringLiteral("router.json: the file is empty"));
}

void TestApiParser::topLevelArray()
{
    QCOMPARE(errorOf([] { parseJsonObject(QStringLiteral("router.json"), QByteArray("[1,2]")); }),
        QStringLiteral("router.json: $: expected a JSON object at the top level"));
}

void TestApiParser::dualStackNodeTakesThePodCidrFamily()
{
    const auto nodes = ApiParser::parseNodes(QStringLiteral("nodes.json"), json(R"({"items": [
        {"metadata": {"name": "n"}, "spec": {"podCIDRs": ["100.100.0.0/24", "fd00:10::/64"]},
         "status": {"addresses": [{"type": "InternalIP", "address": "fd00::5"}, {"type": "InternalIP", "address": "10.0.0.5"}]}}]})"));
    QCOMPARE(nodes.first().internalIp, QStringLiteral("10.0.0.5"));
}

void TestApiParser::kubectlListKind()
{
    QCOMPARE(ApiParser::parseNodes(QStringLiteral("nodes.json"),
                 json(R"({"apiVersion": "v1", "kind": "List", "items": [{"metadata": {"name": "n"}}]})"))
                 .size(),
        1);
}

void TestApiParser::partialServerOfUnreachableCell()
{
    const auto list = ApiParser::parseServers(QStringLiteral("servers.json"), json(R"({"servers": [
        {"id": "a", "status": "UNKNOWN", "links": []},
        {"id": "b", "name": "x", "status": "ACTIVE", "created": "2026-11-21T09:00:00Z"}]})"));
    QCOMPARE(list.size(), 2);
    QVERIFY(list.first().isPartial());
    QVERIFY(!list.last().isPartial());
}

void TestApiParser::apiErrorBodyIsNamed()
{
    const QString e = errorOf([] {
        ApiParser::parseRouter(
            QStringLiteral("router.json"), json(R"({"NeutronError": {"type": "RouterNotFound",
            "message": "Router r could not be found", "detail": ""}})"));
    });
    QCOMPARE(e,
        QStringLiteral(
            "router.json: $: this is an API error response, not the expected body: RouterNotFound: "
            "Router r could not be found"));
    QVERIFY(errorOf([] {
        ApiParser::parseNodes(QStringLiteral("nodes.json"), json(R"({"kind": "Status", "status": "Failure",
                    "message": "nodes is forbidden", "reason": "Forbidden", "code": 403})"));
    }).contains(QStringLiteral("Forbidden")));
}

void TestApiParser::dateWithoutTimeRefused()
{
    QVERIFY(!ApiParser::parseTimestamp(QStringLiteral("2026-11-21")).isValid());
    QVERIFY(!ApiParser::parseTimestamp(QStringLiteral("2026-11-21T10:00:00"), true).isValid());
    QVERIFY(ApiParser::parseTimestamp(QStringLiteral("2026-11-21T10:00:00z"), true).isValid());
    // Offsets that carry the instant past the four-digit years are refused, not written back as "10000-...".
    QVERIFY(!ApiParser::parseTimestamp(QStringLiteral("9999-12-31T23:59:59.999999999-23:59")).isValid());
    QVERIFY(!ApiParser::parseTimestamp(QStringLiteral("0001-01-01T00:00:00+01:00")).isValid());
    QCOMPARE(
        ApiParser::formatTimestamp(ApiParser::parseTimestamp(QStringLiteral("9999-12-31T23:59:59+01:00"))),
        QStringLiteral("9999-12-31T22:59:59Z"));
}

void TestApiParser::numbersOutOfRangeRefused_data()
{
    QTest::addColumn<QByteArray>("kluster");
    QTest::addColumn<QString>("error");
    // 4294967296 + 2 once read as 2: now refused, naming the range.
    QTest::newRow("pool size past 32 bits")
        << QByteArray(R"({"name": "k", "spec": {"clusterCIDR": "198.19.0.0/16",
        "openstack": {"routerID": "r1"}, "nodePools": [{"name": "a", "size": 4294967298}]}})")
        << QStringLiteral("kluster.json: $.spec.nodePools[0].size: 4294967298 is out of range (0 to 100000)");
    QTest::newRow("pool size 2147483647")
        << QByteArray(R"({"name": "k", "spec": {"clusterCIDR": "198.19.0.0/16",
        "openstack": {"routerID": "r1"}, "nodePools": [{"name": "a", "size": 2147483647}, {"name": "b", "size": 2147483647}]}})")
        << QStringLiteral("kluster.json: $.spec.nodePools[0].size: 2147483647 is out of range (0 to 100000)");
    QTest::newRow("negative pool size")
        << QByteArray(R"({"name": "k", "spec": {"clusterCIDR": "198.19.0.0/16",
        "openstack": {"routerID": "r1"}, "nodePools": [{"name": "a", "size": -1}]}})")
        << QStringLiteral("kluster.json: $.spec.nodePools[0].size: -1 is out of range (0 to 100000)");
}

void TestApiParser::numbersOutOfRangeRefused()
{
    QFETCH(QByteArray, kluster);
    QFETCH(QString, error);
    QCOMPARE(errorOf([&] {
        ApiParser::parseKluster(QStringLiteral("kluster.json"), QJsonDocument::fromJson(kluster).object());
    }),
        error);
    // A rule's ports and protocol number, a router's revision: in their ranges or refused.
    QVERIFY(errorOf([] {
        ApiParser::parseSecurityGroups(
            QStringLiteral("g.json"), json(R"({"security_groups": [{"id": "g", "name": "n",
                    "security_group_rules": [{"id": "r", "direction": "ingress", "ethertype": "IPv4", "protocol": "tcp",
                    "port_range_min": 70000, "port_range_max": 70000}]}]})"));
    }).contains(QStringLiteral("port_range_min: 70000 is out of range (0 to 65535)")));
    QVERIFY(errorOf([] {
        ApiParser::parseSecurityGroups(
            QStringLiteral("g.json"), json(R"({"security_groups": [{"id": "g", "name": "n",
                    "security_group_rules": [{"id": "r", "direction": "ingress", "ethertype": "IPv4", "protocol": 4294967302}]}]})"));
    }).contains(QStringLiteral("no IP protocol number")));
    QVERIFY(errorOf([] {
        ApiParser::parseRouter(QStringLiteral("router.json"),
            json(R"({"router": {"id": "r1", "revision_number": -5, "routes": []}})"));
    }).contains(QStringLiteral("revision_number: -5 is out of range")));
}

void TestApiParser::longValuesQuotedShort()
{
    // A 70,000-character value is not quoted whole in an error line.
    const QString huge(70000, QLatin1Char('x'));
    const QByteArray body
        = QStringLiteral(R"({"name": "k", "spec": {"clusterCIDR": "%1", "openstack": {"routerID": "r1"}}})")
              .arg(huge)
              .toUtf8();
    const QString error = errorOf([&] {
        ApiParser::parseKluster(QStringLiteral("kluster.json"), QJsonDocument::fromJson(body).object());
    });
    QVERIFY2(error.size() < 300, qPrintable(error.left(400)));
    QVERIFY2(error.contains(QStringLiteral("(70000 characters)")), qPrintable(error));
}

// A condition's lastTransitionTime is read (since when it holds); a wrong one is a clear error with its path.
void TestApiParser::conditionSinceWhen()
{
    const QList<Node> nodes = ApiParser::parseNodes(QStringLiteral("nodes.json"), json(R"({"items": [
        {"metadata": {"name": "n1"}, "status": {"conditions": [
            {"type": "Ready", "status": "False", "lastTransitionTime": "2026-11-21T09:18:00Z"},
            {"type": "NetworkUnavailable", "status": "False", "lastTransitionTime": null}]}}]})"));
    QCOMPARE(nodes.first().condition(QStringLiteral("Ready"))->lastTransition,
        QDateTime(QDate(2026, 11, 21), QTime(9, 18), Qt::UTC));
    QVERIFY(!nodes.first().condition(QStringLiteral("NetworkUnavailable"))->lastTransition.isValid());
    QCOMPARE(errorOf([] {
        ApiParser::parseNodes(QStringLiteral("nodes.json"), json(R"({"items": [
            {"metadata": {"name": "n1"}, "status": {"conditions": [
                {"type": "Ready", "status": "False", "lastTransitionTime": "a while ago"}]}}]})"));
    }),
        QStringLiteral(
            "nodes.json: $.items[0].status.conditions[0].lastTransitionTime: not an RFC 3339 timestamp: "
            "\"a while ago\""));
}

QTEST_GUILESS_MAIN(TestApiParser)
#include "tst_apiparser.moc"
