#pragma once

#include <QChar>
#include <QList>
#include <QString>

// What a difference between two moments of a kluster is about, in the order of every diff and report.
enum class ChangeCategory
{
    Instance,
    Node,
    Route,
    Rule,
    Membership, // an instance in a security group
    Finding,
    Kluster, // the kluster itself: its lifecycle phase
};

// How it differs. In the order a diff lists the changes of one subject (their names' alphabetical order).
enum class ChangeKind
{
    Added,
    Changed,
    Opened, // a finding
    Removed,
    Resolved, // a finding
};

// One difference between two moments of a kluster.
struct StateChange
{
    ChangeCategory category = ChangeCategory::Instance;
    ChangeKind change = ChangeKind::Changed;
    QString subject; // the instance name (id), node name, route, rule text, "instance → group", finding id
    // "ACTIVE → ERROR", "Ready True → Unknown", "warning → critical"; for an instance, node or finding
    // that came or went, its status, Ready or severity then; empty for routes, rules and memberships.
    QString detail;

    friend bool operator==(const StateChange &a, const StateChange &b)
    {
        return a.category == b.category && a.change == b.change && a.subject == b.subject
            && a.detail == b.detail;
    }
    friend bool operator!=(const StateChange &a, const StateChange &b) { return !(a == b); }
};

// The names, headings and marks of changes: the one place each is spelled.
namespace StateChanges {

// Every category, in the order of every diff and report.
const QList<ChangeCategory> &categories();

QString name(ChangeCategory category); // "instance", "membership", … (JSON and the text report)
QString heading(ChangeCategory category); // "Instances", "Security group memberships", …
QString name(ChangeKind kind); // "added", "resolved", …

// Which way a change goes: something came (added, opened), went (removed, resolved), or is otherwise.
enum class Direction
{
    Came,
    Went,
    Changed
};
Direction direction(ChangeKind kind);
// Its mark: "+", "-" and "~" in text for terminals; a typographic minus where people read it on screen.
enum class MarkStyle
{
    Ascii,
    Typographic
};
QChar mark(ChangeKind kind, MarkStyle style = MarkStyle::Ascii);

} // namespace StateChanges
