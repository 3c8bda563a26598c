#include "core/statediff.h"

#include <QMap>
#include <QSet>
#include <algorithm>
#include <cstdlib>

namespace {

QString arrow()
{
    return QStringLiteral(" → ");
}

QString orNone(const QString &s)
{
    return s.isEmpty() ? QStringLiteral("none") : s;
}

// How many times each string occurs.
QMap<QString, int> counted(const QStringList &list)
{
    QMap<QString, int> counts;
    for (const QString &s : list)
        ++counts[s];
    return counts;
}

// The strings of a multiset that were added and removed, once per occurrence.
void diffCounted(
    const QStringList &before, const QStringList &after, ChangeCategory category, QList<StateChange> *changes)
{
    const QMap<QString, int> b = counted(before);
    const QMap<QString, int> a = counted(after);
    QStringList keys = b.keys() + a.keys();
    keys.removeDuplicates();
    for (const QString &key : std::as_const(keys)) {
        const int delta = a.value(key) - b.value(key);
        for (int i = 0; i < std::abs(delta); ++i)
            changes->append(
                { category, delta > 0 ? ChangeKind::Added : ChangeKind::Removed, key, QString() });
    }
}

// Destinations whose routes are the same but in another order: the first one carries the traffic,
// so the order is a change of its own.
void diffRouteOrder(const QStringList &before, const QStringList &after, QList<StateChange> *changes)
{
    auto byDestination = [](const QStringList &routes) {
        QMap<QString, QStringList> nexthops;
        for (const QString &route : routes) {
            const qsizetype via = route.indexOf(QLatin1String(" via "));
            if (via < 0)
                nexthops[route] << QString();
            else
                nexthops[route.left(via)] << route.mid(via + 5);
        }
        return nexthops;
    };
    const QMap<QString, QStringList> b = byDestination(before);
    const QMap<QString, QStringList> a = byDestination(after);
    for (auto it = b.cbegin(); it != b.cend(); ++it) {
        const QStringList &was = it.value();
        const QStringList now = a.value(it.key());
        if (was.size() < 2 || was == now)
            continue;
        QStringList wasSorted = was;
        QStringList nowSorted = now;
        wasSorted.sort();
        nowSorted.sort();
        if (wasSorted == nowSorted)
            changes->append({ ChangeCategory::Route, ChangeKind::Changed, it.key(),
                QStringLiteral("order via ") + was.join(QStringLiteral(", ")) + arrow()
                    + now.join(QStringLiteral(", ")) });
    }
}

QString instanceSubject(const QString &id, const InstanceDigest &d)
{
    return QStringLiteral("%1 (%2)").arg(d.name.isEmpty() ? QStringLiteral("(no name)") : d.name, id);
}

QString nodeChanges(const NodeDigest &b, const NodeDigest &a)
{
    QStringList parts;
    if (b.ready != a.ready)
        parts << QStringLiteral("Ready ") + b.ready + arrow() + a.ready;
    if (b.conditions != a.conditions)
        parts << QStringLiteral("conditions ") + orNone(b.conditions.join(QStringLiteral(", "))) + arrow()
                + orNone(a.conditions.join(QStringLiteral(", ")));
    if (b.internalIp != a.internalIp)
        parts << QStringLiteral("IP ") + orNone(b.internalIp) + arrow() + orNone(a.internalIp);
    if (b.podCidr != a.podCidr)
        parts << QStringLiteral("pod CIDR ") + orNone(b.podCidr) + arrow() + orNone(a.podCidr);
    if (b.unschedulable != a.unschedulable)
        parts << (a.unschedulable ? QStringLiteral("schedulable → cordoned")
                                  : QStringLiteral("cordoned → schedulable"));
    return parts.join(QStringLiteral("; "));
}

QString instanceChanges(const InstanceDigest &b, const InstanceDigest &a)
{
    QStringList parts;
    if (b.status != a.status)
        parts << b.status + arrow() + a.status;
    if (b.name != a.name)
        parts << QStringLiteral("name ") + orNone(b.name) + arrow() + orNone(a.name);
    if (b.addresses != a.addresses)
        parts << QStringLiteral("addresses ") + orNone(b.addresses) + arrow() + orNone(a.addresses);
    return parts.join(QStringLiteral("; "));
}

} // namespace

QList<ChangeCategory> uncomparedCategories(const StateDigest &before, const StateDigest &after)
{
    QSet<Source> unknown;
    for (Source s : before.unknownSources)
        unknown.insert(s);
    for (Source s : after.unknownSources)
        unknown.insert(s);
    QList<ChangeCategory> categories;
    if (unknown.isEmpty())
        return categories;
    const bool kluster = unknown.contains(Source::Kluster);
    auto add = [&categories](bool notCompared, ChangeCategory category) {
        if (notCompared)
            categories << category;
    };
    add(kluster || unknown.contains(Source::Servers), ChangeCategory::Instance);
    add(unknown.contains(Source::Nodes), ChangeCategory::Node);
    add(unknown.contains(Source::Router), ChangeCategory::Route);
    add(kluster || unknown.contains(Source::SecurityGroups), ChangeCategory::Rule);
    add(kluster || unknown.contains(Source::Servers), ChangeCategory::Membership);
    categories << ChangeCategory::Finding; // a finding not derived for want of a source is not resolved
    add(kluster, ChangeCategory::Kluster);
    return categories;
}

