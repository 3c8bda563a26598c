#include "services/repair/repairexecutor.h"

#include "core/apiparser.h"
#include "core/permission.h"
#include "core/repairgate.h"
#include "services/history/historystore.h"
#include "services/repair/auditlog.h"
#include "services/repair/eventwriter.h"

#include <QJsonDocument>
#include <QTimer>
#include <memory>
#include <utility>

RepairExecutor::RepairExecutor(KeystoneSession *session, const QString &kluster, const KlusterState &state,
    const QList<Finding> &findings, const RepairPlan &plan, const RemediationBudget &budget,
    const DiagnosisOptions &options, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_kluster(kluster)
    , m_state(state)
    , m_findings(findings)
    , m_budget(budget)
    , m_options(options)
    , m_plan(plan)
{ }

QStringList RepairExecutor::findingIds() const
{
    QStringList ids;
    for (const Finding &f : m_findings)
        ids << f.id();
    return ids;
}

bool RepairExecutor::Outcome::refusedDeviceSync() const
{
    return requests.size() == 1 && (requests.first().status == 401 || requests.first().status == 403)
        && requests.first().request.method == QLatin1String("PUT")
        && requests.first().request.path.startsWith(QLatin1String("/v2.0/asr1k/routers/"));
}

QStringList RepairExecutor::Outcome::eventErrors() const
{
    QStringList out;
    for (const QString &e : events) {
        if (e.contains(QLatin1String(" not written")))
            out << e;
    }
    return out;
}

void RepairExecutor::withKube(const std::function<void(KubernetesClient *, const Error &)> &then)
{
    if (m_kube) {
        then(m_kube, Error());
        return;
    }
    auto made = [this, then](const std::optional<KubeTarget> &target, const Error &error) {
        if (!target) {
            then(nullptr, error);
            return;
        }
        if (!m_kube)
            m_kube = new KubernetesClient(m_session->client(), *target, this);
        then(m_kube, Error());
    };
    if (m_kubeTarget)
        made(m_kubeTarget, Error());
    else
        KlusterFetcher::requestCredentials(m_session, m_kluster, this, made);
}

void RepairExecutor::writeEvent(RepairEventPhase phase, int timeoutMs, const std::function<void()> &then)
{
    RepairEvent event;
    event.phase = phase;
    event.time = phase == RepairEventPhase::Sent ? m_startedAt : QDateTime::currentDateTimeUtc();
    event.kluster = m_kluster;
    event.findings = findingIds();
    event.repair = m_plan ? m_plan->title : QString();
    event.user = m_session->userName();
    event.auditId = m_auditId;
    event.instance = m_eventInstance.isEmpty() ? RepairEventWriter::instance() : m_eventInstance;
    if (phase != RepairEventPhase::Sent)
        event.outcome
            = QStringLiteral("%1: %2").arg(Outcome::resultName(m_outcome.result), m_outcome.message);
    // The node the repair concerns, when it is about one.
    if (m_findings.size() == 1) {
        const QStringList nodes = m_findings.first().affected().nodes;
        if (nodes.size() == 1)
            event.node = nodes.first();
    }
    const QString reason = RepairEventPhases::reason(phase);
    auto settled = std::make_shared<bool>(false);
    auto settle = [this, reason, then, settled](const QString &how) {
        if (*settled)
            return;
        *settled = true;
        m_pendingEvent = nullptr;
        m_outcome.events << reason + how;
        if (how != QLatin1String(" written"))
            emit progress(QStringLiteral("the Kubernetes Event %1 was not written%2 (the repair goes on)")
                              .arg(reason, how.mid(QStringLiteral(" not written").size())));
        then();
    };
    m_pendingEvent = settle;
    QTimer::singleShot(timeoutMs, this, [settle, timeoutMs] {
        settle(QStringLiteral(" not written: no answer in %1 s").arg(timeoutMs / 1000.0));
    });
    if (m_state.kluster.gone) { // no API server to write to: the audit log alone records it
        settle(QStringLiteral(" not written: the kluster is gone"));
        return;
    }
    withKube([this, event, settle, settled](KubernetesClient *kube, const Error &error) {
        if (*settled)
            return;
        if (!kube) {
            settle(QStringLiteral(" not written: the kluster's Kubernetes API is unknown (%1)")
                       .arg(error.toString()));
            return;
        }
        connect(RepairEventWriter::write(kube, event), &HttpCall::finished, this,
            [settle](const ApiResponse &r) { settle(RepairEventWriter::outcome(r)); });
    });
}

void RepairExecutor::abandon(const QString &why)
{
    if (!isRunning())
        return;
    m_abandoned = true;
    if (m_done) {
        // It ended; only the Event that says how is being written: no longer waited for.
        if (const auto pending = std::exchange(m_pendingEvent, nullptr))
            pending(QStringLiteral(" not written: given up waiting for it (%1)").arg(why));
        return;
    }
    const qsizetype answered = m_outcome.requests.size();
    if (m_inFlight) {
        // Sent, and its answer never came: the cloud may well have acted on it. Recorded as such, never as
        // not sent.
        m_outcome.requests.append(
            AuditRequest { *m_inFlight, 0, QStringLiteral("no answer: may have been carried out"), true });
        m_inFlight.reset();
        conclude(Outcome::Result::Failed,
            why
                + QStringLiteral(" (requests answered: %1; one more was sent and not answered: it may have "
                                 "changed the cloud; check the cloud)")
                      .arg(answered));
        return;
    }
    conclude(Outcome::Result::Failed,
        why + QStringLiteral(" (requests sent so far: %1; check the cloud)").arg(answered));
}

void RepairExecutor::start()
{
    m_started = true;
    if (m_findings.isEmpty()) {
        conclude(Outcome::Result::Refused, QStringLiteral("no finding to repair"));
        return;
    }
    // Several findings share one plan only as a route change; it carries its own refusal, and no deletion
    // (a batch deletes only what the gate let through one by one, never on an override).
    // The budget the plan was confirmed under: the zones its zone-outage incidents hold included
    // (ZoneDisruption), not only the count of unhealthy nodes.
    RepairGate::Decision decision
        = RepairGate::judge(m_findings.first(), m_plan, m_budget, m_protectedRouter);
    if (m_findings.size() > 1 && (!m_plan || (!m_plan->changesRoutes() && !m_plan->actsOnDevices()))) {
        conclude(Outcome::Result::Refused,
            QStringLiteral("several findings are sent as one only as a route change or one request to a "
                           "router's devices"));
        return;
    }
    if (m_plan && m_plan->form != PlanForm::Exact) { // only ever combined, never sent as it stands
        conclude(
            Outcome::Result::Refused, QStringLiteral("the plan is not an exact one (a part of a change)"));
        return;
    }
    if (decision.verdict == RepairGate::Verdict::NoRepair) {
        conclude(Outcome::Result::Refused,
            QStringLiteral("%1 has no repair of its own").arg(findingKindName(m_findings.first().kind)));
        return;
    }
    // The override lets one deletion or teardown through alone; a repair Kubernikus' automation is due to
    // make, in any number.
    if (!decision.mayBeSent(
            m_override && (m_findings.size() == 1 || decision.reason == Refusal::AutomationPending))) {
        conclude(Outcome::Result::Refused,
            decision.why(decision.reason == Refusal::ProtectedRouter ? QStringLiteral(
                             "a protected router's devices are torn down only alone, with an explicit "
                             "override")
                    : decision.reason == Refusal::AutomationPending
                    ? QStringLiteral("the explicit override repairs it now instead of waiting")
                    : QStringLiteral("one instance at a time can be deleted with an explicit override")));
        return;
    }
    // Written ahead: the record of what is about to be sent is on disk before the first request leaves.
    // Since when the finding was open, from the local history (when it has it): the audit then tells how long
    // it took from first seen to the repair.
    QDateTime firstSeen;
    {
        HistoryStore history; // a quick look: this thread serves every connection
        history.setReadOnly(true);
        history.setBusyTimeout(100);
        if (history.open()) {
            const QHash<QString, FindingHistory> open = history.openFindings(
                HistoryStore::klusterKey(m_state.cloud, m_state.region, m_state.kluster.name),
                QDateTime::currentDateTimeUtc());
            for (const QString &id : findingIds()) {
                const QDateTime seen = open.value(id).firstSeen;
                if (seen.isValid() && (!firstSeen.isValid() || seen < firstSeen))
                    firstSeen = seen;
            }
        }
    }
    QString error;
    AuditRecord started;
    started.cloud = m_session->config().name;
    started.user = m_session->userName();
    started.project = m_session->projectName();
    started.projectId = m_session->projectId();
    started.kluster = m_kluster;
    started.findings = findingIds();
    started.repair = m_plan->title;
    started.override = m_override;
    started.planned = m_plan->requests;
    started.firstSeen = firstSeen;
    m_auditId = AuditLog::begin(started, &error);
    if (m_auditId.isEmpty()) {
        m_outcome.auditError = error;
        conclude(Outcome::Result::Failed,
            QStringLiteral("nothing was sent: the audit record could not be written first (%1)").arg(error));
        return;
    }
    // Teammates see it before the first request leaves (or it is said why they cannot).
    m_startedAt = QDateTime::currentDateTimeUtc();
    emit progress(QStringLiteral("writing the Kubernetes Event RepairStarted"));
    writeEvent(RepairEventPhase::Sent, EventTimeoutMs, [this] { sendNext(); });
}

// Answers that mean the repair was already in place (§3 rule 6).
static QString alreadyDone(const PlannedRequest &request, const ApiResponse &r)
{
    if (request.method == QLatin1String("DELETE") && r.status == 404)
        return QStringLiteral("already gone");
    if (r.status == 409 && r.error.serverMessage.contains(QStringLiteral("SecurityGroupRuleExists")))
        return QStringLiteral("the rule already exists");
    if (r.status == 400 && request.path.endsWith(QLatin1String("/action"))
        && r.error.serverMessage.contains(QStringLiteral("Duplicate items in the list")))
        return QStringLiteral("the server already has the group");
    if (r.status == 409 && request.path.endsWith(QLatin1String("/action"))
        && (r.error.serverMessage.contains(QStringLiteral("vm_state active"))
            || r.error.serverMessage.contains(QStringLiteral("task_state powering-on"))
            || r.error.serverMessage.contains(QStringLiteral("task_state resuming"))
            || r.error.serverMessage.contains(QStringLiteral("task_state unpausing")))) {
        const QJsonObject body = request.body.toObject();
        if (body.contains(QStringLiteral("os-start")) || body.contains(QStringLiteral("resume"))
            || body.contains(QStringLiteral("unpause")))
            return QStringLiteral("the server is already running or starting");
    }
    if (r.status == 400 && request.path.startsWith(QLatin1String("/v2.0/ports/"))
        && r.error.serverMessage.contains(QStringLiteral("DuplicateAddressPairInRequest")))
        return QStringLiteral("the port already allows the pod network");
    return QString();
}

void RepairExecutor::sendNext()
{
    if (m_done)
        return; // given up: nothing more is sent
    if (m_next >= m_plan->requests.size()) {
        verify();
        return;
    }
    const PlannedRequest request = m_plan->requests.at(m_next);
    QList<QPair<QByteArray, QByteArray>> headers;
    for (auto it = request.headers.begin(); it != request.headers.end(); ++it)
        headers.append({ it.key().toUtf8(), it.value().toString().toUtf8() });
    const QByteArray body = request.body.isNull()
        ? QByteArray()
        : QJsonDocument(request.body.toObject()).toJson(QJsonDocument::Compact);
    emit progress(QStringLiteral("%1 %2 %3").arg(request.method, request.service, request.path));
    if (request.service != QLatin1String("kubernetes")) {
        send(request, m_session->send(request.service, request.method.toUtf8(), request.path, body, headers));
        return;
    }
    // The kluster's own API server: as given (a kubeconfig), else as Kubernikus hands it out.
    withKube([this, request, body](KubernetesClient *kube, const Error &error) {
        if (m_done)
            return;
        if (!kube) {
            conclude(Outcome::Result::Failed,
                QStringLiteral("nothing was sent: the kluster's Kubernetes API is unknown (%1)")
                    .arg(error.toString()));
            return;
        }
        send(request, kube->send(request.method.toUtf8(), request.path, body));
    });
}

void RepairExecutor::send(const PlannedRequest &request, HttpCall *call)
{
    m_inFlight = request;
    connect(call, &HttpCall::finished, this, [this, request](const ApiResponse &r) {
        if (m_done)
            return;
        m_inFlight.reset();
        QString outcome = QStringLiteral("done");
        const QString already = r.error.isError() ? alreadyDone(request, r) : QString();
        if (!already.isEmpty())
            outcome = QStringLiteral("already done: ") + already;
        else if (r.error.isError())
            outcome = QStringLiteral("failed: ") + r.error.toString();
        // The request as sent, and its answer.
        m_outcome.requests.append(AuditRequest { request, r.status, outcome, false });
        // A refusal the preflight did not expect (diagnosis.md §8): remembered, so that no later plan of the
        // session offers what these credentials may not do.
        // The ASR driver refuses with 401 what its policy does not let through.
        const bool refused
            = r.status == 403 || (r.status == 401 && request.path.startsWith(QLatin1String("/v2.0/asr1k/")));
        if (refused && request.service != QLatin1String("kubernetes"))
            if (const std::shared_ptr<const Credentials> c = m_session->credentials())
                m_session->noteUnexpectedRefusal(c->policy().keyOf(request),
                    r.error.serverMessage.isEmpty() ? r.error.toString() : r.error.serverMessage);
        if (m_plan && m_plan->action == RepairPlan::Action::RenewRoutes && m_next > 0 && r.error.isError()
            && already.isEmpty()) {
            // The nudge's removal went through, its addition did not: the route is gone from Neutron now.
            conclude(Outcome::Result::Failed,
                QStringLiteral(
                    "the route was removed from router %1 in Neutron and not added again (%2): "
                    "it is missing there and on the devices now; add it back at once: PUT network %3 "
                    "%4")
                    .arg(m_plan->routerName, r.error.toString(), request.path,
                        QString::fromUtf8(
                            QJsonDocument(request.body.toObject()).toJson(QJsonDocument::Compact))));
            return;
        }
        if (r.status == 412) {
            // Someone else changed the router between our read and our write:
            // nothing was overwritten. Read it again and report what it holds now.
            reportConflict(request);
            return;
        }
        if (r.error.isError() && already.isEmpty()) {
            if (m_plan && m_plan->action == RepairPlan::Action::ResetDevices
                && request.method == QLatin1String("PUT"))
                // The teardown went through: the router's routes are gone from its devices until a sync.
                conclude(Outcome::Result::Failed,
                    QStringLiteral(
                        "router %1's configuration is torn down on its devices and the sync failed (%2): "
                        "every kluster on it has no routes there until a sync; send PUT network %3 now")
                        .arg(m_plan->routerName, r.error.toString(), request.path));
            else
                conclude(Outcome::Result::Failed, r.error.toString());
            return;
        }
        ++m_next;
        sendNext();
    });
}

void RepairExecutor::reportConflict(const PlannedRequest &request)
{
    // The port or the router the request changes: read it again and say what it holds now.
    const bool port = request.path.startsWith(QLatin1String("/v2.0/ports/"));
    const QString what = port ? QStringLiteral("port") : QStringLiteral("router");
    emit progress(QStringLiteral("the %1 changed meanwhile (412): nothing was overwritten; reading it again")
                      .arg(what));
    const QString path = port ? request.path : QStringLiteral("/v2.0/routers/") + m_state.router.id;
    HttpCall *call = m_session->send(QStringLiteral("network"), "GET", path);
    connect(call, &HttpCall::finished, this, [this, port, what](const ApiResponse &r) {
        qint64 revision = -1;
        QString holds;
        const Error error = r.read([&](const QJsonObject &body) {
            if (port) {
                const Port now = ApiParser::parsePort(QStringLiteral("port"), body);
                revision = now.revision;
                holds = QStringLiteral("%1 allowed address pair(s)").arg(now.allowedAddressPairs.size());
            } else {
                const Router router = ApiParser::parseRouter(QStringLiteral("router"), body);
                revision = router.revisionNumber;
                holds = QStringLiteral("%1 routes").arg(router.routes.size());
            }
        });
        if (error.isError()) {
            conclude(Outcome::Result::Failed,
                QStringLiteral("re-reading the %1 after a 412: %2").arg(what, error.toString()));
            return;
        }
        conclude(Outcome::Result::Changed,
            QStringLiteral("the %1 changed while the repair was being sent (412, now revision %2, %3); "
                           "nothing was overwritten. Check again and confirm the new plan.")
                .arg(what)
                .arg(revision)
                .arg(holds));
    });
}

void RepairExecutor::verify()
{
    emit progress(QStringLiteral("verifying: fetching the kluster again"));
    auto *fetcher = new KlusterFetcher(m_session, m_kluster, this);
    if (m_kubeTarget)
        fetcher->setKubeTarget(*m_kubeTarget);
    fetcher->setRouteLimit(m_state.maxRoutes);
    connect(fetcher, &KlusterFetcher::finished, this, [this, fetcher](const KlusterFetch &fetch) {
        fetcher->deleteLater();
        const Diagnosis after = Diagnosis::run(fetch.state, m_options);
        for (const Finding &f : std::as_const(m_findings)) {
            if (after.find(f.id()))
                m_outcome.remaining << f.id();
        }
        const QString ids = findingIds().join(QStringLiteral(", "));
        if (m_plan && m_plan->verifiedOnDevices()) {
            // Only the devices read again prove it: a device source unread (or unjudged) hides every device
            // finding; a route the devices lack after a teardown means the sync has not programmed it (yet).
            if (!fetch.state.routerDeviceSource.known) {
                conclude(Outcome::Result::Failed,
                    QStringLiteral(
                        "sent, but could not verify: the router's devices could not be read again (%1)")
                        .arg(fetch.state.routerDeviceSource.error.isEmpty()
                                ? SourceError::joined(fetch.errors)
                                : fetch.state.routerDeviceSource.error));
                return;
            }
            QStringList lacking;
            for (const Finding &f : after.findings) {
                if (f.kind == FindingKind::DeviceRouteMissing)
                    lacking << f.id();
            }
            if (m_plan->action == RepairPlan::Action::ResetDevices && !lacking.isEmpty()) {
                conclude(Outcome::Result::StillThere,
                    QStringLiteral(
                        "sent, but the router's devices lack routes Neutron has after the sync: %1")
                        .arg(lacking.join(QStringLiteral(", "))));
                return;
            }
        }
        if (!fetch.errors.isEmpty() && m_outcome.remaining.size() < m_findings.size()) {
            // Gone, but maybe only because its source failed: not proof.
            const KlusterState &st = fetch.state;
            // What a kluster left behind is proven gone by its own lists; the rest by the kluster's.
            const bool sourcesSound = m_plan && m_plan->deletesDebris()
                ? st.klusterSource.known
                    && (m_plan->action == RepairPlan::Action::DeleteLoadBalancer
                            ? st.loadBalancersSource.known
                            : st.volumesSource.known)
                : st.klusterSource.known && st.serversSource.known && st.routerSource.known
                    && st.securityGroupsSource.known && st.nodesSource.known;
            if (!sourcesSound) {
                conclude(Outcome::Result::Failed,
                    QStringLiteral("sent, but could not verify: ") + SourceError::joined(fetch.errors));
                return;
            }
        }
        if (!m_outcome.remaining.isEmpty())
            conclude(Outcome::Result::StillThere,
                QStringLiteral("sent, but %1 %2 still there")
                    .arg(m_outcome.remaining.join(QStringLiteral(", ")),
                        m_outcome.remaining.size() == 1 ? QStringLiteral("is") : QStringLiteral("are")));
        else
            conclude(Outcome::Result::Fixed,
                QStringLiteral("%1 %2 gone")
                    .arg(ids, m_findings.size() == 1 ? QStringLiteral("is") : QStringLiteral("are")));
    });
    fetcher->start();
}

void RepairExecutor::conclude(Outcome::Result result, const QString &message)
{
    if (m_done)
        return; // given up already: a late answer changes nothing
    m_done = true;
    m_outcome.result = result;
    m_outcome.message = message;
    if (m_auditId.isEmpty()) { // nothing was sent: nothing for teammates to see, nothing to complete
        m_finished = true;
        emit finished(m_outcome);
        return;
    }
    // The RepairStarted Event still unanswered (given up before it was): not waited for; nothing more is
    // sent (m_done), and the record says it may or may not have been written.
    if (const auto pending = std::exchange(m_pendingEvent, nullptr))
        pending(QStringLiteral(" not answered before the repair ended (it may have been written)"));
    // Teammates see how it ended; given up on a deadline, the Event gets little time of its own.
    writeEvent(result == Outcome::Result::Fixed ? RepairEventPhase::Verified : RepairEventPhase::Failed,
        m_abandoned ? 2000 : EventTimeoutMs, [this] { complete(); });
}

void RepairExecutor::complete()
{
    const Outcome::Result result = m_outcome.result;
    { // something was (or may have been) sent: its outcome completes the record
        QString error;
        if (!AuditLog::finish(
                m_auditId, m_outcome.requests, result, m_outcome.message, &error, m_outcome.events))
            m_outcome.auditError = error;
        // Marked on the kluster's trends; a history that cannot be written changes nothing here.
        HistoryStore history;
        if (history.open())
            history.recordRepair(
                HistoryStore::klusterKey(m_state.cloud, m_state.region, m_state.kluster.name),
                findingIds().join(QStringLiteral(", ")), Outcome::resultName(result));
    }
    m_finished = true;
    emit finished(m_outcome);
}
