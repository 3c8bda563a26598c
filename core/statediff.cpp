#include "core/statediff.h"

#include "core/apiparser.h"
#include "core/jsonreader.h"
#include "core/jsonwriter.h"
#include "core/klusterindex.h"
#include "core/printable.h"
#include "core/ruleverdict.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <algorithm>
#include <cstdlib>
#include <numeric>

namespace {

constexpr int DigestVersion = 1;

QString arrow()
{
    return QStringLiteral(" → ");
}

// The sources a digest may lack, as unknownSources names them.
constexpr QLatin1String SourceKluster("kluster");
constexpr QLatin1String SourceServers("servers");
constexpr QLatin1String SourceRouter("router");
constexpr QLatin1String SourceSecurityGroups("securityGroups");
constexpr QLatin1String SourceNodes("nodes");

// RFC 3339 UTC; with milliseconds only when the instant has them (a live fetch), so that a digest
// read back is the digest written.
QString timestamp(const QDateTime &instant)
{
    if (!instant.isValid())
        return QString();
    if (instant.time().msec() == 0)
        return ApiParser::formatTimestamp(instant);
    return instant.toUTC().toString(Qt::ISODateWithMs);
}

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

std::optional<Severity> severityOf(const QString &name)
{
    for (Severity s : { Severity::Critical, Severity::Warning, Severity::Info }) {
        if (severityName(s) == name)
            return s;
    }
    return std::nullopt;
}

QJsonArray stringArray(const QStringList &list)
{
    QJsonArray array;
    for (const QString &s : list)
        array.append(s);
    return array;
}

QStringList readStrings(const JsonReader &reader, const QString &key)
{
    QStringList list;
    reader.child(key).forEachElement([&list](const JsonReader &e) { list << e.requireStringValue(); });
    return list;
}

QString orNone(const QString &s)
{
    return s.isEmpty() ? QStringLiteral("none") : s;
}

// How many times each string occurs.
QMap<QString, int> counted(const QStringList &list)
{
    QMap<QString, int> counts;
    for (const QString &s : list)
        ++counts[s];
    return counts;
}

// The strings of a multiset that were added and removed, once per occurrence.
void diffCounted(
    const QStringList &before, const QStringList &after, const QString &category, QList<StateChange> *changes)
{
    const QMap<QString, int> b = counted(before);
    const QMap<QString, int> a = counted(after);
    QStringList keys = b.keys() + a.keys();
    keys.removeDuplicates();
    for (const QString &key : std::as_const(keys)) {
        const int delta = a.value(key) - b.value(key);
        for (int i = 0; i < std::abs(delta); ++i)
            changes->append({ category, delta > 0 ? QStringLiteral("added") : QStringLiteral("removed"), key,
                QString() });
    }
}

// Destinations whose routes are the same but in another order: the first one carries the traffic,
// so the order is a change of its own.
void diffRouteOrder(const QStringList &before, const QStringList &after, QList<StateChange> *changes)
{
    auto byDestination = [](const QStringList &routes) {
        QMap<QString, QStringList> nexthops;
        for (const QString &route : routes) {
            const qsizetype via = route.indexOf(QLatin1String(" via "));
            if (via < 0)
                nexthops[route] << QString();
            else
                nexthops[route.left(via)] << route.mid(via + 5);
        }
        return nexthops;
    };
    const QMap<QString, QStringList> b = byDestination(before);
    const QMap<QString, QStringList> a = byDestination(after);
    for (auto it = b.cbegin(); it != b.cend(); ++it) {
        const QStringList &was = it.value();
        const QStringList now = a.value(it.key());
        if (was.size() < 2 || was == now)
            continue;
        QStringList wasSorted = was;
        QStringList nowSorted = now;
        wasSorted.sort();
        nowSorted.sort();
        if (wasSorted == nowSorted)
            changes->append({ QStringLiteral("route"), QStringLiteral("changed"), it.key(),
                QStringLiteral("order via ") + was.join(QStringLiteral(", ")) + arrow()
                    + now.join(QStringLiteral(", ")) });
    }
}

QString instanceSubject(const QString &id, const InstanceDigest &d)
{
    return QStringLiteral("%1 (%2)").arg(d.name.isEmpty() ? QStringLiteral("(no name)") : d.name, id);
}

QString nodeChanges(const NodeDigest &b, const NodeDigest &a)
{
    QStringList parts;
    if (b.ready != a.ready)
        parts << QStringLiteral("Ready ") + b.ready + arrow() + a.ready;
    if (b.conditions != a.conditions)
        parts << QStringLiteral("conditions ") + orNone(b.conditions.join(QStringLiteral(", "))) + arrow()
                + orNone(a.conditions.join(QStringLiteral(", ")));
    if (b.internalIp != a.internalIp)
        parts << QStringLiteral("IP ") + orNone(b.internalIp) + arrow() + orNone(a.internalIp);
    if (b.podCidr != a.podCidr)
        parts << QStringLiteral("pod CIDR ") + orNone(b.podCidr) + arrow() + orNone(a.podCidr);
    if (b.unschedulable != a.unschedulable)
        parts << (a.unschedulable ? QStringLiteral("schedulable → cordoned")
                                  : QStringLiteral("cordoned → schedulable"));
    return parts.join(QStringLiteral("; "));
}

QString instanceChanges(const InstanceDigest &b, const InstanceDigest &a)
{
    QStringList parts;
    if (b.status != a.status)
        parts << b.status + arrow() + a.status;
    if (b.name != a.name)
        parts << QStringLiteral("name ") + orNone(b.name) + arrow() + orNone(a.name);
    if (b.addresses != a.addresses)
        parts << QStringLiteral("addresses ") + orNone(b.addresses) + arrow() + orNone(a.addresses);
    return parts.join(QStringLiteral("; "));
}

int categoryRank(const QString &category)
{
    return int(stateChangeCategories().indexOf(category));
}

QString plural(qsizetype n, const QString &one, const QString &many)
{
    return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
}

} // namespace

