#include "core/apiparser.h"
#include "core/json/simdjsonreader.h"
#include "core/keptbody.h"
#include "core/recordpack.h"
#include "tests/common/bothreadings.h"
#include "tests/common/worldbuilder.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

// The servers and nodes read from their bytes (simdjson) give what Qt's tree gives: the same values, or
// the same error (source, JSON path, words), for real-shaped bodies, the bodies of tst_apiparser, and
// every mutation of them this test makes: members removed, null or of another type, keys duplicated,
// objects in another key order, odd numbers and strings, bad timestamps, the body cut short.
class TestParseBytes : public QObject
{
    Q_OBJECT
private slots:
    void handWritten_data();
    void handWritten();
    void worlds();
    void serversMutated();
    void nodesMutated();
    void cutShort();
    void wholeDocuments_data();
    void wholeDocuments();
    void integers_data();
    void integers();
    void networksInKeyOrder();
    void recordsKeptPacked();
    void repeatedWordsKeptOnce();
};

namespace {

// A JSON value written out with one change at `path` (members by key, elements by index): the value
// replaced by `replacement` (raw JSON; empty: the member removed), or, with `duplicate`, the member written
// twice (the replacement first, so that the original wins, or last, so that the replacement does); and
// with `reversed`, every object's members in reverse order.
struct Mutation
{
    QStringList path;
    QByteArray replacement;
    enum class Duplicate
    {
        No,
        ReplacementFirst,
        ReplacementLast
    } duplicate
        = Duplicate::No;
    bool reversed = false;
};

QByteArray quoted(const QString &text)
{
    const QByteArray inArray = QJsonDocument(QJsonArray { text }).toJson(QJsonDocument::Compact);
    return inArray.mid(1, inArray.size() - 2);
}

QByteArray scalar(const QJsonValue &v)
{
    const QByteArray inArray = QJsonDocument(QJsonArray { v }).toJson(QJsonDocument::Compact);
    return inArray.mid(1, inArray.size() - 2);
}

QByteArray write(const QJsonValue &value, const Mutation &m, QStringList at = {})
{
    const bool here = !m.path.isEmpty() && at == m.path.mid(0, at.size());
    if (value.isObject()) {
        const QJsonObject o = value.toObject();
        QStringList keys = o.keys();
        if (m.reversed)
            std::reverse(keys.begin(), keys.end());
        QByteArrayList members;
        for (const QString &key : keys) {
            const QStringList path = at + QStringList { key };
            const bool target = here && path == m.path;
            const QByteArray name = quoted(key) + ':';
            if (!target) {
                members << name + write(o.value(key), m, path);
                continue;
            }
            const QByteArray original = name + write(o.value(key), Mutation(), path);
            const QByteArray replaced = name + m.replacement;
            switch (m.duplicate) {
            case Mutation::Duplicate::No:
                if (!m.replacement.isEmpty())
                    members << replaced;
                break;
            case Mutation::Duplicate::ReplacementFirst:
                members << replaced << original;
                break;
            case Mutation::Duplicate::ReplacementLast:
                members << original << replaced;
                break;
            }
        }
        return '{' + members.join(',') + '}';
    }
    if (value.isArray()) {
        const QJsonArray a = value.toArray();
        QByteArrayList elements;
        for (qsizetype i = 0; i < a.size(); ++i) {
            const QStringList path = at + QStringList { QString::number(i) };
            if (here && path == m.path && m.duplicate == Mutation::Duplicate::No) {
                if (!m.replacement.isEmpty())
                    elements << m.replacement;
                continue;
            }
            elements << write(a.at(i), m, path);
        }
        return '[' + elements.join(',') + ']';
    }
    return scalar(value);
}

// Every path to a member or element under `value`.
void pathsOf(const QJsonValue &value, const QStringList &at, QList<QStringList> *out)
{
    if (value.isObject()) {
        const QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            out->append(at + QStringList { it.key() });
            pathsOf(it.value(), at + QStringList { it.key() }, out);
        }
    } else if (value.isArray()) {
        const QJsonArray a = value.toArray();
        for (qsizetype i = 0; i < a.size(); ++i) {
            out->append(at + QStringList { QString::number(i) });
            pathsOf(a.at(i), at + QStringList { QString::number(i) }, out);
        }
    }
}

