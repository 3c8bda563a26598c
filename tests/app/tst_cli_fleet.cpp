#include "core/findingtraits.h"
#include "core/incidents.h"
#include "tests/app/clifixture.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTcpServer>
#include <csignal>

// The fleet at once, against the simulated cloud: `check --all` in its three formats (the Prometheus one
// checked by promtool), a kluster whose API is down reported as such beside the others, and the exporter
// (`serve`): its endpoints, a scrape that asks nothing of the cloud, a clean stop, and bad configurations
// that end before anything is served.
class TestCliFleet : public QObject
{
    Q_OBJECT

private slots:
    void init() { m_cli = std::make_unique<CliFixture>(); }
    void cleanup() { m_cli.reset(); }
    void checkAllJsonAndText();
    void checkAllPrometheusPassesPromtool();
    void klusterWhoseApiIsDownIsReportedBesideTheOthers();
    void listingThatFailsIsReported();
    void checkAllRefusesWhatItCannotDo();
    void twoCloudsOfOneProjectCountEachKlusterOnce();
    void oldestOpenFindingFromTheHistory();
    void serveAnswersFromWhatItKeeps();
    void serveRefusesABadConfiguration();
    void serveWarnsAndAuthenticates();

private:
    using Run = CliFixture::Run;
    Run cli(const QStringList &args, int timeoutMs = 60000) { return m_cli->cli(args, timeoutMs); }
    static QStringList allKlusters()
    {
        return words({ "blue", "demo", "edge", "gone", "green", "legacy", "retired" });
    }
    static QStringList words(std::initializer_list<const char *> list)
    {
        QStringList out;
        for (const char *w : list)
            out << QString::fromUtf8(w);
        return out;
    }
    static QStringList findingIds(const QJsonObject &report)
    {
        QStringList ids;
        for (const QJsonValue &f : report.value(QLatin1String("findings")).toArray())
            ids << f.toObject().value(QLatin1String("id")).toString();
        return ids;
    }
    // The value of the sample `name{labels}` in an exposition (nullopt: absent).
    static std::optional<double> sample(const QString &text, const QString &name, const QString &labels);
    // Runs promtool check metrics on `text`: its complaints (empty: none).
    static QString promtoolComplaints(const QByteArray &text);
    std::unique_ptr<CliFixture> m_cli;
};

std::optional<double> TestCliFleet::sample(const QString &text, const QString &name, const QString &labels)
{
    const QString head = name + (labels.isEmpty() ? QString() : QLatin1Char('{') + labels + QLatin1Char('}'))
        + QLatin1Char(' ');
    for (const QString &line : text.split(QLatin1Char('\n'))) {
        if (line.startsWith(head))
            return line.mid(head.size()).toDouble();
    }
    return std::nullopt;
}

QString TestCliFleet::promtoolComplaints(const QByteArray &text)
{
    const QString promtool = QStandardPaths::findExecutable(QStringLiteral("promtool"));
    if (promtool.isEmpty())
        return QStringLiteral("promtool is not installed (scripts/setup installs Debian's prometheus)");
    QProcess p;
    p.start(promtool, { QStringLiteral("check"), QStringLiteral("metrics") });
    p.write(text);
    p.closeWriteChannel();
    if (!p.waitForFinished(30000))
        return QStringLiteral("promtool did not finish");
    const QString said = QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError()).trimmed();
    return p.exitCode() == 0 && said.isEmpty() ? QString()
                                               : QStringLiteral("exit %1: %2").arg(p.exitCode()).arg(said);
}

