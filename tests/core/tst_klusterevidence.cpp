// What a finding's details and a kluster's timeline read from outside, on demand: Kubernikus' events (Go's
// timestamps, unsorted, untrusted) and a server's boot evidence (Nova's console output and instance actions).
#include "core/bootevidence.h"
#include "core/json/jsonreader.h"
#include "core/kubernikusevent.h"

#include <QTest>

class TestKlusterEvidence : public QObject
{
    Q_OBJECT

private slots:
    void goTimes_data();
    void goTimes();
    void eventsNewestFirstAndCut();
    void eventsThatAreNotAList();
    void consoleTail();
    void consoleRefused();
    void actionsNewestFirst();
    void describeEscapes();
};

void TestKlusterEvidence::goTimes_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("utc"); // empty: invalid
    QTest::newRow("utc") << "2026-11-29 10:45:00 +0000 UTC"
                         << "2026-11-29T10:45:00Z";
    QTest::newRow("fraction") << "2026-11-29 10:45:00.123456789 +0000 UTC"
                              << "2026-11-29T10:45:00.123Z";
    QTest::newRow("offset") << "2026-11-29 11:45:00 +0100 CET"
                            << "2026-11-29T10:45:00Z";
    QTest::newRow("negative") << "2026-11-29 05:45:00 -0500 EST"
                              << "2026-11-29T10:45:00Z";
    QTest::newRow("numeric zone") << "2026-11-29 13:45:00 +0300 +03"
                                  << "2026-11-29T10:45:00Z";
    QTest::newRow("monotonic") << "2026-11-29 10:45:00 +0000 UTC m=+12.500000001"
                               << "2026-11-29T10:45:00Z";
    QTest::newRow("rfc 3339") << "2026-11-29T10:45:00Z"
                              << "2026-11-29T10:45:00Z";
    QTest::newRow("zero time") << "0001-01-01 00:00:00 +0000 UTC"
                               << "";
    QTest::newRow("no zone") << "2026-11-29 10:45:00"
                             << "";
    QTest::newRow("bad month") << "2026-13-29 10:45:00 +0000 UTC"
                               << "";
    QTest::newRow("bad offset") << "2026-11-29 10:45:00 +2460 UTC"
                                << "";
    QTest::newRow("empty") << ""
                           << "";
    QTest::newRow("words") << "yesterday"
                           << "";
}

void TestKlusterEvidence::goTimes()
{
    QFETCH(QString, text);
    QFETCH(QString, utc);
    const QDateTime t = KubernikusEvents::parseGoTime(text);
    if (utc.isEmpty()) {
        QVERIFY2(!t.isValid(), qPrintable(t.toString(Qt::ISODateWithMs)));
        return;
    }
    QCOMPARE(t, QDateTime::fromString(utc, Qt::ISODateWithMs));
}

void TestKlusterEvidence::eventsNewestFirstAndCut()
{
    const QByteArray body = R"([
        {"count": 1, "firstTimestamp": "2026-11-29 10:00:00 +0000 UTC", "lastTimestamp": "2026-11-29 10:00:00 +0000 UTC",
         "reason": "SuccessfulDrainNode", "message": "Preparing upgrade for node: n1. Successfully drained node.", "type": "Normal"},
        {"count": 3, "firstTimestamp": "2026-11-29 10:05:00 +0000 UTC", "lastTimestamp": "2026-11-29 10:20:00 +0000 UTC",
         "reason": "FailedRebootNode", "message": "Upgrading OS for node: n1. Reboot failed: timeout", "type": "Warning"},
        {"count": 1, "reason": "NoTime"},
        {"count": 1, "firstTimestamp": "2026-11-29 10:10:00 +0000 UTC", "message": "only a first", "extra": {"ignored": true}}
    ])";
    const QList<KubernikusEvent> events = KubernikusEvents::parse(QStringLiteral("events"), body);
    QCOMPARE(events.size(), 4);
    QCOMPARE(events.at(0).reason, QStringLiteral("FailedRebootNode"));
    QVERIFY(events.at(0).isWarning());
    QCOMPARE(events.at(0).summary(),
        QStringLiteral(
            "Warning FailedRebootNode (3 times): Upgrading OS for node: n1. Reboot failed: timeout"));
    QCOMPARE(events.at(1).message, QStringLiteral("only a first")); // dated by its first time
    QCOMPARE(events.at(2).reason, QStringLiteral("SuccessfulDrainNode"));
    QCOMPARE(events.at(3).reason, QStringLiteral("NoTime")); // no time: last
    QCOMPARE(KubernikusEvents::since(
                 events, QDateTime::fromString(QStringLiteral("2026-11-29T10:10:00Z"), Qt::ISODate))
                 .size(),
        2);

    // Unlimited and untrusted: the newest MaxEvents kept, each text cut.
    QByteArray many = "[";
    for (int i = 0; i < KubernikusEvents::MaxEvents + 50; ++i)
        many
            += QStringLiteral("%1{\"lastTimestamp\": \"2026-11-29 10:%2:%3 +0000 UTC\", \"message\": \"%4\"}")
                   .arg(i ? QStringLiteral(",") : QString())
                   .arg(i / 60, 2, 10, QLatin1Char('0'))
                   .arg(i % 60, 2, 10, QLatin1Char('0'))
                   .arg(QString(2000, QLatin1Char('x')))
                   .toUtf8();
    many += "]";
    const QList<KubernikusEvent> kept = KubernikusEvents::parse(QStringLiteral("events"), many);
    QCOMPARE(kept.size(), KubernikusEvents::MaxEvents);
    QCOMPARE(kept.first().lastTimestamp.time().minute(), (KubernikusEvents::MaxEvents + 49) / 60);
    QCOMPARE(kept.first().message.size(), KubernikusEvents::MaxFieldChars);
}

