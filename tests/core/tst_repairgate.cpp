#include "core/diagnosis.h"
#include "core/diagnosiscontext.h"
#include "core/repairgate.h"
#include "core/repairproposal.h"
#include "tests/common/worldbuilder.h"

#include <QJsonArray>
#include <QTest>

// The repair gate (diagnosis.md §3): what of the repairs chosen may be sent,
// what needs the override, and what must be typed to confirm.
class TestRepairGate : public QObject
{
    Q_OBJECT
private slots:
    void sendableWithoutDeletion();
    void noRepair();
    void refusedByItsPlan();
    void deletionsTheBudgetAllows();
    void oneDeletionNeedsTheOverride();
    void bulkDeletionNeverOverridden();
    void noEvidenceNeverOverridden();
    void overrideBesideOtherRepairs();
    void routeFindingsAsOneAtomicChange();
    void routeFindingsAsOneGuardedPut();
    void removalsMakeRoomForAdditions();
    void deletionsInABatchOnlyWithinTheBudget();
    void judgeOnePlanAlone();
    void reasonsAsTheReportsNameThem();
    void proposalMadeAgainFromTheSameDataIsTheSame();
    void proposalSaysWhatChanged();
    void proposalResolvesIncidentsAndAbsentIds();
};

// A kluster of `expected` nodes, `ready` of them healthy, and instances in ERROR
// (each an instance-error finding whose repair deletes it).
static WorldBuilder world(int expected, int ready, const QStringList &inError)
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), expected);
    for (int i = 0; i < ready; ++i)
        w.healthyMember(QStringLiteral("kks-demo-pool-h%1aaa").arg(i),
            QStringLiteral("10.0.0.%1").arg(10 + i), QStringLiteral("100.100.%1.0/24").arg(i));
    for (int i = 0; i < inError.size(); ++i)
        w.server(inError.at(i), QStringLiteral("10.0.1.%1").arg(10 + i), 60, QStringLiteral("ERROR"));
    return w;
}

// The findings of `ids`, in that order; false when one of them is not there.
static bool choose(const Diagnosis &d, const QStringList &ids, QList<const Finding *> *chosen)
{
    for (const QString &id : ids) {
        const Finding *f = d.find(id);
        if (!f) {
            qWarning("no finding %s", qPrintable(id));
            return false;
        }
        *chosen << f;
    }
    return true;
}

static const QString orphan = QStringLiteral("route-orphaned:100.100.99.0/24 via 10.0.0.99");
static const QString errorA = QStringLiteral("instance-error:kks-demo-pool-eaaaa");
static const QString errorB = QStringLiteral("instance-error:kks-demo-pool-ebbbb");
static const QStringList twoInError
    = { QStringLiteral("kks-demo-pool-eaaaa"), QStringLiteral("kks-demo-pool-ebbbb") };

void TestRepairGate::sendableWithoutDeletion()
{
    WorldBuilder w = world(2, 2, {});
    w.route(QStringLiteral("100.100.99.0/24"), QStringLiteral("10.0.0.99"));
    const Diagnosis d = Diagnosis::run(w.stateOpenFor(60));
    QList<const Finding *> chosen;
    QVERIFY(choose(d, { orphan }, &chosen));
    const RepairGate gate(chosen, d.budget);
    QCOMPARE(gate.decisions().size(), 1);
    const RepairGate::Decision &decision = gate.decisions().first();
    QCOMPARE(decision.verdict, RepairGate::Verdict::Sendable);
    QCOMPARE(decision.reason, Refusal::None);
    QVERIFY(decision.mayBeSent(false));
    QVERIFY(decision.plan);
    QCOMPARE(gate.sendable(), QStringList { orphan });
    QVERIFY(!gate.needsOverride());
    QCOMPARE(gate.deletions(), 0);
    QVERIFY(gate.deletionsAllowed());
    QVERIFY(gate.deletedNames().isEmpty());
    QCOMPARE(gate.typeToConfirm(QStringLiteral("demo")), QString()); // nothing to type
}

