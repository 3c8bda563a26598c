#include "simulator/faults.h"

#include <QJsonValue>
#include <cmath>

bool FaultRule::matches(const QString &svc, const HttpRequest &request) const
{
    if (remaining == 0)
        return false;
    // "kubernetes" is every kluster's API server, "kubernetes:<kluster>" one of them.
    if (!service.isEmpty() && service != svc
        && !(service == QLatin1String("kubernetes") && svc.startsWith(QLatin1String("kubernetes:"))))
        return false;
    if (!method.isEmpty() && method.compare(QString::fromLatin1(request.method), Qt::CaseInsensitive) != 0)
        return false;
    if (!path.pattern().isEmpty() && !path.match(request.path).hasMatch())
        return false;
    return true;
}

QString FaultRule::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Latency:
        return QStringLiteral("latency");
    case Kind::Status:
        return QStringLiteral("status");
    case Kind::Malformed:
        return QStringLiteral("malformed");
    case Kind::Truncated:
        return QStringLiteral("truncated");
    case Kind::Html:
        return QStringLiteral("html");
    case Kind::Drop:
        return QStringLiteral("drop");
    case Kind::ExpireTokens:
        return QStringLiteral("expire-tokens");
    case Kind::ConcurrentWrite:
        return QStringLiteral("concurrent-write");
    case Kind::Trickle:
        return QStringLiteral("trickle");
    case Kind::EndlessContinue:
        return QStringLiteral("endless-continue");
    }
    return QString();
}

std::optional<FaultRule> FaultRule::fromJson(const QJsonObject &o, QString *error)
{
    FaultRule r;
    const QString kind = o.value(QStringLiteral("kind")).toString();
    static const Kind kinds[] = { Kind::Latency, Kind::Status, Kind::Malformed, Kind::Truncated, Kind::Html,
        Kind::Drop, Kind::ExpireTokens, Kind::ConcurrentWrite, Kind::Trickle, Kind::EndlessContinue };
    bool found = false;
    for (Kind k : kinds) {
        if (kindName(k) == kind) {
            r.kind = k;
            found = true;
        }
    }
    if (!found) {
        *error
            = QStringLiteral("unknown fault kind \"%1\" (latency, status, malformed, truncated, html, drop, "
                             "expire-tokens, concurrent-write, trickle, endless-continue)")
                  .arg(kind);
        return std::nullopt;
    }
    r.id = o.value(QStringLiteral("id")).toString();
    r.service = o.value(QStringLiteral("service")).toString();
    r.method = o.value(QStringLiteral("method")).toString();
    r.path = QRegularExpression(o.value(QStringLiteral("path")).toString());
    if (!r.path.isValid()) {
        *error = QStringLiteral("path: not a regular expression: ") + r.path.errorString();
        return std::nullopt;
    }
    r.status = o.value(QStringLiteral("status")).toInt(r.kind == Kind::Html ? 502 : 503);
    const QJsonValue retry = o.value(QStringLiteral("retryAfter"));
    // A number as its whole seconds, however large (toInt() made one past 32 bits "0"); a string as given.
    r.retryAfter
        = retry.isDouble() ? QString::number(std::floor(retry.toDouble()), 'f', 0) : retry.toString();
    r.latencyMs = o.value(QStringLiteral("latencyMs")).toInt(0);
    r.remaining = o.value(QStringLiteral("count")).toInt(-1);
    r.skip = qMax(0, o.value(QStringLiteral("after")).toInt(0));
    return r;
}

QJsonObject FaultRule::toJson() const
{
    QJsonObject o { { QStringLiteral("id"), id }, { QStringLiteral("kind"), kindName(kind) },
        { QStringLiteral("service"), service }, { QStringLiteral("method"), method },
        { QStringLiteral("path"), path.pattern() }, { QStringLiteral("hits"), hits },
        { QStringLiteral("count"), remaining } };
    if (skip > 0)
        o.insert(QStringLiteral("after"), skip);
    if (kind == Kind::Status || kind == Kind::Html)
        o.insert(QStringLiteral("status"), status);
    if (!retryAfter.isEmpty())
        o.insert(QStringLiteral("retryAfter"), retryAfter);
    if (kind == Kind::Latency || kind == Kind::Trickle)
        o.insert(QStringLiteral("latencyMs"), latencyMs);
    return o;
}

void FaultInjector::add(const FaultRule &rule)
{
    FaultRule r = rule;
    if (r.id.isEmpty())
        r.id = QStringLiteral("fault-%1").arg(++m_counter);
    m_rules.append(r);
}

bool FaultInjector::remove(const QString &id)
{
    for (int i = 0; i < m_rules.size(); ++i) {
        if (m_rules.at(i).id == id) {
            m_rules.removeAt(i);
            return true;
        }
    }
    return false;
}

QList<FaultRule> FaultInjector::take(const QString &service, const HttpRequest &request)
{
    QList<FaultRule> applied;
    for (FaultRule &r : m_rules) {
        if (!r.matches(service, request))
            continue;
        if (r.skip > 0) { // the first ones pass: a fault on a second read, not the first
            --r.skip;
            continue;
        }
        ++r.hits;
        if (r.remaining > 0)
            --r.remaining;
        applied.append(r);
    }
    return applied;
}
