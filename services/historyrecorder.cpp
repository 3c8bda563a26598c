#include "services/historyrecorder.h"

#include <QCoreApplication>
#include <QTimer>
#ifdef __GLIBC__
#include <malloc.h>
#endif

HistoryRecorder::HistoryRecorder(QString path, QObject *parent)
    : QObject(parent)
    , m_path(std::move(path))
{ }

HistoryRecorder::~HistoryRecorder() = default;

void HistoryRecorder::trimSoon()
{
#ifdef __GLIBC__
    // What the records let go handed back, so that this thread's arena does not keep every refresh's peak;
    // once for a burst of records (a thousand klusters refreshed at once), not once for each: a trim walks
    // the whole heap.
    if (!m_trim) {
        m_trim = new QTimer(this);
        m_trim->setSingleShot(true);
        m_trim->setInterval(2000);
        connect(m_trim, &QTimer::timeout, this, [] { malloc_trim(0); });
    }
    if (!m_trim->isActive())
        m_trim->start();
#endif
}

void HistoryRecorder::report(const QString &message)
{
    if (message == m_lastProblem)
        return; // said once, not on every refresh
    m_lastProblem = message;
    emit problem(message);
}

QDateTime HistoryRecorder::onClock(const QDateTime &local) const
{
    return m_clock ? local.addMSecs(QDateTime::currentDateTimeUtc().msecsTo(m_clock())) : local;
}

void HistoryRecorder::setClock(std::function<QDateTime()> clock)
{
    m_clock = std::move(clock);
    if (m_store)
        m_store->setClock(m_clock);
}

void HistoryRecorder::open(int retentionDays, int maxMegabytes)
{
    m_store = std::make_unique<HistoryStore>(m_path);
    m_store->setClock(m_clock);
    m_store->setRetention(retentionDays, maxMegabytes);
    m_failed = !m_store->open();
    if (const QString notice = m_store->takeNotice(); !notice.isEmpty())
        report(tr("History: %1").arg(notice));
    if (m_failed)
        report(tr("No history is kept: %1").arg(m_store->error()));
}

bool HistoryRecorder::ready()
{
    if (!m_store)
        open(HistoryStore::DefaultRetentionDays, HistoryStore::DefaultMaxMegabytes);
    return !m_failed;
}

void HistoryRecorder::record(const RefreshResult &result, const QString &historyKey)
{
    if (result.cancelled || !ready())
        return;
    const KlusterKey &console = result.key;
    if (!historyKey.isEmpty())
        m_keys.insert(console, historyKey);
    HistoryRecord r;
    if (result.fetch && result.diagnosis) {
        r = HistoryRecord::of(result.fetch->state, *result.diagnosis, result.elapsedMs);
        m_keys.insert(console, r.kluster);
        // The history keeps this machine's time: the refresh began elapsedMs before it was fetched, at
        // capturedAt on the cloud's clock.
        const qint64 offset = result.fetchedAt.addMSecs(-result.elapsedMs).msecsTo(r.at);
        r.at = onClock(HistoryStore::localInstant(r.at, offset));
    } else if (const QString known = m_keys.value(console); !known.isEmpty()) {
        const QDateTime local
            = result.fetchedAt.isValid() ? result.fetchedAt : QDateTime::currentDateTimeUtc();
        r = HistoryRecord::failure(
            known, onClock(local), SourceError::joined(result.errors), result.elapsedMs);
    } else {
        return;
    }
    const bool recorded = m_store->record(r);
    const bool ok = r.ok;
    const QString recordedKey = r.kluster;
    const QDateTime at = r.at;
    r = HistoryRecord(); // the digest (megabytes for thousands of nodes) let go now
    trimSoon();
    if (!recorded) {
        report(tr("History not recorded: %1").arg(m_store->error()));
        return;
    }
    m_lastProblem.clear();
    if (!ok)
        return;
    m_lastAt.insert(console, at);
    m_routes.remove(console);
    if (const KlusterState *s = result.fetch ? &result.fetch->state : nullptr;
        s && s->hasExtension("asr1k_operations") && !s->routerDeviceSource.known) {
        if (const std::optional<RouteHistory> routes = m_store->routeHistory(recordedKey))
            m_routes.insert(console, routes->shifted(at.msecsTo(s->capturedAt))); // to the cloud's clock
    }
    sendSince(console);
}

void HistoryRecorder::sendSince(const KlusterKey &key)
{
    const QString historyKey = m_keys.value(key);
    const QDateTime at = m_lastAt.value(key);
    if (historyKey.isEmpty() || !at.isValid())
        return;
    const QDateTime now = onClock(QDateTime::currentDateTimeUtc());
    const auto routes = m_routes.constFind(key);
    emit findingsSince({ key, historyKey, at, m_store->openFindings(historyKey, at),
        m_store->openIncidents(historyKey, at), m_store->acknowledgements(historyKey, qMax(now, at)),
        routes == m_routes.cend() ? std::nullopt : std::optional<RouteHistory>(*routes) });
}

