#include "core/deviceroutes.h"
#include "core/diagnosis.h"
#include "core/json/jsonreader.h"
#include "core/repairproposal.h"
#include "core/routerdevice.h"
#include "core/routereport.h"
#include "tests/common/findingassert.h"
#include "tests/common/worldbuilder.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

// The ASR driver's validate answer (docs/wire-formats.md), written by hand in the driver's shape, read into
// what each device holds; and device-route-stale and device-route-missing judged from it.
class TestRouterDevice : public QObject
{
    Q_OBJECT
private slots:
    void intendedIsTheDriversOrder();
    void inStepNamesNoDifference();
    void removedRouteIsMissingOnThatDevice();
    void standbyGapIsAWarning();
    void deletionTheDeviceMissedIsStaleAndCanWin();
    void changedNexthopIsStaleAndMissing();
    void threeOrMoreLeftOutDecideNothingPastWhatIsKnown();
    void wholeDocumentRemovedDecidesNothing();
    void answerForAnotherRouterIsRefused();
    void malformedAnswersNameThePath();
    void unreadableDeviceIsNotDiagnosedNeverNoDrift();
    void foreignRoutesAreNotThisKlusters();
    void rolesComeFromTheTeamsActiveDevice();
    void columnsSetNeutronBesideEachDevice();
    void staleIsRepairedByTeardownAndSyncOnce();
    void aNodesOwnRouteKeptOnTheDeviceIsNoStaleRoute();
    void recycledFromTheHistoryWithoutTheDevices();
    void routeHistoryFromTheKeptMoments();
    void nudgeRemovesAndAddsTheSameRoute();
};

namespace {

// Three healthy members with pod CIDRs 198.19.{3,4,5}.0/24 routed right; the pod network 198.19.0.0/16.
WorldBuilder world()
{
    WorldBuilder w(QStringLiteral("legacy"), QStringLiteral("198.19.0.0/16"));
    w.pool(QStringLiteral("pool"), 3);
    w.healthyMember(QStringLiteral("kks-legacy-pool-aaaaa"), QStringLiteral("10.180.0.3"),
        QStringLiteral("198.19.3.0/24"));
    w.healthyMember(QStringLiteral("kks-legacy-pool-bbbbb"), QStringLiteral("10.180.0.4"),
        QStringLiteral("198.19.4.0/24"));
    w.healthyMember(QStringLiteral("kks-legacy-pool-ccccc"), QStringLiteral("10.180.0.5"),
        QStringLiteral("198.19.5.0/24"));
    return w;
}

QString vrfOf(const KlusterState &s)
{
    return QString(s.router.id).remove(QLatin1Char('-'));
}

QJsonObject json(const QString &text)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &error);
    if (doc.isNull())
        qFatal("test JSON: %s", qPrintable(error.errorString()));
    return doc.object();
}

QString element(const QString &prefix, const QString &mask, const QString &nexthop)
{
    return QStringLiteral(R"({"prefix": "%1", "mask": "%2", "fwd-list": {"fwd": "%3"}})")
        .arg(prefix, mask, nexthop);
}

// The answer where the first device (10.44.0.35) lacks Neutron's last route, 198.19.5.0/24 via .5 (Neutron's
// list by the prefix's text: 198.19.3.0, .4.0, .5.0) and the second is in step.
QString firstLacksTheLast(const KlusterState &base)
{
    return QStringLiteral(R"({"diffs": {"route": {"10.44.0.35": [{"entity": "%1", "type": "remove",
        "item": "vrf.ip-route-interface-forwarding-list", "neutron": [2, %2], "device": null}],
        "10.44.0.36": []}}})")
        .arg(vrfOf(base),
            element(
                QStringLiteral("198.19.5.0"), QStringLiteral("255.255.255.0"), QStringLiteral("10.180.0.5")));
}

// The state with the devices' answer read in (as a snapshot's router-device.json would be).
KlusterState withDevices(KlusterState s, const QString &answer)
{
    s.routerDevices = RouterDeviceReader::read(QStringLiteral("router-device.json"), json(answer), s.router);
    s.routerDeviceSource.known = true;
    return s;
}

} // namespace

void TestRouterDevice::intendedIsTheDriversOrder()
{
    Router r;
    r.id = QStringLiteral("r1");
    r.routes = { { QStringLiteral("198.19.5.0/24"), QStringLiteral("10.180.0.5") },
        { QStringLiteral("198.19.10.0/24"), QStringLiteral("10.180.0.9") },
        { QStringLiteral("fd00::/64"), QStringLiteral("fd00::1") },
        { QStringLiteral("198.19.3.0/24"), QStringLiteral("10.180.0.3") } };
    r.hasGateway = true;
    // By the prefix's text (198.19.10.0 before 198.19.3.0), the default route to the gateway first, IPv6 left
    // out (the driver programs a prefix and a mask).
    const QList<Route> want = RouterDeviceReader::intended(r);
    QCOMPARE(want.size(), 4);
    QCOMPARE(want.at(0).destination, QStringLiteral("0.0.0.0/0"));
    QVERIFY(want.at(0).nexthop.isEmpty());
    QCOMPARE(want.at(1).destination, QStringLiteral("198.19.10.0/24"));
    QCOMPARE(want.at(2).destination, QStringLiteral("198.19.3.0/24"));
    QCOMPARE(want.at(3).destination, QStringLiteral("198.19.5.0/24"));
    // A default route of the router's own replaces the gateway's.
    r.routes << Route { QStringLiteral("0.0.0.0/0"), QStringLiteral("10.180.0.1") };
    QCOMPARE(RouterDeviceReader::intended(r).size(), 4);
    QCOMPARE(RouterDeviceReader::intended(r).at(0).nexthop, QStringLiteral("10.180.0.1"));
}

