#pragma once

#include <QByteArray>
#include <QByteArrayList>
#include <memory>

class RecordPack;

// A snapshot file's body as a refresh keeps it until it is written, if ever: the bytes a snapshot holds, in
// less memory. A body over 2 KB (the nodes of a small kluster; some 20 MB for 5,000) is kept compressed,
// about ten to twenty times smaller (a fleet of a thousand klusters keeps a thousand); a list made of records
// kept elsewhere anyway (Nova's servers and Neutron's ports, which the server cache keeps one by one, packed
// with a RecordPack) is kept as those records, shared, and unpacked and joined only when it is written.
// bytes() gives the body either way.
class KeptBody
{
public:
    KeptBody() = default;
    explicit KeptBody(const QByteArray &bytes);
    // `head`, the records with a comma between them, `tail`: {"servers":[ … ]}.
    // `pack`: the records are packed with it (core/recordpack.h), and unpacked when written.
    static KeptBody joined(const QByteArray &head, const QByteArrayList &records, const QByteArray &tail,
        const std::shared_ptr<const RecordPack> &pack = nullptr);

    QByteArray bytes() const;
    bool isEmpty() const { return m_data.isEmpty() && m_records.isEmpty() && m_tail.isEmpty(); }

    static constexpr qsizetype CompressAbove = qsizetype(2) << 10;

private:
    QByteArray m_data; // the body, or the head of a joined list
    QByteArrayList m_records;
    QByteArray m_tail;
    std::shared_ptr<const RecordPack> m_pack; // what the records are packed with, if they are
    bool m_compressed = false;
};
