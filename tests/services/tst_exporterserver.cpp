#include "core/finding.h"
#include "core/findingtraits.h"
#include "core/incidents.h"
#include "services/monitoring/exporterserver.h"
#include "services/monitoring/runbooks.h"
#include "services/monitoring/webconfig.h"
#include "tests/common/testcerts.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QSslKey>
#include <QSslSocket>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <zlib.h>

// The exporter's HTTP side over a real socket on loopback, as Prometheus and less polite clients talk to it:
// kept-alive requests, requests split across packets, several sent at once, HEAD, the 4xx answers, a body
// that ends the connection, gzip for whoever accepts it, and the runbooks built in.
class TestExporterServer : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void keptAliveRequestsInTurn();
    void requestInPiecesAndSeveralAtOnce();
    void headHasNoBody();
    void clearErrors();
    void bodyEndsTheConnection();
    void acceptEncodingRead_data();
    void acceptEncodingRead();
    void gzippedWhenAccepted();
    void addressesParsed();
    void runbooksForEveryKindAndRule();
    void slowClientsCannotLockScrapesOut();
    void requestHeadHasOneDeadline();
    void pipelinedRequestsNeverReadStayBounded();
    void bareLineFeedsAndOtherVersions();
    void webConfigRefusedWithItsKey_data();
    void webConfigRefusedWithItsKey();
    void webConfigFilesBesideIt();
    void tlsBasicAuthHeadersAndRotation();
    void clientCertificates();

private:
    // Sends `bytes`, reads until `answers` whole answers came (or the connection closed): their text.
    QByteArray exchange(QTcpSocket &socket, const QByteArray &bytes, int answers);
    ExporterServer *m_server = nullptr;
    QList<QByteArray> m_paths; // the paths asked, in order
};

void TestExporterServer::init()
{
    m_paths.clear();
    m_server = new ExporterServer([this](const ExporterServer::Request &r) -> ExporterServer::Response {
        m_paths << r.path;
        if (r.path == "/metrics")
            return { 200, "text/plain; version=0.0.4", "up 1\n" };
        if (r.path == "/compressible") {
            QByteArray text;
            for (int i = 0; i < 2000; ++i)
                text += "flightdeck_up{kluster_name=\"k" + QByteArray::number(i) + "\"} 1\n";
            return { 200, "text/plain; version=0.0.4", text, true };
        }
        return { 404, "text/plain", "not found\n" };
    });
    QString error;
    QVERIFY2(m_server->listen(QStringLiteral("127.0.0.1:0"), &error), qPrintable(error));
    QVERIFY(m_server->port() != 0);
}

void TestExporterServer::cleanup()
{
    delete m_server;
    m_server = nullptr;
}

QByteArray TestExporterServer::exchange(QTcpSocket &socket, const QByteArray &bytes, int answers)
{
    if (socket.state() != QAbstractSocket::ConnectedState) {
        socket.connectToHost(QHostAddress::LocalHost, m_server->port());
        if (!socket.waitForConnected(5000))
            return "not connected";
    }
    socket.write(bytes);
    if (answers == 0) { // nothing expected: what came within a moment
        QTest::qWait(200);
        return socket.readAll();
    }
    QByteArray got;
    QElapsedTimer timer;
    timer.start();
    while (got.count("HTTP/1.1 ") < answers || !got.endsWith('\n')) {
        if (timer.elapsed() > 5000 || socket.state() != QAbstractSocket::ConnectedState)
            break;
        QTest::qWait(10); // the server answers from this thread's event loop
        got += socket.readAll();
    }
    return got + socket.readAll();
}

void TestExporterServer::keptAliveRequestsInTurn()
{
    QTcpSocket socket;
    for (int i = 0; i < 3; ++i) {
        const QByteArray answer = exchange(socket, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 1);
        QVERIFY2(answer.startsWith("HTTP/1.1 200 OK\r\n"), answer.constData());
        QVERIFY(answer.contains("Content-Length: 5\r\n"));
        QVERIFY(answer.endsWith("\r\n\r\nup 1\n"));
        QVERIFY(!answer.contains("Connection: close"));
        QCOMPARE(socket.state(), QAbstractSocket::ConnectedState);
    }
    QCOMPARE(m_paths.size(), 3);
}