void TestRouterDevice::inStepNamesNoDifference()
{
    const KlusterState s = withDevices(world().state(), QStringLiteral(R"({"diffs": {}})"));
    QVERIFY(s.routerDevices.inStep);
    QVERIFY(s.routerDevices.devices.isEmpty());
    const Diagnosis d = Diagnosis::run(s);
    QVERIFY(findingIds(d, FindingKind::DeviceRouteStale).isEmpty());
    QVERIFY(findingIds(d, FindingKind::DeviceRouteMissing).isEmpty());
    // Another entity differs: both hosts are named, and their routes are Neutron's.
    const KlusterState other = withDevices(world().state(),
        QStringLiteral(
            R"({"diffs": {"nat_acl": {"10.44.0.35": [], "10.44.0.36": [{"entity": "x", "type": "change",
            "item": "acl.rule", "neutron": "a", "device": "b"}]}}})"));
    QCOMPARE(other.routerDevices.devices.size(), 2);
    QCOMPARE(other.routerDevices.devices.at(1).routes.size(), 3);
    QVERIFY(Diagnosis::run(other).findings.isEmpty());
}

void TestRouterDevice::removedRouteIsMissingOnThatDevice()
{
    // Neutron's list by the prefix's text: 198.19.3.0, .4.0, .5.0; the first device lacks the last one.
    const KlusterState base = world().state();
    const KlusterState s = withDevices(base, firstLacksTheLast(base));
    QVERIFY(!s.routerDevices.inStep);
    QCOMPARE(s.routerDevices.devices.at(0).routes.size(), 2);
    QCOMPARE(s.routerDevices.devices.at(1).routes.size(), 3);
    const Diagnosis d = Diagnosis::run(s);
    QCOMPARE(findingIds(d, FindingKind::DeviceRouteMissing),
        QStringList { QStringLiteral("device-route-missing:198.19.5.0/24 via 10.180.0.5 on 10.44.0.35") });
    const Finding &f
        = *d.find(QStringLiteral("device-route-missing:198.19.5.0/24 via 10.180.0.5 on 10.44.0.35"));
    QCOMPARE(f.severity, Severity::Critical); // which device forwards is not known: it may be this one
    QVERIFY2(f.message().contains(QStringLiteral("not known")), qPrintable(f.message()));
    QCOMPARE(f.evidence().value(QStringLiteral("device")).toString(), QStringLiteral("10.44.0.35"));
    QVERIFY(findingIds(d, FindingKind::DeviceRouteStale).isEmpty());
}

void TestRouterDevice::standbyGapIsAWarning()
{
    const KlusterState base = world().state();
    KlusterState s = withDevices(base, firstLacksTheLast(base));
    s.routerDevices.devices[0].role = DeviceRole::Standby;
    Diagnosis d = Diagnosis::run(s);
    QCOMPARE(d.findings.size(), 1);
    QCOMPARE(d.findings.first().severity, Severity::Warning);
    QVERIFY(d.findings.first().message().contains(QStringLiteral("failover")));
    // The same device ACTIVE after a failover: critical.
    s.routerDevices.devices[0].role = DeviceRole::Active;
    d = Diagnosis::run(s);
    QCOMPARE(d.findings.first().severity, Severity::Critical);
}

void TestRouterDevice::deletionTheDeviceMissedIsStaleAndCanWin()
{
    // The seeds' case: Neutron routes 198.19.1.0/24 to the new node .6; the device kept the deleted route to
    // .3 as well, listed first.
    WorldBuilder w = world();
    w.healthyMember(QStringLiteral("kks-legacy-pool-ddddd"), QStringLiteral("10.180.0.6"),
        QStringLiteral("198.19.1.0/24"));
    const KlusterState base = w.state();
    // Neutron's list: 198.19.1.0 (.6), .3.0, .4.0, .5.0. The device keys its routes by prefix and mask: one
    // element for 198.19.1.0/24 whose nexthops are the kept .3, listed first, and .6.
    const QString answer = QStringLiteral(R"({"diffs": {"route": {"10.44.0.35": [
        {"entity": "%1", "type": "change", "item": ["vrf", "ip-route-interface-forwarding-list", 0, "fwd-list"],
         "neutron": {"fwd": "10.180.0.6"}, "device": [{"fwd": "10.180.0.3"}, {"fwd": "10.180.0.6"}]}],
        "10.44.0.36": []}}})")
                               .arg(vrfOf(base));
    const KlusterState s = withDevices(base, answer);
    const RouterDevice &device = s.routerDevices.devices.at(0);
    QCOMPARE(device.routes.size(), 5);
    QCOMPARE(device.routes.at(0).nexthop, QStringLiteral("10.180.0.3"));
    QCOMPARE(device.routes.at(1).nexthop, QStringLiteral("10.180.0.6"));
    const Diagnosis d = Diagnosis::run(s);
    const QString id = QStringLiteral("device-route-stale:198.19.1.0/24 via 10.180.0.3 on 10.44.0.35");
    QCOMPARE(findingIds(d, FindingKind::DeviceRouteStale), QStringList { id });
    QCOMPARE(d.find(id)->severity, Severity::Critical); // a node's pod CIDR: it competes with Neutron's route
    QVERIFY(findingIds(d, FindingKind::DeviceRouteMissing).isEmpty()); // the device holds .6's route too
}

