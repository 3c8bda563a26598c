// The head of an HTTP request to the exporter (`flightdeck-cli serve`), as anyone who can reach its port may
// send it: ExporterServer::parseHead. Input: the bytes before the blank line. Expected: no crash; a head read
// has a method, a path without '?' and a query after it that together give back the request target; a
// request with a body is never kept alive; HTTP/1.0 is kept alive only when asked.

#include "fuzz/fuzzcommon.h"
#include "services/monitoring/exporterserver.h"

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::initQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray text = fuzz::bytes(data, size);
    const std::optional<ExporterServer::Head> head = ExporterServer::parseHead(text);
    if (!head)
        return 0;
    const ExporterServer::Request &r = head->request;
    FUZZ_CHECK(!r.method.isEmpty() && !r.path.isEmpty(), "a head read without a method or path");
    FUZZ_CHECK(
        !r.path.contains('?'), "the path keeps a '?': %s", r.path.left(80).toPercentEncoding().constData());
    const QByteArray requestLine = text.split('\n').value(0).trimmed();
    const QByteArray given = requestLine.split(' ').value(1);
    const QByteArray target = given.contains('?') ? r.path + '?' + r.query : r.path;
    FUZZ_CHECK(given == target, "path and query are not the request line's target: %s",
        requestLine.left(80).toPercentEncoding().constData());
    const QByteArray lower = text.toLower();
    if (lower.contains("\ntransfer-encoding:"))
        FUZZ_CHECK(!head->keepAlive, "a request with a body kept alive");
    if (requestLine.endsWith("HTTP/1.0") && !lower.contains("keep-alive"))
        FUZZ_CHECK(!head->keepAlive, "HTTP/1.0 kept alive unasked");
    return 0;
}
