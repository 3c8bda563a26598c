#include "views/repaircommand.h"

#include "console/alertwatch.h"
#include "console/consolesession.h"
#include "console/consoletext.h"
#include "console/guidedrepair.h"
#include "console/historyclient.h"
#include "console/klusterstore.h"
#include "console/refreshcoordinator.h"
#include "console/teamrepairs.h"
#include "core/repairgate.h"
#include "models/findingsmodel.h"
#include "views/guidedrepairdialog.h"
#include "views/icons.h"
#include "views/repairdialog.h"
#include "views/repairsilencebox.h"

#include <QAction>

namespace {

QAction *actionFor(RepairCommand::Scope scope)
{
    if (scope == RepairCommand::Scope::Selected) {
        auto *a = new QAction(Icons::named(QStringLiteral("action-repair")), QObject::tr("Re&pair…"));
        a->setShortcut(QKeySequence(QObject::tr("Ctrl+R")));
        return a;
    }
    auto *a = new QAction(QObject::tr("Repair &all route findings of this router…"));
    a->setShortcut(QKeySequence(QObject::tr("Ctrl+Alt+R")));
    a->setToolTip(QObject::tr(
        "Preview and send every route repair of the kluster's router as one change (Ctrl+Alt+R)"));
    return a;
}

} // namespace

RepairCommand::RepairCommand(
    Scope scope, Context context, ConsoleSession *session, QWidget *window, QObject *parent)
    : Command(std::move(context), actionFor(scope), parent)
    , m_scope(scope)
    , m_session(session)
    , m_window(window)
{ }

void RepairCommand::offerSilences(RepairDialog *dialog)
{
    const CommandContext c = context();
    AlertmanagerClient *client = m_session->alerts()->client(c.key.connection);
    if (!client || !c.data || !c.data->diagnosis || !c.connection)
        return;
    const KlusterAlerts alerts = m_session->alerts()->alertsOf(c.key, *c.data);
    if (!alerts.known)
        return;
    // The alerts of the findings the plan chose, named by what it does (as flightdeck-cli repair names them).
    const RepairProposal &proposal = *dialog->proposal();
    const QStringList ids = proposal.chosenIds();
    const RepairSilences::Context context = m_session->silenceContext(c.key);
    const QList<SilenceRequest> planned
        = RepairSilences::plan(alerts.alerts, ids, proposal.summary(), context.user,
            QDateTime::currentDateTimeUtc(), RepairSilences::DefaultMinutes, client->target().klusterLabels);
    if (planned.isEmpty())
        return;
    dialog->setSilences(new RepairSilenceBox(client, context, planned, ids));
}

QStringList RepairCommand::targets() const
{
    const CommandContext c = context();
    if (!c.repairable())
        return {};
    QStringList ids;
    if (m_scope == Scope::RouterRoutes) {
        for (const Finding *f : RepairGate::routeFindings(c.data->diagnosis->findings))
            ids << f->id();
        return ids;
    }
    return targetsOf(*c.data->diagnosis, c.selectedFindings, c.selectedIncidents);
}

QStringList RepairCommand::targetsOf(
    const Diagnosis &diagnosis, const QStringList &findings, const QStringList &incidents)
{
    QStringList ids;
    QStringList members;
    for (const Incident &i : diagnosis.incidents) {
        if (!incidents.contains(i.id()))
            continue;
        members << i.members;
        for (const QString &id : i.repairFindings()) {
            if (!ids.contains(id))
                ids << id;
        }
    }
    for (const QString &id : findings) {
        if (members.contains(id) || ids.contains(id))
            continue; // the incident's one repair stands for its members' own
        const Finding *f = diagnosis.find(id);
        if (f && f->repair())
            ids << id;
    }
    return ids;
}

void RepairCommand::repairIncident(const QString &incidentId)
{
    const CommandContext c = context();
    if (!c.repairable())
        return;
    openDialog(targetsOf(*c.data->diagnosis, {}, { incidentId }), { incidentId });
}

void RepairCommand::update()
{
    const CommandContext c = context();
    // Hidden on a read-only connection; disabled when there is nothing to repair.
    action()->setVisible(!c.connection || !c.connection->isReadOnly());
    const QStringList ids = targets();
    const qsizetype n = ids.size();
    action()->setEnabled(n > 0);
    if (m_scope == Scope::RouterRoutes) {
        action()->setText(n > 0 ? tr("Repair &all %1 route findings of this router…").arg(n)
                                : tr("Repair &all route findings of this router…"));
        return;
    }
    if (n > 0 && !c.selectedIncidents.isEmpty()) {
        action()->setText(c.selectedIncidents.size() == 1
                ? tr("Re&pair the incident…")
                : tr("Re&pair %1 incidents…").arg(c.selectedIncidents.size()));
        action()->setToolTip(tr("Preview and send the one repair of the selected incident's cause (Ctrl+R)"));
        return;
    }
    action()->setText(n > 1 ? tr("Re&pair %1 findings…").arg(n) : tr("Re&pair…"));
    // One finding these credentials may not repair: why, and what Ctrl+R opens instead (diagnosis.md §8).
    if (n == 1 && c.data && c.data->diagnosis) {
        const Finding *f = c.data->diagnosis->find(ids.constFirst());
        const std::optional<RepairPlan> plan = f ? f->repair() : std::nullopt;
        if (plan && plan->refusal == Refusal::NotPermitted) {
            action()->setText(tr("Guided manual re&pair…"));
            action()->setToolTip(tr("Not permitted: %1. Ctrl+R opens the commands for someone who may.")
                                     .arg(plan->refusalDetail));
            return;
        }
    }
    action()->setToolTip(n > 0 ? tr("Preview and send the repair of the selected rows' findings (Ctrl+R)")
                               : tr("Select a row with a finding that has a repair (Ctrl+R)"));
}

