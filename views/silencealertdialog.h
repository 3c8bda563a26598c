#pragma once

#include "core/alerts.h"
#include "services/repair/repairsilences.h"

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

// An alert silenced on its own, from the Overview's "Silence…" (docs/alertmanager.md): its matchers shown
// first (that alert and no other: its labels, and the identifying ones it lacks pinned empty), what else it
// would catch now (asked of Alertmanager before it can be confirmed), for how long, by whom, a comment;
// confirmed with its button, made in Alertmanager and recorded in the audit log. Flightdeck never expires
// it: no repair of its own ends it. Every text of the alert is shown as plain text.
class SilenceAlertDialog : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SilenceAlertDialog)

public:
    SilenceAlertDialog(AlertmanagerClient *client, const RepairSilences::Context &context, const Alert &alert,
        QWidget *parent = nullptr);

    QSpinBox *minutesBox() const { return m_minutes; }
    QLineEdit *commentBox() const { return m_comment; }
    QPushButton *silenceButton() const { return m_silence; }
    QString statusText() const;
    QString caughtText() const; // what else the silence would catch, as Alertmanager answered (or asking)

signals:
    void silenced(const QString &message); // made (or why not), once answered

private:
    void send();

    RepairSilences *m_silences;
    Alert m_alert;
    QString m_user;
    QLabel *m_matchers;
    QLabel *m_caught;
    QStringList m_klusterLabels;
    QSpinBox *m_minutes;
    QLineEdit *m_comment;
    QLabel *m_status;
    QDialogButtonBox *m_buttons;
    QPushButton *m_silence;
};
