#include "tests/simulator/simfixture.h"

#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

// The real clients accept the simulated cloud: Debian's `openstack` (OSC 6.0)
// and `kubectl`, each asserted on its own output.
class TestSimulatorClients : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void openstackServerList();
    void openstackRouterShowAddRemoveRoute();
    void openstackSecurityGroupRuleCreateAndConflict();
    void openstackServerAddSecurityGroup();
    void openstackServerDelete();
    void kubectlGetNodesWide();
    void kubectlCordonAndDeleteNode();

private:
    struct Result
    {
        int exitCode = -1;
        QString out;
        QString err;
    };
    Result run(const QString &program, const QStringList &args);
    Result openstack(const QStringList &args) { return run(m_openstack, args); }
    Result kubectl(const QStringList &args)
    {
        return run(m_kubectl, QStringList { QStringLiteral("--kubeconfig"), m_kubeconfig } + args);
    }
    const SimServer *server(const QString &name) const
    {
        for (const SimServer &s : m_fixture->sim.world().servers) {
            if (s.name == name)
                return &s;
        }
        return nullptr;
    }

    std::unique_ptr<SimFixture> m_fixture;
    QTemporaryDir m_home;
    QString m_openstack;
    QString m_kubectl;
    QString m_kubeconfig;
};

void TestSimulatorClients::initTestCase()
{
    m_openstack = QStandardPaths::findExecutable(QStringLiteral("openstack"));
    if (m_openstack.isEmpty())
        QFAIL("the openstack client is not installed (Debian: python3-openstackclient; scripts/setup "
              "installs it)");
    m_kubectl = QStandardPaths::findExecutable(QStringLiteral("kubectl"));
    m_fixture = std::make_unique<SimFixture>();
    m_kubeconfig = m_home.filePath(QStringLiteral("demo.yaml"));
    QFile f(m_kubeconfig);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(m_fixture->sim.kubeconfig(QStringLiteral("demo")));
}

TestSimulatorClients::Result TestSimulatorClients::run(const QString &program, const QStringList &args)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString &key : env.keys()) {
        if (key.startsWith(QLatin1String("OS_")) || key == QLatin1String("KUBECONFIG"))
            env.remove(key);
    }
    env.insert(QStringLiteral("HOME"), m_home.path());
    env.insert(QStringLiteral("KUBECACHEDIR"), m_home.filePath(QStringLiteral("kube-cache")));
    env.insert(QStringLiteral("OS_AUTH_URL"), m_fixture->sim.authUrl());
    env.insert(QStringLiteral("OS_IDENTITY_API_VERSION"), QStringLiteral("3"));
    env.insert(QStringLiteral("OS_REGION_NAME"), QStringLiteral("RegionOne"));
    env.insert(QStringLiteral("OS_USERNAME"), QStringLiteral("demo"));
    env.insert(QStringLiteral("OS_PASSWORD"), QStringLiteral("flightdeck-demo"));
    env.insert(QStringLiteral("OS_PROJECT_NAME"), QStringLiteral("flightdeck-demo"));
    env.insert(QStringLiteral("OS_USER_DOMAIN_NAME"), QStringLiteral("Default"));
    env.insert(QStringLiteral("OS_PROJECT_DOMAIN_NAME"), QStringLiteral("Default"));
    p.setProcessEnvironment(env);
    QSignalSpy finished(&p, &QProcess::finished);
    p.start(program, args);
    // Wait in the event loop: the simulator answers from this thread meanwhile.
    if (!finished.wait(120000)) {
        p.kill();
        p.waitForFinished(5000);
    }
    Result r { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
        QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError()) };
    if (r.exitCode != 0)
        qInfo().noquote() << program << args.join(QLatin1Char(' ')) << "exit" << r.exitCode
                          << r.err.trimmed();
    return r;
}

void TestSimulatorClients::openstackServerList()
{
    const Result r = openstack(
        { QStringLiteral("server"), QStringLiteral("list"), QStringLiteral("-f"), QStringLiteral("json") });
    QCOMPARE(r.exitCode, 0);
    const QJsonArray list = QJsonDocument::fromJson(r.out.toUtf8()).array();
    QCOMPARE(list.size(), m_fixture->sim.world().servers.size());
    bool sawError = false;
    for (const QJsonValue &v : list) {
        const QJsonObject o = v.toObject();
        if (o.value(QStringLiteral("Name")).toString() == QLatin1String("kks-demo-pool-t5y6u")) {
            sawError = o.value(QStringLiteral("Status")).toString() == QLatin1String("ERROR");
            QCOMPARE(o.value(QStringLiteral("Flavor")).toString(), QStringLiteral("m1.small"));
            QCOMPARE(o.value(QStringLiteral("Image")).toString(), QStringLiteral("flatcar-stable-amd64"));
        }
    }
    QVERIFY(sawError);
}

