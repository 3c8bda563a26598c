#pragma once

#include <QByteArray>
#include <QByteArrayList>

// A snapshot file's body as a refresh keeps it until it is written, if ever: the bytes a snapshot holds, in
// less memory. A body over 16 KB (the nodes of a kluster of a few dozen; some 20 MB for 5,000) is kept
// compressed, about ten to twenty times smaller (a fleet of a thousand klusters keeps a thousand); a list
// made of records kept elsewhere anyway (Nova's servers, which the server cache keeps one by one) is kept as
// those records, shared, and joined only when it is written. bytes() gives the body either way.
class KeptBody
{
public:
    KeptBody() = default;
    explicit KeptBody(const QByteArray &bytes);
    // `head`, the records with a comma between them, `tail`: {"servers":[ … ]}.
    static KeptBody joined(const QByteArray &head, const QByteArrayList &records, const QByteArray &tail);

    QByteArray bytes() const;
    bool isEmpty() const { return m_data.isEmpty() && m_records.isEmpty() && m_tail.isEmpty(); }

    static constexpr qsizetype CompressAbove = qsizetype(16) << 10;

private:
    QByteArray m_data; // the body, or the head of a joined list
    QByteArrayList m_records;
    QByteArray m_tail;
    bool m_compressed = false;
};