void TestRepairGate::noRepair()
{
    WorldBuilder w = world(2, 2, {});
    w.setCondition(0, QStringLiteral("Ready"), QStringLiteral("False"), QStringLiteral("KubeletDown"));
    const Diagnosis d = Diagnosis::run(w.stateOpenFor(60));
    const QString id = QStringLiteral("node-not-ready:kks-demo-pool-h0aaa");
    QList<const Finding *> chosen;
    QVERIFY(choose(d, { id }, &chosen));
    const RepairGate gate(chosen, d.budget);
    const RepairGate::Decision &decision = gate.decisions().first();
    QCOMPARE(decision.verdict, RepairGate::Verdict::NoRepair);
    QVERIFY(!decision.plan);
    QVERIFY(!decision.mayBeSent(true));
    QVERIFY(gate.sendable().isEmpty());
}

void TestRepairGate::refusedByItsPlan()
{
    WorldBuilder w = world(2, 2, {});
    w.atomicRoutes(false).routerRevision(-1); // a full-list update nothing guards
    w.route(QStringLiteral("100.100.99.0/24"), QStringLiteral("10.0.0.99"));
    const Diagnosis d = Diagnosis::run(w.stateOpenFor(60));
    QList<const Finding *> chosen;
    QVERIFY(choose(d, { orphan }, &chosen));
    const RepairGate gate(chosen, d.budget);
    const RepairGate::Decision &decision = gate.decisions().first();
    QCOMPARE(decision.verdict, RepairGate::Verdict::Refused);
    QCOMPARE(decision.reason, Refusal::NoRevision);
    QVERIFY(!decision.byBudget);
    QCOMPARE(decision.detail, decision.plan->refusalDetail);
    QVERIFY(!decision.mayBeSent(true)); // no override for a plan's own refusal
    QVERIFY(decision.why(QStringLiteral("never shown")).startsWith(QStringLiteral("NoRevision: ")));
    QVERIFY(!decision.why(QStringLiteral("never shown")).contains(QStringLiteral("never shown")));
    QVERIFY(gate.sendable().isEmpty());
}

void TestRepairGate::deletionsTheBudgetAllows()
{
    const Diagnosis d = Diagnosis::run(world(5, 5, twoInError).stateOpenFor(60));
    QVERIFY(d.budget.deletionsAllowed);
    QList<const Finding *> oneChosen;
    QVERIFY(choose(d, { errorA }, &oneChosen));
    const RepairGate one(oneChosen, d.budget);
    QCOMPARE(one.decisions().first().verdict, RepairGate::Verdict::Sendable);
    QCOMPARE(one.deletions(), 1);
    QVERIFY(one.deletionsAllowed());
    // One deletion: its instance's name is typed.
    QCOMPARE(one.typeToConfirm(QStringLiteral("demo")), QStringLiteral("kks-demo-pool-eaaaa"));

    QList<const Finding *> bothChosen;
    QVERIFY(choose(d, { errorA, errorB }, &bothChosen));
    const RepairGate both(bothChosen, d.budget);
    QCOMPARE(both.sendable(), (QStringList { errorA, errorB }));
    QCOMPARE(both.deletions(), 2);
    QVERIFY(!both.refusedInBulk());
    QCOMPARE(both.deletedNames(), twoInError);
    // Several: the kluster's name is typed.
    QCOMPARE(both.typeToConfirm(QStringLiteral("demo")), QStringLiteral("demo"));
}

void TestRepairGate::oneDeletionNeedsTheOverride()
{
    const Diagnosis d
        = Diagnosis::run(world(6, 2, twoInError).stateOpenFor(60)); // 4 of 6 unhealthy, 2 allowed
    QCOMPARE(d.budget.reason, Refusal::TooManyUnhealthy);
    QList<const Finding *> chosen;
    QVERIFY(choose(d, { errorA }, &chosen));
    const RepairGate gate(chosen, d.budget);
    const RepairGate::Decision &decision = gate.decisions().first();
    QCOMPARE(decision.verdict, RepairGate::Verdict::NeedsOverride);
    QCOMPARE(decision.reason, Refusal::TooManyUnhealthy);
    QVERIFY(decision.byBudget);
    QCOMPARE(decision.detail, d.budget.detail);
    QVERIFY(!decision.mayBeSent(false));
    QVERIFY(decision.mayBeSent(true));
    QCOMPARE(decision.why(QStringLiteral("override it")),
        QStringLiteral("TooManyUnhealthy: %1 (override it)").arg(d.budget.detail));
    QVERIFY(gate.needsOverride());
    QVERIFY(!gate.deletionsAllowed());
    QVERIFY(!gate.refusedInBulk());
    QCOMPARE(gate.sendable(), QStringList { errorA }); // sent once the override is given
    QCOMPARE(gate.typeToConfirm(QStringLiteral("demo")), QStringLiteral("kks-demo-pool-eaaaa"));
}

