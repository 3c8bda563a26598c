#include "console/consoletext.h"
#include "console/exportedreports.h"
#include "console/exportedtext.h"
#include "console/klustertimeline.h"
#include "console/palette.h"
#include "console/refreshcoordinator.h"
#include "console/rowcopies.h"
#include "core/diagnosis.h"
#include "core/klusterstate.h"
#include "services/local/snapshotreader.h"

#include <QTest>

// What the console says, from what it knows, without a window: the banner over the views, the captions, the
// desktop notification of a change, the status line after a round, the window's title.
class TestConsoleText : public QObject
{
    Q_OBJECT
private slots:
    void clockAgoAndShortError();
    void exportedKlusterHeaderAndNotifications();
    void exportedReportPendingFailedAndStale();
    void timelineMergesRepairsAndKubernikus();
    void paletteMatchesFuzzilyBestFirst();
    void failedSourcesNamesEachOnce();
    void bannerSaysEachConnectionsFailures();
    void bannerNoticeAndStartup();
    void captionsOfAConnectionThatCouldNotList();
    void captionsOfStaleAndIncompleteData();
    void notificationOfUnreachableAndNewCritical();
    void notificationOnePerIncident();
    void roundDoneAndWindowTitle();
    void rowCopies();
    void overviewSaysThePhaseAndTheAutomation();
};

namespace {

const QDateTime Now = QDateTime(QDate(2026, 11, 26), QTime(13, 5, 0), Qt::UTC);

std::shared_ptr<const KlusterFetch> fetchOf(const char *example)
{
    auto fetch = std::make_shared<KlusterFetch>();
    fetch->state
        = SnapshotReader::read(QStringLiteral(FLIGHTDECK_SOURCE_DIR "/examples/") + QLatin1String(example));
    fetch->requests = 12;
    return fetch;
}

void fetched(KlusterStore &store, const KlusterKey &key, const char *example,
    const QList<SourceError> &incomplete = {})
{
    const auto fetch = fetchOf(example);
    store.setFetched(key, fetch, std::make_shared<const Diagnosis>(Diagnosis::run(fetch->state)),
        Now.addSecs(-42), 850, incomplete);
}

Error httpError(int status)
{
    Error e = Error::of(Error::Kind::Http, QStringLiteral("Service Unavailable"));
    e.service = QStringLiteral("compute");
    e.method = QStringLiteral("GET");
    e.path = QStringLiteral("/v2.1/servers/detail");
    e.status = status;
    return e;
}

} // namespace

void TestConsoleText::clockAgoAndShortError()
{
    QCOMPARE(ConsoleText::clock(Now), QStringLiteral("2026-11-26 13:05:00 UTC"));
    QCOMPARE(ConsoleText::ago(Now.addSecs(-42), Now), QStringLiteral("42 s ago"));
    QVERIFY(ConsoleText::ago(Now.addSecs(-7800), Now).contains(QStringLiteral("2 h")));
    QCOMPARE(
        ConsoleText::ago(Now.addSecs(30), Now), QStringLiteral("0 s ago")); // a clock ahead: never negative
    QCOMPARE(ConsoleText::shortError(QStringLiteral("first line\nsecond")), QStringLiteral("first line"));
    const QString longLine = ConsoleText::shortError(QString(400, QLatin1Char('x')));
    QCOMPARE(longLine.size(), 178);
    QVERIFY(longLine.endsWith(QStringLiteral("…")));
}

void TestConsoleText::failedSourcesNamesEachOnce()
{
    const QList<SourceError> errors { { Source::Servers, httpError(503), QString() },
        { Source::SecurityGroups, httpError(500), QString() },
        { Source::Servers, httpError(502), QString() } };
    QCOMPARE(ConsoleText::failedSources(errors), QStringLiteral("the servers, security groups"));
    // A refresh that failed as a whole names no source.
    QCOMPARE(ConsoleText::failedSources({ { std::nullopt, httpError(503), QString() } }),
        QStringLiteral("a source"));
}

