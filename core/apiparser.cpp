#include "core/apiparser.h"

#include <QRegularExpression>
#include <QTimeZone>
#include <cmath>

namespace ApiParser {

static QDateTime requireTimestamp(const JsonReader &object, const QString &key)
{
    const QString text = object.requireString(key);
    QDateTime t = parseTimestamp(text);
    if (!t.isValid())
        object.failAt(key, QStringLiteral("not an RFC 3339 timestamp: %1").arg(quotedExcerpt(text)));
    return t;
}

static QDateTime optTimestamp(const JsonReader &object, const QString &key)
{
    const std::optional<QString> text = object.optNullableString(key);
    if (!text)
        return QDateTime();
    QDateTime t = parseTimestamp(*text);
    if (!t.isValid())
        object.failAt(key, QStringLiteral("not an RFC 3339 timestamp: %1").arg(quotedExcerpt(*text)));
    return t;
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
    static const QRegularExpression shape(
        QStringLiteral("^\\d{4}-\\d{2}-\\d{2}[Tt]\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?([Zz]|[+-]\\d{2}:\\d{2})?$"));
    const QRegularExpressionMatch m = shape.match(text);
    if (!m.hasMatch() || (requireZone && m.captured(2).isEmpty()))
        return QDateTime();
    QString t = text;
    // Qt keeps milliseconds; trim longer fractions (Keystone writes microseconds).
    const qsizetype dot = t.indexOf(QLatin1Char('.'));
    if (dot > 0) {
        qsizetype end = dot + 1;
        while (end < t.size() && t.at(end).isDigit())
            ++end;
        if (end - dot - 1 > 3)
            t.remove(dot + 4, end - dot - 4);
    }
    QDateTime result = QDateTime::fromString(t, Qt::ISODateWithMs);
    if (!result.isValid())
        return QDateTime();
    if (result.timeSpec() == Qt::LocalTime)
        result.setTimeZone(QTimeZone::utc());
    result = result.toUTC();
    // An offset can carry the instant out of RFC 3339's four-digit years
    // ("9999-12-31T23:59:59-23:59"), which no one could write back.
    if (result.date().year() < 1 || result.date().year() > 9999)
        return QDateTime();
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

Instance parseServer(const JsonReader &server)
{
    server.requireObject();
    Instance s;
    s.id = server.requireString(QStringLiteral("id"));
    s.status = server.requireString(QStringLiteral("status"));
    // Servers in an unreachable cell come back as partial records without a name.
    if (s.status == QLatin1String("UNKNOWN") && !server.has(QStringLiteral("name"))) {
        s.created = optTimestamp(server, QStringLiteral("created"));
        return s;
    }
    s.name = server.requireString(QStringLiteral("name"));
    s.created = requireTimestamp(server, QStringLiteral("created"));
    s.vmState = server.optString(QStringLiteral("OS-EXT-STS:vm_state"));
    s.taskState = server.optString(QStringLiteral("OS-EXT-STS:task_state"));
    if (server.has(QStringLiteral("addresses"))) {
        const JsonReader addresses = server.child(QStringLiteral("addresses"));
        const QJsonObject networks = addresses.requireObject();
        for (auto it = networks.begin(); it != networks.end(); ++it) {
            const JsonReader net = addresses.child(it.key());
            const QJsonArray list = net.requireArray();
            for (qsizetype i = 0; i < list.size(); ++i) {
                const JsonReader entry = net.at(i);
                entry.requireObject();
                InstanceAddress a;
                a.network = it.key();
                a.address = entry.requireString(QStringLiteral("addr"));
                a.type = entry.optString(QStringLiteral("OS-EXT-IPS:type"));
                s.addresses.append(a);
            }
        }
    }
    // Nova leaves `security_groups` out when the server has none.
    const QJsonArray groups = server.optArray(QStringLiteral("security_groups"));
    if (!groups.isEmpty()) {
        const JsonReader groupsReader = server.child(QStringLiteral("security_groups"));
        for (qsizetype i = 0; i < groups.size(); ++i) {
            const JsonReader g = groupsReader.at(i);
            g.requireObject();
            s.securityGroups.append(g.requireString(QStringLiteral("name")));
        }
    }
    if (server.has(QStringLiteral("fault"))) {
        const JsonReader fault = server.child(QStringLiteral("fault"));
        fault.requireObject();
        s.faultMessage = fault.optString(QStringLiteral("message"));
    }
    return s;
}

QList<Instance> parseServers(const QString &source, const QJsonObject &body)
{
    const JsonReader root(source, body);
    const JsonReader servers = root.requireField(QStringLiteral("servers"));
    const QJsonArray list = servers.requireArray();
    QList<Instance> result;
    result.reserve(list.size());
    for (qsizetype i = 0; i < list.size(); ++i)
        result.append(parseServer(servers.at(i)));
    return result;
}

Router parseRouterObject(const JsonReader &router)
{
    router.requireObject();
    Router r;
    r.id = router.requireString(QStringLiteral("id"));
    r.name = router.optString(QStringLiteral("name"));
    r.revisionNumber
        = router.optIntegerIn(QStringLiteral("revision_number"), 0, Q_INT64_C(9007199254740991)).value_or(-1);
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

Node parseNode(const JsonReader &item)
{
    item.requireObject();
    Node n;
    const JsonReader metadata = item.requireField(QStringLiteral("metadata"));
    metadata.requireObject();
    n.name = metadata.requireString(QStringLiteral("name"));
    n.created = optTimestamp(metadata, QStringLiteral("creationTimestamp"));
    if (item.has(QStringLiteral("spec"))) {
        const JsonReader spec = item.child(QStringLiteral("spec"));
        spec.requireObject();
        // spec.podCIDRs[0] when present, else spec.podCIDR.
        const QJsonArray cidrs = spec.optArray(QStringLiteral("podCIDRs"));
        if (!cidrs.isEmpty()) {
            const JsonReader cidrsReader = spec.child(QStringLiteral("podCIDRs"));
            const JsonReader first = cidrsReader.at(0);
            if (!first.value().isString())
                first.fail(QStringLiteral("expected a string, got ") + JsonReader::typeName(first.value()));
            n.podCidrText = first.value().toString();
        } else {
            n.podCidrText = spec.optString(QStringLiteral("podCIDR"));
        }
        if (!n.podCidrText.isEmpty()) {
            n.podCidr = Cidr::parse(n.podCidrText);
            if (!n.podCidr.isValid())
                spec.failAt(cidrs.isEmpty() ? QStringLiteral("podCIDR") : QStringLiteral("podCIDRs[0]"),
                    QStringLiteral("not a CIDR: %1").arg(quotedExcerpt(n.podCidrText)));
        }
        n.providerId = spec.optString(QStringLiteral("providerID"));
        n.unschedulable = spec.optBool(QStringLiteral("unschedulable"));
    }
    if (item.has(QStringLiteral("status"))) {
        const JsonReader status = item.child(QStringLiteral("status"));
        status.requireObject();
        const QJsonArray addresses = status.optArray(QStringLiteral("addresses"));
        const JsonReader addressesReader = status.child(QStringLiteral("addresses"));
        // Dual-stack nodes list an InternalIP per family: take the one of the
        // pod CIDR's family (IPv4 when there is no pod CIDR yet).
        const bool wantV6 = n.podCidr.isValid() && !n.podCidr.isIPv4();
        for (qsizetype i = 0; i < addresses.size(); ++i) {
            const JsonReader a = addressesReader.at(i);
            a.requireObject();
            if (a.requireString(QStringLiteral("type")) != QLatin1String("InternalIP"))
                continue;
            const QString address = a.requireString(QStringLiteral("address"));
            const bool v6 = address.contains(QLatin1Char(':'));
            if (n.internalIp.isEmpty() || (v6 == wantV6 && n.internalIp.contains(QLatin1Char(':')) != wantV6))
                n.internalIp = address;
        }
        const QJsonArray conditions = status.optArray(QStringLiteral("conditions"));
        const JsonReader conditionsReader = status.child(QStringLiteral("conditions"));
        for (qsizetype i = 0; i < conditions.size(); ++i) {
            const JsonReader c = conditionsReader.at(i);
            c.requireObject();
            NodeCondition cond;
            cond.type = c.requireString(QStringLiteral("type"));
            cond.status = c.requireString(QStringLiteral("status"));
            cond.reason = c.optString(QStringLiteral("reason"));
            cond.message = c.optString(QStringLiteral("message"));
            cond.lastTransition = optTimestamp(c, QStringLiteral("lastTransitionTime"));
            n.conditions.append(cond);
        }
        if (status.has(QStringLiteral("nodeInfo"))) {
            const JsonReader info = status.child(QStringLiteral("nodeInfo"));
            info.requireObject();
            n.kubeletVersion = info.optString(QStringLiteral("kubeletVersion"));
        }
    }
    return n;
}

QList<Node> parseNodes(const QString &source, const QJsonObject &body)
{
    const JsonReader root(source, body);
    const QString kind = root.optString(QStringLiteral("kind"));
    const QString apiError = apiErrorIn(body);
    if (!apiError.isEmpty())
        root.fail(QStringLiteral("this is an API error response, not the expected body: ") + apiError);
    // `kubectl get nodes -o json` writes the same items as a plain "List".
    if (!kind.isEmpty() && kind != QLatin1String("NodeList") && kind != QLatin1String("List"))
        root.failAt(
            QStringLiteral("kind"), QStringLiteral("expected a NodeList, got %1").arg(quotedExcerpt(kind)));
    // The API always sends `items`; a list with nothing in it may come as null.
    const JsonReader items = root.child(QStringLiteral("items"));
    if (items.value().isUndefined())
        root.failAt(QStringLiteral("items"), QStringLiteral("required field is missing"));
    const QJsonArray list = items.value().isNull() ? QJsonArray() : items.requireArray();
    QList<Node> result;
    result.reserve(list.size());
    for (qsizetype i = 0; i < list.size(); ++i)
        result.append(parseNode(items.at(i)));
    return result;
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
