// The kluster's lifecycle and Kubernikus' own automation (diagnosis.md §7): phases, servicing, when an actor
// repairs a finding, the refusal that keeps a repair from racing it, and the incident of a stalled actor.
#include "core/checkreport.h"
#include "core/diagnosis.h"
#include "core/klusterfetch.h"
#include "core/repairgate.h"
#include "core/repairproposal.h"
#include "tests/common/worldbuilder.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

class TestLifecycle : public QObject
{
    Q_OBJECT

private slots:
    void terminatingIsOneFinding();
    void unknownPhaseIsDiagnosedAsRunning();
    void creatingExpectsWhatWasCreated();
    void servicedNodeIsExpectedDown();
    void dueAndOverdueAtTheBoundaries();
    void clockSteppingBackIsNoFuture();
    void actorsActOnlyInTheirPhase();
    void automationPendingIsOverridable();
    void automationBesideTheBudget();
    void automationLapsingChangesNoConfirmedPlan();
    void pendingRouteRepairInABatchStillWaits();
    void stalledActorIsAnIncident();
    void automationInTheReports();
};

static const QString errorA = QStringLiteral("instance-error:kks-demo-pool-eaaaa");
static const QString errorB = QStringLiteral("instance-error:kks-demo-pool-ebbbb");

// Two healthy members, two instances in ERROR, an orphaned route.
static WorldBuilder broken()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 2); // both Ready: the budget allows the deletions
    w.healthyMember(
        QStringLiteral("kks-demo-pool-h0aaa"), QStringLiteral("10.0.0.10"), QStringLiteral("100.100.0.0/24"));
    w.healthyMember(
        QStringLiteral("kks-demo-pool-h1aaa"), QStringLiteral("10.0.0.11"), QStringLiteral("100.100.1.0/24"));
    w.server(QStringLiteral("kks-demo-pool-eaaaa"), QStringLiteral("10.0.1.10"), 60, QStringLiteral("ERROR"));
    w.server(QStringLiteral("kks-demo-pool-ebbbb"), QStringLiteral("10.0.1.11"), 60, QStringLiteral("ERROR"));
    w.route(QStringLiteral("100.100.99.0/24"), QStringLiteral("10.0.0.99"));
    return w;
}

static QStringList ids(const Diagnosis &d)
{
    QStringList out;
    for (const Finding &f : d.findings)
        out << f.id();
    return out;
}

void TestLifecycle::terminatingIsOneFinding()
{
    KlusterState s = broken().state();
    s.kluster.phase = QStringLiteral("Terminating");
    const QString id = QStringLiteral("kluster-terminating:demo");
    {
        const Diagnosis d = Diagnosis::run(s);
        QCOMPARE(ids(d), QStringList { id });
        const Finding &f = d.findings.first();
        QCOMPARE(f.severity, Severity::Info); // not seen before: since when is not known
        QVERIFY(!f.repair());
        QVERIFY(!f.automation());
        QVERIFY(f.message().contains(QStringLiteral("not known")));
        QVERIFY(f.evidence().value(QStringLiteral("since")).isNull());
        QVERIFY(d.incidents.isEmpty());
    }
    const struct
    {
        int minutes;
        Severity severity;
        const char *words;
    } ages[] = {
        { 59, Severity::Info, "deletes its volumes" },
        { 60, Severity::Warning, "waiting for volumes and load balancers" },
        { 24 * 60 - 1, Severity::Warning, "waiting for volumes" },
        { 24 * 60, Severity::Critical, "gave up after 24 h" },
    };
    for (const auto &a : ages) {
        s.findingsSince.insert(id, s.capturedAt.addSecs(-qint64(a.minutes) * 60));
        const Diagnosis d = Diagnosis::run(s);
        QCOMPARE(d.findings.size(), 1);
        QCOMPARE(d.findings.first().severity, a.severity);
        QVERIFY2(d.findings.first().message().contains(QLatin1String(a.words)),
            qPrintable(d.findings.first().message()));
        QCOMPARE(
            d.findings.first().evidence().value(QStringLiteral("forSeconds")).toInteger(), a.minutes * 60);
    }
}