void TestCliFleet::checkAllJsonAndText()
{
    const Run json = cli(words({ "check", "--all", "--cloud", "sim", "--format", "json" }));
    QVERIFY2(json.exitCode == 2, qPrintable(json.err)); // the demo world holds critical findings
    QJsonParseError error;
    const QJsonObject o = QJsonDocument::fromJson(json.out.toUtf8(), &error).object();
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    QCOMPARE(o.value(QLatin1String("status")).toInt(), 2);
    QStringList names;
    for (const QJsonValue &v : o.value(QLatin1String("klusters")).toArray()) {
        const QJsonObject k = v.toObject();
        names << k.value(QLatin1String("kluster")).toString();
        QCOMPARE(k.value(QLatin1String("cloud")).toString(), QStringLiteral("sim"));
        QVERIFY(k.value(QLatin1String("checked")).toBool());
        QVERIFY(!k.value(QLatin1String("projectId")).toString().isEmpty());
        // Each report as `check --kluster` gives it.
        const Run one = cli(words({ "check", "--cloud", "sim", "--kluster" })
            + QStringList { k.value(QLatin1String("kluster")).toString() } + words({ "--format", "json" }));
        const QJsonObject single = QJsonDocument::fromJson(one.out.toUtf8()).object();
        QCOMPARE(findingIds(k.value(QLatin1String("report")).toObject()), findingIds(single));
        QCOMPARE(k.value(QLatin1String("status")).toInt(), one.exitCode);
    }
    names.sort();
    QCOMPARE(names, allKlusters());

    // In text: one line per kluster, the worst first, its worst cause named; --verbose: each whole report.
    const Run text = cli(words({ "check", "--all", "--cloud", "sim" }));
    QCOMPARE(text.exitCode, 2);
    const QStringList lines = text.out.split(QLatin1Char('\n'));
    // Five critical, gone among them: being torn down, its deorbiter held by a volume stuck deleting
    // (critical) and a load balancer stuck (warning). Green's node being serviced a warning; retired, which
    // Kubernikus no longer has, what it left behind: two volumes and a load balancer orphaned, a volume and a
    // load balancer stuck, five warnings.
    for (const QString &k : allKlusters()) {
        const bool warning = k == QLatin1String("green") || k == QLatin1String("retired");
        const QString counts = k == QLatin1String("gone")
            ? QStringLiteral("1 critical · 1 warning; worst: volume stuck deleting \\(volume-stuck:")
            : k == QLatin1String("retired") ? QStringLiteral("0 critical · 5 warning; worst: ")
                                            : QStringLiteral("\\d+ critical · \\d+ warning");
        QVERIFY2(text.out.contains(QRegularExpression(
                     QStringLiteral("^%1 +sim/%2 +%3")
                         .arg(warning ? QStringLiteral("WARNING") : QStringLiteral("CRITICAL"), k, counts),
                     QRegularExpression::MultilineOption)),
            qPrintable(text.out));
    }
    // The console's order (KlusterRanking): a kluster-wide cause first, by critical causes (demo 8, edge 5,
    // blue 2), then legacy's node-wide one, then gone's stuck volume; green's node-wide warning above
    // retired's, each of one volume or load balancer.
    QVERIFY2(lines.size() > 7 && lines.at(0).contains(QStringLiteral("sim/demo "))
            && lines.at(1).contains(QStringLiteral("sim/edge "))
            && lines.at(2).contains(QStringLiteral("sim/blue "))
            && lines.at(3).contains(QStringLiteral("sim/legacy "))
            && lines.at(4).contains(QStringLiteral("sim/gone "))
            && lines.at(5).contains(QStringLiteral("sim/green "))
            && lines.at(6).contains(QStringLiteral("sim/retired ")),
        qPrintable(text.out));
    QVERIFY(text.out.count(QLatin1Char('\n')) < 12);
    QVERIFY2(
        text.out.contains(QStringLiteral("7 klusters: 5 critical, 2 warning, 0 ok, 0 could not be checked")),
        qPrintable(text.out.right(300)));
    const Run verbose = cli(words({ "check", "--all", "--cloud", "sim", "--verbose" }));
    QCOMPARE(verbose.exitCode, 2);
    for (const QString &k : allKlusters())
        QVERIFY2(
            verbose.out.contains(QStringLiteral("== sim / %1: ").arg(k)), qPrintable(verbose.out.left(2000)));
}

