#include "tests/app/clifixture.h"

#include <QDir>
#include <QJsonArray>
#include <QSet>

// flightdeck-cli diff against the simulated cloud: a snapshot before and after each kind of repair the
// demo world offers (routes removed and added, a rule, a membership, a ghost node, an instance and its
// replacement), and the diff says exactly what the repair changed, in text and JSON. One simulator, the
// repairs in sequence.
class TestCliDiff : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void routesRemoved();
    void routeAdded();
    void ruleCreated();
    void membershipAdded();
    void ghostNodeDeleted();
    void instanceReplaced();
    void errorsExit3();
    void sameNameInAnotherRegionIsAnotherKluster();
    void laterMomentFirstIsSaid();
    void incidentOpenedAndResolved();
    void incidentResolvedWhileAMemberStays();

private:
    using Run = CliFixture::Run;
    Run cli(const QStringList &args) { return m_cli->cli(args); }
    QString snapshot(const QString &kluster, const QString &name);
    // A copy of examples/<example> as `name`, changed by `edit` (given the folder) and captured `later`
    // seconds after it.
    QString variant(const QString &example, const QString &name, int later,
        const std::function<void(const QDir &)> &edit = {});
    static QJsonObject readJson(const QString &path);
    static void writeJson(const QString &path, const QJsonObject &object);
    // The incidents `check --format json` gives for a snapshot folder, by id.
    QMap<QString, QJsonObject> checkIncidents(const QString &folder);
    // Compares `diff before after`'s incidents with `expected` (change and incident, as check gives it), in
    // JSON and text, the text naming them before the changes.
    void expectIncidents(
        const QString &before, const QString &after, const QList<QPair<QString, QJsonObject>> &expected);
    // A snapshot, the repair sent, another snapshot: the two folders.
    QPair<QString, QString> aroundRepair(const QString &kluster, const QString &finding);
    // `diff before after` in JSON and in text: both exit 1 and agree; the changes as
    // "category change subject | detail".
    QStringList changes(const QString &before, const QString &after);
    // Compares changes(before, after) with `expected`, printing both when they differ.
    void expect(const QString &before, const QString &after, const QStringList &expected);
    World &world() { return m_cli->sim.sim.world(); }
    QString routerId(const QString &kluster) // the route-limit finding's subject
    {
        return world().klusters.at(world().klusterIndex(kluster)).routerId;
    }

    std::unique_ptr<CliFixture> m_cli;
    int m_snapshots = 0;
};

void TestCliDiff::initTestCase()
{
    m_cli = std::make_unique<CliFixture>();
    // A deleted instance's replacement boots and registers (and is routed) at once, before the repair's
    // verification: what the snapshot after it holds does not depend on timing.
    QCOMPARE(m_cli->sim
                 .request("POST", m_cli->sim.sim.adminUrl() + QStringLiteral("/settings"),
                     R"({"replacementBootSeconds": 0, "registrationDelaySeconds": 0})")
                 .status,
        204);
}

void TestCliDiff::cleanupTestCase()
{
    m_cli.reset();
}

QString TestCliDiff::snapshot(const QString &kluster, const QString &name)
{
    QString dir = m_cli->home.filePath(QStringLiteral("%1-%2").arg(++m_snapshots).arg(name));
    const Run r = cli({ QStringLiteral("snapshot"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), kluster, QStringLiteral("--out"), dir });
    if (r.exitCode != 0)
        qWarning().noquote() << "snapshot" << kluster << "exit" << r.exitCode << r.err;
    return dir;
}

QPair<QString, QString> TestCliDiff::aroundRepair(const QString &kluster, const QString &finding)
{
    const QString before = snapshot(kluster, QStringLiteral("before"));
    const Run r = cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), kluster, QStringLiteral("--finding"), finding,
        QStringLiteral("--yes") });
    if (r.exitCode != 0 || !r.out.contains(QStringLiteral("Result: fixed")))
        qWarning().noquote() << "repair" << finding << "exit" << r.exitCode << r.out.right(500) << r.err;
    return { before, snapshot(kluster, QStringLiteral("after")) };
}

