// What a terminated kluster leaves behind (diagnosis.md §9): Cinder's `GET /v3/{project_id}/volumes/detail`
// and Octavia's `GET /v2/lbaas/loadbalancers` as Debris reads them (the first byte chooses: even, volumes;
// odd, load balancers; the rest is the body), each volume's and load balancer's kluster as the CSI driver's
// metadata and the cloud provider's name say. Expected: no exception but ParseError, no crash; a load
// balancer attributed names a kluster and a namespace, neither with '_'.

#include "core/debris.h"

#include "core/json/jsonreader.h"
#include "fuzz/fuzzcommon.h"

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::initQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const bool volumes = (data[0] & 1) == 0;
    const QByteArray body = fuzz::bytes(data + 1, size - 1);
    try {
        const QJsonObject object = parseJsonObject(QStringLiteral("debris.json"), body);
        if (volumes) {
            for (const Volume &v : Debris::parseVolumes(QStringLiteral("volumes.json"), object)) {
                FUZZ_CHECK(v.attached() == !v.attachedTo.isEmpty(), "attached() disagrees with attachedTo");
                (void)Debris::volumeClusterOf(v.name, v.id);
            }
        } else {
            for (const LoadBalancer &lb :
                Debris::parseLoadBalancers(QStringLiteral("loadbalancers.json"), object)) {
                if (const std::optional<ServiceRef> ref = Debris::serviceOf(lb)) {
                    FUZZ_CHECK(
                        !ref->kluster.isEmpty() && !ref->nameSpace.isEmpty(), "a service without a kluster");
                    FUZZ_CHECK(!ref->kluster.contains(QLatin1Char('_'))
                            && !ref->nameSpace.contains(QLatin1Char('_')),
                        "a kluster or namespace with '_'");
                }
            }
        }
    } catch (const ParseError &) { }
    return 0;
}
