#include "core/findingtraits.h"
#include "core/incidents.h"
#include "core/shard.h"
#include "tests/app/clifixture.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <csignal>
#include <zlib.h>

// The fleet at once, against the simulated cloud: `check --all` in its three formats (the Prometheus one
// checked by promtool), a kluster whose API is down reported as such beside the others, and the exporter
// (`serve`): its endpoints, a scrape that asks nothing of the cloud, a clean stop, and bad configurations
// that end before anything is served; N exporters that split the cloud (--shard), a kluster deleted that
// leaves the exposition while a listing that fails drops nothing, and /metrics gzipped for whoever accepts
// it.
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
    void serveShardsSplitTheCloud();
    void serveLetsDeletedKlustersGo();
    void serveGzipsMetricsWhenAsked();

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
    // Starts `serve --cloud sim --listen 127.0.0.1:0` with `extra`, waits for its first round: its base URL
    // (empty when it did not come), its log so far in `log`.
    QString startServe(QProcess &serve, const QStringList &extra, QString *log);
    // The klusters of an exposition's flightdeck_up, name → project id.
    static QHash<QString, QString> klustersUp(const QByteArray &metrics);
    // GET `path` over a connection of its own, with `headers` (and nothing else a client library would add):
    // the answer's head and body.
    static std::pair<QByteArray, QByteArray> rawGet(
        const QString &base, const QByteArray &path, const QByteArray &headers);
    std::unique_ptr<CliFixture> m_cli;
};

QString TestCliFleet::startServe(QProcess &serve, const QStringList &extra, QString *log)
{
    m_cli->start(serve, words({ "serve", "--cloud", "sim", "--listen", "127.0.0.1:0" }) + extra);
    QElapsedTimer waited;
    waited.start();
    const QRegularExpression serving(QStringLiteral("serving (http://[0-9.:]+)/metrics"));
    while (waited.elapsed() < 90000 && !log->contains(QStringLiteral("first round done"))) {
        QTest::qWait(50);
        *log += QString::fromUtf8(serve.readAllStandardError());
        if (serve.state() == QProcess::NotRunning)
            break;
    }
    return log->contains(QStringLiteral("first round done")) ? serving.match(*log).captured(1) : QString();
}

QHash<QString, QString> TestCliFleet::klustersUp(const QByteArray &metrics)
{
    QHash<QString, QString> out;
    static const QRegularExpression up(
        QStringLiteral("^flightdeck_up\\{kluster_name=\"([^\"]+)\",project_id=\"([^\"]*)\"\\} [01]$"),
        QRegularExpression::MultilineOption);
    for (QRegularExpressionMatchIterator it = up.globalMatch(QString::fromUtf8(metrics)); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        out.insert(m.captured(1), m.captured(2));
    }
    return out;
}

std::pair<QByteArray, QByteArray> TestCliFleet::rawGet(
    const QString &base, const QByteArray &path, const QByteArray &headers)
{
    const QUrl url(base);
    QTcpSocket socket;
    socket.connectToHost(url.host(), quint16(url.port()));
    if (!socket.waitForConnected(5000))
        return {};
    socket.write("GET " + path + " HTTP/1.1\r\nHost: " + url.host().toUtf8() + "\r\n" + headers
        + "Connection: close\r\n\r\n");
    QByteArray answer;
    QElapsedTimer waited;
    waited.start();
    while (socket.state() != QAbstractSocket::UnconnectedState && waited.elapsed() < 15000) {
        socket.waitForReadyRead(100);
        answer += socket.readAll();
    }
    answer += socket.readAll();
    const qsizetype end = answer.indexOf("\r\n\r\n");
    if (end < 0)
        return {};
    return { answer.left(end), answer.mid(end + 4) };
}

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
    // A shard that is none: one line, before anything listens; from the config file alike.
    for (const char *bad : { "3/3", "0/0", "-1/2", "x", "1/", "2" }) {
        r = cli(words({ "serve", "--cloud", "sim", "--listen", "127.0.0.1:0", "--shard", bad }));
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains(QStringLiteral("--shard: \"%1\" is not a shard I/N").arg(QLatin1String(bad))),
            qPrintable(r.err));
        QCOMPARE(r.err.trimmed().count(QLatin1Char('\n')), 0);
        QVERIFY(!r.err.contains(QStringLiteral("serving")));
    }
    QVERIFY(conf.open(QIODevice::WriteOnly | QIODevice::Truncate));
    conf.write("listen = 127.0.0.1:0\ncloud = sim\nshard = 2/2\n");
    conf.close();
    r = cli(words({ "serve", "--config" }) + QStringList { conf.fileName() });
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains(QStringLiteral("--shard: \"2/2\" is not a shard I/N")), qPrintable(r.err));
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

