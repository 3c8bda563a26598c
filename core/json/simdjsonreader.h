#pragma once

#include "core/json/jsonreader.h"

#include <QByteArray>
#include <QString>
#include <optional>
#include <simdjson.h>

// Reads a document that simdjson parsed (its DOM) as JsonReader reads Qt's: the same methods, the same
// errors with the same JSON paths, and what Qt's QJsonObject makes of a document. An object's members come
// in sorted key order and a key names the last of duplicates; a number is a double, an integer one whose
// magnitude is below 2^53; a string is read from UTF-8. A parser written as a template over the reader
// type reads both alike (ApiParser's servers and nodes), so the bodies that make a refresh slow are read
// at simdjson's speed without a second copy of their reading.
class SimdJsonReader
{
public:
    // The top-level object of `body`, parsed into `parser` (which must outlive the reader and every value
    // read from it), or nothing when the document is not for this reader: simdjson refuses it, its top
    // level is no object, or it holds a number Qt's parser refuses (one too small for a double: 1e-400).
    // Then the caller reads `body` with Qt, which says why it is refused or reads what simdjson did not.
    static std::optional<SimdJsonReader> parse(
        simdjson::dom::parser &parser, const QString &source, const QByteArray &body);
    // Thrown where only Qt's reading can tell what the document holds: the caller reads it with Qt. (An
    // object whose keys hold characters past U+E000: Qt orders them by how they were written, escaped or
    // not.)
    struct QtDecides
    {
    };

    QString path() const;

    bool isObject() const { return !m_undefined && m_value.is_object(); }
    bool isArray() const { return !m_undefined && m_value.is_array(); }
    bool isString() const { return !m_undefined && m_value.is_string(); }
    bool isNull() const { return !m_undefined && m_value.is_null(); }
    bool isUndefined() const { return m_undefined; }
    QString toString() const; // a string's text, else empty
    bool has(const QString &key) const; // present and not null
    SimdJsonReader child(const QString &key) const; // may be undefined
    SimdJsonReader at(qsizetype index) const;

    // Required values: throw ParseError when missing, null or of the wrong type.
    void requireObject() const;
    void requireArray() const;
    SimdJsonReader requireField(const QString &key) const; // present and not null
    QString requireString(const QString &key) const;
    qint64 requireInteger(const QString &key) const;
    QString requireStringValue() const;

    // Optional values: absent or null give the default; a wrong type still throws.
    QString optString(const QString &key, const QString &fallback = QString()) const;
    std::optional<QString> optNullableString(const QString &key) const;
    std::optional<qint64> optInteger(const QString &key) const;
    std::optional<qint64> optIntegerIn(const QString &key, qint64 min, qint64 max) const;
    bool optBool(const QString &key, bool fallback = false) const;
    qsizetype optArrayLength(const QString &key) const; // absent or null: 0

    // The error an API body carries instead of a resource (apiErrorIn on Qt's reading of the body): only
    // at the top level, and only when the document could be one.
    QString apiError() const;
    // This value as compact JSON.
    QByteArray compact() const;

    // As JsonReader's: each element of this array, of the optional array `key`, each member of this object
    // (keys sorted, the last of duplicates).
    template<typename F> void forEachElement(F &&f) const
    {
        requireArray();
        qsizetype i = 0;
        for (const simdjson::dom::element e : as<simdjson::dom::array>(m_value))
            f(SimdJsonReader(this, e, QString(), i++));
    }
    template<typename F> void forEachElementOf(const QString &key, F &&f) const
    {
        const SimdJsonReader array = child(key);
        if (array.m_undefined || array.m_value.is_null())
            return;
        if (!array.m_value.is_array())
            failAt(key, QStringLiteral("expected an array, got ") + array.typeName());
        array.forEachElement(f);
    }
    template<typename F> void forEachMember(F &&f) const
    {
        requireObject();
        for (const Member &m : sortedMembers())
            f(m.key, SimdJsonReader(this, m.value, m.key, -1));
    }

    [[noreturn]] void fail(const QString &message) const;
    [[noreturn]] void failAt(const QString &key, const QString &message) const;

    QString typeName() const; // as JsonReader::typeName says it
    QString childPath(const QString &key) const;

    // `value` as the type it is known to be.
    template<typename T> static T as(simdjson::dom::element value)
    {
        T t {};
        [[maybe_unused]] const simdjson::error_code error = value.get(t);
        Q_ASSERT(error == simdjson::SUCCESS);
        return t;
    }

private:
    struct Member
    {
        QString key;
        simdjson::dom::element value;
    };

    // A child keeps a pointer to its parent to build its path lazily, so a
    // child reader must not outlive the reader it was made from.
    SimdJsonReader(
        const SimdJsonReader *parent, simdjson::dom::element value, const QString &key, qsizetype index);
    SimdJsonReader(const QString &source, const QByteArray &body, simdjson::dom::element value);

    const SimdJsonReader &root() const;
    // The value of `key` in this object (the last of duplicates), if any.
    std::optional<simdjson::dom::element> lookup(const QString &key) const;
    std::vector<Member> sortedMembers() const;
    std::optional<double> number() const;

    const SimdJsonReader *m_parent = nullptr;
    simdjson::dom::element m_value;
    bool m_undefined = false;
    QString m_key;
    qsizetype m_index = -1;
    QString m_source; // the top level's
    QByteArray m_body; // the top level's: read by Qt for an API error
};