void TestKlusterEvidence::eventsThatAreNotAList()
{
    const auto refused = [](const QByteArray &body, const QString &says) {
        try {
            KubernikusEvents::parse(QStringLiteral("kubernikus-events.json"), body);
        } catch (const ParseError &e) {
            QVERIFY2(
                e.toString().contains(QStringLiteral("kubernikus-events.json")), qPrintable(e.toString()));
            QVERIFY2(e.toString().contains(says), qPrintable(e.toString()));
            return;
        }
        QFAIL(qPrintable(QStringLiteral("accepted: ") + QString::fromUtf8(body)));
    };
    refused(R"({"events": []})", QStringLiteral("$"));
    refused(R"([1])", QStringLiteral("$[0]"));
    refused(R"([{"count": "three"}])", QStringLiteral("$[0].count"));
    refused(R"([{"count": -1}])", QStringLiteral("$[0].count"));
    refused(R"([{"reason": 7}])", QStringLiteral("$[0].reason"));
    refused("<html><body>502 Bad Gateway</body></html>", QStringLiteral("kubernikus-events.json"));
    refused(R"([{"count": 1, "reason": "cut)", QStringLiteral("kubernikus-events.json"));
    QVERIFY(KubernikusEvents::parse(QStringLiteral("e"), "[]").isEmpty());
}

void TestKlusterEvidence::consoleTail()
{
    QString output;
    for (int i = 1; i <= 80; ++i)
        output += QStringLiteral("line %1\r\n").arg(i);
    const QByteArray body = QJsonDocument(QJsonObject { { QStringLiteral("output"), output } }).toJson();
    const QStringList lines = BootEvidences::parseConsoleOutput(QStringLiteral("log"), body);
    QCOMPARE(lines.size(), BootEvidences::ConsoleLines);
    QCOMPARE(lines.first(), QStringLiteral("line 31")); // the carriage returns dropped
    QCOMPARE(lines.last(), QStringLiteral("line 80")); // the final break starts no line
    // Nova's fake driver, as the real Nova of the OpenStack stage answers.
    QCOMPARE(BootEvidences::parseConsoleOutput(
                 QStringLiteral("log"), R"({"output": "FAKE CONSOLE OUTPUT\nANOTHER\nLAST LINE"})"),
        (QStringList {
            QStringLiteral("FAKE CONSOLE OUTPUT"), QStringLiteral("ANOTHER"), QStringLiteral("LAST LINE") }));
    QVERIFY(BootEvidences::parseConsoleOutput(QStringLiteral("log"), R"({"output": ""})").isEmpty());
    QVERIFY(BootEvidences::parseConsoleOutput(QStringLiteral("log"), R"({"output": null})").isEmpty());
    const QStringList longLine = BootEvidences::parseConsoleOutput(QStringLiteral("log"),
        QJsonDocument(QJsonObject { { QStringLiteral("output"), QString(5000, QLatin1Char('y')) } })
            .toJson());
    QCOMPARE(longLine.first().size(), BootEvidences::MaxLineChars);
    QCOMPARE(BootEvidences::consoleRequest(), QByteArray(R"({"os-getConsoleOutput":{"length":50}})"));
}