// Two exporters, shard 0/2 and 1/2 (one from the config file), against one cloud: each kluster on exactly one
// /metrics, the one its region, project id and name hash to; each says which shard it serves, on its log and
// in flightdeck_shard_info.
void TestCliFleet::serveShardsSplitTheCloud()
{
    QFile conf(m_cli->home.filePath(QStringLiteral("shard1.conf")));
    QVERIFY(conf.open(QIODevice::WriteOnly));
    conf.write("shard = 1/2\nrefresh = 5m\n");
    conf.close();
    QProcess first;
    QProcess second;
    QString firstLog;
    QString secondLog;
    const QString a = startServe(first, words({ "--refresh", "5m", "--shard", "0/2" }), &firstLog);
    const QString b
        = startServe(second, QStringList { QStringLiteral("--config"), conf.fileName() }, &secondLog);
    QVERIFY2(!a.isEmpty(), qPrintable(firstLog));
    QVERIFY2(!b.isEmpty(), qPrintable(secondLog));
    QHash<QString, QString> all;
    int index = 0;
    for (const auto &[base, log] : { std::pair { a, firstLog }, std::pair { b, secondLog } }) {
        const Reply metrics = m_cli->sim.request("GET", base + QStringLiteral("/metrics"));
        QCOMPARE(metrics.status, 200);
        const QString complaints = promtoolComplaints(metrics.body);
        QVERIFY2(complaints.isEmpty(), qPrintable(complaints));
        QVERIFY2(
            metrics.body.contains(
                QStringLiteral("\nflightdeck_shard_info{shard=\"%1\",shards=\"2\"} 1\n").arg(index).toUtf8()),
            metrics.body.right(600).constData());
        const QHash<QString, QString> mine = klustersUp(metrics.body);
        QCOMPARE(sample(QString::fromUtf8(metrics.body), QStringLiteral("flightdeck_klusters"), QString()),
            double(mine.size()));
        for (auto it = mine.cbegin(); it != mine.cend(); ++it) {
            QVERIFY2(!all.contains(it.key()), qPrintable(it.key() + QStringLiteral(" served twice")));
            all.insert(it.key(), it.value());
            QCOMPARE(Shard::of(Shard::key(QStringLiteral("RegionOne"), it.value(), it.key()), 2), index);
        }
        QVERIFY2(
            log.contains(QStringLiteral("shard %1/2: the klusters whose key hashes to %1 of 2").arg(index)),
            qPrintable(log));
        QVERIFY2(log.contains(QStringLiteral("cloud sim: %1 of the 7 klusters listed are shard %2/2's")
                                  .arg(mine.size())
                                  .arg(index)),
            qPrintable(log));
        QVERIFY2(log.contains(QStringLiteral("round done: %1 klusters (shard %2/2 of 7 listed)")
                                  .arg(mine.size())
                                  .arg(index)),
            qPrintable(log));
        ++index;
    }
    QStringList names = all.keys();
    names.sort();
    QCOMPARE(names, allKlusters());
    // A kluster of the other shard is not this one's to report.
    const QString elsewhere = Shard::of(Shard::key(QStringLiteral("RegionOne"),
                                            all.value(QStringLiteral("demo")), QStringLiteral("demo")),
                                  2)
            == 0
        ? b
        : a;
    QCOMPARE(m_cli->sim.request("GET", elsewhere + QStringLiteral("/klusters/demo")).status, 404);
    for (QProcess *p : { &first, &second }) {
        ::kill(pid_t(p->processId()), SIGTERM);
        QVERIFY(p->waitForFinished(15000));
        QCOMPARE(p->exitCode(), 0);
    }
}

