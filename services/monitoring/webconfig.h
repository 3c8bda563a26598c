#pragma once

#include "services/monitoring/basicauth.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QMap>
#include <QPair>
#include <QSslConfiguration>
#include <QString>
#include <QStringList>
#include <optional>

class QSslCertificate;

// The exporter's web configuration file (`flightdeck-cli serve --web.config.file`), in the Prometheus
// ecosystem's schema (prometheus/exporter-toolkit docs/web-configuration.md, as node_exporter reads it):
//
//   tls_server_config:      cert_file/key_file (or cert/key inline), client_ca_file (or client_ca),
//                           client_auth_type, client_allowed_sans, min_version, max_version,
//                           cipher_suites, curve_preferences, prefer_server_cipher_suites
//   http_server_config:     http2 (taken, not used: the exporter speaks HTTP/1.1), headers (the five the
//                           toolkit allows, with its allowed values)
//   basic_auth_users:       user: bcrypt hash ($2a$, $2b$ or $2y$; checked with the system's crypt)
//   rate_limit:             interval (a Go duration), burst
//
// Read strictly, as the toolkit reads it: an unknown key, a value of another type, a header or a value it
// does not allow, a hash that is no bcrypt hash, a client CA without a client auth policy are errors that
// name the key. Relative file names are relative to the file's folder. What the toolkit takes and the
// exporter cannot do is refused by name (VerifyClientCertIfGiven; TLS 1.0 and 1.1), never ignored.
struct WebConfig
{
    enum class ClientAuth
    {
        NoClientCert,
        RequestClientCert, // asked for, neither required nor verified
        RequireAnyClientCert, // required, not verified
        RequireAndVerifyClientCert, // required and verified against the client CA
    };

    struct Tls
    {
        bool enabled = false; // any TLS key set
        QString certFile;
        QString keyFile;
        QString clientCaFile;
        QByteArray cert; // inline PEM
        QByteArray key;
        QByteArray clientCa;
        ClientAuth clientAuth = ClientAuth::NoClientCert;
        std::optional<QStringList> clientAllowedSans; // set: the client's certificate names one of them
        int minVersion = 12; // 12 or 13: TLS 1.2, 1.3
        int maxVersion = 13;
        QStringList ciphers; // OpenSSL's names of the suites given (Go's names in the file)
        QStringList curves; // OpenSSL's short names
        bool preferServerCipherSuites = true;
    };

    Tls tls;
    bool http2 = true;
    QList<QPair<QByteArray, QByteArray>> headers; // added to every answer
    QMap<QString, QByteArray> users; // name → bcrypt hash; empty: no authentication
    qint64 rateIntervalMs = 0; // 0: no rate limit
    int rateBurst = 0;

    // The file's text read (`directory`: where relative names start); nullopt with `error` naming the key.
    static std::optional<WebConfig> parse(const QByteArray &yaml, const QString &directory, QString *error);
    // The file read and parsed, its certificates and keys read and checked (a pair that does not match, a
    // CA that holds no certificate); nullopt with `error` ("<file>: <key>: why").
    static std::optional<WebConfig> load(const QString &path, QString *error);

    // The TLS configuration of a server connection: the files read now (so that certificates rotate), the
    // versions, suites and curves, and the client CA; nullopt with `error`.
    std::optional<QSslConfiguration> tlsConfiguration(QString *error) const;
    // After the handshake: whether the client's certificate passes what the configuration asks of it (one
    // given where one is required, a name of client_allowed_sans); false with `why`.
    bool acceptsPeer(const QSslCertificate &peer, QString *why) const;

    // Every file it reads, for noticing a change (the configuration file itself included by the caller).
    QStringList files() const;
};
