#include "services/local/cloudconfig.h"

#include "services/local/localfile.h"
#include "services/local/yamltext.h"

#include <QDir>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <QSslCertificate>
#include <QStandardPaths>
#include <yaml-cpp/yaml.h>

QString CloudConfig::secretKey() const
{
    if (isApplicationCredential()) {
        return QStringLiteral("application-credential/%1/%2")
            .arg(name,
                applicationCredentialId.isEmpty() ? applicationCredentialName : applicationCredentialId);
    }
    return QStringLiteral("password/%1/%2").arg(name, username.isEmpty() ? userId : username);
}

QList<QSslCertificate> CloudConfig::caCertificates(const QString &path)
{
    // Regular files only, bounded, never waited for (OS_CACERT may name anything).
    const std::optional<QByteArray> bytes
        = LocalFile::read(path, LocalFile::ConfigLimit, static_cast<QString *>(nullptr));
    return bytes ? QSslCertificate::fromData(*bytes, QSsl::Pem) : QList<QSslCertificate>();
}

static QString env(const char *name)
{
    return qEnvironmentVariable(name);
}

static QStringList candidates(const QString &file)
{
    QStringList list;
    if (file == QLatin1String("clouds.yaml") && !env("OS_CLIENT_CONFIG_FILE").isEmpty())
        list << env("OS_CLIENT_CONFIG_FILE");
    if (file == QLatin1String("secure.yaml") && !env("OS_CLIENT_SECURE_FILE").isEmpty())
        list << env("OS_CLIENT_SECURE_FILE");
    list << QDir::current().filePath(file);
    QString xdg = env("XDG_CONFIG_HOME");
    if (xdg.isEmpty())
        xdg = QDir::home().filePath(QStringLiteral(".config"));
    list << QDir(xdg).filePath(QStringLiteral("openstack/") + file);
    list << QStringLiteral("/etc/openstack/") + file;
    return list;
}

QStringList CloudConfigLoader::cloudsFiles()
{
    return candidates(QStringLiteral("clouds.yaml"));
}

QStringList CloudConfigLoader::secureFiles()
{
    return candidates(QStringLiteral("secure.yaml"));
}

static QString firstExisting(const QStringList &files)
{
    // The first that is there, whatever it is: one that is no regular file is then named, not skipped.
    for (const QString &f : files) {
        if (QFileInfo::exists(f))
            return f;
    }
    return QString();
}

static bool loadYaml(const QString &path, YAML::Node *node, QString *error)
{
    // Regular files only, bounded, never waited for.
    QString why;
    const std::optional<QByteArray> bytes = LocalFile::read(path, LocalFile::ConfigLimit, &why);
    if (!bytes) {
        if (error)
            *error = why;
        return false;
    }
    try {
        *node = YAML::Load(bytes->toStdString());
    } catch (const YAML::Exception &e) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, QString::fromStdString(e.what()));
        return false;
    }
    return true;
}

QStringList CloudConfigLoader::cloudNames(QString *error)
{
    QStringList names;
    const QString path = firstExisting(cloudsFiles());
    if (!path.isEmpty()) {
        YAML::Node root;
        if (loadYaml(path, &root, error) && root.IsMap() && root["clouds"] && root["clouds"].IsMap()) {
            for (const auto &entry : root["clouds"]) {
                if (entry.first.IsScalar()) // a cloud's name; "? [a, b]" is not one
                    names << QString::fromStdString(entry.first.as<std::string>());
            }
        }
    }
    if (!env("OS_AUTH_URL").isEmpty())
        names << QStringLiteral("envvars");
    return names;
}

static void mergeInto(YAML::Node target, const YAML::Node &source)
{
    if (!source.IsMap())
        return;
    for (const auto &entry : source) {
        if (!entry.first.IsScalar())
            continue;
        const std::string key = entry.first.as<std::string>();
        if (entry.second.IsMap() && target[key] && target[key].IsMap())
            mergeInto(target[key], entry.second);
        else
            target[key] = entry.second;
    }
}

