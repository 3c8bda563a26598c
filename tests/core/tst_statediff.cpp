#include "core/diagnosis.h"
#include "core/klusterindex.h"
#include "core/statechangereport.h"
#include "services/local/snapshotreader.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <algorithm>

// The state digest (what an engineer compares between two moments of a kluster) and its diff: digests
// of the example snapshots, a state against itself, hand-made changes of every category, the reports,
// and the digest's JSON form, read back and refused when malformed.
class TestStateDiff : public QObject
{
    Q_OBJECT
private slots:
    void examples_data();
    void examples();
    void digestOfExamples();
    void digestWhateverTheOrder();
    void instances();
    void nodes();
    void routes();
    void rules();
    void memberships();
    void findings();
    void findingsOfARealRepair();
    void orderIsCategoryThenSubject();
    void unknownSourcesAreNotCompared();
    void incidents();
    void textReport();
    void jsonReport();
    void roundTripKeepsMilliseconds();
    void phaseChange();
    void malformedJson_data();
    void malformedJson();
};

static QString example(const QString &name)
{
    return QStringLiteral(FLIGHTDECK_SOURCE_DIR "/examples/") + name;
}

static KlusterState read(const QString &name)
{
    return SnapshotReader::read(example(name));
}

// The digest without findings: the structural categories alone.
static StateDigest bare(const KlusterState &state)
{
    return StateDigest::of(state, Diagnosis());
}

static StateDigest diagnosed(const KlusterState &state)
{
    return StateDigest::of(state, Diagnosis::run(state));
}

// "category change subject | detail", the way the expectations below are written.
static QStringList lines(const QList<StateChange> &changes)
{
    QStringList out;
    for (const StateChange &c : changes)
        out << QStringLiteral("%1 %2 %3 | %4")
                   .arg(StateChanges::name(c.category), StateChanges::name(c.change), c.subject, c.detail);
    return out;
}

static Instance *instanceNamed(KlusterState &state, const QString &name)
{
    for (Instance &i : state.instances) {
        if (i.name == name)
            return &i;
    }
    qFatal("no instance %s", qPrintable(name));
    return nullptr;
}

static Node *nodeNamed(KlusterState &state, const QString &name)
{
    for (Node &n : state.nodes) {
        if (n.name == name)
            return &n;
    }
    qFatal("no node %s", qPrintable(name));
    return nullptr;
}

// Removes the instance of that name; returns its id.
static QString removeInstance(KlusterState &state, const QString &name)
{
    QString id = instanceNamed(state, name)->id;
    state.instances.removeIf([&name](const Instance &i) { return i.name == name; });
    return id;
}

static void removeNode(KlusterState &state, const QString &name)
{
    QVERIFY(state.nodes.removeIf([&name](const Node &n) { return n.name == name; }) == 1);
}

static SecurityGroup *groupNamed(KlusterState &state, const QString &name)
{
    for (SecurityGroup &g : state.securityGroups) {
        if (g.name == name)
            return &g;
    }
    qFatal("no group %s", qPrintable(name));
    return nullptr;
}

void TestStateDiff::examples_data()
{
    QTest::addColumn<QString>("name");
    const QStringList names = QDir(example(QString())).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QVERIFY(names.size() >= 7);
    for (const QString &name : names)
        QTest::newRow(qPrintable(name)) << name;
}

// Every example: its digest holds the kluster's objects and its findings, equals itself read back from its
// JSON, and a diff against itself is empty.
void TestStateDiff::examples()
{
    QFETCH(QString, name);
    const KlusterState state = read(name);
    const Diagnosis diagnosis = Diagnosis::run(state);
    const StateDigest digest = StateDigest::of(state, diagnosis);

    QCOMPARE(digest.kluster, state.kluster.name);
    QCOMPARE(digest.capturedAt, state.capturedAt);
    QVERIFY(digest.unknownSources.isEmpty());
    const KlusterIndex index(state);
    QCOMPARE(digest.instances.size(), index.klusterInstances().size());
    for (int i : index.klusterInstances()) {
        const Instance &instance = state.instances.at(i);
        QVERIFY2(digest.instances.contains(instance.id), qPrintable(instance.name));
        QCOMPARE(digest.instances.value(instance.id).name, instance.name);
        QCOMPARE(digest.instances.value(instance.id).status, instance.status);
    }
    QCOMPARE(digest.nodes.size(), state.nodes.size());
    QCOMPARE(digest.routes.size(), state.router.routes.size());
    QCOMPARE(digest.findings.size(), diagnosis.findings.size());
    for (const Finding &f : diagnosis.findings)
        QCOMPARE(digest.findings.value(f.id(), Severity::Info), f.severity);

    QVERIFY(diffStates(digest, digest).isEmpty());
    QVERIFY(diffStates(digest, diagnosed(read(name))).isEmpty()); // read twice: the same digest
    QVERIFY(stateChangesText(digest, digest, {}).endsWith("\nno changes\n"));

    const QByteArray json = digest.toJson();
    QVERIFY(!json.contains('\n'));
    QString error;
    const std::optional<StateDigest> back = StateDigest::fromJson(json, &error);
    QVERIFY2(back, qPrintable(error));
    QCOMPARE(back->toJson(), json);
    QVERIFY(*back == digest);
    QVERIFY(diffStates(digest, *back).isEmpty());
}

