#pragma once

#include <QJsonObject>
#include <QList>
#include <QNetworkAccessManager>
#include <QString>

// The API conformance checks: the same requests, in the same order, sent to a
// cloud (the real Keystone, Neutron and Nova, or the simulated cloud), with
// what each answered: status, error type and the facts that matter. The
// simulator must answer as the real servers do; a test runs the checks on both
// and compares. Test code: it waits for each answer (QSignalSpy).
namespace Conformance {

// What the checks need: a user that may change the router and the group,
// and the objects to act on (made by the caller: a scenario, or a fixture
// through the real APIs).
struct Target
{
    QString authUrl; // http://host:port/v3
    QString user;
    QString password;
    QString project;
    QString routerId; // a router with an interface on `subnetCidr`
    QString nexthopA; // addresses on that subnet
    QString nexthopB;
    QString outsideNexthop; // an address on no subnet of the router
    QString securityGroupId; // a group the user owns, for rules
    QString serverId; // a server that has `serverGroup`
    QString serverGroup;
    QString serverToDelete; // a server the checks may delete
};

struct Observation
{
    QString check;
    int status = 0;
    QString
        type; // the error's type (NeutronError type, Nova fault key, Keystone error title), empty on success
    QString facts; // what else the check compares, in words
    QString message; // the server's message, for people (not compared)

    bool sameAs(const Observation &o) const
    {
        return check == o.check && status == o.status && type == o.type && facts == o.facts;
    }
    QString toString() const;
};

// Runs every check in order against `target`; `error` names a failure to run at all.
QList<Observation> run(const Target &target, QString *error);

// Minimal synchronous HTTP for test fixtures.
struct Reply
{
    int status = 0;
    QByteArray body;
    QHash<QByteArray, QByteArray> headers; // lower-case names
    QString networkError;
    QJsonObject json() const;
};
Reply request(QNetworkAccessManager &nam, const QByteArray &method, const QString &url,
    const QByteArray &body = QByteArray(), const QList<QPair<QByteArray, QByteArray>> &headers = {},
    int timeoutMs = 60000);

// A password token and the catalog's public endpoints by type.
struct Session
{
    QString token;
    QHash<QString, QString> endpoints;
    QString projectId;
    QString userId;
    QString error;
};
Session login(QNetworkAccessManager &nam, const QString &authUrl, const QString &user,
    const QString &password, const QString &project);

} // namespace Conformance
