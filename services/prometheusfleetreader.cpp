#include "services/prometheusfleetreader.h"

#include "services/http/httpclient.h"
#include "services/local/secretstore.h"

PrometheusFleetReader::PrometheusFleetReader(const ConnectionSpec &spec)
    : m_spec(spec)
{ }

PrometheusFleetReader::~PrometheusFleetReader() = default;

void PrometheusFleetReader::listKlusters()
{
    m_listing = true;
    ++m_round;
    if (m_spec.prometheus.needsSecret() && m_spec.prometheus.secret.isEmpty()) {
        if (!m_awaitingSecret) {
            m_awaitingSecret = true;
            emit secretWanted(PrometheusClient::secretKey(m_spec.prometheus));
        }
        return;
    }
    round();
}

void PrometheusFleetReader::secretRead(const SecretResult &result)
{
    m_awaitingSecret = false;
    if (!m_listing)
        return;
    if (!result.found) {
        m_listing = false;
        emit klustersListed({},
            Error::of(Error::Kind::Auth,
                tr("no secret for the Prometheus %1 in the keychain (%2): edit the connection and give it")
                    .arg(m_spec.prometheus.displayUrl(),
                        result.error.isEmpty() ? tr("not found") : result.error)));
        return;
    }
    m_spec.prometheus.secret = result.secret;
    m_client.reset();
    round();
}

void PrometheusFleetReader::round()
{
    const PrometheusTarget &t = m_spec.prometheus;
    if ((!t.caFile.isEmpty() && t.caPem.isEmpty())
        || (!t.clientCertFile.isEmpty() && t.clientCertPem.isEmpty())) {
        QString why;
        if (!m_spec.prometheus.readFiles(&why)) {
            m_listing = false;
            emit klustersListed(
                {}, Error::of(Error::Kind::Config, tr("Prometheus %1: %2").arg(t.displayUrl(), why)));
            return;
        }
    }
    if (!m_http)
        m_http = std::make_unique<HttpClient>();
    if (!m_client)
        m_client = std::make_unique<PrometheusClient>(m_http.get(), m_spec.prometheus);
    const quint64 mine = m_round;
    m_client->readFleet(this, [this, mine](const PrometheusClient::Round &r) {
        if (mine != m_round || !m_listing)
            return; // cancelled, or a newer round asked for
        m_listing = false;
        if (!r.error.isEmpty()) {
            emit klustersListed(
                {}, Error::of(r.kind == Error::Kind::None ? Error::Kind::Network : r.kind, r.error));
            return;
        }
        const QStringList names = ExportedFleet::displayNames(r.fleet);
        m_klusters.clear();
        for (qsizetype i = 0; i < names.size(); ++i)
            m_klusters.insert(
                names.at(i), std::make_shared<const ExportedFleet::Kluster>(r.fleet.klusters.at(i)));
        m_exporters = ExportedFleet::exportersText(r.fleet);
        m_evaluatedAt = r.fleet.evaluatedAt;
        emit klustersListed(names, Error());
    });
}

void PrometheusFleetReader::cancelListing()
{
    if (!m_listing)
        return;
    m_listing = false;
    ++m_round;
    emit klustersListed({}, Error::of(Error::Kind::Cancelled, tr("cancelled")));
}

void PrometheusFleetReader::refresh(const QStringList &klusters)
{
    QList<RefreshResult> results;
    results.reserve(klusters.size());
    for (const QString &kluster : klusters) {
        RefreshResult result;
        result.key = { m_spec.name, kluster };
        result.exported = m_klusters.value(kluster);
        if (result.exported) {
            result.fetchedAt = result.exported->readAt.value_or(m_evaluatedAt);
        } else {
            SourceError e;
            e.error = Error::of(Error::Kind::Http,
                tr("the Prometheus %1 no longer holds this kluster (%2)")
                    .arg(m_spec.prometheus.displayUrl(), m_exporters));
            result.errors << e;
        }
        results << result;
    }
    emit refreshed(results);
}
