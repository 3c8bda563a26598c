#include "services/kubernetes/kubernetesclient.h"

#include "core/apiparser.h"
#include "services/local/localfile.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>
#include <QProcess>
#include <QSslCertificate>
#include <QSslKey>
#include <QTimer>

KubernetesClient::KubernetesClient(HttpClient *client, const KubeTarget &target, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_target(target)
{ }

QSslConfiguration KubernetesClient::tlsConfiguration(
    const QByteArray &execCert, const QByteArray &execKey) const
{
    return tlsFor(m_target, execCert, execKey);
}

QSslConfiguration KubernetesClient::tlsFor(
    const KubeTarget &target, const QByteArray &execCert, const QByteArray &execKey)
{
    return tlsConfigurationFor(target.caPem, execCert.isEmpty() ? target.clientCertPem : execCert,
        execKey.isEmpty() ? target.clientKeyPem : execKey);
}

void KubernetesClient::withCredentials(
    QObject *context, std::function<void(const QString &, const Error &)> then)
{
    // Every outcome is delivered later, never before the caller has connected.
    then = [context, then](const QString &token, const Error &error) {
        QMetaObject::invokeMethod(
            context, [then, token, error] { then(token, error); }, Qt::QueuedConnection);
    };
    if (!m_target.exec) {
        QString token = m_target.token;
        if (!m_target.tokenFile.isEmpty()) {
            // A regular file, bounded, never waited for: a FIFO named here once hung the event loop (and
            // with it every deadline).
            QString why;
            const std::optional<QByteArray> bytes
                = LocalFile::read(m_target.tokenFile, LocalFile::ConfigLimit, &why);
            if (!bytes) {
                Error e;
                e.kind = Error::Kind::Config;
                e.service = QStringLiteral("kubernetes");
                e.detail = QStringLiteral("tokenFile %1").arg(why);
                then(QString(), e);
                return;
            }
            token = QString::fromUtf8(*bytes).trimmed();
        }
        then(token, Error());
        return;
    }
    if ((!m_execToken.isEmpty() || !m_execCert.isEmpty())
        && (!m_execExpiry.isValid() || QDateTime::currentDateTimeUtc().secsTo(m_execExpiry) > 30)) {
        then(m_execToken, Error());
        return;
    }
    m_waiting.append({ QPointer<QObject>(context), std::move(then) });
    if (m_execRunning)
        return;
    m_execRunning = true;
    const KubeTarget::Exec exec = *m_target.exec;
    auto *process = new QProcess(this);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const auto &v : exec.env)
        env.insert(v.first, v.second);
    const QString apiVersion
        = exec.apiVersion.isEmpty() ? QStringLiteral("client.authentication.k8s.io/v1") : exec.apiVersion;
    const QJsonObject info { { QStringLiteral("apiVersion"), apiVersion },
        { QStringLiteral("kind"), QStringLiteral("ExecCredential") },
        { QStringLiteral("spec"), QJsonObject { { QStringLiteral("interactive"), false } } } };
    env.insert(QStringLiteral("KUBERNETES_EXEC_INFO"),
        QString::fromUtf8(QJsonDocument(info).toJson(QJsonDocument::Compact)));
    process->setProcessEnvironment(env);
    process->setWorkingDirectory(exec.workingDirectory);
    auto finish = [this, process](const QString &token, const Error &error) {
        m_execRunning = false;
        process->deleteLater();
        const auto waiting = std::exchange(m_waiting, {});
        for (const auto &w : waiting) {
            if (w.first)
                w.second(token, error);
        }
    };
    connect(process, &QProcess::errorOccurred, this, [process, finish, exec](QProcess::ProcessError e) {
        if (e != QProcess::FailedToStart)
            return;
        Error error;
        error.kind = Error::Kind::Auth;
        error.service = QStringLiteral("kubernetes");
        error.detail = QStringLiteral("the credential plugin %1 could not be started: %2")
                           .arg(exec.command, process->errorString());
        finish(QString(), error);
    });
    connect(process, &QProcess::finished, this,
        [this, process, finish, exec](int code, QProcess::ExitStatus status) {
            Error error;
            error.service = QStringLiteral("kubernetes");
            if (status != QProcess::NormalExit || code != 0) {
                error.kind = Error::Kind::Auth;
                error.detail
                    = QStringLiteral("the credential plugin %1 failed (exit %2): %3")
                          .arg(exec.command)
                          .arg(code)
                          .arg(QString::fromUtf8(process->readAllStandardError()).trimmed().left(300));
                finish(QString(), error);
                return;
            }
            const std::optional<ExecCredential> cred = parseExecCredential(process->readAllStandardOutput());
            if (!cred) {
                error.kind = Error::Kind::Auth;
                error.detail
                    = QStringLiteral("the credential plugin %1 printed no ExecCredential").arg(exec.command);
                finish(QString(), error);
                return;
            }
            m_execToken = cred->token;
            m_execCert = cred->clientCertificateData;
            m_execKey = cred->clientKeyData;
            m_execExpiry = cred->expirationTimestamp;
            finish(m_execToken, Error());
        });
    process->start(exec.command, exec.args);
    process->closeWriteChannel(); // interactiveMode Never: nothing to read
    auto *deadline = new QTimer(process);
    deadline->setSingleShot(true);
    connect(deadline, &QTimer::timeout, this, [process, finish, exec] {
        Error error;
        error.kind = Error::Kind::Auth;
        error.service = QStringLiteral("kubernetes");
        error.detail
            = QStringLiteral("the credential plugin %1 did not finish within 60 s").arg(exec.command);
        process->disconnect();
        process->kill();
        finish(QString(), error);
    });
    deadline->start(60000);
}

