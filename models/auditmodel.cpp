#include "models/auditmodel.h"

#include "core/diagnosis.h"

#include <QVariantMap>

AuditModel::AuditModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void AuditModel::setRecords(const QList<AuditRecord> &records)
{
    if (records.size() < m_records.size()) {
        beginResetModel(); // the log was replaced under us (rotated, cleared): nothing to keep
        m_records = records;
        endResetModel();
        return;
    }
    // A repair's record completes in place (started, then finished); new ones are appended.
    for (int i = 0; i < m_records.size(); ++i) {
        if (m_records.at(i) != records.at(i)) {
            m_records[i] = records.at(i);
            emit dataChanged(index(i, 0), index(i, ColumnCount - 1));
        }
    }
    if (records.size() == m_records.size())
        return;
    beginInsertRows(QModelIndex(), int(m_records.size()), int(records.size() - 1));
    m_records.append(records.mid(m_records.size()));
    endInsertRows();
}

int AuditModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_records.size());
}

int AuditModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AuditModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return QVariant();
    const AuditRecord &r = m_records.at(index.row());
    const RepairResult result = r.verification;
    const QString resultName = RepairResults::name(result);
    const QString finding = r.finding();
    const QString time = r.time.isValid() ? r.time.toUTC().toString(Qt::ISODateWithMs) : QString();
    if (role == RecordRole)
        return QVariant::fromValue(r);
    if (role == KeyRole)
        return QString(time + QLatin1Char(' ') + finding);
    if (role == SeverityRole) {
        if (RepairResults::settled(result))
            return ConsoleRole::severityData(std::nullopt);
        return ConsoleRole::severityData(
            RepairResults::failed(result) ? Severity::Critical : Severity::Warning);
    }
    if (role == FilterRole) {
        return QVariantMap { { QStringLiteral("kluster"), QStringList { r.kluster } },
            { QStringLiteral("id"), QStringList { finding } },
            { QStringLiteral("kind"), QStringList { finding.section(QLatin1Char(':'), 0, 0) } },
            { QStringLiteral("who"), QStringList { r.user, r.project } },
            { QStringLiteral("cloud"), QStringList { r.cloud } },
            { QStringLiteral("result"), QStringList { resultName } } };
    }
    if (role != Qt::DisplayRole && role != SortRole && role != Qt::ToolTipRole)
        return QVariant();
    switch (index.column()) {
    case TimeColumn:
        return time;
    case WhoColumn:
        return QStringLiteral("%1@%2 (%3)").arg(r.user, r.project, r.cloud);
    case KlusterColumn:
        return r.kluster;
    case FindingColumn:
        return finding;
    case RepairColumn: {
        if (role != Qt::ToolTipRole)
            return r.repair;
        QStringList lines;
        for (const AuditRequest &q : r.requests.value_or(QList<AuditRequest>()))
            lines << QStringLiteral("%1 -> %2 %3").arg(q.summary()).arg(q.status).arg(q.outcome);
        return lines.join(QLatin1Char('\n'));
    }
    case ResultColumn:
        return r.interrupted() ? tr("interrupted — check the cloud") : resultName;
    case OpenForColumn: {
        const QDateTime &seen = r.firstSeen;
        const QDateTime &done = r.finishedAt;
        if (!seen.isValid() || !done.isValid())
            return role == Qt::ToolTipRole ? tr("Not known: the history had not seen this finding open")
                                           : QString();
        if (role == SortRole)
            return seen.secsTo(done);
        if (role == Qt::ToolTipRole)
            return tr("First seen %1, repair finished %2 (%3)")
                .arg(seen.toUTC().toString(Qt::ISODate), done.toUTC().toString(Qt::ISODate), resultName);
        return formatDuration(qMax<qint64>(0, seen.secsTo(done)));
    }
    }
    return QVariant();
}

QStringList AuditModel::filterFields()
{
    return { QStringLiteral("kluster"), QStringLiteral("id"), QStringLiteral("kind"), QStringLiteral("who"),
        QStringLiteral("cloud"), QStringLiteral("result") };
}

QVariant AuditModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TimeColumn:
        return tr("When");
    case WhoColumn:
        return tr("Who");
    case KlusterColumn:
        return tr("Kluster");
    case FindingColumn:
        return tr("Finding");
    case RepairColumn:
        return tr("Repair");
    case ResultColumn:
        return tr("Result");
    case OpenForColumn:
        return tr("Open for");
    }
    return QVariant();
}
