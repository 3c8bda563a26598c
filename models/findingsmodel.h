#pragma once

#include "core/acknowledgement.h"
#include "core/diagnosis.h"
#include "core/findinghistory.h"
#include "models/consolerole.h"
#include "models/keyedrows.h"
#include "models/klustertable.h"

#include <QHash>
#include <QList>
#include <QVariantMap>

// The findings of one kluster as a table for the console: severity, kind,
// subject, message. Updated incrementally by finding id: a refresh that
// changes three findings changes three rows, so selection and scroll
// position survive. Raw values in SortRole; words only in DisplayRole.
class FindingsModel : public KeyedTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FindingsModel)

public:
    enum Column
    {
        SeverityColumn,
        KindColumn,
        SubjectColumn,
        SinceColumn, // first seen, from the history (empty until it has recorded the finding)
        MessageColumn,
        RepairColumn,
        AcknowledgedColumn, // who handles it and until when (shown before the message)
        ColumnCount
    };
    enum Role
    {
        SortRole = ConsoleRole::Sort, // severity rank, kind, subject, ... as raw values
        IdRole = ConsoleRole::Key, // "<kind>:<subject>"
        SeverityRole = ConsoleRole::Severity,
        FindingsRole = ConsoleRole::Findings, // the row's own id, as a list
        FilterRole = ConsoleRole::Filter, // id, kind, subject, severity, incident and the objects it is about
        HasRepairRole = ConsoleRole::FirstModelRole,
        FirstSeenRole, // QDateTime: since when the finding is open (invalid: not recorded)
        FlappingRole, // bool: it resolved and came back several times within a day
        AcknowledgedRole, // bool: someone is handling it (an acknowledgement that holds)
        IncidentRole, // QString: the id of the incident it belongs to (FindingsTreeModel: an incident's own)
        IncidentRowRole, // bool: the row is an incident (FindingsTreeModel), its members below it
    };
    // The fields of `FilterRole`, for the filter box.
    static QStringList filterFields();

    explicit FindingsModel(QObject *parent = nullptr);

    // Replaces the findings with `diagnosis`'s: rows of findings that stay are
    // updated in place, gone ones removed, new ones appended.
    void setDiagnosis(const Diagnosis &diagnosis);
    const Finding *findingAt(int row) const;

    // Since when each open finding has been seen, as the history recorded it at `at` (the kluster's last
    // recorded refresh); a finding it does not know shows no time.
    void setHistory(const QHash<QString, FindingHistory> &history, const QDateTime &at);
    // "2 h 10 min, since 14:05", "new, 14:05", "over 3 h" (open on the first refresh recorded: when it began
    // is not known), "open when first recorded", with "flapping · " before when it is: for the table and the
    // repair dialog.
    static QString sinceText(const FindingHistory &history, const QDateTime &at);
    // Who handles which finding (by id) and until when, as the history keeps it; those that hold at `now`
    // for the finding as it is (Acknowledgement::holds) show, and sink below the unacknowledged of their
    // severity.
    void setAcknowledgements(const QHash<QString, Acknowledgement> &acknowledgements, const QDateTime &now);
    const Acknowledgement *acknowledgement(const QString &id) const;
    bool anyAcknowledged() const { return !m_holding.isEmpty(); }
    // "16:40" today, "Fri 09:10" another day: when an acknowledgement was made or runs out (local time).
    static QString acknowledgementTime(const QDateTime &t, const QDateTime &now);
    int rowOf(const QString &id) const { return m_rows.rowOf(id); }

    // What the history knows of a finding (null: not recorded yet), and when it was read.
    const FindingHistory *history(const QString &id) const;
    QDateTime historyAt() const { return m_historyAt; }

signals:
    void acknowledgedChanged(bool any); // whether any finding shown is acknowledged
    // The rows and incidents now are those of the last apply(): groupings follow (FindingsTreeModel).
    void applied();
    // Since when the findings are open (setHistory), or who handles them (setAcknowledgements), changed.
    void historyChanged();

public:
    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    struct Row
    {
        Finding finding;
        QString message; // words are made once per refresh, not per paint
        QString subject; // the subject as shown: a router by name and id
        bool hasRepair = false;
        bool notPermitted = false; // its repair is for someone else (diagnosis.md §8): a guide, not a send
        QVariantMap fields;
        QString incident; // the id of the incident it belongs to; empty: it stands alone
    };
    // An incident of the diagnosis (diagnosis.md §5), as the console shows it: its members are rows.
    struct IncidentRow
    {
        QString id;
        IncidentRule rule = IncidentRule::RecycledPodCidr;
        QString key;
        Severity severity = Severity::Critical;
        QString title;
        QStringList members; // finding ids, in the order of the findings
        QStringList repairFindings; // the findings whose plans make its repair (Incident::repairFindings)
        QString repairTitle; // its one repair's title; empty when it has none
        friend bool operator==(const IncidentRow &a, const IncidentRow &b)
        {
            return a.id == b.id && a.severity == b.severity && a.title == b.title && a.members == b.members
                && a.repairFindings == b.repairFindings && a.repairTitle == b.repairTitle;
        }
    };
    // The kluster's incidents, by severity, then id; each finding's (its row's `incident`).
    const QList<IncidentRow> &incidents() const { return m_incidents; }
    const IncidentRow *incident(const QString &id) const;
    // Why an incident of `rule` has no repair of its own (empty when it has one).
    static QString noRepairReason(IncidentRule rule);
    // The rows for a diagnosis, made anywhere (a worker thread), applied on the model's thread.
    struct Prepared : PreparedRows<Row>
    {
        QList<IncidentRow> incidents; // by severity, then id
        Prepared slice(int from, int n) const { return sliceOf(*this, from, n); }
    };
    static Prepared prepare(const Diagnosis &diagnosis);
    static Prepared prepare(const TableInput &in) { return prepare(in.diagnosis); }
    void apply(const Prepared &prepared);
    // What the model holds, for a plan made on another thread.
    KeyedRows<Row>::Snapshot snapshot() const { return m_rows.snapshot(); }

private:
    void updateHolding(); // m_holding from m_acknowledgements and the rows
    KeyedRows<Row> m_rows;
    QList<IncidentRow> m_incidents;
    QHash<QString, Acknowledgement> m_acknowledgements;
    QDateTime m_acknowledgementsAt;
    QHash<QString, Acknowledgement> m_holding; // those that hold for the rows' findings
    QHash<QString, FindingHistory> m_history;
    QDateTime m_historyAt;
};
