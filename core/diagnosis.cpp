#include "core/diagnosis.h"

#include "core/debrisfindings.h"
#include "core/detection.h"
#include "core/devicefindings.h"
#include "core/instancefindings.h"
#include "core/klusterfindings.h"
#include "core/knowledge.h"
#include "core/nodefindings.h"
#include "core/portfindings.h"
#include "core/routefindings.h"
#include "core/securityfindings.h"

#include <algorithm>

QString formatDuration(qint64 seconds)
{
    if (seconds < 0)
        seconds = 0;
    const qint64 minutes = seconds / 60;
    if (minutes < 1)
        return QString::number(seconds) + QStringLiteral(" s");
    if (minutes < 60)
        return QString::number(minutes) + QStringLiteral(" min");
    const qint64 hours = minutes / 60;
    if (hours < 24) {
        const qint64 rest = minutes % 60;
        return QString::number(hours) + QStringLiteral(" h")
            + (rest ? QLatin1Char(' ') + QString::number(rest) + QStringLiteral(" min") : QString());
    }
    const qint64 days = hours / 24;
    const qint64 rest = hours % 24;
    return QString::number(days) + QStringLiteral(" d")
        + (rest ? QLatin1Char(' ') + QString::number(rest) + QStringLiteral(" h") : QString());
}

int Diagnosis::count(Severity severity) const
{
    return int(std::count_if(
        findings.begin(), findings.end(), [severity](const Finding &f) { return f.severity == severity; }));
}

Severity Diagnosis::worst() const
{
    Severity worst = Severity::Info;
    for (const Finding &f : findings) {
        if (int(f.severity) < int(worst))
            worst = f.severity;
    }
    return worst;
}

const Finding *Diagnosis::find(const QString &id) const
{
    for (const Finding &f : findings) {
        if (f.id() == id)
            return &f;
    }
    return nullptr;
}

const Incident *Diagnosis::incidentOf(const QString &findingId) const
{
    for (const Incident &i : incidents) {
        if (i.members.contains(findingId))
            return &i;
    }
    return nullptr;
}

namespace {

// Detection only: decides which findings exist, with their kind, subject, severity and facts (each family's
// rules in its own file, on the one Detection); words and JSON come from the context, on demand.
class Detector
{
public:
    explicit Detector(std::shared_ptr<DiagnosisContext> context)
        : m_d { std::move(context) }
    { }

    Diagnosis run();

private:
    void dropUnjudged();

