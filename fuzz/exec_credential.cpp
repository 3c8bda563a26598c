// The output of a client.authentication.k8s.io exec credential plugin (an
// ExecCredential JSON document): KubernetesClient::parseExecCredential.
// Input: what the plugin printed on standard output. Expected: no exception,
// no crash; nullopt for anything that is not an ExecCredential with a status.

#include "fuzz/fuzzcommon.h"
#include "services/kubernetes/kubernetesclient.h"

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::initQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::optional<KubernetesClient::ExecCredential> cred
        = KubernetesClient::parseExecCredential(fuzz::bytes(data, size));
    if (cred) {
        // What the client does with it next: the bearer header and the expiry check.
        const QByteArray header = "Bearer " + cred->token.toUtf8();
        (void)header;
        if (cred->expirationTimestamp.isValid())
            (void)QDateTime::currentDateTimeUtc().secsTo(cred->expirationTimestamp);
    }
    return 0;
}