void TestCliFleet::checkAllPrometheusPassesPromtool()
{
    const Run r
        = cli(words({ "check", "--all", "--cloud", "sim", "--format", "prometheus", "--node-series", "3" }));
    QVERIFY2(r.exitCode == 2, qPrintable(r.err));
    const QString complaints = promtoolComplaints(r.out.toUtf8());
    QVERIFY2(complaints.isEmpty(), qPrintable(complaints));
    QCOMPARE(sample(r.out, QStringLiteral("flightdeck_klusters"), QString()), 7.0);
    QCOMPARE(
        sample(r.out, QStringLiteral("flightdeck_cloud_listing_up"), QStringLiteral("cloud=\"sim\"")), 1.0);
    for (const QString &k : allKlusters()) {
        const QString labels = QStringLiteral("kluster_name=\"%1\",project_id=\"").arg(k);
        QVERIFY2(r.out.contains(QStringLiteral("flightdeck_up{") + labels), qPrintable(k));
        // Every kind with every severity, zero or not.
        QCOMPARE(r.out.count(
                     QRegularExpression(QStringLiteral("^flightdeck_findings\\{kluster_name=\"%1\",").arg(k),
                         QRegularExpression::MultilineOption)),
            FindingKindCount * 3);
        QCOMPARE(r.out.count(
                     QRegularExpression(QStringLiteral("^flightdeck_incidents\\{kluster_name=\"%1\",").arg(k),
                         QRegularExpression::MultilineOption)),
            qsizetype(incidentRules().size()) * 2);
    }
    // The findings counted are the report's: legacy's duplicate route among them.
    const QRegularExpression duplicate(
        QStringLiteral("^flightdeck_findings\\{kluster_name=\"legacy\",project_id=\"[^\"]+\",kind=\"route-"
                       "duplicate\",severity=\"critical\"\\} (\\d+)$"),
        QRegularExpression::MultilineOption);
    QCOMPARE(duplicate.match(r.out).captured(1), QStringLiteral("1"));
    QVERIFY(r.out.contains(QStringLiteral("flightdeck_router_route_limit{kluster_name=\"legacy\"")));
    QVERIFY(r.out.contains(QStringLiteral("flightdeck_nodes{kluster_name=\"demo\"")));
    QVERIFY(r.out.contains(QStringLiteral("flightdeck_check_run_duration_seconds ")));
    // Node series capped, and the cut said.
    QCOMPARE(r.out.count(QRegularExpression(
                 QStringLiteral("^flightdeck_node_ready\\{"), QRegularExpression::MultilineOption)),
        3);
    QVERIFY(sample(r.out, QStringLiteral("flightdeck_node_series_omitted"), QString()).value_or(0) > 0);
    QVERIFY(!r.out.contains(QStringLiteral("instance=")) && !r.out.contains(QStringLiteral("job=")));
}

