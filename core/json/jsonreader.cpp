#include "core/json/jsonreader.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <cmath>

ParseError::ParseError(const QString &source, const QString &jsonPath, const QString &message)
    : Error(inSource(Kind::Malformed, source, message, jsonPath))
{ }

ParseError::ParseError(const Error &error)
    : Error(error)
{ }

Error parseAnswer(Error answer, const std::function<void()> &parse)
{
    if (answer.isError())
        return answer;
    try {
        parse();
    } catch (const ParseError &e) {
        answer.kind = Error::Kind::Malformed;
        answer.source = e.source;
        answer.jsonPath = e.jsonPath;
        answer.detail = e.detail;
    }
    return answer;
}

JsonReader::JsonReader(const QString &source, const QJsonValue &value)
    : m_source(source)
    , m_value(value)
{ }

JsonReader::JsonReader(const JsonReader *parent, const QJsonValue &value, const QString &key, qsizetype index)
    : m_parent(parent)
    , m_source(parent->m_source)
    , m_value(value)
    , m_key(key)
    , m_index(index)
{ }

QString JsonReader::path() const
{
    if (!m_parent)
        return QStringLiteral("$");
    if (m_index >= 0)
        return m_parent->path() + QLatin1Char('[') + QString::number(m_index) + QLatin1Char(']');
    return m_parent->childPath(m_key);
}

QString JsonReader::childPath(const QString &key) const
{
    return path() + QLatin1Char('.') + key;
}

bool JsonReader::has(const QString &key) const
{
    const QJsonValue v = m_value.toObject().value(key);
    return !v.isUndefined() && !v.isNull();
}

JsonReader JsonReader::child(const QString &key) const
{
    return JsonReader(this, m_value.toObject().value(key), key, -1);
}

JsonReader JsonReader::at(qsizetype index) const
{
    return JsonReader(this, m_value.toArray().at(index), QString(), index);
}

QString JsonReader::typeName(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return QStringLiteral("a boolean");
    case QJsonValue::Double:
        return QStringLiteral("a number");
    case QJsonValue::String:
        return QStringLiteral("a string");
    case QJsonValue::Array:
        return QStringLiteral("an array");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("nothing");
}

void JsonReader::fail(const QString &message) const
{
    throw ParseError { m_source, path(), message };
}

void JsonReader::failAt(const QString &key, const QString &message) const
{
    throw ParseError { m_source, childPath(key), message };
}

QJsonObject JsonReader::requireObject() const
{
    if (m_value.isUndefined())
        fail(QStringLiteral("required object is missing"));
    if (!m_value.isObject())
        fail(QStringLiteral("expected an object, got ") + typeName(m_value));
    return m_value.toObject();
}

QJsonArray JsonReader::requireArray() const
{
    if (m_value.isUndefined())
        fail(QStringLiteral("required array is missing"));
    if (!m_value.isArray())
        fail(QStringLiteral("expected an array, got ") + typeName(m_value));
    return m_value.toArray();
}

QString apiErrorIn(const QJsonObject &body)
{
    // Neutron, Keystone, Nova faults, Kubernetes Status, Kubernikus.
    const QJsonObject neutron = body.value(QStringLiteral("NeutronError")).toObject();
    if (!neutron.isEmpty())
        return neutron.value(QStringLiteral("type")).toString() + QStringLiteral(": ")
            + neutron.value(QStringLiteral("message")).toString();
    if (body.value(QStringLiteral("kind")).toString() == QLatin1String("Status")
        && body.value(QStringLiteral("message")).isString())
        return body.value(QStringLiteral("reason")).toString() + QStringLiteral(": ")
            + body.value(QStringLiteral("message")).toString();
    if (body.size() == 1) {
        const QString name = body.begin().key();
        const QJsonObject inner = body.begin().value().toObject();
        if (inner.contains(QStringLiteral("message")) && inner.contains(QStringLiteral("code")))
            return QStringLiteral("%1 %2: %3")
                .arg(name)
                .arg(inner.value(QStringLiteral("code")).toInt())
                .arg(inner.value(QStringLiteral("message")).toString());
    }
    if (body.size() <= 3 && body.value(QStringLiteral("code")).isDouble()
        && body.value(QStringLiteral("message")).isString())
        return QStringLiteral("%1: %2")
            .arg(body.value(QStringLiteral("code")).toInt())
            .arg(body.value(QStringLiteral("message")).toString());
    return QString();
}

JsonReader JsonReader::requireField(const QString &key) const
{
    const QJsonValue v = m_value.toObject().value(key);
    if (v.isUndefined() && !m_parent) {
        const QString error = apiErrorIn(m_value.toObject());
        if (!error.isEmpty())
            fail(QStringLiteral("this is an API error response, not the expected body: ") + error);
    }
    if (v.isUndefined())
        failAt(key, QStringLiteral("required field is missing"));
    if (v.isNull())
        failAt(key, QStringLiteral("required field is null"));
    return JsonReader(this, v, key, -1);
}

