#include "services/prometheusfleetreader.h"

#include "core/json/jsonreader.h"
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
        m_exporterUrls.clear(); // exporters move: asked again
        for (qsizetype i = 0; i < names.size(); ++i)
            m_klusters.insert(
                names.at(i), std::make_shared<const ExportedFleet::Kluster>(r.fleet.klusters.at(i)));
        m_exporters = ExportedFleet::exportersText(r.fleet);
        m_evaluatedAt = r.fleet.evaluatedAt;
        m_names = names;
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

void PrometheusFleetReader::reportFailed(const QString &kluster, const Error &error, const QString &url)
{
    ExporterReport::Read read;
    read.error = error;
    read.url = url;
    read.readAt = QDateTime::currentDateTimeUtc();
    emit reportRead(kluster, read);
}

void PrometheusFleetReader::readReport(const QString &kluster)
{
    const std::shared_ptr<const ExportedFleet::Kluster> k = m_klusters.value(kluster);
    if (!k || !m_client) {
        reportFailed(kluster,
            Error::of(Error::Kind::Http,
                tr("the Prometheus %1 does not hold this kluster now").arg(m_spec.prometheus.displayUrl())));
        return;
    }
    const QString exporterKey = k->exporter + QLatin1Char('\x1f') + k->job;
    if (const auto known = m_exporterUrls.constFind(exporterKey); known != m_exporterUrls.cend()) {
        fetchReport(kluster, *k, *known);
        return;
    }
    // Where Prometheus scrapes the exporter: its scheme and path as configured there, kept for the round. A
    // Prometheus that will not say (an older one, a proxy in front) leaves the address it scrapes, over http,
    // for this read alone.
    HttpCall *call = m_client->targets();
    const quint64 round = m_round;
    connect(
        call, &HttpCall::finished, this, [this, kluster, k, round, exporterKey](const ApiResponse &response) {
            std::optional<QUrl> named;
            if (response.ok()) {
                try {
                    named = ExporterReport::exporterUrl(
                        response.body, k->exporter, k->job, QStringLiteral("Prometheus' targets"));
                } catch (const ParseError &) { // the guess below
                }
            }
            if (named && round == m_round)
                m_exporterUrls.insert(exporterKey, *named);
            fetchReport(kluster, *k, named.value_or(ExporterReport::exporterUrlOf(k->exporter)));
        });
}

void PrometheusFleetReader::fetchReport(
    const QString &kluster, const ExportedFleet::Kluster &k, const QUrl &exporter)
{
    if (!exporter.isValid() || exporter.host().isEmpty()) {
        reportFailed(kluster,
            Error::of(Error::Kind::Config,
                tr("its exporter \"%1\" is not an address the console can reach").arg(k.exporter.left(80))));
        return;
    }
    // The exporter's own TLS is trusted as the Prometheus' is (the connection's CA, else the system's); the
    // Prometheus' secret and client certificate are never sent to it.
    PrometheusTarget to;
    to.url = exporter;
    to.caPem = m_spec.prometheus.caPem;
    ApiRequest request = to.request(QStringLiteral("exporter"), "GET", QString());
    request.url = ExporterReport::reportUrl(exporter, k.name, k.projectId);
    const QString url = request.url.toDisplayString();
    // Its own HTTP client: no connection (and no TLS session with the Prometheus' client certificate) or
    // cookie of the Prometheus' is shared with an exporter behind the same address.
    if (!m_exporterHttp)
        m_exporterHttp = std::make_unique<HttpClient>();
    HttpCall *call = m_exporterHttp->send(request);
    connect(call, &HttpCall::finished, this, [this, kluster, url](const ApiResponse &response) {
        if (!response.ok()) {
            QString why = response.error.toString();
            if (response.status == 401 || response.status == 403)
                why = tr("it asks for credentials (its --web.config.file); the console holds none for an "
                         "exporter: %1")
                          .arg(why);
            else if (response.status == 404)
                why = tr("it has no report of this kluster (not read yet, or now another shard's): %1")
                          .arg(why);
            reportFailed(kluster,
                Error::of(response.error.kind, tr("the exporter's report %1: %2").arg(url, why)), url);
            return;
        }
        ExporterReport::Read read;
        read.url = url;
        read.readAt = QDateTime::currentDateTimeUtc();
        try {
            read.report = std::make_shared<const ExporterReport::Report>(
                ExporterReport::parse(response.body, tr("the exporter's report %1").arg(url)));
        } catch (const ParseError &e) {
            read.error = Error::of(Error::Kind::Malformed, e.toString());
        }
        emit reportRead(kluster, read);
    });
}