void TestConsoleText::bannerSaysEachConnectionsFailures()
{
    KlusterStore store;
    store.setListed(QStringLiteral("eu"), { QStringLiteral("prod"), QStringLiteral("legacy") }, Error());
    fetched(store, { QStringLiteral("eu"), QStringLiteral("prod") }, "healthy");
    fetched(store, { QStringLiteral("eu"), QStringLiteral("legacy") }, "broken-routes");
    // A refresh failed: the data stays, stale; a 503 may pass, so Retry is offered on a live cloud.
    store.setFailed({ QStringLiteral("eu"), QStringLiteral("legacy") },
        { { std::nullopt, httpError(503), QString() } }, Now);
    // Another connection could not list its klusters at all.
    store.setListed(
        QStringLiteral("us"), {}, Error::of(Error::Kind::Auth, QStringLiteral("401: bad password")));

    ConsoleText::Banner b = ConsoleText::banner(
        { QStringLiteral("eu"), QStringLiteral("us") }, store, QString(), QString(), true);
    QCOMPARE(b.kind, ConsoleText::Banner::Kind::Failures);
    const QStringList lines = b.text.split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), 2);
    QVERIFY2(
        lines.at(0).startsWith(QStringLiteral("eu: legacy could not be refreshed (older data shown, stale)")),
        qPrintable(lines.at(0)));
    QVERIFY2(lines.at(1).startsWith(QStringLiteral("us: its klusters could not be listed")),
        qPrintable(lines.at(1)));
    QVERIFY(b.details.contains(QStringLiteral("eu/legacy: refresh failed at 2026-11-26 13:05:00 UTC")));
    QVERIFY(b.details.contains(QStringLiteral("(showing the data fetched at")));
    QVERIFY(b.retry);
    QVERIFY(b.listingFailed);
    // Snapshots are never fetched again: no Retry.
    QVERIFY(!ConsoleText::banner({ QStringLiteral("eu") }, store, QString(), QString(), false).retry);
    // The healthy connection alone says nothing.
    KlusterStore healthy;
    healthy.setListed(QStringLiteral("eu"), { QStringLiteral("prod") }, Error());
    fetched(healthy, { QStringLiteral("eu"), QStringLiteral("prod") }, "healthy");
    QCOMPARE(ConsoleText::banner({ QStringLiteral("eu") }, healthy, QString(), QString(), true).kind,
        ConsoleText::Banner::Kind::None);
}

void TestConsoleText::bannerNoticeAndStartup()
{
    KlusterStore store;
    const QString notice = QStringLiteral("The password is kept for this session only");
    const QString startup = QStringLiteral("No connection yet");
    ConsoleText::Banner b = ConsoleText::banner({}, store, notice, startup, false);
    QCOMPARE(b.kind, ConsoleText::Banner::Kind::Notice); // a notice before the first-run message
    QCOMPARE(b.text, notice);
    b = ConsoleText::banner({}, store, QString(), startup, false);
    QCOMPARE(b.kind, ConsoleText::Banner::Kind::Startup);
    // Once a connection is there, the first-run message is gone.
    store.setListed(QStringLiteral("eu"), {}, Error());
    QCOMPARE(ConsoleText::banner({ QStringLiteral("eu") }, store, QString(), startup, true).kind,
        ConsoleText::Banner::Kind::None);
}

void TestConsoleText::captionsOfAConnectionThatCouldNotList()
{
    ConsoleText::CaptionFacts f;
    f.key = { QStringLiteral("us"), QString() };
    f.listingError = Error::of(Error::Kind::Auth, QStringLiteral("401: <bad> password"));
    f.alarmColor = QStringLiteral("#c62828");
    f.now = Now;
    const ConsoleText::Captions c = ConsoleText::captions(f);
    QVERIFY2(c.header.contains(QStringLiteral("<b>Connection us</b>: its klusters could not be listed")),
        qPrintable(c.header));
    QVERIFY(c.header.contains(QStringLiteral("&lt;bad&gt;"))); // the server's words escaped
    QVERIFY(c.findings.isEmpty());
    // No kluster at all: nothing said.
    QVERIFY(ConsoleText::captions(ConsoleText::CaptionFacts()).header.isEmpty());
}