void TestCliFleet::klusterWhoseApiIsDownIsReportedBesideTheOthers()
{
    QCOMPARE(m_cli->sim
                 .request("POST", m_cli->sim.sim.adminUrl() + QStringLiteral("/faults"),
                     R"({"kind": "status", "status": 503, "service": "kubernetes:blue"})")
                 .status,
        201);
    const Run r = cli(words({ "check", "--all", "--cloud", "sim", "--format", "prometheus" }));
    QCOMPARE(r.exitCode, 2); // critical findings elsewhere outrank a kluster that could not be checked
    QVERIFY(promtoolComplaints(r.out.toUtf8()).isEmpty());
    const auto up = [&r](const char *k) {
        const QRegularExpression re(
            QStringLiteral("^flightdeck_up\\{kluster_name=\"%1\",[^}]*\\} (\\d)$").arg(QLatin1String(k)),
            QRegularExpression::MultilineOption);
        return re.match(r.out).captured(1);
    };
    QCOMPARE(up("blue"), QStringLiteral("0"));
    QCOMPARE(up("demo"), QStringLiteral("1"));
    QCOMPARE(up("legacy"), QStringLiteral("1"));
    QCOMPARE(up("edge"), QStringLiteral("1"));
    QCOMPARE(up("retired"), QStringLiteral("1")); // what it left behind read beside the others

    const Run json = cli(words({ "check", "--all", "--cloud", "sim", "--format", "json" }));
    for (const QJsonValue &v :
        QJsonDocument::fromJson(json.out.toUtf8()).object().value(QLatin1String("klusters")).toArray()) {
        const QJsonObject k = v.toObject();
        const bool blue = k.value(QLatin1String("kluster")).toString() == QLatin1String("blue");
        QCOMPARE(k.value(QLatin1String("checked")).toBool(), !blue);
        if (blue) {
            QCOMPARE(k.value(QLatin1String("status")).toInt(), 3);
            QVERIFY2(k.value(QLatin1String("error")).toString().contains(QStringLiteral("503")),
                qPrintable(k.value(QLatin1String("error")).toString()));
        }
    }
    // Text: blue said to be unchecked, and why (its line after the critical ones, before any warning), what
    // was last read of it said as such; --verbose: its whole report, the others' findings all there.
    const Run text = cli(words({ "check", "--all", "--cloud", "sim" }));
    QVERIFY2(text.out.contains(
                 QRegularExpression(QStringLiteral("^UNKNOWN +sim/blue +could not be checked: nodes: .*503"),
                     QRegularExpression::MultilineOption)),
        qPrintable(text.out.left(1500)));
    // demo, edge, legacy and gone critical; green and retired warnings; blue unchecked.
    QVERIFY2(
        text.out.contains(QStringLiteral("7 klusters: 4 critical, 2 warning, 0 ok, 1 could not be checked")),
        qPrintable(text.out.right(400)));
    const Run verbose = cli(words({ "check", "--all", "--cloud", "sim", "--verbose" }));
    QVERIFY2(verbose.out.contains(QStringLiteral("== sim / blue: UNKNOWN ==\nCould not be checked (")),
        qPrintable(verbose.out.left(1500)));
}

// Kubernikus answers the listing with a proxy's HTML error page: the cloud is reported as not listed in every
// format (JSON's listingErrors, the text's UNKNOWN, flightdeck_cloud_listing_up 0), promtool still accepts
// the exposition, and the exit status says the check could not run (3).
void TestCliFleet::listingThatFailsIsReported()
{
    QCOMPARE(
        m_cli->sim
            .request("POST", m_cli->sim.sim.adminUrl() + QStringLiteral("/faults"),
                R"({"kind": "html", "status": 502, "service": "kubernikus", "path": "^/api/v1/clusters/?$"})")
            .status,
        201);
    const Run json = cli(words({ "check", "--all", "--cloud", "sim", "--format", "json" }));
    QCOMPARE(json.exitCode, 3);
    const QJsonObject o = QJsonDocument::fromJson(json.out.toUtf8()).object();
    QCOMPARE(o.value(QLatin1String("klusters")).toArray().size(), 0);
    const QJsonArray errors = o.value(QLatin1String("listingErrors")).toArray();
    QCOMPARE(errors.size(), 1);
    QCOMPARE(errors.first().toObject().value(QLatin1String("cloud")).toString(), QStringLiteral("sim"));
    const QString why = errors.first().toObject().value(QLatin1String("error")).toString();
    QVERIFY2(why.contains(QStringLiteral("502")) && !why.contains(QLatin1Char('\n')), qPrintable(why));
    QCOMPARE(o.value(QLatin1String("status")).toInt(), 3);

    const Run text = cli(words({ "check", "--all", "--cloud", "sim" }));
    QCOMPARE(text.exitCode, 3);
    QVERIFY2(text.out.contains(QStringLiteral("UNKNOWN  sim: its klusters could not be listed: ")),
        qPrintable(text.out.left(800)));
    const Run verbose = cli(words({ "check", "--all", "--cloud", "sim", "--verbose" }));
    QVERIFY2(verbose.out.contains(QStringLiteral("== sim: UNKNOWN ==\nIts klusters could not be listed: ")),
        qPrintable(verbose.out.left(800)));

    const Run prom = cli(words({ "check", "--all", "--cloud", "sim", "--format", "prometheus" }));
    QCOMPARE(prom.exitCode, 3);
    QCOMPARE(sample(prom.out, QStringLiteral("flightdeck_cloud_listing_up"), QStringLiteral("cloud=\"sim\"")),
        std::optional<double>(0));
    QVERIFY(promtoolComplaints(prom.out.toUtf8()).isEmpty());
}

