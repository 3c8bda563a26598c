#include "core/statedigest.h"

#include "core/apiparser.h"
#include "core/json/jsonreader.h"
#include "core/json/jsonwriter.h"
#include "core/klusterindex.h"
#include "core/ruleverdict.h"

#include <QJsonArray>
#include <QJsonObject>
#include <algorithm>
#include <numeric>

namespace {

constexpr int DigestVersion = 1;

// A rule's protocol as the diagnosis reads it (normalizedProtocol): "6" is tcp, "17" udp, "1" icmp, "58"
// ipv6-icmp; null and "any" are any; "" is "(empty)", not any.
QString protocolText(const std::optional<QString> &protocol)
{
    QString p = normalizedProtocol(protocol);
    if (p.isEmpty())
        return QStringLiteral("any");
    if (p == QLatin1String("58") || p == QLatin1String("icmpv6"))
        return QStringLiteral("ipv6-icmp");
    return p;
}

QString portText(const std::optional<int> &port)
{
    return port ? QString::number(*port) : QStringLiteral("any");
}

// One line per rule, the same for the same rule whatever its id: direction, ethertype, protocol,
// ports (for ICMP: type and code), remote ("from" for ingress, "to" for egress).
QString ruleText(const SecurityGroupRule &rule)
{
    const QString protocol = protocolText(rule.protocol);
    QString text = rule.direction + QLatin1Char(' ') + rule.ethertype + QLatin1Char(' ') + protocol;
    if (rule.portRangeMin || rule.portRangeMax) {
        if (protocol == QLatin1String("icmp") || protocol == QLatin1String("ipv6-icmp"))
            text += QStringLiteral(" type %1 code %2")
                        .arg(portText(rule.portRangeMin), portText(rule.portRangeMax));
        else if (rule.portRangeMin == rule.portRangeMax)
            text += QStringLiteral(" port %1").arg(*rule.portRangeMin);
        else
            text += QStringLiteral(" ports %1-%2")
                        .arg(portText(rule.portRangeMin), portText(rule.portRangeMax));
    }
    // The remote is where ingress comes from and where egress goes to.
    const QString remote
        = rule.direction == QLatin1String("egress") ? QStringLiteral(" to ") : QStringLiteral(" from ");
    if (rule.remoteIpPrefix)
        text += remote + *rule.remoteIpPrefix;
    else if (rule.remoteGroupId)
        text += remote + QStringLiteral("group ") + *rule.remoteGroupId;
    else if (rule.remoteAddressGroupId)
        text += remote + QStringLiteral("address group ") + *rule.remoteAddressGroupId;
    else
        text += remote + QStringLiteral("anywhere");
    return text;
}

InstanceDigest instanceDigest(const Instance &instance)
{
    InstanceDigest d;
    d.name = instance.name;
    d.status = instance.status;
    QStringList addresses;
    addresses.reserve(instance.addresses.size());
    for (const InstanceAddress &a : instance.addresses)
        addresses << a.address;
    addresses.sort();
    addresses.removeDuplicates();
    d.addresses = addresses.join(QStringLiteral(", "));
    d.securityGroups = instance.securityGroups;
    d.securityGroups.sort();
    d.securityGroups.removeDuplicates();
    return d;
}

NodeDigest nodeDigest(const Node &node)
{
    NodeDigest d;
    const NodeCondition *ready = node.condition(QStringLiteral("Ready"));
    d.ready = ready && !ready->status.isEmpty() ? ready->status : QStringLiteral("Unknown");
    for (const NodeCondition &c : node.conditions) {
        if (c.type != QLatin1String("Ready") && c.status != QLatin1String("False"))
            d.conditions << c.type + QLatin1Char('=') + c.status;
    }
    d.conditions.sort();
    d.internalIp = node.internalIp;
    d.podCidr = node.podCidrText;
    d.unschedulable = node.unschedulable;
    return d;
}

QStringList readStrings(const JsonReader &reader, const QString &key)
{
    QStringList list;
    reader.child(key).forEachElement([&list](const JsonReader &e) { list << e.requireStringValue(); });
    return list;
}

} // namespace

