#include "models/securitymodel.h"

#include "core/klusterindex.h"
#include "core/knowledge.h"
#include "core/ruleverdict.h"

#include <algorithm>

SecurityModel::SecurityModel(QObject *parent)
    : KeyedTableModel(parent)
    , m_rows([](const Row &r) { return r.key; }, [](const Row &a, const Row &b) { return a == b; })
{ }

SecurityModel::Prepared SecurityModel::prepare(const KlusterState &state, const Diagnosis &diagnosis)
{
    Prepared p;
    const KlusterIndex join(state);
    const Knowledge knowledge(state);
    const QString groupName = state.kluster.securityGroupName;
    const QList<int> &groups = join.klusterGroups();
    QList<Row> next;
    if (!state.securityGroupsSource.known) {
        p.summary = tr("The security groups could not be read: %1").arg(state.securityGroupsSource.error);
    } else if (groups.size() != 1) {
        p.summary = groups.isEmpty()
            ? tr("Security group %1 does not exist").arg(groupName)
            : tr("Security group %1 is ambiguous: %2 groups have the name").arg(groupName).arg(groups.size());
    } else {
        const SecurityGroup &group = state.securityGroups.at(groups.first());
        p.summary
            = tr("Security group %1 (%2), %3 rule(s)").arg(group.name, group.id).arg(group.rules.size());
        for (const char *p : { "tcp", "udp", "icmp" }) {
            const QString protocol = QString::fromLatin1(p);
            Row r;
            r.key = QStringLiteral("rule:") + protocol;
            r.what = tr("rule");
            r.subject = tr("%1 from %2").arg(protocol.toUpper(), state.kluster.clusterCidr.toString());
            QStringList narrow;
            QString satisfiedBy;
            for (const SecurityGroupRule &rule : group.rules) {
                const RuleVerdict v = judgeRule(rule, protocol, state.kluster.clusterCidr);
                if (v.satisfies && satisfiedBy.isEmpty())
                    satisfiedBy = rule.id;
                else if (v.relevant && !v.satisfies)
                    narrow << ruleProblem(rule, v, protocol, state.kluster.clusterCidr);
            }
            if (!satisfiedBy.isEmpty()) {
                r.status = tr("present");
                r.detail = tr("rule %1").arg(satisfiedBy);
            } else {
                r.status = narrow.isEmpty() ? tr("missing") : tr("too narrow");
                r.detail = narrow.join(QStringLiteral("; "));
                r.problem = true;
            }
            next.append(r);
        }
    }
    const qsizetype rules = next.size();
    for (int i : join.klusterInstances()) {
        const Instance &instance = state.instances.at(i);
        Row r;
        r.key = QStringLiteral("instance:") + instance.name;
        r.what = tr("instance");
        r.subject = instance.name;
        const bool member = instance.securityGroups.contains(groupName);
        r.status = member ? tr("in the group") : tr("not in the group");
        r.detail = instance.securityGroups.isEmpty() ? tr("no security group at all")
                                                     : instance.securityGroups.join(QStringLiteral(", "));
        // Marked where the diagnosis finds it (below), never here: with the groups unreadable, or the group
        // not found, no instance is said to be cut off from it.
        if (!member && instance.isActive() && !knowledge.judges(FindingKind::InstanceMissingSecurityGroup))
            r.detail += tr(" · whether it matters is not known: the %1 could not be read (%2)")
                            .arg(Sources::name(*knowledge.stops(FindingKind::InstanceMissingSecurityGroup)),
                                knowledge.why(*knowledge.stops(FindingKind::InstanceMissingSecurityGroup)));
        next.append(r);
    }
    // The findings behind the rows: a missing rule, an instance cut off from the group.
    QHash<QString, QStringList> findingsOf;
    for (const Finding &f : diagnosis.findings) {
        if (f.kind == FindingKind::SecurityGroupRuleMissing)
            findingsOf[QStringLiteral("rule:") + f.subject] << f.id();
        else if (f.kind == FindingKind::InstanceMissingSecurityGroup)
            findingsOf[QStringLiteral("instance:") + f.subject] << f.id();
    }
    for (Row &r : next) {
        r.findings = findingsOf.value(r.key);
        if (r.key.startsWith(QLatin1String("instance:")))
            r.problem = !r.findings.isEmpty();
    }
    // The rules, then the instances by name: the same order whatever order the servers came in (a whole list,
    // or one kept up to date by changes-since, new ones last), so that a refresh moves no row.
    std::stable_sort(
        next.begin() + rules, next.end(), [](const Row &a, const Row &b) { return a.key < b.key; });
    p.rows = std::move(next);
    return p;
}

QStringList SecurityModel::filterFields()
{
    return { QStringLiteral("what"), QStringLiteral("protocol"), QStringLiteral("node"),
        QStringLiteral("status"), QStringLiteral("kind"), QStringLiteral("id"), QStringLiteral("severity") };
}

void SecurityModel::apply(const Prepared &prepared)
{
    m_summary = prepared.summary;
    applyRows(m_rows, prepared);
}

void SecurityModel::setState(const KlusterState &state, const Diagnosis &diagnosis)
{
    apply(prepare(state, diagnosis));
}

int SecurityModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int SecurityModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SecurityModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return QVariant();
    const Row &r = m_rows.at(index.row());
    const std::optional<Severity> severity = r.problem ? std::optional(Severity::Critical) : std::nullopt;
    if (role == ProblemRole)
        return r.problem;
    if (role == KeyRole)
        return r.key;
    if (role == SeverityRole)
        return ConsoleRole::severityData(severity);
    if (role == FindingsRole)
        return r.findings;
    if (role == FilterRole) {
        const bool rule = r.key.startsWith(QLatin1String("rule:"));
        QStringList kinds;
        for (const QString &id : r.findings)
            kinds << id.section(QLatin1Char(':'), 0, 0);
        return QVariantMap { { QStringLiteral("what"), QStringList { r.what } },
            { rule ? QStringLiteral("protocol") : QStringLiteral("node"),
                QStringList { rule ? r.key.mid(5) : r.subject } },
            { QStringLiteral("status"), QStringList { r.status } }, { QStringLiteral("kind"), kinds },
            { QStringLiteral("id"), r.findings },
            { QStringLiteral("severity"), ConsoleRole::severityField(severity) } };
    }
    if (role == Qt::DisplayRole || role == SortRole) {
        switch (index.column()) {
        case WhatColumn:
            return r.what;
        case SubjectColumn:
            return r.subject;
        case StatusColumn:
            return r.status;
        case DetailColumn:
            return r.detail;
        }
    }
    return QVariant();
}

QVariant SecurityModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case WhatColumn:
        return tr("What");
    case SubjectColumn:
        return tr("Which");
    case StatusColumn:
        return tr("Status");
    case DetailColumn:
        return tr("Detail");
    }
    return QVariant();
}