void TestExporterServer::requestInPiecesAndSeveralAtOnce()
{
    QTcpSocket socket;
    QCOMPARE(exchange(socket, "GET /met", 0), QByteArray());
    const QByteArray answer = exchange(socket,
        "rics?x=1 HTTP/1.1\r\nHost: x\r\n\r\nGET /a HTTP/1.1\r\n\r\nGET /metrics HTTP/1.1\r\nConnection: "
        "close\r\n\r\n",
        3);
    QCOMPARE(answer.count("HTTP/1.1 "), 3);
    QCOMPARE(m_paths, (QList<QByteArray> { "/metrics", "/a", "/metrics" })); // in order, the query apart
    QVERIFY(answer.indexOf("200 OK") < answer.indexOf("404 Not Found"));
    QVERIFY(answer.contains("Connection: close"));
    QTRY_COMPARE(socket.state(), QAbstractSocket::UnconnectedState);
}

void TestExporterServer::headHasNoBody()
{
    QTcpSocket socket;
    const QByteArray answer = exchange(socket, "HEAD /metrics HTTP/1.0\r\n\r\n", 1);
    QVERIFY(answer.startsWith("HTTP/1.1 200 OK\r\n"));
    QVERIFY(answer.contains("Content-Length: 5\r\n"));
    QVERIFY(answer.endsWith("\r\n\r\n")); // the length said, no body sent
    QTRY_COMPARE(socket.state(), QAbstractSocket::UnconnectedState); // HTTP/1.0: not kept alive
}

