#include "services/settings.h"

#include "services/http/endpointslots.h"

namespace Settings {

Setting<QByteArray> windowGeometry()
{
    return { QStringLiteral("console/geometry") };
}

Setting<QByteArray> windowState()
{
    return { QStringLiteral("console/state") };
}

Setting<QByteArray> splitState()
{
    return { QStringLiteral("console/split") };
}

Setting<QString> lastKluster()
{
    return { QStringLiteral("console/lastKluster") };
}

Setting<QStringList> protectedKlusters()
{
    return { QStringLiteral("console/protectedKlusters") };
}

Setting<int> tab()
{
    return { QStringLiteral("console/tab"), 0 };
}

Setting<QByteArray> viewHeader(const QString &view)
{
    return { QStringLiteral("views/%1/header").arg(view) };
}

Setting<int> viewColumns(const QString &view)
{
    return { QStringLiteral("views/%1/columns").arg(view), -1 };
}

Setting<int> historyDays()
{
    return { QStringLiteral("history/retentionDays"), 30 };
}

Setting<int> historyMegabytes()
{
    return { QStringLiteral("history/maxMegabytes"), 200 };
}

Setting<int> routeScope()
{
    return { QStringLiteral("routes/scope"), 0 };
}

Setting<bool> findingsByIncident()
{
    return { QStringLiteral("findings/byIncident"), false };
}

Setting<QString> fleetGrouping()
{
    return { QStringLiteral("fleet/grouping"), QStringLiteral("connection") };
}

Setting<QString> fleetLayout()
{
    return { QStringLiteral("fleet/layout"), QStringLiteral("auto") };
}

Setting<int> refreshMinutes()
{
    return { QStringLiteral("refresh/intervalMinutes"), 5 };
}

Setting<int> refreshConcurrency()
{
    return { QStringLiteral("refresh/concurrency"), 8 };
}

Setting<int> requestsPerEndpoint()
{
    return { QStringLiteral("refresh/requestsPerEndpoint"), EndpointSlots::DefaultPerEndpoint };
}

Setting<bool> desktopNotifications()
{
    return { QStringLiteral("notifications/desktop"), true };
}

Setting<bool> trayIcon()
{
    return { QStringLiteral("notifications/tray"), true };
}

namespace {

// An Alertmanager's or a Prometheus' coordinates under "<prefix>Url", "<prefix>Auth", …; never its secret.
AlertmanagerTarget readTarget(const QSettings &settings, const QString &prefix)
{
    AlertmanagerTarget a;
    const QString url = settings.value(prefix + QStringLiteral("Url")).toString();
    if (url.isEmpty())
        return a;
    a.url = QUrl(url);
    a.auth = alertmanagerAuthFromName(settings.value(prefix + QStringLiteral("Auth")).toString())
                 .value_or(AlertmanagerTarget::Auth::None);
    a.username = settings.value(prefix + QStringLiteral("User")).toString();
    a.caFile = settings.value(prefix + QStringLiteral("Ca")).toString();
    a.clientCertFile = settings.value(prefix + QStringLiteral("Cert")).toString();
    a.clientKeyFile = settings.value(prefix + QStringLiteral("Key")).toString();
    const QStringList labels = settings.value(prefix + QStringLiteral("Labels")).toStringList();
    if (!labels.isEmpty())
        a.klusterLabels = labels;
    return a;
}

void writeTarget(QSettings &settings, const QString &prefix, const AlertmanagerTarget &a)
{
    if (!a.isSet())
        return;
    // Where it is and how to reach it; its secret stays in the keychain.
    settings.setValue(prefix + QStringLiteral("Url"), a.displayUrl());
    settings.setValue(prefix + QStringLiteral("Auth"), alertmanagerAuthName(a.auth));
    settings.setValue(prefix + QStringLiteral("User"), a.username);
    settings.setValue(prefix + QStringLiteral("Ca"), a.caFile);
    settings.setValue(prefix + QStringLiteral("Cert"), a.clientCertFile);
    settings.setValue(prefix + QStringLiteral("Key"), a.clientKeyFile);
    settings.setValue(prefix + QStringLiteral("Labels"), a.klusterLabels);
}

} // namespace

QList<ConnectionSpec> connections()
{
    QSettings settings;
    QList<ConnectionSpec> list;
    const int n = settings.beginReadArray(QStringLiteral("connections"));
    for (int i = 0; i < n; ++i) {
        settings.setArrayIndex(i);
        ConnectionSpec s;
        s.name = settings.value(QStringLiteral("name")).toString();
        s.cloud = settings.value(QStringLiteral("cloud")).toString();
        s.snapshotPath = settings.value(QStringLiteral("snapshot")).toString();
        s.kubeContext = settings.value(QStringLiteral("kubeContext")).toString();
        s.policyFiles = settings.value(QStringLiteral("policyFiles")).toStringList();
        s.readOnly = settings.value(QStringLiteral("readOnly")).toBool();
        s.protectedRepairs = settings.value(QStringLiteral("protected")).toBool();
        s.options.activeDevices = settings.value(QStringLiteral("activeDevices")).toStringList();
        s.options.automation = settings.value(QStringLiteral("automation"), true).toBool();
        if (settings.contains(QStringLiteral("authUrl"))) {
            CloudConfig c;
            c.name = s.name;
            c.authType = settings.value(QStringLiteral("authType"), c.authType).toString();
            c.authUrl = settings.value(QStringLiteral("authUrl")).toString();
            c.username = settings.value(QStringLiteral("username")).toString();
            c.userDomainName = settings.value(QStringLiteral("userDomainName")).toString();
            c.projectName = settings.value(QStringLiteral("projectName")).toString();
            c.projectDomainName = settings.value(QStringLiteral("projectDomainName")).toString();
            c.applicationCredentialId = settings.value(QStringLiteral("applicationCredentialId")).toString();
            c.regionName = settings.value(QStringLiteral("regionName")).toString();
            c.interface = settings.value(QStringLiteral("interface"), c.interface).toString();
            c.caCertFile = settings.value(QStringLiteral("caCertFile")).toString();
            c.source = QStringLiteral("the console's saved connections");
            s.config = c;
        }
        s.alertmanager = readTarget(settings, QStringLiteral("alertmanager"));
        s.prometheus = readTarget(settings, QStringLiteral("prometheus"));
        if (!s.name.isEmpty())
            list << s;
    }
    settings.endArray();
    return list;
}

void setConnections(const QList<ConnectionSpec> &connections)
{
    QSettings settings;
    settings.remove(QStringLiteral("connections"));
    settings.beginWriteArray(QStringLiteral("connections"), int(connections.size()));
    for (int i = 0; i < connections.size(); ++i) {
        const ConnectionSpec &s = connections.at(i);
        settings.setArrayIndex(i);
        settings.setValue(QStringLiteral("name"), s.name);
        settings.setValue(QStringLiteral("cloud"), s.cloud);
        settings.setValue(QStringLiteral("snapshot"), s.snapshotPath);
        settings.setValue(QStringLiteral("kubeContext"), s.kubeContext);
        if (!s.policyFiles.isEmpty())
            settings.setValue(QStringLiteral("policyFiles"), s.policyFiles);
        settings.setValue(QStringLiteral("readOnly"), s.readOnly);
        settings.setValue(QStringLiteral("protected"), s.protectedRepairs);
        if (!s.options.activeDevices.isEmpty())
            settings.setValue(QStringLiteral("activeDevices"), s.options.activeDevices);
        if (!s.options.automation) // Kubernikus' automation does not run on this cloud
            settings.setValue(QStringLiteral("automation"), false);
        writeTarget(settings, QStringLiteral("alertmanager"), s.alertmanager);
        writeTarget(settings, QStringLiteral("prometheus"), s.prometheus);
        if (s.config && s.cloud.isEmpty()) {
            // The cloud's coordinates only: the password or secret stays in the keychain.
            const CloudConfig &c = *s.config;
            settings.setValue(QStringLiteral("authType"), c.authType);
            settings.setValue(QStringLiteral("authUrl"), c.authUrl);
            settings.setValue(QStringLiteral("username"), c.username);
            settings.setValue(QStringLiteral("userDomainName"), c.userDomainName);
            settings.setValue(QStringLiteral("projectName"), c.projectName);
            settings.setValue(QStringLiteral("projectDomainName"), c.projectDomainName);
            settings.setValue(QStringLiteral("applicationCredentialId"), c.applicationCredentialId);
            settings.setValue(QStringLiteral("regionName"), c.regionName);
            settings.setValue(QStringLiteral("interface"), c.interface);
            settings.setValue(QStringLiteral("caCertFile"), c.caCertFile);
        }
    }
    settings.endArray();
}

QString fileName()
{
    return QSettings().fileName();
}

} // namespace Settings
