#pragma once

#include <QByteArray>
#include <QJsonValue>
#include <QString>

// Writes JSON with keys in the order they are given (the order a format
// specifies), indented by two spaces. Nested QJsonObjects keep Qt's sorted
// key order, so the same input always gives the same bytes.
class JsonWriter
{
public:
    void beginObject();
    void endObject();
    void beginArray();
    void endArray();
    void key(const QString &name);
    void value(const QJsonValue &value);

    QByteArray takeBytes();

private:
    void separate();
    void newline();
    void writeString(const QString &s);
    void writeValue(const QJsonValue &value);

    QByteArray m_out;
    int m_depth = 0;
    bool m_first = true;
    bool m_afterKey = false;
};