void TestRepairGate::bulkDeletionNeverOverridden()
{
    const Diagnosis d = Diagnosis::run(world(6, 2, twoInError).stateOpenFor(60));
    QList<const Finding *> chosen;
    QVERIFY(choose(d, { errorA, errorB }, &chosen));
    const RepairGate gate(chosen, d.budget);
    for (const RepairGate::Decision &decision : gate.decisions()) {
        QCOMPARE(decision.verdict, RepairGate::Verdict::Refused);
        QCOMPARE(decision.reason, Refusal::TooManyUnhealthy);
        QVERIFY(decision.byBudget);
        QVERIFY(!decision.mayBeSent(true));
    }
    QCOMPARE(gate.deletions(), 2);
    QVERIFY(!gate.deletionsAllowed());
    QVERIFY(gate.refusedInBulk());
    QVERIFY(!gate.needsOverride());
    QVERIFY(gate.sendable().isEmpty());
    QCOMPARE(gate.typeToConfirm(QStringLiteral("demo")), QString()); // nothing is deleted
}

void TestRepairGate::noEvidenceNeverOverridden()
{
    KlusterState state = world(2, 2, twoInError).stateOpenFor(60);
    state.nodesSource = SourceStatus { false, QStringLiteral("timeout"), QString() };
    const Diagnosis d = Diagnosis::run(state);
    QCOMPARE(d.budget.reason, Refusal::NoEvidence);
    QList<const Finding *> chosen;
    QVERIFY(choose(d, { errorA }, &chosen));
    const RepairGate gate(chosen, d.budget);
    const RepairGate::Decision &decision = gate.decisions().first();
    QCOMPARE(decision.verdict, RepairGate::Verdict::Refused);
    QCOMPARE(decision.reason, Refusal::NoEvidence);
    QVERIFY(decision.byBudget);
    QVERIFY(!decision.mayBeSent(true));
    QVERIFY(!gate.needsOverride());
    QVERIFY(!gate.refusedInBulk()); // one deletion: not a bulk refusal
    QVERIFY(gate.sendable().isEmpty());
}

void TestRepairGate::overrideBesideOtherRepairs()
{
    // In a batch, a deletion past the budget is never overridden (diagnosis.md §3): the rest is sent.
    WorldBuilder w = world(6, 2, twoInError);
    w.route(QStringLiteral("100.100.99.0/24"), QStringLiteral("10.0.0.99"));
    const Diagnosis d = Diagnosis::run(w.stateOpenFor(60));
    QList<const Finding *> chosen;
    QVERIFY(choose(d, { orphan, errorA }, &chosen));
    const RepairGate gate(chosen, d.budget);
    QCOMPARE(gate.decisions().at(0).verdict, RepairGate::Verdict::Sendable);
    QCOMPARE(gate.decisions().at(1).verdict, RepairGate::Verdict::Refused);
    QVERIFY(gate.decisions().at(1).byBudget);
    QCOMPARE(gate.deletions(), 1); // only deletions count toward the budget
    QVERIFY(!gate.needsOverride());
    QVERIFY(gate.refusedInBulk());
    QCOMPARE(gate.sendable(), (QStringList { orphan }));
    QVERIFY(gate.deletedNames().isEmpty());
}

