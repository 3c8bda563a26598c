// Text from outside, in every form the console and the command line take it in: made safe to show
// (OutsideText), bounded (a storm of alerts), pinned (a silence of one alert and no other), never echoing a
// secret (an Alertmanager URL with a password), and handed over as Markdown that renders no link, tag or
// control character of anyone else's.

#include "console/consoletext.h"
#include "console/handoff.h"
#include "console/klusterstore.h"
#include "core/alerts.h"
#include "core/checkreport.h"
#include "core/diagnosis.h"
#include "core/printable.h"
#include "services/monitoring/alertmanagerclient.h"
#include "services/repair/repairsilences.h"
#include "tests/common/worldbuilder.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

class TestOutsideText : public QObject
{
    Q_OBJECT

private slots:
    void shownAsText();
    void alertStormBounded();
    void silencePinsWhatTheAlertLacks();
    void alertmanagerUrlNeverEchoesItsPassword();
    void markdownRendersNothingOfOthers();
    void markdownOfAKlusterHasItsIncidentsAndAcknowledgements();
};

namespace {

const QDateTime kNow = QDateTime(QDate(2026, 11, 28), QTime(12, 0), Qt::UTC);

QByteArray alertsBody(int count, const QString &kluster, const QString &severityEvery7)
{
    QJsonArray list;
    for (int i = 0; i < count; ++i) {
        list.append(QJsonObject {
            { QStringLiteral("fingerprint"), QStringLiteral("f%1").arg(i, 6, 10, QLatin1Char('0')) },
            { QStringLiteral("labels"),
                QJsonObject { { QStringLiteral("alertname"), QStringLiteral("A%1").arg(i) },
                    { QStringLiteral("kluster_name"), kluster },
                    { QStringLiteral("severity"), i % 7 == 0 ? severityEvery7 : QStringLiteral("info") } } },
            { QStringLiteral("annotations"), QJsonObject {} },
            { QStringLiteral("startsAt"), kNow.addSecs(-i).toString(Qt::ISODate) },
            { QStringLiteral("status"),
                QJsonObject { { QStringLiteral("state"), QStringLiteral("active") },
                    { QStringLiteral("silencedBy"), QJsonArray {} },
                    { QStringLiteral("inhibitedBy"), QJsonArray {} } } } });
    }
    return QJsonDocument(list).toJson(QJsonDocument::Compact);
}

// The kluster as the console holds it once read at `at`: its state and its diagnosis.
KlusterData readAt(const KlusterState &state, const QDateTime &at)
{
    auto fetch = std::make_shared<KlusterFetch>();
    fetch->state = state;
    KlusterData data;
    data.fetch = fetch;
    data.diagnosis = std::make_shared<const Diagnosis>(Diagnosis::run(state));
    data.fetchedAt = at;
    return data;
}

} // namespace

void TestOutsideText::shownAsText()
{
    const QString rtl = QStringLiteral("abc\u202edef\u2066g\u200fh");
    QCOMPARE(OutsideText::line(rtl), QStringLiteral("abcdefgh"));
    QCOMPARE(OutsideText::line(QStringLiteral("a\x1b[2Jb\x07")), QStringLiteral("a\\e[2Jb\\x07"));
    QCOMPARE(OutsideText::line(QStringLiteral("one\ntwo\r\nthree")), QStringLiteral("one two three"));
    QCOMPARE(OutsideText::lines(QStringLiteral("one\ntwo")), QStringLiteral("one\ntwo"));
    QCOMPARE(
        OutsideText::line(QString(500, QLatin1Char('x')), 10), QString(10, QLatin1Char('x')) + QChar(0x2026));
    // A character outside the BMP is never cut in half.
    const QString emoji = QString::fromUtf8("\xF0\x9F\x9A\x80\xF0\x9F\x9A\x80");
    QCOMPARE(OutsideText::line(emoji, 1), QString::fromUtf8("\xF0\x9F\x9A\x80") + QChar(0x2026));
    QCOMPARE(OutsideText::html(QStringLiteral("<img src=x>&")), QStringLiteral("&lt;img src=x&gt;&amp;"));
    // A word of 100 letters gets places to wrap; words of ordinary length none.
    QCOMPARE(OutsideText::html(QString(100, QLatin1Char('y'))).count(QChar(0x200b)), 2);
    QCOMPARE(OutsideText::html(QStringLiteral("a normal sentence")).count(QChar(0x200b)), 0);
    // The same places for a plain-text label, nothing escaped.
    QCOMPARE(OutsideText::wrappableLine(QString(100, QLatin1Char('y')) + u'<').count(QChar(0x200b)), 2);
    QVERIFY(OutsideText::wrappableLine(QStringLiteral("a<b\nc")).endsWith(QStringLiteral("a<b c")));
    QCOMPARE(OutsideText::htmlLines(QStringLiteral("a<\nb")), QStringLiteral("a&lt;<br>b"));
    QVERIFY(OutsideText::toolTip(QStringLiteral("<b>x</b>")).startsWith(QStringLiteral("<qt>&lt;b&gt;")));
}

