#include "core/apiparser.h"

#include "core/interned.h"
#include "core/json/bodyreader.h"
#include "core/json/itemsscan.h"

#include <cmath>

namespace ApiParser {

// The parsers of the large bodies (servers, nodes) are templates over the reader: JsonReader on Qt's
// tree, SimdJsonReader on simdjson's; one reading, the same results and errors.

template<typename Reader> static QDateTime requireTimestamp(const Reader &object, const QString &key)
{
    const QString text = object.requireString(key);
    QDateTime t = parseTimestamp(text);
    if (!t.isValid())
        object.failAt(key, QStringLiteral("not an RFC 3339 timestamp: %1").arg(quotedExcerpt(text)));
    return t;
}

template<typename Reader> static QDateTime optTimestamp(const Reader &object, const QString &key)
{
    const std::optional<QString> text = object.optNullableString(key);
    if (!text)
        return QDateTime();
    QDateTime t = parseTimestamp(*text);
    if (!t.isValid())
        object.failAt(key, QStringLiteral("not an RFC 3339 timestamp: %1").arg(quotedExcerpt(*text)));
    return t;
}

QDateTime optTimestampOf(const JsonReader &object, const QString &key)
{
    return optTimestamp(object, key);
}

static Cidr requireCidr(const JsonReader &object, const QString &key, const QString &text)
{
    const Cidr cidr = Cidr::parse(text);
    if (!cidr.isValid() || !text.contains(QLatin1Char('/')))
        object.failAt(key, QStringLiteral("not a CIDR: %1").arg(quotedExcerpt(text)));
    return cidr;
}

QDateTime parseTimestamp(const QString &text, bool requireZone)
{
    // yyyy-MM-ddTHH:mm:ss[.fraction][Z|±hh:mm], ASCII digits, read by hand: a node list holds some 35,000
    // of them (its conditions'), and a pattern and Qt's ISO reading took a third of a microsecond each.
    // What it accepts is what that reading accepted (tst_apiparser holds it to it).
    const QChar *c = text.constData();
    const qsizetype n = text.size();
    const auto is = [c, n](qsizetype at, char16_t one, char16_t other = 0) {
        return at < n && (c[at].unicode() == one || (other && c[at].unicode() == other));
    };
    const auto isDigit = [c, n](qsizetype at) { return at < n && c[at] >= u'0' && c[at] <= u'9'; };
    const auto number = [c, &isDigit](qsizetype at, int count, int *value) {
        int v = 0;
        for (qsizetype i = at; i < at + count; ++i) {
            if (!isDigit(i))
                return false;
            v = v * 10 + (c[i].unicode() - u'0');
        }
        *value = v;
        return true;
    };
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    if (!number(0, 4, &year) || !is(4, u'-') || !number(5, 2, &month) || !is(7, u'-') || !number(8, 2, &day)
        || !is(10, u'T', u't') || !number(11, 2, &hour) || !is(13, u':') || !number(14, 2, &minute)
        || !is(16, u':') || !number(17, 2, &second))
        return QDateTime();
    qsizetype at = 19;
    int msec = 0;
    if (is(at, u'.')) {
        const qsizetype first = ++at;
        while (isDigit(at))
            ++at;
        if (at == first)
            return QDateTime();
        // Qt keeps milliseconds: the first three digits ("5" is 500 ms), the rest cut off (Keystone writes
        // microseconds).
        for (qsizetype i = first; i < first + 3; ++i)
            msec = msec * 10 + (i < at ? c[i].unicode() - u'0' : 0);
    }
    bool zone = false;
    int offset = 0; // seconds east of UTC
    if (is(at, u'Z', u'z')) {
        zone = true;
        ++at;
    } else if (is(at, u'+', u'-')) {
        int hours = 0, minutes = 0;
        if (!number(at + 1, 2, &hours) || !is(at + 3, u':') || !number(at + 4, 2, &minutes) || hours > 23
            || minutes > 59)
            return QDateTime();
        offset = (hours * 60 + minutes) * 60 * (c[at] == u'-' ? -1 : 1);
        zone = true;
        at += 6;
    }
    if (at != n || (requireZone && !zone))
        return QDateTime();
    QDate date(year, month, day);
    if (year < 1 || !date.isValid() || minute > 59)
        return QDateTime();
    // 24:00:00 is the next day's midnight (ISO 8601), as Qt reads it.
    if (hour == 24 && minute == 0 && second == 0 && msec == 0) {
        hour = 0;
        date = date.addDays(1);
    }
    const QTime time(hour, minute, second, msec);
    if (!time.isValid())
        return QDateTime();
    // A date-time without a zone is UTC, once it is a valid local time too (Qt read it as local time
    // first: one in a daylight-saving gap is refused).
    if (!zone && !QDateTime(date, time, Qt::LocalTime).isValid())
        return QDateTime();
    QDateTime result(date, time, Qt::UTC);
    if (offset != 0)
        result = result.addSecs(-offset);
    // An offset can carry the instant out of RFC 3339's four-digit years
    // ("9999-12-31T23:59:59-23:59"), which no one could write back: only from the first or the last.
    if (date.year() <= 1 || date.year() >= 9999) {
        if (result.date().year() < 1 || result.date().year() > 9999)
            return QDateTime();
    }
    return result;
}

QString formatTimestamp(const QDateTime &instant)
{
    if (!instant.isValid())
        return QString();
    return instant.toUTC().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ssZ"));
}

Kluster parseKluster(const QString &source, const QJsonObject &body)
{
    const JsonReader root(source, body);
    Kluster k;
    k.name = root.requireString(QStringLiteral("name"));
    const JsonReader spec = root.requireField(QStringLiteral("spec"));
    spec.requireObject();
    k.clusterCidrText = spec.requireString(QStringLiteral("clusterCIDR"));
    k.clusterCidr = requireCidr(spec, QStringLiteral("clusterCIDR"), k.clusterCidrText);
    const JsonReader openstack = spec.requireField(QStringLiteral("openstack"));
    openstack.requireObject();
    k.routerId = openstack.requireString(QStringLiteral("routerID"));
    k.projectId = openstack.optString(QStringLiteral("projectID"));
    const QString group = openstack.optString(QStringLiteral("securityGroupName"));
    k.securityGroupName = group.isEmpty() ? QStringLiteral("default") : group;
    const QJsonArray pools = spec.optArray(QStringLiteral("nodePools"));
    const JsonReader poolsReader = spec.child(QStringLiteral("nodePools"));
    k.nodePools.reserve(pools.size());
    for (qsizetype i = 0; i < pools.size(); ++i) {
        const JsonReader pool = poolsReader.at(i);
        pool.requireObject();
        NodePool p;
        p.name = pool.requireString(QStringLiteral("name"));
        // A pool of more than 100,000 nodes is no Kubernikus pool: anything outside is refused, never
        // wrapped.
        p.size = int(pool.optIntegerIn(QStringLiteral("size"), 0, 100000).value_or(0));
        k.nodePools.append(p);
    }
    if (root.has(QStringLiteral("status"))) {
        const JsonReader status = root.child(QStringLiteral("status"));
        status.requireObject();
        k.phase = status.optString(QStringLiteral("phase"));
    }
    return k;
}

template<typename Reader> static Instance readServer(const Reader &server)
{
    server.requireObject();
    Instance s;
    s.id = server.requireString(QStringLiteral("id"));
    s.status = interned(server.requireString(QStringLiteral("status")));
    // Servers in an unreachable cell come back as partial records without a name.
    if (s.status == QLatin1String("UNKNOWN") && !server.has(QStringLiteral("name"))) {
        s.created = optTimestamp(server, QStringLiteral("created"));
        return s;
    }
    s.name = server.requireString(QStringLiteral("name"));
    s.created = requireTimestamp(server, QStringLiteral("created"));
    // What thousands of servers repeat is kept once (core/interned.h).
    s.vmState = interned(server.optString(QStringLiteral("OS-EXT-STS:vm_state")));
    s.taskState = interned(server.optString(QStringLiteral("OS-EXT-STS:task_state")));
    s.zone = interned(server.optString(QStringLiteral("OS-EXT-AZ:availability_zone")));
    if (server.has(QStringLiteral("addresses"))) {
        // Networks in key order, as Qt's object gives them.
        server.child(QStringLiteral("addresses"))
            .forEachMember([&s](const QString &network, const Reader &net) {
                net.forEachElement([&s, &network](const Reader &entry) {
                    entry.requireObject();
                    InstanceAddress a;
                    a.network = interned(network);
                    a.address = entry.requireString(QStringLiteral("addr"));
                    a.type = interned(entry.optString(QStringLiteral("OS-EXT-IPS:type")));
                    s.addresses.append(a);
                });
            });
    }
    // Nova leaves `security_groups` out when the server has none.
    server.forEachElementOf(QStringLiteral("security_groups"), [&s](const Reader &g) {
        g.requireObject();
        s.securityGroups.append(interned(g.requireString(QStringLiteral("name"))));
    });
    if (server.has(QStringLiteral("fault"))) {
        const Reader fault = server.child(QStringLiteral("fault"));
        fault.requireObject();
        s.faultMessage = fault.optString(QStringLiteral("message"));
    }
    return s;
}

Instance parseServer(const JsonReader &server)
{
    return readServer(server);
}

template<typename Reader> static QList<Instance> readServers(const Reader &root, QByteArrayList *records)
{
    const Reader servers = root.requireField(QStringLiteral("servers"));
    QList<Instance> result;
    servers.forEachElement([&result, records](const Reader &server) {
        result.append(readServer(server));
        if (records)
            records->append(server.compact());
    });
    return result;
}

QList<Instance> parseServers(const QString &source, const QJsonObject &body)
{
    return readServers(JsonReader(source, body), nullptr);
}

Router parseRouterObject(const JsonReader &router)
{
    router.requireObject();
    Router r;
    r.id = router.requireString(QStringLiteral("id"));
    r.name = router.optString(QStringLiteral("name"));
    r.revisionNumber
        = router.optIntegerIn(QStringLiteral("revision_number"), 0, Q_INT64_C(9007199254740991)).value_or(-1);
    if (const JsonReader gateway = router.child(QStringLiteral("external_gateway_info"));
        !gateway.isUndefined())
        r.hasGateway = gateway.isObject();
    const QJsonArray routes = router.optArray(QStringLiteral("routes"));
    const JsonReader routesReader = router.child(QStringLiteral("routes"));
    r.routes.reserve(routes.size());
    for (qsizetype i = 0; i < routes.size(); ++i) {
        const JsonReader route = routesReader.at(i);
        route.requireObject();
        Route entry;
        entry.destination = route.requireString(QStringLiteral("destination"));
        entry.nexthop = route.requireString(QStringLiteral("nexthop"));
        requireCidr(route, QStringLiteral("destination"), entry.destination);
        r.routes.append(entry);
    }
    return r;
}

Router parseRouter(const QString &source, const QJsonObject &body)
{
    const JsonReader root(source, body);
    return parseRouterObject(root.requireField(QStringLiteral("router")));
}

SecurityGroupRule parseSecurityGroupRule(const JsonReader &rule)
{
    rule.requireObject();
    SecurityGroupRule r;
    r.id = rule.optString(QStringLiteral("id"));
    r.securityGroupId = rule.optString(QStringLiteral("security_group_id"));
    r.direction = rule.requireString(QStringLiteral("direction"));
    r.ethertype = rule.requireString(QStringLiteral("ethertype"));
    // Neutron gives the protocol as a name, a number (as a string), or null.
    const QJsonValue protocol = rule.value().toObject().value(QStringLiteral("protocol"));
    if (protocol.isString())
        r.protocol = protocol.toString();
    else if (protocol.isDouble()) {
        const double number = protocol.toDouble();
        if (!(number >= 0 && number <= 255 && number == std::floor(number)))
            rule.failAt(QStringLiteral("protocol"),
                QStringLiteral("%1 is no IP protocol number (0 to 255)").arg(number));
        r.protocol = QString::number(int(number));
    } else if (!protocol.isNull() && !protocol.isUndefined())
        rule.failAt(QStringLiteral("protocol"),
            QStringLiteral("expected a string, a number or null, got ") + JsonReader::typeName(protocol));
    if (const auto min = rule.optIntegerIn(QStringLiteral("port_range_min"), 0, 65535))
        r.portRangeMin = int(*min);
    if (const auto max = rule.optIntegerIn(QStringLiteral("port_range_max"), 0, 65535))
        r.portRangeMax = int(*max);
    r.remoteIpPrefix = rule.optNullableString(QStringLiteral("remote_ip_prefix"));
    r.remoteGroupId = rule.optNullableString(QStringLiteral("remote_group_id"));
    r.remoteAddressGroupId = rule.optNullableString(QStringLiteral("remote_address_group_id"));
    return r;
}

QList<SecurityGroup> parseSecurityGroups(const QString &source, const QJsonObject &body)
{
    const JsonReader root(source, body);
    const JsonReader groups = root.requireField(QStringLiteral("security_groups"));
    const QJsonArray list = groups.requireArray();
    QList<SecurityGroup> result;
    result.reserve(list.size());
    for (qsizetype i = 0; i < list.size(); ++i) {
        const JsonReader group = groups.at(i);
        group.requireObject();
        SecurityGroup g;
        g.id = group.requireString(QStringLiteral("id"));
        g.name = group.requireString(QStringLiteral("name"));
        const QJsonArray rules = group.optArray(QStringLiteral("security_group_rules"));
        const JsonReader rulesReader = group.child(QStringLiteral("security_group_rules"));
        for (qsizetype j = 0; j < rules.size(); ++j)
            g.rules.append(parseSecurityGroupRule(rulesReader.at(j)));
        result.append(g);
    }
    return result;
}

template<typename Reader> static Node readNode(const Reader &item)
{
    item.requireObject();
    Node n;
    const Reader metadata = item.requireField(QStringLiteral("metadata"));
    metadata.requireObject();
    n.name = metadata.requireString(QStringLiteral("name"));
    n.created = optTimestamp(metadata, QStringLiteral("creationTimestamp"));
    if (metadata.has(QStringLiteral("labels"))) {
        // Its zone (diagnosis.md §5): the topology label, else the beta one it replaced.
        const Reader labels = metadata.child(QStringLiteral("labels"));
        labels.requireObject();
        n.zone = interned(labels.optString(QStringLiteral("topology.kubernetes.io/zone")));
        if (n.zone.isEmpty())
            n.zone = interned(labels.optString(QStringLiteral("failure-domain.beta.kubernetes.io/zone")));
    }
    if (metadata.has(QStringLiteral("annotations"))) {
        // Kubernikus' servicing stamps a node it is about to cordon (sapcc/kubernikus
        // pkg/controller/servicing, docs/wire-formats.md); a stamp that is no time says nothing.
        const Reader annotations = metadata.child(QStringLiteral("annotations"));
        annotations.requireObject();
        n.servicingSince
            = parseTimestamp(annotations.optString(QStringLiteral("kubernikus.cloud.sap/updateTimestamp")));
    }
    if (item.has(QStringLiteral("spec"))) {
        const Reader spec = item.child(QStringLiteral("spec"));
        spec.requireObject();
        // spec.podCIDRs[0] when present, else spec.podCIDR.
        const bool fromCidrs = spec.optArrayLength(QStringLiteral("podCIDRs")) > 0;
        if (fromCidrs) {
            const Reader cidrs = spec.child(QStringLiteral("podCIDRs"));
            n.podCidrText = cidrs.at(0).requireStringValue();
        } else {
            n.podCidrText = spec.optString(QStringLiteral("podCIDR"));
        }
        if (!n.podCidrText.isEmpty()) {
            n.podCidr = Cidr::parse(n.podCidrText);
            if (!n.podCidr.isValid())
                spec.failAt(fromCidrs ? QStringLiteral("podCIDRs[0]") : QStringLiteral("podCIDR"),
                    QStringLiteral("not a CIDR: %1").arg(quotedExcerpt(n.podCidrText)));
        }
        n.providerId = spec.optString(QStringLiteral("providerID"));
        n.unschedulable = spec.optBool(QStringLiteral("unschedulable"));
    }
    if (item.has(QStringLiteral("status"))) {
        const Reader status = item.child(QStringLiteral("status"));
        status.requireObject();
        // Dual-stack nodes list an InternalIP per family: take the one of the
        // pod CIDR's family (IPv4 when there is no pod CIDR yet).
        const bool wantV6 = n.podCidr.isValid() && !n.podCidr.isIPv4();
        status.forEachElementOf(QStringLiteral("addresses"), [&n, wantV6](const Reader &a) {
            a.requireObject();
            if (a.requireString(QStringLiteral("type")) != QLatin1String("InternalIP"))
                return;
            const QString address = a.requireString(QStringLiteral("address"));
            const bool v6 = address.contains(QLatin1Char(':'));
            if (n.internalIp.isEmpty() || (v6 == wantV6 && n.internalIp.contains(QLatin1Char(':')) != wantV6))
                n.internalIp = address;
        });
        status.forEachElementOf(QStringLiteral("conditions"), [&n](const Reader &c) {
            c.requireObject();
            NodeCondition cond;
            // Every node repeats its conditions' words: kept once (core/interned.h).
            cond.type = interned(c.requireString(QStringLiteral("type")));
            cond.status = interned(c.requireString(QStringLiteral("status")));
            cond.reason = interned(c.optString(QStringLiteral("reason")));
            cond.message = interned(c.optString(QStringLiteral("message")));
            cond.lastTransition = optTimestamp(c, QStringLiteral("lastTransitionTime"));
            n.conditions.append(cond);
        });
        n.conditions.squeeze();
        if (status.has(QStringLiteral("nodeInfo"))) {
            const Reader info = status.child(QStringLiteral("nodeInfo"));
            info.requireObject();
            n.kubeletVersion = interned(info.optString(QStringLiteral("kubeletVersion")));
        }
    }
    return n;
}

Node parseNode(const JsonReader &item)
{
    return readNode(item);
}

template<typename Reader>
static QList<Node> readNodes(const Reader &root, NodeListMeta *meta, QByteArrayList *records)
{
    const QString kind = root.optString(QStringLiteral("kind"));
    const QString apiError = root.apiError();
    if (!apiError.isEmpty())
        root.fail(QStringLiteral("this is an API error response, not the expected body: ") + apiError);
    // `kubectl get nodes -o json` writes the same items as a plain "List".
    if (!kind.isEmpty() && kind != QLatin1String("NodeList") && kind != QLatin1String("List"))
        root.failAt(
            QStringLiteral("kind"), QStringLiteral("expected a NodeList, got %1").arg(quotedExcerpt(kind)));
    // The API always sends `items`; a list with nothing in it may come as null.
    const Reader items = root.child(QStringLiteral("items"));
    if (items.isUndefined())
        root.failAt(QStringLiteral("items"), QStringLiteral("required field is missing"));
    QList<Node> result;
    if (!items.isNull())
        items.forEachElement([&result, records](const Reader &item) {
            result.append(readNode(item));
            if (records)
                records->append(item.compact());
        });
    if (meta) {
        // The rest read leniently, as a walk through chunks reads it: what is no string is none.
        meta->kind = kind;
        meta->apiVersion = root.child(QStringLiteral("apiVersion")).toString();
        const Reader metadata = root.child(QStringLiteral("metadata"));
        meta->continueToken = metadata.child(QStringLiteral("continue")).toString();
        meta->resourceVersion = metadata.child(QStringLiteral("resourceVersion")).toString();
    }
    return result;
}

QList<Node> parseNodes(const QString &source, const QJsonObject &body)
{
    return readNodes(JsonReader(source, body), nullptr, nullptr);
}

QList<Instance> parseServers(const QString &source, const QByteArray &body, QByteArrayList *records)
{
    return JsonBodies::read(source, body, [records](const auto &root) { return readServers(root, records); });
}

QList<Node> parseNodes(const QString &source, const QByteArray &body, NodeListMeta *meta,
    QByteArrayList *records, const NodeListBatches &batches)
{
    // A list read whole: the body, or (in batches) the list without its items.
    const auto list = [&](const QByteArray &bytes) {
        return JsonBodies::read(
            source, bytes, [meta, records](const auto &root) { return readNodes(root, meta, records); });
    };
    if (body.size() <= batches.above)
        return list(body);
    const std::optional<ItemsSplit> split = scanItems(body, batches.batch);
    if (!split)
        return list(body);
    const qsizetype recordsBefore = records ? records->size() : 0;
    try {
        // What the list says of itself, and its refusals (an API error, another kind), from the rest.
        QByteArray rest = body.left(split->open + 1);
        rest += body.mid(split->close);
        QList<Node> nodes = list(rest);
        for (const auto &[begin, end] : split->batches) {
            QByteArray batch;
            batch.reserve(end - begin + 12 + JsonBodies::Padding);
            batch += "{\"items\":[";
            batch += QByteArrayView(body.constData() + begin, end - begin);
            batch += "]}";
            nodes += JsonBodies::read(
                source, batch, [records](const auto &root) { return readNodes(root, nullptr, records); });
        }
        return nodes;
    } catch (const ParseError &) {
        // Said as one reading says it (the item's place in the whole list, or the whole body refused).
        if (records)
            records->resize(recordsBefore);
    }
    return list(body);
}

template<typename Reader> static ListPage readListPageOf(const Reader &page, const QString &collection)
{
    ListPage p;
    p.isList = page.child(collection).isArray();
    if (p.isList)
        p.size = page.optArrayLength(collection);
    // Read leniently: a link that is not an object with strings is no link; the last "next" counts.
    const Reader links = page.child(collection + QStringLiteral("_links"));
    if (links.isArray()) {
        links.forEachElement([&p](const Reader &link) {
            if (link.child(QStringLiteral("rel")).toString() == QLatin1String("next"))
                p.next = link.child(QStringLiteral("href")).toString();
        });
    }
    return p;
}

ListPage readListPage(const QJsonObject &page, const QString &collection)
{
    return readListPageOf(JsonReader(QString(), page), collection);
}

std::optional<ListPage> readListPage(const QByteArray &page, const QString &collection)
{
    try {
        return JsonBodies::read(
            QString(), page, [&collection](const auto &root) { return readListPageOf(root, collection); });
    } catch (const ParseError &) {
        return std::nullopt;
    }
}

Port parsePortObject(const JsonReader &port)
{
    port.requireObject();
    Port p;
    p.id = port.requireString(QStringLiteral("id"));
    p.deviceId = port.optString(QStringLiteral("device_id"));
    const JsonReader fixed = port.child(QStringLiteral("fixed_ips"));
    const QJsonArray fixedList = port.optArray(QStringLiteral("fixed_ips"));
    for (qsizetype f = 0; f < fixedList.size(); ++f) {
        const JsonReader ip = fixed.at(f);
        ip.requireObject();
        p.fixedIps.append(ip.optString(QStringLiteral("ip_address")));
    }
    if (port.has(QStringLiteral("port_security_enabled")))
        p.portSecurityEnabled = port.optBool(QStringLiteral("port_security_enabled"));
    const JsonReader pairs = port.child(QStringLiteral("allowed_address_pairs"));
    const QJsonArray pairList = port.optArray(QStringLiteral("allowed_address_pairs"));
    for (qsizetype a = 0; a < pairList.size(); ++a) {
        const JsonReader pair = pairs.at(a);
        pair.requireObject();
        p.allowedAddressPairs.append(AddressPair { pair.requireString(QStringLiteral("ip_address")),
            pair.optString(QStringLiteral("mac_address")) });
    }
    p.revision
        = port.optIntegerIn(QStringLiteral("revision_number"), 0, Q_INT64_C(9007199254740991)).value_or(-1);
    return p;
}

QList<Port> parsePorts(const QString &source, const QJsonObject &body)
{
    const JsonReader root(source, body);
    const JsonReader ports = root.requireField(QStringLiteral("ports"));
    const QJsonArray list = ports.requireArray();
    QList<Port> result;
    result.reserve(list.size());
    for (qsizetype i = 0; i < list.size(); ++i)
        result.append(parsePortObject(ports.at(i)));
    return result;
}

Port parsePort(const QString &source, const QJsonObject &body)
{
    return parsePortObject(JsonReader(source, body).requireField(QStringLiteral("port")));
}

QStringList parseExtensions(const QString &source, const QJsonObject &body)
{
    const JsonReader root(source, body);
    const JsonReader extensions = root.requireField(QStringLiteral("extensions"));
    const QJsonArray list = extensions.requireArray();
    QStringList aliases;
    for (qsizetype i = 0; i < list.size(); ++i) {
        const JsonReader e = extensions.at(i);
        e.requireObject();
        aliases.append(e.requireString(QStringLiteral("alias")));
    }
    return aliases;
}

} // namespace ApiParser