// legacy-like: a duplicate, a stale, an orphaned, an unassigned route and a missing one on one router.
static WorldBuilder brokenRouter(bool atomic, int limit = 30)
{
    WorldBuilder w(QStringLiteral("legacy"), QStringLiteral("198.19.0.0/16"));
    w.atomicRoutes(atomic).maxRoutes(limit).routerRevision(41);
    w.pool(QStringLiteral("pool"), 4);
    w.healthyMember(QStringLiteral("kks-legacy-pool-aaaaa"), QStringLiteral("10.180.0.3"),
        QStringLiteral("198.19.3.0/24"));
    w.healthyMember(QStringLiteral("kks-legacy-pool-bbbbb"), QStringLiteral("10.180.0.4"),
        QStringLiteral("198.19.4.0/24"));
    w.route(QStringLiteral("198.19.3.0/24"), QStringLiteral("10.180.0.98")); // duplicate (orphaned second)
    w.route(QStringLiteral("198.19.7.0/24"), QStringLiteral("10.180.0.99")); // orphaned
    w.server(QStringLiteral("bastion"), QStringLiteral("10.180.0.50"), 600, QStringLiteral("ACTIVE"),
        { QStringLiteral("default") });
    w.route(QStringLiteral("198.19.8.0/24"), QStringLiteral("10.180.0.50")); // unassigned
    w.server(QStringLiteral("kks-legacy-pool-ccccc"), QStringLiteral("10.180.0.5"), 600);
    w.node(QStringLiteral("kks-legacy-pool-ccccc"), QStringLiteral("10.180.0.5"),
        QStringLiteral("198.19.5.0/24"));
    return w; // ccccc has no route: route-missing
}

static QList<const Finding *> routeFindings(const Diagnosis &d)
{
    QList<const Finding *> chosen;
    for (const Finding &f : d.findings) {
        if (findingFamily(f.kind) == FindingFamily::Route && f.repair())
            chosen << &f;
    }
    return chosen;
}

void TestRepairGate::routeFindingsAsOneAtomicChange()
{
    const Diagnosis d = Diagnosis::run(brokenRouter(true).stateOpenFor(60));
    const QList<const Finding *> chosen = routeFindings(d);
    QCOMPARE(chosen.size(), 4); // duplicate, orphaned, unassigned, missing
    const RepairGate gate(chosen, d.budget);
    QCOMPARE(gate.sendable().size(), 4);
    QCOMPARE(gate.routeChangeFindings().size(), 4);
    const QList<RepairGate::Step> steps = gate.steps();
    QCOMPARE(steps.size(), 1);
    const RepairPlan &plan = steps.first().plan;
    QCOMPARE(plan.action, RepairPlan::Action::ChangeRoutes);
    // One remove_extraroutes with every route to remove, then one add_extraroutes.
    QCOMPARE(plan.requests.size(), 2);
    QVERIFY(plan.requests.at(0).path.endsWith(QStringLiteral("/remove_extraroutes")));
    QVERIFY(plan.requests.at(1).path.endsWith(QStringLiteral("/add_extraroutes")));
    const QJsonArray removed = plan.requests.at(0)
                                   .body.toObject()
                                   .value(QStringLiteral("router"))
                                   .toObject()
                                   .value(QStringLiteral("routes"))
                                   .toArray();
    QCOMPARE(removed.size(), 3);
    const QJsonArray added = plan.requests.at(1)
                                 .body.toObject()
                                 .value(QStringLiteral("router"))
                                 .toObject()
                                 .value(QStringLiteral("routes"))
                                 .toArray();
    QCOMPARE(added,
        (QJsonArray { QJsonObject { { QStringLiteral("destination"), QStringLiteral("198.19.5.0/24") },
            { QStringLiteral("nexthop"), QStringLiteral("10.180.0.5") } } }));
    // Before and after, each route marked.
    int kept = 0, gone = 0, fresh = 0;
    for (const RepairGate::RouteLine &l : gate.routeChangeLines()) {
        kept += l.change == RepairGate::RouteLine::Change::Kept;
        gone += l.change == RepairGate::RouteLine::Change::Removed;
        fresh += l.change == RepairGate::RouteLine::Change::Added;
    }
    QCOMPARE(kept, 2);
    QCOMPARE(gone, 3);
    QCOMPARE(fresh, 1);
}

void TestRepairGate::routeFindingsAsOneGuardedPut()
{
    const Diagnosis d = Diagnosis::run(brokenRouter(false).stateOpenFor(60));
    const RepairGate gate(routeFindings(d), d.budget);
    const QList<RepairGate::Step> steps = gate.steps();
    QCOMPARE(steps.size(), 1);
    const RepairPlan &plan = steps.first().plan;
    QCOMPARE(plan.requests.size(), 1);
    const PlannedRequest &put = plan.requests.first();
    QCOMPARE(put.method, QStringLiteral("PUT"));
    QCOMPARE(put.path, QStringLiteral("/v2.0/routers/%1").arg(d.findings.first().context->state.router.id));
    QCOMPARE(put.headers.value(QStringLiteral("If-Match")).toString(), QStringLiteral("revision_number=41"));
    const QJsonArray list = put.body.toObject()
                                .value(QStringLiteral("router"))
                                .toObject()
                                .value(QStringLiteral("routes"))
                                .toArray();
    QCOMPARE(list.size(), 3); // the two correct routes kept, the missing one added
    QCOMPARE(list.last().toObject().value(QStringLiteral("destination")).toString(),
        QStringLiteral("198.19.5.0/24"));
}

