// flightdeck-cli against the simulated cloud whose Kubernikus runs its own controllers (diagnosis.md §7): a
// finding flight repairs says when, a repair that would race it is refused, flight's work done on the world's
// clock closes it; a stalled flight is an incident; a Terminating kluster is one finding.
#include "tests/app/clifixture.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

class TestCliLifecycle : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void flightDeletesWhatNeverRegistered();
    void stalledFlightIsAnIncident();
    void terminatingIsOneFinding();
    void explainShowsTheBootEvidence();
    void kubernikusEventsInTheReportAndTheSnapshot();
    void kubernikusEventsThatFailChangeNoVerdict();

private:
    using Run = CliFixture::Run;
    int admin(const QString &path, const QByteArray &body);
    QJsonObject check(int *exitCode = nullptr);
    QString bootUnregistered(int ageMinutes);

    std::unique_ptr<CliFixture> m_cli;
};

void TestCliLifecycle::init()
{
    m_cli = std::make_unique<CliFixture>();
    m_cli->assumeAutomation = true; // these tests are about it
}

void TestCliLifecycle::cleanup()
{
    m_cli.reset();
}

int TestCliLifecycle::admin(const QString &path, const QByteArray &body)
{
    return m_cli->sim.request("POST", m_cli->sim.sim.adminUrl() + path, body, {}, false).status;
}

QJsonObject TestCliLifecycle::check(int *exitCode)
{
    const Run r = m_cli->cli({ QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--format"),
        QStringLiteral("json") });
    if (exitCode)
        *exitCode = r.exitCode;
    return QJsonDocument::fromJson(r.out.toUtf8()).object();
}

static QJsonObject findingOf(const QJsonObject &report, const QString &id)
{
    for (const QJsonValue &f : report.value(QStringLiteral("findings")).toArray()) {
        if (f.toObject().value(QStringLiteral("id")).toString() == id)
            return f.toObject();
    }
    return {};
}

// An instance of kluster demo that boots and never registers, created `ageMinutes` ago.
QString TestCliLifecycle::bootUnregistered(int ageMinutes)
{
    World &w = m_cli->sim.sim.world();
    SimKluster &k = w.klusters[w.klusterIndex(QStringLiteral("demo"))];
    const QString name = QStringLiteral("kks-demo-%1-nvr%2").arg(k.pools.first().name).arg(ageMinutes);
    SimServer &s = w.addServer(k.projectId, name, w.networks.at(w.networkIndex(k.networkId)).id, QString(),
        { k.securityGroupName }, w.now().addSecs(-qint64(ageMinutes) * 60));
    s.kluster = k.name;
    s.pool = k.pools.first().name;
    s.updated = w.now();
    return name;
}

void TestCliLifecycle::flightDeletesWhatNeverRegistered()
{
    QCOMPARE(admin(QStringLiteral("/settings"), R"({"flight": true})"), 204);
    const QString name = bootUnregistered(20);
    const QString id = QStringLiteral("instance-unregistered:") + name;
    const QJsonObject before = check();
    const QJsonObject f = findingOf(before, id);
    QVERIFY2(!f.isEmpty(), QJsonDocument(before).toJson().constData());
    const QJsonObject a = f.value(QStringLiteral("automation")).toObject();
    QCOMPARE(a.value(QStringLiteral("actor")).toString(), QStringLiteral("flight"));
    QCOMPARE(a.value(QStringLiteral("action")).toString(), QStringLiteral("delete-instance"));
    QCOMPARE(a.value(QStringLiteral("overdue")).toBool(true), false);
    // The repair would race flight: refused, exit status 2, and the override named.
    Run r = m_cli->cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--finding"), id,
        QStringLiteral("--yes") });
    QCOMPARE(r.exitCode, 2);
    const QString said = r.out + r.err; // the plan on standard output, "not sent" and why on standard error
    QVERIFY2(
        said.contains(QStringLiteral("AutomationPending: flight deletes the instance at")), qPrintable(said));
    QVERIFY2(said.contains(QStringLiteral("--override AutomationPending")), qPrintable(said));
    // An override naming another reason lets nothing through.
    r = m_cli->cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--finding"), id,
        QStringLiteral("--override"), QStringLiteral("TooManyUnhealthy"), QStringLiteral("--dry-run") });
    QCOMPARE(r.exitCode, 2);
    // The world's clock past the due time: flight deletes it (and launch control replaces it).
    QCOMPARE(admin(QStringLiteral("/clock/advance"), R"({"seconds": 1800})"), 200);
    QTRY_VERIFY_WITH_TIMEOUT(m_cli->sim.sim.world().serverIndexByName(name) < 0, 5000);
    QVERIFY(findingOf(check(), id).isEmpty());
}

