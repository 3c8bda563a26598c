#include "core/diagnosis.h"
#include "core/repairgate.h"
#include "tests/common/worldbuilder.h"

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
    void judgeOnePlanAlone();
    void reasonsAsTheReportsNameThem();
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
    const Diagnosis d = Diagnosis::run(w.state());
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
    QVERIFY(gate.deletedInstances().isEmpty());
    QCOMPARE(gate.typeToConfirm(QStringLiteral("demo")), QString()); // nothing to type
}

void TestRepairGate::noRepair()
{
    WorldBuilder w = world(2, 2, {});
    w.setCondition(0, QStringLiteral("Ready"), QStringLiteral("False"), QStringLiteral("KubeletDown"));
    const Diagnosis d = Diagnosis::run(w.state());
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
    const Diagnosis d = Diagnosis::run(w.state());
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
    const Diagnosis d = Diagnosis::run(world(5, 5, twoInError).state());
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
    QCOMPARE(both.deletedInstances(), twoInError);
    // Several: the kluster's name is typed.
    QCOMPARE(both.typeToConfirm(QStringLiteral("demo")), QStringLiteral("demo"));
}

void TestRepairGate::oneDeletionNeedsTheOverride()
{
    const Diagnosis d = Diagnosis::run(world(6, 2, twoInError).state()); // 4 of 6 unhealthy, 2 allowed
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
    const Diagnosis d = Diagnosis::run(world(6, 2, twoInError).state());
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
    KlusterState state = world(2, 2, twoInError).state();
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
    WorldBuilder w = world(6, 2, twoInError);
    w.route(QStringLiteral("100.100.99.0/24"), QStringLiteral("10.0.0.99"));
    const Diagnosis d = Diagnosis::run(w.state());
    QList<const Finding *> chosen;
    QVERIFY(choose(d, { orphan, errorA }, &chosen));
    const RepairGate gate(chosen, d.budget);
    QCOMPARE(gate.decisions().at(0).verdict, RepairGate::Verdict::Sendable);
    QCOMPARE(gate.decisions().at(1).verdict, RepairGate::Verdict::NeedsOverride);
    QCOMPARE(gate.deletions(), 1); // only deletions count toward the budget
    QVERIFY(gate.needsOverride());
    QCOMPARE(gate.sendable(), (QStringList { orphan, errorA }));
    QCOMPARE(gate.deletedInstances(), QStringList { QStringLiteral("kks-demo-pool-eaaaa") });
}

void TestRepairGate::judgeOnePlanAlone()
{
    const Diagnosis d = Diagnosis::run(world(6, 2, twoInError).state());
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
    const Diagnosis fine = Diagnosis::run(world(5, 5, twoInError).state());
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
