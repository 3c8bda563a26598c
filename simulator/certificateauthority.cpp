#include "simulator/certificateauthority.h"

#include <memory>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <stdexcept>

namespace {

struct Deleter
{
    void operator()(EVP_PKEY *p) const { EVP_PKEY_free(p); }
    void operator()(X509 *p) const { X509_free(p); }
    void operator()(BIO *p) const { BIO_free(p); }
    void operator()(X509_EXTENSION *p) const { X509_EXTENSION_free(p); }
};
template<typename T> using Owned = std::unique_ptr<T, Deleter>;

void check(bool ok, const char *what)
{
    if (!ok)
        throw std::runtime_error(std::string("OpenSSL failed: ") + what);
}

Owned<EVP_PKEY> newKey()
{
    Owned<EVP_PKEY> key(EVP_EC_gen("P-256"));
    check(key != nullptr, "EC key generation");
    return key;
}

QByteArray toPem(X509 *cert)
{
    Owned<BIO> bio(BIO_new(BIO_s_mem()));
    check(PEM_write_bio_X509(bio.get(), cert) == 1, "writing a certificate");
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio.get(), &data);
    return QByteArray(data, int(size));
}

QByteArray toPem(EVP_PKEY *key)
{
    Owned<BIO> bio(BIO_new(BIO_s_mem()));
    // Traditional "EC PRIVATE KEY" PEM: what kubeconfigs usually carry.
    check(PEM_write_bio_PrivateKey_traditional(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) == 1,
        "writing a key");
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio.get(), &data);
    return QByteArray(data, int(size));
}

Owned<X509> fromPem(const QByteArray &pem)
{
    Owned<BIO> bio(BIO_new_mem_buf(pem.constData(), int(pem.size())));
    Owned<X509> cert(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
    check(cert != nullptr, "reading a certificate");
    return cert;
}

Owned<EVP_PKEY> keyFromPem(const QByteArray &pem)
{
    Owned<BIO> bio(BIO_new_mem_buf(pem.constData(), int(pem.size())));
    Owned<EVP_PKEY> key(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
    check(key != nullptr, "reading a key");
    return key;
}

void addExtension(X509 *cert, X509 *issuer, int nid, const char *value)
{
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
    Owned<X509_EXTENSION> ext(X509V3_EXT_conf_nid(nullptr, &ctx, nid, value));
    check(ext != nullptr, "making an extension");
    check(X509_add_ext(cert, ext.get(), -1) == 1, "adding an extension");
}

Owned<X509> newCertificate(EVP_PKEY *key, const QString &cn, const QString &org, int days)
{
    Owned<X509> cert(X509_new());
    check(cert != nullptr, "X509_new");
    X509_set_version(cert.get(), 2);
    unsigned char serial[16];
    RAND_bytes(serial, sizeof serial);
    serial[0] &= 0x7f;
    BIGNUM *bn = BN_bin2bn(serial, sizeof serial, nullptr);
    BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(cert.get()));
    BN_free(bn);
    X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
    X509_gmtime_adj(X509_getm_notAfter(cert.get()), long(days) * 24 * 3600);
    X509_set_pubkey(cert.get(), key);
    X509_NAME *name = X509_get_subject_name(cert.get());
    const QByteArray cnBytes = cn.toUtf8();
    X509_NAME_add_entry_by_txt(
        name, "CN", MBSTRING_UTF8, reinterpret_cast<const unsigned char *>(cnBytes.constData()), -1, -1, 0);
    if (!org.isEmpty()) {
        const QByteArray orgBytes = org.toUtf8();
        X509_NAME_add_entry_by_txt(name, "O", MBSTRING_UTF8,
            reinterpret_cast<const unsigned char *>(orgBytes.constData()), -1, -1, 0);
    }
    return cert;
}

} // namespace

CertificateAuthority::CertificateAuthority(const QString &commonName)
{
    Owned<EVP_PKEY> key = newKey();
    Owned<X509> cert = newCertificate(key.get(), commonName, QString(), 30);
    X509_set_issuer_name(cert.get(), X509_get_subject_name(cert.get()));
    addExtension(cert.get(), cert.get(), NID_basic_constraints, "critical,CA:TRUE");
    addExtension(cert.get(), cert.get(), NID_key_usage, "critical,keyCertSign,cRLSign,digitalSignature");
    addExtension(cert.get(), cert.get(), NID_subject_key_identifier, "hash");
    check(X509_sign(cert.get(), key.get(), EVP_sha256()) > 0, "signing the CA");
    m_ca.certificatePem = toPem(cert.get());
    m_ca.keyPem = toPem(key.get());
}

CertificateAuthority::Issued CertificateAuthority::issue(
    const QString &commonName, const QString &organization, bool server) const
{
    Owned<X509> caCert = fromPem(m_ca.certificatePem);
    Owned<EVP_PKEY> caKey = keyFromPem(m_ca.keyPem);
    Owned<EVP_PKEY> key = newKey();
    Owned<X509> cert = newCertificate(key.get(), commonName, organization, 30);
    X509_set_issuer_name(cert.get(), X509_get_subject_name(caCert.get()));
    addExtension(cert.get(), caCert.get(), NID_basic_constraints, "critical,CA:FALSE");
    addExtension(cert.get(), caCert.get(), NID_key_usage, "critical,digitalSignature,keyEncipherment");
    addExtension(cert.get(), caCert.get(), NID_ext_key_usage, server ? "serverAuth" : "clientAuth");
    addExtension(cert.get(), caCert.get(), NID_authority_key_identifier, "keyid:always");
    if (server)
        addExtension(cert.get(), caCert.get(), NID_subject_alt_name, "IP:127.0.0.1,DNS:localhost");
    check(X509_sign(cert.get(), caKey.get(), EVP_sha256()) > 0, "signing a certificate");
    return Issued { toPem(cert.get()), toPem(key.get()) };
}

CertificateAuthority::Issued CertificateAuthority::issueServer(const QString &commonName) const
{
    return issue(commonName, QString(), true);
}

CertificateAuthority::Issued CertificateAuthority::issueClient(
    const QString &user, const QString &group) const
{
    return issue(user, group, false);
}
