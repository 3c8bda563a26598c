// The pieces of working as a team that need no network: a repair as a Kubernetes Event and back, what a
// console warns of before a teammate's repair, and the flightdeck:// links.

#include "core/flightdecklink.h"
#include "core/repairevent.h"

#include <QJsonArray>
#include <QTest>

class TestTeamwork : public QObject
{
    Q_OBJECT

private slots:
    void eventHasWhatTheApiServerRequires();
    void eventReadsBackFromEitherGroup();
    void othersEventsAreLeftOut();
    void latestPhaseOfEachRepair();
    void teammatesStartedLately();
    void describeSaysWhoWhatWhen();
    void forgedAndHostileEventsBounded();
    void linkRoundTrip_data();
    void linkRoundTrip();
    void malformedLinks_data();
    void malformedLinks();
};

namespace {

RepairEvent sample(
    RepairEventPhase phase, const QDateTime &time, const QString &audit = QStringLiteral("0b5c"))
{
    RepairEvent e;
    e.phase = phase;
    e.time = time;
    e.kluster = QStringLiteral("demo");
    e.node = QStringLiteral("kks-demo-pool-h7k2p");
    e.findings = { QStringLiteral("instance-error:kks-demo-pool-t5y6u") };
    e.repair = QStringLiteral("Delete instance kks-demo-pool-t5y6u");
    e.user = QStringLiteral("alice");
    e.auditId = audit;
    e.instance = RepairEvent::instanceName(QStringLiteral("laptop"), QStringLiteral("flightdeck-42-1"));
    return e;
}

const QDateTime kNow = QDateTime(QDate(2026, 11, 27), QTime(23, 0), Qt::UTC);

} // namespace

void TestTeamwork::eventHasWhatTheApiServerRequires()
{
    RepairEvent e = sample(RepairEventPhase::Failed, kNow);
    e.outcome = QString(2000, QLatin1Char('x')); // a long message: the note stays within 1 kB
    const QJsonObject o = e.toEvent();
    QCOMPARE(o.value(QStringLiteral("apiVersion")).toString(), QStringLiteral("events.k8s.io/v1"));
    QCOMPARE(o.value(QStringLiteral("reportingController")).toString(), QStringLiteral("flightdeck"));
    QCOMPARE(o.value(QStringLiteral("reason")).toString(), QStringLiteral("RepairFailed"));
    QCOMPARE(o.value(QStringLiteral("type")).toString(), QStringLiteral("Warning"));
    QCOMPARE(o.value(QStringLiteral("action")).toString(), QStringLiteral("Repair"));
    QCOMPARE(o.value(QStringLiteral("eventTime")).toString(), QStringLiteral("2026-11-27T23:00:00.000000Z"));
    const QJsonObject regarding = o.value(QStringLiteral("regarding")).toObject();
    QCOMPARE(regarding.value(QStringLiteral("kind")).toString(), QStringLiteral("Node"));
    QCOMPARE(regarding.value(QStringLiteral("name")).toString(), QStringLiteral("kks-demo-pool-h7k2p"));
    QVERIFY(o.value(QStringLiteral("note")).toString().toUtf8().size() <= 1024);
    QVERIFY(o.value(QStringLiteral("note")).toString().contains(QStringLiteral("alice")));
    QVERIFY(o.value(QStringLiteral("note")).toString().contains(QStringLiteral("0b5c")));
    QVERIFY(o.value(QStringLiteral("reportingInstance")).toString().size() <= 128);
    const QJsonObject meta = o.value(QStringLiteral("metadata")).toObject();
    QCOMPARE(meta.value(QStringLiteral("name")).toString(), QStringLiteral("flightdeck.0b5c.failed"));
    QCOMPARE(meta.value(QStringLiteral("namespace")).toString(), QStringLiteral("default"));
    // Without a node: the kluster itself.
    e.node.clear();
    QCOMPARE(
        e.toEvent().value(QStringLiteral("regarding")).toObject().value(QStringLiteral("kind")).toString(),
        QStringLiteral("Kluster"));
    // Phases and their reasons, both ways.
    for (RepairEventPhase p :
        { RepairEventPhase::Sent, RepairEventPhase::Verified, RepairEventPhase::Failed })
        QCOMPARE(RepairEventPhases::fromReason(RepairEventPhases::reason(p)), std::optional(p));
    QVERIFY(!RepairEventPhases::fromReason(QStringLiteral("Scheduled")));
}

