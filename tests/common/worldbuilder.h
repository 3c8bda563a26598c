#pragma once

#include "core/klusterstate.h"

#include <QDateTime>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

// Builds a kluster's state as the real APIs would return it: Kubernikus,
// Nova, Neutron and Kubernetes response bodies, then parses them with the
// production parser. Tests and benchmarks describe worlds with it; it can also
// write them out as a snapshot folder.
class WorldBuilder
{
public:
    explicit WorldBuilder(const QString &kluster = QStringLiteral("demo"),
        const QString &clusterCidr = QStringLiteral("100.100.0.0/16"));

    static QDateTime defaultCapturedAt();

    WorldBuilder &capturedAt(const QDateTime &instant);
    WorldBuilder &maxRoutes(int limit);
    WorldBuilder &pool(const QString &name, int size);
    WorldBuilder &securityGroupName(const QString &name);
    WorldBuilder &atomicRoutes(bool atomic);
    WorldBuilder &routerRevision(qint64 revision);
    // Adds the bulk real servers and nodes carry (labels, annotations,
    // capacity, images, flavor, links), so that parsing is measured on
    // realistically sized bodies.
    WorldBuilder &realisticBulk(bool on);

    // A Nova server created `ageMinutes` before the capture; returns its index.
    int server(const QString &name, const QString &ip, double ageMinutes,
        const QString &status = QStringLiteral("ACTIVE"),
        const QStringList &groups = { QStringLiteral("kks-sg") });
    QJsonObject &serverAt(int index) { return m_servers[index]; }
    QString serverId(const QString &name) const;

    // A Kubernetes node; pod CIDR and IP may be empty. Returns its index.
    int node(const QString &name, const QString &ip, const QString &podCidr,
        const QString &ready = QStringLiteral("True"));
    QJsonObject &nodeAt(int index) { return m_nodes[index]; }
    // `sinceMinutes` >= 0: its lastTransitionTime, that many minutes before the capture.
    // A server in Nova's availability zone `zone`, and its node (when `nodeIndex` >= 0) labelled with it.
    void inZone(int serverIndex, int nodeIndex, const QString &zone);
    void setCondition(int nodeIndex, const QString &type, const QString &status,
        const QString &reason = QString(), double sinceMinutes = -1);
    // A node with no instance (a ghost), with its providerID naming none either.
    int ghostNode(const QString &name, const QString &ip, const QString &podCidr);

    // A kluster instance plus its Ready node and its correct route, in one call.
    void healthyMember(
        const QString &name, const QString &ip, const QString &podCidr, double ageMinutes = 60 * 24);

    void route(const QString &destination, const QString &nexthop);

    // The project's ports (ports.json, and the allowed-address-pairs extension): once called, every server
    // has a port on its address with port security on, allowing the pod CIDR of the node of its name (the
    // cloud provider's update made). `port` changes one server's port: its pairs and port security (null:
    // the field absent).
    WorldBuilder &withPorts(bool on = true);
    void port(const QString &serverName, const QJsonArray &pairs, const QJsonValue &portSecurity = true);
    QString portId(const QString &serverName) const;

    // A security group; returns its index. `kks-sg` with the three good rules is added by default.
    int group(const QString &name, bool withGoodRules = false);
    QJsonObject &groupAt(int index) { return m_groups[index]; }
    void rule(int groupIndex, const QJsonValue &protocol, const QJsonValue &remoteIpPrefix,
        const QJsonValue &portMin = QJsonValue(), const QJsonValue &portMax = QJsonValue(),
        const QString &direction = QStringLiteral("ingress"),
        const QString &ethertype = QStringLiteral("IPv4"));
    void clearGroups() { m_groups = QList<QJsonObject>(); }

    // The response bodies.
    QJsonObject captureJson() const;
    QJsonObject klusterJson() const;
    QJsonObject serversJson() const;
    QJsonObject routerJson() const;
    QJsonObject securityGroupsJson() const;
    QJsonObject nodesJson() const;
    QJsonObject extensionsJson() const;
    QJsonObject portsJson() const;

    // Parsed as a snapshot would be.
    KlusterState state() const;
    // The same, judged as the local history would have it after watching the kluster for `minutes`: each of
    // its findings open that long (Kubernikus' automation is then overdue on those it repairs).
    KlusterState stateOpenFor(int minutes) const;
    // Writes the snapshot folder; returns false on an I/O error.
    bool writeSnapshot(const QString &directory) const;

    QString routerId() const { return m_routerId; }

private:
    QString m_kluster;
    QString m_clusterCidr;
    QString m_groupName = QStringLiteral("kks-sg");
    QString m_routerId;
    QDateTime m_capturedAt;
    int m_maxRoutes = -1;
    bool m_atomic = true;
    qint64 m_revision = 7;
    bool m_bulk = false;
    QList<QPair<QString, int>> m_pools;
    QList<QJsonObject> m_servers;
    QList<QJsonObject> m_nodes;
    QList<QJsonObject> m_groups;
    QJsonArray m_routes;
    int m_ruleCounter = 0;
    bool m_ports = false;
    QHash<QString, QJsonObject> m_portChanges; // by server name: the fields that differ
};
