#pragma once

#include "core/diagnosis.h"
#include "core/klusterstate.h"
#include "models/consolerole.h"
#include "models/keyedrows.h"
#include "models/klustertable.h"

#include <QVariantMap>

// The kluster's security group at a glance: the rules the pod network needs
// (present, missing, or only too narrow ones) and the kluster's instances
// with or without the group. Updated incrementally.
class SecurityModel : public KeyedTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SecurityModel)

public:
    enum Column
    {
        WhatColumn,
        SubjectColumn,
        StatusColumn,
        DetailColumn,
        ColumnCount
    };
    enum Role
    {
        SortRole = ConsoleRole::Sort,
        KeyRole = ConsoleRole::Key, // "rule:tcp", "instance:<name>"
        SeverityRole = ConsoleRole::Severity, // critical for a problem row; none otherwise
        FindingsRole = ConsoleRole::Findings,
        FilterRole = ConsoleRole::Filter,
        ProblemRole = ConsoleRole::FirstModelRole,
    };
    static QStringList filterFields();

    explicit SecurityModel(QObject *parent = nullptr);

    void setState(const KlusterState &state, const Diagnosis &diagnosis);
    int rowOf(const QString &key) const { return m_rows.rowOf(key); }
    QString groupSummary() const { return m_summary; }

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    struct Row
    {
        QString key; // "rule:tcp", "instance:<name>"
        QString what;
        QString subject;
        QString status;
        QString detail;
        bool problem = false;
        QStringList findings;
        friend bool operator==(const Row &a, const Row &b)
        {
            return a.key == b.key && a.status == b.status && a.detail == b.detail && a.problem == b.problem
                && a.findings == b.findings;
        }
    };

    // The rows for a state, made anywhere (a worker thread: nothing here touches the model),
    // then applied on the model's thread: the expensive part never runs on the GUI thread.
    struct Prepared : PreparedRows<Row>
    {
        QString summary;
        Prepared slice(int from, int n) const { return sliceOf(*this, from, n); }
    };
    static Prepared prepare(const KlusterState &state, const Diagnosis &diagnosis);
    static Prepared prepare(const TableInput &in) { return prepare(in.state, in.diagnosis); }
    void apply(const Prepared &prepared);
    // What the model holds, for a plan made on another thread.
    KeyedRows<Row>::Snapshot snapshot() const { return m_rows.snapshot(); }

private:
    KeyedRows<Row> m_rows;
    QString m_summary;
};