void TestKlusterEvidence::consoleRefused()
{
    for (const QByteArray &body : { QByteArray(R"({})"), QByteArray(R"({"output": 5})"), QByteArray("[]"),
             QByteArray("<html>503</html>"), QByteArray(R"({"output": "cut)") }) {
        try {
            BootEvidences::parseConsoleOutput(QStringLiteral("the console log"), body);
            QFAIL(body.constData());
        } catch (const ParseError &e) {
            QVERIFY2(e.toString().contains(QStringLiteral("the console log")), qPrintable(e.toString()));
        }
    }
}

void TestKlusterEvidence::actionsNewestFirst()
{
    const QByteArray body = R"({"instanceActions": [
        {"action": "create", "instance_uuid": "i", "message": "Error", "project_id": "p", "request_id": "req-1",
         "start_time": "2026-11-29T09:00:00.000000", "user_id": "u"},
        {"action": "reboot", "instance_uuid": "i", "message": null, "project_id": "p", "request_id": "req-2",
         "start_time": "2026-11-29T10:00:00.123456", "user_id": null, "updated_at": "2026-11-29T10:00:05.000000"}
    ]})";
    const QList<InstanceAction> actions
        = BootEvidences::parseInstanceActions(QStringLiteral("actions"), body);
    QCOMPARE(actions.size(), 2);
    QCOMPARE(actions.first().action, QStringLiteral("reboot"));
    QCOMPARE(actions.first().startTime,
        QDateTime::fromString(QStringLiteral("2026-11-29T10:00:00.123Z"), Qt::ISODateWithMs));
    QVERIFY(actions.first().userId.isEmpty());
    QCOMPARE(actions.last().message, QStringLiteral("Error"));
    try {
        BootEvidences::parseInstanceActions(
            QStringLiteral("actions"), R"({"instanceActions": [{"start_time": "x"}]})");
        QFAIL("an action without its name");
    } catch (const ParseError &e) {
        QVERIFY2(
            e.toString().contains(QStringLiteral("$.instanceActions[0].action")), qPrintable(e.toString()));
    }
}

void TestKlusterEvidence::describeEscapes()
{
    BootEvidence e;
    e.serverId = QStringLiteral("id-1");
    e.serverName = QStringLiteral("kks-x\x1b[31m");
    e.actionsRead = true;
    e.actions = { InstanceAction { QStringLiteral("create"),
        QDateTime::fromString(QStringLiteral("2026-11-29T09:00:00Z"), Qt::ISODate), QStringLiteral("Error"),
        QStringLiteral("req-1"), QStringLiteral("u1") } };
    e.consoleRead = true;
    e.consoleLines = { QStringLiteral("ok"), QStringLiteral("\x1b[2J\x7f\u202ehidden") };
    const QString text = e.describe().join(QLatin1Char('\n'));
    QVERIFY2(text.contains(QStringLiteral("Nova's actions on kks-x\\e[31m (id-1), newest first:")),
        qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("  2026-11-29T09:00:00Z  create: Error  by user u1  (req-1)")));
    QVERIFY(text.contains(QStringLiteral("Console log, its last 2 line(s):")));
    QVERIFY2(text.contains(QStringLiteral("  | \\e[2J\\x7f\\u202ehidden")), qPrintable(text));
    for (const QChar c : text)
        QVERIFY(
            c == QLatin1Char('\n') || (c.unicode() >= 0x20 && c.unicode() != 0x7f && c.unicode() != 0x202e));

    BootEvidence failed;
    failed.serverId = QStringLiteral("id-2");
    failed.consoleError = QStringLiteral("HTTP 409: Instance id-2 is not ready");
    failed.actionsError = QStringLiteral("HTTP 403");
    QCOMPARE(failed.describe(),
        (QStringList { QStringLiteral("Nova's actions on id-2: not read (HTTP 403)"),
            QStringLiteral("Console log: not read (HTTP 409: Instance id-2 is not ready)") }));
}

QTEST_MAIN(TestKlusterEvidence)
#include "tst_klusterevidence.moc"