void HistoryRecorder::acknowledge(const KlusterKey &key, const Acknowledgement &acknowledgement)
{
    const QString historyKey = m_keys.value(key);
    if (historyKey.isEmpty() || !m_lastAt.contains(key) || !ready()) {
        report(tr("Not acknowledged: %1 has no refresh in the history yet").arg(key.toString()));
        return;
    }
    if (!m_store->acknowledge(historyKey, acknowledgement)) {
        report(tr("Not acknowledged: %1").arg(m_store->error()));
        return;
    }
    sendSince(key);
}

void HistoryRecorder::unacknowledge(const KlusterKey &key, const QString &finding)
{
    const QString historyKey = m_keys.value(key);
    if (historyKey.isEmpty() || !ready())
        return;
    if (!m_store->unacknowledge(historyKey, finding)) {
        report(tr("Acknowledgement not withdrawn: %1").arg(m_store->error()));
        return;
    }
    sendSince(key);
}

void HistoryRecorder::loadTrend(const KlusterKey &key, const QDateTime &from, const QDateTime &to)
{
    HistoryTrend trend { key, from, to, {}, {} };
    const QString historyKey = m_keys.value(key);
    if (!historyKey.isEmpty() && ready()) {
        trend.samples = m_store->samples(historyKey, from, to);
        trend.repairs = m_store->repairs(historyKey, from, to);
    }
    emit trendLoaded(trend);
}

void HistoryRecorder::loadChanges(const KlusterKey &key, qint64 before, qint64 after)
{
    emit changesLoaded(changes(key, before, after));
}

IncidentReport::History HistoryRecorder::reportHistory(const KlusterKey &console, const QStringList &findings)
{
    IncidentReport::History h;
    h.asOf = onClock(QDateTime::currentDateTimeUtc());
    const QString key = m_keys.value(console);
    if (key.isEmpty() || !ready())
        return h;
    for (const QString &id : findings) {
        QList<IncidentReport::History::Interval> timeline;
        for (const FindingInterval &i : m_store->intervals(key, id))
            timeline.append({ i.firstSeen, i.resolvedAt, i.beforeHistory });
        if (!timeline.isEmpty())
            h.timelines.insert(id, timeline);
    }
    // Every incident kept (a few per kluster): the report shows those of its diagnosis.
    for (const IncidentInterval &i : m_store->incidentIntervals(key))
        h.incidentTimelines[i.incident].append({ i.firstSeen, i.resolvedAt, i.beforeHistory });
    const HistoryChanges c = changes(console, 0, 0);
    if (c.error.isEmpty() && c.beforeDigest && c.afterDigest) {
        h.hasChanges = true;
        h.changesFrom = c.beforeDigest->capturedAt;
        h.changesTo = c.afterDigest->capturedAt;
        h.changes = c.changes;
        for (const HistoryMoment &m : c.moments) {
            if (m.id == c.before)
                h.fromHealthy = m.healthy();
        }
    }
    return h;
}

HistoryChanges HistoryRecorder::changes(const KlusterKey &console, qint64 before, qint64 after)
{
    HistoryChanges c;
    c.key = console;
    const QString key = m_keys.value(console);
    if (key.isEmpty() || !ready()) {
        c.error = tr("No history of this kluster yet: it is recorded from its first refresh on.");
        return c;
    }
    c.moments = m_store->moments(key);
    if (c.moments.size() < 2) {
        c.error
            = tr("Only one state of this kluster is recorded so far: changes show from its next change on.");
        return c;
    }
    const auto find = [&](qint64 id) {
        for (const HistoryMoment &m : std::as_const(c.moments)) {
            if (m.id == id)
                return std::optional<HistoryMoment>(m);
        }
        return std::optional<HistoryMoment>();
    };
    const std::optional<HistoryMoment> a = find(after).value_or(c.moments.constFirst());
    std::optional<HistoryMoment> b = find(before);
    if (!b) {
        b = m_store->lastHealthy(key, a->at);
        if (!b) {
            for (const HistoryMoment &m : std::as_const(c.moments)) {
                if (m.at < a->at) {
                    b = m;
                    break;
                }
            }
        }
    }
    if (!b) {
        c.error = tr("No state before %1 is recorded.").arg(a->at.toString(Qt::ISODate));
        return c;
    }
    c.before = b->id;
    c.after = a->id;
    const auto load = [&](const HistoryMoment &m) {
        QString error;
        std::optional<StateDigest> d = StateDigest::fromJson(m_store->digest(m.id), &error);
        if (d)
            d->capturedAt = m.at;
        else
            c.error = tr("The state of %1 cannot be read back: %2").arg(m.at.toString(Qt::ISODate), error);
        return d;
    };
    c.beforeDigest = load(*b);
    c.afterDigest = load(*a);
    if (c.beforeDigest && c.afterDigest) {
        c.changes = diffStates(*c.beforeDigest, *c.afterDigest);
        c.notCompared = uncomparedCategories(*c.beforeDigest, *c.afterDigest);
        const QDateTime from = qMin(b->at, a->at).addMSecs(1), to = qMax(b->at, a->at);
        c.intervals = m_store->intervalsBetween(key, from, to);
        c.incidentIntervals = m_store->incidentIntervalsBetween(key, from, to);
    }
    return c;
}
