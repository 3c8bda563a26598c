#pragma once

#include <QByteArray>
#include <QSslCertificate>
#include <QSslKey>
#include <QString>

// A throwaway certificate authority, made at start: it signs the simulated
// Kubernetes API servers' certificates (for 127.0.0.1 and localhost) and the
// client certificates of the kubeconfigs the simulated Kubernikus hands out.
// Keys are EC P-256 and live in memory only.
class CertificateAuthority
{
public:
    struct Issued
    {
        QByteArray certificatePem;
        QByteArray keyPem;
        QSslCertificate certificate() const { return QSslCertificate(certificatePem, QSsl::Pem); }
        QSslKey key() const { return QSslKey(keyPem, QSsl::Ec, QSsl::Pem); }
    };

    // Throws std::runtime_error when OpenSSL fails.
    explicit CertificateAuthority(const QString &commonName = QStringLiteral("flightdeck-sim-ca"));

    QByteArray certificatePem() const { return m_ca.certificatePem; }
    QSslCertificate certificate() const { return m_ca.certificate(); }

    Issued issueServer(const QString &commonName) const; // SAN: 127.0.0.1, localhost
    Issued issueClient(const QString &user, const QString &group) const; // CN = user, O = group

private:
    Issued issue(const QString &commonName, const QString &organization, bool server) const;
    Issued m_ca;
};
