#include "core/alerts.h"
#include "core/checkreport.h"
#include "core/diagnosis.h"
#include "core/findingtraits.h"
#include "core/json/jsonreader.h"
#include "core/json/jsonwriter.h"
#include "core/prometheustext.h"
#include "tests/common/worldbuilder.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

// The report of snapshot-format.md.
class TestCheckReport : public QObject
{
    Q_OBJECT
private slots:
    void jsonShape();
    void keyOrderFollowsTheFormat();
    void byteIdentical();
    void sortedBySeverityKindSubject();
    void exitStatus();
    void graverStatusOrdersAsMonitoringPluginsDo();
    void textGroupsBySeverity();
    void healthyText();
    void refusalInJson();
    void gateRefusalsInJson();
    void fullListPlansStayLinear();
    void writerStringsAsQtWritesThem();
    void incidentsInJsonAndText();
    void prometheusTextOfAFleet();
    void prometheusLabelValuesEscaped();
    void alertsParsed();
    void alertsRefusedWithTheirPath();
    void alertsOfTheirKlusterOnly();
    void alertsMatchedToFindings();
    void alertsInJsonAndText();
};

static WorldBuilder brokenWorld()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 3);
    w.healthyMember(
        QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), QStringLiteral("100.100.4.0/24"));
    w.route(QStringLiteral("100.100.9.0/24"), QStringLiteral("10.0.0.99")); // orphaned: warning
    w.route(QStringLiteral("100.100.4.0/24"), QStringLiteral("10.0.0.98")); // duplicate: critical
    w.server(QStringLiteral("kks-demo-pool-bbbbb"), QStringLiteral("10.0.0.5"), 15); // unregistered: warning
    w.server(QStringLiteral("kks-demo-pool-ccccc"), QStringLiteral("10.0.0.6"), 60, QStringLiteral("ERROR"));
    return w;
}

void TestCheckReport::jsonShape()
{
    const KlusterState s = brokenWorld().stateOpenFor(60);
    const Diagnosis d = Diagnosis::run(s);
    const QJsonObject o = QJsonDocument::fromJson(CheckReport::toJson(s, d)).object();
    QCOMPARE(o.value(QStringLiteral("kluster")).toString(), QStringLiteral("demo"));
    QCOMPARE(o.value(QStringLiteral("capturedAt")).toString(), QStringLiteral("2026-11-21T10:00:00Z"));
    QVERIFY(o.contains(QStringLiteral("phase"))); // always present
    QCOMPARE(o.value(QStringLiteral("phase")).toVariant(),
        s.kluster.phase.isEmpty() ? QVariant() : QVariant(s.kluster.phase));
    const QJsonArray findings = o.value(QStringLiteral("findings")).toArray();
    QCOMPARE(findings.size(), 4);
    for (const QJsonValue &v : findings) {
        QJsonObject f = v.toObject();
        // Who else repairs it, and when: only where an actor does (diagnosis.md §7).
        if (f.contains(QStringLiteral("automation"))) {
            const QJsonObject a = f.take(QStringLiteral("automation")).toObject();
            QCOMPARE(a.keys(),
                (QStringList { QStringLiteral("action"), QStringLiteral("actor"), QStringLiteral("due"),
                    QStringLiteral("overdue") }));
            QVERIFY(a.value(QStringLiteral("overdue")).isBool());
        }
        QCOMPARE(f.keys(),
            (QStringList { QStringLiteral("evidence"), QStringLiteral("id"), QStringLiteral("kind"),
                QStringLiteral("message"), QStringLiteral("repair"), QStringLiteral("severity"),
                QStringLiteral("subject") }));
        QCOMPARE(f.value(QStringLiteral("id")).toString(),
            f.value(QStringLiteral("kind")).toString() + QLatin1Char(':')
                + f.value(QStringLiteral("subject")).toString());
        const QJsonObject repair = f.value(QStringLiteral("repair")).toObject();
        // The deletions carry the budget's refusal (3 expected nodes, 1 Ready): what the gate refuses, a
        // script reads.
        if (repair.value(QStringLiteral("requests"))
                .toArray()
                .first()
                .toObject()
                .value(QStringLiteral("method"))
            == QLatin1String("DELETE")) {
            QCOMPARE(repair.keys(),
                (QStringList {
                    QStringLiteral("refusal"), QStringLiteral("requests"), QStringLiteral("title") }));
            QCOMPARE(
                repair.value(QStringLiteral("refusal")).toObject().value(QStringLiteral("reason")).toString(),
                QStringLiteral("TooManyUnhealthy"));
        } else {
            QCOMPARE(repair.keys(), (QStringList { QStringLiteral("requests"), QStringLiteral("title") }));
        }
        // Each request judged (diagnosis.md §8): this snapshot holds no token.json, so who acts is not known.
        for (const QJsonValue &r : repair.value(QStringLiteral("requests")).toArray()) {
            QCOMPARE(r.toObject().keys(),
                (QStringList { QStringLiteral("body"), QStringLiteral("headers"), QStringLiteral("method"),
                    QStringLiteral("path"), QStringLiteral("permission"), QStringLiteral("permissionReason"),
                    QStringLiteral("service") }));
            QCOMPARE(r.toObject().value(QStringLiteral("permission")).toString(), QStringLiteral("unknown"));
            QVERIFY(r.toObject()
                        .value(QStringLiteral("permissionReason"))
                        .toString()
                        .contains(QStringLiteral("token was not read")));
        }
    }
    const QJsonObject budget = o.value(QStringLiteral("budget")).toObject();
    QCOMPARE(budget.keys(),
        (QStringList { QStringLiteral("deletionsAllowed"), QStringLiteral("expected"),
            QStringLiteral("maxUnhealthy"), QStringLiteral("ready"), QStringLiteral("reason"),
            QStringLiteral("unhealthy") }));
    QCOMPARE(budget.value(QStringLiteral("expected")).toInt(), 3);
    QCOMPARE(budget.value(QStringLiteral("ready")).toInt(), 1);
    QCOMPARE(budget.value(QStringLiteral("unhealthy")).toInt(), 2);
    QCOMPARE(budget.value(QStringLiteral("maxUnhealthy")).toInt(), 1);
    QCOMPARE(budget.value(QStringLiteral("reason")).toString(), QStringLiteral("TooManyUnhealthy"));
    const QJsonObject summary = o.value(QStringLiteral("summary")).toObject();
    QCOMPARE(summary.value(QStringLiteral("critical")).toInt(), 2);
    QCOMPARE(summary.value(QStringLiteral("warning")).toInt(), 2);
    QCOMPARE(summary.value(QStringLiteral("info")).toInt(), 0);
}