void TestTeamwork::eventReadsBackFromEitherGroup()
{
    const RepairEvent e = sample(RepairEventPhase::Sent, kNow);
    const std::optional<RepairEvent> back = RepairEvent::fromEvent(e.toEvent());
    QVERIFY(back);
    QCOMPARE(*back, e);
    // The same Event as core v1 gives it (what `kubectl get events` reads).
    QJsonObject core = e.toEvent();
    core.insert(QStringLiteral("involvedObject"), core.take(QStringLiteral("regarding")));
    core.insert(QStringLiteral("message"), core.take(QStringLiteral("note")));
    core.insert(QStringLiteral("reportingComponent"), core.take(QStringLiteral("reportingController")));
    const std::optional<RepairEvent> fromCore = RepairEvent::fromEvent(core);
    QVERIFY(fromCore);
    QCOMPARE(*fromCore, e);
}

void TestTeamwork::othersEventsAreLeftOut()
{
    QJsonObject theirs = sample(RepairEventPhase::Sent, kNow).toEvent();
    theirs.insert(QStringLiteral("reportingController"), QStringLiteral("kubelet"));
    QJsonObject noAudit = sample(RepairEventPhase::Sent, kNow).toEvent();
    QJsonObject meta = noAudit.value(QStringLiteral("metadata")).toObject();
    meta.remove(QStringLiteral("annotations"));
    noAudit.insert(QStringLiteral("metadata"), meta);
    QJsonObject badTime = sample(RepairEventPhase::Sent, kNow).toEvent();
    badTime.insert(QStringLiteral("eventTime"), 12);
    const QJsonObject ours = sample(RepairEventPhase::Verified, kNow).toEvent();
    const QJsonObject list { { QStringLiteral("items"),
        QJsonArray { theirs, noAudit, badTime, ours, QStringLiteral("not an object"), QJsonValue() } } };
    const QList<RepairEvent> read = RepairEvent::fromEventList(list);
    // Only ours: another controller's, one without its annotations and one whose time does not read are left
    // out.
    QCOMPARE(read.size(), 1);
    QCOMPARE(read.first().phase, RepairEventPhase::Verified);
}

void TestTeamwork::latestPhaseOfEachRepair()
{
    const QList<RepairEvent> events { sample(RepairEventPhase::Sent, kNow.addSecs(-600), QStringLiteral("a")),
        sample(RepairEventPhase::Sent, kNow.addSecs(-300), QStringLiteral("b")),
        sample(RepairEventPhase::Verified, kNow.addSecs(-560), QStringLiteral("a")) };
    const QList<RepairEvent> latest = RepairEvents::latestPerRepair(events);
    QCOMPARE(latest.size(), 2);
    QCOMPARE(latest.at(0).auditId, QStringLiteral("b")); // newest first
    QCOMPARE(latest.at(1).phase, RepairEventPhase::Verified);
    QCOMPARE(latest.at(1).time, kNow.addSecs(-600)); // when it started
}

void TestTeamwork::teammatesStartedLately()
{
    RepairEvent mine = sample(RepairEventPhase::Sent, kNow.addSecs(-60), QStringLiteral("m"));
    mine.instance = QStringLiteral("flightdeck@here/me");
    const RepairEvent recent = sample(RepairEventPhase::Sent, kNow.addSecs(-14 * 60), QStringLiteral("r"));
    const RepairEvent old = sample(RepairEventPhase::Sent, kNow.addSecs(-16 * 60), QStringLiteral("o"));
    const QList<RepairEvent> warn
        = RepairEvents::teammatesStarted({ mine, recent, old }, QStringLiteral("flightdeck@here/me"), kNow);
    QCOMPARE(warn.size(), 1);
    QCOMPARE(warn.first().auditId, QStringLiteral("r"));
}

