// flightdeck-sim: the built-in simulated cloud, on its own.

#include "simulator/scenario.h"
#include "simulator/simulator.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QTextStream>
#include <csignal>
#include <cstdio>
#include <sys/prctl.h>
#include <sys/resource.h>

static int fail(const QString &message)
{
    QTextStream(stderr) << "flightdeck-sim: " << message << Qt::endl;
    return 2;
}

int main(int argc, char *argv[])
{
    // No core dump: the simulated cloud holds its users' passwords and tokens too.
    const rlimit noCore { 0, 0 };
    ::setrlimit(RLIMIT_CORE, &noCore);
    ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    // A region: a listening socket per kluster API server, and the clients' connections to each.
    rlimit files {};
    if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &files);
    }
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("flightdeck-sim"));
    QCoreApplication::setApplicationVersion(QStringLiteral(FLIGHTDECK_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "The built-in simulated cloud of Flightdeck: Keystone v3, Nova v2.1, Neutron v2.0, a minimal "
        "Glance,\n"
        "the Kubernikus API and one Kubernetes API server (TLS, its own CA) per kluster, on 127.0.0.1, over\n"
        "one stateful world; real `openstack` and `kubectl` clients work against it. An admin API injects\n"
        "faults while it runs (see docs/simulator.md). Stop it with Ctrl-C."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption scenario(QStringLiteral("scenario"),
        QStringLiteral("Load the world from the scenario <file> (JSON, see docs/simulator.md) "
                       "instead of the built-in demo world."),
        QStringLiteral("file"));
    const QCommandLineOption nodes(QStringLiteral("nodes"),
        QStringLiteral("Generate a kluster \"scale\" of <n> instances and nodes with their routes "
                       "and a sprinkling of every failure (instead of the demo world, or added "
                       "to --scenario)."),
        QStringLiteral("n"));
    const QCommandLineOption fleet(QStringLiteral("klusters"),
        QStringLiteral("Generate a fleet of <n> klusters \"scale-000\", \"scale-001\", … in the project "
                       "\"scale\", each like --nodes makes them (with --nodes-per-kluster)."),
        QStringLiteral("n"));
    const QCommandLineOption perKluster(QStringLiteral("nodes-per-kluster"),
        QStringLiteral("The instances and nodes of each kluster of --klusters (default 20, at most 240)."),
        QStringLiteral("m"), QStringLiteral("20"));
    const QCommandLineOption projects(QStringLiteral("projects"),
        QStringLiteral("Spread the klusters of --klusters over <p> projects \"scale-p00\", … (a user of the "
                       "same name each, password \"scale-password\")."),
        QStringLiteral("p"), QStringLiteral("1"));
    const QCommandLineOption mixed(QStringLiteral("mixed-sizes"),
        QStringLiteral(
            "Give the klusters of --klusters the sizes of a real region instead of "
            "--nodes-per-kluster: most 3–30 nodes, some up to 100, a few up to 300; faults in some "
            "klusters, not in all."));
    const QCommandLineOption region(QStringLiteral("region"),
        QStringLiteral("The region the catalog names (default: the scenario's, else RegionOne): several "
                       "simulators are several regions."),
        QStringLiteral("name"));
    const QCommandLineOption dump(QStringLiteral("dump-snapshot"),
        QStringLiteral("Write each kluster as a snapshot folder <dir>/<kluster>/ and exit."),
        QStringLiteral("dir"));
    const QCommandLineOption kluster(QStringLiteral("kluster"),
        QStringLiteral("With --dump-snapshot: only this kluster."), QStringLiteral("name"));
    const QCommandLineOption json(QStringLiteral("json"),
        QStringLiteral("Print the endpoints as one JSON object on standard output once listening."));
    const QCommandLineOption kubeconfigs(QStringLiteral("kubeconfig-dir"),
        QStringLiteral("Write a kubeconfig per kluster into <dir> (<kluster>.yaml)."), QStringLiteral("dir"));
    const QCommandLineOption keystonePort(QStringLiteral("keystone-port"),
        QStringLiteral("Keystone port (default: any free one)."), QStringLiteral("port"),
        QStringLiteral("0"));
    const QCommandLineOption computePort(QStringLiteral("compute-port"), QStringLiteral("Nova port."),
        QStringLiteral("port"), QStringLiteral("0"));
    const QCommandLineOption networkPort(QStringLiteral("network-port"), QStringLiteral("Neutron port."),
        QStringLiteral("port"), QStringLiteral("0"));
    const QCommandLineOption imagePort(QStringLiteral("image-port"), QStringLiteral("Glance port."),
        QStringLiteral("port"), QStringLiteral("0"));
    const QCommandLineOption kubernikusPort(QStringLiteral("kubernikus-port"),
        QStringLiteral("Kubernikus port."), QStringLiteral("port"), QStringLiteral("0"));
    const QCommandLineOption adminPort(QStringLiteral("admin-port"), QStringLiteral("Admin API port."),
        QStringLiteral("port"), QStringLiteral("0"));
    const QCommandLineOption accessLog(QStringLiteral("access-log"),
        QStringLiteral("Print each request answered on standard error: the time it was answered (UTC, "
                       "milliseconds), the service, the method, the path and the status."));
    parser.addOptions(
        { scenario, nodes, fleet, perKluster, projects, mixed, region, dump, kluster, json, accessLog,
            kubeconfigs, keystonePort, computePort, networkPort, imagePort, kubernikusPort, adminPort });
    parser.process(app);

    Simulator sim;
    QString error;
    int generated = 0;
    if (parser.isSet(nodes)) {
        bool ok = false;
        generated = parser.value(nodes).toInt(&ok);
        if (!ok || generated <= 0 || generated > 60000)
            return fail(
                QStringLiteral("--nodes: \"%1\" is not a count from 1 to 60000").arg(parser.value(nodes)));
    }
    int fleetSize = 1;
    Scenario::RegionShape shape;
    if (parser.isSet(fleet)) {
        bool ok = false;
        fleetSize = parser.value(fleet).toInt(&ok);
        if (!ok || fleetSize <= 0 || fleetSize > 1000)
            return fail(
                QStringLiteral("--klusters: \"%1\" is not a count from 1 to 1000").arg(parser.value(fleet)));
        generated = parser.value(perKluster).toInt(&ok);
        if (!ok || generated <= 0 || generated > 240)
            return fail(QStringLiteral("--nodes-per-kluster: \"%1\" is not a count from 1 to 240")
                            .arg(parser.value(perKluster)));
        shape.projects = parser.value(projects).toInt(&ok);
        if (!ok || shape.projects <= 0 || shape.projects > fleetSize)
            return fail(QStringLiteral("--projects: \"%1\" is not a count from 1 to the klusters' %2")
                            .arg(parser.value(projects))
                            .arg(fleetSize));
        shape.mixedSizes = parser.isSet(mixed);
    } else if (parser.isSet(projects) || parser.isSet(mixed)) {
        return fail(QStringLiteral("--projects and --mixed-sizes shape a fleet: give --klusters too"));
    }
    // The world, as it is made at start and again on the admin API's POST /reset.
    const QString scenarioFile = parser.value(scenario);
    const QString regionName = parser.value(region);
    shape.klusters = fleetSize;
    shape.nodes = generated;
    const auto load = [scenarioFile, generated, shape, regionName](
                          World &world, FaultInjector &faults, QString *problem) {
        if (!scenarioFile.isEmpty()) {
            if (!Scenario::loadFile(scenarioFile, world, faults, problem))
                return false;
        } else if (generated == 0 && !Scenario::load(Scenario::defaultScenario(), world, faults, problem)) {
            *problem = QStringLiteral("built-in scenario: ") + *problem;
            return false;
        }
        if (generated > 0)
            Scenario::generateRegion(world, shape);
        if (!regionName.isEmpty())
            world.region = regionName;
        return true;
    };
    if (!load(sim.world(), sim.faults(), &error))
        return fail(error);
    sim.setWorldLoader(load);

    if (parser.isSet(dump)) {
        if (!sim.dumpSnapshots(parser.value(dump), parser.value(kluster), &error))
            return fail(error);
        return 0;
    }

    auto port = [&parser](const QCommandLineOption &o) { return quint16(parser.value(o).toUInt()); };
    Simulator::Ports ports;
    ports.keystone = port(keystonePort);
    ports.compute = port(computePort);
    ports.network = port(networkPort);
    ports.image = port(imagePort);
    ports.kubernikus = port(kubernikusPort);
    ports.admin = port(adminPort);
    if (!sim.start(ports, &error))
        return fail(error);
    if (parser.isSet(accessLog)) {
        QObject::connect(&sim, &Simulator::requestHandled,
            [](const QString &service, const QString &method, const QString &path, int status) {
                const QByteArray line = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs).toUtf8()
                    + ' ' + service.toUtf8() + ' ' + method.toUtf8() + ' ' + path.toUtf8() + ' '
                    + QByteArray::number(status) + '\n';
                std::fwrite(line.constData(), 1, size_t(line.size()), stderr);
            });
    }

    if (parser.isSet(kubeconfigs)) {
        const QDir dir(parser.value(kubeconfigs));
        QDir().mkpath(dir.path());
        for (const SimKluster &k : sim.world().klusters) {
            QFile f(dir.filePath(k.name + QStringLiteral(".yaml")));
            if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
                return fail(QStringLiteral("%1: %2").arg(f.fileName(), f.errorString()));
            f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
            f.write(sim.kubeconfig(k.name));
        }
    }

    QTextStream out(stdout);
    if (parser.isSet(json)) {
        out << QJsonDocument(sim.describe()).toJson(QJsonDocument::Compact) << Qt::endl;
    } else {
        const SimUser user = sim.world().users.value(0);
        const int p = sim.world().projectIndex(user.projectId);
        out << "Flightdeck simulated cloud is running.\n\n"
            << "  Keystone     " << sim.authUrl() << "\n"
            << "  Nova         " << sim.endpoint(QStringLiteral("compute")) << "\n"
            << "  Neutron      " << sim.endpoint(QStringLiteral("network")) << "\n"
            << "  Glance       " << sim.endpoint(QStringLiteral("image")) << "\n"
            << "  Kubernikus   " << sim.endpoint(QStringLiteral("kubernikus")) << "\n"
            << "  admin API    " << sim.adminUrl() << "\n";
        for (const SimKluster &k : sim.world().klusters)
            out << "  kluster " << k.name.leftJustified(12) << " " << sim.kubernetesUrl(k.name) << "\n";
        out << "\nPoint the openstack client at it:\n\n"
            << "  export OS_AUTH_URL=" << sim.authUrl()
            << " OS_IDENTITY_API_VERSION=3 OS_REGION_NAME=" << sim.world().region << "\n"
            << "  export OS_USERNAME=" << user.name << " OS_PASSWORD=" << user.password
            << " OS_PROJECT_NAME=" << (p >= 0 ? sim.world().projects.at(p).name : QString())
            << " OS_USER_DOMAIN_NAME=Default OS_PROJECT_DOMAIN_NAME=Default\n"
            << "  openstack server list\n";
        // Every user of the world with its roles: a member reads and writes, a reader only reads, an admin
        // also reaches the ASR driver's device API.
        if (sim.world().users.size() > 1) {
            out << "\nIts users (OS_USERNAME, OS_PASSWORD), each in its project:\n\n";
            for (const SimUser &u : sim.world().users) {
                const int up = sim.world().projectIndex(u.projectId);
                out << "  " << u.name.leftJustified(12) << " " << u.password.leftJustified(18) << " "
                    << (up >= 0 ? sim.world().projects.at(up).name : QString()).leftJustified(10) << " "
                    << u.roles.join(QStringLiteral(", ")) << "\n";
            }
        }
        out << "\n"
            << "and kubectl at a kluster (kubeconfigs: --kubeconfig-dir DIR, or the admin API):\n\n"
            << "  curl -s " << sim.adminUrl() << "/klusters/" << sim.world().klusters.value(0).name
            << "/kubeconfig > kubeconfig.yaml\n"
            << "  kubectl --kubeconfig kubeconfig.yaml get nodes -o wide\n";
        out.flush();
    }
    std::signal(SIGINT, [](int) { QCoreApplication::quit(); });
    std::signal(SIGTERM, [](int) { QCoreApplication::quit(); });
    return app.exec();
}
