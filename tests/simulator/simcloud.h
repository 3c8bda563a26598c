#pragma once

#include "services/local/cloudconfig.h"
#include "simulator/simulator.h"

// The demo world's user on a running simulated cloud, as a cloud to sign in to (the tests' one way).
inline CloudConfig simCloud(const Simulator &sim, const QString &password = QStringLiteral("flightdeck-demo"))
{
    CloudConfig c;
    c.name = QStringLiteral("sim");
    c.authUrl = sim.authUrl();
    c.username = QStringLiteral("demo");
    c.password = password;
    c.userDomainName = QStringLiteral("Default");
    c.projectName = QStringLiteral("flightdeck-demo");
    c.projectDomainName = QStringLiteral("Default");
    return c;
}

// The user of a generated fleet (`Scenario::generate`: project "scale") on a running simulated cloud.
inline CloudConfig scaleCloud(const Simulator &sim, const QString &name = QStringLiteral("scale"))
{
    CloudConfig c = simCloud(sim, QStringLiteral("scale-password"));
    c.name = name;
    c.username = QStringLiteral("scale");
    c.projectName = QStringLiteral("scale");
    return c;
}