void TestConsoleText::captionsOfStaleAndIncompleteData()
{
    KlusterStore store;
    const KlusterKey key { QStringLiteral("eu"), QStringLiteral("legacy") };
    store.setListed(key.connection, { key.kluster }, Error());
    fetched(store, key, "broken-routes");
    ConsoleText::CaptionFacts f;
    f.key = key;
    f.data = store.data(key);
    f.connection = key.connection;
    f.routes = 12;
    f.foreignRoutes = 3;
    f.routeLimit = 30;
    f.securitySummary = QStringLiteral("1 group");
    f.alarmColor = QStringLiteral("#c62828");
    f.now = Now;
    ConsoleText::Captions c = ConsoleText::captions(f);
    QVERIFY2(c.header.contains(QStringLiteral("Fetched 13:04:18 UTC (42 s ago) in 850 ms, 12 requests")),
        qPrintable(c.header));
    QVERIFY2(
        c.routes.contains(QStringLiteral("12 of 30 routes used (3 other klusters")), qPrintable(c.routes));
    QVERIFY(!c.findings.contains(QStringLiteral("STALE")));
    // The example was captured at 10:00 on the 21st by the cloud's clock: two clocks, said as two.
    QVERIFY2(
        c.header.contains(QStringLiteral("the cloud's clock read 2026-11-21 10:00:00 UTC, 5 d 3 h behind "
                                         "this machine's")),
        qPrintable(c.header));

    store.setFailed(key, { { std::nullopt, httpError(503), QString() } }, Now);
    f.data = store.data(key);
    c = ConsoleText::captions(f);
    QVERIFY2(c.header.contains(QStringLiteral("STALE: the last refresh failed at 13:05:00 UTC")),
        qPrintable(c.header));
    QVERIFY(c.findings.startsWith(QStringLiteral("STALE — ")));

    KlusterStore partial;
    partial.setListed(key.connection, { key.kluster }, Error());
    fetched(partial, key, "broken-routes", { { Source::Nodes, httpError(503), QString() } });
    f.data = partial.data(key);
    c = ConsoleText::captions(f);
    QVERIFY2(
        c.header.contains(QStringLiteral("INCOMPLETE: the nodes could not be read")), qPrintable(c.header));
    QVERIFY2(c.findings.contains(QStringLiteral("≥ ")), qPrintable(c.findings)); // counts are lower bounds
}

void TestConsoleText::notificationOfUnreachableAndNewCritical()
{
    const KlusterKey key { QStringLiteral("eu"), QStringLiteral("prod") };
    KlusterStore store;
    store.setListed(key.connection, { key.kluster }, Error());
    // The first data: nothing to compare with, nothing to say.
    fetched(store, key, "healthy");
    const KlusterData healthy = *store.data(key);
    QVERIFY(!ConsoleText::notification(key, KlusterData(), healthy));
    // Critical findings appeared.
    fetched(store, key, "broken-nodes");
    const KlusterData broken = *store.data(key);
    const std::optional<ConsoleText::Notification> n = ConsoleText::notification(key, healthy, broken);
    QVERIFY(n);
    QVERIFY2(n->title.startsWith(QStringLiteral("eu/prod: ")), qPrintable(n->title));
    QVERIFY(n->title.contains(QStringLiteral("critical")));
    // The first new one to open on a click: a critical finding, or the incident that holds it (its instances
    // never registered long past flight's deletion: automation-stalled).
    const Finding *f = broken.diagnosis->find(n->finding);
    const Incident *i = nullptr;
    for (const Incident &each : broken.diagnosis->incidents) {
        if (each.id() == n->finding)
            i = &each;
    }
    QVERIFY2(f || i, qPrintable(n->finding));
    QCOMPARE(f ? f->severity : i->severity, Severity::Critical);
    // The same findings again: nothing new.
    QVERIFY(!ConsoleText::notification(key, broken, broken));
    // Unreachable now.
    store.setFailed(key, { { std::nullopt, httpError(503), QString() } }, Now);
    const std::optional<ConsoleText::Notification> down
        = ConsoleText::notification(key, broken, *store.data(key));
    QVERIFY(down);
    QCOMPARE(down->title, QStringLiteral("Kluster eu/prod is unreachable"));
    QVERIFY(down->finding.isEmpty());
    // Still unreachable: said once.
    QVERIFY(!ConsoleText::notification(key, *store.data(key), *store.data(key)));
}