// Two clouds that reach one project (two entries of clouds.yaml for it): each kluster once, or the exposition
// would hold the same series twice (promtool and the textfile collector refuse that).
void TestCliFleet::twoCloudsOfOneProjectCountEachKlusterOnce()
{
    for (const char *file : { "config/openstack/clouds.yaml", "config/openstack/secure.yaml" }) {
        QFile f(m_cli->home.filePath(QLatin1String(file)));
        QVERIFY(f.open(QIODevice::ReadWrite));
        const QByteArray text = f.readAll();
        QVERIFY(f.seek(f.size()));
        f.write(text.mid(text.indexOf("  sim:")).replace("  sim:", "  sim-again:"));
    }
    const Run r = cli(
        words({ "check", "--all", "--cloud", "sim", "--cloud", "sim-again", "--format", "prometheus" }));
    QVERIFY2(r.exitCode == 2, qPrintable(r.err));
    QVERIFY(promtoolComplaints(r.out.toUtf8()).isEmpty());
    QCOMPARE(r.out.count(QStringLiteral("\nflightdeck_up{")), 7);
    const Run both = cli(words({ "check", "--all", "--cloud", "sim", "--all-clouds" }));
    QCOMPARE(both.exitCode, 3);
    QVERIFY2(both.err.contains(QStringLiteral("not both")), qPrintable(both.err));
}

void TestCliFleet::checkAllRefusesWhatItCannotDo()
{
    Run r = cli(words({ "check", "--all", "--cloud", "nowhere" }));
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains(QStringLiteral("nowhere")), qPrintable(r.err));
    r = cli(words({ "check", "--all", "--cloud", "sim", "--kluster", "demo" }));
    QCOMPARE(r.exitCode, 3);
    QVERIFY(r.err.contains(QStringLiteral("leave out --kluster")));
    r = cli(words({ "check", "--cloud", "sim", "--kluster", "demo", "--format", "prometheus" }));
    QCOMPARE(r.exitCode, 3);
    QVERIFY(r.err.contains(QStringLiteral("give --all")));
    r = cli(words({ "check", "--all", "--cloud", "sim", "--concurrency", "0" }));
    QCOMPARE(r.exitCode, 3);
    QVERIFY(r.err.contains(QStringLiteral("--concurrency")));
}

