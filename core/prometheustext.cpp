#include "core/prometheustext.h"

#include "core/diagnosiscontext.h"
#include "core/findingtraits.h"
#include "core/klusterstanding.h"

#include <array>

namespace PrometheusText {

namespace {

constexpr std::array<Severity, 3> allSeverities = { Severity::Critical, Severity::Warning, Severity::Info };
constexpr std::array<Severity, 2> incidentSeverities = { Severity::Critical, Severity::Warning };
constexpr int kindCount = FindingKindCount; // the table's, checked there

QByteArray number(double value)
{
    if (value == double(qint64(value)))
        return QByteArray::number(qint64(value));
    return QByteArray::number(value, 'f', 3);
}

QByteArray seconds(const QDateTime &t)
{
    return QByteArray::number(double(t.toMSecsSinceEpoch()) / 1000.0, 'f', 3);
}

// One metric family: its HELP and TYPE lines, then every sample, as the format wants them together.
class Family
{
public:
    Family(const char *name, const char *type, const char *help)
        : m_name(name)
    {
        m_text = "# HELP " + m_name + ' ' + help + "\n# TYPE " + m_name + ' ' + type + '\n';
    }

    void add(const QList<std::pair<const char *, QString>> &labels, const QByteArray &value)
    {
        m_text += m_name;
        if (!labels.isEmpty()) {
            m_text += '{';
            for (qsizetype i = 0; i < labels.size(); ++i) {
                if (i > 0)
                    m_text += ',';
                m_text += labels[i].first;
                m_text += "=\"" + escapeLabelValue(labels[i].second) + '"';
            }
            m_text += '}';
        }
        m_text += ' ' + value + '\n';
        ++m_samples;
    }

    // A family without a sample is left out whole.
    void appendTo(QByteArray &out) const
    {
        if (m_samples > 0)
            out += m_text;
    }

private:
    QByteArray m_name;
    QByteArray m_text;
    int m_samples = 0;
};

using Labels = QList<std::pair<const char *, QString>>;

Labels klusterLabels(const Kluster &k)
{
    return { { "kluster_name", k.name }, { "project_id", k.projectId } };
}

} // namespace

QByteArray contentType()
{
    return QByteArrayLiteral("text/plain; version=0.0.4; charset=utf-8");
}

QByteArray escapeLabelValue(const QString &value)
{
    QByteArray out;
    const QByteArray utf8 = value.toUtf8();
    out.reserve(utf8.size());
    for (const char c : utf8) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else if ((c >= 0 && c < 0x20) || c == 0x7f)
            out += "\xEF\xBF\xBD"; // U+FFFD: no other control character reaches a scrape or a terminal
        else
            out += c;
    }
    return out;
}

