// The fleet as the team's Prometheus holds it (core/exportedfleet.h), from hand-written answers of its HTTP
// API (/api/v1/query, the shape Prometheus 2.42 sends: {"status", "data": {"resultType", "result":
// [{"metric", "value": [time, "text"]}]}}): a round's three answers assembled into klusters worst first, an
// HA pair once, shards joined, an exporter no longer scraped held stale, a kluster an exporter no longer
// exports gone.
#include "core/exportedfleet.h"
#include "core/exporterreport.h"
#include "core/json/jsonreader.h"

#include <QTest>

using namespace ExportedFleet;

class TestExportedFleet : public QObject
{
    Q_OBJECT

private slots:
    void vectorRead();
    void answersRefused_data();
    void answersRefused();
    void klustersWorstFirstWithTheirCauses();
    void anHaPairIsOneKluster();
    void anHaPairWithOneStoppedIsOneExporter();
    void shardsJoinIntoOneFleet();
    void aStoppedExporterLeavesItsKlustersStale();
    void aKlusterNoLongerExportedIsGone();
    void aRegionLabelTellsKlustersApart();
    void theQueriesAreFew();
    void anExportersReportRead();
    void reportsRefused_data();
    void reportsRefused();
    void theExporterFoundInPrometheusTargets();
};

namespace {

constexpr double now = 1764507600; // 2025-11-30T13:00:00Z: any fixed time

// A vector answer of `samples`, each "labels as JSON|value".
QByteArray vector(const QStringList &samples)
{
    QStringList items;
    for (const QString &s : samples) {
        const QString labels = s.section(QLatin1Char('|'), 0, 0);
        const QString value = s.section(QLatin1Char('|'), 1);
        items << QStringLiteral(R"({"metric":%1,"value":[%2,"%3"]})")
                     .arg(labels)
                     .arg(now, 0, 'f', 3)
                     .arg(value);
    }
    return QStringLiteral(R"({"status":"success","data":{"resultType":"vector","result":[%1]}})")
        .arg(items.join(QLatin1Char(',')))
        .toUtf8();
}

// The current series of one kluster from `instance`: up, read at, causes, worst cause, phase, incidents.
QStringList kluster(const QString &instance, const QString &name, int critical, int warning,
    const QString &cause = QString(), int rank = 0, double readAt = now - 30, bool up = true,
    const QString &extra = QString())
{
    const QString base
        = QStringLiteral(R"("instance":"%1","job":"flightdeck","kluster_name":"%2","project_id":"p1"%3)")
              .arg(instance, name, extra);
    QStringList out;
    out << QStringLiteral(R"({"__name__":"flightdeck_up",%1,"series":"up"}|%2)").arg(base).arg(up ? 1 : 0);
    out << QStringLiteral(
        R"({"__name__":"flightdeck_last_success_timestamp_seconds",%1,"series":"last_success_timestamp_seconds"}|%2)")
               .arg(base)
               .arg(readAt, 0, 'f', 3);
    out << QStringLiteral(R"({"__name__":"flightdeck_causes",%1,"series":"causes","severity":"critical"}|%2)")
               .arg(base)
               .arg(critical);
    out << QStringLiteral(R"({"__name__":"flightdeck_causes",%1,"series":"causes","severity":"warning"}|%2)")
               .arg(base)
               .arg(warning);
    if (!cause.isEmpty())
        out << QStringLiteral(
            R"({"__name__":"flightdeck_worst_cause_rank",%1,"series":"worst_cause_rank","cause":"%2","severity":"%3"}|%4)")
                   .arg(base, cause, critical > 0 ? QStringLiteral("critical") : QStringLiteral("warning"))
                   .arg(rank);
    out << QStringLiteral(
        R"({"__name__":"flightdeck_kluster_phase",%1,"series":"kluster_phase","phase":"Running"}|1)")
               .arg(base);
    out << QStringLiteral(R"({%1,"series":"incidents"}|%2)").arg(base).arg(critical > 0 ? 1 : 0);
    return out;
}

// The held answer's form of the same: no __name__ (last_over_time drops it).
QStringList held(const QStringList &current)
{
    QStringList out;
    for (QString s : current)
        out << s.remove(QRegularExpression(QStringLiteral(R"("__name__":"[a-z_]+",)")));
    return out;
}

QStringList exporter(
    const QString &instance, bool up, double seen = now - 2, const QString &shard = QString())
{
    QStringList out;
    out << QStringLiteral(R"({"instance":"%1","job":"flightdeck","series":"up"}|%2)")
               .arg(instance)
               .arg(up ? 1 : 0);
    out << QStringLiteral(R"({"instance":"%1","job":"flightdeck","series":"seen"}|%2)")
               .arg(instance)
               .arg(seen, 0, 'f', 3);
    if (!shard.isEmpty())
        out << QStringLiteral(
            R"({"instance":"%1","job":"flightdeck","series":"shard","shard":"%2","shards":"%3"}|1)")
                   .arg(instance, shard.section(QLatin1Char('/'), 0, 0), shard.section(QLatin1Char('/'), 1));
    return out;
}

Fleet fleetOf(const QStringList &current, const QStringList &heldSeries, const QStringList &exporters)
{
    // As Prometheus answers them: the current series by their names alone, the incidents' sum in its own.
    QStringList named;
    QStringList incidents;
    for (QString s : current) {
        if (s.contains(QStringLiteral(R"("series":"incidents")")))
            incidents << s.remove(QStringLiteral(R"(,"series":"incidents")"));
        else
            named << s.remove(QRegularExpression(QStringLiteral(R"(,"series":"[a-z_]+")")));
    }
    QList<QList<Sample>> answers;
    answers << parseVector(vector(named), QStringLiteral("current"));
    answers << parseVector(vector(incidents), QStringLiteral("incidents"));
    answers << parseVector(vector(heldSeries), QStringLiteral("held"));
    answers << parseVector(vector(exporters), QStringLiteral("exporters"));
    return assemble(answers);
}

QStringList names(const Fleet &fleet)
{
    QStringList out;
    for (const Kluster &k : fleet.klusters)
        out << k.name;
    return out;
}

} // namespace