StateDigest StateDigest::of(const KlusterState &state, const Diagnosis &diagnosis)
{
    StateDigest d;
    d.capturedAt = state.capturedAt;
    d.kluster = state.kluster.name;
    if (!state.klusterSource.known)
        d.unknownSources << QString(SourceKluster);
    if (!state.serversSource.known || !state.serversSource.incomplete.isEmpty())
        d.unknownSources << QString(SourceServers);
    if (!state.routerSource.known)
        d.unknownSources << QString(SourceRouter);
    if (!state.securityGroupsSource.known)
        d.unknownSources << QString(SourceSecurityGroups);
    if (!state.nodesSource.known)
        d.unknownSources << QString(SourceNodes);

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
    w.value(timestamp(capturedAt));
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
    w.key(QStringLiteral("routes"));
    strings(routes);
    w.key(QStringLiteral("rules"));
    strings(rules);
    w.key(QStringLiteral("unknownSources"));
    strings(unknownSources);
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
        d.rules = readStrings(root, QStringLiteral("rules"));
        root.requireField(QStringLiteral("findings"))
            .forEachMember([&d](const QString &id, const JsonReader &r) {
                const QString name = r.requireStringValue();
                const std::optional<Severity> severity = severityOf(name);
                if (!severity)
                    r.fail(QStringLiteral("%1 is no severity (critical, warning, info)")
                               .arg(quotedExcerpt(name)));
                d.findings.insert(id, *severity);
            });
        d.unknownSources = readStrings(root, QStringLiteral("unknownSources"));
        return d;
    } catch (const ParseError &e) {
        if (error)
            *error = e.toString();
        return std::nullopt;
    }
}

const QStringList &stateChangeCategories()
{
    static const QStringList categories
        = { QStringLiteral("instance"), QStringLiteral("node"), QStringLiteral("route"),
              QStringLiteral("rule"), QStringLiteral("membership"), QStringLiteral("finding") };
    return categories;
}

QStringList uncomparedCategories(const StateDigest &before, const StateDigest &after)
{
    QSet<QString> unknown;
    for (const QString &s : before.unknownSources)
        unknown.insert(s);
    for (const QString &s : after.unknownSources)
        unknown.insert(s);
    QStringList categories;
    if (unknown.isEmpty())
        return categories;
    const bool kluster = unknown.contains(QString(SourceKluster));
    auto add = [&categories](bool notCompared, const QString &category) {
        if (notCompared)
            categories << category;
    };
    add(kluster || unknown.contains(QString(SourceServers)), QStringLiteral("instance"));
    add(unknown.contains(QString(SourceNodes)), QStringLiteral("node"));
    add(unknown.contains(QString(SourceRouter)), QStringLiteral("route"));
    add(kluster || unknown.contains(QString(SourceSecurityGroups)), QStringLiteral("rule"));
    add(kluster || unknown.contains(QString(SourceServers)), QStringLiteral("membership"));
    categories << QStringLiteral("finding"); // a finding not derived for want of a source is not resolved
    return categories;
}

