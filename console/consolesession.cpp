#include "console/consolesession.h"

#include "console/alertwatch.h"
#include "console/bootevidencestore.h"
#include "console/connectionregistry.h"
#include "console/exportedreports.h"
#include "console/exportedtext.h"
#include "console/historyclient.h"
#include "console/klusterstore.h"
#include "console/refreshcoordinator.h"
#include "console/teamrepairs.h"
#include "services/connection.h"
#include "services/settings.h"

#include <QTimer>
#include <algorithm>

ConsoleSession::ConsoleSession(QObject *parent)
    : QObject(parent)
    , m_store(new KlusterStore(this))
    , m_registry(new ConnectionRegistry(m_store, this))
    , m_refreshes(new RefreshCoordinator(m_registry, m_store, this))
    , m_history(new HistoryClient(this))
    , m_alerts(new AlertWatch(this))
    , m_team(new TeamRepairs(m_registry, this))
    , m_bootEvidence(new BootEvidenceStore(m_registry, this))
    , m_exportedReports(new ExportedReports(m_registry, this))
    , m_lastKlusterLater(new QTimer(this))
{
    m_lastKlusterLater->setSingleShot(true);
    m_lastKlusterLater->setInterval(2000);
    connect(m_lastKlusterLater, &QTimer::timeout, this, [this] {
        if (!m_current.kluster.isEmpty())
            Settings::lastKluster().setValue(m_current.toString());
    });
    m_history->open(Settings::historyDays().value(), Settings::historyMegabytes().value());
    connect(m_refreshes, &RefreshCoordinator::recordable, m_history, &HistoryClient::record);
    // What the history kept of the router's routes (route-recycled) and since when the findings are open
    // (Kubernikus' automation) goes with the kluster's next diagnosis.
    connect(m_history, &HistoryClient::findingsSinceChanged, this, [this](const KlusterKey &key) {
        const FindingsSince *since = m_history->findingsSince(key);
        if (Connection *c = m_registry->connection(key.connection); c && since) // a listed kluster: not gone
            c->setKeptHistory(key.kluster,
                KeptHistory { since->routes, KeptHistory::firstSeen(since->findings), QDateTime() });
    });
    // The alerts beside the findings: each connection's Alertmanager read with every round, and after the
    // kluster shown is refreshed (a repair, F5 on it).
    connect(m_registry, &ConnectionRegistry::added, m_alerts,
        [this](Connection *c) { m_alerts->setTarget(c->spec().name, c->spec().alertmanager); });
    connect(m_registry, &ConnectionRegistry::removed, m_alerts, &AlertWatch::remove);
    connect(m_refreshes, &RefreshCoordinator::roundDone, m_alerts, &AlertWatch::refreshAll);
    connect(m_refreshes, &RefreshCoordinator::refreshed, m_alerts,
        [this](const KlusterKey &key, const KlusterData &, bool cancelled) {
            if (!cancelled && key == m_current) {
                m_alerts->refresh(key.connection);
                m_team->read(key); // who repaired it lately, as its Events say
            }
        });
    // A kluster listed that is protected: its marks follow.
    // (Looked at once per listing, not per kluster: a listing adds thousands, and the settings are read from
    // their file.)
    connect(m_store, &KlusterStore::klustersAdded, this,
        [this](const QString &connection, const QStringList &added) {
            const Connection *c = m_registry->connection(connection);
            if (c && c->spec().protectedRepairs) { // every kluster of it
                emit protectionChanged();
                return;
            }
            for (const QString &marked : Settings::protectedKlusters().value()) { // the few marked
                const KlusterKey k = KlusterKey::fromString(marked);
                if (k.connection == connection && added.contains(k.kluster)) {
                    emit protectionChanged();
                    return;
                }
            }
        });
    // A kluster's filters go with it.
    connect(m_store, &KlusterStore::klusterGone, this,
        [this](const KlusterKey &key) { m_viewFilters.remove(key); });
    connect(m_store, &KlusterStore::connectionRemoved, this, [this](const QString &connection) {
        m_viewFilters.removeIf([&connection](QHash<KlusterKey, QStringList>::iterator entry) {
            return entry.key().connection == connection;
        });
    });
}

ConsoleSession::~ConsoleSession()
{
    // The kluster shown last, if not written yet.
    if (m_lastKlusterLater->isActive() && !m_current.kluster.isEmpty())
        Settings::lastKluster().setValue(m_current.toString());
    delete m_registry; // the connections first (their workers on the network thread), then that thread
    delete m_history; // the last record written whole
}