// What a value is replaced with: every type, and the odd values of each.
const QByteArrayList &replacements()
{
    static const QByteArrayList values = { "null", "true", "false", "0", "-0", "-0.0", "7", "1.5", "1e300",
        "1e-400", "9007199254740993", "18446744073709551615", "-9223372036854775808", R"("")", R"("x")",
        R"("2026-11-21T10:00:00Z")", R"("2026-11-21T12:00:00+02:00")", R"("2026-11-21t10:00:00.123456z")",
        R"("2026-11-21T10:00:00")", R"("2026-11-21")", R"("2026-02-30T10:00:00Z")",
        R"("2026-11-21T24:00:00Z")", R"("2026-11-21T10:00:60Z")", R"("9999-12-31T23:59:59-01:00")",
        R"("10.1.0.0/24")", R"("fd00::/64")", R"("not/a-cidr")", R"("InternalIP")", R"("UNKNOWN")",
        R"("\u00e9\ud83d\ude00 \u0000 \" \\ \/")", "[]", R"(["10.2.0.0/24"])", "[1]", "[null]", "{}",
        R"({"x": 1})", R"({"NeutronError": {"type": "T", "message": "m"}})" };
    return values;
}

void compare(const bothreadings::Readings &r, const QByteArray &body)
{
    if (r.qt != r.bytes)
        QFAIL(qPrintable(QStringLiteral("the two readings differ on %1\nQt:    %2\nbytes: %3")
                             .arg(QString::fromUtf8(body.left(600)), r.qt.left(600), r.bytes.left(600))));
    if (r.whole != r.batched) {
        const QStringList whole = r.whole.split(QLatin1Char('\n')),
                          batched = r.batched.split(QLatin1Char('\n'));
        qsizetype line = 0;
        while (line < whole.size() && line < batched.size() && whole.at(line) == batched.at(line))
            ++line;
        QFAIL(qPrintable(QStringLiteral(
            "read whole and in batches, the nodes differ on %1\nline %2\nwhole:   %3\nbatches: %4")
                             .arg(QString::fromUtf8(body.left(600)))
                             .arg(line)
                             .arg(whole.value(line).left(600), batched.value(line).left(600))));
    }
}

int mutateAll(const QJsonObject &body, bool nodes)
{
    QList<QStringList> paths;
    pathsOf(body, {}, &paths);
    int checked = 0;
    const auto check = [&](const Mutation &m) {
        const QByteArray bytes = write(body, m);
        compare(nodes ? bothreadings::nodes(QStringLiteral("nodes.json"), bytes)
                      : bothreadings::servers(QStringLiteral("servers.json"), bytes),
            bytes);
        ++checked;
    };
    check(Mutation());
    check(Mutation { {}, {}, Mutation::Duplicate::No, true });
    for (const QStringList &path : std::as_const(paths)) {
        check(Mutation { path, QByteArray() });
        for (const QByteArray &value : replacements()) {
            check(Mutation { path, value });
            // A duplicated key: the original last (it wins), or the replacement last.
            const bool element = !path.last().isEmpty() && path.last().front().isDigit();
            if (!element) {
                check(Mutation { path, value, Mutation::Duplicate::ReplacementFirst });
                check(Mutation { path, value, Mutation::Duplicate::ReplacementLast, true });
            }
        }
    }
    return checked;
}

WorldBuilder smallWorld()
{
    WorldBuilder w;
    w.healthyMember(
        QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.5"), QStringLiteral("100.100.1.0/24"));
    const int s = w.server(
        QStringLiteral("kks-demo-pool-bbbbb"), QStringLiteral("10.0.0.6"), 90, QStringLiteral("ERROR"), {});
    w.serverAt(s).insert(
        QStringLiteral("fault"), QJsonObject { { QStringLiteral("message"), QStringLiteral("No host") } });
    const int n = w.node(QStringLiteral("kks-demo-pool-ccccc"), QStringLiteral("10.0.0.7"), QString(),
        QStringLiteral("False"));
    w.setCondition(
        n, QStringLiteral("Ready"), QStringLiteral("False"), QStringLiteral("KubeletNotReady"), 42);
    return w;
}

} // namespace

