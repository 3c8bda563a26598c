#include "services/local/singleinstance.h"

#include "services/local/localfile.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLocalServer>
#include <QLocalSocket>
#include <QLockFile>
#include <QPointer>
#include <QStandardPaths>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

constexpr qint64 MaxLine = 8192; // a link is a line; more is not one

// The process at the other end of a local socket runs as this user.
bool peerIsThisUser(qintptr descriptor)
{
    ucred credentials {};
    socklen_t length = sizeof credentials;
    if (::getsockopt(int(descriptor), SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0)
        return false;
    return credentials.uid == ::getuid();
}

} // namespace

bool SingleInstance::isStaleSocket(const QString &name, QString *why)
{
    struct stat st = {};
    if (::lstat(QFile::encodeName(name).constData(), &st) != 0)
        return true; // gone meanwhile: nothing to remove
    if (!S_ISSOCK(st.st_mode)) { // a link to one included
        *why = QStringLiteral("%1 is not a socket: left as it is (remove it to let the console take links)")
                   .arg(name);
        return false;
    }
    if (st.st_uid != ::getuid()) {
        *why = QStringLiteral("%1 is another user's socket: left as it is").arg(name);
        return false;
    }
    return true;
}

SingleInstance::SingleInstance(QObject *parent)
    : QObject(parent)
    , m_server(new QLocalServer(this))
{
    m_server->setSocketOptions(QLocalServer::UserAccessOption);
}

SingleInstance::~SingleInstance() = default;

QString SingleInstance::socketName()
{
    // The user's runtime folder (0700: no other user can make or reach a socket in it); without one, a folder
    // of this user's own in the temporary folder (checked: never one another user could have made first).
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    const QString folder = !runtime.isEmpty()
        ? runtime
        : QDir(QDir::tempPath()).filePath(QStringLiteral("flightdeck-%1").arg(::getuid()));
    const QString given = qEnvironmentVariable("FLIGHTDECK_INSTANCE");
    if (!given.isEmpty())
        return given.contains(QLatin1Char('/')) ? given : QDir(folder).filePath(given);
    return QDir(folder).filePath(QStringLiteral("flightdeck.sock"));
}

bool SingleInstance::checkFolder(const QString &socket, QString *why)
{
    const QString folder = QFileInfo(socket).absolutePath();
    // Made where it is missing (the fallback folder), then checked: this user's, a real folder, nobody
    // else may write to it. Another user's folder could hold a socket of theirs that a link is handed to.
    const bool ok = qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR") && !QFileInfo::exists(folder)
        ? LocalFile::makePrivateFolder(folder, why)
        : LocalFile::isPrivateFolder(folder, why);
    if (!ok && why)
        *why = QStringLiteral("the folder of the console's socket %1 is refused: %2").arg(folder, *why);
    return ok;
}

SingleInstance::HandOver SingleInstance::handOver(const QString &link, int timeoutMs, QString *error)
{
    const auto fail = [error](HandOver how, const QString &why) {
        if (error)
            *error = why;
        return how;
    };
    if (link.toUtf8().size() >= MaxLine)
        return fail(HandOver::Refused, QStringLiteral("the link is longer than %1 bytes").arg(MaxLine - 1));
    QString why;
    if (!checkFolder(socketName(), &why))
        return fail(HandOver::NoConsole, why);
    QDeadlineTimer deadline(timeoutMs);
    QLocalSocket socket;
    socket.connectToServer(socketName());
    // At start-up, before any window exists: waiting here holds up nothing a person sees.
    if (!socket.waitForConnected(int(deadline.remainingTime())))
        return fail(HandOver::NoConsole, socket.errorString());
    if (!peerIsThisUser(socket.socketDescriptor()))
        return fail(HandOver::NoConsole, QStringLiteral("%1 is another user's").arg(socketName()));
    socket.write(link.toUtf8() + '\n');
    if (!socket.waitForBytesWritten(int(deadline.remainingTime())))
        return fail(HandOver::NoConsole, socket.errorString());
    while (!socket.canReadLine()) {
        if (deadline.hasExpired() || !socket.waitForReadyRead(int(deadline.remainingTime())))
            return fail(HandOver::NoConsole,
                QStringLiteral("the running console did not answer: %1").arg(socket.errorString()));
    }
    const QString answer = QString::fromUtf8(socket.readLine(MaxLine)).trimmed();
    if (answer == QLatin1String("ok"))
        return HandOver::Opened;
    if (answer.startsWith(QLatin1String("error: ")))
        return fail(HandOver::Refused, answer.mid(7));
    return fail(
        HandOver::NoConsole, QStringLiteral("the running console answered \"%1\"").arg(answer.left(200)));
}

