#pragma once

#include "services/repair/repairsilences.h"

#include <QWidget>
#include <functional>

class QCheckBox;
class QLabel;

// The repair dialog's "silence while repairing" (docs/alertmanager.md "Silences"): shown when alerts that
// concern the findings fire unsilenced; the silences it would make listed first (matchers, until when, by
// whom, the comment). Ticked, they are made (each recorded in the audit log) before the repair is sent, and
// expired once it is verified; a repair that failed keeps them. A silence that cannot be made never holds
// the repair back: the dialog says so. Which other alerts each would silence is asked of Alertmanager as
// the dialog opens, and said beneath (in the alarm's colour when there are any).
class RepairSilenceBox : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RepairSilenceBox)

public:
    RepairSilenceBox(AlertmanagerClient *client, const RepairSilences::Context &context,
        const QList<SilenceRequest> &planned, const QStringList &findingIds, QWidget *parent = nullptr);

    QCheckBox *checkBox() const { return m_check; }
    bool wanted() const;
    // Makes the silences when ticked, then `then` (at once when not); `said` gets one line of what happened.
    void create(const std::function<void(const QString &said)> &then);
    // The repair ended: expired when `verified`, kept otherwise; `said` with one line (nothing when none
    // were made).
    void finish(bool verified, const std::function<void(const QString &said)> &said);
    QString plannedText() const; // the silences listed, in plain text
    QString caughtText() const; // what else they would silence, as Alertmanager answered

private:
    QCheckBox *m_check;
    QLabel *m_list;
    QLabel *m_caught;
    RepairSilences *m_silences;
    QList<SilenceRequest> m_planned;
    QStringList m_findings;
    bool m_made = false;
};