void TestExportedFleet::vectorRead()
{
    const QList<Sample> samples = parseVector(
        R"({"status":"success","data":{"resultType":"vector","result":[
            {"metric":{"__name__":"flightdeck_up","kluster_name":"a"},"value":[1764507600.123,"1"]},
            {"metric":{},"value":[1764507600.123,"NaN"]},
            {"metric":{"x":"y"},"value":[1764507600.123,"+Inf"]}]}})",
        QStringLiteral("q"));
    QCOMPARE(samples.size(), 3);
    QCOMPARE(samples.at(0).labels.value(QStringLiteral("kluster_name")), QStringLiteral("a"));
    QCOMPARE(samples.at(0).value, 1.0);
    QCOMPARE(samples.at(0).timestamp, 1764507600.123);
    QVERIFY(std::isnan(samples.at(1).value));
    QVERIFY(std::isinf(samples.at(2).value));
    QVERIFY(
        parseVector(R"({"status":"success","data":{"resultType":"vector","result":[]}})", QStringLiteral("q"))
            .isEmpty());
}

void TestExportedFleet::answersRefused_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("says");
    QTest::newRow("an error answer")
        << QByteArray(R"({"status":"error","errorType":"bad_data","error":"1:1: parse error: unexpected"})")
        << QStringLiteral("Prometheus answered error: 1:1: parse error: unexpected [bad_data]");
    QTest::newRow("a matrix") << QByteArray(
        R"({"status":"success","data":{"resultType":"matrix","result":[]}})")
                              << QStringLiteral("a matrix, not a vector");
    QTest::newRow("an HTML page") << QByteArray("<html><title>502 Bad Gateway</title></html>")
                                  << QStringLiteral("it looks like an HTML or XML page");
    QTest::newRow("truncated") << QByteArray(
        R"({"status":"success","data":{"resultType":"vector","result":[{"me)")
                               << QStringLiteral("not valid JSON");
    QTest::newRow("a value that is no pair") << QByteArray(
        R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1]}]}})")
                                             << QStringLiteral("not [time, \"value\"]");
    QTest::newRow("a value that is no number") << QByteArray(
        R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,"one"]}]}})")
                                               << QStringLiteral("not a number");
    QTest::newRow("a label that is no string") << QByteArray(
        R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{"a":1},"value":[1,"1"]}]}})")
                                               << QStringLiteral("label a is not a string");
    QTest::newRow("no data") << QByteArray(R"({"status":"success"})") << QStringLiteral("data");
}