bool SingleInstance::listen(Handler handler, QString *error)
{
    const QString name = socketName();
    if (!checkFolder(name, error))
        return false;
    // Two consoles starting at once: one finds out whether a console listens, clears a stale socket and
    // listens at a time (the lock is held until it knows; never waited for).
    m_lock = std::make_unique<QLockFile>(
        (name.contains(QLatin1Char('/')) ? name : QDir::temp().filePath(name)) + QStringLiteral(".lock"));
    m_lock->setStaleLockTime(10000);
    if (!m_lock->tryLock(0)) {
        m_lock.reset();
        if (error)
            *error = QStringLiteral("another console is starting");
        return false;
    }
    m_handler = std::move(handler);
    connect(m_server, &QLocalServer::newConnection, this, [this] {
        while (QLocalSocket *s = m_server->nextPendingConnection())
            serve(s);
    });
    // Looked at before listening: Qt makes the socket aside and renames it into place, which would replace
    // whatever is at the name (a file of someone's, the socket of a console that listens).
    QString why;
    if (!QFileInfo(name).isSymLink() && !QFileInfo::exists(name)) {
        const bool ok = m_server->listen(name);
        m_lock.reset();
        if (!ok && error)
            *error = m_server->errorString();
        return ok;
    }
    if (!isStaleSocket(name, &why)) { // a file, another user's socket: left as it is
        m_lock.reset();
        m_problem = why;
        if (error)
            *error = why;
        return false;
    }
    // A socket of this user's is there: a console that answers (this one then takes no links), or one a
    // crashed console left (removed, and listened on). Asked without waiting: the window is up meanwhile.
    auto *probe = new QLocalSocket(this);
    connect(probe, &QLocalSocket::connected, this, [this, probe] {
        probe->abort();
        probe->deleteLater();
        m_lock.reset();
    });
    connect(probe, &QLocalSocket::errorOccurred, this, [this, probe, name] {
        probe->deleteLater();
        QString why;
        if (isStaleSocket(name, &why)) { // still ours (checked again: it may have changed meanwhile)
            QLocalServer::removeServer(name);
            m_server->listen(name);
        } else {
            m_problem = why;
            emit problem(why);
        }
        m_lock.reset();
    });
    probe->connectToServer(name);
    return true;
}

void SingleInstance::serve(QLocalSocket *s)
{
    connect(s, &QLocalSocket::disconnected, s, &QObject::deleteLater);
    if (!peerIsThisUser(s->socketDescriptor())) {
        s->abort();
        return;
    }
    QPointer<QLocalSocket> socket(s);
    connect(s, &QLocalSocket::readyRead, this, [this, socket] {
        if (!socket)
            return;
        if (!socket->canReadLine()) {
            if (socket->bytesAvailable() > MaxLine)
                socket->abort();
            return;
        }
        const QByteArray line = socket->readLine(MaxLine);
        QString why;
        if (!line.endsWith('\n')) { // longer than a link may be: refused whole, never cut and opened
            why = QStringLiteral("the link is longer than %1 bytes").arg(MaxLine - 1);
        } else {
            const QString link = QString::fromUtf8(line).trimmed();
            why = m_handler ? m_handler(link) : QStringLiteral("the console takes no links");
        }
        if (!socket)
            return;
        QString answer = why.isEmpty() ? QStringLiteral("ok") : QStringLiteral("error: ") + why;
        answer.replace(QLatin1Char('\n'), QLatin1Char(' '));
        socket->write(answer.toUtf8().left(MaxLine - 1) + '\n');
        socket->flush();
        socket->disconnectFromServer();
    });
}
