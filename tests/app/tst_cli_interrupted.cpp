// A repair interrupted at any moment leaves its record: `flightdeck-cli repair
// --yes` is killed (SIGKILL, SIGTERM, SIGINT) while its request is in flight,
// while it verifies, and after it is done. The audit log then shows the
// first two as interrupted (check the cloud), with what was about to be
// sent, and the last as finished; never nothing, never a torn line.

#include "tests/app/clifixture.h"

#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <csignal>
#include <sys/resource.h>

class TestCliInterrupted : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void killedWhileTheRequestIsInFlight_data();
    void killedWhileTheRequestIsInFlight();
    void killedWhileVerifying();
    void completedIsFinished();
    void refusedWhenTheRecordCannotBeWritten();
    void abortLeavesNoCoreDump();

private:
    // Starts the repair of the ERROR instance with --yes; returns once its started record is on disk.
    [[nodiscard]] bool startRepair(QProcess &p);
    QList<QJsonObject> audit() const { return m_cli->audit(); }

    std::unique_ptr<CliFixture> m_cli;
};

namespace {
const QString Finding = QStringLiteral("instance-error:kks-demo-pool-t5y6u");
}

void TestCliInterrupted::init()
{
    m_cli = std::make_unique<CliFixture>();
}

void TestCliInterrupted::cleanup()
{
    m_cli.reset();
}

bool TestCliInterrupted::startRepair(QProcess &p)
{
    m_cli->start(p,
        { QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim"),
            QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--finding"), Finding,
            QStringLiteral("--yes") });
    // The simulated cloud answers from this event loop: wait by spinning it.
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 30000) {
        QTest::qWait(20);
        QFile log(m_cli->auditPath());
        if (log.open(QIODevice::ReadOnly) && log.readAll().contains("\"phase\":\"started\""))
            return true;
        if (p.state() == QProcess::NotRunning)
            return false;
    }
    return false;
}

void TestCliInterrupted::killedWhileTheRequestIsInFlight_data()
{
    QTest::addColumn<int>("signal");
    QTest::newRow("SIGKILL") << int(SIGKILL);
    QTest::newRow("SIGTERM") << int(SIGTERM);
    QTest::newRow("SIGINT") << int(SIGINT);
}

void TestCliInterrupted::killedWhileTheRequestIsInFlight()
{
    QFETCH(int, signal);
    // Nova takes 5 s to answer the DELETE: the process dies with the request sent and no answer.
    FaultRule slow;
    slow.service = QStringLiteral("compute");
    slow.method = QStringLiteral("DELETE");
    slow.kind = FaultRule::Kind::Latency;
    slow.latencyMs = 5000;
    m_cli->sim.sim.faults().add(slow);
    QProcess p;
    QVERIFY(startRepair(p));
    QTest::qWait(300); // the DELETE is on its way
    ::kill(pid_t(p.processId()), signal);
    QVERIFY(p.waitForFinished(10000));

    const QList<QJsonObject> records = audit();
    QCOMPARE(records.size(), 1);
    const QJsonObject &r = records.first();
    QCOMPARE(r.value(QStringLiteral("finding")).toString(), Finding);
    QCOMPARE(r.value(QStringLiteral("verification")).toString(), QStringLiteral("interrupted"));
    QVERIFY(r.value(QStringLiteral("interrupted")).toBool());
    // What was about to be sent, exactly.
    const QJsonArray planned = r.value(QStringLiteral("planned")).toArray();
    QCOMPARE(planned.size(), 1);
    QCOMPARE(planned.first().toObject().value(QStringLiteral("method")).toString(), QStringLiteral("DELETE"));
    QVERIFY(planned.first()
                .toObject()
                .value(QStringLiteral("path"))
                .toString()
                .startsWith(QStringLiteral("/servers/")));
    // Said in words by `flightdeck-cli audit`.
    const CliFixture::Run text = m_cli->cli({ QStringLiteral("audit") });
    QVERIFY2(text.out.contains(QStringLiteral("INTERRUPTED - check the cloud")), qPrintable(text.out));
    QVERIFY2(text.out.contains(QStringLiteral("1 repair(s) were interrupted")), qPrintable(text.out));
    // Every line of the log is whole JSON.
    QFile log(m_cli->auditPath());
    QVERIFY(log.open(QIODevice::ReadOnly));
    for (const QByteArray &line : log.readAll().split('\n')) {
        if (!line.isEmpty())
            QVERIFY2(QJsonDocument::fromJson(line).isObject(), line.constData());
    }
}