void TestExportedFleet::answersRefused()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, says);
    try {
        parseVector(body, QStringLiteral("the query current"));
        QFAIL("read");
    } catch (const ParseError &e) {
        QVERIFY2(e.toString().contains(says), qPrintable(e.toString()));
        QVERIFY2(e.toString().contains(QStringLiteral("the query current")), qPrintable(e.toString()));
    }
}

void TestExportedFleet::klustersWorstFirstWithTheirCauses()
{
    const QString e = QStringLiteral("127.0.0.1:9473");
    const Fleet fleet = fleetOf(kluster(e, QStringLiteral("healthy"), 0, 0)
            + kluster(e, QStringLiteral("warned"), 0, 2, QStringLiteral("route-orphaned"), 5)
            + kluster(e, QStringLiteral("broken"), 1, 1, QStringLiteral("pod-network-closed"), 0),
        {}, exporter(e, true));
    QCOMPARE(names(fleet), (QStringList { "broken", "warned", "healthy" }));
    const Kluster &broken = fleet.klusters.at(0);
    QCOMPARE(broken.reading, Reading::Fresh);
    QCOMPARE(broken.standing.worst, std::optional<Severity>(Severity::Critical));
    QCOMPARE(broken.standing.critical, 1);
    QCOMPARE(broken.standing.warning, 1);
    QCOMPARE(broken.standing.worstCause, QStringLiteral("pod-network-closed"));
    QCOMPARE(broken.standing.reason, QStringLiteral("pod network closed"));
    QCOMPARE(broken.phase, QStringLiteral("Running"));
    QCOMPARE(broken.readAt->toSecsSinceEpoch(), qint64(now - 30));
    QCOMPARE(broken.standing.incidents, 1); // from the incidents' own answer
    QCOMPARE(broken.standing.lone, 1);
    QCOMPARE(broken.exporter, e);
    QCOMPARE(fleet.klusters.at(2).standing.worst, std::nullopt);
    QCOMPARE(fleet.exporters.size(), 1);
    QCOMPARE(fleet.exporters.at(0).klusters, 3);
    QCOMPARE(fleet.evaluatedAt.toSecsSinceEpoch(), qint64(now));
    QCOMPARE(fleet.duplicates, 0);
}

void TestExportedFleet::anHaPairIsOneKluster()
{
    const QString a = QStringLiteral("a:9473");
    const QString b = QStringLiteral("b:9473");
    // b read it later, and found it worse: b's is shown, once.
    const Fleet fleet
        = fleetOf(kluster(a, QStringLiteral("k"), 0, 1, QStringLiteral("route-orphaned"), 5, now - 40)
                + kluster(b, QStringLiteral("k"), 1, 0, QStringLiteral("node-never-registered"), 1, now - 10),
            {}, exporter(a, true) + exporter(b, true));
    QCOMPARE(fleet.klusters.size(), 1);
    QCOMPARE(fleet.duplicates, 1);
    QCOMPARE(fleet.klusters.at(0).exporters, 2);
    QCOMPARE(fleet.klusters.at(0).exporter, b);
    QCOMPARE(fleet.klusters.at(0).standing.critical, 1);
}

void TestExportedFleet::anHaPairWithOneStoppedIsOneExporter()
{
    const QString a = QStringLiteral("a:9473");
    const QString b = QStringLiteral("b:9473");
    const Fleet fleet = fleetOf(kluster(a, QStringLiteral("k"), 0, 0),
        held(kluster(b, QStringLiteral("k"), 0, 0, QString(), 0, now - 600)),
        exporter(a, true) + exporter(b, false, now - 590));
    QCOMPARE(fleet.klusters.size(), 1);
    QCOMPARE(fleet.klusters.at(0).exporter, a);
    QCOMPARE(fleet.klusters.at(0).exporters, 1); // b gives it no more
    QCOMPARE(fleet.klusters.at(0).reading, Reading::Fresh);
    QCOMPARE(fleet.duplicates, 0);
}