QString StateDigest::timestamp(const QDateTime &instant)
{
    if (!instant.isValid())
        return QString();
    if (instant.time().msec() == 0)
        return ApiParser::formatTimestamp(instant);
    return instant.toUTC().toString(Qt::ISODateWithMs);
}

StateDigest StateDigest::of(const KlusterState &state, const Diagnosis &diagnosis)
{
    StateDigest d;
    d.capturedAt = state.capturedAt;
    d.kluster = state.kluster.name;
    d.phase = state.kluster.phase;
    if (!state.klusterSource.known)
        d.unknownSources << Source::Kluster;
    if (!state.serversSource.known || !state.serversSource.incomplete.isEmpty())
        d.unknownSources << Source::Servers;
    if (!state.routerSource.known)
        d.unknownSources << Source::Router;
    if (!state.securityGroupsSource.known)
        d.unknownSources << Source::SecurityGroups;
    if (!state.nodesSource.known)
        d.unknownSources << Source::Nodes;

    // Inserted in key order, each at the end (one comparison, not a descent of the tree): thousands of each.
    // Of two with the same key the later one wins, as an insert would have it.
    const KlusterMembers members(state);
    QList<int> instances = members.instances();
    std::stable_sort(instances.begin(), instances.end(),
        [&state](int a, int b) { return state.instances.at(a).id < state.instances.at(b).id; });
    for (int i : std::as_const(instances)) {
        const Instance &instance = state.instances.at(i);
        d.instances.insert(d.instances.cend(), instance.id, instanceDigest(instance));
    }
    QList<int> nodes(state.nodes.size());
    std::iota(nodes.begin(), nodes.end(), 0);
    // Kubernetes lists nodes by name already: then this is one pass.
    std::stable_sort(nodes.begin(), nodes.end(),
        [&state](int a, int b) { return state.nodes.at(a).name < state.nodes.at(b).name; });
    for (int n : std::as_const(nodes)) {
        const Node &node = state.nodes.at(n);
        d.nodes.insert(d.nodes.cend(), node.name, nodeDigest(node));
    }
    d.routes.reserve(state.router.routes.size());
    for (const Route &route : state.router.routes)
        d.routes << route.destination + QStringLiteral(" via ") + route.nexthop;
    for (int g : members.groups()) {
        for (const SecurityGroupRule &rule : state.securityGroups.at(g).rules)
            d.rules << ruleText(rule);
    }
    d.rules.sort();
    for (const Finding &f : diagnosis.findings)
        d.findings.insert(f.id(), f.severity);
    return d;
}

QByteArray StateDigest::toJson() const
{
    // Written as it goes (thousands of instances and nodes: a QJsonObject built first would insert each key
    // into a sorted array), keys in sorted order at every level, as QJsonDocument::Compact writes them.
    JsonWriter w(JsonWriter::Style::Compact);
    w.reserve(
        256 * (instances.size() + nodes.size() + findings.size()) + 64 * (routes.size() + rules.size()));
    const auto strings = [&w](const QStringList &list) {
        w.beginArray();
        for (const QString &s : list)
            w.value(s);
        w.endArray();
    };
    w.beginObject();
    w.key(QStringLiteral("capturedAt"));
    w.value(StateDigest::timestamp(capturedAt));
    w.key(QStringLiteral("findings"));
    w.beginObject();
    for (auto it = findings.cbegin(); it != findings.cend(); ++it) {
        w.key(it.key());
        w.value(severityName(it.value()));
    }
    w.endObject();
    w.key(QStringLiteral("instances"));
    w.beginObject();
    for (auto it = instances.cbegin(); it != instances.cend(); ++it) {
        w.key(it.key());
        w.beginObject();
        w.key(QStringLiteral("addresses"));
        w.value(it->addresses);
        w.key(QStringLiteral("name"));
        w.value(it->name);
        w.key(QStringLiteral("securityGroups"));
        strings(it->securityGroups);
        w.key(QStringLiteral("status"));
        w.value(it->status);
        w.endObject();
    }
    w.endObject();
    w.key(QStringLiteral("kluster"));
    w.value(kluster);
    w.key(QStringLiteral("nodes"));
    w.beginObject();
    for (auto it = nodes.cbegin(); it != nodes.cend(); ++it) {
        w.key(it.key());
        w.beginObject();
        w.key(QStringLiteral("conditions"));
        strings(it->conditions);
        w.key(QStringLiteral("internalIp"));
        w.value(it->internalIp);
        w.key(QStringLiteral("podCidr"));
        w.value(it->podCidr);
        w.key(QStringLiteral("ready"));
        w.value(it->ready);
        w.key(QStringLiteral("unschedulable"));
        w.value(it->unschedulable);
        w.endObject();
    }
    w.endObject();
    if (!phase.isEmpty()) {
        w.key(QStringLiteral("phase"));
        w.value(phase);
    }
    w.key(QStringLiteral("routes"));
    strings(routes);
    w.key(QStringLiteral("rules"));
    strings(rules);
    w.key(QStringLiteral("unknownSources"));
    w.beginArray();
    for (Source s : unknownSources)
        w.value(Sources::key(s));
    w.endArray();
    w.key(QStringLiteral("version"));
    w.value(DigestVersion);
    w.endObject();
    return w.takeBytes();
}