void TestTeamwork::describeSaysWhoWhatWhen()
{
    RepairEvent e = sample(RepairEventPhase::Sent, kNow.addSecs(-4 * 60));
    e.inAuditLog = true;
    QCOMPARE(RepairEvents::describe(e, kNow),
        QStringLiteral(
            "user alice started \"Delete instance kks-demo-pool-t5y6u\" "
            "(instance-error:kks-demo-pool-t5y6u) 4 min ago, from flightdeck@laptop/flightdeck-42-1"));
    e.phase = RepairEventPhase::Failed;
    e.outcome = QStringLiteral("failed: 500");
    QVERIFY(RepairEvents::describe(e, kNow).contains(QStringLiteral(": failed (failed: 500), from ")));
    // What only the kluster's Events claim says so.
    e.inAuditLog = false;
    QVERIFY(
        RepairEvents::describe(e, kNow).endsWith(QStringLiteral("(from the kluster's Events, unverified)")));
}

// Events are written by whoever may create Events in the kluster: a forged end cannot hide a real start, a
// huge annotation is cut before anything holds it, a flood of them is bounded, and what they say is shown
// as text (no control or bidirectional character survives).
void TestTeamwork::forgedAndHostileEventsBounded()
{
    // A RepairVerified with the real start's audit id, an earlier time and another instance: ignored; the
    // start stays the repair (and a teammate is warned of it).
    const RepairEvent started = sample(RepairEventPhase::Sent, kNow.addSecs(-120), QStringLiteral("real"));
    RepairEvent forged = sample(RepairEventPhase::Verified, kNow.addSecs(-3600), QStringLiteral("real"));
    forged.instance = QStringLiteral("flightdeck@elsewhere/x");
    RepairEvent sameInstanceEarlier = forged;
    sameInstanceEarlier.instance = started.instance;
    for (const RepairEvent &fake : { forged, sameInstanceEarlier }) {
        const QList<RepairEvent> latest = RepairEvents::latestPerRepair({ fake, started });
        QCOMPARE(latest.size(), 1);
        QCOMPARE(latest.first().phase, RepairEventPhase::Sent);
        QCOMPARE(latest.first().time, started.time);
        QCOMPARE(RepairEvents::teammatesStarted({ fake, started }, QStringLiteral("flightdeck@here/me"), kNow)
                     .size(),
            1);
    }
    // The real end (same instance, after the start) still ends it.
    RepairEvent ended = sample(RepairEventPhase::Verified, kNow.addSecs(-60), QStringLiteral("real"));
    QCOMPARE(
        RepairEvents::latestPerRepair({ forged, started, ended }).first().phase, RepairEventPhase::Verified);

    // 2,000 Events, one with a 200 KiB annotation and control characters: the newest MaxEvents kept, every
    // field cut, and the lines a view shows are few.
    QJsonArray items;
    for (int i = 0; i < 2000; ++i) {
        RepairEvent e = sample(RepairEventPhase::Sent, kNow.addSecs(-3000 + i), QStringLiteral("a%1").arg(i));
        if (i == 1999) {
            e.repair = QString(200 * 1024, QLatin1Char('x'));
            e.user = QStringLiteral("mallory\x1b[2J\u202e<img src=file:///etc/passwd>");
        }
        QJsonObject event = e.toEvent();
        if (i == 1999) { // toEvent cuts what it writes: the forger does not
            QJsonObject metadata = event.value(QStringLiteral("metadata")).toObject();
            QJsonObject annotations = metadata.value(QStringLiteral("annotations")).toObject();
            annotations.insert(QStringLiteral("flightdeck.io/repair"), e.repair);
            metadata.insert(QStringLiteral("annotations"), annotations);
            event.insert(QStringLiteral("metadata"), metadata);
        }
        items.append(event);
    }
    const QList<RepairEvent> read
        = RepairEvent::fromEventList(QJsonObject { { QStringLiteral("items"), items } });
    QCOMPARE(read.size(), RepairEvent::MaxEvents);
    QCOMPARE(read.last().auditId, QStringLiteral("a1999"));
    QCOMPARE(read.last().repair.size(), RepairEvent::MaxFieldChars);
    const QStringList lines = RepairEvents::describeNewest(RepairEvents::latestPerRepair(read), kNow);
    QCOMPARE(lines.size(), RepairEvents::Shown + 1);
    QVERIFY(lines.last().startsWith(QStringLiteral("… and 490 more")));
    QVERIFY2(lines.first().size() < 600, qPrintable(QString::number(lines.first().size())));
    QVERIFY(!lines.first().contains(QChar(0x1b)));
    QVERIFY(!lines.first().contains(QChar(0x202e)));
    QVERIFY(lines.first().contains(QStringLiteral("user mallory\\e[2J<img")));
}

