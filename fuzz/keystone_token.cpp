// The Keystone token answer (POST /v3/auth/tokens): the body as
// KeystoneSession reads it (ApiResponse::json, then "token"), the token's
// expires_at, user and project (KeystoneSession::parseToken), and the endpoint
// choice in its catalog (KeystoneSession::endpointIn) for every service type
// Flightdeck uses, each interface, with and without a region.
// Input: the body of the answer. Expected: no exception, no crash.

#include "core/apiparser.h"
#include "fuzz/fuzzcommon.h"
#include "services/http/httpclient.h"
#include "services/openstack/keystonesession.h"

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::initQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ApiResponse response;
    response.status = 201;
    response.body = fuzz::bytes(data, size);
    response.headers.insert(QByteArrayLiteral("content-type"), QByteArrayLiteral("application/json"));
    response.headers.insert(QByteArrayLiteral("x-subject-token"), QByteArrayLiteral("gAAAAAB-token"));
    Error error;
    const QJsonObject token = response.json(&error).value(QStringLiteral("token")).toObject();
    if (error.isError())
        return 0;
    const KeystoneSession::Token parsed = KeystoneSession::parseToken(token);
    if (parsed.expiresAt.isValid())
        (void)ApiParser::formatTimestamp(parsed.expiresAt);

    static const QString types[] = { QStringLiteral("compute"), QStringLiteral("network"),
        QStringLiteral("identity"), QStringLiteral("kubernikus"), QStringLiteral("image") };
    static const QString interfaces[]
        = { QStringLiteral("public"), QStringLiteral("internal"), QStringLiteral("admin") };
    static const QString regions[] = { QString(), QStringLiteral("eu-de-1"), QStringLiteral("RegionOne") };
    for (const QString &type : types) {
        for (const QString &interface : interfaces) {
            for (const QString &region : regions) {
                const QString url = KeystoneSession::endpointIn(parsed.catalog, type, interface, region);
                FUZZ_CHECK(!url.endsWith(QLatin1Char('/')), "endpoint URL ends with '/'");
                if (!url.isEmpty())
                    (void)QUrl(url + QStringLiteral("/servers/detail"));
            }
        }
    }
    return 0;
}