void TestCheckReport::keyOrderFollowsTheFormat()
{
    const KlusterState s = brokenWorld().state();
    const QByteArray json = CheckReport::toJson(s, Diagnosis::run(s));
    auto pos = [&json](const char *key) { return json.indexOf(QByteArray(QByteArray("\"") + key + "\":")); };
    QVERIFY(pos("kluster") < pos("capturedAt"));
    QVERIFY(pos("capturedAt") < pos("findings"));
    QVERIFY(pos("findings") < pos("incidents"));
    QVERIFY(pos("incidents") < pos("budget"));
    QVERIFY(pos("budget") < pos("summary"));
    QVERIFY(pos("id") < pos("kind"));
    QVERIFY(pos("kind") < pos("subject"));
    QVERIFY(pos("severity") < pos("message"));
    QVERIFY(pos("message") < pos("evidence"));
    QVERIFY(pos("service") < pos("method"));
    QVERIFY(pos("method") < pos("path"));
    QVERIFY(json.endsWith("}\n"));
}

// diagnosis.md §5 in the report: "incidents" (here one: the kluster's group lacks two pod-network rules) with
// its keys in order, each member finding's "incident", and the text report leading with it.
void TestCheckReport::incidentsInJsonAndText()
{
    WorldBuilder w = brokenWorld();
    w.clearGroups();
    w.rule(w.group(QStringLiteral("kks-sg")), QStringLiteral("icmp"), QStringLiteral("100.100.0.0/16"));
    const KlusterState s = w.state();
    const Diagnosis d = Diagnosis::run(s);
    const QByteArray json = CheckReport::toJson(s, d);
    const QJsonObject o = QJsonDocument::fromJson(json).object();
    const QJsonArray incidents = o.value(QStringLiteral("incidents")).toArray();
    QCOMPARE(incidents.size(), 1);
    const QJsonObject i = incidents.first().toObject();
    QCOMPARE(i.value(QStringLiteral("id")).toString(), QStringLiteral("pod-network-closed:kks-sg"));
    QCOMPARE(i.value(QStringLiteral("rule")).toString(), QStringLiteral("pod-network-closed"));
    QCOMPARE(i.value(QStringLiteral("key")).toString(), QStringLiteral("kks-sg"));
    QCOMPARE(i.value(QStringLiteral("severity")).toString(), QStringLiteral("critical"));
    QCOMPARE(i.value(QStringLiteral("members")).toArray().size(), 2);
    QCOMPARE(
        i.value(QStringLiteral("repair")).toObject().value(QStringLiteral("requests")).toArray().size(), 2);
    const int at = int(json.indexOf("\"incidents\""));
    for (const char *key : { "\"id\"", "\"rule\"", "\"key\"", "\"severity\"", "\"title\"", "\"members\"" })
        QVERIFY2(json.indexOf(key, at) >= 0, key);
    QVERIFY(json.indexOf("\"rule\"", at) < json.indexOf("\"key\"", at));
    QVERIFY(json.indexOf("\"title\"", at) < json.indexOf("\"members\"", at));
    int marked = 0;
    for (const QJsonValue &v : o.value(QStringLiteral("findings")).toArray()) {
        const QJsonObject f = v.toObject();
        const bool member
            = f.value(QStringLiteral("kind")).toString() == QStringLiteral("security-group-rule-missing");
        QCOMPARE(f.value(QStringLiteral("incident")).toString(),
            member ? QStringLiteral("pod-network-closed:kks-sg") : QString());
        marked += member ? 1 : 0;
    }
    QCOMPARE(marked, 2);
    // None: "incidents": [] all the same.
    const KlusterState healthy = WorldBuilder().state();
    QVERIFY(CheckReport::toJson(healthy, Diagnosis::run(healthy)).contains("\"incidents\": []"));
    // The text report opens with it, its members under it.
    const QString text = CheckReport::toText(s, d);
    const int incident = int(text.indexOf(QStringLiteral("INCIDENT pod-network-closed:kks-sg")));
    QVERIFY2(incident > 0 && incident < text.indexOf(QStringLiteral("security-group-rule-missing:tcp")),
        qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("      CRITICAL  security-group-rule-missing:tcp")));
}

