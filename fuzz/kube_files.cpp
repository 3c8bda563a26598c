// The files a kubeconfig names (certificate-authority, client-certificate, client-key, tokenFile), as they
// are on disk: read through LocalFile (regular files, bounded), then made into the TLS a Kubernetes client
// uses (KubernetesClient::tlsFor: PEM certificates, a key of any algorithm) and a token.
// Input: the four files, parted by lines "#@cert", "#@key" and "#@token" (what comes first is the CA).
// Expected: no crash, no exception; a certificate or key that does not read is none.

#include "fuzz/fuzzcommon.h"
#include "services/kubernetes/kubernetesclient.h"
#include "services/local/kubeconfig.h"
#include "services/local/localfile.h"

#include <QSslKey>

static QString g_dir;

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::initQt();
    g_dir = fuzz::scratchDir() + QStringLiteral("/kube-files");
    QDir().mkpath(g_dir);
    fuzz::writeFile(g_dir + QStringLiteral("/config"),
        "clusters: [{name: c, cluster: {server: \"https://127.0.0.1:1\", certificate-authority: ca}}]\n"
        "contexts: [{name: c, context: {cluster: c, user: u}}]\n"
        "users: [{name: u, user: {client-certificate: cert, client-key: key, tokenFile: token}}]\n"
        "current-context: c\n");
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input = fuzz::bytes(data, size);
    const fuzz::Split ca = fuzz::splitAt(input, "#@cert");
    const fuzz::Split cert = fuzz::splitAt(ca.after, "#@key");
    const fuzz::Split key = fuzz::splitAt(cert.after, "#@token");
    fuzz::writeFile(g_dir + QStringLiteral("/ca"), ca.before);
    fuzz::writeFile(g_dir + QStringLiteral("/cert"), cert.before);
    fuzz::writeFile(g_dir + QStringLiteral("/key"), key.before);
    fuzz::writeFile(g_dir + QStringLiteral("/token"), key.after);
    QString error;
    const std::optional<Kubeconfig> config = Kubeconfig::load({ g_dir + QStringLiteral("/config") }, &error);
    FUZZ_CHECK(config.has_value(), "the kubeconfig did not load: %s", qPrintable(error));
    const std::optional<KubeTarget> target = config->target(QString(), &error);
    FUZZ_CHECK(target.has_value(), "its target did not resolve: %s", qPrintable(error));
    FUZZ_CHECK(
        target->caPem == ca.before && target->clientKeyPem == key.before, "the files read differently");
    const QSslConfiguration tls = KubernetesClient::tlsFor(*target);
    (void)tls.privateKey().isNull();
    const std::optional<QByteArray> token
        = LocalFile::read(target->tokenFile, LocalFile::ConfigLimit, static_cast<QString *>(nullptr));
    FUZZ_CHECK(token.has_value() && *token == key.after, "the token file read differently");
    return 0;
}
