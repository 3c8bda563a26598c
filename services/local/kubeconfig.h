#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <optional>

// How to reach one Kubernetes API server, resolved from a kubeconfig context.
struct KubeTarget
{
    QString context;
    QString server; // https://host:port[/prefix]
    QString tlsServerName;
    QByteArray caPem; // certificate-authority(-data); empty: the system CAs
    QByteArray clientCertPem; // client-certificate(-data)
    QByteArray clientKeyPem; // client-key(-data)
    QString token; // a static bearer token
    QString tokenFile; // read at each use (it may be rotated)
    struct Exec
    {
        QString apiVersion;
        QString command;
        QStringList args;
        QList<QPair<QString, QString>> env;
        QString workingDirectory; // the kubeconfig's folder
    };
    std::optional<Exec> exec; // a client.authentication.k8s.io credential plugin
    QString source; // where it came from, for messages
};

// Kubeconfig files as kubectl reads them: $KUBECONFIG (a list, merged: the
// first file to set a name wins) or ~/.kube/config; contexts; CA, token,
// token file, client certificate and key as data or file (paths relative to
// their kubeconfig); exec plugins. Read in place, never copied.
class Kubeconfig
{
public:
    // The files kubectl would read, in order.
    static QStringList defaultFiles();

    // Loads and merges `files` (empty: defaultFiles()).
    static std::optional<Kubeconfig> load(const QStringList &files, QString *error);
    // A kubeconfig held in memory (e.g. handed out by the Kubernikus API).
    static std::optional<Kubeconfig> fromYaml(const QByteArray &yaml, const QString &source, QString *error);

    QStringList contexts() const;
    QString currentContext() const { return m_currentContext; }
    // The named context (empty: the current one), resolved.
    std::optional<KubeTarget> target(const QString &context, QString *error) const;

private:
    struct Entry
    {
        QString name;
        QByteArray yaml; // the entry's body, re-read on resolution
        QString directory; // for relative paths
        QString file;
    };
    bool addFile(const QString &path, const QByteArray &yaml, QString *error);
    std::optional<KubeTarget> targetUnguarded(const QString &context, QString *error) const;

    QList<Entry> m_clusters;
    QList<Entry> m_users;
    QList<Entry> m_contexts;
    QString m_currentContext;
    QStringList m_files;
};