void TestCheckReport::byteIdentical()
{
    const KlusterState s = brokenWorld().state();
    const QByteArray a = CheckReport::toJson(s, Diagnosis::run(s));
    const QByteArray b = CheckReport::toJson(brokenWorld().state(), Diagnosis::run(brokenWorld().state()));
    QCOMPARE(a, b);
    QCOMPARE(CheckReport::toText(s, Diagnosis::run(s)), CheckReport::toText(s, Diagnosis::run(s)));
}

void TestCheckReport::sortedBySeverityKindSubject()
{
    const KlusterState s = brokenWorld().state();
    const Diagnosis d = Diagnosis::run(s);
    QStringList ids;
    for (const Finding &f : d.findings)
        ids << f.id();
    QCOMPARE(ids,
        (QStringList { QStringLiteral("instance-error:kks-demo-pool-ccccc"),
            QStringLiteral("route-duplicate:100.100.4.0/24"),
            QStringLiteral("instance-unregistered:kks-demo-pool-bbbbb"),
            QStringLiteral("route-orphaned:100.100.9.0/24 via 10.0.0.99") }));
}

void TestCheckReport::exitStatus()
{
    const KlusterState broken = brokenWorld().state();
    QCOMPARE(CheckReport::exitStatus(Diagnosis::run(broken)), 2);
    WorldBuilder warn;
    warn.server(QStringLiteral("kks-demo-pool-bbbbb"), QStringLiteral("10.0.0.5"), 15);
    QCOMPARE(CheckReport::exitStatus(Diagnosis::run(warn.state())), 1);
    QCOMPARE(CheckReport::exitStatus(Diagnosis::run(WorldBuilder().state())), 0);
}

void TestCheckReport::textGroupsBySeverity()
{
    const KlusterState s = brokenWorld().state();
    const QString text = QString::fromUtf8(CheckReport::toText(s, Diagnosis::run(s)));
    const qsizetype critical = text.indexOf(QStringLiteral("\nCRITICAL (2)\n"));
    const qsizetype warning = text.indexOf(QStringLiteral("\nWARNING (2)\n"));
    QVERIFY(critical > 0);
    QVERIFY(warning > critical);
    QVERIFY(text.indexOf(QStringLiteral("[CRITICAL] route-duplicate:100.100.4.0/24")) < warning);
    QVERIFY(text.contains(QStringLiteral("PUT network /v2.0/routers/")));
    QVERIFY(text.contains(QStringLiteral("Refused (TooManyUnhealthy, the remediation budget): ")));
    QVERIFY(text.contains(QStringLiteral("Summary: 2 critical, 2 warning, 0 info")));
}

void TestCheckReport::healthyText()
{
    const KlusterState s = WorldBuilder().state();
    QVERIFY(
        QString::fromUtf8(CheckReport::toText(s, Diagnosis::run(s))).contains(QStringLiteral("No findings")));
}

void TestCheckReport::refusalInJson()
{
    WorldBuilder w;
    w.atomicRoutes(false).routerRevision(-1); // no extraroute-atomic, no revision: no safe full-list PUT
    w.route(QStringLiteral("100.100.9.0/24"), QStringLiteral("10.0.0.99"));
    const KlusterState s = w.state();
    const QJsonObject o = QJsonDocument::fromJson(CheckReport::toJson(s, Diagnosis::run(s))).object();
    const QJsonObject repair = o.value(QStringLiteral("findings"))
                                   .toArray()
                                   .first()
                                   .toObject()
                                   .value(QStringLiteral("repair"))
                                   .toObject();
    QCOMPARE(repair.value(QStringLiteral("refusal")).toObject().value(QStringLiteral("reason")).toString(),
        QStringLiteral("NoRevision"));
}