void TestLifecycle::unknownPhaseIsDiagnosedAsRunning()
{
    KlusterState s = broken().state();
    const QStringList running = ids(Diagnosis::run(s));
    s.kluster.phase = QStringLiteral("Exploding");
    const Diagnosis d = Diagnosis::run(s);
    QCOMPARE(ids(d), running);
    QVERIFY(d.notes.join(QLatin1Char('\n')).contains(QStringLiteral("Exploding")));
    QVERIFY(d.find(errorA)->automation()); // flight acts as on a Running kluster
}

void TestLifecycle::creatingExpectsWhatWasCreated()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 10);
    w.healthyMember(
        QStringLiteral("kks-demo-pool-h0aaa"), QStringLiteral("10.0.0.10"), QStringLiteral("100.100.0.0/24"));
    w.healthyMember(
        QStringLiteral("kks-demo-pool-h1aaa"), QStringLiteral("10.0.0.11"), QStringLiteral("100.100.1.0/24"));
    w.server(QStringLiteral("kks-demo-pool-bbbbb"), QStringLiteral("10.0.0.12"), 3); // still booting
    KlusterState s = w.state();
    QCOMPARE(Diagnosis::run(s).budget.expected, 10);
    QCOMPARE(Diagnosis::run(s).budget.unhealthy, 8); // Running: the pools' sizes are expected
    s.kluster.phase = QStringLiteral("Creating");
    const Diagnosis d = Diagnosis::run(s);
    QCOMPARE(d.budget.expected, 3); // what has been created so far
    QCOMPARE(d.budget.unhealthy, 1);
    QVERIFY(d.budget.deletionsAllowed);
}

void TestLifecycle::servicedNodeIsExpectedDown()
{
    for (const int minutes : { 40, 3 * 60 + 14, 3 * 60 + 15, 4 * 60 }) {
        WorldBuilder w;
        w.pool(QStringLiteral("pool"), 2);
        w.healthyMember(QStringLiteral("kks-demo-pool-h0aaa"), QStringLiteral("10.0.0.10"),
            QStringLiteral("100.100.0.0/24"));
        w.server(QStringLiteral("kks-demo-pool-sssss"), QStringLiteral("10.0.0.11"), 600);
        const int n = w.node(QStringLiteral("kks-demo-pool-sssss"), QStringLiteral("10.0.0.11"),
            QStringLiteral("100.100.1.0/24"), QStringLiteral("False"));
        w.route(QStringLiteral("100.100.1.0/24"), QStringLiteral("10.0.0.11"));
        QJsonObject &node = w.nodeAt(n);
        QJsonObject metadata = node.value(QStringLiteral("metadata")).toObject();
        QJsonObject annotations = metadata.value(QStringLiteral("annotations")).toObject();
        annotations.insert(QStringLiteral("kubernikus.cloud.sap/updateTimestamp"),
            WorldBuilder::defaultCapturedAt().addSecs(-minutes * 60).toString(Qt::ISODate));
        metadata.insert(QStringLiteral("annotations"), annotations);
        node.insert(QStringLiteral("metadata"), metadata);
        QJsonObject spec = node.value(QStringLiteral("spec")).toObject();
        spec.insert(QStringLiteral("unschedulable"), true);
        node.insert(QStringLiteral("spec"), spec);
        const Diagnosis d = Diagnosis::run(w.state());
        const Finding *f = d.find(QStringLiteral("node-not-ready:kks-demo-pool-sssss"));
        QVERIFY(f);
        QCOMPARE(f->severity, minutes >= 3 * 60 + 15 ? Severity::Critical : Severity::Warning);
        QVERIFY2(
            f->message().contains(minutes >= 3 * 60 + 15 ? QStringLiteral("past servicing's own timeout")
                                                         : QStringLiteral("being serviced by Kubernikus")),
            qPrintable(f->message()));
        QVERIFY(f->evidence().contains(QStringLiteral("servicingSince")));
    }
    // Stamped once, but no longer cordoned: not being serviced, a plain NotReady node.
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 1);
    w.server(QStringLiteral("kks-demo-pool-sssss"), QStringLiteral("10.0.0.11"), 600);
    const int n = w.node(QStringLiteral("kks-demo-pool-sssss"), QStringLiteral("10.0.0.11"),
        QStringLiteral("100.100.1.0/24"), QStringLiteral("False"));
    w.route(QStringLiteral("100.100.1.0/24"), QStringLiteral("10.0.0.11"));
    QJsonObject metadata = w.nodeAt(n).value(QStringLiteral("metadata")).toObject();
    metadata.insert(QStringLiteral("annotations"),
        QJsonObject { { QStringLiteral("kubernikus.cloud.sap/updateTimestamp"),
            WorldBuilder::defaultCapturedAt().addSecs(-5 * 3600).toString(Qt::ISODate) } });
    w.nodeAt(n).insert(QStringLiteral("metadata"), metadata);
    const Diagnosis plain = Diagnosis::run(w.state());
    const Finding *f = plain.find(QStringLiteral("node-not-ready:kks-demo-pool-sssss"));
    QVERIFY(f);
    QCOMPARE(f->severity, Severity::Warning);
    QVERIFY(!f->message().contains(QStringLiteral("servic")));

    // A stamp that is no time (outside text): the node list still reads, the node is a plain NotReady one.
    QJsonObject spec = w.nodeAt(n).value(QStringLiteral("spec")).toObject();
    spec.insert(QStringLiteral("unschedulable"), true);
    w.nodeAt(n).insert(QStringLiteral("spec"), spec);
    metadata.insert(QStringLiteral("annotations"),
        QJsonObject {
            { QStringLiteral("kubernikus.cloud.sap/updateTimestamp"), QStringLiteral("<html>soon") } });
    w.nodeAt(n).insert(QStringLiteral("metadata"), metadata);
    const KlusterState garbled = w.state();
    QVERIFY(garbled.nodesSource.known);
    const Diagnosis odd = Diagnosis::run(garbled);
    const Finding *g = odd.find(QStringLiteral("node-not-ready:kks-demo-pool-sssss"));
    QVERIFY(g);
    QCOMPARE(g->severity, Severity::Warning);
    QVERIFY(!g->message().contains(QStringLiteral("servic")));
}

