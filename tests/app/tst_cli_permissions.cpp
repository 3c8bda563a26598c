// flightdeck-cli with credentials that may not do everything (diagnosis.md §8), against the simulated cloud
// that enforces the default policies' roles: the report says per request what the token may do; a repair a
// reader may not send is never sent (not one write reaches the cloud) but printed as a guided manual repair
// and recorded as handed over; once someone who may has done it, --verify records "repaired by someone
// else, verified". A snapshot keeps who read it (token.json, never the token) and is judged with it.
#include "tests/app/clifixture.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTest>

class TestCliPermissions : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void reportSaysWhatTheTokenMayDo();
    void readerGetsAGuideAndNothingIsSent();
    void snapshotKeepsWhoReadIt();
    void policyFileJudged();

private:
    using Run = CliFixture::Run;
    QJsonObject check(const QString &cloud);
    std::unique_ptr<CliFixture> m_cli;
    int m_writes = 0; // requests to Nova and Neutron that could change something
};

void TestCliPermissions::init()
{
    m_cli = std::make_unique<CliFixture>();
    m_cli->addCloud(QStringLiteral("ro"), QStringLiteral("reader"));
    m_cli->addCloud(QStringLiteral("rw"), QStringLiteral("member"));
    m_writes = 0;
    // Every request that could change something: Nova's, Neutron's, and a kluster's API server's (but a
    // SelfSubjectAccessReview, which asks).
    connect(&m_cli->sim.sim, &Simulator::requestHandled, this,
        [this](const QString &service, const QString &method, const QString &path, int) {
            const bool cloud = service == QLatin1String("compute") || service == QLatin1String("network")
                || (service.startsWith(QLatin1String("kubernetes"))
                    && !path.endsWith(QLatin1String("/selfsubjectaccessreviews")));
            if (cloud && method != QLatin1String("GET") && method != QLatin1String("HEAD"))
                ++m_writes;
        });
}

void TestCliPermissions::cleanup()
{
    m_cli.reset();
}

QJsonObject TestCliPermissions::check(const QString &cloud)
{
    const Run r
        = m_cli->cli({ QStringLiteral("check"), QStringLiteral("--cloud"), cloud, QStringLiteral("--kluster"),
            QStringLiteral("demo"), QStringLiteral("--format"), QStringLiteral("json") });
    return QJsonDocument::fromJson(r.out.toUtf8()).object();
}

static QJsonObject firstRequestOf(const QJsonObject &report, const QString &id)
{
    for (const QJsonValue &f : report.value(QStringLiteral("findings")).toArray()) {
        if (f.toObject().value(QStringLiteral("id")).toString() == id)
            return f.toObject()
                .value(QStringLiteral("repair"))
                .toObject()
                .value(QStringLiteral("requests"))
                .toArray()
                .first()
                .toObject();
    }
    return {};
}

void TestCliPermissions::reportSaysWhatTheTokenMayDo()
{
    const QString id = QStringLiteral("security-group-rule-missing:tcp");
    const QJsonObject asReader = firstRequestOf(check(QStringLiteral("ro")), id);
    QCOMPARE(asReader.value(QStringLiteral("permission")).toString(), QStringLiteral("denied"));
    const QString why = asReader.value(QStringLiteral("permissionReason")).toString();
    QVERIFY2(why.contains(QStringLiteral("create_security_group_rule"))
            && why.contains(QStringLiteral("member")) && why.contains(QStringLiteral("reader")),
        qPrintable(why));
    const QJsonObject asMember = firstRequestOf(check(QStringLiteral("rw")), id);
    QCOMPARE(asMember.value(QStringLiteral("permission")).toString(), QStringLiteral("allowed"));
    QVERIFY(!asMember.contains(QStringLiteral("permissionReason")));
    // A node's deletion is the kluster's API server's to judge (its RBAC, asked with a
    // SelfSubjectAccessReview), whatever Keystone's roles: allowed here, denied once the kluster's RBAC says
    // no, and said why.
    const QString node = QStringLiteral("node-without-instance:kks-demo-pool-g4h0s");
    QCOMPARE(firstRequestOf(check(QStringLiteral("ro")), node).value(QStringLiteral("permission")).toString(),
        QStringLiteral("allowed"));
    QCOMPARE(m_cli->sim
                 .request("POST", m_cli->sim.sim.adminUrl() + QStringLiteral("/klusters/demo/rbac"),
                     R"({"deny": ["delete nodes"]})", {}, false)
                 .status,
        204);
    const QJsonObject denied = firstRequestOf(check(QStringLiteral("rw")), node);
    QCOMPARE(denied.value(QStringLiteral("permission")).toString(), QStringLiteral("denied"));
    QVERIFY2(
        denied.value(QStringLiteral("permissionReason"))
            .toString()
            .contains(QStringLiteral("the kluster's API server says these credentials may not delete nodes")),
        qPrintable(denied.value(QStringLiteral("permissionReason")).toString()));
    // And the repair is handed over, never sent: the API server would have said 403.
    const Run r = m_cli->cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("rw"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--finding"), node,
        QStringLiteral("--yes") });
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.out.contains(QStringLiteral("$ kubectl --context demo delete node kks-demo-pool-g4h0s")),
        qPrintable(r.out));
    QCOMPARE(m_writes, 0);
}

