#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

// flightdeck-cli check on every example snapshot: the findings diagnosis.md
// predicts, the report of snapshot-format.md, and its exit status.
class TestCliCheck : public QObject
{
    Q_OBJECT
private slots:
    void commandsAreTheSameEverywhere();
    void examples_data();
    void examples();
    void everyFindingKindIsShownByTheExamples();
    void jsonIsByteIdentical();
    void textReport();
    void options();
    void badSnapshotExits3_data();
    void badSnapshotExits3();
    void badOptionsExit3();
    void helpAndVersion();
};

struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

static Run cli(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral(FLIGHTDECK_CLI), args);
    if (!p.waitForFinished(60000))
        qFatal("flightdeck-cli did not finish");
    return Run { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
        p.readAllStandardError() };
}

static QString example(const QString &name)
{
    return QStringLiteral(FLIGHTDECK_SOURCE_DIR "/examples/") + name;
}

static QStringList idsOf(const QByteArray &json)
{
    QStringList ids;
    for (const QJsonValue &f :
        QJsonDocument::fromJson(json).object().value(QStringLiteral("findings")).toArray())
        ids << f.toObject().value(QStringLiteral("id")).toString() + QLatin1Char(' ')
                + f.toObject().value(QStringLiteral("severity")).toString();
    return ids;
}