void TestExporterServer::clearErrors()
{
    {
        QTcpSocket socket;
        const QByteArray answer = exchange(socket, "DELETE /metrics HTTP/1.1\r\n\r\n", 1);
        QVERIFY(answer.startsWith("HTTP/1.1 405 Method Not Allowed\r\n"));
        QVERIFY(answer.contains("Allow: GET, HEAD\r\n"));
    }
    {
        QTcpSocket socket;
        QVERIFY(exchange(socket, "nonsense\r\n\r\n", 1).startsWith("HTTP/1.1 400 Bad Request\r\n"));
        QTRY_COMPARE(socket.state(), QAbstractSocket::UnconnectedState);
    }
    {
        // A target that is no path (found by the fuzzer: "?metrics").
        QTcpSocket socket;
        QVERIFY(
            exchange(socket, "GET ?metrics HTTP/1.1\r\n\r\n", 1).startsWith("HTTP/1.1 400 Bad Request\r\n"));
        QTRY_COMPARE(socket.state(), QAbstractSocket::UnconnectedState);
    }
    {
        QTcpSocket socket;
        const QByteArray huge = "GET /metrics HTTP/1.1\r\nX-Big: "
            + QByteArray(ExporterServer::Limits().maxRequestBytes + 10, 'a') + "\r\n\r\n";
        QVERIFY(exchange(socket, huge, 1).startsWith("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
        QTRY_COMPARE(socket.state(), QAbstractSocket::UnconnectedState);
    }
    QVERIFY(m_paths.isEmpty()); // none of them reached the handler
}

void TestExporterServer::bodyEndsTheConnection()
{
    // A body is never read: the answer closes the connection, so its bytes are never taken for a request.
    QTcpSocket socket;
    const QByteArray answer = exchange(
        socket, "POST /metrics HTTP/1.1\r\nContent-Length: 1\r\n\r\nxGET /metrics HTTP/1.1\r\n\r\n", 1);
    QVERIFY(answer.startsWith("HTTP/1.1 405"));
    QVERIFY(answer.contains("Connection: close"));
    QTRY_COMPARE(socket.state(), QAbstractSocket::UnconnectedState);
    QVERIFY(m_paths.isEmpty());
}

void TestExporterServer::acceptEncodingRead_data()
{
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<bool>("gzip");
    QTest::newRow("none") << QByteArray() << false;
    QTest::newRow("gzip") << QByteArray("gzip") << true;
    QTest::newRow("browser") << QByteArray("gzip, deflate, br, zstd") << true;
    QTest::newRow("case and spaces") << QByteArray("  Deflate ,GZip ; Q = 0.5 ") << true;
    QTest::newRow("x-gzip") << QByteArray("x-gzip") << true;
    QTest::newRow("refused") << QByteArray("gzip;q=0") << false;
    QTest::newRow("refused 0.000") << QByteArray("gzip; q=0.000, identity") << false;
    QTest::newRow("refused whatever * says") << QByteArray("*, gzip;q=0") << false;
    QTest::newRow("any") << QByteArray("*") << true;
    QTest::newRow("any weighted") << QByteArray("identity;q=1, *;q=0.1") << true;
    QTest::newRow("any refused") << QByteArray("*;q=0") << false;
    QTest::newRow("others only") << QByteArray("deflate, br") << false;
    QTest::newRow("identity") << QByteArray("identity") << false;
    QTest::newRow("a weight that is no number") << QByteArray("gzip;q=high") << false;
    QTest::newRow("other parameters") << QByteArray("gzip;level=9") << true;
    QTest::newRow("a list") << QByteArray("br, gzip;q=0.2") << true;
    QTest::newRow("a name that only starts so") << QByteArray("gzipped") << false;
}

void TestExporterServer::acceptEncodingRead()
{
    QFETCH(QByteArray, value);
    QFETCH(bool, gzip);
    QCOMPARE(ExporterServer::acceptsGzip(value), gzip);
    // Read off a request's head, in any case, over one header or several.
    const std::optional<ExporterServer::Head> head
        = ExporterServer::parseHead("GET /metrics HTTP/1.1\r\nHost: x\r\nACCEPT-encoding:" + value + "\r\n");
    QVERIFY(head);
    QCOMPARE(head->acceptsGzip, gzip);
    QCOMPARE(
        ExporterServer::parseHead("GET / HTTP/1.1\r\nAccept-Encoding: br\r\nAccept-Encoding: gzip;q=0.2\r\n")
            ->acceptsGzip,
        true);
}

// An answer marked compressible goes gzipped to a client that accepts gzip (one that inflates to the very
// bytes), plain to one that does not, each with Vary; a HEAD says the gzipped length; others stay plain.
void TestExporterServer::gzippedWhenAccepted()
{
    const auto split = [](const QByteArray &answer, QByteArray *head) {
        const qsizetype end = answer.indexOf("\r\n\r\n");
        *head = answer.left(end);
        return answer.mid(end + 4);
    };
    QTcpSocket socket;
    QByteArray head;
    const QByteArray plain
        = split(exchange(socket, "GET /compressible HTTP/1.1\r\nHost: x\r\n\r\n", 1), &head);
    QVERIFY2(
        head.contains("\r\nVary: Accept-Encoding") && !head.contains("Content-Encoding"), head.constData());
    QVERIFY(plain.startsWith("flightdeck_up{"));
    QVERIFY(head.contains("Content-Length: " + QByteArray::number(plain.size())));

    const QByteArray gzipped = split(
        exchange(socket, "GET /compressible HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n", 1), &head);
    QVERIFY2(head.contains("\r\nContent-Encoding: gzip") && head.contains("\r\nVary: Accept-Encoding"),
        head.constData());
    QVERIFY(head.contains("Content-Length: " + QByteArray::number(gzipped.size())));
    QVERIFY(gzipped.startsWith("\x1f\x8b")); // gzip's magic
    QVERIFY(gzipped.size() < plain.size() / 4);
    QByteArray inflated(plain.size() + 16, '\0');
    z_stream z = {};
    QCOMPARE(inflateInit2(&z, 15 + 16), Z_OK);
    z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(gzipped.constData()));
    z.avail_in = uInt(gzipped.size());
    z.next_out = reinterpret_cast<Bytef *>(inflated.data());
    z.avail_out = uInt(inflated.size());
    QCOMPARE(inflate(&z, Z_FINISH), Z_STREAM_END); // whole, its CRC and length checked
    inflated.truncate(qsizetype(z.total_out));
    inflateEnd(&z);
    QCOMPARE(inflated, plain);
    QCOMPARE(ExporterServer::gzip(plain), gzipped); // the same bytes every time

    split(exchange(socket, "HEAD /compressible HTTP/1.1\r\nAccept-Encoding: gzip\r\n\r\n", 1), &head);
    QVERIFY(head.contains("Content-Length: " + QByteArray::number(gzipped.size())));
    split(exchange(socket, "GET /compressible HTTP/1.1\r\nAccept-Encoding: gzip;q=0\r\n\r\n", 1), &head);
    QVERIFY(!head.contains("Content-Encoding"));
    // Not marked compressible: plain whatever is accepted, and nothing varies.
    split(exchange(socket, "GET /metrics HTTP/1.1\r\nAccept-Encoding: gzip\r\n\r\n", 1), &head);
    QVERIFY(!head.contains("Content-Encoding") && !head.contains("Vary"));
}

void TestExporterServer::addressesParsed()
{
    QHostAddress host;
    quint16 port = 0;
    QString error;
    QVERIFY(ExporterServer::parseAddress(QStringLiteral(":9473"), &host, &port, &error));
    QCOMPARE(host, QHostAddress(QHostAddress::Any));
    QCOMPARE(port, quint16(9473));
    QVERIFY(ExporterServer::parseAddress(QStringLiteral("[::1]:80"), &host, &port, &error));
    QCOMPARE(host, QHostAddress(QHostAddress::LocalHostIPv6));
    QVERIFY(!ExporterServer::parseAddress(QStringLiteral("9473"), &host, &port, &error));
    QVERIFY(error.contains(QStringLiteral("ADDRESS:PORT")));
    QVERIFY(!ExporterServer::parseAddress(QStringLiteral("127.0.0.1:70000"), &host, &port, &error));
    QVERIFY(!ExporterServer::parseAddress(QStringLiteral("example.org:80"), &host, &port, &error));
    // Taken: a clear reason, nothing listening.
    ExporterServer second([](const ExporterServer::Request &) { return ExporterServer::Response {}; });
    QVERIFY(!second.listen(QStringLiteral("127.0.0.1:%1").arg(m_server->port()), &error));
    QVERIFY2(error.contains(QStringLiteral("cannot listen")), qPrintable(error));
}

void TestExporterServer::runbooksForEveryKindAndRule()
{
    const QStringList names = Runbooks::names();
    for (int k = 0; k < FindingKindCount; ++k)
        QVERIFY2(
            names.contains(findingKindName(FindingKind(k))), qPrintable(findingKindName(FindingKind(k))));
    for (const IncidentRule rule : incidentRules())
        QVERIFY2(names.contains(incidentRuleName(rule)), qPrintable(incidentRuleName(rule)));
    for (const char *alert : { "kluster-unchecked", "router-near-limit", "exporter-down" })
        QVERIFY(names.contains(QLatin1String(alert)));
    for (const QString &name : names) {
        const std::optional<QByteArray> text = Runbooks::markdown(name);
        QVERIFY(text && text->startsWith("# " + name.toUtf8() + '\n'));
        for (const char *section : { "## What it means", "## Confirm by hand", "## How Flightdeck repairs it",
                 "## When the repair is refused" })
            QVERIFY2(text->contains(section), qPrintable(name + QLatin1Char(' ') + QLatin1String(section)));
    }
    QVERIFY(!Runbooks::markdown(QStringLiteral("../README")));
    QVERIFY(!Runbooks::markdown(QStringLiteral("README"))); // the index is no runbook
    QVERIFY(!Runbooks::markdown(QStringLiteral("nosuch")));
}

namespace {

// What came on `socket` until `answers` whole answers (or it closed, or 5 s): the server runs in this thread.
QByteArray readAnswers(QAbstractSocket &socket, int answers, int ms = 5000)
{
    QByteArray got;
    QElapsedTimer timer;
    timer.start();
    while (got.count("HTTP/1.1 ") < answers || !(got.endsWith('\n') || got.endsWith("\r\n\r\n"))) {
        if (timer.elapsed() > ms || socket.state() != QAbstractSocket::ConnectedState)
            break;
        QTest::qWait(10);
        got += socket.readAll();
    }
    return got + socket.readAll();
}

ExporterServer::Response metricsHandler(const ExporterServer::Request &r)
{
    if (r.path == "/metrics")
        return { 200, "text/plain; version=0.0.4", "up 1\n" };
    if (r.path == "/big")
        return { 200, "text/plain", QByteArray(256 * 1024, 'x') };
    return { 404, "text/plain", "not found\n" };
}

// Until the TLS handshake is done or has failed (5 s at most), the server running meanwhile.
void waitForHandshake(QSslSocket &socket)
{
    QElapsedTimer timer;
    timer.start();
    while (!socket.isEncrypted() && socket.state() != QAbstractSocket::UnconnectedState
        && timer.elapsed() < 5000)
        QTest::qWait(10);
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

} // namespace

// 8 slow connections (a head begun and never finished, or nothing sent) hold every slot of a small server
// and 4 is all one address may hold: a fresh scrape from the same address still gets in (the one waiting
// longest is closed for it), every time. Before, 64 such connections refused every scrape for 120 s.
void TestExporterServer::slowClientsCannotLockScrapesOut()
{
    ExporterServer::Limits limits;
    limits.maxConnections = 8;
    limits.maxPerClient = 4;
    limits.headTimeoutMs = 30000; // long: the deadline is not what frees the slots here
    limits.evictAfterMs = 100;
    ExporterServer server(metricsHandler, limits);
    QString error;
    QVERIFY2(server.listen(QStringLiteral("127.0.0.1:0"), &error), qPrintable(error));
    QList<QTcpSocket *> slow;
    for (int i = 0; i < 12; ++i) {
        auto *s = new QTcpSocket(this);
        s->connectToHost(QHostAddress::LocalHost, server.port());
        QVERIFY(s->waitForConnected(5000));
        if (i % 2 == 0)
            s->write("GET /met"); // a head begun
        slow << s;
        QTest::qWait(20);
    }
    QTRY_VERIFY(server.connectionCount() <= limits.maxPerClient);
    QTest::qWait(150);
    for (int round = 0; round < 3; ++round) {
        QTcpSocket scrape;
        scrape.connectToHost(QHostAddress::LocalHost, server.port());
        QVERIFY(scrape.waitForConnected(5000));
        scrape.write("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
        const QByteArray answer = readAnswers(scrape, 1);
        QVERIFY2(answer.startsWith("HTTP/1.1 200 OK"), answer.constData());
        QVERIFY(server.connectionCount() <= limits.maxPerClient);
        QTest::qWait(150);
    }
    qDeleteAll(slow);
}

// One byte every 100 ms does not keep a head open: its deadline runs from its first byte (408, closed).
void TestExporterServer::requestHeadHasOneDeadline()
{
    ExporterServer::Limits limits;
    limits.headTimeoutMs = 700;
    ExporterServer server(metricsHandler, limits);
    QString error;
    QVERIFY(server.listen(QStringLiteral("127.0.0.1:0"), &error));
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, server.port());
    QVERIFY(socket.waitForConnected(5000));
    const QByteArray request
        = "GET /metrics HTTP/1.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    QByteArray got;
    QElapsedTimer timer;
    timer.start();
    for (qsizetype i = 0; i < request.size() && socket.state() == QAbstractSocket::ConnectedState; ++i) {
        socket.write(request.mid(i, 1));
        QTest::qWait(100);
        got += socket.readAll();
    }
    got += readAnswers(socket, 1, 2000);
    QVERIFY2(got.startsWith("HTTP/1.1 408 Request Timeout\r\n"), got.constData());
    QTRY_COMPARE(socket.state(), QAbstractSocket::UnconnectedState);
    QVERIFY2(timer.elapsed() < 3000, qPrintable(QString::number(timer.elapsed())));
}

// 8 MB of pipelined requests whose answers (256 KiB each) are never read: what the server holds of them stays
// within a head's worth per connection; the rest waits in the network. Before, all of it was read in.
void TestExporterServer::pipelinedRequestsNeverReadStayBounded()
{
    ExporterServer server(metricsHandler);
    QString error;
    QVERIFY(server.listen(QStringLiteral("127.0.0.1:0"), &error));
    QTcpSocket socket;
    socket.setReadBufferSize(1); // reads nothing
    socket.connectToHost(QHostAddress::LocalHost, server.port());
    QVERIFY(socket.waitForConnected(5000));
    QByteArray many;
    for (int i = 0; i < 8 * 1024 * 1024 / 24; ++i)
        many += "GET /big HTTP/1.1\r\n\r\n";
    socket.write(many);
    qint64 most = 0;
    for (int i = 0; i < 100; ++i) {
        QTest::qWait(20);
        most = qMax(most, server.bufferedBytes());
    }
    const qint64 bound = 2 * (ExporterServer::Limits().maxRequestBytes + 4096 + 4);
    QVERIFY2(most <= bound, qPrintable(QStringLiteral("%1 bytes held").arg(most)));
    QCOMPARE(server.connectionCount(), 1);
}

void TestExporterServer::bareLineFeedsAndOtherVersions()
{
    {
        QTcpSocket socket; // bare LFs: answered at once, not after the idle cut
        const QByteArray answer = exchange(socket, "GET /metrics HTTP/1.1\nHost: x\n\n", 1);
        QVERIFY2(answer.startsWith("HTTP/1.1 200 OK\r\n"), answer.constData());
    }
    for (const QByteArray version :
        { QByteArray("HTTP/1.9"), QByteArray("HTTP/2.0"), QByteArray("HTTP/0.9") }) {
        QTcpSocket socket;
        const QByteArray answer = exchange(socket, "GET /metrics " + version + "\r\n\r\n", 1);
        QVERIFY2(answer.startsWith("HTTP/1.1 505 HTTP Version Not Supported\r\n"), answer.constData());
        QTRY_COMPARE(socket.state(), QAbstractSocket::UnconnectedState);
    }
    QCOMPARE(m_paths, QList<QByteArray> { "/metrics" });
}

void TestExporterServer::webConfigRefusedWithItsKey_data()
{
    QTest::addColumn<QByteArray>("yaml");
    QTest::addColumn<QString>("expected");
    QTest::newRow("unknown top key") << QByteArray("tls_config:\n  cert_file: a\n")
                                     << "tls_config: unknown key";
    QTest::newRow("unknown tls key") << QByteArray(
        "tls_server_config:\n  cert_file: a\n  key_file: b\n  certfile: c\n")
                                     << "tls_server_config.certfile: unknown key";
    QTest::newRow("no key") << QByteArray("tls_server_config:\n  cert_file: a\n")
                            << "missing one of key or key_file";
    QTest::newRow("ca without policy")
        << QByteArray("tls_server_config:\n  cert_file: a\n  key_file: b\n  client_ca_file: c\n")
        << "without a Client Auth Policy";
    QTest::newRow("verify if given") << QByteArray(
        "tls_server_config:\n  cert_file: a\n  key_file: b\n  client_auth_type: VerifyClientCertIfGiven\n")
                                     << "VerifyClientCertIfGiven is not offered";
    QTest::newRow("old TLS") << QByteArray(
        "tls_server_config:\n  cert_file: a\n  key_file: b\n  min_version: TLS10\n")
                             << "min_version: TLS10 is not offered";
    QTest::newRow("cipher") << QByteArray(
        "tls_server_config:\n  cert_file: a\n  key_file: b\n  cipher_suites: [RC4]\n")
                            << "unknown cipher: RC4";
    QTest::newRow("header") << QByteArray("http_server_config:\n  headers:\n    Set-Cookie: x\n")
                            << "HTTP header \"Set-Cookie\" can not be configured";
    QTest::newRow("header value") << QByteArray(
        "http_server_config:\n  headers:\n    X-Frame-Options: allow\n")
                                  << "invalid value: expected one of deny, sameorigin";
    QTest::newRow("plain password") << QByteArray("basic_auth_users:\n  alice: secret\n")
                                    << "basic_auth_users.alice: not a bcrypt hash";
    QTest::newRow("sans without client auth")
        << QByteArray("tls_server_config:\n  cert_file: a\n  key_file: b\n  client_allowed_sans: [x]\n")
        << "client_allowed_sans: requires client_auth_type";
    QTest::newRow("duration") << QByteArray("rate_limit:\n  interval: soon\n")
                              << "rate_limit.interval: not a duration";
    QTest::newRow("not a mapping") << QByteArray("- a\n- b\n") << "expected a mapping";
    QTest::newRow("not YAML") << QByteArray("a: [b\n") << "not YAML";
}

void TestExporterServer::webConfigRefusedWithItsKey()
{
    QFETCH(QByteArray, yaml);
    QFETCH(QString, expected);
    QString error;
    QVERIFY(!WebConfig::parse(yaml, QStringLiteral("/etc/flightdeck"), &error));
    QVERIFY2(error.contains(expected), qPrintable(error));
    QVERIFY(!error.contains(QStringLiteral("secret")));
}

// The files it names are read beside it unless named from the root; a name starting with ':' is a file
// of that name there, never one of the program's own resources.
void TestExporterServer::webConfigFilesBesideIt()
{
    QString error;
    const auto c
        = WebConfig::parse("tls_server_config:\n  cert_file: certs/../server.pem\n  key_file: ':server.key'\n"
                           "  client_ca_file: /srv/ca.pem\n  client_auth_type: RequireAndVerifyClientCert\n",
            QStringLiteral("/etc/flightdeck"), &error);
    QVERIFY2(c, qPrintable(error));
    QCOMPARE(c->tls.certFile, QStringLiteral("/etc/flightdeck/server.pem"));
    QCOMPARE(c->tls.keyFile, QStringLiteral("/etc/flightdeck/:server.key"));
    QCOMPARE(c->tls.clientCaFile, QStringLiteral("/srv/ca.pem"));
}

// TLS with a certificate of the test's CA, basic authentication (a bcrypt hash, checked off the serving
// thread), the toolkit's headers; a wrong password and none are 401 with the challenge; the file read again
// when it changes (another user); plain HTTP on the TLS port gets nothing.
void TestExporterServer::tlsBasicAuthHeadersAndRotation()
{
    QTemporaryDir dir;
    const TestCerts certs(dir.path());
    if (!certs.error.isEmpty())
        QSKIP(qPrintable(certs.error));
    const QByteArray hash = BasicAuth::hash("right horse battery", 4);
    QVERIFY(BasicAuth::isBcryptHash(hash));
    QVERIFY(BasicAuth::verify(hash, "right horse battery"));
    QVERIFY(!BasicAuth::verify(hash, "wrong"));
    const QString config = certs.path(QStringLiteral("web.yml"));
    QVERIFY(writeFile(config,
        "tls_server_config:\n  cert_file: server.pem\n  key_file: server.key\n  min_version: TLS12\n"
        "http_server_config:\n  headers:\n    X-Frame-Options: deny\n    X-Content-Type-Options: nosniff\n"
        "basic_auth_users:\n  prometheus: "
            + hash + "\n"));
    ExporterServer server(metricsHandler);
    QString error;
    QVERIFY2(server.setWebConfig(config, &error), qPrintable(error));
    QVERIFY(server.usesTls() && server.authenticates());
    QVERIFY(server.listen(QStringLiteral("127.0.0.1:0"), &error));
    QVERIFY(server.url().startsWith(QStringLiteral("https://127.0.0.1:")));
    const QList<QSslCertificate> ca = QSslCertificate::fromPath(certs.path(QStringLiteral("ca.pem")));
    QCOMPARE(ca.size(), 1);
    const auto ask = [&](const QByteArray &authorization) {
        QSslSocket socket;
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.setCaCertificates(ca);
        socket.setSslConfiguration(tls);
        socket.connectToHostEncrypted(QStringLiteral("127.0.0.1"), server.port());
        waitForHandshake(socket);
        if (!socket.isEncrypted())
            return QByteArray("not encrypted: ") + socket.errorString().toUtf8();
        socket.write("GET /metrics HTTP/1.1\r\nHost: x\r\n"
            + (authorization.isEmpty() ? QByteArray() : "Authorization: " + authorization + "\r\n") + "\r\n");
        return readAnswers(socket, 1);
    };
    const auto basic = [](const QByteArray &user, const QByteArray &password) {
        return "Basic " + (user + ':' + password).toBase64();
    };
    QByteArray answer = ask({});
    QVERIFY2(answer.startsWith("HTTP/1.1 401 Unauthorized\r\n"), answer.constData());
    QVERIFY(answer.contains("WWW-Authenticate: Basic\r\n"));
    QVERIFY(answer.contains("X-Frame-Options: deny\r\n"));
    answer = ask(basic("prometheus", "wrong"));
    QVERIFY2(answer.startsWith("HTTP/1.1 401"), answer.constData());
    answer = ask(basic("nobody", "right horse battery"));
    QVERIFY2(answer.startsWith("HTTP/1.1 401"), answer.constData());
    answer = ask(basic("prometheus", "right horse battery"));
    QVERIFY2(answer.startsWith("HTTP/1.1 200 OK\r\n"), answer.constData());
    QVERIFY(answer.contains("X-Content-Type-Options: nosniff\r\n"));
    QVERIFY(answer.endsWith("up 1\n"));
    answer = ask(basic("prometheus", "right horse battery")); // the cached verdict
    QVERIFY2(answer.startsWith("HTTP/1.1 200 OK\r\n"), answer.constData());
    {
        QTcpSocket plainSocket; // HTTP on the TLS port: no answer
        plainSocket.connectToHost(QHostAddress::LocalHost, server.port());
        QVERIFY(plainSocket.waitForConnected(5000));
        plainSocket.write("GET /metrics HTTP/1.1\r\n\r\n");
        const QByteArray got = readAnswers(plainSocket, 1, 1500);
        QVERIFY2(!got.contains("up 1"), got.constData());
    }
    // Another user, the file rewritten: taken at the next request; the old one refused.
    QTest::qWait(1100); // a newer modification time
    QSignalSpy logged(&server, &ExporterServer::logged);
    QVERIFY(writeFile(config,
        "tls_server_config:\n  cert_file: server.pem\n  key_file: server.key\n"
        "basic_auth_users:\n  scraper: "
            + hash + "\n"));
    answer = ask(basic("scraper", "right horse battery"));
    QVERIFY2(answer.startsWith("HTTP/1.1 200 OK\r\n"), answer.constData());
    QVERIFY(!answer.contains("X-Frame-Options"));
    answer = ask(basic("prometheus", "right horse battery"));
    QVERIFY2(answer.startsWith("HTTP/1.1 401"), answer.constData());
    QVERIFY(!logged.isEmpty());
    // A broken file: the last good one stays, and it is said why.
    QTest::qWait(1100);
    QVERIFY(writeFile(config, "tls_server_config:\n  cert_file: nosuch.pem\n  key_file: server.key\n"));
    answer = ask(basic("scraper", "right horse battery"));
    QVERIFY2(answer.startsWith("HTTP/1.1 200 OK\r\n"), answer.constData());
    bool said = false;
    for (const QList<QVariant> &line : std::as_const(logged))
        said = said || line.first().toString().contains(QStringLiteral("the last good one stays"));
    QVERIFY(said);
}

// RequireAndVerifyClientCert: a client certificate of the client CA gets in; none, or one of another CA,
// does not; client_allowed_sans narrows to the names listed.
void TestExporterServer::clientCertificates()
{
    QTemporaryDir dir;
    const TestCerts certs(dir.path());
    if (!certs.error.isEmpty())
        QSKIP(qPrintable(certs.error));
    const QString config = certs.path(QStringLiteral("web.yml"));
    const QList<QSslCertificate> ca = QSslCertificate::fromPath(certs.path(QStringLiteral("ca.pem")));
    const auto ask = [&](ExporterServer &server, const QString &cert) {
        QSslSocket socket;
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.setCaCertificates(ca);
        if (!cert.isEmpty()) {
            tls.setLocalCertificate(
                QSslCertificate::fromPath(certs.path(cert + QStringLiteral(".pem"))).first());
            QFile keyFile(certs.path(cert + QStringLiteral(".key")));
            if (!keyFile.open(QIODevice::ReadOnly))
                return QByteArray("no key");
            tls.setPrivateKey(QSslKey(keyFile.readAll(), QSsl::Ec));
        }
        socket.setSslConfiguration(tls);
        socket.connectToHostEncrypted(QStringLiteral("127.0.0.1"), server.port());
        waitForHandshake(socket);
        if (!socket.isEncrypted())
            return QByteArray("refused");
        socket.write("GET /metrics HTTP/1.1\r\n\r\n");
        const QByteArray got = readAnswers(socket, 1, 2000);
        return got.isEmpty() ? QByteArray("refused") : got;
    };
    QVERIFY(writeFile(config,
        "tls_server_config:\n  cert_file: server.pem\n  key_file: server.key\n"
        "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ca.pem\n"));
    {
        ExporterServer server(metricsHandler);
        QString error;
        QVERIFY2(server.setWebConfig(config, &error), qPrintable(error));
        QVERIFY(server.listen(QStringLiteral("127.0.0.1:0"), &error));
        QVERIFY(ask(server, QStringLiteral("client")).startsWith("HTTP/1.1 200 OK"));
        QVERIFY(!ask(server, QString()).startsWith("HTTP/1.1 200"));
        QVERIFY(!ask(server, QStringLiteral("other-client")).startsWith("HTTP/1.1 200"));
    }
    QVERIFY(writeFile(config,
        "tls_server_config:\n  cert_file: server.pem\n  key_file: server.key\n"
        "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ca.pem\n"
        "  client_allowed_sans: [someone.example]\n"));
    {
        ExporterServer server(metricsHandler);
        QString error;
        QVERIFY2(server.setWebConfig(config, &error), qPrintable(error));
        QVERIFY(server.listen(QStringLiteral("127.0.0.1:0"), &error));
        QVERIFY(!ask(server, QStringLiteral("client")).startsWith("HTTP/1.1 200"));
    }
    // A key that is not the certificate's: refused at start, naming why.
    QVERIFY(writeFile(config, "tls_server_config:\n  cert_file: server.pem\n  key_file: client.key\n"));
    ExporterServer server(metricsHandler);
    QString error;
    QVERIFY(!server.setWebConfig(config, &error));
    QVERIFY2(error.contains(QStringLiteral("does not belong to the certificate")), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestExporterServer)
#include "tst_exporterserver.moc"
