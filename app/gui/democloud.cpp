#include "app/gui/democloud.h"

#include "simulator/scenario.h"
#include "simulator/simulator.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QThread>

DemoCloud::DemoCloud(QObject *parent)
    : QObject(parent)
    , m_thread(new QThread(this))
{
    m_thread->setObjectName(QStringLiteral("flightdeck-demo-cloud"));
}

DemoCloud::~DemoCloud()
{
    if (m_simulator)
        m_simulator->deleteLater();
    m_thread->quit();
    m_thread->wait(); // at exit only
}

void DemoCloud::start(const QString &scenarioFile, int generatedNodes, int klusters, bool mixedSizes)
{
    m_thread->start();
    m_simulator = new Simulator;
    m_simulator->moveToThread(m_thread);
    QMetaObject::invokeMethod(
        m_simulator, [this, sim = m_simulator, scenarioFile, generatedNodes, klusters, mixedSizes] {
            QString error;
            bool ok = true;
            if (!scenarioFile.isEmpty())
                ok = Scenario::loadFile(scenarioFile, sim->world(), sim->faults(), &error);
            else if (generatedNodes <= 0)
                ok = Scenario::load(Scenario::defaultScenario(), sim->world(), sim->faults(), &error);
            if (ok && generatedNodes > 0) {
                Scenario::RegionShape shape;
                shape.klusters = klusters > 0 ? klusters : 1;
                shape.nodes = generatedNodes;
                shape.mixedSizes = mixedSizes;
                Scenario::generateRegion(sim->world(), shape);
            }
            if (ok)
                ok = sim->start(Simulator::Ports(), &error);
            // Its password is the simulated cloud's own, not a secret of anybody's.
            const QJsonObject described = sim->describe();
            // Its admin where it has one (the router devices' view is a cloud admin's), else its first user.
            const QJsonArray users = described.value(QStringLiteral("users")).toArray();
            QJsonObject user = users.first().toObject();
            for (const QJsonValue u : users) {
                if (u[QStringLiteral("roles")].toArray().contains(QStringLiteral("admin"))) {
                    user = u.toObject();
                    break;
                }
            }
            // The ACTIVE device of each router's pair, as the team that runs the cloud knows it (the ASR
            // driver does not say): the demo connection is told, as a person's would be in its settings.
            QStringList activeDevices;
            for (const QJsonValue d : described.value(QStringLiteral("routerDevices")).toArray()) {
                if (d[QStringLiteral("role")].toString() == QLatin1String("ACTIVE"))
                    activeDevices << d[QStringLiteral("host")].toString();
            }
            CloudConfig cloud;
            cloud.name = QStringLiteral("demo");
            cloud.authUrl = sim->authUrl();
            cloud.username = user.value(QStringLiteral("name")).toString();
            cloud.password = user.value(QStringLiteral("password")).toString();
            cloud.userDomainName = QStringLiteral("Default");
            cloud.projectName = user.value(QStringLiteral("project")).toString();
            cloud.projectDomainName = QStringLiteral("Default");
            cloud.regionName = QStringLiteral("RegionOne");
            cloud.source = QStringLiteral("the built-in simulated cloud");
            const QString admin = sim->adminUrl();
            // A real region's routers allow what its klusters need (its Neutron raised max_routes): the
            // generated region's say how many. Elsewhere the console's default (upstream's 30) stands.
            const int routeLimit = mixedSizes ? sim->world().maxRoutes : 0;
            QMetaObject::invokeMethod(this, [this, ok, error, cloud, admin, routeLimit, activeDevices] {
                if (!ok) {
                    emit failed(tr("the built-in simulated cloud did not start: %1").arg(error));
                    return;
                }
                m_adminUrl = admin;
                m_routeLimit = routeLimit;
                m_activeDevices = activeDevices;
                emit ready(cloud);
            });
        });
}