// The commands are one table: the top-level --help lists each, and the manual's synopsis, the bash and the
// zsh completions name exactly those.
void TestCliCheck::commandsAreTheSameEverywhere()
{
    const Run listed = cli({ QStringLiteral("commands") });
    QCOMPARE(listed.exitCode, 0);
    const QStringList names = QString::fromUtf8(listed.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY(names.contains(QStringLiteral("repair")) && names.size() >= 8);
    const Run help = cli({ QStringLiteral("--help") });
    QCOMPARE(help.exitCode, 0);
    for (const QString &name : names)
        QVERIFY2(QString::fromUtf8(help.out).contains(QStringLiteral("\n  %1 ").arg(name)), qPrintable(name));
    const auto read = [](const QString &path) {
        QFile f(QStringLiteral(FLIGHTDECK_SOURCE_DIR "/") + path);
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
    };
    const auto sorted = [](QStringList list) {
        list.removeDuplicates();
        list.sort();
        return list;
    };
    // The manual's synopsis: ".SY flightdeck\-cli" then ".B <command>".
    QStringList man;
    const QRegularExpression synopsis(QStringLiteral("\\.SY flightdeck\\\\-cli\\n\\.B ([a-z]+)\\n"));
    for (auto m = synopsis.globalMatch(read(QStringLiteral("packaging/man/flightdeck-cli.1"))); m.hasNext();)
        man << m.next().captured(1);
    QCOMPARE(sorted(man), sorted(names));
    const QRegularExpression bash(QStringLiteral("local commands=\"([a-z ]+)\""));
    const QRegularExpressionMatch b
        = bash.match(read(QStringLiteral("packaging/completion/flightdeck-cli.bash")));
    QVERIFY(b.hasMatch());
    QCOMPARE(sorted(b.captured(1).split(QLatin1Char(' '), Qt::SkipEmptyParts)), sorted(names));
    const QString zsh = read(QStringLiteral("packaging/completion/_flightdeck-cli"));
    const QString zshList = QRegularExpression(
        QStringLiteral("commands=\\((.*?)\\n\\s*\\)\\n"), QRegularExpression::DotMatchesEverythingOption)
                                .match(zsh)
                                .captured(1);
    QStringList zshNames;
    const QRegularExpression zshName(QStringLiteral("^\\s*'([a-z]+):"), QRegularExpression::MultilineOption);
    for (auto m = zshName.globalMatch(zshList); m.hasNext();)
        zshNames << m.next().captured(1);
    QCOMPARE(sorted(zshNames), sorted(names));
}

void TestCliCheck::examples_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QStringList>("findings");
    QTest::addColumn<QString>("budgetReason");

    QTest::newRow("healthy") << "healthy" << 0 << QStringList() << "";
    QTest::newRow("broken-nodes") << "broken-nodes" << 2
                                  << QStringList { "instance-error:kks-demo-pool-t5y6u critical",
                                         "instance-missing-security-group:demo-pool-r3s4d critical",
                                         "instance-unregistered:kks-demo-pool-w7e2r critical",
                                         "instance-unregistered:kks-demo-pool-z8b1n critical",
                                         "node-network-unavailable:kks-demo-pool-q9w3e critical",
                                         "node-without-instance:kks-demo-pool-g4h0s critical",
                                         "instance-unregistered:kks-demo-pool-x2c5v warning",
                                         "node-not-ready:kks-demo-pool-m4r8t warning",
                                         "route-unassigned:100.100.31.0/24 via 10.180.0.31 warning" }
                                  << "TooManyUnhealthy";
    QTest::newRow("broken-routes") << "broken-routes" << 2
                                   << QStringList { "route-duplicate:198.19.1.0/24 critical",
                                          "route-missing:kks-legacy-default-g5h6j critical",
                                          "route-missing:kks-legacy-default-k7l8m critical",
                                          "route-stale:198.19.2.0/24 via 10.180.0.12 critical",
                                          "route-limit:ed686c5c-729e-39f6-0387-51163738e1fd warning",
                                          "route-orphaned:198.19.7.0/24 via 10.180.0.99 warning" }
                                   << "";
    QTest::newRow("broken-security") << "broken-security" << 2
                                     << QStringList { "security-group-rule-missing:tcp critical",
                                            "security-group-rule-missing:udp critical" }
                                     << "";
    QTest::newRow("security-group-ambiguous")
        << "security-group-ambiguous" << 2 << QStringList { "security-group-missing:kks-sg critical" } << "";
    QTest::newRow("route-limit") << "route-limit" << 2
                                 << QStringList { "node-network-unavailable:kks-green-pool-gg4hh critical",
                                        "route-limit:203d40b4-6737-6280-f6ca-375bb926a7fe critical",
                                        "route-missing:kks-green-pool-gg4hh critical" }
                                 << "";
    QTest::newRow("no-evidence") << "no-evidence" << 2
                                 << QStringList { "instance-unregistered:kks-ghost-pool-p1q2r critical",
                                        "instance-unregistered:kks-ghost-pool-s3t4u critical",
                                        "instance-unregistered:kks-ghost-pool-v5w6x critical" }
                                 << "NoEvidence";
    QTest::newRow("stopped-instances") << "stopped-instances" << 2
                                       << QStringList { "instance-stopped:kks-prod-workers-4xk2p critical",
                                              "instance-stopped:kks-prod-workers-p4u5e warning" }
                                       << "";
    QTest::newRow("port-address-pairs")
        << "port-address-pairs" << 2
        << QStringList { "port-address-pair-missing:kks-prod-workers-9zq7m critical" } << "";
}

void TestCliCheck::examples()
{
    QFETCH(QString, name);
    QFETCH(int, exitCode);
    QFETCH(QStringList, findings);
    QFETCH(QString, budgetReason);
    const Run r = cli({ QStringLiteral("check"), QStringLiteral("--snapshot"), example(name),
        QStringLiteral("--format"), QStringLiteral("json") });
    QVERIFY2(r.err.isEmpty(), r.err.constData());
    QCOMPARE(r.exitCode, exitCode);
    QCOMPARE(idsOf(r.out), findings);
    const QJsonObject budget
        = QJsonDocument::fromJson(r.out).object().value(QStringLiteral("budget")).toObject();
    QCOMPARE(budget.value(QStringLiteral("reason")).toString(), budgetReason);
    QCOMPARE(budget.value(QStringLiteral("deletionsAllowed")).toBool(), budgetReason.isEmpty());
    // The text report says the same and exits the same.
    const Run text = cli({ QStringLiteral("check"), QStringLiteral("--snapshot"), example(name) });
    QCOMPARE(text.exitCode, exitCode);
    for (const QString &f : findings)
        QVERIFY2(text.out.contains(f.section(QLatin1Char(' '), 0, -2).toUtf8()), qPrintable(f));
}

