#include "core/json/simdjsonreader.h"

#include <QJsonDocument>
#include <algorithm>
#include <cmath>

namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

// A key as the document's are compared with: the keys asked for are ASCII, compared unit by unit without
// converting; another one is converted to UTF-8 once.
class Key
{
public:
    explicit Key(const QString &key)
        : m_key(key)
        , m_ascii(std::all_of(key.cbegin(), key.cend(), [](QChar c) { return c.unicode() < 0x80; }))
        , m_utf8(m_ascii ? QByteArray() : key.toUtf8())
    { }

    bool operator==(std::string_view utf8) const
    {
        if (!m_ascii)
            return utf8 == std::string_view(m_utf8.constData(), size_t(m_utf8.size()));
        if (utf8.size() != size_t(m_key.size()))
            return false;
        const QChar *k = m_key.constData();
        for (size_t i = 0; i < utf8.size(); ++i) {
            if (uchar(utf8[i]) != k[i].unicode())
                return false;
        }
        return true;
    }

private:
    const QString &m_key;
    bool m_ascii;
    QByteArray m_utf8;
};

QString fromUtf8(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

// Whether the document holds a number Qt's parser refuses where simdjson reads 0: a literal too small for a
// double (Qt accepts a zero only when it is written as one). A double 0 anywhere sends it to Qt.
bool holdsDoubleZero(element e)
{
    switch (e.type()) {
    case element_type::ARRAY:
        for (const element v : SimdJsonReader::as<simdjson::dom::array>(e)) {
            if (holdsDoubleZero(v))
                return true;
        }
        return false;
    case element_type::OBJECT:
        for (const simdjson::dom::key_value_pair m : SimdJsonReader::as<simdjson::dom::object>(e)) {
            if (holdsDoubleZero(m.value))
                return true;
        }
        return false;
    case element_type::DOUBLE:
        return SimdJsonReader::as<double>(e) == 0;
    default:
        return false;
    }
}

bool isIntegral(double d)
{
    return std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 9.007199254740992e15;
}

} // namespace

std::optional<SimdJsonReader> SimdJsonReader::parse(
    simdjson::dom::parser &parser, const QString &source, const QByteArray &body)
{
    // simdjson reads a little past the end: a QByteArray with room enough to spare after it is read in
    // place, another copied.
    // (data_ptr() has no const overload; it neither detaches nor changes the array.)
    const bool padded
        = const_cast<QByteArray &>(body).data_ptr().freeSpaceAtEnd() >= qsizetype(simdjson::SIMDJSON_PADDING);
    element root;
    if (parser.parse(body.constData(), size_t(body.size()), !padded).get(root) != simdjson::SUCCESS)
        return std::nullopt;
    if (!root.is_object() || holdsDoubleZero(root))
        return std::nullopt;
    return SimdJsonReader(source, body, root);
}

SimdJsonReader::SimdJsonReader(const QString &source, const QByteArray &body, element value)
    : m_value(value)
    , m_source(source)
    , m_body(body)
{ }

SimdJsonReader::SimdJsonReader(
    const SimdJsonReader *parent, element value, const QString &key, qsizetype index)
    : m_parent(parent)
    , m_value(value)
    , m_key(key)
    , m_index(index)
{ }

const SimdJsonReader &SimdJsonReader::root() const
{
    const SimdJsonReader *r = this;
    while (r->m_parent)
        r = r->m_parent;
    return *r;
}

QString SimdJsonReader::path() const
{
    if (!m_parent)
        return QStringLiteral("$");
    if (m_index >= 0)
        return m_parent->path() + QLatin1Char('[') + QString::number(m_index) + QLatin1Char(']');
    return m_parent->childPath(m_key);
}

QString SimdJsonReader::childPath(const QString &key) const
{
    return path() + QLatin1Char('.') + key;
}

std::optional<element> SimdJsonReader::lookup(const QString &key) const
{
    if (!isObject())
        return std::nullopt;
    const Key wanted(key);
    std::optional<element> found;
    for (const simdjson::dom::key_value_pair m : as<simdjson::dom::object>(m_value)) {
        if (wanted == m.key)
            found = m.value; // Qt keeps the last of duplicate keys
    }
    return found;
}