void TestCliPermissions::readerGetsAGuideAndNothingIsSent()
{
    const QString id = QStringLiteral("security-group-rule-missing:tcp");
    Run r = m_cli->cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("ro"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--finding"), id,
        QStringLiteral("--yes") });
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("NotPermitted")), qPrintable(r.err));
    QVERIFY2(r.out.contains(QStringLiteral("Guided manual repair")), qPrintable(r.out));
    QVERIFY2(
        r.out.contains(QStringLiteral("$ openstack security group rule create --ingress --ethertype IPv4 "
                                      "--protocol tcp --remote-ip 100.100.0.0/16 ")),
        qPrintable(r.out));
    QVERIFY2(r.out.contains(QStringLiteral("$ curl -sS -X POST ")
                 + m_cli->sim.sim.endpoint(QStringLiteral("network"))
                 + QStringLiteral("/v2.0/security-group-rules -H")),
        qPrintable(r.out));
    QCOMPARE(m_writes, 0); // denied: not one write reached the cloud
    const QRegularExpressionMatch handOff
        = QRegularExpression(QStringLiteral("--verify ([0-9a-f-]{36})")).match(r.out);
    QVERIFY2(handOff.hasMatch(), qPrintable(r.out));
    const QString auditId = handOff.captured(1);
    QFile log(m_cli->auditPath());
    QVERIFY(log.open(QIODevice::ReadOnly));
    const QByteArray written = log.readAll();
    QVERIFY(written.contains("handed over: NotPermitted"));
    QVERIFY(!written.contains(CliFixture::Password));

    // Not done yet: said, and recorded.
    const QStringList verify { QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("ro"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--verify"), auditId };
    r = m_cli->cli(verify);
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.out.contains(QStringLiteral("Not yet: still open: ") + id), qPrintable(r.out));

    // Someone who may does it (a member, from the CLI); then the reader's Verify records it done.
    r = m_cli->cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("rw"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--finding"), id,
        QStringLiteral("--yes") });
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    QVERIFY(m_writes > 0);
    const qsizetype eventsBefore = m_cli->sim.sim.events().events(QStringLiteral("demo")).size();
    r = m_cli->cli(verify);
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(QStringLiteral("Repaired by someone else, verified")), qPrintable(r.out));
    // And the teammates read it where they read every repair: an Event, named after the hand-off.
    QVERIFY2(
        r.out.contains(QStringLiteral("The Kubernetes Event RepairVerified written.")), qPrintable(r.out));
    const QList<QJsonObject> events = m_cli->sim.sim.events().events(QStringLiteral("demo"));
    QCOMPARE(events.size(), eventsBefore + 1);
    const QJsonObject event = events.constLast();
    QCOMPARE(event.value(QStringLiteral("reason")).toString(), QStringLiteral("RepairVerified"));
    QVERIFY2(event.value(QStringLiteral("note")).toString().contains(auditId)
            && event.value(QStringLiteral("note")).toString().contains(id),
        qPrintable(event.value(QStringLiteral("note")).toString()));
    const QList<QJsonObject> audit = m_cli->audit();
    QVERIFY(!audit.isEmpty());
    QVERIFY2(audit.constLast()
                 .value(QStringLiteral("message"))
                 .toString()
                 .startsWith(QStringLiteral("repaired by someone else, verified")),
        QJsonDocument(audit.constLast()).toJson().constData());
    QCOMPARE(audit.constLast().value(QStringLiteral("user")).toString(), QStringLiteral("reader"));

    // An id that is no hand-off: a clear error, exit 3.
    r = m_cli->cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("ro"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--verify"),
        QStringLiteral("no-such-id") });
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains(QStringLiteral("no hand-off")), qPrintable(r.err));
}

