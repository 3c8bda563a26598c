#pragma once

#include <QMetaType>
#include <QString>

// One kluster of one connection (connections by name: the store knows no services).
struct KlusterKey
{
    QString connection;
    QString kluster; // empty: the connection itself (its row in the sidebar when it lists no kluster)

    bool isNull() const { return connection.isEmpty() && kluster.isEmpty(); }
    // "<connection>/<kluster>", as the sidebar's key and the settings hold it.
    QString toString() const;
    // Reads toString()'s text back (a stored setting): the kluster is after the last '/' (its name never
    // holds one); text without a '/' is no key.
    static KlusterKey fromString(const QString &text);

    friend bool operator==(const KlusterKey &a, const KlusterKey &b)
    {
        return a.connection == b.connection && a.kluster == b.kluster;
    }
    friend bool operator!=(const KlusterKey &a, const KlusterKey &b) { return !(a == b); }
};
size_t qHash(const KlusterKey &key, size_t seed = 0) noexcept;
Q_DECLARE_METATYPE(KlusterKey)