std::vector<SimdJsonReader::Member> SimdJsonReader::sortedMembers() const
{
    struct Raw
    {
        std::string_view key;
        element value;
    };
    std::vector<Raw> raw;
    for (const simdjson::dom::key_value_pair m : as<simdjson::dom::object>(m_value)) {
        // Qt orders keys by code point, or by UTF-16 unit where one was written with an escape: the two
        // differ past U+E000, and the escapes are gone from simdjson's tree.
        if (std::any_of(m.key.cbegin(), m.key.cend(), [](char c) { return uchar(c) >= 0xEE; }))
            throw QtDecides {};
        raw.push_back(Raw { m.key, m.value });
    }
    // As Qt orders an object: by the keys' UTF-8 bytes (code points), the last of duplicates kept.
    std::stable_sort(raw.begin(), raw.end(), [](const Raw &a, const Raw &b) { return a.key < b.key; });
    std::vector<Member> members;
    members.reserve(raw.size());
    for (size_t i = 0; i < raw.size(); ++i) {
        if (i + 1 < raw.size() && raw[i + 1].key == raw[i].key)
            continue;
        members.push_back(Member { fromUtf8(raw[i].key), raw[i].value });
    }
    return members;
}

QString SimdJsonReader::typeName() const
{
    if (m_undefined)
        return QStringLiteral("nothing");
    switch (m_value.type()) {
    case element_type::NULL_VALUE:
        return QStringLiteral("null");
    case element_type::BOOL:
        return QStringLiteral("a boolean");
    case element_type::INT64:
    case element_type::UINT64:
    case element_type::DOUBLE:
        return QStringLiteral("a number");
    case element_type::STRING:
        return QStringLiteral("a string");
    case element_type::ARRAY:
        return QStringLiteral("an array");
    case element_type::OBJECT:
        return QStringLiteral("an object");
    }
    return QStringLiteral("nothing");
}

QString SimdJsonReader::toString() const
{
    return isString() ? fromUtf8(as<std::string_view>(m_value)) : QString();
}

std::optional<double> SimdJsonReader::number() const
{
    if (m_undefined)
        return std::nullopt;
    switch (m_value.type()) {
    case element_type::INT64:
        return double(as<int64_t>(m_value));
    case element_type::UINT64:
        return double(as<uint64_t>(m_value));
    case element_type::DOUBLE:
        return as<double>(m_value);
    default:
        return std::nullopt;
    }
}

bool SimdJsonReader::has(const QString &key) const
{
    const std::optional<element> v = lookup(key);
    return v && !v->is_null();
}

SimdJsonReader SimdJsonReader::child(const QString &key) const
{
    const std::optional<element> v = lookup(key);
    SimdJsonReader c(this, v.value_or(element()), key, -1);
    c.m_undefined = !v;
    return c;
}

SimdJsonReader SimdJsonReader::at(qsizetype index) const
{
    element e;
    const bool found = isArray() && index >= 0
        && as<simdjson::dom::array>(m_value).at(size_t(index)).get(e) == simdjson::SUCCESS;
    SimdJsonReader c(this, e, QString(), index);
    c.m_undefined = !found;
    return c;
}

void SimdJsonReader::fail(const QString &message) const
{
    throw ParseError { root().m_source, path(), message };
}

void SimdJsonReader::failAt(const QString &key, const QString &message) const
{
    throw ParseError { root().m_source, childPath(key), message };
}

void SimdJsonReader::requireObject() const
{
    if (m_undefined)
        fail(QStringLiteral("required object is missing"));
    if (!m_value.is_object())
        fail(QStringLiteral("expected an object, got ") + typeName());
}

void SimdJsonReader::requireArray() const
{
    if (m_undefined)
        fail(QStringLiteral("required array is missing"));
    if (!m_value.is_array())
        fail(QStringLiteral("expected an array, got ") + typeName());
}

QString SimdJsonReader::apiError() const
{
    if (m_parent || !isObject())
        return QString();
    // apiErrorIn finds an error only in a body with one of these members, or with a single one that is an
    // object (holding "message" and "code"); a list of resources has neither, and is not read twice.
    const simdjson::dom::object body = as<simdjson::dom::object>(m_value);
    bool maybe = has(QStringLiteral("NeutronError")) || lookup(QStringLiteral("message"));
    if (!maybe) {
        std::optional<std::string_view> only;
        bool single = true, object = false;
        for (const simdjson::dom::key_value_pair m : body) {
            single = single && (!only || *only == m.key);
            only = m.key;
            object = m.value.is_object(); // of duplicate keys, Qt keeps the last
        }
        maybe = only && single && object;
    }
    return maybe ? apiErrorIn(QJsonDocument::fromJson(root().m_body).object()) : QString();
}

