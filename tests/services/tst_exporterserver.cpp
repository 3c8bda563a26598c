#include "core/finding.h"
#include "core/incidents.h"
#include "services/exporterserver.h"
#include "services/runbooks.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>

// The exporter's HTTP side over a real socket on loopback, as Prometheus and less polite clients talk to it:
// kept-alive requests, requests split across packets, several sent at once, HEAD, the 4xx answers, a body
// that ends the connection, and the runbooks built in.
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
    void addressesParsed();
    void runbooksForEveryKindAndRule();

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
            + QByteArray(ExporterServer::MaxRequestBytes + 10, 'a') + "\r\n\r\n";
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
    for (int k = 0; k <= int(FindingKind::NodeWithoutInstance); ++k)
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

QTEST_GUILESS_MAIN(TestExporterServer)
#include "tst_exporterserver.moc"
