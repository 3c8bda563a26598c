// clouds.yaml and secure.yaml as openstacksdk reads them:
// CloudConfigLoader::cloudNames, then CloudConfigLoader::load for each cloud
// named (and for one that is not there). The loader only reads files, so the
// input is written to clouds.yaml (and secure.yaml) in a private folder that
// OS_CLIENT_CONFIG_FILE / OS_CLIENT_SECURE_FILE name; every other place it
// looks ($XDG_CONFIG_HOME, ./, /etc/openstack) is empty, and no OS_* variable
// is set.
// Input: clouds.yaml, optionally followed by a line "#@secure.yaml" and the
// secure.yaml. Expected: nullopt with an error, or a config; no exception
// (yaml-cpp's exceptions must be caught inside the loader).

#include "fuzz/fuzzcommon.h"
#include "services/local/cloudconfig.h"

#include <QProcessEnvironment>

static QString g_clouds;
static QString g_secure;

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::initQt();
    for (const QString &name : QProcessEnvironment::systemEnvironment().keys()) {
        if (name.startsWith(QLatin1String("OS_")))
            qunsetenv(name.toLatin1().constData());
    }
    const QString dir = fuzz::scratchDir();
    g_clouds = dir + QStringLiteral("/clouds.yaml");
    g_secure = dir + QStringLiteral("/secure.yaml");
    QDir().mkpath(dir + QStringLiteral("/xdg"));
    qputenv("OS_CLIENT_CONFIG_FILE", g_clouds.toLocal8Bit());
    qputenv("OS_CLIENT_SECURE_FILE", g_secure.toLocal8Bit());
    qputenv("XDG_CONFIG_HOME", (dir + QStringLiteral("/xdg")).toLocal8Bit());
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const fuzz::Split parts = fuzz::splitAt(fuzz::bytes(data, size), QByteArrayLiteral("#@secure.yaml"));
    fuzz::writeFile(g_clouds, parts.before);
    if (parts.found)
        fuzz::writeFile(g_secure, parts.after);
    else
        QFile::remove(g_secure);

    QString error;
    QStringList names = CloudConfigLoader::cloudNames(&error);
    names.append(QStringLiteral("not-in-the-file"));
    int tried = 0;
    for (const QString &name : names) {
        if (++tried > 8)
            break;
        QString loadError;
        const std::optional<CloudConfig> config = CloudConfigLoader::load(name, &loadError);
        if (config) {
            FUZZ_CHECK(config->verify, "a cloud with verify: false was accepted");
            FUZZ_CHECK(!config->authUrl.isEmpty(), "a cloud without auth_url was accepted");
            (void)config->secretKey();
        } else {
            FUZZ_CHECK(
                !loadError.isEmpty(), "load(\"%s\") failed without an error", qPrintable(name.left(80)));
        }
    }
    return 0;
}