// diagnosis.md §5: new findings of one new incident are one notification naming the incident; a new finding
// of an incident known before says nothing; a new finding in no incident is told as before.
void TestConsoleText::notificationOnePerIncident()
{
    const KlusterKey key { QStringLiteral("eu"), QStringLiteral("legacy") };
    const auto fetch = fetchOf("broken-routes");
    const Diagnosis now = Diagnosis::run(fetch->state);
    QCOMPARE(now.incidents.size(), 1);
    const Incident incident = now.incidents.first();
    QCOMPARE(incident.members.size(), 2);
    const auto data = [&fetch](const Diagnosis &d) {
        KlusterData k;
        k.fetch = fetch;
        k.diagnosis = std::make_shared<const Diagnosis>(d);
        return k;
    };
    // Before: everything but the incident (its findings, and it).
    Diagnosis before = now;
    before.incidents.clear();
    before.findings.erase(std::remove_if(before.findings.begin(), before.findings.end(),
                              [&](const Finding &f) { return incident.members.contains(f.id()); }),
        before.findings.end());
    const std::optional<ConsoleText::Notification> n
        = ConsoleText::notification(key, data(before), data(now));
    QVERIFY(n);
    QCOMPARE(n->title, QStringLiteral("eu/legacy: new incident")); // one, not one per finding
    QVERIFY2(n->body.startsWith(incident.title), qPrintable(n->body));
    QVERIFY2(n->body.contains(QStringLiteral("2 findings, one cause")), qPrintable(n->body));
    QCOMPARE(n->finding, incident.id()); // a click shows the incident
    QCOMPARE(n->severity, Severity::Critical);

    // A member of an incident known (and told) before is not told again.
    Diagnosis known = now;
    known.findings.removeIf([&](const Finding &f) { return f.id() == incident.members.first(); });
    QVERIFY(!ConsoleText::notification(key, data(known), data(now)));

    // A new finding in no incident is told as before, alone.
    Diagnosis lone = now;
    const QString duplicate = QStringLiteral("route-duplicate:198.19.1.0/24");
    QVERIFY(lone.find(duplicate) && !now.incidentOf(duplicate));
    lone.findings.removeIf([&](const Finding &f) { return f.id() == duplicate; });
    const std::optional<ConsoleText::Notification> single
        = ConsoleText::notification(key, data(lone), data(now));
    QVERIFY(single);
    QCOMPARE(single->title, QStringLiteral("eu/legacy: new critical finding"));
    QCOMPARE(single->finding, duplicate);

    // A new incident and a new finding in none: one notification that counts both, the incident first.
    Diagnosis both = before;
    both.findings.removeIf([&](const Finding &f) { return f.id() == duplicate; });
    const std::optional<ConsoleText::Notification> two
        = ConsoleText::notification(key, data(both), data(now));
    QVERIFY(two);
    QVERIFY2(two->title.contains(QStringLiteral("1 new incident")), qPrintable(two->title));
    QVERIFY2(two->body.contains(QStringLiteral("…and 1 more")), qPrintable(two->body));
    QCOMPARE(two->finding, incident.id());
}

void TestConsoleText::roundDoneAndWindowTitle()
{
    QCOMPARE(ConsoleText::roundDone({ 3, 0, false, false }, Now),
        QStringLiteral("Refreshed 3 kluster(s) at 2026-11-26 13:05:00 UTC"));
    QVERIFY(ConsoleText::roundDone({ 3, 1, false, false }, Now)
                .contains(QStringLiteral("1 of 3 kluster(s) could not be read")));
    QCOMPARE(
        ConsoleText::roundDone({ 2, 0, true, false }, Now), QStringLiteral("Opened 2 snapshot(s), offline"));
    QVERIFY(ConsoleText::roundDone({ 3, 0, false, true }, Now).isEmpty()); // a cancel is no news
    QCOMPARE(ConsoleText::windowTitle({}, false), QStringLiteral("Flightdeck"));
    QCOMPARE(ConsoleText::windowTitle({ QStringLiteral("eu"), QStringLiteral("prod") }, true),
        QStringLiteral("eu/prod — Flightdeck (read-only)"));
}

