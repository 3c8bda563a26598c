#pragma once

#include "core/diagnosis.h"
#include "core/finding.h"
#include "core/klusterstate.h"
#include "core/source.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <optional>

// One of the kluster's instances, as an engineer compares it between two moments.
struct InstanceDigest
{
    QString name;
    QString status; // Nova's status: ACTIVE, ERROR, BUILD, ...
    QString addresses; // every address, fixed and floating, sorted, joined by ", "
    QStringList securityGroups; // names, sorted

    friend bool operator==(const InstanceDigest &a, const InstanceDigest &b)
    {
        return a.name == b.name && a.status == b.status && a.addresses == b.addresses
            && a.securityGroups == b.securityGroups;
    }
    friend bool operator!=(const InstanceDigest &a, const InstanceDigest &b) { return !(a == b); }
};

// One of the kluster's nodes, as an engineer compares it between two moments.
struct NodeDigest
{
    QString ready; // the Ready condition's status: "True", "False" or "Unknown" (also when it is absent)
    // The other conditions whose status is not the healthy "False", as "Type=Status", sorted.
    QStringList conditions;
    QString internalIp;
    QString podCidr; // spec.podCIDRs[0], else spec.podCIDR; empty when unassigned
    bool unschedulable = false; // cordoned

    friend bool operator==(const NodeDigest &a, const NodeDigest &b)
    {
        return a.ready == b.ready && a.conditions == b.conditions && a.internalIp == b.internalIp
            && a.podCidr == b.podCidr && a.unschedulable == b.unschedulable;
    }
    friend bool operator!=(const NodeDigest &a, const NodeDigest &b) { return !(a == b); }
};

// A kluster's state reduced to what an engineer compares between two moments: small enough to keep the
// last few of each kluster, and diffed without the states they were made of. Qt Core only, no I/O.
struct StateDigest
{
    QDateTime capturedAt;
    QString kluster;
    // The kluster's instances (by Kubernikus' naming, as the diagnosis joins them), by Nova id.
    QMap<QString, InstanceDigest> instances;
    // The kluster's nodes, by name.
    QMap<QString, NodeDigest> nodes;
    // Every route of the kluster's router (foreign ones included: they share its limit) as
    // "<destination> via <nexthop>", in router order, duplicates kept (the first of a destination wins).
    QStringList routes;
    // The rules of the kluster's security group(s), one canonical line each
    // ("ingress IPv4 tcp port 10250 from 100.100.0.0/16"), sorted, duplicates kept.
    QStringList rules;
    // The diagnosis' findings: id (<kind>:<subject>) -> severity.
    QMap<QString, Severity> findings;
    // The sources that were not known, or not complete, when the state was captured (in JSON by their
    // keys: "kluster", "servers", "router", "securityGroups", "nodes"): what rests on them is not compared
    // (uncomparedCategories).
    QList<Source> unknownSources;
    // The kluster's lifecycle phase as Kubernikus said it (empty: none; in JSON only when said).
    QString phase;

    static StateDigest of(const KlusterState &state, const Diagnosis &diagnosis);
    // Compact JSON with sorted keys: the same digest always gives the same bytes.
    QByteArray toJson() const;
    // nullopt, with `error` naming the JSON path at fault, for anything toJson() would not have written.
    static std::optional<StateDigest> fromJson(const QByteArray &json, QString *error);
    // An instant as a digest and its reports write it: RFC 3339 UTC, with milliseconds only when it has
    // them (a live fetch), so that a digest read back is the digest written.
    static QString timestamp(const QDateTime &instant);

    friend bool operator==(const StateDigest &a, const StateDigest &b)
    {
        return a.capturedAt == b.capturedAt && a.kluster == b.kluster && a.instances == b.instances
            && a.nodes == b.nodes && a.routes == b.routes && a.rules == b.rules && a.findings == b.findings
            && a.unknownSources == b.unknownSources && a.phase == b.phase;
    }
    friend bool operator!=(const StateDigest &a, const StateDigest &b) { return !(a == b); }
};
