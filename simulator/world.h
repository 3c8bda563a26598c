#pragma once

#include "simulator/controllers.h"
#include "simulator/worldindex.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <optional>

// The simulated cloud's state: one Keystone domain with projects, users and
// application credentials; Nova servers; Neutron networks, subnets, ports,
// routers and security groups; Kubernikus klusters with their Kubernetes
// nodes. Plain data with the operations the APIs perform on it; the HTTP
// layers translate requests and errors.

struct SimRoute
{
    QString destination;
    QString nexthop;
    friend bool operator==(const SimRoute &a, const SimRoute &b)
    {
        return a.destination == b.destination && a.nexthop == b.nexthop;
    }
};

struct SimProject
{
    QString id;
    QString name;
};

struct SimUser
{
    QString id;
    QString name;
    QString password;
    QString projectId; // the project the user has the member role on
    QStringList roles;
};

// An application credential's access rule (Keystone `access_rules`), as keystonemiddleware enforces it.
struct SimAccessRule
{
    QString service; // catalog type
    QString method;
    QString path; // `*` and `{name}` one segment, `**` any number
};

struct SimApplicationCredential
{
    QString id;
    QString name;
    QString secret;
    QString userId;
    QString projectId;
    QList<SimAccessRule> accessRules; // empty: unrestricted by them
};

struct SimToken
{
    QString id;
    QString userId;
    QString projectId;
    QString applicationCredentialId;
    QDateTime issuedAt;
    QDateTime expiresAt;
};

struct SimNetwork
{
    QString id;
    QString name;
    QString projectId;
    QString subnetId;
    QString cidr;
    QString gateway;
};

struct SimPort
{
    QString id;
    QString networkId;
    QString subnetId;
    QString deviceId;
    QString deviceOwner;
    QString macAddress;
    QString ipAddress;
    QStringList securityGroupIds;
    QStringList allowedAddressPairs; // CIDRs
    qint64 revision = 1;
    QDateTime created;
    QDateTime updated; // Neutron's updated_at: what `changed_since` compares
};

// An action Nova recorded on a server (GET /servers/{id}/os-instance-actions).
struct SimAction
{
    QString action; // create, stop, start, reboot, …
    QDateTime start;
    QString requestId;
    QString userId;
    QString message; // "Error" when it failed
};

struct SimServer
{
    QString id;
    QString name;
    QString projectId;
    QString status = QStringLiteral("ACTIVE");
    QString vmState = QStringLiteral("active");
    QString taskState;
    QDateTime created;
    QDateTime updated;
    QString networkName;
    QString portId;
    QString faultMessage;
    QString flavorId = QStringLiteral("m1.small");
    QString kluster; // set for a kluster's instance
    QString pool;
    QString zone = QStringLiteral("nova"); // OS-EXT-AZ:availability_zone
    QString floatingIp;
    QStringList metadataKeys;
    QList<SimAction> actions; // oldest first
    QString consoleLog; // what its console shows (a scenario's; empty: made from its state)

    void recordAction(const QString &action, const QDateTime &at, const QString &userId = QString())
    {
        actions.append(SimAction { action, at,
            QStringLiteral("req-%1-%2").arg(id.left(8)).arg(actions.size(), 4, 10, QLatin1Char('0')), userId,
            QString() });
    }
};

struct SimRule
{
    QString id;
    QString groupId;
    QString direction = QStringLiteral("ingress");
    QString ethertype = QStringLiteral("IPv4");
    std::optional<QString> protocol;
    std::optional<int> portRangeMin;
    std::optional<int> portRangeMax;
    std::optional<QString> remoteIpPrefix;
    std::optional<QString> remoteGroupId;
    QString description;
    QDateTime created;
};

struct SimSecurityGroup
{
    QString id;
    QString name;
    QString projectId;
    QString description;
    QList<SimRule> rules;
    qint64 revision = 1;
};

// One device of a router's ASR1k pair (the driver's asr1k_operations): it follows Neutron's routes through
// the L3 agent's events, which can be lost. It holds Neutron's routes less those whose addition it missed
// (`lacking`), plus those whose deletion it missed (`kept`, each held before Neutron's route to the same
// destination: listed first, it wins); after a teardown, nothing until a sync.
struct SimDevice
{
    QString host;
    bool active = false; // the pair's ACTIVE (the driver's answer does not say which)
    QList<SimRoute> lacking;
    QList<SimRoute> kept;
    bool tornDown = false;
};

