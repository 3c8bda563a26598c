#pragma once

#include <QList>
#include <QSslCertificate>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>

// How to reach one OpenStack cloud, as engineers already keep it:
// `clouds.yaml` (+ `secure.yaml`) in the standard places, or `OS_*` variables.
// The files are read in place, never copied.
class PolicyProfile;

struct CloudConfig
{
    QString name; // the clouds.yaml key, or "envvars"
    QString authType = QStringLiteral("password"); // password, v3password, v3applicationcredential
    QString authUrl;
    QString username;
    QString userId;
    QString userDomainName;
    QString userDomainId;
    QString projectName;
    QString projectId;
    QString projectDomainName;
    QString projectDomainId;
    QString applicationCredentialId;
    QString applicationCredentialName;
    QString regionName;
    QString interface = QStringLiteral("public");
    QString caCertFile; // `cacert`: an extra CA to trust
    bool verify = true; // `verify: false` is refused: TLS is never silently ignored
    QString source; // the file(s) it came from, for messages
    // The cloud's policy files as named (--policy, a connection's "Policy files"), read: what its requests
    // are judged against before they are sent (diagnosis.md §8); null: the clouds' default policies.
    std::shared_ptr<const PolicyProfile> policy;

    // Secrets: present only when the files or the environment hold them.
    QString password;
    QString applicationCredentialSecret;

    bool isApplicationCredential() const { return authType.contains(QLatin1String("applicationcredential")); }
    // A key naming this credential in the keychain: "<kind>/<cloud>/<user or credential id>".
    QString secretKey() const;
    // The certificates of a CA bundle (cacert, OS_CACERT): read as every named file is (regular files only,
    // bounded); none when it cannot be read.
    static QList<QSslCertificate> caCertificates(const QString &path);
};

class CloudConfigLoader
{
public:
    // The files in the standard places, in the order openstacksdk searches:
    // $OS_CLIENT_CONFIG_FILE, ./clouds.yaml, $XDG_CONFIG_HOME/openstack (~/.config/openstack),
    // /etc/openstack; secure.yaml in the same places ($OS_CLIENT_SECURE_FILE first).
    static QStringList cloudsFiles();
    static QStringList secureFiles();

    // The names of the clouds in clouds.yaml, plus "envvars" when OS_AUTH_URL is set.
    static QStringList cloudNames(QString *error = nullptr);

    // The named cloud (empty: $OS_CLOUD, else the OS_* variables), with
    // secure.yaml merged in and OS_* variables applied. nullopt and `error` when
    // it cannot be found or is unusable.
    static std::optional<CloudConfig> load(const QString &name, QString *error);
};