QStringList TestCliDiff::changes(const QString &before, const QString &after)
{
    const Run json
        = cli({ QStringLiteral("diff"), before, after, QStringLiteral("--format"), QStringLiteral("json") });
    const Run text = cli({ QStringLiteral("diff"), before, after });
    if (json.exitCode != 1 || text.exitCode != 1 || !json.err.isEmpty() || !text.err.isEmpty()) {
        qWarning().noquote() << "diff exits" << json.exitCode << text.exitCode << json.err << text.err;
        return { QStringLiteral("(diff failed)") };
    }
    const QJsonObject report = QJsonDocument::fromJson(json.out.toUtf8()).object();
    QStringList lines;
    QMap<QString, int> counts;
    for (const QJsonValue v : report.value(QStringLiteral("changes")).toArray()) {
        const QJsonObject c = v.toObject();
        lines << QStringLiteral("%1 %2 %3 | %4")
                     .arg(c.value(QStringLiteral("category")).toString(),
                         c.value(QStringLiteral("change")).toString(),
                         c.value(QStringLiteral("subject")).toString(),
                         c.value(QStringLiteral("detail")).toString());
        ++counts[c.value(QStringLiteral("category")).toString()];
        // The text report lists each change with its mark.
        const QString change = c.value(QStringLiteral("change")).toString();
        const QString mark = change == QLatin1String("added") || change == QLatin1String("opened")
            ? QStringLiteral("+")
            : change == QLatin1String("changed") ? QStringLiteral("~")
                                                 : QStringLiteral("-");
        if (!text.out.contains(QStringLiteral("  %1 %2").arg(mark, change))
            || !text.out.contains(c.value(QStringLiteral("subject")).toString()))
            lines << QStringLiteral("(not in the text report: %1)").arg(lines.last());
    }
    const QJsonObject summary = report.value(QStringLiteral("summary")).toObject();
    for (const QString &category :
        { QStringLiteral("instance"), QStringLiteral("node"), QStringLiteral("route"), QStringLiteral("rule"),
            QStringLiteral("membership"), QStringLiteral("finding") }) {
        if (summary.value(category).toInt(-1) != counts.value(category))
            lines
                << QStringLiteral("(summary of %1: %2)").arg(category).arg(summary.value(category).toInt(-1));
    }
    if (!report.value(QStringLiteral("notCompared")).toArray().isEmpty())
        lines << QStringLiteral("(not compared: something)");
    const QString header = text.out.section(QLatin1Char('\n'), 0, 0);
    if (header
        != QStringLiteral("Kluster %1: changes from %2 to %3")
               .arg(report.value(QStringLiteral("kluster")).toString(),
                   report.value(QStringLiteral("before")).toString(),
                   report.value(QStringLiteral("after")).toString()))
        lines << QStringLiteral("(header: %1)").arg(header);
    const qsizetype n = report.value(QStringLiteral("changes")).toArray().size();
    if (!text.out.endsWith(QStringLiteral("\n%1 %2\n").arg(n).arg(n == 1 ? "change" : "changes")))
        lines << QStringLiteral("(last line: %1)").arg(text.out.right(40));
    return lines;
}

void TestCliDiff::expect(const QString &before, const QString &after, const QStringList &expected)
{
    const QStringList got = changes(before, after);
    QVERIFY2(got == expected,
        qPrintable(QStringLiteral("got:\n  %1\nexpected:\n  %2")
                       .arg(got.join(QStringLiteral("\n  ")), expected.join(QStringLiteral("\n  ")))));
}

void TestCliDiff::routesRemoved()
{
    const auto [before, after]
        = aroundRepair(QStringLiteral("legacy"), QStringLiteral("route-duplicate:198.19.1.0/24"));
    expect(before, after,
        QStringList {
            "route removed 198.19.1.0/24 via 10.180.0.3 | ",
            "route removed 198.19.1.0/24 via 10.180.0.32 | ",
            "finding resolved route-duplicate:198.19.1.0/24 | critical",
            "finding resolved route-limit:" + routerId(QStringLiteral("legacy")) + " | warning",
        });
    // A snapshot against itself: nothing changed.
    for (const QString &format : { QStringLiteral("text"), QStringLiteral("json") }) {
        const Run same = cli({ QStringLiteral("diff"), before, before, QStringLiteral("--format"), format });
        QCOMPARE(same.exitCode, 0);
        QVERIFY(same.err.isEmpty());
        if (format == QLatin1String("text")) {
            QVERIFY2(same.out.endsWith(QStringLiteral("\nno changes\n")), qPrintable(same.out));
        } else {
            const QJsonObject o = QJsonDocument::fromJson(same.out.toUtf8()).object();
            QCOMPARE(o.value(QStringLiteral("changes")).toArray(), QJsonArray());
            QCOMPARE(o.value(QStringLiteral("kluster")).toString(), QStringLiteral("legacy"));
            QCOMPARE(
                o.value(QStringLiteral("summary")).toObject().value(QStringLiteral("route")).toInt(-1), 0);
        }
    }
    // And the other way round: the routes come back, the findings open again.
    const Run back = cli({ QStringLiteral("diff"), after, before });
    QCOMPARE(back.exitCode, 1);
    QVERIFY2(
        back.out.contains(QStringLiteral("  + added  198.19.1.0/24 via 10.180.0.3\n")), qPrintable(back.out));
    QVERIFY(back.out.contains(QStringLiteral("  + opened  route-duplicate:198.19.1.0/24")));
    QVERIFY(back.out.endsWith(QStringLiteral("\n4 changes\n")));
}