// Neutron's order of a router's routes: its routes table's key, by destination, then nexthop, as text (what
// the API answers, and what the L3 agent programs the devices from).
QList<SimRoute> inNeutronOrder(QList<SimRoute> routes);

struct SimRouter
{
    QString id;
    QString name;
    QString projectId;
    QList<SimRoute> routes;
    qint64 revision = 1;
    QStringList interfaceSubnetIds;
    QDateTime created;
    QDateTime updated;
    QList<SimDevice> devices; // the ASR pair, where the cloud has the driver (World::asr1k)
};

struct SimNode
{
    QString name;
    QString uid;
    QDateTime created;
    QString podCidr;
    bool podCidrs = true; // also write spec.podCIDRs
    QString providerId;
    QString internalIp;
    QString zone = QStringLiteral("nova"); // topology.kubernetes.io/zone
    bool unschedulable = false;
    QString ready = QStringLiteral("True"); // "True", "False", "Unknown" or empty for none
    QString readyReason = QStringLiteral("KubeletReady");
    QString readyMessage = QStringLiteral("kubelet is posting ready status");
    QString networkUnavailable = QStringLiteral("False");
    QString networkReason = QStringLiteral("RouteCreated");
    QString networkMessage = QStringLiteral("RouteController created a route");
    QString pool;
    qint64 resourceVersion = 1;
    QDateTime transition; // when Ready and NetworkUnavailable last changed (invalid: when it was created)
    // Kubernikus' servicing: annotation kubernikus.cloud.sap/updateTimestamp (invalid: none); a stuck node's
    // reboot never comes back.
    QDateTime servicingSince;
    bool servicingStuck = false;
};

struct SimNodePool
{
    QString name;
    int size = 0;
};

// An Event Kubernikus recorded on the kluster (GET /api/v1/clusters/{name}/events): one per reason and
// message, counted as Kubernetes' event correlator counts repeats.
struct SimKubernikusEvent
{
    QString type; // Normal, Warning
    QString reason;
    QString message;
    int count = 1;
    QDateTime first;
    QDateTime last;
};

struct SimKluster
{
    QString name;
    QString projectId;
    QString clusterCidr;
    QString serviceCidr = QStringLiteral("198.18.128.0/17");
    QString routerId;
    QString networkId;
    QString securityGroupName;
    QString phase = QStringLiteral("Running");
    QList<SimNodePool> pools;
    QList<SimNode> nodes;
    qint64 resourceVersion = 1000;
    QString bearerToken; // accepted by its API server, handed out in kubeconfigs
    // What the kluster's user may not do by its RBAC ("delete nodes", "create events"): its API server
    // answers 403 and a SelfSubjectAccessReview says so (the admin API's /klusters/{name}/rbac sets it).
    QStringList rbacDenied;
    QList<SimKubernikusEvent> events; // what Kubernikus recorded on it, oldest first

    // Records an Event at `at` (a repeat of one already recorded is counted on it).
    void record(const QString &type, const QString &reason, const QString &message, const QDateTime &at)
    {
        for (SimKubernikusEvent &e : events) {
            if (e.type == type && e.reason == reason && e.message == message) {
                ++e.count;
                e.last = at;
                return;
            }
        }
        events.append(SimKubernikusEvent { type, reason, message, 1, at, at });
    }
};

// A Cinder volume (GET /v3/{project_id}/volumes/detail). The CSI driver's volumes carry the kluster in their
// metadata (`cinder.csi.openstack.org/cluster`: World::volumeClusterOf) and are named after their
// PersistentVolume. A volume has no backend host here: a deletion Cinder accepts takes it away at once.
struct SimVolume
{
    QString id;
    QString name;
    QString projectId;
    QString userId;
    QString description;
    QString status = QStringLiteral("available"); // available, in-use, deleting, error_deleting, …
    int size = 1; // GB
    QString volumeType = QStringLiteral("__DEFAULT__");
    QString zone = QStringLiteral("nova");
    QList<QPair<QString, QString>> metadata; // in the order given
    QStringList attachedTo; // the servers it is attached to (none: detached)
    QString device = QStringLiteral("/dev/vdb");
    QDateTime attachedAt;
    QDateTime created;
    QDateTime updated; // invalid: never updated (null)

