#include "services/monitoring/exporterserver.h"

#include <QCryptographicHash>
#include <QPointer>
#include <QSslSocket>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThreadPool>
#include <QTimer>

namespace {

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 408:
        return "Request Timeout";
    case 429:
        return "Too Many Requests";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    case 503:
        return "Service Unavailable";
    case 505:
        return "HTTP Version Not Supported";
    default:
        return "Error";
    }
}

ExporterServer::Response plain(int status, const QByteArray &text)
{
    return { status, "text/plain; charset=utf-8", text };
}

// What a password check is remembered by: a digest of the user, the hash it is checked against and the
// password (never the password itself).
QByteArray authKey(const QByteArray &user, const QByteArray &hash, const QByteArray &password)
{
    return QCryptographicHash::hash(
        QByteArray(user + '\0' + hash + '\0' + password), QCryptographicHash::Sha256);
}

// Where the blank line that ends a request's head is, and how long it is (CRLF CRLF, or bare LFs as RFC 9112
// 2.2 lets a server take them); -1 when it has not come yet.
qsizetype headEnd(const QByteArray &buffer, int *length)
{
    const qsizetype crlf = buffer.indexOf("\r\n\r\n");
    const qsizetype lf = buffer.indexOf("\n\n");
    const qsizetype mixed = buffer.indexOf("\n\r\n");
    qsizetype best = -1;
    for (const auto &[at, len] : { std::pair { crlf, 4 }, std::pair { lf, 2 }, std::pair { mixed, 3 } }) {
        if (at >= 0 && (best < 0 || at < best)) {
            best = at;
            *length = len;
        }
    }
    return best;
}

} // namespace

enum class ExporterServer::Wait
{
    Head, // for a request's head (or the TLS handshake), against its one deadline
    Busy, // its password is being checked
    Answer, // for the client to read its answer
    Idle, // kept alive, for the next request
};

struct ExporterServer::Connection
{
    QTcpSocket *socket = nullptr;
    QHostAddress peer;
    QByteArray pending; // read, not yet answered
    Wait wait = Wait::Head;
    qint64 since = 0; // when the current wait began (m_clock)
    QTimer *timer = nullptr;
    bool closing = false;
};

// Makes each connection itself (a TLS one with the configuration read for it), so that the web
// configuration's certificates are those of the moment.
class ExporterServer::Listener : public QTcpServer
{
public:
    explicit Listener(ExporterServer *owner)
        : QTcpServer(owner)
        , m_owner(owner)
    { }

protected:
    void incomingConnection(qintptr descriptor) override { m_owner->incoming(descriptor); }

private:
    ExporterServer *m_owner;
};

ExporterServer::ExporterServer(Handler handler, QObject *parent)
    : ExporterServer(std::move(handler), Limits(), parent)
{ }

ExporterServer::ExporterServer(Handler handler, const Limits &limits, QObject *parent)
    : QObject(parent)
    , m_handler(std::move(handler))
    , m_limits(limits)
    , m_server(new Listener(this))
    , m_checks(new QThreadPool(this))
{
    m_checks->setMaxThreadCount(1); // bcrypt is slow by design: one at a time, as the toolkit does
    m_clock.start();
}

ExporterServer::~ExporterServer()
{
    m_checks->clear();
    m_checks->waitForDone();
}

bool ExporterServer::setWebConfig(const QString &path, QString *error)
{
    if (!m_web.open(path, error))
        return false;
    m_tokens = m_web.last()->rateBurst;
    m_tokensAt = m_clock.elapsed();
    return true;
}

const WebConfig *ExporterServer::webConfig()
{
    const WebConfig *before = m_web.last();
    const WebConfig *now = m_web.current([this](const QString &line) { emit logged(line); });
    if (now != before)
        m_authCache.clear(); // other users, other hashes
    return now;
}

