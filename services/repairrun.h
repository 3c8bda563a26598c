#pragma once

#include "core/repairgate.h"
#include "services/repairexecutor.h"

#include <QObject>
#include <memory>
#include <optional>

// One run of repairs, the console's and flightdeck-cli's alike: the repair gate's steps (a finding's repair,
// or one change of a router for several route findings) sent one after the other, each by its own
// RepairExecutor (written ahead in the audit log, verified, marked on the history), and each finding's
// outcome said: one change for several findings gives each its own verdict from the one verification.
class RepairRun : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RepairRun)

public:
    struct Options
    {
        DiagnosisOptions diagnosis;
        bool override = false; // one deletion past TooManyUnhealthy
        std::optional<KubeTarget> kube; // the kluster's API server as given, else as Kubernikus hands it out
        // A step that failed or met a concurrent change ends the run (what follows was planned from the
        // same data): the command line's way. Otherwise every step is tried.
        bool stopOnFailure = false;
        QString eventInstance; // who writes the repair's Kubernetes Events; empty: this host and process
    };

    // `state` and `diagnosis`: the data the plans were made from (what the person confirmed).
    RepairRun(KeystoneSession *session, const QString &kluster, const KlusterState &state,
        const std::shared_ptr<const Diagnosis> &diagnosis, const QList<RepairGate::Step> &steps,
        const Options &options, QObject *parent = nullptr);

    void start();
    // Stops before the next step: each finding left is refused ("cancelled before it was sent"); a step in
    // flight completes.
    void cancel() { m_cancelled = true; }
    // Gives the step in flight up now (a deadline): its audit record is completed, and nothing more is sent.
    // False when no step was in flight (nothing is left to send either).
    bool abandon(const QString &why);
    bool isRunning() const { return m_running; }

signals:
    void stepStarted(const RepairGate::Step &step);
    void progress(const QString &findings, const QString &message); // `findings`: the step's ids, joined
    void stepFinished(const RepairGate::Step &step, const RepairExecutor::Outcome &outcome);
    void findingFinished(const QString &findingId, const RepairExecutor::Outcome &outcome);
    void finished();

private:
    void next();

    KeystoneSession *m_session;
    QString m_kluster;
    KlusterState m_state;
    std::shared_ptr<const Diagnosis> m_diagnosis;
    QList<RepairGate::Step> m_steps;
    Options m_options;
    RepairExecutor *m_executor = nullptr;
    bool m_cancelled = false;
    bool m_running = false;
};
