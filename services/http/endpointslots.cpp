#include "services/http/endpointslots.h"

#include <utility>

EndpointSlots &EndpointSlots::shared()
{
    static EndpointSlots places;
    return places;
}

void EndpointSlots::setLimit(int perEndpoint)
{
    QList<QPair<Go, Lease>> going;
    {
        QMutexLocker lock(&d->mutex);
        d->limit = qMax(0, perEndpoint);
        // A wider bound lets those waiting go now.
        for (auto it = d->states.begin(); it != d->states.end(); ++it) {
            while (!it->waiting.isEmpty() && (d->limit == 0 || it->inFlight < d->limit)) {
                ++it->inFlight;
                going.append({ it->waiting.takeFirst().second, leaseFor(d, it.key()) });
            }
        }
    }
    for (auto &g : going)
        g.first(std::move(g.second));
}

int EndpointSlots::limit() const
{
    QMutexLocker lock(&d->mutex);
    return d->limit;
}

EndpointSlots::Lease EndpointSlots::leaseFor(const std::shared_ptr<Places> &places, const QString &endpoint)
{
    places->mostInFlight = qMax(places->mostInFlight, places->states.value(endpoint).inFlight);
    // The deleter gives the place back: the lease's last copy may go on any thread, the lock is taken then.
    return Lease(places.get(), [places, endpoint](const void *) { giveBack(places, endpoint); });
}

EndpointSlots::Lease EndpointSlots::take(const QString &endpoint, Go go, quint64 *ticket)
{
    QMutexLocker lock(&d->mutex);
    State &s = d->states[endpoint];
    if (d->limit == 0 || s.inFlight < d->limit) {
        ++s.inFlight;
        return leaseFor(d, endpoint);
    }
    ++d->waited;
    s.waiting.append({ ++d->tickets, std::move(go) });
    *ticket = d->tickets;
    return nullptr;
}

void EndpointSlots::withdraw(const QString &endpoint, quint64 ticket)
{
    QMutexLocker lock(&d->mutex);
    const auto it = d->states.find(endpoint);
    if (it == d->states.end())
        return;
    it->waiting.removeIf([ticket](const QPair<quint64, Go> &w) { return w.first == ticket; });
}

void EndpointSlots::giveBack(const std::shared_ptr<Places> &places, const QString &endpoint)
{
    Go go;
    Lease next;
    {
        QMutexLocker lock(&places->mutex);
        const auto it = places->states.find(endpoint);
        if (it == places->states.end())
            return;
        if (!it->waiting.isEmpty() && (places->limit == 0 || it->inFlight <= places->limit)) {
            // The place passes to the first in line: the count stays.
            go = it->waiting.takeFirst().second;
            next = leaseFor(places, endpoint);
        } else {
            --it->inFlight;
            if (it->inFlight == 0 && it->waiting.isEmpty())
                places->states.erase(it);
        }
    }
    if (go)
        go(std::move(next));
}

int EndpointSlots::inFlight(const QString &endpoint) const
{
    QMutexLocker lock(&d->mutex);
    return d->states.value(endpoint).inFlight;
}

int EndpointSlots::waiting(const QString &endpoint) const
{
    QMutexLocker lock(&d->mutex);
    return int(d->states.value(endpoint).waiting.size());
}

int EndpointSlots::mostInFlight() const
{
    QMutexLocker lock(&d->mutex);
    return d->mostInFlight;
}

qint64 EndpointSlots::waitedCount() const
{
    QMutexLocker lock(&d->mutex);
    return d->waited;
}

void EndpointSlots::reset()
{
    QMutexLocker lock(&d->mutex);
    d->mostInFlight = 0;
    d->waited = 0;
}
