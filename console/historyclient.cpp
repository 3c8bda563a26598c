#include "console/historyclient.h"

#include "console/lowpriority.h"

#include <QPointer>
#include <QThread>

HistoryClient::HistoryClient(QObject *parent)
    : QObject(parent)
    , m_thread(new QThread(this))
    , m_recorder(new HistoryRecorder())
{
    m_thread->setObjectName(QStringLiteral("flightdeck-history"));
    m_recorder->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_recorder, &QObject::deleteLater);
    // The window's thread first: recording a thousand klusters' refreshes yields to it when the cores are
    // busy.
    connect(
        m_thread, &QThread::started, m_thread, [] { Threads::yieldToTheWindow(); }, Qt::DirectConnection);
    m_thread->start(QThread::LowPriority);
    connect(m_recorder, &HistoryRecorder::findingsSince, this, [this](const FindingsSince &since) {
        m_since.insert(since.key, since);
        emit findingsSinceChanged(since.key);
    });
    connect(m_recorder, &HistoryRecorder::trendLoaded, this, &HistoryClient::trendLoaded);
    connect(m_recorder, &HistoryRecorder::changesLoaded, this, &HistoryClient::changesLoaded);
    connect(m_recorder, &HistoryRecorder::problem, this, &HistoryClient::problem);
}

HistoryClient::~HistoryClient()
{
    m_thread->quit();
    m_thread->wait(); // at exit only: the last record written whole
}

void HistoryClient::open(int retentionDays, int maxMegabytes)
{
    QMetaObject::invokeMethod(
        m_recorder, [h = m_recorder, retentionDays, maxMegabytes] { h->open(retentionDays, maxMegabytes); });
}

void HistoryClient::record(const RefreshResult &result, const QString &historyKey)
{
    QMetaObject::invokeMethod(
        m_recorder, [h = m_recorder, result, historyKey] { h->record(result, historyKey); });
}

void HistoryClient::loadTrend(const KlusterKey &key, int hours)
{
    // Up to now, or to the last record (the history's clock).
    QDateTime to = QDateTime::currentDateTimeUtc();
    if (const FindingsSince *since = findingsSince(key))
        to = qMax(to, since->at);
    const QDateTime from = to.addSecs(-3600LL * hours);
    QMetaObject::invokeMethod(m_recorder, [h = m_recorder, key, from, to] { h->loadTrend(key, from, to); });
}

void HistoryClient::loadChanges(const KlusterKey &key, qint64 before, qint64 after)
{
    QMetaObject::invokeMethod(
        m_recorder, [h = m_recorder, key, before, after] { h->loadChanges(key, before, after); });
}

void HistoryClient::reportHistory(const KlusterKey &key, const QStringList &findings, QObject *context,
    const std::function<void(const IncidentReport::History &)> &done)
{
    // Back on this object's thread (it outlives the recorder's), where `context` can be asked whether it is
    // still there.
    QMetaObject::invokeMethod(
        m_recorder, [this, h = m_recorder, key, findings, context = QPointer<QObject>(context), done] {
            const IncidentReport::History history = h->reportHistory(key, findings);
            QMetaObject::invokeMethod(this, [context, history, done] {
                if (context)
                    done(history);
            });
        });
}

const FindingsSince *HistoryClient::findingsSince(const KlusterKey &key) const
{
    const auto it = m_since.constFind(key);
    return it == m_since.cend() ? nullptr : &it.value();
}

void HistoryClient::acknowledge(const KlusterKey &key, const Acknowledgement &acknowledgement)
{
    QMetaObject::invokeMethod(
        m_recorder, [h = m_recorder, key, acknowledgement] { h->acknowledge(key, acknowledgement); });
}

void HistoryClient::unacknowledge(const KlusterKey &key, const QString &finding)
{
    QMetaObject::invokeMethod(m_recorder, [h = m_recorder, key, finding] { h->unacknowledge(key, finding); });
}

const Acknowledgement *HistoryClient::acknowledgement(
    const KlusterKey &key, const Finding &finding, const QDateTime &now) const
{
    const FindingsSince *since = findingsSince(key);
    if (!since)
        return nullptr;
    const auto it = since->acknowledged.constFind(finding.id());
    return it != since->acknowledged.cend() && it->holds(finding, now) ? &it.value() : nullptr;
}