void TestCliInterrupted::killedWhileVerifying()
{
    QProcess p;
    // Once the DELETE is answered, the verification's fetch hangs (the nodes take 10 s).
    FaultRule slowNodes;
    slowNodes.service = QStringLiteral("kubernetes");
    slowNodes.kind = FaultRule::Kind::Latency;
    slowNodes.latencyMs = 10000;
    QVERIFY(startRepair(p));
    m_cli->sim.sim.faults().add(slowNodes);
    // The instance is deleted (the request was answered), then the process dies verifying.
    QElapsedTimer clock;
    clock.start();
    const auto deleted = [this] {
        const auto &servers = m_cli->sim.sim.world().servers;
        return std::none_of(servers.cbegin(), servers.cend(), [](const SimServer &s) {
            return s.name == QLatin1String("kks-demo-pool-t5y6u") && s.status != QLatin1String("DELETED");
        });
    };
    while (!deleted() && clock.elapsed() < 20000)
        QTest::qWait(20);
    QVERIFY(deleted());
    QTest::qWait(300);
    ::kill(pid_t(p.processId()), SIGKILL);
    QVERIFY(p.waitForFinished(10000));
    const QList<QJsonObject> records = audit();
    QCOMPARE(records.size(), 1);
    QCOMPARE(records.first().value(QStringLiteral("verification")).toString(), QStringLiteral("interrupted"));
}

void TestCliInterrupted::completedIsFinished()
{
    const CliFixture::Run r = m_cli->cli({ QStringLiteral("repair"), QStringLiteral("--cloud"),
        QStringLiteral("sim"), QStringLiteral("--kluster"), QStringLiteral("demo"),
        QStringLiteral("--finding"), Finding, QStringLiteral("--yes") });
    QCOMPARE(r.exitCode, 0);
    const QList<QJsonObject> records = audit();
    QCOMPARE(records.size(), 1);
    const QJsonObject &rec = records.first();
    QCOMPARE(rec.value(QStringLiteral("verification")).toString(), QStringLiteral("fixed"));
    QVERIFY(!rec.value(QStringLiteral("interrupted")).toBool());
    QCOMPARE(rec.value(QStringLiteral("requests"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(QStringLiteral("status"))
                 .toInt(),
        204);
    QVERIFY(rec.contains(QStringLiteral("finishedAt")));
    // Two lines on disk: started, then finished.
    QFile log(m_cli->auditPath());
    QVERIFY(log.open(QIODevice::ReadOnly));
    const QByteArray bytes = log.readAll();
    QCOMPARE(bytes.count('\n'), 2);
    QVERIFY(bytes.indexOf("\"phase\":\"started\"") < bytes.indexOf("\"phase\":\"finished\""));
}

void TestCliInterrupted::refusedWhenTheRecordCannotBeWritten()
{
    // The audit log cannot be written: nothing is sent.
    QDir().mkpath(QFileInfo(m_cli->auditPath()).absolutePath());
    QVERIFY(QDir().mkpath(m_cli->auditPath())); // a folder where the file should be
    const CliFixture::Run r = m_cli->cli({ QStringLiteral("repair"), QStringLiteral("--cloud"),
        QStringLiteral("sim"), QStringLiteral("--kluster"), QStringLiteral("demo"),
        QStringLiteral("--finding"), Finding, QStringLiteral("--yes") });
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains(QStringLiteral("nothing was sent")), qPrintable(r.err));
    const auto &servers = m_cli->sim.sim.world().servers;
    QVERIFY(std::any_of(servers.cbegin(), servers.cend(), [](const SimServer &s) {
        return s.name == QLatin1String("kks-demo-pool-t5y6u") && s.status == QLatin1String("ERROR");
    }));
}

// An abort while the password is in memory, with core dumps allowed by whoever started it: the process turned
// them off itself, so no core file holds the password.
void TestCliInterrupted::abortLeavesNoCoreDump()
{
    FaultRule slow;
    slow.service = QStringLiteral("compute");
    slow.method = QStringLiteral("DELETE");
    slow.kind = FaultRule::Kind::Latency;
    slow.latencyMs = 5000;
    m_cli->sim.sim.faults().add(slow);
    QProcess p;
    p.setChildProcessModifier([] {
        const rlimit unlimited { RLIM_INFINITY, RLIM_INFINITY };
        ::setrlimit(RLIMIT_CORE, &unlimited);
    });
    QVERIFY(startRepair(p));
    QFile limits(QStringLiteral("/proc/%1/limits").arg(p.processId()));
    QVERIFY(limits.open(QIODevice::ReadOnly));
    const QString text = QString::fromLatin1(limits.readAll());
    static const QRegularExpression core(QStringLiteral("Max core file size\\s+(\\S+)\\s+(\\S+)"));
    const QRegularExpressionMatch m = core.match(text);
    QVERIFY2(m.hasMatch(), qPrintable(text));
    QCOMPARE(m.captured(1), QStringLiteral("0"));
    QCOMPARE(m.captured(2), QStringLiteral("0"));
    ::kill(pid_t(p.processId()), SIGABRT);
    QVERIFY(p.waitForFinished(10000));
    QCOMPARE(p.exitStatus(), QProcess::CrashExit);
    const QStringList cores = QDir(m_cli->home.path()).entryList({ QStringLiteral("core*") }, QDir::Files);
    QVERIFY2(cores.isEmpty(), qPrintable(cores.join(QLatin1Char(' '))));
}

QTEST_GUILESS_MAIN(TestCliInterrupted)
#include "tst_cli_interrupted.moc"