    QString metadataValue(const QString &key) const
    {
        for (const auto &m : metadata) {
            if (m.first == key)
                return m.second;
        }
        return QString();
    }
};

// An Octavia load balancer (GET /v2/lbaas/loadbalancers), without listeners or pools of its own here. The
// cloud provider names the ones it makes `kube_service_<kluster>_<namespace>_<service>` and tags them so.
struct SimLoadBalancer
{
    QString id;
    QString name;
    QString description;
    QString projectId;
    QString provisioningStatus = QStringLiteral("ACTIVE"); // ACTIVE, PENDING_*, ERROR
    QString operatingStatus = QStringLiteral("ONLINE");
    QString vipAddress;
    QString vipPortId;
    QString vipSubnetId;
    QString vipNetworkId;
    QStringList tags;
    QString provider = QStringLiteral("amphora");
    QDateTime created;
    QDateTime updated; // invalid: never updated (null)
    QDateTime goneAt; // a deletion accepted: the amphorae are gone at this time (invalid: not deleted)
};

// An API error, as the HTTP layers render it in each service's own shape.
struct SimError
{
    int status = 400;
    QString type; // NeutronError type, Nova fault name, Status reason
    QString message;
};

class World
{
public:
    World();

    QDateTime now() const;
    // Moves the world's clock forward (tests, and ages in scenarios).
    void advance(qint64 seconds) { m_offsetSeconds += seconds; }
    qint64 clockOffset() const { return m_offsetSeconds; }
    // This world replaces `old` (an admin reset): what a client that remembers the old one must be told.
    // Every server and port of this world changed now; a server of the old one that is not in this one was
    // deleted now; the deleted servers Nova still keeps, it keeps.
    void succeed(const World &old);

    // Settings of the cloud.
    // Keystone is another cloud's: the Kubernikus API cannot check tokens and
    // accepts any (its klusters are then listed whatever the project).
    bool externalIdentity = false;
    QString region = QStringLiteral("RegionOne");
    int tokenLifetimeSeconds = 3600;
    int maxRoutes = 30;
    bool routeLimitAsQuota = false; // 409 OverQuota (newest Neutron) instead of 400 RoutesExhausted
    bool extraRouteAtomic = true;
    bool replaceDeletedInstances = true; // Kubernikus' launch control
    // Kubernikus' own controllers (simulator/controllers.h): off unless a scenario or the settings switch
    // them on.
    SimController flight;
    SimController routeGc;
    SimController servicing;
    int replacementBootSeconds = 2;
    int registrationDelaySeconds = 10;
    // A stopped instance's node: the node lifecycle controller marks it Unknown once the kubelet has not
    // posted its status for the grace period (kube-controller-manager's --node-monitor-grace-period, 40 s);
    // started again, its kubelet posts Ready after it has booted.
    int nodeMonitorGraceSeconds = 40;
    int kubeletStartSeconds = 20;
    bool routeController = true; // routes for newly registered nodes
    // sapcc's ASR1k driver: the asr1k_operations extension, its device API (for an admin) and a device pair
    // per router. Its sync adds what a device lacks and, as the seeds describe, never removes what a device
    // kept (`deviceSyncAddsOnly`, on by default).
    bool asr1k = false;
    bool deviceSyncAddsOnly = true;

    QList<SimProject> projects;
    QList<SimUser> users;
    QList<SimApplicationCredential> applicationCredentials;
    QHash<QString, SimToken> tokens;
    QList<SimNetwork> networks;
    QList<SimPort> ports;
    QList<SimServer> servers;
    // Deleted servers as Nova keeps them (soft-deleted rows, status DELETED) until they are archived:
    // `changes-since` lists them. Archived after `deletedServerRetentionSeconds`.
    QList<SimServer> deletedServers;
    int deletedServerRetentionSeconds = 86400;
    QList<SimRouter> routers;
    QList<SimSecurityGroup> securityGroups;
    QList<SimKluster> klusters;
    QList<SimVolume> volumes;
    QList<SimLoadBalancer> loadBalancers;
    // How long Octavia takes to delete a load balancer it accepted for deletion (PENDING_DELETE meanwhile);
    // 0: gone at once.
    int loadBalancerDeleteSeconds = 10;