// What the gate refuses is in the plan a script reads: a deletion in a zone that is down (ZoneDisruption),
// one past the remediation budget (TooManyUnhealthy), each with its override named; a deletion the gate lets
// through has none. The text report says the same.
void TestCheckReport::gateRefusalsInJson()
{
    const auto repairOf = [](const QByteArray &json, const QString &id) {
        for (const QJsonValue &f :
            QJsonDocument::fromJson(json).object().value(QStringLiteral("findings")).toArray()) {
            if (f.toObject().value(QStringLiteral("id")).toString() == id)
                return f.toObject().value(QStringLiteral("repair")).toObject();
        }
        return QJsonObject();
    };
    // Zone az-1 down (3 of 10 nodes, all of it), the budget still allowing deletions.
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 10);
    for (int n = 0; n < 10; ++n) {
        const QString name = QStringLiteral("kks-demo-pool-n%1xxx").arg(n);
        const QString ip = QStringLiteral("10.0.0.%1").arg(10 + n);
        const QString cidr = QStringLiteral("100.100.%1.0/24").arg(10 + n);
        const int s = w.server(name, ip, 600);
        const int k = w.node(name, ip, cidr, n < 3 ? QStringLiteral("Unknown") : QStringLiteral("True"));
        w.route(cidr, ip);
        w.inZone(s, k, n < 3 ? QStringLiteral("az-1") : QStringLiteral("az-2"));
    }
    w.inZone(w.server(QStringLiteral("kks-demo-pool-errax"), QStringLiteral("10.0.0.40"), 600,
                 QStringLiteral("ERROR")),
        -1, QStringLiteral("az-1"));
    w.inZone(w.server(QStringLiteral("kks-demo-pool-errbx"), QStringLiteral("10.0.0.41"), 600,
                 QStringLiteral("ERROR")),
        -1, QStringLiteral("az-2"));
    const KlusterState s = w.stateOpenFor(60); // flight overdue: its deletion is not waited for
    const Diagnosis d = Diagnosis::run(s);
    QVERIFY(d.budget.deletionsAllowed);
    const QByteArray json = CheckReport::toJson(s, d);
    const QJsonObject down = repairOf(json, QStringLiteral("instance-error:kks-demo-pool-errax"));
    QCOMPARE(down.value(QStringLiteral("requests"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(QStringLiteral("method"))
                 .toString(),
        QStringLiteral("DELETE"));
    const QJsonObject refusal = down.value(QStringLiteral("refusal")).toObject();
    QCOMPARE(refusal.value(QStringLiteral("reason")).toString(), QStringLiteral("ZoneDisruption"));
    QVERIFY(refusal.value(QStringLiteral("detail")).toString().contains(QStringLiteral("az-1")));
    QVERIFY(refusal.value(QStringLiteral("detail")).toString().contains(QStringLiteral("--override")));
    QVERIFY(!repairOf(json, QStringLiteral("instance-error:kks-demo-pool-errbx"))
                 .contains(QStringLiteral("refusal")));
    QVERIFY(
        CheckReport::toText(s, d).contains("Refused (ZoneDisruption, the remediation budget): zone az-1"));

    // Past the budget: 5 of 10 unhealthy (at most 4).
    WorldBuilder b;
    b.pool(QStringLiteral("pool"), 10);
    for (int n = 0; n < 5; ++n)
        b.healthyMember(QStringLiteral("kks-demo-pool-h%1xxx").arg(n),
            QStringLiteral("10.0.0.%1").arg(10 + n), QStringLiteral("100.100.%1.0/24").arg(10 + n));
    b.server(
        QStringLiteral("kks-demo-pool-errcx"), QStringLiteral("10.0.0.42"), 600, QStringLiteral("ERROR"));
    const KlusterState bs = b.state();
    const Diagnosis bd = Diagnosis::run(bs);
    QVERIFY(!bd.budget.deletionsAllowed);
    const QJsonObject budget
        = repairOf(CheckReport::toJson(bs, bd), QStringLiteral("instance-error:kks-demo-pool-errcx"))
              .value(QStringLiteral("refusal"))
              .toObject();
    QCOMPARE(budget.value(QStringLiteral("reason")).toString(), QStringLiteral("TooManyUnhealthy"));
    QVERIFY(!budget.value(QStringLiteral("detail")).toString().isEmpty());
}

void TestCheckReport::fullListPlansStayLinear()
{
    // A router without extraroute-atomic: each route finding's plan is the router's whole list.
    const auto world = [](int routes) {
        WorldBuilder w;
        w.pool(QStringLiteral("pool"), 1);
        w.atomicRoutes(false);
        for (int i = 0; i < routes; ++i)
            w.route(QStringLiteral("100.100.%1.%2/32").arg(i / 256).arg(i % 256),
                QStringLiteral("10.9.%1.%2").arg(i / 256).arg(i % 256 + 1));
        return w.state();
    };
    // A few hundred: every plan whole.
    {
        const KlusterState state = world(100);
        const Diagnosis d = Diagnosis::run(state);
        const QJsonObject report = QJsonDocument::fromJson(CheckReport::toJson(state, d)).object();
        const QJsonArray findings = report.value(QStringLiteral("findings")).toArray();
        int whole = 0;
        for (const QJsonValue &f : findings) {
            const QJsonObject repair = f.toObject().value(QStringLiteral("repair")).toObject();
            if (!repair.value(QStringLiteral("requests")).toArray().isEmpty())
                ++whole;
        }
        QCOMPARE(whole, 100);
    }
    // Thousands: the report holds no square of the count, says why, and no script can send what is withheld.
    {
        const KlusterState state = world(3000);
        const Diagnosis d = Diagnosis::run(state);
        QCOMPARE(d.count(Severity::Warning), 3000); // 3000 orphaned routes (and the route limit, critical)
        const QByteArray json = CheckReport::toJson(state, d);
        QVERIFY2(json.size() < 20 * 1024 * 1024, qPrintable(QString::number(json.size())));
        QJsonObject orphaned;
        for (const QJsonValue &f :
            QJsonDocument::fromJson(json).object().value(QStringLiteral("findings")).toArray()) {
            if (f.toObject().value(QStringLiteral("kind")).toString() == QLatin1String("route-orphaned"))
                orphaned = f.toObject();
        }
        const QJsonObject repair = orphaned.value(QStringLiteral("repair")).toObject();
        QVERIFY(repair.value(QStringLiteral("requests")).toArray().isEmpty());
        QCOMPARE(
            repair.value(QStringLiteral("refusal")).toObject().value(QStringLiteral("reason")).toString(),
            QStringLiteral("TooLarge"));
        QVERIFY(repair.value(QStringLiteral("refusal"))
                    .toObject()
                    .value(QStringLiteral("detail"))
                    .toString()
                    .contains(QStringLiteral("flightdeck-cli repair --finding")));
        const QByteArray text = CheckReport::toText(state, d);
        QVERIFY(text.size() < 20 * 1024 * 1024);
        QVERIFY(text.contains("TooLarge"));
        // The finding's own plan, asked for alone, is whole.
        QCOMPARE(d.findings.last()
                     .repair()
                     ->requests.first()
                     .body.toObject()
                     .value(QStringLiteral("router"))
                     .toObject()
                     .value(QStringLiteral("routes"))
                     .toArray()
                     .size(),
            2999);
    }
}

// Every string the writer copies as it is (checked four UTF-16 code units at a time) or escapes gives the
// bytes QJsonDocument gives: each character that needs escaping or is not ASCII, at every position of
// strings of 0 to 11 characters, among plain ones.
void TestCheckReport::writerStringsAsQtWritesThem()
{
    const QList<QChar> specials = { QChar(u'"'), QChar(u'\\'), QChar(0x00), QChar(0x01), QChar(u'\n'),
        QChar(u'\t'), QChar(0x1F), QChar(u' '), QChar(0x7E), QChar(0x7F), QChar(0x80), QChar(0xE9),
        QChar(0x2028), QChar(0xFFFF), QChar(u'!'), QChar(u'#'), QChar(u'['), QChar(u']') };
    QStringList strings = { QString(), QStringLiteral("\U0001F680 launch") };
    for (int length = 1; length <= 11; ++length) {
        for (int at = 0; at < length; ++at) {
            for (QChar special : specials) {
                QString s(length, QLatin1Char('a' + at));
                s[at] = special;
                strings << s;
            }
        }
    }
    for (const QString &s : std::as_const(strings)) {
        JsonWriter writer(JsonWriter::Style::Compact);
        writer.beginArray();
        writer.value(s);
        writer.endArray();
        const QByteArray expected = QJsonDocument(QJsonArray { s }).toJson(QJsonDocument::Compact);
        QCOMPARE(writer.takeBytes(), expected);
    }
}

void TestCheckReport::graverStatusOrdersAsMonitoringPluginsDo()
{
    // critical, then unknown, then warning, then ok; whichever order they come in.
    const QList<int> gravity = { 2, 3, 1, 0 };
    for (int i = 0; i < gravity.size(); ++i) {
        for (int j = 0; j < gravity.size(); ++j) {
            const int expected = gravity[qMin(i, j)];
            QCOMPARE(CheckReport::graverStatus(gravity[i], gravity[j]), expected);
        }
    }
}

void TestCheckReport::prometheusTextOfAFleet()
{
    const KlusterState broken = brokenWorld().state();
    const Diagnosis brokenDiagnosis = Diagnosis::run(broken);
    PrometheusText::Kluster demo;
    demo.name = QStringLiteral("demo");
    demo.projectId = QStringLiteral("p1");
    demo.up = true;
    demo.state = &broken;
    demo.diagnosis = &brokenDiagnosis;
    demo.checkSeconds = 0.25;
    demo.readAt = QDateTime(QDate(2026, 11, 21), QTime(10, 0), Qt::UTC);
    demo.oldestOpenSince = demo.readAt.addSecs(-600);
    PrometheusText::Kluster down;
    down.name = QStringLiteral("down");
    down.projectId = QStringLiteral("p1");
    PrometheusText::Options options;
    options.nodeSeries = 1;
    const QString text = QString::fromUtf8(PrometheusText::write({ demo, down }, options));
    // Byte-identical for the same input.
    QCOMPARE(PrometheusText::write({ demo, down }, options), text.toUtf8());
    const QStringList lines = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY(lines.contains(QStringLiteral("flightdeck_klusters 2")));
    QVERIFY(lines.contains(QStringLiteral("flightdeck_up{kluster_name=\"demo\",project_id=\"p1\"} 1")));
    QVERIFY(lines.contains(QStringLiteral("flightdeck_up{kluster_name=\"down\",project_id=\"p1\"} 0")));
    QVERIFY(lines.contains(
        QStringLiteral("flightdeck_check_duration_seconds{kluster_name=\"demo\",project_id=\"p1\"} 0.250")));
    QVERIFY(lines.contains(QStringLiteral("flightdeck_findings{kluster_name=\"demo\",project_id=\"p1\",kind="
                                          "\"route-duplicate\",severity=\"critical\"} 1")));
    QVERIFY(lines.contains(QStringLiteral("flightdeck_findings{kluster_name=\"demo\",project_id=\"p1\",kind="
                                          "\"route-orphaned\",severity=\"warning\"} 1")));
    QVERIFY(lines.contains(QStringLiteral("flightdeck_findings{kluster_name=\"demo\",project_id=\"p1\",kind="
                                          "\"node-not-ready\",severity=\"critical\"} 0")));
    QVERIFY(lines.contains(QStringLiteral("flightdeck_last_success_timestamp_seconds{kluster_name=\"demo\","
                                          "project_id=\"p1\"} 1795255200.000")));
    QVERIFY(lines.contains(QStringLiteral("flightdeck_oldest_open_finding_start_timestamp_seconds{kluster_"
                                          "name=\"demo\",project_id=\"p1\"} 1795254600.000")));
    // Every kind with every severity, every rule with two: for the kluster read, none for the one not read.
    QCOMPARE(lines.filter(QStringLiteral("flightdeck_findings{kluster_name=\"demo\"")).size(),
        FindingKindCount * 3);
    QCOMPARE(lines.filter(QStringLiteral("flightdeck_incidents{kluster_name=\"demo\"")).size(),
        incidentRules().size() * 2);
    QVERIFY(lines.filter(QStringLiteral("kluster_name=\"down\"")).size() == 1);
    // The sum of the findings series is the diagnosis' count.
    int sum = 0;
    for (const QString &l : lines.filter(QStringLiteral("flightdeck_findings{kluster_name=\"demo\"")))
        sum += l.section(QLatin1Char(' '), -1).toInt();
    QCOMPARE(sum, int(brokenDiagnosis.findings.size()));
    // Each family once, its HELP and TYPE before its samples; node series capped, the cut counted.
    QCOMPARE(lines.filter(QStringLiteral("# TYPE flightdeck_findings gauge")).size(), 1);
    QCOMPARE(lines.filter(QStringLiteral("flightdeck_node_ready{")).size(), 1);
    QVERIFY(lines.contains(QStringLiteral("flightdeck_node_series_omitted 0")) == (broken.nodes.size() <= 1));
    QVERIFY(!text.contains(QStringLiteral("flightdeck_refreshes_total"))); // the exporter's alone
}

void TestCheckReport::prometheusLabelValuesEscaped()
{
    QCOMPARE(PrometheusText::escapeLabelValue(QStringLiteral("a\"b\\c\nd")), QByteArray("a\\\"b\\\\c\\nd"));
    // A terminal's escape from a name of the cloud goes nowhere.
    QCOMPARE(PrometheusText::escapeLabelValue(QStringLiteral("a\x1b[2Jb")), QByteArray("a\xEF\xBF\xBD[2Jb"));
    PrometheusText::Kluster odd;
    odd.name = QStringLiteral("we\"ird\nname");
    const QByteArray text = PrometheusText::write({ odd }, {});
    QVERIFY(text.contains("flightdeck_up{kluster_name=\"we\\\"ird\\nname\",project_id=\"\"} 0\n"));
}

// As Alertmanager 0.25 answers GET /api/v2/alerts (fractional seconds, receivers, updatedAt: ignored).
static QByteArray alertBody(const QString &labels,
    const QString &startsAt = QStringLiteral("2026-11-21T09:30:00.123Z"),
    const QString &fingerprint = QStringLiteral("2e5d43669cf8089d"), const QString &silencedBy = QString())
{
    return QStringLiteral(R"({"annotations":{"summary":"a summary"},"endsAt":"2026-11-21T10:05:00.000Z",)"
                          R"("fingerprint":"%1","receivers":[{"name":"none"}],"startsAt":"%2",)"
                          R"("status":{"inhibitedBy":[],"silencedBy":[%3],"state":"%4"},)"
                          R"("updatedAt":"2026-11-21T10:00:00.000Z","labels":{%5}})")
        .arg(fingerprint, startsAt.isEmpty() ? QStringLiteral("2026-11-21T09:30:00.123Z") : startsAt,
            silencedBy.isEmpty() ? QString() : QLatin1Char('"') + silencedBy + QLatin1Char('"'),
            silencedBy.isEmpty() ? QStringLiteral("active") : QStringLiteral("suppressed"), labels)
        .toUtf8();
}

static QList<Alert> alerts(const QList<QByteArray> &bodies)
{
    QByteArray array = "[";
    for (const QByteArray &b : bodies)
        array += (array.size() > 1 ? "," : "") + b;
    return Alerts::parse(QStringLiteral("alerts"), array + "]");
}

void TestCheckReport::alertsParsed()
{
    const QList<Alert> list
        = alerts({ alertBody(R"("alertname":"KubeNodeNotReady","kluster_name":"demo","severity":"warning")"),
            alertBody(
                R"("alertname":"X","kluster_name":"demo")", "2026-11-21T09:00:00Z", "ff", "silence-1") });
    QCOMPARE(list.size(), 2);
    QCOMPARE(list.at(0).name(), QStringLiteral("KubeNodeNotReady"));
    QCOMPARE(list.at(0).severity(), QStringLiteral("warning"));
    QCOMPARE(list.at(0).summary(), QStringLiteral("a summary"));
    QCOMPARE(list.at(0).startsAt, QDateTime(QDate(2026, 11, 21), QTime(9, 30, 0, 123), Qt::UTC));
    QCOMPARE(list.at(0).state, AlertState::Active);
    QVERIFY(!list.at(0).silenced());
    QCOMPARE(list.at(1).state, AlertState::Suppressed);
    QCOMPARE(list.at(1).silencedBy, QStringList { QStringLiteral("silence-1") });
    QVERIFY(list.at(1).silenced());
    QCOMPARE(Alerts::parse(QStringLiteral("alerts"), "[]").size(), 0);
    // A description's first line stands in for a missing summary, the name for both.
    Alert bare;
    bare.labels.insert(QStringLiteral("alertname"), QStringLiteral("Bare"));
    QCOMPARE(bare.summary(), QStringLiteral("Bare"));
    bare.annotations.insert(QStringLiteral("description"), QStringLiteral("first line\nsecond"));
    QCOMPARE(bare.summary(), QStringLiteral("first line"));
}

void TestCheckReport::alertsRefusedWithTheirPath()
{
    const auto refusal = [](const QByteArray &body) {
        try {
            Alerts::parse(QStringLiteral("its alerts"), body);
        } catch (const ParseError &e) {
            return e.toString();
        }
        return QString();
    };
    QVERIFY2(refusal("{\"data\": []}").contains(QStringLiteral("expected a JSON array")),
        qPrintable(refusal("{}")));
    QVERIFY(refusal("<html><body>502 Bad Gateway</body></html>").contains(QStringLiteral("HTML")));
    QVERIFY(refusal("[{\"fingerprint\": \"a\"").contains(QStringLiteral("truncated")));
    QVERIFY(refusal("[{\"fingerprint\":\"a\",\"labels\":{},\"startsAt\":\"2026-11-21T09:00:00Z\"}]")
                .contains(QStringLiteral("$[0].status")));
    QVERIFY(refusal("[{\"fingerprint\":\"a\",\"labels\":{},\"startsAt\":\"yesterday\",\"status\":{\"state\":"
                    "\"active\"}}]")
                .contains(QStringLiteral("$[0].startsAt")));
    QVERIFY(refusal("[{\"fingerprint\":\"a\",\"labels\":{\"x\":1},\"startsAt\":\"2026-11-21T09:00:00Z\","
                    "\"status\":{\"state\":\"active\"}}]")
                .contains(QStringLiteral("$[0].labels.x")));
    QVERIFY(refusal("[{\"fingerprint\":\"a\",\"labels\":{},\"startsAt\":\"2026-11-21T09:00:00Z\",\"status\":{"
                    "\"state\":\"firing\"}}]")
                .contains(QStringLiteral("not active, suppressed or unprocessed")));
}

// Never another kluster's: the first kluster label the alert has names it, and its project, where it says
// one.
void TestCheckReport::alertsOfTheirKlusterOnly()
{
    const QStringList labels = Alerts::defaultKlusterLabels();
    const QList<Alert> list = alerts({
        alertBody(R"("alertname":"A","kluster_name":"demo")", "2026-11-21T09:40:00Z", "a"),
        alertBody(R"("alertname":"B","kluster":"demo")", "2026-11-21T09:10:00Z", "b"),
        alertBody(R"("alertname":"C","kluster_name":"blue","kluster":"demo")", "2026-11-21T09:00:00Z", "c"),
        alertBody(
            R"("alertname":"D","kluster_name":"demo","project_id":"other")", "2026-11-21T09:00:00Z", "d"),
        alertBody(R"("alertname":"E","kluster_name":"demo","project_id":"p1")", "2026-11-21T09:40:00Z", "0e"),
        alertBody(R"("alertname":"F","kluster_name":"demo-2")", "2026-11-21T09:00:00Z", "f"),
        alertBody(R"("alertname":"A","kluster_name":"demo")", "2026-11-21T09:40:00Z", "a"), // the same twice
    });
    QStringList names;
    for (const Alert &a : Alerts::ofKluster(list, labels, QStringLiteral("demo"), QStringLiteral("p1")))
        names.append(a.name());
    QCOMPARE(names,
        (QStringList {
            QStringLiteral("B"), QStringLiteral("E"), QStringLiteral("A") })); // by start, fingerprint
    QCOMPARE(Alerts::ofKluster(list, labels, QStringLiteral("blue"), QStringLiteral("p1")).size(), 1);
    QCOMPARE(
        Alerts::ofKluster(list, { QStringLiteral("kluster") }, QStringLiteral("demo"), QStringLiteral("p1"))
            .size(),
        2);
    QCOMPARE(Alerts::ofKluster(list, labels, QString(), QString()).size(), 0);
}

void TestCheckReport::alertsMatchedToFindings()
{
    WorldBuilder w = brokenWorld();
    const KlusterState s = w.state();
    const Diagnosis d = Diagnosis::run(s);
    const QString router = s.router.id;
    QList<Alert> list = alerts({
        alertBody(R"("alertname":"FlightdeckCriticalFinding","kind":"instance-error","severity":"critical")",
            {}, "1"),
        alertBody(
            R"("alertname":"FlightdeckCriticalFinding","kind":"instance-unregistered","severity":"critical")",
            {}, "2"),
        alertBody(R"("alertname":"NodeDown","instance":"kks-demo-pool-bbbbb:9100")", {}, "3"),
        alertBody(QStringLiteral(R"("alertname":"FlightdeckRouterNearLimit","router_id":"%1")").arg(router),
            {}, "4"),
        alertBody(R"("alertname":"KubeAPIErrorsHigh","kluster_name":"demo")", {}, "5"),
        alertBody(R"("alertname":"ByKind","kind":"route-duplicate","subject":"100.100.4.0/24")", {}, "6"),
        alertBody(R"("alertname":"ByKind","kind":"route-duplicate","subject":"100.100.5.0/24")", {}, "7"),
    });
    Alerts::matchFindings(list, s, d);
    QCOMPARE(list.at(0).findings, QStringList { QStringLiteral("instance-error:kks-demo-pool-ccccc") });
    QCOMPARE(list.at(1).findings, QStringList()); // the unregistered one is a warning: not this alert's
    QCOMPARE(
        list.at(2).findings, QStringList { QStringLiteral("instance-unregistered:kks-demo-pool-bbbbb") });
    QCOMPARE(list.at(3).findings.size(), 2); // both route findings
    for (const QString &id : list.at(3).findings)
        QVERIFY(id.startsWith(QStringLiteral("route-")));
    QCOMPARE(list.at(4).findings, QStringList());
    QCOMPARE(list.at(5).findings, QStringList { QStringLiteral("route-duplicate:100.100.4.0/24") });
    QCOMPARE(list.at(6).findings, QStringList()); // a subject that is none of the duplicates'
    QCOMPARE(Alerts::unexplainedCount(list), 3);
    const QStringList uncovered = Alerts::uncoveredCriticalFindings(list, d);
    QCOMPARE(uncovered.size(), 0); // instance-error by 1, the duplicate route by 4
    list.removeAt(5); // the duplicate's own alert
    list.removeAt(3); // the router's
    QCOMPARE(Alerts::uncoveredCriticalFindings(list, d).size(), 1);
    QVERIFY(
        Alerts::uncoveredCriticalFindings(list, d).first().startsWith(QStringLiteral("route-duplicate:")));
}

void TestCheckReport::alertsInJsonAndText()
{
    const KlusterState s = brokenWorld().state();
    const Diagnosis d = Diagnosis::run(s);
    // No Alertmanager: no key, no section.
    QVERIFY(!CheckReport::toJson(s, d).contains("\"alerts\""));
    QVERIFY(!CheckReport::toText(s, d).contains("Alert"));

    KlusterAlerts unread;
    unread.configured = true;
    unread.error = QStringLiteral("Alertmanager http://127.0.0.1:9: connection refused");
    QCOMPARE(
        QJsonDocument::fromJson(CheckReport::toJson(s, d, unread)).object().value(QStringLiteral("alerts")),
        QJsonValue());
    QVERIFY(CheckReport::toJson(s, d, unread).contains("\"alerts\": null"));
    QVERIFY(CheckReport::toText(s, d, unread)
                .contains("Alerts: not read (Alertmanager http://127.0.0.1:9: connection refused)"));

    KlusterAlerts read;
    read.configured = true;
    read.known = true;
    read.alerts = alerts(
        { alertBody(
              R"("alertname":"FlightdeckCriticalFinding","kind":"instance-error","kluster_name":"demo")", {},
              "1"),
            alertBody(R"("alertname":"KubeAPIErrorsHigh","kluster_name":"demo","severity":"warning")", {},
                "2", "s-1") });
    Alerts::matchFindings(read.alerts, s, d);
    const QByteArray json = CheckReport::toJson(s, d, read);
    auto pos = [&json](const char *key) { return json.indexOf(QByteArray(QByteArray("\"") + key + "\":")); };
    QVERIFY(pos("incidents") < pos("alerts"));
    QVERIFY(pos("alerts") < pos("budget"));
    const QJsonArray a = QJsonDocument::fromJson(json).object().value(QStringLiteral("alerts")).toArray();
    QCOMPARE(a.size(), 2);
    const QJsonObject first = a.at(0).toObject();
    QCOMPARE(first.keys(),
        (QStringList { QStringLiteral("annotations"), QStringLiteral("findings"), QStringLiteral("labels"),
            QStringLiteral("silencedBy"), QStringLiteral("startsAt"), QStringLiteral("state") }));
    QCOMPARE(first.value(QStringLiteral("startsAt")).toString(), QStringLiteral("2026-11-21T09:30:00Z"));
    QCOMPARE(first.value(QStringLiteral("findings")).toArray().first().toString(),
        QStringLiteral("instance-error:kks-demo-pool-ccccc"));
    QCOMPARE(a.at(1).toObject().value(QStringLiteral("silencedBy")).toArray().first().toString(),
        QStringLiteral("s-1"));
    QCOMPARE(a.at(1).toObject().value(QStringLiteral("state")).toString(), QStringLiteral("suppressed"));
    QCOMPARE(CheckReport::toJson(s, d, read), json); // the same bytes for the same input

    const QString text = QString::fromUtf8(CheckReport::toText(s, d, read));
    QVERIFY2(text.contains(QStringLiteral("Alerts in Alertmanager: 2, 1 that no finding explains")),
        qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("-> instance-error:kks-demo-pool-ccccc")));
    QVERIFY(text.contains(QStringLiteral("KubeAPIErrorsHigh (silenced, since 2026-11-21T09:30:00Z)")));
    QVERIFY(text.contains(QStringLiteral("-> no finding explains it")));
    QVERIFY(text.contains(
        QStringLiteral("Critical findings no alert covers (a gap in the monitoring): route-duplicate:")));
}

QTEST_GUILESS_MAIN(TestCheckReport)
#include "tst_checkreport.moc"
