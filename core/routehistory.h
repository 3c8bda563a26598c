#pragma once

#include "core/router.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

// The routes a kluster's router held at the moments the local history keeps (diagnosis.md §6 route-recycled):
// each route that was there at one kept moment and not at a later one, with when it went. Made from the kept
// states' digests (core/statedigest.h); a moment whose router was not read says nothing about its routes.
// Qt Core only, no I/O.
struct RouteHistory
{
    // A route the router held, and the first kept moment it no longer did (the latest such change).
    struct Gone
    {
        Route route;
        QDateTime until; // the first moment recorded without it
    };

    // One kept moment: when it was recorded, and the router's routes then ("<destination> via <nexthop>", as
    // StateDigest keeps them; none: the router was not read).
    struct Moment
    {
        QDateTime at;
        QStringList routes;
        bool routerRead = true;
    };

    QDateTime since; // the oldest moment kept (null: none)
    QList<Gone> gone; // in the order they went, oldest first
    QDateTime latestAt; // the newest moment kept whose router was read, and its routes
    QStringList latest;

    // `moments` as recorded, oldest first (they are ordered by instant; the order recorded breaks a tie);
    // those whose router was not read are left out (an unread list proves nothing).
    static RouteHistory of(QList<Moment> moments);
    // The history with a newer moment (the state being diagnosed): what the latest held and it does not went
    // at `at`.
    void then(const QDateTime &instant, const QList<Route> &routes);
    // The same history on a clock `ms` ahead (the cloud's, where the history keeps this machine's).
    RouteHistory shifted(qint64 ms) const;
    // "<destination> via <nexthop>" back to a route (both empty when the text is not one).
    static Route parse(const QString &text);
};