void TestSimulatorClients::openstackRouterShowAddRemoveRoute()
{
    const QString routerId = m_fixture->sim.world().klusters.first().routerId;
    const SimRouter *router = &m_fixture->sim.world().routers[m_fixture->sim.world().routerIndex(routerId)];
    Result r = openstack({ QStringLiteral("router"), QStringLiteral("show"), QStringLiteral("kks-router"),
        QStringLiteral("-f"), QStringLiteral("json") });
    QCOMPARE(r.exitCode, 0);
    const QJsonObject shown = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(shown.value(QStringLiteral("id")).toString(), routerId);
    QCOMPARE(shown.value(QStringLiteral("routes")).toArray().size(), router->routes.size());
    QCOMPARE(shown.value(QStringLiteral("interfaces_info")).toArray().size(), 1);

    r = openstack(
        { QStringLiteral("router"), QStringLiteral("add"), QStringLiteral("route"), QStringLiteral("--route"),
            QStringLiteral("destination=198.19.9.0/24,gateway=10.180.0.35"), QStringLiteral("kks-router") });
    QCOMPARE(r.exitCode, 0);
    QVERIFY(
        router->routes.contains(SimRoute { QStringLiteral("198.19.9.0/24"), QStringLiteral("10.180.0.35") }));
    r = openstack({ QStringLiteral("router"), QStringLiteral("remove"), QStringLiteral("route"),
        QStringLiteral("--route"), QStringLiteral("destination=198.19.7.0/24,gateway=10.180.0.99"),
        QStringLiteral("kks-router") });
    QCOMPARE(r.exitCode, 0);
    QVERIFY(!router->routes.contains(
        SimRoute { QStringLiteral("198.19.7.0/24"), QStringLiteral("10.180.0.99") }));
}

void TestSimulatorClients::openstackSecurityGroupRuleCreateAndConflict()
{
    const QStringList args = { QStringLiteral("security"), QStringLiteral("group"), QStringLiteral("rule"),
        QStringLiteral("create"), QStringLiteral("--ingress"), QStringLiteral("--ethertype"),
        QStringLiteral("IPv4"), QStringLiteral("--protocol"), QStringLiteral("tcp"),
        QStringLiteral("--remote-ip"), QStringLiteral("100.100.0.0/16"), QStringLiteral("kks-demo"),
        QStringLiteral("-f"), QStringLiteral("json") };
    Result r = openstack(args);
    QCOMPARE(r.exitCode, 0);
    const QString id
        = QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("id")).toString();
    QVERIFY(!id.isEmpty());
    r = openstack(args);
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("409"))
            && r.err.contains(QStringLiteral("Security group rule already exists. Rule id is ") + id),
        qPrintable(r.err));
}

void TestSimulatorClients::openstackServerAddSecurityGroup()
{
    const Result r = openstack({ QStringLiteral("server"), QStringLiteral("add"), QStringLiteral("security"),
        QStringLiteral("group"), QStringLiteral("demo-pool-r3s4d"), QStringLiteral("kks-demo") });
    QCOMPARE(r.exitCode, 0);
    QVERIFY(m_fixture->sim.world()
                .serverGroupNames(*server(QStringLiteral("demo-pool-r3s4d")))
                .contains(QStringLiteral("kks-demo")));
}

void TestSimulatorClients::openstackServerDelete()
{
    QVERIFY(server(QStringLiteral("kks-demo-pool-t5y6u")));
    const Result r = openstack(
        { QStringLiteral("server"), QStringLiteral("delete"), QStringLiteral("kks-demo-pool-t5y6u") });
    QCOMPARE(r.exitCode, 0);
    QVERIFY(!server(QStringLiteral("kks-demo-pool-t5y6u")));
}

void TestSimulatorClients::kubectlGetNodesWide()
{
    if (m_kubectl.isEmpty())
        QSKIP("kubectl is not installed on this machine");
    // The server deleted before has its node removed and a replacement registered a moment later: let the
    // world settle first, or the count below races the replacement's registration.
    QTRY_VERIFY_WITH_TIMEOUT(m_fixture->sim.world().pending.isEmpty(), 10000);
    const Result r = kubectl(
        { QStringLiteral("get"), QStringLiteral("nodes"), QStringLiteral("-o"), QStringLiteral("wide") });
    QCOMPARE(r.exitCode, 0);
    const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY2(lines.first().contains(QStringLiteral("INTERNAL-IP")), qPrintable(lines.first()));
    QCOMPARE(lines.size() - 1, m_fixture->sim.world().klusters.first().nodes.size());
    bool found = false;
    for (const QString &line : lines) {
        if (line.startsWith(QLatin1String("kks-demo-pool-m4r8t"))) {
            QVERIFY2(line.contains(QStringLiteral("Unknown")) && line.contains(QStringLiteral("10.180.0.24")),
                qPrintable(line));
            found = true;
        }
    }
    QVERIFY(found);
}

void TestSimulatorClients::kubectlCordonAndDeleteNode()
{
    if (m_kubectl.isEmpty())
        QSKIP("kubectl is not installed on this machine");
    Result r = kubectl({ QStringLiteral("cordon"), QStringLiteral("kks-demo-pool-h7k2p") });
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(QStringLiteral("node/kks-demo-pool-h7k2p cordoned")), qPrintable(r.out));
    SimKluster &demo = m_fixture->sim.world().klusters.first();
    QVERIFY(demo.nodes.at(m_fixture->sim.world().nodeIndex(demo, QStringLiteral("kks-demo-pool-h7k2p")))
                .unschedulable);
    r = kubectl({ QStringLiteral("get"), QStringLiteral("node"), QStringLiteral("kks-demo-pool-h7k2p") });
    QVERIFY2(r.out.contains(QStringLiteral("Ready,SchedulingDisabled")), qPrintable(r.out));
    r = kubectl({ QStringLiteral("delete"), QStringLiteral("node"), QStringLiteral("kks-demo-pool-m4r8t") });
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(QStringLiteral("node \"kks-demo-pool-m4r8t\" deleted")), qPrintable(r.out));
    QCOMPARE(m_fixture->sim.world().nodeIndex(demo, QStringLiteral("kks-demo-pool-m4r8t")), -1);
}

QTEST_GUILESS_MAIN(TestSimulatorClients)
#include "tst_simulator_clients.moc"
