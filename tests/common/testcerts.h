#pragma once

#include <QDir>
#include <QProcess>
#include <QString>
#include <QStringList>

// A test's own small PKI, made with the openssl command in a folder of the test's: a CA, a server
// certificate for 127.0.0.1 and localhost, and a client certificate, each signed by the CA; and a second CA
// that signed nothing of these (a client of another PKI). Files: ca.pem, server.pem, server.key, client.pem,
// client.key, other-ca.pem, other-client.pem, other-client.key. Nothing here outlives the folder.
struct TestCerts
{
    QString dir;
    QString error; // why they could not be made (empty: made)

    explicit TestCerts(const QString &folder)
        : dir(folder)
    {
        const auto run = [this](const QStringList &args) {
            if (!error.isEmpty())
                return;
            QProcess p;
            p.setWorkingDirectory(dir);
            p.setProcessChannelMode(QProcess::MergedChannels);
            p.start(QStringLiteral("openssl"), args);
            if (!p.waitForFinished(30000) || p.exitCode() != 0)
                error = QStringLiteral("openssl %1: %2")
                            .arg(args.join(QLatin1Char(' ')), QString::fromUtf8(p.readAll()).left(400));
        };
        const auto ca = [&](const QString &name, const QString &cn) {
            run({ QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                QStringLiteral("ec"), QStringLiteral("-pkeyopt"),
                QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes"),
                QStringLiteral("-keyout"), name + QStringLiteral(".key"), QStringLiteral("-out"),
                name + QStringLiteral(".pem"), QStringLiteral("-days"), QStringLiteral("2"),
                QStringLiteral("-subj"), QStringLiteral("/CN=") + cn });
        };
        const auto leaf = [&](const QString &name, const QString &issuer, const QString &cn,
                              const QString &extensions) {
            run({ QStringLiteral("req"), QStringLiteral("-newkey"), QStringLiteral("ec"),
                QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:prime256v1"),
                QStringLiteral("-nodes"), QStringLiteral("-keyout"), name + QStringLiteral(".key"),
                QStringLiteral("-out"), name + QStringLiteral(".csr"), QStringLiteral("-subj"),
                QStringLiteral("/CN=") + cn });
            QFile ext(QDir(dir).filePath(name + QStringLiteral(".ext")));
            if (ext.open(QIODevice::WriteOnly))
                ext.write(extensions.toUtf8());
            ext.close();
            run({ QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"),
                name + QStringLiteral(".csr"), QStringLiteral("-CA"), issuer + QStringLiteral(".pem"),
                QStringLiteral("-CAkey"), issuer + QStringLiteral(".key"), QStringLiteral("-CAcreateserial"),
                QStringLiteral("-out"), name + QStringLiteral(".pem"), QStringLiteral("-days"),
                QStringLiteral("2"), QStringLiteral("-extfile"), name + QStringLiteral(".ext") });
        };
        ca(QStringLiteral("ca"), QStringLiteral("Flightdeck test CA"));
        ca(QStringLiteral("other-ca"), QStringLiteral("Another CA"));
        leaf(QStringLiteral("server"), QStringLiteral("ca"), QStringLiteral("127.0.0.1"),
            QStringLiteral("subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n"));
        leaf(QStringLiteral("client"), QStringLiteral("ca"), QStringLiteral("prometheus"),
            QStringLiteral("subjectAltName=DNS:prometheus.example\nextendedKeyUsage=clientAuth\n"));
        leaf(QStringLiteral("other-client"), QStringLiteral("other-ca"), QStringLiteral("intruder"),
            QStringLiteral("subjectAltName=DNS:intruder.example\nextendedKeyUsage=clientAuth\n"));
    }

    QString path(const QString &file) const { return QDir(dir).filePath(file); }
};