void TestParseBytes::handWritten_data()
{
    QTest::addColumn<bool>("nodes");
    QTest::addColumn<QByteArray>("body");
    const auto servers
        = [](const char *name, const char *body) { QTest::newRow(name) << false << QByteArray(body); };
    const auto nodes
        = [](const char *name, const char *body) { QTest::newRow(name) << true << QByteArray(body); };
    servers("unknown fields", R"({"servers": [{"id": "a", "name": "kks-demo-pool-abcde", "status": "ACTIVE",
        "created": "2026-11-21T09:00:00Z", "addresses": {}, "security_groups": [{"name": "kks-sg"}],
        "some-new-field": {"x": [1, 2]}, "OS-EXT-STS:vm_state": "active", "OS-EXT-STS:task_state": null}],
        "servers_links": [{"rel": "next", "href": "http://nova/v2.1/servers/detail?marker=a"}]})");
    servers("no groups",
        R"({"servers": [{"id": "a", "name": "x", "status": "ACTIVE", "created": "2026-11-21T09:00:00Z"}]})");
    servers("addresses",
        R"({"servers": [{"id": "a", "name": "x", "status": "ACTIVE", "created": "2026-11-21T09:00:00Z",
        "addresses": {"net-b": [{"addr": "10.1.0.5", "version": 4}],
                      "net-a": [{"addr": "10.0.0.5", "version": 4, "OS-EXT-IPS:type": "fixed"},
                                {"addr": "172.24.4.9", "version": 4, "OS-EXT-IPS:type": "floating"}],
                      "Net-C": [], "net-a": [{"addr": "10.9.0.9"}]}}]})");
    servers("fault",
        R"({"servers": [{"id": "a", "name": "x", "status": "ERROR", "created": "2026-11-21T09:00:00Z",
        "OS-EXT-STS:vm_state": "error", "fault": {"code": 500, "created": "2026-11-21T09:01:00Z",
        "message": "No valid host was found."}}]})");
    servers("id missing",
        R"({"servers": [{"id": "a", "name": "x", "status": "ACTIVE", "created": "2026-11-21T09:00:00Z"},
        {"name": "y", "status": "ACTIVE", "created": "2026-11-21T09:00:00Z"}]})");
    servers("addresses an array", R"({"servers": [{"id": "a", "name": "x", "status": "ACTIVE",
        "created": "2026-11-21T09:00:00Z", "addresses": []}]})");
    servers("servers an object", R"({"servers": {}})");
    servers("group without name", R"({"servers": [{"id": "a", "name": "x", "status": "ACTIVE",
        "created": "2026-11-21T09:00:00Z", "security_groups": [{"id": "no-name"}]}]})");
    servers("escaped keys", R"({"servers": [{"id": "a", "id": "b", "name": "x", "status": "ACTIVE",
        "created": "2026-11-21T09:00:00Z", "addresses": {"nét": [{"addr": "1"}], "net": [{"addr": "2"}]}}]})");
    servers("partial", R"({"servers": [{"id": "a", "status": "UNKNOWN", "links": []},
        {"id": "b", "name": "x", "status": "ACTIVE", "created": "2026-11-21T09:00:00Z"}]})");
    servers("partial with a bad created",
        R"({"servers": [{"id": "a", "status": "UNKNOWN", "created": "soon"}]})");
    servers("Nova fault", R"({"itemNotFound": {"message": "Instance could not be found.", "code": 404}})");
    servers("Nova fault twice", R"({"itemNotFound": {"message": "m", "code": 404}, "itemNotFound": 5})");
    servers("a code and a message", R"({"code": 500, "message": "boom", "title": "Internal"})");
    servers("NeutronError", R"({"NeutronError": {"type": "X", "message": "y", "detail": ""}})");
    servers("NeutronError null", R"({"NeutronError": null, "servers": []})");
    servers("Status",
        R"({"kind": "Status", "status": "Failure", "message": "forbidden", "reason": "Forbidden", "code": 403})");
    nodes("podCIDR", R"({"kind": "NodeList", "items": [
        {"metadata": {"name": "n1", "creationTimestamp": "2026-11-21T09:00:00Z"},
         "spec": {"podCIDR": "100.100.1.0/24", "providerID": "openstack:///abc"},
         "status": {"addresses": [{"type": "Hostname", "address": "n1"}, {"type": "InternalIP", "address": "10.0.0.1"}],
                    "conditions": [{"type": "Ready", "status": "True"}]}}],
        "metadata": {"resourceVersion": "12", "continue": "abc", "remainingItemCount": 3}})");
    nodes("podCIDRs", R"({"items": [{"metadata": {"name": "n1"}, "spec": {"podCIDR": "100.100.1.0/24",
        "podCIDRs": ["100.100.9.0/24", "fd00::/64"], "providerID": "openstack://region-1/def"}}]})");
    nodes("bare", R"({"items": [{"metadata": {"name": "n1"}}]})");
    nodes("items null", R"({"kind": "NodeList", "items": null})");
    nodes("items missing", R"({"kind": "NodeList"})");
    nodes("PodList", R"({"kind": "PodList", "items": []})");
    nodes("bad podCIDR", R"({"items": [{"metadata": {"name": "n"}, "spec": {"podCIDR": "x"}}]})");
    nodes("podCIDRs of numbers", R"({"items": [{"metadata": {"name": "n"}, "spec": {"podCIDRs": [7]}}]})");
    nodes("dual stack",
        R"({"items": [{"metadata": {"name": "n"}, "spec": {"podCIDRs": ["100.100.0.0/24", "fd00:10::/64"]},
        "status": {"addresses": [{"type": "InternalIP", "address": "fd00::5"}, {"type": "InternalIP", "address": "10.0.0.5"}]}}]})");
    nodes("kubectl", R"({"apiVersion": "v1", "kind": "List", "items": [{"metadata": {"name": "n"}}]})");
    nodes("Status",
        R"({"kind": "Status", "status": "Failure", "message": "nodes is forbidden", "reason": "Forbidden", "code": 403})");
    nodes("single member fault", R"({"items": {"message": "m", "code": 1}})");
    nodes("conditions", R"({"items": [{"metadata": {"name": "n1"}, "status": {"conditions": [
        {"type": "Ready", "status": "False", "lastTransitionTime": "2026-11-21T09:18:00Z"},
        {"type": "NetworkUnavailable", "status": "False", "lastTransitionTime": null}]}}]})");
    nodes("bad condition time", R"({"items": [{"metadata": {"name": "n1"}, "status": {"conditions": [
        {"type": "Ready", "status": "False", "lastTransitionTime": "a while ago"}]}}]})");
    nodes("kind a number", R"({"kind": 5, "items": []})");
    nodes("metadata odd", R"({"items": [], "metadata": {"continue": 5, "resourceVersion": null}})");
    // What the batches' scan must not be fooled by (each is also read a node at a time: compare()).
    nodes(
        "items last, brackets in strings", R"({"metadata": {"resourceVersion": "7"}, "items" : [ {"metadata":
        {"name": "n]1", "labels": {"a\"]}": "[{\\"}}}} , {"metadata": {"name": "n2"}} ] } )");
    nodes("items twice",
        R"({"items": [{"metadata": {"name": "n1"}}], "items": [{"metadata": {"name": "n2"}}]})");
    nodes("items escaped", R"({"it\u0065ms": [{"metadata": {"name": "n1"}}], "items": []})");
    nodes("items nested", R"({"x": {"items": [1]}, "items": [{"metadata": {"name": "n1"}}]})");
    nodes("no comma between", R"({"items": [{"metadata": {"name": "n1"}} {"metadata": {"name": "n2"}}]})");
    nodes("a trailing comma", R"({"items": [{"metadata": {"name": "n1"}},]})");
    nodes("a bracket too many", R"({"items": [{"metadata": {"name": "n1"}}]], "kind": "NodeList"})");
    nodes("mismatched brackets", R"({"items": [{"metadata": {"name": "n1"]}], "kind": "NodeList"})");
    nodes("an item not an object", R"({"items": [{"metadata": {"name": "n1"}}, 5, "x", null]})");
    nodes("a bad node third", R"({"items": [{"metadata": {"name": "n1"}}, {"metadata": {"name": "n2"}},
        {"metadata": {"name": "n3"}, "spec": {"podCIDR": "x"}}]})");
    nodes("an API error beside items", R"({"kind": "Status", "status": "Failure", "message": "m", "code": 500,
        "items": [{"metadata": {"name": "n1"}}]})");
    nodes("garbage after", R"({"items": [{"metadata": {"name": "n1"}}]} x)");
}