// A kluster Kubernikus no longer has: while it left volumes behind it is still listed (gone) and served; once
// they are gone too it leaves /metrics and /klusters/<name> at the next listing. A listing that fails drops
// nothing: the last data stays, the cloud said not listed.
void TestCliFleet::serveLetsDeletedKlustersGo()
{
    QProcess serve;
    QString log;
    const QString base = startServe(serve, words({ "--refresh", "5s" }), &log);
    QVERIFY2(!base.isEmpty(), qPrintable(log));
    const auto scrape = [&] { return m_cli->sim.request("GET", base + QStringLiteral("/metrics")).body; };
    const auto waitFor = [&](const std::function<bool(const QByteArray &)> &until) {
        QElapsedTimer waited;
        waited.start();
        QByteArray metrics;
        while (waited.elapsed() < 60000) {
            metrics = scrape();
            if (until(metrics))
                return metrics;
            QTest::qWait(250);
        }
        return metrics;
    };
    QCOMPARE(klustersUp(scrape()).size(), 7);
    const QString project = klustersUp(scrape()).value(QStringLiteral("blue"));
    QVERIFY(!project.isEmpty());

    // Deorbited: Kubernikus no longer has it; its volumes (one made for it) stay behind.
    QCOMPARE(m_cli->sim
                 .request("POST", m_cli->sim.sim.adminUrl() + QStringLiteral("/klusters/blue/cause"),
                     R"({"rule": "debris"})")
                 .status,
        200);
    const QByteArray gone = "flightdeck_kluster_phase{kluster_name=\"blue\",project_id=\"" + project.toUtf8()
        + "\",phase=\"Gone\"} 1\n";
    QByteArray metrics = waitFor([&gone](const QByteArray &m) { return m.contains(gone); });
    QVERIFY2(metrics.contains(gone), metrics.left(3000).constData());
    QVERIFY2(klustersUp(metrics).contains(QStringLiteral("blue")), metrics.left(2000).constData());
    QCOMPARE(m_cli->sim.request("GET", base + QStringLiteral("/klusters/blue")).status, 200);

    // What it left goes too: it leaves with the next listing.
    World &world = m_cli->sim.sim.world();
    const QString cluster = QStringLiteral("blue-") + project;
    const qsizetype volumes = world.volumes.removeIf([&cluster](const SimVolume &v) {
        return std::any_of(v.metadata.cbegin(), v.metadata.cend(),
            [&cluster](const QPair<QString, QString> &m) { return m.second == cluster; });
    });
    QVERIFY(volumes > 0);
    world.loadBalancers.removeIf(
        [](const SimLoadBalancer &lb) { return lb.name.startsWith(QStringLiteral("kube_service_blue_")); });
    metrics = waitFor([](const QByteArray &m) { return !m.contains("kluster_name=\"blue\""); });
    QVERIFY2(!metrics.contains("kluster_name=\"blue\""), metrics.left(2000).constData());
    QCOMPARE(klustersUp(metrics).size(), 6);
    QCOMPARE(sample(QString::fromUtf8(metrics), QStringLiteral("flightdeck_klusters"), QString()), 6.0);
    QCOMPARE(m_cli->sim.request("GET", base + QStringLiteral("/klusters/blue")).status, 404);
    const Reply health = m_cli->sim.request("GET", base + QStringLiteral("/healthz"));
    QVERIFY2(health.body.startsWith("ok: 6 klusters"), health.body.constData());
    // Nor is it counted as a kluster that could not be checked, round after round.
    QElapsedTimer waited;
    waited.start();
    while (!log.contains(QStringLiteral("round done: 6 klusters, 0 could not be checked"))
        && waited.elapsed() < 30000) {
        QTest::qWait(200);
        log += QString::fromUtf8(serve.readAllStandardError());
    }
    QVERIFY2(log.contains(QStringLiteral("round done: 6 klusters, 0 could not be checked")), qPrintable(log));

    // Kubernikus cannot list: nothing leaves, the cloud is said not listed.
    QCOMPARE(
        m_cli->sim
            .request("POST", m_cli->sim.sim.adminUrl() + QStringLiteral("/faults"),
                R"({"kind": "status", "status": 503, "service": "kubernikus", "path": "^/api/v1/clusters/?$"})")
            .status,
        201);
    metrics = waitFor(
        [](const QByteArray &m) { return m.contains("flightdeck_cloud_listing_up{cloud=\"sim\"} 0"); });
    QVERIFY2(metrics.contains("flightdeck_cloud_listing_up{cloud=\"sim\"} 0"), metrics.left(800).constData());
    QTest::qWait(6000); // another round on the failed listing
    metrics = scrape();
    QCOMPARE(klustersUp(metrics).size(), 6);
    QCOMPARE(m_cli->sim.request("GET", base + QStringLiteral("/klusters/demo")).status, 200);

    ::kill(pid_t(serve.processId()), SIGTERM);
    QVERIFY(serve.waitForFinished(15000));
    log += QString::fromUtf8(serve.readAllStandardError());
    QVERIFY2(log.contains(QStringLiteral("cloud sim: 6 klusters listed")), qPrintable(log));
    QVERIFY2(log.contains(QStringLiteral("cloud sim: klusters could not be listed")), qPrintable(log));
    QVERIFY2(!log.contains(QStringLiteral("Sanitizer")), qPrintable(log.right(4000)));
}