QList<StateChange> diffStates(const StateDigest &before, const StateDigest &after)
{
    const QStringList skipped = uncomparedCategories(before, after);
    auto compared = [&skipped](const QString &category) { return !skipped.contains(category); };
    QList<StateChange> changes;

    if (compared(QStringLiteral("instance")) || compared(QStringLiteral("membership"))) {
        const QString instance = QStringLiteral("instance");
        const QString membership = QStringLiteral("membership");
        for (auto it = before.instances.cbegin(); it != before.instances.cend(); ++it) {
            const auto now = after.instances.constFind(it.key());
            if (now == after.instances.cend()) {
                if (compared(instance))
                    changes.append(
                        { instance, QStringLiteral("removed"), instanceSubject(it.key(), *it), it->status });
                continue;
            }
            const QString detail = instanceChanges(*it, *now);
            if (!detail.isEmpty() && compared(instance))
                changes.append(
                    { instance, QStringLiteral("changed"), instanceSubject(it.key(), *now), detail });
            if (!compared(membership))
                continue;
            for (const QString &group : it->securityGroups) {
                if (!now->securityGroups.contains(group))
                    changes.append(
                        { membership, QStringLiteral("removed"), now->name + arrow() + group, QString() });
            }
            for (const QString &group : now->securityGroups) {
                if (!it->securityGroups.contains(group))
                    changes.append(
                        { membership, QStringLiteral("added"), now->name + arrow() + group, QString() });
            }
        }
        if (compared(instance)) {
            for (auto it = after.instances.cbegin(); it != after.instances.cend(); ++it) {
                if (!before.instances.contains(it.key()))
                    changes.append(
                        { instance, QStringLiteral("added"), instanceSubject(it.key(), *it), it->status });
            }
        }
    }

    if (compared(QStringLiteral("node"))) {
        const QString node = QStringLiteral("node");
        for (auto it = before.nodes.cbegin(); it != before.nodes.cend(); ++it) {
            const auto now = after.nodes.constFind(it.key());
            if (now == after.nodes.cend()) {
                changes.append(
                    { node, QStringLiteral("removed"), it.key(), QStringLiteral("Ready ") + it->ready });
                continue;
            }
            const QString detail = nodeChanges(*it, *now);
            if (!detail.isEmpty())
                changes.append({ node, QStringLiteral("changed"), it.key(), detail });
        }
        for (auto it = after.nodes.cbegin(); it != after.nodes.cend(); ++it) {
            if (!before.nodes.contains(it.key()))
                changes.append(
                    { node, QStringLiteral("added"), it.key(), QStringLiteral("Ready ") + it->ready });
        }
    }

    if (compared(QStringLiteral("route"))) {
        diffCounted(before.routes, after.routes, QStringLiteral("route"), &changes);
        diffRouteOrder(before.routes, after.routes, &changes);
    }
    if (compared(QStringLiteral("rule")))
        diffCounted(before.rules, after.rules, QStringLiteral("rule"), &changes);

    if (compared(QStringLiteral("finding"))) {
        const QString finding = QStringLiteral("finding");
        for (auto it = before.findings.cbegin(); it != before.findings.cend(); ++it) {
            const auto now = after.findings.constFind(it.key());
            if (now == after.findings.cend())
                changes.append({ finding, QStringLiteral("resolved"), it.key(), severityName(*it) });
            else if (*now != *it)
                changes.append({ finding, QStringLiteral("changed"), it.key(),
                    severityName(*it) + arrow() + severityName(*now) });
        }
        for (auto it = after.findings.cbegin(); it != after.findings.cend(); ++it) {
            if (!before.findings.contains(it.key()))
                changes.append({ finding, QStringLiteral("opened"), it.key(), severityName(*it) });
        }
    }

    std::stable_sort(changes.begin(), changes.end(), [](const StateChange &a, const StateChange &b) {
        const int ra = categoryRank(a.category);
        const int rb = categoryRank(b.category);
        if (ra != rb)
            return ra < rb;
        if (a.subject != b.subject)
            return a.subject < b.subject;
        return a.change < b.change;
    });
    return changes;
}

