#pragma once

#include "core/instance.h"
#include "core/json/jsonreader.h"
#include "core/kluster.h"
#include "core/node.h"
#include "core/port.h"
#include "core/router.h"
#include "core/securitygroup.h"

#include <QByteArrayList>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QStringList>
#include <optional>

// Parses the bodies of the real API responses into domain types.
// Every function takes the source name used in errors (e.g. "servers.json")
// and throws ParseError naming the JSON path of a missing or mistyped field.
//
// The large bodies (Nova's servers, Kubernetes' nodes) are also read from
// their bytes, with simdjson: the same results and the same errors as
// parseJsonObject followed by the function taking an object, several times
// faster. A body simdjson does not read is read by Qt, which says why it is
// refused (not JSON at byte N, an HTML page, cut off) or reads it.
namespace ApiParser {

// What a Kubernetes list says of itself: its kind and version, where the next chunk begins (empty at the
// end) and the list's version.
struct NodeListMeta
{
    QString kind;
    QString apiVersion;
    QString continueToken; // metadata.continue
    QString resourceVersion; // metadata.resourceVersion
};

// Kubernikus `GET /api/v1/clusters/{name}`.
Kluster parseKluster(const QString &source, const QJsonObject &body);
// Nova `GET /servers/detail`, pages merged: {"servers": [...]}.
QList<Instance> parseServers(const QString &source, const QJsonObject &body);
// The same from the bytes; `records`, when given, receives each server as compact JSON, in order.
QList<Instance> parseServers(
    const QString &source, const QByteArray &body, QByteArrayList *records = nullptr);
Instance parseServer(const JsonReader &server);
// Neutron `GET /v2.0/routers/{id}`: {"router": {...}}.
Router parseRouter(const QString &source, const QJsonObject &body);
Router parseRouterObject(const JsonReader &router);
// Neutron `GET /v2.0/security-groups`: {"security_groups": [...]}.
QList<SecurityGroup> parseSecurityGroups(const QString &source, const QJsonObject &body);
SecurityGroupRule parseSecurityGroupRule(const JsonReader &rule);
// Kubernetes `GET /api/v1/nodes`: a NodeList, chunks merged.
QList<Node> parseNodes(const QString &source, const QJsonObject &body);
// The same from the bytes; `meta`, when given, receives what the list says of itself (what is no string:
// empty), `records` each node as compact JSON, in order.
// A list past `above` bytes (the nodes from the watch cache, which ignores `limit`: 95 MB for 20,000) is
// read a batch of items of about `batch` bytes at a time, so the parser's buffers are those of a batch, not
// of the whole body; what it gives is what one reading gives (any doubt, and the body is read whole).
struct NodeListBatches
{
    qsizetype above = qsizetype(8) << 20;
    qsizetype batch = qsizetype(2) << 20;
};
QList<Node> parseNodes(const QString &source, const QByteArray &body, NodeListMeta *meta = nullptr,
    QByteArrayList *records = nullptr, const NodeListBatches &batches = {});
Node parseNode(const JsonReader &item);
// One page of a Nova or Neutron list, as a walk through the pages reads it.
struct ListPage
{
    bool isList = false; // the page holds the list: `collection` is an array
    qsizetype size = 0; // of the list
    QString next; // the link to the next page (`<collection>_links`, rel "next"), if any
};
ListPage readListPage(const QJsonObject &page, const QString &collection);
// The same from the bytes; nothing when they are no JSON object (Qt's reading says why).
std::optional<ListPage> readListPage(const QByteArray &page, const QString &collection);

// Neutron `GET /v2.0/ports`: {"ports": [...]} (every field but the id optional, so that a list trimmed with
// `fields=` reads as well as a whole one).
QList<Port> parsePorts(const QString &source, const QJsonObject &body);
// Neutron `GET /v2.0/ports/{id}`: {"port": {...}}.
Port parsePort(const QString &source, const QJsonObject &body);
Port parsePortObject(const JsonReader &port);

// Neutron `GET /v2.0/extensions`: the aliases.
QStringList parseExtensions(const QString &source, const QJsonObject &body);

// An RFC 3339 / ISO 8601 timestamp as the APIs write them: with or without
// fractional seconds (any number of digits), "Z" or a numeric offset; a
// date-time without a zone is UTC (OpenStack's convention). A date alone, or
// anything else, is refused: an invalid QDateTime.
// With `requireZone`, a timestamp without "Z" or an offset is refused too.
QDateTime parseTimestamp(const QString &text, bool requireZone = false);
// The optional timestamp `key` of `object` (absent or null: an invalid QDateTime); one that does not read
// throws ParseError naming it.
QDateTime optTimestampOf(const JsonReader &object, const QString &key);
// Formats an instant as RFC 3339 UTC with second precision ("2026-11-21T10:00:00Z").
QString formatTimestamp(const QDateTime &instant);

} // namespace ApiParser