void TestParseBytes::handWritten()
{
    QFETCH(bool, nodes);
    QFETCH(QByteArray, body);
    const QString source = nodes ? QStringLiteral("nodes.json") : QStringLiteral("servers.json");
    compare(nodes ? bothreadings::nodes(source, body) : bothreadings::servers(source, body), body);
    // The same body as Qt writes it again (keys sorted, no space) and indented.
    const QJsonObject object = QJsonDocument::fromJson(body).object();
    for (const QByteArray &again : { QJsonDocument(object).toJson(QJsonDocument::Compact),
             QJsonDocument(object).toJson(QJsonDocument::Indented) })
        compare(nodes ? bothreadings::nodes(source, again) : bothreadings::servers(source, again), again);
}

void TestParseBytes::worlds()
{
    for (const bool bulk : { false, true }) {
        WorldBuilder w = smallWorld();
        w.realisticBulk(bulk);
        for (int i = 0; i < 30; ++i)
            w.healthyMember(QStringLiteral("kks-demo-pool-w%1").arg(i),
                QStringLiteral("10.0.1.%1").arg(i + 2), QStringLiteral("100.100.%1.0/24").arg(i + 10),
                60 * (i + 1));
        for (const auto format : { QJsonDocument::Compact, QJsonDocument::Indented }) {
            const QByteArray servers = QJsonDocument(w.serversJson()).toJson(format);
            compare(bothreadings::servers(QStringLiteral("servers.json"), servers), servers);
            const QByteArray nodes = QJsonDocument(w.nodesJson()).toJson(format);
            compare(bothreadings::nodes(QStringLiteral("nodes.json"), nodes), nodes);
        }
    }
}

