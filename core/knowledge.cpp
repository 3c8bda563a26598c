#include "core/knowledge.h"

#include "core/findingtraits.h"

Knowledge::Knowledge(const KlusterState &state)
    : m_kluster(state.klusterSource)
    , m_servers(state.serversSource)
    , m_router(state.routerSource)
    , m_securityGroups(state.securityGroupsSource)
    , m_nodes(state.nodesSource)
    , m_ports(state.portsSource)
    , m_routerDevice(state.routerDeviceSource)
    , m_kubernikusEvents(state.kubernikusEventsSource)
    , m_volumes(state.volumesSource)
    , m_loadBalancers(state.loadBalancersSource)
    , m_extensions(state.extensionsKnown)
{ }

const SourceStatus *Knowledge::status(Source source) const
{
    switch (source) {
    case Source::Kluster:
        return &m_kluster;
    case Source::Servers:
        return &m_servers;
    case Source::Router:
        return &m_router;
    case Source::SecurityGroups:
        return &m_securityGroups;
    case Source::Nodes:
        return &m_nodes;
    case Source::Ports:
        return &m_ports;
    case Source::RouterDevice:
        return &m_routerDevice;
    case Source::KubernikusEvents:
        return &m_kubernikusEvents;
    case Source::Volumes:
        return &m_volumes;
    case Source::LoadBalancers:
        return &m_loadBalancers;
    case Source::Extensions:
    case Source::Token: // who reads is not part of what is known about a kluster
        break;
    }
    return nullptr;
}

bool Knowledge::known(Source source) const
{
    if (source == Source::Extensions)
        return m_extensions;
    const SourceStatus *s = status(source);
    return s && s->known;
}

bool Knowledge::complete(Source source) const
{
    const SourceStatus *s = status(source);
    return known(source) && (!s || s->incomplete.isEmpty());
}

QString Knowledge::why(Source source) const
{
    const SourceStatus *s = status(source);
    if (!s)
        return known(source) ? QString() : QStringLiteral("not read");
    if (!s->known)
        return s->error.isEmpty() ? QStringLiteral("not read") : s->error;
    return s->incomplete;
}

QString Knowledge::unknown(Source source) const
{
    const QString reason = why(source);
    const QString what = Sources::name(source);
    if (known(source))
        return reason.isEmpty() ? QString() : QStringLiteral("incomplete: %1 (%2)").arg(what, reason);
    return QStringLiteral("unknown: the %1 could not be read (%2)").arg(what, reason);
}

Source Knowledge::firstUnknownOfRoutes() const
{
    for (Source s : { Source::Router, Source::Nodes, Source::Servers }) {
        if (!known(s))
            return s;
    }
    return Source::Router;
}

std::optional<Source> Knowledge::stops(FindingKind kind) const
{
    const FindingTraits &traits = findingTraits(kind);
    for (const Source s : sourcesOf(traits.needs)) {
        if (!known(s) || ((traits.whole & sourceBit(s)) && !complete(s)))
            return s;
    }
    return std::nullopt;
}