bool ExporterServer::listen(const QString &address, QString *error)
{
    QHostAddress host;
    quint16 port = 0;
    if (!parseAddress(address, &host, &port, error))
        return false;
    if (!m_server->listen(host, port)) {
        *error = QStringLiteral("cannot listen on %1: %2").arg(address, m_server->errorString());
        return false;
    }
    return true;
}

quint16 ExporterServer::port() const
{
    return m_server->serverPort();
}

QString ExporterServer::address() const
{
    const QHostAddress a = m_server->serverAddress();
    const QString host = a.protocol() == QAbstractSocket::IPv6Protocol
        ? QLatin1Char('[') + a.toString() + QLatin1Char(']')
        : a.toString();
    return host + QLatin1Char(':') + QString::number(m_server->serverPort());
}

QString ExporterServer::url() const
{
    return (m_web.usesTls() ? QStringLiteral("https://") : QStringLiteral("http://")) + address();
}

bool ExporterServer::reachableBeyondLoopback() const
{
    return !m_server->serverAddress().isLoopback();
}

qint64 ExporterServer::bufferedBytes() const
{
    qint64 total = 0;
    for (const auto &c : m_connections)
        total += c->pending.size() + c->socket->bytesAvailable();
    return total;
}

void ExporterServer::logOnce(const QString &key, const QString &line)
{
    const qint64 now = m_clock.elapsed();
    const auto it = m_logged.constFind(key);
    if (it != m_logged.cend() && now - it.value() < 60000)
        return;
    m_logged.insert(key, now);
    emit logged(line);
}

// Room for a connection from `peer`: past MaxPerClient of its own or MaxConnections in all, the connection
// (of that peer, or of anyone) that has waited longest is closed, if it has waited past evictAfterMs and is
// not having its password checked. False when none may be closed.
bool ExporterServer::admit(const QHostAddress &peer)
{
    const qint64 now = m_clock.elapsed();
    // The idle first (a scraper reconnects at its next scrape), then the longest stalled past evictAfterMs;
    // when a burst of connections left none that old, the oldest of them (never one accepted a moment ago,
    // whose request may be on its way).
    const auto oldest = [&](bool samePeer) -> QTcpSocket * {
        QTcpSocket *found = nullptr;
        qint64 since = 0;
        int foundRank = 3;
        for (const auto &c : std::as_const(m_connections)) {
            if (c->closing || c->wait == Wait::Busy || (samePeer && c->peer != peer))
                continue;
            const qint64 waited = now - c->since;
            const int rank = c->wait == Wait::Idle ? 0
                : waited >= m_limits.evictAfterMs  ? 1
                : waited >= 20                     ? 2
                                                   : 3;
            if (rank == 3)
                continue;
            if (!found || rank < foundRank || (rank == foundRank && c->since < since)) {
                found = c->socket;
                since = c->since;
                foundRank = rank;
            }
        }
        return found;
    };
    int fromPeer = 0;
    int live = 0;
    for (const auto &c : std::as_const(m_connections)) {
        if (c->closing)
            continue;
        ++live;
        fromPeer += c->peer == peer ? 1 : 0;
    }
    if (fromPeer >= m_limits.maxPerClient) {
        QTcpSocket *victim = oldest(true);
        if (!victim) {
            logOnce(QStringLiteral("peer"),
                QStringLiteral("refusing connections from %1: it holds %2 busy ones")
                    .arg(peer.toString())
                    .arg(fromPeer));
            return false;
        }
        close(victim, true);
        --live;
        logOnce(QStringLiteral("evict-peer"),
            QStringLiteral("%1 holds %2 connections (at most %3 per client): the one waiting longest closed")
                .arg(peer.toString())
                .arg(fromPeer)
                .arg(m_limits.maxPerClient));
    }
    if (live >= m_limits.maxConnections) {
        QTcpSocket *victim = oldest(false);
        if (!victim) {
            logOnce(QStringLiteral("full"),
                QStringLiteral("refusing a connection: %1 are open, none idle").arg(live));
            return false;
        }
        close(victim, true);
        logOnce(QStringLiteral("evict"),
            QStringLiteral("%1 connections open (at most %2): the one waiting longest closed")
                .arg(live)
                .arg(m_limits.maxConnections));
    }
    return true;
}

