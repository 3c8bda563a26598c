#include "services/monitoring/webconfig.h"

#include "services/http/httpclient.h"
#include "services/local/localfile.h"

#include <QDir>
#include <QFileInfo>
#include <QSslCertificate>
#include <QSslCipher>
#include <QSslEllipticCurve>
#include <QSslKey>
#include <cctype>
#include <memory>
#include <openssl/bio.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <yaml-cpp/yaml.h>

namespace {

struct Named
{
    const char *file; // as the file names it (Go's names)
    const char *openssl; // as OpenSSL names it; null: taken, not configurable (TLS 1.3's suites)
};

// Go's crypto/tls CipherSuites(), as the toolkit takes them, and OpenSSL's names of the same suites.
constexpr Named cipherNames[] = {
    { "TLS_RSA_WITH_AES_128_CBC_SHA", "AES128-SHA" },
    { "TLS_RSA_WITH_AES_256_CBC_SHA", "AES256-SHA" },
    { "TLS_RSA_WITH_AES_128_GCM_SHA256", "AES128-GCM-SHA256" },
    { "TLS_RSA_WITH_AES_256_GCM_SHA384", "AES256-GCM-SHA384" },
    { "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA", "ECDHE-ECDSA-AES128-SHA" },
    { "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA", "ECDHE-ECDSA-AES256-SHA" },
    { "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", "ECDHE-RSA-AES128-SHA" },
    { "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA", "ECDHE-RSA-AES256-SHA" },
    { "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "ECDHE-ECDSA-AES128-GCM-SHA256" },
    { "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "ECDHE-ECDSA-AES256-GCM-SHA384" },
    { "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "ECDHE-RSA-AES128-GCM-SHA256" },
    { "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", "ECDHE-RSA-AES256-GCM-SHA384" },
    { "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", "ECDHE-RSA-CHACHA20-POLY1305" },
    { "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", "ECDHE-ECDSA-CHACHA20-POLY1305" },
    { "TLS_AES_128_GCM_SHA256", nullptr },
    { "TLS_AES_256_GCM_SHA384", nullptr },
    { "TLS_CHACHA20_POLY1305_SHA256", nullptr },
};

constexpr Named curveNames[] = {
    { "CurveP256", "prime256v1" },
    { "CurveP384", "secp384r1" },
    { "CurveP521", "secp521r1" },
    { "X25519", "X25519" },
};

// The headers the toolkit lets a file set, and the values it allows (none listed: any).
struct AllowedHeader
{
    const char *name;
    QList<QByteArray> values;
};
const QList<AllowedHeader> &allowedHeaders()
{
    static const QList<AllowedHeader> headers {
        { "Strict-Transport-Security", {} },
        { "X-Content-Type-Options", { "nosniff" } },
        { "X-Frame-Options", { "deny", "sameorigin" } },
        { "X-XSS-Protection", {} },
        { "Content-Security-Policy", {} },
    };
    return headers;
}

// An error in the file: the key's path and why.
struct Invalid
{
    QString message;
};

[[noreturn]] void fail(const QString &path, const QString &why)
{
    throw Invalid { path.isEmpty() ? why : QStringLiteral("%1: %2").arg(path, why) };
}

QString join(const QString &path, const std::string &key)
{
    return path.isEmpty() ? QString::fromStdString(key)
                          : path + QLatin1Char('.') + QString::fromStdString(key);
}

// A mapping's keys, each known (strict, as yaml.UnmarshalStrict reads it); `visit` reads each value.
template<typename Visit>
void forEachKey(const YAML::Node &map, const QString &path, const QStringList &known, Visit visit)
{
    if (!map || map.IsNull())
        return;
    if (!map.IsMap())
        fail(path, QStringLiteral("expected a mapping"));
    for (const auto &entry : map) {
        if (!entry.first.IsScalar())
            fail(path, QStringLiteral("a key must be a plain string"));
        const std::string key = entry.first.Scalar();
        if (!known.contains(QString::fromStdString(key)))
            fail(join(path, key),
                QStringLiteral("unknown key (known here: %1)").arg(known.join(QStringLiteral(", "))));
        visit(QString::fromStdString(key), entry.second, join(path, key));
    }
}

QString text(const YAML::Node &node, const QString &path)
{
    if (node.IsNull())
        return QString();
    if (!node.IsScalar())
        fail(path, QStringLiteral("expected a string"));
    return QString::fromStdString(node.Scalar());
}

bool boolean(const YAML::Node &node, const QString &path)
{
    const QString t = text(node, path).toLower();
    if (t == QLatin1String("true"))
        return true;
    if (t == QLatin1String("false"))
        return false;
    fail(path, QStringLiteral("expected true or false"));
}

QStringList strings(const YAML::Node &node, const QString &path)
{
    QStringList out;
    if (node.IsNull())
        return out;
    if (!node.IsSequence())
        fail(path, QStringLiteral("expected a list of strings"));
    for (std::size_t i = 0; i < node.size(); ++i)
        out << text(node[i], QStringLiteral("%1[%2]").arg(path).arg(i));
    return out;
}

int tlsVersion(const YAML::Node &node, const QString &path)
{
    const QString v = text(node, path);
    if (v == QLatin1String("TLS12"))
        return 12;
    if (v == QLatin1String("TLS13"))
        return 13;
    if (v == QLatin1String("TLS10") || v == QLatin1String("TLS11"))
        fail(path, QStringLiteral("%1 is not offered (this OpenSSL refuses it): TLS12 or TLS13").arg(v));
    fail(path, QStringLiteral("\"%1\" is none of TLS10, TLS11, TLS12, TLS13").arg(v.left(40)));
}

const char *opensslName(const Named *table, std::size_t size, const QString &name, bool *known)
{
    for (std::size_t i = 0; i < size; ++i) {
        if (name == QLatin1String(table[i].file)) {
            *known = true;
            return table[i].openssl;
        }
    }
    *known = false;
    return nullptr;
}

// A Go duration: "500ms", "1s", "1m30s", "2h"; milliseconds, or -1.
qint64 durationMs(const QString &text)
{
    if (text == QLatin1String("0"))
        return 0;
    static const QList<QPair<QString, double>> units { { QStringLiteral("ns"), 1e-6 },
        { QStringLiteral("us"), 1e-3 }, { QStringLiteral("µs"), 1e-3 }, { QStringLiteral("ms"), 1 },
        { QStringLiteral("s"), 1000 }, { QStringLiteral("m"), 60000 }, { QStringLiteral("h"), 3600000 } };
    double total = 0;
    qsizetype i = 0;
    if (text.isEmpty())
        return -1;
    while (i < text.size()) {
        const qsizetype start = i;
        while (i < text.size() && (text[i].isDigit() || text[i] == QLatin1Char('.')))
            ++i;
        bool ok = false;
        const double n = text.mid(start, i - start).toDouble(&ok);
        if (!ok)
            return -1;
        const qsizetype unitStart = i;
        while (i < text.size() && !text[i].isDigit() && text[i] != QLatin1Char('.'))
            ++i;
        const QString unit = text.mid(unitStart, i - unitStart);
        double scale = -1;
        for (const auto &u : units) {
            if (u.first == unit)
                scale = u.second;
        }
        if (scale < 0)
            return -1;
        total += n * scale;
    }
    return total > 1e12 ? -1 : qint64(total);
}

QString inFolder(const QString &directory, const QString &file)
{
    // A name starting with ':' is a file of that name here, never one of the program's own resources
    // (which QDir takes it for).
    if (file.isEmpty() || (QDir::isAbsolutePath(file) && !file.startsWith(QLatin1Char(':'))))
        return file;
    return QDir::cleanPath(directory + QLatin1Char('/') + file);
}

// Whether the private key (PEM) is the one of the certificate's public key.
bool keyMatchesCertificate(const QByteArray &certPem, const QByteArray &keyPem)
{
    const std::unique_ptr<BIO, decltype(&BIO_free)> certBio(
        BIO_new_mem_buf(certPem.constData(), int(certPem.size())), BIO_free);
    const std::unique_ptr<BIO, decltype(&BIO_free)> keyBio(
        BIO_new_mem_buf(keyPem.constData(), int(keyPem.size())), BIO_free);
    if (!certBio || !keyBio)
        return false;
    const std::unique_ptr<X509, decltype(&X509_free)> cert(
        PEM_read_bio_X509(certBio.get(), nullptr, nullptr, nullptr), X509_free);
    // No passphrase callback: an encrypted key is refused, never asked for.
    const std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(
        PEM_read_bio_PrivateKey(
            keyBio.get(), nullptr, [](char *, int, int, void *) { return 0; }, nullptr),
        EVP_PKEY_free);
    return cert && key && X509_check_private_key(cert.get(), key.get()) == 1;
}

std::optional<QByteArray> readPem(const QString &file, const QByteArray &inline_, QString *error)
{
    if (file.isEmpty())
        return inline_;
    return LocalFile::read(file, LocalFile::ConfigLimit, error);
}

} // namespace

std::optional<WebConfig> WebConfig::parse(const QByteArray &yaml, const QString &directory, QString *error)
{
    WebConfig c;
    try {
        YAML::Node root;
        try {
            root = YAML::Load(yaml.toStdString());
        } catch (const YAML::Exception &e) {
            fail(QString(), QStringLiteral("not YAML: %1").arg(QString::fromStdString(e.msg)));
        }
        if (root.IsScalar() && root.Scalar().empty())
            return c; // an empty file: no TLS, no authentication
        const QStringList topKeys { QStringLiteral("tls_server_config"), QStringLiteral("http_server_config"),
            QStringLiteral("basic_auth_users"), QStringLiteral("rate_limit") };
        bool haveCertFile = false;
        bool haveKeyFile = false;
        bool haveCaFile = false;
        forEachKey(
            root, QString(), topKeys, [&](const QString &key, const YAML::Node &value, const QString &path) {
                if (key == QLatin1String("tls_server_config")) {
                    const QStringList keys { QStringLiteral("cert"), QStringLiteral("key"),
                        QStringLiteral("client_ca"), QStringLiteral("cert_file"), QStringLiteral("key_file"),
                        QStringLiteral("client_auth_type"), QStringLiteral("client_ca_file"),
                        QStringLiteral("client_allowed_sans"), QStringLiteral("min_version"),
                        QStringLiteral("max_version"), QStringLiteral("cipher_suites"),
                        QStringLiteral("prefer_server_cipher_suites"), QStringLiteral("curve_preferences") };
                    forEachKey(
                        value, path, keys, [&](const QString &k, const YAML::Node &v, const QString &p) {
                            if (k == QLatin1String("cert")) {
                                c.tls.cert = text(v, p).toUtf8();
                            } else if (k == QLatin1String("key")) {
                                c.tls.key = text(v, p).toUtf8();
                            } else if (k == QLatin1String("client_ca")) {
                                c.tls.clientCa = text(v, p).toUtf8();
                            } else if (k == QLatin1String("cert_file")) {
                                c.tls.certFile = text(v, p);
                                haveCertFile = !c.tls.certFile.isEmpty();
                            } else if (k == QLatin1String("key_file")) {
                                c.tls.keyFile = text(v, p);
                                haveKeyFile = !c.tls.keyFile.isEmpty();
                            } else if (k == QLatin1String("client_ca_file")) {
                                c.tls.clientCaFile = text(v, p);
                                haveCaFile = !c.tls.clientCaFile.isEmpty();
                            } else if (k == QLatin1String("client_auth_type")) {
                                const QString a = text(v, p);
                                if (a.isEmpty() || a == QLatin1String("NoClientCert"))
                                    c.tls.clientAuth = ClientAuth::NoClientCert;
                                else if (a == QLatin1String("RequestClientCert"))
                                    c.tls.clientAuth = ClientAuth::RequestClientCert;
                                else if (a == QLatin1String("RequireAnyClientCert")
                                    || a == QLatin1String("RequireClientCert"))
                                    c.tls.clientAuth = ClientAuth::RequireAnyClientCert;
                                else if (a == QLatin1String("RequireAndVerifyClientCert"))
                                    c.tls.clientAuth = ClientAuth::RequireAndVerifyClientCert;
                                else if (a == QLatin1String("VerifyClientCertIfGiven"))
                                    fail(p,
                                        QStringLiteral(
                                            "VerifyClientCertIfGiven is not offered by flightdeck-cli serve: "
                                            "RequireAndVerifyClientCert (the secure one) or NoClientCert"));
                                else
                                    fail(p, QStringLiteral("invalid ClientAuth: \"%1\"").arg(a.left(40)));
                                c.tls.enabled = c.tls.enabled || !a.isEmpty();
                            } else if (k == QLatin1String("client_allowed_sans")) {
                                c.tls.clientAllowedSans = strings(v, p);
                            } else if (k == QLatin1String("min_version")) {
                                c.tls.minVersion = tlsVersion(v, p);
                            } else if (k == QLatin1String("max_version")) {
                                c.tls.maxVersion = tlsVersion(v, p);
                            } else if (k == QLatin1String("prefer_server_cipher_suites")) {
                                c.tls.preferServerCipherSuites = boolean(v, p);
                            } else if (k == QLatin1String("cipher_suites")) {
                                for (const QString &name : strings(v, p)) {
                                    bool known = false;
                                    const char *openssl
                                        = opensslName(cipherNames, std::size(cipherNames), name, &known);
                                    if (!known)
                                        fail(p, QStringLiteral("unknown cipher: %1").arg(name.left(60)));
                                    if (openssl)
                                        c.tls.ciphers << QLatin1String(openssl);
                                }
                            } else if (k == QLatin1String("curve_preferences")) {
                                for (const QString &name : strings(v, p)) {
                                    bool known = false;
                                    const char *openssl
                                        = opensslName(curveNames, std::size(curveNames), name, &known);
                                    if (!known)
                                        fail(p, QStringLiteral("unknown curve: %1").arg(name.left(60)));
                                    c.tls.curves << QLatin1String(openssl);
                                }
                            }
                        });
                    c.tls.enabled = c.tls.enabled || !c.tls.cert.isEmpty() || !c.tls.key.isEmpty()
                        || !c.tls.clientCa.isEmpty() || haveCertFile || haveKeyFile || haveCaFile;
                } else if (key == QLatin1String("http_server_config")) {
                    forEachKey(value, path, { QStringLiteral("http2"), QStringLiteral("headers") },
                        [&](const QString &k, const YAML::Node &v, const QString &p) {
                            if (k == QLatin1String("http2")) {
                                c.http2 = boolean(v, p);
                                return;
                            }
                            if (v.IsNull())
                                return;
                            if (!v.IsMap())
                                fail(p, QStringLiteral("expected a mapping of header names to values"));
                            for (const auto &h : v) {
                                const QString name = text(h.first, p);
                                const QString hp = p + QLatin1Char('.') + name.left(60);
                                const QByteArray value = text(h.second, hp).toUtf8();
                                const AllowedHeader *allowed = nullptr;
                                for (const AllowedHeader &a : allowedHeaders()) {
                                    if (name == QLatin1String(a.name))
                                        allowed = &a;
                                }
                                if (!allowed)
                                    fail(hp,
                                        QStringLiteral("HTTP header \"%1\" can not be configured")
                                            .arg(name.left(60)));
                                if (!allowed->values.isEmpty() && !allowed->values.contains(value))
                                    fail(hp,
                                        QStringLiteral("invalid value: expected one of %1")
                                            .arg(QString::fromLatin1(allowed->values.join(", "))));
                                if (value.contains('\r') || value.contains('\n') || value.contains('\0'))
                                    fail(hp, QStringLiteral("a header value is one line"));
                                if (!value.isEmpty()) // blank: unset
                                    c.headers.append({ name.toLatin1(), value });
                            }
                        });
                } else if (key == QLatin1String("basic_auth_users")) {
                    if (value.IsNull())
                        return;
                    if (!value.IsMap())
                        fail(path, QStringLiteral("expected a mapping of user names to bcrypt hashes"));
                    for (const auto &u : value) {
                        const QString user = text(u.first, path);
                        const QString up = path + QLatin1Char('.') + user.left(60);
                        const QByteArray hash = text(u.second, up).toUtf8();
                        if (!BasicAuth::isBcryptHash(hash))
                            fail(up,
                                QStringLiteral("not a bcrypt hash ($2y$10$… as htpasswd -nBC 10 or "
                                               "flightdeck-cli serve --hash-password makes one)"));
                        c.users.insert(user, hash);
                    }
                } else if (key == QLatin1String("rate_limit")) {
                    forEachKey(value, path, { QStringLiteral("interval"), QStringLiteral("burst") },
                        [&](const QString &k, const YAML::Node &v, const QString &p) {
                            if (k == QLatin1String("interval")) {
                                const qint64 ms = durationMs(text(v, p));
                                if (ms < 0)
                                    fail(p, QStringLiteral("not a duration (500ms, 1s, 1m)"));
                                c.rateIntervalMs = ms;
                            } else {
                                bool ok = false;
                                const int burst = text(v, p).toInt(&ok);
                                if (!ok || burst < 0)
                                    fail(p, QStringLiteral("not a count"));
                                c.rateBurst = burst;
                            }
                        });
                }
            });
        if (c.tls.enabled) {
            if (c.tls.certFile.isEmpty() && c.tls.cert.isEmpty())
                fail(QStringLiteral("tls_server_config"), QStringLiteral("missing one of cert or cert_file"));
            if (c.tls.keyFile.isEmpty() && c.tls.key.isEmpty())
                fail(QStringLiteral("tls_server_config"), QStringLiteral("missing one of key or key_file"));
            if ((!c.tls.clientCaFile.isEmpty() || !c.tls.clientCa.isEmpty())
                && c.tls.clientAuth == ClientAuth::NoClientCert)
                fail(QStringLiteral("tls_server_config"),
                    QStringLiteral("client CA's have been configured without a Client Auth Policy"));
            if (c.tls.clientAuth == ClientAuth::RequireAndVerifyClientCert && c.tls.clientCaFile.isEmpty()
                && c.tls.clientCa.isEmpty())
                fail(QStringLiteral("tls_server_config.client_auth_type"),
                    QStringLiteral("RequireAndVerifyClientCert needs client_ca_file (or client_ca)"));
            if (c.tls.clientAllowedSans && c.tls.clientAuth != ClientAuth::RequireAnyClientCert
                && c.tls.clientAuth != ClientAuth::RequireAndVerifyClientCert)
                fail(QStringLiteral("tls_server_config.client_allowed_sans"),
                    QStringLiteral("requires client_auth_type to be one of RequireAnyClientCert or "
                                   "RequireAndVerifyClientCert"));
            if (c.tls.minVersion > c.tls.maxVersion)
                fail(QStringLiteral("tls_server_config"), QStringLiteral("min_version is above max_version"));
            c.tls.certFile = inFolder(directory, c.tls.certFile);
            c.tls.keyFile = inFolder(directory, c.tls.keyFile);
            c.tls.clientCaFile = inFolder(directory, c.tls.clientCaFile);
        }
    } catch (const Invalid &e) {
        if (error)
            *error = e.message;
        return std::nullopt;
    } catch (const YAML::Exception &e) {
        if (error)
            *error = QString::fromStdString(e.msg);
        return std::nullopt;
    }
    return c;
}

std::optional<WebConfig> WebConfig::load(const QString &path, QString *error)
{
    QString why;
    const std::optional<QByteArray> bytes = LocalFile::read(path, LocalFile::ConfigLimit, &why);
    if (!bytes) {
        *error = why;
        return std::nullopt;
    }
    std::optional<WebConfig> c = parse(*bytes, QFileInfo(path).absolutePath(), &why);
    if (!c) {
        *error = QStringLiteral("%1: %2").arg(path, why);
        return std::nullopt;
    }
    if (c->tls.enabled && !c->tlsConfiguration(&why)) {
        *error = QStringLiteral("%1: tls_server_config: %2").arg(path, why);
        return std::nullopt;
    }
    return c;
}

std::optional<QSslConfiguration> WebConfig::tlsConfiguration(QString *error) const
{
    const std::optional<QByteArray> certPem = readPem(tls.certFile, tls.cert, error);
    if (!certPem)
        return std::nullopt;
    const std::optional<QByteArray> keyPem = readPem(tls.keyFile, tls.key, error);
    if (!keyPem)
        return std::nullopt;
    const QList<QSslCertificate> chain = QSslCertificate::fromData(*certPem, QSsl::Pem);
    if (chain.isEmpty()) {
        *error = QStringLiteral("%1 holds no PEM certificate")
                     .arg(tls.certFile.isEmpty() ? QStringLiteral("cert") : tls.certFile);
        return std::nullopt;
    }
    const QSslKey key = privateKeyFromPem(*keyPem);
    if (key.isNull()) {
        *error = QStringLiteral("%1 holds no PEM private key (RSA, EC or DSA, unencrypted)")
                     .arg(tls.keyFile.isEmpty() ? QStringLiteral("key") : tls.keyFile);
        return std::nullopt;
    }
    if (!keyMatchesCertificate(chain.first().toPem(), *keyPem)) {
        *error = QStringLiteral("the private key does not belong to the certificate");
        return std::nullopt;
    }
    QSslConfiguration c = QSslConfiguration::defaultConfiguration();
    c.setLocalCertificate(chain.first());
    if (chain.size() > 1)
        c.setLocalCertificateChain(chain);
    c.setPrivateKey(key);
    c.setProtocol(tls.minVersion == 13 ? QSsl::TlsV1_3OrLater
            : tls.maxVersion == 12     ? QSsl::TlsV1_2
                                       : QSsl::TlsV1_2OrLater);
    if (!tls.ciphers.isEmpty()) {
        QList<QSslCipher> ciphers;
        for (const QString &name : tls.ciphers) {
            const QSslCipher cipher(name);
            if (!cipher.isNull())
                ciphers << cipher;
        }
        if (ciphers.isEmpty()) {
            *error = QStringLiteral("none of cipher_suites is offered by this OpenSSL");
            return std::nullopt;
        }
        c.setCiphers(ciphers);
    }
    if (!tls.curves.isEmpty()) {
        QList<QSslEllipticCurve> curves;
        for (const QString &name : tls.curves) {
            const QSslEllipticCurve curve = QSslEllipticCurve::fromShortName(name);
            if (curve.isValid())
                curves << curve;
        }
        c.setEllipticCurves(curves);
    }
    c.setSslOption(QSsl::SslOptionDisableServerCipherPreference, !tls.preferServerCipherSuites);
    switch (tls.clientAuth) {
    case ClientAuth::NoClientCert:
        c.setPeerVerifyMode(QSslSocket::VerifyNone);
        break;
    case ClientAuth::RequestClientCert:
    case ClientAuth::RequireAnyClientCert: // required after the handshake (acceptsPeer)
        c.setPeerVerifyMode(QSslSocket::QueryPeer);
        break;
    case ClientAuth::RequireAndVerifyClientCert: {
        const std::optional<QByteArray> ca = readPem(tls.clientCaFile, tls.clientCa, error);
        if (!ca)
            return std::nullopt;
        const QList<QSslCertificate> cas = QSslCertificate::fromData(*ca, QSsl::Pem);
        if (cas.isEmpty()) {
            *error = QStringLiteral("%1 holds no PEM certificate")
                         .arg(tls.clientCaFile.isEmpty() ? QStringLiteral("client_ca") : tls.clientCaFile);
            return std::nullopt;
        }
        c.setCaCertificates(cas); // the client CA alone, not the system's
        c.setPeerVerifyMode(QSslSocket::VerifyPeer);
        break;
    }
    }
    return c;
}

bool WebConfig::acceptsPeer(const QSslCertificate &peer, QString *why) const
{
    const bool required = tls.clientAuth == ClientAuth::RequireAnyClientCert
        || tls.clientAuth == ClientAuth::RequireAndVerifyClientCert;
    if (required && peer.isNull()) {
        *why = QStringLiteral("no client certificate");
        return false;
    }
    if (!tls.clientAllowedSans)
        return true;
    const auto names = peer.subjectAlternativeNames();
    for (auto it = names.cbegin(); it != names.cend(); ++it) {
        if (tls.clientAllowedSans->contains(it.value()))
            return true;
    }
    *why = QStringLiteral("the client certificate names none of client_allowed_sans");
    return false;
}

QStringList WebConfig::files() const
{
    QStringList out;
    for (const QString &f : { tls.certFile, tls.keyFile, tls.clientCaFile }) {
        if (!f.isEmpty())
            out << f;
    }
    return out;
}