// The digest is the same whatever order Nova and Kubernetes list in, and of two with the same id or name
// the later one counts.
void TestStateDiff::digestWhateverTheOrder()
{
    const KlusterState state = read("broken-nodes");
    QVERIFY(state.instances.size() >= 3 && state.nodes.size() >= 3);
    KlusterState reversed = state;
    std::reverse(reversed.instances.begin(), reversed.instances.end());
    std::reverse(reversed.nodes.begin(), reversed.nodes.end());
    const StateDigest digest = bare(state);
    QCOMPARE(bare(reversed).toJson(), digest.toJson());

    KlusterState twice = state;
    const int k = KlusterIndex(state).klusterInstances().first();
    Instance again = state.instances.at(k);
    again.status = QStringLiteral("SHUTOFF");
    twice.instances.append(again);
    Node node = state.nodes.first();
    node.internalIp = QStringLiteral("192.0.2.99");
    twice.nodes.append(node);
    const StateDigest later = bare(twice);
    QCOMPARE(later.instances.size(), digest.instances.size());
    QCOMPARE(later.instances.value(again.id).status, QStringLiteral("SHUTOFF"));
    QCOMPARE(later.nodes.size(), digest.nodes.size());
    QCOMPARE(later.nodes.value(node.name).internalIp, QStringLiteral("192.0.2.99"));
    QVERIFY(std::is_sorted(later.nodes.keyBegin(), later.nodes.keyEnd()));
    QVERIFY(std::is_sorted(later.instances.keyBegin(), later.instances.keyEnd()));
}

void TestStateDiff::digestOfExamples()
{
    // The kluster's instances, not the project's: no bastion.
    const StateDigest healthy = diagnosed(read("healthy"));
    for (const InstanceDigest &i : healthy.instances)
        QVERIFY2(i.name.startsWith("kks-prod-"), qPrintable(i.name));
    for (const NodeDigest &n : healthy.nodes) {
        QCOMPARE(n.ready, "True");
        QVERIFY(n.conditions.isEmpty());
        QVERIFY(!n.podCidr.isEmpty());
    }
    QVERIFY(healthy.findings.isEmpty());

    const StateDigest nodes = diagnosed(read("broken-nodes"));
    QMap<QString, InstanceDigest> byName;
    for (const InstanceDigest &i : nodes.instances)
        byName.insert(i.name, i);
    QCOMPARE(byName.value("kks-demo-pool-t5y6u").status, "ERROR");
    QCOMPARE(byName.value("demo-pool-r3s4d").securityGroups, QStringList());
    QVERIFY(!byName.value("kks-demo-pool-h7k2p").addresses.isEmpty());
    QCOMPARE(nodes.nodes.value("kks-demo-pool-m4r8t").ready, "Unknown");
    QCOMPARE(nodes.nodes.value("kks-demo-pool-q9w3e").conditions, QStringList { "NetworkUnavailable=True" });
    QCOMPARE(nodes.nodes.value("kks-demo-pool-q9w3e").ready, "True");
    QVERIFY(nodes.nodes.contains("kks-demo-pool-g4h0s")); // the ghost is a node of the kluster
    QCOMPARE(nodes.findings.value("node-without-instance:kks-demo-pool-g4h0s"), Severity::Critical);
    QCOMPARE(nodes.findings.value("node-not-ready:kks-demo-pool-m4r8t"), Severity::Warning);

    // The route list keeps router order and duplicates.
    const StateDigest routes = diagnosed(read("broken-routes"));
    const QStringList recycled = routes.routes.filter("198.19.1.0/24 via ");
    QCOMPARE(recycled,
        (QStringList { "198.19.1.0/24 via 10.180.0.3", "198.19.1.0/24 via 10.180.0.4",
            "198.19.1.0/24 via 10.180.0.5" }));
    QVERIFY(routes.routes.contains("198.19.7.0/24 via 10.180.0.99"));

    // The rules of the kluster's group, canonical and sorted; not those of "default".
    const StateDigest security = diagnosed(read("broken-security"));
    QCOMPARE(security.rules,
        (QStringList { "egress IPv4 any to anywhere", "egress IPv6 any to anywhere",
            "ingress IPv4 icmp from 0.0.0.0/0", "ingress IPv4 tcp port 10250 from 100.100.0.0/16",
            "ingress IPv4 udp from 100.100.31.0/24" }));
}