void TestCliPermissions::snapshotKeepsWhoReadIt()
{
    const QString folder = m_cli->home.filePath(QStringLiteral("snap"));
    Run r = m_cli->cli({ QStringLiteral("snapshot"), QStringLiteral("--cloud"), QStringLiteral("ro"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--out"), folder });
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QFile token(QDir(folder).filePath(QStringLiteral("token.json")));
    QVERIFY(token.open(QIODevice::ReadOnly));
    const QByteArray body = token.readAll();
    const QJsonObject t = QJsonDocument::fromJson(body).object().value(QStringLiteral("token")).toObject();
    QCOMPARE(t.value(QStringLiteral("user")).toObject().value(QStringLiteral("name")).toString(),
        QStringLiteral("reader"));
    QCOMPARE(t.value(QStringLiteral("roles"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(QStringLiteral("name"))
                 .toString(),
        QStringLiteral("reader"));
    QVERIFY(!body.contains(CliFixture::Password));
    for (const auto &[id, t2] : m_cli->sim.sim.world().tokens.asKeyValueRange())
        QVERIFY2(!body.contains(id.toUtf8()), "a token reached token.json");
    // Judged offline with the roles it holds.
    r = m_cli->cli({ QStringLiteral("check"), QStringLiteral("--snapshot"), folder,
        QStringLiteral("--format"), QStringLiteral("json") });
    const QJsonObject request = firstRequestOf(
        QJsonDocument::fromJson(r.out.toUtf8()).object(), QStringLiteral("security-group-rule-missing:tcp"));
    QCOMPARE(request.value(QStringLiteral("permission")).toString(), QStringLiteral("denied"));
    // A cloud whose policy lets readers add rules: judged with its file, offline too.
    const QString policy = m_cli->home.filePath(QStringLiteral("readers-add-rules.json"));
    QFile file(policy);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"create_security_group_rule": "role:reader", "get_router": "role:reader"})");
    file.close();
    r = m_cli->cli(
        { QStringLiteral("check"), QStringLiteral("--snapshot"), folder, QStringLiteral("--policy"),
            QStringLiteral("network=") + policy, QStringLiteral("--format"), QStringLiteral("json") });
    QCOMPARE(firstRequestOf(QJsonDocument::fromJson(r.out.toUtf8()).object(),
                 QStringLiteral("security-group-rule-missing:tcp"))
                 .value(QStringLiteral("permission"))
                 .toString(),
        QStringLiteral("allowed"));
    // Without token.json, nobody is known: unknown, never allowed.
    QVERIFY(token.remove());
    r = m_cli->cli({ QStringLiteral("check"), QStringLiteral("--snapshot"), folder,
        QStringLiteral("--format"), QStringLiteral("json") });
    QCOMPARE(firstRequestOf(QJsonDocument::fromJson(r.out.toUtf8()).object(),
                 QStringLiteral("security-group-rule-missing:tcp"))
                 .value(QStringLiteral("permission"))
                 .toString(),
        QStringLiteral("unknown"));
}

// A cloud's own policy file (oslo.policy's YAML) judged in place of the defaults: a member the file denies is
// handed the guide and sends nothing; a file that is no policy file is a clear error.
void TestCliPermissions::policyFileJudged()
{
    const QString path = m_cli->home.filePath(QStringLiteral("neutron-policy.yaml"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("# only the network's admins change security groups here\n"
               "\"admin_or_network_admin\": \"role:admin or role:network_admin\"\n"
               "\"create_security_group_rule\": \"rule:admin_or_network_admin\"\n");
    file.close();
    const QString id = QStringLiteral("security-group-rule-missing:tcp");
    Run r = m_cli->cli({ QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("rw"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--policy"),
        QStringLiteral("network=") + path, QStringLiteral("--format"), QStringLiteral("json") });
    const QJsonObject request = firstRequestOf(QJsonDocument::fromJson(r.out.toUtf8()).object(), id);
    QCOMPARE(request.value(QStringLiteral("permission")).toString(), QStringLiteral("denied"));
    const QString why = request.value(QStringLiteral("permissionReason")).toString();
    QVERIFY2(why.contains(
                 QStringLiteral("create_security_group_rule is \"rule:admin_or_network_admin\" in ") + path)
            && why.contains(QStringLiteral("these credentials have member")),
        qPrintable(why));
    r = m_cli->cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("rw"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--finding"), id,
        QStringLiteral("--policy"), QStringLiteral("network=") + path, QStringLiteral("--yes") });
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("NotPermitted")), qPrintable(r.err));
    QCOMPARE(m_writes, 0);

    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write("- role:admin\n");
    file.close();
    r = m_cli->cli({ QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("rw"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--policy"), path });
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains(QStringLiteral("--policy: ")) && r.err.contains(path)
            && r.err.contains(QStringLiteral("a map of policy names to rules")),
        qPrintable(r.err));
    r = m_cli->cli({ QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("rw"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--policy"),
        m_cli->home.filePath(QStringLiteral("absent.yaml")) });
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains(QStringLiteral("absent.yaml")), qPrintable(r.err));
}

QTEST_GUILESS_MAIN(TestCliPermissions)
#include "tst_cli_permissions.moc"