void TestCliCheck::everyFindingKindIsShownByTheExamples()
{
    QSet<QString> kinds;
    const QDir dir(QStringLiteral(FLIGHTDECK_SOURCE_DIR "/examples"));
    for (const QString &name : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const Run r = cli({ QStringLiteral("check"), QStringLiteral("--snapshot"), dir.filePath(name),
            QStringLiteral("--format"), QStringLiteral("json") });
        for (const QJsonValue &f :
            QJsonDocument::fromJson(r.out).object().value(QStringLiteral("findings")).toArray())
            kinds.insert(f.toObject().value(QStringLiteral("kind")).toString());
    }
    const QStringList expected = { QStringLiteral("instance-unregistered"), QStringLiteral("instance-error"),
        QStringLiteral("instance-missing-security-group"), QStringLiteral("security-group-missing"),
        QStringLiteral("security-group-rule-missing"), QStringLiteral("route-duplicate"),
        QStringLiteral("route-orphaned"), QStringLiteral("route-stale"), QStringLiteral("route-missing"),
        QStringLiteral("route-limit"), QStringLiteral("node-not-ready"),
        QStringLiteral("node-network-unavailable") };
    for (const QString &k : expected)
        QVERIFY2(kinds.contains(k), qPrintable(k));
}

void TestCliCheck::jsonIsByteIdentical()
{
    const QStringList args = { QStringLiteral("check"), QStringLiteral("--snapshot"),
        example(QStringLiteral("broken-routes")), QStringLiteral("--format"), QStringLiteral("json") };
    const Run a = cli(args);
    const Run b = cli(args);
    QVERIFY(!a.out.isEmpty());
    QCOMPARE(a.out, b.out);
    QVERIFY(a.out.startsWith(
        "{\n  \"kluster\": \"legacy\",\n  \"capturedAt\": \"2026-11-21T10:00:00Z\",\n  \"phase\": "
        "\"Running\",\n  \"findings\": ["));
}

void TestCliCheck::textReport()
{
    const Run r = cli(
        { QStringLiteral("check"), QStringLiteral("--snapshot"), example(QStringLiteral("broken-routes")) });
    const QString text = QString::fromUtf8(r.out);
    QVERIFY(text.contains(QStringLiteral("CRITICAL (4)")));
    QVERIFY(text.contains(QStringLiteral("WARNING (2)")));
    // No extraroute-atomic in this snapshot: the guarded full-list PUT.
    QVERIFY(text.contains(QStringLiteral("[If-Match: revision_number=317]")));
    QVERIFY(text.indexOf(QStringLiteral("CRITICAL (4)")) < text.indexOf(QStringLiteral("WARNING (2)")));
}

void TestCliCheck::options()
{
    // A higher route limit clears the route-limit warning.
    Run r = cli({ QStringLiteral("check"), QStringLiteral("--snapshot"),
        example(QStringLiteral("broken-routes")), QStringLiteral("--format"), QStringLiteral("json"),
        QStringLiteral("--route-limit"), QStringLiteral("256") });
    QVERIFY(!QString::fromUtf8(r.out).contains(QStringLiteral("\"route-limit:")));
    // A longer startup timeout turns the 15-minute instance into no finding.
    r = cli({ QStringLiteral("check"), QStringLiteral("--snapshot"), example(QStringLiteral("broken-nodes")),
        QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--startup-timeout"),
        QStringLiteral("20m") });
    QVERIFY(!QString::fromUtf8(r.out).contains(QStringLiteral("kks-demo-pool-x2c5v")));
    // A generous budget allows deletions.
    r = cli({ QStringLiteral("check"), QStringLiteral("--snapshot"), example(QStringLiteral("broken-nodes")),
        QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--max-unhealthy"),
        QStringLiteral("4") });
    QVERIFY(QJsonDocument::fromJson(r.out)
                .object()
                .value(QStringLiteral("budget"))
                .toObject()
                .value(QStringLiteral("deletionsAllowed"))
                .toBool());
    // Warnings only: exit 1.
    r = cli({ QStringLiteral("check"), QStringLiteral("--snapshot"), example(QStringLiteral("broken-routes")),
        QStringLiteral("--route-warning"), QStringLiteral("100") });
    QCOMPARE(r.exitCode, 2);
}