void TestLifecycle::dueAndOverdueAtTheBoundaries()
{
    const QDateTime ref = WorldBuilder::defaultCapturedAt();
    // Without history: one period from now, never overdue.
    Automation a = Automation::at(Actor::Flight, AutomationAction::DeleteInstance, QDateTime(), ref);
    QCOMPARE(a.due, ref.addSecs(300));
    QVERIFY(!a.overdue);
    QVERIFY2(a.line(ref).contains(QStringLiteral("in 5 min")), qPrintable(a.line(ref)));
    // Since 10 min: due 5 min ago, overdue only past one more period (strictly).
    a = Automation::at(Actor::Flight, AutomationAction::DeleteInstance, ref.addSecs(-600), ref);
    QCOMPARE(a.due, ref.addSecs(-300));
    QVERIFY(!a.overdue);
    QVERIFY2(a.line(ref).contains(QStringLiteral("now")), qPrintable(a.line(ref)));
    a = Automation::at(Actor::Flight, AutomationAction::DeleteInstance, ref.addSecs(-601), ref);
    QVERIFY(a.overdue);
    QVERIFY2(a.line(ref).contains(QStringLiteral("should have deleted")), qPrintable(a.line(ref)));
    // The route controller's period is a minute.
    a = Automation::at(Actor::RouteController, AutomationAction::AddRoute, ref.addSecs(-121), ref);
    QVERIFY(a.overdue);
    a = Automation::at(Actor::RouteController, AutomationAction::AddRoute, ref.addSecs(-120), ref);
    QVERIFY(!a.overdue);

    // An instance never registered: flight deletes it 45 min after it was created.
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 3);
    w.server(QStringLiteral("kks-demo-pool-u0000"), QStringLiteral("10.0.0.20"), 20);
    w.server(QStringLiteral("kks-demo-pool-u1111"), QStringLiteral("10.0.0.21"), 50);
    w.server(QStringLiteral("kks-demo-pool-u2222"), QStringLiteral("10.0.0.22"), 51);
    const Diagnosis d = Diagnosis::run(w.state());
    const std::optional<Automation> young
        = d.find(QStringLiteral("instance-unregistered:kks-demo-pool-u0000"))->automation();
    QVERIFY(young);
    QCOMPARE(young->actor, Actor::Flight);
    QCOMPARE(young->due, ref.addSecs(25 * 60));
    QVERIFY(!young->overdue);
    QVERIFY2(
        young->line(ref).startsWith(QStringLiteral("flight deletes the instance at 10:25 UTC, in 25 min")),
        qPrintable(young->line(ref)));
    QVERIFY(!d.find(QStringLiteral("instance-unregistered:kks-demo-pool-u1111"))->automation()->overdue);
    QVERIFY(d.find(QStringLiteral("instance-unregistered:kks-demo-pool-u2222"))->automation()->overdue);
}

