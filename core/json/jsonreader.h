#pragma once

#include "core/error.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <functional>
#include <optional>

// What a parser refused, thrown: the input (a file, or a body named in words)
// and the JSON path of the value that is missing or of the wrong type, e.g.
// "servers.json: $.servers[3].id: required field is missing".
struct ParseError : Error
{
    ParseError(const QString &source, const QString &jsonPath, const QString &message);
    explicit ParseError(const Error &error);
};

// Reads typed values out of a JSON document while keeping track of where it is,
// so that a missing required field or a wrong type is reported with its path.
// Unknown fields are never looked at, so they are ignored.
//
// SimdJsonReader (core/json/simdjsonreader.h) reads simdjson's tree with the same
// methods and errors; a parser written as a template over the reader type
// (ApiParser's servers and nodes) reads both alike.
class JsonReader
{
public:
    JsonReader(const QString &source, const QJsonValue &value);

    // The JSON path of this value, e.g. "$.servers[3].addresses"; built only when asked.
    QString path() const;
    const QJsonValue &value() const { return m_value; }

    bool isObject() const { return m_value.isObject(); }
    bool isArray() const { return m_value.isArray(); }
    bool isString() const { return m_value.isString(); }
    bool isNull() const { return m_value.isNull(); }
    bool isUndefined() const { return m_value.isUndefined(); }
    QString toString() const { return m_value.toString(); } // a string's text, else empty
    bool has(const QString &key) const; // present and not null
    JsonReader child(const QString &key) const; // may be undefined
    JsonReader at(qsizetype index) const;

    // Required values: throw ParseError when missing, null or of the wrong type.
    QJsonObject requireObject() const;
    QJsonArray requireArray() const;
    JsonReader requireField(const QString &key) const; // present and not null
    QString requireString(const QString &key) const;
    qint64 requireInteger(const QString &key) const;

    // Optional values: absent or null give the default; a wrong type still throws.
    QString optString(const QString &key, const QString &fallback = QString()) const;
    std::optional<QString> optNullableString(const QString &key) const;
    std::optional<qint64> optInteger(const QString &key) const;
    // An optional integer that must lie in [min, max]: out of range is an error naming the range.
    std::optional<qint64> optIntegerIn(const QString &key, qint64 min, qint64 max) const;
    bool optBool(const QString &key, bool fallback = false) const;
    QJsonArray optArray(const QString &key) const; // absent or null: empty
    qsizetype optArrayLength(const QString &key) const { return optArray(key).size(); } // absent or null: 0
    bool isArrayAt(const QString &key) const;
    // This value as a string: "expected a string, got …" otherwise.
    QString requireStringValue() const;
    // The error an API body carries instead of a resource (apiErrorIn), read from this value.
    QString apiError() const;
    // This value as compact JSON.
    QByteArray compact() const;

    // Runs `f(element)` for each element of this value, which must be an array (requireArray).
    template<typename F> void forEachElement(F &&f) const
    {
        const QJsonArray list = requireArray();
        for (qsizetype i = 0; i < list.size(); ++i)
            f(JsonReader(this, list.at(i), QString(), i));
    }
    // Runs `f(element)` for each element of the optional array `key` (optArray: absent or null is none).
    template<typename F> void forEachElementOf(const QString &key, F &&f) const
    {
        const QJsonArray list = optArray(key);
        if (list.isEmpty())
            return;
        const JsonReader array = child(key);
        for (qsizetype i = 0; i < list.size(); ++i)
            f(JsonReader(&array, list.at(i), QString(), i));
    }
    // Runs `f(key, value)` for each member of this value, which must be an object (requireObject), in
    // QJsonObject's order: keys sorted, the last of duplicate keys.
    template<typename F> void forEachMember(F &&f) const
    {
        const QJsonObject object = requireObject();
        for (auto it = object.begin(); it != object.end(); ++it)
            f(it.key(), JsonReader(this, it.value(), it.key(), -1));
    }

    [[noreturn]] void fail(const QString &message) const;
    [[noreturn]] void failAt(const QString &key, const QString &message) const;

    static QString typeName(const QJsonValue &value);
    QString childPath(const QString &key) const;

private:
    // A child keeps a pointer to its parent to build its path lazily, so a
    // child reader must not outlive the reader it was made from.
    JsonReader(const JsonReader *parent, const QJsonValue &value, const QString &key, qsizetype index);

    const JsonReader *m_parent = nullptr;
    QString m_source;
    QJsonValue m_value;
    QString m_key;
    qsizetype m_index = -1;
};

// `text` in quotes for an error message, cut to `max` characters ("…" and the
// full length said) so that a hostile value never floods a line.
QString quotedExcerpt(const QString &text, int max = 80);

// The error an API body carries instead of a resource (NeutronError, a
// Keystone or Nova fault, a Kubernetes Status), as "type: message"; empty if none.
QString apiErrorIn(const QJsonObject &body);

// Parses `bytes` as a JSON document whose top level must be an object;
// throws ParseError naming `source` and the offset for truncated or non-JSON input.
QJsonObject parseJsonObject(const QString &source, const QByteArray &bytes);
// The same for a document whose top level may be an object or an array (Alertmanager's lists).
QJsonValue parseJsonDocument(const QString &source, const QByteArray &bytes);

// Runs `parse`, a parser that throws ParseError, unless `answer` has failed already. Returns `answer` as it
// is, or, when the parser refused, made a malformed answer that names the input and the JSON path refused.
Error parseAnswer(Error answer, const std::function<void()> &parse);
