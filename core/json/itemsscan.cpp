#include "core/json/itemsscan.h"

#include <cstring>
#include <string_view>

namespace {

class Scan
{
public:
    Scan(const QByteArray &body, qsizetype batch)
        : m_p(body.constData())
        , m_n(body.size())
        , m_batch(batch)
    { }

    std::optional<ItemsSplit> items()
    {
        ItemsSplit split;
        bool found = false;
        skipSpace();
        if (!take('{'))
            return std::nullopt;
        skipSpace();
        if (take('}'))
            return std::nullopt;
        for (;;) {
            skipSpace();
            const qsizetype keyBegin = m_at;
            bool escaped = false;
            if (!string(&escaped) || escaped)
                return std::nullopt;
            const bool isItems = std::string_view(m_p + keyBegin, size_t(m_at - keyBegin)) == "\"items\"";
            skipSpace();
            if (!take(':'))
                return std::nullopt;
            skipSpace();
            if (isItems) {
                if (found || m_at >= m_n || m_p[m_at] != '[')
                    return std::nullopt;
                found = true;
                split.open = m_at++;
                skipSpace();
                if (m_at < m_n && m_p[m_at] != ']') {
                    for (;;) {
                        skipSpace();
                        const qsizetype begin = m_at;
                        if (!value())
                            return std::nullopt;
                        if (split.batches.isEmpty()
                            || split.batches.last().second - split.batches.last().first + (m_at - begin)
                                > m_batch)
                            split.batches.append({ begin, m_at });
                        else
                            split.batches.last().second = m_at;
                        skipSpace();
                        if (!take(','))
                            break;
                    }
                }
                if (m_at >= m_n || m_p[m_at] != ']')
                    return std::nullopt;
                split.close = m_at++;
            } else if (!value()) {
                return std::nullopt;
            }
            skipSpace();
            if (take('}'))
                break;
            if (!take(','))
                return std::nullopt;
        }
        if (!found)
            return std::nullopt;
        return split;
    }

private:
    bool take(char c)
    {
        if (m_at < m_n && m_p[m_at] == c) {
            ++m_at;
            return true;
        }
        return false;
    }
    void skipSpace()
    {
        while (
            m_at < m_n && (m_p[m_at] == ' ' || m_p[m_at] == '\n' || m_p[m_at] == '\r' || m_p[m_at] == '\t'))
            ++m_at;
    }
    // At a '"': past its closing quote.
    bool string(bool *escaped = nullptr)
    {
        if (!take('"'))
            return false;
        for (;;) {
            const void *quote = memchr(m_p + m_at, '"', size_t(m_n - m_at));
            if (!quote)
                return false;
            const qsizetype at = static_cast<const char *>(quote) - m_p;
            qsizetype backslashes = 0;
            while (at - backslashes > m_at && m_p[at - backslashes - 1] == '\\')
                ++backslashes;
            if (escaped && memchr(m_p + m_at, '\\', size_t(at - m_at)))
                *escaped = true;
            m_at = at + 1;
            if (backslashes % 2 == 0)
                return true;
        }
    }
    // Past one value: a string, an object or array (to its matching bracket), or a scalar's bytes.
    bool value()
    {
        if (m_at >= m_n)
            return false;
        const char c = m_p[m_at];
        if (c == '"')
            return string();
        if (c == '{' || c == '[') {
            int depth = 0;
            while (m_at < m_n) {
                switch (m_p[m_at]) {
                case '"':
                    if (!string())
                        return false;
                    continue;
                case '{':
                case '[':
                    ++depth;
                    break;
                case '}':
                case ']':
                    if (--depth == 0) {
                        ++m_at;
                        return true;
                    }
                    break;
                default:
                    break;
                }
                ++m_at;
            }
            return false;
        }
        const qsizetype begin = m_at;
        while (m_at < m_n && !strchr(",}] \n\r\t", m_p[m_at]))
            ++m_at;
        return m_at > begin;
    }

    const char *m_p;
    qsizetype m_n;
    qsizetype m_batch;
    qsizetype m_at = 0;
};

} // namespace

std::optional<ItemsSplit> scanItems(const QByteArray &body, qsizetype batch)
{
    return Scan(body, batch).items();
}