void TestExportedFleet::shardsJoinIntoOneFleet()
{
    const QString a = QStringLiteral("a:9473");
    const QString b = QStringLiteral("b:9473");
    const Fleet fleet = fleetOf(kluster(a, QStringLiteral("one"), 0, 0)
            + kluster(b, QStringLiteral("two"), 0, 0) + kluster(b, QStringLiteral("three"), 0, 0),
        {},
        exporter(a, true, now - 2, QStringLiteral("0/2"))
            + exporter(b, true, now - 2, QStringLiteral("1/2")));
    QCOMPARE(fleet.klusters.size(), 3);
    QCOMPARE(fleet.duplicates, 0);
    QCOMPARE(fleet.exporters.size(), 2);
    QCOMPARE(fleet.exporters.at(0).shard, std::optional<int>(0));
    QCOMPARE(fleet.exporters.at(1).shards, std::optional<int>(2));
    QCOMPARE(fleet.exporters.at(0).klusters + fleet.exporters.at(1).klusters, 3);
}

void TestExportedFleet::aStoppedExporterLeavesItsKlustersStale()
{
    const QString a = QStringLiteral("a:9473");
    const QString b = QStringLiteral("b:9473");
    // b is no longer scraped: its klusters come from the look-back, and say so.
    const Fleet fleet = fleetOf(kluster(a, QStringLiteral("one"), 0, 0),
        held(kluster(b, QStringLiteral("two"), 1, 0, QStringLiteral("route-missing"), 2, now - 600)),
        exporter(a, true) + exporter(b, false, now - 590));
    QCOMPARE(names(fleet), (QStringList { "two", "one" }));
    QCOMPARE(fleet.duplicates, 0);
    const Kluster &two = fleet.klusters.at(0);
    QVERIFY(!two.present);
    QCOMPARE(two.reading, Reading::Stale);
    QCOMPARE(two.standing.critical, 1);
    QCOMPARE(two.standing.reason, QStringLiteral("route missing"));
    QCOMPARE(fleet.klusters.at(1).reading, Reading::Fresh);
    const QString text = exportersText(fleet);
    QVERIFY2(text.contains(QStringLiteral("1 not scraped now (b:9473, last scraped")), qPrintable(text));

    // A kluster whose exporter's last check could not read it: stale too, though present.
    const Fleet down = fleetOf(
        kluster(a, QStringLiteral("one"), 0, 0, QString(), 0, now - 300, false), {}, exporter(a, true));
    QCOMPARE(down.klusters.at(0).reading, Reading::Stale);
}

void TestExportedFleet::aKlusterNoLongerExportedIsGone()
{
    const QString a = QStringLiteral("a:9473");
    // a is scraped and no longer exports "deleted": it is gone, not held.
    const Fleet fleet = fleetOf(kluster(a, QStringLiteral("one"), 0, 0),
        held(kluster(a, QStringLiteral("deleted"), 0, 0)), exporter(a, true));
    QCOMPARE(names(fleet), (QStringList { "one" }));
}

void TestExportedFleet::aRegionLabelTellsKlustersApart()
{
    const QString a = QStringLiteral("a:9473");
    const QString b = QStringLiteral("b:9473");
    const Fleet fleet = fleetOf(
        kluster(a, QStringLiteral("k"), 0, 0, {}, 0, now - 30, true, QStringLiteral(R"(,"region":"eu-de-1")"))
            + kluster(b, QStringLiteral("k"), 0, 0, {}, 0, now - 30, true,
                QStringLiteral(R"(,"region":"eu-nl-1")")),
        {}, exporter(a, true) + exporter(b, true));
    QCOMPARE(fleet.klusters.size(), 2);
    QCOMPARE(fleet.duplicates, 0);
    QStringList titles { fleet.klusters.at(0).title(), fleet.klusters.at(1).title() };
    titles.sort();
    QCOMPARE(titles, (QStringList { "k (region=eu-de-1)", "k (region=eu-nl-1)" }));
}

void TestExportedFleet::theQueriesAreFew()
{
    // A round is four instant queries, whatever the fleet's size; none names a kluster.
    QCOMPARE(QueryCount, 4);
    for (int i = 0; i < QueryCount; ++i) {
        const QString q = promql(Query(i));
        QVERIFY(!q.isEmpty());
        QVERIFY2(!q.contains(QStringLiteral("kluster_name=")), qPrintable(q));
    }
}