void TestParseBytes::serversMutated()
{
    const int checked = mutateAll(smallWorld().serversJson(), false);
    QVERIFY2(checked > 1000, qPrintable(QString::number(checked)));
}

void TestParseBytes::nodesMutated()
{
    const int checked = mutateAll(smallWorld().nodesJson(), true);
    QVERIFY2(checked > 1000, qPrintable(QString::number(checked)));
}

// Cut short anywhere: the same refusal, with the byte and the hint, or (at a whole value) the same reading.
void TestParseBytes::cutShort()
{
    const QByteArray servers = QJsonDocument(smallWorld().serversJson()).toJson(QJsonDocument::Compact);
    for (qsizetype n = 0; n <= servers.size(); ++n)
        compare(bothreadings::servers(QStringLiteral("servers.json"), servers.left(n)), servers.left(n));
    const QByteArray nodes = QJsonDocument(smallWorld().nodesJson()).toJson(QJsonDocument::Indented);
    for (qsizetype n = 0; n <= nodes.size(); n += 3)
        compare(bothreadings::nodes(QStringLiteral("nodes.json"), nodes.left(n)), nodes.left(n));
}

void TestParseBytes::wholeDocuments_data()
{
    QTest::addColumn<QByteArray>("body");
    const QByteArray ok = R"({"servers": [], "items": []})";
    QTest::newRow("empty") << QByteArray();
    QTest::newRow("blank") << QByteArray(" \n\t ");
    QTest::newRow("HTML") << QByteArray("<html><body><h1>502 Bad Gateway</h1></body></html>");
    QTest::newRow("an array") << QByteArray("[1, 2]");
    QTest::newRow("a number") << QByteArray("5");
    QTest::newRow("a byte order mark") << QByteArray("\xEF\xBB\xBF") + ok;
    QTest::newRow("garbage after") << ok + " x";
    QTest::newRow("a NUL after") << ok + QByteArray(1, '\0');
    QTest::newRow("a tab in a string") << QByteArray("{\"servers\": [], \"items\": [], \"x\": \"a\tb\"}");
    QTest::newRow("a lone surrogate") << QByteArray(R"({"servers": [], "items": [], "x": "\ud800"})");
    QTest::newRow("a bad escape") << QByteArray(R"({"servers": [], "items": [], "x": "\q"})");
    QTest::newRow("bad UTF-8") << QByteArray("{\"servers\": [], \"items\": [], \"x\": \"\xff\"}");
    QTest::newRow("a number too small") << QByteArray(R"({"servers": [], "items": [], "x": 2e-324})");
    QTest::newRow("a number too large") << QByteArray(R"({"servers": [], "items": [], "x": 1e400})");
    QTest::newRow("an integer past 64 bits")
        << QByteArray(R"({"servers": [], "items": [], "x": 123456789012345678901234})");
    QTest::newRow("a zero") << QByteArray(R"({"servers": [], "items": [], "x": 0.0})");
    QTest::newRow("1.") << QByteArray(R"({"servers": [], "items": [], "x": 1.})");
    QTest::newRow("deep") << QByteArray(R"({"servers": [], "items": [], "x": )") + QByteArray(1022, '[')
            + QByteArray(1022, ']') + '}';
    QTest::newRow("too deep") << QByteArray(R"({"servers": [], "items": [], "x": )") + QByteArray(1030, '[')
            + QByteArray(1030, ']') + '}';
    QTest::newRow("odd keys") << QByteArray(R"({"servers": [{"id": "a", "name": "x", "status": "ACTIVE",
        "created": "2026-11-21T09:00:00Z", "addresses": {"\uffff": [{"addr": "1"}], "\ud83d\ude00": [{"addr": "2"}],
        "Z": [{"addr": "3"}], "a": [{"addr": "4"}], "": [{"addr": "5"}], "\u00e9": [{"addr": "6"}]}}], "items": []})");
}

