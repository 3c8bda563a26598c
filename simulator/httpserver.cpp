#include "simulator/httpserver.h"

#include <QDateTime>
#include <QLocale>
#include <QPointer>
#include <QSslServer>
#include <QSslSocket>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimeZone>
#include <QTimer>
#include <QUrl>

namespace {

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 201:
        return "Created";
    case 202:
        return "Accepted";
    case 204:
        return "No Content";
    case 300:
        return "Multiple Choices";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 406:
        return "Not Acceptable";
    case 409:
        return "Conflict";
    case 410:
        return "Gone";
    case 412:
        return "Precondition Failed";
    case 413:
        return "Request Entity Too Large";
    case 415:
        return "Unsupported Media Type";
    case 422:
        return "Unprocessable Entity";
    case 429:
        return "Too Many Requests";
    case 500:
        return "Internal Server Error";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    default:
        return "Status";
    }
}

constexpr qsizetype MaxHeaderBytes = 64 * 1024;
constexpr qsizetype MaxBodyBytes = 16 * 1024 * 1024;

} // namespace

QByteArray httpDate(const QDateTime &when)
{
    return QLocale::c().toString(when.toUTC(), QStringLiteral("ddd, dd MMM yyyy hh:mm:ss 'GMT'")).toLatin1();
}

QByteArray HttpResponse::headerValue(const QByteArray &name) const
{
    for (const auto &h : headers) {
        if (h.first.compare(name, Qt::CaseInsensitive) == 0)
            return h.second;
    }
    return QByteArray();
}

HttpResponse HttpResponse::json(int status, const QByteArray &body)
{
    HttpResponse r;
    r.status = status;
    r.body = body;
    r.header("Content-Type", "application/json");
    return r;
}

HttpResponse HttpResponse::empty(int status)
{
    HttpResponse r;
    r.status = status;
    return r;
}

HttpServer::HttpServer(const QString &name, Handler handler, QObject *parent)
    : QObject(parent)
    , m_name(name)
    , m_handler(std::move(handler))
{ }

HttpServer::~HttpServer() = default;

bool HttpServer::listen(
    const QHostAddress &address, quint16 port, const std::optional<QSslConfiguration> &tls)
{
    if (tls) {
        auto *server = new QSslServer(this);
        server->setSslConfiguration(*tls);
        server->setHandshakeTimeout(10000);
        connect(server, &QSslServer::pendingConnectionAvailable, this, [this, server] {
            while (QTcpSocket *s = server->nextPendingConnection())
                accept(s);
        });
        connect(server, &QSslServer::sslErrors, this, [](QSslSocket *socket, const QList<QSslError> &) {
            // Client certificates are optional (bearer tokens work too); an
            // unverifiable one is simply not trusted below.
            socket->ignoreSslErrors();
        });
        m_server = server;
        m_tls = true;
    } else {
        m_server = new QTcpServer(this);
        connect(m_server, &QTcpServer::pendingConnectionAvailable, this, [this] {
            while (QTcpSocket *s = m_server->nextPendingConnection())
                accept(s);
        });
    }
    if (!m_server->listen(address, port)) {
        m_error = m_server->errorString();
        return false;
    }
    return true;
}

quint16 HttpServer::port() const
{
    return m_server ? m_server->serverPort() : 0;
}

QString HttpServer::baseUrl() const
{
    return QStringLiteral("%1://127.0.0.1:%2")
        .arg(m_tls ? QStringLiteral("https") : QStringLiteral("http"))
        .arg(port());
}

void HttpServer::accept(QTcpSocket *socket)
{
    m_buffers.insert(socket, QByteArray());
    connect(socket, &QTcpSocket::readyRead, this, [this, socket] { readFrom(socket); });
    connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
        m_buffers.remove(socket);
        socket->deleteLater();
    });
    if (socket->bytesAvailable() > 0)
        readFrom(socket);
}

static bool decodeChunked(const QByteArray &data, qsizetype start, QByteArray *body, qsizetype *end)
{
    qsizetype pos = start;
    body->clear();
    for (;;) {
        const qsizetype lineEnd = data.indexOf("\r\n", pos);
        if (lineEnd < 0)
            return false;
        bool ok = false;
        const qsizetype size = data.mid(pos, lineEnd - pos).split(';').first().trimmed().toLongLong(&ok, 16);
        if (!ok)
            return false;
        pos = lineEnd + 2;
        if (size == 0) {
            const qsizetype trailerEnd = data.indexOf("\r\n", pos);
            if (trailerEnd < 0)
                return false;
            *end = trailerEnd + 2;
            return true;
        }
        if (data.size() < pos + size + 2)
            return false;
        body->append(data.mid(pos, size));
        pos += size + 2;
    }
}

