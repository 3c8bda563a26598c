#pragma once

#include <QByteArray>
#include <QString>
#include <cstdio>

// A compact JSON writer for the simulator's hot paths (a page of a thousand servers, a kluster's node list):
// the bytes written as they go, keys in the order given, no QJsonObject built and sorted on the way.
class JsonBytes
{
public:
    JsonBytes() { m_out.reserve(2048); }
    JsonBytes &raw(const char *s)
    {
        m_out.append(s);
        return *this;
    }
    JsonBytes &str(const QString &s)
    {
        m_out.append('"');
        const QByteArray utf8 = s.toUtf8();
        bool plain = true;
        for (char c : utf8) {
            if (c == '"' || c == '\\' || uchar(c) < 0x20) {
                plain = false;
                break;
            }
        }
        if (plain) {
            m_out.append(utf8);
        } else {
            for (char c : utf8) {
                if (c == '"' || c == '\\') {
                    m_out.append('\\').append(c);
                } else if (uchar(c) < 0x20) {
                    char escaped[8];
                    std::snprintf(escaped, sizeof escaped, "\\u%04x", unsigned(uchar(c)));
                    m_out.append(escaped);
                } else {
                    m_out.append(c);
                }
            }
        }
        m_out.append('"');
        return *this;
    }
    JsonBytes &key(const char *k)
    {
        if (!endsWithOpening())
            m_out.append(',');
        m_out.append('"').append(k).append("\":");
        return *this;
    }
    JsonBytes &strOrNull(const QString &s) { return s.isEmpty() ? raw("null") : str(s); }
    JsonBytes &num(qint64 n)
    {
        m_out.append(QByteArray::number(n));
        return *this;
    }
    bool endsWithOpening() const { return m_out.endsWith('{') || m_out.endsWith('['); }
    QByteArray take() { return std::move(m_out); }

private:
    QByteArray m_out;
};
