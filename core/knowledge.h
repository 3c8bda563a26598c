#pragma once

#include "core/finding.h"
#include "core/klusterstate.h"
#include "core/source.h"

#include <QString>

// What may be said about a kluster's objects, decided once from which of its sources could be read: the
// diagnosis's rule (missing evidence decides nothing) for every view. A view asks it before it shows a role,
// a count, a state or a chart that rests on a source, and shows "unknown" with the reason instead of making
// one up from an empty list.
class Knowledge
{
public:
    Knowledge() = default;
    explicit Knowledge(const KlusterState &state);

    bool known(Source source) const;
    // Known and whole: no part of it came back incomplete.
    bool complete(Source source) const;
    // Why it is not known (or not whole): the source's own error, or what is missing of it.
    QString why(Source source) const;
    // "unknown: the router could not be read (…)", for a cell, a caption or a chart's title.
    QString unknown(Source source) const;

    // What the route view may show of a route: its place on the router needs the router; who owns its nexthop
    // needs the servers and the nodes; its role (correct, stale, orphaned, missing) needs all three.
    bool routes() const { return known(Source::Router); }
    bool routeOwners() const { return known(Source::Servers) && known(Source::Nodes); }
    bool routeRoles() const { return routes() && routeOwners(); }
    // The first source of the route roles that is not known (the router first), for the words.
    Source firstUnknownOfRoutes() const;

    // Whether a finding of `kind` may be said to exist or not: every source its rule needs (findingTraits) is
    // known, and those it needs whole are complete. Else the first source that stops it.
    std::optional<Source> stops(FindingKind kind) const;
    bool judges(FindingKind kind) const { return !stops(kind); }

private:
    const SourceStatus *status(Source source) const;

    SourceStatus m_kluster;
    SourceStatus m_servers;
    SourceStatus m_router;
    SourceStatus m_securityGroups;
    SourceStatus m_nodes;
    SourceStatus m_ports;
    SourceStatus m_routerDevice;
    SourceStatus m_kubernikusEvents;
    SourceStatus m_volumes;
    SourceStatus m_loadBalancers;
    bool m_extensions = false;
};