static void applyEnvironment(CloudConfig &c)
{
    auto set = [](QString &field, const char *var) {
        const QString v = env(var);
        if (!v.isEmpty())
            field = v;
    };
    set(c.authUrl, "OS_AUTH_URL");
    set(c.authType, "OS_AUTH_TYPE");
    set(c.username, "OS_USERNAME");
    set(c.userId, "OS_USER_ID");
    set(c.userDomainName, "OS_USER_DOMAIN_NAME");
    set(c.userDomainId, "OS_USER_DOMAIN_ID");
    set(c.projectName, "OS_PROJECT_NAME");
    set(c.projectName, "OS_TENANT_NAME");
    set(c.projectId, "OS_PROJECT_ID");
    set(c.projectDomainName, "OS_PROJECT_DOMAIN_NAME");
    set(c.projectDomainId, "OS_PROJECT_DOMAIN_ID");
    set(c.regionName, "OS_REGION_NAME");
    set(c.interface, "OS_INTERFACE");
    set(c.caCertFile, "OS_CACERT");
    set(c.password, "OS_PASSWORD");
    set(c.applicationCredentialId, "OS_APPLICATION_CREDENTIAL_ID");
    set(c.applicationCredentialName, "OS_APPLICATION_CREDENTIAL_NAME");
    set(c.applicationCredentialSecret, "OS_APPLICATION_CREDENTIAL_SECRET");
    if (c.interface.endsWith(QLatin1String("URL")))
        c.interface.chop(3); // "publicURL" from old rc files
    const QString domain = env("OS_DOMAIN_NAME");
    if (!domain.isEmpty()) {
        if (c.userDomainName.isEmpty())
            c.userDomainName = domain;
        if (c.projectDomainName.isEmpty())
            c.projectDomainName = domain;
    }
}

static std::optional<CloudConfig> loadUnguarded(const QString &requested, QString *error);

std::optional<CloudConfig> CloudConfigLoader::load(const QString &requested, QString *error)
{
    try {
        return loadUnguarded(requested, error);
    } catch (const YAML::Exception &e) {
        // A value of an unexpected shape (a list where a name belongs, say).
        *error = QStringLiteral("clouds.yaml/secure.yaml: %1").arg(QString::fromStdString(e.what()));
        return std::nullopt;
    }
}