void TestCliDiff::routeAdded()
{
    const auto [before, after]
        = aroundRepair(QStringLiteral("legacy"), QStringLiteral("route-missing:kks-legacy-default-k7l8m"));
    const int k = world().klusterIndex(QStringLiteral("legacy"));
    QString route;
    for (const SimNode &n : world().klusters.at(k).nodes) {
        if (n.name == QLatin1String("kks-legacy-default-k7l8m"))
            route = n.podCidr + QStringLiteral(" via ") + n.internalIp;
    }
    expect(before, after,
        QStringList {
            "route added " + route + " | ",
            "finding resolved route-missing:kks-legacy-default-k7l8m | critical",
        });
}

void TestCliDiff::ruleCreated()
{
    const auto [before, after]
        = aroundRepair(QStringLiteral("demo"), QStringLiteral("security-group-rule-missing:tcp"));
    expect(before, after,
        QStringList {
            "rule added ingress IPv4 tcp from 100.100.0.0/16 | ",
            "finding resolved security-group-rule-missing:tcp | critical",
        });
}

void TestCliDiff::membershipAdded()
{
    const auto [before, after] = aroundRepair(
        QStringLiteral("demo"), QStringLiteral("instance-missing-security-group:demo-pool-r3s4d"));
    expect(before, after,
        QStringList {
            "membership added demo-pool-r3s4d → kks-demo | ",
            "finding resolved instance-missing-security-group:demo-pool-r3s4d | critical",
        });
}

void TestCliDiff::ghostNodeDeleted()
{
    // The node object goes; the route that led to it is now seen for what it is: an orphan.
    const auto [before, after]
        = aroundRepair(QStringLiteral("demo"), QStringLiteral("node-without-instance:kks-demo-pool-g4h0s"));
    expect(before, after,
        QStringList {
            "node removed kks-demo-pool-g4h0s | Ready Unknown",
            "finding resolved node-without-instance:kks-demo-pool-g4h0s | critical",
            "finding opened route-orphaned:100.100.30.0/24 via 10.180.0.40 | warning",
        });
}

void TestCliDiff::instanceReplaced()
{
    // The instance in ERROR is deleted; launch control boots its replacement, which registers as a node
    // and is routed.
    QSet<QString> names;
    QString errorId;
    for (const SimServer &s : world().servers) {
        names.insert(s.name);
        if (s.name == QLatin1String("kks-demo-pool-t5y6u"))
            errorId = s.id;
    }
    QVERIFY(!errorId.isEmpty());
    const auto [before, after]
        = aroundRepair(QStringLiteral("demo"), QStringLiteral("instance-error:kks-demo-pool-t5y6u"));
    const SimServer *replacement = nullptr;
    for (const SimServer &s : world().servers) {
        if (!names.contains(s.name))
            replacement = &s;
    }
    QVERIFY(replacement);
    QVERIFY(replacement->name.startsWith(QLatin1String("kks-demo-pool-")));
    const int k = world().klusterIndex(QStringLiteral("demo"));
    QString route;
    for (const SimNode &n : world().klusters.at(k).nodes) {
        if (n.name == replacement->name)
            route = n.podCidr + QStringLiteral(" via ") + n.internalIp;
    }
    QVERIFY(!route.isEmpty());
    // The diff orders the instances by name; the replacement's suffix is random.
    QStringList instances = {
        QStringLiteral("instance added %1 (%2) | %3")
            .arg(replacement->name, replacement->id, replacement->status),
        QStringLiteral("instance removed kks-demo-pool-t5y6u (%1) | ERROR").arg(errorId),
    };
    if (replacement->name > QLatin1String("kks-demo-pool-t5y6u"))
        std::swap(instances[0], instances[1]);
    const QStringList expected = {
        instances.at(0),
        instances.at(1),
        QStringLiteral("node added %1 | Ready True").arg(replacement->name),
        QStringLiteral("route added %1 | ").arg(route),
        QStringLiteral("finding resolved instance-error:kks-demo-pool-t5y6u | critical"),
        // The replacement's route is the 24th on the shared router: 80 % of its 30.
        QStringLiteral("finding opened route-limit:%1 | warning").arg(routerId(QStringLiteral("demo"))),
    };
    expect(before, after, expected);
}

