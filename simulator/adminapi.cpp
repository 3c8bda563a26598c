// The admin API of the simulated cloud (loopback, no authentication): fault
// injection while running, the clock, and the cloud's own controllers.

#include "simulator/apirender.h"
#include "simulator/causes.h"
#include "simulator/simulator.h"

#include <QJsonArray>
#include <QJsonDocument>

HttpResponse Simulator::admin(const HttpRequest &request)
{
    auto json = [](int status, const QJsonObject &o) {
        return HttpResponse::json(status, QJsonDocument(o).toJson(QJsonDocument::Compact));
    };
    auto error = [&json](int status, const QString &message) {
        return json(status, QJsonObject { { QStringLiteral("error"), message } });
    };
    const QString method = QString::fromLatin1(request.method);
    const QStringList parts = request.path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    const QJsonObject body = QJsonDocument::fromJson(request.body).object();

    if (parts.value(0) == QLatin1String("world") && method == QLatin1String("GET")) {
        QJsonArray klusters;
        for (const SimKluster &k : m_world.klusters) {
            const int r = m_world.routerIndex(k.routerId);
            klusters.append(QJsonObject { { QStringLiteral("name"), k.name },
                { QStringLiteral("nodes"), int(k.nodes.size()) },
                { QStringLiteral("kubernetes"), kubernetesUrl(k.name) },
                { QStringLiteral("routes"), r >= 0 ? int(m_world.routers.at(r).routes.size()) : 0 } });
        }
        QJsonObject o = describe();
        o.insert(QStringLiteral("klusters"), klusters);
        o.insert(QStringLiteral("servers"), int(m_world.servers.size()));
        o.insert(QStringLiteral("now"), ApiRender::timestamp(m_world.now()));
        // Every request each service was sent since the simulator started (what a client's politeness is
        // measured by).
        QJsonObject requests;
        QJsonObject bytes;
        for (const char *service : { "keystone", "compute", "network", "kubernikus", "kubernetes", "image",
                 "volumev3", "load-balancer" }) {
            requests.insert(QLatin1String(service), requestCount(QLatin1String(service)));
            bytes.insert(QLatin1String(service), bytesSent(QLatin1String(service)));
        }
        o.insert(QStringLiteral("requests"), requests);
        o.insert(QStringLiteral("bytesSent"), bytes);
        return json(200, o);
    }
    if (parts.value(0) == QLatin1String("faults")) {
        if (method == QLatin1String("GET")) {
            QJsonArray list;
            for (const FaultRule &f : m_faults.rules())
                list.append(f.toJson());
            return json(200, QJsonObject { { QStringLiteral("faults"), list } });
        }
        if (method == QLatin1String("POST")) {
            QString problem;
            const std::optional<FaultRule> rule = FaultRule::fromJson(body, &problem);
            if (!rule)
                return error(400, problem);
            m_faults.add(*rule);
            return json(201, m_faults.rules().last().toJson());
        }
        if (method == QLatin1String("DELETE")) {
            if (parts.size() == 1) {
                m_faults.clear();
                return HttpResponse::empty(204);
            }
            return m_faults.remove(parts.at(1)) ? HttpResponse::empty(204)
                                                : error(404, QStringLiteral("no such fault"));
        }
    }
    if (request.path == QLatin1String("/reset") && method == QLatin1String("POST")) {
        // The world as its scenario made it, faults included: what was repaired is broken again.
        if (!m_loader)
            return error(409, QStringLiteral("this simulator has no scenario to reset to"));
        World fresh;
        fresh.advance(m_world.clockOffset()); // time does not run backwards for the clients
        FaultInjector faults;
        QString problem;
        if (!m_loader(fresh, faults, &problem))
            return error(500, QStringLiteral("the scenario could not be loaded again: %1").arg(problem));
        fresh.succeed(m_world);
        fresh.registrationDelaySeconds = m_world.registrationDelaySeconds;
        fresh.replacementBootSeconds = m_world.replacementBootSeconds;
        fresh.loadBalancerDeleteSeconds = m_world.loadBalancerDeleteSeconds;
        m_world = std::move(fresh);
        m_faults = std::move(faults);
        m_watches->worldReplaced();
        return HttpResponse::empty(204);
    }
    if (request.path == QLatin1String("/tokens/expire") && method == QLatin1String("POST")) {
        m_world.expireAllTokens();
        return HttpResponse::empty(204);
    }
    if (request.path == QLatin1String("/clock/advance") && method == QLatin1String("POST")) {
        m_world.advance(body.value(QStringLiteral("seconds")).toInt());
        m_world.tick();
        return json(200, QJsonObject { { QStringLiteral("now"), ApiRender::timestamp(m_world.now()) } });
    }
    if (request.path == QLatin1String("/settings") && method == QLatin1String("POST")) {
        if (body.contains(QStringLiteral("maxRoutes")))
            m_world.maxRoutes = body.value(QStringLiteral("maxRoutes")).toInt();
        if (body.contains(QStringLiteral("routeLimitError")))
            m_world.routeLimitAsQuota
                = body.value(QStringLiteral("routeLimitError")).toString() == QLatin1String("OverQuota");
        if (body.contains(QStringLiteral("extraRouteAtomic")))
            m_world.extraRouteAtomic = body.value(QStringLiteral("extraRouteAtomic")).toBool();
        if (body.contains(QStringLiteral("registrationDelaySeconds")))
            m_world.registrationDelaySeconds = body.value(QStringLiteral("registrationDelaySeconds")).toInt();
        if (body.contains(QStringLiteral("replacementBootSeconds")))
            m_world.replacementBootSeconds = body.value(QStringLiteral("replacementBootSeconds")).toInt();
        if (body.contains(QStringLiteral("replaceDeletedInstances")))
            m_world.replaceDeletedInstances = body.value(QStringLiteral("replaceDeletedInstances")).toBool();
        if (body.contains(QStringLiteral("loadBalancerDeleteSeconds")))
            m_world.loadBalancerDeleteSeconds
                = body.value(QStringLiteral("loadBalancerDeleteSeconds")).toInt();
        if (body.contains(QStringLiteral("routeController")))
            m_world.routeController = body.value(QStringLiteral("routeController")).toBool();
        if (body.contains(QStringLiteral("watchBookmarkMs")))
            m_watches->bookmarkMs = qMax(10, body.value(QStringLiteral("watchBookmarkMs")).toInt());
        // Kubernikus' own controllers: {"flight": true} or {"flight": {"on": true, "periodSeconds": 300}}.
        if (QString problem; !Controllers::configure(m_world, body, &problem))
            return error(400, problem);
        if (body.contains(QStringLiteral("tokenLifetimeSeconds")))
            m_world.tokenLifetimeSeconds = body.value(QStringLiteral("tokenLifetimeSeconds")).toInt();
        return HttpResponse::empty(204);
    }
    // /klusters/<name>/kubeconfig, /klusters/<name>/churn and /klusters/<name>/nodes/<node>/route
    if (parts.value(0) == QLatin1String("klusters") && parts.size() >= 3) {
        const int k = m_world.klusterIndex(parts.at(1));
        if (k < 0)
            return error(404, QStringLiteral("no such kluster"));
        if (parts.at(2) == QLatin1String("kubeconfig") && method == QLatin1String("GET")) {
            HttpResponse r;
            r.body = kubeconfig(parts.at(1));
            r.header("Content-Type", "application/yaml");
            return r;
        }
        if (parts.size() == 3 && parts.at(2) == QLatin1String("churn") && method == QLatin1String("POST")) {
            // Everyday change: `servers` of the kluster's instances stop or start again, `nodes` of its nodes
            // turn NotReady or Ready again, `replace` of its members are replaced by new ones.
            const int servers = m_world.churn(parts.at(1), body.value(QStringLiteral("servers")).toInt(),
                                    body.value(QStringLiteral("nodes")).toInt())
                + m_world.replaceMembers(parts.at(1), body.value(QStringLiteral("replace")).toInt());
            return json(200, QJsonObject { { QStringLiteral("changed"), servers } });
        }
        if (parts.size() == 3 && parts.at(2) == QLatin1String("watches") && method == QLatin1String("POST")) {
            // Ends the kluster's node watches: "gone" (the 410 of a compacted history), "close" (the server
            // ends them, as a timeout does) or "drop" (the connection reset mid-stream).
            const QString how = body.value(QStringLiteral("end")).toString();
            NodeWatches::End end = NodeWatches::End::Close;
            if (how == QLatin1String("gone"))
                end = NodeWatches::End::Gone;
            else if (how == QLatin1String("drop"))
                end = NodeWatches::End::Drop;
            else if (how != QLatin1String("close"))
                return error(400, QStringLiteral("\"end\" is one of gone, close, drop"));
            return json(200, QJsonObject { { QStringLiteral("ended"), m_watches->end(parts.at(1), end) } });
        }
        if (parts.size() == 3 && parts.at(2) == QLatin1String("token") && method == QLatin1String("POST")) {
            // The kluster's bearer token replaced (what an expired one looks like to a client that kept it).
            m_world.klusters[k].bearerToken = m_world.newHexId();
            return HttpResponse::empty(204);
        }
        if (parts.size() == 3 && parts.at(2) == QLatin1String("phase") && method == QLatin1String("POST")) {
            // The kluster's lifecycle phase, as Kubernikus would set it: {"phase": "Terminating"}.
            const QString phase = body.value(QStringLiteral("phase")).toString();
            if (phase.isEmpty())
                return error(400,
                    QStringLiteral("give {\"phase\": \"Pending|Creating|Running|Upgrading|Terminating\"}"));
            SimKluster &kluster = m_world.klusters[k];
            if (kluster.phase != phase) // as Kubernikus' ground control records each change of phase
                kluster.record(
                    QStringLiteral("Normal"), phase, phase + QStringLiteral(" kluster"), m_world.now());
            kluster.phase = phase;
            return HttpResponse::empty(204);
        }
        if (parts.size() == 3 && parts.at(2) == QLatin1String("rbac") && method == QLatin1String("POST")) {
            // What the kluster's user may not do: {"deny": ["delete nodes", "create events"]} ([] allows
            // all).
            m_world.klusters[k].rbacDenied.clear();
            for (const QJsonValue v : body.value(QStringLiteral("deny")).toArray())
                m_world.klusters[k].rbacDenied << v.toString();
            return HttpResponse::empty(204);
        }
        if (parts.size() == 3 && parts.at(2) == QLatin1String("cause") && method == QLatin1String("POST")) {
            // The fault behind one of Flightdeck's incidents (or a lost port update), caused now.
            QString problem;
            const QString rule = body.value(QStringLiteral("rule")).toString();
            const QString did = Causes::cause(
                m_world, m_world.klusters[k], rule, body.value(QStringLiteral("zone")).toString(), &problem);
            if (did.isEmpty())
                return error(Causes::names().contains(rule) ? 409 : 400, problem);
            if (m_world.klusterIndex(parts.at(1)) < 0) // gone (debris): so is its API server's every watch
                m_watches->end(parts.at(1), NodeWatches::End::Drop);
            return json(200, QJsonObject { { QStringLiteral("caused"), did } });
        }
        if (parts.size() == 5 && parts.at(2) == QLatin1String("nodes") && parts.at(4) == QLatin1String("pair")
            && method == QLatin1String("POST")) {
            // The node's pod CIDR on its port's allowed address pairs: {"present": false} drops it (the
            // cloud provider's lost update), true adds it back.
            const SimKluster &kluster = m_world.klusters.at(k);
            const int n = m_world.nodeIndex(kluster, parts.at(3));
            if (n < 0)
                return error(404, QStringLiteral("no such node"));
            if (!m_world.setNodePair(
                    kluster.nodes.at(n), body.value(QStringLiteral("present")).toBool(false)))
                return error(409, QStringLiteral("the node has no pod CIDR or no port"));
            return HttpResponse::empty(204);
        }
        if (parts.size() == 5 && parts.at(2) == QLatin1String("nodes")
            && parts.at(4) == QLatin1String("route") && method == QLatin1String("POST")) {
            SimKluster &kluster = m_world.klusters[k];
            const int n = m_world.nodeIndex(kluster, parts.at(3));
            if (n < 0)
                return error(404, QStringLiteral("no such node"));
            if (const auto e = m_world.routeNode(kluster, kluster.nodes[n]))
                return error(e->status, e->type + QStringLiteral(": ") + e->message);
            return HttpResponse::empty(204);
        }
    }
    return error(404, QStringLiteral("unknown admin path %1").arg(request.path));
}
