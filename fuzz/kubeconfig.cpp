// A kubeconfig (as handed out by the Kubernikus API, or read from a file):
// Kubeconfig::fromYaml, contexts(), then target() for the current context and
// for each context. Relative paths in it resolve into an empty private folder
// (the source's folder), so certificate-authority, client-certificate and
// tokenFile read nothing outside it unless the input gives an absolute path.
// Input: the YAML. Expected: nullopt with an error, or a kubeconfig; no
// exception (yaml-cpp's exceptions must be caught inside Kubeconfig).

#include "services/local/kubeconfig.h"

#include "fuzz/fuzzcommon.h"

static QString g_source;

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::initQt();
    const QString dir = fuzz::scratchDir() + QStringLiteral("/kube");
    QDir().mkpath(dir);
    g_source = dir + QStringLiteral("/config");
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    QString error;
    const std::optional<Kubeconfig> config = Kubeconfig::fromYaml(fuzz::bytes(data, size), g_source, &error);
    if (!config) {
        FUZZ_CHECK(!error.isEmpty(), "fromYaml failed without an error");
        return 0;
    }
    QStringList contexts = config->contexts();
    contexts.prepend(QString()); // the current context
    int tried = 0;
    for (const QString &context : contexts) {
        if (++tried > 8)
            break;
        QString targetError;
        const std::optional<KubeTarget> target = config->target(context, &targetError);
        if (target)
            FUZZ_CHECK(!target->server.isEmpty(), "a context without a server was resolved");
        else
            FUZZ_CHECK(!targetError.isEmpty(), "target(\"%s\") failed without an error",
                qPrintable(context.left(80)));
    }
    return 0;
}
