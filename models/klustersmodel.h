#pragma once

#include "diagnosis.h"
#include "keyedrows.h"

#include <QDateTime>

// The sidebar: every kluster across connections with its worst severity, its
// counts, when it was fetched, and whether the last refresh failed (the data
// shown is then the last good one). Updated one kluster at a time.
class KlustersModel : public KeyedTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(KlustersModel)

public:
    enum Column { KlusterColumn, ConnectionColumn, WorstColumn, CriticalColumn, WarningColumn, FetchedColumn, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole + 1,
        KeyRole,         // "<connection>/<kluster>"
        SeverityRole,    // int(Severity) of the worst finding; -1 when none or never diagnosed
        ErrorRole,       // the last refresh's error, if it failed
        FetchedAtRole,   // QDateTime of the data shown
    };

    explicit KlustersModel(QObject *parent = nullptr);

    // A kluster seen (no diagnosis yet), diagnosed, or whose refresh failed
    // (`error`: the diagnosis shown stays the last good one).
    void setKluster(const QString &connection, const QString &kluster);
    void setDiagnosis(const QString &connection, const QString &kluster, const Diagnosis &diagnosis, const QDateTime &fetchedAt);
    void setError(const QString &connection, const QString &kluster, const QString &error);
    void removeConnection(const QString &connection);
    int rowOf(const QString &connection, const QString &kluster) const { return m_rows.rowOf(connection + QLatin1Char('/') + kluster); }

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    struct Row
    {
        QString connection;
        QString kluster;
        bool diagnosed = false;
        int worst = -1;
        int critical = 0;
        int warning = 0;
        QDateTime fetchedAt;
        QString error;
        QString key() const { return connection + QLatin1Char('/') + kluster; }
        friend bool operator==(const Row &a, const Row &b)
        {
            return a.key() == b.key() && a.diagnosed == b.diagnosed && a.worst == b.worst && a.critical == b.critical
                && a.warning == b.warning && a.fetchedAt == b.fetchedAt && a.error == b.error;
        }
    };

private:
    void apply(QList<Row> next);

    KeyedRows<Row> m_rows;
};
