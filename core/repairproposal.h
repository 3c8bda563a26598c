#pragma once

#include "core/auditrecord.h"
#include "core/diagnosis.h"
#include "core/klusterfetch.h"
#include "core/repairgate.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <memory>

// What a person asked to repair, as it stays true from one reading of the kluster to the next: findings by id
// (an incident's id among them stands for its one repair), incidents whose cause is repaired, or every route
// finding of the router. A plan is made from it and from data; the same choice made again from fresh data
// is how a plan is checked just before it is sent.
struct RepairChoice
{
    QStringList findings; // finding ids (or incident ids: their one repair), in the order asked
    QStringList incidents; // incidents whose cause is repaired: their findings come first
    bool allRoutes = false; // every route finding of the kluster's router that has a repair
    bool protectedKluster = false; // the kluster's name is typed to confirm, whatever is sent
    // Another kluster on the kluster's router is protected: tearing the router's devices down needs the
    // override (diagnosis.md §6), as for a protected kluster.
    bool protectedRouter = false;

    friend bool operator==(const RepairChoice &a, const RepairChoice &b)
    {
        return a.findings == b.findings && a.incidents == b.incidents && a.allRoutes == b.allRoutes
            && a.protectedKluster == b.protectedKluster && a.protectedRouter == b.protectedRouter;
    }
};

// One repair as it is planned, once, from one reading of a kluster (diagnosis.md §3): the findings chosen,
// the repair gate's decisions (what is sent, what is refused and why), the steps and their exact requests,
// what must be typed and whether the override is asked for, and the words of all of it. The console's
// repair dialog draws it, flightdeck-cli repair prints it, the repair session sends exactly its steps; just
// before sending, the session makes it again from fresh data and sends only when nothing differs.
class RepairProposal
{
public:
    RepairProposal(const QString &kluster, std::shared_ptr<const KlusterFetch> fetch,
        std::shared_ptr<const Diagnosis> diagnosis, const RepairChoice &choice);

    const QString &kluster() const { return m_kluster; }
    const RepairChoice &choice() const { return m_choice; }
    const std::shared_ptr<const KlusterFetch> &fetch() const { return m_fetch; } // the data it is made from
    const std::shared_ptr<const Diagnosis> &diagnosis() const { return m_diagnosis; }
    const RepairGate &gate() const { return m_gate; }

    const QList<const Finding *> &chosen() const { return m_chosen; }
    QStringList chosenIds() const;
    QStringList absent() const { return m_absent; } // asked for, and not in the data
    QStringList noRepair() const { return m_noRepair; } // incidents asked for without a repair: "id: why"
    const QList<Incident> &incidents() const { return m_incidents; } // whose cause it repairs

    // What a confirmation sends, in order, and the findings it sends.
    const QList<RepairGate::Step> &steps() const { return m_steps; }
    const QStringList &sendable() const { return m_sendable; }
    bool needsOverride() const { return m_gate.needsOverride(); }
    bool deletesNode() const; // one of the plans deletes a Kubernetes node
    // What must be typed to confirm: the router's name where its devices are torn down, the deleted name
    // (one), the kluster's name (several, or a protected kluster whatever is sent); empty: nothing.
    QString typeToConfirm() const;
    // The plan that tears a router's configuration on its devices down and syncs it, when one is among what a
    // confirmation sends (or would, overridden); null otherwise.
    const RepairPlan *teardown() const;

    // Each refused finding with why ("<id>: <refusal> (<detail>)"), those refused by the budget last, for
    // the dialog; `howToOverride` is said where the override would let one through.
    QStringList refusals(const QString &howToOverride) const;
    // What the remediation budget says of the deletions, in a sentence or two.
    QString budgetVerdict() const;
    bool refusedByZone() const; // a deletion is refused as its zone is down (ZoneDisruption)
    // Why the override is needed (None where it is not): the one decision that waits for it.
    Refusal overrideReason() const;
    // The confirmation's action: "Delete instance web-1", "Change the router (5 findings)", "Send 3 repairs",
    // "Nothing can be sent".
    QString action() const;
    // The repair in a few words (a silence's comment, an event): the one change's title or the one plan's,
    // else "3 repairs".
    QString summary() const;

    // Where `fresh` (the same choice made from data read again) would send anything else, ask for anything
    // else to be typed or let another finding through: each difference in words. Empty: the same plan.
    QStringList differences(const RepairProposal &fresh) const;

    // An outcome in the words the console and the command line give it: "fixed (verified)", "refused", …
    static QString outcomeWords(RepairResult result);

private:
    static QList<const Finding *> choose(const Diagnosis &diagnosis, const RepairChoice &choice,
        QStringList *absent, QStringList *noRepair, QList<Incident> *incidents);

    QString m_kluster;
    RepairChoice m_choice;
    std::shared_ptr<const KlusterFetch> m_fetch;
    std::shared_ptr<const Diagnosis> m_diagnosis;
    QStringList m_absent;
    QStringList m_noRepair;
    QList<Incident> m_incidents;
    QList<const Finding *> m_chosen;
    RepairGate m_gate;
    QList<RepairGate::Step> m_steps;
    QStringList m_sendable;
};