// 100,000 alerts of one kluster in one answer: at most Alerts::MaxRead read (the worst: every critical one
// kept), at most MaxPerKluster held per kluster, the rest counted; the text report lists the worst 50 and
// counts the rest, the JSON says how many were left out, the console shows ten.
void TestOutsideText::alertStormBounded()
{
    qsizetype total = 0;
    const QList<Alert> read = Alerts::parse(QStringLiteral("alerts"),
        alertsBody(100000, QStringLiteral("demo"), QStringLiteral("critical")), &total);
    QCOMPARE(total, 100000);
    QCOMPARE(read.size(), Alerts::MaxRead);
    QCOMPARE(std::count_if(read.cbegin(), read.cend(),
                 [](const Alert &a) { return a.severity() == QLatin1String("critical"); }),
        (100000 + 6) / 7); // every critical one
    qsizetype omitted = 0;
    const QList<Alert> mine = Alerts::ofKluster(
        read, Alerts::defaultKlusterLabels(), QStringLiteral("demo"), QString(), &omitted);
    QCOMPARE(mine.size(), Alerts::MaxPerKluster);
    QCOMPARE(omitted, Alerts::MaxRead - Alerts::MaxPerKluster);

    // 1,000 of one kluster, 143 critical: those are the ones kept first.
    const QList<Alert> some = Alerts::parse(
        QStringLiteral("alerts"), alertsBody(1000, QStringLiteral("demo"), QStringLiteral("critical")));
    KlusterAlerts alerts;
    alerts.configured = alerts.known = true;
    alerts.alerts = Alerts::ofKluster(
        some, Alerts::defaultKlusterLabels(), QStringLiteral("demo"), QString(), &alerts.omitted);
    QCOMPARE(alerts.omitted, 500);
    QCOMPARE(std::count_if(alerts.alerts.cbegin(), alerts.alerts.cend(),
                 [](const Alert &a) { return a.severity() == QLatin1String("critical"); }),
        143);
    const KlusterState state = WorldBuilder().state();
    const Diagnosis d = Diagnosis::run(state);
    const QString text = QString::fromUtf8(CheckReport::toText(state, d, alerts));
    QVERIFY(text.contains(QStringLiteral("Alerts in Alertmanager: 1000")));
    QCOMPARE(text.count(QStringLiteral("(active, since")), 50);
    QVERIFY2(text.contains(QStringLiteral("… and 950 more, less grave")), qPrintable(text.right(300)));
    const QJsonObject json = QJsonDocument::fromJson(CheckReport::toJson(state, d, alerts)).object();
    QCOMPARE(json.value(QStringLiteral("alerts")).toArray().size(), 500);
    QCOMPARE(json.value(QStringLiteral("alertsOmitted")).toInt(), 500);
    const ConsoleText::AlertsText shown = ConsoleText::alertsText(alerts, d, kNow, kNow);
    QCOMPARE(shown.rows.size(), ConsoleText::ShownAlerts);
    QCOMPARE(shown.rows.first().severity, QStringLiteral("critical"));
    QVERIFY(shown.more.contains(QStringLiteral("990 more")));
}