void TestRouterDevice::changedNexthopIsStaleAndMissing()
{
    const KlusterState base = world().state();
    const KlusterState s = withDevices(base,
        QStringLiteral(R"({"diffs": {"route": {"10.44.0.36": [{"entity": "%1", "type": "change",
            "item": ["vrf", "ip-route-interface-forwarding-list", 1, "fwd-list", "fwd"],
            "neutron": "10.180.0.4", "device": "10.180.0.44"}], "10.44.0.35": []}}})")
            .arg(vrfOf(base)));
    const Diagnosis d = Diagnosis::run(s);
    QCOMPARE(findingIds(d, FindingKind::DeviceRouteStale),
        QStringList { QStringLiteral("device-route-stale:198.19.4.0/24 via 10.180.0.44 on 10.44.0.36") });
    QCOMPARE(findingIds(d, FindingKind::DeviceRouteMissing),
        QStringList { QStringLiteral("device-route-missing:198.19.4.0/24 via 10.180.0.4 on 10.44.0.36") });
}

void TestRouterDevice::threeOrMoreLeftOutDecideNothingPastWhatIsKnown()
{
    // Three of Neutron's routes not on the device: the driver's entry says neither which (both sides null).
    const KlusterState base = world().state();
    const KlusterState s = withDevices(base,
        QStringLiteral(R"({"diffs": {"route": {"10.44.0.35": [{"entity": "%1", "type": "remove",
            "item": "vrf.ip-route-interface-forwarding-list", "neutron": null, "device": null}]}}})")
            .arg(vrfOf(base)));
    const RouterDevice &device = s.routerDevices.devices.at(0);
    QCOMPARE(device.known, 0);
    QVERIFY(!device.doubt.isEmpty());
    QVERIFY(!s.routerDevices.notes.isEmpty());
    QVERIFY(!device.holds({ QStringLiteral("198.19.3.0/24"), QStringLiteral("10.180.0.3") }).has_value());
    const Diagnosis d = Diagnosis::run(s);
    QVERIFY(d.findings.isEmpty()); // nothing called missing on what is not known
    QVERIFY2(d.notes.join(QLatin1Char('\n')).contains(QStringLiteral("router device 10.44.0.35")),
        qPrintable(d.notes.join(QLatin1Char('\n'))));
}

void TestRouterDevice::wholeDocumentRemovedDecidesNothing()
{
    // The driver reads an unreachable device as an empty one: "holds nothing" may be "not reached".
    const KlusterState base = world().state();
    const KlusterState s = withDevices(base,
        QStringLiteral(R"({"diffs": {"route": {"10.44.0.35": [{"entity": "%1", "type": "remove", "item": "",
            "neutron": ["vrf", {"name": "%1", "ip-route-interface-forwarding-list": []}], "device": null}],
            "10.44.0.36": []}}})")
            .arg(vrfOf(base)));
    QCOMPARE(s.routerDevices.devices.at(0).known, 0);
    const Diagnosis d = Diagnosis::run(s);
    QVERIFY(d.findings.isEmpty());
    QVERIFY2(d.notes.join(QLatin1Char('\n')).contains(QStringLiteral("could not be reached")),
        qPrintable(d.notes.join(QLatin1Char('\n'))));
    // One device named: the other's check failed; said.
    const KlusterState one = withDevices(base, QStringLiteral(R"({"diffs": {"route": {"10.44.0.35": []}}})"));
    QVERIFY(Diagnosis::run(one).notes.join(QLatin1Char(' ')).contains(QStringLiteral("named one device")));
    // An index no list has, and a route value that is no object: refused or not judged, never a crash.
    const KlusterState huge = withDevices(base,
        QStringLiteral(R"({"diffs": {"route": {"10.44.0.35": [{"entity": "%1", "type": "add",
            "item": "vrf.ip-route-interface-forwarding-list", "neutron": null, "device": [1e300, {}]}]}}})")
            .arg(vrfOf(base)));
    QCOMPARE(huge.routerDevices.devices.at(0).known, 0);
    try {
        withDevices(base, QStringLiteral(R"({"diffs": {"route": [], "vrf": {"h": []}}})"));
        QFAIL("a route value that is no object was read");
    } catch (const ParseError &) { }
}

