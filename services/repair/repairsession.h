#pragma once

#include "core/repairproposal.h"
#include "services/repair/repairexecutor.h"

#include <QObject>
#include <QPointer>
#include <memory>
#include <optional>

class KlusterFetcher;

// One repair sent, the console's and flightdeck-cli's alike: the plan a person confirmed (a RepairProposal,
// made once) and nothing else. Just before the first request it reads the kluster again and makes the same
// choice into a plan from what it read: when anything differs (a finding gone, a route list or a revision
// changed, the budget now refusing), nothing is sent and replanned() carries the new plan, to be shown and
// confirmed again. Otherwise the confirmed steps are sent one after the other, each by its own
// RepairExecutor (written ahead in the audit log, verified, marked on the history), which weighs them with
// the confirmed plan's remediation budget (it never diagnoses again); each finding's outcome is said: one
// change for several findings gives each its own verdict from the one verification.
class RepairSession : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RepairSession)

public:
    struct Options
    {
        DiagnosisOptions diagnosis;
        bool override = false; // one deletion past TooManyUnhealthy
        std::optional<KubeTarget> kube; // the kluster's API server as given, else as Kubernikus hands it out
        // A step that failed or met a concurrent change ends the session (what follows was planned from the
        // same data): the command line's way. Otherwise every step is tried.
        bool stopOnFailure = false;
        QString eventInstance; // who writes the repair's Kubernetes Events; empty: this host and process
        // Read the kluster again and compare before sending (a snapshot has nothing to read: off).
        bool recheck = true;
    };

    RepairSession(KeystoneSession *session, std::shared_ptr<const RepairProposal> confirmed,
        const Options &options, QObject *parent = nullptr);

    void start();
    // Stops before the next step: each finding left is refused ("cancelled before it was sent"); a step in
    // flight completes.
    void cancel() { m_cancelled = true; }
    // Gives the step in flight up now (a deadline): its audit record is completed, and nothing more is sent.
    // False when no step was in flight (nothing is left to send either).
    bool abandon(const QString &why);
    bool isRunning() const { return m_running; }
    const std::shared_ptr<const RepairProposal> &confirmed() const { return m_confirmed; }

signals:
    // The plan made again from the kluster read just now differs from the one confirmed: nothing was sent.
    void replanned(const std::shared_ptr<const RepairProposal> &fresh, const QStringList &differences);
    void stepStarted(const RepairGate::Step &step);
    void progress(const QString &findings, const QString &message); // `findings`: the step's ids, joined
    void stepFinished(const RepairGate::Step &step, const RepairExecutor::Outcome &outcome);
    void findingFinished(const QString &findingId, const RepairExecutor::Outcome &outcome);
    void finished();

private:
    void recheck();
    void checked(const KlusterFetch &fetch);
    // Every step left ends as `result` without a request sent (each step said, when `asSteps`, and each
    // finding).
    void failAll(RepairExecutor::Outcome::Result result, const QString &message, bool asSteps = true);
    void next();

    KeystoneSession *m_session;
    std::shared_ptr<const RepairProposal> m_confirmed;
    Options m_options;
    QList<RepairGate::Step> m_steps; // left to send
    QPointer<KlusterFetcher> m_fetcher; // reading the kluster again, before the first request
    RepairExecutor *m_executor = nullptr;
    bool m_cancelled = false;
    bool m_running = false;
};

Q_DECLARE_METATYPE(std::shared_ptr<const RepairProposal>)