void TestStateDiff::instances()
{
    const KlusterState base = read("broken-nodes");
    KlusterState state = base;
    const QString removedId = removeInstance(state, "kks-demo-pool-t5y6u");
    Instance *h7 = instanceNamed(state, "kks-demo-pool-h7k2p");
    const QString h7Id = h7->id;
    h7->status = "ERROR";
    h7->vmState = "error";
    Instance *m4 = instanceNamed(state, "kks-demo-pool-m4r8t");
    const QString m4Id = m4->id;
    m4->addresses.append({ "kks-net", "172.24.4.99", "floating" });
    Instance fresh = *instanceNamed(state, "kks-demo-pool-q9w3e");
    fresh.id = "00000000-0000-0000-0000-00000000000a";
    fresh.name = "kks-demo-pool-aaaaa";
    fresh.status = "BUILD";
    state.instances.append(fresh);
    Instance stranger = fresh; // not the kluster's: not compared
    stranger.id = "00000000-0000-0000-0000-00000000000b";
    stranger.name = "jumphost-2";
    state.instances.append(stranger);

    const QString m4Addresses = bare(base).instances.value(m4Id).addresses;
    QCOMPARE(lines(diffStates(bare(base), bare(state))),
        (QStringList {
            "instance added kks-demo-pool-aaaaa (00000000-0000-0000-0000-00000000000a) | BUILD",
            "instance changed kks-demo-pool-h7k2p (" + h7Id + ") | ACTIVE → ERROR",
            "instance changed kks-demo-pool-m4r8t (" + m4Id + ") | addresses " + m4Addresses + " → "
                + m4Addresses + ", 172.24.4.99",
            "instance removed kks-demo-pool-t5y6u (" + removedId + ") | ERROR",
        }));
    // And back.
    QCOMPARE(diffStates(bare(state), bare(base)).size(), 4);
}

void TestStateDiff::nodes()
{
    const KlusterState base = read("broken-nodes");
    KlusterState state = base;
    removeNode(state, "kks-demo-pool-g4h0s");
    Node *h7 = nodeNamed(state, "kks-demo-pool-h7k2p");
    for (NodeCondition &c : h7->conditions) {
        if (c.type == "Ready")
            c.status = "Unknown";
    }
    h7->unschedulable = true;
    Node *m4 = nodeNamed(state, "kks-demo-pool-m4r8t");
    for (NodeCondition &c : m4->conditions) {
        if (c.type == "Ready")
            c.status = "True";
    }
    Node *q9 = nodeNamed(state, "kks-demo-pool-q9w3e");
    for (NodeCondition &c : q9->conditions) {
        if (c.type == "NetworkUnavailable")
            c.status = "False";
    }
    q9->conditions.append({ "DiskPressure", "True", "KubeletHasDiskPressure", QString(), QDateTime() });
    Node *r3 = nodeNamed(state, "demo-pool-r3s4d");
    const QString r3Ip = r3->internalIp;
    r3->internalIp = "10.180.0.222";
    r3->podCidrText = "100.100.99.0/24";
    Node joined = *nodeNamed(state, "kks-demo-pool-m4r8t");
    joined.name = "kks-demo-pool-aaaaa";
    joined.conditions.clear(); // no Ready condition yet
    state.nodes.append(joined);

    QCOMPARE(lines(diffStates(bare(base), bare(state))),
        (QStringList {
            "node changed demo-pool-r3s4d | IP " + r3Ip
                + " → 10.180.0.222; pod CIDR 100.100.27.0/24 → "
                  "100.100.99.0/24",
            "node added kks-demo-pool-aaaaa | Ready Unknown",
            "node removed kks-demo-pool-g4h0s | Ready Unknown",
            "node changed kks-demo-pool-h7k2p | Ready True → Unknown; schedulable → cordoned",
            "node changed kks-demo-pool-m4r8t | Ready Unknown → True",
            "node changed kks-demo-pool-q9w3e | conditions NetworkUnavailable=True → DiskPressure=True",
        }));
}

