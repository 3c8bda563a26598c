#include "core/source.h"

#include <QHashFunctions>
#include <array>

namespace {

struct SourceTraits
{
    Source source;
    const char *name;
    const char *key;
    const char *file;
    bool required;
};

constexpr std::array<SourceTraits, 12> Table { {
    { Source::Kluster, "kluster", "kluster", "kluster.json", true },
    { Source::Servers, "servers", "servers", "servers.json", true },
    { Source::Router, "router", "router", "router.json", true },
    { Source::SecurityGroups, "security groups", "securityGroups", "security-groups.json", true },
    { Source::Nodes, "nodes", "nodes", "nodes.json", true },
    { Source::Extensions, "extensions", "extensions", "extensions.json", false },
    { Source::Ports, "ports", "ports", "ports.json", false },
    { Source::RouterDevice, "router device", "routerDevice", "router-device.json", false },
    { Source::KubernikusEvents, "Kubernikus events", "kubernikusEvents", "kubernikus-events.json", false },
    { Source::Token, "token", "token", "token.json", false },
    { Source::Volumes, "volumes", "volumes", "volumes.json", false },
    { Source::LoadBalancers, "load balancers", "loadBalancers", "loadbalancers.json", false },
} };

constexpr bool inEnumOrder()
{
    for (std::size_t i = 0; i < Table.size(); ++i) {
        if (Table[i].source != Source(i))
            return false;
    }
    return true;
}
static_assert(inEnumOrder(), "one entry per source, in the order of the enum");

const SourceTraits &traits(Source source)
{
    return Table.at(size_t(source));
}

QList<Source> sources(int required)
{
    QList<Source> list;
    for (const SourceTraits &t : Table) {
        if (required < 0 || t.required == (required == 1))
            list << t.source;
    }
    return list;
}

} // namespace

const QList<Source> &Sources::all()
{
    static const QList<Source> list = sources(-1);
    return list;
}

const QList<Source> &Sources::required()
{
    static const QList<Source> list = sources(1);
    return list;
}

const QList<Source> &Sources::optional()
{
    static const QList<Source> list = sources(0);
    return list;
}

QString Sources::name(Source source)
{
    return QString::fromLatin1(traits(source).name);
}

QString Sources::key(Source source)
{
    return QString::fromLatin1(traits(source).key);
}

QString Sources::file(Source source)
{
    return QString::fromLatin1(traits(source).file);
}

std::optional<Source> Sources::fromKey(QStringView key)
{
    for (const SourceTraits &t : Table) {
        if (key == QLatin1String(t.key))
            return t.source;
    }
    return std::nullopt;
}

std::optional<Source> Sources::fromFile(QStringView file)
{
    for (const SourceTraits &t : Table) {
        if (file == QLatin1String(t.file))
            return t.source;
    }
    return std::nullopt;
}
