#pragma once

#include "services/monitoring/webconfigsource.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QHash>
#include <QHostAddress>
#include <QObject>
#include <QString>
#include <functional>
#include <memory>
#include <optional>

class QTcpServer;
class QTcpSocket;
class QThreadPool;

// The exporter's HTTP side (`flightdeck-cli serve`): HTTP/1.1 GET and HEAD on one address, kept-alive
// connections as Prometheus scrapes with, every answer made at once by `handler` from what is kept (never a
// wait on the cloud), one request of a connection at a time (the next once the last answer is written).
// Anything else is a clear 4xx: another method 405, a request too large 431, a malformed one 400, a head
// not complete in time 408, another HTTP version 505. Bodies of requests are not read (no endpoint takes
// one): a request with one ends its connection.
//
// Safe to face a network (as node_exporter is, through the exporter toolkit):
// - with a web configuration file (webconfig.h): TLS, client certificates, basic authentication checked off
//   the serving thread, the toolkit's headers and rate limit; the file and its certificates re-read when
//   they change, so certificates rotate without a restart;
// - slow clients cannot lock scrapes out: a request head (a TLS handshake included) has one deadline from its
//   first byte, never reset per byte; a client address holds at most MaxPerClient connections and all of
//   them at most MaxConnections; a new connection past either bound closes the one that has waited longest
//   (idle, or stalled in its head or its answer) rather than be refused;
// - memory is bounded: a connection's unread bytes are capped (what a client pipelines and never reads
//   waits in the network, not here).
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
        // Sent gzipped (Content-Encoding: gzip) to a client whose Accept-Encoding takes gzip, as Prometheus'
        // does; always with Vary: Accept-Encoding.
        bool compressible = false;
    };
    using Handler = std::function<Response(const Request &)>;

    struct Limits
    {
        int maxConnections = 64;
        int maxPerClient = 16; // per client address
        int headTimeoutMs = 10 * 1000; // a request's head (and a TLS handshake) from its first byte
        int idleTimeoutMs = 120 * 1000; // a kept-alive connection between requests
        int writeTimeoutMs = 60 * 1000; // an answer the client does not read
        int maxRequestBytes = 16 * 1024; // a request's head
        int evictAfterMs = 250; // a connection waiting longer may be closed to admit a new one
    };

    explicit ExporterServer(Handler handler, QObject *parent = nullptr);
    ExporterServer(Handler handler, const Limits &limits, QObject *parent = nullptr);
    ~ExporterServer() override;

    // Before listen: TLS and authentication from the web configuration file (webconfig.h). False with
    // `error` when it cannot be read or is invalid; the exporter must not start then.
    bool setWebConfig(const QString &path, QString *error);
    bool usesTls() const { return m_web.usesTls(); }
    bool authenticates() const { return m_web.last() && !m_web.last()->users.isEmpty(); }

    // Listens on `address` ("127.0.0.1:9473", "[::1]:9473", ":9473" for every address). False, with the
    // reason in `error`, when the address is malformed or cannot be bound (taken, not this machine's).
    bool listen(const QString &address, QString *error);
    quint16 port() const;
    QString address() const; // as listened on, "127.0.0.1:9473"
    QString url() const; // "https://127.0.0.1:9473" or "http://…"
    // Whether others than this machine can connect (every address, or one that is not loopback).
    bool reachableBeyondLoopback() const;

    static bool parseAddress(const QString &text, QHostAddress *host, quint16 *port, QString *error);

    // A request's head (its lines up to the blank one, without it; lines may end in CRLF or a bare LF), read:
    // nullopt when it is no HTTP request line. `keepAlive`: the connection may carry another request after
    // this one's answer (HTTP/1.1 unless "Connection: close", HTTP/1.0 only with "keep-alive"; never after
    // a body, which is not read). `version` "HTTP/1.1" as given: only 1.0 and 1.1 are served.
    struct Head
    {
        Request request;
        QByteArray version;
        QByteArray authorization; // the Authorization header's value
        bool acceptsGzip = false; // its Accept-Encoding takes gzip (acceptsGzip())
        bool keepAlive = false;
    };
    static std::optional<Head> parseHead(const QByteArray &head);
    // Whether an Accept-Encoding value (the values of every such header, joined by commas) takes gzip
    // (RFC 9110 12.5.3): "gzip" or "x-gzip" with a weight above 0, else "*" with one; "gzip;q=0" refuses it
    // whatever "*" says. Names and parameters in any case, spaces anywhere between.
    static bool acceptsGzip(const QByteArray &acceptEncoding);
    // `data` compressed in the gzip format (RFC 1952) with zlib; empty when zlib fails.
    static QByteArray gzip(const QByteArray &data);

    // What the connections hold now: how many, and the bytes of requests read and not yet answered.
    int connectionCount() const { return int(m_connections.size()); }
    qint64 bufferedBytes() const;

signals:
    void logged(const QString &line);

private:
    class Listener;
    struct Connection;
    enum class Wait;

    void incoming(qintptr descriptor);
    bool admit(const QHostAddress &peer);
    void serve(QTcpSocket *socket);
    // The handler's answer (405 for another method), or 401 with the challenge when not `authorized`.
    void answer(QTcpSocket *socket, const Head &head, bool authorized);
    // After an answer: the connection closed (false) or waiting for the next request or for its answer to
    // be read.
    bool settle(Connection &c, bool keepAlive);
    void checkPassword(
        QTcpSocket *socket, const QByteArray &user, const QByteArray &password, const Head &head);
    void waitFor(Connection &c, Wait wait);
    void timedOut(QTcpSocket *socket);
    void close(QTcpSocket *socket, bool abort);
    void write(QTcpSocket *socket, const Response &response, bool head, bool keepAlive,
        const QList<QPair<QByteArray, QByteArray>> &extra = {});
    const WebConfig *webConfig(); // re-read when its files changed
    bool rateLimited();
    void logOnce(const QString &key, const QString &line);

    Handler m_handler;
    Limits m_limits;
    Listener *m_server;
    QHash<QTcpSocket *, std::shared_ptr<Connection>> m_connections;
    QElapsedTimer m_clock;

    WebConfigSource m_web;
    QHash<QByteArray, bool> m_authCache; // digest of user, hash and password → whether it matched
    QThreadPool *m_checks; // bcrypt, one at a time, off the serving thread
    double m_tokens = 0;
    qint64 m_tokensAt = 0;
    QHash<QString, qint64> m_logged; // a repeated warning at most once a minute
};
