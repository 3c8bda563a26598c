#pragma once

#include "core/diagnosis.h"
#include "core/klusterstate.h"

#include <QList>
#include <QString>

// What a row of the console's tables can be copied as: the object's name, addresses, pod CIDR and ids, and
// the `openstack` or `kubectl` command that shows it (what an engineer pastes into a terminal or a ticket).
// Pure: made from the kluster's state and diagnosis, tested without a window.
namespace RowCopies {

enum class RowKind
{
    Finding, // key: the finding's id
    Node, // key: the instance's or node's name
    Route, // key: "<destination> via <nexthop>", or a destination (a group of routes)
    Security, // key: "rule:<protocol>" or "instance:<name>"
};

struct Copyable
{
    QString label; // "Pod CIDR 100.100.1.0/24", as the menu shows it
    QString text; // what goes to the clipboard
};

QList<Copyable> of(RowKind kind, const QString &key, const KlusterState &state, const Diagnosis &diagnosis);

// Rows as text: one line each, cells separated by tabs, the header line first; control characters in a cell
// shown as escapes. Every text of of() is printable() too.
QString rowsText(const QStringList &header, const QList<QStringList> &rows);

} // namespace RowCopies