void TestCliDiff::errorsExit3()
{
    const QString demo = snapshot(QStringLiteral("demo"), QStringLiteral("demo"));
    const QString legacy = snapshot(QStringLiteral("legacy"), QStringLiteral("legacy"));
    const QString missing = m_cli->home.filePath(QStringLiteral("no-such-snapshot"));

    Run r = cli({ QStringLiteral("diff"), demo, missing });
    QCOMPARE(r.exitCode, 3);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.startsWith(QStringLiteral("flightdeck-cli diff: ")) && r.err.contains(missing),
        qPrintable(r.err));
    QCOMPARE(r.err.count(QLatin1Char('\n')), 1);

    // A bad snapshot: named, with the file at fault.
    QVERIFY(QFile::remove(demo + QStringLiteral("/nodes.json")));
    r = cli({ QStringLiteral("diff"), demo, demo, QStringLiteral("--format"), QStringLiteral("json") });
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains(QStringLiteral("nodes.json")), qPrintable(r.err));

    // Two klusters are no two moments of one.
    const QString demo2 = snapshot(QStringLiteral("demo"), QStringLiteral("demo"));
    r = cli({ QStringLiteral("diff"), demo2, legacy });
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(
        r.err.contains(QStringLiteral("kluster demo")) && r.err.contains(QStringLiteral("kluster legacy")),
        qPrintable(r.err));

    for (const QStringList &args :
        { QStringList { QStringLiteral("diff") }, QStringList { QStringLiteral("diff"), legacy },
            QStringList { QStringLiteral("diff"), legacy, legacy, legacy },
            QStringList {
                QStringLiteral("diff"), legacy, legacy, QStringLiteral("--format"), QStringLiteral("xml") },
            QStringList { QStringLiteral("diff"), legacy, legacy, QStringLiteral("--max-unhealthy"),
                QStringLiteral("x") } }) {
        r = cli(args);
        QVERIFY2(r.exitCode == 3, qPrintable(args.join(QLatin1Char(' '))));
        QVERIFY(r.out.isEmpty());
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
    }

    r = cli({ QStringLiteral("diff"), QStringLiteral("--help") });
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(QStringLiteral("flightdeck-cli diff [options] SNAPSHOT_A SNAPSHOT_B")),
        qPrintable(r.out));
    QVERIFY(r.out.contains(QStringLiteral("--max-unhealthy")));
    r = cli({ QStringLiteral("--help") });
    QVERIFY(r.out.contains(QStringLiteral("  diff ")));
}

void TestCliDiff::sameNameInAnotherRegionIsAnotherKluster()
{
    // Two klusters named demo, in two regions: no "no changes", exit 0.
    const QString one = snapshot(QStringLiteral("demo"), QStringLiteral("region-one"));
    const QString other = m_cli->home.filePath(QStringLiteral("region-two"));
    QVERIFY(QDir().mkpath(other));
    for (const QString &name : QDir(one).entryList(QDir::Files))
        QVERIFY(QFile::copy(QDir(one).filePath(name), QDir(other).filePath(name)));
    QFile capture(QDir(other).filePath(QStringLiteral("capture.json")));
    QVERIFY(capture.open(QIODevice::ReadWrite));
    QJsonObject c = QJsonDocument::fromJson(capture.readAll()).object();
    c.insert(QStringLiteral("region"), QStringLiteral("RegionTwo"));
    capture.resize(0);
    capture.write(QJsonDocument(c).toJson());
    capture.close();
    const Run r = cli({ QStringLiteral("diff"), one, other });
    QCOMPARE(r.exitCode, 3);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.contains(QStringLiteral("region RegionOne"))
            && r.err.contains(QStringLiteral("region RegionTwo")),
        qPrintable(r.err));
}

