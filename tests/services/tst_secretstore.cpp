#include "services/http/endpointhealth.h"
#include "services/local/secretstore.h"
#include "tests/simulator/simfixture.h"

#include <QDirIterator>
#include <QProcess>
#include <QTemporaryDir>

// The keychain against a real Secret Service (gnome-keyring in a private
// D-Bus session: tests/run-with-keyring.sh), and the CLI that uses it.
class TestSecretStore : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void initTestCase();
    void roundTrip();
    void cliUsesTheKeychain();
    void withoutKeychainNothingIsStored();

private:
    SecretResult wait(SecretCall *call)
    {
        QSignalSpy spy(call, &SecretCall::finished);
        if (!spy.wait(20000))
            qFatal("the keychain job never finished");
        return spy.first().first().value<SecretResult>();
    }
    int cli(const QStringList &args, const QByteArray &input, const QProcessEnvironment &env,
        QString *out = nullptr)
    {
        QProcess p;
        p.setProcessEnvironment(env);
        QSignalSpy finished(&p, &QProcess::finished);
        p.start(QStringLiteral(FLIGHTDECK_CLI), args);
        p.write(input);
        p.closeWriteChannel();
        if (!finished.wait(60000))
            p.kill();
        if (out)
            *out = QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
        return p.exitCode();
    }
};

void TestSecretStore::initTestCase()
{
    if (qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"))
        QFAIL("no D-Bus session: run this test through tests/run-with-keyring.sh (ctest does)");
}

void TestSecretStore::roundTrip()
{
    const QString key = QStringLiteral("password/test-cloud/oncall");
    {
        SecretStore store;
        const SecretResult written = wait(store.write(key, QStringLiteral("correct horse")));
        QVERIFY2(written.ok, qPrintable(written.error));
        QVERIFY2(!written.inMemoryOnly, qPrintable(store.memoryOnlyReason())); // the real keychain
    }
    SecretStore fresh; // a new store: the secret comes from the keychain, not memory
    SecretResult read = wait(fresh.read(key));
    QVERIFY(read.found);
    QCOMPARE(read.secret, QStringLiteral("correct horse"));
    QVERIFY(wait(fresh.remove(key)).ok);
    read = wait(fresh.read(key));
    QVERIFY(!read.found);
    QVERIFY(!read.inMemoryOnly);
}

void TestSecretStore::cliUsesTheKeychain()
{
    QByteArray scenario = Scenario::defaultScenario();
    scenario.replace("\"password\": \"flightdeck-demo\"", "\"password\": \"kc-s3cret-9f2\"");
    SimFixture f(scenario);
    QTemporaryDir home;
    QDir(home.path()).mkpath(QStringLiteral("config/openstack"));
    QFile clouds(home.filePath(QStringLiteral("config/openstack/clouds.yaml")));
    QVERIFY(clouds.open(QIODevice::WriteOnly));
    clouds.write("clouds:\n  sim:\n    auth:\n      auth_url: " + f.sim.authUrl().toUtf8()
        + "\n      username: demo\n      project_name: flightdeck-demo\n      user_domain_name: Default\n"
          "      project_domain_name: Default\n"); // no password anywhere in files
    clouds.close();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString &k : env.keys()) {
        if (k.startsWith(QLatin1String("OS_")))
            env.remove(k);
    }
    env.insert(QStringLiteral("HOME"), home.path());
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
    QString out;
    QCOMPARE(cli({ QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("sim"),
                     QStringLiteral("--kluster"), QStringLiteral("blue") },
                 QByteArray(), env, &out),
        3);
    QVERIFY2(out.contains(QStringLiteral("credentials set --cloud sim")), qPrintable(out));
    QCOMPARE(cli({ QStringLiteral("credentials"), QStringLiteral("set"), QStringLiteral("--cloud"),
                     QStringLiteral("sim") },
                 "kc-s3cret-9f2\n", env, &out),
        0);
    QCOMPARE(cli({ QStringLiteral("credentials"), QStringLiteral("status"), QStringLiteral("--cloud"),
                     QStringLiteral("sim") },
                 QByteArray(), env, &out),
        0);
    QVERIFY(out.contains(QStringLiteral("password/sim/demo: stored in the keychain")));
    QCOMPARE(cli({ QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("sim"),
                     QStringLiteral("--kluster"), QStringLiteral("blue") },
                 QByteArray(), env, &out),
        2); // logged in with the keychain's password: the kluster's findings
    QVERIFY(out.contains(QStringLiteral("security-group-missing:kks-blue")));
    // The password is in no file the program could have written.
    QDirIterator it(home.path(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile file(it.next());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY2(!file.readAll().contains("kc-s3cret-9f2"), qPrintable(file.fileName()));
    }
    QCOMPARE(cli({ QStringLiteral("credentials"), QStringLiteral("delete"), QStringLiteral("--cloud"),
                     QStringLiteral("sim") },
                 QByteArray(), env),
        0);
}

void TestSecretStore::withoutKeychainNothingIsStored()
{
    QTemporaryDir home;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), home.path());
    env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
    env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), QStringLiteral("unix:path=/nonexistent/bus"));
    env.insert(QStringLiteral("OS_AUTH_URL"), QStringLiteral("http://127.0.0.1:9/v3"));
    env.insert(QStringLiteral("OS_USERNAME"), QStringLiteral("demo"));
    QString out;
    QCOMPARE(cli({ QStringLiteral("credentials"), QStringLiteral("set") }, "never-on-disk\n", env, &out), 3);
    QVERIFY2(out.contains(QStringLiteral("no keychain is available")), qPrintable(out));
    QDirIterator it(home.path(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile file(it.next());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY2(!file.readAll().contains("never-on-disk"), qPrintable(file.fileName()));
    }
}

void TestSecretStore::init()
{
    // A simulator of an earlier test may have listened on the same port: its failures are not this one's.
    EndpointHealth::shared().reset();
}

QTEST_GUILESS_MAIN(TestSecretStore)
#include "tst_secretstore.moc"
