#pragma once

#include <QByteArray>
#include <QJsonValue>
#include <QString>

// Writes JSON with keys in the order they are given (the order a format
// specifies), indented by two spaces, or compact (no space, no newline: as
// QJsonDocument::Compact writes it, without building the tree first). Nested
// QJsonObjects keep Qt's sorted key order, so the same input always gives the
// same bytes.
class JsonWriter
{
public:
    enum class Style
    {
        Indented,
        Compact
    };
    explicit JsonWriter(Style style = Style::Indented)
        : m_compact(style == Style::Compact)
    { }

    void beginObject();
    void endObject();
    void beginArray();
    void endArray();
    void key(const QString &name);
    void value(const QJsonValue &value);
    void value(const QString &text); // without a QJsonValue made for it
    // A value written elsewhere (a whole report), as it is: the caller vouches that it is one JSON value.
    void raw(const QByteArray &json);

    QByteArray takeBytes();
    void reserve(qsizetype bytes) { m_out.reserve(bytes); }

private:
    void separate();
    void newline();
    void writeString(const QString &s);
    void writeValue(const QJsonValue &value);

    QByteArray m_out;
    bool m_compact = false;
    int m_depth = 0;
    bool m_first = true;
    bool m_afterKey = false;
};