void TestCliCheck::badSnapshotExits3_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QByteArray>("content"); // empty: remove the file
    QTest::addColumn<QString>("expected");
    QTest::newRow("missing file") << "nodes.json" << QByteArray() << "nodes.json: required file is missing";
    QTest::newRow("truncated") << "servers.json" << QByteArray("{\"servers\": [{\"id\": \"a\", \"na")
                               << "servers.json: not valid JSON";
    QTest::newRow("not JSON") << "router.json" << QByteArray("<html>502 Bad Gateway</html>")
                              << "router.json: not valid JSON";
    QTest::newRow("wrong type") << "kluster.json"
                                << QByteArray("{\"name\": \"x\", \"spec\": {\"clusterCIDR\": 16}}")
                                << "kluster.json: $.spec.clusterCIDR: expected a string, got a number";
}

void TestCliCheck::badSnapshotExits3()
{
    QFETCH(QString, file);
    QFETCH(QByteArray, content);
    QFETCH(QString, expected);
    QTemporaryDir tmp;
    const QDir source(example(QStringLiteral("broken-routes")));
    for (const QString &f : source.entryList(QDir::Files))
        QVERIFY(QFile::copy(source.filePath(f), tmp.filePath(f)));
    QFile::remove(tmp.filePath(file));
    if (!content.isEmpty()) {
        QFile f(tmp.filePath(file));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
    }
    const Run r = cli({ QStringLiteral("check"), QStringLiteral("--snapshot"), tmp.path() });
    QCOMPARE(r.exitCode, 3);
    QVERIFY(r.out.isEmpty());
    const QString err = QString::fromUtf8(r.err);
    QCOMPARE(err.count(QLatin1Char('\n')), 1); // one clear line
    QVERIFY2(err.contains(tmp.filePath(expected.section(QLatin1Char(':'), 0, 0))), qPrintable(err));
    QVERIFY2(err.contains(expected.section(QLatin1Char(':'), 1).trimmed()), qPrintable(err));
}

void TestCliCheck::badOptionsExit3()
{
    const QString snap = example(QStringLiteral("healthy"));
    for (const QStringList &args : QList<QStringList> { { QStringLiteral("check") },
             { QStringLiteral("check"), QStringLiteral("--snapshot"), snap, QStringLiteral("--format"),
                 QStringLiteral("xml") },
             { QStringLiteral("check"), QStringLiteral("--snapshot"), snap, QStringLiteral("--max-unhealthy"),
                 QStringLiteral("many") },
             { QStringLiteral("check"), QStringLiteral("--snapshot"), snap, QStringLiteral("--route-limit"),
                 QStringLiteral("0") },
             { QStringLiteral("check"), QStringLiteral("--snapshot"), snap,
                 QStringLiteral("--startup-timeout"), QStringLiteral("soon") },
             { QStringLiteral("check"), QStringLiteral("--bogus") }, { QStringLiteral("frobnicate") }, {} }) {
        const Run r = cli(args);
        QVERIFY2(r.exitCode == 3, qPrintable(args.join(QLatin1Char(' '))));
        QVERIFY(!r.err.isEmpty());
    }
}

void TestCliCheck::helpAndVersion()
{
    Run r = cli({ QStringLiteral("--version") });
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.startsWith("flightdeck-cli "));
    r = cli({ QStringLiteral("--help") });
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains("check"));
    r = cli({ QStringLiteral("check"), QStringLiteral("--help") });
    QCOMPARE(r.exitCode, 0);
    for (const char *option : { "--snapshot", "--format", "--startup-timeout", "--token-expiry",
             "--route-limit", "--route-warning", "--max-unhealthy" })
        QVERIFY2(r.out.contains(option), option);
}

QTEST_GUILESS_MAIN(TestCliCheck)
#include "tst_cli_check.moc"