void TestLifecycle::clockSteppingBackIsNoFuture()
{
    const QDateTime ref = WorldBuilder::defaultCapturedAt();
    // The history saw it "later" than now (this machine's clock ahead, or the cloud's stepped back).
    const Automation a
        = Automation::at(Actor::RouteGc, AutomationAction::RemoveRoute, ref.addSecs(3600), ref);
    QCOMPARE(a.since, ref);
    QCOMPARE(a.due, ref.addSecs(300));
    QVERIFY(!a.overdue);
    KlusterState s = broken().state();
    s.findingsSince.insert(errorA, s.capturedAt.addDays(1));
    const Diagnosis d = Diagnosis::run(s);
    QCOMPARE(d.find(errorA)->automation()->due, s.capturedAt.addSecs(300));
}

void TestLifecycle::actorsActOnlyInTheirPhase()
{
    WorldBuilder w = broken();
    w.server(QStringLiteral("kks-demo-pool-mmmmm"), QStringLiteral("10.0.0.30"), 600);
    w.node(
        QStringLiteral("kks-demo-pool-mmmmm"), QStringLiteral("10.0.0.30"), QStringLiteral("100.100.7.0/24"));
    KlusterState s = w.state();
    const QString missing = QStringLiteral("route-missing:kks-demo-pool-mmmmm");
    const QString orphan = QStringLiteral("route-orphaned:100.100.99.0/24 via 10.0.0.99");
    Diagnosis d = Diagnosis::run(s);
    QCOMPARE(d.find(errorA)->automation()->actor, Actor::Flight);
    QCOMPARE(d.find(orphan)->automation()->actor, Actor::RouteGc);
    QCOMPARE(d.find(missing)->automation()->actor, Actor::RouteController);
    s.kluster.phase = QStringLiteral("Upgrading");
    d = Diagnosis::run(s);
    QVERIFY(!d.find(errorA)->automation()); // flight and routegc act only on a Running kluster
    QVERIFY(!d.find(orphan)->automation());
    QCOMPARE(d.find(missing)->automation()->actor, Actor::RouteController); // the kluster's own, in any phase
    // A cloud where they do not run.
    DiagnosisOptions off;
    off.automation = false;
    s.kluster.phase = QStringLiteral("Running");
    d = Diagnosis::run(s, off);
    QVERIFY(!d.find(errorA)->automation());
    QVERIFY(!d.find(missing)->automation());
}

void TestLifecycle::automationPendingIsOverridable()
{
    KlusterState s = broken().state();
    Diagnosis d = Diagnosis::run(s);
    {
        const RepairGate gate({ d.find(errorA) }, d.budget);
        const RepairGate::Decision &one = gate.decisions().first();
        QCOMPARE(one.verdict, RepairGate::Verdict::NeedsOverride);
        QCOMPARE(one.reason, Refusal::AutomationPending);
        QVERIFY2(
            one.detail.contains(QStringLiteral("flight deletes the instance at")), qPrintable(one.detail));
        QVERIFY(one.detail.contains(QStringLiteral("waiting does the same")));
        QVERIFY(!one.mayBeSent(false));
        QVERIFY(one.mayBeSent(true));
    }
    {
        // Together (an incident's repair is several): each waits, and the override repairs them all now (no
        // safety limit is at stake, only a race).
        const RepairGate gate({ d.find(errorA), d.find(errorB) }, d.budget);
        for (const RepairGate::Decision &each : gate.decisions()) {
            QCOMPARE(each.verdict, RepairGate::Verdict::NeedsOverride);
            QCOMPARE(each.reason, Refusal::AutomationPending);
        }
        QVERIFY(gate.needsOverride());
        QCOMPARE(gate.sendable().size(), 2);
    }
    // Overdue (seen for 11 min): flight is not doing it, so nothing waits for it.
    s.findingsSince.insert(errorA, s.capturedAt.addSecs(-11 * 60));
    d = Diagnosis::run(s);
    QCOMPARE(
        RepairGate({ d.find(errorA) }, d.budget).decisions().first().verdict, RepairGate::Verdict::Sendable);
}

