// The exporter's web configuration file (`flightdeck-cli serve --web.config.file`), as whoever writes it may
// get it wrong: WebConfig::parse, and the basic authentication header the exporter reads per request.
// Input: the file's text (a line "AUTH:<value>" first, if any, is an Authorization header to read).
// Expected: no crash; a configuration read is consistent (TLS on means a certificate and a key are named, a
// client CA means a client auth policy, client_allowed_sans only where a certificate is required, the
// versions in order), every user's hash is a bcrypt hash, every header one the toolkit allows and on one
// line; an error names what it is about and never repeats a secret (the inline key) of the file.

#include "fuzz/fuzzcommon.h"
#include "services/monitoring/webconfig.h"

#include <yaml-cpp/yaml.h>

namespace {

// The value of tls_server_config.key where the text is YAML holding one, else nothing.
QByteArray inlineKey(const QByteArray &text)
{
    try {
        const YAML::Node root = YAML::Load(text.toStdString());
        if (!root.IsMap())
            return {};
        const YAML::Node tls = root["tls_server_config"];
        if (!tls || !tls.IsMap())
            return {};
        const YAML::Node key = tls["key"];
        return key && key.IsScalar() ? QByteArray::fromStdString(key.Scalar()) : QByteArray();
    } catch (const YAML::Exception &) {
        return {};
    }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::initQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    QByteArray text = fuzz::bytes(data, size);
    if (text.startsWith("AUTH:")) {
        const qsizetype end = text.indexOf('\n');
        const QByteArray header = text.mid(5, end < 0 ? -1 : end - 5);
        if (const auto given = BasicAuth::credentials(header))
            FUZZ_CHECK(!given->first.contains(':'), "a user name with its colon");
        text = end < 0 ? QByteArray() : text.mid(end + 1);
    }
    QString error;
    const std::optional<WebConfig> c = WebConfig::parse(text, QStringLiteral("/etc/flightdeck"), &error);
    if (!c) {
        FUZZ_CHECK(!error.isEmpty(), "refused without a reason");
        // The inline key's value (tls_server_config.key, as YAML reads it, written once in the file) never
        // comes back in the error. (A value of another key that merely looks like one may be quoted back.)
        const QByteArray value = inlineKey(text);
        if (value.size() >= 10 && text.count(value) == 1)
            FUZZ_CHECK(!error.toUtf8().contains(value), "an inline key repeated in an error");
        return 0;
    }
    const WebConfig::Tls &t = c->tls;
    if (t.enabled) {
        FUZZ_CHECK(!t.certFile.isEmpty() || !t.cert.isEmpty(), "TLS without a certificate");
        FUZZ_CHECK(!t.keyFile.isEmpty() || !t.key.isEmpty(), "TLS without a key");
        FUZZ_CHECK(t.minVersion <= t.maxVersion && t.minVersion >= 12 && t.maxVersion <= 13,
            "TLS versions out of order");
        if (!t.clientCaFile.isEmpty() || !t.clientCa.isEmpty())
            FUZZ_CHECK(t.clientAuth != WebConfig::ClientAuth::NoClientCert, "a client CA without a policy");
        if (t.clientAllowedSans)
            FUZZ_CHECK(t.clientAuth == WebConfig::ClientAuth::RequireAnyClientCert
                    || t.clientAuth == WebConfig::ClientAuth::RequireAndVerifyClientCert,
                "client_allowed_sans where no certificate is required");
        for (const QString &f : c->files())
            FUZZ_CHECK(f.startsWith(QLatin1Char('/')), "a file name left relative");
    }
    for (auto it = c->users.cbegin(); it != c->users.cend(); ++it)
        FUZZ_CHECK(BasicAuth::isBcryptHash(it.value()), "a user whose hash is no bcrypt hash");
    static const QList<QByteArray> allowed { "Strict-Transport-Security", "X-Content-Type-Options",
        "X-Frame-Options", "X-XSS-Protection", "Content-Security-Policy" };
    for (const auto &[name, value] : c->headers) {
        FUZZ_CHECK(allowed.contains(name), "a header the toolkit does not allow");
        FUZZ_CHECK(!value.contains('\n') && !value.contains('\r') && !value.isEmpty(),
            "a header value of more than one line");
    }
    FUZZ_CHECK(c->rateIntervalMs >= 0 && c->rateBurst >= 0, "a negative rate limit");
    return 0;
}