    // Lookups; -1 when absent.
    int projectIndex(const QString &idOrName) const;
    int userIndex(const QString &idOrName) const;
    const SimApplicationCredential *applicationCredential(
        const QString &id) const; // null: none (or empty id)
    // An access rule's id, the same each time the credential is read.
    static QString stableRuleId(const QString &credentialId, const SimAccessRule &rule);
    int serverIndex(const QString &id) const;
    int serverIndexByName(const QString &name) const; // the newest server of the name; -1 when none
    int routerIndex(const QString &id) const;
    int networkIndex(const QString &idOrName) const;
    int portIndex(const QString &id) const;
    int groupIndex(const QString &id) const;
    int klusterIndex(const QString &name) const;
    int nodeIndex(const SimKluster &kluster, const QString &name) const;
    int volumeIndex(const QString &id) const;
    int loadBalancerIndex(const QString &id) const;
    // What lookups know an element by: its id, its name, a port its address; an object of a project by name,
    // its project's and its name together.
    template<typename T> static QString idOf(const T &x) { return x.id; }
    template<typename T> static QString nameOf(const T &x) { return x.name; }
    static QString addressOf(const SimPort &p) { return p.ipAddress; }
    static QString projectKey(const QString &projectId, const QString &name)
    {
        return projectId + QLatin1Char('\n') + name;
    }
    template<typename T> static QString projectNameOf(const T &x) { return projectKey(x.projectId, x.name); }

    // Ids in the formats the services use.
    QString newUuid();
    QString newHexId();
    QString newMac();

    // Keystone.
    std::optional<SimError> issueToken(
        const QString &userId, const QString &projectId, const QString &appCredId, SimToken *token);
    const SimToken *validToken(const QString &id) const;
    void expireAllTokens();

    // Nova and Neutron.
    SimServer &addServer(const QString &projectId, const QString &name, const QString &networkIdOrName,
        const QString &ip, const QStringList &groupNames, const QDateTime &created);
    QStringList serverGroupNames(const SimServer &server) const;
    QStringList serverAddresses(const SimServer &server) const;
    std::optional<SimError> addSecurityGroup(int server, const QString &nameOrId);
    // Nova's power actions (os-stop, os-start, suspend, resume, pause, unpause): 409 when the server is not
    // in the state the action starts from, as Nova answers.
    std::optional<SimError> powerAction(int server, const QString &action);
    std::optional<SimError> removeSecurityGroup(int server, const QString &nameOrId);
    std::optional<SimError> deleteServer(int server);
    // A server gone at `at`, as Nova keeps it (status DELETED) for `changes-since`.
    void keepDeleted(const SimServer &server, const QDateTime &at);
    QString freeAddress(const SimNetwork &network) const;

    // Routes: the whole new list, validated as Neutron validates it. The router's devices get the agent's
    // events: a route added is programmed on each (what a device lacked of it, it holds now).
    std::optional<SimError> setRoutes(int router, const QList<SimRoute> &routes);
    // The ASR pair of every router (hosts 10.44.<n>.35, ACTIVE, and .36, STANDBY), where the cloud has the
    // driver; and what a device holds now, in its order.
    void addDevicePairs();
    QList<SimRoute> deviceRoutes(const SimRouter &router, const SimDevice &device) const;
    std::optional<SimError> createRule(const SimRule &rule, SimRule *created);

    // Everyday change in kluster `name`: the next `servers` of its instances stop (or start again), the next
    // `nodes` of its nodes turn NotReady (or Ready again), each stamped now. Returns how many things changed.
    int churn(const QString &name, int servers, int nodes);
    // A rolling replacement done: `count` of the kluster's members (spread over its node list) are deleted
    // (server, port, node and route), and as many new ones have booted, registered and been routed (the
    // old ones' pod CIDRs, new names and addresses), each stamped now. Returns how many were replaced.
    int replaceMembers(const QString &name, int count);