void TestCliLifecycle::stalledFlightIsAnIncident()
{
    const Reply caused
        = m_cli->sim.request("POST", m_cli->sim.sim.adminUrl() + QStringLiteral("/klusters/demo/cause"),
            R"({"rule": "flight-stalled"})", {}, false);
    QCOMPARE(caused.status, 200);
    // "flight stopped; kks-demo-pool-stal0, kks-demo-pool-stal1 never registered (created 55 min ago)"
    const QStringList booted = QJsonDocument::fromJson(caused.body)
                                   .object()
                                   .value(QStringLiteral("caused"))
                                   .toString()
                                   .section(QStringLiteral("; "), 1)
                                   .section(QStringLiteral(" never"), 0, 0)
                                   .split(QStringLiteral(", "));
    QCOMPARE(booted.size(), 2);
    QVERIFY(!m_cli->sim.sim.world().flight.on);
    int exitCode = -1;
    const QJsonObject report = check(&exitCode);
    QCOMPARE(exitCode, 2);
    QJsonObject stalled;
    for (const QJsonValue &i : report.value(QStringLiteral("incidents")).toArray()) {
        if (i.toObject().value(QStringLiteral("rule")).toString() == QLatin1String("automation-stalled"))
            stalled = i.toObject();
    }
    QVERIFY2(!stalled.isEmpty(), QJsonDocument(report).toJson().constData());
    QCOMPARE(stalled.value(QStringLiteral("key")).toString(), QStringLiteral("flight"));
    QCOMPARE(stalled.value(QStringLiteral("severity")).toString(), QStringLiteral("critical"));
    const QJsonArray members = stalled.value(QStringLiteral("members")).toArray();
    for (const QString &name : booted)
        QVERIFY2(members.contains(QStringLiteral("instance-unregistered:") + name), qPrintable(name));
    for (const QJsonValue &m : stalled.value(QStringLiteral("members")).toArray()) {
        const QJsonObject f = findingOf(report, m.toString());
        QVERIFY(f.value(QStringLiteral("automation")).toObject().value(QStringLiteral("overdue")).toBool());
        // Overdue: nothing waits for flight, the repair may be sent.
        QVERIFY(!f.value(QStringLiteral("repair")).toObject().contains(QStringLiteral("refusal")));
    }
}

void TestCliLifecycle::terminatingIsOneFinding()
{
    QCOMPARE(admin(QStringLiteral("/klusters/demo/cause"), R"({"rule": "pod-network-closed"})"), 200);
    QCOMPARE(admin(QStringLiteral("/klusters/demo/phase"), R"({"phase": "Terminating"})"), 204);
    int exitCode = -1;
    const QJsonObject report = check(&exitCode);
    QCOMPARE(report.value(QStringLiteral("phase")).toString(), QStringLiteral("Terminating"));
    const QJsonArray findings = report.value(QStringLiteral("findings")).toArray();
    QCOMPARE(findings.size(), 1);
    QCOMPARE(findings.first().toObject().value(QStringLiteral("id")).toString(),
        QStringLiteral("kluster-terminating:demo"));
    QCOMPARE(
        findings.first().toObject().value(QStringLiteral("severity")).toString(), QStringLiteral("info"));
    QVERIFY(findings.first().toObject().value(QStringLiteral("repair")).isNull());
    QCOMPARE(exitCode, 0); // an info finding alone
    const Run r = m_cli->cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--finding"),
        QStringLiteral("kluster-terminating:demo"), QStringLiteral("--yes") });
    QCOMPARE(r.exitCode, 2); // no repair of its own
}

