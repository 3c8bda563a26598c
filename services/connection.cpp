#include "services/connection.h"

#include "services/connectionworker.h"
#include "services/prometheusfleetreader.h"

#include <QCoreApplication>
#include <QHostInfo>
#include <QThread>
#include <atomic>

Connection::Connection(const ConnectionSpec &spec, QThread *thread, QObject *parent)
    : QObject(parent)
    , m_spec(spec)
    , m_worker(new ConnectionWorker(spec))
{
    qRegisterMetaType<RefreshResult>();
    qRegisterMetaType<QList<RefreshResult>>();
    qRegisterMetaType<NodeWatchStatus>();
    qRegisterMetaType<Error>();
    qRegisterMetaType<RepairExecutor::Outcome>();
    qRegisterMetaType<std::shared_ptr<const RepairProposal>>();
    qRegisterMetaType<RepairEvent>();
    qRegisterMetaType<QList<RepairEvent>>();
    qRegisterMetaType<ExporterReport::Read>();
    // One per connection of this process: a second console, or a second connection to the same cloud, is
    // another instance, and its repairs are a teammate's.
    static std::atomic<int> made { 0 };
    m_eventInstance = RepairEvent::instanceName(QHostInfo::localHostName(),
        QStringLiteral("%1-%2-%3")
            .arg(QCoreApplication::applicationName())
            .arg(QCoreApplication::applicationPid())
            .arg(++made));
    m_worker->setEventInstance(m_eventInstance);
    m_worker->moveToThread(thread);
    connect(m_worker, &ConnectionWorker::klustersListed, this, &Connection::klustersListed);
    connect(m_worker, &ConnectionWorker::shardListed, this, &Connection::shardListed);
    connect(m_worker, &ConnectionWorker::identityRead, this, &Connection::identityRead);
    connect(m_worker, &ConnectionWorker::refreshed, this, [this](const RefreshResult &r) {
        m_refreshing.remove(r.key.kluster);
        emit refreshed(r);
        if (m_again.remove(
                r.key.kluster)) // asked for while this one ran (e.g. after a repair): its data may predate it
            refresh(r.key.kluster);
    });
    connect(m_worker, &ConnectionWorker::nodesChanged, this, &Connection::nodesChanged);
    connect(m_worker, &ConnectionWorker::watchStatusChanged, this, &Connection::watchStatusChanged);
    connect(m_worker, &ConnectionWorker::relistWanted, this, [this](const QString &k) { refresh(k); });
    connect(m_worker, &ConnectionWorker::repairProgress, this, &Connection::repairProgress);
    connect(m_worker, &ConnectionWorker::repairStepFinished, this, &Connection::repairStepFinished);
    connect(m_worker, &ConnectionWorker::repairFinished, this, &Connection::repairFinished);
    connect(m_worker, &ConnectionWorker::repairReplanned, this, &Connection::repairReplanned);
    connect(m_worker, &ConnectionWorker::repairEventsRead, this, &Connection::repairEventsRead);
    connect(m_worker, &ConnectionWorker::repairEventWritten, this, &Connection::repairEventWritten);
    connect(m_worker, &ConnectionWorker::bootEvidenceRead, this, &Connection::bootEvidenceRead);
    connect(m_worker, &ConnectionWorker::secretWanted, this, [this](const QString &key) {
        // On this (the GUI) thread: every keychain job of the console runs here.
        auto *store = new SecretStore(this);
        connect(store->read(key), &SecretCall::finished, this, [this, store](const SecretResult &r) {
            store->deleteLater();
            QMetaObject::invokeMethod(m_worker, [w = m_worker, r] { w->secretRead(r); });
        });
    });
    if (m_spec.isPrometheus())
        wireFleet(thread);
}

Connection::~Connection()
{
    m_worker->deleteLater(); // on its own thread, with the requests it still has
    if (m_fleet)
        m_fleet->deleteLater();
}

void Connection::wireFleet(QThread *thread)
{
    m_fleet = new PrometheusFleetReader(m_spec);
    m_fleet->moveToThread(thread);
    connect(m_fleet, &PrometheusFleetReader::klustersListed, this, &Connection::klustersListed);
    connect(m_fleet, &PrometheusFleetReader::refreshed, this, [this](const QList<RefreshResult> &results) {
        for (const RefreshResult &r : results) {
            m_refreshing.remove(r.key.kluster);
            m_again.remove(r.key.kluster); // the next round's answer is the next listing's
            emit refreshed(r);
        }
    });
    connect(m_fleet, &PrometheusFleetReader::reportRead, this, &Connection::exportedReportRead);
    connect(m_fleet, &PrometheusFleetReader::secretWanted, this, [this](const QString &key) {
        auto *store = new SecretStore(this);
        connect(store->read(key), &SecretCall::finished, this, [this, store](const SecretResult &r) {
            store->deleteLater();
            QMetaObject::invokeMethod(m_fleet, [f = m_fleet, r] { f->secretRead(r); });
        });
    });
}

void Connection::listKlusters()
{
    if (m_fleet) {
        QMetaObject::invokeMethod(m_fleet, [f = m_fleet] { f->listKlusters(); });
        return;
    }
    QMetaObject::invokeMethod(m_worker, [w = m_worker] { w->listKlusters(); });
}