SimdJsonReader SimdJsonReader::requireField(const QString &key) const
{
    SimdJsonReader field = child(key);
    if (field.m_undefined && !m_parent) {
        const QString error = apiError();
        if (!error.isEmpty())
            fail(QStringLiteral("this is an API error response, not the expected body: ") + error);
    }
    if (field.m_undefined)
        failAt(key, QStringLiteral("required field is missing"));
    if (field.m_value.is_null())
        failAt(key, QStringLiteral("required field is null"));
    return field;
}

QString SimdJsonReader::requireString(const QString &key) const
{
    const SimdJsonReader field = requireField(key);
    if (!field.m_value.is_string())
        failAt(key, QStringLiteral("expected a string, got ") + field.typeName());
    return fromUtf8(as<std::string_view>(field.m_value));
}

QString SimdJsonReader::requireStringValue() const
{
    if (!isString())
        fail(QStringLiteral("expected a string, got ") + typeName());
    return fromUtf8(as<std::string_view>(m_value));
}

qint64 SimdJsonReader::requireInteger(const QString &key) const
{
    const SimdJsonReader field = requireField(key);
    const std::optional<double> d = field.number();
    if (!d || !isIntegral(*d))
        failAt(key, QStringLiteral("expected an integer, got ") + field.typeName());
    return static_cast<qint64>(*d);
}

QString SimdJsonReader::optString(const QString &key, const QString &fallback) const
{
    const std::optional<QString> v = optNullableString(key);
    return v ? *v : fallback;
}

std::optional<QString> SimdJsonReader::optNullableString(const QString &key) const
{
    const SimdJsonReader v = child(key);
    if (v.m_undefined || v.m_value.is_null())
        return std::nullopt;
    if (!v.m_value.is_string())
        failAt(key, QStringLiteral("expected a string, got ") + v.typeName());
    return fromUtf8(as<std::string_view>(v.m_value));
}

std::optional<qint64> SimdJsonReader::optInteger(const QString &key) const
{
    const SimdJsonReader v = child(key);
    if (v.m_undefined || v.m_value.is_null())
        return std::nullopt;
    const std::optional<double> d = v.number();
    if (!d || !isIntegral(*d))
        failAt(key, QStringLiteral("expected an integer, got ") + v.typeName());
    return static_cast<qint64>(*d);
}

std::optional<qint64> SimdJsonReader::optIntegerIn(const QString &key, qint64 min, qint64 max) const
{
    const std::optional<qint64> v = optInteger(key);
    if (v && (*v < min || *v > max))
        failAt(key, QStringLiteral("%1 is out of range (%2 to %3)").arg(*v).arg(min).arg(max));
    return v;
}

bool SimdJsonReader::optBool(const QString &key, bool fallback) const
{
    const SimdJsonReader v = child(key);
    if (v.m_undefined || v.m_value.is_null())
        return fallback;
    if (!v.m_value.is_bool())
        failAt(key, QStringLiteral("expected a boolean, got ") + v.typeName());
    return as<bool>(v.m_value);
}

qsizetype SimdJsonReader::optArrayLength(const QString &key) const
{
    const SimdJsonReader v = child(key);
    if (v.m_undefined || v.m_value.is_null())
        return 0;
    if (!v.m_value.is_array())
        failAt(key, QStringLiteral("expected an array, got ") + v.typeName());
    const auto array = as<simdjson::dom::array>(v.m_value);
    size_t size = array.size(); // saturated at 0xFFFFFF: counted past that
    if (size >= 0xFFFFFF) {
        size = 0;
        for (auto it = array.begin(); it != array.end(); ++it)
            ++size;
    }
    return qsizetype(size);
}

QByteArray SimdJsonReader::compact() const
{
    if (m_undefined)
        return QByteArray();
    const std::string text = simdjson::minify(m_value);
    return QByteArray(text.data(), qsizetype(text.size()));
}