void TestCliDiff::laterMomentFirstIsSaid()
{
    // Two moments with a change between them: a route of legacy's router gone.
    const QString before = snapshot(QStringLiteral("legacy"), QStringLiteral("earlier"));
    SimRouter &router = world().routers[world().routerIndex(routerId(QStringLiteral("legacy")))];
    QVERIFY(!router.routes.isEmpty());
    router.routes.removeLast();
    ++router.revision;
    QTest::qWait(1100); // a later second: capturedAt has whole seconds
    const QString after = snapshot(QStringLiteral("legacy"), QStringLiteral("later"));
    const Run text = cli({ QStringLiteral("diff"), after, before });
    QCOMPARE(text.exitCode, 1);
    QVERIFY2(
        text.out.contains(QStringLiteral("Note: the first moment is the later one")), qPrintable(text.out));
    const Run json
        = cli({ QStringLiteral("diff"), after, before, QStringLiteral("--format"), QStringLiteral("json") });
    QCOMPARE(QJsonDocument::fromJson(json.out.toUtf8()).object().value(QStringLiteral("reversed")),
        QJsonValue(true));
    const Run forward
        = cli({ QStringLiteral("diff"), before, after, QStringLiteral("--format"), QStringLiteral("json") });
    QCOMPARE(QJsonDocument::fromJson(forward.out.toUtf8()).object().value(QStringLiteral("reversed")),
        QJsonValue(false));
    QVERIFY(!cli({ QStringLiteral("diff"), before, after }).out.contains(QStringLiteral("Note: the first")));
}

QJsonObject TestCliDiff::readJson(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qWarning() << "cannot read" << path;
    return QJsonDocument::fromJson(f.readAll()).object();
}

void TestCliDiff::writeJson(const QString &path, const QJsonObject &object)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(QJsonDocument(object).toJson()) < 0)
        qWarning() << "cannot write" << path;
}

QString TestCliDiff::variant(
    const QString &example, const QString &name, int later, const std::function<void(const QDir &)> &edit)
{
    const QDir from(QStringLiteral(FLIGHTDECK_SOURCE_DIR "/examples/") + example);
    const QString to = m_cli->home.filePath(QStringLiteral("%1-%2").arg(++m_snapshots).arg(name));
    QDir().mkpath(to);
    for (const QString &file : from.entryList(QDir::Files))
        QFile::copy(from.filePath(file), QDir(to).filePath(file));
    const QString capture = QDir(to).filePath(QStringLiteral("capture.json"));
    QJsonObject c = readJson(capture);
    const QDateTime at = QDateTime::fromString(c.value(QStringLiteral("capturedAt")).toString(), Qt::ISODate);
    c.insert(QStringLiteral("capturedAt"), at.addSecs(later).toUTC().toString(Qt::ISODate));
    writeJson(capture, c);
    if (edit)
        edit(QDir(to));
    return to;
}

QMap<QString, QJsonObject> TestCliDiff::checkIncidents(const QString &folder)
{
    const Run r = cli({ QStringLiteral("check"), QStringLiteral("--snapshot"), folder,
        QStringLiteral("--format"), QStringLiteral("json") });
    QMap<QString, QJsonObject> incidents;
    for (const QJsonValue v :
        QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("incidents")).toArray())
        incidents.insert(v.toObject().value(QStringLiteral("id")).toString(), v.toObject());
    return incidents;
}