void Connection::cancelListing()
{
    if (m_fleet) {
        QMetaObject::invokeMethod(m_fleet, [f = m_fleet] { f->cancelListing(); });
        return;
    }
    QMetaObject::invokeMethod(m_worker, [w = m_worker] { w->cancelListing(); });
}

void Connection::setShown(const QString &kluster)
{
    if (m_fleet)
        return; // nothing of it is watched: the exporter watches it
    QMetaObject::invokeMethod(m_worker, [w = m_worker, kluster] { w->setShown(kluster); });
}

void Connection::setKeptHistory(const QString &kluster, const KeptHistory &history)
{
    if (m_fleet)
        return;
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, kluster, history] { w->setKeptHistory(kluster, history); });
}

void Connection::refresh(const QString &kluster, bool urgent)
{
    if (m_refreshing.contains(kluster)) {
        m_again.insert(kluster);
        return;
    }
    m_refreshing.insert(kluster);
    if (m_fleet) {
        QMetaObject::invokeMethod(m_fleet, [f = m_fleet, kluster] { f->refresh(QStringList { kluster }); });
    } else {
        QMetaObject::invokeMethod(
            m_worker, [w = m_worker, kluster, urgent, askedAt = QDateTime::currentDateTimeUtc()] {
                w->refresh(kluster, urgent, askedAt);
            });
    }
    emit refreshesStarted(QStringList { kluster });
}

void Connection::refresh(const QStringList &klusters)
{
    QStringList asked;
    asked.reserve(klusters.size());
    for (const QString &k : klusters) {
        if (m_refreshing.contains(k)) {
            if (!m_fleet)
                m_again.insert(k);
            continue; // a Prometheus round's is answered at once: never for long
        }
        m_refreshing.insert(k);
        asked << k;
    }
    if (m_fleet) {
        QMetaObject::invokeMethod(m_fleet, [f = m_fleet, asked] { f->refresh(asked); });
    } else {
        // One moment for the round: the refresh that starts first fetches what the project's klusters share
        // (its servers and ports), and that fetch serves every kluster asked with it. Asked one by one, the
        // worker's clock ran on between them, and the klusters asked after the fetch began waited for
        // another.
        QMetaObject::invokeMethod(m_worker,
            [w = m_worker, asked, askedAt = QDateTime::currentDateTimeUtc()] { w->refresh(asked, askedAt); });
    }
    if (!asked.isEmpty())
        emit refreshesStarted(asked);
}

void Connection::cancelRefresh(const QString &kluster)
{
    m_again.remove(kluster);
    if (m_fleet)
        return; // answered at once from the last round: nothing under way
    QMetaObject::invokeMethod(m_worker, [w = m_worker, kluster] { w->cancelRefresh(kluster); });
}

void Connection::repair(const std::shared_ptr<const RepairProposal> &confirmed, bool override)
{
    if (isReadOnly()) {
        RepairExecutor::Outcome refused;
        refused.result = RepairExecutor::Outcome::Result::Refused;
        refused.message = tr("connection %1 is read-only: nothing was sent").arg(m_spec.name);
        for (const QString &id : confirmed->sendable())
            emit repairStepFinished(id, refused);
        emit repairFinished();
        return;
    }
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, confirmed, override] { w->repair(confirmed, override); });
}

void Connection::readRepairEvents(const QString &kluster)
{
    if (m_spec.isSnapshot() || m_fleet)
        return;
    QMetaObject::invokeMethod(m_worker, [w = m_worker, kluster] { w->readRepairEvents(kluster); });
}

void Connection::writeRepairEvent(const QString &kluster, const RepairEvent &event)
{
    if (m_spec.isSnapshot() || m_fleet)
        return;
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, kluster, event] { w->writeRepairEvent(kluster, event); });
}

void Connection::readBootEvidence(const QString &kluster, const BootEvidences::Server &server)
{
    if (m_spec.isSnapshot() || m_fleet) {
        BootEvidence none;
        none.serverId = server.id;
        none.serverName = server.name;
        none.readAt = QDateTime::currentDateTimeUtc();
        none.consoleError = none.actionsError = m_fleet
            ? tr("the Prometheus holds none: read it live through a connection to its cloud")
            : tr("a snapshot holds none: read it live from the cloud");
        // Said from the event loop, as an answer from the cloud would be.
        QMetaObject::invokeMethod(
            this, [this, kluster, none] { emit bootEvidenceRead(kluster, none); }, Qt::QueuedConnection);
        return;
    }
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, kluster, server] { w->readBootEvidence(kluster, server); });
}

void Connection::readExportedReport(const QString &kluster)
{
    if (m_fleet) {
        QMetaObject::invokeMethod(m_fleet, [f = m_fleet, kluster] { f->readReport(kluster); });
        return;
    }
    ExporterReport::Read none;
    none.error
        = Error::of(Error::Kind::Config, tr("connection %1 reads its klusters itself").arg(m_spec.name));
    none.readAt = QDateTime::currentDateTimeUtc();
    QMetaObject::invokeMethod(
        this, [this, kluster, none] { emit exportedReportRead(kluster, none); }, Qt::QueuedConnection);
}

void Connection::cancelRepair()
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker] { w->cancelRepair(); });
}
