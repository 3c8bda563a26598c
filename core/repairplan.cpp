#include "core/repairplan.h"

#include <QJsonArray>

QJsonObject PlannedRequest::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("service"), service);
    o.insert(QStringLiteral("method"), method);
    o.insert(QStringLiteral("path"), path);
    o.insert(QStringLiteral("headers"), headers);
    o.insert(QStringLiteral("body"), body);
    return o;
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
