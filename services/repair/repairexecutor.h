#pragma once

#include "core/auditrecord.h"
#include "core/diagnosis.h"
#include "core/repairevent.h"
#include "services/kubernetes/kubernetesclient.h"
#include "services/openstack/keystonesession.h"
#include "services/openstack/klusterfetcher.h"

#include <QObject>
#include <functional>
#include <optional>

// Carries out one repair (diagnosis.md §3), or one combined route change of
// several findings (RepairGate::Step): refuses what the repair gate
// refuses (a refused plan, the remediation budget, missing evidence), sends the
// plan's requests in order, treats "already done" answers as done, stops when
// a guarded full-list update meets a concurrent change (412): it reads the
// router again and reports its new revision as `Changed`, for the user to
// check again and confirm a new plan (nothing is overwritten); verifies by
// fetching the kluster again. The audit log is written ahead: what is about to
// be sent is recorded (and on disk) before the first request, and nothing is
// sent when that record cannot be written; the outcome completes it. Teammates see the repair in the kluster:
// an Event (core/repairevent.h) is written once the audit record is, before the first request, and another
// once it is verified or has failed; one that cannot be written (403, the API down, no answer in
// EventTimeoutMs) never holds the repair back: the outcome and the audit record say so.
class RepairExecutor : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RepairExecutor)

public:
    struct Outcome
    {
        using Result
            = RepairResult; // Fixed, StillThere, Failed, Refused or Changed (412: re-planned, not sent)
        Result result = Result::Failed;
        QString message; // what happened, in words
        QList<AuditRequest> requests; // each request sent, with its status and outcome
        QString auditError; // non-empty when the audit record could not be written
        QStringList remaining; // after a verification: the findings of the step still there
        QStringList events; // what became of its Kubernetes Events (AuditRecord::events)
        QStringList eventErrors() const; // those not written, each "RepairStarted not written: why"
        // The router driver's sync (alone: not a teardown's) refused as not permitted (401, 403).
        bool refusedDeviceSync() const;
        static QString resultName(Result r) { return RepairResults::name(r); }
    };

    // One step of a confirmed plan (RepairGate::Step): its findings (several for the combined route change),
    // its plan, and the remediation budget the plan was confirmed under (zones held down included): it is
    // weighed with it once more, never with a diagnosis of its own. `options`: how the verification
    // diagnoses.
    RepairExecutor(KeystoneSession *session, const QString &kluster, const KlusterState &state,
        const QList<Finding> &findings, const RepairPlan &plan, const RemediationBudget &budget,
        const DiagnosisOptions &options, QObject *parent = nullptr);

    void setKubeTarget(const KubeTarget &target) { m_kubeTarget = target; }
    void setOverride(bool override) { m_override = override; } // one deletion past TooManyUnhealthy
    // A protected kluster is on the router: a teardown of its devices needs the override.
    void setProtectedRouter(bool on) { m_protectedRouter = on; }
    // Who writes the Events (RepairEvent::instance); by default this host and process
    // (RepairEventWriter::instance).
    void setEventInstance(const QString &instance) { m_eventInstance = instance; }
    static constexpr int EventTimeoutMs = 10000;

    void start();
    // Until finished() is emitted: sending, verifying, or writing the Event that says how it ended.
    bool isRunning() const { return m_started && !m_finished; }
    // Gives the repair up now (a deadline passed): it ends Failed with `why`, and the audit record is
    // completed with the requests sent so far; an Event being written is waited for no longer (said in
    // the record); when the repair had ended already and only its closing Event was being written, the
    // outcome stands and the record is completed now. A request in flight is not waited for: it is recorded
    // as sent without an answer ("mayHaveBeenSent"), since the cloud may have carried it out.
    void abandon(const QString &why);

signals:
    void progress(const QString &message);
    void finished(const Outcome &outcome);

private:
    void sendNext();
    void send(const PlannedRequest &request, HttpCall *call);
    QStringList findingIds() const;
    void verify();
    void conclude(Outcome::Result result, const QString &message);
    void complete();
    // The kluster's API server client: as given, else as Kubernikus hands it out (made once).
    void withKube(const std::function<void(KubernetesClient *, const Error &)> &then);
    void writeEvent(RepairEventPhase phase, int timeoutMs, const std::function<void()> &then);
    void reportConflict(const PlannedRequest &request);

    KeystoneSession *m_session;
    QString m_kluster;
    KlusterState m_state;
    QList<Finding> m_findings;
    RemediationBudget m_budget;
    DiagnosisOptions m_options;
    std::optional<RepairPlan> m_plan;
    std::optional<KubeTarget> m_kubeTarget;
    KubernetesClient *m_kube = nullptr; // for Kubernetes requests (node deletion), made when first needed
    bool m_override = false;
    bool m_protectedRouter = false;
    int m_next = 0;
    std::optional<PlannedRequest> m_inFlight; // sent, its answer not yet in
    Outcome m_outcome;
    QString m_auditId; // the started record of this repair, once written
    QString m_eventInstance;
    QDateTime m_startedAt;
    bool m_abandoned = false;
    bool m_finished = false; // finished() emitted
    // The Event being written, settled with how it went (once): what abandon() cuts short.
    std::function<void(const QString &)> m_pendingEvent;
    bool m_started = false;
    bool m_done = false;
};
