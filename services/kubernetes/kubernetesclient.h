#pragma once

#include "services/http/httpclient.h"
#include "services/local/kubeconfig.h"

#include <QDateTime>
#include <QObject>
#include <functional>
#include <optional>

// Talks to one Kubernetes API server resolved from a kubeconfig context: TLS
// against the context's CA, client certificates, bearer tokens (static, from
// a token file, or from an exec credential plugin, cached until it expires).
class KubernetesClient : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(KubernetesClient)

public:
    KubernetesClient(HttpClient *client, const KubeTarget &target, QObject *parent = nullptr);

    const KubeTarget &target() const { return m_target; }
    // `path` relative to the server ("/api/v1/nodes?limit=500").
    HttpCall *send(const QByteArray &method, const QString &path, const QByteArray &body = QByteArray(),
        const QByteArray &contentType = QByteArray());
    // Each request asks the server to close the connection after its answer: a refresh of a
    // fleet's kluster once a minute gains nothing from a connection kept open, and a thousand kept open hold
    // a thousand descriptors and their buffers.
    void setCloseAfterEach(bool close) { m_closeAfterEach = close; }
    // A watch (`path` with watch=1): its events' bytes go to `onData` as they arrive; the call finishes when
    // the stream ends (the server closed it, or `inactivityMs` passed without a byte, or it broke).
    HttpCall *stream(
        const QString &path, int inactivityMs, const std::function<void(const QByteArray &)> &onData);

    // The status of the ExecCredential a credential plugin printed on its
    // standard output; nullopt when the output is not one.
    struct ExecCredential
    {
        QString token;
        QByteArray clientCertificateData;
        QByteArray clientKeyData;
        QDateTime expirationTimestamp; // invalid when absent or unreadable
    };
    static std::optional<ExecCredential> parseExecCredential(const QByteArray &output);
    // The TLS a target's certificates and key (or an exec plugin's) make: its CA added to the system's, the
    // client certificate chain and key where both read.
    static QSslConfiguration tlsFor(
        const KubeTarget &target, const QByteArray &execCert = {}, const QByteArray &execKey = {});

private:
    bool m_closeAfterEach = false;
    HttpCall *send(const QByteArray &method, const QString &path, const QByteArray &body,
        const QByteArray &contentType, const std::function<void(ApiRequest &)> &adjust);
    void withCredentials(
        QObject *context, std::function<void(const QString &token, const Error &error)> then);
    QSslConfiguration tlsConfiguration(const QByteArray &execCert, const QByteArray &execKey) const;

    HttpClient *m_client;
    KubeTarget m_target;
    QString m_execToken;
    QByteArray m_execCert;
    QByteArray m_execKey;
    QDateTime m_execExpiry;
    bool m_execRunning = false;
    QList<QPair<QPointer<QObject>, std::function<void(const QString &, const Error &)>>> m_waiting;
};
