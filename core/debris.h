#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

struct KlusterState;

// What a terminated kluster leaves behind (diagnosis.md §9): its Cinder volumes and Octavia load balancers,
// as the APIs list them and as the CSI driver and the cloud provider mark them as the kluster's
// (docs/wire-formats.md, "What a terminated kluster leaves behind").

// A Cinder volume (`GET /v3/{project_id}/volumes/detail`).
struct Volume
{
    QString id;
    QString name;
    QString status; // available, in-use, deleting, error_deleting, …
    qint64 sizeGb = 0;
    QStringList attachedTo; // the servers of its attachments
    // The CSI driver's metadata: the cluster it was made for ("<kluster>-<project id>", cut to 63), and the
    // PersistentVolume and claim it backs; empty when absent (a volume the CSI driver did not make).
    QString cluster;
    QString pvName;
    QString pvcNamespace;
    QString pvcName;
    QDateTime createdAt;
    QDateTime updatedAt; // invalid: never updated

    bool attached() const { return !attachedTo.isEmpty(); }
};

// An Octavia load balancer (`GET /v2/lbaas/loadbalancers`).
struct LoadBalancer
{
    QString id;
    QString name;
    QString projectId;
    QString provisioningStatus; // ACTIVE, PENDING_CREATE, PENDING_UPDATE, PENDING_DELETE, ERROR
    QString operatingStatus;
    QString vipAddress;
    QStringList tags;
    QDateTime createdAt;
    QDateTime updatedAt; // invalid: never updated
};

// The Service a load balancer was made for, as the cloud provider names it.
struct ServiceRef
{
    QString kluster; // the kluster's short name
    QString nameSpace;
    QString service; // empty when the name was cut before it
};

namespace Debris {

// `{"volumes": [...]}`, pages merged. Throws ParseError naming `source` and the JSON path.
QList<Volume> parseVolumes(const QString &source, const QJsonObject &body);
// `{"loadbalancers": [...]}`, pages merged. Throws ParseError.
QList<LoadBalancer> parseLoadBalancers(const QString &source, const QJsonObject &body);

// What the CSI driver's `cinder.csi.openstack.org/cluster` holds for a kluster: its object's name,
// "<name>-<project id>", cut to 63 characters (the Helm release's name).
QString volumeClusterOf(const QString &kluster, const QString &projectId);
// The Service `kube_service_<kluster>_<namespace>_<service>` names (its tags carry the same); nullopt for a
// name of another form (a load balancer nobody's cloud provider made, or one of before Kubernetes 1.14).
std::optional<ServiceRef> serviceOf(const LoadBalancer &lb);

// The klusters of project `projectId` that Kubernikus no longer lists (not in `existing`) but that left
// volumes behind: a volume's `cinder.csi.openstack.org/cluster` is "<kluster>-<project id>" (a name cut at 63
// characters is not read back). A load balancer alone names no gone kluster: `kube_service_<name>_…` is any
// Kubernetes cluster's cloud provider's, not only Kubernikus'. Sorted.
QStringList goneKlusters(const QList<Volume> &volumes, const QStringList &existing, const QString &projectId);

// Whether the CSI driver made the volume, or the cloud provider the load balancer, for kluster `kluster` of
// project `projectId` (the rules above): the one attribution every finding and count uses.
bool madeFor(const Volume &volume, const QString &kluster, const QString &projectId);
bool madeFor(const LoadBalancer &loadBalancer, const QString &kluster);

// How many of the state's volumes and load balancers its kluster made (by the rules above).
int leftBehind(const KlusterState &state);

} // namespace Debris