void TestRouterDevice::answerForAnotherRouterIsRefused()
{
    const KlusterState base = world().state();
    try {
        withDevices(base,
            QStringLiteral(R"({"diffs": {"route": {"10.44.0.35": [{"entity": "0000ffff",
            "type": "remove", "item": "vrf.ip-route-interface-forwarding-list", "neutron": [0, %1],
            "device": null}]}}})")
                .arg(element(QStringLiteral("198.19.3.0"), QStringLiteral("255.255.255.0"),
                    QStringLiteral("10.180.0.3"))));
        QFAIL("an answer about another router was read");
    } catch (const ParseError &e) {
        QVERIFY2(
            e.toString().contains(QStringLiteral("not ")) && e.toString().contains(QStringLiteral("entity")),
            qPrintable(e.toString()));
    }
    // An answer whose removal is not Neutron's route at that place: the device's list is not known.
    const KlusterState s = withDevices(base,
        QStringLiteral(R"({"diffs": {"route": {"10.44.0.35": [{"entity": "%1", "type": "remove",
            "item": "vrf.ip-route-interface-forwarding-list", "neutron": [1, %2], "device": null}]}}})")
            .arg(vrfOf(base),
                element(QStringLiteral("10.9.9.0"), QStringLiteral("255.255.255.0"),
                    QStringLiteral("10.180.0.9"))));
    QCOMPARE(s.routerDevices.devices.at(0).known, 0);
    QVERIFY(s.routerDevices.devices.at(0).doubt.contains(QStringLiteral("line up")));
    QVERIFY(Diagnosis::run(s).findings.isEmpty());
}

void TestRouterDevice::malformedAnswersNameThePath()
{
    const KlusterState base = world().state();
    const QList<std::pair<QString, QString>> cases = {
        { QStringLiteral(R"({"device": {"network_id": "Sync"}})"), QStringLiteral("$.diffs") },
        { QStringLiteral(R"({"diffs": []})"), QStringLiteral("$.diffs") },
        { QStringLiteral(R"({"diffs": {"route": {"h": {}}}})"), QStringLiteral("$.diffs.route.h") },
        { QStringLiteral(R"({"diffs": {"route": {"h": [{"item": "vrf"}]}}})"), QStringLiteral("type") },
    };
    for (const auto &[body, path] : cases) {
        try {
            withDevices(base, body);
            QFAIL(qPrintable(QStringLiteral("read: ") + body));
        } catch (const ParseError &e) {
            QVERIFY2(
                e.toString().contains(path) && e.toString().contains(QStringLiteral("router-device.json")),
                qPrintable(e.toString()));
        }
    }
}

void TestRouterDevice::unreadableDeviceIsNotDiagnosedNeverNoDrift()
{
    KlusterState s = world().state();
    s.routerDeviceSource.known = false;
    s.routerDeviceSource.error = QStringLiteral("not readable with these credentials (401 HTTPUnauthorized)");
    const Diagnosis d = Diagnosis::run(s);
    QVERIFY(d.findings.isEmpty());
    QVERIFY2(
        d.notDiagnosed.join(QLatin1Char('\n')).contains(QStringLiteral("router device could not be read")),
        qPrintable(d.notDiagnosed.join(QLatin1Char('\n'))));
    // Not asked for (a cloud without the driver): nothing said.
    QVERIFY(Diagnosis::run(world().state()).notDiagnosed.isEmpty());
}

void TestRouterDevice::foreignRoutesAreNotThisKlusters()
{
    // The device holds a route outside the kluster's pod network that Neutron does not: another kluster's or
    // an operator's; not this kluster's finding.
    const KlusterState base = world().state();
    const KlusterState s = withDevices(base,
        QStringLiteral(R"({"diffs": {"route": {"10.44.0.35": [{"entity": "%1", "type": "add",
            "item": "vrf.ip-route-interface-forwarding-list", "neutron": null, "device": [3, %2]}]}}})")
            .arg(vrfOf(base),
                element(QStringLiteral("203.0.113.0"), QStringLiteral("255.255.255.0"),
                    QStringLiteral("10.180.0.77"))));
    QCOMPARE(s.routerDevices.devices.at(0).routes.size(), 4);
    QVERIFY(Diagnosis::run(s).findings.isEmpty());
}

// The driver does not say which device forwards: the team names the ACTIVE (a connection's setting,
// --active-device); the other of the pair is its STANDBY, and a device's gap is judged by it.
void TestRouterDevice::rolesComeFromTheTeamsActiveDevice()
{
    const KlusterState base = world().state();
    const KlusterState s = withDevices(base, firstLacksTheLast(base));
    const QString id = QStringLiteral("device-route-missing:198.19.5.0/24 via 10.180.0.5 on 10.44.0.35");
    DiagnosisOptions options;
    // None named (or another pair's device): unknown, judged as the one that may forward.
    options.activeDevices = { QStringLiteral("10.44.7.35") };
    Diagnosis d = Diagnosis::run(s, options);
    QCOMPARE(d.find(id)->severity, Severity::Critical);
    QCOMPARE(d.routerDevices.devices.at(0).role, DeviceRole::Unknown);
    // The other device named ACTIVE: this one is the STANDBY, its gap a warning until a failover.
    options.activeDevices = { QStringLiteral("10.44.0.36") };
    d = Diagnosis::run(s, options);
    QCOMPARE(d.find(id)->severity, Severity::Warning);
    QCOMPARE(d.routerDevices.devices.at(0).role, DeviceRole::Standby);
    QCOMPARE(d.routerDevices.devices.at(1).role, DeviceRole::Active);
    QCOMPARE(d.find(id)->evidence().value(QStringLiteral("role")).toString(), QStringLiteral("STANDBY"));
    // After the failover the team names it: critical.
    options.activeDevices = { QStringLiteral("10.44.0.35") };
    d = Diagnosis::run(s, options);
    QCOMPARE(d.find(id)->severity, Severity::Critical);
    QVERIFY2(d.find(id)->message().contains(QStringLiteral("the ACTIVE")), qPrintable(d.find(id)->message()));
}