QList<StateChange> diffStates(const StateDigest &before, const StateDigest &after)
{
    const QList<ChangeCategory> skipped = uncomparedCategories(before, after);
    auto compared = [&skipped](ChangeCategory category) { return !skipped.contains(category); };
    QList<StateChange> changes;

    if (compared(ChangeCategory::Instance) || compared(ChangeCategory::Membership)) {
        const ChangeCategory instance = ChangeCategory::Instance;
        const ChangeCategory membership = ChangeCategory::Membership;
        for (auto it = before.instances.cbegin(); it != before.instances.cend(); ++it) {
            const auto now = after.instances.constFind(it.key());
            if (now == after.instances.cend()) {
                if (compared(instance))
                    changes.append(
                        { instance, ChangeKind::Removed, instanceSubject(it.key(), *it), it->status });
                continue;
            }
            const QString detail = instanceChanges(*it, *now);
            if (!detail.isEmpty() && compared(instance))
                changes.append({ instance, ChangeKind::Changed, instanceSubject(it.key(), *now), detail });
            if (!compared(membership))
                continue;
            for (const QString &group : it->securityGroups) {
                if (!now->securityGroups.contains(group))
                    changes.append(
                        { membership, ChangeKind::Removed, now->name + arrow() + group, QString() });
            }
            for (const QString &group : now->securityGroups) {
                if (!it->securityGroups.contains(group))
                    changes.append({ membership, ChangeKind::Added, now->name + arrow() + group, QString() });
            }
        }
        if (compared(instance)) {
            for (auto it = after.instances.cbegin(); it != after.instances.cend(); ++it) {
                if (!before.instances.contains(it.key()))
                    changes.append(
                        { instance, ChangeKind::Added, instanceSubject(it.key(), *it), it->status });
            }
        }
    }

    if (compared(ChangeCategory::Node)) {
        const ChangeCategory node = ChangeCategory::Node;
        for (auto it = before.nodes.cbegin(); it != before.nodes.cend(); ++it) {
            const auto now = after.nodes.constFind(it.key());
            if (now == after.nodes.cend()) {
                changes.append({ node, ChangeKind::Removed, it.key(), QStringLiteral("Ready ") + it->ready });
                continue;
            }
            const QString detail = nodeChanges(*it, *now);
            if (!detail.isEmpty())
                changes.append({ node, ChangeKind::Changed, it.key(), detail });
        }
        for (auto it = after.nodes.cbegin(); it != after.nodes.cend(); ++it) {
            if (!before.nodes.contains(it.key()))
                changes.append({ node, ChangeKind::Added, it.key(), QStringLiteral("Ready ") + it->ready });
        }
    }

    if (compared(ChangeCategory::Route)) {
        diffCounted(before.routes, after.routes, ChangeCategory::Route, &changes);
        diffRouteOrder(before.routes, after.routes, &changes);
    }
    if (compared(ChangeCategory::Rule))
        diffCounted(before.rules, after.rules, ChangeCategory::Rule, &changes);
    // Its lifecycle: "phase Running → Terminating" (a phase not said on one side says nothing).
    if (compared(ChangeCategory::Kluster) && !before.phase.isEmpty() && !after.phase.isEmpty()
        && before.phase != after.phase)
        changes.append({ ChangeCategory::Kluster, ChangeKind::Changed, QStringLiteral("phase"),
            QStringLiteral("%1 → %2").arg(before.phase, after.phase) });

    if (compared(ChangeCategory::Finding)) {
        const ChangeCategory finding = ChangeCategory::Finding;
        for (auto it = before.findings.cbegin(); it != before.findings.cend(); ++it) {
            const auto now = after.findings.constFind(it.key());
            if (now == after.findings.cend())
                changes.append({ finding, ChangeKind::Resolved, it.key(), severityName(*it) });
            else if (*now != *it)
                changes.append({ finding, ChangeKind::Changed, it.key(),
                    severityName(*it) + arrow() + severityName(*now) });
        }
        for (auto it = after.findings.cbegin(); it != after.findings.cend(); ++it) {
            if (!before.findings.contains(it.key()))
                changes.append({ finding, ChangeKind::Opened, it.key(), severityName(*it) });
        }
    }

    std::stable_sort(changes.begin(), changes.end(), [](const StateChange &a, const StateChange &b) {
        if (a.category != b.category)
            return a.category < b.category;
        if (a.subject != b.subject)
            return a.subject < b.subject;
        return a.change < b.change; // the kinds are in their names' order
    });
    return changes;
}

QList<IncidentChange> diffIncidents(const StateDigest &before, const QList<Incident> &beforeIncidents,
    const StateDigest &after, const QList<Incident> &afterIncidents)
{
    QList<IncidentChange> changes;
    if (uncomparedCategories(before, after).contains(ChangeCategory::Finding))
        return changes;
    const auto ids = [](const QList<Incident> &incidents) {
        QSet<QString> set;
        for (const Incident &i : incidents)
            set.insert(i.id());
        return set;
    };
    const QSet<QString> was = ids(beforeIncidents);
    const QSet<QString> is = ids(afterIncidents);
    const auto add
        = [&changes](ChangeKind change, const QList<Incident> &incidents, const QSet<QString> &other) {
              for (const Incident &i : incidents) {
                  if (!other.contains(i.id()))
                      changes.append({ change, i.id(), i.rule, i.severity, i.title, i.members });
              }
          };
    add(ChangeKind::Opened, afterIncidents, was);
    add(ChangeKind::Resolved, beforeIncidents, is);
    std::stable_sort(changes.begin(), changes.end(), [](const IncidentChange &a, const IncidentChange &b) {
        if (a.change != b.change)
            return a.change < b.change; // opened, then resolved
        return a.id < b.id;
    });
    return changes;
}
