#pragma once

// A body read both ways the product reads Nova's servers and Kubernetes' nodes: through Qt's tree
// (parseJsonObject, then the parser taking an object) and from the bytes (simdjson), each outcome written
// out in full as text, so that a test or a fuzz target compares them: every field parsed, or the error's
// source, JSON path and words. Header-only: the fuzz targets include it too.

#include "core/apiparser.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>
#include <functional>
#include <limits>

namespace bothreadings {

inline QString timestamp(const QDateTime &t)
{
    return t.isValid() ? t.toString(Qt::ISODateWithMs) + QLatin1Char('/') + QString::number(int(t.timeSpec()))
                       : QStringLiteral("-");
}

inline QString describe(const Instance &s)
{
    QStringList out { s.id, s.name, s.status, s.vmState, s.taskState, timestamp(s.created), s.faultMessage,
        s.securityGroups.join(QLatin1Char(',')) };
    for (const InstanceAddress &a : s.addresses)
        out << a.network + QLatin1Char('=') + a.address + QLatin1Char('/') + a.type;
    return out.join(QLatin1Char('|'));
}

inline QString describe(const Node &n)
{
    QStringList out { n.name, timestamp(n.created), n.podCidrText, n.podCidr.toString(), n.providerId,
        n.internalIp, n.unschedulable ? QStringLiteral("unschedulable") : QStringLiteral("schedulable"),
        n.kubeletVersion };
    for (const NodeCondition &c : n.conditions)
        out << QStringList { c.type, c.status, c.reason, c.message, timestamp(c.lastTransition) }.join(
            QLatin1Char('/'));
    return out.join(QLatin1Char('|'));
}

// What `read` gave, as text: its lines, or the ParseError it threw.
inline QString outcome(const std::function<QStringList()> &read)
{
    try {
        return read().join(QLatin1Char('\n'));
    } catch (const ParseError &e) {
        return QStringLiteral("ParseError: %1 | %2 | %3").arg(e.source, e.jsonPath, e.detail);
    }
}

struct Readings
{
    QString qt;
    QString bytes;
    // Nodes only: the bytes read whole and a batch of items at a time (ApiParser::NodeListBatches), with
    // each node's record; the same or the batches are wrong.
    QString whole;
    QString batched;
};

// The servers of `body` both ways; the bytes' way also checks each server's compact record: the same
// object as Qt reads at that place.
inline Readings servers(const QString &source, const QByteArray &body)
{
    Readings r;
    QJsonArray objects;
    r.qt = outcome([&] {
        const QJsonObject object = parseJsonObject(source, body);
        objects = object.value(QStringLiteral("servers")).toArray();
        QStringList lines;
        for (const Instance &s : ApiParser::parseServers(source, object))
            lines << describe(s);
        return lines;
    });
    r.bytes = outcome([&] {
        QByteArrayList records;
        QStringList lines;
        const QList<Instance> list = ApiParser::parseServers(source, body, &records);
        for (const Instance &s : list)
            lines << describe(s);
        if (records.size() != list.size())
            lines << QStringLiteral("%1 records for %2 servers").arg(records.size()).arg(list.size());
        for (qsizetype i = 0; i < records.size(); ++i) {
            // As maps: Qt's object order depends on how keys were written (escaped or not).
            if (QJsonDocument::fromJson(records.at(i)).object().toVariantMap()
                != objects.at(i).toObject().toVariantMap())
                lines << QStringLiteral("record %1 differs: %2").arg(i).arg(QString::fromUtf8(records.at(i)));
        }
        return lines;
    });
    return r;
}

// The nodes of `body` both ways, and the list's metadata as a walk through chunks reads it.
inline Readings nodes(const QString &source, const QByteArray &body)
{
    Readings r;
    r.qt = outcome([&] {
        const QJsonObject object = parseJsonObject(source, body);
        QStringList lines;
        for (const Node &n : ApiParser::parseNodes(source, object))
            lines << describe(n);
        const QJsonObject meta = object.value(QStringLiteral("metadata")).toObject();
        lines << QStringLiteral("continue=") + meta.value(QStringLiteral("continue")).toString()
                + QStringLiteral(" resourceVersion=")
                + meta.value(QStringLiteral("resourceVersion")).toString();
        return lines;
    });
    r.bytes = outcome([&] {
        ApiParser::NodeListMeta meta;
        QStringList lines;
        for (const Node &n : ApiParser::parseNodes(source, body, &meta))
            lines << describe(n);
        lines << QStringLiteral("continue=") + meta.continueToken + QStringLiteral(" resourceVersion=")
                + meta.resourceVersion;
        return lines;
    });
    const auto withRecords = [&](const ApiParser::NodeListBatches &batches) {
        return outcome([&] {
            ApiParser::NodeListMeta meta;
            QByteArrayList records { QByteArrayLiteral("(a record before)") };
            QStringList lines;
            for (const Node &n : ApiParser::parseNodes(source, body, &meta, &records, batches))
                lines << describe(n);
            lines << meta.kind + QLatin1Char(' ') + meta.apiVersion + QLatin1Char(' ') + meta.continueToken
                    + QLatin1Char(' ') + meta.resourceVersion;
            // Keys sorted: a record read through Qt's tree has them so, one read by simdjson as sent.
            for (const QByteArray &record : std::as_const(records)) {
                const QJsonDocument object = QJsonDocument::fromJson(record);
                lines << QString::fromUtf8(
                    object.isObject() ? object.toJson(QJsonDocument::Compact) : record);
            }
            return lines;
        });
    };
    r.whole = withRecords({ std::numeric_limits<qsizetype>::max(), 0 });
    r.batched = withRecords({ 0, body.size() % 3 == 0 ? 1 : body.size() / 3 });
    return r;
}

} // namespace bothreadings