void TestRepairGate::removalsMakeRoomForAdditions()
{
    // The router is full (5 of 5): the missing route alone is refused, with the removals it fits.
    const Diagnosis d = Diagnosis::run(brokenRouter(true, 5).stateOpenFor(60));
    const Finding *missing = d.find(QStringLiteral("route-missing:kks-legacy-pool-ccccc"));
    QVERIFY(missing);
    QCOMPARE(missing->repair()->refusal, Refusal::RouteLimit);
    const RepairGate gate(routeFindings(d), d.budget);
    QVERIFY(gate.sendable().contains(missing->id()));
    QCOMPARE(gate.steps().size(), 1);
    // Alone (or with nothing to remove) it stays refused.
    const RepairGate alone({ missing }, d.budget);
    QVERIFY(alone.sendable().isEmpty());
}

void TestRepairGate::deletionsInABatchOnlyWithinTheBudget()
{
    // Within the budget, a deletion goes beside the route change as a step of its own.
    WorldBuilder w = brokenRouter(true);
    w.server(
        QStringLiteral("kks-legacy-pool-eeeee"), QStringLiteral("10.180.0.9"), 60, QStringLiteral("ERROR"));
    const Diagnosis d = Diagnosis::run(w.stateOpenFor(60));
    QList<const Finding *> chosen = routeFindings(d);
    chosen << d.find(QStringLiteral("instance-error:kks-legacy-pool-eeeee"));
    const RepairGate gate(chosen, d.budget);
    QVERIFY(d.budget.deletionsAllowed);
    QCOMPARE(gate.steps().size(), 2);
    QCOMPARE(gate.deletedNames(), QStringList { QStringLiteral("kks-legacy-pool-eeeee") });
}

void TestRepairGate::judgeOnePlanAlone()
{
    const Diagnosis d = Diagnosis::run(world(6, 2, twoInError).stateOpenFor(60));
    const Finding *f = d.find(errorA);
    QVERIFY(f);
    // Alone, a deletion past TooManyUnhealthy needs the override, as with the gate of one.
    QCOMPARE(RepairGate::judge(*f, f->repair(), d.budget).verdict, RepairGate::Verdict::NeedsOverride);
    // A plan a report withholds is refused by its own reason before the budget is asked.
    RepairPlan withheld = *f->repair();
    withheld.refusal = Refusal::TooLarge;
    withheld.refusalDetail = QStringLiteral("too large to show");
    const RepairGate::Decision decision = RepairGate::judge(*f, withheld, d.budget);
    QCOMPARE(decision.verdict, RepairGate::Verdict::Refused);
    QCOMPARE(decision.reason, Refusal::TooLarge);
    QCOMPARE(decision.detail, QStringLiteral("too large to show"));
    QVERIFY(!decision.byBudget);
    QCOMPARE(RepairGate::judge(*f, std::nullopt, d.budget).verdict, RepairGate::Verdict::NoRepair);
    // With the budget's room, the same deletion is sendable.
    const Diagnosis fine = Diagnosis::run(world(5, 5, twoInError).stateOpenFor(60));
    const Finding *g = fine.find(errorA);
    QVERIFY(g);
    QCOMPARE(RepairGate::judge(*g, g->repair(), fine.budget).verdict, RepairGate::Verdict::Sendable);
}

void TestRepairGate::reasonsAsTheReportsNameThem()
{
    QCOMPARE(refusalName(Refusal::None), QString());
    QCOMPARE(refusalName(Refusal::NoEvidence), QStringLiteral("NoEvidence"));
    QCOMPARE(refusalName(Refusal::NoRevision), QStringLiteral("NoRevision"));
    QCOMPARE(refusalName(Refusal::RouteLimit), QStringLiteral("RouteLimit"));
    QCOMPARE(refusalName(Refusal::TooLarge), QStringLiteral("TooLarge"));
    QCOMPARE(refusalName(Refusal::TooManyUnhealthy), QStringLiteral("TooManyUnhealthy"));
}

