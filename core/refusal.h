#pragma once

#include <QString>

// Why a repair must not be sent (diagnosis.md §3). A plan refuses itself with
// NoEvidence (a source its correctness rests on is missing), NoRevision (a
// full-list update nothing guards), RouteLimit (the router is full) or TooLarge
// (withheld from a report); the remediation budget refuses instance deletions
// with NoEvidence or TooManyUnhealthy.
enum class Refusal
{
    None,
    NoEvidence,
    NoRevision,
    RouteLimit,
    TooLarge,
    TooManyUnhealthy,
    ZoneDisruption, // an instance deletion in a zone a zone-outage incident holds (diagnosis.md §5)
    ProtectedRouter, // a teardown of the devices of a router a protected kluster is on (diagnosis.md §6)
    AutomationPending, // Kubernikus' automation is due to repair it, and not overdue (diagnosis.md §7)
    // These credentials may not send one of its requests (diagnosis.md §8): it becomes a guided manual
    // repair for someone who may.
    NotPermitted,
    // More deletions of what a terminated kluster left behind than one confirmation may send (diagnosis.md
    // §9: at most 10).
    TooManyDeletions,
    // What a kluster that exists and is not Terminating holds: never deleted as debris (diagnosis.md §9).
    KlusterLive,
    Attached, // a volume attached to a server: never deleted as debris
};

// The reason as the reports, the console and the command line name it ("NoEvidence", …); empty for None.
QString refusalName(Refusal refusal);