// Accept-Encoding: gzip (as Prometheus sends it) gets /metrics gzipped, the same series once inflated;
// gzip;q=0, another coding only, or no Accept-Encoding get it plain. Every answer of /metrics says Vary.
void TestCliFleet::serveGzipsMetricsWhenAsked()
{
    QProcess serve;
    QString log;
    const QString base = startServe(serve, words({ "--refresh", "5m" }), &log);
    QVERIFY2(!base.isEmpty(), qPrintable(log));
    // The series, their values but the scrape's own duration (which differs from one answer to the next).
    const auto series = [](const QByteArray &text) {
        QStringList lines = QString::fromUtf8(text).split(QLatin1Char('\n'));
        lines.removeIf(
            [](const QString &l) { return l.startsWith(QLatin1String("flightdeck_scrape_duration")); });
        return lines;
    };
    const auto [plainHead, plain] = rawGet(base, "/metrics", QByteArray());
    QVERIFY2(plainHead.startsWith("HTTP/1.1 200"), plainHead.constData());
    QVERIFY(!plainHead.toLower().contains("content-encoding"));
    QVERIFY(plainHead.contains("\r\nVary: Accept-Encoding"));
    QVERIFY(plain.startsWith("# HELP "));

    const auto [gzipHead, gzipped] = rawGet(base, "/metrics", "Accept-Encoding: gzip\r\n");
    QVERIFY2(
        gzipHead.contains("\r\nContent-Encoding: gzip") && gzipHead.contains("\r\nVary: Accept-Encoding"),
        gzipHead.constData());
    QVERIFY(gzipHead.contains("Content-Length: " + QByteArray::number(gzipped.size()) + "\r\n"));
    QVERIFY(gzipped.startsWith("\x1f\x8b"));
    QVERIFY2(gzipped.size() * 3 < plain.size(),
        qPrintable(QStringLiteral("%1 of %2").arg(gzipped.size()).arg(plain.size())));
    // Inflated by zlib (the CRC and length gzip carries checked), then the same series as plain.
    QByteArray inflated(plain.size() * 2 + 4096, '\0');
    z_stream z = {};
    QCOMPARE(inflateInit2(&z, 15 + 16), Z_OK);
    z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(gzipped.constData()));
    z.avail_in = uInt(gzipped.size());
    z.next_out = reinterpret_cast<Bytef *>(inflated.data());
    z.avail_out = uInt(inflated.size());
    QCOMPARE(inflate(&z, Z_FINISH), Z_STREAM_END);
    inflated.truncate(qsizetype(z.total_out));
    inflateEnd(&z);
    QCOMPARE(series(inflated), series(plain));
    QVERIFY(promtoolComplaints(inflated).isEmpty());

    for (const QByteArray &refused :
        { QByteArray("Accept-Encoding: gzip;q=0\r\n"), QByteArray("Accept-Encoding: GZIP; q=0, deflate\r\n"),
            QByteArray("Accept-Encoding: identity\r\n") }) {
        const auto [head, body] = rawGet(base, "/metrics", refused);
        QVERIFY2(
            !head.toLower().contains("content-encoding") && body.startsWith("# HELP "), refused.constData());
    }
    // In any case, with spaces, "*" too.
    for (const QByteArray &taken :
        { QByteArray("accept-encoding:  deflate , Gzip ;q=0.5\r\n"), QByteArray("Accept-Encoding: *\r\n") }) {
        const auto [head, body] = rawGet(base, "/metrics", taken);
        QVERIFY2(
            head.contains("\r\nContent-Encoding: gzip") && body.startsWith("\x1f\x8b"), taken.constData());
    }
    // Prometheus' own scrape (and Qt's client, which inflates it itself) read it as ever.
    QVERIFY(m_cli->sim.request("GET", base + QStringLiteral("/metrics")).body.startsWith("# HELP "));
    ::kill(pid_t(serve.processId()), SIGTERM);
    QVERIFY(serve.waitForFinished(15000));
}

QTEST_GUILESS_MAIN(TestCliFleet)
#include "tst_cli_fleet.moc"