// A report as `check --format json` writes it (snapshot-format.md), trimmed to what the console shows.
static const char report[] = R"({"kluster":"legacy","capturedAt":"2026-11-30T10:00:00Z","phase":"Running",
 "findings":[
  {"id":"route-duplicate:198.19.1.0/24","kind":"route-duplicate","subject":"198.19.1.0/24","severity":"critical",
   "message":"The router has 3 routes for 198.19.1.0/24","evidence":{"destination":"198.19.1.0/24"},
   "repair":{"title":"Remove from router r","requests":[{"service":"network","method":"PUT",
     "path":"/v2.0/routers/r1","headers":{"If-Match":"revision_number=3"},"body":{},"permission":"denied",
     "permissionReason":"policy"}]},"incident":"recycled-pod-cidr:198.19.2.0/24"},
  {"id":"node-not-ready:n1","kind":"node-not-ready","subject":"n1","severity":"warning","message":"m",
   "evidence":{},"repair":null,"automation":{"actor":"flight","action":"delete-instance",
   "due":"2026-11-30T10:45:00Z","overdue":true},"unknown":[1]}],
 "incidents":[{"id":"recycled-pod-cidr:198.19.2.0/24","rule":"recycled-pod-cidr","key":"198.19.2.0/24",
   "severity":"critical","title":"a recycled CIDR","members":["route-duplicate:198.19.1.0/24"],
   "repair":{"title":"Route it","requests":[]}}],
 "budget":{"expected":6},"summary":{"critical":1,"warning":1,"info":0}})";

void TestExportedFleet::anExportersReportRead()
{
    const ExporterReport::Report r = ExporterReport::parse(report, QStringLiteral("the report"));
    QCOMPARE(r.kluster, QStringLiteral("legacy"));
    QCOMPARE(r.capturedAt, QDateTime(QDate(2026, 11, 30), QTime(10, 0), Qt::UTC));
    QCOMPARE(r.phase, QStringLiteral("Running"));
    QCOMPARE(r.findings.size(), 2);
    const ExporterReport::Reported &dup = r.findings.at(0);
    QCOMPARE(dup.id, QStringLiteral("route-duplicate:198.19.1.0/24"));
    QCOMPARE(dup.kind, QStringLiteral("route-duplicate"));
    QCOMPARE(dup.severity, Severity::Critical);
    QCOMPARE(dup.repairTitle, QStringLiteral("Remove from router r"));
    QCOMPARE(dup.requests.size(), 1);
    QCOMPARE(dup.requests.at(0).method, QStringLiteral("PUT"));
    QCOMPARE(dup.requests.at(0).path, QStringLiteral("/v2.0/routers/r1"));
    QCOMPARE(dup.requests.at(0).permission, QStringLiteral("denied"));
    QCOMPARE(dup.incident, QStringLiteral("recycled-pod-cidr:198.19.2.0/24"));
    const ExporterReport::Reported &node = r.findings.at(1);
    QCOMPARE(node.severity, Severity::Warning);
    QVERIFY(node.repairTitle.isEmpty());
    QCOMPARE(node.automation, QStringLiteral("flight: delete-instance, due 2026-11-30T10:45:00Z (overdue)"));
    QCOMPARE(r.incidents.size(), 1);
    QCOMPARE(r.incidents.at(0).members, QStringList { dup.id });
    QCOMPARE(r.incidents.at(0).repairTitle, QStringLiteral("Route it"));
    QCOMPARE(r.critical, 1);
    QCOMPARE(r.warning, 1);
    // Without a summary: counted from the findings.
    QByteArray bare = report;
    bare.replace(R"("summary":{"critical":1,"warning":1,"info":0})", R"("summary":null)");
    const ExporterReport::Report counted = ExporterReport::parse(bare, QStringLiteral("the report"));
    QCOMPARE(counted.critical, 1);
    QCOMPARE(counted.warning, 1);
}

