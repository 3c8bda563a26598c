#pragma once

#include "core/finding.h"
#include "core/findinghistory.h"

#include <QHash>
#include <QList>
#include <QStringList>
#include <QWidget>
#include <optional>

class QFrame;
class QLabel;
class QPushButton;
struct Diagnosis;

// The Overview's incidents: the worst few of the kluster shown, each a row tinted with its severity (its
// title, severity, how many findings, since when, its one repair or why it has none) with its buttons
// (Findings, Repair…), and the rest counted beneath. The rows are made once, hidden while unused, and their
// words set in place: a refresh that changes what an incident says makes, polishes and shows no widget again.
// Hidden while the kluster has no incident.
class IncidentRows : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(IncidentRows)

public:
    explicit IncidentRows(QWidget *parent = nullptr);

    // Since when from `since` (the history, when it has them: else no time), at `at`; `withRepair`: repairs
    // are offered (a writable connection). The keyboard on one of the rows' buttons stays on the same
    // incident's button, else on the first, never thrown to the window's first widget.
    void setIncidents(const Diagnosis &diagnosis, const QHash<QString, FindingHistory> &since,
        const QDateTime &at, bool withRepair);
    QStringList lines() const { return m_lines; } // each incident's words as shown, then the count (tests)

    static constexpr int MostRows = 6; // the incidents given a row of their own; the rest are counted

signals:
    void repairRequested(const QString &incidentId); // a row's Repair button
    void showRequested(const QString &incidentId); // its "Findings" button

private:
    struct Row
    {
        QFrame *frame = nullptr;
        QLabel *icon = nullptr;
        QLabel *title = nullptr; // bold
        QLabel *details = nullptr; // its facts, and its repair or why it has none
        QPushButton *show = nullptr;
        QPushButton *repair = nullptr;
        QString id; // the incident it shows
        std::optional<Severity> severity; // its tint and icon (none: not yet set)
        qint64 paletteKey = 0; // the palette the tint was made from
    };
    Row makeRow(int index);

    QList<Row> m_rows; // MostRows of them, hidden while unused
    QLabel *m_rest; // "3 more incidents, 1 of them critical: …"
    QStringList m_lines;
    QString m_shown; // what the rows say, with their buttons: the same again changes nothing
};