void TestParseBytes::wholeDocuments()
{
    QFETCH(QByteArray, body);
    compare(bothreadings::servers(QStringLiteral("servers.json"), body), body);
    compare(bothreadings::nodes(QStringLiteral("nodes.json"), body), body);
}

void TestParseBytes::integers_data()
{
    QTest::addColumn<QByteArray>("value");
    for (const char *v : { "0", "-1", "5", "100000", "100001", "1.5", "1e3", "1e300", "9007199254740991",
             "9007199254740992", "-9007199254740993", "9223372036854775807", "18446744073709551615", "\"5\"",
             "null", "true", "[]", "{}" })
        QTest::newRow(v) << QByteArray(v);
}

// The integers no large body reads yet, read alike all the same.
void TestParseBytes::integers()
{
    QFETCH(QByteArray, value);
    const QByteArray body = "{\"v\": " + value + '}';
    const QString source = QStringLiteral("x.json");
    simdjson::dom::parser parser;
    const std::optional<SimdJsonReader> fast = SimdJsonReader::parse(parser, source, body);
    QVERIFY(fast);
    const JsonReader qt(source, parseJsonObject(source, body));
    const auto both = [&](const std::function<QString(const JsonReader &)> &a,
                          const std::function<QString(const SimdJsonReader &)> &b) {
        QCOMPARE(bothreadings::outcome([&] { return QStringList { b(*fast) }; }),
            bothreadings::outcome([&] { return QStringList { a(qt) }; }));
    };
    const QString v = QStringLiteral("v");
    const auto text
        = [](const std::optional<qint64> &i) { return i ? QString::number(*i) : QStringLiteral("-"); };
    both([&](const JsonReader &r) { return QString::number(r.requireInteger(v)); },
        [&](const SimdJsonReader &r) { return QString::number(r.requireInteger(v)); });
    both([&](const JsonReader &r) { return text(r.optInteger(v)); },
        [&](const SimdJsonReader &r) { return text(r.optInteger(v)); });
    both([&](const JsonReader &r) { return text(r.optIntegerIn(v, 0, 100000)); },
        [&](const SimdJsonReader &r) { return text(r.optIntegerIn(v, 0, 100000)); });
    both([&](const JsonReader &r) { return r.optBool(v) ? QStringLiteral("true") : QStringLiteral("false"); },
        [&](const SimdJsonReader &r) {
            return r.optBool(v) ? QStringLiteral("true") : QStringLiteral("false");
        });
    both([&](const JsonReader &r) { return QString::number(r.optArrayLength(v)); },
        [&](const SimdJsonReader &r) { return QString::number(r.optArrayLength(v)); });
    // Compact JSON may spell a number otherwise (1e3: 1000 or 1000.0), never change it.
    const auto reread = [](const QByteArray &compact) {
        return QString::fromUtf8(QJsonDocument(QJsonDocument::fromJson('[' + compact + ']').array())
                                     .toJson(QJsonDocument::Compact));
    };
    both([&](const JsonReader &r) { return reread(r.child(v).compact()); },
        [&](const SimdJsonReader &r) { return reread(r.child(v).compact()); });
}

