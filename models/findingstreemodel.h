#pragma once

#include "models/findingsmodel.h"

#include <QAbstractItemModel>
#include <QHash>
#include <memory>

// The findings grouped by incident (diagnosis.md §5): a tree over a FindingsModel, the incidents first as
// rows of their own (severity, rule, key, since when the oldest member is open, the title and how many
// findings), their member findings beneath them, then every finding in no incident. Grouping never hides a
// finding: every row of the flat model is in the tree, once. A finding's row answers as the flat model's
// does (its columns and roles are the flat model's); an incident's row answers the same roles for itself
// (ConsoleRole::Findings: its members, so that what it is about is selected in the other views). Follows
// the flat model's updates incrementally (by finding and incident id): no reset, so selection and scroll
// position survive a refresh.
class FindingsTreeModel : public QAbstractItemModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FindingsTreeModel)

public:
    explicit FindingsTreeModel(FindingsModel *findings, QObject *parent = nullptr);
    ~FindingsTreeModel() override;

    FindingsModel *findings() const { return m_findings; }
    // The row of a finding (under its incident) or of an incident; invalid when none.
    QModelIndex indexOf(const QString &key, int column = 0) const;
    // "3 findings", the words an incident's row and the Overview use for its size.
    static QString memberCount(int members);

    QModelIndex index(int row, int column, const QModelIndex &parent = QModelIndex()) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

private:
    struct Top
    {
        QString key; // an incident's id, or a lone finding's
        bool incident = false;
        FindingsModel::IncidentRow row; // an incident's, as shown (to tell when it changed)
    };
    struct Group; // an incident's members, at a stable address (their rows' internal pointer)

    void rebuild(); // from the flat model's rows and incidents, as they are after its update
    void forward(const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles);
    void incidentsChanged(); // what an incident's row sums up of its members changed
    QVariant incidentData(const FindingsModel::IncidentRow &incident, int column, int role) const;
    QVariant memberValue(const FindingsModel::IncidentRow &incident, int column, int role, bool lowest) const;
    const FindingHistory *oldest(const FindingsModel::IncidentRow &incident) const;

    FindingsModel *m_findings;
    KeyedRows<Top> m_top;
    QHash<QString, std::shared_ptr<Group>> m_groups; // by incident id
    QHash<QString, QString> m_incidentOf; // member finding id -> incident id
};
