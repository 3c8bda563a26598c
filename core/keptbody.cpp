#include "core/keptbody.h"

#include "core/recordpack.h"

KeptBody::KeptBody(const QByteArray &bytes)
    : m_data(bytes)
{
    if (bytes.size() > CompressAbove) {
        // Level 1: a tenth of the time of the default for nearly the same size on JSON (23 MB of nodes: about
        // 70 ms, to 1.2 MB).
        m_data = qCompress(bytes, 1);
        // qCompress leaves room for the worst case, as large as the body itself: a thousand klusters' node
        // lists kept that room (100 MB in heaptrack) until squeezed.
        m_data.squeeze();
        m_compressed = true;
    }
}

KeptBody KeptBody::joined(const QByteArray &head, const QByteArrayList &records, const QByteArray &tail,
    const std::shared_ptr<const RecordPack> &pack)
{
    KeptBody kept;
    kept.m_data = head;
    kept.m_records = records;
    kept.m_tail = tail;
    kept.m_pack = pack;
    return kept;
}

QByteArray KeptBody::bytes() const
{
    if (m_compressed)
        return qUncompress(m_data);
    if (m_records.isEmpty() && m_tail.isEmpty())
        return m_data;
    QByteArrayList records = m_records;
    if (m_pack) {
        for (QByteArray &r : records)
            r = m_pack->unpack(r);
    }
    qsizetype size = m_data.size() + m_tail.size();
    for (const QByteArray &r : std::as_const(records))
        size += r.size() + 1;
    QByteArray body;
    body.reserve(size);
    body += m_data;
    for (qsizetype i = 0; i < records.size(); ++i) {
        if (i > 0)
            body += ',';
        body += records.at(i);
    }
    body += m_tail;
    return body;
}
