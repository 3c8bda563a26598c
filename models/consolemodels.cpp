#include "models/consolemodels.h"

#include "console/alertwatch.h"
#include "console/connectionregistry.h"
#include "console/consolesession.h"
#include "console/historyclient.h"
#include "console/klusterstore.h"
#include "console/refreshcoordinator.h"
#include "models/auditmodel.h"
#include "models/findingsmodel.h"
#include "models/klustersmodel.h"
#include "models/nodesmodel.h"
#include "models/routesmodel.h"
#include "models/securitymodel.h"
#include "models/viewpreparer.h"
#include "services/connection.h"

#include <QHash>
#include <QPointer>
#include <QSet>
#include <functional>

ConsoleModels::ConsoleModels(ConsoleSession *session, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_klusters(new KlustersModel(this))
    , m_audit(new AuditModel(this))
    , m_findings(new FindingsModel(this))
    , m_nodes(new NodesModel(this))
    , m_routes(new RoutesModel(this))
    , m_security(new SecurityModel(this))
    , m_tables { std::make_shared<KlusterTableOf<FindingsModel>>(m_findings),
        std::make_shared<KlusterTableOf<NodesModel>>(m_nodes),
        std::make_shared<KlusterTableOf<RoutesModel>>(m_routes),
        std::make_shared<KlusterTableOf<SecurityModel>>(m_security) }
    , m_preparer(new ViewPreparer(session->store(), tables(), this))
{
    followStore();
    // The session asks for the rows of the kluster shown; the preparer makes them and says when they are in.
    connect(session, &ConsoleSession::rowsWanted, this, &ConsoleModels::showRows);
    connect(m_preparer, &ViewPreparer::shown, session, &ConsoleSession::rowsShown);
    // A round settles once the views are made too (the session may outlive these models, or go first).
    session->refreshes()->setViewsBusy(
        [preparer = QPointer<ViewPreparer>(m_preparer)] { return preparer && preparer->isBusy(); });
    connect(m_preparer, &ViewPreparer::idle, session->refreshes(), &RefreshCoordinator::settleIfIdle);
    // Since when the findings of the kluster shown are open: its Since column follows each record.
    connect(session->history(), &HistoryClient::findingsSinceChanged, this, [this](const KlusterKey &key) {
        if (key == m_session->current()) {
            const FindingsSince *since = m_session->history()->findingsSince(key);
            m_findings->setHistory(since->findings, since->at);
            m_findings->setAcknowledgements(since->acknowledged, QDateTime::currentDateTimeUtc());
        }
    });
}

ConsoleModels::~ConsoleModels()
{
    delete m_preparer; // the pool's last job, before the tables it fills
}

QList<KlusterTable *> ConsoleModels::tables() const
{
    QList<KlusterTable *> list;
    for (const auto &table : m_tables)
        list << table.get();
    return list;
}

void ConsoleModels::showRows(const KlusterKey &key)
{
    const FindingsSince *since = m_session->history()->findingsSince(key);
    m_findings->setHistory(
        since ? since->findings : QHash<QString, FindingHistory>(), since ? since->at : QDateTime());
    m_findings->setAcknowledgements(
        since ? since->acknowledged : QHash<QString, Acknowledgement>(), QDateTime::currentDateTimeUtc());
    m_preparer->show(key);
}

namespace {

// A listing's klusters put in the kluster list a slice a turn of the event loop: the sorts and filters above
// the list take a slice's rows at once, and the window paints and answers between slices (ten thousand rows
// in one turn held it for half a second). Each slice schedules the next, so that each has a turn of its own.
class ListingSlices : public QObject
{
public:
    static constexpr qsizetype Slice = 500;
    using Apply = std::function<void(const QString &connection, const QStringList &slice)>;

    explicit ListingSlices(QObject *parent)
        : QObject(parent)
    { }
    void setApply(Apply apply) { m_apply = std::move(apply); }
    // Whether the kluster waits for its slice (its data goes in with it).
    bool holds(const KlusterKey &key) const
    {
        const auto w = m_waiting.constFind(key.connection);
        return w != m_waiting.cend() && w->held.contains(key.kluster);
    }
    void add(const QString &connection, const QStringList &added)
    {
        if (added.size() <= Slice && !m_waiting.contains(connection)) {
            m_apply(connection, added);
            return;
        }
        Waiting &w = m_waiting[connection];
        w.names += added;
        w.held.reserve(w.held.size() + added.size());
        for (const QString &k : added)
            w.held.insert(k);
        stepLater(connection); // the first slice too: the listing's own turn is long enough
    }
    void drop(const QString &connection) { m_waiting.remove(connection); }

private:
    struct Waiting
    {
        QStringList names;
        qsizetype next = 0;
        QSet<QString> held;
        bool scheduled = false;
    };
    void step(const QString &connection)
    {
        const auto w = m_waiting.find(connection);
        if (w == m_waiting.end())
            return;
        const QStringList slice = w->names.mid(w->next, Slice);
        w->next += slice.size();
        for (const QString &k : slice)
            w->held.remove(k);
        if (w->next < w->names.size())
            stepLater(connection);
        else
            m_waiting.erase(w);
        m_apply(connection, slice);
    }
    void stepLater(const QString &connection)
    {
        Waiting &w = m_waiting[connection];
        if (w.scheduled)
            return;
        w.scheduled = true;
        QMetaObject::invokeMethod(
            this,
            [this, connection] {
                if (const auto again = m_waiting.find(connection); again != m_waiting.end()) {
                    again->scheduled = false;
                    step(connection);
                }
            },
            Qt::QueuedConnection);
    }

    Apply m_apply;
    QHash<QString, Waiting> m_waiting;
};

} // namespace

void ConsoleModels::followStore()
{
    KlusterStore *store = m_session->store();
    // The kluster list follows the store: its klusters, their diagnoses and errors, the connections that list
    // nothing.
    connect(store, &KlusterStore::klusterGone, m_klusters, [this](const KlusterKey &key) {
        const Connection *c = m_session->registry()->connection(key.connection);
        m_klusters->setError(key.connection, key.kluster,
            c && c->spec().isPrometheus() ? tr("the Prometheus no longer holds this kluster")
                                          : tr("Kubernikus no longer lists this kluster"));
    });
    // A listing of thousands goes in a slice a turn (ListingSlices); a kluster's data that comes while its
    // slice waits goes in with it.
    auto *slices = new ListingSlices(m_klusters);
    const auto fetched = [this, store, slices](const KlusterKey &key) {
        if (slices->holds(key))
            return;
        if (const KlusterData *d = store->data(key); d && d->exported)
            m_klusters->setExported(key.connection, key.kluster, *d->exported);
        else if (d && d->diagnosis)
            m_klusters->setDiagnosis(key.connection, key.kluster, *d->diagnosis, d->fetchedAt,
                SourceError::joined(d->incomplete), d->fetch ? d->fetch->state.region : QString());
    };
    slices->setApply([this, fetched](const QString &connection, const QStringList &slice) {
        if (!m_session->registry()->connection(connection))
            return; // removed meanwhile
        m_klusters->setKlusters(connection, slice);
        for (const QString &k : slice)
            fetched({ connection, k });
    });
    connect(store, &KlusterStore::klustersAdded, slices, &ListingSlices::add);
    connect(store, &KlusterStore::connectionRemoved, slices, &ListingSlices::drop);
    connect(store, &KlusterStore::klusterFetched, m_klusters, fetched);
    connect(store, &KlusterStore::klusterFailed, m_klusters, [this, store, slices](const KlusterKey &key) {
        if (slices->holds(key))
            return; // said when its slice goes in
        m_klusters->setError(key.connection, key.kluster, SourceError::joined(store->data(key)->error));
    });
    // A connection that lists nothing still has a row, with its error, until it is removed.
    connect(store, &KlusterStore::listingErrorChanged, m_klusters, [this, store](const QString &connection) {
        m_klusters->setConnectionError(connection, store->listingError(connection).toString());
    });
    connect(store, &KlusterStore::connectionRemoved, m_klusters, &KlustersModel::removeConnection);
    // Each kluster's firing alerts counted in the sidebar.
    AlertWatch *alerts = m_session->alerts();
    connect(alerts, &AlertWatch::changed, m_klusters, [this, store, alerts](const QString &connection) {
        QHash<QString, int> counts;
        for (const QString &kluster : store->klusters(connection)) {
            const KlusterData *d = store->data({ connection, kluster });
            counts.insert(kluster,
                alerts->firingCount(
                    { connection, kluster }, d && d->fetch ? d->fetch->state.kluster.projectId : QString()));
        }
        m_klusters->setAlertCounts(connection, counts, alerts->watches(connection));
    });
    // Protected klusters marked in the sidebar.
    const auto markProtected = [this] { m_klusters->setProtected(m_session->protectedKlusters()); };
    connect(m_session, &ConsoleSession::protectionChanged, m_klusters, markProtected);
    connect(m_session->registry(), &ConnectionRegistry::changed, m_klusters, markProtected);
    // What the session holds already (models made after its connections).
    for (const Connection *c : m_session->registry()->connections()) {
        for (const QString &kluster : store->klusters(c->name())) {
            m_klusters->setKluster(c->name(), kluster);
            fetched({ c->name(), kluster });
        }
    }
    markProtected();
}