// What a row copies as: names, addresses, ids and the command that shows the object, from the state itself.
void TestConsoleText::rowCopies()
{
    const KlusterState state
        = SnapshotReader::read(QStringLiteral(FLIGHTDECK_SOURCE_DIR "/examples/stopped-instances"));
    const Diagnosis d = Diagnosis::run(state);
    const auto texts = [](const QList<RowCopies::Copyable> &list) {
        QStringList out;
        for (const RowCopies::Copyable &c : list)
            out << c.text;
        return out;
    };
    const QStringList node
        = texts(RowCopies::of(RowCopies::RowKind::Node, QStringLiteral("kks-prod-workers-4xk2p"), state, d));
    QVERIFY2(node.contains(QStringLiteral("kks-prod-workers-4xk2p")), qPrintable(node.join('\n')));
    QVERIFY(node.contains(QStringLiteral("10.180.0.11")));
    QVERIFY(node.contains(QStringLiteral("100.100.0.0/24")));
    QVERIFY(node.contains(QStringLiteral("openstack server show 972f9228-4ac0-7df9-cb4e-9532f7f99668")));
    QVERIFY(node.contains(QStringLiteral("kubectl get node kks-prod-workers-4xk2p -o yaml")));
    const QStringList finding = texts(RowCopies::of(
        RowCopies::RowKind::Finding, QStringLiteral("instance-stopped:kks-prod-workers-4xk2p"), state, d));
    QCOMPARE(finding.first(), QStringLiteral("instance-stopped:kks-prod-workers-4xk2p"));
    QVERIFY(finding.contains(QStringLiteral("openstack server show 972f9228-4ac0-7df9-cb4e-9532f7f99668")));
    const QStringList route = texts(
        RowCopies::of(RowCopies::RowKind::Route, QStringLiteral("100.100.1.0/24 via 10.180.0.12"), state, d));
    QVERIFY(route.contains(QStringLiteral("100.100.1.0/24")));
    QVERIFY(route.contains(QStringLiteral("10.180.0.12")));
    QVERIFY2(route.last().startsWith(QStringLiteral("openstack router show ")), qPrintable(route.join('\n')));
    // A name a shell would read otherwise is quoted.
    KlusterState odd = state;
    odd.nodes.first().name = QStringLiteral("a b;rm");
    const QStringList quoted
        = texts(RowCopies::of(RowCopies::RowKind::Node, QStringLiteral("a b;rm"), odd, Diagnosis::run(odd)));
    QVERIFY2(
        quoted.contains(QStringLiteral("kubectl get node 'a b;rm' -o yaml")), qPrintable(quoted.join('\n')));
    QCOMPARE(RowCopies::rowsText({ QStringLiteral("Name"), QStringLiteral("IP") },
                 { { QStringLiteral("n1"), QStringLiteral("10.0.0.1") } }),
        QStringLiteral("Name\tIP\nn1\t10.0.0.1\n"));
    // What the cloud names never drives the terminal it is pasted into.
    QCOMPARE(RowCopies::rowsText({ QStringLiteral("Name") }, { { QStringLiteral("x\x1b[2Jy\tz") } }),
        QStringLiteral("Name\nx\\e[2Jy\\tz\n"));
}

// The palette's letters in order, anywhere; runs and word starts first; nothing for letters out of order.
void TestConsoleText::paletteMatchesFuzzilyBestFirst()
{
    QVERIFY(Palette::score(u"lgcy", u"sim/legacy") > 0);
    QCOMPARE(Palette::score(u"ycgl", u"sim/legacy"), -1);
    QCOMPARE(Palette::score(u"", u"anything"), 0);
    QVERIFY(Palette::score(u"LEG", u"sim/legacy") > 0); // any case
    const QList<Palette::Entry> entries { { Palette::Kind::Kluster, QStringLiteral("sim/blue"), {}, {} },
        { Palette::Kind::Kluster, QStringLiteral("sim/legacy"), {}, {} },
        { Palette::Kind::View, QStringLiteral("Routes"), {}, {} },
        { Palette::Kind::Action, QStringLiteral("Repair all route findings of this router…"), {}, {} },
        { Palette::Kind::Action, QStringLiteral("Refresh"), {}, {} } };
    QCOMPARE(Palette::matches(entries, QStringLiteral("routes")).value(0), 2); // the name itself first
    QCOMPARE(Palette::matches(entries, QStringLiteral("ref")).value(0), 4); // a run at the start first
    QCOMPARE(Palette::matches(entries, QStringLiteral("leg")).value(0), 1);
    QCOMPARE(Palette::matches(entries, QString()).size(), entries.size()); // all, in their order
    QCOMPARE(Palette::matches(entries, QString()).value(0), 0);
    QVERIFY(Palette::matches(entries, QStringLiteral("zzz")).isEmpty());
    QCOMPARE(Palette::kindName(Palette::Kind::View), QStringLiteral("view"));
}

