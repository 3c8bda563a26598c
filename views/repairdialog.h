#pragma once

#include "core/incidents.h"
#include "core/repairproposal.h"
#include "services/connection.h"

#include <QDialog>
#include <QJsonArray>
#include <QPointer>
#include <memory>

class QCheckBox;
class RepairSilenceBox;
class TeamRepairsPanel;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTextBrowser;

// The guided repair of one or more findings (diagnosis.md §3): what is
// wrong, what will be done, the exact requests, the remediation budget's
// verdict; Cancel is the default; deleting an instance asks for its name to be
// typed. While it runs: progress and a cancel. Afterwards, each finding's
// verified result inline (fixed, still there, failed with the server's own
// error); the audit record is written by the repair itself.
class RepairDialog : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RepairDialog)

public:
    // Draws `proposal` (the plan made once from the data shown) and sends exactly it once confirmed.
    RepairDialog(
        Connection *connection, std::shared_ptr<const RepairProposal> proposal, QWidget *parent = nullptr);

    const std::shared_ptr<const RepairProposal> &proposal() const { return m_proposal; }
    QStringList sendable() const { return m_sendable; } // the findings the confirm button sends
    // Since when the findings are open, from the history: "<id> (2 h 10 min, since 14:05)" each.
    void setSince(const QStringList &lines);
    QString sinceText() const;
    // After the repair, once read again: "The incident's findings now: 2 of 2 gone." (empty before).
    QString incidentResultText() const { return m_incidentResult; }
    QJsonArray plannedRequests() const; // the requests it sends, in order (as the dialog shows them)
    QLineEdit *confirmationBox() const { return m_confirmation; }
    QPushButton *confirmButton() const { return m_confirm; }
    // After a repair that did not fix everything: "Retry…", enabled once the kluster has been read again
    // (a retry is planned, previewed and confirmed anew from fresh data, never resent from the old).
    QPushButton *retryButton() const { return m_retry; }
    QStringList unfixed() const { return m_unfixed; }
    QCheckBox *overrideBox() const { return m_override; }
    QString resultsText() const; // the results as shown, in plain text
    QString statusText() const; // the line above the results (progress, then the verdict)
    QString typeToConfirmText() const; // what the dialog says of what must be typed, in plain text
    bool isRunning() const { return m_running; }
    // The kluster was refreshed while the dialog is open: the same choice is planned again from the fresh
    // data, and where the plan differs the new one is shown, to be confirmed anew (nothing is sent from the
    // old). After the repair: the incident's findings and what can be retried.
    void dataRefreshed(
        const std::shared_ptr<const KlusterFetch> &fetch, const std::shared_ptr<const Diagnosis> &fresh);
    // The data shown is stale (its last refresh failed): nothing may be sent.
    void setStale(const QString &why);
    // Repairs teammates started on this kluster lately (their Events; RepairEvents::describe lines): a
    // warning above the plan, never a block. Empty: none (the warning goes).
    // `inProgress`: one of them has not ended yet (no verified or failed Event).
    void setTeammates(const QStringList &lines, bool inProgress);
    QString teammatesText() const; // as shown, in plain text (empty: no warning)
    // The alerts of these findings may be silenced while repairing (views/repairsilencebox.h): the box is
    // shown above the confirmation, and the dialog makes and expires its silences around the repair.
    void setSilences(RepairSilenceBox *box);
    RepairSilenceBox *silences() const { return m_silenceBox; }

    // While running: stops before the next repair; otherwise closes.
    void reject() override;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

signals:
    void repairsFinished(int fixed, int total);
    // Read again just before sending, the kluster gave another plan: nothing was sent, the new plan is shown.
    void replanned();
    // Retry pressed: the findings not fixed that the fresh data still has, each with a repair.
    void retryRequested(const QStringList &findings);

private:
    // Shows the plan (what is wrong, the exact requests, the verdicts, what to type) as the one to confirm.
    void showProposal(const std::shared_ptr<const RepairProposal> &proposal);
    void updateConfirm();
    void start();
    void showStep(const QString &findingId, const RepairExecutor::Outcome &outcome);
    void showReplanned(); // the session found another plan before sending: it is shown, nothing was sent
    void offerRetry(const Diagnosis *fresh, const QString &why); // after the repair: what can be retried

    QPointer<Connection> m_connection;
    QString m_kluster;
    std::shared_ptr<const RepairProposal> m_proposal; // what a confirmation sends
    std::shared_ptr<const RepairProposal> m_replannedTo; // the session found another plan: shown once it ends
    QStringList m_replannedWhy;
    QStringList m_sendable;
    QList<RepairGate::Step> m_steps; // what the confirmation sends, in order
    QString m_typeToConfirm; // empty: no typing needed
    QTextBrowser *m_plan;
    QLabel *m_verdict;
    QLabel *m_typeLabel;
    QLineEdit *m_confirmation;
    QCheckBox *m_override;
    QProgressBar *m_progress;
    QLabel *m_status;
    QLabel *m_resultIcon;
    QLabel *m_title = nullptr;
    QLabel *m_since = nullptr;
    QLabel *m_incidentLabel = nullptr;
    TeamRepairsPanel *m_teammates = nullptr;
    RepairSilenceBox *m_silenceBox = nullptr;
    QTextBrowser *m_results;
    QDialogButtonBox *m_buttons;
    QPushButton *m_confirm;
    QPushButton *m_cancel;
    QPushButton *m_retry;
    QStringList m_unfixed; // the findings this repair did not fix
    QStringList m_retryable; // of those, what the fresh data still has with a repair
    bool m_running = false;
    bool m_done = false;
    bool m_stopRequested = false; // Stop pressed while it ran
    bool m_anySent = false; // a request of this run was sent
    int m_finished = 0;
    int m_fixed = 0;
    QStringList m_resultLines;
    QString m_blocked; // why nothing may be sent (stale or changed data); empty: it may
    QList<Incident> m_incidents; // whose cause this repairs (none: findings alone)
    QString m_incidentResult;
};
