#pragma once

#include "core/automation.h"
#include "core/repairplan.h"
#include "core/ruleverdict.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>

enum class Severity
{
    Critical = 0,
    Warning = 1,
    Info = 2
};

QString severityName(Severity severity); // "critical", "warning", "info"
std::optional<Severity> severityFromName(QStringView name);

// The finding kinds of the diagnosis (diagnosis.md §2). What each one is
// called, its family, its severity rule and its words live in one table
// (core/findingtraits.cpp); the kind is a name only at the edges: reports,
// ids, filters and audit records.
enum class FindingKind
{
    InstanceUnregistered,
    InstanceError,
    InstanceStopped,
    InstanceMissingSecurityGroup,
    SecurityGroupMissing,
    SecurityGroupRuleMissing,
    RouteDuplicate,
    RouteOrphaned,
    RouteStale,
    RouteUnassigned,
    RouteMissing,
    PortAddressPairMissing,
    RouteLimit,
    NodeNotReady,
    NodeNetworkUnavailable,
    NodeWithoutInstance,
    DeviceRouteStale,
    DeviceRouteMissing,
    RouteRecycled,
    KlusterTerminating,
    VolumeOrphaned,
    VolumeStuck,
    LoadBalancerOrphaned,
    LoadBalancerStuck,
};

// What a kind is about; each family's findings are derived in a file of its own.
enum class FindingFamily
{
    Instance,
    Node,
    Security,
    Route,
    Kluster, // the kluster as a whole: its lifecycle
    Debris, // what a terminated kluster leaves behind: its volumes and load balancers (diagnosis.md §9)
};

QString findingKindName(FindingKind kind); // "route-duplicate", as reports and ids spell it
FindingFamily findingFamily(FindingKind kind);

// What a finding is about, for views that show and select the affected rows.
struct AffectedObjects
{
    QStringList instances; // instance names
    QStringList nodes; // node names
    QList<Route> routes; // routes on the router
    QStringList securityGroups;
    QStringList volumes; // Cinder volume ids
    QStringList loadBalancers; // Octavia load balancer ids
};

// Which objects of the diagnosed state a finding rests on (indices into the
// state's lists and into the route audit), and what its rule decided. Cheap to
// make, so that diagnosing thousands of nodes stays fast; the words and JSON
// are made when asked for, from these facts.
struct FindingFacts
{
    int instance = -1; // index into state.instances
    int node = -1; // index into state.nodes
    int routeEntry = -1; // index into RouteAudit::entries()
    int destinationGroup = -1; // index into RouteAudit::klusterDestinations()
    int port = -1; // index into state.ports
    QString protocol; // tcp, udp, icmp
    bool tokenExpired = false; // instance-unregistered: its bootstrap token expired, it can never join
    // instance-unregistered: kluster routes lead to it, so it was a node and lost it (no token expiry
    // applies); node-without-instance: the router routes the ghost's pod CIDR to it.
    bool routed = false;
    bool routesOverflow = false; // route-limit: the router is full, or the routes nodes lack would not fit
    // instance-stopped: the nodes could not be read, so whether it was a node is not known (its absence
    // decides nothing: it is judged as the graver case).
    bool nodesUnknown = false;
    // security-group-rule-missing: the rules about the protocol that do not satisfy it, and why.
    QList<RuleVerdict> rulesFallingShort;
    // device-route-*: the device (index into state.routerDevices.devices) and the route (stale: index into
    // that device's routes; missing: into state.router.routes).
    int device = -1;
    int deviceRoute = -1;
    bool competes
        = false; // device-route-stale: its destination is a node's pod network or a route's: it can win
    bool onStandby = false; // device-route-*: the device is the pair's STANDBY
    int earlierRoute = -1; // route-recycled: index into state.routeHistory->gone
    // kluster-terminating: how long it has been Terminating (-1: not known); node-not-ready: how long the
    // node has been serviced (-1: it is not being serviced).
    qint64 forSeconds = -1;
    // volume-*: index into state.volumes; loadbalancer-*: into state.loadBalancers. volume-stuck and
    // loadbalancer-stuck: how long it has been in its status (forSeconds, from its updated_at).
    int volume = -1;
    int loadBalancer = -1;
    bool holdsTerminating = false; // volume-stuck: its kluster is Terminating, waiting for it
};

class DiagnosisContext;

// One diagnosed failure: a stable kind and subject, a severity, a message a
// person understands at 3 am, the evidence that proves it, and its repair.
// The message, evidence, repair and affected objects are derived from the
// diagnosed state on demand (the finding keeps that state alive).
struct Finding
{
    FindingKind kind = FindingKind::InstanceUnregistered;
    QString subject;
    Severity severity = Severity::Info;
    FindingFacts facts;
    std::shared_ptr<const DiagnosisContext> context;

    // "<kind>:<subject>", stable across refreshes.
    QString id() const { return idOf(kind, subject); }
    static QString idOf(FindingKind kind, const QString &subject);

    QString message() const;
    QJsonObject evidence() const;
    // Its repair as it would be sent alone; or (Delta) only what a route repair changes, for combining.
    std::optional<RepairPlan> repair(PlanForm form = PlanForm::Exact) const;
    AffectedObjects affected() const;
    // What Kubernikus' own automation will do about it, and when (diagnosis.md §7); none where no actor
    // repairs it.
    std::optional<Automation> automation() const;
};

// Severity, then kind (by name), then subject: the order of every report.
bool findingLessThan(const Finding &a, const Finding &b);

// How much of the kluster a finding takes down: all of it (a pod-network rule, the group, a full router), one
// node or instance, or a router slot. The console orders by it within a severity ("worst first"); reports
// keep findingLessThan's order.
enum class Impact
{
    Kluster = 0,
    Node = 1,
    Slot = 2,
};
QString impactName(Impact impact); // "kluster", "node", "slot"
Impact findingImpact(const Finding &finding);
// Lower is worse: severity first, then impact. One number for sorting a finding, or a kluster by its worst.
int findingRank(const Finding &finding);
// The console's order of one kluster's findings: severity, then whether someone is handling it (an
// acknowledged finding sinks below the unacknowledged of its severity, never below a lesser severity), then
// impact.
int findingRank(const Finding &finding, bool acknowledged);
// Severity, impact, then kind and subject: the console's order.
bool worstFirst(const Finding &a, const Finding &b);
