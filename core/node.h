#pragma once

#include "core/cidr.h"

#include <QDateTime>
#include <QList>
#include <QString>

struct NodeCondition
{
    QString type;
    QString status; // "True", "False" or "Unknown"
    QString reason;
    QString message;
    QDateTime lastTransition; // lastTransitionTime: since when the status holds (invalid when absent)
};

// A Kubernetes node as `GET /api/v1/nodes` describes it.
struct Node
{
    QString name;
    QDateTime created;
    QString podCidrText; // spec.podCIDRs[0], else spec.podCIDR; empty when unassigned
    Cidr podCidr;
    QString providerId; // spec.providerID
    QString zone; // label topology.kubernetes.io/zone, else failure-domain.beta.kubernetes.io/zone
    QString internalIp; // status.addresses[type=InternalIP]
    bool unschedulable = false;
    // Annotation kubernikus.cloud.sap/updateTimestamp: when Kubernikus' servicing began its last reboot or
    // replacement of the node (invalid: never).
    QDateTime servicingSince;
    // Being serviced: cordoned by servicing (diagnosis.md §7).
    bool inServicing() const { return unschedulable && servicingSince.isValid(); }
    QString kubeletVersion;
    QList<NodeCondition> conditions;

    const NodeCondition *condition(const QString &type) const
    {
        for (const NodeCondition &c : conditions) {
            if (c.type == type)
                return &c;
        }
        return nullptr;
    }
    bool isReady() const
    {
        const NodeCondition *ready = condition(QStringLiteral("Ready"));
        return ready && ready->status == QLatin1String("True");
    }
    // The Nova instance id named by an `openstack://[region]/<id>` provider id, or empty.
    QString providerInstanceId() const;
};