// check --explain: the one finding, and its server's boot evidence read live from Nova: the actions and the
// console log's tail, escaped (the log is the server's text); a finding not in the check is exit 3; a
// snapshot holds no console log and says so.
void TestCliLifecycle::explainShowsTheBootEvidence()
{
    m_cli->assumeAutomation = false;
    const QString name = bootUnregistered(50);
    {
        World &w = m_cli->sim.sim.world();
        SimServer &s = w.servers[w.serverIndexByName(name)];
        // A hostile console: an escape sequence, a carriage return, a DEL (Nova keeps it), 60 lines.
        QString log;
        for (int i = 1; i <= 60; ++i)
            log += QStringLiteral("line %1\n").arg(i);
        log += QStringLiteral("\x1b[2Jcleared\r\nDEL\x7f here\n");
        s.consoleLog = log;
    }
    const QString id = QStringLiteral("instance-unregistered:") + name;
    Run r = m_cli->cli({ QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--explain"), id });
    QVERIFY2(r.out.contains(QStringLiteral("[CRITICAL] ") + id), qPrintable(r.out + r.err));
    QCOMPARE(r.exitCode, 2); // the finding's
    QVERIFY2(r.out.contains(QStringLiteral("Nova's actions on ") + name), qPrintable(r.out));
    QVERIFY(r.out.contains(QStringLiteral("  create")));
    // Nova's tail counts the empty piece after the last line break as a line: 49 lines of 62.
    QVERIFY2(r.out.contains(QStringLiteral("Console log, its last 49 line(s):")), qPrintable(r.out));
    QVERIFY(!r.out.contains(QStringLiteral("| line 13\n")));
    QVERIFY(r.out.contains(QStringLiteral("| line 14\n")));
    // Nova removes ESC and CR; DEL stays, and is shown escaped.
    QVERIFY2(r.out.contains(QStringLiteral("| [2Jcleared\n")), qPrintable(r.out));
    QVERIFY2(r.out.contains(QStringLiteral("| DEL\\x7f here\n")), qPrintable(r.out));
    QVERIFY(!r.out.contains(QChar(0x1b)) && !r.out.contains(QChar(0x7f)));

    r = m_cli->cli({ QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--explain"),
        QStringLiteral("instance-unregistered:no-such-instance") });
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains(QStringLiteral("no finding")), qPrintable(r.err));

    // The console log refused (a 403 of a policy that keeps it from readers): the actions still shown, the
    // log's absence said with why.
    QCOMPARE(
        m_cli->sim
            .request("POST", m_cli->sim.sim.adminUrl() + QStringLiteral("/faults"),
                R"({"kind": "status", "status": 403, "service": "compute", "method": "POST", "path": "/action$"})",
                {}, false)
            .status,
        201);
    r = m_cli->cli({ QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--explain"), id });
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.out.contains(
                 QStringLiteral("Console log: not read (these credentials may not read its console log")),
        qPrintable(r.out));
    QVERIFY(r.out.contains(QStringLiteral("  create")));

    const QString folder = m_cli->home.filePath(QStringLiteral("snap-explain"));
    QCOMPARE(m_cli
                 ->cli({ QStringLiteral("snapshot"), QStringLiteral("--cloud"), QStringLiteral("sim"),
                     QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--out"), folder })
                 .exitCode,
        0);
    r = m_cli->cli(
        { QStringLiteral("check"), QStringLiteral("--snapshot"), folder, QStringLiteral("--explain"), id });
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.out.contains(QStringLiteral("Boot evidence: read live only")), qPrintable(r.out + r.err));
}

// What Kubernikus recorded is in the text report, the JSON report's sources, and the snapshot
// (kubernikus-events.json), read back as it was written.
void TestCliLifecycle::kubernikusEventsInTheReportAndTheSnapshot()
{
    m_cli->assumeAutomation = false;
    QCOMPARE(admin(QStringLiteral("/klusters/demo/phase"), R"({"phase": "Upgrading"})"), 204);
    const QStringList live { QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("demo") };
    Run r = m_cli->cli(live);
    QVERIFY2(r.out.contains(QStringLiteral("Kubernikus said in the last 24 h (1 event(s), newest first):")),
        qPrintable(r.out));
    QVERIFY(r.out.contains(QStringLiteral("Normal Upgrading: Upgrading kluster")));
    const QJsonObject report = check();
    QCOMPARE(report.value(QStringLiteral("sources"))
                 .toObject()
                 .value(QStringLiteral("kubernikusEvents"))
                 .toObject(),
        (QJsonObject { { QStringLiteral("read"), true } }));

    const QString folder = m_cli->home.filePath(QStringLiteral("snap-events"));
    QCOMPARE(m_cli
                 ->cli({ QStringLiteral("snapshot"), QStringLiteral("--cloud"), QStringLiteral("sim"),
                     QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--out"), folder })
                 .exitCode,
        0);
    QFile events(QDir(folder).filePath(QStringLiteral("kubernikus-events.json")));
    QVERIFY(events.open(QIODevice::ReadOnly));
    const QJsonArray written = QJsonDocument::fromJson(events.readAll()).array();
    QCOMPARE(written.size(), 1);
    QCOMPARE(
        written.first().toObject().value(QStringLiteral("reason")).toString(), QStringLiteral("Upgrading"));
    r = m_cli->cli({ QStringLiteral("check"), QStringLiteral("--snapshot"), folder });
    QVERIFY2(
        r.out.contains(QStringLiteral("Normal Upgrading: Upgrading kluster")), qPrintable(r.out + r.err));
}

// Kubernikus' events that cannot be read (a 500, or a body that is no list) are said, and change nothing
// else: the findings, the verdict and the exit status are those of a check that read them.
void TestCliLifecycle::kubernikusEventsThatFailChangeNoVerdict()
{
    m_cli->assumeAutomation = false;
    int before = -1;
    const QJsonObject good = check(&before);
    QCOMPARE(m_cli->sim
                 .request("POST", m_cli->sim.sim.adminUrl() + QStringLiteral("/faults"),
                     R"({"kind": "status", "status": 500, "service": "kubernikus", "path": "/events$"})", {},
                     false)
                 .status,
        201);
    int after = -1;
    const QJsonObject failed = check(&after);
    QCOMPARE(after, before);
    QCOMPARE(failed.value(QStringLiteral("findings")).toArray().size(),
        good.value(QStringLiteral("findings")).toArray().size());
    const QJsonObject source = failed.value(QStringLiteral("sources"))
                                   .toObject()
                                   .value(QStringLiteral("kubernikusEvents"))
                                   .toObject();
    QCOMPARE(source.value(QStringLiteral("read")).toBool(true), false);
    QVERIFY2(source.value(QStringLiteral("error")).toString().contains(QStringLiteral("500")),
        qPrintable(source.value(QStringLiteral("error")).toString()));
    const Run r = m_cli->cli({ QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("demo") });
    QVERIFY2(r.out.contains(QStringLiteral("Kubernikus' events: not read (")), qPrintable(r.out));
}

QTEST_MAIN(TestCliLifecycle)
#include "tst_cli_lifecycle.moc"
