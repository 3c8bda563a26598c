#include "core/recordpack.h"

#include <zlib.h>

namespace {
// A window of 4 KB is room for the dictionary and a record: the streams' state stays small (some 20 KB).
constexpr int WindowBits = 12;
constexpr int MemoryLevel = 4;
constexpr qsizetype MaxDictionary = qsizetype(1) << WindowBits;
} // namespace

RecordPack::RecordPack(const QByteArray &dictionary)
    // zlib reads a dictionary's end first: the window holds its last bytes.
    : m_dictionary(dictionary.right(MaxDictionary))
{ }

QByteArray RecordPack::pack(const QByteArray &record) const
{
    z_stream z {};
    if (deflateInit2(&z, 6, Z_DEFLATED, -WindowBits, MemoryLevel, Z_DEFAULT_STRATEGY) != Z_OK)
        return record;
    // The size first (4 bytes), then the raw deflate stream.
    QByteArray out(qsizetype(deflateBound(&z, uLong(record.size()))) + 4, Qt::Uninitialized);
    const auto size = quint32(record.size());
    out[0] = char(size >> 24);
    out[1] = char(size >> 16);
    out[2] = char(size >> 8);
    out[3] = char(size);
    if (!m_dictionary.isEmpty())
        deflateSetDictionary(
            &z, reinterpret_cast<const Bytef *>(m_dictionary.constData()), uInt(m_dictionary.size()));
    z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(record.constData()));
    z.avail_in = uInt(record.size());
    z.next_out = reinterpret_cast<Bytef *>(out.data() + 4);
    z.avail_out = uInt(out.size() - 4);
    const int result = deflate(&z, Z_FINISH);
    const qsizetype written = qsizetype(z.total_out);
    deflateEnd(&z);
    if (result != Z_STREAM_END)
        return QByteArray();
    out.truncate(written + 4);
    out.squeeze();
    return out;
}

QByteArray RecordPack::unpack(const QByteArray &packed) const
{
    if (packed.size() < 4)
        return QByteArray();
    const auto *head = reinterpret_cast<const uchar *>(packed.constData());
    const quint32 size
        = (quint32(head[0]) << 24) | (quint32(head[1]) << 16) | (quint32(head[2]) << 8) | head[3];
    if (size > (quint32(1) << 30))
        return QByteArray();
    z_stream z {};
    if (inflateInit2(&z, -WindowBits) != Z_OK)
        return QByteArray();
    if (!m_dictionary.isEmpty())
        inflateSetDictionary(
            &z, reinterpret_cast<const Bytef *>(m_dictionary.constData()), uInt(m_dictionary.size()));
    QByteArray out(qsizetype(size), Qt::Uninitialized);
    z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(packed.constData() + 4));
    z.avail_in = uInt(packed.size() - 4);
    z.next_out = reinterpret_cast<Bytef *>(out.data());
    z.avail_out = uInt(out.size());
    const int result = inflate(&z, Z_FINISH);
    const bool whole = result == Z_STREAM_END && z.total_out == size;
    inflateEnd(&z);
    return whole ? out : QByteArray();
}
