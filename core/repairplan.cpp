#include "core/repairplan.h"

#include <QJsonArray>
#include <QJsonDocument>

static void writeFields(JsonWriter &w, const PlannedRequest &r)
{
    w.key(QStringLiteral("service"));
    w.value(r.service);
    w.key(QStringLiteral("method"));
    w.value(r.method);
    w.key(QStringLiteral("path"));
    w.value(r.path);
    w.key(QStringLiteral("headers"));
    w.value(r.headers);
    w.key(QStringLiteral("body"));
    w.value(r.body);
}

void PlannedRequest::write(JsonWriter &w) const
{
    w.beginObject();
    writeFields(w, *this);
    w.endObject();
}

void PlannedRequest::writeJudged(JsonWriter &w) const
{
    w.beginObject();
    writeFields(w, *this);
    w.key(QStringLiteral("permission"));
    w.value(Permissions::name(permission.permission));
    if (permission.permission != Permission::Allowed) {
        w.key(QStringLiteral("permissionReason"));
        w.value(permission.reason);
    }
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
