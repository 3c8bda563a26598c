#pragma once

#include "simulator/httpserver.h"

#include <QJsonObject>
#include <QList>
#include <QRegularExpression>
#include <QString>
#include <optional>

// Fault injection: rules that match requests by service, method and path,
// and make the answer slow, wrong or absent. Loaded with a scenario and
// switchable while running (the admin API).
struct FaultRule
{
    enum class Kind
    {
        Latency, // answer after `latencyMs`
        Status, // answer `status` (429/503 with Retry-After, 500, ...) in the service's error shape
        Malformed, // 200 with a body that is not JSON
        Truncated, // the right answer, cut off halfway; the connection closes
        Html, // an HTML error page from a "proxy" (502 by default)
        Drop, // close the connection without an answer
        ExpireTokens, // every token expires before the request is handled
        ConcurrentWrite, // someone else changes the router before this request is handled
        Trickle, // the answer comes one byte every `latencyMs` (never idle long, never done)
        EndlessContinue, // a Kubernetes list always says there is more (metadata.continue, the same token)
    };

    QString id;
    // keystone, compute, network, image, kubernetes (every kluster's API server) or kubernetes:<kluster>
    // (one), kubernikus; empty: any
    QString service;
    QString method; // empty: any
    QRegularExpression path; // empty pattern: any
    Kind kind = Kind::Status;
    int status = 503;
    QString retryAfter; // seconds or an HTTP date; empty: none
    int latencyMs = 0;
    int remaining = -1; // how many more requests it applies to; -1: until removed
    int skip = 0; // how many more matching requests pass untouched before it applies ("after")
    int hits = 0;

    bool matches(const QString &service, const HttpRequest &request) const;

    static std::optional<FaultRule> fromJson(const QJsonObject &o, QString *error);
    QJsonObject toJson() const;
    static QString kindName(Kind kind);
};

class FaultInjector
{
public:
    void add(const FaultRule &rule);
    bool remove(const QString &id);
    void clear() { m_rules.clear(); }
    const QList<FaultRule> &rules() const { return m_rules; }

    // The rules that apply to this request, counted as used.
    QList<FaultRule> take(const QString &service, const HttpRequest &request);

private:
    QList<FaultRule> m_rules;
    int m_counter = 0;
};
