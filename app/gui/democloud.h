#pragma once

#include "services/local/cloudconfig.h"

#include <QObject>
#include <QString>
#include <QStringList>

class QThread;
class Simulator;

// The built-in simulated cloud for `flightdeck --demo`, on a thread of its
// own so that serving the console never competes with the window: the
// default scenario (or a scenario file, or a generated world of N nodes).
class DemoCloud : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoCloud)

public:
    explicit DemoCloud(QObject *parent = nullptr);
    ~DemoCloud() override;

    // Starts it; ready() or failed() follows.
    // `generatedNodes` > 0: a generated world of that many nodes; with `klusters` > 0, a fleet of that many
    // klusters of `generatedNodes` each, or with `mixedSizes` of the sizes and faults of a real region.
    void start(const QString &scenarioFile, int generatedNodes, int klusters = 0, bool mixedSizes = false);
    QString adminUrl() const { return m_adminUrl; }
    // The routes a router of a generated region allows (its Neutron's max_routes); 0: not said.
    int routeLimit() const { return m_routeLimit; }
    // The hosts of the routers' ACTIVE devices (the world's ASR pairs), as the cloud's team knows them.
    QStringList activeDevices() const { return m_activeDevices; }

signals:
    void ready(const CloudConfig &cloud);
    void failed(const QString &error);

private:
    QThread *m_thread;
    Simulator *m_simulator = nullptr;
    QString m_adminUrl;
    int m_routeLimit = 0;
    QStringList m_activeDevices;
};
