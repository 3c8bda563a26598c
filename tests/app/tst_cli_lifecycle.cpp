// flightdeck-cli against the simulated cloud whose Kubernikus runs its own controllers (diagnosis.md §7): a
// finding flight repairs says when, a repair that would race it is refused, flight's work done on the world's
// clock closes it; a stalled flight is an incident; a Terminating kluster is one finding.
#include "tests/app/clifixture.h"

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

QTEST_MAIN(TestCliLifecycle)
#include "tst_cli_lifecycle.moc"
