// The worker of a connection, on its network thread: its repairs (a confirmed plan sent as it stands) and
// their record teammates read (the kluster's repair Events), and the boot evidence a finding's details ask
// for. Sessions, listings and refreshes are in connectionworker.cpp.
#include "core/repairproposal.h"
#include "services/connectionworker.h"
#include "services/kubernetes/kubernetesclient.h"
#include "services/openstack/bootevidencereader.h"
#include "services/openstack/klusterfetcher.h"
#include "services/repair/eventwriter.h"

#include <QSet>
#include <QUrl>

void ConnectionWorker::repair(const std::shared_ptr<const RepairProposal> &confirmed, bool override)
{
    m_cancelPending = false;
    withSession([this, confirmed, override](const Error &error) {
        if (error.isError()) {
            m_cancelPending = false;
            RepairExecutor::Outcome failed;
            failed.message = error.toString();
            for (const QString &id : confirmed->sendable())
                emit repairStepFinished(id, failed);
            emit repairFinished();
            return;
        }
        // Exactly the plan confirmed: its refused findings said as such, its steps sent once the kluster read
        // again gives the same plan.
        for (const RepairGate::Decision &d : confirmed->gate().decisions()) {
            if (!confirmed->sendable().contains(d.finding->id())) {
                RepairExecutor::Outcome refused;
                refused.result = RepairExecutor::Outcome::Result::Refused;
                refused.message = d.why(tr("repair this one instance alone to override"));
                emit repairStepFinished(d.finding->id(), refused);
            }
        }
        RepairSession::Options options;
        options.diagnosis = m_spec.options;
        options.override = override;
        options.kube = m_kubeTarget;
        options.eventInstance = m_eventInstance;
        options.recheck = !m_spec.isSnapshot();
        m_repair = new RepairSession(m_session.get(), confirmed, options, this);
        if (std::exchange(m_cancelPending, false))
            m_repair->cancel(); // Stop came first: each step ends cancelled, nothing is sent
        connect(m_repair, &RepairSession::stepStarted, this, [this](const RepairGate::Step &step) {
            emit repairProgress(
                step.findingIds.join(QStringLiteral(", ")), tr("sending: %1").arg(step.plan.title));
        });
        connect(m_repair, &RepairSession::progress, this, &ConnectionWorker::repairProgress);
        connect(m_repair, &RepairSession::replanned, this,
            [this](const std::shared_ptr<const RepairProposal> &fresh, const QStringList &differences) {
                // The kluster as the session just read it is the kluster's data now: the views show what the
                // new plan was made from, and the nodes are watched on from the version it listed.
                RefreshResult result;
                result.key.connection = m_spec.name;
                result.key.kluster = fresh->kluster();
                result.fetchedAt = QDateTime::currentDateTimeUtc();
                result.fetch = fresh->fetch();
                result.diagnosis = fresh->diagnosis();
                result.errors = fresh->fetch()->errors;
                m_watches->follow(fresh->kluster(), result, true);
                emit nodesChanged(result); // in place, as the nodes' watch brings changes: no refresh's count
                emit repairReplanned(fresh, differences);
            });
        connect(m_repair, &RepairSession::findingFinished, this,
            [this](const QString &findingId, RepairExecutor::Outcome outcome) {
                if (outcome.refusedDeviceSync() && !m_spec.options.nudgeDeviceRoutes) {
                    // Remembered for this connection: a route a device lacks is repaired by the nudge now.
                    m_spec.options.nudgeDeviceRoutes = true;
                    m_watches->setOptions(m_spec.options);
                    outcome.message
                        += tr(" — these credentials may not send the router driver's sync: from now "
                              "on this connection repairs a route the ACTIVE device lacks by "
                              "removing it in Neutron and adding it again (refresh, then repair)");
                }
                emit repairStepFinished(findingId, outcome);
            });
        connect(m_repair, &RepairSession::finished, this, [this, run = m_repair] {
            run->deleteLater();
            if (m_repair == run)
                m_repair = nullptr;
            emit repairFinished();
        });
        m_repair->start();
    });
}

