#pragma once

#include <QByteArray>
#include <QHostAddress>
#include <QObject>
#include <QString>
#include <functional>
#include <optional>

class QTcpServer;
class QTcpSocket;

// The exporter's HTTP side (`flightdeck-cli serve`): HTTP/1.1 GET and HEAD on one address, kept-alive
// connections as Prometheus scrapes with, every answer made at once by `handler` from what is kept (never a
// wait on the cloud), one request of a connection at a time (the next once the last answer is written).
// Anything else is a clear 4xx: another method 405, a request too large 431, a malformed one 400. Bodies of
// requests are not read (no endpoint takes one): a request with one ends its connection. At most
// MaxConnections at once; one idle (or not reading its answers) for IdleTimeoutMs is closed.
class ExporterServer : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ExporterServer)

public:
    struct Request
    {
        QByteArray method;
        QByteArray path; // without the query
        QByteArray query; // after '?', undecoded
    };
    struct Response
    {
        int status = 200;
        QByteArray contentType = QByteArrayLiteral("text/plain; charset=utf-8");
        QByteArray body;
    };
    using Handler = std::function<Response(const Request &)>;

    explicit ExporterServer(Handler handler, QObject *parent = nullptr);
    ~ExporterServer() override;

    // Listens on `address` ("127.0.0.1:9473", "[::1]:9473", ":9473" for every address). False, with the
    // reason in `error`, when the address is malformed or cannot be bound (taken, not this machine's).
    bool listen(const QString &address, QString *error);
    quint16 port() const;
    QString address() const; // as listened on, "127.0.0.1:9473"

    // How long a kept-alive connection may stay idle before it is closed.
    static constexpr int IdleTimeoutMs = 120 * 1000;
    static constexpr int MaxRequestBytes = 16 * 1024;
    static constexpr int MaxConnections = 64;

    static bool parseAddress(const QString &text, QHostAddress *host, quint16 *port, QString *error);

    // A request's head (its lines up to the blank one, without it), read: nullopt when it is no HTTP/1.x
    // request line. `keepAlive`: the connection may carry another request after this one's answer (HTTP/1.1
    // unless "Connection: close", HTTP/1.0 only with "keep-alive"; never after a body, which is not read).
    struct Head
    {
        Request request;
        bool keepAlive = false;
    };
    static std::optional<Head> parseHead(const QByteArray &head);

private:
    void accept();
    void serve(QTcpSocket *socket);

    Handler m_handler;
    QTcpServer *m_server;
};
