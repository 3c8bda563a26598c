#pragma once

// A fleet written as a scenario file (the format of docs/simulator.md), for what loads one as
// `flightdeck-sim --scenario FILE` does: the benchmarks and the simulator's tests.
//
// One project "fleet" (user "fleet", password "fleet-password") with `klusters` klusters "fleet-0000",
// "fleet-0001", …, each with its own network (a /24 of 10.0.0.0/8), security group and router, and `nodes`
// instances that the loader gives their addresses (no "ip": the network's free ones), each with its node and
// its route; every router also holds 10 routes left by deleted nodes (20 nodes: 30 routes). Every tenth
// kluster's last instance is in ERROR and never registered. The same document every time.

#include <QByteArray>
#include <QFile>
#include <QString>

namespace FleetScenario {

inline QByteArray make(int klusters, int nodes)
{
    QByteArray j;
    j.reserve(qsizetype(klusters) * (nodes * 110 + 1400) + 512);
    j += R"j({"description": "A generated fleet (benchmarks/fleetscenario.h)", "region": "RegionOne",
"cloud": {"maxRoutes": 30},
"projects": [{"name": "fleet", "users": [{"name": "fleet", "password": "fleet-password"}],
)j";
    const auto name = [](int k) -> QByteArray {
        return QByteArray("fleet-") + QByteArray::number(k).rightJustified(4, '0');
    };
    const auto subnet = [](int k) -> QByteArray {
        return "10." + QByteArray::number(1 + k / 256) + '.' + QByteArray::number(k % 256) + '.';
    };
    j += R"("networks": [)";
    for (int k = 0; k < klusters; ++k) {
        j += (k ? ",\n" : "\n") + QByteArray(R"({"name": ")") + name(k) + R"(-net", "cidr": ")" + subnet(k)
            + R"(0/24"})";
    }
    j += "],\n"
         R"("securityGroups": [)";
    for (int k = 0; k < klusters; ++k) {
        j += (k ? ",\n" : "\n") + QByteArray(R"({"name": "kks-)") + name(k)
            + R"(", "rules": [{"protocol": "tcp", "remoteIpPrefix": "100.100.0.0/16"}, )"
              R"({"protocol": "udp", "remoteIpPrefix": "100.100.0.0/16"}, )"
              R"({"protocol": "icmp", "remoteIpPrefix": "100.100.0.0/16"}]})";
    }
    j += "],\n"
         R"("routers": [)";
    for (int k = 0; k < klusters; ++k) {
        j += (k ? ",\n" : "\n") + QByteArray(R"({"name": ")") + name(k) + R"(-router", "networks": [")"
            + name(k) + R"(-net"], "routes": [)";
        for (int r = 0; r < 10; ++r) {
            j += (r ? ", " : "") + QByteArray(R"({"destination": "100.100.)") + QByteArray::number(200 + r)
                + R"(.0/24", "nexthop": ")" + subnet(k) + QByteArray::number(240 + r) + R"("})";
        }
        j += "]}";
    }
    j += "],\n"
         R"("klusters": [)";
    for (int k = 0; k < klusters; ++k) {
        j += (k ? ",\n" : "\n") + QByteArray(R"({"name": ")") + name(k)
            + R"(", "clusterCIDR": "100.100.0.0/16", "router": ")" + name(k) + R"(-router", "network": ")"
            + name(k) + R"(-net", "securityGroupName": "kks-)" + name(k)
            + R"(", "pools": [{"name": "pool", "size": )" + QByteArray::number(nodes)
            + R"(}], "instances": [)";
        for (int i = 0; i < nodes; ++i) {
            j += (i ? ",\n  " : "\n  ") + QByteArray(R"({"name": "kks-)") + name(k) + "-pool-"
                + QByteArray::number(i).rightJustified(5, '0') + R"(", "ageMinutes": 14400, )";
            if (k % 10 == 0 && i == nodes - 1) {
                j += R"("status": "ERROR", "fault": "No valid host was found. )"
                     R"(There are not enough hosts available."})";
            } else {
                j += R"("node": {"podCIDR": "100.100.)" + QByteArray::number(i % 200) + R"(.0/24"}})";
            }
        }
        j += "]}";
    }
    j += "]\n}]}\n";
    return j;
}

// Writes make(klusters, nodes) to `path`; false with `error` set when it cannot.
inline bool write(const QString &path, int klusters, int nodes, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(make(klusters, nodes)) < 0
        || !file.flush()) {
        *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace FleetScenario
