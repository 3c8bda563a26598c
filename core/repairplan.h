#pragma once

#include "core/json/jsonwriter.h"
#include "core/permissionverdict.h"
#include "core/refusal.h"
#include "core/router.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

// One HTTP request of a repair, exactly as it will be sent (minus the token).
struct PlannedRequest
{
    QString service; // catalog type: "compute", "network", "kubernetes"
    QString method; // "DELETE", "POST", "PUT"
    QString path; // relative to the service's endpoint
    QJsonObject headers; // the headers that matter to the repair (If-Match), never a token
    QJsonValue body = QJsonValue::Null;
    // Whether these credentials may send it (diagnosis.md §8): judged from the token, never sent, not part of
    // what is compared (a plan made again is the same plan whoever holds it).
    PermissionVerdict permission;

    // The one way a request is written (the check report, the audit log, a dry run): {"service",
    // "method", "path", "headers", "body"}, in that order.
    void write(JsonWriter &writer) const;
    // The same, with "permission" and (unless allowed) "permissionReason" after them: the check report's.
    void writeJudged(JsonWriter &writer) const;
    QJsonObject toJson() const; // the same, as an object
    // Read back from what write() wrote; nullopt when a field is missing or of another type.
    static std::optional<PlannedRequest> fromJson(const QJsonObject &json);
    // "DELETE compute /servers/…" (as it came: print it escaped).
    QString summary() const;

    friend bool operator==(const PlannedRequest &a, const PlannedRequest &b)
    {
        return a.service == b.service && a.method == b.method && a.path == b.path && a.headers == b.headers
            && a.body == b.body;
    }
};

// How a plan is asked for. Exact: as it would be sent alone. Delta: to be combined into one change of the
// router (RepairGate): the same routes and refusals, its requests the atomic change of its own routes. On a
// router without extraroute-atomic an exact route plan carries the router's whole new list, so combining
// thousands of them from exact plans is quadratic in the routes; from deltas it stays linear. A Delta plan
// is never sent, reported or audited (the executor refuses one): the combined change is built once.
enum class PlanForm
{
    Exact,
    Delta,
};

// What a repair will do, as the exact list of requests: shown to a person
// before anything is sent, printable as a dry run, recorded in the audit log.
struct RepairPlan
{
    enum class Action
    {
        DeleteInstance,
        AddSecurityGroup,
        CreateSecurityGroupRule,
        RemoveRoutes,
        AddRoutes,
        ChangeRoutes, // several route findings of one router as one change: removals, then additions
        DeleteNode, // a Kubernetes node object
        StartInstance, // a stopped instance started again (os-start, resume, unpause)
        AddAddressPair, // a pod network added to a port's allowed address pairs, the others kept
        SyncDevices, // the ASR driver's sync of a router to its devices (it adds what a device lacks)
        // The ASR driver's teardown of a router's configuration on its devices, then its sync: what a device
        // kept goes; every route of the router is gone from the devices until the sync ends.
        ResetDevices,
        // The seeds' nudge for a route a device lacks: the same route removed from the router in Neutron and
        // added again, so that the driver's agent programs it on the devices again (no cloud admin needed;
        // the device lacks it already, so nothing that works is interrupted).
        RenewRoutes,
        // What a terminated kluster left behind (diagnosis.md §9): an orphaned Cinder volume deleted; one
        // stuck deleting reset to `error` by an admin, then deleted; an orphaned Octavia load balancer
        // deleted with everything on it (cascade).
        DeleteVolume,
        ResetAndDeleteVolume,
        DeleteLoadBalancer,
    };

    Action action = Action::DeleteInstance;
    QString title;
    QList<PlannedRequest> requests;
    // Why this plan must not be sent as it stands (None when it may be):
    // NoEvidence, NoRevision, RouteLimit or TooLarge. The remediation budget is
    // checked apart (RepairGate weighs both).
    Refusal refusal = Refusal::None;
    QString refusalDetail;
    // Delta only where it differs from the exact plan (a route plan of a router without extraroute-atomic).
    PlanForm form = PlanForm::Exact;

    // The objects it acts on, for verification and for naming them in dialogs.
    QString instanceId;
    QString instanceName;
    QString nodeName;
    QList<Route> routes; // removed (RemoveRoutes, ChangeRoutes), added (AddRoutes), or both (RenewRoutes)
    QList<Route> addedRoutes; // ChangeRoutes: added after the removals
    QString portId; // AddAddressPair
    QString routerName; // SyncDevices, ResetDevices (typed to confirm), RenewRoutes
    QStringList cutOff; // ResetDevices: who loses the router's routes until the sync ends, in words
    QString debrisId; // the volume's or load balancer's id (deletesDebris)
    QString debrisName; // its name, as the dialogs name it
    QString klusterName; // deletesDebris: the kluster it was left by, typed to confirm

    bool deletesInstance() const { return action == Action::DeleteInstance; }
    // Deletes an instance or a node: confirmed by typing its name, weighed by the remediation budget.
    bool deletes() const { return action == Action::DeleteInstance || action == Action::DeleteNode; }
    QString deletedName() const { return action == Action::DeleteNode ? nodeName : instanceName; }
    // The name a person types to confirm this plan: the deleted instance's or node's, the router's whose
    // devices are torn down; empty where none is asked for.
    QString typedName() const
    {
        if (deletesDebris())
            return klusterName;
        return deletes() ? deletedName() : action == Action::ResetDevices ? routerName : QString();
    }
    // Deletes what a terminated kluster left behind: at most 10 in one confirmation, the kluster's name
    // typed.
    bool deletesDebris() const
    {
        return action == Action::DeleteVolume || action == Action::ResetAndDeleteVolume
            || action == Action::DeleteLoadBalancer;
    }
    // The ASR driver's requests about one router's devices: one sync (or teardown and sync) does for every
    // finding it repairs.
    bool actsOnDevices() const { return action == Action::SyncDevices || action == Action::ResetDevices; }
    // What only the router's devices read again can prove done: the driver's requests, and the nudge.
    bool verifiedOnDevices() const { return actsOnDevices() || action == Action::RenewRoutes; }
    bool changesRoutes() const
    {
        return action == Action::RemoveRoutes || action == Action::AddRoutes
            || action == Action::ChangeRoutes;
    }
    QJsonObject toJson() const;
};
