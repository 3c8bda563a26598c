#pragma once

// flightdeck-cli against the simulated cloud, as a person or a script runs it:
// a private home with the cloud in clouds.yaml and its password in
// secure.yaml, no OS_* variables, and the CLI started as its own process.

#include "tests/simulator/simfixture.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <functional>

class CliFixture
{
public:
    static constexpr const char *Password = "s3cret-Pa55w0rd-for-tests";

    struct Run
    {
        int exitCode = -1;
        QString out;
        QString err;
    };

    // `adjust`: changes to the default scenario (its JSON), made before the cloud starts.
    explicit CliFixture(const std::function<void(QJsonObject &)> &adjust = {})
        : sim(scenario(adjust))
    {
        QDir(home.path()).mkpath(QStringLiteral("config/openstack"));
        QFile clouds(home.filePath(QStringLiteral("config/openstack/clouds.yaml")));
        if (!clouds.open(QIODevice::WriteOnly))
            qFatal("cannot write clouds.yaml");
        clouds.write("clouds:\n  sim:\n    auth:\n      auth_url: " + sim.sim.authUrl().toUtf8()
            + "\n      username: demo\n      project_name: flightdeck-demo\n      user_domain_name: Default\n"
              "      project_domain_name: Default\n    region_name: RegionOne\n");
        clouds.close();
        QFile secure(home.filePath(QStringLiteral("config/openstack/secure.yaml")));
        if (!secure.open(QIODevice::WriteOnly))
            qFatal("cannot write secure.yaml");
        secure.write(QByteArray("clouds:\n  sim:\n    auth:\n      password: ") + Password + "\n");
    }

    SimFixture sim;
    QTemporaryDir home;

    // Another cloud in clouds.yaml (the same simulated cloud, signed in as `user`), its password in
    // secure.yaml.
    void addCloud(const QString &name, const QString &user) const
    {
        QFile clouds(home.filePath(QStringLiteral("config/openstack/clouds.yaml")));
        QFile secure(home.filePath(QStringLiteral("config/openstack/secure.yaml")));
        if (!clouds.open(QIODevice::Append) || !secure.open(QIODevice::Append))
            qFatal("cannot add a cloud");
        clouds.write("  " + name.toUtf8() + ":\n    auth:\n      auth_url: " + sim.sim.authUrl().toUtf8()
            + "\n      username: " + user.toUtf8()
            + "\n      project_name: flightdeck-demo\n      user_domain_name: Default\n"
              "      project_domain_name: Default\n    region_name: RegionOne\n");
        secure.write("  " + name.toUtf8() + ":\n    auth:\n      password: " + Password + "\n");
    }

    QProcessEnvironment environment() const { return environmentOf(home); }

    // A person's environment with `home` as their home: no OS_* variables, no KUBECONFIG.
    static QProcessEnvironment environmentOf(const QTemporaryDir &home)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const QString &key : env.keys()) {
            if (key.startsWith(QLatin1String("OS_")) || key == QLatin1String("KUBECONFIG"))
                env.remove(key);
        }
        env.insert(QStringLiteral("HOME"), home.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
        env.insert(QStringLiteral("XDG_CACHE_HOME"), home.filePath(QStringLiteral("cache")));
        return env;
    }

    // Starts the CLI; the caller waits for it (the simulated cloud answers from the same event loop).
    void start(QProcess &p, const QStringList &args) const
    {
        p.setProcessEnvironment(environment());
        p.setWorkingDirectory(home.path());
        // The simulated cloud runs Kubernikus' controllers only where a test switches them on: said to the
        // commands that diagnose, unless the test assumes them.
        static const QStringList diagnosing { QStringLiteral("check"), QStringLiteral("repair"),
            QStringLiteral("diff"), QStringLiteral("routes"), QStringLiteral("serve") };
        QStringList given = args;
        if (!assumeAutomation && !given.isEmpty() && diagnosing.contains(given.first())
            && !given.contains(QStringLiteral("--no-automation")))
            given.insert(1, QStringLiteral("--no-automation"));
        p.start(QStringLiteral(FLIGHTDECK_CLI), given);
    }
    bool assumeAutomation = false; // the commands judge as where Kubernikus' controllers run

    Run cli(const QStringList &args, int timeoutMs = 60000) const
    {
        QProcess p;
        QSignalSpy finished(&p, &QProcess::finished);
        start(p, args);
        if (!finished.wait(timeoutMs)) {
            p.kill();
            p.waitForFinished(5000);
        }
        Run r { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError()) };
        if (r.err.contains(QLatin1String("Sanitizer")))
            qWarning().noquote() << "flightdeck-cli" << args.join(QLatin1Char(' ')) << ":\n"
                                 << r.err.left(8000);
        return r;
    }

    QString auditPath() const { return home.filePath(QStringLiteral("data/flightdeck/audit.jsonl")); }

    // The repairs as `flightdeck-cli audit --format json` reads them (started and finished records merged).
    QList<QJsonObject> audit() const
    {
        const Run r = cli({ QStringLiteral("audit"), QStringLiteral("--format"), QStringLiteral("json") });
        QList<QJsonObject> records;
        for (const QString &line : r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            records << QJsonDocument::fromJson(line.toUtf8()).object();
        return records;
    }

    QStringList findingIds(const QString &kluster) const
    {
        const Run r = cli({ QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("sim"),
            QStringLiteral("--kluster"), kluster, QStringLiteral("--format"), QStringLiteral("json") });
        QStringList ids;
        for (const QJsonValue &f :
            QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("findings")).toArray())
            ids << f.toObject().value(QStringLiteral("id")).toString();
        return ids;
    }

private:
    static QByteArray scenario(const std::function<void(QJsonObject &)> &adjust)
    {
        QByteArray json = Scenario::defaultScenario();
        json.replace("\"password\": \"flightdeck-demo\"", QByteArray("\"password\": \"") + Password + "\"");
        if (!adjust)
            return json;
        QJsonObject root = QJsonDocument::fromJson(json).object();
        adjust(root);
        return QJsonDocument(root).toJson();
    }
};
