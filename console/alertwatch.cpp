#include "console/alertwatch.h"

#include "console/klusterstore.h"
#include "services/http/httpclient.h"
#include "services/local/secretstore.h"

#include <algorithm>

AlertWatch::AlertWatch(QObject *parent)
    : QObject(parent)
    , m_http(new HttpClient(this))
{ }

AlertWatch::~AlertWatch() = default;

void AlertWatch::setTarget(const QString &connection, const AlertmanagerTarget &target)
{
    if (!target.isSet()) {
        remove(connection);
        return;
    }
    auto watched = std::make_shared<Watched>();
    AlertmanagerTarget t = target;
    QString why;
    if (!t.readFiles(&why))
        watched->error = QStringLiteral("Alertmanager %1: %2").arg(t.displayUrl(), why);
    watched->client = std::make_unique<AlertmanagerClient>(m_http, t);
    if (const auto old = m_watched.value(connection))
        watched->generation = old->generation + 1;
    m_watched.insert(connection, watched);
    if (t.needsSecret() && t.secret.isEmpty() && watched->error.isEmpty()) {
        watched->secretPending = true;
        auto *store = new SecretStore(this);
        const quint64 generation = watched->generation;
        connect(store->read(t.secretKey()), &SecretCall::finished, this,
            [this, store, connection, generation, t](const SecretResult &r) {
                store->deleteLater();
                const auto w = m_watched.value(connection);
                if (!w || w->generation != generation)
                    return; // replaced or removed meanwhile
                w->secretPending = false;
                if (!r.found) {
                    w->error = tr("Alertmanager %1: no secret for %2 in the keychain (%3): enter it in the "
                                  "connection's settings")
                                   .arg(t.displayUrl(), t.username.isEmpty() ? tr("its token") : t.username,
                                       r.error.isEmpty() ? tr("not stored") : r.error);
                    emit changed(connection);
                    return;
                }
                AlertmanagerTarget withSecret = t; // its files already read
                withSecret.secret = r.secret;
                w->client = std::make_unique<AlertmanagerClient>(m_http, withSecret);
                read(connection);
            });
    }
    emit changed(connection);
}

void AlertWatch::remove(const QString &connection)
{
    if (m_watched.remove(connection))
        emit changed(connection);
}

void AlertWatch::refresh(const QString &connection)
{
    const auto w = m_watched.value(connection);
    if (!w || w->secretPending)
        return;
    if (w->reading) {
        w->again = true;
        return;
    }
    read(connection);
}

void AlertWatch::refreshAll()
{
    const QStringList connections = m_watched.keys();
    for (const QString &c : connections)
        refresh(c);
}

void AlertWatch::read(const QString &connection)
{
    const auto w = m_watched.value(connection);
    if (!w || !w->client)
        return;
    w->reading = true;
    const quint64 generation = w->generation;
    w->client->fetchAllAlerts(
        this, [this, connection, generation](const QList<Alert> &alerts, const QString &error) {
            const auto now = m_watched.value(connection);
            if (!now || now->generation != generation)
                return;
            now->reading = false;
            if (error.isEmpty()) {
                now->alerts = alerts;
                now->readAt = QDateTime::currentDateTimeUtc();
            }
            now->error = error; // the last alerts read stay, as of readAt
            emit changed(connection);
            if (now->again) {
                now->again = false;
                read(connection);
            }
        });
}

KlusterAlerts AlertWatch::alertsOf(const KlusterKey &key, const KlusterData &data) const
{
    KlusterAlerts out;
    const auto w = m_watched.value(key.connection);
    if (!w)
        return out;
    out.configured = true;
    out.error = w->error;
    out.known = w->readAt.isValid();
    if (!out.known) {
        if (out.error.isEmpty())
            out.error = tr("not read yet");
        return out;
    }
    const QString projectId = data.fetch ? data.fetch->state.kluster.projectId : QString();
    out.alerts = Alerts::ofKluster(
        w->alerts, w->client->target().klusterLabels, key.kluster, projectId, &out.omitted);
    if (data.fetch && data.diagnosis)
        Alerts::matchFindings(out.alerts, data.fetch->state, *data.diagnosis);
    return out;
}

int AlertWatch::firingCount(const KlusterKey &key, const QString &projectId) const
{
    const auto w = m_watched.value(key.connection);
    if (!w || !w->readAt.isValid())
        return 0;
    const QList<Alert> mine
        = Alerts::ofKluster(w->alerts, w->client->target().klusterLabels, key.kluster, projectId);
    return int(std::count_if(mine.cbegin(), mine.cend(), [](const Alert &a) { return !a.silenced(); }));
}

QString AlertWatch::error(const QString &connection) const
{
    const auto w = m_watched.value(connection);
    return w ? w->error : QString();
}

QDateTime AlertWatch::readAt(const QString &connection) const
{
    const auto w = m_watched.value(connection);
    return w ? w->readAt : QDateTime();
}

AlertmanagerClient *AlertWatch::client(const QString &connection) const
{
    const auto it = m_watched.constFind(connection);
    return it == m_watched.constEnd() || !*it ? nullptr : (*it)->client.get();
}
