#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QHash>
#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QPair>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QString>
#include <QUrlQuery>
#include <functional>
#include <optional>

class QTcpServer;
class QTcpSocket;
class HttpStream;

struct HttpRequest
{
    QByteArray method;
    QString path; // decoded path, without the query
    QByteArray rawTarget; // the request target as sent
    QUrlQuery query;
    QHash<QByteArray, QByteArray> headers; // names in lower case
    QByteArray body;
    QSslCertificate peerCertificate; // the client certificate, over TLS
    bool peerVerified = false; // it is signed by a CA the server trusts
    bool tls = false;

    QByteArray header(const QByteArray &name) const { return headers.value(name.toLower()); }
    QString queryValue(const QString &key) const { return query.queryItemValue(key, QUrl::FullyDecoded); }
};

struct HttpResponse
{
    // What happens to the bytes: sent whole, cut off after half the body
    // (the connection then closes), the connection dropped with no answer, or
    // trickled one byte every `trickleMs` (a server that never quite stalls).
    enum class Delivery
    {
        Whole,
        Truncated,
        Dropped,
        Trickle
    };

    int status = 200;
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;
    Delivery delivery = Delivery::Whole;
    int delayMs = 0;
    int trickleMs = 0;
    // A body written over time (a Kubernetes watch): the head goes out with chunked transfer coding, then
    // `stream` is called with the open stream, which writes the chunks and ends it.
    std::function<void(HttpStream *)> stream;

    HttpResponse &header(const QByteArray &name, const QByteArray &value)
    {
        headers.append({ name, value });
        return *this;
    }
    QByteArray headerValue(const QByteArray &name) const;

    static HttpResponse json(int status, const QByteArray &body);
    static HttpResponse empty(int status);
};

// An HTTP date, as a Date header gives it: "Mon, 23 Nov 2026 05:41:35 GMT".
QByteArray httpDate(const QDateTime &when);

// The open body of a streamed response. It lives as long as its connection: hold it by QPointer.
class HttpStream : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HttpStream)

public:
    explicit HttpStream(QTcpSocket *socket);

    void write(const QByteArray &chunk); // one chunk, sent now
    void end(); // the last chunk; the connection then closes
    // Ends it after `seconds` (a watch's timeoutSeconds), unless it is gone by then; 0 or less: never.
    void endAfter(int seconds);
    void drop(); // the connection reset, mid-stream (no last chunk)

private:
    QTcpSocket *m_socket;
};

// A small HTTP/1.1 server (keep-alive, Content-Length and chunked request
// bodies) over TCP or TLS on loopback, built for the simulated cloud: it gives
// full control over every byte, which fault injection needs.
class HttpServer : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HttpServer)

public:
    using Handler = std::function<HttpResponse(const HttpRequest &)>;

    HttpServer(const QString &name, Handler handler, QObject *parent = nullptr);
    ~HttpServer() override;

    // Listens on `address`:`port` (0: chosen by the OS); over TLS when a configuration is given.
    bool listen(const QHostAddress &address, quint16 port,
        const std::optional<QSslConfiguration> &tls = std::nullopt);
    quint16 port() const;
    QString name() const { return m_name; }
    QString errorString() const { return m_error; }
    bool isTls() const { return m_tls; }
    QString baseUrl() const; // "http://127.0.0.1:<port>"

    qint64 requestCount() const { return m_requests; }
    // The bytes of the answers written (head and body, before TLS; a watch's stream only its head).
    qint64 bytesSent() const { return m_bytesSent; }
    // The most requests answered late (a latency fault) that were waiting at once.
    int maxInFlight() const { return m_maxInFlight; }

private:
    void accept(QTcpSocket *socket);
    void readFrom(QTcpSocket *socket);
    void respond(QTcpSocket *socket, const HttpRequest &request, const HttpResponse &response);
    void trickle(QTcpSocket *socket, const QByteArray &bytes, int intervalMs);
    void write(QTcpSocket *socket, const HttpResponse &response, bool close);

    QString m_name;
    Handler m_handler;
    QTcpServer *m_server = nullptr;
    bool m_tls = false;
    QString m_error;
    qint64 m_requests = 0;
    qint64 m_bytesSent = 0;
    int m_inFlight = 0;
    int m_maxInFlight = 0;
    QHash<QTcpSocket *, QByteArray> m_buffers;
};
