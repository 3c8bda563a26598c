#include "services/local/kubeconfig.h"

#include "services/local/localfile.h"
#include "services/local/yamltext.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <yaml-cpp/yaml.h>

QStringList Kubeconfig::defaultFiles()
{
    const QString list = qEnvironmentVariable("KUBECONFIG");
    if (!list.isEmpty()) {
        QStringList files;
        for (const QString &f : list.split(QLatin1Char(':'), Qt::SkipEmptyParts))
            files << f;
        return files;
    }
    return { QDir::home().filePath(QStringLiteral(".kube/config")) };
}

bool Kubeconfig::addFile(const QString &path, const QByteArray &yaml, QString *error)
{
    YAML::Node root;
    try {
        root = YAML::Load(yaml.toStdString());
    } catch (const YAML::Exception &e) {
        *error = QStringLiteral("%1: not a kubeconfig: %2").arg(path, QString::fromStdString(e.what()));
        return false;
    }
    if (!root.IsMap()) {
        *error = QStringLiteral("%1: not a kubeconfig (expected a mapping)").arg(path);
        return false;
    }
    const QString directory = QFileInfo(path).absolutePath();
    auto collect = [&](const char *listKey, const char *itemKey, QList<Entry> &into) {
        const YAML::Node list = root[listKey];
        if (!list || !list.IsSequence())
            return;
        for (const YAML::Node &item : list) {
            const QString name = yamlText(item, "name");
            if (name.isEmpty() || !item.IsMap())
                continue;
            bool seen = false;
            for (const Entry &e : into)
                seen = seen || e.name == name;
            if (seen)
                continue; // the first file to set a name wins
            YAML::Emitter out;
            out << item[itemKey];
            into.append(Entry { name, QByteArray(out.c_str()), directory, path });
        }
    };
    try {
        collect("clusters", "cluster", m_clusters);
        collect("users", "user", m_users);
        collect("contexts", "context", m_contexts);
    } catch (const YAML::Exception &e) {
        *error = QStringLiteral("%1: not a kubeconfig: %2").arg(path, QString::fromStdString(e.what()));
        return false;
    }
    if (m_currentContext.isEmpty())
        m_currentContext = yamlText(root, "current-context");
    m_files << path;
    return true;
}

std::optional<Kubeconfig> Kubeconfig::load(const QStringList &given, QString *error)
{
    const QStringList files = given.isEmpty() ? defaultFiles() : given;
    Kubeconfig config;
    for (const QString &path : files) {
        QFile file(path);
        if (!file.exists()) {
            if (files.size() == 1) {
                *error = QStringLiteral("%1: no such kubeconfig").arg(path);
                return std::nullopt;
            }
            continue; // kubectl skips missing files of a $KUBECONFIG list
        }
        // Regular files only, bounded, never waited for (a FIFO, /dev/zero).
        const std::optional<QByteArray> bytes = LocalFile::read(path, LocalFile::ConfigLimit, error);
        if (!bytes || !config.addFile(path, *bytes, error))
            return std::nullopt;
    }
    if (config.m_files.isEmpty()) {
        *error = QStringLiteral("no kubeconfig found (%1)").arg(files.join(QStringLiteral(", ")));
        return std::nullopt;
    }
    return config;
}

std::optional<Kubeconfig> Kubeconfig::fromYaml(const QByteArray &yaml, const QString &source, QString *error)
{
    Kubeconfig config;
    if (!config.addFile(source, yaml, error))
        return std::nullopt;
    return config;
}

QStringList Kubeconfig::contexts() const
{
    QStringList names;
    for (const Entry &e : m_contexts)
        names << e.name;
    return names;
}

static std::optional<QByteArray> dataOrFile(const YAML::Node &node, const char *dataKey, const char *fileKey,
    const QString &directory, QString *error)
{
    const QString data = yamlText(node, dataKey);
    if (!data.isEmpty())
        return QByteArray::fromBase64(data.toLatin1());
    QString path = yamlText(node, fileKey);
    if (path.isEmpty())
        return QByteArray();
    if (QFileInfo(path).isRelative())
        path = QDir(directory).filePath(path);
    QString why;
    std::optional<QByteArray> bytes = LocalFile::read(path, LocalFile::ConfigLimit, &why);
    if (!bytes)
        *error = QStringLiteral("%1 %2").arg(QString::fromLatin1(fileKey), why);
    return bytes;
}