void ExporterServer::incoming(qintptr descriptor)
{
    webConfig(); // the certificates of the moment
    QTcpSocket *socket = m_web.usesTls() ? new QSslSocket(this) : new QTcpSocket(this);
    if (!socket->setSocketDescriptor(descriptor)) {
        delete socket;
        return;
    }
    QHostAddress peer = socket->peerAddress();
    if (bool v4 = false; peer.protocol() == QAbstractSocket::IPv6Protocol) {
        const quint32 ip = peer.toIPv4Address(&v4);
        if (v4)
            peer = QHostAddress(ip);
    }
    if (!admit(peer)) {
        socket->abort();
        socket->deleteLater();
        return;
    }
    // Unread bytes stay in the network once a head's worth is here: nothing a client sends and never reads
    // the answers to piles up in this process.
    socket->setReadBufferSize(m_limits.maxRequestBytes + 4096);
    auto c = std::make_shared<Connection>();
    c->socket = socket;
    c->peer = peer;
    c->timer = new QTimer(socket);
    c->timer->setSingleShot(true);
    connect(c->timer, &QTimer::timeout, this, [this, socket] { timedOut(socket); });
    m_connections.insert(socket, c);
    waitFor(*c, Wait::Head); // the handshake and the first head: one deadline
    connect(socket, &QTcpSocket::readyRead, this, [this, socket] { serve(socket); });
    connect(socket, &QTcpSocket::bytesWritten, this, [this, socket] { serve(socket); });
    connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
        m_connections.remove(socket);
        socket->deleteLater();
    });
    if (auto *tls = qobject_cast<QSslSocket *>(socket)) {
        tls->setSslConfiguration(m_web.tls());
        connect(tls, &QSslSocket::encryptedBytesWritten, this, [this, socket] { serve(socket); });
        connect(tls, &QSslSocket::encrypted, this, [this, tls] {
            QString why;
            const WebConfig *now = webConfig();
            if (now && !now->acceptsPeer(tls->peerCertificate(), &why)) {
                logOnce(QStringLiteral("peer-cert"),
                    QStringLiteral("TLS client %1 refused: %2").arg(tls->peerAddress().toString(), why));
                close(tls, true);
                return;
            }
            serve(tls);
        });
        // A failed handshake (a plain HTTP request, a client certificate not of the client CA) ends it.
        connect(tls, &QSslSocket::sslErrors, this, [this, tls](const QList<QSslError> &errors) {
            logOnce(QStringLiteral("tls"),
                QStringLiteral("TLS handshake with %1 failed: %2")
                    .arg(tls->peerAddress().toString(),
                        errors.isEmpty() ? QStringLiteral("?") : errors.first().errorString()));
        });
        tls->startServerEncryption();
    }
}

void ExporterServer::waitFor(Connection &c, Wait wait)
{
    c.wait = wait;
    c.since = m_clock.elapsed();
    switch (wait) {
    case Wait::Head:
        c.timer->start(m_limits.headTimeoutMs);
        break;
    case Wait::Busy:
        c.timer->stop();
        break;
    case Wait::Answer:
        c.timer->start(m_limits.writeTimeoutMs);
        break;
    case Wait::Idle:
        c.timer->start(m_limits.idleTimeoutMs);
        break;
    }
}

