#pragma once

#include <QList>
#include <QString>
#include <QStringView>
#include <optional>

// One source of a kluster's state: an API object or list, and the snapshot file that holds its body.
// The one place each is spelled, for people ("security groups"), in JSON ("securityGroups") and as a file
// ("security-groups.json").
enum class Source
{
    Kluster,
    Servers,
    Router,
    SecurityGroups,
    Nodes,
    Extensions, // optional: without it, no extraroute-atomic is assumed
    Ports, // optional: without it, no port-address-pair-missing is diagnosed
    RouterDevice, // optional: the ASR driver's view of the router's devices (asr1k_operations)
    KubernikusEvents, // optional: what Kubernikus recorded about the kluster (its timeline)
    Token, // optional: who read it, with which roles and access rules (never the token itself)
    Volumes, // optional: the project's Cinder volumes (diagnosis.md §9)
    LoadBalancers, // optional: the project's Octavia load balancers (diagnosis.md §9)
};

namespace Sources {

// Every source, in the order of a snapshot's files.
const QList<Source> &all();
// Those a snapshot must hold (each but the optional ones).
const QList<Source> &required();
// Those it may hold.
const QList<Source> &optional();

QString name(Source source); // "security groups"
QString key(Source source); // "securityGroups"
QString file(Source source); // "security-groups.json"

std::optional<Source> fromKey(QStringView key);
std::optional<Source> fromFile(QStringView file);

} // namespace Sources

// The snapshot file that is no source's: when and where the state was captured.
inline QString captureFile()
{
    return QStringLiteral("capture.json");
}

inline size_t qHash(Source source, size_t seed = 0) noexcept
{
    return ::qHash(int(source), seed);
}