void ConnectionWorker::readRepairEvents(const QString &kluster)
{
    if (m_spec.isSnapshot() || m_readingEvents.contains(kluster))
        return;
    m_readingEvents.insert(kluster);
    withSession([this, kluster](const Error &error) {
        if (error.isError()) {
            m_readingEvents.remove(kluster);
            emit repairEventsRead(kluster, {}, error);
            return;
        }
        auto read = [this, kluster](const std::optional<KubeTarget> &target, const Error &error) {
            if (!target) {
                m_readingEvents.remove(kluster);
                emit repairEventsRead(kluster, {}, error);
                return;
            }
            auto *kube = new KubernetesClient(m_client.get(), *target, this);
            HttpCall *call = kube->send("GET",
                QStringLiteral("/apis/events.k8s.io/v1/namespaces/default/events?labelSelector=%1")
                    .arg(QString::fromLatin1(
                        QUrl::toPercentEncoding(QStringLiteral("app.kubernetes.io/managed-by=flightdeck")))));
            connect(call, &HttpCall::finished, this, [this, kube, kluster](const ApiResponse &r) {
                kube->deleteLater();
                m_readingEvents.remove(kluster);
                QList<RepairEvent> events;
                const Error error
                    = r.read([&](const QJsonObject &body) { events = RepairEvent::fromEventList(body); });
                // What only the kluster's Events claim is told from what this machine's audit log holds.
                QString why;
                m_auditLog.update(&why);
                QSet<QString> recorded;
                for (const AuditRecord &record : m_auditLog.records())
                    recorded.insert(record.id);
                for (RepairEvent &e : events)
                    e.inAuditLog = recorded.contains(e.auditId);
                emit repairEventsRead(kluster, events, error);
            });
        };
        withKubeTarget(kluster, read);
    });
}

// The credentials the kluster's nodes were last listed with, else those given, else Kubernikus'.
void ConnectionWorker::withKubeTarget(
    const QString &kluster, const std::function<void(const std::optional<KubeTarget> &, const Error &)> &then)
{
    if (m_kubeTarget)
        then(m_kubeTarget, Error());
    else if (m_credentials.contains(kluster))
        then(m_credentials.value(kluster), Error());
    else
        KlusterFetcher::requestCredentials(m_session.get(), kluster, this, then);
}

void ConnectionWorker::writeRepairEvent(const QString &kluster, RepairEvent event)
{
    if (!m_eventInstance.isEmpty())
        event.instance = m_eventInstance;
    withSession([this, kluster, event](const Error &error) {
        const QString reason = RepairEventPhases::reason(event.phase);
        if (error.isError()) {
            emit repairEventWritten(kluster, reason + QStringLiteral(" not written: ") + error.toString());
            return;
        }
        withKubeTarget(
            kluster, [this, kluster, event, reason](const std::optional<KubeTarget> &target, const Error &e) {
                if (!target) {
                    emit repairEventWritten(
                        kluster, reason + QStringLiteral(" not written: ") + e.toString());
                    return;
                }
                auto *kube = new KubernetesClient(m_client.get(), *target, this);
                connect(RepairEventWriter::write(kube, event), &HttpCall::finished, this,
                    [this, kube, kluster, reason](const ApiResponse &r) {
                        kube->deleteLater();
                        emit repairEventWritten(kluster, reason + RepairEventWriter::outcome(r));
                    });
            });
    });
}

void ConnectionWorker::readBootEvidence(const QString &kluster, const BootEvidences::Server &server)
{
    withSession([this, kluster, server](const Error &error) {
        if (error.isError()) {
            BootEvidence none;
            none.serverId = server.id;
            none.serverName = server.name;
            none.readAt = QDateTime::currentDateTimeUtc();
            none.consoleError = none.actionsError = error.toString();
            emit bootEvidenceRead(kluster, none);
            return;
        }
        BootEvidenceReader::read(m_session.get(), server, this,
            [this, kluster](const BootEvidence &evidence) { emit bootEvidenceRead(kluster, evidence); });
    });
}

void ConnectionWorker::cancelRepair()
{
    if (m_repair)
        m_repair->cancel();
    else
        m_cancelPending = true; // asked before the session exists (signing in, silences being made)
}
