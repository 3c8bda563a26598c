// The Keystone token answer (POST /v3/auth/tokens): the body as
// KeystoneSession reads it (ApiResponse::json, then "token"), the token's
// expires_at, user and project (KeystoneSession::parseToken), and the endpoint
// choice in its catalog (KeystoneSession::endpointIn) for every service type
// Flightdeck uses, each interface, with and without a region; then who the token is (diagnosis.md §8): its
// user, scope, roles and access rules as Credentials read them (a ParseError for what is not a token), each
// call Flightdeck sends judged with them, and token.json written and read back to the same identity.
// Input: the body of the answer. Expected: no exception but ParseError, no crash.

#include "core/apiparser.h"
#include "core/permission.h"
#include "core/repairplanner.h"
#include "fuzz/fuzzcommon.h"
#include "services/http/httpclient.h"
#include "services/openstack/keystonesession.h"

#include <QJsonDocument>

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::initQt();
    return 0;
}

// Who the token is, and what it may do: never an exception but ParseError, and the same identity read back.
static void judge(const QByteArray &body)
{
    Credentials c;
    try {
        c = Credentials::fromTokenJson(QStringLiteral("token.json"), body);
    } catch (const ParseError &) {
        return;
    }
    (void)c.identity.summary();
    Instance instance;
    instance.id = QStringLiteral("6f0c3e1a-4b2d-4c8e-9a1f-2b3c4d5e6f70");
    instance.name = QStringLiteral("kks-demo-pool-x1");
    instance.status = QStringLiteral("SHUTOFF");
    Router router;
    router.id = QStringLiteral("a20a76df-33af-4f58-aff8-136f601ebdf0");
    router.revisionNumber = 7;
    const Route route { QStringLiteral("100.100.1.0/24"), QStringLiteral("10.180.0.4") };
    for (RepairPlan plan :
        { RepairPlanner::deleteInstance(instance), RepairPlanner::startInstance(instance),
            RepairPlanner::addSecurityGroup(instance, QStringLiteral("kks-demo")),
            RepairPlanner::addRoutes(router, { route }, true),
            RepairPlanner::removeRoutes(router, { route }, false), RepairPlanner::syncDevices(router, {}) }) {
        Credentials::judgePlan(plan, &c);
        for (const PlannedRequest &r : std::as_const(plan.requests))
            FUZZ_CHECK(r.permission.permission == Permission::Allowed || !r.permission.reason.isEmpty(),
                "a verdict other than allowed without its reason");
        FUZZ_CHECK(plan.refusal != Refusal::NotPermitted || !plan.refusalDetail.isEmpty(),
            "NotPermitted without why");
    }
    const Credentials again = Credentials::fromTokenJson(
        QStringLiteral("token.json"), QJsonDocument(c.toTokenJson()).toJson(QJsonDocument::Compact));
    FUZZ_CHECK(again.identity.userId == c.identity.userId && again.identity.roles == c.identity.roles
            && again.identity.accessRules.has_value() == c.identity.accessRules.has_value(),
        "token.json does not read back to the same identity");
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    judge(fuzz::bytes(data, size));
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