// Neutron's routes beside each device's: the ACTIVE's column first, what a device lacks, what only a device
// holds (and where), and one column that holds what Neutron does when the driver names no difference.
void TestRouterDevice::columnsSetNeutronBesideEachDevice()
{
    WorldBuilder w = world();
    w.healthyMember(QStringLiteral("kks-legacy-pool-ddddd"), QStringLiteral("10.180.0.6"),
        QStringLiteral("198.19.1.0/24"));
    const KlusterState base = w.state();
    // The first device kept 198.19.1.0/24 via .3 before Neutron's .6; the second lacks 198.19.5.0/24.
    const KlusterState s = withDevices(base,
        QStringLiteral(R"({"diffs": {"route": {"10.44.0.35": [
        {"entity": "%1", "type": "change", "item": ["vrf", "ip-route-interface-forwarding-list", 0, "fwd-list"],
         "neutron": {"fwd": "10.180.0.6"}, "device": [{"fwd": "10.180.0.3"}, {"fwd": "10.180.0.6"}]}],
        "10.44.0.36": [{"entity": "%1", "type": "remove", "item": "vrf.ip-route-interface-forwarding-list",
         "neutron": [3, %2], "device": null}]}}})")
            .arg(vrfOf(base),
                element(QStringLiteral("198.19.5.0"), QStringLiteral("255.255.255.0"),
                    QStringLiteral("10.180.0.5"))));
    DiagnosisOptions options;
    options.activeDevices = { QStringLiteral("10.44.0.36") };
    const Diagnosis d = Diagnosis::run(s, options);
    const DeviceColumns columns(s, d.routerDevices);
    QVERIFY(columns.isRead());
    QCOMPARE(columns.count(), 2);
    QCOMPARE(columns.header(0), QStringLiteral("ACTIVE 10.44.0.36"));
    QCOMPARE(columns.header(1), QStringLiteral("STANDBY 10.44.0.35"));
    const Route kept { QStringLiteral("198.19.1.0/24"), QStringLiteral("10.180.0.3") };
    const Route neutrons { QStringLiteral("198.19.1.0/24"), QStringLiteral("10.180.0.6") };
    const Route lacked { QStringLiteral("198.19.5.0/24"), QStringLiteral("10.180.0.5") };
    QCOMPARE(columns.onlyOnDevices(), QList<Route> { kept });
    QCOMPARE(columns.cell(1, kept), (DeviceCell { DeviceCell::Extra, 0 })); // listed first: it wins there
    QCOMPARE(columns.cell(1, neutrons), (DeviceCell { DeviceCell::Holds, 1 }));
    QCOMPARE(columns.cell(0, kept), DeviceCell());
    QCOMPARE(columns.cell(0, neutrons), (DeviceCell { DeviceCell::Holds, 0 }));
    QCOMPARE(columns.cell(0, lacked).state, DeviceCell::Lacks);
    QCOMPARE(columns.cell(0, lacked).text(), QStringLiteral("missing"));
    QCOMPARE(columns.cell(1, lacked), (DeviceCell { DeviceCell::Holds, 4 }));
    QCOMPARE(columns.cell(1, kept).text(), QStringLiteral("#1, not in Neutron"));
    // IPv6 is not the driver's to program: no cell.
    QCOMPARE(columns.cell(0, Route { QStringLiteral("fd00::/64"), QStringLiteral("fd00::1") }), DeviceCell());

    // In step: one column, each of Neutron's routes held as Neutron holds it.
    const KlusterState inStep = withDevices(base, QStringLiteral(R"({"diffs": {}})"));
    const DeviceColumns one(inStep, Diagnosis::run(inStep).routerDevices);
    QCOMPARE(one.count(), 1);
    QCOMPARE(one.cell(0, neutrons).state, DeviceCell::InStep);
    QVERIFY(one.onlyOnDevices().isEmpty());
    // Not read: no column, and why.
    KlusterState unread = base;
    unread.routerDeviceSource.error = QStringLiteral("not readable with these credentials");
    const DeviceColumns none(unread, RouterDevices());
    QVERIFY(!none.isRead());
    QCOMPARE(none.count(), 0);
    QCOMPARE(none.why(), QStringLiteral("not readable with these credentials"));
}

