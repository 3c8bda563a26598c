#include "core/repairplan.h"

#include <QJsonArray>
#include <QJsonDocument>

void PlannedRequest::write(JsonWriter &w) const
{
    w.beginObject();
    w.key(QStringLiteral("service"));
    w.value(service);
    w.key(QStringLiteral("method"));
    w.value(method);
    w.key(QStringLiteral("path"));
    w.value(path);
    w.key(QStringLiteral("headers"));
    w.value(headers);
    w.key(QStringLiteral("body"));
    w.value(body);
    w.endObject();
}

QJsonObject PlannedRequest::toJson() const
{
    JsonWriter w(JsonWriter::Style::Compact);
    write(w);
    return QJsonDocument::fromJson(w.takeBytes()).object();
}

std::optional<PlannedRequest> PlannedRequest::fromJson(const QJsonObject &json)
{
    const QJsonValue service = json.value(QStringLiteral("service"));
    const QJsonValue method = json.value(QStringLiteral("method"));
    const QJsonValue path = json.value(QStringLiteral("path"));
    const QJsonValue headers = json.value(QStringLiteral("headers"));
    if (!service.isString() || !method.isString() || !path.isString()
        || !(headers.isObject() || headers.isUndefined()))
        return std::nullopt;
    PlannedRequest r;
    r.service = service.toString();
    r.method = method.toString();
    r.path = path.toString();
    r.headers = headers.toObject();
    r.body = json.value(QStringLiteral("body"));
    if (r.body.isUndefined())
        r.body = QJsonValue::Null;
    return r;
}

QString PlannedRequest::summary() const
{
    return QStringLiteral("%1 %2 %3").arg(method, service, path);
}

QJsonObject RepairPlan::toJson() const
{
    QJsonArray list;
    for (const PlannedRequest &r : requests)
        list.append(r.toJson());
    QJsonObject o;
    o.insert(QStringLiteral("title"), title);
    o.insert(QStringLiteral("requests"), list);
    return o;
}