static std::optional<CloudConfig> loadUnguarded(const QString &requested, QString *error)
{
    QString name = requested.isEmpty() ? env("OS_CLOUD") : requested;
    CloudConfig c;
    if (name.isEmpty() || name == QLatin1String("envvars")) {
        if (env("OS_AUTH_URL").isEmpty()) {
            *error = QStringLiteral(
                "no cloud given: use --cloud NAME (a cloud of clouds.yaml), set OS_CLOUD, or set the "
                "OS_* variables (OS_AUTH_URL and the rest)");
            return std::nullopt;
        }
        c.name = QStringLiteral("envvars");
        c.source = QStringLiteral("the OS_* environment variables");
        applyEnvironment(c);
    } else {
        const QString path = firstExisting(CloudConfigLoader::cloudsFiles());
        if (path.isEmpty()) {
            *error = QStringLiteral("cloud \"%1\": no clouds.yaml found (looked in %2)")
                         .arg(name, CloudConfigLoader::cloudsFiles().join(QStringLiteral(", ")));
            return std::nullopt;
        }
        YAML::Node root;
        if (!loadYaml(path, &root, error))
            return std::nullopt;
        YAML::Node cloud = root.IsMap() && root["clouds"] && root["clouds"].IsMap()
            ? root["clouds"][name.toStdString()]
            : YAML::Node();
        if (!cloud || !cloud.IsMap()) {
            *error = QStringLiteral("cloud \"%1\" is not in %2").arg(name, path);
            return std::nullopt;
        }
        cloud = YAML::Clone(cloud);
        c.source = path;
        const QString securePath = firstExisting(CloudConfigLoader::secureFiles());
        if (!securePath.isEmpty()) {
            YAML::Node secure;
            if (!loadYaml(securePath, &secure, error))
                return std::nullopt;
            if (secure.IsMap() && secure["clouds"] && secure["clouds"].IsMap()
                && secure["clouds"][name.toStdString()]) {
                mergeInto(cloud, secure["clouds"][name.toStdString()]);
                c.source += QStringLiteral(" + ") + securePath;
            }
        }
        c.name = name;
        const YAML::Node auth = cloud["auth"];
        if (!yamlText(cloud, "auth_type").isEmpty())
            c.authType = yamlText(cloud, "auth_type");
        c.authUrl = yamlText(auth, "auth_url");
        c.username = yamlText(auth, "username");
        c.userId = yamlText(auth, "user_id");
        c.userDomainName = yamlText(auth, "user_domain_name");
        c.userDomainId = yamlText(auth, "user_domain_id");
        c.projectName = yamlText(auth, "project_name");
        if (c.projectName.isEmpty())
            c.projectName = yamlText(auth, "tenant_name");
        c.projectId = yamlText(auth, "project_id");
        c.projectDomainName = yamlText(auth, "project_domain_name");
        c.projectDomainId = yamlText(auth, "project_domain_id");
        const QString domain = yamlText(auth, "domain_name");
        if (!domain.isEmpty()) {
            if (c.userDomainName.isEmpty())
                c.userDomainName = domain;
            if (c.projectDomainName.isEmpty())
                c.projectDomainName = domain;
        }
        c.password = yamlText(auth, "password");
        c.applicationCredentialId = yamlText(auth, "application_credential_id");
        c.applicationCredentialName = yamlText(auth, "application_credential_name");
        c.applicationCredentialSecret = yamlText(auth, "application_credential_secret");
        c.regionName = yamlText(cloud, "region_name");
        if (c.regionName.isEmpty() && cloud["regions"] && cloud["regions"].IsSequence()
            && cloud["regions"].size() > 0)
            c.regionName = QString::fromStdString(cloud["regions"][0].IsMap()
                    ? cloud["regions"][0]["name"].as<std::string>()
                    : cloud["regions"][0].as<std::string>());
        if (!yamlText(cloud, "interface").isEmpty())
            c.interface = yamlText(cloud, "interface");
        c.caCertFile = yamlText(cloud, "cacert");
        if (cloud["verify"] && cloud["verify"].IsScalar())
            c.verify = cloud["verify"].as<std::string>() != "false"
                && cloud["verify"].as<std::string>() != "False";
        // OS_* variables still apply on top, as openstacksdk does for a few of them.
        const QString region = env("OS_REGION_NAME");
        if (!region.isEmpty())
            c.regionName = region;
    }
    if (c.authUrl.isEmpty()) {
        *error = QStringLiteral("cloud \"%1\" (%2) has no auth_url").arg(c.name, c.source);
        return std::nullopt;
    }
    if (!c.verify) {
        *error = QStringLiteral(
            "cloud \"%1\" (%2) sets verify: false; Flightdeck does not turn TLS verification off. "
            "Give the cloud's CA with cacert instead")
                     .arg(c.name, c.source);
        return std::nullopt;
    }
    if (!c.caCertFile.isEmpty() && CloudConfig::caCertificates(c.caCertFile).isEmpty()) {
        *error = QStringLiteral("cloud \"%1\" (%2): cacert %3 holds no readable certificate")
                     .arg(c.name, c.source, c.caCertFile);
        return std::nullopt;
    }
    if (c.authType == QLatin1String("v3password"))
        c.authType = QStringLiteral("password");
    if (c.isApplicationCredential()) {
        if (c.applicationCredentialId.isEmpty() && c.applicationCredentialName.isEmpty()) {
            *error = QStringLiteral(
                "cloud \"%1\" (%2): an application credential needs application_credential_id "
                "(or its name)")
                         .arg(c.name, c.source);
            return std::nullopt;
        }
    } else if (c.authType != QLatin1String("password")) {
        *error = QStringLiteral(
            "cloud \"%1\": auth_type %2 is not supported (password, v3applicationcredential)")
                     .arg(c.name, c.authType);
        return std::nullopt;
    } else if (c.username.isEmpty() && c.userId.isEmpty()) {
        *error = QStringLiteral("cloud \"%1\" (%2) names no user").arg(c.name, c.source);
        return std::nullopt;
    }
    return c;
}