// With --record, the history says since when the oldest open finding is open: the second run reports the
// first run's time for the findings still open.
void TestCliFleet::oldestOpenFindingFromTheHistory()
{
    const Run first
        = cli(words({ "check", "--all", "--cloud", "sim", "--format", "prometheus", "--record" }));
    QCOMPARE(first.exitCode, 2);
    const qint64 after = QDateTime::currentSecsSinceEpoch();
    QTest::qWait(1100);
    const Run second
        = cli(words({ "check", "--all", "--cloud", "sim", "--format", "prometheus", "--record" }));
    QCOMPARE(second.exitCode, 2);
    const QRegularExpression oldest(QStringLiteral("^flightdeck_oldest_open_finding_start_timestamp_"
                                                   "seconds\\{kluster_name=\"legacy\",[^}]*\\} ([0-9.]+)$"),
        QRegularExpression::MultilineOption);
    const QRegularExpressionMatch m = oldest.match(second.out);
    QVERIFY2(m.hasMatch(), qPrintable(second.out.left(500)));
    QVERIFY2(m.captured(1).toDouble() <= double(after), qPrintable(m.captured(1)));
    // Without --record, nothing is said of it.
    const Run plain = cli(words({ "check", "--all", "--cloud", "sim", "--format", "prometheus" }));
    QVERIFY(!plain.out.contains(QStringLiteral("flightdeck_oldest_open_finding_start_timestamp_seconds{")));
}

void TestCliFleet::serveAnswersFromWhatItKeeps()
{
    QProcess serve;
    m_cli->start(serve, words({ "serve", "--cloud", "sim", "--listen", "127.0.0.1:0", "--refresh", "5m" }));
    // The log's first line names the address it serves on.
    QString address;
    QString log;
    QElapsedTimer waited;
    waited.start();
    const QRegularExpression serving(QStringLiteral("serving http://([0-9.:]+)/metrics"));
    while (address.isEmpty() && waited.elapsed() < 30000) {
        QTest::qWait(50);
        log += QString::fromUtf8(serve.readAllStandardError());
        address = serving.match(log).captured(1);
    }
    QVERIFY2(!address.isEmpty(), qPrintable(log));
    const QString base = QStringLiteral("http://") + address;
    QCOMPARE(m_cli->sim.request("GET", base + QStringLiteral("/healthz")).status, 200);
    // The first round in, every kluster is on /metrics.
    Reply metrics;
    while (waited.elapsed() < 60000) {
        metrics = m_cli->sim.request("GET", base + QStringLiteral("/metrics"));
        if (QString::fromUtf8(metrics.body).count(QStringLiteral("flightdeck_up{")) == 4
            && !metrics.body.contains("} 0\nflightdeck_up"))
            break;
        QTest::qWait(200);
    }
    QCOMPARE(metrics.status, 200);
    QVERIFY(metrics.headers.value(QByteArrayLiteral("content-type")).startsWith("text/plain; version=0.0.4"));
    const QString complaints = promtoolComplaints(metrics.body);
    QVERIFY2(complaints.isEmpty(), qPrintable(complaints));
    for (const QString &k : allKlusters())
        QVERIFY2(metrics.body.contains(QStringLiteral("flightdeck_up{kluster_name=\"%1\"").arg(k).toUtf8()),
            qPrintable(k));
    QVERIFY(metrics.body.contains("flightdeck_refreshes_total{result=\"ok\"}"));

    // A scrape asks nothing of the cloud: once the exporter is quiet (its watches open, its first round in),
    // five scrapes change no count.
    const auto requests = [this] {
        const QJsonObject counts
            = m_cli->sim.request("GET", m_cli->sim.sim.adminUrl() + QStringLiteral("/world"))
                  .json()
                  .value(QStringLiteral("requests"))
                  .toObject();
        qint64 sum = 0;
        for (const QString &service : words({ "keystone", "compute", "network", "kubernikus", "image" }))
            sum += counts.value(service).toInteger();
        return sum;
    };
    qint64 before = requests();
    for (int quiet = 0; quiet < 20; ++quiet) {
        QTest::qWait(500);
        const qint64 now = requests();
        if (now == before)
            break;
        before = now;
    }
    for (int i = 0; i < 5; ++i)
        QCOMPARE(m_cli->sim.request("GET", base + QStringLiteral("/metrics")).status, 200);
    QCOMPARE(requests(), before);

    // One kluster's report, as check gives it; a runbook; what is not there.
    const Reply report = m_cli->sim.request("GET", base + QStringLiteral("/klusters/legacy"));
    QCOMPARE(report.status, 200);
    const Run check = cli(words({ "check", "--cloud", "sim", "--kluster", "legacy", "--format", "json" }));
    QCOMPARE(findingIds(report.json()), findingIds(QJsonDocument::fromJson(check.out.toUtf8()).object()));
    const Reply runbook = m_cli->sim.request("GET", base + QStringLiteral("/runbooks/route-duplicate"));
    QCOMPARE(runbook.status, 200);
    QVERIFY(runbook.body.startsWith("# route-duplicate"));
    QCOMPARE(m_cli->sim.request("GET", base + QStringLiteral("/klusters/nosuch")).status, 404);
    // A name asked for is never echoed raw: escapes shown as such, 16 KB cut short.
    const Reply hostile = m_cli->sim.request(
        "GET", base + QStringLiteral("/klusters/%1B%5B2J%E2%80%AE") + QString(16000, QLatin1Char('x')));
    QCOMPARE(hostile.status, 404);
    QVERIFY2(!hostile.body.contains('\x1b') && !hostile.body.contains("\xe2\x80\xae"),
        hostile.body.left(200).constData());
    QVERIFY2(
        hostile.body.contains("\\e[2J") && hostile.body.size() < 400, hostile.body.left(200).constData());
    QCOMPARE(m_cli->sim.request("GET", base + QStringLiteral("/runbooks/..%2Fetc")).status, 404);
    QCOMPARE(m_cli->sim.request("GET", base + QStringLiteral("/elsewhere")).status, 404);
    QCOMPARE(m_cli->sim.request("POST", base + QStringLiteral("/metrics"), "x").status, 405);

    // SIGTERM: a clean stop.
    ::kill(pid_t(serve.processId()), SIGTERM);
    QVERIFY(serve.waitForFinished(15000));
    QCOMPARE(serve.exitStatus(), QProcess::NormalExit);
    QCOMPARE(serve.exitCode(), 0);
    log += QString::fromUtf8(serve.readAllStandardError());
    QVERIFY2(log.contains(QStringLiteral("stopping (signal 15)")), qPrintable(log.right(500)));
    QVERIFY2(!log.contains(QStringLiteral("Sanitizer")), qPrintable(log.right(4000)));
    QVERIFY(!log.contains(QString::fromLatin1(CliFixture::Password)));
}