void TestStateDiff::routes()
{
    const KlusterState base = read("broken-routes");
    KlusterState state = base;
    state.router.routes.removeOne(Route { "198.19.7.0/24", "10.180.0.99" });
    state.router.routes.append(Route { "198.19.8.0/24", "10.180.0.8" });
    state.router.routes.append(Route { "198.19.8.0/24", "10.180.0.8" }); // twice: added twice
    // The recycled CIDR's routes in another order: another route carries the traffic.
    QList<Route> &r = state.router.routes;
    const qsizetype first = r.indexOf(Route { "198.19.1.0/24", "10.180.0.3" });
    const qsizetype last = r.indexOf(Route { "198.19.1.0/24", "10.180.0.5" });
    QVERIFY(first >= 0 && last > first);
    r.swapItemsAt(first, last);

    QCOMPARE(lines(diffStates(bare(base), bare(state))),
        (QStringList {
            "route changed 198.19.1.0/24 | order via 10.180.0.3, 10.180.0.4, 10.180.0.5 → 10.180.0.5, "
            "10.180.0.4, 10.180.0.3",
            "route removed 198.19.7.0/24 via 10.180.0.99 | ",
            "route added 198.19.8.0/24 via 10.180.0.8 | ",
            "route added 198.19.8.0/24 via 10.180.0.8 | ",
        }));
    // One of a duplicate pair removed: that one route.
    KlusterState fewer = base;
    fewer.router.routes.removeOne(Route { "198.19.1.0/24", "10.180.0.3" });
    QCOMPARE(lines(diffStates(bare(base), bare(fewer))),
        QStringList { "route removed 198.19.1.0/24 via 10.180.0.3 | " });
}

void TestStateDiff::rules()
{
    const KlusterState base = read("broken-security");
    KlusterState state = base;
    SecurityGroup *group = groupNamed(state, "kks-sg");
    SecurityGroupRule tcp;
    tcp.id = "new-rule";
    tcp.direction = "ingress";
    tcp.ethertype = "IPv4";
    tcp.protocol = "6"; // a number counts as its name
    tcp.remoteIpPrefix = "100.100.0.0/16";
    group->rules.append(tcp);
    SecurityGroupRule nodePorts = tcp;
    nodePorts.protocol = "tcp";
    nodePorts.portRangeMin = 30000;
    nodePorts.portRangeMax = 32767;
    nodePorts.remoteIpPrefix.reset();
    nodePorts.remoteGroupId = "other-group";
    group->rules.append(nodePorts);
    group->rules.erase(
        std::remove_if(group->rules.begin(), group->rules.end(),
            [](const SecurityGroupRule &rule) { return rule.protocol == QStringLiteral("udp"); }),
        group->rules.end());
    // Another group's rules are not the kluster's.
    groupNamed(state, "default")->rules.append(tcp);

    QCOMPARE(lines(diffStates(bare(base), bare(state))),
        (QStringList {
            "rule added ingress IPv4 tcp from 100.100.0.0/16 | ",
            "rule added ingress IPv4 tcp ports 30000-32767 from group other-group | ",
            "rule removed ingress IPv4 udp from 100.100.31.0/24 | ",
        }));
    // The same rule under another id is no change.
    KlusterState renamed = base;
    for (SecurityGroupRule &rule : groupNamed(renamed, "kks-sg")->rules)
        rule.id += "-recreated";
    QVERIFY(diffStates(bare(base), bare(renamed)).isEmpty());
}

void TestStateDiff::memberships()
{
    const KlusterState base = read("broken-nodes");
    KlusterState state = base;
    instanceNamed(state, "demo-pool-r3s4d")->securityGroups = QStringList { "kks-sg" };
    instanceNamed(state, "kks-demo-pool-h7k2p")->securityGroups = QStringList { "default" };
    // An instance that goes takes its memberships with it: the instance is the change.
    const QString goneId = removeInstance(state, "kks-demo-pool-x2c5v");

    const QStringList was
        = bare(base).instances.value(instanceNamed(state, "kks-demo-pool-h7k2p")->id).securityGroups;
    QCOMPARE(was, QStringList { "kks-sg" });
    QCOMPARE(lines(diffStates(bare(base), bare(state))),
        (QStringList {
            "instance removed kks-demo-pool-x2c5v (" + goneId + ") | ACTIVE",
            "membership added demo-pool-r3s4d → kks-sg | ",
            "membership added kks-demo-pool-h7k2p → default | ",
            "membership removed kks-demo-pool-h7k2p → kks-sg | ",
        }));
}