void TestCliDiff::expectIncidents(
    const QString &before, const QString &after, const QList<QPair<QString, QJsonObject>> &expected)
{
    const Run json
        = cli({ QStringLiteral("diff"), before, after, QStringLiteral("--format"), QStringLiteral("json") });
    const Run text = cli({ QStringLiteral("diff"), before, after });
    QCOMPARE(json.exitCode, 1);
    QCOMPARE(text.exitCode, 1);
    QVERIFY2(json.err.isEmpty() && text.err.isEmpty(), qPrintable(json.err + text.err));
    const QJsonObject report = QJsonDocument::fromJson(json.out.toUtf8()).object();
    // Before the changes, in JSON as in text.
    QVERIFY(
        json.out.indexOf(QStringLiteral("\"incidents\"")) < json.out.indexOf(QStringLiteral("\"changes\"")));
    const QJsonArray incidents = report.value(QStringLiteral("incidents")).toArray();
    QCOMPARE(incidents.size(), expected.size());
    const qsizetype firstChange
        = text.out.indexOf(QStringLiteral("\n\n"), text.out.indexOf(QStringLiteral("\nIncident ")) + 1);
    for (int i = 0; i < expected.size(); ++i) {
        const auto &[change, incident] = expected.at(i);
        const QJsonObject got = incidents.at(i).toObject();
        QCOMPARE(got.value(QStringLiteral("change")).toString(), change);
        for (const char *key : { "id", "rule", "severity", "title", "members" })
            QVERIFY2(got.value(QLatin1String(key)) == incident.value(QLatin1String(key)), key);
        const QString line = QStringLiteral("\nIncident %1: %2 (%3, %4 findings)\n")
                                 .arg(change, incident.value(QStringLiteral("title")).toString(),
                                     incident.value(QStringLiteral("id")).toString())
                                 .arg(incident.value(QStringLiteral("members")).toArray().size());
        const qsizetype at = text.out.indexOf(line);
        QVERIFY2(at > 0 && at < firstChange, qPrintable(text.out));
        QVERIFY(at > text.out.indexOf(QStringLiteral("Kluster ")));
    }
    // The changes follow as ever, and say the same in both.
    QVERIFY(!report.value(QStringLiteral("changes")).toArray().isEmpty());
    const qsizetype n = report.value(QStringLiteral("changes")).toArray().size();
    QVERIFY(text.out.endsWith(QStringLiteral("\n%1 %2\n").arg(n).arg(n == 1 ? "change" : "changes")));
}

// A recycled pod CIDR repaired between two snapshot folders: its route now leads to its owner. The
// incident resolves (named as the earlier diagnosis named it), and comes back the other way round.
void TestCliDiff::incidentOpenedAndResolved()
{
    const QString broken = variant(QStringLiteral("broken-routes"), QStringLiteral("recycled"), 0);
    const QMap<QString, QJsonObject> incidents = checkIncidents(broken);
    QString cidr;
    for (const QJsonObject &i : incidents) {
        if (i.value(QStringLiteral("rule")).toString() == QLatin1String("recycled-pod-cidr"))
            cidr = i.value(QStringLiteral("key")).toString();
    }
    QVERIFY2(!cidr.isEmpty(), "examples/broken-routes has a recycled pod CIDR");
    const QString recycled = QStringLiteral("recycled-pod-cidr:") + cidr;
    const QString repaired = variant(
        QStringLiteral("broken-routes"), QStringLiteral("repaired"), 600, [&cidr](const QDir &dir) {
            // The CIDR's owner and its address, from the node list.
            QString owner;
            for (const QJsonValue n : readJson(dir.filePath(QStringLiteral("nodes.json")))
                                          .value(QStringLiteral("items"))
                                          .toArray()) {
                const QJsonObject node = n.toObject();
                if (node.value(QStringLiteral("spec")).toObject().value(QStringLiteral("podCIDR")).toString()
                    != cidr)
                    continue;
                for (const QJsonValue a : node.value(QStringLiteral("status"))
                                              .toObject()
                                              .value(QStringLiteral("addresses"))
                                              .toArray()) {
                    if (a.toObject().value(QStringLiteral("type")).toString() == QLatin1String("InternalIP"))
                        owner = a.toObject().value(QStringLiteral("address")).toString();
                }
            }
            QVERIFY(!owner.isEmpty());
            QJsonObject body = readJson(dir.filePath(QStringLiteral("router.json")));
            QJsonObject router = body.value(QStringLiteral("router")).toObject();
            QJsonArray routes = router.value(QStringLiteral("routes")).toArray();
            for (qsizetype i = 0; i < routes.size(); ++i) {
                QJsonObject route = routes.at(i).toObject();
                if (route.value(QStringLiteral("destination")).toString() == cidr) {
                    route.insert(QStringLiteral("nexthop"), owner);
                    routes[i] = route;
                }
            }
            router.insert(QStringLiteral("routes"), routes);
            body.insert(QStringLiteral("router"), router);
            writeJson(dir.filePath(QStringLiteral("router.json")), body);
        });
    QVERIFY(!checkIncidents(repaired).contains(recycled));
    expectIncidents(broken, repaired, { { QStringLiteral("resolved"), incidents.value(recycled) } });
    expectIncidents(repaired, broken, { { QStringLiteral("opened"), incidents.value(recycled) } });
    // The members' own findings are still listed among the changes.
    const Run text = cli({ QStringLiteral("diff"), broken, repaired });
    for (const QJsonValue member : incidents.value(recycled).value(QStringLiteral("members")).toArray())
        QVERIFY2(
            text.out.contains(QStringLiteral("  - resolved  ") + member.toString()), qPrintable(text.out));

    // Unchanged: no incident named, exit 0.
    const Run same
        = cli({ QStringLiteral("diff"), broken, broken, QStringLiteral("--format"), QStringLiteral("json") });
    QCOMPARE(same.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(same.out.toUtf8()).object().value(QStringLiteral("incidents")),
        QJsonValue(QJsonArray()));
    QVERIFY(!cli({ QStringLiteral("diff"), broken, broken }).out.contains(QStringLiteral("Incident")));
}