QString JsonReader::requireString(const QString &key) const
{
    const JsonReader field = requireField(key);
    if (!field.m_value.isString())
        failAt(key, QStringLiteral("expected a string, got ") + typeName(field.m_value));
    return field.m_value.toString();
}

static bool isIntegral(double d)
{
    return std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 9.007199254740992e15;
}

qint64 JsonReader::requireInteger(const QString &key) const
{
    const JsonReader field = requireField(key);
    if (!field.m_value.isDouble() || !isIntegral(field.m_value.toDouble()))
        failAt(key, QStringLiteral("expected an integer, got ") + typeName(field.m_value));
    return static_cast<qint64>(field.m_value.toDouble());
}

QString JsonReader::optString(const QString &key, const QString &fallback) const
{
    const std::optional<QString> v = optNullableString(key);
    return v ? *v : fallback;
}

std::optional<QString> JsonReader::optNullableString(const QString &key) const
{
    const QJsonValue v = m_value.toObject().value(key);
    if (v.isUndefined() || v.isNull())
        return std::nullopt;
    if (!v.isString())
        failAt(key, QStringLiteral("expected a string, got ") + typeName(v));
    return v.toString();
}

std::optional<qint64> JsonReader::optInteger(const QString &key) const
{
    const QJsonValue v = m_value.toObject().value(key);
    if (v.isUndefined() || v.isNull())
        return std::nullopt;
    if (!v.isDouble() || !isIntegral(v.toDouble()))
        failAt(key, QStringLiteral("expected an integer, got ") + typeName(v));
    return static_cast<qint64>(v.toDouble());
}

std::optional<qint64> JsonReader::optIntegerIn(const QString &key, qint64 min, qint64 max) const
{
    const std::optional<qint64> v = optInteger(key);
    if (v && (*v < min || *v > max))
        failAt(key, QStringLiteral("%1 is out of range (%2 to %3)").arg(*v).arg(min).arg(max));
    return v;
}

QString JsonReader::requireStringValue() const
{
    if (!m_value.isString())
        fail(QStringLiteral("expected a string, got ") + typeName(m_value));
    return m_value.toString();
}

QString JsonReader::apiError() const
{
    return apiErrorIn(m_value.toObject());
}

QByteArray JsonReader::compact() const
{
    if (m_value.isObject())
        return QJsonDocument(m_value.toObject()).toJson(QJsonDocument::Compact);
    if (m_value.isArray())
        return QJsonDocument(m_value.toArray()).toJson(QJsonDocument::Compact);
    if (m_value.isUndefined())
        return QByteArray();
    const QByteArray inArray = QJsonDocument(QJsonArray { m_value }).toJson(QJsonDocument::Compact);
    return inArray.mid(1, inArray.size() - 2);
}

QString quotedExcerpt(const QString &text, int max)
{
    if (text.size() <= max)
        return QLatin1Char('"') + text + QLatin1Char('"');
    return QStringLiteral("\"%1…\" (%2 characters)").arg(text.left(max)).arg(text.size());
}

bool JsonReader::optBool(const QString &key, bool fallback) const
{
    const QJsonValue v = m_value.toObject().value(key);
    if (v.isUndefined() || v.isNull())
        return fallback;
    if (!v.isBool())
        failAt(key, QStringLiteral("expected a boolean, got ") + typeName(v));
    return v.toBool();
}

QJsonArray JsonReader::optArray(const QString &key) const
{
    const QJsonValue v = m_value.toObject().value(key);
    if (v.isUndefined() || v.isNull())
        return QJsonArray();
    if (!v.isArray())
        failAt(key, QStringLiteral("expected an array, got ") + typeName(v));
    return v.toArray();
}

bool JsonReader::isArrayAt(const QString &key) const
{
    return m_value.toObject().value(key).isArray();
}

QJsonValue parseJsonDocument(const QString &source, const QByteArray &bytes)
{
    if (bytes.trimmed().isEmpty())
        throw ParseError { source, QString(), QStringLiteral("the file is empty") };
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError) {
        const QByteArray head = bytes.trimmed().left(1);
        QString hint;
        if (head == "<")
            hint = QStringLiteral(" (it looks like an HTML or XML page, not JSON)");
        else if (error.error == QJsonParseError::UnterminatedObject
            || error.error == QJsonParseError::UnterminatedArray
            || error.error == QJsonParseError::UnterminatedString || error.offset >= bytes.size() - 1)
            hint = QStringLiteral(" (the file looks truncated)");
        throw ParseError {
            source, QString(),
            QStringLiteral("not valid JSON at byte %1: %2%3").arg(error.offset).arg(error.errorString(), hint)
        };
    }
    if (doc.isArray())
        return doc.array();
    return doc.object();
}

QJsonObject parseJsonObject(const QString &source, const QByteArray &bytes)
{
    const QJsonValue top = parseJsonDocument(source, bytes);
    if (!top.isObject())
        throw ParseError { source, QStringLiteral("$"),
            QStringLiteral("expected a JSON object at the top level") };
    return top.toObject();
}
