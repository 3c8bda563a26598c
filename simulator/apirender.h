#pragma once

#include "simulator/world.h"

#include <QJsonArray>
#include <QJsonObject>
#include <optional>

// The JSON bodies of the simulated APIs, in the real services' shapes. The
// snapshot dump uses the same functions, so a dumped snapshot is exactly what
// a client would have fetched.
namespace ApiRender {

QString timestamp(const QDateTime &t); // 2026-11-21T10:00:00Z

// Nova, at a microversion given as major*1000+minor (2.1 = 2001, 2.47 = 2047).
// The bytes are the hot path of a large `GET /servers/detail`: written
// directly; the object form parses them, so both always agree.
QByteArray serverJson(const World &w, const SimServer &s, int microversion, const QString &computeUrl);
QJsonObject server(const World &w, const SimServer &s, int microversion, const QString &computeUrl);
// os-getConsoleOutput's `output` as Nova makes it: the server's console (a scenario's, else a boot made from
// its state: a kluster member that never became a node booted without an IPv4 address), its last `lines`
// lines (none given: all; 0: nothing; -1: all but the first, as Nova's tail does), non-ASCII bytes as U+FFFD,
// and the control characters but tab and line feed removed.
QString consoleOutput(const World &w, const SimServer &s, std::optional<qint64> lines);
// GET /servers/{id}/os-instance-actions: {"instanceActions": [...]}, newest first, times without a zone.
QJsonObject instanceActions(const SimServer &s);
QJsonObject flavor(const QString &id, int microversion, const QString &computeUrl);

// Neutron.
QJsonObject router(const World &w, const SimRouter &r);
QJsonObject network(const SimNetwork &n);
QJsonObject subnet(const SimNetwork &n);
QJsonObject port(const World &w, const SimPort &p);
QJsonObject securityGroup(const SimSecurityGroup &g);
QJsonObject rule(const SimSecurityGroup &g, const SimRule &r);
QJsonObject extensions(const World &w);
QStringList extensionAliases(const World &w);

// Cinder (simulator/apirenderdebris.cpp). Its times: ISO 8601 with microseconds and no zone (UTC).
QString cinderTime(const QDateTime &t);
// The project's volumes in Cinder's order (newest first, then by id, descending).
QList<const SimVolume *> projectVolumes(const World &w, const QString &projectId);
// A volume as its project's reader sees it in `GET …/volumes/detail` at `microversion` (major*1000+minor:
// 3.0 = 3000); `url` is the endpoint as the request named it ("http://…/v3" or "http://…/v3/<project id>").
QJsonObject volume(const SimVolume &v, int microversion, const QString &url);

// Octavia. Its times: ISO 8601 to the second, no zone (UTC).
QString octaviaTime(const QDateTime &t);
// The project's load balancers in Octavia's order (oldest first, then by id).
QList<const SimLoadBalancer *> projectLoadBalancers(const World &w, const QString &projectId);
QJsonObject loadBalancer(const SimLoadBalancer &lb);

// Kubernetes.
QByteArray nodeJson(const SimKluster &k, const SimNode &n, const QDateTime &now); // as bytes, for lists
QJsonObject node(const SimKluster &k, const SimNode &n, const QDateTime &now);
QJsonObject nodeTable(const SimKluster &k, const QList<const SimNode *> &nodes, const QDateTime &now,
    const QString &resourceVersion, const QString &continueToken);

// Kubernikus.
// The servers of each kluster's pool that are ACTIVE, by "<kluster>/<pool>": counted once for a listing of
// many klusters.
using RunningServers = QHash<QString, int>;
RunningServers runningServers(const World &w);
QJsonObject kluster(const World &w, const SimKluster &k);
QJsonObject kluster(const World &w, const SimKluster &k, const RunningServers &running);
// GET /api/v1/clusters/{name}/events as Kubernikus answers it: unsorted, each but `count` left out when
// empty, the times in Go's time.String() ("2026-11-29 10:45:00 +0000 UTC").
QJsonArray kubernikusEvents(const SimKluster &k);

} // namespace ApiRender