// A closed pod network half reopened: one rule back, the other still missing. The incident needs two members,
// so it resolves while the remaining finding stays open.
void TestCliDiff::incidentResolvedWhileAMemberStays()
{
    const QString closed = variant(QStringLiteral("broken-security"), QStringLiteral("closed"), 0);
    const QMap<QString, QJsonObject> incidents = checkIncidents(closed);
    QString group;
    for (const QJsonObject &i : incidents) {
        if (i.value(QStringLiteral("rule")).toString() == QLatin1String("pod-network-closed"))
            group = i.value(QStringLiteral("key")).toString();
    }
    QVERIFY2(!group.isEmpty(), "examples/broken-security has a closed pod network");
    const QString incident = QStringLiteral("pod-network-closed:") + group;
    const QStringList members
        = incidents.value(incident).value(QStringLiteral("members")).toVariant().toStringList();
    QVERIFY(members.contains(QStringLiteral("security-group-rule-missing:tcp")));
    QVERIFY(members.size() == 2);
    const QString half = variant(
        QStringLiteral("broken-security"), QStringLiteral("half-open"), 600, [&group](const QDir &dir) {
            const QString clusterCidr = readJson(dir.filePath(QStringLiteral("kluster.json")))
                                            .value(QStringLiteral("spec"))
                                            .toObject()
                                            .value(QStringLiteral("clusterCIDR"))
                                            .toString();
            QJsonObject body = readJson(dir.filePath(QStringLiteral("security-groups.json")));
            QJsonArray groups = body.value(QStringLiteral("security_groups")).toArray();
            for (qsizetype i = 0; i < groups.size(); ++i) {
                QJsonObject g = groups.at(i).toObject();
                if (g.value(QStringLiteral("name")).toString() != group)
                    continue;
                QJsonArray rules = g.value(QStringLiteral("security_group_rules")).toArray();
                rules.append(QJsonObject { { QStringLiteral("id"), QStringLiteral("tcp-from-pods") },
                    { QStringLiteral("security_group_id"), g.value(QStringLiteral("id")) },
                    { QStringLiteral("direction"), QStringLiteral("ingress") },
                    { QStringLiteral("ethertype"), QStringLiteral("IPv4") },
                    { QStringLiteral("protocol"), QStringLiteral("tcp") },
                    { QStringLiteral("port_range_min"), QJsonValue() },
                    { QStringLiteral("port_range_max"), QJsonValue() },
                    { QStringLiteral("remote_ip_prefix"), clusterCidr },
                    { QStringLiteral("remote_group_id"), QJsonValue() } });
                g.insert(QStringLiteral("security_group_rules"), rules);
                groups[i] = g;
            }
            body.insert(QStringLiteral("security_groups"), groups);
            writeJson(dir.filePath(QStringLiteral("security-groups.json")), body);
        });
    QVERIFY(checkIncidents(half).isEmpty());
    expectIncidents(closed, half, { { QStringLiteral("resolved"), incidents.value(incident) } });
    const Run text = cli({ QStringLiteral("diff"), closed, half });
    QVERIFY2(text.out.contains(QStringLiteral("  - resolved  security-group-rule-missing:tcp")),
        qPrintable(text.out));
    QVERIFY(!text.out.contains(QStringLiteral("security-group-rule-missing:udp")));
}

QTEST_GUILESS_MAIN(TestCliDiff)
#include "tst_cli_diff.moc"
