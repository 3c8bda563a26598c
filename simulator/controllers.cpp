// Kubernikus' flight, routegc and servicing controllers in the simulated cloud.

#include "simulator/controllers.h"

#include "simulator/world.h"

#include <QHostAddress>
#include <QSet>

namespace Controllers {

namespace {

bool running(const SimKluster &k)
{
    return k.phase == QLatin1String("Running");
}

// A destination inside the pod network: its whole subnet within the cluster CIDR.
bool inside(const QString &destination, const QString &clusterCidr)
{
    const QPair<QHostAddress, int> d = QHostAddress::parseSubnet(destination);
    const QPair<QHostAddress, int> c = QHostAddress::parseSubnet(clusterCidr);
    return d.second >= 0 && c.second >= 0 && d.second >= c.second && d.first.isInSubnet(c.first, c.second);
}

// Kubernikus' own rule: ingress IPv4 of the protocol (or any) from the pod network, every port.
bool allows(const SimRule &r, const QString &protocol, const QString &clusterCidr)
{
    return r.direction == QLatin1String("ingress") && r.ethertype == QLatin1String("IPv4")
        && (!r.protocol || *r.protocol == protocol) && !r.portRangeMin && !r.portRangeMax && r.remoteIpPrefix
        && (*r.remoteIpPrefix == clusterCidr || *r.remoteIpPrefix == QLatin1String("0.0.0.0/0"));
}

} // namespace

bool flight(World &w, SimKluster &k)
{
    if (!running(k))
        return false;
    bool changed = false;
    const QDateTime now = w.now();
    for (int i = int(w.servers.size()) - 1; i >= 0; --i) {
        const SimServer &s = w.servers.at(i);
        if (s.kluster != k.name)
            continue;
        const bool error = s.vmState == QLatin1String("error") && s.taskState != QLatin1String("deleting");
        const bool neverJoined = w.nodeIndex(k, s.name) < 0 && s.created.isValid()
            && s.created.secsTo(now) >= FlightDeleteSeconds;
        if (error || neverJoined) {
            w.deleteServer(i);
            changed = true;
        }
    }
    for (int i = 0; i < w.servers.size(); ++i) {
        const SimServer &s = w.servers.at(i);
        if (s.kluster == k.name && s.status == QLatin1String("ACTIVE")
            && !w.serverGroupNames(s).contains(k.securityGroupName)) {
            changed = !w.addSecurityGroup(i, k.securityGroupName) || changed;
        }
    }
    int group = -1;
    for (int g = 0; g < w.securityGroups.size(); ++g) {
        if (w.securityGroups.at(g).name == k.securityGroupName
            && w.securityGroups.at(g).projectId == k.projectId)
            group = g;
    }
    if (group < 0)
        return changed;
    for (const char *protocol : { "tcp", "udp", "icmp" }) {
        const QString p = QLatin1String(protocol);
        bool present = false;
        for (const SimRule &r : w.securityGroups.at(group).rules)
            present = present || allows(r, p, k.clusterCidr);
        if (present)
            continue;
        SimRule rule;
        rule.groupId = w.securityGroups.at(group).id;
        rule.protocol = p;
        rule.remoteIpPrefix = k.clusterCidr;
        rule.description = QStringLiteral("kubernikus: pod network");
        SimRule created;
        changed = !w.createRule(rule, &created) || changed;
    }
    return changed;
}

bool routeGc(World &w, SimKluster &k)
{
    if (!running(k))
        return false;
    const int r = w.routerIndex(k.routerId);
    if (r < 0)
        return false;
    QSet<QString> addresses;
    for (const SimServer &s : std::as_const(w.servers)) {
        for (const QString &a : w.serverAddresses(s))
            addresses.insert(a);
    }
    QList<SimRoute> kept = w.routers.at(r).routes;
    const qsizetype before = kept.size();
    kept.removeIf([&](const SimRoute &route) {
        return inside(route.destination, k.clusterCidr) && !addresses.contains(route.nexthop);
    });
    if (kept.size() == before)
        return false;
    return !w.setRoutes(r, kept);
}

bool servicing(World &w, SimKluster &k)
{
    if (!running(k))
        return false;
    bool changed = false;
    const QDateTime now = w.now();
    for (SimNode &node : k.nodes) {
        if (!node.unschedulable || !node.servicingSince.isValid() || node.servicingStuck
            || node.servicingSince.secsTo(now) < ServicingRebootSeconds)
            continue;
        // Drained and rebooted, recorded on the kluster as servicing's lifecycler records them.
        k.record(QStringLiteral("Normal"), QStringLiteral("SuccessfulDrainNode"),
            QStringLiteral("Preparing upgrade for node: %1. Successfully drained node.").arg(node.name),
            node.servicingSince);
        k.record(QStringLiteral("Normal"), QStringLiteral("SuccessfulRebootNode"),
            QStringLiteral("Upgrading OS for node: %1. Reboot successful.").arg(node.name), now);
        node.unschedulable = false;
        node.ready = QStringLiteral("True");
        node.readyReason = QStringLiteral("KubeletReady");
        node.readyMessage = QStringLiteral("kubelet is posting ready status");
        node.transition = now;
        node.resourceVersion = ++w.resourceVersionCounter;
        changed = true;
    }
    return changed;
}

bool configure(World &w, const QJsonObject &settings, QString *error)
{
    const std::pair<const char *, SimController *> controllers[]
        = { { "flight", &w.flight }, { "routegc", &w.routeGc }, { "servicing", &w.servicing } };
    for (const auto &[key, controller] : controllers) {
        const QJsonValue v = settings.value(QLatin1String(key));
        if (v.isUndefined())
            continue;
        if (v.isBool()) {
            controller->on = v.toBool();
        } else if (v.isObject()) {
            const QJsonObject o = v.toObject();
            controller->on = o.value(QStringLiteral("on")).toBool(controller->on);
            controller->periodSeconds
                = qMax(1, o.value(QStringLiteral("periodSeconds")).toInt(controller->periodSeconds));
        } else {
            *error = QStringLiteral("\"%1\" is true, false or {\"on\": …, \"periodSeconds\": …}")
                         .arg(QLatin1String(key));
            return false;
        }
        controller->lastRun = QDateTime(); // switched: it runs at the next tick
    }
    return true;
}

bool run(World &w)
{
    struct Room
    {
        SimController *controller;
        bool (*act)(World &, SimKluster &);
    };
    const Room rooms[] = { { &w.flight, flight }, { &w.routeGc, routeGc }, { &w.servicing, servicing } };
    bool changed = false;
    const QDateTime now = w.now();
    for (const Room &room : rooms) {
        SimController &c = *room.controller;
        if (!c.on || (c.lastRun.isValid() && c.lastRun.secsTo(now) < c.periodSeconds))
            continue;
        c.lastRun = now;
        for (int k = 0; k < w.klusters.size(); ++k)
            changed = room.act(w, w.klusters[k]) || changed;
    }
    return changed;
}

} // namespace Controllers