void TestStateDiff::findings()
{
    StateDigest before;
    before.kluster = "k";
    before.findings = { { "node-not-ready:n1", Severity::Warning },
        { "instance-error:i1", Severity::Critical }, { "route-limit:r", Severity::Warning } };
    StateDigest after = before;
    after.findings.remove("instance-error:i1");
    after.findings.insert("route-limit:r", Severity::Critical);
    after.findings.insert("route-orphaned:10.0.0.0/24 via 10.1.1.1", Severity::Warning);
    QCOMPARE(lines(diffStates(before, after)),
        (QStringList {
            "finding resolved instance-error:i1 | critical",
            "finding changed route-limit:r | warning → critical",
            "finding opened route-orphaned:10.0.0.0/24 via 10.1.1.1 | warning",
        }));
}

void TestStateDiff::findingsOfARealRepair()
{
    // The orphan's repair, as the diagnosis sees it before and after.
    const KlusterState base = read("broken-routes");
    KlusterState state = base;
    state.router.routes.removeOne(Route { "198.19.7.0/24", "10.180.0.99" });
    QCOMPARE(lines(diffStates(diagnosed(base), diagnosed(state))),
        (QStringList {
            "route removed 198.19.7.0/24 via 10.180.0.99 | ",
            "finding resolved route-orphaned:198.19.7.0/24 via 10.180.0.99 | warning",
        }));
    // The recycled CIDR's wrong routes removed: the duplicate is resolved, and the router falls below
    // its warning level (22 of 30).
    KlusterState repaired = state;
    repaired.router.routes.removeOne(Route { "198.19.1.0/24", "10.180.0.3" });
    repaired.router.routes.removeOne(Route { "198.19.1.0/24", "10.180.0.4" });
    const QString limit = "route-limit:" + base.router.id;
    QCOMPARE(lines(diffStates(diagnosed(state), diagnosed(repaired))),
        (QStringList {
            "route removed 198.19.1.0/24 via 10.180.0.3 | ",
            "route removed 198.19.1.0/24 via 10.180.0.4 | ",
            "finding resolved route-duplicate:198.19.1.0/24 | critical",
            "finding resolved " + limit + " | warning",
        }));
}

void TestStateDiff::orderIsCategoryThenSubject()
{
    const KlusterState base = read("broken-nodes");
    KlusterState state = base;
    state.router.routes.append(Route { "100.100.90.0/24", "10.180.0.90" });
    state.router.routes.prepend(Route { "100.100.1.0/24", "10.180.0.91" });
    removeNode(state, "kks-demo-pool-h7k2p");
    removeNode(state, "kks-demo-pool-g4h0s");
    instanceNamed(state, "demo-pool-r3s4d")->securityGroups = QStringList { "kks-sg" };
    const QList<StateChange> changes = diffStates(diagnosed(base), diagnosed(state));
    QList<ChangeCategory> categories;
    for (const StateChange &c : changes) {
        if (categories.isEmpty() || categories.last() != c.category)
            categories << c.category;
    }
    QCOMPARE(categories,
        (QList<ChangeCategory> { ChangeCategory::Node, ChangeCategory::Route, ChangeCategory::Membership,
            ChangeCategory::Finding }));
    for (qsizetype i = 1; i < changes.size(); ++i) {
        if (changes.at(i).category == changes.at(i - 1).category)
            QVERIFY2(changes.at(i - 1).subject <= changes.at(i).subject, qPrintable(changes.at(i).subject));
    }
    QCOMPARE(diffStates(diagnosed(base), diagnosed(state)), changes); // deterministic
}