// The seeds' only recovery from a kept route: the driver's teardown, then its sync; once for the router
// however many findings it repairs (with a missing route's sync); every kluster on the router named; the
// router's name typed to confirm; a protected kluster's router refused without the override (which, alone,
// lets it through).
void TestRouterDevice::staleIsRepairedByTeardownAndSyncOnce()
{
    WorldBuilder w = world();
    w.healthyMember(QStringLiteral("kks-legacy-pool-ddddd"), QStringLiteral("10.180.0.6"),
        QStringLiteral("198.19.1.0/24"));
    const KlusterState base = w.state();
    // Both devices kept 198.19.1.0/24 via .3 before .6; the second also lacks 198.19.5.0/24.
    const QString kept = QStringLiteral(R"({"entity": "%1", "type": "change",
        "item": ["vrf", "ip-route-interface-forwarding-list", 0, "fwd-list"], "neutron": {"fwd": "10.180.0.6"},
        "device": [{"fwd": "10.180.0.3"}, {"fwd": "10.180.0.6"}]})")
                             .arg(vrfOf(base));
    const QString lacked = QStringLiteral(R"({"entity": "%1", "type": "remove",
        "item": "vrf.ip-route-interface-forwarding-list", "neutron": [3, %2], "device": null})")
                               .arg(vrfOf(base),
                                   element(QStringLiteral("198.19.5.0"), QStringLiteral("255.255.255.0"),
                                       QStringLiteral("10.180.0.5")));
    const KlusterState s = withDevices(base,
        QStringLiteral(R"({"diffs": {"route": {"10.44.0.35": [%1], "10.44.0.36": [%1, %2]}}})")
            .arg(kept, lacked));
    auto fetch = std::make_shared<KlusterFetch>();
    fetch->state = s;
    const auto diagnosis = std::make_shared<const Diagnosis>(Diagnosis::run(s));
    const QStringList stale = findingIds(*diagnosis, FindingKind::DeviceRouteStale);
    const QStringList missing = findingIds(*diagnosis, FindingKind::DeviceRouteMissing);
    QCOMPARE(stale.size(), 2);
    QCOMPARE(missing.size(), 1);
    // Neutron is right, the devices still send the recycled CIDR to its previous owner: one incident, whose
    // one repair is one teardown and one sync.
    const Incident *recycled = nullptr;
    for (const Incident &i : diagnosis->incidents) {
        if (i.id() == QStringLiteral("recycled-pod-cidr:198.19.1.0/24"))
            recycled = &i;
    }
    QVERIFY(recycled);
    QCOMPARE(recycled->members, stale);
    QVERIFY2(
        recycled->title.contains(QStringLiteral("on the router's devices")), qPrintable(recycled->title));
    QCOMPARE(recycled->repair()->requests.size(), 2);
    QCOMPARE(recycled->repair()->action, RepairPlan::Action::ResetDevices);
    const std::optional<RepairPlan> plan = diagnosis->find(stale.first())->repair();
    QVERIFY(plan);
    QCOMPARE(plan->action, RepairPlan::Action::ResetDevices);
    QCOMPARE(plan->requests.size(), 2);
    QCOMPARE(
        plan->requests.at(0).summary(), QStringLiteral("DELETE network /v2.0/asr1k/routers/") + s.router.id);
    QCOMPARE(
        plan->requests.at(1).summary(), QStringLiteral("PUT network /v2.0/asr1k/routers/") + s.router.id);
    QVERIFY2(plan->cutOff.join(QLatin1Char(' ')).contains(QStringLiteral("kluster legacy")),
        qPrintable(plan->cutOff.join(QLatin1Char(' '))));

    // All three at once: one step, the teardown and sync, for the three findings; the router's name typed.
    RepairChoice choice;
    choice.findings = stale + missing;
    const RepairProposal all(QStringLiteral("legacy"), fetch, diagnosis, choice);
    QCOMPARE(all.steps().size(), 1);
    QCOMPARE(all.steps().first().plan.action, RepairPlan::Action::ResetDevices);
    QCOMPARE(all.steps().first().findingIds.size(), 3);
    QCOMPARE(all.typeToConfirm(), s.router.name);
    // Two missing-route syncs are one sync too.
    choice.findings = missing;
    QCOMPARE(RepairProposal(QStringLiteral("legacy"), fetch, diagnosis, choice).steps().first().plan.action,
        RepairPlan::Action::SyncDevices);

    // A protected kluster on the router: the teardown alone waits for the override; in a batch it is refused.
    choice.findings = { stale.first() };
    choice.protectedRouter = true;
    const RepairProposal alone(QStringLiteral("legacy"), fetch, diagnosis, choice);
    QVERIFY(alone.needsOverride());
    QCOMPARE(alone.gate().decisions().first().reason, Refusal::ProtectedRouter);
    QCOMPARE(alone.typeToConfirm(), s.router.name);
    choice.findings = stale;
    const RepairProposal batch(QStringLiteral("legacy"), fetch, diagnosis, choice);
    QVERIFY(batch.steps().isEmpty());
    QCOMPARE(batch.gate().decisions().first().verdict, RepairGate::Verdict::Refused);
}

// Neutron lost a node's own route (route-missing) while the devices still hold it: the route that works is no
// stale route (its teardown would cut the node off), and no recycled-CIDR incident is made of it.
void TestRouterDevice::aNodesOwnRouteKeptOnTheDeviceIsNoStaleRoute()
{
    WorldBuilder w = world();
    w.server(QStringLiteral("kks-legacy-pool-ddddd"), QStringLiteral("10.180.0.6"), 60 * 24);
    w.node(QStringLiteral("kks-legacy-pool-ddddd"), QStringLiteral("10.180.0.6"),
        QStringLiteral("198.19.6.0/24"));
    const KlusterState base = w.state();
    const QString held = QStringLiteral(R"({"entity": "%1", "type": "add",
        "item": "vrf.ip-route-interface-forwarding-list", "neutron": null, "device": [3, %2]})")
                             .arg(vrfOf(base),
                                 element(QStringLiteral("198.19.6.0"), QStringLiteral("255.255.255.0"),
                                     QStringLiteral("10.180.0.6")));
    const KlusterState s = withDevices(
        base, QStringLiteral(R"({"diffs": {"route": {"10.44.0.35": [%1], "10.44.0.36": [%1]}}})").arg(held));
    QCOMPARE(s.routerDevices.devices.at(0).routes.size(), 4);
    const Diagnosis d = Diagnosis::run(s);
    QVERIFY(findingIds(d, FindingKind::DeviceRouteStale).isEmpty());
    QCOMPARE(findingIds(d, FindingKind::RouteMissing),
        QStringList { QStringLiteral("route-missing:kks-legacy-pool-ddddd") });
    for (const Incident &i : d.incidents)
        QVERIFY2(i.rule != IncidentRule::RecycledPodCidr, qPrintable(i.id()));
    // Its columns: the missing route's own row holds the devices' places, and no second row is made of it.
    const DeviceColumns columns(s, d.routerDevices);
    const Route own { QStringLiteral("198.19.6.0/24"), QStringLiteral("10.180.0.6") };
    QCOMPARE(columns.cell(0, own), (DeviceCell { DeviceCell::Extra, 3 }));
    const QJsonArray lines = QJsonDocument::fromJson(RouteReport::toJson(s, d))
                                 .object()
                                 .value(QStringLiteral("routes"))
                                 .toArray();
    int rows = 0;
    for (const QJsonValue &l : lines)
        rows += l[QStringLiteral("destination")].toString() == QLatin1String("198.19.6.0/24") ? 1 : 0;
    QCOMPARE(rows, 1);
}

