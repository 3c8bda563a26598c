#include "core/jsonwriter.h"

#include <QJsonArray>
#include <QJsonObject>
#include <cmath>

void JsonWriter::newline()
{
    m_out.append('\n');
    m_out.append(QByteArray(m_depth * 2, ' '));
}

void JsonWriter::separate()
{
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (m_depth == 0)
        return;
    if (!m_first)
        m_out.append(',');
    newline();
    m_first = false;
}

void JsonWriter::beginObject()
{
    separate();
    m_out.append('{');
    ++m_depth;
    m_first = true;
}

void JsonWriter::endObject()
{
    --m_depth;
    if (!m_first)
        newline();
    m_out.append('}');
    m_first = false;
}

void JsonWriter::beginArray()
{
    separate();
    m_out.append('[');
    ++m_depth;
    m_first = true;
}

void JsonWriter::endArray()
{
    --m_depth;
    if (!m_first)
        newline();
    m_out.append(']');
    m_first = false;
}

void JsonWriter::key(const QString &name)
{
    separate();
    writeString(name);
    m_out.append(": ");
    m_afterKey = true;
}

void JsonWriter::value(const QJsonValue &value)
{
    if (value.isObject() || value.isArray()) {
        writeValue(value);
        return;
    }
    separate();
    writeValue(value);
}

void JsonWriter::writeString(const QString &s)
{
    QString escaped;
    escaped.reserve(s.size() + 2);
    escaped.append(QLatin1Char('"'));
    for (QChar c : s) {
        const char16_t u = c.unicode();
        switch (u) {
        case u'"':
            escaped.append(QLatin1String("\\\""));
            break;
        case u'\\':
            escaped.append(QLatin1String("\\\\"));
            break;
        case u'\n':
            escaped.append(QLatin1String("\\n"));
            break;
        case u'\r':
            escaped.append(QLatin1String("\\r"));
            break;
        case u'\t':
            escaped.append(QLatin1String("\\t"));
            break;
        case u'\b':
            escaped.append(QLatin1String("\\b"));
            break;
        case u'\f':
            escaped.append(QLatin1String("\\f"));
            break;
        default:
            if (u < 0x20)
                escaped.append(QStringLiteral("\\u%1").arg(int(u), 4, 16, QLatin1Char('0')));
            else
                escaped.append(c);
        }
    }
    escaped.append(QLatin1Char('"'));
    m_out.append(escaped.toUtf8());
}

void JsonWriter::writeValue(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Object: {
        const QJsonObject o = value.toObject();
        beginObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            key(it.key());
            this->value(it.value());
        }
        endObject();
        return;
    }
    case QJsonValue::Array: {
        const QJsonArray a = value.toArray();
        beginArray();
        for (const QJsonValue v : a)
            this->value(v);
        endArray();
        return;
    }
    case QJsonValue::String:
        writeString(value.toString());
        return;
    case QJsonValue::Bool:
        m_out.append(value.toBool() ? "true" : "false");
        return;
    case QJsonValue::Double: {
        const double d = value.toDouble();
        if (std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 9.007199254740992e15)
            m_out.append(QByteArray::number(qint64(d)));
        else
            m_out.append(QByteArray::number(d, 'g', 17));
        return;
    }
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        m_out.append("null");
        return;
    }
}

QByteArray JsonWriter::takeBytes()
{
    m_out.append('\n');
    return std::exchange(m_out, QByteArray());
}