void TestCliFleet::serveRefusesABadConfiguration()
{
    // A port taken.
    QTcpServer taken;
    QVERIFY(taken.listen(QHostAddress::LocalHost));
    Run r = cli(words({ "serve", "--cloud", "sim", "--listen" })
        + QStringList { QStringLiteral("127.0.0.1:%1").arg(taken.serverPort()) });
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains(QStringLiteral("cannot listen")), qPrintable(r.err));
    // An unknown cloud, before anything listens.
    r = cli(words({ "serve", "--cloud", "nowhere", "--listen", "127.0.0.1:0" }));
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains(QStringLiteral("nowhere")), qPrintable(r.err));
    QVERIFY(!r.err.contains(QStringLiteral("serving")));
    // A config file that cannot be read, and one with a word it does not know.
    r = cli(
        words({ "serve", "--config" }) + QStringList { m_cli->home.filePath(QStringLiteral("absent.conf")) });
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains(QStringLiteral("cannot read the config file")), qPrintable(r.err));
    QFile conf(m_cli->home.filePath(QStringLiteral("exporter.conf")));
    QVERIFY(conf.open(QIODevice::WriteOnly));
    conf.write("# the exporter\nlisten = 127.0.0.1:0\ncloud = sim\nrefrsh = 1m\n");
    conf.close();
    r = cli(words({ "serve", "--config" }) + QStringList { conf.fileName() });
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains(QStringLiteral(":4: unknown key \"refrsh\"")), qPrintable(r.err));
    r = cli(words({ "serve", "--cloud", "sim", "--listen", "not-an-address" }));
    QCOMPARE(r.exitCode, 3);
    QVERIFY(r.err.contains(QStringLiteral("ADDRESS:PORT")));
    // A web configuration that is wrong: refused before anything listens, its key named.
    QFile web(m_cli->home.filePath(QStringLiteral("web.yml")));
    QVERIFY(web.open(QIODevice::WriteOnly));
    web.write("basic_auth_users:\n  prometheus: plain-password\n");
    web.close();
    r = cli(words({ "serve", "--cloud", "sim", "--listen", "127.0.0.1:0", "--web.config.file" })
        + QStringList { web.fileName() });
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(
        r.err.contains(QStringLiteral("basic_auth_users.prometheus: not a bcrypt hash")), qPrintable(r.err));
    QVERIFY(!r.err.contains(QStringLiteral("plain-password")));
    QVERIFY(!r.err.contains(QStringLiteral("serving")));
}