QByteArray stateChangesText(
    const StateDigest &before, const StateDigest &after, const QList<StateChange> &changes)
{
    static const QMap<QString, QString> headings
        = { { QStringLiteral("instance"), QStringLiteral("Instances") },
              { QStringLiteral("node"), QStringLiteral("Nodes") },
              { QStringLiteral("route"), QStringLiteral("Routes") },
              { QStringLiteral("rule"), QStringLiteral("Security group rules") },
              { QStringLiteral("membership"), QStringLiteral("Security group memberships") },
              { QStringLiteral("finding"), QStringLiteral("Findings") } };
    constexpr qsizetype MaxSubjectWidth = 60;

    QString out = QStringLiteral("Kluster %1: changes from %2 to %3\n")
                      .arg(printable(after.kluster.isEmpty() ? before.kluster : after.kluster),
                          timestamp(before.capturedAt), timestamp(after.capturedAt));
    if (before.capturedAt > after.capturedAt)
        out += QStringLiteral(
            "Note: the first moment is the later one: these are the changes from %1 back to "
            "%2 (give the earlier first to see what happened since)\n")
                   .arg(timestamp(before.capturedAt), timestamp(after.capturedAt));
    for (const QString &category : stateChangeCategories()) {
        QList<const StateChange *> group;
        for (const StateChange &c : changes) {
            if (c.category == category)
                group << &c;
        }
        if (group.isEmpty())
            continue;
        qsizetype changeWidth = 0;
        qsizetype subjectWidth = 0;
        for (const StateChange *c : std::as_const(group)) {
            changeWidth = std::max(changeWidth, c->change.size());
            if (const qsizetype width = printable(c->subject).size(); width <= MaxSubjectWidth)
                subjectWidth = std::max(subjectWidth, width);
        }
        out += QStringLiteral("\n%1 (%2)\n").arg(headings.value(category, category)).arg(group.size());
        for (const StateChange *c : std::as_const(group)) {
            const QChar mark = c->change == QLatin1String("added") || c->change == QLatin1String("opened")
                ? QLatin1Char('+')
                : c->change == QLatin1String("removed") || c->change == QLatin1String("resolved")
                ? QLatin1Char('-')
                : QLatin1Char('~');
            QString line = QStringLiteral("  %1 %2  ").arg(mark).arg(c->change.leftJustified(changeWidth));
            // Names come from the cloud: nothing in them may drive the terminal.
            if (c->detail.isEmpty())
                line += printable(c->subject);
            else
                line += printable(c->subject).leftJustified(subjectWidth) + QStringLiteral("  ")
                    + printable(c->detail);
            out += line + QLatin1Char('\n');
        }
    }
    const QStringList skipped = uncomparedCategories(before, after);
    if (!skipped.isEmpty()) {
        QStringList unknown = before.unknownSources + after.unknownSources;
        unknown.removeDuplicates();
        out += QStringLiteral(
            "\nNot compared: %1 (not known, or not complete, at one of the two moments: %2)\n")
                   .arg(skipped.join(QStringLiteral(", ")), unknown.join(QStringLiteral(", ")));
    }
    out += changes.isEmpty() ? QStringLiteral("\nno changes\n")
                             : QStringLiteral("\n%1\n").arg(
                                 plural(changes.size(), QStringLiteral("change"), QStringLiteral("changes")));
    return out.toUtf8();
}

QByteArray stateChangesJson(
    const StateDigest &before, const StateDigest &after, const QList<StateChange> &changes)
{
    JsonWriter w;
    w.beginObject();
    w.key(QStringLiteral("kluster"));
    w.value(after.kluster.isEmpty() ? before.kluster : after.kluster);
    w.key(QStringLiteral("before"));
    w.value(timestamp(before.capturedAt));
    w.key(QStringLiteral("after"));
    w.value(timestamp(after.capturedAt));
    w.key(QStringLiteral("reversed")); // the first moment is the later one
    w.value(before.capturedAt > after.capturedAt);
    w.key(QStringLiteral("changes"));
    w.beginArray();
    for (const StateChange &c : changes) {
        w.beginObject();
        w.key(QStringLiteral("category"));
        w.value(c.category);
        w.key(QStringLiteral("change"));
        w.value(c.change);
        w.key(QStringLiteral("subject"));
        w.value(c.subject);
        w.key(QStringLiteral("detail"));
        w.value(c.detail);
        w.endObject();
    }
    w.endArray();
    w.key(QStringLiteral("summary"));
    w.beginObject();
    for (const QString &category : stateChangeCategories()) {
        w.key(category);
        w.value(int(std::count_if(changes.cbegin(), changes.cend(),
            [&category](const StateChange &c) { return c.category == category; })));
    }
    w.endObject();
    w.key(QStringLiteral("notCompared"));
    w.value(stringArray(uncomparedCategories(before, after)));
    w.endObject();
    return w.takeBytes();
}