// The Overview says what the kluster's lifecycle means and what Kubernikus' automation is due to do
// (diagnosis.md §7): a Terminating kluster's title is its reason, never "healthy".
void TestConsoleText::overviewSaysThePhaseAndTheAutomation()
{
    KlusterState state = fetchOf("broken-nodes")->state;
    const ConsoleText::OverviewText running
        = ConsoleText::overviewText(QStringLiteral("k"), Diagnosis::run(state), {});
    const QString said = running.lines.join(QLatin1Char('\n'));
    QVERIFY2(said.contains(QStringLiteral("Kubernikus' automation: flight")), qPrintable(said));
    QVERIFY2(!said.contains(QStringLiteral("Phase:")), qPrintable(said)); // Running: nothing to say
    state.kluster.phase = QStringLiteral("Terminating");
    const ConsoleText::OverviewText terminating
        = ConsoleText::overviewText(QStringLiteral("k"), Diagnosis::run(state), {});
    QCOMPARE(terminating.title, QStringLiteral("k: kluster being torn down"));
    QVERIFY2(terminating.lines.join(QLatin1Char('\n')).contains(QStringLiteral("Phase: <b>Terminating</b>")),
        qPrintable(terminating.lines.join(QLatin1Char('\n'))));
    QVERIFY(!terminating.lines.join(QLatin1Char('\n')).contains(QStringLiteral("automation")));
}

// The Overview's timeline: the repairs and Kubernikus' events of the last day, newest first, at most Shown
// lines; what could not be read said, and events older than a day left out.
void TestConsoleText::timelineMergesRepairsAndKubernikus()
{
    const QDateTime now = QDateTime::fromString(QStringLiteral("2026-11-29T12:00:00Z"), Qt::ISODate);
    RepairEvent repair;
    repair.phase = RepairEventPhase::Verified;
    repair.time = now.addSecs(-10 * 60);
    repair.user = QStringLiteral("alice");
    repair.repair = QStringLiteral("Delete instance x");
    repair.findings = { QStringLiteral("instance-error:x") };
    repair.inAuditLog = true;
    KlusterState state;
    state.kubernikusEventsSource.known = true;
    KubernikusEvent reboot;
    reboot.reason = QStringLiteral("FailedRebootNode");
    reboot.message = QStringLiteral("Upgrading OS for node: n1. Reboot failed: \x1b[2Jtimeout");
    reboot.type = QStringLiteral("Warning");
    reboot.count = 3;
    reboot.lastTimestamp = now.addSecs(-5 * 60);
    KubernikusEvent drain;
    drain.reason = QStringLiteral("SuccessfulDrainNode");
    drain.type = QStringLiteral("Normal");
    drain.lastTimestamp = now.addSecs(-20 * 60);
    KubernikusEvent old = drain;
    old.lastTimestamp = now.addDays(-2);
    state.kubernikusEvents = { reboot, drain, old };

    KlusterTimeline::Lines t = KlusterTimeline::lines({ repair }, QString(), &state, now);
    QCOMPARE(t.lines.size(), 3); // the two-day-old event left out
    QCOMPARE(t.lines.at(0),
        QStringLiteral(
            "Kubernikus, 5 min ago: Warning FailedRebootNode (3 times): Upgrading OS for node: n1. "
            "Reboot failed: \\e[2Jtimeout"));
    QVERIFY2(t.lines.at(1).startsWith(QStringLiteral("user alice repaired")), qPrintable(t.lines.at(1)));
    QCOMPARE(t.lines.at(2), QStringLiteral("Kubernikus, 20 min ago: SuccessfulDrainNode"));
    QVERIFY(t.problems.isEmpty());

    state.kubernikusEvents = QList<KubernikusEvent>(KlusterTimeline::Shown + 3, drain);
    t = KlusterTimeline::lines({}, QStringLiteral("HTTP 403"), &state, now);
    QCOMPARE(t.lines.size(), KlusterTimeline::Shown + 1);
    QCOMPARE(t.lines.last(), QStringLiteral("… and 3 older"));
    QCOMPARE(t.problems, QStringList { QStringLiteral("Repairs by others not read: HTTP 403") });

    state.kubernikusEventsSource = SourceStatus { false,
        QStringLiteral("kubernikus: GET /api/v1/clusters/k/events: HTTP 500"), QString() };
    t = KlusterTimeline::lines({}, QString(), &state, now);
    QVERIFY(t.lines.isEmpty());
    QCOMPARE(t.problems,
        QStringList { QStringLiteral(
            "Kubernikus' events not read: kubernikus: GET /api/v1/clusters/k/events: HTTP 500") });
    state.kubernikusEventsSource.error = QStringLiteral("not fetched"); // never asked: nothing said
    QVERIFY(KlusterTimeline::lines({}, QString(), &state, now).problems.isEmpty());
}