void ConsoleSession::setCurrent(const KlusterKey &key)
{
    if (key == m_current)
        return;
    m_current = key;
    m_refreshes->setShown(key); // its nodes watched, its refresh first
    if (key.kluster.isEmpty())
        return;
    // Remembered for the next run once the selection rests (and when the session ends): the settings file is
    // written and synced to disk each time, too slow for every arrow key in the sidebar.
    m_lastKlusterLater->start();
}

void ConsoleSession::showCurrent()
{
    emit rowsWanted(m_current);
}

void ConsoleSession::rowsShown(const KlusterKey &key)
{
    m_shownKey = key;
    emit shown(key);
}

ConsoleText::CaptionFacts ConsoleSession::captionFacts(const QString &alarmColor) const
{
    ConsoleText::CaptionFacts facts;
    facts.key = m_current;
    facts.data = m_store->data(m_current);
    if (const Connection *c = m_registry->connection(m_current.connection)) {
        facts.connection = c->name();
        facts.snapshot = c->spec().isSnapshot();
        facts.readOnly = c->isReadOnly();
        if (c->spec().isPrometheus()) {
            facts.prometheus = c->spec().prometheus.displayUrl();
            facts.live = liveTwin(m_current);
        }
    }
    facts.listingError = m_store->listingError(m_current.connection);
    facts.alarmColor = alarmColor;
    facts.now = QDateTime::currentDateTimeUtc();
    return facts;
}

KlusterKey ConsoleSession::liveTwin(const KlusterKey &key) const
{
    const KlusterData *d = m_store->data(key);
    if (!d || !d->exported)
        return {};
    for (const Connection *c : m_registry->connections()) {
        if (c->spec().isPrometheus() || c->spec().isSnapshot())
            continue;
        KlusterKey twin { c->name(), d->exported->name };
        if (!m_store->klusters(c->name()).contains(twin.kluster))
            continue;
        const KlusterData *t = m_store->data(twin);
        if (!t || !t->fetch || t->fetch->state.kluster.projectId == d->exported->projectId)
            return twin;
    }
    return {};
}

ConsoleText::Banner ConsoleSession::banner(const QString &notice, const QString &startupMessage) const
{
    QStringList names;
    for (const Connection *c : m_registry->connections())
        names << c->name();
    return ConsoleText::banner(names, *m_store, notice, startupMessage, m_registry->anyLive());
}

std::optional<ConsoleText::Notification> ConsoleSession::notification(
    const KlusterKey &key, const KlusterData &before, bool windowActive) const
{
    // Only while watching: auto-refresh on, the window in the background, a live cloud.
    const Connection *c = m_registry->connection(key.connection);
    const KlusterData *after = m_store->data(key);
    if (!c || c->spec().isSnapshot() || !m_refreshes->isWatching() || windowActive || !after)
        return std::nullopt;
    if (after->exported) // read through Prometheus: what its exporter gave
        return ExportedText::notification(key, before.exported.get(), *after->exported);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    return ConsoleText::notification(key, before, *after,
        [this, key, now](const Finding &f) { return m_history->acknowledgement(key, f, now) != nullptr; });
}

bool ConsoleSession::isProtected(const KlusterKey &key) const
{
    const Connection *c = m_registry->connection(key.connection);
    if (c && c->spec().protectedRepairs)
        return true;
    return !key.kluster.isEmpty() && Settings::protectedKlusters().value().contains(key.toString());
}

QSet<QString> ConsoleSession::protectedKlusters() const
{
    // As isProtected() has it: every kluster of a protected connection, and those marked that the store holds
    // (a walk over the few marked, not over every kluster).
    const QStringList marked = Settings::protectedKlusters().value();
    QSet<QString> keys;
    for (const Connection *c : m_registry->connections()) {
        const QStringList klusters = m_store->klusters(c->name());
        if (c->spec().protectedRepairs) {
            for (const QString &kluster : klusters)
                keys.insert(KlusterKey { c->name(), kluster }.toString());
            continue;
        }
        for (const QString &m : marked) {
            const KlusterKey k = KlusterKey::fromString(m);
            if (k.connection == c->name() && !k.kluster.isEmpty() && k.toString() == m
                && klusters.contains(k.kluster))
                keys.insert(m);
        }
    }
    return keys;
}