void ExporterServer::timedOut(QTcpSocket *socket)
{
    const auto it = m_connections.constFind(socket);
    if (it == m_connections.cend())
        return;
    Connection &c = **it;
    if (c.wait == Wait::Head && socket->bytesToWrite() == 0 && !c.closing
        && (!qobject_cast<QSslSocket *>(socket) || qobject_cast<QSslSocket *>(socket)->isEncrypted())) {
        // The head did not come in time: said once, then closed whether or not the client reads it.
        write(socket, plain(408, "request head not received in time\n"), false, false);
        close(socket, false);
        c.timer->start(1000);
        return;
    }
    close(socket, true); // idle, not reading its answer, or still not gone after the 408
}

void ExporterServer::close(QTcpSocket *socket, bool abort)
{
    const auto it = m_connections.constFind(socket);
    if (it != m_connections.cend())
        (*it)->closing = true;
    if (abort) {
        m_connections.remove(socket);
        socket->abort();
        socket->deleteLater();
    } else {
        socket->disconnectFromHost();
    }
}

bool ExporterServer::rateLimited()
{
    const WebConfig *web = m_web.last();
    if (!web || web->rateIntervalMs <= 0)
        return false;
    const qint64 now = m_clock.elapsed();
    m_tokens
        = qMin<double>(web->rateBurst, m_tokens + double(now - m_tokensAt) / double(web->rateIntervalMs));
    m_tokensAt = now;
    if (m_tokens < 1)
        return true;
    m_tokens -= 1;
    return false;
}

void ExporterServer::serve(QTcpSocket *socket)
{
    const auto it = m_connections.constFind(socket);
    if (it == m_connections.cend())
        return;
    const std::shared_ptr<Connection> keep
        = m_connections.value(socket); // held: close() may drop the table's
    Connection &c = *keep;
    auto *tls = qobject_cast<QSslSocket *>(socket);
    if (c.closing || c.wait == Wait::Busy || (tls && !tls->isEncrypted()))
        return;
    // One request at a time: the next is read once the last answer is written (a client that sends many and
    // reads none holds one answer here, not one per request).
    while (socket->state() == QAbstractSocket::ConnectedState && socket->bytesToWrite() == 0
        && (!tls || tls->encryptedBytesToWrite() == 0) && !c.closing) {
        if (c.wait == Wait::Answer)
            waitFor(c, Wait::Idle);
        const qint64 room = qint64(m_limits.maxRequestBytes) + 4 - c.pending.size();
        if (room > 0)
            c.pending += socket->read(room);
        if (c.pending.isEmpty())
            return;
        if (c.wait == Wait::Idle)
            waitFor(c, Wait::Head); // its first byte: the head's one deadline starts
        int endLength = 0;
        const qsizetype end = headEnd(c.pending, &endLength);
        if (end < 0 || end > m_limits.maxRequestBytes) {
            if (end > m_limits.maxRequestBytes || c.pending.size() > m_limits.maxRequestBytes) {
                write(socket, plain(431, "request too large\n"), false, false);
                close(socket, false);
            }
            return;
        }
        const std::optional<Head> head = parseHead(c.pending.left(end));
        c.pending.remove(0, end + endLength);
        if (!head) {
            write(socket, plain(400, "malformed request\n"), false, false);
            close(socket, false);
            return;
        }
        if (head->version != "HTTP/1.1" && head->version != "HTTP/1.0") {
            write(socket, plain(505, "HTTP/1.0 and HTTP/1.1 only\n"), false, false);
            close(socket, false);
            return;
        }
        const WebConfig *web = webConfig();
        if (rateLimited()) {
            write(socket, plain(429, "Too Many Requests\n"), false, head->keepAlive);
        } else if (web && !web->users.isEmpty()) {
            const std::optional<QPair<QByteArray, QByteArray>> given
                = BasicAuth::credentials(head->authorization);
            if (!given) {
                answer(socket, *head, false);
            } else {
                const QByteArray hash = web->users.value(QString::fromUtf8(given->first));
                const auto cached = m_authCache.constFind(authKey(given->first, hash, given->second));
                if (cached == m_authCache.cend()) {
                    checkPassword(socket, given->first, given->second, *head);
                    return; // answered once the check is done
                }
                answer(socket, *head, cached.value());
            }
        } else {
            answer(socket, *head, true);
        }
        if (!settle(c, head->keepAlive))
            return;
    }
}

