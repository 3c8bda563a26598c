// flightdeck-sim --dump-snapshot: the world as snapshot folders, one per
// kluster, made of exactly the bodies the APIs would return.

#include "simulator/apirender.h"
#include "simulator/simulator.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>

static bool writeJson(const QDir &dir, const QString &name, const QJsonObject &body, QString *error)
{
    QFile file(dir.filePath(name));
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        *error = QStringLiteral("%1: %2").arg(file.fileName(), file.errorString());
        return false;
    }
    file.write(QJsonDocument(body).toJson(QJsonDocument::Indented));
    if (!file.flush()) {
        *error = QStringLiteral("%1: %2").arg(file.fileName(), file.errorString());
        return false;
    }
    return true;
}

bool Simulator::dumpSnapshots(const QString &directory, const QString &only, QString *error)
{
    m_world.tick();
    const QString compute = endpoint(QStringLiteral("compute")).isEmpty()
        ? QStringLiteral("http://127.0.0.1:8774/v2.1")
        : endpoint(QStringLiteral("compute"));
    const QString volumev3 = endpoint(QStringLiteral("volumev3")).isEmpty()
        ? QStringLiteral("http://127.0.0.1:8776/v3")
        : endpoint(QStringLiteral("volumev3"));
    bool found = false;
    for (const SimKluster &k : std::as_const(m_world.klusters)) {
        if (!only.isEmpty() && k.name != only)
            continue;
        found = true;
        const QDir dir(QDir(directory).filePath(k.name));
        if (!QDir().mkpath(dir.path())) {
            *error = QStringLiteral("%1: cannot create the folder").arg(dir.path());
            return false;
        }
        const QDateTime now = m_world.now();
        const QJsonObject capture { { QStringLiteral("capturedAt"), ApiRender::timestamp(now) },
            { QStringLiteral("maxRoutes"), m_world.maxRoutes },
            { QStringLiteral("cloud"), QStringLiteral("flightdeck-sim") },
            { QStringLiteral("region"), m_world.region },
            { QStringLiteral("tool"), QStringLiteral("flightdeck-sim/" FLIGHTDECK_VERSION) } };
        QList<const SimServer *> servers;
        for (const SimServer &s : m_world.servers) {
            if (s.projectId == k.projectId)
                servers.append(&s);
        }
        std::stable_sort(servers.begin(), servers.end(), [](const SimServer *a, const SimServer *b) {
            return a->created != b->created ? a->created > b->created : a->id > b->id;
        });
        QJsonArray serverList;
        for (const SimServer *s : servers)
            serverList.append(ApiRender::server(m_world, *s, 2001, compute));
        QJsonArray groups;
        for (const SimSecurityGroup &g : m_world.securityGroups) {
            if (g.projectId == k.projectId)
                groups.append(ApiRender::securityGroup(g));
        }
        QJsonArray ports;
        for (const SimPort &p : m_world.ports) {
            const QJsonObject o = ApiRender::port(m_world, p);
            if (o.value(QStringLiteral("project_id")).toString() == k.projectId)
                ports.append(o);
        }
        QList<const SimNode *> nodes;
        for (const SimNode &n : k.nodes)
            nodes.append(&n);
        std::sort(
            nodes.begin(), nodes.end(), [](const SimNode *a, const SimNode *b) { return a->name < b->name; });
        QJsonArray items;
        for (const SimNode *n : nodes)
            items.append(ApiRender::node(k, *n, now));
        // The project's volumes and load balancers, every page in one.
        QJsonArray volumes;
        for (const SimVolume *v : ApiRender::projectVolumes(m_world, k.projectId))
            volumes.append(ApiRender::volume(*v, 3000, volumev3 + QLatin1Char('/') + k.projectId));
        QJsonArray loadBalancers;
        for (const SimLoadBalancer *lb : ApiRender::projectLoadBalancers(m_world, k.projectId))
            loadBalancers.append(ApiRender::loadBalancer(*lb));
        const int r = m_world.routerIndex(k.routerId);
        if (r < 0) {
            *error = QStringLiteral("kluster %1 has no router").arg(k.name);
            return false;
        }
        if (!writeJson(dir, QStringLiteral("capture.json"), capture, error)
            || !writeJson(dir, QStringLiteral("kluster.json"), ApiRender::kluster(m_world, k), error)
            || !writeJson(dir, QStringLiteral("servers.json"),
                QJsonObject { { QStringLiteral("servers"), serverList } }, error)
            || !writeJson(dir, QStringLiteral("router.json"),
                QJsonObject {
                    { QStringLiteral("router"), ApiRender::router(m_world, m_world.routers.at(r)) } },
                error)
            || !writeJson(dir, QStringLiteral("security-groups.json"),
                QJsonObject { { QStringLiteral("security_groups"), groups } }, error)
            || !writeJson(dir, QStringLiteral("nodes.json"),
                QJsonObject { { QStringLiteral("kind"), QStringLiteral("NodeList") },
                    { QStringLiteral("apiVersion"), QStringLiteral("v1") },
                    { QStringLiteral("metadata"),
                        QJsonObject { { QStringLiteral("resourceVersion"),
                            QString::number(m_world.resourceVersionCounter) } } },
                    { QStringLiteral("items"), items } },
                error)
            || !writeJson(dir, QStringLiteral("extensions.json"), ApiRender::extensions(m_world), error)
            || !writeJson(
                dir, QStringLiteral("ports.json"), QJsonObject { { QStringLiteral("ports"), ports } }, error)
            || !writeJson(dir, QStringLiteral("volumes.json"),
                QJsonObject { { QStringLiteral("volumes"), volumes } }, error)
            || !writeJson(dir, QStringLiteral("loadbalancers.json"),
                QJsonObject { { QStringLiteral("loadbalancers"), loadBalancers },
                    { QStringLiteral("loadbalancers_links"), QJsonArray() } },
                error))
            return false;
    }
    if (!found) {
        *error = QStringLiteral("no kluster named %1 in the scenario").arg(only);
        return false;
    }
    return true;
}
