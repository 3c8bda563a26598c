// API error bodies: ApiResponse::serverMessage (NeutronError, Nova faults,
// Keystone errors, Kubernetes Status, Kubernikus errors, HTML and plain text),
// apiErrorIn on the bodies that are JSON objects, and ApiResponse::json (the
// "malformed answer" path that quotes the body).
// Input: the first byte chooses the Content-Type (modulo 4), the rest is the body.
// Expected: no exception at all; a message of at most a few hundred characters
// for text bodies.

#include "core/json/jsonreader.h"
#include "fuzz/fuzzcommon.h"
#include "services/http/httpclient.h"

#include <QJsonDocument>

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::initQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    static const QByteArray types[] = { QByteArrayLiteral("application/json"),
        QByteArrayLiteral("text/html; charset=utf-8"), QByteArrayLiteral("text/plain"), QByteArray() };
    const QByteArray &contentType = types[data[0] % 4];
    const QByteArray body = fuzz::bytes(data + 1, size - 1);

    ApiResponse response;
    response.status = 502;
    response.body = body;
    response.headers.insert(QByteArrayLiteral("content-type"), contentType);
    const QString message = response.serverMessage();

    const QJsonDocument doc = QJsonDocument::fromJson(body);
    if (doc.isObject())
        (void)apiErrorIn(doc.object());

    response.error.kind = Error::Kind::Http;
    response.error.service = QStringLiteral("network");
    response.error.method = QStringLiteral("GET");
    response.error.path = QStringLiteral("/v2.0/routers/r1");
    response.error.status = 502;
    response.error.serverMessage = message;
    (void)response.error.toString();
    Error malformed;
    const QJsonObject object = response.json(&malformed);
    FUZZ_CHECK(doc.isObject() ? !malformed.isError() : malformed.isError(), "json() and fromJson disagree");
    (void)object;
    (void)malformed.toString();
    return 0;
}