bool ConsoleSession::isRouterProtected(const KlusterKey &key) const
{
    const KlusterData *d = m_store->data(key);
    if (!d || !d->fetch || d->fetch->state.router.id.isEmpty())
        return false;
    for (const auto &other : m_store->otherFetches(key)) {
        if (other->state.router.id == d->fetch->state.router.id
            && isProtected(KlusterKey { key.connection, other->state.kluster.name }))
            return true;
    }
    // A protected kluster of the connection not read (yet, or its refresh failed) may be on it: held as if.
    for (const QString &marked : Settings::protectedKlusters().value()) {
        const KlusterKey k = KlusterKey::fromString(marked);
        if (k.connection != key.connection || k == key)
            continue;
        const KlusterData *other = m_store->data(k);
        if (!other || !other->fetch || other->fetch->state.router.id.isEmpty())
            return true;
    }
    return false;
}

void ConsoleSession::setKlusterProtected(const KlusterKey &key, bool on)
{
    QStringList marked = Settings::protectedKlusters().value();
    marked.removeAll(key.toString());
    if (on)
        marked.append(key.toString());
    Settings::protectedKlusters().setValue(marked);
    emit protectionChanged();
}

FlightdeckLink ConsoleSession::linkOf(const KlusterKey &key, const QString &item) const
{
    // The clouds.yaml cloud when the connection reads one (what teammates share), else its name.
    QString cloud = key.connection;
    if (const Connection *c = m_registry->connection(key.connection); c && !c->spec().cloud.isEmpty())
        cloud = c->spec().cloud;
    return FlightdeckLink { cloud, key.kluster, item };
}

std::optional<KlusterKey> ConsoleSession::resolve(const FlightdeckLink &link, QString *error) const
{
    // Every connection the link's cloud may name (several may read one clouds.yaml cloud: other projects,
    // other regions): the one that lists the kluster, else one not listed yet (it may), else why not.
    QStringList known;
    QStringList matching;
    std::optional<KlusterKey> unlisted;
    for (const Connection *c : m_registry->connections()) {
        known << c->name();
        const ConnectionSpec &spec = c->spec();
        bool matches = c->name() == link.cloud || (!spec.cloud.isEmpty() && spec.cloud == link.cloud)
            || (spec.config && spec.config->name == link.cloud);
        const QStringList klusters = m_store->klusters(c->name());
        for (qsizetype i = 0; !matches && i < klusters.size(); ++i) {
            // A project's id, as the exporter's series (and so the alert rules' links) name it.
            const KlusterData *d = m_store->data({ c->name(), klusters.at(i) });
            matches = d && d->fetch && d->fetch->state.kluster.projectId == link.cloud;
        }
        if (!matches)
            continue;
        matching << c->name();
        if (klusters.contains(link.kluster))
            return KlusterKey { c->name(), link.kluster };
        if (klusters.isEmpty() && !unlisted)
            unlisted = KlusterKey { c->name(), link.kluster };
    }
    if (unlisted)
        return unlisted;
    if (error) {
        if (!matching.isEmpty())
            *error = tr("%1 lists no kluster %2").arg(matching.join(QStringLiteral(", ")), link.kluster);
        else if (known.isEmpty())
            *error
                = tr("no connection is open for cloud %1: add it (File → Add connection) and open the link "
                     "again")
                      .arg(link.cloud);
        else
            *error = tr("no connection reads cloud %1 (open: %2)")
                         .arg(link.cloud, known.join(QStringLiteral(", ")));
    }
    return std::nullopt;
}

RepairSilences::Context ConsoleSession::silenceContext(const KlusterKey &key) const
{
    RepairSilences::Context context;
    context.kluster = key.kluster;
    if (const Connection *c = m_registry->connection(key.connection)) {
        const ConnectionSpec &spec = c->spec();
        context.cloud = spec.config ? spec.config->name : spec.cloud;
        context.user = spec.config ? spec.config->username : QString();
        if (spec.config)
            context.project = spec.config->projectName;
    }
    if (context.user.isEmpty())
        context.user = tr("Flightdeck console (%1)").arg(key.connection);
    if (const KlusterData *d = m_store->data(key); d && d->fetch)
        context.projectId = d->fetch->state.kluster.projectId;
    return context;
}

void ConsoleSession::keepViewFilters(const KlusterKey &key, const QStringList &texts)
{
    if (std::any_of(texts.cbegin(), texts.cend(), [](const QString &t) { return !t.isEmpty(); }))
        m_viewFilters.insert(key, texts);
    else
        m_viewFilters.remove(key);
}
