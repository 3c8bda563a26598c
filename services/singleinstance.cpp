#include "services/singleinstance.h"

#include <QLocalServer>
#include <QLocalSocket>
#include <QPointer>
#include <unistd.h>

namespace {

constexpr qint64 MaxLink = 8192; // a link is a line; more is not one

} // namespace

SingleInstance::SingleInstance(QObject *parent)
    : QObject(parent)
    , m_server(new QLocalServer(this))
{
    m_server->setSocketOptions(QLocalServer::UserAccessOption);
}

SingleInstance::~SingleInstance() = default;

QString SingleInstance::socketName()
{
    const QString given = qEnvironmentVariable("FLIGHTDECK_INSTANCE");
    return given.isEmpty() ? QStringLiteral("flightdeck-%1").arg(::getuid()) : given;
}

bool SingleInstance::handOver(const QString &link, int timeoutMs, QString *error)
{
    QLocalSocket socket;
    socket.connectToServer(socketName());
    // At start-up, before any window exists: waiting here holds up nothing a person sees.
    if (!socket.waitForConnected(timeoutMs)) {
        if (error)
            *error = socket.errorString();
        return false;
    }
    socket.write(link.toUtf8() + '\n');
    if (!socket.waitForBytesWritten(timeoutMs) || !socket.waitForReadyRead(timeoutMs)) {
        if (error)
            *error = QStringLiteral("the running console did not answer: %1").arg(socket.errorString());
        return false;
    }
    const QByteArray answer = socket.readLine(64).trimmed();
    if (answer != "ok") {
        if (error)
            *error = QStringLiteral("the running console answered \"%1\"").arg(QString::fromUtf8(answer));
        return false;
    }
    return true;
}

bool SingleInstance::listen(QString *error)
{
    const QString name = socketName();
    // One that answers is a running console; a socket file left by one that crashed is removed.
    {
        QLocalSocket probe;
        probe.connectToServer(name);
        if (probe.waitForConnected(500)) {
            probe.abort();
            if (error)
                *error = QStringLiteral("another console listens on %1").arg(name);
            return false;
        }
    }
    QLocalServer::removeServer(name);
    if (!m_server->listen(name)) {
        if (error)
            *error = m_server->errorString();
        return false;
    }
    connect(m_server, &QLocalServer::newConnection, this, [this] {
        while (QLocalSocket *s = m_server->nextPendingConnection()) {
            QPointer<QLocalSocket> socket(s);
            connect(s, &QLocalSocket::disconnected, s, &QObject::deleteLater);
            connect(s, &QLocalSocket::readyRead, this, [this, socket] {
                if (!socket)
                    return;
                if (!socket->canReadLine()) {
                    if (socket->bytesAvailable() > MaxLink)
                        socket->abort();
                    return;
                }
                const QString link = QString::fromUtf8(socket->readLine(MaxLink)).trimmed();
                socket->write("ok\n");
                socket->flush();
                socket->disconnectFromServer();
                emit linkReceived(link);
            });
        }
    });
    return true;
}