QTEST_GUILESS_MAIN(TestRepairGate)
#include "tst_repairgate.moc"

// A plan made from `w` as read now (what the dialog shows, the command line prints, the session compares).
static std::shared_ptr<const RepairProposal> propose(const WorldBuilder &w, const RepairChoice &choice)
{
    auto fetch = std::make_shared<KlusterFetch>();
    fetch->state = w.stateOpenFor(60);
    auto diagnosis = std::make_shared<const Diagnosis>(Diagnosis::run(fetch->state));
    return std::make_shared<const RepairProposal>(fetch->state.kluster.name, fetch, diagnosis, choice);
}

void TestRepairGate::proposalMadeAgainFromTheSameDataIsTheSame()
{
    RepairChoice routes;
    routes.allRoutes = true;
    const auto a = propose(brokenRouter(false), routes);
    const auto b = propose(brokenRouter(false), routes);
    QCOMPARE(a->sendable().size(), 4);
    QCOMPARE(a->action(), QStringLiteral("Change the router (4 findings)"));
    QVERIFY(a->typeToConfirm().isEmpty());
    QCOMPARE(a->differences(*b), QStringList());
    // A protected kluster asks for its name, whatever it sends.
    RepairChoice guarded = routes;
    guarded.protectedKluster = true;
    QCOMPARE(propose(brokenRouter(false), guarded)->typeToConfirm(), QStringLiteral("legacy"));
}

void TestRepairGate::proposalSaysWhatChanged()
{
    RepairChoice routes;
    routes.allRoutes = true;
    const auto before = propose(brokenRouter(false), routes);
    // Another writer bumped the router's revision: the guarded list is another request.
    WorldBuilder bumped = brokenRouter(false);
    bumped.routerRevision(42);
    const QStringList revision = before->differences(*propose(bumped, routes));
    QCOMPARE(revision.size(), 1);
    QVERIFY2(revision.first().startsWith(QStringLiteral("the requests of ")), qPrintable(revision.first()));
    // A finding gone, and one new: each named.
    WorldBuilder fixed = brokenRouter(false);
    fixed.route(QStringLiteral("198.19.9.0/24"), QStringLiteral("10.180.0.97"));
    const QStringList more = before->differences(*propose(fixed, routes));
    QVERIFY2(more.join(QLatin1Char('\n')).contains(QStringLiteral(" is new")),
        qPrintable(more.join(QLatin1Char('\n'))));
    // The budget now refuses a deletion that was allowed: said as the verdict that changed.
    RepairChoice one;
    one.findings = { errorA };
    const auto allowed = propose(world(4, 3, { QStringLiteral("kks-demo-pool-eaaaa") }), one);
    QCOMPARE(allowed->sendable(), QStringList { errorA });
    QCOMPARE(allowed->typeToConfirm(), QStringLiteral("kks-demo-pool-eaaaa"));
    const auto refused = propose(world(4, 1, { QStringLiteral("kks-demo-pool-eaaaa") }), one);
    const QStringList budget = allowed->differences(*refused);
    QVERIFY(!budget.isEmpty());
    QVERIFY2(
        budget.first().startsWith(errorA + QStringLiteral(": was sent, now ")), qPrintable(budget.first()));
    // Gone altogether.
    const QStringList gone = allowed->differences(*propose(world(4, 3, {}), one));
    QVERIFY2(gone.first().startsWith(errorA + QStringLiteral(" is gone")), qPrintable(gone.first()));
}

void TestRepairGate::proposalResolvesIncidentsAndAbsentIds()
{
    RepairChoice choice;
    choice.findings = { orphan, QStringLiteral("route-orphaned:nothing"), orphan };
    WorldBuilder w = world(2, 2, {});
    w.route(QStringLiteral("100.100.99.0/24"), QStringLiteral("10.0.0.99"));
    const auto p = propose(w, choice);
    QCOMPARE(p->chosenIds(), QStringList { orphan }); // once, however often asked
    QCOMPARE(p->absent(), QStringList { QStringLiteral("route-orphaned:nothing") });
    QCOMPARE(p->summary(), p->steps().first().plan.title);
    QCOMPARE(RepairProposal::outcomeWords(RepairResult::Fixed), QStringLiteral("fixed (verified)"));
}
