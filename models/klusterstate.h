#pragma once

#include "instance.h"
#include "kluster.h"
#include "node.h"
#include "router.h"
#include "securitygroup.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

// Where one part of a kluster's state came from, and whether it could be read.
// Diagnosis only uses the parts that are known; a failed source is never
// mistaken for an empty one.
struct SourceStatus
{
    bool known = false;
    QString error;  // why it is not known
};

// Everything a snapshot holds about one kluster: the raw API state, parsed,
// stamped with the instant it was fetched.
struct KlusterState
{
    QDateTime capturedAt;              // the reference instant for every age
    std::optional<int> maxRoutes;      // the router's route limit, if known
    QString cloud;
    QString region;
    QString tool;

    Kluster kluster;
    QList<Instance> instances;         // the whole project's servers
    Router router;
    QList<SecurityGroup> securityGroups;
    QList<Node> nodes;
    QStringList extensions;            // Neutron extension aliases
    bool extensionsKnown = false;

    SourceStatus klusterSource;
    SourceStatus serversSource;
    SourceStatus routerSource;
    SourceStatus securityGroupsSource;
    SourceStatus nodesSource;

    bool hasAtomicExtraRoutes() const
    {
        return extensions.contains(QStringLiteral("extraroute-atomic"));
    }
};