QByteArray write(const QList<Kluster> &klusters, const Options &options)
{
    Family build("flightdeck_build_info", "gauge", "Flightdeck's version; always 1.");
    build.add({ { "version", QStringLiteral(FLIGHTDECK_VERSION) } }, "1");
    Family count("flightdeck_klusters", "gauge", "Klusters known in the clouds' projects.");
    count.add({}, QByteArray::number(klusters.size()));
    Family clouds("flightdeck_cloud_listing_up", "gauge",
        "1 when the cloud's klusters could be listed (Keystone and Kubernikus answered), else 0.");
    for (const auto &[cloud, listed] : options.cloudsListed)
        clouds.add({ { "cloud", cloud } }, listed ? "1" : "0");
    Family up("flightdeck_up", "gauge",
        "1 when the kluster's last check read every source (servers, router, security groups, nodes), else "
        "0.");
    Family duration("flightdeck_check_duration_seconds", "gauge", "How long the kluster's last check took.");
    Family readAt("flightdeck_last_success_timestamp_seconds", "gauge",
        "When the data the kluster's findings come from was read.");
    Family findings("flightdeck_findings", "gauge",
        "Open findings by kind and severity; every kind and severity present, 0 when none.");
    Family incidents("flightdeck_incidents", "gauge",
        "Open incidents (findings one cause explains) by rule and severity; 0 when none.");
    Family causes("flightdeck_causes", "gauge",
        "What is wrong counted as causes, as the console and check --all count it: an incident once, a "
        "critical or warning finding in no incident once; by severity.");
    Family worst("flightdeck_worst_cause_rank", "gauge",
        "The kluster's worst cause (a finding kind or an incident rule) and its severity; the value is its "
        "rank in the one ranking (lower is worse). Absent when nothing is critical or warning.");
    Family phase("flightdeck_kluster_phase", "gauge",
        "The kluster's lifecycle phase as Kubernikus says it: 1 for the phase it is in (\"none\" when it "
        "says none; \"Gone\" when it no longer has the kluster, which left volumes behind).");
    Family overdue("flightdeck_automation_overdue", "gauge",
        "Findings Kubernikus' own automation is overdue on, by actor (flight, routegc, route-controller); "
        "every "
        "actor present, 0 when none.");
    Family oldest("flightdeck_oldest_open_finding_start_timestamp_seconds", "gauge",
        "Since when the kluster's oldest open warning or critical finding has been open (from the history).");
    Family routes("flightdeck_router_routes", "gauge", "Routes on the kluster's router.");
    Family limit("flightdeck_router_route_limit", "gauge", "How many routes the kluster's router takes.");
    Family nodes("flightdeck_nodes", "gauge", "The kluster's Kubernetes nodes by state.");
    Family expected("flightdeck_nodes_expected", "gauge", "Nodes the kluster's pools ask for.");
    Family nodeReady(
        "flightdeck_node_ready", "gauge", "1 when the node is Ready, else 0 (capped in number).");
    Family omitted("flightdeck_node_series_omitted", "gauge", "Node series left out by the cap.");
    int nodeSeriesLeft = options.nodeSeries;
    qint64 nodesOmitted = 0;

    for (const Kluster &k : klusters) {
        const Labels labels = klusterLabels(k);
        up.add(labels, k.up ? "1" : "0");
        if (k.checkSeconds)
            duration.add(labels, number(*k.checkSeconds));
        if (!k.state || !k.diagnosis)
            continue;
        const KlusterState &state = *k.state;
        const Diagnosis &diagnosis = *k.diagnosis;
        if (k.readAt.isValid())
            readAt.add(labels, seconds(k.readAt));

        std::array<std::array<int, allSeverities.size()>, kindCount> byKind {};
        for (const Finding &f : diagnosis.findings)
            ++byKind[std::size_t(f.kind)][std::size_t(f.severity)];
        for (int kind = 0; kind < kindCount; ++kind) {
            for (const Severity s : allSeverities) {
                Labels l = labels;
                l << std::pair { "kind", findingKindName(FindingKind(kind)) }
                  << std::pair { "severity", severityName(s) };
                findings.add(l, QByteArray::number(byKind[std::size_t(kind)][std::size_t(s)]));
            }
        }
        for (const IncidentRule rule : incidentRules()) {
            for (const Severity s : incidentSeverities) {
                int n = 0;
                for (const Incident &i : diagnosis.incidents)
                    n += i.rule == rule && i.severity == s ? 1 : 0;
                Labels l = labels;
                l << std::pair { "rule", incidentRuleName(rule) }
                  << std::pair { "severity", severityName(s) };
                incidents.add(l, QByteArray::number(n));
            }
        }
        const KlusterStanding standing = KlusterStanding::of(diagnosis);
        for (const auto &[severity, n] : { std::pair { Severity::Critical, standing.critical },
                 std::pair { Severity::Warning, standing.warning } }) {
            Labels l = labels;
            l << std::pair { "severity", severityName(severity) };
            causes.add(l, QByteArray::number(n));
        }
        if (standing.worst) {
            Labels l = labels;
            // The cause's id is "<kind or rule>:<subject>": its kind or rule names it, a bounded label.
            l << std::pair { "cause", standing.worstCause.section(QLatin1Char(':'), 0, 0) }
              << std::pair { "severity", severityName(*standing.worst) };
            worst.add(l, QByteArray::number(standing.worstRank));
        }
        if (state.klusterSource.known) {
            Labels l = labels;
            // Kubernikus' phase, or Gone for a kluster it no longer has (diagnosis.md §9).
            l << std::pair { "phase", diagnosis.phase.isEmpty() ? QStringLiteral("none") : diagnosis.phase };
            phase.add(l, "1");
        }
        std::array<int, 3> overdueBy {};
        for (const Finding &f : diagnosis.findings) {
            if (const std::optional<Automation> a = f.automation(); a && a->overdue)
                ++overdueBy[std::size_t(a->actor)];
        }
        for (const Actor actor : { Actor::Flight, Actor::RouteGc, Actor::RouteController }) {
            Labels l = labels;
            l << std::pair { "actor", Actors::name(actor) };
            overdue.add(l, QByteArray::number(overdueBy[std::size_t(actor)]));
        }
        if (k.oldestOpenSince && k.oldestOpenSince->isValid())
            oldest.add(labels, seconds(*k.oldestOpenSince));
        if (state.routerSource.known && !state.router.id.isEmpty()) {
            Labels l = labels;
            l << std::pair { "router_id", state.router.id };
            routes.add(l, QByteArray::number(state.router.routes.size()));
            if (const int known = effectiveRouteLimit(state, k.options); known > 0) // unknown: no series
                limit.add(l, QByteArray::number(known));
        }
        if (state.nodesSource.known) {
            int ready = 0;
            for (const Node &n : state.nodes)
                ready += n.isReady() ? 1 : 0;
            Labels r = labels;
            r << std::pair { "state", QStringLiteral("ready") };
            nodes.add(r, QByteArray::number(ready));
            Labels nr = labels;
            nr << std::pair { "state", QStringLiteral("not_ready") };
            nodes.add(nr, QByteArray::number(state.nodes.size() - ready));
            if (options.nodeSeries > 0) {
                for (const Node &n : state.nodes) {
                    if (nodeSeriesLeft == 0) {
                        ++nodesOmitted;
                        continue;
                    }
                    --nodeSeriesLeft;
                    Labels l = labels;
                    l << std::pair { "node", n.name };
                    nodeReady.add(l, n.isReady() ? "1" : "0");
                }
            }
        }
        if (state.klusterSource.known)
            expected.add(labels, QByteArray::number(state.kluster.expectedNodes()));
    }
    if (options.nodeSeries > 0)
        omitted.add({}, QByteArray::number(nodesOmitted));

    QByteArray out;
    for (const Family *f : { &build, &count, &clouds, &up, &duration, &readAt, &findings, &incidents, &causes,
             &worst, &phase, &overdue, &oldest, &routes, &limit, &nodes, &expected, &nodeReady, &omitted })
        f->appendTo(out);
    if (options.runSeconds) {
        Family run("flightdeck_check_run_duration_seconds", "gauge", "How long the whole check --all took.");
        run.add({}, number(*options.runSeconds));
        run.appendTo(out);
    }
    if (options.refreshesOk || options.refreshesFailed) {
        Family refreshes(
            "flightdeck_refreshes_total", "counter", "Kluster refreshes since the exporter started.");
        refreshes.add(
            { { "result", QStringLiteral("ok") } }, QByteArray::number(options.refreshesOk.value_or(0)));
        refreshes.add({ { "result", QStringLiteral("failed") } },
            QByteArray::number(options.refreshesFailed.value_or(0)));
        refreshes.appendTo(out);
    }
    if (options.scrapeSeconds) {
        Family scrape("flightdeck_scrape_duration_seconds", "gauge",
            "How long the exporter took to make its previous answer on /metrics.");
        scrape.add({}, number(*options.scrapeSeconds));
        scrape.appendTo(out);
    }
    if (options.shard) {
        Family shard("flightdeck_shard_info", "gauge",
            "The shard of the klusters this exporter serves (serve --shard I/N, 0/1 without); always 1.");
        shard.add({ { "shard", QString::number(options.shard->index) },
                      { "shards", QString::number(options.shard->count) } },
            "1");
        shard.appendTo(out);
    }
    return out;
}

} // namespace PrometheusText
