#pragma once

#include "views/command.h"

class ConsoleSession;
class RepairDialog;
struct Diagnosis;
class QWidget;

// Repair: previews and sends, through the repair dialog, the repairs of the findings selected in the view
// open (Ctrl+R; an incident selected: its one repair, naming each of its findings), or of every route finding
// of the kluster's router as one change (Ctrl+Alt+R). Enabled while
// there is something to repair and the views show the kluster the person chose; hidden on a read-only
// connection. Once sent, the kluster is refreshed; the dialog follows the refreshes that come while it is
// open. A protected kluster asks for its name typed; repairs a teammate started on the kluster lately (its
// Events, read again as the dialog opens) are warned of above the plan.
class RepairCommand : public Command
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RepairCommand)

public:
    enum class Scope
    {
        Selected,
        RouterRoutes,
    };

    RepairCommand(
        Scope scope, Context context, ConsoleSession *session, QWidget *window, QObject *parent = nullptr);

    QStringList targets() const; // what it would repair now
    void update() override;
    // The findings a repair of `findings` and `incidents` sends: an incident's repair findings (its one
    // repair), then each finding's own repair, but not of an incident's members chosen with it.
    static QStringList targetsOf(
        const Diagnosis &diagnosis, const QStringList &findings, const QStringList &incidents);
    // The repair dialog on an incident's one repair (the Overview's Repair button).
    void repairIncident(const QString &incidentId);

signals:
    void repairDialogOpened(QDialog *dialog);
    void repairsFinished(const KlusterKey &key, int fixed, int total);

protected:
    void run() override;

private:
    // The repair dialog for `ids` of the kluster shown (a retry: those a finished repair did not fix).
    // `allRoutes`: the plan is every route finding of the router (as read again before sending), not `ids`
    // alone.
    void openDialog(const QStringList &ids, const QStringList &incidents = {}, bool allRoutes = false);
    void offerSilences(RepairDialog *dialog);

    Scope m_scope;
    ConsoleSession *m_session;
    QWidget *m_window;
};