// A silence of demo's alert that has no project_id, no node: those are pinned absent, so another project's
// kluster demo and a per-node alert of the same name are not silenced with it.
void TestOutsideText::silencePinsWhatTheAlertLacks()
{
    Alert a;
    a.labels = { { QStringLiteral("alertname"), QStringLiteral("KubeAPIErrorsHigh") },
        { QStringLiteral("kluster_name"), QStringLiteral("demo") } };
    const QList<SilenceRequest::Matcher> matchers = SilenceRequest::matchersOf(a);
    const auto value = [&matchers](const QString &name) -> std::optional<QString> {
        for (const SilenceRequest::Matcher &m : matchers)
            if (m.name == name && !m.isRegex && m.isEqual)
                return m.value;
        return std::nullopt;
    };
    QCOMPARE(value(QStringLiteral("alertname")), std::optional(QStringLiteral("KubeAPIErrorsHigh")));
    QCOMPARE(value(QStringLiteral("kluster_name")), std::optional(QStringLiteral("demo")));
    for (const char *pinned : { "project_id", "kluster", "node", "instance", "kind", "subject", "severity" })
        QVERIFY2(value(QLatin1String(pinned)) == std::optional(QString()), pinned);
    // What Alertmanager's filter is given: each as label="value".
    SilenceRequest s;
    s.matchers = matchers;
    QVERIFY(s.filter().contains(QStringLiteral("project_id=\"\"")));
    // The preview's words: the alert itself is no "other".
    s.alertFingerprint = QStringLiteral("own");
    Alert own = a;
    own.fingerprint = QStringLiteral("own");
    QCOMPARE(RepairSilences::caughtLine(s, { own }, QString()),
        QStringLiteral("It silences no other alert firing now."));
    Alert other = a;
    other.fingerprint = QStringLiteral("other");
    other.labels.insert(QStringLiteral("pod"), QStringLiteral("\u202eevil"));
    const QString line = RepairSilences::caughtLine(s, { own, other }, QString());
    QVERIFY2(line.startsWith(QStringLiteral("It would ALSO silence 1 other alert(s)")), qPrintable(line));
    QVERIFY(!line.contains(QChar(0x202e)));
}

void TestOutsideText::alertmanagerUrlNeverEchoesItsPassword()
{
    for (const QString &given :
        { QStringLiteral("http://alice:s3cr3t@[::1:9093"), QStringLiteral("ftp://alice:s3cr3t@host:9093"),
            QStringLiteral("http://alice:s3cr3t@host:9093?x=1"), QStringLiteral("alice:s3cr3t@host") }) {
        QString error;
        QVERIFY(!AlertmanagerTarget::readUrl(given, &error));
        QVERIFY2(!error.isEmpty(), qPrintable(given));
        QVERIFY2(!error.contains(QStringLiteral("s3cr3t")), qPrintable(error));
    }
}

