// Repairs teammates can see: flightdeck-cli repair against the simulated cloud leaves its Kubernetes Events
// in the kluster (before it is sent, after it is verified), the real kubectl reads them back, and an API
// server that refuses Events (403) neither blocks the repair nor hides it: the audit record says so.

#include "tests/app/clifixture.h"

#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

class TestCliTeam : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void repairLeavesEventsKubectlReads();
    void forbiddenEventsLeaveTheRepair();

private:
    CliFixture::Run kubectl(const QStringList &args);
    QJsonObject lastRecord() const;
    std::unique_ptr<CliFixture> m_cli;
};

void TestCliTeam::init()
{
    m_cli = std::make_unique<CliFixture>();
}

void TestCliTeam::cleanup()
{
    m_cli.reset();
}

CliFixture::Run TestCliTeam::kubectl(const QStringList &args)
{
    const QString kubeconfig = m_cli->home.filePath(QStringLiteral("demo.kubeconfig"));
    QFile f(kubeconfig);
    if (f.open(QIODevice::WriteOnly))
        f.write(m_cli->sim.sim.kubeconfig(QStringLiteral("demo")));
    f.close();
    QProcess p;
    QProcessEnvironment env = m_cli->environment();
    env.insert(QStringLiteral("KUBECACHEDIR"), m_cli->home.filePath(QStringLiteral("kube-cache")));
    p.setProcessEnvironment(env);
    QSignalSpy finished(&p, &QProcess::finished);
    p.start(QStandardPaths::findExecutable(QStringLiteral("kubectl")),
        QStringList { QStringLiteral("--kubeconfig"), kubeconfig } + args);
    if (!finished.wait(60000))
        p.kill();
    return { p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
        QString::fromUtf8(p.readAllStandardError()) };
}

QJsonObject TestCliTeam::lastRecord() const
{
    const QList<QJsonObject> records = m_cli->audit();
    return records.isEmpty() ? QJsonObject() : records.last();
}

void TestCliTeam::repairLeavesEventsKubectlReads()
{
    const QString finding = QStringLiteral("node-without-instance:kks-demo-pool-g4h0s");
    const CliFixture::Run r = m_cli->cli({ QStringLiteral("repair"), QStringLiteral("--cloud"),
        QStringLiteral("sim"), QStringLiteral("--kluster"), QStringLiteral("demo"),
        QStringLiteral("--finding"), finding, QStringLiteral("--yes") });
    QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("Result: fixed")), qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains(QStringLiteral("Events: RepairStarted written; RepairVerified written")),
        qPrintable(r.out));

    // In the kluster: the repair's two Events, regarding the node, with the finding, the user and the audit
    // id.
    const QList<QJsonObject> events = m_cli->sim.sim.events().events(QStringLiteral("demo"));
    QCOMPARE(events.size(), 2);
    const QJsonObject record = lastRecord();
    const QString auditId = record.value(QStringLiteral("id")).toString();
    QVERIFY(!auditId.isEmpty());
    QStringList reasons;
    for (const QJsonObject &e : events) {
        reasons << e.value(QStringLiteral("reason")).toString();
        QCOMPARE(e.value(QStringLiteral("reportingController")).toString(), QStringLiteral("flightdeck"));
        QCOMPARE(e.value(QStringLiteral("regarding")).toObject().value(QStringLiteral("name")).toString(),
            QStringLiteral("kks-demo-pool-g4h0s"));
        const QString note = e.value(QStringLiteral("note")).toString();
        QVERIFY2(note.contains(finding) && note.contains(QStringLiteral("demo")) && note.contains(auditId),
            qPrintable(note));
    }
    QCOMPARE(reasons, (QStringList { QStringLiteral("RepairStarted"), QStringLiteral("RepairVerified") }));
    QCOMPARE(record.value(QStringLiteral("events")).toArray(),
        (QJsonArray { QStringLiteral("RepairStarted written"), QStringLiteral("RepairVerified written") }));

    if (QStandardPaths::findExecutable(QStringLiteral("kubectl")).isEmpty())
        QSKIP("kubectl is not installed on this machine");
    // What a teammate's terminal shows: `kubectl get events` (the server's table) and `kubectl events`.
    CliFixture::Run k = kubectl({ QStringLiteral("get"), QStringLiteral("events") });
    QVERIFY2(k.exitCode == 0, qPrintable(k.err));
    QVERIFY2(k.out.contains(QStringLiteral("RepairStarted"))
            && k.out.contains(QStringLiteral("RepairVerified"))
            && k.out.contains(QStringLiteral("node/kks-demo-pool-g4h0s")),
        qPrintable(k.out));
    k = kubectl(
        { QStringLiteral("events"), QStringLiteral("--for"), QStringLiteral("node/kks-demo-pool-g4h0s") });
    QVERIFY2(k.exitCode == 0, qPrintable(k.err));
    QVERIFY2(k.out.contains(QStringLiteral("RepairVerified")) && k.out.contains(QStringLiteral("Normal")),
        qPrintable(k.out));
    k = kubectl({ QStringLiteral("get"), QStringLiteral("events.events.k8s.io"), QStringLiteral("-o"),
        QStringLiteral("json") });
    QVERIFY2(k.exitCode == 0, qPrintable(k.err));
    QCOMPARE(
        QJsonDocument::fromJson(k.out.toUtf8()).object().value(QStringLiteral("items")).toArray().size(), 2);

    // An hour later they are gone, as the API server's event TTL has it.
    m_cli->sim.sim.world().advance(KubeEvents::TtlSeconds + 1);
    QCOMPARE(m_cli->sim.sim.events().events(QStringLiteral("demo")).size(), 0);
}

void TestCliTeam::forbiddenEventsLeaveTheRepair()
{
    FaultRule forbidden;
    forbidden.service = QStringLiteral("kubernetes");
    forbidden.path = QRegularExpression(QStringLiteral("^/apis/events\\.k8s\\.io/"));
    forbidden.kind = FaultRule::Kind::Status;
    forbidden.status = 403;
    m_cli->sim.sim.faults().add(forbidden);
    const CliFixture::Run r
        = m_cli->cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim"),
            QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--finding"),
            QStringLiteral("security-group-rule-missing:tcp"), QStringLiteral("--yes") });
    QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("Result: fixed")), qPrintable(r.out + r.err));
    QVERIFY2(
        r.out.contains(QStringLiteral("RepairStarted not written")) && r.out.contains(QStringLiteral("403")),
        qPrintable(r.out));
    QCOMPARE(m_cli->sim.sim.events().events(QStringLiteral("demo")).size(), 0);
    const QJsonObject record = lastRecord();
    QCOMPARE(record.value(QStringLiteral("verification")).toString(), QStringLiteral("fixed"));
    QVERIFY(!record.value(QStringLiteral("requests")).toArray().isEmpty());
    const QJsonArray events = record.value(QStringLiteral("events")).toArray();
    QCOMPARE(events.size(), 2);
    for (const QJsonValue e : events)
        QVERIFY2(e.toString().contains(QStringLiteral("not written"))
                && e.toString().contains(QStringLiteral("403")),
            qPrintable(e.toString()));
}

QTEST_GUILESS_MAIN(TestCliTeam)
#include "tst_cli_team.moc"