void TestExportedFleet::reportsRefused_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("said");
    QTest::newRow("html") << QByteArray("<html><body>502 Bad Gateway</body></html>")
                          << "it looks like an HTML or XML page";
    QTest::newRow("truncated") << QByteArray(report).left(300) << "looks truncated";
    QTest::newRow("empty") << QByteArray() << "empty";
    QTest::newRow("array") << QByteArray("[]") << "$";
    QTest::newRow("no kluster") << QByteArray(R"({"findings":[]})") << "kluster";
    QTest::newRow("finding without id")
        << QByteArray(R"({"kluster":"k","findings":[{"kind":"x","severity":"info"}]})") << "$.findings[0]";
    QTest::newRow("unknown severity")
        << QByteArray(R"({"kluster":"k","findings":[{"id":"a","kind":"x","severity":"fatal"}]})")
        << "unknown severity \"fatal\"";
    QTest::newRow("bad time") << QByteArray(R"({"kluster":"k","capturedAt":"yesterday"})") << "capturedAt";
    QTest::newRow("count out of range")
        << QByteArray(R"({"kluster":"k","summary":{"critical":-1}})") << "critical";
}

void TestExportedFleet::reportsRefused()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, said);
    try {
        (void)ExporterReport::parse(body, QStringLiteral("the report"));
        QFAIL("read");
    } catch (const ParseError &e) {
        QVERIFY2(e.toString().contains(said), qPrintable(e.toString()));
        QVERIFY2(e.toString().contains(QStringLiteral("the report")), qPrintable(e.toString()));
    }
}

// Prometheus' /api/v1/targets (web/api/v1/api.go; docs/wire-formats.md): the active target named by the
// kluster's `instance` gives the exporter's scheme and path.
void TestExportedFleet::theExporterFoundInPrometheusTargets()
{
    const QByteArray targets = R"({"status":"success","data":{"activeTargets":[
        {"labels":{"instance":"a:9473","job":"flightdeck"},"scrapeUrl":"http://a:9473/metrics","health":"up"},
        {"labels":{"instance":"b:443","job":"flightdeck"},"scrapeUrl":"https://b:443/flightdeck/metrics?x=1",
         "health":"up"}],"droppedTargets":[]}})";
    const QString what = QStringLiteral("the targets");
    QCOMPARE(ExporterReport::exporterUrl(targets, QStringLiteral("a:9473"), QString(), what),
        QUrl("http://a:9473"));
    QCOMPARE(
        ExporterReport::exporterUrl(targets, QStringLiteral("b:443"), QStringLiteral("flightdeck"), what),
        QUrl("https://b:443/flightdeck"));
    QVERIFY(!ExporterReport::exporterUrl(targets, QStringLiteral("c:1"), QString(), what));
    QCOMPARE(ExporterReport::exporterUrlOf(QStringLiteral("c:1")), QUrl("http://c:1"));
    // One host's instance named alike in two jobs (relabelled to a bare host name): the kluster's job
    // decides.
    const QByteArray shared = R"({"status":"success","data":{"activeTargets":[
        {"labels":{"instance":"host","job":"node"},"scrapeUrl":"http://host:9100/metrics"},
        {"labels":{"instance":"host","job":"flightdeck"},"scrapeUrl":"http://host:9473/metrics"}]}})";
    QCOMPARE(ExporterReport::exporterUrl(shared, QStringLiteral("host"), QStringLiteral("flightdeck"), what),
        QUrl("http://host:9473"));
    QVERIFY(!ExporterReport::exporterUrl(shared, QStringLiteral("host"), QStringLiteral("other"), what));
    // The report's URL: the name and project percent-encoded whole.
    QCOMPARE(ExporterReport::reportUrl(
                 QUrl("https://b:443/flightdeck"), QStringLiteral("a b/c"), QStringLiteral("p&1"))
                 .toString(QUrl::FullyEncoded),
        QStringLiteral("https://b:443/flightdeck/klusters/a%20b%2Fc?project_id=p%261"));
    // Not Prometheus' answer, or one that fails: said, never guessed.
    for (const QByteArray &bad : { QByteArray(R"({"status":"error","error":"no","errorType":"bad_data"})"),
             QByteArray(R"({"status":"success","data":{"activeTargets":[{"labels":{"instance":"a:9473"},
             "scrapeUrl":"ftp://a/metrics"}]}})"),
             QByteArray("<html>") }) {
        try {
            (void)ExporterReport::exporterUrl(bad, QStringLiteral("a:9473"), QString(), what);
            QFAIL(bad.constData());
        } catch (const ParseError &e) {
            QVERIFY2(e.toString().contains(what), qPrintable(e.toString()));
        }
    }
}

QTEST_GUILESS_MAIN(TestExportedFleet)
#include "tst_exportedfleet.moc"