QTEST_GUILESS_MAIN(TestRouterDevice)
#include "tst_routerdevice.moc"

// route-recycled (diagnosis.md §6): without the devices' view, the history saw node .5's pod CIDR routed to
// .3 until 2 h ago; on a cloud with the driver, a warning that names the earlier nexthop and when it changed.
void TestRouterDevice::recycledFromTheHistoryWithoutTheDevices()
{
    KlusterState s = world().state();
    s.extensions << QStringLiteral("asr1k_operations");
    s.extensionsKnown = true;
    s.routerDeviceSource.error = QStringLiteral("not readable with these credentials (401 HTTPUnauthorized)");
    const QDateTime changed = s.capturedAt.addSecs(-2 * 3600);
    RouteHistory h;
    h.since = s.capturedAt.addDays(-2);
    h.gone = { { Route { QStringLiteral("198.19.5.0/24"), QStringLiteral("10.180.0.3") }, changed },
        // the node's own route, gone and back: no earlier nexthop
        { Route { QStringLiteral("198.19.4.0/24"), QStringLiteral("10.180.0.4") }, changed },
        // gone more than a day ago: nothing said
        { Route { QStringLiteral("198.19.3.0/24"), QStringLiteral("10.180.0.9") },
            s.capturedAt.addDays(-2) } };
    s.routeHistory = h;
    Diagnosis d = Diagnosis::run(s);
    QCOMPARE(findingIds(d), QStringList({ QStringLiteral("route-recycled:198.19.5.0/24") }));
    const Finding &f = d.findings.first();
    QCOMPARE(f.severity, Severity::Warning);
    QVERIFY2(f.message().contains(QStringLiteral("was routed to 10.180.0.3 until")), qPrintable(f.message()));
    QVERIFY2(f.message().contains(QStringLiteral("2 h ago")), qPrintable(f.message()));
    QVERIFY2(f.message().contains(QStringLiteral("401")), qPrintable(f.message()));
    const QJsonObject e = f.evidence();
    QCOMPARE(e.value(QStringLiteral("earlierNexthop")).toString(), QStringLiteral("10.180.0.3"));
    QCOMPARE(e.value(QStringLiteral("changedAt")).toString(), changed.toUTC().toString(Qt::ISODateWithMs));
    QCOMPARE(e.value(QStringLiteral("neutronNexthops")).toArray().first().toString(),
        QStringLiteral("10.180.0.5"));
    QVERIFY(!f.repair());
    QCOMPARE(f.affected().nodes, QStringList({ QStringLiteral("kks-legacy-pool-ccccc") }));

    // Never without the history; never on a cloud without the driver; superseded where the devices were read;
    // not while Neutron still routes it there (that is Neutron's own finding).
    KlusterState none = s;
    none.routeHistory.reset();
    QVERIFY(findingIds(Diagnosis::run(none), FindingKind::RouteRecycled).isEmpty());
    KlusterState noDriver = s;
    noDriver.extensions.clear();
    QVERIFY(findingIds(Diagnosis::run(noDriver), FindingKind::RouteRecycled).isEmpty());
    KlusterState read = s;
    read.routerDeviceSource = SourceStatus { true, {}, {} };
    QVERIFY(findingIds(Diagnosis::run(read), FindingKind::RouteRecycled).isEmpty());
    // The node's own route that went (Neutron lost it: route-missing) is no earlier nexthop.
    KlusterState own = s;
    own.router.routes.removeAll(Route { QStringLiteral("198.19.4.0/24"), QStringLiteral("10.180.0.4") });
    QCOMPARE(findingIds(Diagnosis::run(own), FindingKind::RouteRecycled),
        QStringList({ QStringLiteral("route-recycled:198.19.5.0/24") }));
    KlusterState back = s;
    back.router.routes.prepend(Route { QStringLiteral("198.19.5.0/24"), QStringLiteral("10.180.0.3") });
    QVERIFY(findingIds(Diagnosis::run(back), FindingKind::RouteRecycled).isEmpty());
}