// A Markdown hand-off of an alert, a repair Event and a finding that carry someone else's Markdown and
// controls: nothing renders as a link, emphasis, a tag or a control; each list is cut; the whole is bounded.
void TestOutsideText::markdownRendersNothingOfOthers()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 1);
    w.server(QStringLiteral("kks-demo-pool-\\[Approve\\](https://evil.example)"), QStringLiteral("10.0.0.9"),
        600, QStringLiteral("ERROR"));
    const KlusterState state = w.state();
    const KlusterData data = readAt(state, kNow);
    Handoff::Facts f;
    f.key = { QStringLiteral("sim"), QStringLiteral("demo") };
    f.data = &data;
    f.now = kNow;
    f.alerts.configured = f.alerts.known = true;
    for (int i = 0; i < 40; ++i) {
        Alert a;
        a.fingerprint = QString::number(i);
        a.labels = { { QStringLiteral("alertname"), QStringLiteral("X`y") },
            { QStringLiteral("severity"), QStringLiteral("critical*") } };
        a.annotations = { { QStringLiteral("summary"),
            QStringLiteral("\\[click\\](https://evil.example) <b>bold</b> \x1b[31m red\x07 \u202e rtl ")
                + QString(5000, QLatin1Char('z')) } };
        a.startsAt = kNow;
        f.alerts.alerts << a;
    }
    RepairEvent r;
    r.user = QStringLiteral("![x](https://evil.example/t.png)");
    r.repair = QStringLiteral("[Approve](https://evil.example)");
    r.time = kNow;
    r.auditId = QStringLiteral("a");
    f.repairs = { r };
    const QString md = Handoff::markdown(f);
    QVERIFY(md.size() <= 64 * 1024);
    for (const QChar c : { QChar(0x1b), QChar(0x07), QChar(0x202e) })
        QVERIFY2(!md.contains(c), qPrintable(QString::number(c.unicode(), 16)));
    QString prose = md;
    prose.remove(QRegularExpression(QStringLiteral("`[^`\\n]*`")));
    // No link or image: every [ and ] outside code is escaped, and so is every <.
    QVERIFY2(!prose.contains(QRegularExpression(QStringLiteral("(?<!\\\\)[\\[\\]<]"))),
        qPrintable(prose.left(3000)));
    QVERIFY(prose.contains(QStringLiteral("\\\\\\[click")));
    QVERIFY(md.contains(QStringLiteral("- … and 20 more, less grave.")));
    QCOMPARE(md.count(QStringLiteral("\n- **critical\\*** ")), 20);
}

// A kluster's hand-off names its causes (each incident with its one repair, or why it has none) and who is on
// which finding (an acknowledgement that holds: by whom, until when, their note); one run out is not said.
void TestOutsideText::markdownOfAKlusterHasItsIncidentsAndAcknowledgements()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 3);
    w.healthyMember(
        QStringLiteral("kks-demo-pool-ccccc"), QStringLiteral("10.0.0.6"), QStringLiteral("100.100.6.0/24"));
    w.server(QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), 600); // lost its node
    w.server(QStringLiteral("kks-demo-pool-bbbbb"), QStringLiteral("10.0.0.5"), 600);
    const int b = w.node(
        QStringLiteral("kks-demo-pool-bbbbb"), QStringLiteral("10.0.0.5"), QStringLiteral("100.100.4.0/24"));
    w.setCondition(
        b, QStringLiteral("NetworkUnavailable"), QStringLiteral("True"), QStringLiteral("NoRouteCreated"));
    w.route(QStringLiteral("100.100.4.0/24"), QStringLiteral("10.0.0.4"));
    const KlusterState state = w.state();
    const KlusterData data = readAt(state, kNow);
    QVERIFY(!data.diagnosis->incidents.isEmpty());
    Handoff::Facts f;
    f.key = { QStringLiteral("sim"), QStringLiteral("demo") };
    f.data = &data;
    f.now = kNow;
    const QString missing = QStringLiteral("route-missing:kks-demo-pool-bbbbb");
    Acknowledgement a;
    a.finding = missing;
    a.by = QStringLiteral("alice");
    a.note = QStringLiteral("on it with the network team");
    a.until = kNow.addSecs(3600);
    f.acknowledged.insert(missing, a);
    Acknowledgement old = a;
    old.finding = QStringLiteral("node-network-unavailable:kks-demo-pool-bbbbb");
    old.until = kNow.addSecs(-60);
    f.acknowledged.insert(old.finding, old);
    const QString md = Handoff::markdown(f);
    QVERIFY2(
        md.contains(QStringLiteral("### Incidents\n- **critical** `recycled-pod-cidr:100.100.4.0/24`: ")),
        qPrintable(md));
    QVERIFY(md.contains(QStringLiteral("its one repair: Route 100.100.4.0/24 to node kks-demo-pool-bbbbb")));
    QVERIFY2(md.contains(QStringLiteral(
                 "acknowledged by alice until 2026-11-28 13:00 UTC: on it with the network team")),
        qPrintable(md));
    QCOMPARE(md.count(QStringLiteral("acknowledged by")), 1);
    QVERIFY(md.indexOf(QStringLiteral("### Incidents")) < md.indexOf(QStringLiteral("### What is wrong")));
}

QTEST_GUILESS_MAIN(TestOutsideText)
#include "tst_outsidetext.moc"
