#include "services/repair/repairsession.h"

#include "services/openstack/klusterfetcher.h"

#include <utility>

RepairSession::RepairSession(KeystoneSession *session, std::shared_ptr<const RepairProposal> confirmed,
    const Options &options, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_confirmed(std::move(confirmed))
    , m_options(options)
    , m_steps(m_confirmed->steps())
{ }

void RepairSession::start()
{
    m_running = true;
    if (m_steps.isEmpty() || !m_options.recheck) {
        next();
        return;
    }
    recheck();
}

void RepairSession::recheck()
{
    emit progress(m_confirmed->sendable().join(QStringLiteral(", ")),
        tr("reading kluster %1 again before sending").arg(m_confirmed->kluster()));
    m_fetcher = new KlusterFetcher(m_session, m_confirmed->kluster(), this);
    if (m_options.kube)
        m_fetcher->setKubeTarget(*m_options.kube);
    if (m_options.diagnosis.routeLimitExplicit)
        m_fetcher->setRouteLimit(m_options.diagnosis.routeLimit);
    connect(m_fetcher, &KlusterFetcher::finished, this, [this](const KlusterFetch &fetch) {
        std::exchange(m_fetcher, nullptr)->deleteLater();
        checked(fetch);
    });
    m_fetcher->start();
}

void RepairSession::failAll(RepairExecutor::Outcome::Result result, const QString &message, bool asSteps)
{
    RepairExecutor::Outcome outcome;
    outcome.result = result;
    outcome.message = message;
    for (const RepairGate::Step &step : std::as_const(m_steps)) {
        if (asSteps)
            emit stepFinished(step, outcome);
        for (const QString &id : step.findingIds)
            emit findingFinished(id, outcome);
    }
    m_steps.clear();
    next();
}

void RepairSession::checked(const KlusterFetch &fetch)
{
    if (m_cancelled) {
        next(); // each step is said cancelled
        return;
    }
    if (!fetch.state.klusterSource.known) {
        failAll(RepairExecutor::Outcome::Result::Failed,
            tr("nothing was sent: the kluster could not be read again just before sending (%1)")
                .arg(SourceError::joined(fetch.errors)));
        return;
    }
    auto read = std::make_shared<KlusterFetch>(fetch);
    // Judged with the history the confirmed plan was judged with (route-recycled), as of this reading.
    if (const std::shared_ptr<const KlusterFetch> before = m_confirmed->fetch();
        before && before->state.routeHistory)
        read->state.setRouteHistory(*before->state.routeHistory);
    // …and with the since-whens it was judged with (when Kubernikus' automation is due).
    if (const std::shared_ptr<const KlusterFetch> before = m_confirmed->fetch())
        read->state.findingsSince = before->state.findingsSince;
    auto diagnosis = std::make_shared<const Diagnosis>(Diagnosis::run(read->state, m_options.diagnosis));
    auto fresh = std::make_shared<const RepairProposal>(
        m_confirmed->kluster(), std::move(read), std::move(diagnosis), m_confirmed->choice());
    const QStringList differences = m_confirmed->differences(*fresh);
    if (differences.isEmpty()) {
        next();
        return;
    }
    emit replanned(fresh, differences);
    failAll(RepairExecutor::Outcome::Result::Changed,
        tr("nothing was sent: the plan made again from the kluster read just now differs (%1)")
            .arg(differences.join(QStringLiteral("; "))),
        false); // replanned() says it, with the new plan
}

bool RepairSession::abandon(const QString &why)
{
    if (m_fetcher) { // still reading again: nothing was sent, nothing will be
        delete m_fetcher.data();
        failAll(RepairExecutor::Outcome::Result::Failed,
            tr("nothing was sent: %1 (while the kluster was read again before sending)").arg(why));
        return true;
    }
    m_steps.clear();
    if (!m_executor || !m_executor->isRunning())
        return false;
    m_executor->abandon(why);
    return true;
}

void RepairSession::next()
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
        findings << *m_confirmed->diagnosis()->find(id);
    m_executor = new RepairExecutor(m_session, m_confirmed->kluster(), m_confirmed->fetch()->state, findings,
        step.plan, m_confirmed->diagnosis()->budget, m_options.diagnosis, this);
    m_executor->setOverride(m_options.override);
    m_executor->setProtectedRouter(
        m_confirmed->choice().protectedKluster || m_confirmed->choice().protectedRouter);
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
        // A failed or overtaken change ends a session that stops on failure: what follows was planned from
        // the same data.
        const bool failed = o.result == RepairExecutor::Outcome::Result::Failed
            || o.result == RepairExecutor::Outcome::Result::Changed || !o.auditError.isEmpty();
        if (m_options.stopOnFailure && failed)
            m_steps.clear();
        // Later: the next step's executor is made once this one's signal has returned.
        QMetaObject::invokeMethod(this, &RepairSession::next, Qt::QueuedConnection);
    });
    emit stepStarted(step);
    m_executor->start();
}
