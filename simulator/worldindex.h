#pragma once

#include <QHash>
#include <QList>
#include <QString>

// A lookup of one of the World's lists by a key (an id, a name, an address), at scale: a hash of key to
// position that keeps up with the list by itself. Whatever was appended since it last looked is taken in
// (O(what was appended): an insertion updates it, never rebuilds it); anything else that changed under it
// (a removal, which shifts what follows) is noticed by the one element it saw last no longer being where
// it was, and then it is built anew, once. A hit is still checked against the list every time: the
// element at the position must be the one recorded, of that key.
//
// Of several elements of one key, it finds the first (the list's own order), or the last (`Keeps::Last`:
// the newest). Each element is known by an identity (its id) that no other element of the list has.
template<typename T> class ListIndex
{
public:
    using KeyOf = QString (*)(const T &);
    enum class Keeps
    {
        First,
        Last
    };

    ListIndex(KeyOf key, KeyOf identity, Keeps keeps = Keeps::First)
        : m_key(key)
        , m_identity(identity)
        , m_keeps(keeps)
    { }

    // The position of the element of `key` in `list`; -1 when there is none.
    int find(const QList<T> &list, const QString &key)
    {
        takeIn(list);
        if (const int at = checked(list, key); at != Stale)
            return at;
        m_at.clear(); // something changed in place under it: built anew, once
        m_seen = 0;
        takeIn(list);
        const int at = checked(list, key);
        return at == Stale ? -1 : at;
    }

    // What was appended to `list` since it last looked, recorded; anything else that changed, seen.
    void takeIn(const QList<T> &list)
    {
        if (m_seen > list.size() || (m_seen > 0 && m_identity(list.at(m_seen - 1)) != m_last)) {
            m_at.clear();
            m_seen = 0;
        }
        if (m_seen == list.size())
            return;
        if (m_seen == 0)
            m_at.reserve(list.size());
        for (; m_seen < list.size(); ++m_seen) {
            const T &x = list.at(m_seen);
            const QString key = m_key(x);
            if (m_keeps == Keeps::Last || !m_at.contains(key))
                m_at.insert(key, Entry { int(m_seen), m_identity(x) });
        }
        m_last = m_identity(list.last());
    }

private:
    static constexpr int Stale = -2;
    struct Entry
    {
        int at;
        QString identity;
    };

    // The recorded position of `key`, -1 when none, Stale when the list no longer has it there.
    int checked(const QList<T> &list, const QString &key) const
    {
        const auto hit = m_at.constFind(key);
        if (hit == m_at.cend())
            return -1;
        if (hit->at < list.size() && m_identity(list.at(hit->at)) == hit->identity
            && m_key(list.at(hit->at)) == key)
            return hit->at;
        return Stale;
    }

    KeyOf m_key;
    KeyOf m_identity;
    Keeps m_keeps;
    QHash<QString, Entry> m_at;
    qsizetype m_seen = 0; // the elements taken in: the list's first m_seen
    QString m_last; // the identity of the last of them
};
