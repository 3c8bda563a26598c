#include "klustersmodel.h"

KlustersModel::KlustersModel(QObject *parent)
    : KeyedTableModel(parent)
    , m_rows([](const Row &r) { return r.key(); }, [](const Row &a, const Row &b) { return a == b; })
{
}

void KlustersModel::apply(QList<Row> next)
{
    applyRows(m_rows, next);
}

void KlustersModel::setKluster(const QString &connection, const QString &kluster)
{
    if (rowOf(connection, kluster) >= 0)
        return;
    QList<Row> next = m_rows.rows();
    Row r;
    r.connection = connection;
    r.kluster = kluster;
    next.append(r);
    apply(next);
}

void KlustersModel::setDiagnosis(const QString &connection, const QString &kluster, const Diagnosis &diagnosis,
                                 const QDateTime &fetchedAt)
{
    setKluster(connection, kluster);
    QList<Row> next = m_rows.rows();
    Row &r = next[rowOf(connection, kluster)];
    r.diagnosed = true;
    r.critical = diagnosis.count(Severity::Critical);
    r.warning = diagnosis.count(Severity::Warning);
    r.worst = diagnosis.findings.isEmpty() ? -1 : int(diagnosis.worst());
    r.fetchedAt = fetchedAt;
    r.error.clear();
    apply(next);
}

void KlustersModel::setError(const QString &connection, const QString &kluster, const QString &error)
{
    setKluster(connection, kluster);
    QList<Row> next = m_rows.rows();
    next[rowOf(connection, kluster)].error = error;
    apply(next);
}

void KlustersModel::removeConnection(const QString &connection)
{
    QList<Row> next;
    for (const Row &r : m_rows.rows()) {
        if (r.connection != connection)
            next.append(r);
    }
    apply(next);
}

int KlustersModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.rows().size());
}

int KlustersModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant KlustersModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return QVariant();
    const Row &r = m_rows.rows().at(index.row());
    switch (role) {
    case KeyRole:
        return r.key();
    case SeverityRole:
        return !r.diagnosed && !r.error.isEmpty() ? 0 : r.worst;  // unreachable: as bad as critical
    case ErrorRole:
        return r.error;
    case FetchedAtRole:
        return r.fetchedAt;
    case Qt::ToolTipRole:
        return r.error.isEmpty() ? QVariant() : tr("The last refresh failed: %1").arg(r.error);
    case Qt::DisplayRole:
        switch (index.column()) {
        case KlusterColumn:
            return r.error.isEmpty() ? r.kluster : (r.diagnosed ? tr("%1 (stale: refresh failed)") : tr("%1 (unreachable)")).arg(r.kluster);
        case ConnectionColumn: return r.connection;
        case WorstColumn:
            if (!r.diagnosed)
                return tr("not checked yet");
            return r.worst < 0 ? tr("healthy") : severityName(Severity(r.worst));
        case CriticalColumn: return r.diagnosed ? QVariant(r.critical) : QVariant(QStringLiteral("—"));
        case WarningColumn: return r.diagnosed ? QVariant(r.warning) : QVariant(QStringLiteral("—"));
        case FetchedColumn:
            return r.fetchedAt.isValid() ? r.fetchedAt.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'")) : QString();
        }
        break;
    case SortRole:
        switch (index.column()) {
        case WorstColumn: return r.diagnosed ? (r.worst < 0 ? 3 : r.worst) : 4;
        case FetchedColumn: return r.fetchedAt;
        case KlusterColumn: return r.kluster;
        // Most critical first when sorted descending; what cannot be read at all above everything.
        case CriticalColumn: return (r.error.isEmpty() ? 0 : 1000) + (r.diagnosed ? r.critical : 500);
        case WarningColumn: return (r.error.isEmpty() ? 0 : 1000) + (r.diagnosed ? r.warning : 500);
        default: return data(index, Qt::DisplayRole);
        }
    default:
        break;
    }
    return QVariant();
}

QVariant KlustersModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case KlusterColumn: return tr("Kluster");
    case ConnectionColumn: return tr("Connection");
    case WorstColumn: return tr("Worst");
    case CriticalColumn: return tr("Critical");
    case WarningColumn: return tr("Warning");
    case FetchedColumn: return tr("Fetched");
    }
    return QVariant();
}
