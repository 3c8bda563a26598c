#pragma once

#include <QByteArray>
#include <memory>

// The records of one list kept compressed against a dictionary: a project's servers and ports, each kept as
// its compact JSON for the snapshots, are alike but for their ids, names and addresses, which no dictionary
// guesses: against a record of the same list, a server's 1.2–1.4 KB deflate to about a third. A region's
// 28,000 servers and 28,000 ports kept them whole: some 55 MB (docs/benchmarks.md).
//
// A pack is immutable and shared (its dictionary must outlive every record packed with it): each record
// packed or unpacked with a stream of its own, so any thread may use it at once.
class RecordPack
{
public:
    // `dictionary`: a typical record of the list (the first one read).
    explicit RecordPack(const QByteArray &dictionary);

    QByteArray pack(const QByteArray &record) const;
    // The record again; empty when `packed` was not packed with this dictionary (never the case unless the
    // memory was damaged).
    QByteArray unpack(const QByteArray &packed) const;

    static std::shared_ptr<const RecordPack> make(const QByteArray &dictionary)
    {
        return std::make_shared<const RecordPack>(dictionary);
    }

private:
    QByteArray m_dictionary;
};