// Incidents opened and resolved: by id, opened first; none where the findings are not compared (a source
// failed at one moment: its incidents were not derived, not resolved); the reports name them first.
void TestStateDiff::incidents()
{
    const KlusterState routes = read("broken-routes");
    const Diagnosis diagnosis = Diagnosis::run(routes);
    QVERIFY(!diagnosis.incidents.isEmpty());
    const StateDigest digest = StateDigest::of(routes, diagnosis);
    QVERIFY(diffIncidents(digest, diagnosis.incidents, digest, diagnosis.incidents).isEmpty());

    Incident other = diagnosis.incidents.constFirst();
    other.rule = IncidentRule::RouterFull;
    other.key = "router-x";
    other.title = "router x is full";
    const QList<IncidentChange> changes = diffIncidents(digest, { diagnosis.incidents.constFirst(), other },
        digest, { other, diagnosis.incidents.constFirst() });
    QVERIFY(changes.isEmpty()); // the same ids, in another order
    const Incident &recycled = diagnosis.incidents.constFirst();
    const QList<IncidentChange> both = diffIncidents(digest, { other }, digest, { recycled });
    QCOMPARE(both.size(), 2);
    QCOMPARE(both[0].change, ChangeKind::Opened);
    QCOMPARE(both[0].id, recycled.id());
    QCOMPARE(both[0].rule, recycled.rule);
    QCOMPARE(both[0].title, recycled.title);
    QCOMPARE(both[0].members, recycled.members);
    QCOMPARE(both[1].change, ChangeKind::Resolved);
    QCOMPARE(both[1].id, QStringLiteral("router-full:router-x"));

    // Only the incidents differ: said, and not "no changes".
    const QString text = QString::fromUtf8(stateChangesText(digest, digest, {}, both));
    QVERIFY2(text.contains(QStringLiteral("\nIncident opened: %1 (%2, %3 findings)\n")
                               .arg(recycled.title, recycled.id())
                               .arg(recycled.members.size())),
        qPrintable(text));
    QVERIFY(text.contains("\nIncident resolved: router x is full (router-full:router-x, "));
    QVERIFY(text.indexOf("Incident opened") < text.indexOf("Incident resolved"));
    QVERIFY(text.endsWith("\nno other changes\n"));
    const QJsonObject json = QJsonDocument::fromJson(stateChangesJson(digest, digest, {}, both)).object();
    const QJsonArray incidents = json.value("incidents").toArray();
    QCOMPARE(incidents.size(), 2);
    QCOMPARE(incidents[0].toObject().value("change").toString(), QStringLiteral("opened"));
    QCOMPARE(incidents[0].toObject().value("rule").toString(), QStringLiteral("recycled-pod-cidr"));
    QCOMPARE(incidents[1].toObject().value("change").toString(), QStringLiteral("resolved"));
    QCOMPARE(incidents[1].toObject().value("members").toArray().size(), recycled.members.size());
    QCOMPARE(QJsonDocument::fromJson(stateChangesJson(digest, digest, {})).object().value("incidents"),
        QJsonValue(QJsonArray()));

    // The router could not be read at the later moment: no incident of it is resolved.
    KlusterState failed = routes;
    failed.router = Router();
    failed.routerSource = SourceStatus { false, "network: GET /v2.0/routers/x: HTTP 500", QString() };
    const Diagnosis failedDiagnosis = Diagnosis::run(failed);
    QVERIFY(failedDiagnosis.incidents.isEmpty());
    QVERIFY(diffIncidents(
        digest, diagnosis.incidents, StateDigest::of(failed, failedDiagnosis), failedDiagnosis.incidents)
                .isEmpty());
}

void TestStateDiff::unknownSourcesAreNotCompared()
{
    const KlusterState base = read("broken-nodes");
    KlusterState failed = base;
    failed.nodes.clear();
    failed.nodesSource = SourceStatus { false, "kubernetes: GET /api/v1/nodes: HTTP 500", QString() };
    const StateDigest before = diagnosed(base);
    const StateDigest after = diagnosed(failed);
    QCOMPARE(after.unknownSources, QList<Source> { Source::Nodes });
    QCOMPARE(uncomparedCategories(before, after),
        (QList<ChangeCategory> { ChangeCategory::Node, ChangeCategory::Finding }));
    // Nodes that could not be read are not "removed", nor their findings "resolved".
    QVERIFY(diffStates(before, after).isEmpty());
    QVERIFY(stateChangesText(before, after, {}).contains("Not compared: node, finding"));
    const QJsonObject json = QJsonDocument::fromJson(stateChangesJson(before, after, {})).object();
    QCOMPARE(json.value("notCompared").toArray(), (QJsonArray { "node", "finding" }));

    // A server list with partial records (an unreachable cell) compares no instance.
    KlusterState partial = base;
    partial.instances[0].name.clear();
    partial.instances[0].status = "UNKNOWN";
    partial.noteIncompleteServers();
    QCOMPARE(bare(partial).unknownSources, QList<Source> { Source::Servers });
    QCOMPARE(uncomparedCategories(bare(base), bare(partial)),
        (QList<ChangeCategory> {
            ChangeCategory::Instance, ChangeCategory::Membership, ChangeCategory::Finding }));
    QVERIFY(diffStates(bare(base), bare(partial)).isEmpty());
    // Once known again, everything is compared.
    QVERIFY(uncomparedCategories(before, before).isEmpty());
}

