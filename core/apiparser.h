#pragma once

#include "core/instance.h"
#include "core/jsonreader.h"
#include "core/kluster.h"
#include "core/node.h"
#include "core/router.h"
#include "core/securitygroup.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QStringList>
#include <optional>

// Parses the bodies of the real API responses into domain types.
// Every function takes the source name used in errors (e.g. "servers.json")
// and throws ParseError naming the JSON path of a missing or mistyped field.
namespace ApiParser {

// Kubernikus `GET /api/v1/clusters/{name}`.
Kluster parseKluster(const QString &source, const QJsonObject &body);
// Nova `GET /servers/detail`, pages merged: {"servers": [...]}.
QList<Instance> parseServers(const QString &source, const QJsonObject &body);
Instance parseServer(const JsonReader &server);
// Neutron `GET /v2.0/routers/{id}`: {"router": {...}}.
Router parseRouter(const QString &source, const QJsonObject &body);
Router parseRouterObject(const JsonReader &router);
// Neutron `GET /v2.0/security-groups`: {"security_groups": [...]}.
QList<SecurityGroup> parseSecurityGroups(const QString &source, const QJsonObject &body);
SecurityGroupRule parseSecurityGroupRule(const JsonReader &rule);
// Kubernetes `GET /api/v1/nodes`: a NodeList, chunks merged.
QList<Node> parseNodes(const QString &source, const QJsonObject &body);
Node parseNode(const JsonReader &item);
// Neutron `GET /v2.0/extensions`: the aliases.
QStringList parseExtensions(const QString &source, const QJsonObject &body);

// An RFC 3339 / ISO 8601 timestamp as the APIs write them: with or without
// fractional seconds (any number of digits), "Z" or a numeric offset; a
// date-time without a zone is UTC (OpenStack's convention). A date alone, or
// anything else, is refused: an invalid QDateTime.
// With `requireZone`, a timestamp without "Z" or an offset is refused too.
QDateTime parseTimestamp(const QString &text, bool requireZone = false);
// Formats an instant as RFC 3339 UTC with second precision ("2026-11-21T10:00:00Z").
QString formatTimestamp(const QDateTime &instant);

} // namespace ApiParser