std::optional<KubeTarget> Kubeconfig::target(const QString &requested, QString *error) const
{
    try {
        return targetUnguarded(requested, error);
    } catch (const YAML::Exception &e) {
        *error = QStringLiteral("kubeconfig %1: %2")
                     .arg(m_files.join(QStringLiteral(", ")), QString::fromStdString(e.what()));
        return std::nullopt;
    }
}

std::optional<KubeTarget> Kubeconfig::targetUnguarded(const QString &requested, QString *error) const
{
    const QString name = requested.isEmpty() ? m_currentContext : requested;
    if (name.isEmpty()) {
        *error = QStringLiteral("no context given and no current-context in %1")
                     .arg(m_files.join(QStringLiteral(", ")));
        return std::nullopt;
    }
    auto find = [](const QList<Entry> &list, const QString &n) -> const Entry * {
        for (const Entry &e : list) {
            if (e.name == n)
                return &e;
        }
        return nullptr;
    };
    const Entry *context = find(m_contexts, name);
    if (!context) {
        *error = QStringLiteral("context \"%1\" is not in %2").arg(name, m_files.join(QStringLiteral(", ")));
        return std::nullopt;
    }
    const YAML::Node ctx = YAML::Load(context->yaml.toStdString());
    const Entry *cluster = find(m_clusters, yamlText(ctx, "cluster"));
    const Entry *user = find(m_users, yamlText(ctx, "user"));
    if (!cluster) {
        *error = QStringLiteral("context \"%1\": cluster \"%2\" is not defined")
                     .arg(name, yamlText(ctx, "cluster"));
        return std::nullopt;
    }
    KubeTarget t;
    t.context = name;
    t.source = context->file;
    const YAML::Node c = YAML::Load(cluster->yaml.toStdString());
    t.server = yamlText(c, "server");
    t.tlsServerName = yamlText(c, "tls-server-name");
    if (yamlText(c, "insecure-skip-tls-verify") == QLatin1String("true")) {
        *error = QStringLiteral(
            "context \"%1\" sets insecure-skip-tls-verify; Flightdeck does not turn TLS verification "
            "off. Give the cluster's CA (certificate-authority-data) instead")
                     .arg(name);
        return std::nullopt;
    }
    const auto ca
        = dataOrFile(c, "certificate-authority-data", "certificate-authority", cluster->directory, error);
    if (!ca)
        return std::nullopt;
    t.caPem = *ca;
    if (user) {
        const YAML::Node u = YAML::Load(user->yaml.toStdString());
        const auto cert
            = dataOrFile(u, "client-certificate-data", "client-certificate", user->directory, error);
        const auto key
            = cert ? dataOrFile(u, "client-key-data", "client-key", user->directory, error) : std::nullopt;
        if (!cert || !key)
            return std::nullopt;
        t.clientCertPem = *cert;
        t.clientKeyPem = *key;
        t.token = yamlText(u, "token");
        t.tokenFile = yamlText(u, "tokenFile");
        if (!t.tokenFile.isEmpty() && QFileInfo(t.tokenFile).isRelative())
            t.tokenFile = QDir(user->directory).filePath(t.tokenFile);
        const YAML::Node exec = u["exec"];
        if (exec && exec.IsMap()) {
            KubeTarget::Exec e;
            e.apiVersion = yamlText(exec, "apiVersion");
            e.command = yamlText(exec, "command");
            if (exec["args"] && exec["args"].IsSequence()) {
                for (const YAML::Node &a : exec["args"]) {
                    if (!a.IsScalar()) {
                        *error = QStringLiteral("context \"%1\": user \"%2\": exec args must be strings")
                                     .arg(name, user->name);
                        return std::nullopt;
                    }
                    e.args << QString::fromStdString(a.as<std::string>());
                }
            }
            if (exec["env"] && exec["env"].IsSequence()) {
                for (const YAML::Node &v : exec["env"])
                    e.env.append({ yamlText(v, "name"), yamlText(v, "value") });
            }
            e.workingDirectory = user->directory;
            if (!e.command.contains(QLatin1Char('/')) || QFileInfo(e.command).isAbsolute()) {
                // a bare command is looked up on PATH; an absolute one is taken as is
            } else {
                e.command = QDir(user->directory).filePath(e.command);
            }
            t.exec = e;
        }
    }
    if (t.server.isEmpty()) {
        *error = QStringLiteral("context \"%1\": cluster \"%2\" has no server").arg(name, cluster->name);
        return std::nullopt;
    }
    return t;
}