bool ExporterServer::settle(Connection &c, bool keepAlive)
{
    if (!keepAlive) {
        close(c.socket, false);
        return false;
    }
    waitFor(c, c.socket->bytesToWrite() > 0 ? Wait::Answer : Wait::Idle);
    return true;
}

void ExporterServer::answer(QTcpSocket *socket, const Head &head, bool authorized)
{
    if (!authorized) {
        write(
            socket, plain(401, "Unauthorized\n"), false, head.keepAlive, { { "WWW-Authenticate", "Basic" } });
        return;
    }
    const Request &request = head.request;
    const bool isHead = request.method == "HEAD";
    if (request.method != "GET" && !isHead)
        write(socket, plain(405, "only GET and HEAD\n"), false, head.keepAlive, { { "Allow", "GET, HEAD" } });
    else {
        Response response = m_handler(request);
        QList<QPair<QByteArray, QByteArray>> extra;
        if (response.compressible) {
            // A HEAD's Content-Length is the GET's: compressed alike.
            extra << QPair<QByteArray, QByteArray>("Vary", "Accept-Encoding");
            if (head.acceptsGzip && !response.body.isEmpty()) {
                if (QByteArray packed = gzip(response.body); !packed.isEmpty()) {
                    response.body = std::move(packed);
                    extra << QPair<QByteArray, QByteArray>("Content-Encoding", "gzip");
                }
            }
        }
        write(socket, response, isHead, head.keepAlive, extra);
    }
}

void ExporterServer::checkPassword(
    QTcpSocket *socket, const QByteArray &user, const QByteArray &password, const Head &head)
{
    Connection &c = *m_connections.value(socket);
    waitFor(c, Wait::Busy);
    const QString name = QString::fromUtf8(user);
    const WebConfig *web = m_web.last();
    const bool known = web->users.contains(name);
    const QByteArray hash = web->users.value(name);
    const QByteArray key = authKey(user, hash, password);
    const std::weak_ptr<Connection> weak = m_connections.value(socket);
    m_checks->start([this, weak, key, hash, password, known, head] {
        // An unknown user is checked against a hash of the same cost, so that the time taken does not tell
        // which users exist.
        static const QByteArray decoy = BasicAuth::hash("flightdeck: no such user", 10);
        const bool ok = BasicAuth::verify(known ? hash : decoy, password) && known;
        QMetaObject::invokeMethod(
            this,
            [this, weak, key, ok, head] {
                if (m_authCache.size() >= 256)
                    m_authCache.clear();
                m_authCache.insert(key, ok);
                const std::shared_ptr<Connection> c = weak.lock();
                if (!c || c->closing)
                    return;
                answer(c->socket, head, ok);
                if (settle(*c, head.keepAlive))
                    serve(c->socket); // a request that came meanwhile
            },
            Qt::QueuedConnection);
    });
}

void ExporterServer::write(QTcpSocket *socket, const Response &response, bool head, bool keepAlive,
    const QList<QPair<QByteArray, QByteArray>> &extra)
{
    QByteArray out = "HTTP/1.1 " + QByteArray::number(response.status) + ' ' + reasonPhrase(response.status)
        + "\r\nContent-Type: " + response.contentType + "\r\nContent-Length: "
        + QByteArray::number(response.body.size()) + (keepAlive ? "\r\n" : "\r\nConnection: close\r\n");
    for (const auto &[name, value] : extra)
        out += name + ": " + value + "\r\n";
    if (const WebConfig *web = m_web.last()) {
        for (const auto &[name, value] : web->headers)
            out += name + ": " + value + "\r\n";
    }
    out += "\r\n";
    if (!head)
        out += response.body;
    socket->write(out);
}