void TestStateDiff::textReport()
{
    const KlusterState base = read("broken-routes");
    KlusterState state = base;
    state.capturedAt = base.capturedAt.addSecs(300);
    state.router.routes.removeOne(Route { "198.19.7.0/24", "10.180.0.99" });
    removeNode(state, "kks-legacy-default-g5h6j");
    const StateDigest before = diagnosed(base);
    const StateDigest after = diagnosed(state);
    const QList<StateChange> changes = diffStates(before, after);
    const QString text = QString::fromUtf8(stateChangesText(before, after, changes));
    const QStringList out = text.split('\n');
    QCOMPARE(out.first(), "Kluster legacy: changes from 2026-11-21T10:00:00Z to 2026-11-21T10:05:00Z");
    QVERIFY2(
        text.contains("\nNodes (1)\n  - removed  kks-legacy-default-g5h6j  Ready True\n"), qPrintable(text));
    QVERIFY2(text.contains("\nRoutes (1)\n  - removed  198.19.7.0/24 via 10.180.0.99\n"), qPrintable(text));
    // The node gone: its instance is unregistered now, and its pod CIDR's route no longer stale.
    QVERIFY2(text.contains("\nFindings (5)\n"
                           "  + opened    instance-unregistered:kks-legacy-default-g5h6j  critical\n"
                           "  - resolved  route-missing:kks-legacy-default-g5h6j          critical\n"
                           "  - resolved  route-orphaned:198.19.7.0/24 via 10.180.0.99    warning\n"
                           "  - resolved  route-stale:198.19.2.0/24 via 10.180.0.12       critical\n"
                           "  + opened    route-unassigned:198.19.2.0/24 via 10.180.0.12  warning\n"),
        qPrintable(text));
    QCOMPARE(changes.size(), 7);
    QVERIFY(text.endsWith("\n\n7 changes\n"));
    const QList<StateChange> one = { changes.first() };
    QVERIFY(stateChangesText(before, after, one).endsWith("\n1 change\n"));
}

void TestStateDiff::jsonReport()
{
    const KlusterState base = read("broken-routes");
    KlusterState state = base;
    state.capturedAt = base.capturedAt.addSecs(60);
    state.router.routes.removeOne(Route { "198.19.7.0/24", "10.180.0.99" });
    const StateDigest before = diagnosed(base);
    const StateDigest after = diagnosed(state);
    const QList<StateChange> changes = diffStates(before, after);
    const QByteArray bytes = stateChangesJson(before, after, changes);
    QCOMPARE(stateChangesJson(before, after, changes), bytes);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
    QCOMPARE(error.error, QJsonParseError::NoError);
    const QJsonObject o = doc.object();
    QCOMPARE(o.value("kluster").toString(), "legacy");
    QCOMPARE(o.value("before").toString(), "2026-11-21T10:00:00Z");
    QCOMPARE(o.value("after").toString(), "2026-11-21T10:01:00Z");
    QCOMPARE(o.value("changes").toArray(),
        (QJsonArray {
            QJsonObject { { "category", "route" }, { "change", "removed" },
                { "subject", "198.19.7.0/24 via 10.180.0.99" }, { "detail", "" } },
            QJsonObject { { "category", "finding" }, { "change", "resolved" },
                { "subject", "route-orphaned:198.19.7.0/24 via 10.180.0.99" }, { "detail", "warning" } },
        }));
    QCOMPARE(o.value("summary").toObject(),
        (QJsonObject { { "instance", 0 }, { "node", 0 }, { "route", 1 }, { "rule", 0 }, { "membership", 0 },
            { "finding", 1 }, { "kluster", 0 } }));
    QCOMPARE(o.value("notCompared").toArray(), QJsonArray());
    // Keys in the documented order.
    QVERIFY(bytes.indexOf("\"kluster\"") < bytes.indexOf("\"before\""));
    QVERIFY(bytes.indexOf("\"after\"") < bytes.indexOf("\"changes\""));
    QVERIFY(bytes.indexOf("\"changes\"") < bytes.indexOf("\"summary\""));
    QVERIFY(bytes.indexOf("\"category\"") < bytes.indexOf("\"change\":"));
    QVERIFY(bytes.indexOf("\"instance\": 0") < bytes.indexOf("\"finding\": 1"));
}