void HttpServer::readFrom(QTcpSocket *socket)
{
    QByteArray &buffer = m_buffers[socket];
    buffer.append(socket->readAll());
    for (;;) {
        const qsizetype headerEnd = buffer.indexOf("\r\n\r\n");
        if (headerEnd < 0) {
            if (buffer.size() > MaxHeaderBytes)
                socket->abort();
            return;
        }
        const QList<QByteArray> lines = buffer.left(headerEnd).split('\n');
        const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
        if (requestLine.size() < 3) {
            write(socket, HttpResponse::json(400, R"({"message": "malformed request line"})"), true);
            return;
        }
        HttpRequest request;
        request.method = requestLine.at(0);
        request.rawTarget = requestLine.at(1);
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray line = lines.at(i).trimmed();
            const qsizetype colon = line.indexOf(':');
            if (colon > 0)
                request.headers.insert(line.left(colon).trimmed().toLower(), line.mid(colon + 1).trimmed());
        }
        qsizetype consumed = headerEnd + 4;
        if (request.header("transfer-encoding").toLower().contains("chunked")) {
            qsizetype end = 0;
            if (!decodeChunked(buffer, consumed, &request.body, &end))
                return; // wait for more
            consumed = end;
        } else {
            const qsizetype length = request.header("content-length").toLongLong();
            if (length < 0 || length > MaxBodyBytes) {
                write(socket, HttpResponse::json(413, R"({"message": "request body too large"})"), true);
                return;
            }
            if (buffer.size() < consumed + length)
                return; // wait for more
            request.body = buffer.mid(consumed, length);
            consumed += length;
        }
        buffer.remove(0, consumed);

        const QUrl url = QUrl::fromEncoded(QByteArray("http://h") + request.rawTarget);
        request.path = url.path(QUrl::FullyDecoded);
        request.query = QUrlQuery(url);
        if (auto *ssl = qobject_cast<QSslSocket *>(socket)) {
            request.tls = true;
            request.peerCertificate = ssl->peerCertificate();
            request.peerVerified = !request.peerCertificate.isNull() && ssl->sslHandshakeErrors().isEmpty();
        }
        ++m_requests;
        HttpResponse response = m_handler(request);
        respond(socket, request, response);
        if (!m_buffers.contains(socket))
            return; // closed while answering
    }
}

void HttpServer::respond(QTcpSocket *socket, const HttpRequest &request, const HttpResponse &response)
{
    const bool close = request.header("connection").toLower() == "close"
        || response.delivery != HttpResponse::Delivery::Whole;
    if (response.delayMs <= 0) {
        write(socket, response, close);
        return;
    }
    // Answered late: in flight until then (what a client's concurrency is measured by).
    m_maxInFlight = qMax(m_maxInFlight, ++m_inFlight);
    QPointer<QTcpSocket> guard(socket);
    QTimer::singleShot(response.delayMs, this, [this, guard, response, close] {
        --m_inFlight;
        if (guard && m_buffers.contains(guard.data()))
            write(guard.data(), response, close);
    });
}

void HttpServer::write(QTcpSocket *socket, const HttpResponse &response, bool close)
{
    if (response.delivery == HttpResponse::Delivery::Dropped) {
        socket->abort();
        return;
    }
    QByteArray out
        = "HTTP/1.1 " + QByteArray::number(response.status) + ' ' + reasonPhrase(response.status) + "\r\n";
    bool hasDate = false;
    for (const auto &h : response.headers) {
        out += h.first + ": " + h.second + "\r\n";
        hasDate = hasDate || h.first.compare("Date", Qt::CaseInsensitive) == 0;
    }
    if (!hasDate)
        out += "Date: " + httpDate(QDateTime::currentDateTimeUtc()) + "\r\n";
    if (response.stream) {
        out += "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
        m_bytesSent += out.size();
        socket->write(out);
        response.stream(new HttpStream(socket));
        return;
    }
    if (response.status != 204 && response.status != 304)
        out += "Content-Length: " + QByteArray::number(response.body.size()) + "\r\n";
    out += close ? "Connection: close\r\n" : "Connection: keep-alive\r\n";
    out += "\r\n";
    m_bytesSent += out.size() + response.body.size();
    if (response.delivery == HttpResponse::Delivery::Trickle) {
        socket->write(out); // the head at once, then the body a byte at a time
        trickle(socket, response.body, response.trickleMs);
        return;
    }
    if (response.delivery == HttpResponse::Delivery::Truncated)
        out += response.body.left(response.body.size() / 2);
    else
        out += response.body;
    socket->write(out);
    if (close)
        socket->disconnectFromHost();
}

HttpStream::HttpStream(QTcpSocket *socket)
    : QObject(socket)
    , m_socket(socket)
{ }

void HttpStream::write(const QByteArray &chunk)
{
    if (!chunk.isEmpty())
        m_socket->write(QByteArray::number(chunk.size(), 16) + "\r\n" + chunk + "\r\n");
}

void HttpStream::endAfter(int seconds)
{
    if (seconds <= 0)
        return;
    QPointer<HttpStream> guard(this);
    QTimer::singleShot(std::chrono::seconds(qMin(seconds, 24 * 3600)), this, [guard] {
        if (guard)
            guard->end();
    });
}

void HttpStream::end()
{
    m_socket->write("0\r\n\r\n");
    m_socket->disconnectFromHost();
    deleteLater();
}

void HttpStream::drop()
{
    m_socket->abort();
    deleteLater();
}

void HttpServer::trickle(QTcpSocket *socket, const QByteArray &bytes, int intervalMs)
{
    // One byte now, the rest later: every read times out never, and the answer is never complete in time.
    if (bytes.isEmpty()) {
        socket->disconnectFromHost();
        return;
    }
    socket->write(bytes.left(1));
    QPointer<QTcpSocket> guard(socket);
    QTimer::singleShot(intervalMs, this, [this, guard, rest = bytes.mid(1), intervalMs] {
        if (guard && m_buffers.contains(guard.data()))
            trickle(guard.data(), rest, intervalMs);
    });
}
