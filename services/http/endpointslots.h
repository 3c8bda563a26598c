#pragma once

#include <QHash>
#include <QList>
#include <QMutex>
#include <QPair>
#include <QString>
#include <functional>
#include <memory>

// How many requests each endpoint (scheme, host and port) is sent at once, by the whole process: a region's
// 150 connections share one Nova, one Neutron and one Keystone, and each connection's bound on its own
// refreshes (ConnectionSpec::refreshConcurrency) let the process ask each of them for 150 × 4 answers at
// once: impolite to the API, and the answers came in together and waited to be parsed. Beyond the bound a
// request waits its turn, first come first served; a stream (a node watch) never takes a place: it stays open
// for hours.
//
// A place is a lease: it is given back when the last copy of the lease goes, however the request ends
// (answered, cancelled, its client gone), so none is ever lost.
class EndpointSlots
{
public:
    using Lease = std::shared_ptr<const void>;
    using Go = std::function<void(Lease lease)>;

    static constexpr int DefaultPerEndpoint = 16;

    // The process' one instance.
    static EndpointSlots &shared();

    void setLimit(int perEndpoint); // 0: no bound
    int limit() const;

    // A place for a request to `endpoint` now, or none (an empty lease): the request then waits its turn,
    // and `go` is called with its lease once a place is free, on whichever thread gave one back and with
    // nothing locked: it must only post to its own thread (QMetaObject::invokeMethod, queued; a posted call
    // that never runs drops the lease, which gives the place back). `ticket` names the wait for withdraw().
    Lease take(const QString &endpoint, Go go, quint64 *ticket);
    // A waiting request that went (cancelled, its client gone): `go` is not called.
    void withdraw(const QString &endpoint, quint64 ticket);

    int inFlight(const QString &endpoint) const;
    int waiting(const QString &endpoint) const;
    // The most requests ever in flight at once to one endpoint, and how many have waited their turn (tests,
    // the benchmarks).
    int mostInFlight() const;
    qint64 waitedCount() const;
    void reset(); // forgets the counts (tests); leases out keep their places

private:
    struct State
    {
        int inFlight = 0;
        QList<QPair<quint64, Go>> waiting;
    };
    // Shared with every lease, which may outlive this object (a reply deleted later, at exit).
    struct Places
    {
        QMutex mutex;
        int limit = DefaultPerEndpoint;
        QHash<QString, State> states;
        quint64 tickets = 0;
        int mostInFlight = 0;
        qint64 waited = 0;
    };
    // A lease of a place already counted (with the mutex held).
    static Lease leaseFor(const std::shared_ptr<Places> &places, const QString &endpoint);
    static void giveBack(const std::shared_ptr<Places> &places, const QString &endpoint);

    std::shared_ptr<Places> d = std::make_shared<Places>();
};