// A deletion the remediation budget refuses keeps the budget's refusal, and says the automation beside it;
// the repair dialog's verdict says both.
void TestLifecycle::automationBesideTheBudget()
{
    WorldBuilder w = broken();
    w.pool(QStringLiteral("pool"), 6); // 2 of 6 Ready: the budget refuses deletions
    KlusterState s = w.state();
    auto diagnosis = std::make_shared<const Diagnosis>(Diagnosis::run(s));
    const RepairGate gate({ diagnosis->find(errorA) }, diagnosis->budget);
    const RepairGate::Decision &one = gate.decisions().first();
    QVERIFY2(one.reason == Refusal::TooManyUnhealthy, qPrintable(refusalName(one.reason)));
    QVERIFY2(one.detail.contains(QStringLiteral("; meanwhile flight deletes the instance at")),
        qPrintable(one.detail));

    // The repair dialog's verdict: the budget's refusal (the automation is in the decision's detail); where
    // the budget allows it, the budget's words and then the automation's.
    auto fetch = std::make_shared<KlusterFetch>();
    fetch->state = s;
    RepairChoice choice;
    choice.findings = { errorA };
    const QString verdict = RepairProposal(QStringLiteral("demo"), fetch, diagnosis, choice).budgetVerdict();
    QVERIFY2(verdict.startsWith(QStringLiteral("Remediation budget refuses deletions (TooManyUnhealthy)")),
        qPrintable(verdict));
    QVERIFY2(!verdict.contains(QStringLiteral("AutomationPending")), qPrintable(verdict)); // refused first

    KlusterState allowed = broken().state();
    auto allowedDiagnosis = std::make_shared<const Diagnosis>(Diagnosis::run(allowed));
    fetch->state = allowed;
    const QString both
        = RepairProposal(QStringLiteral("demo"), fetch, allowedDiagnosis, choice).budgetVerdict();
    QVERIFY2(both.startsWith(QStringLiteral("Remediation budget: deleting this one is allowed.")),
        qPrintable(both));
    QVERIFY2(both.contains(QStringLiteral("Kubernikus' automation is due to repair ") + errorA
                 + QStringLiteral(" (AutomationPending)")),
        qPrintable(both));
}

// A plan confirmed with the override while flight was due, read again once flight is overdue: the same
// requests, now sendable without it; nothing the person confirmed changed, so nothing stops the sending.
void TestLifecycle::automationLapsingChangesNoConfirmedPlan()
{
    KlusterState s = broken().state();
    auto fetch = std::make_shared<KlusterFetch>();
    fetch->state = s;
    RepairChoice choice;
    choice.findings = { errorA };
    const RepairProposal confirmed(
        QStringLiteral("demo"), fetch, std::make_shared<const Diagnosis>(Diagnosis::run(s)), choice);
    QVERIFY(confirmed.needsOverride());
    s.findingsSince.insert(errorA, s.capturedAt.addSecs(-11 * 60)); // overdue now
    auto again = std::make_shared<KlusterFetch>();
    again->state = s;
    const RepairProposal fresh(
        QStringLiteral("demo"), again, std::make_shared<const Diagnosis>(Diagnosis::run(s)), choice);
    QVERIFY(!fresh.needsOverride());
    QCOMPARE(confirmed.differences(fresh), QStringList());
    // The other way round (the override needed now, not when confirmed) is a difference.
    QVERIFY(!fresh.differences(confirmed).isEmpty());
}

