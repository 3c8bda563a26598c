// The ASR driver's validate answer (`GET /v2.0/asr1k/routers/{id}`, docs/wire-formats.md): RouterDeviceReader
// against a router of four routes, then the device findings judged on it. Input: the answer's body. Expected:
// no crash; a body is read or refused with a ParseError naming the file; every device read holds no more
// routes as known than it holds; and the findings of a diagnosis made on it name a device it read.

#include "core/diagnosis.h"
#include "core/json/jsonreader.h"
#include "core/routerdevice.h"
#include "fuzz/fuzzcommon.h"

#include <QJsonDocument>
#include <QJsonObject>

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::initQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QJsonDocument doc = QJsonDocument::fromJson(fuzz::bytes(data, size));
    if (!doc.isObject())
        return 0;
    KlusterState state;
    state.kluster.name = QStringLiteral("k");
    state.kluster.clusterCidrText = QStringLiteral("198.19.0.0/16");
    state.kluster.clusterCidr = Cidr::parse(state.kluster.clusterCidrText);
    state.router.id = QStringLiteral("1b2c3d4e-5f60-7182-93a4-b5c6d7e8f901");
    state.router.name = QStringLiteral("r");
    state.router.hasGateway = true;
    state.router.routes = { { QStringLiteral("198.19.1.0/24"), QStringLiteral("10.0.0.3") },
        { QStringLiteral("198.19.1.0/24"), QStringLiteral("10.0.0.4") },
        { QStringLiteral("198.19.2.0/24"), QStringLiteral("10.0.0.5") },
        { QStringLiteral("fd00::/64"), QStringLiteral("fd00::1") } };
    state.routerSource.known = state.klusterSource.known = true;
    try {
        state.routerDevices
            = RouterDeviceReader::read(QStringLiteral("router-device.json"), doc.object(), state.router);
    } catch (const ParseError &e) {
        if (!e.toString().contains(QLatin1String("router-device.json")))
            qFatal("a refusal that does not name the file: %s", qPrintable(e.toString()));
        return 0;
    }
    QStringList hosts;
    for (const RouterDevice &d : std::as_const(state.routerDevices.devices)) {
        if (d.known > int(d.routes.size()) && !d.knowsAll())
            qFatal("device %s: %d routes known of %lld", qPrintable(d.host), d.known,
                qlonglong(d.routes.size()));
        hosts << d.host;
    }
    state.routerDeviceSource.known = true;
    const Diagnosis diagnosis = Diagnosis::run(state);
    for (const Finding &f : diagnosis.findings) {
        (void)f.message();
        (void)f.evidence();
        (void)f.repair();
        if (f.kind == FindingKind::DeviceRouteStale || f.kind == FindingKind::DeviceRouteMissing) {
            if (!hosts.contains(f.evidence().value(QStringLiteral("device")).toString()))
                qFatal("a finding about a device not read: %s", qPrintable(f.id()));
        }
    }
    return 0;
}
