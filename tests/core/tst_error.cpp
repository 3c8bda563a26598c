#include "core/error.h"
#include "core/json/jsonreader.h"
#include "core/klusterfetch.h"

#include <QTest>

// One error type for every failure: a call, an input, an answer refused;
// its one line (the command line's and the banner's) and whether a retry can help.
class TestError : public QObject
{
    Q_OBJECT
private slots:
    void oneLine_data();
    void oneLine();
    void retryCanHelp_data();
    void retryCanHelp();
    void parseErrorIsAnError();
    void parseAnswer();
    void oneFailureOfManySourcesSaidOnce();
};

static Error call(Error::Kind kind, int status)
{
    Error e;
    e.kind = kind;
    e.service = QStringLiteral("network");
    e.method = QStringLiteral("PUT");
    e.path = QStringLiteral("/v2.0/routers/r1");
    e.status = status;
    return e;
}

void TestError::oneLine_data()
{
    QTest::addColumn<Error>("error");
    QTest::addColumn<QString>("line");
    QTest::newRow("none") << Error() << QString();
    Error http = call(Error::Kind::Http, 409);
    http.serverMessage = QStringLiteral("Router r1 is in use [RouterInUse]");
    QTest::newRow("server's words")
        << http << "network: PUT /v2.0/routers/r1: HTTP 409: Router r1 is in use [RouterInUse]";
    Error both = http;
    both.detail = QStringLiteral("after 2 attempts");
    QTest::newRow("server's and ours")
        << both
        << "network: PUT /v2.0/routers/r1: HTTP 409: Router r1 is in use [RouterInUse] (after 2 attempts)";
    Error network = call(Error::Kind::Network, 0);
    network.detail = QStringLiteral("Connection refused");
    QTest::newRow("network") << network << "network: PUT /v2.0/routers/r1: network error: Connection refused";
    Error service;
    service.kind = Error::Kind::Timeout;
    service.service = QStringLiteral("compute");
    QTest::newRow("service only") << service << "compute: no answer in time";
    Error refused;
    refused.kind = Error::Kind::Malformed;
    refused.service = QStringLiteral("compute");
    refused.source = QStringLiteral("servers");
    refused.jsonPath = QStringLiteral("$.servers[3].id");
    refused.detail = QStringLiteral("required field is missing");
    QTest::newRow("answer refused")
        << refused << "compute: malformed answer: servers: $.servers[3].id: required field is missing";
    Error body = call(Error::Kind::Malformed, 200);
    body.detail = QStringLiteral("expected a JSON object");
    QTest::newRow("body refused")
        << body << "network: PUT /v2.0/routers/r1: HTTP 200 with a malformed body: expected a JSON object";
    QTest::newRow("input") << Error::inSource(Error::Kind::Malformed, QStringLiteral("servers.json"),
        QStringLiteral("required field is missing"), QStringLiteral("$.servers[3].id"))
                           << "servers.json: $.servers[3].id: required field is missing";
    QTest::newRow("input, one line") << Error::inSource(
        Error::Kind::Malformed, QStringLiteral("capture.json"), QStringLiteral("not \"a\nb\""))
                                     << "capture.json: not \"a\\nb\"";
    Error hostile = call(Error::Kind::Http, 409);
    hostile.serverMessage = QStringLiteral("Router \x1b[2J\x1b[32mOK\x07 in use\u202e");
    QTest::newRow("server's words that would drive a terminal")
        << hostile << "network: PUT /v2.0/routers/r1: HTTP 409: Router \\e[2J\\e[32mOK\\x07 in use\\u202e";
    QTest::newRow("a file") << Error::inSource(
        Error::Kind::Io, QStringLiteral("/tmp/s/nodes.json"), QStringLiteral("required file is missing"))
                            << "/tmp/s/nodes.json: required file is missing";
    QTest::newRow("our words") << Error::of(
        Error::Kind::Config, QStringLiteral("cloud \"prod\" (clouds.yaml) has no auth_url"))
                               << "cloud \"prod\" (clouds.yaml) has no auth_url";
    QTest::newRow("cancelled") << Error::of(Error::Kind::Cancelled, QString()) << "cancelled";
}

void TestError::oneLine()
{
    QFETCH(Error, error);
    QFETCH(QString, line);
    QCOMPARE(error.toString(), line);
    QCOMPARE(error.isError(), !line.isEmpty());
}