// A kluster read through Prometheus: the header says where from, how old, stale and why, and where to read
// it whole; a notification comes when its exporter stops being scraped or its critical causes grow.
void TestConsoleText::exportedKlusterHeaderAndNotifications()
{
    const QDateTime now = QDateTime::fromString(QStringLiteral("2026-11-30T13:00:00Z"), Qt::ISODate);
    ExportedFleet::Kluster k;
    k.name = QStringLiteral("legacy");
    k.projectId = QStringLiteral("p1");
    k.exporter = QStringLiteral("10.0.0.5:9473");
    k.present = true;
    k.up = true;
    k.readAt = now.addSecs(-40);
    k.phase = QStringLiteral("Running");
    k.standing.worst = Severity::Critical;
    k.standing.critical = 2;
    k.standing.warning = 1;
    k.standing.worstCause = QStringLiteral("recycled-pod-cidr");
    k.standing.reason = QStringLiteral("pod CIDR recycled");
    k.reading = Reading::Fresh;
    ExportedText::Facts f { { QStringLiteral("team"), QStringLiteral("legacy") }, &k,
        QStringLiteral("http://prometheus:9090"), {}, QStringLiteral("#c00"), now };
    QString h = ExportedText::header(f);
    QVERIFY2(h.contains(QStringLiteral("read-only, from Prometheus http://prometheus:9090")), qPrintable(h));
    QVERIFY2(
        h.contains(QStringLiteral("2 critical · 1 warning — worst cause: pod CIDR recycled")), qPrintable(h));
    QVERIFY2(h.contains(QStringLiteral("(40 s ago)")), qPrintable(h));
    QVERIFY2(
        h.contains(QStringLiteral("/klusters/legacy?project_id=p1</tt> on 10.0.0.5:9473")), qPrintable(h));
    QVERIFY2(!h.contains(QStringLiteral("STALE")), qPrintable(h));
    f.live = { QStringLiteral("eu-de-1"), QStringLiteral("legacy") };
    h = ExportedText::header(f);
    QVERIFY2(h.contains(QStringLiteral("through connection <b>eu-de-1</b>: <a href=\"eu-de-1/legacy\">open "
                                       "eu-de-1/legacy</a>")),
        qPrintable(h));

    ExportedFleet::Kluster stale = k;
    stale.present = false;
    stale.reading = Reading::Stale;
    f.kluster = &stale;
    QVERIFY2(ExportedText::header(f).contains(QStringLiteral("STALE: its exporter is not scraped now")),
        qPrintable(ExportedText::header(f)));

    const KlusterKey key { QStringLiteral("team"), QStringLiteral("legacy") };
    QVERIFY(!ExportedText::notification(key, nullptr, k)); // the first time: nothing to compare with
    QVERIFY(!ExportedText::notification(key, &k, k)); // nothing new
    const auto gone = ExportedText::notification(key, &k, stale);
    QVERIFY(gone);
    QCOMPARE(gone->title, QStringLiteral("Kluster team/legacy: its exporter is no longer scraped"));
    ExportedFleet::Kluster worse = k;
    worse.standing.critical = 3;
    const auto more = ExportedText::notification(key, &k, worse);
    QVERIFY(more);
    QCOMPARE(more->title, QStringLiteral("Kluster team/legacy: 3 critical · 1 warning"));
    QCOMPARE(more->body, QStringLiteral("Worst cause: pod CIDR recycled"));
    ExportedFleet::Kluster better = k;
    better.standing.critical = 1;
    QVERIFY(!ExportedText::notification(key, &k, better));
}

