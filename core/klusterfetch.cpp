#include "core/klusterfetch.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>

QByteArray KlusterFetch::body(Source source) const
{
    QByteArray listed = bodies.value(source).bytes();
    if (source != Source::Nodes || nodesWatched.isEmpty() || listed.isEmpty())
        return listed;
    const auto nameOf = [](const QJsonObject &o) {
        return o.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("name")).toString();
    };
    QJsonObject list = QJsonDocument::fromJson(listed).object();
    QList<QJsonObject> items;
    QHash<QString, QJsonObject> pending = nodesWatched;
    for (const QJsonValue item : list.value(QStringLiteral("items")).toArray()) {
        const QJsonObject o = item.toObject();
        const auto watched = pending.find(nameOf(o));
        if (watched == pending.end()) {
            items.append(o);
            continue;
        }
        if (!watched->isEmpty())
            items.append(*watched);
        pending.erase(watched);
    }
    for (const QJsonObject &o : std::as_const(pending)) {
        if (!o.isEmpty())
            items.append(o);
    }
    // In the order a list gives them (by name), without what only a single object carries.
    std::stable_sort(items.begin(), items.end(),
        [&nameOf](const QJsonObject &a, const QJsonObject &b) { return nameOf(a) < nameOf(b); });
    QJsonArray array;
    for (QJsonObject o : std::as_const(items)) {
        o.remove(QStringLiteral("kind"));
        o.remove(QStringLiteral("apiVersion"));
        array.append(o);
    }
    QJsonObject meta = list.value(QStringLiteral("metadata")).toObject();
    if (!nodesResourceVersion.isEmpty())
        meta.insert(QStringLiteral("resourceVersion"), nodesResourceVersion);
    list.insert(QStringLiteral("metadata"), meta);
    list.insert(QStringLiteral("items"), array);
    return QJsonDocument(list).toJson(QJsonDocument::Compact);
}

QString SourceError::toString() const
{
    QString text = error.toString();
    if (source)
        text = Sources::name(*source) + QStringLiteral(": ") + text;
    if (!assumed.isEmpty())
        text += QStringLiteral(" (assuming %1)").arg(assumed);
    return text;
}

QString SourceError::joined(const QList<SourceError> &errors)
{
    // The same failure of several sources (a wrong password fails every one of them) is said once, the
    // sources named together: "kluster, router, nodes: identity: … 401 …".
    QStringList reasons;
    QList<QStringList> sources;
    for (const SourceError &e : errors) {
        QString reason = e.error.toString();
        if (!e.assumed.isEmpty())
            reason += QStringLiteral(" (assuming %1)").arg(e.assumed);
        qsizetype at = reasons.indexOf(reason);
        if (at < 0) {
            at = reasons.size();
            reasons << reason;
            sources << QStringList();
        }
        if (e.source)
            sources[at] << Sources::name(*e.source);
    }
    QStringList lines;
    for (qsizetype i = 0; i < reasons.size(); ++i)
        lines << (sources.at(i).isEmpty()
                ? reasons.at(i)
                : sources.at(i).join(QStringLiteral(", ")) + QStringLiteral(": ") + reasons.at(i));
    return lines.join(QStringLiteral("; "));
}

bool SourceError::retryCanHelp(const QList<SourceError> &errors)
{
    return std::any_of(
        errors.cbegin(), errors.cend(), [](const SourceError &e) { return e.error.retryCanHelp(); });
}