void TestError::retryCanHelp_data()
{
    QTest::addColumn<Error>("error");
    QTest::addColumn<bool>("retry");
    QTest::newRow("refused connection") << call(Error::Kind::Network, 0) << true;
    QTest::newRow("timeout") << call(Error::Kind::Timeout, 0) << true;
    QTest::newRow("cancelled") << Error::of(Error::Kind::Cancelled, QString()) << true;
    QTest::newRow("busy 429") << call(Error::Kind::Http, 429) << true;
    QTest::newRow("unavailable 503") << call(Error::Kind::Http, 503) << true;
    QTest::newRow("bad gateway 502") << call(Error::Kind::Http, 502) << true;
    QTest::newRow("conflict 409") << call(Error::Kind::Http, 409) << false;
    QTest::newRow("not found 404") << call(Error::Kind::Http, 404) << false;
    QTest::newRow("authentication") << call(Error::Kind::Auth, 401) << false;
    QTest::newRow("certificate") << call(Error::Kind::Tls, 0) << false;
    QTest::newRow("malformed") << call(Error::Kind::Malformed, 200) << false;
    QTest::newRow("too large") << call(Error::Kind::TooLarge, 200) << false;
    QTest::newRow("configuration") << Error::of(Error::Kind::Config, QStringLiteral("no auth_url")) << false;
    QTest::newRow("a file") << Error::inSource(
        Error::Kind::Io, QStringLiteral("x.json"), QStringLiteral("cannot be read"))
                            << false;
    QTest::newRow("none") << Error() << false;
}

void TestError::retryCanHelp()
{
    QFETCH(Error, error);
    QFETCH(bool, retry);
    QCOMPARE(error.retryCanHelp(), retry);
}

void TestError::parseErrorIsAnError()
{
    try {
        JsonReader(QStringLiteral("servers.json"), QJsonObject { { QStringLiteral("servers"), 5 } })
            .requireField(QStringLiteral("servers"))
            .requireArray();
        QFAIL("no ParseError");
    } catch (const Error &e) {
        QCOMPARE(e.kind, Error::Kind::Malformed);
        QCOMPARE(e.source, QStringLiteral("servers.json"));
        QCOMPARE(e.jsonPath, QStringLiteral("$.servers"));
        QCOMPARE(e.toString(), QStringLiteral("servers.json: $.servers: expected an array, got a number"));
    }
}

void TestError::parseAnswer()
{
    Error answered;
    answered.service = QStringLiteral("compute");
    const QJsonObject body { { QStringLiteral("servers"), QStringLiteral("none") } };
    const auto parse = [&body] {
        JsonReader(QStringLiteral("servers"), body).requireField(QStringLiteral("servers")).requireArray();
    };

    // A parser that refuses makes the answer malformed, naming what it refused where the request is named.
    const Error refused = ::parseAnswer(answered, parse);
    QCOMPARE(refused.kind, Error::Kind::Malformed);
    QCOMPARE(refused.toString(),
        QStringLiteral("compute: malformed answer: servers: $.servers: expected an array, got a string"));

    // A parser that accepts leaves the answer as it was; one that already failed is never parsed.
    bool ran = false;
    QVERIFY(!::parseAnswer(answered, [&ran] { ran = true; }).isError());
    QVERIFY(ran);
    ran = false;
    const Error failed = call(Error::Kind::Http, 503);
    QCOMPARE(::parseAnswer(failed, [&ran] { ran = true; }).toString(), failed.toString());
    QVERIFY(!ran);
}

QTEST_GUILESS_MAIN(TestError)
// A wrong password fails every source with the same 401: said once, the sources named before it (it was
// printed six times on one line).
void TestError::oneFailureOfManySourcesSaidOnce()
{
    const Error denied = call(Error::Kind::Auth, 401);
    QList<SourceError> errors;
    for (const Source s : { Source::Kluster, Source::Router, Source::Nodes, Source::Servers })
        errors << SourceError { s, denied, QString() };
    errors << SourceError { Source::Router, call(Error::Kind::Http, 503), QString() };
    const QString line = SourceError::joined(errors);
    QCOMPARE(line.count(denied.toString()), 1);
    QVERIFY2(line.startsWith(QStringLiteral("kluster, router, nodes, servers: ")), qPrintable(line));
    QVERIFY(line.contains(QStringLiteral("; router: ")));
}

#include "tst_error.moc"
