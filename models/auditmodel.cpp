#include "models/auditmodel.h"

#include "core/diagnosis.h"

#include <QJsonArray>
#include <QVariantMap>

AuditModel::AuditModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void AuditModel::setRecords(const QList<QJsonObject> &records)
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
    const QJsonObject &r = m_records.at(index.row());
    const QString result = r.value(QStringLiteral("verification")).toString();
    const QString finding = r.value(QStringLiteral("finding")).toString();
    if (role == RecordRole)
        return r;
    if (role == KeyRole)
        return QString(r.value(QStringLiteral("time")).toString() + QLatin1Char(' ') + finding);
    if (role == SeverityRole) {
        if (result == QLatin1String("fixed") || result == QLatin1String("in progress"))
            return ConsoleRole::severityData(std::nullopt);
        const bool failed = result == QLatin1String("failed") || result == QLatin1String("interrupted");
        return ConsoleRole::severityData(failed ? Severity::Critical : Severity::Warning);
    }
    if (role == FilterRole) {
        return QVariantMap { { QStringLiteral("kluster"),
                                 QStringList { r.value(QStringLiteral("kluster")).toString() } },
            { QStringLiteral("id"), QStringList { finding } },
            { QStringLiteral("kind"), QStringList { finding.section(QLatin1Char(':'), 0, 0) } },
            { QStringLiteral("who"),
                QStringList { r.value(QStringLiteral("user")).toString(),
                    r.value(QStringLiteral("project")).toString() } },
            { QStringLiteral("cloud"), QStringList { r.value(QStringLiteral("cloud")).toString() } },
            { QStringLiteral("result"), QStringList { result } } };
    }
    if (role != Qt::DisplayRole && role != SortRole && role != Qt::ToolTipRole)
        return QVariant();
    switch (index.column()) {
    case TimeColumn:
        return r.value(QStringLiteral("time")).toString();
    case WhoColumn:
        return QStringLiteral("%1@%2 (%3)")
            .arg(r.value(QStringLiteral("user")).toString(), r.value(QStringLiteral("project")).toString(),
                r.value(QStringLiteral("cloud")).toString());
    case KlusterColumn:
        return r.value(QStringLiteral("kluster")).toString();
    case FindingColumn:
        return r.value(QStringLiteral("finding")).toString();
    case RepairColumn: {
        if (role != Qt::ToolTipRole)
            return r.value(QStringLiteral("repair")).toString();
        QStringList lines;
        for (const QJsonValue v : r.value(QStringLiteral("requests")).toArray()) {
            const QJsonObject q = v.toObject();
            lines << QStringLiteral("%1 %2 %3 -> %4 %5")
                         .arg(q.value(QStringLiteral("method")).toString(),
                             q.value(QStringLiteral("service")).toString(),
                             q.value(QStringLiteral("path")).toString())
                         .arg(q.value(QStringLiteral("status")).toInt())
                         .arg(q.value(QStringLiteral("outcome")).toString());
        }
        return lines.join(QLatin1Char('\n'));
    }
    case ResultColumn:
        return result == QLatin1String("interrupted") ? tr("interrupted — check the cloud") : result;
    case OpenForColumn: {
        const QDateTime seen
            = QDateTime::fromString(r.value(QStringLiteral("firstSeen")).toString(), Qt::ISODate);
        const QDateTime done
            = QDateTime::fromString(r.value(QStringLiteral("finishedAt")).toString(), Qt::ISODateWithMs);
        if (!seen.isValid() || !done.isValid())
            return role == Qt::ToolTipRole ? tr("Not known: the history had not seen this finding open")
                                           : QString();
        if (role == SortRole)
            return seen.secsTo(done);
        if (role == Qt::ToolTipRole)
            return tr("First seen %1, repair finished %2 (%3)")
                .arg(seen.toString(Qt::ISODate), done.toString(Qt::ISODate), result);
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