// The kluster's lifecycle phase kept with each moment, and its change named (diagnosis.md §7).
void TestStateDiff::phaseChange()
{
    KlusterState state = read("broken-nodes");
    state.kluster.phase = QStringLiteral("Running");
    const StateDigest before = bare(state);
    state.kluster.phase = QStringLiteral("Terminating");
    const StateDigest after = bare(state);
    QString error;
    const std::optional<StateDigest> back = StateDigest::fromJson(after.toJson(), &error);
    QVERIFY2(back, qPrintable(error));
    QCOMPARE(back->phase, QStringLiteral("Terminating"));
    const QList<StateChange> changes = diffStates(before, after);
    QCOMPARE(changes.size(), 1);
    QCOMPARE(changes.first().category, ChangeCategory::Kluster);
    QCOMPARE(changes.first().subject, QStringLiteral("phase"));
    QCOMPARE(changes.first().detail, QStringLiteral("Running → Terminating"));
    // A moment that did not say its phase (an older digest, a snapshot without it) says nothing.
    state.kluster.phase.clear();
    QVERIFY(diffStates(before, bare(state)).isEmpty());
    QVERIFY(!bare(state).toJson().contains("phase"));
}

void TestStateDiff::roundTripKeepsMilliseconds()
{
    StateDigest d = diagnosed(read("broken-nodes"));
    d.capturedAt = d.capturedAt.addMSecs(250);
    d.unknownSources = QList<Source> { Source::Router, Source::SecurityGroups };
    QString error;
    const std::optional<StateDigest> back = StateDigest::fromJson(d.toJson(), &error);
    QVERIFY2(back, qPrintable(error));
    QCOMPARE(back->capturedAt, d.capturedAt);
    QVERIFY(*back == d);
    QCOMPARE(back->toJson(), d.toJson());
}

void TestStateDiff::malformedJson_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("error");
    const QByteArray good = diagnosed(read("broken-nodes")).toJson();
    auto edited = [&good](const QByteArray &from, const QByteArray &to) {
        QByteArray json = good;
        if (!json.contains(from))
            qFatal("not in the digest: %s", from.constData());
        return json.replace(from, to);
    };
    QTest::newRow("empty") << QByteArray() << "state digest";
    QTest::newRow("not JSON") << QByteArray("{\"kluster\": ") << "state digest";
    QTest::newRow("an array") << QByteArray("[]") << "state digest";
    QTest::newRow("an empty object") << QByteArray("{}") << "version";
    QTest::newRow("another version") << edited("\"version\":1", "\"version\":2") << "version 2 is not known";
    QTest::newRow("no kluster") << edited("\"kluster\":\"demo\"", "\"klusterx\":\"demo\"") << "$.kluster";
    QTest::newRow("a bad time") << edited(
        "\"capturedAt\":\"2026-11-21T10:00:00Z\"", "\"capturedAt\":\"yesterday\"")
                                << "$.capturedAt";
    QTest::newRow("a time without zone")
        << edited("\"capturedAt\":\"2026-11-21T10:00:00Z\"", "\"capturedAt\":\"2026-11-21T10:00:00\"")
        << "$.capturedAt";
    QTest::newRow("nodes not an object") << edited("\"nodes\":{", "\"nodes\":[],\"nodesx\":{") << "$.nodes";
    QTest::newRow("ready not a string") << edited("\"ready\":\"Unknown\"", "\"ready\":0") << "ready";
    QTest::newRow("unschedulable not a boolean")
        << edited("\"unschedulable\":false", "\"unschedulable\":\"no\"") << "unschedulable";
    QTest::newRow("a bad severity") << edited("\"critical\"", "\"dire\"") << "is no severity";
    QTest::newRow("routes not strings") << edited("\"routes\":[\"", "\"routes\":[1,\"") << "$.routes[0]";
    QTest::newRow("no rules") << edited("\"rules\":", "\"rulez\":") << "$.rules";
    QTest::newRow("an unknown source")
        << edited("\"unknownSources\":[]", "\"unknownSources\":[\"security groups\"]")
        << "$.unknownSources[0]: \"security groups\" is no source of a kluster";
}

void TestStateDiff::malformedJson()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, error);
    QString why;
    const std::optional<StateDigest> d = StateDigest::fromJson(json, &why);
    QVERIFY(!d);
    QVERIFY2(why.contains(error), qPrintable(why));
    QVERIFY(StateDigest::fromJson(json, nullptr) == std::nullopt); // no error wanted: none written
}

QTEST_GUILESS_MAIN(TestStateDiff)
#include "tst_statediff.moc"