// Nova's networks are read in key order, whatever order the body has them in (as Qt's object gives them).
void TestParseBytes::networksInKeyOrder()
{
    const QByteArray body
        = R"({"servers": [{"id": "a", "name": "x", "status": "ACTIVE", "created": "2026-11-21T09:00:00Z",
        "addresses": {"zeta": [{"addr": "10.0.0.3"}], "alpha": [{"addr": "10.0.0.1"}], "mid": [{"addr": "10.0.0.2"}],
                      "alpha": [{"addr": "10.0.0.9"}]}}]})";
    const QList<Instance> servers = ApiParser::parseServers(QStringLiteral("servers.json"), body);
    QCOMPARE(servers.size(), 1);
    QStringList order;
    for (const InstanceAddress &a : servers.first().addresses)
        order << a.network + QLatin1Char('=') + a.address;
    QCOMPARE(order,
        (QStringList { QStringLiteral("alpha=10.0.0.9"), QStringLiteral("mid=10.0.0.2"),
            QStringLiteral("zeta=10.0.0.3") }));
}

// A project's servers kept as packed records (against the first one) come back byte for byte, in a fraction
// of the room; a record never comes back wrong from another list's dictionary.
void TestParseBytes::recordsKeptPacked()
{
    WorldBuilder w = smallWorld();
    w.realisticBulk(true);
    for (int i = 0; i < 60; ++i)
        w.healthyMember(QStringLiteral("kks-demo-pool-w%1").arg(i), QStringLiteral("10.0.1.%1").arg(i + 2),
            QStringLiteral("100.100.%1.0/24").arg(i + 10), 60 * (i + 1));
    const QByteArray body = QJsonDocument(w.serversJson()).toJson(QJsonDocument::Compact);
    QByteArrayList records;
    const QList<Instance> servers = ApiParser::parseServers(QStringLiteral("servers.json"), body, &records);
    QCOMPARE(records.size(), servers.size());
    QVERIFY(records.size() > 60);
    const auto pack = RecordPack::make(records.first());
    QByteArrayList packed;
    qsizetype whole = 0, kept = 0;
    for (const QByteArray &r : std::as_const(records)) {
        packed << pack->pack(r);
        whole += r.size();
        kept += packed.last().size();
        QCOMPARE(pack->unpack(packed.last()), r);
    }
    QVERIFY2(kept * 5 < whole * 2, qPrintable(QStringLiteral("%1 of %2 bytes").arg(kept).arg(whole)));
    const QByteArray joined = KeptBody::joined("{\"servers\":[", packed, "]}", pack).bytes();
    QCOMPARE(joined, KeptBody::joined("{\"servers\":[", records, "]}").bytes());
    QCOMPARE(QJsonDocument::fromJson(joined), QJsonDocument::fromJson(body));
    // Another dictionary cannot read it: nothing, never other bytes.
    const RecordPack other(QByteArray("{\"id\":\"something else entirely\"}"));
    QCOMPARE(other.unpack(packed.at(3)), QByteArray());
    QCOMPARE(pack->unpack(QByteArray("\0\0\0\5abcde")), QByteArray());
    QCOMPARE(pack->unpack(QByteArray()), QByteArray());
}

// The words every node repeats (its conditions', its zone) are one copy, not one per node.
void TestParseBytes::repeatedWordsKeptOnce()
{
    WorldBuilder w = smallWorld();
    for (int i = 0; i < 3; ++i)
        w.healthyMember(QStringLiteral("kks-demo-pool-w%1").arg(i), QStringLiteral("10.0.1.%1").arg(i + 2),
            QStringLiteral("100.100.%1.0/24").arg(i + 10), 60 * (i + 1));
    const QByteArray body = QJsonDocument(w.nodesJson()).toJson(QJsonDocument::Compact);
    const QList<Node> nodes = ApiParser::parseNodes(QStringLiteral("nodes.json"), body);
    QVERIFY(nodes.size() >= 3);
    const Node &a = nodes.at(nodes.size() - 1);
    const Node &b = nodes.at(nodes.size() - 2);
    QVERIFY(!a.conditions.isEmpty() && !b.conditions.isEmpty());
    QCOMPARE(a.conditions.first().type, b.conditions.first().type);
    QCOMPARE(a.conditions.first().type.constData(), b.conditions.first().type.constData());
    QCOMPARE(a.conditions.first().message.constData(), b.conditions.first().message.constData());
}

QTEST_GUILESS_MAIN(TestParseBytes)
#include "tst_parsebytes.moc"
