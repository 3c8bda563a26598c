#include "services/http/httpclient.h"
#include "services/kubernetes/kubernetesclient.h"
#include "services/local/cloudconfig.h"
#include "services/local/kubeconfig.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <sys/stat.h>

// Where credentials come from: clouds.yaml + secure.yaml, OS_* variables,
// kubeconfig files, read from real-shaped files in tests/data.
class TestCredentialFiles : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cloudNames();
    void passwordCloudWithSecureYaml();
    void cloudByIdsAndRegionList();
    void applicationCredentialCloud();
    void verifyFalseIsRefused();
    void caCertKept();
    void unknownCloud();
    void environmentVariables();
    void kubeconfigMergeFirstWins();
    void kubeconfigRelativeFilesAndTokens();
    void kubeconfigExecPlugin();
    void kubeconfigErrors();
    void oddShapesAreErrorsNotExceptions();
    void namedFilesAreBoundedAndNeverWaitedFor_data();
    void namedFilesAreBoundedAndNeverWaitedFor();

private:
    const QString m_data = QStringLiteral(FLIGHTDECK_SOURCE_DIR "/tests/data/");
};

void TestCredentialFiles::init()
{
    for (const char *v : { "OS_CLOUD", "OS_AUTH_URL", "OS_USERNAME", "OS_PASSWORD", "OS_PROJECT_NAME",
             "OS_REGION_NAME", "OS_USER_DOMAIN_NAME", "OS_PROJECT_DOMAIN_NAME", "OS_AUTH_TYPE",
             "OS_APPLICATION_CREDENTIAL_ID", "OS_APPLICATION_CREDENTIAL_SECRET", "KUBECONFIG" })
        qunsetenv(v);
    qputenv("OS_CLIENT_CONFIG_FILE", (m_data + QStringLiteral("openstack/clouds.yaml")).toUtf8());
    qputenv("OS_CLIENT_SECURE_FILE", (m_data + QStringLiteral("openstack/secure.yaml")).toUtf8());
    qputenv("XDG_CONFIG_HOME", "/nonexistent");
}

void TestCredentialFiles::cloudNames()
{
    QCOMPARE(CloudConfigLoader::cloudNames(),
        (QStringList { QStringLiteral("prod"), QStringLiteral("by-ids"), QStringLiteral("ci"),
            QStringLiteral("insecure"), QStringLiteral("with-ca") }));
}

void TestCredentialFiles::passwordCloudWithSecureYaml()
{
    QString error;
    const auto c = CloudConfigLoader::load(QStringLiteral("prod"), &error);
    QVERIFY2(c, qPrintable(error));
    QCOMPARE(c->authUrl, QStringLiteral("https://identity.eu-de-1.example.cloud/v3"));
    QCOMPARE(c->username, QStringLiteral("oncall"));
    QCOMPARE(c->userDomainName, QStringLiteral("Example"));
    QCOMPARE(c->projectName, QStringLiteral("kks-prod"));
    QCOMPARE(c->regionName, QStringLiteral("eu-de-1"));
    QCOMPARE(c->password, QStringLiteral("correct-horse-battery-staple")); // from secure.yaml
    QVERIFY(c->source.contains(QStringLiteral("secure.yaml")));
    QCOMPARE(c->secretKey(), QStringLiteral("password/prod/oncall"));
    // OS_CLOUD selects it too.
    qputenv("OS_CLOUD", "prod");
    QCOMPARE(CloudConfigLoader::load(QString(), &error)->name, QStringLiteral("prod"));
}

void TestCredentialFiles::cloudByIdsAndRegionList()
{
    QString error;
    const auto c = CloudConfigLoader::load(QStringLiteral("by-ids"), &error);
    QVERIFY2(c, qPrintable(error));
    QCOMPARE(c->userId, QStringLiteral("5f1e2d3c4b5a69788796a5b4c3d2e1f0"));
    QCOMPARE(c->projectId, QStringLiteral("8a3c1f0e5b7d4e2f9c6a1b3d5e7f9a2c"));
    QCOMPARE(c->regionName, QStringLiteral("eu-de-2"));
    QVERIFY(c->password.isEmpty()); // not in any file: the keychain's job
}