// The history's moments in, the routes that went out (with the first moment seen without them); a moment
// whose router was not read says nothing.
void TestRouterDevice::routeHistoryFromTheKeptMoments()
{
    const QDateTime t0 = QDateTime::fromString(QStringLiteral("2026-11-29T10:00:00Z"), Qt::ISODate);
    const QString a = QStringLiteral("198.19.5.0/24 via 10.180.0.3");
    const QString b = QStringLiteral("198.19.5.0/24 via 10.180.0.5");
    const RouteHistory h = RouteHistory::of({ { t0.addSecs(600), { b }, true }, { t0, { a }, true },
        { t0.addSecs(300), {}, false }, { t0.addSecs(900), { b }, true } });
    QCOMPARE(h.since, t0);
    QCOMPARE(h.gone.size(), 1);
    QCOMPARE(h.gone.first().route.nexthop, QStringLiteral("10.180.0.3"));
    QCOMPARE(h.gone.first().until, t0.addSecs(600)); // the unread moment between proves nothing
    QCOMPARE(h.shifted(1000).gone.first().until, t0.addSecs(601));
    // The state being diagnosed is the newest moment: what the latest kept held and it lacks went now.
    RouteHistory now = h;
    now.then(t0.addSecs(1200), { Route { QStringLiteral("198.19.5.0/24"), QStringLiteral("10.180.0.7") } });
    QCOMPARE(now.gone.size(), 2);
    QCOMPARE(now.gone.last().route.nexthop, QStringLiteral("10.180.0.5"));
    QCOMPARE(now.gone.last().until, t0.addSecs(1200));
    QCOMPARE(now.latest, QStringList({ QStringLiteral("198.19.5.0/24 via 10.180.0.7") }));
    QCOMPARE(RouteHistory::parse(QStringLiteral("no route")).destination, QString());
}

// The nudge (diagnosis.md §6) where the sync may not be sent: the same route removed and added again, as two
// atomic requests, or, without extraroute-atomic, as two full lists each guarded by the revision it follows.
void TestRouterDevice::nudgeRemovesAndAddsTheSameRoute()
{
    const KlusterState base = world().state();
    KlusterState s = withDevices(base, firstLacksTheLast(base));
    if (!s.hasAtomicExtraRoutes())
        s.extensions << QStringLiteral("extraroute-atomic");
    s.extensionsKnown = true;
    DiagnosisOptions nudge;
    nudge.nudgeDeviceRoutes = true;
    nudge.activeDevices = { QStringLiteral("10.44.0.35") }; // the device that lacks it forwards
    const Diagnosis d = Diagnosis::run(s, nudge);
    const QStringList ids = findingIds(d, FindingKind::DeviceRouteMissing);
    QCOMPARE(ids.size(), 1);
    const std::optional<RepairPlan> plan = findingOf(d, ids.first())->repair();
    QVERIFY(plan);
    QCOMPARE(plan->action, RepairPlan::Action::RenewRoutes);
    QVERIFY(plan->verifiedOnDevices() && !plan->actsOnDevices());
    QCOMPARE(plan->routes,
        QList<Route>({ Route { QStringLiteral("198.19.5.0/24"), QStringLiteral("10.180.0.5") } }));
    QCOMPARE(plan->requests.size(), 2);
    QVERIFY(plan->requests.at(0).path.endsWith(QLatin1String("/remove_extraroutes")));
    QVERIFY(plan->requests.at(1).path.endsWith(QLatin1String("/add_extraroutes")));
    QCOMPARE(plan->requests.at(0).body, plan->requests.at(1).body);
    // Without extraroute-atomic: the list without it at revision n, then the list as it was at n + 1.
    KlusterState full = s;
    full.extensions.removeAll(QStringLiteral("extraroute-atomic"));
    full.router.revisionNumber = 7;
    const Diagnosis fd = Diagnosis::run(full, nudge);
    const std::optional<RepairPlan> guarded = findingOf(fd, ids.first())->repair();
    QVERIFY(guarded);
    QCOMPARE(guarded->requests.size(), 2);
    QCOMPARE(guarded->requests.at(0).headers.value(QStringLiteral("If-Match")).toString(),
        QStringLiteral("revision_number=7"));
    QCOMPARE(guarded->requests.at(1).headers.value(QStringLiteral("If-Match")).toString(),
        QStringLiteral("revision_number=8"));
    QCOMPARE(guarded->requests.at(0)
                 .body.toObject()[QStringLiteral("router")][QStringLiteral("routes")]
                 .toArray()
                 .size(),
        full.router.routes.size() - 1);
    QCOMPARE(guarded->requests.at(1)
                 .body.toObject()[QStringLiteral("router")][QStringLiteral("routes")]
                 .toArray()
                 .size(),
        full.router.routes.size());
    // On the STANDBY (or where which device forwards is not known), never: the removal would take the route
    // off the device that holds it.
    DiagnosisOptions standby = nudge;
    standby.activeDevices = { QStringLiteral("10.44.0.36") };
    QCOMPARE(findingOf(Diagnosis::run(s, standby), ids.first())->repair()->action,
        RepairPlan::Action::SyncDevices);
    standby.activeDevices.clear();
    QCOMPARE(findingOf(Diagnosis::run(s, standby), ids.first())->repair()->action,
        RepairPlan::Action::SyncDevices);
    // Without the option: the driver's sync.
    QCOMPARE(findingOf(Diagnosis::run(s), ids.first())->repair()->action, RepairPlan::Action::SyncDevices);
}