    // Cinder and Octavia (simulator/worlddebris.cpp).
    // What the CSI driver writes as `cinder.csi.openstack.org/cluster` for a kluster: its object's name,
    // "<name>-<project id>", cut to 63 characters.
    static QString volumeClusterOf(const QString &kluster, const QString &projectId);
    // Cinder's DELETE: 400 for an attached volume or one in a status it may not delete from, else gone.
    std::optional<SimError> deleteVolume(int volume);
    // Octavia's DELETE (cascade): 409 unless ACTIVE or ERROR, else PENDING_DELETE until it is gone after
    // `loadBalancerDeleteSeconds`.
    std::optional<SimError> deleteLoadBalancer(int loadBalancer);
    // Nova detaches a deleted server's volumes: each is `available` again, stamped now.
    void detachVolumes(const QString &serverId);
    // A kluster gone as a self-destructed deorbiter leaves it: out of Kubernikus' list, its servers (kept as
    // deleted), ports and nodes gone, its volumes detached; its load balancers and routes stay. False when
    // there is no such kluster.
    bool removeKluster(const QString &name);
    // Deletions due by `t` carried out; true when something went.
    bool removeDeletedLoadBalancers(const QDateTime &t);

    // Kubernetes.
    QString freePodCidr(const SimKluster &kluster) const;
    // The route controller: adds {podCIDR -> InternalIP} for a node, or marks it NetworkUnavailable; and the
    // cloud provider's part of it: the pod CIDR added to the node's port as an allowed address pair.
    std::optional<SimError> routeNode(SimKluster &kluster, SimNode &node);
    // The node's pod CIDR allowed on its instance's port (`present`), or the pair dropped (the lost update of
    // the seeds' "security group update event missed"). False when the node has no port or no pod CIDR.
    bool setNodePair(const SimNode &node, bool present);
    bool setPortPair(const QString &portId, const QString &cidr, bool present);

    // Launch control: the replacement of a deleted instance, and its registration.
    struct Pending
    {
        QDateTime due;
        enum class Kind
        {
            BootReplacement,
            Register,
            RemoveNode,
            NodeLost, // its instance stopped: the kubelet no longer posts status
            NodeBack // its instance started: the kubelet posts Ready again
        } kind;
        QString kluster;
        QString pool;
        QString name;
    };
    QList<Pending> pending;
    // Carries out whatever is due; returns true when the world changed.
    bool tick();

    int resourceVersionCounter = 1000;

private:
    // The server's power state changed: its node follows after the node monitor's grace or the kubelet's
    // start.
    void setPower(SimServer &s, bool running, const QString &status, const QString &vmState);
    // The first security group of the project of that name; -1 when none.
    int groupIndexByName(const QString &projectId, const QString &name) const;
    int m_churnServer = 0; // where the next churn begins
    int m_churnNode = 0;
    // Lookups at scale (simulator/worldindex.h): each keeps up with what is appended to its list and checks
    // every hit; the lists stay the plain public lists they are.
    mutable ListIndex<SimServer> m_serverIndex { &idOf<SimServer>, &idOf<SimServer> };
    mutable ListIndex<SimPort> m_portIndex { &idOf<SimPort>, &idOf<SimPort> };
    mutable ListIndex<SimPort> m_addressIndex { &addressOf, &idOf<SimPort> };
    mutable ListIndex<SimSecurityGroup> m_groupIndex { &idOf<SimSecurityGroup>, &idOf<SimSecurityGroup> };
    mutable ListIndex<SimSecurityGroup> m_groupNameIndex { &projectNameOf<SimSecurityGroup>,
        &idOf<SimSecurityGroup> };
    mutable ListIndex<SimNetwork> m_networkIndex { &idOf<SimNetwork>, &idOf<SimNetwork> };
    mutable ListIndex<SimNetwork> m_networkNameIndex { &nameOf<SimNetwork>, &idOf<SimNetwork> };
    mutable ListIndex<SimRouter> m_routerIndex { &idOf<SimRouter>, &idOf<SimRouter> };
    mutable ListIndex<SimKluster> m_klusterIndex { &nameOf<SimKluster>, &nameOf<SimKluster> };
    qint64 m_offsetSeconds = 0;
    quint64 m_counter = 0;
};

bool cidrContainsAddress(const QString &cidr, const QString &address);