void TestCredentialFiles::applicationCredentialCloud()
{
    QString error;
    const auto c = CloudConfigLoader::load(QStringLiteral("ci"), &error);
    QVERIFY2(c, qPrintable(error));
    QVERIFY(c->isApplicationCredential());
    QCOMPARE(c->applicationCredentialId, QStringLiteral("423f19a4ac1e4f48bbb4180756e6eb6c"));
    QCOMPARE(c->applicationCredentialSecret, QStringLiteral("rEaqvJka48mpv"));
    QCOMPARE(c->secretKey(), QStringLiteral("application-credential/ci/423f19a4ac1e4f48bbb4180756e6eb6c"));
}

void TestCredentialFiles::verifyFalseIsRefused()
{
    QString error;
    QVERIFY(!CloudConfigLoader::load(QStringLiteral("insecure"), &error));
    QVERIFY2(error.contains(QStringLiteral("verify: false")), qPrintable(error));
}

void TestCredentialFiles::caCertKept()
{
    QString error;
    const auto c = CloudConfigLoader::load(QStringLiteral("with-ca"), &error);
    QVERIFY2(c, qPrintable(error));
    QCOMPARE(c->caCertFile, QStringLiteral("/etc/ssl/certs/ca-certificates.crt"));
}

void TestCredentialFiles::unknownCloud()
{
    QString error;
    QVERIFY(!CloudConfigLoader::load(QStringLiteral("nope"), &error));
    QVERIFY2(error.contains(QStringLiteral("cloud \"nope\" is not in")), qPrintable(error));
}

void TestCredentialFiles::environmentVariables()
{
    qputenv("OS_AUTH_URL", "http://127.0.0.1:5000/v3");
    qputenv("OS_USERNAME", "demo");
    qputenv("OS_PASSWORD", "s3cret");
    qputenv("OS_PROJECT_NAME", "demo");
    qputenv("OS_USER_DOMAIN_NAME", "Default");
    qputenv("OS_PROJECT_DOMAIN_NAME", "Default");
    qputenv("OS_REGION_NAME", "RegionTwo");
    QString error;
    const auto c = CloudConfigLoader::load(QString(), &error);
    QVERIFY2(c, qPrintable(error));
    QCOMPARE(c->name, QStringLiteral("envvars"));
    QCOMPARE(c->password, QStringLiteral("s3cret"));
    QCOMPARE(c->regionName, QStringLiteral("RegionTwo"));
    QVERIFY(CloudConfigLoader::cloudNames().contains(QStringLiteral("envvars")));
}

void TestCredentialFiles::kubeconfigMergeFirstWins()
{
    QString error;
    const auto config = Kubeconfig::load(
        { m_data + QStringLiteral("kube/config-a.yaml"), m_data + QStringLiteral("kube/missing.yaml"),
            m_data + QStringLiteral("kube/config-b.yaml") },
        &error);
    QVERIFY2(config, qPrintable(error));
    QCOMPARE(config->currentContext(), QStringLiteral("prod")); // the first file's
    QCOMPARE(config->contexts(),
        (QStringList { QStringLiteral("prod"), QStringLiteral("shared"), QStringLiteral("staging"),
            QStringLiteral("from-file") }));
    const auto shared = config->target(QStringLiteral("shared"), &error);
    QCOMPARE(shared->server, QStringLiteral("https://first.example:6443")); // the first definition wins
    QCOMPARE(shared->caPem, QByteArray("first\n"));
    QCOMPARE(shared->token, QStringLiteral("abc.def.ghi"));
    // $KUBECONFIG is a list.
    qputenv("KUBECONFIG",
        (m_data + QStringLiteral("kube/config-b.yaml:") + m_data + QStringLiteral("kube/config-a.yaml"))
            .toUtf8());
    const auto reversed = Kubeconfig::load({}, &error);
    QCOMPARE(reversed->currentContext(), QStringLiteral("staging"));
    QCOMPARE(reversed->target(QStringLiteral("shared"), &error)->server,
        QStringLiteral("https://second.example:6443"));
}

void TestCredentialFiles::kubeconfigRelativeFilesAndTokens()
{
    QString error;
    const auto config = Kubeconfig::load(
        { m_data + QStringLiteral("kube/config-a.yaml"), m_data + QStringLiteral("kube/config-b.yaml") },
        &error);
    const auto prod = config->target(QString(), &error);
    QVERIFY2(prod, qPrintable(error));
    QCOMPARE(prod->caPem, QByteArray("ca-pem-bytes\n"));
    QCOMPARE(prod->clientCertPem, QByteArray("client-cert-pem-bytes\n"));
    QCOMPARE(prod->clientKeyPem, QByteArray("client-key-pem-bytes\n"));
    QCOMPARE(prod->tlsServerName, QStringLiteral("kubernetes"));
    const auto fromFile = config->target(QStringLiteral("from-file"), &error);
    QCOMPARE(fromFile->tokenFile, m_data + QStringLiteral("kube/token.txt"));
}