void RepairCommand::run()
{
    openDialog(targets(), m_scope == Scope::Selected ? context().selectedIncidents : QStringList(),
        m_scope == Scope::RouterRoutes);
}

void RepairCommand::openDialog(const QStringList &ids, const QStringList &incidents, bool allRoutes)
{
    const CommandContext c = context();
    if (ids.isEmpty() || !c.repairable() || !c.data->fetch)
        return; // nothing to repair, or the views do not show this kluster yet
    // The plan, made once from the data shown: the dialog draws it and a confirmation sends exactly it.
    RepairChoice choice;
    choice.findings = ids;
    choice.incidents = incidents;
    choice.allRoutes = allRoutes;
    choice.protectedKluster = m_session->isProtected(c.key); // its name typed, whatever the repair sends
    choice.protectedRouter = m_session->isRouterProtected(c.key);
    auto proposal
        = std::make_shared<const RepairProposal>(c.key.kluster, c.data->fetch, c.data->diagnosis, choice);
    // Nothing of it may be sent with these credentials, and someone else may (diagnosis.md §8): the guide for
    // them, never a confirmation that ends in a 403.
    if (proposal->gate().sendable().isEmpty()) {
        auto *guide
            = new GuidedRepair(c.key, proposal, m_session->store(), m_session->refreshes(), c.connection);
        if (!guide->isEmpty()) {
            auto *dialog = new GuidedRepairDialog(guide, m_window);
            open(dialog);
            emit repairDialogOpened(dialog);
            return;
        }
        delete guide;
    }
    auto *dialog = new RepairDialog(c.connection, proposal, m_window);
    QStringList since;
    if (const FindingsSince *history = m_session->history()->findingsSince(c.key)) {
        for (const QString &id : ids) {
            if (const auto h = history->findings.constFind(id); h != history->findings.cend())
                since << tr("%1 (%2)").arg(id, FindingsModel::sinceText(*h, history->at));
        }
    }
    dialog->setSince(since);
    const KlusterKey key = c.key;
    if (c.data->isStale())
        dialog->setStale(tr("the last refresh failed at %1").arg(ConsoleText::clock(c.data->errorAt)));
    // The kluster refreshed while the dialog is open: nothing is sent from data that no longer holds.
    const auto follow = [this, dialog, key](const KlusterKey &updated) {
        const KlusterData *now = m_session->store()->data(updated);
        if (updated != key || !now)
            return;
        if (now->diagnosis && now->fetch && !now->isStale())
            dialog->dataRefreshed(now->fetch, now->diagnosis);
        else if (now->isStale())
            dialog->setStale(SourceError::joined(now->error));
    };
    connect(m_session->refreshes(), &RefreshCoordinator::refreshed, dialog, follow);
    connect(m_session->refreshes(), &RefreshCoordinator::nodesChanged, dialog, follow);
    // A teammate's repair of this kluster lately: warned of above the plan, as known now and once its Events
    // are read again (while the person reads the plan).
    TeamRepairs *team = m_session->team();
    const auto warn = [team, dialog, key] {
        const QDateTime now = QDateTime::currentDateTimeUtc();
        bool inProgress = false;
        const QList<RepairEvent> started = team->teammatesStarted(key, now);
        for (const RepairEvent &e : started)
            inProgress = inProgress || e.phase == RepairEventPhase::Sent;
        dialog->setTeammates(RepairEvents::describeNewest(started, now, 3), inProgress);
    };
    warn();
    connect(team, &TeamRepairs::changed, dialog, [warn, key](const KlusterKey &changed) {
        if (changed == key)
            warn();
    });
    team->read(key);
    // The alerts of these findings firing unsilenced: silenced while repairing, when the person ticks it.
    offerSilences(dialog);
    connect(dialog, &RepairDialog::repairsFinished, this, [this, key](int fixed, int total) {
        m_session->refreshes()->refresh(key);
        emit repairsFinished(key, fixed, total);
    });
    // Retry: this dialog closes and a new one previews the repair from the data just read.
    connect(dialog, &RepairDialog::retryRequested, this, [this, dialog, key](const QStringList &findings) {
        dialog->accept();
        if (context().key == key)
            openDialog(findings);
        else
            emit message(tr("Retry: %1 is no longer the kluster shown; select it and repair again")
                             .arg(key.toString()),
                8000);
    });
    open(dialog);
    emit repairDialogOpened(dialog);
}
