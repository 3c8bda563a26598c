#pragma once

#include <QString>
#include <QtGlobal>
#include <optional>

// One of N exporters that split a cloud between them (`serve --shard I/N`), as Prometheus' hashmod splits
// targets: a kluster belongs to shard hash(key) mod N. The hash is fixed (the first 8 bytes of the SHA-1 of
// the key's UTF-8, big-endian), never Qt's seeded qHash: every process, machine and Qt version puts a kluster
// in the same shard, so N exporters started with 0/N … N-1/N serve each kluster exactly once.
struct Shard
{
    int index = 0;
    int count = 1; // 1: the whole cloud

    // "I/N": I from 0 to N-1, N at least 1 (at most MaxCount). Nullopt with a one-line `error` otherwise.
    static std::optional<Shard> parse(const QString &text, QString *error);
    static constexpr int MaxCount = 4096;

    // A kluster's identity, as the shards split by: its region, its project's id and its name
    // ("<region>/<project id>/<kluster>"). The clouds.yaml name is left out: it is this machine's name for
    // the cloud, and two clouds that reach one project (two users of it) must put its klusters in one shard.
    static QString key(const QString &region, const QString &projectId, const QString &kluster);
    static quint64 hash(const QString &key); // the first 8 bytes of SHA-1(UTF-8 of key), big-endian
    static int of(const QString &key, int count); // the shard a key belongs to when there are `count`

    bool contains(const QString &key) const { return of(key, count) == index; }
    bool isWhole() const { return count == 1; }
    QString toString() const { return QStringLiteral("%1/%2").arg(index).arg(count); }

    friend bool operator==(const Shard &a, const Shard &b)
    {
        return a.index == b.index && a.count == b.count;
    }
};