// Several route findings are planned as one change; one that routegc is due to repair stays out of it and,
// planned again alone, still waits for the override (it is not sent behind the person's back).
void TestLifecycle::pendingRouteRepairInABatchStillWaits()
{
    WorldBuilder w = broken();
    w.atomicRoutes(false); // no extraroute-atomic: each plan of a batch is a delta until it is settled
    w.route(QStringLiteral("100.100.98.0/24"), QStringLiteral("10.0.0.98")); // a second orphan
    KlusterState s = w.state();
    s.findingsSince.insert(QStringLiteral("route-orphaned:100.100.98.0/24 via 10.0.0.98"),
        s.capturedAt.addSecs(-3600)); // overdue: sendable
    const Diagnosis d = Diagnosis::run(s);
    QList<const Finding *> routes;
    for (const Finding &f : d.findings) {
        if (f.kind == FindingKind::RouteOrphaned)
            routes << &f;
    }
    QCOMPARE(routes.size(), 2);
    const RepairGate gate(routes, d.budget);
    // Both in the one change of the router (one guarded update, sent whole or not at all): the pending one
    // waits for its own reason, the overdue one as part of the change; the override sends the one change.
    int pending = 0;
    int partOfTheChange = 0;
    for (const RepairGate::Decision &each : gate.decisions()) {
        QVERIFY(each.combined);
        QCOMPARE(each.reason, Refusal::AutomationPending);
        QCOMPARE(each.verdict, RepairGate::Verdict::NeedsOverride);
        QVERIFY(!each.mayBeSent(false));
        if (each.detail.startsWith(QStringLiteral("part of the one change of the router")))
            ++partOfTheChange;
        else
            ++pending;
    }
    QVERIFY2(pending == 1 && partOfTheChange == 1, qPrintable(ids(d).join(QLatin1Char(' '))));
    QCOMPARE(gate.steps().size(), 1);
    QCOMPARE(gate.steps().first().findingIds.size(), 2);
}

void TestLifecycle::stalledActorIsAnIncident()
{
    KlusterState s = broken().state();
    s.findingsSince.insert(errorA, s.capturedAt.addSecs(-30 * 60));
    Diagnosis d = Diagnosis::run(s);
    QVERIFY(!d.incidentOf(errorA)); // one overdue finding is no incident
    s.findingsSince.insert(errorB, s.capturedAt.addSecs(-20 * 60));
    d = Diagnosis::run(s);
    const Incident *i = d.incidentOf(errorA);
    QVERIFY(i);
    QCOMPARE(i->id(), QStringLiteral("automation-stalled:flight"));
    QCOMPARE(i->severity, Severity::Critical);
    QCOMPARE(i->members, (QStringList { errorA, errorB }));
    // Due 25 min ago (seen 30 min, plus its period): it has not acted since.
    QVERIFY2(i->title.startsWith(QStringLiteral("flight has not acted for 25 min: 2 findings")),
        qPrintable(i->title));
    QVERIFY(!i->repair());
    QVERIFY(i->noRepairReason().contains(QStringLiteral("Kubernikus operators")));
    QCOMPARE(i->actor(), std::optional<Actor>(Actor::Flight));
}

void TestLifecycle::automationInTheReports()
{
    const KlusterState s = broken().state();
    const Diagnosis d = Diagnosis::run(s);
    const QJsonObject report = QJsonDocument::fromJson(CheckReport::toJson(s, d)).object();
    bool seen = false;
    for (const QJsonValue v : report.value(QStringLiteral("findings")).toArray()) {
        const QJsonObject f = v.toObject();
        if (f.value(QStringLiteral("id")).toString() != errorA) {
            continue;
        }
        seen = true;
        const QJsonObject a = f.value(QStringLiteral("automation")).toObject();
        QCOMPARE(a.value(QStringLiteral("actor")).toString(), QStringLiteral("flight"));
        QCOMPARE(a.value(QStringLiteral("action")).toString(), QStringLiteral("delete-instance"));
        QCOMPARE(a.value(QStringLiteral("due")).toString(), QStringLiteral("2026-11-21T10:05:00Z"));
        QCOMPARE(a.value(QStringLiteral("overdue")).toBool(true), false);
        QCOMPARE(f.value(QStringLiteral("repair"))
                     .toObject()
                     .value(QStringLiteral("refusal"))
                     .toObject()
                     .value(QStringLiteral("reason"))
                     .toString(),
            QStringLiteral("AutomationPending"));
    }
    QVERIFY(seen);
    const QString text = QString::fromUtf8(CheckReport::toText(s, d));
    QVERIFY2(text.contains(QStringLiteral("Automation: flight deletes the instance at 10:05 UTC, in 5 min")),
        qPrintable(text));
}

QTEST_GUILESS_MAIN(TestLifecycle)
#include "tst_lifecycle.moc"