std::optional<KubernetesClient::ExecCredential> KubernetesClient::parseExecCredential(
    const QByteArray &output)
{
    const QJsonObject cred = QJsonDocument::fromJson(output).object();
    const QJsonObject st = cred.value(QStringLiteral("status")).toObject();
    if (cred.value(QStringLiteral("kind")).toString() != QLatin1String("ExecCredential") || st.isEmpty())
        return std::nullopt;
    ExecCredential c;
    c.token = st.value(QStringLiteral("token")).toString();
    c.clientCertificateData = st.value(QStringLiteral("clientCertificateData")).toString().toUtf8();
    c.clientKeyData = st.value(QStringLiteral("clientKeyData")).toString().toUtf8();
    c.expirationTimestamp
        = ApiParser::parseTimestamp(st.value(QStringLiteral("expirationTimestamp")).toString());
    return c;
}

HttpCall *KubernetesClient::send(
    const QByteArray &method, const QString &path, const QByteArray &body, const QByteArray &contentType)
{
    return send(method, path, body, contentType, nullptr);
}

HttpCall *KubernetesClient::stream(
    const QString &path, int inactivityMs, const std::function<void(const QByteArray &)> &onData)
{
    return send("GET", path, QByteArray(), QByteArray(), [inactivityMs, onData](ApiRequest &request) {
        request.timeoutMs = inactivityMs;
        request.onData = onData;
    });
}

HttpCall *KubernetesClient::send(const QByteArray &method, const QString &path, const QByteArray &body,
    const QByteArray &contentType, const std::function<void(ApiRequest &)> &adjust)
{
    auto *outer = new HttpCall(this);
    withCredentials(outer,
        [this, outer, method, path, body, contentType, adjust](const QString &token, const Error &error) {
            if (error.isError()) {
                ApiResponse r;
                r.error = error;
                outer->finish(r);
                return;
            }
            ApiRequest request;
            request.service = QStringLiteral("kubernetes");
            request.method = method;
            QString server = m_target.server;
            while (server.endsWith(QLatin1Char('/')))
                server.chop(1);
            request.url = QUrl(server + path);
            request.body = body;
            if (!token.isEmpty())
                request.headers.append({ "Authorization", "Bearer " + token.toUtf8() });
            if (!contentType.isEmpty())
                request.headers.append({ "Content-Type", contentType });
            request.tls = tlsConfiguration(m_execCert, m_execKey);
            if (m_closeAfterEach)
                request.headers.append({ QByteArrayLiteral("Connection"), QByteArrayLiteral("close") });
            if (adjust)
                adjust(request);
            HttpCall *inner = m_client->send(request);
            const QPointer<HttpCall> guard(inner);
            outer->setCanceller([guard] {
                if (guard)
                    guard->cancel();
            });
            connect(inner, &HttpCall::finished, outer, [this, outer](const ApiResponse &r) {
                if (r.status == 401 && m_target.exec) {
                    // Refused: what the credential plugin gave is no longer good; ask it again next time.
                    m_execToken.clear();
                    m_execCert.clear();
                    m_execKey.clear();
                }
                outer->finish(r);
            });
        });
    return outer;
}
