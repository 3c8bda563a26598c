#pragma once

#include "simulator/scenario.h"
#include "simulator/simulator.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSignalSpy>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QTest>
#include <memory>

// A running simulated cloud for a test, and a small HTTP client that waits
// for each answer with QSignalSpy::wait (the simulator serves from the same
// event loop meanwhile).
struct Reply
{
    int status = 0;
    QByteArray body;
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    QString errorString;
    QHash<QByteArray, QByteArray> headers; // lower-case names

    QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
};

class SimFixture
{
public:
    // Starts the built-in scenario, or `scenario` when given.
    explicit SimFixture(const QByteArray &scenario = QByteArray())
    {
        QString error;
        const QByteArray json = scenario.isEmpty() ? Scenario::defaultScenario() : scenario;
        if (!Scenario::load(json, sim.world(), sim.faults(), &error))
            qFatal("scenario: %s", qPrintable(error));
        sim.world().registrationDelaySeconds = 1;
        sim.world().replacementBootSeconds = 0;
        if (!sim.start(Simulator::Ports(), &error))
            qFatal("simulator: %s", qPrintable(error));
    }

    Simulator sim;
    QNetworkAccessManager nam;

    QString token()
    {
        if (m_token.isEmpty()) {
            const Reply r = request("POST", sim.authUrl() + QStringLiteral("/auth/tokens"), passwordAuth());
            m_token = QString::fromUtf8(r.headers.value("x-subject-token"));
        }
        return m_token;
    }
    void forgetToken() { m_token.clear(); }

    static QByteArray passwordAuth(const QString &user = QStringLiteral("demo"),
        const QString &password = QStringLiteral("flightdeck-demo"))
    {
        return QStringLiteral(
            R"({"auth": {"identity": {"methods": ["password"], "password": {"user": {"name": "%1",
            "domain": {"name": "Default"}, "password": "%2"}}}, "scope": {"project": {"name": "flightdeck-demo",
            "domain": {"name": "Default"}}}}})")
            .arg(user, password)
            .toUtf8();
    }

    Reply request(const QByteArray &method, const QString &url, const QByteArray &body = QByteArray(),
        const QList<QPair<QByteArray, QByteArray>> &headers = {}, bool auth = false,
        const std::optional<QSslConfiguration> &tls = std::nullopt, int timeoutMs = 15000)
    {
        QNetworkRequest req { QUrl(url) };
        req.setTransferTimeout(timeoutMs);
        if (!body.isEmpty())
            req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        if (auth)
            req.setRawHeader("X-Auth-Token", token().toUtf8());
        for (const auto &h : headers)
            req.setRawHeader(h.first, h.second);
        if (tls) {
            // A pooled connection keeps the client certificate it was opened with.
            nam.clearConnectionCache();
            req.setSslConfiguration(*tls);
        }
        QNetworkReply *reply = nam.sendCustomRequest(req, method, body);
        QSignalSpy finished(reply, &QNetworkReply::finished);
        if (!finished.wait(timeoutMs + 5000))
            qWarning("no answer to %s %s", method.constData(), qPrintable(url));
        Reply r;
        r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        r.body = reply->readAll();
        r.error = reply->error();
        r.errorString = reply->errorString();
        for (const auto &pair : reply->rawHeaderPairs())
            r.headers.insert(pair.first.toLower(), pair.second);
        reply->deleteLater();
        return r;
    }

    Reply get(const QString &url) { return request("GET", url, QByteArray(), {}, true); }

    // TLS to a kluster's API server: our CA, and the kubeconfig's client certificate.
    QSslConfiguration kubernetesTls(bool withClientCertificate = true) const
    {
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.setCaCertificates({ QSslCertificate(sim.caCertificatePem()) });
        if (withClientCertificate) {
            const QByteArray config = sim.kubeconfig(QStringLiteral("demo"));
            auto field = [&config](const QByteArray &key) {
                const qsizetype at = config.indexOf(key + ": ");
                const qsizetype end = config.indexOf('\n', at);
                return QByteArray::fromBase64(config.mid(at + key.size() + 2, end - at - key.size() - 2));
            };
            tls.setLocalCertificate(QSslCertificate(field("client-certificate-data")));
            tls.setPrivateKey(QSslKey(field("client-key-data"), QSsl::Ec));
        }
        return tls;
    }

private:
    QString m_token;
};
