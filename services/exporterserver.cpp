#include "services/exporterserver.h"

#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

namespace {

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 431:
        return "Request Header Fields Too Large";
    case 503:
        return "Service Unavailable";
    default:
        return "Error";
    }
}

void write(QTcpSocket *socket, const ExporterServer::Response &response, bool head, bool keepAlive)
{
    QByteArray out = "HTTP/1.1 " + QByteArray::number(response.status) + ' ' + reasonPhrase(response.status)
        + "\r\nContent-Type: " + response.contentType + "\r\nContent-Length: "
        + QByteArray::number(response.body.size()) + (keepAlive ? "\r\n" : "\r\nConnection: close\r\n");
    if (response.status == 405)
        out += "Allow: GET, HEAD\r\n";
    out += "\r\n";
    if (!head)
        out += response.body;
    socket->write(out);
}

} // namespace

ExporterServer::ExporterServer(Handler handler, QObject *parent)
    : QObject(parent)
    , m_handler(std::move(handler))
    , m_server(new QTcpServer(this))
{
    connect(m_server, &QTcpServer::newConnection, this, &ExporterServer::accept);
}

ExporterServer::~ExporterServer() = default;

bool ExporterServer::parseAddress(const QString &text, QHostAddress *host, quint16 *port, QString *error)
{
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    if (colon < 0) {
        *error = QStringLiteral("\"%1\" is not ADDRESS:PORT (e.g. 127.0.0.1:9473, :9473)").arg(text);
        return false;
    }
    QString hostText = text.left(colon);
    bool ok = false;
    const uint p = text.mid(colon + 1).toUInt(&ok);
    if (!ok || p > 65535) {
        *error = QStringLiteral("\"%1\": the port is not a number from 0 (any free one) to 65535").arg(text);
        return false;
    }
    if (hostText.startsWith(QLatin1Char('[')) && hostText.endsWith(QLatin1Char(']')))
        hostText = hostText.mid(1, hostText.size() - 2);
    if (hostText.isEmpty())
        *host = QHostAddress(QHostAddress::Any);
    else if (hostText == QLatin1String("localhost"))
        *host = QHostAddress(QHostAddress::LocalHost);
    else if (!host->setAddress(hostText)) {
        *error = QStringLiteral("\"%1\": \"%2\" is not an IP address").arg(text, hostText);
        return false;
    }
    *port = quint16(p);
    return true;
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

std::optional<ExporterServer::Head> ExporterServer::parseHead(const QByteArray &text)
{
    const QList<QByteArray> lines = text.split('\n');
    const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
    // The origin form only ("/metrics?x"): a path is never empty (RFC 9112 3.2.1).
    if (requestLine.size() != 3 || requestLine[0].isEmpty() || !requestLine[1].startsWith('/')
        || !requestLine[2].startsWith("HTTP/1."))
        return std::nullopt;
    Head head;
    head.keepAlive = requestLine[2] == "HTTP/1.1";
    bool body = false;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines[i].trimmed().toLower();
        if (line.startsWith("connection:")) {
            const QByteArray value = line.mid(11).trimmed();
            head.keepAlive = value == "keep-alive" || (head.keepAlive && value != "close");
        }
        // No endpoint takes a body: one sent is not read, so the connection ends with this answer (its bytes
        // would be taken for the next request).
        if ((line.startsWith("content-length:") && line.mid(15).trimmed() != "0")
            || line.startsWith("transfer-encoding:"))
            body = true;
    }
    head.keepAlive = head.keepAlive && !body;
    head.request.method = requestLine[0];
    const QByteArray &target = requestLine[1];
    const qsizetype q = target.indexOf('?');
    head.request.path = q < 0 ? target : target.left(q);
    head.request.query = q < 0 ? QByteArray() : target.mid(q + 1);
    return head;
}

void ExporterServer::accept()
{
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        if (m_server->findChildren<QTcpSocket *>(QString(), Qt::FindDirectChildrenOnly).size()
            > MaxConnections) {
            socket->abort(); // a scraper or two is what it serves; more is someone else
            socket->deleteLater();
            continue;
        }
        auto *idle = new QTimer(socket);
        idle->setSingleShot(true);
        idle->start(IdleTimeoutMs);
        // Idle, or not reading what it asked for: closed at once (a graceful close would wait for the
        // answers it does not read).
        connect(idle, &QTimer::timeout, socket, &QTcpSocket::abort);
        const auto go = [this, socket, idle] {
            idle->start(IdleTimeoutMs);
            serve(socket);
        };
        connect(socket, &QTcpSocket::readyRead, this, go);
        connect(socket, &QTcpSocket::bytesWritten, this, go); // the next request once the answer is out
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
    }
}

void ExporterServer::serve(QTcpSocket *socket)
{
    // One request at a time: the next is read once the last answer is written (a client that sends many and
    // reads none holds one answer here, not one per request).
    while (socket->state() == QAbstractSocket::ConnectedState && socket->bytesToWrite() == 0) {
        QByteArray buffer = socket->property("pending").toByteArray();
        buffer += socket->read(MaxRequestBytes + 4 - buffer.size());
        const qsizetype end = buffer.indexOf("\r\n\r\n");
        if (end < 0 || end > MaxRequestBytes) {
            if (end > MaxRequestBytes || buffer.size() > MaxRequestBytes) {
                write(socket, { 431, "text/plain; charset=utf-8", "request too large\n" }, false, false);
                socket->disconnectFromHost();
                return;
            }
            socket->setProperty("pending", buffer);
            return;
        }
        socket->setProperty("pending", buffer.mid(end + 4));
        const std::optional<Head> head = parseHead(buffer.left(end));
        if (!head) {
            write(socket, { 400, "text/plain; charset=utf-8", "malformed request\n" }, false, false);
            socket->disconnectFromHost();
            return;
        }
        const Request &request = head->request;
        const bool keepAlive = head->keepAlive;
        const bool isHead = request.method == "HEAD";
        if (request.method != "GET" && !isHead)
            write(socket, { 405, "text/plain; charset=utf-8", "only GET and HEAD\n" }, false, keepAlive);
        else
            write(socket, m_handler(request), isHead, keepAlive);
        if (!keepAlive) {
            socket->disconnectFromHost();
            return;
        }
    }
}