// The exporter's report in the Findings view: being read, not read (why, and nothing made up), read (every
// finding with its plan, marked never sent), and a failure after a good read (the report kept, said stale).
void TestConsoleText::exportedReportPendingFailedAndStale()
{
    const QDateTime now = QDateTime::fromString(QStringLiteral("2026-11-30T13:00:00Z"), Qt::ISODate);
    ExportedFleet::Kluster k;
    k.name = QStringLiteral("legacy");
    k.exporter = QStringLiteral("10.0.0.5:9473");
    k.present = true;
    k.up = true;
    ExportedText::Facts f { { QStringLiteral("team"), QStringLiteral("legacy") }, &k,
        QStringLiteral("http://prometheus:9090"), {}, QStringLiteral("#c00"), now };
    QVERIFY(ExportedText::report(f).isEmpty()); // not asked for

    ExportedReportEntry e;
    e.pending = true;
    f.report = &e;
    QVERIFY2(ExportedText::report(f).contains(QStringLiteral("Reading it from its exporter 10.0.0.5:9473")),
        qPrintable(ExportedText::report(f)));

    e.pending = false;
    e.error = Error::of(Error::Kind::Network,
        QStringLiteral("the exporter's report http://10.0.0.5:9473/klusters/legacy: connection refused"));
    QString html = ExportedText::report(f);
    QVERIFY2(html.contains(QStringLiteral("could not be read"))
            && html.contains(QStringLiteral("connection refused")),
        qPrintable(html));
    QVERIFY2(!html.contains(QStringLiteral("CRITICAL")), qPrintable(html));

    auto report = std::make_shared<ExporterReport::Report>();
    report->kluster = k.name;
    report->capturedAt = now.addSecs(-60);
    ExporterReport::Reported dup;
    dup.id = QStringLiteral("route-duplicate:198.19.1.0/24");
    dup.kind = QStringLiteral("route-duplicate");
    dup.severity = Severity::Critical;
    dup.message = QStringLiteral("The router has 3 routes for <198.19.1.0/24>");
    dup.repairTitle = QStringLiteral("Remove from router r");
    dup.requests = { { QStringLiteral("PUT"), QStringLiteral("network"), QStringLiteral("/v2.0/routers/r1"),
        QStringLiteral("denied") } };
    report->findings = { dup };
    report->critical = 1;
    e.report = report;
    e.error = Error();
    e.url = QStringLiteral("http://10.0.0.5:9473/klusters/legacy");
    e.readAt = now.addSecs(-5);
    html = ExportedText::report(f);
    for (const char *said :
        { "read-only", "nothing here is sent", "Read 12:59:55 UTC", "(5 s ago)", "(1 min ago)",
            "1 critical · 0 warning · 0 info", "route-duplicate:198.19.1.0/24", "&lt;198.19.1.0/24&gt;",
            "runbook:route-duplicate", "PUT network /v2.0/routers/r1", "(denied)", "not sent from here" })
        QVERIFY2(html.contains(QString::fromUtf8(said)), said);
    QVERIFY2(!html.contains(QStringLiteral("STALE")), qPrintable(html));
    // Live elsewhere: repaired there.
    f.live = { QStringLiteral("eu-de-1"), QStringLiteral("legacy") };
    QVERIFY(ExportedText::report(f).contains(QStringLiteral("open it live through eu-de-1/legacy")));
    f.live = {};
    // The next read failed: the report stays, said stale, with the failure above it.
    e.error = Error::of(Error::Kind::Timeout, QStringLiteral("no answer in 30 s"));
    html = ExportedText::report(f);
    QVERIFY2(html.contains(QStringLiteral("no answer in 30 s")) && html.contains(QStringLiteral("STALE"))
            && html.contains(QStringLiteral("route-duplicate:198.19.1.0/24")),
        qPrintable(html));
    // Its exporter no longer scraped: stale too.
    e.error = Error();
    k.present = false;
    QVERIFY(ExportedText::report(f).contains(QStringLiteral("STALE")));
}

QTEST_GUILESS_MAIN(TestConsoleText)
#include "tst_consoletext.moc"
