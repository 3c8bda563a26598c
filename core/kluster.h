#pragma once

#include "core/cidr.h"

#include <QDateTime>
#include <QList>
#include <QString>

struct NodePool
{
    QString name;
    int size = 0;
};

// A Kubernikus kluster as `GET /api/v1/clusters/{name}` describes it.
struct Kluster
{
    QString name;
    QString clusterCidrText; // spec.clusterCIDR as given
    Cidr clusterCidr; // the pod network
    QString routerId; // spec.openstack.routerID
    QString projectId; // spec.openstack.projectID
    QString securityGroupName = QStringLiteral("default");
    QList<NodePool> nodePools;
    QString phase; // status.phase
    // Kubernikus no longer has it (404): what is known of it is what it left behind (diagnosis.md §9), and
    // when the local history last saw it (invalid: not known).
    bool gone = false;
    QDateTime lastSeen;

    // 64 bits: many pools of the largest size never wrap into a small (or negative) count.
    qint64 expectedNodes() const
    {
        qint64 sum = 0;
        for (const NodePool &pool : nodePools)
            sum += pool.size;
        return sum;
    }
};