    Detection m_d;
};

// Every kind's rule declares the sources it judges from (findingTraits): a finding that rests on a source not
// known, or not whole where the rule needs it whole, is not reported but listed as not diagnosed. Decided
// here, once, for the console and the command line alike; the rules above skip what they cannot judge, and
// this is what holds should one of them not.
void Detector::dropUnjudged()
{
    const Knowledge knowledge(m_d.state);
    QList<FindingKind> dropped;
    m_d.result.findings.removeIf([&](const Finding &f) {
        if (knowledge.judges(f.kind))
            return false;
        if (!dropped.contains(f.kind))
            dropped << f.kind;
        return true;
    });
    for (const FindingKind kind : std::as_const(dropped)) {
        const Source source = *knowledge.stops(kind);
        m_d.result.notDiagnosed
            << QStringLiteral("%1: the %2 %3")
                   .arg(findingTraits(kind).name, Sources::name(source),
                       knowledge.known(source)
                           ? QStringLiteral("came back incomplete (%1)").arg(knowledge.why(source))
                           : QStringLiteral("could not be read (%1)").arg(knowledge.why(source)));
    }
}

Diagnosis Detector::run()
{
    m_d.result.budget = RemediationBudget::compute(m_d.state, m_d.ctx->options);
    m_d.result.routeLimit = m_d.ctx->routeLimit;
    m_d.result.routerDevices = m_d.ctx->state.routerDevices;
    m_d.result.phase = m_d.ctx->phase == KlusterPhase::Gone ? KlusterPhases::name(KlusterPhase::Gone)
                                                            : m_d.state.kluster.phase;
    auto skip = [this](const SourceStatus &source, const QString &what, const QString &name) {
        if (source.known)
            return false;
        m_d.result.notDiagnosed << QStringLiteral("%1: %2 could not be read (%3)")
                                       .arg(what, name,
                                           source.error.isEmpty() ? QStringLiteral("unknown error")
                                                                  : source.error);
        return true;
    };
    if (skip(m_d.state.klusterSource, QStringLiteral("everything"), QStringLiteral("the kluster")))
        return m_d.result;
    if (m_d.ctx->phase == KlusterPhase::Unknown)
        m_d.result.notes << QStringLiteral(
            "the kluster's phase %1 is not one Flightdeck knows: diagnosed as Running")
                                .arg(m_d.state.kluster.phase);
    // A kluster being torn down is one finding, and nothing of it is repaired (diagnosis.md §7) but what it
    // leaves behind (§9); of a kluster gone, only that is known.
    const bool gone = m_d.ctx->phase == KlusterPhase::Gone;
    if (gone || KlusterFindings::detectTerminating(m_d)) {
        if (gone)
            m_d.result.lastSeen = m_d.state.kluster.lastSeen;
        else
            m_d.result.terminatingSeconds = m_d.result.findings.constFirst().facts.forSeconds;
        DebrisFindings::detect(m_d);
        for (const auto &[source, what] : { std::pair { &m_d.state.volumesSource, "volumes" },
                 std::pair { &m_d.state.loadBalancersSource, "load balancers" } }) {
            if (!source->known && !source->error.isEmpty())
                m_d.result.notDiagnosed << QStringLiteral("what the kluster left behind: the %1 could not be "
                                                          "read (%2)")
                                               .arg(QLatin1String(what), source->error);
        }
        dropUnjudged();
        std::sort(m_d.result.findings.begin(), m_d.result.findings.end(), findingLessThan);
        return m_d.result;
    }

    m_d.result.findings.reserve(m_d.state.nodes.size() + m_d.ctx->index.klusterInstances().size() / 8 + 16);
    if (!skip(m_d.state.securityGroupsSource, QStringLiteral("security groups and memberships"),
            QStringLiteral("the security groups")))
        SecurityFindings::detect(m_d);
    if (!skip(m_d.state.serversSource, QStringLiteral("instances and orphaned routes"),
            QStringLiteral("the servers")))
        InstanceFindings::detect(m_d);
    if (!m_d.state.serversSource.incomplete.isEmpty())
        m_d.result.notes << QStringLiteral(
            "the server list is incomplete (%1): no route is removed as orphaned while it is")
                                .arg(m_d.state.serversSource.incomplete);
    if (!skip(m_d.state.nodesSource,
            QStringLiteral("nodes, unregistered instances, stale and missing routes"),
            QStringLiteral("the nodes")))
        NodeFindings::detect(m_d);
    if (!skip(m_d.state.routerSource, QStringLiteral("routes"), QStringLiteral("the router")))
        RouteFindings::detect(m_d);
    if (m_d.state.routerDeviceSource.known)
        DeviceFindings::detect(m_d);
    else {
        if (!m_d.state.routerDeviceSource.error.isEmpty())
            m_d.result.notDiagnosed << QStringLiteral(
                "the routes on the router's devices: the router device could "
                "not be read (%1)")
                                           .arg(m_d.state.routerDeviceSource.error);
        if (m_d.state.routerSource.known && m_d.state.nodesSource.known)
            DeviceFindings::detectRecycled(m_d);
    }
    if (m_d.state.portsSource.known)
        PortFindings::detect(m_d);
    else if (!m_d.state.portsSource.error.isEmpty())
        m_d.result.notDiagnosed << QStringLiteral("allowed address pairs: the ports could not be read (%1)")
                                       .arg(m_d.state.portsSource.error);

    dropUnjudged();
    std::sort(m_d.result.findings.begin(), m_d.result.findings.end(), findingLessThan);
    m_d.result.incidents = Incidents::find(m_d.result.findings, *m_d.ctx);
    for (const Incident &i : std::as_const(m_d.result.incidents)) {
        if (!i.zone().isEmpty())
            m_d.result.budget.disruptedZones << i.zone();
    }
    return m_d.result;
}

} // namespace

Diagnosis Diagnosis::run(const KlusterState &state, const DiagnosisOptions &options)
{
    Detector detector(std::make_shared<DiagnosisContext>(state, options));
    return detector.run();
}