void TestTeamwork::linkRoundTrip_data()
{
    QTest::addColumn<FlightdeckLink>("link");
    QTest::addColumn<QString>("text");
    QTest::newRow("kluster") << FlightdeckLink { QStringLiteral("sim"), QStringLiteral("demo"), QString() }
                             << QStringLiteral("flightdeck://sim/demo");
    QTest::newRow("finding") << FlightdeckLink { QStringLiteral("sim"), QStringLiteral("demo"),
        QStringLiteral("route-duplicate:10.180.0.0/24") }
                             << QStringLiteral("flightdeck://sim/demo/route-duplicate%3A10.180.0.0%2F24");
    QTest::newRow("spaces and unicode") << FlightdeckLink {
        QStringLiteral("my cloud"), QStringLiteral("démo"), QStringLiteral("zone-outage:eu 1")
    } << QStringLiteral("flightdeck://my%20cloud/d%C3%A9mo/zone-outage%3Aeu%201");
}

void TestTeamwork::linkRoundTrip()
{
    QFETCH(FlightdeckLink, link);
    QFETCH(QString, text);
    QCOMPARE(link.toString(), text);
    QString error;
    const std::optional<FlightdeckLink> back = FlightdeckLink::parse(text, &error);
    QVERIFY2(back, qPrintable(error));
    QCOMPARE(*back, link);
    // A browser may pass the ':' and '/' of an id unescaped in the last part's place: only '/' splits.
    QVERIFY(FlightdeckLink::parse(QStringLiteral("FLIGHTDECK://sim/demo/node-not-ready:kks-a"), &error));
}

void TestTeamwork::malformedLinks_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("says");
    QTest::newRow("other scheme") << QStringLiteral("https://sim/demo") << QStringLiteral("must start with");
    QTest::newRow("no kluster") << QStringLiteral("flightdeck://sim")
                                << QStringLiteral("flightdeck://<cloud>");
    QTest::newRow("empty kluster") << QStringLiteral("flightdeck://sim/") << QStringLiteral("no kluster");
    QTest::newRow("no cloud") << QStringLiteral("flightdeck:///demo") << QStringLiteral("no cloud");
    QTest::newRow("trailing slash") << QStringLiteral("flightdeck://sim/demo/")
                                    << QStringLiteral("names no finding");
    QTest::newRow("too deep") << QStringLiteral("flightdeck://sim/demo/a/b")
                              << QStringLiteral("flightdeck://<cloud>");
    QTest::newRow("broken escape") << QStringLiteral("flightdeck://sim/de%zzmo")
                                   << QStringLiteral("broken %-escape");
    QTest::newRow("control") << QStringLiteral("flightdeck://sim/de%0Amo")
                             << QStringLiteral("control character");
    QTest::newRow("bidi override") << QStringLiteral("flightdeck://sim/de%E2%80%AEmo")
                                   << QStringLiteral("control character");
    QTest::newRow("zero width") << QStringLiteral("flightdeck://sim/de%E2%80%8Bmo")
                                << QStringLiteral("control character");
    QTest::newRow("not utf-8") << QStringLiteral("flightdeck://sim/de%FFmo") << QStringLiteral("not UTF-8");
    QTest::newRow("query") << QStringLiteral("flightdeck://sim/demo?x=1") << QStringLiteral("no query");
}

void TestTeamwork::malformedLinks()
{
    QFETCH(QString, text);
    QFETCH(QString, says);
    QString error;
    QVERIFY(!FlightdeckLink::parse(text, &error));
    QVERIFY2(error.contains(says), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestTeamwork)
#include "tst_teamwork.moc"