void TestCredentialFiles::kubeconfigExecPlugin()
{
    QString error;
    const auto config = Kubeconfig::load({ m_data + QStringLiteral("kube/config-b.yaml") }, &error);
    const auto staging = config->target(QString(), &error);
    QVERIFY2(staging, qPrintable(error));
    QVERIFY(staging->exec);
    QCOMPARE(staging->exec->apiVersion, QStringLiteral("client.authentication.k8s.io/v1"));
    QCOMPARE(staging->exec->command, m_data + QStringLiteral("kube/./exec-credential.sh"));
    QCOMPARE(staging->exec->args, (QStringList { QStringLiteral("--kluster"), QStringLiteral("staging") }));
    QCOMPARE(staging->exec->env.first().first, QStringLiteral("EXEC_TOKEN"));
}

void TestCredentialFiles::kubeconfigErrors()
{
    QString error;
    QVERIFY(!Kubeconfig::load({ m_data + QStringLiteral("kube/none.yaml") }, &error));
    QVERIFY(error.contains(QStringLiteral("no such kubeconfig")));
    const auto config = Kubeconfig::load({ m_data + QStringLiteral("kube/config-a.yaml") }, &error);
    QVERIFY(!config->target(QStringLiteral("nope"), &error));
    QVERIFY(error.contains(QStringLiteral("context \"nope\"")));
    const auto insecure = Kubeconfig::fromYaml(R"(
clusters: [{name: c, cluster: {server: "https://x", insecure-skip-tls-verify: true}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
users: [{name: u, user: {token: t}}]
current-context: c
)",
        QStringLiteral("inline"), &error);
    QVERIFY(!insecure->target(QString(), &error));
    QVERIFY(error.contains(QStringLiteral("insecure-skip-tls-verify")));
}

// Shapes found by fuzzing: each once escaped as a yaml-cpp exception.
void TestCredentialFiles::oddShapesAreErrorsNotExceptions()
{
    QString error;
    // A context that is a scalar, not a mapping, is skipped; the file is still a kubeconfig.
    const auto scalarItem
        = Kubeconfig::fromYaml("contexts:\n- name prod\nclusters: [{name: c, cluster: {server: s}}]\n",
            QStringLiteral("inline"), &error);
    QVERIFY2(scalarItem, qPrintable(error));
    QVERIFY(scalarItem->contexts().isEmpty());
    const auto args = Kubeconfig::fromYaml(R"(
clusters: [{name: c, cluster: {server: "https://x"}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
users: [{name: u, user: {exec: {command: x, args: [[nested]]}}}]
current-context: c
)",
        QStringLiteral("inline"), &error);
    QVERIFY(args);
    QVERIFY(!args->target(QString(), &error));
    QVERIFY2(error.contains(QStringLiteral("exec args must be strings")), qPrintable(error));

    QTemporaryDir dir;
    const QString clouds = dir.filePath(QStringLiteral("clouds.yaml"));
    qputenv("OS_CLIENT_CONFIG_FILE", clouds.toUtf8());
    qputenv("OS_CLIENT_SECURE_FILE", dir.filePath(QStringLiteral("none.yaml")).toUtf8());
    auto write = [&](const QByteArray &text) {
        QFile f(clouds);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text);
    };
    write("just a scalar\n");
    QVERIFY(CloudConfigLoader::cloudNames(&error).isEmpty());
    QVERIFY(!CloudConfigLoader::load(QStringLiteral("prod"), &error));
    QVERIFY2(error.contains(QStringLiteral("is not in")), qPrintable(error));
    write("clouds:\n  ? [a, b]\n  : {auth: {auth_url: x}}\n  prod: {auth: scalar, region_name: [r]}\n");
    QCOMPARE(CloudConfigLoader::cloudNames(&error), QStringList { QStringLiteral("prod") });
    QVERIFY(!CloudConfigLoader::load(QStringLiteral("prod"), &error));
    QVERIFY2(error.contains(QStringLiteral("has no auth_url")), qPrintable(error));
}

// Every file a kubeconfig or clouds.yaml names (and the kubeconfig itself) is read as a snapshot's bodies
// are: a link to /dev/zero once aborted with bad_alloc, a FIFO hung for ever (the token file on the event
// loop, so that not even --deadline fired).
void TestCredentialFiles::namedFilesAreBoundedAndNeverWaitedFor_data()
{
    QTest::addColumn<QString>("what");
    QTest::addColumn<QString>("target");
    for (const char *what : { "kubeconfig", "certificate-authority", "client-certificate", "client-key",
             "tokenFile", "clouds.yaml", "cacert" }) {
        QTest::addRow("%s, a link to /dev/zero", what) << QString::fromLatin1(what) << QStringLiteral("zero");
        QTest::addRow("%s, a FIFO", what) << QString::fromLatin1(what) << QStringLiteral("fifo");
        QTest::addRow("%s, 17 MiB", what) << QString::fromLatin1(what) << QStringLiteral("large");
    }
}

void TestCredentialFiles::namedFilesAreBoundedAndNeverWaitedFor()
{
    QFETCH(QString, what);
    QFETCH(QString, target);
    QTemporaryDir dir;
    const QString bad = dir.filePath(QStringLiteral("bad"));
    if (target == QLatin1String("zero")) {
        QVERIFY(QFile::link(QStringLiteral("/dev/zero"), bad));
    } else if (target == QLatin1String("fifo")) {
        QCOMPARE(::mkfifo(QFile::encodeName(bad).constData(), 0600), 0);
    } else {
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QVERIFY(f.resize(17 << 20)); // sparse: larger than a credential file may be
    }
    // A FIFO waited for would hang this test until its time runs out.
    QString error;
    const auto kubeconfig = [&](const QString &cluster, const QString &user) {
        const QString file = dir.filePath(QStringLiteral("config.yaml"));
        QFile f(file);
        if (!f.open(QIODevice::WriteOnly))
            return file;
        f.write(QStringLiteral("clusters: [{name: c, cluster: {server: \"https://127.0.0.1:1\"%1}}]\n"
                               "contexts: [{name: c, context: {cluster: c, user: u}}]\n"
                               "users: [{name: u, user: {%2}}]\ncurrent-context: c\n")
                    .arg(cluster, user)
                    .toUtf8());
        return file;
    };
    if (what == QLatin1String("kubeconfig")) {
        QVERIFY(!Kubeconfig::load({ bad }, &error));
    } else if (what == QLatin1String("tokenFile")) {
        const auto config
            = Kubeconfig::load({ kubeconfig(QString(), QStringLiteral("tokenFile: bad")) }, &error);
        QVERIFY2(config, qPrintable(error));
        const std::optional<KubeTarget> t = config->target(QString(), &error);
        QVERIFY2(t, qPrintable(error));
        HttpClient http;
        KubernetesClient client(&http, *t);
        HttpCall *call = client.send("GET", QStringLiteral("/api/v1/nodes"));
        QSignalSpy done(call, &HttpCall::finished);
        QVERIFY(done.wait(5000));
        error = done.first().first().value<ApiResponse>().error.toString();
    } else if (what == QLatin1String("clouds.yaml")) {
        qputenv("OS_CLIENT_CONFIG_FILE", QFile::encodeName(bad));
        QVERIFY(CloudConfigLoader::cloudNames(&error).isEmpty());
    } else if (what == QLatin1String("cacert")) {
        QVERIFY(CloudConfig::caCertificates(bad).isEmpty());
        error = QStringLiteral("not a regular file"); // read as nothing: "holds no readable certificate"
    } else {
        const QString key = what == QLatin1String("certificate-authority")
            ? QStringLiteral(", certificate-authority: bad")
            : QString();
        const QString user = what == QLatin1String("client-certificate")
            ? QStringLiteral("client-certificate: bad, client-key-data: eA==")
            : what == QLatin1String("client-key")
            ? QStringLiteral("client-certificate-data: eA==, client-key: bad")
            : QStringLiteral("token: t");
        const auto config = Kubeconfig::load({ kubeconfig(key, user) }, &error);
        QVERIFY2(config, qPrintable(error));
        QVERIFY(!config->target(QString(), &error));
    }
    QVERIFY2(
        error.contains(QStringLiteral("not a regular file")) || error.contains(QStringLiteral("larger than")),
        qPrintable(error));
}

QTEST_GUILESS_MAIN(TestCredentialFiles)
#include "tst_cloudconfig.moc"