// Every address without TLS and authentication: served, and said to be readable by whoever connects; with
// basic authentication from a web configuration, a scrape without the password is 401.
void TestCliFleet::serveWarnsAndAuthenticates()
{
    QFile web(m_cli->home.filePath(QStringLiteral("web.yml")));
    QVERIFY(web.open(QIODevice::WriteOnly));
    QProcess hasher;
    m_cli->start(hasher, words({ "serve", "--hash-password" }));
    hasher.write("horse battery\n");
    hasher.closeWriteChannel();
    QVERIFY(hasher.waitForFinished(30000));
    const QByteArray hash = hasher.readAllStandardOutput().trimmed();
    QVERIFY2(hash.startsWith("$2"), hash.constData());
    web.write("basic_auth_users:\n  prometheus: " + hash + "\n");
    web.close();
    for (const bool secured : { false, true }) {
        QProcess serve;
        QStringList args = words({ "serve", "--cloud", "sim", "--listen", ":0", "--refresh", "5m" });
        if (secured)
            args << QStringLiteral("--web.config.file") << web.fileName();
        m_cli->start(serve, args);
        QString log;
        QString address;
        QElapsedTimer waited;
        waited.start();
        const QRegularExpression serving(QStringLiteral("serving http://[^:]+:([0-9]+)/metrics"));
        while (address.isEmpty() && waited.elapsed() < 30000) {
            QTest::qWait(50);
            log += QString::fromUtf8(serve.readAllStandardError());
            address = serving.match(log).captured(1);
        }
        QVERIFY2(!address.isEmpty(), qPrintable(log));
        QTest::qWait(200);
        log += QString::fromUtf8(serve.readAllStandardError());
        QVERIFY2(
            log.contains(QStringLiteral("warning: ")) && log.contains(QStringLiteral("--web.config.file")),
            qPrintable(log));
        QVERIFY2(log.contains(secured ? QStringLiteral("with passwords sent in clear (no TLS)")
                                      : QStringLiteral("without TLS or authentication")),
            qPrintable(log));
        const QString url = QStringLiteral("http://127.0.0.1:%1/healthz").arg(address);
        if (secured) {
            QCOMPARE(m_cli->sim.request("GET", url).status, 401);
            const QByteArray basic = "Basic " + QByteArray("prometheus:horse battery").toBase64();
            QCOMPARE(m_cli->sim.request("GET", url, {}, { { "Authorization", basic } }).status, 200);
        } else {
            QCOMPARE(m_cli->sim.request("GET", url).status, 200);
        }
        ::kill(pid_t(serve.processId()), SIGTERM);
        QVERIFY(serve.waitForFinished(15000));
        QVERIFY(!log.contains(QStringLiteral("horse battery")));
    }
}

QTEST_GUILESS_MAIN(TestCliFleet)
#include "tst_cli_fleet.moc"
