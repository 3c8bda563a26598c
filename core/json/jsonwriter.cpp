#include "core/json/jsonwriter.h"

#include <QJsonArray>
#include <QJsonObject>
#include <cmath>
#include <cstring>

void JsonWriter::newline()
{
    if (m_compact)
        return;
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
    m_out.append(m_compact ? ":" : ": ");
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

void JsonWriter::value(const QString &text)
{
    separate();
    writeString(text);
}

void JsonWriter::raw(const QByteArray &json)
{
    separate();
    m_out += json;
}

namespace {

// Four UTF-16 code units at a time: true when all are printable ASCII that JSON copies as they are (no
// control character, no '"', no '\\'). Lanes are 16 bits; every test is exact for lanes below 0x80.
bool plainAsciiLanes(quint64 w)
{
    constexpr quint64 Ones = 0x0001000100010001ULL;
    constexpr quint64 Highs = 0x8000800080008000ULL;
    const auto hasZeroLane = [](quint64 x) { return ((x - Ones) & ~x & Highs) != 0; };
    if ((w & 0xFF80FF80FF80FF80ULL) != 0) // beyond ASCII
        return false;
    if (((w + 0x0060006000600060ULL) & 0x0080008000800080ULL) != 0x0080008000800080ULL) // below 0x20
        return false;
    return !hasZeroLane(w ^ (Ones * u'"')) && !hasZeroLane(w ^ (Ones * u'\\'));
}

bool plainAscii(char16_t c)
{
    return c >= 0x20 && c < 0x80 && c != u'"' && c != u'\\';
}

} // namespace

void JsonWriter::writeString(const QString &s)
{
    // Most text here is ASCII without anything to escape (ids, names, addresses): checked four code units at
    // a time and copied as it is.
    const auto *u = reinterpret_cast<const char16_t *>(s.constData());
    const qsizetype n = s.size();
    qsizetype at = 0;
    bool copyAsIs = true;
    for (; copyAsIs && at + 4 <= n; at += 4) {
        quint64 w;
        std::memcpy(&w, u + at, sizeof w);
        copyAsIs = plainAsciiLanes(w);
    }
    for (; copyAsIs && at < n; ++at)
        copyAsIs = plainAscii(u[at]);
    if (copyAsIs) {
        const qsizetype end = m_out.size();
        m_out.resize(end + n + 2);
        char *out = m_out.data() + end;
        *out++ = '"';
        for (qsizetype k = 0; k < n; ++k)
            out[k] = char(u[k]);
        out[n] = '"';
        return;
    }
    // Else UTF-8 first, then only the bytes JSON must escape (every byte of a multi-byte sequence is >=
    // 0x80).
    const QByteArray utf8 = s.toUtf8();
    m_out.append('"');
    qsizetype plain = 0; // start of the bytes not yet appended
    for (qsizetype i = 0; i < utf8.size(); ++i) {
        const auto c = static_cast<unsigned char>(utf8.at(i));
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        m_out.append(utf8.constData() + plain, i - plain);
        plain = i + 1;
        switch (c) {
        case '"':
            m_out.append("\\\"");
            break;
        case '\\':
            m_out.append("\\\\");
            break;
        case '\n':
            m_out.append("\\n");
            break;
        case '\r':
            m_out.append("\\r");
            break;
        case '\t':
            m_out.append("\\t");
            break;
        case '\b':
            m_out.append("\\b");
            break;
        case '\f':
            m_out.append("\\f");
            break;
        default:
            m_out.append(QByteArray("\\u00") + QByteArray::number(c, 16).rightJustified(2, '0'));
        }
    }
    m_out.append(utf8.constData() + plain, utf8.size() - plain);
    m_out.append('"');
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
    if (!m_compact)
        m_out.append('\n');
    return std::exchange(m_out, QByteArray());
}