std::optional<StateDigest> StateDigest::fromJson(const QByteArray &json, QString *error)
{
    const QString source = QStringLiteral("state digest");
    try {
        const JsonReader root(source, parseJsonObject(source, json));
        const qint64 version = root.requireInteger(QStringLiteral("version"));
        if (version != DigestVersion)
            root.failAt(QStringLiteral("version"),
                QStringLiteral("version %1 is not known (this program reads version %2)")
                    .arg(version)
                    .arg(DigestVersion));
        StateDigest d;
        d.kluster = root.requireString(QStringLiteral("kluster"));
        const QString captured = root.requireString(QStringLiteral("capturedAt"));
        d.capturedAt = ApiParser::parseTimestamp(captured, true);
        if (!d.capturedAt.isValid())
            root.failAt(QStringLiteral("capturedAt"),
                QStringLiteral("%1 is not an RFC 3339 date-time with a zone").arg(quotedExcerpt(captured)));
        root.requireField(QStringLiteral("instances"))
            .forEachMember([&d](const QString &id, const JsonReader &r) {
                InstanceDigest i;
                i.name = r.requireString(QStringLiteral("name"));
                i.status = r.requireString(QStringLiteral("status"));
                i.addresses = r.requireString(QStringLiteral("addresses"));
                i.securityGroups = readStrings(r, QStringLiteral("securityGroups"));
                d.instances.insert(id, i);
            });
        root.requireField(QStringLiteral("nodes"))
            .forEachMember([&d](const QString &name, const JsonReader &r) {
                NodeDigest n;
                n.ready = r.requireString(QStringLiteral("ready"));
                n.conditions = readStrings(r, QStringLiteral("conditions"));
                n.internalIp = r.requireString(QStringLiteral("internalIp"));
                n.podCidr = r.requireString(QStringLiteral("podCidr"));
                const JsonReader unschedulable = r.requireField(QStringLiteral("unschedulable"));
                if (!unschedulable.value().isBool())
                    unschedulable.fail(QStringLiteral("expected a boolean, got %1")
                                           .arg(JsonReader::typeName(unschedulable.value())));
                n.unschedulable = unschedulable.value().toBool();
                d.nodes.insert(name, n);
            });
        d.routes = readStrings(root, QStringLiteral("routes"));
        d.phase = root.optString(QStringLiteral("phase"));
        d.rules = readStrings(root, QStringLiteral("rules"));
        root.requireField(QStringLiteral("findings"))
            .forEachMember([&d](const QString &id, const JsonReader &r) {
                const QString name = r.requireStringValue();
                const std::optional<Severity> severity = severityFromName(name);
                if (!severity)
                    r.fail(QStringLiteral("%1 is no severity (critical, warning, info)")
                               .arg(quotedExcerpt(name)));
                d.findings.insert(id, *severity);
            });
        root.child(QStringLiteral("unknownSources")).forEachElement([&d](const JsonReader &e) {
            const QString key = e.requireStringValue();
            const std::optional<Source> source = Sources::fromKey(key);
            if (!source)
                e.fail(QStringLiteral("%1 is no source of a kluster").arg(quotedExcerpt(key)));
            d.unknownSources << *source;
        });
        return d;
    } catch (const ParseError &e) {
        if (error)
            *error = e.toString();
        return std::nullopt;
    }
}
