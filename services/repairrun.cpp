#include "services/repairrun.h"

RepairRun::RepairRun(KeystoneSession *session, const QString &kluster, const KlusterState &state,
    const std::shared_ptr<const Diagnosis> &diagnosis, const QList<RepairGate::Step> &steps,
    const Options &options, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_kluster(kluster)
    , m_state(state)
    , m_diagnosis(diagnosis)
    , m_steps(steps)
    , m_options(options)
{ }

void RepairRun::start()
{
    m_running = true;
    next();
}

bool RepairRun::abandon(const QString &why)
{
    m_steps.clear();
    if (!m_executor || !m_executor->isRunning())
        return false;
    m_executor->abandon(why);
    return true;
}

void RepairRun::next()
{
    if (m_steps.isEmpty()) {
        m_running = false;
        emit finished();
        return;
    }
    const RepairGate::Step step = m_steps.takeFirst();
    if (m_cancelled) {
        RepairExecutor::Outcome cancelled;
        cancelled.result = RepairExecutor::Outcome::Result::Refused;
        cancelled.message = tr("cancelled before it was sent");
        for (const QString &id : step.findingIds)
            emit findingFinished(id, cancelled);
        next();
        return;
    }
    QList<Finding> findings;
    for (const QString &id : step.findingIds)
        findings << *m_diagnosis->find(id);
    m_executor
        = new RepairExecutor(m_session, m_kluster, m_state, findings, step.plan, m_options.diagnosis, this);
    m_executor->setOverride(m_options.override);
    if (!m_options.eventInstance.isEmpty())
        m_executor->setEventInstance(m_options.eventInstance);
    if (m_options.kube)
        m_executor->setKubeTarget(*m_options.kube);
    const QString label = step.findingIds.join(QStringLiteral(", "));
    connect(m_executor, &RepairExecutor::progress, this,
        [this, label](const QString &m) { emit progress(label, m); });
    connect(m_executor, &RepairExecutor::finished, this, [this, step](const RepairExecutor::Outcome &o) {
        m_executor->deleteLater();
        m_executor = nullptr;
        emit stepFinished(step, o);
        // One change for several findings: each finding gets its own verdict from the one verification.
        for (int i = 0; i < step.findingIds.size(); ++i) {
            const QString &id = step.findingIds.at(i);
            RepairExecutor::Outcome mine = o;
            if (o.result == RepairExecutor::Outcome::Result::StillThere && !o.remaining.contains(id)) {
                mine.result = RepairExecutor::Outcome::Result::Fixed;
                mine.message = tr("%1 is gone").arg(id);
            }
            if (i > 0) {
                mine.requests.clear();
                mine.message += tr(" (in the one route change with %1)").arg(step.findingIds.first());
            }
            emit findingFinished(id, mine);
        }
        // A failed or overtaken change ends a run that stops on failure: what follows was planned from the
        // same data.
        const bool failed = o.result == RepairExecutor::Outcome::Result::Failed
            || o.result == RepairExecutor::Outcome::Result::Changed || !o.auditError.isEmpty();
        if (m_options.stopOnFailure && failed)
            m_steps.clear();
        // Later: the next step's executor is made once this one's signal has returned.
        QMetaObject::invokeMethod(this, &RepairRun::next, Qt::QueuedConnection);
    });
    emit stepStarted(step);
    m_executor->start();
}
